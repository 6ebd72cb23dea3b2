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
from collections.abc import Callable
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

    def build(scope: list[str], quants: int, joins: int, must: str | None) -> tuple[Formula, set[str]]:
        """A formula and the variables in it (kept alongside, so no subtree is walked twice)."""
        if quants and (not scope or not joins or rng.random() < 0.5):
            var = next(fresh)
            inner, used = build(scope + [var], quants - 1, joins, var)
            if var not in used:
                join = rng.choice(("and", "or", "imp"))
                extra = atom(scope + [var], var)
                inner, used = [join, extra, inner], used | _free_variables(extra)
            return [rng.choice(("forall", "exists")), var, inner], used | {var}
        if not joins:
            made = atom(scope, must)
            return made, _free_variables(made)
        left_joins = rng.randrange(joins)
        left_quants = rng.randint(0, quants)
        left, left_used = build(scope, left_quants, left_joins, must)
        right, right_used = build(scope, quants - left_quants, joins - 1 - left_joins, None)
        return [rng.choice(("and", "or", "imp")), left, right], left_used | right_used

    return build([], quantifiers, connectives, None)[0]


def degenerate(f: Formula) -> bool:
    """Whether some connective joins a formula with itself or its negation (``A ∧ A``, ``A ∨ ¬A``), or
    with a connective that already contains it as one side (``A ∧ (A ∨ B)``, ``A → (A ∧ B)``)."""
    if f[0] in ("forall", "exists"):
        return degenerate(f[2])
    if f[0] == "not":
        return degenerate(f[1])
    if f[0] in ("and", "or", "imp"):
        a, b = f[1], f[2]
        if a == b or a == ["not", b] or b == ["not", a]:
            return True
        if (b[0] in ("and", "or", "imp") and a in b[1:]) or (a[0] in ("and", "or", "imp") and b in a[1:]):
            return True
        return degenerate(a) or degenerate(b)
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


def _free_variables(f: Formula) -> set[str]:
    if f[0] in ("forall", "exists"):
        return _free_variables(f[2]) - {f[1]}
    if f[0] in ("not", "and", "or", "imp"):
        return set().union(*(_free_variables(g) for g in f[1:]))
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


def ground(cnf: Any, f: Formula, domain_size: int, env: dict[str, int] | None = None) -> int:
    """A literal of ``cnf`` (a :class:`palaestra.solvers.sat.CNF`) that holds exactly when ``f`` is
    true in the structure over 1..``domain_size`` whose atoms are the variables ``(P, d)`` and
    ``(L, d, e)``; quantifiers become gates over the domain. The structure found by a SAT solver
    reads back with :func:`structure_from_model`.

    >>> from palaestra.solvers.sat import CNF, solve
    >>> cnf = CNF()
    >>> cnf.add([ground(cnf, ["exists", "x", ["not", ["P", "x"]]], 2)]); cnf.add([cnf.var(("P", 1))])
    >>> structure_from_model(solve(cnf), 2, ("P",), ())["unary"]
    {'P': [1]}
    """
    env = env or {}
    op = f[0]
    domain = range(1, domain_size + 1)
    if op in ("forall", "exists"):
        parts = [ground(cnf, f[2], domain_size, {**env, f[1]: d}) for d in domain]
        return cnf.and_of(parts) if op == "forall" else cnf.or_of(parts)
    if op == "not":
        return -ground(cnf, f[1], domain_size, env)
    if op in ("and", "or", "imp"):
        left, right = (ground(cnf, g, domain_size, env) for g in f[1:])
        if op == "and":
            return cnf.and_of([left, right])
        return cnf.or_of([-left if op == "imp" else left, right])
    if op == "eq":
        return cnf.true if env[f[1]] == env[f[2]] else -cnf.true
    return cnf.var((op, *(env[v] for v in f[1:])))


def structure_from_model(model: dict, domain_size: int, unary: tuple[str, ...],
                         binary: tuple[str, ...]) -> dict[str, Any]:
    """The structure a SAT model of :func:`ground`'s atoms describes (atoms it never mentions are false)."""
    domain = range(1, domain_size + 1)
    return {
        "size": domain_size,
        "unary": {name: [d for d in domain if model.get((name, d), False)] for name in unary},
        "binary": {name: [[a, b] for a in domain for b in domain if model.get((name, a, b), False)]
                   for name in binary},
    }


