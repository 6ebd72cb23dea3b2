"""Queueing theory: steady-state measures of M/M/1, M/M/c and M/M/1/K queues, exactly.

Customers arrive as a Poisson stream at rate lambda and service times are exponential with rate
mu per server (whole numbers per hour). Level 0 asks for one measure of an M/M/1 queue (mean
number in the system or queue, mean time in the system or queue); level 1 for a state probability
of an M/M/1 queue (exactly n customers present, or more than n); level 2 for a measure of an M/M/2
queue and level 3 of an M/M/c queue with 3 or 4 servers (through the Erlang C formula:
P0 = [sum_{k<c} a^k/k! + a^c/(c!(1-rho))]^-1, Lq = P0 a^c rho / (c! (1-rho)^2), then Little's law);
level 4 for an M/M/1/K queue with room for K customers (the probability an arrival is turned away
and the mean number present). Every rate is a whole number and every formula rational, so the
answers are exact fractions, computed with :class:`fractions.Fraction`.

Times are asked in hours (minutes accepted), probabilities as fractions (percentages accepted),
numbers of customers as plain numbers; level 4 names its two values (``P = ..., L = ...``). A
rounded value of a non-terminating answer is wrong.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.verifiers.assignments import Units, read_quantities, read_quantity
from palaestra.verifiers.numeric import format_decimal
from palaestra.verifiers.rationals import format_fraction as fraction_text

HOURS: Units = {"h": 1, "hours": 1, "hour": 1, "hr": 1, "min": Fraction(1, 60), "minutes": Fraction(1, 60)}
PLAIN: Units = {"customers": 1}
PROBABILITY: Units = {"%": Fraction(1, 100), "percent": Fraction(1, 100)}
FINITE: dict[str, Units] = {"P": PROBABILITY, "L": PLAIN}
MEASURES = {  # name: (what the prompt asks, unit text, accepted units)
    "L": ("the mean number of customers in the system (waiting or in service)", "", PLAIN),
    "Lq": ("the mean number of customers waiting in the queue (not yet in service)", "", PLAIN),
    "W": ("the mean time a customer spends in the system (waiting plus service), in hours", " h", HOURS),
    "Wq": ("the mean time a customer waits in the queue before service starts, in hours", " h", HOURS),
}
Question = tuple[str, dict[str, Fraction], str, Units, int]  # text, values, unit text, units, steps


@register
class Queueing(Task):
    id = "operations/queueing"
    family = "operations"
    description = "Steady-state measures of M/M/1, M/M/c (Erlang C) and M/M/1/K queues, exactly."
    tags = ("operations-research", "probability", "queueing", "math")
    version = 1

    @dataclass(frozen=True)
    class Config:
        kind: str

    presets = (Config("mm1"), Config("mm1_states"), Config("mm2"), Config("mmc"), Config("mm1k"))
    bounded = "its levels are kinds of queue (the `kind` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        text, values, unit, _, steps = _KINDS[config.kind](rng)
        if config.kind == "mm1k":
            form = "Give exact values (fractions where needed), e.g. P = 16/211, L = 390/211."
            answer = f"P = {fraction_text(values['P'])}, L = {fraction_text(values['L'])}"
        else:
            form = f"Give the exact value (a fraction if needed), e.g. 35/48{unit}."
            answer = f"{fraction_text(values['x'])}{unit}"
        return Problem(prompt=f"{text}\n\n{form}", answer=answer, data={
            "kind": config.kind, "values": {k: fraction_text(v) for k, v in values.items()}, "unit": unit.strip(),
            "steps": steps})

    def _units(self, problem: Problem) -> Units:
        return HOURS if problem.data["unit"] == "h" else PLAIN if problem.data["kind"] != "mm1_states" else PROBABILITY

    def verify(self, problem: Problem, answer: str) -> Verdict:
        expected = {k: Fraction(v) for k, v in problem.data["values"].items()}
        if problem.data["kind"] == "mm1k":
            got = read_quantities(answer, FINITE)
            if got is None:
                return Verdict.unparsed("expected P = <probability>, L = <mean number>, exact values")
            if got["P"] != expected["P"]:
                return Verdict.wrong("wrong probability that an arrival is turned away")
            return Verdict.judge(got["L"] == expected["L"], "wrong mean number in the system")
        value = read_quantity(answer, self._units(problem))
        if value is None:
            return Verdict.unparsed("expected one exact value")
        return Verdict.judge(value == expected["x"], "wrong value")

    def difficulty(self, problem: Problem) -> float:
        """Formula steps of the kind, plus a tenth of the answer's digits."""
        digits = sum(c.isdigit() for v in problem.data["values"].values() for c in v)
        return problem.data["steps"] + digits / 10

    def spellings(self, problem: Problem) -> list[str]:
        values = {k: Fraction(v) for k, v in problem.data["values"].items()}
        if problem.data["kind"] == "mm1k":
            p, length = values["P"], values["L"]
            return [*super().spellings(problem), f"L = {fraction_text(length)}, P = {fraction_text(p)}",
                    f"P = {fraction_text(p * 100)}%\nL = {fraction_text(length)}"]
        x = values["x"]
        out = [*super().spellings(problem), f"\\boxed{{{fraction_text(x)}}}", f"\\frac{{{x.numerator}}}{{{x.denominator}}}"]
        if problem.data["unit"] == "h":
            out.append(f"{fraction_text(x * 60)} minutes")
        elif problem.data["kind"] == "mm1_states":
            out.append(f"{fraction_text(x * 100)}%")
        if format_decimal(x) != fraction_text(x):
            out.append(f"{format_decimal(x)}.")
        return out

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        values = {k: Fraction(v) for k, v in problem.data["values"].items()}
        if problem.data["kind"] == "mm1k":
            p, length = values["P"], values["L"]
            def spelled(a: Fraction, b: Fraction) -> str:
                return f"P = {fraction_text(a)}, L = {fraction_text(b)}"
            return [spelled(1 - p, length), spelled(p, length + 1), spelled(p / 2, length),
                    spelled(p, length) + f" or L = {fraction_text(length + 1)}", f"P = {fraction_text(p)}"]
        x = values["x"]
        unit = " h" if problem.data["unit"] == "h" else ""
        wrong = [f"{fraction_text(x * 2)}{unit}", f"{fraction_text(x + 1)}{unit}",
                 f"{fraction_text(x)} or {fraction_text(x * 2)}{unit}"]
        if unit:
            wrong.append(f"{fraction_text(x)} minutes")
        if format_decimal(x) == fraction_text(x) and x.denominator > 1:
            wrong.append(f"{float(x):.3f}{unit}")
        return wrong


