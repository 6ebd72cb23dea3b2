"""Red team, round 3 session 41: right answers that answer readers refused (reader changes only, no problem changes,
no version bumps). Shares are of right answers so spelled, 40 seeds a level, levels 0-4, before -> after.

- calculus/antiderivative: the integral restated with a name or a d-spelling the formula reader's lead-in lacks,
  "F(x) = \\int f(x)\\,dx = <F> + C", "\\int f(x)\\,dx = F(x) = <F> + C" and "\\int (...) \\mathrm{d}x = <F> + C"
  (0 -> 1 at every level; "\\int (...)\\,dx = <F> + C" was already read). The restated integrand is not judged.
- calculus/taylor_coefficients: a coefficient written as its term, "(27/4)x^2", "\\frac{27}{4}x^2", "27x^2/4",
  "The x^2 term is (27/4)x^2." (0 -> 1, levels 0-3); a term of another power or a sum of terms stays refused.
- arithmetic/countdown (verifiers/arithmetic.py ``read_claim``): the result restated in a chain, "expr = 84 = 84",
  "84 = expr = 84" (0 -> 1); a chain with any other value, or with a second expression, stays refused.
- temporal/time_zones: the asked place named after the time, "Sunday 03:41 local time at Port B", "... in Port B",
  "... (Port B time)" (0 -> 1); another place named stays refused.
- physics/common.py ``read_quantity`` (the 14 envs reading one value through it): a chain of equalities ending in the
  value, "v = \\sqrt{2 g h} = \\sqrt{2 \\cdot 9.8} = 53380/149 Hz" (0 -> 1); a step with words, a second value or two
  different values stay refused.
- biology/hardy_weinberg: read through the shared number reader's naming sentence (``sentence=True``), which
  takes the allele's one-letter name, in place of the env's own list of allele sentences: "The frequency of
  heterozygous carriers is X." (0 -> 1 on carriers questions) is read too; "allele a: X" (no article) stays refused.
- verifiers/normalize.py ``restated`` (physics ``read_quantity``; temporal ``read_week_time`` and ``read_dated``, so
  time_zones, calendar_arithmetic, recurring_events): an answer written again after a lead-in, "X. Answer: X",
  "X\\nFinal answer: X." (0 -> 1); "X. Answer: Y" with Y another value stays refused.

In every case a hedge ("X or Y"), a retraction ("X. So not X"), a second answer, a wrong value and a 3,000-character
repetition stay refused (the last in bounded time: every new path reads at most 400 characters).
"""

from __future__ import annotations

import random
import re
import time
from fractions import Fraction

import pytest

from palaestra.core.registry import make_source


def _rewards(env: str, problem, texts: list[str]) -> list[float]:  # type: ignore[no-untyped-def]
    source = make_source(env)
    return [source.verify(problem, text).reward for text in texts]


def test_antiderivative_restated_integral() -> None:
    source = make_source("calculus/antiderivative")
    for level in range(5):
        for seed in range(3):
            problem = source.sample(level, seed)
            f, g = problem.data["antiderivative"], problem.data["integrand"]
            right = [f"F(x) = \\int f(x)\\,dx = {f} + C", f"\\int f(x)\\,dx = F(x) = {f} + C",
                     f"\\int ({g}) \\mathrm{{d}}x = {f} + C", f"G(x) = ∫ ({g})dx = G(x) = {f} + C."]
            wrong = [f"F(x) = \\int f(x)\\,dx = {g} + C", f"\\int ({g}) \\mathrm{{d}}x = {f} + x",
                     f"\\int ({g}) dx = {f} + C = {g}", f"F(x) = \\int f(x) dx = {f} + C or {g}",
                     f"\\int ({g}) dx = F(x) = ", f"{f} + C, \\int f dx = {g}"]
            assert _rewards("calculus/antiderivative", problem, right) == [1.0] * len(right)
            assert _rewards("calculus/antiderivative", problem, wrong) == [0.0] * len(wrong)


def test_taylor_coefficient_as_term() -> None:
    source = make_source("calculus/taylor_coefficients")
    for level in range(4):
        for seed in range(3):
            problem = source.sample(level, seed)
            k, value = problem.data["power"], Fraction(problem.data["value"])
            v, n, d = problem.answer, value.numerator, value.denominator
            right = [f"({v})x^{k}", f"\\frac{{{n}}}{{{d}}}x^{k}", f"{n}x^{k}/{d}", f"the x^{k} term is {n}x^{{{k}}}/{d}",
                     f"The x^{k} term is ({v})*x^{k}."]
            wrong = [f"({v})x^{k + 1}", f"the x^{k + 1} term is ({v})x^{k}", f"({v} + 1)x^{k}", f"({v})x^{k} + x^{k + 1}",
                     f"({v})x^{k} or ({v} + 1)x^{k}", f"({v})x^{k}, so {v}", f"({v})x^{k}" * 300]
            assert _rewards("calculus/taylor_coefficients", problem, right) == [1.0] * len(right)
            assert _rewards("calculus/taylor_coefficients", problem, wrong) == [0.0] * len(wrong)


