"""``palaestra.score`` judges a row of any dataset palaestra writes, as the README invites: TRL's
``build_dataset`` rows, ``palaestra export`` rows (hf, verl, openrlhf), and plain ``Problem.to_row`` rows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import palaestra
from palaestra.cli import main
from palaestra.core.registry import registry
from palaestra.core.scoring import to_problem

SINGLE_TURN = [s.id for s in registry.specs(turns="single")]


def _rows_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.parametrize("kind", ["hf", "openrlhf"])
def test_score_judges_exported_rows_of_every_single_turn_env(kind: str, tmp_path: Path) -> None:
    # one problem of every single-turn env that needs no optional package or toolchain to judge its reference
    envs = [e for e in SINGLE_TURN if not getattr(registry[e].cls, "toolchains", ())
            and not getattr(registry[e].cls, "python_requires", ())]
    out = tmp_path / "rows.jsonl"
    assert main(["export", kind, "--envs", *envs, "--seeds", "1", "--out", str(out)]) == 0
    rows = _rows_of(out)
    assert len(rows) == len(envs)
    for row in rows:
        problem = to_problem(row)
        verdict = palaestra.score(row, registry[problem.env_id].cls().format_answer(problem.answer))
        assert verdict.error is None and verdict.correct, (problem.env_id, verdict)


def test_score_judges_verl_rows_and_trl_dataset_rows() -> None:
    from palaestra.integrations.export import verl_row
    from palaestra.integrations.trl import build_dataset

    source = registry["arithmetic/expression"].cls()
    verl = [verl_row(source.sample(0, seed), index=seed) for seed in range(3)]
    for row in [*build_dataset(["arithmetic/expression"], seeds=3), *verl]:
        problem = to_problem(row)
        assert palaestra.score(row, f"<answer>{problem.answer}</answer>").correct
        assert not palaestra.score(row, "<answer>no</answer>").correct


def test_a_row_without_the_problem_is_an_error_not_a_wrong_answer() -> None:
    verdict = palaestra.score({"env_id": "arithmetic/expression", "version": 2, "prompt": "x"}, "<answer>1</answer>")
    assert verdict.error is not None and "neither a problem column" in verdict.error
