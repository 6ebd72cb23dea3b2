"""Equation steps: solve a linear equation one rewrite per turn, every rewrite checked for equivalence.

The model is given a linear equation in ``x`` (brackets and fractions at the harder levels) and
rewrites it one turn at a time until it reads ``x = NUMBER``. Each line it writes must be a
linear equation in ``x`` with exactly the same solution as the given one; the checker reads
both sides with the shared whitelisting expression reader (never ``eval``) and reduces each
side exactly to ``a*x + b`` over the rationals, so ``2(x - 1) = 4`` and ``x - 1 = 2`` are
equivalent and ``2x - 1 = 4`` is not. A line that is not equivalent (or not linear, or
unreadable) is rejected: the equation stays as it was, the turn is lost and a mistake is
counted (an unreadable line only loses the turn).

One step per turn: an equivalent line must also come from the current one by a single
transformation (:func:`single_step`): rewrite either side or both into an equal expression
(expand, collect, swap the sides), add or subtract the same expression on both sides, or multiply
or divide both sides by the same non-zero number. Jumping several steps at once (``x = 2``
straight from ``3x + 5 = 11``) is rejected as a mistake, and the starting equation never has a
net coefficient of ``x`` of 1 or -1, so no equation is solved in one step. Several equations in
one reply are unreadable.

Process reward: a quarter of the episode's reward is paid along the way, for progress measured in
the oracle's steps still needed (:func:`_steps_left`, from 2 or 3 at the start to 0 when solved):
each accepted line that needs fewer of them than every earlier line earns
``0.25 * (best so far - steps left) / steps at the start``, so progress is paid once per step
gained and going back and forth (expanding, then collecting again) earns nothing more. On
reaching ``x = NUMBER`` the rest of the first half is paid, plus ``0.5 / (1 + mistakes)``. A clean
solution therefore earns exactly 1 however many steps it takes; each wrong step costs part of the
second half. The oracle collects terms, isolates ``x`` and divides, checking nothing but the
rules above. Version 2 paid half for shrinking the lines (nodes in their expression trees), which
tops out before the last step (``-6x = 9`` is no bigger than ``x = -3/2``): a policy that made one
or two valid steps and stopped earned 0.44 / 0.41 / 0.45 / 0.33 / 0.42 at levels 0-4; version 3
pays it 0.13 / 0.13 / 0.17 / 0.14 / 0.17 (40 seeds a level), one step of two 0.125.

Levels add terms, brackets on both sides and fractions. The difficulty measure is the size of
the starting equation (nodes in its two expression trees).

Generation speed: about 900 problems/s at level 4 on this 2-core machine (near the line). Equations are drawn from
the level's template and parsed and solved exactly with fractions, and about 10 are drawn per problem because the
solution is not a small fraction or one step would finish. The filter is kept because the prompt promises a small
rational solution that takes several steps.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register, retry
from palaestra.core.multiturn import MAX_MOVE_CHARS
from palaestra.verifiers.expressions import Expr, parse_expression
from palaestra.verifiers.normalize import read_answer, strip_wrappers, without_closing

Affine = tuple[Fraction, Fraction]  # (coefficient of x, constant)
PROGRESS = 0.25  # the share of the reward paid along the way; the rest only on reaching x = NUMBER


@register
class EquationSteps(MultiTurnTask):
    id = "interactive/equation_steps"
    family = "interactive"
    description = "Solve a linear equation one rewrite per turn; each rewrite is checked for equivalence."
    tags = ("interactive", "multi-turn", "math", "process-reward")
    version = 3  # v3: progress is paid in the oracle's steps left, a quarter in all (v2: half, in tree size)
    one_move_per_turn = True

    @dataclass(frozen=True)
    class Config:
        template: str  # the shape of the starting equation
        turns: int
        largest: int = 9  # coefficients are drawn from -largest..largest (not 0 or +-1)

    presets = (
        Config("a*x + b = c", 5, largest=20),
        Config("a*x + b = c*x + d", 6),
        Config("a*(x + b) + c = d*(x + e)", 7),
        Config("(a*x + b)/c + d = (e*x + f)/g", 8),
        Config("a*(b*(x + c) + d) - e = (f*x + g)/h - k*(x + m)", 9),
    )
    bounded = "its difficulty measure stops growing with larger sizes past the presets (level 5 to 6)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[str, Fraction] | None:
            text = _instantiate(rng, config.template, config.largest)
            sides = _read_equation(text)
            if sides is None:
                return None
            solution = _solution(*sides)
            if solution is None or solution.denominator > 12 or abs(solution) > 60:
                return None
            (a, _), (c, _) = _affine(sides[0]), _affine(sides[1])  # type: ignore[misc]
            if abs(a - c) == 1:  # subtracting one side's terms would leave x = NUMBER in one step
                return None
            return text, solution

        text, solution = retry(draw, what="an equation with one small rational solution")
        prompt = (
            f"Solve this equation for x, one step per turn:\n\n    {text}\n\n"
            "Each turn, write the equation rewritten one step further (for example: 3x + 5 = 11 - x), until it "
            "reads x = NUMBER (a whole number or a fraction like -7/3). Every line must be a linear equation in x "
            "with exactly the same solution as the original, reached from the current equation by ONE step: "
            "simplify or rearrange the sides, add or subtract the same expression on both sides, or multiply or "
            "divide both sides by the same non-zero number. A line that is not is rejected and counts as a "
            "mistake; write one equation per turn. A quarter of your score is paid along the way, as your equation gets "
            "closer to the answer (counted in the steps still needed, paid once per step gained); the rest is paid "
            "when you reach x = NUMBER, half of the score only with no mistakes (less for every mistake)."
        )
        data = {"equation": text, "solution": [solution.numerator, solution.denominator],
                "size": _size(text), "turns": config.turns}
        return Problem(prompt=prompt, answer=f"x = {_number_text(solution)}", data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        return float(problem.data["size"])

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        # Counted here, not in generate: the kit samples far more problems than it plays.
        steps = _steps_left(problem.data["equation"], Fraction(*problem.data["solution"]))
        return {"equation": problem.data["equation"], "start": steps, "best": steps, "paid": 0.0, "mistakes": 0}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        solution = Fraction(*data["solution"])
        sides = _read_line(move)
        if sides is None:
            why = "write one equation with a single '=', using x, numbers, + - * / and brackets"
            return Outcome(state, Verdict.unparsed(why), f"Unreadable: {why}. The equation is still: {state['equation']}")
        left, right = sides
        affine = _affine(left), _affine(right)
        if affine[0] is None or affine[1] is None:
            return self._mistake(state, "that is not a linear equation in x")
        root = _root(affine[0], affine[1])
        if root != solution:
            said = "it has no single solution" if root is None else "its solution differs from the original's"
            return self._mistake(state, f"not equivalent: {said}")
        current = _read_line(state["equation"])
        assert current is not None  # the state only ever holds accepted equations
        if not single_step((_affine(current[0]), _affine(current[1])), affine):  # type: ignore[arg-type]
            return self._mistake(state, "more than one step at once: write one transformation per turn (simplify "
                                        "the sides, add or subtract the same expression on both sides, or multiply "
                                        "or divide both sides by the same number)")
        # The equation as read (its wrappers and closing mark off): the state is shown again and read by the oracle.
        equation = without_closing(strip_wrappers(move))
        left_now = _steps_left(equation, solution)
        # Only a new best pays, so undoing a step and redoing it earns nothing twice.
        earned = min(PROGRESS - state["paid"], PROGRESS * max(0, state["best"] - left_now) / state["start"])
        paid = state["paid"] + earned
        new_state = {**state, "equation": equation, "best": min(state["best"], left_now), "paid": paid}
        if _solved(left, right):
            final = (0.5 - paid) + 0.5 / (1 + state["mistakes"])
            return Outcome(new_state, Verdict(min(1.0, earned + final), state["mistakes"] == 0, True, "solved"),
                           f"Correct: x = {_number_text(solution)}. Solved!", True)
        return Outcome(new_state, Verdict(earned, True, True, "equivalent"), "Equivalent. Continue.")

    def _mistake(self, state: dict[str, Any], why: str) -> Outcome:
        state = {**state, "mistakes": state["mistakes"] + 1}
        return Outcome(state, Verdict.wrong(why), f"Rejected: {why}. The equation is still: {state['equation']}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return _next_step(state["equation"], Fraction(*problem.data["solution"]))


def _next_step(equation: str, solution: Fraction) -> str:
    """The oracle's move from ``equation`` (an accepted one): collect terms, isolate x, divide."""
    sides = _read_line(equation)
    assert sides is not None  # the state only ever holds accepted equations
    (a, b), (c, d) = _affine(sides[0]), _affine(sides[1])  # type: ignore[misc]
    collected = f"{_affine_text(a, b)} = {_affine_text(c, d)}"
    if b == 0 and c == 0 and _size(collected) >= _size(equation):
        return f"x = {_number_text(solution)}"
    if _size(collected) < _size(equation) and not (a != 0 and c != 0 and b == 0 and d == 0):
        return collected
    return f"{_affine_text(a - c, Fraction(0))} = {_number_text(d - b)}"


