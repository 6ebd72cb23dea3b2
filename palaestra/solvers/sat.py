"""Boolean satisfiability for generators: a small CNF builder, a budgeted solver, solution counting.

Generators use it to prove that a puzzle has exactly one solution (``count_solutions(cnf) == 1``)
or that a clue can be removed without losing uniqueness. Variables are named by any hashable key
(a string or a tuple such as ``("queen", row, col)``); a literal is the variable's positive id,
or its negation ``-id``, exactly as in DIMACS and python-sat. Cardinality constraints go through
python-sat's encodings; reified gates (``and_of``, ``or_of``, ``at_least_of``...) return a fresh
literal equivalent to the gate, for statements such as "A says: exactly two of us are knights".

Solving is bounded: a :class:`Budget` caps the solver's conflicts (deterministic, so generation
stays reproducible) and optionally its wall-clock seconds (machine-dependent, for verifiers).
When the budget runs out the answer is *unknown* and :class:`BudgetExhausted` is raised, never a
guess and never a hang.

Example (the 4-queens puzzle has two solutions)::

    >>> cnf = CNF()
    >>> q = {(r, c): cnf.var(("q", r, c)) for r in range(4) for c in range(4)}
    >>> for i in range(4):
    ...     cnf.exactly_one([q[i, c] for c in range(4)])
    ...     cnf.exactly_one([q[r, i] for r in range(4)])
    >>> for d in range(-3, 4):
    ...     cnf.at_most([q[r, c] for (r, c) in q if r - c == d], 1)
    ...     cnf.at_most([q[r, c] for (r, c) in q if r + c == d + 3], 1)
    >>> count_solutions(cnf, limit=10)
    2
    >>> model = solve(cnf)
    >>> sorted(key for key, value in model.items() if value) in ([('q', 0, 1), ('q', 1, 3), ('q', 2, 0), ('q', 3, 2)],
    ...                                                         [('q', 0, 2), ('q', 1, 0), ('q', 2, 3), ('q', 3, 1)])
    True
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from pysat.card import CardEnc, EncType
from pysat.solvers import Solver

DEFAULT_SOLVER = "minisat22"  # a MiniSat-style solver: it honours conflict budgets (CaDiCaL does not)
_PAIRWISE_UP_TO = 10  # at-most-one over this few literals: pairwise clauses beat an encoding's auxiliaries


@dataclass(frozen=True)
class Budget:
    """The most effort one solver operation (a solve, a count) may spend before it gives up.

    ``conflicts`` is deterministic: the same formula gives the same outcome on every machine, so
    generators should rely on it. ``seconds`` (off by default) also bounds wall-clock time but
    makes outcomes machine-dependent: use it where an "unknown" becomes an error, not a problem.

    >>> Budget(conflicts=1_000).conflicts
    1000
    """

    conflicts: int = 200_000
    seconds: float | None = None
    chunk: int = 5_000  # conflicts per solver call between clock checks


DEFAULT_BUDGET = Budget()


class BudgetExhausted(RuntimeError):
    """The solver gave up within its :class:`Budget`: the answer is unknown.

    ``found`` is how many solutions had been found before giving up (a lower bound on the count).
    """

    def __init__(self, reason: str, found: int = 0) -> None:
        super().__init__(f"unknown: {reason} (after finding {found} solution(s))")
        self.reason = reason
        self.found = found


class CNF:
    """A formula in conjunctive normal form over named boolean variables.

    >>> cnf = CNF()
    >>> a, b = cnf.var("a"), cnf.var("b")
    >>> cnf.add([a, b]); cnf.implies(a, -b)
    >>> count_solutions(cnf, limit=5)
    2
    """

    def __init__(self) -> None:
        self.clauses: list[list[int]] = []
        self.ids: dict[Hashable, int] = {}  # named variables only; auxiliaries have no name
        self.top = 0  # the largest variable id in use
        self._true: int | None = None
        self._counters: dict[tuple[int, ...], list[int]] = {}

    # --- variables and clauses ---------------------------------------------------------

    def var(self, key: Hashable) -> int:
        """The variable named ``key`` (created on first use); negate it for the negative literal."""
        found = self.ids.get(key)
        if found is None:
            self.top += 1
            found = self.ids[key] = self.top
        return found

    def auxiliary(self) -> int:
        """A fresh unnamed variable (not reported in models, not counted by default)."""
        self.top += 1
        return self.top

    @property
    def true(self) -> int:
        """A literal that is always true (``-cnf.true`` is always false)."""
        if self._true is None:
            self._true = self.auxiliary()
            self.clauses.append([self._true])
        return self._true

    def add(self, clause: Iterable[int]) -> None:
        """At least one literal of ``clause`` is true (an empty clause makes the formula unsatisfiable)."""
        self.clauses.append(list(clause) or [-self.true])

    def implies(self, condition: int | Iterable[int], consequence: int) -> None:
        """If every literal in ``condition`` (one literal or several) holds, ``consequence`` holds."""
        conditions = [condition] if isinstance(condition, int) else list(condition)
        self.clauses.append([-lit for lit in conditions] + [consequence])

    def equivalent(self, a: int, b: int) -> None:
        """``a`` holds exactly when ``b`` does."""
        self.clauses.append([-a, b])
        self.clauses.append([a, -b])

    # --- cardinality -------------------------------------------------------------------

    def at_most(self, lits: Sequence[int], k: int, encoding: int = EncType.seqcounter) -> None:
        """At most ``k`` of ``lits`` are true."""
        lits = list(lits)
        if k >= len(lits):
            return
        if k < 0:
            self.add([])
        elif k == 0:
            self.clauses.extend([-lit] for lit in lits)
        elif k == 1 and len(lits) <= _PAIRWISE_UP_TO:
            self.clauses.extend([-a, -b] for i, a in enumerate(lits) for b in lits[i + 1 :])
        else:
            self._encode(CardEnc.atmost, lits, k, encoding)

    def at_least(self, lits: Sequence[int], k: int, encoding: int = EncType.seqcounter) -> None:
        """At least ``k`` of ``lits`` are true."""
        lits = list(lits)
        if k <= 0:
            return
        if k > len(lits):
            self.add([])
        elif k == 1:
            self.clauses.append(lits)
        elif k == len(lits):
            self.clauses.extend([lit] for lit in lits)
        else:
            self._encode(CardEnc.atleast, lits, k, encoding)

    def exactly(self, lits: Sequence[int], k: int, encoding: int = EncType.seqcounter) -> None:
        """Exactly ``k`` of ``lits`` are true."""
        self.at_most(lits, k, encoding)
        self.at_least(lits, k, encoding)

    def exactly_one(self, lits: Sequence[int]) -> None:
        """Exactly one of ``lits`` is true."""
        self.exactly(lits, 1)

    def _encode(self, encode: Any, lits: list[int], k: int, encoding: int) -> None:
        formula = encode(lits=lits, bound=k, top_id=self.top, encoding=encoding)
        self.top = max(self.top, formula.nv)
        self.clauses.extend(formula.clauses)

    # --- reified gates: a fresh literal equivalent to a condition -----------------------

    def and_of(self, lits: Sequence[int]) -> int:
        """A literal that is true exactly when every literal in ``lits`` is."""
        lits = list(lits)
        if not lits:
            return self.true
        if len(lits) == 1:
            return lits[0]
        gate = self.auxiliary()
        self.clauses.extend([-gate, lit] for lit in lits)
        self.clauses.append([gate] + [-lit for lit in lits])
        return gate

    def or_of(self, lits: Sequence[int]) -> int:
        """A literal that is true exactly when some literal in ``lits`` is."""
        return -self.and_of([-lit for lit in lits])

    def xor_of(self, a: int, b: int) -> int:
        """A literal that is true exactly when one of ``a`` and ``b`` is."""
        gate = self.auxiliary()
        self.clauses.extend([[-gate, a, b], [-gate, -a, -b], [gate, -a, b], [gate, a, -b]])
        return gate

    def iff_of(self, a: int, b: int) -> int:
        """A literal that is true exactly when ``a`` and ``b`` agree."""
        return -self.xor_of(a, b)

    def at_least_of(self, lits: Sequence[int], k: int) -> int:
        """A literal that is true exactly when at least ``k`` of ``lits`` are."""
        if k <= 0:
            return self.true
        if k > len(lits):
            return -self.true
        return self._counter(lits)[k]

    def exactly_of(self, lits: Sequence[int], k: int) -> int:
        """A literal that is true exactly when exactly ``k`` of ``lits`` are."""
        return self.and_of([self.at_least_of(lits, k), -self.at_least_of(lits, k + 1)])

    def _counter(self, lits: Sequence[int]) -> list[int]:
        """``at_least[j]`` for j = 0..len(lits): literals equivalent to "at least j of lits are true".

        A sequential counter built from equivalences (both directions, unlike the one-sided
        encodings used for plain constraints), shared between all the gates over the same literals.
        """
        key = tuple(lits)
        if key not in self._counters:
            at_least = [self.true]  # over the first i literals; grows by one entry per literal
            for i, lit in enumerate(key):
                step = [self.true]
                for j in range(1, i + 2):
                    stay = at_least[j] if j < len(at_least) else -self.true
                    step.append(self.or_of([stay, self.and_of([at_least[j - 1], lit])]))
                at_least = step
            self._counters[key] = at_least
        return self._counters[key]


class SatSolver:
    """An incremental solver over a :class:`CNF`, for many related questions about one formula.

    Questions take ``assume``: literals that hold for that question only (givens of a puzzle,
    a cell that must differ from the known solution). Every question is bounded by ``budget``
    and raises :class:`BudgetExhausted` when it runs out. Use it as a context manager.

    >>> cnf = CNF()
    >>> x, y = cnf.var("x"), cnf.var("y")
    >>> cnf.add([x, y])
    >>> with SatSolver(cnf) as solver:
    ...     solver.satisfiable([-x]), solver.satisfiable([-x, -y]), solver.count(limit=5)
    (True, False, 3)
    """

    def __init__(self, cnf: CNF, budget: Budget = DEFAULT_BUDGET, solver: str = DEFAULT_SOLVER) -> None:
        self.cnf = cnf
        self.budget = budget
        self._solver = Solver(name=solver, bootstrap_with=cnf.clauses)
        self._names = {var: key for key, var in cnf.ids.items()}
        self._variables = cnf.top  # variables this solver knows; activation literals come after them
        self._next_free = cnf.top + 1

    def __enter__(self) -> SatSolver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._solver.delete()

    def add(self, clause: Iterable[int]) -> None:
        """Add a clause over the formula's variables for all later questions."""
        clause = list(clause)
        if any(not 0 < abs(lit) <= self._variables for lit in clause):
            raise ValueError("a clause added to a solver may only use the variables its formula had")
        self._solver.add_clause(clause)

    def stats(self) -> dict[str, int]:
        """The solver's cumulative effort so far: conflicts, decisions, propagations, restarts."""
        return dict(self._solver.accum_stats())

    def satisfiable(self, assume: Sequence[int] = ()) -> bool:
        """Whether the formula has a model in which every literal of ``assume`` holds."""
        return self._solve(list(assume), time.monotonic(), self._conflicts(), found=0)

    def model(self, assume: Sequence[int] = ()) -> dict[Hashable, bool] | None:
        """A model as ``{name: value}`` over the named variables, or None when there is none."""
        if not self.satisfiable(assume):
            return None
        return self._named({lit for lit in self._solver.get_model() if lit > 0})

    def models(self, limit: int, project: Iterable[Hashable] | None = None,
               assume: Sequence[int] = ()) -> Iterator[dict[Hashable, bool]]:
        """Up to ``limit`` models that differ on the ``project`` variables (default: all named ones).

        Each model found is excluded by a blocking clause over the projected variables, guarded by
        a fresh activation literal that is retired afterwards, so the solver stays reusable.
        """
        for true in self._enumerate(limit, project, assume):
            yield self._named(true)

    def count(self, limit: int = 2, project: Iterable[Hashable] | None = None, assume: Sequence[int] = ()) -> int:
        """The number of models differing on ``project``, counting no further than ``limit``."""
        return sum(1 for _ in self._enumerate(limit, project, assume))

    def _enumerate(self, limit: int, project: Iterable[Hashable] | None, assume: Sequence[int]) -> Iterator[set[int]]:
        """The set of true variables of each model found, blocking each one's projection afterwards."""
        projected = list(self.cnf.ids.values()) if project is None else [self.cnf.ids[key] for key in project]
        activation = self._next_free
        self._next_free += 1
        assumptions = [*assume, activation]
        start, conflicts = time.monotonic(), self._conflicts()
        found = 0
        try:
            while found < limit and self._solve(assumptions, start, conflicts, found):
                model = self._solver.get_model()
                true = {lit for lit in model if lit > 0}
                found += 1
                yield true
                self._solver.add_clause([-activation] + [-v if v in true else v for v in projected])
                if not projected:
                    break  # nothing to tell models apart: one is all there is
        finally:
            self._solver.add_clause([-activation])

    def _conflicts(self) -> int:
        return self._solver.accum_stats().get("conflicts", 0)

    def _solve(self, assumptions: list[int], start: float, conflicts_at_start: int, found: int) -> bool:
        """One bounded satisfiability call, in chunks of conflicts with a clock check between them."""
        budget = self.budget
        chunks = budget.conflicts // budget.chunk + 1
        for _ in range(chunks):
            spent = self._conflicts() - conflicts_at_start
            allowed = min(budget.chunk, budget.conflicts - spent)
            if allowed <= 0:
                break
            self._solver.conf_budget(allowed)
            result = self._solver.solve_limited(assumptions=assumptions)
            if result is not None:
                return result
            if budget.seconds is not None and time.monotonic() - start > budget.seconds:
                raise BudgetExhausted(f"time budget of {budget.seconds} s spent", found)
        raise BudgetExhausted(f"conflict budget of {budget.conflicts} spent", found)

    def _named(self, true: set[int]) -> dict[Hashable, bool]:
        """Values of the named variables, from the set of true variable ids (absent = unconstrained = False)."""
        return {key: var in true for var, key in self._names.items()}


