"""Complete an n-queens placement: place the missing queens so that no two attack each other.

Some queens are already on the board, taken from a random full solution, and exactly one way
to complete the board exists: the generator removes the solution's queens one at a time in
random order and keeps a removal only when a SAT solver proves that no completion leaves the
removed square empty (:class:`palaestra.solvers.sat.SatSolver`, the remaining queens passed as
assumptions), until the level's number of missing queens is reached or no further queen can go.
The answer lists the squares of all n queens in chess notation (file letter, then rank number:
``a1`` is the bottom-left square) separated by spaces or commas, in any order. The verifier
accepts any non-attacking placement of n queens that includes every pre-placed queen (which, by
construction, is the one completion).

Version 2: completions are unique (so a memorised placement cannot score), boards are larger and
more queens are missing at every level, and a difficulty measure was declared.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import cache

from palaestra.core import Problem, Task, Verdict, register
from palaestra.solvers.sat import CNF, Budget, BudgetExhausted, SatSolver
from palaestra.verifiers.structured import parse_tokens

_SQUARE = re.compile(r"^([a-z])(\d{1,2})$")
_FILES = "abcdefghijklmnopqrstuvwxyz"
_PROOF_BUDGET = Budget(conflicts=20_000)  # a proof on a 16x16 board takes at most a few hundred


@register
class NQueens(Task):
    id = "grid/n_queens"
    version = 2
    family = "grid"
    description = "Complete an n-queens placement around pre-placed queens (exactly one completion exists)."
    tags = ("puzzle", "grid", "constraint-satisfaction", "chess")

    @dataclass(frozen=True)
    class Config:
        min_size: int  # board side, drawn uniformly from [min_size, max_size]
        max_size: int
        missing: int  # queens to remove from the solution, as long as the completion stays unique

    def config(self, level: int) -> Config:
        return [
            self.Config(min_size=8, max_size=10, missing=3),
            self.Config(min_size=9, max_size=11, missing=5),
            self.Config(min_size=10, max_size=12, missing=7),
            self.Config(min_size=12, max_size=14, missing=9),
            self.Config(min_size=14, max_size=16, missing=12),
        ][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = rng.randint(config.min_size, config.max_size)
        files_by_rank = _random_solution(rng, n)
        queens = sorted((file, rank) for rank, file in enumerate(files_by_rank))
        order = queens[:]
        rng.shuffle(order)
        fixed = sorted(_remove_while_unique(n, queens, order, config.missing))
        fixed_names = [_name(q) for q in fixed]
        last_file = _FILES[n - 1]
        missing = n - len(fixed)
        prompt = (
            f"Place {n} queens on a {n}x{n} chessboard so that no two queens attack each other "
            f"(no two share a rank, a file or a diagonal). Files are the letters a-{last_file} from left to right, "
            f"ranks the numbers 1-{n} from bottom to top, so a1 is the bottom-left square. "
            f"Queens already stand on {', '.join(fixed_names)} (Q below); they must stay. "
            f"There is exactly one way to place the other {missing}.\n\n"
            f"{_render(n, set(fixed))}\n\n"
            f"List the squares of all {n} queens, including the ones already placed, "
            f"as file letter then rank number (such as {fixed_names[0]}), separated by spaces, in any order."
        )
        return Problem(
            prompt=prompt,
            answer=" ".join(_name(q) for q in queens),
            data={"size": n, "fixed": fixed_names},
        )

    def difficulty(self, problem: Problem) -> float:
        """Queens to place times the board side."""
        n = problem.data["size"]
        return float((n - len(problem.data["fixed"])) * n)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        n, fixed = problem.data["size"], problem.data["fixed"]
        if len(answer) > 8 * n + 100:
            return Verdict.unparsed("answer too long for a list of squares")
        tokens = parse_tokens(answer.lower(), max_items=4 * n)
        if tokens is None:
            return Verdict.unparsed("expected a list of squares such as a1 c2")
        queens = []
        for token in tokens:
            match = _SQUARE.match(token)
            if not match:
                return Verdict.unparsed(f"{token[:10]!r} is not a square such as a1")
            file, rank = _FILES.index(match.group(1)), int(match.group(2)) - 1
            if not (file < n and 0 <= rank < n):
                return Verdict.wrong(f"{token} is off the {n}x{n} board")
            queens.append((file, rank))
        if len(set(queens)) != len(queens):
            return Verdict.wrong("a square is listed twice")
        if len(queens) != n:
            return Verdict.wrong(f"expected {n} queens, got {len(queens)}")
        placed = set(queens)
        missing = [name for name in fixed if _square(name) not in placed]
        if missing:
            return Verdict.wrong(f"the pre-placed queen on {missing[0]} is missing")
        for i, (f1, r1) in enumerate(queens):
            for f2, r2 in queens[i + 1 :]:
                if f1 == f2 or r1 == r2 or abs(f1 - f2) == abs(r1 - r2):
                    return Verdict.wrong(f"the queens on {_name((f1, r1))} and {_name((f2, r2))} attack each other")
        return Verdict.right()

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        queens = [_square(name) for name in (problem.answer or "").split()]
        n, fixed = problem.data["size"], {_square(name) for name in problem.data["fixed"]}
        free = [q for q in queens if q not in fixed]
        file, rank = rng.choice(free)
        other_rank = rng.choice([r for _, r in queens if r != rank])
        attacked = [q if q != (file, rank) else (file, other_rank) for q in queens]  # two queens share a rank
        dropped = queens[:-1]
        wrong = [attacked, dropped]
        mirrored = [(n - 1 - f, r) for f, r in queens]  # still non-attacking, but may move pre-placed queens
        if not fixed <= set(mirrored):
            wrong.append(mirrored)
        return [" ".join(map(_name, placement)) for placement in wrong]


def _remove_while_unique(n: int, queens: list[tuple[int, int]], order: list[tuple[int, int]],
                         missing: int) -> list[tuple[int, int]]:
    """The queens left after removing up to ``missing`` of them, in ``order``, each removal kept
    only when the completion stays unique."""
    fixed = set(queens)
    cnf = _rules_cnf(n)
    with SatSolver(cnf, _PROOF_BUDGET) as solver:
        for queen in order:
            if n - len(fixed) >= missing:
                break
            fixed.discard(queen)
            # Every completion of the rest holds this queen unless one leaves its square empty.
            assumptions = [_queen_var(n, q) for q in sorted(fixed)] + [-_queen_var(n, queen)]
            try:
                unique = not solver.satisfiable(assumptions)
            except BudgetExhausted:
                unique = False  # not proven: keep the queen
            if not unique:
                fixed.add(queen)
    return sorted(fixed)


def _queen_var(n: int, square: tuple[int, int]) -> int:
    """The variable "a queen stands on ``square``" of :func:`_rules_cnf` (created first, in this order)."""
    file, rank = square
    return file * n + rank + 1


@cache
def _rules_cnf(n: int) -> CNF:
    """The n-queens rules: one queen per file and per rank, at most one per diagonal."""
    cnf = CNF()
    square = [[cnf.var((file, rank)) for rank in range(n)] for file in range(n)]
    for i in range(n):
        cnf.exactly_one(square[i])
        cnf.exactly_one([square[file][i] for file in range(n)])
    for d in range(-(n - 1), n):
        cnf.at_most([square[f][f - d] for f in range(n) if 0 <= f - d < n], 1)
        cnf.at_most([square[f][d + n - 1 - f] for f in range(n) if 0 <= d + n - 1 - f < n], 1)
    return cnf


def _random_solution(rng: random.Random, n: int) -> list[int]:
    """A random n-queens solution (the file of the queen on each rank) by randomised backtracking."""
    files: list[int] = []

    def place(rank: int, used_files: int, used_diagonals: int, used_antidiagonals: int) -> bool:
        if rank == n:
            return True
        order = list(range(n))
        rng.shuffle(order)
        for file in order:
            diagonal, antidiagonal = 1 << (rank + file), 1 << (rank - file + n)
            if used_files >> file & 1 or used_diagonals & diagonal or used_antidiagonals & antidiagonal:
                continue
            files.append(file)
            if place(rank + 1, used_files | 1 << file, used_diagonals | diagonal, used_antidiagonals | antidiagonal):
                return True
            files.pop()
        return False

    place(0, 0, 0, 0)
    return files


def _name(square: tuple[int, int]) -> str:
    file, rank = square
    return f"{_FILES[file]}{rank + 1}"


def _square(name: str) -> tuple[int, int]:
    return _FILES.index(name[0]), int(name[1:]) - 1


def _render(n: int, queens: set[tuple[int, int]]) -> str:
    """The board with rank numbers on the left and file letters below, top rank first."""
    width = len(str(n))
    lines = [
        f"{rank + 1:>{width}} " + " ".join("Q" if (file, rank) in queens else "." for file in range(n))
        for rank in reversed(range(n))
    ]
    lines.append(" " * (width + 1) + " ".join(_FILES[:n]))
    return "\n".join(lines)
