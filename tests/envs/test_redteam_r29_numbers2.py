"""Red-team regressions for the arithmetic, sequences, geometry and probability readers (round 3, session 29).

Each test judges an answer that earned reward without doing what the prompt asks, through the env's own check,
and pins that the right answer in its usual spellings still earns it.
"""

from __future__ import annotations

import re

from palaestra.core.registry import make_source


def _reward(source, problem, answer: str) -> float:
    return source.check(problem, source.format_answer(answer)).reward


def _formula(problem) -> str:
    """The question's own Pythagoras typed back: sqrt(a^2 + b^2) for a hypotenuse, sqrt(c^2 - a^2) for a leg."""
    numbers = re.findall(r"\b\d+\b", problem.prompt.split("\n")[0])
    sign = "+" if problem.data["kind"] == "hypotenuse" else "-"
    return f"sqrt({numbers[0]}^2 {sign} {numbers[1]}^2)"


def test_triangle_solving_formula_typed_back_fails() -> None:
    # read_radical takes up to 8 numbers here, so sqrt(91^2 - 77^2) for "hypotenuse 91, leg 77: the other leg?"
    # was the value 28*sqrt(3): typing the formula back solved 100% of level 0 (51% of level 1, 35% of level 4).
    source = make_source("geometry/triangle_solving")
    checked = 0
    for seed in range(40):
        problem = source.sample(level=0, seed=seed)
        if problem.data["kind"] not in ("hypotenuse", "leg"):
            continue
        checked += 1
        formula = _formula(problem)
        numbers = [int(n) for n in re.findall(r"\d+", formula)]
        evaluated = (f"sqrt({numbers[0] ** 2} + {numbers[2] ** 2})" if "+" in formula
                     else f"sqrt({numbers[0] ** 2} - {numbers[2] ** 2})")
        assert _reward(source, problem, formula) == 0.0, formula
        assert _reward(source, problem, formula.replace("^2", "**2")) == 0.0
        assert _reward(source, problem, evaluated) == 0.0, evaluated
        assert _reward(source, problem, problem.answer) == 1.0
        for spelling in source.spellings(problem):
            assert _reward(source, problem, spelling) == 1.0, spelling
    assert checked >= 10
    # A root of one number or one fraction is a value (the docstring's sqrt(75)); only arithmetic under it is not.
    problem = source.sample(level=0, seed=1)  # the other leg of 91 and 77: 28*sqrt(3)
    assert problem.answer == "28*sqrt(3)"
    assert _reward(source, problem, "sqrt(91^2 - 77^2)") == 0.0
    for spelling in ("sqrt(2352)", "\\sqrt{2352}", "√2352", "**28√3**", "The answer is **28*sqrt(3)**.",
                     "sqrt(4704/2)"):
        assert _reward(source, problem, spelling) == 1.0, spelling


def test_triangle_solving_unevaluated_product_fails() -> None:
    # Outside the roots the reader took any 8 numbers: "31*27*(1/2)/2" (AB * AC * sin A / 2, sines looked up, nothing
    # multiplied) was the area 837/4 in 46.5% of level 2; written in any order, or a sum of the sides left undone.
    source = make_source("geometry/triangle_solving")
    sines = {30: "(1/2)", 150: "(1/2)", 90: "1", 45: "sqrt(2)/2", 135: "sqrt(2)/2", 60: "sqrt(3)/2", 120: "sqrt(3)/2"}
    checked = 0
    for seed in range(40):
        problem = source.sample(level=2, seed=seed)
        if problem.data["kind"] != "sas_area":
            continue
        c, b, angle = (int(n) for n in re.findall(r"\b\d+\b", problem.prompt.split("\n")[0])[:3])
        checked += 1
        assert _reward(source, problem, f"{c}*{b}*{sines[angle]}/2") == 0.0
        assert _reward(source, problem, f"{sines[angle]}*{c}/2*{b}") == 0.0
        assert _reward(source, problem, f"A = {c}*{b}*{sines[angle]}/2") == 0.0
        assert _reward(source, problem, problem.answer) == 1.0
    assert checked >= 8


def test_base_conversion_zero_comma_hedge_fails() -> None:
    # Base-10 answers dropped every comma as a thousands separator, so "0, 3074" (two answers) read as 03074.
    source = make_source("arithmetic/base_conversion")
    problem = source.sample(level=0, seed=0)
    assert problem.answer == "3074" and problem.data["base"] == 10
    for hedge in ("0, 3074", "0,3074", "30,74", "3, 074"):
        assert _reward(source, problem, hedge) == 0.0, hedge
    for spelling in ("3074", "3,074", "3 074"):
        assert _reward(source, problem, spelling) == 1.0, spelling
