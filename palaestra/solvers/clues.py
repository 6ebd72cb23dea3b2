"""Proving that a puzzle's clues force its solution, and keeping only the clues that are needed.

Shared by every generator that promises a unique answer (grid puzzles, seating and ordering puzzles,
Battleships...). The machinery works on any puzzle encoded as CNF over *decision variables* (a cell's
digit, a shaded square): the known solution is excluded by one blocking clause (:func:`block`), so
"the clues still force the solution" is "the formula plus the clues (as solver assumptions) is
unsatisfiable". :func:`prune_clues` removes clues one at a time in a random order and keeps a
removal only when that proof still goes through; every puzzle it returns is proven unique. Budgets
are deterministic conflict counts, so generation stays reproducible.

Example (a 3x3 Latin square with its first row given has two completions; two more givens force one)::

    >>> cnf = CNF()
    >>> x = {(r, c, v): cnf.var((r, c, v)) for r in range(3) for c in range(3) for v in range(3)}
    >>> for r in range(3):
    ...     for c in range(3):
    ...         cnf.exactly_one([x[r, c, v] for v in range(3)])
    ...         cnf.exactly_one([x[r, i, c] for i in range(3)])  # value c once in row r
    ...         cnf.exactly_one([x[i, r, c] for i in range(3)])  # value c once in column r
    >>> square = [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    >>> truth = [x[r, c, square[r][c]] for r in range(3) for c in range(3)]
    >>> is_unique(cnf, truth, assumptions=truth[:3]), is_unique(cnf, truth, assumptions=truth[:4])
    (False, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Sequence

from pysat.card import CardEnc, EncType

from palaestra.solvers.sat import CNF, Budget, BudgetExhausted, SatSolver

# Generous for the small puzzles here (a proof takes a few dozen conflicts); an exhausted budget keeps the clue.
PROOF_BUDGET = Budget(conflicts=20_000)


def copy_cnf(cnf: CNF) -> CNF:
    """A copy of ``cnf`` to add clauses to, leaving ``cnf`` (often a cached rule set) untouched."""
    fresh = CNF()
    fresh.ids, fresh.top, fresh.clauses = dict(cnf.ids), cnf.top, list(cnf.clauses)
    return fresh


def guarded_exactly(cnf: CNF, lits: Sequence[int], k: int, guard: int) -> None:
    """Exactly ``k`` of ``lits`` are true whenever ``guard`` is (a sequential counter whose every
    clause carries ``-guard``, so the constraint vanishes when the guard is off)."""
    encoded = CardEnc.equals(lits=list(lits), bound=k, top_id=cnf.top, encoding=EncType.seqcounter)
    cnf.top = max(cnf.top, encoded.nv)
    cnf.clauses.extend([-guard, *clause] for clause in encoded.clauses)


def block(cnf: CNF, true_literals: Iterable[int]) -> None:
    """Exclude the solution in which every literal of ``true_literals`` holds (one-hot decisions)."""
    cnf.add([-lit for lit in true_literals])


class ProofSolver(SatSolver):
    """A :class:`SatSolver` that also reports which assumptions its last "unsatisfiable" needed."""

    def core(self) -> set[int]:
        """The assumptions the last unsatisfiable answer rests on (a subset suffices for the proof)."""
        return set(self._solver.get_core() or ())


def prune_clues(solver: ProofSolver, clues: Sequence[Sequence[int]], order: Sequence[int], *,
                keep_at_least: int = 0, removable: Callable[[int, list[bool]], bool] | None = None,
                kept: list[bool] | None = None) -> list[bool]:
    """Which clues to keep: drop clues in ``order`` while the rest still force the solution.

    ``solver`` holds the puzzle's rules and a clause blocking its known solution; a clue is the
    list of literals it asserts (solver assumptions). A clue is dropped when the remaining
    clues leave the formula unsatisfiable, i.e. the solution stays the only one; the clues that
    proof did not use (outside the solver's core) are dropped with it, since the core alone
    still proves uniqueness. Pruning stops once ``keep_at_least`` clues remain;
    ``removable(i, kept)`` may veto a removal (a shape rule). A budget exhausted on a proof
    keeps the clue. The result is proven unique and, without a floor or veto, minimal: each
    kept clue was needed when tested, and removing others only weakens the rest. Only clues in
    ``order`` are ever dropped; ``kept`` gives the starting state (default: every clue), so
    pruning can run in phases (givens first, then other clues).
    """
    kept = [True] * len(clues) if kept is None else kept[:]
    count = sum(kept)
    droppable = [i for i in order if kept[i]]
    if removable is None and count - len(droppable) >= keep_at_least:  # one call may drop them all
        dropping = set(droppable)
        rest = [lit for j, clue in enumerate(clues) if kept[j] and j not in dropping for lit in clue]
        try:
            if not solver.satisfiable(rest):
                for i in droppable:
                    kept[i] = False
                return kept
        except BudgetExhausted:
            pass
    for i in order:
        if count <= keep_at_least:
            break
        if not kept[i] or (removable is not None and not removable(i, kept)):
            continue
        kept[i] = False
        assumptions = [lit for j, clue in enumerate(clues) if kept[j] for lit in clue]
        try:
            unique = not solver.satisfiable(assumptions)
        except BudgetExhausted:
            unique = False
        if not unique:
            kept[i] = True
            continue
        count -= 1
        core = solver.core()
        for j in order:
            if count <= keep_at_least:
                break
            if kept[j] and not core.intersection(clues[j]) and (removable is None or removable(j, kept)):
                kept[j] = False
                count -= 1
    return kept


def is_unique(cnf: CNF, true_literals: Iterable[int], assumptions: Sequence[int] = (),
              budget: Budget = PROOF_BUDGET) -> bool:
    """Whether ``cnf`` under ``assumptions`` has no solution but the one given by ``true_literals``
    (which must be a solution). An exhausted budget counts as not proven."""
    blocked = CNF()
    blocked.ids, blocked.top, blocked.clauses = cnf.ids, cnf.top, [*cnf.clauses, [-lit for lit in true_literals]]
    try:
        with ProofSolver(blocked, budget) as solver:
            return not solver.satisfiable(list(assumptions))
    except BudgetExhausted:
        return False


def random_model(solver: SatSolver, keys: Sequence[Hashable], rng: random.Random) -> dict[Hashable, bool] | None:
    """A random solution over the named variables ``keys``: each, in random order, gets a coin-flip
    value when some solution agrees with the values so far, else the other value. None if there
    is no solution (or the budget ran out).

    A call to the solver is needed only when the last solution found disagrees with the coin, so
    the cost is a fraction of one call per variable.
    """
    ids = solver.cnf.ids
    order = list(keys)
    rng.shuffle(order)
    try:
        model = solver.model()
        if model is None:
            return None
        fixed: list[int] = []
        for key in order:
            value = rng.random() < 0.5
            lit = ids[key] if value else -ids[key]
            if model[key] != value:
                found = solver.model([*fixed, lit])
                if found is None:
                    value, lit = not value, -lit
                else:
                    model = found
            fixed.append(lit)
    except BudgetExhausted:
        return None
    return {key: lit > 0 for key, lit in zip(order, fixed)}


def solve_effort(cnf: CNF, assumptions: Sequence[int] = ()) -> dict[str, int]:
    """Decisions and conflicts a fresh solver spends finding a solution (a difficulty statistic)."""
    with ProofSolver(cnf, PROOF_BUDGET) as solver:
        solver.satisfiable(list(assumptions))
        stats = solver.stats()
    return {"decisions": stats.get("decisions", 0), "conflicts": stats.get("conflicts", 0)}


def minimal_clues(cnf: CNF, clues: Sequence[Sequence[int]], rng: random.Random,
                  budget: Budget = PROOF_BUDGET) -> list[bool] | None:
    """Which clues to keep, or None when even all of them do not force the known solution.

    ``cnf`` holds the rules, each clue's meaning (guarded by its literals) and a clause blocking the known
    solution (:func:`block`). All clues together must leave it unsatisfiable (else None: draw another
    puzzle; an exhausted budget counts as not proven); then :func:`prune_clues` drops clues in a random
    order while the proof still goes through.
    """
    with ProofSolver(cnf, budget) as solver:
        try:
            if solver.satisfiable([lit for clue in clues for lit in clue]):
                return None
        except BudgetExhausted:
            return None
        order = list(range(len(clues)))
        rng.shuffle(order)
        return prune_clues(solver, clues, order)