def solve(cnf: CNF, assume: Sequence[int] = (), budget: Budget = DEFAULT_BUDGET) -> dict[Hashable, bool] | None:
    """A model of ``cnf`` as ``{name: value}``, or None when it is unsatisfiable.

    Raises :class:`BudgetExhausted` when the budget runs out first.

    >>> cnf = CNF()
    >>> cnf.add([-cnf.var("rain")])
    >>> solve(cnf)
    {'rain': False}
    """
    with SatSolver(cnf, budget) as solver:
        return solver.model(assume)


def count_solutions(cnf: CNF, limit: int = 2, project: Iterable[Hashable] | None = None,
                    assume: Sequence[int] = (), budget: Budget = DEFAULT_BUDGET) -> int:
    """How many solutions ``cnf`` has, told apart by the ``project`` variables, stopping at ``limit``.

    ``count_solutions(cnf) == 1`` proves a unique solution. Raises :class:`BudgetExhausted` when the
    budget runs out first (its ``found`` says how many solutions were seen).

    >>> cnf = CNF()
    >>> cnf.exactly_one([cnf.var(i) for i in range(5)])
    >>> count_solutions(cnf), count_solutions(cnf, limit=10)
    (2, 5)
    """
    with SatSolver(cnf, budget) as solver:
        return solver.count(limit, project, assume)
