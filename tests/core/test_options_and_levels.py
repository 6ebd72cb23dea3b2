"""Grading options travel with the problem; levels are presets plus an optional growth rule (unbounded envs)."""

from __future__ import annotations

import dataclasses
import json
import random
from dataclasses import dataclass

import pytest

import palaestra
from palaestra.core import Problem, Task, Verdict
from palaestra.core.registry import registry, spec_of
from palaestra.core.task import Growth
from palaestra.kit import Settings
from palaestra.kit import levels as kit_levels
from palaestra.vector import make_vec
from palaestra.wrappers.curriculum import Curriculum

UNBOUNDED_SAMPLE = ("graphs/bridges", "deduction/seating", "games/nim")


# --- grading options ---------------------------------------------------------------------------------------------

def test_options_survive_json_and_row_round_trips() -> None:
    problem = Problem(env_id="code/knapsack", level=2, seed=5, prompt="p", answer="a", data={"x": [1, 2]},
                      options={"partial_credit": True})
    assert Problem.from_json(problem.to_json()) == problem
    row = problem.to_row()
    assert json.loads(row["options"]) == {"partial_credit": True}
    assert Problem.from_row(row) == problem


def test_default_problems_serialise_as_before_options_existed() -> None:
    problem = palaestra.make("code/knapsack").reset(seed=0)[1]["problem"]
    assert problem.options == {}
    assert "options" not in json.loads(problem.to_json())  # so golden hashes of existing problems do not move
    old_row = {k: v for k, v in problem.to_row().items() if k != "options"}  # a row written before the column
    assert Problem.from_row(old_row) == problem


def _partial_reply(env: object, seed: int) -> tuple[Problem, str, float]:
    """A corrupted knapsack answer that passes some but not all tests, with its step reward."""
    task = env.source  # type: ignore[attr-defined]
    _, info = env.reset(seed=seed)  # type: ignore[attr-defined]
    problem = info["problem"]
    for wrong in task.corruptions(problem, random.Random(0)):
        env.reset(seed=seed)  # type: ignore[attr-defined]
        response = task.format_answer(wrong)
        _, reward, _, _, info = env.step(response)  # type: ignore[attr-defined]
        if "error" in info:  # the sandbox cannot run the tests here (e.g. an unprivileged host): not a grading fact
            pytest.skip(f"code/knapsack cannot be judged on this host: {info['error']}")
        if 0.0 < reward < 1.0:
            return problem, response, reward
    raise AssertionError("no partially right corruption at this seed")


def test_score_grades_knapsack_with_the_partial_credit_the_env_used() -> None:
    env = palaestra.make("code/knapsack", partial_credit=True)
    problem, response, step_reward = _partial_reply(env, seed=1)
    assert problem.options == {"partial_credit": True}
    assert palaestra.score(problem.to_json(), response).reward == pytest.approx(step_reward)
    assert palaestra.score(problem.to_row(), response).reward == pytest.approx(step_reward)
    # Without the recorded option the same reply is graded all-or-nothing: the cache must not mix the two.
    default = dataclasses.replace(problem, options={})
    assert palaestra.score(default, response).reward == 0.0
    assert palaestra.score(problem, response).reward == pytest.approx(step_reward)


def test_games_record_progress_rewards() -> None:
    env = palaestra.make("games/memory_pairs", progress_rewards=True)
    problem = env.reset(seed=3)[1]["problem"]
    first = env.oracle_action()
    _, reward, *_ = env.step(first)
    assert problem.options == {"progress_rewards": True}
    assert palaestra.score(problem.to_json(), [first]).reward == pytest.approx(reward)


@pytest.mark.parametrize("env_id", ["code/knapsack", "games/word_ladder", "code/test_feedback"])
def test_score_matches_step_kit_check_passes(env_id: str) -> None:
    assert "score equals step" in kit_levels.check_score_matches_step(env_id, Settings.ci())


# --- declarative levels ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Digits:
    digits: int
    hint: float = 0.5


class Add(Task):
    id = "leveldemo/add"
    family = "leveldemo"
    description = "Add two integers."
    Config = Digits
    presets = (Digits(1), Digits(2), Digits(3), Digits(4), Digits(6, 0.1))
    growth = Growth()

    def generate(self, rng: random.Random, config: Digits) -> Problem:
        a, b = (rng.randrange(10 ** config.digits) for _ in range(2))
        return Problem(prompt=f"{a} + {b}?", answer=str(a + b), data={"a": a, "b": b})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        return Verdict.judge(answer.strip() == str(problem.data["a"] + problem.data["b"]))

    def difficulty(self, problem: Problem) -> float:
        return len(str(problem.data["a"] + problem.data["b"]))


class FixedAdd(Add):
    id = "leveldemo/fixed_add"
    growth = None
    bounded = "a demo that stops at its presets"


