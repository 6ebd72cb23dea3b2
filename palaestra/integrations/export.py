"""Problem sets as trainers' dataset files: Hugging Face rows, verl parquet, OpenRLHF JSONL.

Every row carries the serialised :class:`~palaestra.core.problem.Problem` as JSON text (its
``data`` may hold lists of mixed types, which Arrow cannot type), so the reward side rebuilds
the exact problem in any process with ``Problem.from_json`` and judges it with
:func:`palaestra.score`.

- ``hf``: ``prompt`` (chat messages, or the plain text with ``conversational=False``),
  ``env_id``, ``level``, ``seed``, ``version``, ``answer_format``, ``turns``, ``answer`` (the
  reference) and ``problem`` (JSON); what :mod:`palaestra.integrations.trl` trains on.
- ``verl``: verl's RL dataset schema: ``data_source`` (``palaestra/<id>``), ``prompt`` (chat
  messages), ``ability`` (the family), ``reward_model`` (``style``, ``ground_truth``),
  ``extra_info`` (``index``, ``split``, identity and ``problem``) and ``agent_name``
  (``single_turn_agent``, or ``palaestra_agent`` for multi-turn envs, see
  :mod:`palaestra.integrations.verl`).
- ``openrlhf``: ``prompt``, ``label`` (the problem JSON) and ``datasource``; train with
  ``--data.input_key prompt --data.label_key label``.

Files: ``.parquet`` (pyarrow), ``.jsonl`` or ``.json`` (one object per line). Rows are streamed:
written in batches as they are made (constant memory, parquet in row groups), optionally by
several worker processes (``workers``), always in the same order, so the file is identical for
any worker count.

Example::

    >>> rows = list(rows_for("verl", problem_set("arithmetic/addition", seeds=2)))
    >>> rows[0]["data_source"], rows[0]["extra_info"]["seed"], rows[1]["agent_name"]
    ('palaestra/arithmetic/addition', 0, 'single_turn_agent')

    palaestra export verl --envs arithmetic/expression games/wordle --levels 0 1 2 --seeds 1000 --out train.parquet
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from palaestra.core.optional import require
from palaestra.core.problem import Problem
from palaestra.core.registry import registry
from palaestra.integrations.common import chat_prompt, data_source, is_multi_turn, problem_set

KINDS = ("hf", "verl", "openrlhf")
VERL_MULTI_TURN_AGENT = "palaestra_agent"
VERL_SINGLE_TURN_AGENT = "single_turn_agent"


def hf_row(problem: Problem, conversational: bool = True, system_prompt: str | None = None) -> dict[str, Any]:
    """One Hugging Face dataset row (see the module docstring)."""
    return {
        "prompt": chat_prompt(problem, system_prompt) if conversational else _plain(problem, system_prompt),
        "env_id": problem.env_id, "level": problem.level, "seed": problem.seed, "version": problem.version,
        "answer_format": problem.answer_format, "turns": registry[problem.env_id].turns,
        "answer": problem.answer, "problem": problem.to_json(),
    }


def verl_row(problem: Problem, index: int = 0, split: str = "train",
             system_prompt: str | None = None) -> dict[str, Any]:
    """One row of verl's RL dataset (see the module docstring)."""
    multi = is_multi_turn(problem.env_id)
    return {
        "data_source": data_source(problem.env_id),
        "prompt": chat_prompt(problem, system_prompt),
        "ability": registry[problem.env_id].family,
        "reward_model": {"style": "rule", "ground_truth": problem.answer or ""},
        "extra_info": {"index": index, "split": split, "env_id": problem.env_id, "level": problem.level,
                       "seed": problem.seed, "version": problem.version, "answer_format": problem.answer_format,
                       "problem": problem.to_json()},
        "agent_name": VERL_MULTI_TURN_AGENT if multi else VERL_SINGLE_TURN_AGENT,
    }