class TruthBatch:
    """Truth values of sentences in a batch of structures at once: ``batch(f)`` is the integer whose
    bit i is the truth value of ``f`` in ``structures[i]``, from one pass of bitwise operations over
    the whole batch (domains may differ in size). For generators that test many candidate sentences
    against many structures; :meth:`plus` adds one structure cheaply.

    >>> a = {"size": 1, "unary": {"P": [1]}, "binary": {}}
    >>> b = {"size": 2, "unary": {"P": [1]}, "binary": {}}
    >>> batch = TruthBatch([a, b])
    >>> batch(["forall", "x", ["P", "x"]]), batch(["exists", "x", ["P", "x"]])
    (1, 3)
    >>> batch.plus({"size": 1, "unary": {"P": []}, "binary": {}})(["exists", "x", ["P", "x"]])
    3
    """

    def __init__(self, structures: list[dict[str, Any]]) -> None:
        self.count = 0
        self.largest = 0
        self.present: dict[int, int] = {}  # element d -> the structures whose domain holds d
        self.atoms: dict[tuple, int] = {}  # (P, d) or (L, d, e) -> the structures where the atom holds
        for structure in structures:
            self._add(structure)

    def _add(self, structure: dict[str, Any]) -> None:
        bit = 1 << self.count
        self.count += 1
        self.largest = max(self.largest, structure["size"])
        for d in range(1, structure["size"] + 1):
            self.present[d] = self.present.get(d, 0) | bit
        for name, members in structure["unary"].items():
            for d in members:
                self.atoms[(name, d)] = self.atoms.get((name, d), 0) | bit
        for name, pairs in structure["binary"].items():
            for a, b in pairs:
                self.atoms[(name, a, b)] = self.atoms.get((name, a, b), 0) | bit

    def plus(self, structure: dict[str, Any]) -> TruthBatch:
        """A new batch: this one's structures and then ``structure`` (bit ``self.count``)."""
        copy = TruthBatch([])
        copy.count, copy.largest = self.count, self.largest
        copy.present, copy.atoms = dict(self.present), dict(self.atoms)
        copy._add(structure)
        return copy

    def __call__(self, f: Formula) -> int:
        every = (1 << self.count) - 1
        present = {d: self.present.get(d, 0) for d in range(1, self.largest + 1)}
        atoms, largest = self.atoms, self.largest
        env: dict[str, int] = {}  # the variables bound so far; each quantifier sets and restores its own

        # The sentence is turned into one closure per part before it is evaluated: the generators evaluate each
        # candidate sentence over thousands of variable bindings, and a closure does not look up the part's
        # operator again at each of them.
        def compiled(g: Formula) -> Callable[[], int]:
            op = g[0]
            if op == "forall" or op == "exists":
                return quantified(op == "forall", g)
            if op == "not":
                inner = compiled(g[1])
                return lambda: every ^ inner()
            if op in ("and", "or", "imp"):
                left, right = compiled(g[1]), compiled(g[2])
                if op == "and":
                    return lambda: left() & right()
                if op == "or":
                    return lambda: left() | right()
                return lambda: (every ^ left()) | right()
            if op == "eq":
                a, b = g[1], g[2]
                return lambda: every if env[a] == env[b] else 0
            if len(g) == 2:
                v = g[1]
                return lambda: atoms.get((op, env[v]), 0)
            a, b = g[1], g[2]
            return lambda: atoms.get((op, env[a], env[b]), 0)

        # A quantified part's value depends only on its free variables' values: worked out once for each, not once
        # per value of every enclosing quantifier's variable (``∀x (P(x) → ∃y R(y, y))`` evaluates ∃y once).
        def quantified(forall: bool, g: Formula) -> Callable[[], int]:
            var, body, names = g[1], compiled(g[2]), tuple(sorted(_free_variables(g)))
            known: dict[tuple[int, ...], int] = {}

            def value() -> int:
                memo = tuple(env[name] for name in names)
                found = known.get(memo)
                if found is None:
                    outer = env.get(var)
                    result = every if forall else 0
                    for d in range(1, largest + 1):
                        env[var] = d
                        if forall:
                            result &= body() | (every ^ present[d])
                        else:
                            result |= body() & present[d]
                    if outer is None:
                        del env[var]
                    else:
                        env[var] = outer
                    found = known[memo] = result
                return found

            return value

        return compiled(f)()
