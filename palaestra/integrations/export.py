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

Files: ``.parquet`` (pyarrow), ``.jsonl`` or ``.json`` (one object per line).

Example::

    >>> rows = list(rows_for("verl", problem_set("arithmetic/addition", seeds=2)))
    >>> rows[0]["data_source"], rows[0]["extra_info"]["seed"], rows[1]["agent_name"]
    ('palaestra/arithmetic/addition', 0, 'single_turn_agent')

    palaestra export verl --envs arithmetic/expression games/wordle --levels 0 1 2 --seeds 1000 --out train.parquet
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
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
             split: str = "train") -> Iterator[dict[str, Any]]:
    """The rows of ``kind`` (``hf``, ``verl``, ``openrlhf``) for ``problems``."""
    if kind not in KINDS:
        raise ValueError(f"unknown export kind {kind!r}; choose one of {list(KINDS)}")
    for index, problem in enumerate(problems):
        if kind == "hf":
            yield hf_row(problem, conversational, system_prompt)
        elif kind == "verl":
            yield verl_row(problem, index, split, system_prompt)
        else:
            yield openrlhf_row(problem, conversational, system_prompt)


def write_rows(rows: Iterable[dict[str, Any]], path: str | Path) -> int:
    """Write rows to ``.parquet``, ``.jsonl`` or ``.json`` (JSON lines); returns how many were written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".parquet":
        pa = require("pyarrow", "export", "writing parquet")
        pq = require("pyarrow.parquet", "export", "writing parquet")

        table = pa.Table.from_pylist(list(rows))
        pq.write_table(table, path)
        return table.num_rows
    if path.suffix not in (".jsonl", ".json"):
        raise ValueError(f"write to a .parquet, .jsonl or .json file, not {path.name!r}")
    count = 0
    with path.open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
            count += 1
    return count


def export(kind: str, env_ids: str | Iterable[str], out: str | Path, levels: int | Iterable[int] = (0,),
           seeds: int | Iterable[int] = 100, answer_format: str | None = None, conversational: bool = True,
           system_prompt: str | None = None, split: str = "train") -> int:
    """Write the problem set env ids x levels x seeds as ``kind`` rows to ``out``; returns the row count."""
    ids = [env_ids] if isinstance(env_ids, str) else list(env_ids)
    problems = problem_set(ids, levels, seeds, answer_format)
    return write_rows(rows_for(kind, problems, conversational, system_prompt, split), out)
