"""Counterfactual probabilities in a generated structural causal model with binary variables.

Each variable V is a stated Boolean function of its direct causes and of its own
independent noise U_V (``Y = X XOR U_Y``, ``M = (X AND Z) OR U_M``); each noise is 1 with a
stated probability. A counterfactual question ("given that X = 1 and Y = 1 were observed,
what is the probability that Y would have been 0 had X been 0?") is answered by the three
steps of abduction, action and prediction: the noise assignments consistent with the
evidence are weighted by their probabilities, X is set by intervention, and the outcome
is recomputed. The generator enumerates every noise assignment exactly, so the answer is
an exact fraction; questions whose evidence is impossible, or whose answer is 0 or 1,
are redrawn.

Level 0 has three variables (a cause, an effect, a common cause); the levels add
mediators and more causes, evidence on a third variable, counterfactuals about a
mediator or a variable downstream of it, and a joint counterfactual about two variables
at level 4. The answer is the exact probability in any exact spelling (``7/16``,
``0.4375``, ``\\frac{7}{16}``); a rounded decimal is wrong.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.rationals import format_fraction, other_spellings

_LETTERS = "ABCDEFGHJKLMNPQRSTVW"
# Boolean functions of (parents..., noise) written as templates; "{u}" is the noise, "{p0}" the first parent.
_ONE_PARENT = ("{p0} XOR {u}", "{p0} AND {u}", "{p0} OR {u}", "(NOT {p0}) XOR {u}", "(NOT {p0}) OR {u}")
_TWO_PARENTS = ("({p0} AND {p1}) OR {u}", "({p0} OR {p1}) AND {u}", "{p0} XOR {p1} XOR {u}",
                "({p0} AND NOT {p1}) OR {u}", "({p0} OR {p1}) XOR {u}", "({p0} AND {p1}) XOR {u}")


@dataclass(frozen=True)
class Node:
    name: str
    parents: tuple[str, ...]
    rule: str  # a template over p0, p1 and u
    noise: Fraction  # P(U = 1)

    def text(self) -> str:
        fills = {f"p{i}": p for i, p in enumerate(self.parents)}
        return self.rule.format(u=f"U_{self.name}", **fills)


_RULES = {
    "{u}": lambda p, u: u,
    "{p0} XOR {u}": lambda p, u: p[0] ^ u,
    "{p0} AND {u}": lambda p, u: p[0] & u,
    "{p0} OR {u}": lambda p, u: p[0] | u,
    "(NOT {p0}) XOR {u}": lambda p, u: (1 - p[0]) ^ u,
    "(NOT {p0}) OR {u}": lambda p, u: (1 - p[0]) | u,
    "({p0} AND {p1}) OR {u}": lambda p, u: (p[0] & p[1]) | u,
    "({p0} OR {p1}) AND {u}": lambda p, u: (p[0] | p[1]) & u,
    "{p0} XOR {p1} XOR {u}": lambda p, u: p[0] ^ p[1] ^ u,
    "({p0} AND NOT {p1}) OR {u}": lambda p, u: (p[0] & (1 - p[1])) | u,
    "({p0} OR {p1}) XOR {u}": lambda p, u: (p[0] | p[1]) ^ u,
    "({p0} AND {p1}) XOR {u}": lambda p, u: (p[0] & p[1]) ^ u,
}


def counterfactual(
    model: list[Node], evidence: dict[str, int], do: dict[str, int], outcome: dict[str, int]
) -> Fraction:
    """P(outcome under do | evidence) by abduction (noise posterior), action and prediction, exactly.

    Every noise assignment is evaluated at once: node i's noise over all 2^n assignments is one array, and each
    node's rule combines its parents' arrays. An assignment's probability is the product of its nodes' numerators
    (``P(U = 1)`` or ``P(U = 0)``) over the product of their denominators; that denominator is the same for every
    assignment and cancels in the ratio, so the weights are summed as whole numbers (Python integers when 64 bits
    could overflow)."""
    n = len(model)
    index = np.arange(1 << n)
    noise = [(index >> (n - 1 - i)) & 1 for i in range(n)]
    position = {node.name: i for i, node in enumerate(model)}

    def world(forced: dict[str, int]) -> list[np.ndarray]:
        values: list[np.ndarray] = []
        for node, u in zip(model, noise):
            if node.name in forced:
                values.append(np.full(1 << n, forced[node.name]))
            else:
                values.append(_RULES[node.rule]([values[position[q]] for q in node.parents], u))
        return values

    fits_evidence = np.ones(1 << n, dtype=bool)
    actual = world({})
    for name, v in evidence.items():
        fits_evidence &= actual[position[name]] == v
    hits = fits_evidence.copy()
    imagined = world(do)
    for name, v in outcome.items():
        hits &= imagined[position[name]] == v
    small = math.prod(node.noise.denominator for node in model) << n < 1 << 62
    weight = np.ones(1 << n, dtype=np.int64 if small else object)
    for node, u in zip(model, noise):
        weight *= np.where(u == 1, node.noise.numerator, node.noise.denominator - node.noise.numerator)
    matched, hit = int(weight[fits_evidence].sum()), int(weight[hits].sum())
    if matched == 0:
        raise ZeroDivisionError("impossible evidence")
    return Fraction(hit, matched)


@register
class Counterfactual(Task):
    id = "causal/counterfactual"
    version = 3
    family = "causal"
    description = "Counterfactual probabilities in a structural causal model with binary variables and noise."
    tags = ("causal", "probability", "math")

    @dataclass(frozen=True)
    class Config:
        variables: int
        kinds: tuple[str, ...]  # outcome | third_evidence | mediator | joint

    presets = (
        Config(3, ("outcome",)),
        Config(4, ("outcome", "mediator")),
        Config(5, ("outcome", "third_evidence", "mediator")),
        Config(6, ("third_evidence", "mediator")),
        Config(7, ("third_evidence", "joint")),
    )
    # Capped at level 10's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"variables": 13})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(config.kinds)
        model, question, value = retry(lambda: _draw(rng, config, kind), what="a counterfactual with a proper answer")
        listing = "\n".join(f"  {node.name} = {node.text()}, where P(U_{node.name} = 1) = "
                            f"{format_fraction(node.noise)}" for node in model)
        example = format_fraction(Fraction(7, 16))  # a fixed placeholder: independent of the answer
        prompt = (
            "A structural causal model over binary variables (0 or 1). Each variable is computed, in the order "
            "listed, from its causes and its own independent noise term U:\n"
            f"{listing}\n\n{question}\n\n"
            f"Give the exact probability as a fraction, e.g. {example}."
        )
        return Problem(prompt=prompt, answer=format_fraction(value), data={
            "kind": kind, "value": format_fraction(value), "variables": config.variables,
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        value = read_exact(answer, max_digits=80)
        if value is None:
            return Verdict.unparsed("not an exact number")
        return Verdict.judge(value == Fraction(problem.data["value"]), "wrong value")

    def difficulty(self, problem: Problem) -> float:
        """Variables (noise terms to reason about) plus the query's weight (evidence and outcomes involved),
        plus a tenth of the digits of the exact probability (the arithmetic)."""
        weight = {"outcome": 0, "mediator": 2, "third_evidence": 2, "joint": 4}[problem.data["kind"]]
        return float(problem.data["variables"] + weight) + sum(c.isdigit() for c in problem.data["value"]) / 10

    def spellings(self, problem: Problem) -> list[str]:
        return [*super().spellings(problem), *other_spellings(Fraction(problem.data["value"])),
                f"P = {problem.answer}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value = Fraction(problem.data["value"])
        wrong = [*super().corruptions(problem, rng), format_fraction(1 - value) if value != Fraction(1, 2) else "1/4",
                 format_fraction(value / 2), f"{problem.answer} or {format_fraction(value / 2)}"]
        if (value * 1000).denominator != 1:
            wrong.append(f"{float(value):.3f}")
        return [w for w in wrong if read_exact(w) != value]


def _noise(rng: random.Random) -> Fraction:
    denominator = rng.choice([2, 3, 4, 5, 10])
    return Fraction(rng.randint(1, denominator - 1), denominator)


def _model(rng: random.Random, names: list[str], required: set[tuple[str, str]]) -> list[Node]:
    model: list[Node] = []
    for i, name in enumerate(names):
        forced = [p for p in names[:i] if (p, name) in required]
        others = [p for p in names[:i] if p not in forced]
        parents = forced[:2]
        if len(parents) < 2 and others and rng.random() < 0.5:
            parents.append(rng.choice(others))
        rule = "{u}" if not parents else rng.choice(_ONE_PARENT if len(parents) == 1 else _TWO_PARENTS)
        model.append(Node(name, tuple(parents), rule, _noise(rng)))
    return model


def _draw(rng: random.Random, config: Counterfactual.Config, kind: str) -> tuple[list[Node], str, Fraction] | None:
    n = config.variables
    names = rng.sample(_LETTERS[: n + 5], n)
    z, x = names[0], names[1]
    y = names[-1]
    mediator = names[rng.randint(2, n - 2)] if n >= 4 else None
    required = {(z, x), (z, y), (x, y)} if mediator is None else {(z, x), (x, mediator), (mediator, y)}
    model = _model(rng, names, required)
    xv, yv = rng.randint(0, 1), rng.randint(0, 1)
    flip = 1 - xv
    evidence = {x: xv, y: yv}
    outcome_value = rng.randint(0, 1)
    if kind == "third_evidence":
        w = rng.choice([v for v in names if v not in (x, y)])
        evidence[w] = rng.randint(0, 1)
        outcome, target = {y: outcome_value}, f"{y} would have been {outcome_value}"
    elif kind == "mediator" and mediator is not None:
        outcome, target = {mediator: outcome_value}, f"{mediator} would have been {outcome_value}"
    elif kind == "joint" and mediator is not None:
        mv = rng.randint(0, 1)
        outcome = {mediator: mv, y: outcome_value}
        target = f"both {mediator} would have been {mv} and {y} would have been {outcome_value}"
    else:
        outcome, target = {y: outcome_value}, f"{y} would have been {outcome_value}"
    try:
        value = counterfactual(model, evidence, {x: flip}, outcome)
    except ZeroDivisionError:
        return None
    if value in (0, 1) or value in {node.noise for node in model} | {1 - node.noise for node in model}:
        return None  # an answer that is a stated noise probability (or its complement) is guessable off the prompt
    seen = " and ".join(f"{k} = {v}" for k, v in evidence.items())
    question = (f"We observe {seen}. What is the probability that {target}, had {x} been set to {flip} "
                f"(everything else about this case, including every noise term, unchanged)?")
    return model, question, value
