"""First-order logic over finite structures, shared by the deduction envs: sentences as JSON lists,
evaluation, printing, random structures and random sentences. No environment is registered here.

A sentence is a nested JSON list: ``["forall", "x", f]``, ``["exists", "x", f]``, ``["not", f]``,
``["and", f, g]``, ``["or", f, g]``, ``["imp", f, g]``, an atom ``["P", "x"]`` (a unary
predicate), ``["L", "x", "y"]`` (a binary relation) or ``["eq", "x", "y"]``. A structure is
``{"size": n, "unary": {"P": [1, 3]}, "binary": {"L": [[1, 2]]}}`` over the domain 1..n.

Example::

    >>> s = {"size": 2, "unary": {"P": [1]}, "binary": {"L": [[1, 2], [2, 2]]}}
    >>> f = ["forall", "x", ["exists", "y", ["L", "x", "y"]]]
    >>> holds(s, f), render(f)
    (True, '∀x ∃y L(x, y)')
"""

from __future__ import annotations

import random
from typing import Any

UNARY = ("P", "Q", "R")
BINARY = ("L", "M")
VARIABLES = ("x", "y", "z", "w")
_SYMBOL = {"and": "∧", "or": "∨", "imp": "→"}
_MAX_EVALUATIONS = 200_000  # atom evaluations; domain sizes and depths here stay far below

Formula = list


def holds(structure: dict[str, Any], formula: Formula, env: dict[str, int] | None = None) -> bool:
    """The truth value of ``formula`` in ``structure`` under the variable assignment ``env``."""
    unary = {name: set(members) for name, members in structure["unary"].items()}
    binary = {name: {tuple(pair) for pair in pairs} for name, pairs in structure["binary"].items()}
    domain = range(1, structure["size"] + 1)
    budget = [_MAX_EVALUATIONS]

    def value(f: Formula, env: dict[str, int]) -> bool:
        budget[0] -= 1
        if budget[0] < 0:
            raise ValueError("formula too costly to evaluate")
        op = f[0]
        if op == "forall":
            return all(value(f[2], {**env, f[1]: d}) for d in domain)
        if op == "exists":
            return any(value(f[2], {**env, f[1]: d}) for d in domain)
        if op == "not":
            return not value(f[1], env)
        if op == "and":
            return value(f[1], env) and value(f[2], env)
        if op == "or":
            return value(f[1], env) or value(f[2], env)
        if op == "imp":
            return not value(f[1], env) or value(f[2], env)
        if op == "eq":
            return env[f[1]] == env[f[2]]
        if len(f) == 2:
            return env[f[1]] in unary.get(op, set())
        return (env[f[1]], env[f[2]]) in binary.get(op, set())

    return value(formula, dict(env or {}))


def render(f: Formula) -> str:
    """The formula in the usual notation, bracketing every binary connective below the top."""
    return _render(f, top=True)


def _render(f: Formula, top: bool) -> str:
    op = f[0]
    if op in ("forall", "exists"):
        return f"{'∀' if op == 'forall' else '∃'}{f[1]} {_render(f[2], top=False)}"
    if op == "not":
        inner = f[1]
        if inner[0] == "eq":
            return f"{inner[1]} ≠ {inner[2]}"
        return f"¬{_render(inner, top=False)}"
    if op in _SYMBOL:
        text = f"{_render(f[1], top=False)} {_SYMBOL[op]} {_render(f[2], top=False)}"
        return text if top else f"({text})"
    if op == "eq":
        return f"{f[1]} = {f[2]}"
    return f"{op}({', '.join(f[1:])})"


def describe(structure: dict[str, Any]) -> str:
    """The structure in words: its domain and the extension of every predicate and relation."""
    n = structure["size"]
    lines = [f"Domain: {{{', '.join(str(d) for d in range(1, n + 1))}}}"]
    for name, members in sorted(structure["unary"].items()):
        lines.append(f"{name} = {{{', '.join(map(str, sorted(members)))}}}")
    for name, pairs in sorted(structure["binary"].items()):
        lines.append(f"{name} = {{{', '.join(f'({a}, {b})' for a, b in sorted(map(tuple, pairs)))}}}")
    return "\n".join(lines)


