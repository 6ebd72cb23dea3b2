"""Red team, session 27 (math families, second look): a cheap rule that solved most of a hard level, a seed that
crashed, and right answers a careful grader accepts that were refused, with the wrong answers next to them that stay
refused."""

from __future__ import annotations

import palaestra
from palaestra.envs.sequences.hidden_rule import repeat_differences


def _task(env_id: str):
    return palaestra.make(env_id).unwrapped.task


def _reward(problem, reply: str) -> float:
    return palaestra.score(problem, f"<answer>{reply}</answer>").reward


# --- sequences/hidden_rule: "repeat each position's last difference" ----------------------------------------------
# v2 drew a fresh kind for every operation it filtered, which favoured additions and subtractions: reading every step
# as an addition (the term one cycle back plus the difference that position made the cycle before) answered 62% of
# level 2, 16% of level 3 and 9% of level 4. v3 draws a kind, then an operation of it, and from level 2 keeps a
# sequence only when that rule misses.


def _differences(problem) -> str:
    data = problem.data
    return ", ".join(map(str, repeat_differences(data["terms"], data["cycle"], len(data["next"]))))


def test_hidden_rule_differences_rule_fails_from_level_2() -> None:
    task = _task("sequences/hidden_rule")
    for level in (2, 3, 4):
        problems = [task.sample(level, seed) for seed in range(40)]
        assert all(_reward(p, _differences(p)) == 0.0 for p in problems), level  # v2 level 2: 0.62
        assert all(_reward(p, p.answer) == 1.0 for p in problems[:10])
    assert "repeat each position's last difference" in task.heuristics()


def test_hidden_rule_level_2_seed_2543_generates() -> None:
    task = _task("sequences/hidden_rule")
    problem = task.sample(2, 2543)  # v2: IndexError (a step left with no operation to choose)
    assert _reward(problem, problem.answer) == 1.0


# --- arithmetic/base_conversion: the base named after the number ----------------------------------------------------


def test_base_conversion_accepts_the_base_named() -> None:
    task = _task("arithmetic/base_conversion")
    problem = task.sample(4, 2)
    assert problem.data["base"] == 7 and problem.answer == "10065604"
    for reply in ("10065604 in base 7", "10065604 (base 7)", "10065604 base 7.", "10065604_7"):
        assert _reward(problem, reply) == 1.0, reply
    for reply in ("10065604 in base 8", "10065604 (base 8)", "10065605 in base 7", "10065604 (base 7) or 10065605"):
        assert _reward(problem, reply) == 0.0, reply
    decimal = task.sample(1, 2)
    assert decimal.data["base"] == 10 and decimal.answer == "1504"
    assert _reward(decimal, "1504 in decimal") == 1.0
    assert _reward(decimal, "1504 in base 3") == 0.0


# --- arithmetic/linear_diophantine: one division -------------------------------------------------------------------
# v3 drew c freely, so c was often a multiple of a or b and "x = 0, y = c/b" (else "x = c/a, y = 0") answered 44% of
# level 0 and 15% of level 1 without the extended Euclidean algorithm, and gave 20% of level 3 a particular solution
# for free. v4 keeps c a multiple of neither where any solution or the general one is asked.


def _one_division(problem) -> str:
    a, b, c = problem.data["a"], problem.data["b"], problem.data["c"]
    return f"x = 0, y = {c // b}" if c % b == 0 else f"x = {c // a}, y = 0" if c % a == 0 else "x = 0, y = 0"


def test_linear_diophantine_one_division_does_not_solve() -> None:
    task = _task("arithmetic/linear_diophantine")
    for level in (0, 1):
        problems = [task.sample(level, seed) for seed in range(100)]
        assert sum(_reward(p, _one_division(p)) for p in problems) == 0.0, level  # v3 level 0: 0.44
        assert all(_reward(p, p.answer) == 1.0 for p in problems[:10])
    general = [task.sample(3, seed).data for seed in range(100)]
    assert not any(d["c"] % d["a"] == 0 or d["c"] % d["b"] == 0 for d in general)  # v3: 20 in 100


# --- calculus/antiderivative: a step inside the interval -----------------------------------------------------------
# The answer was judged by its derivative at a few points only, so the antiderivative plus a step between two of them
# (|x - 1|/(x - 1) on 1/2 < x < 3) passed, though it is no antiderivative on the interval. Now the answer must also
# stay one constant apart from the reference at every point.


def test_antiderivative_rejects_a_step_inside_the_interval() -> None:
    task = _task("calculus/antiderivative")
    problem = task.sample(1, 2)
    assert problem.data["low"] == "1/2" and problem.data["high"] == "3"
    f = problem.data["antiderivative"]
    for reply in (f, f"{f} + C", f"{f} + 7", f"{f} - 5/2 + C"):
        assert _reward(problem, reply) == 1.0, reply
    for reply in (f"{f} + |x - 1|/(x - 1)", f"{f} + 3|x - 2|/(x - 2) + C", f"{f} + x"):
        assert _reward(problem, reply) == 0.0, reply


# --- algebra/recurrences: a closed form with the domain of n stated -------------------------------------------------


def test_recurrences_accepts_a_note_that_n_runs_from_zero() -> None:
    task = _task("algebra/recurrences")
    problem = task.sample(4, 2)
    assert problem.answer == "1*2^n + 8*4^n"
    for reply in ("a_n = 2^n + 8*4^n for n ≥ 0", "a_n = 2^n + 8*4^n, n >= 0", "a_n = 2^n + 8*4^n (n \\geq 0)",
                  "2^n + 8*4^n, where n is a non-negative integer", "a_n = 2^n + 2^(2n+3) for all integers n ≥ 0."):
        assert _reward(problem, reply) == 1.0, reply
    for reply in ("a_n = 2^n + 8*4^n for n ≥ 1", "a_n = 2^n + 8*4^n for n ≥ 0 or 2^n", "a_n = 2^n + 8*4^n + 1 for n ≥ 0",
                  "a_n = 2^n + 8*4^n, n ≥ 0 (I think)", "for n ≥ 0"):
        assert _reward(problem, reply) == 0.0, reply


# --- sequences/bit_manipulation: half of Gosper's rule ---------------------------------------------------------------
# "The smallest larger number with as many 1 bits": v1 drew n freely, so its lowest block of 1 bits was often a single
# bit and moving that bit up one place (n + (n & -n); n + 1 when n ends in 01) was the answer to 45% of those
# questions (0.10 of levels 3 and 4). v2 draws n whose lowest block holds two or more 1 bits.


def test_bit_manipulation_lowest_bit_up_is_not_the_answer() -> None:
    task = _task("sequences/bit_manipulation")
    asked = [p for level in (2, 3, 4) for seed in range(120)
             if (p := task.sample(level, seed)).data["kind"] == "next_same_popcount"]
    assert len(asked) > 40
    for problem in asked:
        n = problem.data["operands"][0]
        assert _reward(problem, str(n + (n & -n))) == 0.0  # v1: 0.45 of these
        assert _reward(problem, str(n + 1)) == 0.0
    assert all(_reward(p, p.answer) == 1.0 for p in asked[:10])
    assert "move the lowest 1 bit up one place" in task.heuristics()
