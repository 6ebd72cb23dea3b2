"""Observational and interventional probabilities in a generated causal Bayesian network.

The model is a random DAG over 3 to 7 discrete variables, each with a conditional
probability table of small fractions (:mod:`palaestra.envs.causal._scm_common`); the
treatment X always causes the outcome Y directly and shares a common cause with it, so
conditioning and intervening differ. Questions follow the association / intervention
ladder: level 0 mixes P(Y=y | X=x) with P(Y=y | do(X=x)); level 1 asks interventional
probabilities and average causal effects; level 2 adds conditions on other variables
(``P(Y=1 | do(X=1), W=0)``); levels 3-4 intervene on two variables in larger models with
three-valued variables. Every answer is computed by enumerating the (mutilated) joint
distribution exactly, and an interventional question is only asked when its value
differs from the matching observational one.

The answer is the exact value in any exact spelling (``21/50``, ``0.42``, ``\\frac{21}{50}``,
an average effect may be negative); a rounded decimal is wrong.

Version 3: a question is also redrawn when its value equals the plain mean of the outcome's table rows that agree
with the intervened (and observed) values, the shortcut that ignores how the other causes are distributed (it is
right when a confounder is a fair coin). Version 2 paid that shortcut 0.12, 0.12, 0.11, 0.03 and 0.04 at levels 0-4
(300 seeds each; association questions kept: there the mean is right only when the rows agree, which is sound).

Generation speed: about 1,000 problems/s at level 4. Each question's value and its observational counterpart are
computed by enumerating the joint distribution of up to seven variables (some three-valued) exactly, as whole-
number weights over a common denominator; the exact enumeration gives the exact answer and proves the
interventional value differs from the observational one.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.causal._scm_common import Model, descendants, describe, fraction_text, probability, random_model
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.rationals import other_spellings

_LETTERS = "ABCDEFGHJKLMNPQRSTUVW"
_EXAMPLE = Fraction(21, 50)


@register
class Intervention(Task):
    id = "causal/intervention"
    version = 3
    family = "causal"
    description = "Observational and interventional probabilities P(Y | do(X)) in a discrete causal model."
    tags = ("causal", "probability", "math")

    @dataclass(frozen=True)
    class Config:
        variables: int
        max_parents: int
        ternary: float  # share of three-valued variables
        kinds: tuple[str, ...]  # association | intervention | effect | conditional | joint_do

    presets = (
        Config(variables=3, max_parents=2, ternary=0.0, kinds=("association", "intervention")),
        Config(variables=4, max_parents=2, ternary=0.0, kinds=("intervention", "effect")),
        Config(variables=5, max_parents=2, ternary=0.0, kinds=("intervention", "effect", "conditional")),
        Config(variables=6, max_parents=3, ternary=0.2, kinds=("conditional", "joint_do", "effect")),
        Config(variables=7, max_parents=3, ternary=0.3, kinds=("conditional", "joint_do")),
    )
    # Capped at level 9's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"variables": 12, "max_parents": 8})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(config.kinds)
        model, question, value, observational = retry(lambda: _draw(rng, config, kind), lambda d: d is not None,
                                                      what="a query whose intervention differs from observation")
        example = fraction_text(_EXAMPLE)  # a fixed placeholder: independent of the answer
        prompt = (
            "A causal model over discrete variables. Each variable lists its direct causes and its probabilities "
            "given them; variables without causes are drawn first, then each one given its causes:\n"
            f"{describe(model)}\n\n{question}\n\n"
            "Here do(V=v) means an intervention that sets V to v, cutting V off from its causes. "
            f"Give the exact value as a fraction, e.g. {example}."
        )
        return Problem(prompt=prompt, answer=fraction_text(value), data={
            "kind": kind, "value": fraction_text(value), "observational": fraction_text(observational),
            "variables": config.variables, "rows": sum(len(v.table) for v in model),
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        value = read_exact(answer, max_digits=80)
        if value is None:
            return Verdict.unparsed("not an exact number")
        return Verdict.judge(value == Fraction(problem.data["value"]), "wrong value")

    def difficulty(self, problem: Problem) -> float:
        """Variables plus conditional-table rows plus the query's rung (association 0 ... two interventions 3)."""
        rung = {"association": 0, "intervention": 1, "effect": 2, "conditional": 3, "joint_do": 3}
        return float(problem.data["variables"] + problem.data["rows"] + 2 * rung[problem.data["kind"]])

    def spellings(self, problem: Problem) -> list[str]:
        value = Fraction(problem.data["value"])
        return [*super().spellings(problem), *other_spellings(value), f"P = {problem.answer}",
                f"{problem.answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value = Fraction(problem.data["value"])
        wrong = [*super().corruptions(problem, rng), fraction_text(value + Fraction(1, 20)),
                 fraction_text(1 - value) if value != Fraction(1, 2) else "1/4",
                 f"{problem.answer} or {fraction_text(value / 2)}"]
        if problem.data["kind"] != "association":
            wrong.append(problem.data["observational"])  # conditioning instead of intervening
        if (value * 1000).denominator != 1:
            wrong.append(f"{float(value):.3f}")
        return [w for w in wrong if read_exact(w) != value]


def _row_average(model: Model, y: str, yv: int, fixed: dict[str, int]) -> Fraction:
    """The shortcut that ignores how the other causes are distributed: the plain mean of P(y = yv) over the rows
    of y's table that agree with ``fixed`` on y's parents."""
    var = next(v for v in model if v.name == y)
    rows = [dist[yv] for combo, dist in var.table.items()
            if all(fixed.get(parent, value) == value for parent, value in zip(var.parents, combo))]
    return sum(rows, Fraction(0)) / len(rows)


def _names(rng: random.Random, n: int) -> list[str]:
    return rng.sample(_LETTERS[: n + 4], n)


def _draw(rng: random.Random, config: Intervention.Config, kind: str) -> tuple[Model, str, Fraction, Fraction] | None:
    n = config.variables
    names = _names(rng, n)
    x_at = rng.randint(1, n - 2)
    y_at = rng.randint(x_at + 1, n - 1)
    confounder = names[rng.randrange(x_at)]
    x, y = names[x_at], names[y_at]
    edges = {(x, y), (confounder, x), (confounder, y)}
    model = random_model(rng, names, max_parents=config.max_parents, ternary=config.ternary, edges=edges)
    arity = {v.name: v.values for v in model}
    xv, yv = rng.randrange(arity[x]), rng.randrange(arity[y])
    if kind in ("association", "intervention"):
        do_value = probability(model, {y: yv}, do={x: xv})
        seen = probability(model, {y: yv}, given={x: xv})
        if kind == "association":
            return model, f"What is P({y}={yv} | {x}={xv}), the probability that {y}={yv} among cases where " \
                          f"{x}={xv} is observed?", seen, seen
        if do_value == seen or do_value == _row_average(model, y, yv, {x: xv}):
            return None
        return model, f"What is P({y}={yv} | do({x}={xv}))?", do_value, seen
    if kind == "effect":
        if arity[y] != 2 or arity[x] != 2:
            return None
        effect = probability(model, {y: 1}, do={x: 1}) - probability(model, {y: 1}, do={x: 0})
        seen = probability(model, {y: 1}, given={x: 1}) - probability(model, {y: 1}, given={x: 0})
        if effect == seen or effect == _row_average(model, y, 1, {x: 1}) - _row_average(model, y, 1, {x: 0}):
            return None
        return model, (f"What is the average causal effect of {x} on {y}, "
                       f"P({y}=1 | do({x}=1)) - P({y}=1 | do({x}=0))?"), effect, seen
    if kind == "conditional":
        others = [v for v in names if v not in (x, y)]
        w = rng.choice(others)
        wv = rng.randrange(arity[w])
        try:
            value = probability(model, {y: yv}, do={x: xv}, given={w: wv})
            seen = probability(model, {y: yv}, given={x: xv, w: wv})
        except ZeroDivisionError:
            return None
        if value == seen or value == _row_average(model, y, yv, {x: xv, w: wv}):
            return None
        where = "a descendant of" if w in descendants(model, x) else "not a descendant of"
        return model, (f"What is P({y}={yv} | do({x}={xv}), {w}={wv}): the probability that {y}={yv} among the "
                       f"cases with {w}={wv}, after the intervention? ({w} is {where} {x}.)"), value, seen
    second = rng.choice([v for v in names if v not in (x, y) and names.index(v) < names.index(y)] or [None])
    if second is None:
        return None
    sv = rng.randrange(arity[second])
    value = probability(model, {y: yv}, do={x: xv, second: sv})
    seen = probability(model, {y: yv}, given={x: xv, second: sv})
    if value == seen or value == _row_average(model, y, yv, {x: xv, second: sv}):
        return None
    return model, f"What is P({y}={yv} | do({x}={xv}, {second}={sv})), with both {x} and {second} set by " \
                  "intervention?", value, seen
