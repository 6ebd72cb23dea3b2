"""Enzyme kinetics: Km and Vmax from initial rates, and each inhibitor's type and inhibition constant.

An enzyme follows v = Vmax·[S] / (Km + [S]). The prompt gives a table of substrate concentrations (µM) and
initial rates (µM/min, four significant figures) without inhibitor and, from level 1 on, with each of
several inhibitors (named X, Y, Z, ...) at a stated concentration [I]. Each inhibitor is one of:

- competitive: Km' = Km·(1 + [I]/Ki), Vmax unchanged;
- uncompetitive: Km' = Km / (1 + [I]/Ki) and Vmax' = Vmax / (1 + [I]/Ki);
- noncompetitive (pure): Vmax' = Vmax / (1 + [I]/Ki), Km unchanged.

The answer gives Km, Vmax, each inhibitor's type and its Ki. The rates are exact values of the model
rounded to four significant figures, and the substrate range spans Km, so any two rows determine Km and Vmax
(a Lineweaver-Burk line) to well within the stated 2% tolerance; 1 + [I]/Ki is drawn between 1.5 and 5 so
each type's change is unmistakable and Ki is well determined. Types are read as words (``competitive``,
``non-competitive``, ...); the feedback names the first wrong value.

Difficulty: the inhibitors (a type and a constant each) and the rows of the table.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.verifiers.assignments import read_assignment
from palaestra.verifiers.numeric import Tolerance, format_decimal, read_approx

INHIBITORS = ("X", "Y", "Z", "W", "U", "T", "R", "Q", "P", "N", "L", "J")
TYPES = ("competitive", "uncompetitive", "noncompetitive")
TYPE_SPELLINGS = {"competitive": "competitive", "uncompetitive": "uncompetitive", "un-competitive": "uncompetitive",
                  "noncompetitive": "noncompetitive", "non-competitive": "noncompetitive",
                  "pure noncompetitive": "noncompetitive", "pure non-competitive": "noncompetitive"}
TOLERANCE = Tolerance(relative="0.02")
UNITS = ("µM", "uM", "μM", "µM/min", "uM/min", "μM/min", "µM min^-1")
MULTIPLES = (Fraction(1, 5), Fraction(1, 4), Fraction(1, 3), Fraction(1, 2), Fraction(2, 3), Fraction(1),
             Fraction(3, 2), Fraction(2), Fraction(3), Fraction(4), Fraction(5), Fraction(6), Fraction(8))

MAX_ANSWER_CHARS = 4_000
# An inhibitor's constant with its name in brackets or in the subscript: "Ki(X)", "K_i(X)", "K_{i}(X)", "Ki[X]",
# "K_{i,X}", read as the name "Ki_X" that the prompt's example uses
_APPROX_SIGN = re.compile(r"\s*(?:≈|≃|\\approx|~=)\s*")
_KI = re.compile(r"(?<![A-Za-z0-9_])(?:K_?\{?i\}?\s?(?:\(\s?([A-Z])\s?\)|\[\s?([A-Z])\s?\])|K_\{i,\s?([A-Z])\})"
                 r"(?![A-Za-z0-9])")


def read_value(text: str) -> Fraction | str | None:
    """An inhibition type (a word) or a number (an optional µM or µM/min unit)."""
    word = text.strip().lower().rstrip(".").strip()
    word = word[: -len(" inhibition")] if word.endswith(" inhibition") else word
    word = word[: -len(" inhibitor")] if word.endswith(" inhibitor") else word
    if word in TYPE_SPELLINGS:
        return TYPE_SPELLINGS[word]
    return read_approx(text, units=UNITS)


def _significant(value: Fraction, digits: int = 4) -> str:
    return f"{float(value):.{digits}g}"


@register
class MichaelisMenten(Task):
    id = "biology/michaelis_menten"
    family = "biology"
    description = "Km and Vmax from initial rates, and each inhibitor's type and Ki (2% tolerance)."
    tags = ("biology", "science", "math")

    @dataclass(frozen=True)
    class Config:
        inhibitors: int
        rows: int

    presets = (Config(0, 4), Config(1, 4), Config(2, 5), Config(3, 5), Config(4, 6))
    growth = Growth(steps={"inhibitors": 1, "rows": 1}, limits={"inhibitors": len(INHIBITORS), "rows": len(MULTIPLES)})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        km = Fraction(rng.randint(5, 400), 10)
        vmax = Fraction(rng.randint(20, 500))
        multiples = sorted(rng.sample(MULTIPLES, min(config.rows, len(MULTIPLES))))
        substrate = [max(Fraction(round(km * m * 10), 10), Fraction(1, 10)) for m in multiples]
        inhibitors = []
        for name in INHIBITORS[: config.inhibitors]:
            kind = rng.choice(TYPES)
            concentration = Fraction(rng.randint(1, 50))
            alpha = Fraction(rng.randint(3, 10), 2)  # 1 + [I]/Ki
            inhibitors.append({"name": name, "type": kind, "concentration": str(concentration),
                               "ki": str(concentration / (alpha - 1)), "alpha": str(alpha)})

        def rate(s: Fraction, inhibitor: dict[str, str] | None) -> Fraction:
            k, v = km, vmax
            if inhibitor is not None:
                alpha = Fraction(inhibitor["alpha"])
                if inhibitor["type"] == "competitive":
                    k = km * alpha
                elif inhibitor["type"] == "uncompetitive":
                    k, v = km / alpha, vmax / alpha
                else:
                    v = vmax / alpha
            return v * s / (k + s)

        header = "| [S] (µM) | v, no inhibitor (µM/min) |" + "".join(
            f" v with {i['name']} (µM/min) |" for i in inhibitors)
        lines = [header, "|" + "---|" * (2 + len(inhibitors))]
        for s in substrate:
            cells = [_significant(rate(s, None))] + [_significant(rate(s, i)) for i in inhibitors]
            lines.append(f"| {format_decimal(s)} | " + " | ".join(cells) + " |")
        given = "".join(f" Inhibitor {i['name']} is present at [I] = {i['concentration']} µM in its column."
                        for i in inhibitors)
        names = ["Km", "Vmax"] + [part for i in inhibitors for part in (i["name"], f"Ki_{i['name']}")]
        example = "Km = 1.23, Vmax = 4.56" + "".join(f", {i['name']} = competitive, Ki_{i['name']} = 7.89"
                                                     for i in inhibitors)
        asked = ("" if not inhibitors else
                 " and, for each inhibitor, its type (competitive, uncompetitive or noncompetitive, the pure kind "
                 "that lowers Vmax only) and its inhibition constant Ki in µM (1 + [I]/Ki is the factor by which "
                 "it changes Km or Vmax)")
        prompt = (
            "An enzyme follows Michaelis–Menten kinetics, v = Vmax·[S] / (Km + [S]). Initial rates were measured "
            "(four significant figures):\n\n" + "\n".join(lines) + f"\n\n{given.strip()}" * bool(inhibitors) +
            f"\n\nFind Km (µM) and Vmax (µM/min){asked}. Numbers within 2% of the exact values are accepted. "
            f"Answer in the form, for example: {example}"
        )
        answer = f"Km = {format_decimal(km)}, Vmax = {format_decimal(vmax)}" + "".join(
            f", {i['name']} = {i['type']}, Ki_{i['name']} = {_significant(Fraction(i['ki']), 6)}" for i in inhibitors)
        return Problem(prompt=prompt, answer=answer,
                       data={"km": str(km), "vmax": str(vmax), "inhibitors": inhibitors, "names": names,
                             "rows": len(substrate)})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        data = problem.data
        given = read_assignment(answer, data["names"], read_value) if isinstance(answer, str) else None
        if given is None and isinstance(answer, str) and len(answer) <= MAX_ANSWER_CHARS:
            named = _KI.sub(lambda m: "Ki_" + next(g for g in m.groups() if g), answer)
            # "Km ≈ 19.3 µM": the values are graded within 2%, so an approximate sign names them as "=" does
            named = _APPROX_SIGN.sub(" = ", named).replace("\\max", "max").replace("\\mu ", "µ").replace("\\mu", "µ")
            given = read_assignment(named, data["names"], read_value)
        if given is None:
            return Verdict.unparsed("expected Km, Vmax and each inhibitor's type and Ki, such as Km = 1.23, "
                                    "Vmax = 4.56, X = competitive, Ki_X = 7.89")
        expected: list[tuple[str, Fraction | str]] = [("Km", Fraction(data["km"])), ("Vmax", Fraction(data["vmax"]))]
        for inhibitor in data["inhibitors"]:
            expected += [(inhibitor["name"], inhibitor["type"]), (f"Ki_{inhibitor['name']}", Fraction(inhibitor["ki"]))]
        for name, value in expected:
            got = given[name]
            if isinstance(value, str):
                if got != value:
                    return Verdict.wrong(f"inhibitor {name} is not {got}")
            elif not isinstance(got, Fraction) or not TOLERANCE.accepts(got, value):
                return Verdict.wrong(f"{name} is not within 2% of the exact value")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Two for Km and Vmax, three per inhibitor (a type and a constant), a half per row of the table."""
        data = problem.data
        return float(2 + 3 * len(data["inhibitors"]) + data["rows"] / 2
                     + sum(i["type"] == "uncompetitive" for i in data["inhibitors"]) / 2)

    def spellings(self, problem: Problem) -> list[str]:
        data = problem.data
        inhibitors = data["inhibitors"]
        km, vmax = Fraction(data["km"]), Fraction(data["vmax"])
        words = {"competitive": "Competitive", "uncompetitive": "un-competitive", "noncompetitive": "non-competitive"}
        rest = "".join(f"\n{i['name']}: {words[i['type']]}\nKi_{i['name']}: {float(Fraction(i['ki'])) * 1.01:.4g} µM"
                       for i in inhibitors)
        return [*super().spellings(problem), f"Km: {float(km * Fraction(99, 100)):.4g} µM\nVmax: {vmax} µM/min{rest}",
                f"Answer: {problem.answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        km, vmax = Fraction(data["km"]), Fraction(data["vmax"])

        def text(k: Fraction, v: Fraction, types: list[str], kis: list[Fraction]) -> str:
            return f"Km = {float(k):.6g}, Vmax = {float(v):.6g}" + "".join(
                f", {i['name']} = {t}, Ki_{i['name']} = {float(ki):.6g}"
                for i, t, ki in zip(data["inhibitors"], types, kis, strict=True))

        types = [i["type"] for i in data["inhibitors"]]
        kis = [Fraction(i["ki"]) for i in data["inhibitors"]]
        wrong = [text(km * Fraction(103, 100), vmax, types, kis), text(km, vmax / 2, types, kis)]
        if types:
            flipped = [TYPES[(TYPES.index(types[0]) + 1) % 3], *types[1:]]
            wrong += [text(km, vmax, flipped, kis), text(km, vmax, types, [kis[0] * Fraction(105, 100), *kis[1:]])]
        return wrong