def openrlhf_row(problem: Problem, conversational: bool = True, system_prompt: str | None = None) -> dict[str, Any]:
    """One OpenRLHF prompt row: ``prompt``, ``label`` (the problem JSON) and ``datasource``."""
    return {"prompt": chat_prompt(problem, system_prompt) if conversational else _plain(problem, system_prompt),
            "label": problem.to_json(), "datasource": data_source(problem.env_id)}


def _plain(problem: Problem, system_prompt: str | None) -> str:
    return f"{system_prompt}\n\n{problem.prompt}" if system_prompt else problem.prompt


def rows_for(kind: str, problems: Iterable[Problem], conversational: bool = True, system_prompt: str | None = None,
             split: str = "train", start: int = 0) -> Iterator[dict[str, Any]]:
    """The rows of ``kind`` (``hf``, ``verl``, ``openrlhf``) for ``problems`` (verl's index counts from ``start``)."""
    if kind not in KINDS:
        raise ValueError(f"unknown export kind {kind!r}; choose one of {list(KINDS)}")
    for index, problem in enumerate(problems, start):
        if kind == "hf":
            yield hf_row(problem, conversational, system_prompt)
        elif kind == "verl":
            yield verl_row(problem, index, split, system_prompt)
        else:
            yield openrlhf_row(problem, conversational, system_prompt)


ROWS_PER_BATCH = 2_000  # rows per parquet row group and per worker task: bounded memory, cheap hand-offs


def write_rows(rows: Iterable[dict[str, Any]], path: str | Path) -> int:
    """Write rows to ``.parquet``, ``.jsonl`` or ``.json`` (JSON lines) as they come; returns how many were written.

    Parquet is written in row groups of :data:`ROWS_PER_BATCH` rows with the schema of the first
    group (a column that is null throughout it is typed as text), so memory stays bounded.
    """
    path = _checked_path(path)
    with _replaced_when_whole(path) as partial:
        if path.suffix == ".parquet":
            return _write_parquet(rows, partial)
        return _write_lines(((1, _json_line(row)) for row in rows), partial)