def test_presets_set_the_named_levels_and_growth_the_rest() -> None:
    add = Add()
    assert Add.num_levels == 5 and add.levels() == 5 and Add.unbounded
    assert [add.level_config(level).digits for level in range(5)] == [1, 2, 3, 4, 6]
    # The last rise (4 -> 6) continues; the shrinking float hint keeps its last value.
    assert add.level_config(7) == Digits(12, 0.1)
    assert add.level_config(9).digits == 16 and add.sample(9, 0).level == 9
    assert spec_of(Add).unbounded and spec_of(Add).shown_levels == "5+" and spec_of(Add).accepts_level(50)


def test_a_bounded_env_rejects_levels_past_its_presets_and_says_why() -> None:
    fixed = FixedAdd()
    assert not FixedAdd.unbounded and not spec_of(FixedAdd).accepts_level(5)
    with pytest.raises(ValueError, match="stops at its presets"):
        fixed.sample(5, 0)
    for bad in (-1, 1.0, True):
        with pytest.raises(ValueError):
            Add().sample(bad, 0)  # type: ignore[arg-type]


def test_growth_rules() -> None:
    presets = [Digits(d) for d in (2, 3, 3, 3, 3)]  # rose, then a plateau: the mean rise continues
    assert Growth().beyond(presets, 1).digits == 4
    assert Growth(steps={"digits": 5}, limits={"digits": 12}).beyond(presets, 3).digits == 12
    assert Growth(steps={"hint": 0.1}).beyond(presets, 2).hint == pytest.approx(0.7)
    assert Growth(factors={"digits": 10}, limits={"digits": 1000}).beyond(presets, 2).digits == 300
    assert Growth(factors={"digits": 10}, limits={"digits": 1000}).beyond(presets, 3).digits == 1000
    with pytest.raises(ValueError, match="does not have"):
        Growth(steps={"size": 1}).beyond(presets, 1)


def test_level_config_checks_the_config_type() -> None:
    class WrongType(Add):
        id = "leveldemo/wrong_type"
        presets = (Digits(1), Digits(2), Digits(3), Digits(4), {"digits": 5})  # type: ignore[assignment]

    with pytest.raises(TypeError, match="not a Digits"):
        WrongType().level_config(4)


@pytest.mark.parametrize("env_id", UNBOUNDED_SAMPLE)
def test_converted_envs_take_levels_0_to_9(env_id: str) -> None:
    assert registry[env_id].unbounded  # recorded in the index, read without importing the env
    # CI's kit walks levels 0-7; these envs are checked through level 9, as the full kit does
    detail = kit_levels.check_unbounded_levels(env_id, dataclasses.replace(Settings.ci(), checked_levels=10))
    assert detail.startswith("levels 0-9")


def test_a_bounded_env_declares_why() -> None:
    assert registry["games/eight_puzzle"].unbounded is False
    assert "bounded" in kit_levels.check_unbounded_levels("games/eight_puzzle", Settings.ci())


def test_curriculum_raises_an_unbounded_env_past_level_4_and_stops_a_bounded_one() -> None:
    curriculum = Curriculum(window=2, raise_at=0.5, lower_at=0.0)
    for _ in range(8):
        for env_id in ("graphs/bridges", "games/eight_puzzle"):
            curriculum.record(env_id, True)
            curriculum.record(env_id, True)
    assert curriculum.level("graphs/bridges") == 8
    assert curriculum.level("games/eight_puzzle") == 4
    capped = Curriculum(window=1, raise_at=0.5, lower_at=0.0, max_level=6)
    for _ in range(10):
        capped.record("graphs/bridges", True)
    assert capped.level("graphs/bridges") == 6
    assert Curriculum.from_state(json.loads(json.dumps(curriculum.state()))).level("graphs/bridges") == 8


def test_make_vec_at_level_7() -> None:
    envs = make_vec("graphs/bridges", 2, level=7)
    try:
        _, infos = envs.reset(seed=0)
        assert list(infos["level"]) == [7, 7]
        assert all(p.level == 7 and p.data for p in infos["problem"])
    finally:
        envs.close()
    with pytest.raises(ValueError, match="bounded"):
        make_vec(["graphs/bridges", "games/eight_puzzle"], 2, level=7)


def test_problem_sets_take_levels_past_the_presets_from_unbounded_envs_only() -> None:
    from palaestra.integrations.common import problem_set

    problems = list(problem_set(["graphs/bridges", "games/eight_puzzle"], levels=[4, 7], seeds=2))
    assert [(p.env_id, p.level) for p in problems] == [("graphs/bridges", 4)] * 2 + [("graphs/bridges", 7)] * 2 + [
        ("games/eight_puzzle", 4)] * 2
