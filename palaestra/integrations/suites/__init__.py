"""Named, versioned evaluation suites (``palaestra eval --suite NAME``), re-verification and Markdown reports.

A suite is a small JSON file in this folder: a ``name``, a ``version``, the ``levels``, the
number of ``seeds`` (problems ``0 .. seeds-1`` per env and level), ``samples`` per problem,
the ``k`` of pass@k, and its ``envs``, each pinned to the env version the suite was made
with. Problems are fully determined by ``(env id, level, seed)`` and the env version, so two
runs of ``core`` v1 on any machine, in any release where the pins still hold, score the
same problems. A release that bumps a pinned env's version must bump the suite's version
(the suite refuses to run on other env versions, and a test checks the shipped pins).

- :func:`run_named_suite`: play a suite with any model ``palaestra eval`` knows; writes
  ``transcripts.jsonl``, ``summary.json``, ``pass_at_k.png`` and ``report.md``.
- :func:`reverify`: re-score stored transcripts with the current verifiers (each problem is
  regenerated from its identity and checked against the transcript's prompt) and say
  which verdicts changed.
- :func:`write_report`: the Markdown report: per family, per env, per env and level, the
  errors that were not scored, and the pass@k plot.

Example::

    palaestra eval --suite core --model openai:http://127.0.0.1:8000/v1#Qwen2.5-7B-Instruct --out runs/core
    palaestra eval --reverify runs/core/transcripts.jsonl --out runs/core-reverified

    >>> spec = load_suite("multi-turn")
    >>> spec.name, spec.version, spec.samples
    ('multi-turn', 2, 4)
"""

from __future__ import annotations

import json
import math
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from palaestra.baselines.evaluate import Suite, SuiteResult, error_reason, pass_cell, plot_pass_at_k, run_suite
from palaestra.core.extract import EXTRACTORS
from palaestra.core.problem import Problem
from palaestra.core.registry import registry
from palaestra.core.scoring import score
from palaestra.integrations.common import sample

SUITE_DIR = Path(__file__).resolve().parent
REPORT_FILE = "report.md"


@dataclass(frozen=True)
class SuiteSpec:
    """One suite file (see the module docstring)."""

    name: str
    version: int
    description: str
    envs: dict[str, int]  # env id -> the env version the suite pins
    levels: tuple[int, ...]
    seeds: int
    samples: int
    ks: tuple[int, ...]

    @property
    def label(self) -> str:
        return f"{self.name} v{self.version}"

    def version_mismatches(self) -> list[str]:
        """Envs whose installed version differs from the pin (or that are not installed), as messages."""
        problems = []
        for env_id, pinned in self.envs.items():
            if env_id not in registry:
                problems.append(f"{env_id} is not installed")
            elif registry[env_id].version != pinned:
                problems.append(f"{env_id} is v{registry[env_id].version}, the suite pins v{pinned}")
        return problems

    def suite(self) -> Suite:
        return Suite(tuple(self.envs), self.levels, tuple(range(self.seeds)))


def list_suites() -> list[str]:
    """The names of the suites shipped with palaestra."""
    return sorted(path.stem for path in SUITE_DIR.glob("*.json"))


def load_suite(name_or_path: str | Path) -> SuiteSpec:
    """A shipped suite by name (``core``, ``multi-turn``, ``coding``), or a suite file by path."""
    path = Path(name_or_path)
    if not path.suffix:
        path = SUITE_DIR / f"{name_or_path}.json"
    if not path.is_file():
        raise ValueError(f"unknown suite {str(name_or_path)!r}; shipped suites: {list_suites()}")
    data = json.loads(path.read_text())
    spec = SuiteSpec(name=data["name"], version=int(data["version"]), description=data.get("description", ""),
                     envs={str(k): int(v) for k, v in data["envs"].items()}, levels=tuple(data["levels"]),
                     seeds=int(data["seeds"]), samples=int(data["samples"]), ks=tuple(data["k"]))
    if any(not 1 <= k <= spec.samples for k in spec.ks):
        raise ValueError(f"suite {spec.label}: every k must be in [1, samples={spec.samples}]")
    return spec


def run_named_suite(model: Any, spec: SuiteSpec, out_dir: str | Path | None = None, answer_format: str | None = None,
                    batch_size: int = 64) -> SuiteResult:
    """Play the suite with ``model`` (anything :func:`palaestra.baselines.evaluate.run_suite` takes)."""
    mismatches = spec.version_mismatches()
    if mismatches:
        raise ValueError(f"suite {spec.label} does not match the installed envs ({'; '.join(mismatches)}): its "
                         "results would not be comparable; use a palaestra release that matches it, or a newer suite")
    result = run_suite(model, spec.suite(), samples=spec.samples, ks=spec.ks, answer_format=answer_format,
                       batch_size=batch_size, out_dir=out_dir)
    if out_dir is not None:
        summary_path = Path(out_dir) / "summary.json"
        summary = json.loads(summary_path.read_text())
        summary["suite"] = {"name": spec.name, "version": spec.version, "envs": spec.envs}
        summary_path.write_text(json.dumps(summary, indent=2))
        write_report(result, Path(out_dir), title=f"suite {spec.label}", note=spec.description)
    return result