def random_structure(rng: random.Random, size: int, unary: tuple[str, ...], binary: tuple[str, ...],
                     density: float = 0.4) -> dict[str, Any]:
    """Each predicate holds of each element (and each relation of each pair) with chance ``density``."""
    domain = range(1, size + 1)
    return {
        "size": size,
        "unary": {name: [d for d in domain if rng.random() < density + 0.2] for name in unary},
        "binary": {name: [[a, b] for a in domain for b in domain if rng.random() < density] for name in binary},
    }


def random_sentence(rng: random.Random, quantifiers: int, connectives: int, unary: tuple[str, ...],
                    binary: tuple[str, ...]) -> Formula:
    """A closed sentence with exactly ``quantifiers`` quantifiers (each binding its own variable, used
    in its scope) and at least ``connectives`` binary connectives; it starts with a quantifier."""
    fresh = iter(VARIABLES)

    def atom(scope: list[str], must: str | None) -> Formula:
        first = must or rng.choice(scope)
        others = [v for v in scope if v != first]
        if binary and rng.random() < (0.6 if others else 0.25):
            second = rng.choice(scope)
            made: Formula = [rng.choice(binary), *([first, second] if rng.random() < 0.5 else [second, first])]
        elif others and rng.random() < 0.15:
            made = ["eq", first, rng.choice(others)]
        else:
            made = [rng.choice(unary), first]
        return ["not", made] if rng.random() < 0.3 else made

    def build(scope: list[str], quants: int, joins: int, must: str | None) -> Formula:
        if quants and (not scope or not joins or rng.random() < 0.5):
            var = next(fresh)
            inner = build(scope + [var], quants - 1, joins, var)
            if var not in _variables_in(inner):
                inner = [rng.choice(("and", "or", "imp")), atom(scope + [var], var), inner]
            return [rng.choice(("forall", "exists")), var, inner]
        if not joins:
            return atom(scope, must)
        left_joins = rng.randrange(joins)
        left_quants = rng.randint(0, quants)
        left = build(scope, left_quants, left_joins, must)
        right = build(scope, quants - left_quants, joins - 1 - left_joins, None)
        return [rng.choice(("and", "or", "imp")), left, right]

    return build([], quantifiers, connectives, None)


def degenerate(f: Formula) -> bool:
    """Whether some connective joins a formula with itself or its negation (``A ∧ A``, ``A ∨ ¬A``)."""
    if f[0] in ("forall", "exists"):
        return degenerate(f[2])
    if f[0] == "not":
        return degenerate(f[1])
    if f[0] in ("and", "or", "imp"):
        a, b = f[1], f[2]
        return a == b or a == ["not", b] or b == ["not", a] or degenerate(a) or degenerate(b)
    return False


def renamed(f: Formula, names: dict[str, str], flip: bool) -> Formula:
    """``f`` with predicate and relation names replaced by ``names`` (and binary arguments swapped if ``flip``)."""
    op = f[0]
    if op in ("forall", "exists"):
        return [op, f[1], renamed(f[2], names, flip)]
    if op in ("not", "and", "or", "imp"):
        return [op, *(renamed(g, names, flip) for g in f[1:])]
    if op == "eq":
        return f
    if len(f) == 3 and flip:
        return [names.get(op, op), f[2], f[1]]
    return [names.get(op, op), *f[1:]]


def _variables_in(f: Formula) -> set[str]:
    if f[0] in ("forall", "exists"):
        return {f[1]} | _variables_in(f[2])
    if f[0] in ("not", "and", "or", "imp"):
        return set().union(*(_variables_in(g) for g in f[1:]))
    return set(f[1:])


def quantifier_depth(f: Formula) -> int:
    if f[0] in ("forall", "exists"):
        return 1 + quantifier_depth(f[2])
    if f[0] in ("not", "and", "or", "imp"):
        return max(quantifier_depth(g) for g in f[1:])
    return 0


def size(f: Formula) -> int:
    """Symbols in the formula: connectives, quantifiers and atoms."""
    if f[0] in ("forall", "exists"):
        return 1 + size(f[2])
    if f[0] in ("not", "and", "or", "imp"):
        return 1 + sum(size(g) for g in f[1:])
    return 1