def _rates(rng: random.Random, servers: int) -> tuple[int, int]:
    """(arrival rate, service rate per server), per hour, with the queue stable (lambda < c mu)."""
    mu = rng.randint(2, 90)
    lam = rng.randint(1, servers * mu - 1)
    return lam, mu


def mmc_measures(lam: int, mu: int, servers: int) -> dict[str, Fraction]:
    """L, Lq, W, Wq and P0 of an M/M/c queue, exactly (Erlang C)."""
    a = Fraction(lam, mu)
    rho = a / servers
    tail = a**servers / (math.factorial(servers) * (1 - rho))
    p0 = 1 / (sum((a**k / math.factorial(k) for k in range(servers)), Fraction(0)) + tail)
    lq = p0 * a**servers * rho / (math.factorial(servers) * (1 - rho) ** 2)
    wq = lq / lam
    w = wq + Fraction(1, mu)
    return {"L": lam * w, "Lq": lq, "W": w, "Wq": wq, "P0": p0}


def _measure(rng: random.Random, servers: int, place: str) -> Question:
    lam, mu = _rates(rng, servers)
    name = rng.choice(sorted(MEASURES))
    asked, unit, units = MEASURES[name]
    value = mmc_measures(lam, mu, servers)[name]
    staff = "a single server" if servers == 1 else f"{servers} identical servers sharing one queue"
    text = (f"{place} is served by {staff}. Customers arrive as a Poisson process at {lam} per hour; each service time "
            f"is exponential with a mean rate of {mu} customers per hour per server. In the steady state, what is "
            f"{asked}?")
    return text, {"x": value}, unit, units, {1: 2, 2: 5}.get(servers, 6 + servers) + (name in ("W", "L"))


def _mm1(rng: random.Random) -> Question:
    return _measure(rng, 1, rng.choice(("A ticket booth", "A car wash", "A help desk")))


def _mm1_states(rng: random.Random) -> Question:
    lam, mu = _rates(rng, 1)
    rho = Fraction(lam, mu)
    n = rng.randint(0, 4)
    if rng.random() < 0.5:
        asked, value, steps = f"exactly {n} customers are present (waiting or in service)", (1 - rho) * rho**n, 3
    else:
        asked, value, steps = f"more than {n} customers are present (waiting or in service)", rho ** (n + 1), 4
    text = (f"A single-server kiosk: customers arrive as a Poisson process at {lam} per hour and service times are "
            f"exponential with a mean rate of {mu} per hour. In the steady state, what is the probability that "
            f"{asked}?")
    return text, {"x": value}, "", PROBABILITY, steps


def _mm2(rng: random.Random) -> Question:
    return _measure(rng, 2, rng.choice(("A post office", "A pharmacy counter", "A repair shop")))


def _mmc(rng: random.Random) -> Question:
    return _measure(rng, rng.choice((3, 4)), rng.choice(("A call centre", "A bank", "A clinic")))


def _mm1k(rng: random.Random) -> Question:
    lam, mu = rng.randint(1, 90), rng.randint(2, 90)
    capacity = rng.randint(2, 5)
    rho = Fraction(lam, mu)
    weights = [rho**n for n in range(capacity + 1)]
    total = sum(weights, Fraction(0))
    blocked = weights[-1] / total
    mean = sum((n * w for n, w in enumerate(weights)), Fraction(0)) / total
    text = (f"A single-server workshop has room for at most {capacity} customers in total (the one in service "
            f"included); customers who arrive when it is full leave and do not return. Customers arrive as a Poisson "
            f"process at {lam} per hour and service times are exponential with a mean rate of {mu} per hour. In the "
            "steady state, find the probability P that an arriving customer is turned away and the mean number L of "
            "customers present.")
    return text, {"P": blocked, "L": mean}, "", PLAIN, 8 + capacity


_KINDS: dict[str, Callable[[random.Random], Question]] = {
    "mm1": _mm1, "mm1_states": _mm1_states, "mm2": _mm2, "mmc": _mmc, "mm1k": _mm1k,
}