# --- re-verification ------------------------------------------------------------------------------------

FORMATS: tuple[str | None, ...] = (None, *EXTRACTORS)


@dataclass
class Reverified:
    """Transcripts re-scored: the new records, and how their verdicts compare with the stored ones."""

    result: SuiteResult
    changes: Counter[str] = field(default_factory=Counter)
    changed: list[dict[str, Any]] = field(default_factory=list)  # the records whose verdict changed


def reverify(transcripts: str | Path, ks: Sequence[int] | None = None) -> Reverified:
    """Re-score every episode of a ``transcripts.jsonl`` with the current verifiers.

    Each problem is regenerated from ``(env_id, level, seed)`` in the answer format whose
    prompt matches the transcript's; a problem that no longer matches (its env changed
    version) or an env that is gone is counted and keeps its stored verdict. An episode
    that ended in an infrastructure error before any reply keeps it too.
    """
    path = Path(transcripts)
    records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    start = time.perf_counter()
    outcome = Reverified(SuiteResult("", (), [], 0.0))
    new_records = []
    for record in records:
        status, updated = _rescore(record)
        outcome.changes[status] += 1
        if status not in ("same", "problem changed", "env missing", "no replies"):
            outcome.changed.append(updated)
        new_records.append(updated)
    models = sorted({r.get("model", "") for r in records})
    outcome.result = SuiteResult(", ".join(models), tuple(ks or _default_ks(new_records)), new_records,
                                 time.perf_counter() - start)
    return outcome


def _default_ks(records: Iterable[dict[str, Any]]) -> list[int]:
    counts = Counter((r["env_id"], r["level"], r["seed"]) for r in records)
    fewest = min(counts.values(), default=1)
    return sorted({1, fewest})


