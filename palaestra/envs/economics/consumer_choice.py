"""Consumer choice: the utility-maximising bundle on a budget, and the Slutsky split of a price change, exactly.

A consumer with income I buys goods at fixed prices. Level 0 asks for the best bundle under a
Cobb-Douglas utility U = x^a y^b (whole exponents: a share a/(a+b) of income goes to x); level 1
under perfect complements U = min(x/a, y/b) (the goods in a fixed ratio); level 2 under perfect
substitutes U = a x + b y (all income on the good with the higher utility per unit of money; when
the two are equal every bundle on the budget line is best); level 3 a Cobb-Douglas utility over
three goods; level 4 the Slutsky decomposition of a rise or fall in the price of x under a
Cobb-Douglas utility: the substitution effect (the change in x with income compensated so the old
bundle is just affordable) and the income effect (the rest of the change).

Levels 0-3 are judged by the bundle itself: every quantity given and >= 0, the bundle affordable
and its utility equal to the maximum (so **any** best bundle is accepted where several are). Level
4 names the two effects (``S = ..., N = ...``, signed). Values are exact rationals in any exact
spelling; a rounded value of a non-terminating answer is wrong.
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

GOODS = ("x", "y", "z")

# The Slutsky effects named in words, "substitution effect = 441/52, income effect = 735/52": read as S and N.
_EFFECT_NAMES = re.compile(r"\b(substitution|income) effect\b(?:\s*\(?\s*[SN]\s*\)?(?=\s*[:=]))?", re.IGNORECASE)


@register
class ConsumerChoice(Task):
    id = "economics/consumer_choice"
    family = "economics"
    description = "Utility-maximising bundles (Cobb-Douglas, complements, substitutes) and Slutsky effects, exactly."
    tags = ("economics", "optimization", "math")
    version = 1

    @dataclass(frozen=True)
    class Config:
        kind: str

    presets = (Config("cobb_douglas"), Config("complements"), Config("substitutes"), Config("three_goods"),
               Config("slutsky"))
    bounded = "its levels are kinds of preference (the `kind` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        text, data, values = _KINDS[config.kind](rng)
        names = list(values)
        example = ", ".join(f"{name} = {('25/2', '40', '7/3')[i % 3]}" for i, name in enumerate(names))
        prompt = f"{text}\n\nGive exact values (fractions where needed), e.g. {example}."
        answer = ", ".join(f"{name} = {format_fraction(v)}" for name, v in values.items())
        return Problem(prompt=prompt, answer=answer, data={
            "kind": config.kind, **data, "values": {k: format_fraction(v) for k, v in values.items()}})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        data = problem.data
        expected = {k: Fraction(v) for k, v in data["values"].items()}
        if data["kind"] == "slutsky" and isinstance(answer, str) and len(answer) <= 2_000:
            answer = _EFFECT_NAMES.sub(lambda m: "S" if m.group(1).lower().startswith("s") else "N", answer)
        got = read_values(answer, list(expected), lambda s: read_exact(s, mixed=True, max_digits=60))
        if got is None:
            return Verdict.unparsed("expected " + ", ".join(f"{n} = <exact value>" for n in expected))
        if data["kind"] == "slutsky":
            if got["S"] != expected["S"]:
                return Verdict.wrong("wrong substitution effect")
            return Verdict.judge(got["N"] == expected["N"], "wrong income effect")
        bundle = [got[name] for name in expected]
        if any(q < 0 for q in bundle):
            return Verdict.wrong("a quantity is negative")
        spent = sum((p * q for p, q in zip(data["prices"], bundle)), Fraction(0))
        if spent > data["income"]:
            return Verdict.wrong(f"this bundle costs {format_fraction(spent)}, more than the income {data['income']}")
        best = utility(data, [expected[name] for name in expected])
        return Verdict.judge(utility(data, bundle) == best, "affordable, but another bundle gives more utility")

    def difficulty(self, problem: Problem) -> float:
        """Steps of the kind, plus the goods and a tenth of the answer's digits."""
        values = problem.data["values"]
        steps = {"cobb_douglas": 2, "complements": 3, "substitutes": 4, "three_goods": 5, "slutsky": 8}
        return steps[problem.data["kind"]] + len(values) + sum(c.isdigit() for v in values.values() for c in v) / 10

    def spellings(self, problem: Problem) -> list[str]:
        pairs = (problem.answer or "").split(", ")
        return [*super().spellings(problem), ", ".join(reversed(pairs)), "\n".join(pairs) + ".",
                "\\boxed{" + "; ".join(pairs) + "}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        values = {k: Fraction(v) for k, v in problem.data["values"].items()}
        names = list(values)

        def spelled(changed: dict[str, Fraction]) -> str:
            return ", ".join(f"{n} = {format_fraction(changed[n])}" for n in names)

        first = names[0]
        wrong = [spelled({**values, first: values[first] + 1}), ", ".join(f"{n} = {values[n]}" for n in names[:-1]),
                 spelled(values) + f" or {first} = {format_fraction(values[first] + 1)}"]
        if problem.data["kind"] == "slutsky":
            wrong.append(spelled({"S": values["N"], "N": values["S"]}) if values["N"] != values["S"]
                         else spelled({**values, "N": values["N"] + 1}))
        else:
            wrong.append(spelled({n: v / 2 for n, v in values.items()}))  # affordable, wasteful
        return wrong


def utility(data: dict, bundle: list[Fraction]) -> Fraction:
    weights = data["weights"]
    if data["kind"] == "complements":
        return min(q / w for q, w in zip(bundle, weights))
    if data["kind"] == "substitutes":
        return sum((w * q for w, q in zip(weights, bundle)), Fraction(0))
    value = Fraction(1)
    for q, w in zip(bundle, weights):
        value *= q**w
    return value


def _budget(rng: random.Random, goods: int) -> tuple[int, list[int]]:
    return rng.randint(20, 600) * 5, [rng.randint(1, 40) for _ in range(goods)]


def _cobb_douglas_bundle(income: int, prices: list[int], weights: list[int]) -> list[Fraction]:
    return [Fraction(w * income, sum(weights) * p) for w, p in zip(weights, prices)]


def _utility_text(kind: str, weights: list[int]) -> str:
    names = GOODS[:len(weights)]
    if kind == "complements":
        return f"U = min(x/{weights[0]}, y/{weights[1]})"
    if kind == "substitutes":
        return f"U = {weights[0]}x + {weights[1]}y"
    return "U = " + " * ".join(f"{n}^{w}" if w > 1 else n for n, w in zip(names, weights))


def _bundle_question(kind: str, income: int, prices: list[int], weights: list[int]) -> str:
    names = GOODS[:len(prices)]
    priced = ", ".join(f"{p} per unit of {n}" for n, p in zip(names, prices))
    return (f"A consumer has an income of {income} and buys goods at prices {priced} (any non-negative real "
            f"quantities). Their utility is {_utility_text(kind, weights)}. Find a bundle that maximises utility "
            f"within the budget: the quantities {', '.join(names)}.")


def _cobb_douglas(rng: random.Random) -> tuple[str, dict, dict[str, Fraction]]:
    income, prices = _budget(rng, 2)
    weights = [rng.randint(1, 5), rng.randint(1, 5)]
    bundle = _cobb_douglas_bundle(income, prices, weights)
    data = {"income": income, "prices": prices, "weights": weights}
    return _bundle_question("cobb_douglas", income, prices, weights), data, dict(zip(GOODS, bundle))


def _complements(rng: random.Random) -> tuple[str, dict, dict[str, Fraction]]:
    income, prices = _budget(rng, 2)
    weights = [rng.randint(1, 6), rng.randint(1, 6)]
    scale = Fraction(income, sum(w * p for w, p in zip(weights, prices)))  # x = a t, y = b t on the budget line
    data = {"income": income, "prices": prices, "weights": weights}
    return (_bundle_question("complements", income, prices, weights), data,
            {"x": weights[0] * scale, "y": weights[1] * scale})


def _substitutes(rng: random.Random) -> tuple[str, dict, dict[str, Fraction]]:
    def draw() -> tuple[int, list[int], list[int]]:
        income, prices = _budget(rng, 2)
        return income, prices, [rng.randint(1, 9), rng.randint(1, 9)]

    # equal utility per unit of money (every budget bundle best) is kept rare: at most one draw in ten
    income, prices, weights = retry(
        draw, lambda d: d[2][0] * d[1][1] != d[2][1] * d[1][0] or rng.random() < 0.1, what="a substitutes problem")
    if weights[0] * prices[1] >= weights[1] * prices[0]:
        bundle = {"x": Fraction(income, prices[0]), "y": Fraction(0)}
    else:
        bundle = {"x": Fraction(0), "y": Fraction(income, prices[1])}
    data = {"income": income, "prices": prices, "weights": weights}
    return _bundle_question("substitutes", income, prices, weights), data, bundle


def _three_goods(rng: random.Random) -> tuple[str, dict, dict[str, Fraction]]:
    income, prices = _budget(rng, 3)
    weights = [rng.randint(1, 4) for _ in range(3)]
    bundle = _cobb_douglas_bundle(income, prices, weights)
    data = {"income": income, "prices": prices, "weights": weights}
    return _bundle_question("three_goods", income, prices, weights), data, dict(zip(GOODS, bundle))


def _slutsky(rng: random.Random) -> tuple[str, dict, dict[str, Fraction]]:
    income, prices = _budget(rng, 2)
    weights = [rng.randint(1, 5), rng.randint(1, 5)]
    new_price = rng.choice([p for p in range(1, 41) if p != prices[0]])
    share = Fraction(weights[0], sum(weights))
    old_x = share * income / prices[0]
    old_y = (1 - share) * income / prices[1]
    compensated = new_price * old_x + prices[1] * old_y  # income that just buys the old bundle at the new price
    substitution = share * compensated / new_price - old_x
    income_effect = share * income / new_price - share * compensated / new_price
    text = (f"A consumer has an income of {income} and utility {_utility_text('cobb_douglas', weights)}; the prices are "
            f"{prices[0]} per unit of x and {prices[1]} per unit of y. The price of x changes to {new_price}. Split the "
            "change in the quantity of x bought into the Slutsky substitution effect S (the change if income were "
            "adjusted so the original bundle is just affordable at the new prices) and the income effect N (the rest "
            "of the change). Give both as signed changes in x.")
    data = {"income": income, "prices": prices, "weights": weights, "new_price": new_price}
    return text, data, {"S": substitution, "N": income_effect}


_KINDS: dict[str, Callable[[random.Random], tuple[str, dict, dict[str, Fraction]]]] = {
    "cobb_douglas": _cobb_douglas, "complements": _complements, "substitutes": _substitutes,
    "three_goods": _three_goods, "slutsky": _slutsky,
}
