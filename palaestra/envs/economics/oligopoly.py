"""Oligopoly equilibria with linear demand: monopoly, Cournot (two or more firms), Stackelberg and Bertrand, exactly.

Firms have constant marginal costs and no fixed costs. Level 0 asks for a monopoly's profit-
maximising quantity and price under the inverse demand P = a - bQ; level 1 for the Cournot-Nash
quantities of two firms with different costs and the market price; level 2 for the Stackelberg
outcome (the leader commits first, the follower best-responds); level 3 for the Cournot
quantities of three or four firms (q_i = (a - (n+1) c_i + sum of the costs) / ((n+1) b), draws
with a firm priced out are redrawn); level 4 for the Bertrand-Nash prices of two firms selling differentiated products
with demands q_i = alpha - beta p_i + gamma p_j (solving the two best responses). Every
coefficient is a whole number, so every answer is an exact rational, computed with fractions.

The answer names every asked value (``q1 = ..., q2 = ..., P = ...``) in any exact spelling and
order; a rounded value of a non-terminating answer is wrong.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.verifiers.assignments import read_values
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.rationals import format_fraction

# A firm's index as Unicode subscript digits after a letter ("q₁", "p₂"), read as the plain digits of "q1", "p2"
_SUBSCRIPTED = re.compile(r"(?<=[A-Za-z])[₀-₉]{1,3}(?![₀-₉])")
_SUBSCRIPT_DIGITS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")
MAX_ANSWER_CHARS = 4_000

Question = tuple[str, dict[str, Fraction], int]  # text, exact named values, reasoning steps


@register
class Oligopoly(Task):
    id = "economics/oligopoly"
    family = "economics"
    description = "Monopoly, Cournot (2-4 firms), Stackelberg and differentiated Bertrand equilibria, exactly."
    tags = ("economics", "game-theory", "math")
    version = 1

    @dataclass(frozen=True)
    class Config:
        kind: str

    presets = (Config("monopoly"), Config("cournot"), Config("stackelberg"), Config("cournot_many"),
               Config("bertrand"))
    bounded = "its levels are market structures (the `kind` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        text, values, steps = _KINDS[config.kind](rng)
        names = list(values)
        example = ", ".join(f"{name} = {('45/2', '12', '31/3', '7', '9/4')[i % 5]}" for i, name in enumerate(names))
        prompt = f"{text}\n\nGive every value exactly (fractions where needed), e.g. {example}."
        answer = ", ".join(f"{name} = {format_fraction(v)}" for name, v in values.items())
        return Problem(prompt=prompt, answer=answer, data={
            "kind": config.kind, "values": {k: format_fraction(v) for k, v in values.items()}, "steps": steps})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        expected = {k: Fraction(v) for k, v in problem.data["values"].items()}
        def read(text: str) -> dict | None:
            return read_values(text, list(expected), lambda s: read_exact(s, mixed=True, max_digits=60))

        got = read(answer)
        if got is None and isinstance(answer, str) and len(answer) <= MAX_ANSWER_CHARS and _SUBSCRIPTED.search(answer):
            got = read(_SUBSCRIPTED.sub(lambda m: m.group().translate(_SUBSCRIPT_DIGITS), answer))
        if got is None:
            return Verdict.unparsed("expected " + ", ".join(f"{n} = <exact value>" for n in expected))
        for name, value in expected.items():
            if got[name] != value:
                return Verdict.wrong(f"wrong {name}")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Reasoning steps of the market structure, plus the values asked and a tenth of their digits."""
        values = problem.data["values"]
        return problem.data["steps"] + len(values) + sum(c.isdigit() for v in values.values() for c in v) / 10

    def spellings(self, problem: Problem) -> list[str]:
        pairs = (problem.answer or "").split(", ")
        return [*super().spellings(problem), ", ".join(reversed(pairs)), "\n".join(pairs) + ".",
                "\\boxed{" + "; ".join(pairs) + "}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        values = {k: Fraction(v) for k, v in problem.data["values"].items()}
        names = list(values)

        def spelled(changed: dict[str, Fraction]) -> str:
            return ", ".join(f"{n} = {format_fraction(changed[n])}" for n in names)

        first, last = names[0], names[-1]
        return [spelled({**values, first: values[first] + 1}), spelled({**values, last: values[last] * 2}),
                ", ".join(f"{n} = {format_fraction(values[n])}" for n in names[:-1]),
                spelled(values) + f" or {first} = {format_fraction(values[first] + 1)}"]


def _market(rng: random.Random) -> tuple[int, int]:
    """(a, b) of the inverse demand P = a - bQ."""
    return rng.randint(40, 400), rng.randint(1, 6)


def _demand_text(a: int, b: int) -> str:
    slope = "Q" if b == 1 else f"{b}Q"
    return f"The market's inverse demand is P = {a} - {slope} (Q the total quantity, P the price)."


def _monopoly(rng: random.Random) -> Question:
    a, b = _market(rng)
    cost = rng.randint(1, a - 2)
    quantity = Fraction(a - cost, 2 * b)
    text = (f"{_demand_text(a, b)} A monopolist produces at a constant marginal cost of {cost} with no fixed cost. "
            "Find its profit-maximising quantity Q and price P.")
    return text, {"Q": quantity, "P": a - b * quantity}, 2


def cournot(a: int, b: int, costs: list[int]) -> list[Fraction]:
    """Cournot-Nash quantities: q_i = (a - (n+1) c_i + sum c) / ((n+1) b)."""
    n = len(costs)
    return [Fraction(a - (n + 1) * c + sum(costs), (n + 1) * b) for c in costs]


def _cournot_with(rng: random.Random, firms: int) -> Question:
    def draw() -> tuple[int, int, list[int]]:
        a, b = _market(rng)
        return a, b, [rng.randint(1, a // 2) for _ in range(firms)]

    a, b, costs = retry(draw, lambda m: all(q > 0 for q in cournot(*m)), what="a Cournot market where every firm produces")
    quantities = cournot(a, b, costs)
    listed = ", ".join(f"firm {i + 1} {c}" for i, c in enumerate(costs))
    text = (f"{_demand_text(a, b)} {firms} firms choose their quantities simultaneously (Cournot competition); their "
            f"constant marginal costs are: {listed}; there are no fixed costs. Find each firm's equilibrium quantity "
            f"({', '.join(f'q{i + 1}' for i in range(firms))}) and the market price P.")
    values = {f"q{i + 1}": q for i, q in enumerate(quantities)}
    values["P"] = a - b * sum(quantities, Fraction(0))
    return text, values, 3 + firms


def _cournot(rng: random.Random) -> Question:
    return _cournot_with(rng, 2)


def _cournot_many(rng: random.Random) -> Question:
    return _cournot_with(rng, rng.choice((3, 4)))


def _stackelberg(rng: random.Random) -> Question:
    def draw() -> tuple[int, int, int, int]:
        a, b = _market(rng)
        return a, b, rng.randint(1, a // 2), rng.randint(1, a // 2)

    def outcome(m: tuple[int, int, int, int]) -> tuple[Fraction, Fraction]:
        a, b, c1, c2 = m
        leader = Fraction(a - 2 * c1 + c2, 2 * b)  # the leader maximises against the follower's best response
        return leader, Fraction(a - c2, 2 * b) - leader / 2

    market = retry(draw, lambda m: all(q > 0 for q in outcome(m)), what="a Stackelberg market where both produce")
    a, b, c1, c2 = market
    leader, follower = outcome(market)
    text = (f"{_demand_text(a, b)} Firm 1 (the leader, marginal cost {c1}) chooses its quantity first; firm 2 (the "
            f"follower, marginal cost {c2}) sees it and then chooses its own (Stackelberg competition); no fixed costs. "
            "Find the equilibrium quantities q1 and q2 and the market price P.")
    return text, {"q1": leader, "q2": follower, "P": a - b * (leader + follower)}, 7


def _bertrand(rng: random.Random) -> Question:
    def draw() -> tuple[int, int, int, int, int]:
        beta = rng.randint(2, 8)
        return rng.randint(50, 400), beta, rng.randint(1, beta - 1), rng.randint(1, 40), rng.randint(1, 40)

    def prices(m: tuple[int, int, int, int, int]) -> tuple[Fraction, Fraction]:
        # best responses p_i = (alpha + beta c_i + gamma p_j) / (2 beta), solved together
        alpha, beta, gamma, c1, c2 = m
        r1, r2 = Fraction(alpha + beta * c1, 2 * beta), Fraction(alpha + beta * c2, 2 * beta)
        slope = Fraction(gamma, 2 * beta)
        p1 = (r1 + slope * r2) / (1 - slope * slope)
        return p1, r2 + slope * p1

    def sells(m: tuple[int, int, int, int, int]) -> bool:
        alpha, beta, gamma, c1, c2 = m
        p1, p2 = prices(m)
        return p1 > c1 and p2 > c2 and alpha - beta * p1 + gamma * p2 > 0 and alpha - beta * p2 + gamma * p1 > 0

    market = retry(draw, sells, what="a differentiated Bertrand market where both firms sell at a margin")
    alpha, beta, gamma, c1, c2 = market
    p1, p2 = prices(market)
    text = (f"Two firms sell differentiated products and set prices simultaneously (Bertrand competition). Firm 1 "
            f"sells q1 = {alpha} - {beta}p1 + {gamma}p2 units and firm 2 sells q2 = {alpha} - {beta}p2 + {gamma}p1 "
            f"units; their constant marginal costs are {c1} and {c2}, with no fixed costs. Find the equilibrium "
            "prices p1 and p2.")
    return text, {"p1": p1, "p2": p2}, 12


_KINDS: dict[str, Callable[[random.Random], Question]] = {
    "monopoly": _monopoly, "cournot": _cournot, "cournot_many": _cournot_many, "stackelberg": _stackelberg,
    "bertrand": _bertrand,
}