def _rescore(record: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    previous = {"reward": record.get("reward"), "correct": record.get("correct"), "error": record.get("error")}
    messages = record.get("messages") or []
    replies = [m["content"] for m in messages if m.get("role") == "assistant"]
    if record.get("env_id") not in registry:
        return "env missing", record
    if not replies:
        return "no replies", record
    prompt = next((m["content"] for m in messages if m.get("role") == "user"), None)
    problem = _regenerate(record["env_id"], int(record["level"]), int(record["seed"]), prompt)
    if problem is None:
        return "problem changed", record
    multi = registry[record["env_id"]].turns == "multi"
    verdict = score(problem, replies if multi else replies[-1])
    updated = {**record, "reward": verdict.reward, "correct": verdict.correct, "error": verdict.error,
               "previous": previous}
    was_error, now_error = previous["error"] is not None, verdict.error is not None
    if was_error and not now_error:
        status = "error now judged"
    elif now_error and not was_error:
        status = "now an error"
    elif bool(previous["correct"]) != verdict.correct:
        status = "now right" if verdict.correct else "now wrong"
    elif not was_error and not math.isclose(float(previous["reward"] or 0.0), verdict.reward, abs_tol=1e-9):
        status = "reward changed"
    else:
        status = "same"
    return status, updated


def _regenerate(env_id: str, level: int, seed: int, prompt: str | None) -> Problem | None:
    for answer_format in FORMATS:
        try:
            problem = sample(env_id, level, seed, answer_format)
        except ValueError:  # a format this env cannot carry, or a level it no longer has
            continue
        if prompt is None or problem.prompt == prompt:
            return problem
    return None


# --- reports --------------------------------------------------------------------------------------------


def write_report(result: SuiteResult, out_dir: Path, title: str, note: str = "",
                 extra: Sequence[str] = ()) -> Path:
    """``report.md`` (and ``pass_at_k.png`` when matplotlib is installed) in ``out_dir``."""
    from palaestra import __version__

    out_dir.mkdir(parents=True, exist_ok=True)
    plot = plot_pass_at_k(result, out_dir / "pass_at_k.png") if result.records else None
    errors = result.error_reasons()
    lines = [f"# palaestra eval: {title}", "",
             f"model `{result.model}`, palaestra {__version__}, {time.strftime('%Y-%m-%d %H:%M')}: "
             f"{len(result.records)} episodes, {sum(errors.values())} not scored (infrastructure errors), "
             f"{result.seconds:.1f} s", ""]
    if note:
        lines += [note, ""]
    lines += list(extra)
    for heading, columns, rows in (("By family", ["family"], result.family_rows()),
                                   ("By environment", ["env_id"], result.env_rows()),
                                   ("By environment and level", ["env_id", "level"], result.level_rows())):
        lines += [f"## {heading}", "", *_markdown_table(columns, rows, result.ks), ""]
    if plot is not None:
        lines += ["## pass@k", "", f"![pass@k per environment]({plot.name})", ""]
    if errors:
        lines += ["## Not scored", "", "| reason | episodes |", "|---|---|",
                  *(f"| {reason} | {count} |" for reason, count in errors.items()), ""]
    path = out_dir / REPORT_FILE
    path.write_text("\n".join(lines))
    return path


def _markdown_table(columns: Sequence[str], rows: Sequence[dict[str, Any]], ks: Sequence[int]) -> list[str]:
    headers = [*columns, "episodes", "errors", "reward", *(f"pass@{k} (problems)" for k in ks)]
    body = [[str(r[c]) for c in columns] + [str(r["episodes"]), str(r["errors"]), _number(r["reward"]),
                                            *(pass_cell(r, k) for k in ks)] for r in rows]
    rule = "|" + "---|" * len(headers)
    return ["| " + " | ".join(headers) + " |", rule, *("| " + " | ".join(b) + " |" for b in body)]


def _number(value: float) -> str:
    return "-" if value != value else f"{value:.3f}"  # NaN: nothing judged


# --- the command line -----------------------------------------------------------------------------------


def eval_command(args: Any, load_model: Callable[[Any], tuple[Any, str | None]]) -> int:
    """``palaestra eval --suite NAME`` / ``--reverify FILE``; ``load_model(args)`` is the CLI's model loader."""
    if args.reverify:
        return _reverify_command(args)
    spec = load_suite(args.suite)
    # Without --model the suite is played by both reference policies, as the command's help says: the oracle
    # (every problem solvable) and random play (the floor); each writes its report in its own folder.
    names = [args.model] if args.model is not None else ["oracle", "random"]
    status = 0
    for name in names:
        args.model = name
        model, answer_format = load_model(args)
        out_dir = args.out if args.out is None or len(names) == 1 else str(Path(args.out) / name)
        result = run_named_suite(model, spec, out_dir=out_dir, answer_format=answer_format, batch_size=args.batch_size)
        print(_text_table(["family"], result.family_rows(), result.ks))
        errors = sum(result.error_reasons().values())
        print(f"\n{result.model} on suite {spec.label}: {len(result.records)} episodes in {result.seconds:.1f} s; "
              f"{errors} infrastructure errors (not scored)")
        if out_dir:
            print(f"report: {Path(out_dir) / REPORT_FILE}")
        if result.records and errors == len(result.records):
            status = 1
    return status


def _reverify_command(args: Any) -> int:
    outcome = reverify(args.reverify)
    result = outcome.result
    print("verdicts: " + ", ".join(f"{status} {count}" for status, count in outcome.changes.most_common()))
    print(_text_table(["env_id"], result.env_rows(), result.ks))
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        with (out / "transcripts.jsonl").open("w") as file:
            for record in result.records:
                file.write(json.dumps(record, ensure_ascii=False) + "\n")
        summary = ["## Re-verification", "", "| verdict | episodes |", "|---|---|",
                   *(f"| {status} | {count} |" for status, count in outcome.changes.most_common()), ""]
        if outcome.changed:
            summary += ["Changed verdicts (env, level, seed, sample: before -> now):", ""]
            summary += [f"- {r['env_id']} level {r['level']} seed {r['seed']} sample {r.get('sample', 0)}: "
                        f"{_verdict_text(r['previous'])} -> {_verdict_text(r)}" for r in outcome.changed[:200]]
            summary.append("")
        path = write_report(result, out, title=f"re-verification of {args.reverify}", extra=summary)
        print(f"report: {path}")
    return 0


def _verdict_text(record: dict[str, Any]) -> str:
    if record.get("error") is not None:
        return f"not scored ({error_reason(str(record['error']))})"
    return "right" if record.get("correct") else f"wrong (reward {float(record.get('reward') or 0):g})"


def _text_table(columns: Sequence[str], rows: Sequence[dict[str, Any]], ks: Sequence[int]) -> str:
    cells = [[*columns, "episodes", "errors", "reward", *(f"pass@{k} (problems)" for k in ks)]]
    cells += [[str(r[c]) for c in columns] + [str(r["episodes"]), str(r["errors"]), _number(r["reward"]),
                                              *(pass_cell(r, k) for k in ks)] for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(cells[0]))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)

