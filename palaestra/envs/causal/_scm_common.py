"""Discrete causal Bayesian networks for the causal envs: random DAGs, rational CPTs, exact queries.

A model is a list of variables in topological order; each has a number of values (2 or
3), parents, and a table giving P(variable = value | parents) as fractions. The joint
distribution is enumerated exactly, so observational, interventional (``do``) and
conditional interventional probabilities are exact fractions.

Example::

    >>> import random
    >>> model = random_model(random.Random(3), ["Z", "X", "Y"], max_parents=2, ternary=0.0, edges={("X", "Y")})
    >>> p = probability(model, {"Y": 1}, do={"X": 1})
    >>> 0 < p < 1 and p == probability(model, {"Y": 1}, do={"X": 1}, given={})
    True
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Variable:
    name: str
    values: int  # 2 or 3
    parents: tuple[str, ...]
    table: dict[tuple[int, ...], tuple[Fraction, ...]]  # parent values -> P(value = 0..values-1)


Model = list[Variable]


def _distribution(rng: random.Random, values: int) -> tuple[Fraction, ...]:
    """A distribution over ``values`` outcomes in tenths (fifths for a third of the binary ones), never 0 or 1."""
    if values == 2:
        denominator = rng.choice([10, 10, 5, 4, 8])
        p = Fraction(rng.randint(1, denominator - 1), denominator)
        return (1 - p, p)
    cuts = sorted(rng.sample(range(1, 10), 2))
    return (Fraction(cuts[0], 10), Fraction(cuts[1] - cuts[0], 10), Fraction(10 - cuts[1], 10))


def random_model(
    rng: random.Random,
    names: list[str],
    *,
    max_parents: int,
    ternary: float,
    edges: Iterable[tuple[str, str]] = (),
    density: float = 0.5,
) -> Model:
    """Variables in the given (topological) order; each earlier variable is a parent with probability
    ``density`` (at most ``max_parents``), plus the required ``edges``; a share ``ternary`` has 3 values."""
    required = set(edges)
    model: Model = []
    for i, name in enumerate(names):
        forced = [p for p in names[:i] if (p, name) in required]
        optional = [p for p in names[:i] if p not in forced and rng.random() < density]
        rng.shuffle(optional)
        parents = tuple(sorted(forced + optional[: max(0, max_parents - len(forced))], key=names.index))
        values = 3 if rng.random() < ternary else 2
        arities = [next(v.values for v in model if v.name == p) for p in parents]
        table = {combo: _distribution(rng, values) for combo in itertools.product(*(range(a) for a in arities))}
        model.append(Variable(name, values, parents, table))
    return model


def probability(
    model: Model, event: Mapping[str, int], *, do: Mapping[str, int] | None = None,
    given: Mapping[str, int] | None = None,
) -> Fraction:
    """P(event | given) in the model after ``do`` (exact); raises ZeroDivisionError if ``given`` is impossible."""
    given = dict(given or {})
    rows, position = _scaled_joint(model, dict(do or {}))
    wanted = [(position[k], v) for k, v in {**given, **event}.items()]
    known = [(position[k], v) for k, v in given.items()]
    both = sum(w for a, w in rows if all(a[i] == v for i, v in wanted))
    base = sum(w for a, w in rows if all(a[i] == v for i, v in known))
    return Fraction(both, base)


def _scaled_joint(model: Model, do: Mapping[str, int]) -> tuple[list[tuple[tuple[int, ...], int]], dict[str, int]]:
    """Every assignment of the model mutilated by ``do`` (set values, tables cut), as (values by position,
    whole-number weight) rows: every table entry times the tables' common denominator, so each weight is the
    assignment's probability times the same constant (that denominator to the power of the variables not set by
    ``do``), which cancels in a ratio. Integers instead of fractions."""
    position = {var.name: i for i, var in enumerate(model)}
    scale = math.lcm(*(q.denominator for var in model for dist in var.table.values() for q in dist))
    rows: list[tuple[tuple[int, ...], int]] = [((), 1)]
    for var in model:
        if var.name in do:
            rows = [(a + (do[var.name],), w) for a, w in rows]
            continue
        parents = [position[q] for q in var.parents]
        table = {combo: [q.numerator * (scale // q.denominator) for q in dist] for combo, dist in var.table.items()}
        rows = [(a + (value,), w * q) for a, w in rows
                for value, q in enumerate(table[tuple(a[j] for j in parents)])]
    return rows, position


def fraction_text(p: Fraction) -> str:
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def describe(model: Model) -> str:
    """The model in words: each variable's values, parents and conditional probability table."""
    lines = []
    for var in model:
        values = "0 or 1" if var.values == 2 else "0, 1 or 2"
        if not var.parents:
            lines.append(f"{var.name} (values {values}) has no causes: " + _row(var, (), var.table[()]) + ".")
            continue
        lines.append(f"{var.name} (values {values}) is caused by {', '.join(var.parents)}:")
        for combo, dist in var.table.items():
            condition = ", ".join(f"{p}={v}" for p, v in zip(var.parents, combo))
            lines.append(f"  given {condition}: " + _row(var, combo, dist))
    return "\n".join(lines)


def _row(var: Variable, combo: tuple[int, ...], dist: tuple[Fraction, ...]) -> str:
    if var.values == 2:
        return f"P({var.name}=1) = {fraction_text(dist[1])}"
    return ", ".join(f"P({var.name}={v}) = {fraction_text(q)}" for v, q in enumerate(dist))


def descendants(model: Model, name: str) -> set[str]:
    out: set[str] = set()
    frontier = [name]
    for _ in range(len(model)):
        frontier = [v.name for v in model if set(v.parents) & set(frontier) and v.name not in out]
        out.update(frontier)
        if not frontier:
            break
    return out
