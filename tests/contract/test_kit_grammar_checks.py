"""The kit's grammar checks fail the defects they are for: an env that reads past a retraction fails
``retraction``, an env that spends quadratic time on a space run fails ``hostile_cpu``; a strict, linear
env passes both. Single-turn and multi-turn toy envs, registered for this module only."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from palaestra import kit
from palaestra.core import MultiTurnTask, Outcome, Problem, Task, Verdict, register, registry
from palaestra.kit.grammar import retracted
from palaestra.verifiers.normalize import read_answer
from palaestra.verifiers.numeric import read_integer


@dataclass(frozen=True)
class Cfg:
    size: int


def _integer(text: str) -> int | None:
    return read_answer(text, read_integer)


def _quadratic(text: str) -> int:
    """Work that grows with the square of a text's length, like a backtracking pattern on a space run."""
    return sum(1 for i in range(0, len(text), 3) for _ in range(i, len(text), 3))  # far over the bound on 19k chars


class Strict(Task):
    id = "kitgrammar/strict"
    family = "kitgrammar"
    description = "Double a number."
    Config = Cfg

    def config(self, level: int) -> Cfg:
        return Cfg(10 ** (level + 2))

    def generate(self, rng: random.Random, config: Cfg) -> Problem:
        n = rng.randrange(config.size)
        return Problem(prompt=f"Double {n}.", answer=str(2 * n), data={"n": n})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        value = _integer(answer)
        if value is None:
            return Verdict.unparsed("expected one integer")
        return Verdict.judge(value == 2 * problem.data["n"])

    def spellings(self, problem: Problem) -> list[str]:
        return [*super().spellings(problem), f"{problem.answer}.", f"Answer: **{problem.answer}**"]


class ReadsPastRemarks(Strict):
    id = "kitgrammar/reads_past_remarks"

    def verify(self, problem: Problem, answer: str) -> Verdict:
        head = answer.strip().split()[0].rstrip(".") if answer.strip() else ""
        return Verdict.judge(head == str(2 * problem.data["n"]))


class SlowOnSpaces(Strict):
    id = "kitgrammar/slow_on_spaces"

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if len(answer) <= 20_000:
            _quadratic(answer)
        return super().verify(problem, answer)


class Counting(MultiTurnTask):
    """Say the next number, three times."""

    id = "kitgrammar/counting"
    family = "kitgrammar"
    description = "Count to three, one number a turn."
    Config = Cfg

    def config(self, level: int) -> Cfg:
        return Cfg(level + 1)

    def generate(self, rng: random.Random, config: Cfg) -> Problem:
        start = rng.randrange(100)
        return Problem(prompt=f"Count up from {start}, one number per turn.", answer=None, data={"start": start})

    def max_turns(self, problem: Problem) -> int:
        return 6

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"said": 0}

    def read_move(self, move: str) -> int | None:
        return _integer(move)

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        value = self.read_move(move)
        expected = problem.data["start"] + state["said"] + 1
        if value != expected:
            return Outcome(state, Verdict.unparsed("say the next number") if value is None else Verdict.wrong("no"),
                           f"Say {expected}.")
        said = state["said"] + 1
        done = said == 3
        return Outcome({"said": said}, Verdict(1.0 if done else 0.0, done, True, "ok"), "Next.", done)

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return str(problem.data["start"] + state["said"] + 1)


class CountingPastRemarks(Counting):
    id = "kitgrammar/counting_past_remarks"

    def read_move(self, move: str) -> int | None:
        head = move.strip().split()[0].rstrip(".") if move.strip() else ""
        return int(head) if head.isdigit() else None


class CountingSlowly(Counting):
    id = "kitgrammar/counting_slowly"

    def read_move(self, move: str) -> int | None:
        _quadratic(move)
        return super().read_move(move)


BROKEN = {
    ReadsPastRemarks: "retraction",
    SlowOnSpaces: "hostile_cpu",
    CountingPastRemarks: "retraction",
    CountingSlowly: "hostile_cpu",
}
GOOD = [Strict, Counting]


@pytest.fixture(scope="module", autouse=True)
def registered() -> Iterator[None]:
    for cls in [*GOOD, *BROKEN]:
        register(cls)
    yield
    for cls in [*GOOD, *BROKEN]:
        registry.remove(cls.id)


@pytest.mark.parametrize("cls", GOOD, ids=[c.id for c in GOOD])
def test_strict_linear_envs_pass_the_grammar_checks(cls: type) -> None:
    for check in ("retraction", "hostile_cpu"):
        result = kit.run_check(cls.id, check, kit.Settings.ci())
        assert result.ok, (check, result.detail)


@pytest.mark.parametrize("cls, check", list(BROKEN.items()), ids=[c.id for c in BROKEN])
def test_a_broken_env_fails_its_grammar_check(cls: type, check: str) -> None:
    result = kit.run_check(cls.id, check, kit.Settings.ci())
    assert not result.ok, result.detail


def test_retracted_keeps_a_writers_punctuation() -> None:
    assert retracted("4", ". That is not the answer.") == "4. That is not the answer."
    assert retracted("Yes.", ". I take it back.") == "Yes. I take it back."
    assert retracted("f(1) == 2  # edge", ". This is false.") == "f(1) == 2  # edge\nThis is false."