def test_countdown_restated_result() -> None:
    source = make_source("arithmetic/countdown")
    for level in (0, 2, 4):
        for seed in range(4):
            problem = source.sample(level, seed)
            gold, t = problem.answer, problem.data["target"]
            right = [f"{gold} = {t} = {t}", f"{t} = {gold} = {t}", f"{gold} = {t} = {t} = {t}", f"{t} = {t} = {gold}",
                     f"Expression: {gold} = {t}.0 = {t}."]
            wrong = [f"{gold} = {t} = {t + 1}", f"{gold} = {t + 1} = {t}", f"({gold}) + 1 = {t} = {t}",
                     f"{gold} = {gold} = {t}", f"{gold} = {t} = {t} or {t + 1}", "=".join([str(t)] * 1000),
                     f"{gold} = " + " = ".join([str(t)] * 1000)]
            assert _rewards("arithmetic/countdown", problem, right) == [1.0] * len(right)
            assert _rewards("arithmetic/countdown", problem, wrong) == [0.0] * len(wrong)


def test_time_zones_asked_place_named() -> None:
    source = make_source("temporal/time_zones")
    for level in range(5):
        for seed in range(3):
            problem = source.sample(level, seed)
            a = problem.answer
            asked = re.search(r"What is the local time at (Port [A-Z])", problem.prompt)
            assert asked is not None
            place = asked.group(1)
            other = next(p for p in re.findall(r"(Port [A-Z]): UTC", problem.prompt) if p != place)
            later = source.corruptions(problem, random.Random(0))[0]
            right = [f"{a} local time at {place}", f"{a} local time at {place}.", f"{a} in {place}",
                     f"{a} ({place} time)", f"Answer: {a} at {place}"]
            wrong = [f"{a} local time at {other}", f"{later} local time at {place}", f"{a} at {place} or {later}",
                     f"{a} at {place} at {place}", f"{a} at {other} at {place}", (a + " ") * 300 + f"at {place}"]
            assert _rewards("temporal/time_zones", problem, right) == [1.0] * len(right)
            assert _rewards("temporal/time_zones", problem, wrong) == [0.0] * len(wrong)


@pytest.mark.parametrize("env", ["physics/orbits", "physics/doppler", "physics/fluids", "physics/rotation"])
def test_physics_chain_ending_in_the_value(env: str) -> None:
    source = make_source(env)
    for seed in range(3):
        problem = source.sample(1, seed)
        a = problem.answer
        right = [f"v = \\sqrt{{2 g h}} = \\sqrt{{2 \\cdot 9.8}} = {a}", f"x = {a} = {a}",
                 f"The answer is x = \\frac{{a}}{{b}} = {a}."]
        wrong = [f"v = 5 = {a}", f"v = {a} = 5", f"v = 2 g h or 3 = {a}", f"v = 2 g h, maybe = {a}",
                 f"v = \\sqrt{{2gh}} = {a} or 5", f"v = \\sqrt{{2 g h}} \\neq {a}", f"v = 2 \\cdot 3 = {a} ≈ 5",
                 "v = " + "\\sqrt{2gh} = " * 300 + a]
        assert _rewards(env, problem, right) == [1.0] * len(right)
        assert _rewards(env, problem, wrong) == [0.0] * len(wrong)


@pytest.mark.parametrize("env", ["physics/orbits", "physics/capacitors", "temporal/time_zones",
                                 "temporal/calendar_arithmetic", "temporal/recurring_events"])
def test_answer_restated_alike(env: str) -> None:
    source = make_source(env)
    for seed in range(3):
        problem = source.sample(1, seed)
        a = problem.answer
        other = next(w for w in source.corruptions(problem, random.Random(0)) if " or " not in w)
        right = [f"{a}. Answer: {a}", f"{a}\nFinal answer: {a}.", f"So {a}. Thus {a}", f"{a}. The answer is {a}."]
        wrong = [f"{a}. Answer: {other}", f"{other}. Answer: {a}", f"{a}. Answer: {a} or {other}",
                 f"{a}. So not {a}", (a + ". Answer: ") * 200 + a]
        assert _rewards(env, problem, right) == [1.0] * len(right)
        assert _rewards(env, problem, wrong) == [0.0] * len(wrong)


def test_long_repetitions_bounded() -> None:
    problem = make_source("physics/doppler").sample(2, 0)
    texts = [("= " + problem.answer) * 300, (problem.answer + ". Answer: ") * 300, "v = " + "x = " * 800]
    start = time.process_time()
    assert _rewards("physics/doppler", problem, texts) == [0.0] * len(texts)
    assert time.process_time() - start < 2.0


def test_hardy_weinberg_sentences_through_the_shared_reader() -> None:
    source = make_source("biology/hardy_weinberg")
    kinds: set[str] = set()
    for seed in range(40):
        problem = source.sample(3, seed)
        if problem.data["kind"] in kinds:
            continue
        kinds.add(problem.data["kind"])
        a = problem.answer
        right = [f"The frequency of heterozygous carriers is {a}.", f"The frequency of allele a is {a}."]
        wrong = [f"The frequency of heterozygous carriers is {a} or 1/2", f"The frequency of carriers is not {a}",
                 f"Maybe the frequency of carriers is {a}"]
        assert _rewards("biology/hardy_weinberg", problem, right) == [1.0] * len(right)
        assert _rewards("biology/hardy_weinberg", problem, wrong) == [0.0] * len(wrong)
    assert len(kinds) >= 2
