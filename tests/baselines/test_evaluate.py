"""The evaluation harness: suites, samples, pass@k tables, transcripts, errors and the CLI."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from palaestra.baselines.evaluate import Suite, run_suite
from palaestra.baselines.policies import OraclePolicy, RandomPolicy
from palaestra.cli import main


def test_oracle_solves_every_problem_of_a_mixed_suite(tmp_path: Path) -> None:
    suite = Suite(("strings/copy", "games/mastermind", "arithmetic/expression"), levels=(0, 4), seeds=(0, 1, 2))
    result = run_suite(OraclePolicy(), suite, samples=2, ks=(1, 2), out_dir=tmp_path)
    assert len(result.records) == 3 * 2 * 3 * 2
    for row in result.env_rows() + result.family_rows() + result.level_rows():
        assert row["pass@1"] == row["pass@2"] == 1.0 and row["errors"] == 0
    assert {r["family"] for r in result.family_rows()} == {"strings", "games", "arithmetic"}
    levels = [(r["env_id"], r["level"]) for r in result.level_rows()]
    assert levels[:2] == [("arithmetic/expression", 0), ("arithmetic/expression", 4)] and len(levels) == 6
    lines = [json.loads(line) for line in (tmp_path / "transcripts.jsonl").read_text().splitlines()]
    assert len(lines) == 36 and {tuple(sorted(r)) for r in lines} == {tuple(sorted(lines[0]))}
    game = next(r for r in lines if r["env_id"] == "games/mastermind" and r["level"] == 4)
    assert game["turns"] > 1 and game["messages"][-1]["role"] == "env" and game["correct"]
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["episodes"] == 36 and summary["envs"] == json.loads(json.dumps(result.env_rows()))
    assert (tmp_path / "pass_at_k.png").read_bytes()[:4] == b"\x89PNG"


def test_random_policy_scores_chance_and_pass_at_k_grows_with_k() -> None:
    result = run_suite(RandomPolicy(seed=1), Suite(("strings/copy",), levels=(0,), seeds=tuple(range(20))), samples=8,
                       ks=(1, 4, 8))
    [row] = result.env_rows()
    assert 0.05 < row["pass@1"] < 0.3  # level 0 has 8 possible answers
    assert row["pass@1"] < row["pass@4"] < row["pass@8"] <= 1.0


@dataclass
class Reply:
    text: str | None
    error: str | None = None


class ScriptedChat:
    """A chat model that bisects games/guess_number and cannot answer where the range starts at an odd number."""

    name = "scripted"

    def __init__(self) -> None:
        self.calls: list[int] = []

    def complete(self, conversations: Sequence[Sequence[dict[str, str]]], seeds: Sequence[int]) -> list[Any]:
        self.calls.append(len(conversations))
        replies: list[Any] = []
        for messages in conversations:
            low, high = map(int, re.search(r"between (\d+) and (\d+)", messages[0]["content"]).groups())  # type: ignore[union-attr]
            for m in messages[1:]:
                hint = re.search(r"(higher|lower) than (\d+)", m["content"]) if m["role"] == "user" else None
                if hint:
                    guess = int(hint.group(2))
                    low, high = (guess + 1, high) if hint.group(1) == "higher" else (low, guess - 1)
            failing = low % 2 == 1 and len(messages) == 1
            replies.append(Reply(None, "HTTP 503") if failing else f"<answer>{(low + high) // 2}</answer>")
        return replies


def test_chat_model_errors_are_recorded_and_left_out_of_pass_at_k() -> None:
    chat = ScriptedChat()
    result = run_suite(chat, Suite(("games/guess_number",), levels=(0,), seeds=tuple(range(12))), samples=2, ks=(1, 2),
                       batch_size=8)
    errored = [r for r in result.records if r["error"]]
    assert errored and all(r["error"] == "HTTP 503" and r["turns"] == 0 and not r["correct"] for r in errored)
    assert all(r["correct"] for r in result.records if not r["error"])  # bisection wins every game it plays
    [row] = result.env_rows()
    assert row["errors"] == len(errored) and row["pass@1"] == 1.0
    assert row["problems@1"] == 12 - len({r["seed"] for r in errored}) and math.isnan(run_suite(
        chat, Suite(("games/guess_number",), levels=(0,), seeds=(errored[0]["seed"],)), samples=2, ks=(1,)
    ).env_rows()[0]["pass@1"])
    assert max(chat.calls) <= 8  # batches of at most batch_size conversations


def test_k_larger_than_samples_is_refused() -> None:
    with pytest.raises(ValueError, match="samples"):
        run_suite(OraclePolicy(), Suite(("strings/copy",), levels=(0,), seeds=(0,)), samples=2, ks=(1, 5))


def test_cli_eval_with_a_model_prints_pass_at_k_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--model", "random", "--envs", "strings/copy", "deduction/propositional", "--levels", "0", "2",
                 "--seeds", "5", "--samples", "3", "--k", "1", "3", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^env_id\s+level\s+episodes\s+errors\s+reward\s+pass@1 \(problems\)\s+pass@3 \(problems\)$",
                     out, re.MULTILINE)
    # every pass@k says how many problems it rests on: here all 5 problems of the level had 3 judged samples
    assert re.search(r"^strings/copy\s+0\s+15\s+0\s+\S+\s+\S+ \(5/5\)\s+\S+ \(5/5\)$", out, re.MULTILINE)
    assert re.search(r"^deduction\s+30\s+0\s", out, re.MULTILINE)
    assert "60 episodes (20 problems x 3 samples" in out
    too_few = ["eval", "--model", "oracle", "--envs", "strings/copy", "--seeds", "2", "--samples", "1", "--k", "2"]
    assert main(too_few) == 2
    assert "samples" in capsys.readouterr().err