def _steps_left(equation: str, solution: Fraction) -> int:
    """How many moves the oracle makes from ``equation`` (an accepted one) to ``x = NUMBER``: 0 to 3.

    The oracle needs at most three (collect, isolate, divide); the loop stops at 3 all the same.
    """
    steps = 0
    while steps < 3:
        sides = _read_line(equation)
        assert sides is not None
        if _solved(*sides):
            break
        equation, steps = _next_step(equation, solution), steps + 1
    return steps


def single_step(before: tuple[Affine, Affine], after: tuple[Affine, Affine]) -> bool:
    """Whether the equation ``after`` comes from ``before`` by one transformation (sides as ``a*x + b``).

    Either orientation of ``after`` (sides swapped) may match: the same expression added to both
    sides (which includes rewriting the sides into equal expressions: adding 0), or both sides
    multiplied by the same non-zero number.

    >>> F = Fraction
    >>> start = ((F(3), F(5)), (F(0), F(11)))       # 3x + 5 = 11
    >>> single_step(start, ((F(3), F(0)), (F(0), F(6))))   # 3x = 6: subtract 5
    True
    >>> single_step(start, ((F(1), F(0)), (F(0), F(2))))   # x = 2: two steps at once
    False
    >>> single_step(((F(3), F(0)), (F(0), F(6))), ((F(1), F(0)), (F(0), F(2))))  # divide by 3
    True
    """
    (a, b), (c, d) = before
    for (p, q), (r, t) in (after, after[::-1]):
        if (p - a, q - b) == (r - c, t - d):
            return True
        for old, new in (((a, b), (p, q)), ((c, d), (r, t))):
            for o, n in zip(old, new):
                if o != 0:
                    k = n / o
                    if k != 0 and (a * k, b * k, c * k, d * k) == (p, q, r, t):
                        return True
    return False


