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


def joint(model: Model, do: Mapping[str, int] | None = None) -> list[tuple[dict[str, int], Fraction]]:
    """Every assignment with its probability, in the model mutilated by ``do`` (set values, tables cut)."""
    do = dict(do or {})
    rows: list[tuple[dict[str, int], Fraction]] = [({}, Fraction(1))]
    for var in model:
        grown = []
        for assignment, p in rows:
            if var.name in do:
                grown.append(({**assignment, var.name: do[var.name]}, p))
                continue
            dist = var.table[tuple(assignment[q] for q in var.parents)]
            for value, q in enumerate(dist):
                grown.append(({**assignment, var.name: value}, p * q))
        rows = grown
    return rows


def probability(
    model: Model, event: Mapping[str, int], *, do: Mapping[str, int] | None = None,
    given: Mapping[str, int] | None = None,
) -> Fraction:
    """P(event | given) in the model after ``do`` (exact); raises ZeroDivisionError if ``given`` is impossible."""
    given = dict(given or {})
    rows = joint(model, do)
    both = sum((p for a, p in rows if all(a[k] == v for k, v in {**given, **event}.items())), Fraction(0))
    base = sum((p for a, p in rows if all(a[k] == v for k, v in given.items())), Fraction(0))
    return both / base


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