@contextmanager
def _replaced_when_whole(path: Path) -> Iterator[Path]:
    """A file beside ``path`` to write to, renamed to ``path`` once the block ends without an error: an export
    that fails or is interrupted (an env that raises, Ctrl-C) leaves whatever ``path`` held before, never a
    shorter file that reads back as a whole dataset (a parquet file closed early is valid)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial-{os.getpid()}")
    try:
        yield partial
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


def _checked_path(path: str | Path) -> Path:
    path = Path(path)
    if path.suffix not in (".parquet", ".jsonl", ".json"):
        raise ValueError(f"write to a .parquet, .jsonl or .json file, not {path.name!r}")
    return path


def _json_line(row: dict[str, Any]) -> str:
    return json.dumps(row, ensure_ascii=False) + "\n"


def _write_lines(chunks: Iterable[tuple[int, str]], path: Path) -> int:
    """Write ``(row count, JSON lines)`` chunks to ``path``; returns the row count."""
    count = 0
    with path.open("w", encoding="utf-8") as out:
        for rows, text in chunks:
            out.write(text)
            count += rows
    return count


def _write_parquet(rows: Iterable[dict[str, Any]], path: Path) -> int:
    pa = require("pyarrow", "export", "writing parquet")
    pq = require("pyarrow.parquet", "export", "writing parquet")
    writer, count = None, 0
    try:
        for batch in _batches(rows, ROWS_PER_BATCH):
            if writer is None:
                schema = pa.Table.from_pylist(batch).schema
                schema = pa.schema([f.with_type(pa.string()) if pa.types.is_null(f.type) else f for f in schema])
                writer = pq.ParquetWriter(path, schema)
            writer.write_table(pa.Table.from_pylist(batch, schema=writer.schema))
            count += len(batch)
        if writer is None:  # no rows: an empty file with no columns still reads back
            pq.write_table(pa.table({}), path)
    finally:
        if writer is not None:
            writer.close()
    return count


def _batches(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    batch: list[Any] = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def rows_of_job(job: tuple[Any, ...]) -> list[dict[str, Any]]:
    """The rows of one job of :func:`export_jobs`: one env, one level, a run of seeds (module level: it is pickled)."""
    kind, env_id, level, seeds, start, answer_format, conversational, system_prompt, split = job
    return list(rows_for(kind, problem_set([env_id], [level], seeds, answer_format), conversational, system_prompt,
                         split, start))


def lines_of_job(job: tuple[Any, ...]) -> tuple[int, str]:
    """The rows of one job as JSON lines, with their count: a worker serialises its own rows, so the
    process writing the file only writes text (module level: it is pickled)."""
    rows = rows_of_job(job)
    return len(rows), "".join(map(_json_line, rows))


def export(kind: str, env_ids: str | Iterable[str], out: str | Path, levels: int | Iterable[int] = (0,),
           seeds: int | Iterable[int] = 100, answer_format: str | None = None, conversational: bool = True,
           system_prompt: str | None = None, split: str = "train", workers: int = 1,
           ray_address: str | None = None) -> int:
    """Write the problem set env ids x levels x seeds as ``kind`` rows to ``out``; returns the row count.

    ``workers > 1`` makes the rows in that many processes; ``ray_address`` (``"auto"``, ``"ray://HOST:PORT"``,
    or ``"local"`` for this process's Ray instance) makes them as Ray tasks spread over a cluster's nodes,
    which survives the loss of a node (:mod:`palaestra.vector.ray_map`). The file is the same either way.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown export kind {kind!r}; choose one of {list(KINDS)}")
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    ids = [env_ids] if isinstance(env_ids, str) else list(env_ids)
    if workers == 1 and ray_address is None:
        problems = problem_set(ids, levels, seeds, answer_format)
        return write_rows(rows_for(kind, problems, conversational, system_prompt, split), out)
    jobs = export_jobs(kind, ids, levels, seeds, answer_format, conversational, system_prompt, split)
    path = _checked_path(out)  # before any worker starts
    as_lines = path.suffix in (".jsonl", ".json")  # JSON lines are made where the rows are; parquet here
    make = lines_of_job if as_lines else rows_of_job
    if ray_address is not None:
        from palaestra.vector.ray_map import ray_map

        results = ray_map(make, jobs, address=ray_address)
        return _write_made(results, path, as_lines)
    import multiprocessing

    # forkserver: workers start from a small clean process, not from a copy of the caller's threads and memory
    with multiprocessing.get_context("forkserver").Pool(workers) as pool:
        return _write_made(pool.imap(make, jobs), path, as_lines)


def _write_made(results: Iterable[Any], path: Path, as_lines: bool) -> int:
    """Write what the jobs made: ``lines_of_job``'s chunks as they are, ``rows_of_job``'s rows by ``write_rows``."""
    if not as_lines:
        return write_rows((row for rows in results for row in rows), path)
    with _replaced_when_whole(path) as partial:
        return _write_lines(results, partial)


def export_jobs(kind: str, env_ids: list[str], levels: int | Iterable[int], seeds: int | Iterable[int],
                answer_format: str | None = None, conversational: bool = True, system_prompt: str | None = None,
                split: str = "train") -> list[tuple[Any, ...]]:
    """The export as independent jobs, in the file's order: one per env, level and run of
    :data:`ROWS_PER_BATCH` seeds; :func:`rows_of_job` makes a job's rows in any process."""
    level_list = [levels] if isinstance(levels, int) else list(levels)
    seed_list = list(range(seeds)) if isinstance(seeds, int) else list(seeds)
    jobs, start = [], 0
    for env_id in env_ids:
        for level in level_list:
            if not _has_level(env_id, level):
                continue
            for first in range(0, len(seed_list), ROWS_PER_BATCH):
                chunk = seed_list[first:first + ROWS_PER_BATCH]
                jobs.append((kind, env_id, level, chunk, start, answer_format, conversational, system_prompt, split))
                start += len(chunk)
    return jobs


def _has_level(env_id: str, level: int) -> bool:
    """Whether ``problem_set`` makes problems of ``level`` for ``env_id`` (the rule it skips levels by)."""
    return any(True for _ in problem_set([env_id], [level], [0]))