def _instantiate(rng: random.Random, template: str, largest: int) -> str:
    """The template with every coefficient letter replaced by a random non-zero integer (signs folded in)."""
    out = []
    for char in template:
        if char.isalpha() and char != "x":
            divisor = out[-1:] == ["/"]  # denominators stay positive
            values = [v for v in range(-largest, largest + 1) if v not in (0, 1, -1) and (v > 0 or not divisor)]
            out.append(str(rng.choice(values)))
        else:
            out.append(char)
    text = "".join(out).replace("+ -", "- ").replace("- -", "+ ").replace("*x", "x").replace("*(", "(")
    return text.replace("(-", "(-").replace("= -", "= -")


def _read_equation(text: str) -> tuple[Expr, Expr] | None:
    if text.count("=") != 1 or "==" in text:
        return None
    left, right = text.split("=")
    trees = (parse_expression(left, variables={"x"}, functions=(), constants=False),
             parse_expression(right, variables={"x"}, functions=(), constants=False))
    return None if trees[0] is None or trees[1] is None else trees  # type: ignore[return-value]


def _read_line(move: str) -> tuple[Expr, Expr] | None:
    if len(move) > MAX_MOVE_CHARS:
        return None
    return read_answer(move, _read_equation)


def _affine(expr: Expr) -> Affine | None:
    """``expr`` as ``a*x + b`` exactly, or None when it is not linear in x (or divides by zero)."""
    kind = expr[0]
    if kind == "num":
        return Fraction(0), expr[1]
    if kind == "var":
        return Fraction(1), Fraction(0)
    if kind == "neg":
        inner = _affine(expr[1])
        return None if inner is None else (-inner[0], -inner[1])
    if kind not in ("+", "-", "*", "/", "**"):
        return None
    left, right = _affine(expr[1]), _affine(expr[2])
    if left is None or right is None:
        return None
    if kind == "+":
        return left[0] + right[0], left[1] + right[1]
    if kind == "-":
        return left[0] - right[0], left[1] - right[1]
    if kind == "*":
        if left[0] and right[0]:
            return None
        return left[0] * right[1] + right[0] * left[1], left[1] * right[1]
    if kind == "/":
        if right[0] or right[1] == 0:
            return None
        return left[0] / right[1], left[1] / right[1]
    if right[0] or right[1] not in (0, 1, 2, 3) or (left[0] and right[1] > 1):  # powers: constants, or x**1
        return None
    if right[1] == 0:
        return Fraction(0), Fraction(1)
    return (left[0], left[1]) if right[1] == 1 else (Fraction(0), left[1] ** int(right[1]))


