"""Red team, session 23 (spellings): right answers a careful grader accepts that were refused, and the wrong or
hedged answers next to them, which stay refused."""

from __future__ import annotations

import palaestra


def _problem(env_id: str, level: int, want):
    task = palaestra.make(env_id, level=level).unwrapped.task
    for seed in range(200):
        problem = task.sample(level, seed)
        if want(problem):
            return problem
    raise AssertionError(f"no {env_id} problem of that kind")


def _reward(problem, reply: str) -> float:
    return palaestra.score(problem, f"<answer>{reply}</answer>").reward


def test_permutation_rank_position_named_as_a_position() -> None:
    problem = _problem("sequences/permutation_rank", 0, lambda p: p.data["kind"] == "position")
    k, word = problem.data["k"], problem.data["answer"]
    for reply in (
        f"Position {k}",
        f"position: {k}",
        f"Position #{k}",
        f"It is at position {k}.",
        f"{word} is at position {k}.",
        f"The position is {k}.",
        f"**Position {k}**",
    ):
        assert _reward(problem, reply) == 1.0, reply
    other = "".join(sorted(word)) if "".join(sorted(word)) != word else word[::-1]
    for reply in (
        f"Position {k + 1}",
        f"Position {k} or {k + 1}",
        f"Position {k}. Just kidding.",
        f"{other} is at position {k}.",
        f"at position {k}, I think",
    ):
        assert _reward(problem, reply) == 0.0, reply


def test_digit_counting_digits_named_in_a_sentence() -> None:
    problem = _problem("sequences/digit_counting", 2, lambda p: p.data["kind"].startswith("nth_digit"))
    digits = problem.answer
    wrong = digits[:-1] + str((int(digits[-1]) + 1) % 10)
    assert _reward(problem, f"The digits are {digits}.") == 1.0
    assert _reward(problem, f"The three digits are {', '.join(digits)}.") == 1.0
    for reply in (f"The digits are {wrong}.", f"The digits are {digits} or {wrong}", f"The digits are not {digits}"):
        assert _reward(problem, reply) == 0.0, reply


def test_continued_fraction_in_round_brackets() -> None:
    problem = _problem("arithmetic/continued_fractions", 2, lambda p: p.data["kind"] == "expand")
    inner = problem.answer[1:-1]
    assert _reward(problem, f"({inner})") == 1.0
    assert _reward(problem, f"({inner}).") == 1.0
    assert _reward(problem, f"({inner}, 3)") == 0.0
    assert _reward(problem, f"({inner}) or [{inner}, 2]") == 0.0
    periodic = _problem("arithmetic/continued_fractions", 3, lambda p: p.data["kind"] == "sqrt")
    assert _reward(periodic, f"({periodic.answer[1:-1]})") == 1.0


def _twelve_hour(minute: int) -> str:
    hour = minute // 60
    return f"{(hour - 1) % 12 + 1}:{minute % 60:02d}{'pm' if hour >= 12 else 'am'}"


def test_schedule_overlap_in_twelve_hour_times() -> None:
    problem = _problem("temporal/schedule_overlap", 2, lambda p: any(a >= 13 * 60 for a, _ in p.data["free"]))
    free = problem.data["free"]
    reply = ", ".join(f"{_twelve_hour(a)}-{_twelve_hour(b)}" for a, b in free)
    assert _reward(problem, reply) == 1.0
    spaced = ", ".join(
        f"{_twelve_hour(a)[:-2]} {_twelve_hour(a)[-2:].upper()} - {_twelve_hour(b)[:-2]} {_twelve_hour(b)[-2:].upper()}"
        for a, b in free
    )
    assert _reward(problem, spaced) == 1.0
    a, b = free[-1]
    assert _reward(problem, reply.replace(f"{_twelve_hour(a)}-", f"{_twelve_hour(a)[:-2]}am-")) == 0.0  # am for pm
    assert _reward(problem, f"{reply} or {reply}") == 0.0


def test_duration_sum_spaced_colons() -> None:
    problem = _problem("temporal/duration_sum", 0, lambda p: True)
    gold = problem.answer
    assert _reward(problem, gold.replace(":", " : ")) == 1.0
    hours, minutes, seconds = gold.split(":")
    wrong = f"{hours} : {minutes} : {(int(seconds) + 1) % 60:02d}"
    assert _reward(problem, wrong) == 0.0
    assert _reward(problem, f"{gold.replace(':', ' : ')} or {wrong}") == 0.0


def test_equilibrium_concentrations_with_subscript_formulas() -> None:
    problem = _problem("chemistry/equilibrium_ice", 2, lambda p: any(ch.isdigit() for ch in "".join(p.data["final"])))
    subscript = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
    final = problem.data["final"]
    reply = ", ".join(f"[{name[0]}{name[1:].translate(subscript)}] = {value}" for name, value in final.items())
    assert _reward(problem, reply) == 1.0
    first = next(iter(final))
    assert _reward(problem, reply + f", [{first}] = 99") == 0.0  # a second value for one species


def test_formula_and_value_answers_with_display_style_or_a_fraction_slash() -> None:
    problem = _problem("calculus/limits", 0, lambda p: "/" in (p.answer or "") and "x" not in p.answer)
    numerator, denominator = problem.answer.split("/")
    assert _reward(problem, rf"\displaystyle \frac{{{numerator}}}{{{denominator}}}") == 1.0
    assert _reward(problem, f"{numerator}⁄{denominator}") == 1.0
    assert _reward(problem, f"{numerator}⁄{int(denominator) + 1}") == 0.0
    inverse = _problem("algebra/function_inverse", 2, lambda p: "x" in (p.answer or "") and "/" in p.answer)
    assert _reward(inverse, r"\displaystyle " + inverse.answer) == 1.0
    assert _reward(inverse, inverse.answer.replace("/", "⁄")) == 1.0


def test_bulleted_plans_and_assignments() -> None:
    jugs = _problem("planning/water_jugs", 0, lambda p: ", " in (p.answer or ""))
    steps = jugs.answer.split(", ")
    assert _reward(jugs, "\n".join(f"- {step}" for step in steps)) == 1.0
    assert _reward(jugs, "\n".join(f"- {step}" for step in steps[:-1])) == 0.0
    hanoi = _problem("planning/hanoi", 0, lambda p: True)
    moves = hanoi.answer.split(", ")
    assert _reward(hanoi, "\n".join(f"* {move}" for move in moves)) == 1.0
    assert _reward(hanoi, "\n".join(f"* {move}" for move in moves) + "\n* or A->B") == 0.0
    shapley = _problem("economics/shapley_value", 0, lambda p: True)
    pairs = shapley.answer.split(", ")
    assert _reward(shapley, "\n".join(f"- {pair}" for pair in pairs)) == 1.0
    assert _reward(shapley, "\n".join(f"- {pair}" for pair in pairs) + f"\n- {pairs[0].split(':')[0]}: 0") == 0.0
