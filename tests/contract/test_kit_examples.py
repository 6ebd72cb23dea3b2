"""The kit's example and budget checks fail deliberately broken toy envs and pass their fixed twins.

The broken toys reproduce the round-3 findings: an example that is the opposite of a yes/no answer
(old ``tools/fact_check``), a default example swapped out when it is the answer, and a tool budget
printed as a function of the answer (old ``tools/aggregation_qa``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from palaestra import kit
from palaestra.core import MultiTurnTask, Outcome, Problem, Task, Verdict, register, registry
from palaestra.kit.examples import example_readings, example_segments, printed_numbers

SETTINGS = kit.Settings.ci()


@dataclass(frozen=True)
class Cfg:
    size: int


class _Toy(Task):
    family = "kitdemo"
    description = "A toy for the example checks."
    Config = Cfg

    def config(self, level: int) -> Cfg:
        return Cfg(10 ** (level + 4))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        return Verdict.judge(answer.strip().lower() == problem.answer)

    def difficulty(self, problem: Problem) -> float:
        return float(problem.data["n"])


class OppositeExample(_Toy):
    """Old tools/fact_check: the example label is always the other label."""

    id = "kitdemo/opposite_example"

    def generate(self, rng: random.Random, config: Cfg) -> Problem:
        n = rng.randrange(config.size)
        answer = "yes" if n % 2 == 0 else "no"
        example = "no" if answer == "yes" else "yes"
        return Problem(prompt=f"Is {n} even? Answer yes or no, e.g. <answer>{example}</answer>.", answer=answer,
                       data={"n": n})


class FixedYesNoExample(OppositeExample):
    id = "kitdemo/fixed_yes_no_example"

    def generate(self, rng: random.Random, config: Cfg) -> Problem:
        n = rng.randrange(config.size)
        return Problem(prompt=f"Is {n} even? Answer yes or no, e.g. <answer>yes</answer>.",
                       answer="yes" if n % 2 == 0 else "no", data={"n": n})


class AvoidingExample(_Toy):
    """A default example unless it is the answer: the example never equals the answer."""

    id = "kitdemo/avoiding_example"

    def generate(self, rng: random.Random, config: Cfg) -> Problem:
        n = rng.randrange(config.size)
        answer = str(n % 7)
        example = 3 if answer != "3" else 5
        return Problem(prompt=f"What is {n} mod 7? Give one digit, for example: {example}", answer=answer,
                       data={"n": n})


class RandomExample(AvoidingExample):
    """The example drawn from the rng independently of the answer: it is sometimes the answer."""

    id = "kitdemo/random_example"

    def generate(self, rng: random.Random, config: Cfg) -> Problem:
        n = rng.randrange(config.size)
        return Problem(prompt=f"What is {n} mod 7? Give one digit, for example: {rng.randrange(7)}",
                       answer=str(n % 7), data={"n": n})


class AvoidingNodes(_Toy):
    """Example nodes drawn among those not in the answer (old graphs/articulation_points)."""

    id = "kitdemo/avoiding_nodes"

    def generate(self, rng: random.Random, config: Cfg) -> Problem:
        n = rng.randrange(config.size)
        nodes = sorted(rng.sample(range(10), 3))
        example = sorted(rng.sample([v for v in range(10) if v not in nodes], 2))
        return Problem(prompt=f"Graph {n} on nodes 0 1 2 3 4 5 6 7 8 9. Which nodes? For example: "
                              f"{example[0]}, {example[1]}", answer=", ".join(map(str, nodes)), data={"n": n})


class GiveAway(AvoidingExample):
    """The example is the answer most of the time."""

    id = "kitdemo/give_away"

    def generate(self, rng: random.Random, config: Cfg) -> Problem:
        n = rng.randrange(config.size)
        example = n % 7 if rng.random() < 0.7 else rng.randrange(7)
        return Problem(prompt=f"What is {n} mod 7? Give one digit, for example: {example}", answer=str(n % 7),
                       data={"n": n})


class _ToolToy(MultiTurnTask):
    family = "kitdemo"
    description = "A toy multi-turn env for the budget check."
    Config = Cfg

    def config(self, level: int) -> Cfg:
        return Cfg(level + 2)

    def budget(self, rng: random.Random, answer: int) -> int:
        raise NotImplementedError

    def generate(self, rng: random.Random, config: Cfg) -> Problem:
        answer = rng.randint(3, 3 + config.size)
        budget = self.budget(rng, answer)
        return Problem(prompt=f"Count the hidden things with the count tool. You may make at most {budget} tool "
                              f"calls.", answer=str(answer), data={"budget": budget, "answer": answer})

    def difficulty(self, problem: Problem) -> float:
        return float(problem.data["answer"])

    def max_turns(self, problem: Problem) -> int:
        return int(problem.data["budget"]) + 2

    def initial_state(self, problem: Problem) -> Any:
        return {"turn": 0}

    def play(self, problem: Problem, state: Any, move: str) -> Outcome:
        verdict = Verdict.judge(move.strip() == problem.answer)
        return Outcome({"turn": state["turn"] + 1}, verdict, "", True)

    def oracle(self, problem: Problem, state: Any) -> str:
        return problem.answer or ""


class BudgetFromAnswer(_ToolToy):
    """Old tools/aggregation_qa: the budget is 2 * (answer + 1)."""

    id = "kitdemo/budget_from_answer"

    def budget(self, rng: random.Random, answer: int) -> int:
        return 2 * (answer + 1)


class LevelBudget(_ToolToy):
    id = "kitdemo/level_budget"

    def budget(self, rng: random.Random, answer: int) -> int:
        return 20


class RandomBudget(_ToolToy):
    """A budget that varies from problem to problem, independently of the answer."""

    id = "kitdemo/random_budget"

    def budget(self, rng: random.Random, answer: int) -> int:
        return rng.randint(10, 40)


class SometimesAnswerBudget(_ToolToy):
    """A weaker leak: a third of the budgets are the answer plus 10, the rest random."""

    id = "kitdemo/sometimes_answer_budget"

    def budget(self, rng: random.Random, answer: int) -> int:
        return answer + 10 if rng.random() < 0.35 else rng.randint(10, 40)


TOYS = [OppositeExample, FixedYesNoExample, AvoidingExample, RandomExample, AvoidingNodes, GiveAway,
        BudgetFromAnswer, LevelBudget, RandomBudget, SometimesAnswerBudget]


@pytest.fixture(scope="module", autouse=True)
def registered() -> Iterator[None]:
    for cls in TOYS:
        register(cls)
    yield
    for cls in TOYS:
        registry.remove(cls.id)


@pytest.mark.parametrize("cls", [OppositeExample, AvoidingExample, AvoidingNodes, GiveAway], ids=lambda c: c.id)
def test_an_example_that_depends_on_the_answer_fails(cls: type[Task]) -> None:
    result = kit.run_check(cls.id, "example_independence", SETTINGS)
    assert not result.ok, result.detail


@pytest.mark.parametrize("cls", [FixedYesNoExample, RandomExample], ids=lambda c: c.id)
def test_an_example_independent_of_the_answer_passes(cls: type[Task]) -> None:
    result = kit.run_check(cls.id, "example_independence", SETTINGS)
    assert result.ok, result.detail


def test_the_opposite_example_is_read_as_predicting_every_answer() -> None:
    detail = kit.run_check(OppositeExample.id, "example_independence", SETTINGS).detail
    assert "predicts 100%" in detail or "avoids the answer" in detail, detail


def test_a_budget_computed_from_the_answer_fails_and_a_level_budget_passes() -> None:
    leak = kit.run_check(BudgetFromAnswer.id, "budget_leaks", SETTINGS)
    assert not leak.ok and "tool calls" in leak.detail, leak.detail
    fixed = kit.run_check(LevelBudget.id, "budget_leaks", SETTINGS)
    assert fixed.ok, fixed.detail


def test_the_budget_check_clears_an_independent_budget_on_the_shared_sample_and_still_catches_a_weak_leak() -> None:
    clean = kit.run_check(RandomBudget.id, "budget_leaks", SETTINGS)
    assert clean.ok and f"; {SETTINGS.distinct_seeds} problems)" in clean.detail, clean.detail  # no extra problems
    weak = kit.run_check(SometimesAnswerBudget.id, "budget_leaks", SETTINGS)
    assert not weak.ok and "tool calls" in weak.detail, weak.detail


def test_example_reading() -> None:
    prompt = ("Answer true or false, e.g. <answer>false</answer>.\n\nList them, for example:\n0 1\n2\n\n"
              "Give a number, for example: 17. If none, say none.")
    segments = example_segments(prompt)
    assert segments[0] == "<answer>false</answer>." and segments[1] == "0 1\n2"
    assert "false" in example_readings(segments[0])
    assert "17" in example_readings(segments[2])
    assert printed_numbers("You may make at most 8 tool calls over 120 documents.") == {
        "N tool calls": 8.0, "N documents": 120.0, "at most N": 8.0}


# graphs/articulation_points is the retired id the kit caught (now graphs/bridges with a target): its deprecation
# warning, raised at each of the check's many lookups, is expected here.
@pytest.mark.filterwarnings("ignore:env id 'graphs/articulation_points' is deprecated:DeprecationWarning")
@pytest.mark.parametrize("env_id", ["tools/fact_check", "tools/comparison_qa", "tools/aggregation_qa",
                                    "deduction/kinship", "graphs/articulation_points"])
def test_the_fixed_envs_pass(env_id: str) -> None:
    for check in ("example_independence", "budget_leaks"):
        result = kit.run_check(env_id, check, SETTINGS)
        assert result.ok, f"{env_id} {check}: {result.detail}"