def _root(left: Affine, right: Affine) -> Fraction | None:
    slope, constant = left[0] - right[0], left[1] - right[1]
    return None if slope == 0 else -constant / slope


def _solution(left: Expr, right: Expr) -> Fraction | None:
    a, b = _affine(left), _affine(right)
    return None if a is None or b is None else _root(a, b)


def _tree_size(expr: Expr) -> int:
    if expr[0] in ("num", "var"):
        return 1
    return 1 + sum(_tree_size(child) for child in expr[1:])


def _size(text: str) -> int:
    sides = _read_equation(text)
    return 10_000 if sides is None else _tree_size(sides[0]) + _tree_size(sides[1])


def _solved(left: Expr, right: Expr) -> bool:
    """``x = NUMBER`` or ``NUMBER = x``, the number written as an integer, a decimal or a fraction."""
    def number(expr: Expr) -> bool:
        if expr[0] == "neg":
            expr = expr[1]
        if expr[0] == "/":
            return expr[1][0] == "num" and expr[2][0] == "num" or (
                expr[1][0] == "neg" and expr[1][1][0] == "num" and expr[2][0] == "num")
        return expr[0] == "num"

    return (left == ("var", "x") and number(right)) or (right == ("var", "x") and number(left))


def _number_text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def _affine_text(a: Fraction, b: Fraction) -> str:
    """``a*x + b`` written plainly: ``3x - 5``, ``-x + 1/2``, ``(2/3)x``, ``7``."""
    if a == 0:
        return _number_text(b)
    coefficient = "" if a == 1 else "-" if a == -1 else _number_text(a) if a.denominator == 1 else f"({_number_text(a)})"
    text = f"{coefficient}x"
    if b > 0:
        text += f" + {_number_text(b)}"
    elif b < 0:
        text += f" - {_number_text(-b)}"
    return text
