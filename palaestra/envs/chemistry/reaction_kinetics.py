"""Rate laws from initial rates: the order in each reactant and the rate constant.

A reaction's rate law is rate = k · [A]^a · [B]^b · ... with each order 0, 1 or 2 (stated in the prompt).
A table of experiments gives the initial concentrations (exact decimals, mol/L) and the measured initial
rate (M/s, four significant figures). At low levels each experiment after the first changes one reactant
(the textbook method of initial rates); from level 2 on, experiments change several reactants at once, so the
orders come from a small system of equations in the logarithms.

Uniqueness: every concentration is a base value times a power of two, so the log-ratios of the experiments
against the first are integer multiples of log 2; the orders are unique over the reals exactly when that
integer matrix has full column rank, which the generator checks exactly (``solvers.linalg``). The rounding of
the rates (below 0.05%) cannot move an integer order; the rate constant is accepted within 1% of the exact
value, as the prompt states, in the units that go with M and s (a unit may be written; it must fit the
overall order).

Difficulty: the reactants, the experiments that change several at once, and the overall order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.solvers.linalg import rank
from palaestra.verifiers.assignments import read_assignment
from palaestra.verifiers.numeric import Tolerance, format_decimal, normalize_unit, read_approx

REACTANTS = ("A", "B", "C", "D", "E", "F", "G", "H")
TOLERANCE = Tolerance(relative="0.01")


def rate_constant_units(overall: int) -> tuple[str, ...]:
    """Spellings of the units of k for an overall order (M^(1-n) s^-1): in M or in L (dm^3) and mol, as powers
    (with or without spaces between the factors, exponents bare or bracketed) or as a quotient."""
    power = overall - 1
    seconds = ("s^-1", "s^(-1)", "sec^-1")
    if overall == 0:
        return ("M/s", "mol/(L·s)", "mol/(L s)", "mol/L/s", "mol/(dm^3 s)", "mol/dm^3/s",
                *(f"{c}{gap}{t}" for c in ("M", "mol L^-1", "mol L^(-1)", "mol dm^-3", "mol dm^(-3)")
                  for t in seconds for gap in (" ", "")))
    if overall == 1:
        return (*seconds, "1/s", "/s", "per second", "1/sec", "/sec", "per sec")
    n = "" if power == 1 else str(power)
    per_m = (f"M^-{power}", f"M^(-{power})")
    per_l = (f"L{'^' + n if n else ''} mol^-{power}", f"L{'^' + n if n else ''} mol^(-{power})",
             f"dm^{3 * power} mol^-{power}", f"dm^{3 * power} mol^(-{power})")
    powers = tuple(f"{c}{gap}{t}" for c in (*per_m, *per_l) for t in seconds for gap in (" ", ""))
    quotients = (f"1/(M{'^' + n if n else ''}·s)", f"1/(M{'^' + n if n else ''} s)", f"1/(M{'^' + n if n else ''}s)",
                 f"{'M^-' + str(power)}/s", f"L{'^' + n if n else ''}/(mol{'^' + n if n else ''}·s)",
                 f"L{'^' + n if n else ''}/(mol{'^' + n if n else ''} s)",
                 f"L{'^' + n if n else ''}/mol{'^' + n if n else ''}/s",
                 f"dm^{3 * power}/(mol{'^' + n if n else ''} s)")
    return (powers[0], *powers[1:], *quotients)


def _read_constant(text: str, units: tuple[str, ...]) -> Fraction | None:
    """k as :func:`read_approx` reads it in ``units``, or followed by a unit that opens with a slash (``1/(M·s)``,
    ``/s``), which the shared reader does not take for a unit (a unit there starts with a letter)."""
    value = read_approx(text, units=units)
    if value is not None or not isinstance(text, str) or len(text) > 200:
        return value
    s = text.strip()
    cut = max(s.rfind(" 1/"), s.rfind(" /"))
    quotients = {normalize_unit(u) for u in units if u.startswith(("1/", "/"))}
    if cut <= 0 or normalize_unit(s[cut + 1 :]) not in quotients:
        return None
    return read_approx(s[:cut])


def _scientific(value: Fraction) -> str:
    """Four significant figures in scientific notation: ``3.456e-05``."""
    return f"{float(value):.3e}"


@register
class ReactionKinetics(Task):
    id = "chemistry/reaction_kinetics"
    family = "chemistry"
    description = "Orders and rate constant of a rate law from a table of initial rates (method of initial rates)."
    tags = ("chemistry", "science", "math")

    @dataclass(frozen=True)
    class Config:
        reactants: int
        mixed: bool  # whether experiments change several reactants at once
        extra: int  # experiments beyond the reactants + 1 needed

    presets = (Config(2, False, 0), Config(3, False, 0), Config(3, True, 1), Config(4, True, 1), Config(5, True, 2))
    growth = Growth(steps={"reactants": 1, "extra": 1}, limits={"reactants": len(REACTANTS)})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        return retry(lambda: self._draw(rng, config), lambda p: p is not None, attempts=100,
                     what="experiments that determine every order")

    def _draw(self, rng: random.Random, config: Config) -> Problem | None:
        n = min(config.reactants, len(REACTANTS))
        names = list(REACTANTS[:n])
        orders = [rng.randint(0, 2) for _ in names]
        constant = Fraction(rng.randint(11, 99), 10 ** rng.randint(0, 3))
        base = [Fraction(rng.randint(1, 40), 20) for _ in names]
        if config.mixed:
            shifts = [[rng.choice((-1, 0, 0, 1, 1, 2)) for _ in names] for _ in range(n + config.extra)]
        else:
            shifts = [[rng.choice((-1, 1, 1, 2)) if i == j else 0 for i in range(n)] for j in range(n)]
            shifts += [[rng.choice((-1, 0, 1)) for _ in names] for _ in range(config.extra)]
        if rank([[Fraction(e) for e in row] for row in shifts]) < n:
            return None
        if len({tuple(row) for row in shifts}) < len(shifts) or any(not any(row) for row in shifts):
            return None  # a repeated experiment or a copy of the first
        experiments: list[list[Any]] = [[Fraction(0)] * n, *shifts]  # exponents: a zero row, then the shifts
        rng.shuffle(experiments)
        rows = []
        for shift in experiments:
            concentrations = [c * Fraction(2) ** int(e) for c, e in zip(base, shift, strict=True)]
            rate = constant
            for c, order in zip(concentrations, orders, strict=True):
                rate *= c ** order
            rows.append((concentrations, rate))
        header = "| Experiment | " + " | ".join(f"[{name}]0 (M)" for name in names) + " | initial rate (M/s) |"
        lines = [header, "|" + "---|" * (n + 2)]
        for index, (concentrations, rate) in enumerate(rows, start=1):
            lines.append(f"| {index} | " + " | ".join(format_decimal(c) for c in concentrations)
                         + f" | {_scientific(rate)} |")
        rate_law = "rate = k · " + " · ".join(f"[{name}]^{name.lower()}" for name in names)
        example = ", ".join(f"{name} = 1" for name in names) + ", k = 0.123"  # k never has 3 digits
        prompt = (
            f"A reaction's rate law has the form {rate_law}, where each order is 0, 1 or 2. These initial-rate "
            "experiments were run at the same temperature:\n\n" + "\n".join(lines) + "\n\n"
            f"Find the order in each reactant and the rate constant k (in the units that go with M and s). Rates are "
            f"given to four significant figures; k within 1% of the exact value is accepted. Answer with each "
            f"reactant's order and k, for example: {example}"
        )
        overall = sum(orders)
        answer = ", ".join(f"{name} = {order}" for name, order in zip(names, orders, strict=True))
        answer += f", k = {format_decimal(constant)}"
        mixed_rows = sum(sum(1 for e in row if e) > 1 for row in shifts)
        return Problem(prompt=prompt, answer=answer,
                       data={"names": names, "orders": orders, "k": str(constant), "overall": overall,
                             "mixed_rows": mixed_rows})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        names = problem.data["names"]
        units = rate_constant_units(problem.data["overall"])
        given = read_assignment(answer, [*names, "k"], lambda s: _read_constant(s, units)) \
            if isinstance(answer, str) else None
        if given is None:
            return Verdict.unparsed("expected each reactant's order and k, such as A = 1, B = 2, k = 0.123")
        for name, order in zip(names, problem.data["orders"], strict=True):
            if given[name] != order:
                return Verdict.wrong(f"the order in {name} is not {format_decimal(given[name])}")
        if not TOLERANCE.accepts(given["k"], Fraction(problem.data["k"])):
            return Verdict.wrong("the orders are right but k is not within 1% of the exact value")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Reactants, experiments changing several at once, and the overall order."""
        data = problem.data
        return float(2 * len(data["names"]) + data["mixed_rows"] + data["overall"] / 2)

    def spellings(self, problem: Problem) -> list[str]:
        data = problem.data
        names, orders, k = data["names"], data["orders"], Fraction(data["k"])
        unit = rate_constant_units(data["overall"])[0]
        orders_text = "; ".join(f"{name}: {order}" for name, order in zip(names, orders, strict=True))
        return [*super().spellings(problem),
                f"{orders_text}; k: {float(k * Fraction(1004, 1000)):.5g} {unit}",
                "Answer: " + ", ".join(f"{n} = {o}" for n, o in zip(names, orders, strict=True))
                + f", k = {float(k):.4g}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        names, orders, k = data["names"], data["orders"], Fraction(data["k"])

        def text(order_list: list[int], constant: Fraction) -> str:
            return ", ".join(f"{n} = {o}" for n, o in zip(names, order_list, strict=True)) + f", k = {float(constant):.6g}"

        bumped = [(o + 1) % 3 if i == 0 else o for i, o in enumerate(orders)]
        return [text(bumped, k), text(orders, k * Fraction(102, 100)), text(orders, k * 2),
                text([1] * len(names), k) if orders != [1] * len(names) else text(orders, k / 10)]
