"""Complete an n-queens placement: place the missing queens so that no two attack each other.

Some queens are already on the board, taken from a random full solution, and exactly one way
to complete the board exists: the generator removes the solution's queens one at a time in
random order and keeps a removal only when an exhaustive search (backtracking over the empty
ranks, with bitmasks) finds no completion that leaves the removed square empty, until the
level's number of missing queens is reached or no further queen can go.
The answer lists the squares of all n queens in chess notation (file letter, then rank number:
``a1`` is the bottom-left square) separated by spaces or commas, in any order, after an optional
naming lead-in ("Queens:", "The queens are on"). The verifier accepts any non-attacking placement
of n queens that includes every pre-placed queen (which, by construction, is the one completion).

Version 2: completions are unique (so a memorised placement cannot score), boards are larger and
more queens are missing at every level, and a difficulty measure was declared.

Version 3: problems from the same distribution, drawn faster (another random stream): the random solution
comes from a cached tree of all solutions on boards up to 10x10, and the uniqueness proofs from
a bitmask search instead of a SAT solver.

Version 4: the same problems; a right list after a naming lead-in ("Queens: a2 b6 ...", "The queens are on a2 ...",
"Squares: ...") was refused as unreadable and is now read (a remark or a second list after it still is not).
"""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass
from functools import cache

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.verifiers.normalize import markup_spellings, strip_wrappers, unparsed_feedback
from palaestra.verifiers.sets import read_list

_SQUARE = re.compile(r"^([a-z])(\d{1,2})$")
# A naming lead-in a grader reads past ("Queens: a1 ...", "The queens are on a1 ..."): only at the start, so a
# remark or a second list after the squares still leaves the answer unreadable.
_LABEL = re.compile(r"(?:the\s+)?(?:\d+\s+)?(?:queens?|squares?|positions?)(?:\s+(?:are|go|stand))?(?:\s+(?:on|at)\b\s*:?|\s*:)\s*")
_FILES = "abcdefghijklmnopqrstuvwxyz"
_LISTED_MAX = 10  # the largest board whose solutions are all kept (724 on 10x10, listed in a few tens of ms)


@register
class NQueens(Task):
    id = "puzzles/n_queens"
    version = 4  # v4: a naming lead-in ("Queens: a1 ...", "The queens are on a1 ...") is read past
    family = "puzzles"
    seed_id = "grid/n_queens"  # moved from grid/ in round 3; same problems
    aliases = {"grid/n_queens": {"version": 3}}
    description = "Complete an n-queens placement around pre-placed queens (exactly one completion exists)."
    tags = ("puzzle", "grid", "constraint-satisfaction", "chess")

    @dataclass(frozen=True)
    class Config:
        min_size: int  # board side, drawn uniformly from [min_size, max_size]
        max_size: int
        missing: int  # queens to remove from the solution, as long as the completion stays unique

    presets = (
        Config(min_size=8, max_size=10, missing=3),
        Config(min_size=9, max_size=11, missing=5),
        Config(min_size=10, max_size=12, missing=7),
        Config(min_size=12, max_size=14, missing=9),
        Config(min_size=14, max_size=16, missing=12),
    )
    # Capped at level 9's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"min_size": 24, "max_size": 26, "missing": 27})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = rng.randint(config.min_size, config.max_size)
        files_by_rank = _random_solution(rng, n)
        queens = sorted((file, rank) for rank, file in enumerate(files_by_rank))
        fixed = _remove_while_unique(rng, n, queens, config.missing)
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
        tokens = read_list(answer.lower(), _square_token, space_separated=True, max_items=4 * n)
        body = strip_wrappers(answer.lower()) if tokens is None else ""
        label = _LABEL.match(body)
        if label is not None:
            tokens = read_list(body[label.end():], _square_token, space_separated=True, max_items=4 * n)
        if tokens is None:
            return Verdict.unparsed(unparsed_feedback(answer, "a list of squares such as a1 c2"))
        queens = []
        for token in tokens:
            match = _SQUARE.match(token)
            assert match is not None  # _square_token read it
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

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), *markup_spellings(gold), f"Queens: {gold}", f"The queens are on {gold}."]

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


def _remove_while_unique(rng: random.Random, n: int, queens: list[tuple[int, int]],
                         missing: int) -> list[tuple[int, int]]:
    """The queens left after removing up to ``missing`` of them, tried in a random order (each drawn
    when it is needed), each removal kept only when the completion stays unique.

    >>> solution = [(0, 2), (1, 0), (2, 3), (3, 1)]  # 4x4: any one queen fixes it, none leaves two
    >>> len(_remove_while_unique(random.Random(0), 4, solution, missing=4))
    1
    """
    # the files and diagonals the fixed queens take, as bitmasks (file f on rank r is on diagonal
    # r + f and antidiagonal f - r + n)
    diagonals = antidiagonals = 0
    for file, rank in queens:
        diagonals |= 1 << (rank + file)
        antidiagonals |= 1 << (file - rank + n)
    taken = (1 << n) - 1, diagonals, antidiagonals  # a full solution: every file taken
    fixed, free_ranks, untried = set(queens), [], queens[:]
    while untried and len(free_ranks) < missing:
        k = rng.randrange(len(untried))
        untried[k], untried[-1] = untried[-1], untried[k]
        queen = untried.pop()
        without = _take(n, taken, *queen)  # each queen has its own file and diagonals: toggling frees them
        # Every completion of the rest holds this queen unless one leaves its square empty.
        if not _completes_without(n, without, [*free_ranks, queen[1]], queen):
            taken = without
            fixed.discard(queen)
            free_ranks.append(queen[1])
    return sorted(fixed)


def _take(n: int, taken: tuple[int, int, int], file: int, rank: int) -> tuple[int, int, int]:
    """``taken`` (files, diagonals, antidiagonals) with the lines through the square toggled."""
    files, diagonals, antidiagonals = taken
    return files ^ 1 << file, diagonals ^ 1 << (rank + file), antidiagonals ^ 1 << (file - rank + n)


def _completes_without(n: int, taken: tuple[int, int, int], ranks: list[int], empty: tuple[int, int]) -> bool:
    """Whether a queen on each of ``ranks``, clear of the files and diagonals ``taken`` and of each
    other, can be placed without one on the square ``empty``: an exhaustive backtracking search."""
    all_files = (1 << n) - 1
    empty_file, empty_rank = empty

    def place(k: int, files: int, diagonals: int, antidiagonals: int) -> bool:
        if k == len(ranks):
            return True
        rank = ranks[k]
        open_files = all_files & ~(files | diagonals >> rank | antidiagonals >> (n - rank))
        if rank == empty_rank:
            open_files &= ~(1 << empty_file)
        while open_files:
            bit = open_files & -open_files
            open_files ^= bit
            if place(k + 1, files | bit, diagonals | bit << rank, antidiagonals | bit << (n - rank)):
                return True
        return False

    return place(0, *taken)


def _random_solution(rng: random.Random, n: int) -> list[int]:
    """A random n-queens solution (the file of the queen on each rank), as randomised backtracking finds it.

    Backtracking that tries each rank's files in a random order ends in a file from which the
    search can be completed, uniformly chosen among those: boards of up to ``_LISTED_MAX`` files
    draw from a cached list of all their solutions weighted by those chances (the same
    distribution, in one draw); larger boards search, drawing one open file at a time.
    """
    if n <= _LISTED_MAX:
        solutions, running_chances = _solutions(n)
        return list(rng.choices(solutions, cum_weights=running_chances)[0])
    files = []
    all_files = (1 << n) - 1

    def place(rank: int, used_files: int, used_diagonals: int, used_antidiagonals: int) -> bool:
        if rank == n:
            return True
        open_files = all_files & ~(used_files | used_diagonals >> rank | used_antidiagonals >> (n - rank))
        untried = [file for file in range(n) if open_files >> file & 1]
        while untried:
            k = int(rng.random() * len(untried))
            untried[k], untried[-1] = untried[-1], untried[k]
            file = untried.pop()
            bit = 1 << file
            files.append(file)
            if place(rank + 1, used_files | bit, used_diagonals | bit << rank, used_antidiagonals | bit << (n - rank)):
                return True
            files.pop()
        return False

    place(0, 0, 0, 0)
    return files


@cache
def _solutions(n: int) -> tuple[list[tuple[int, ...]], list[float]]:
    """Every n-queens solution (the file on each rank) and the running total of the chances that
    randomised backtracking returns each: at every rank, one over the number of files from which
    the search can be completed.

    >>> _solutions(4)
    ([(1, 3, 0, 2), (2, 0, 3, 1)], [0.5, 1.0])
    """
    all_files = (1 << n) - 1

    def grow(rank: int, used_files: int, used_diagonals: int, used_antidiagonals: int) -> list[tuple]:
        """The completions from ``rank`` on, each with its chance given the ranks before."""
        if rank == n:
            return [((), 1.0)]
        open_files = all_files & ~(used_files | used_diagonals >> rank | used_antidiagonals >> (n - rank))
        branches = []
        for file in range(n):
            bit = 1 << file
            if open_files & bit:
                rest = grow(rank + 1, used_files | bit, used_diagonals | bit << rank,
                            used_antidiagonals | bit << (n - rank))
                if rest:
                    branches.append((file, rest))
        return [((file, *files), chance / len(branches)) for file, rest in branches for files, chance in rest]

    completions = grow(0, 0, 0, 0)
    solutions, chances = [files for files, _ in completions], [chance for _, chance in completions]
    return solutions, list(itertools.accumulate(chances))


def _name(square: tuple[int, int]) -> str:
    file, rank = square
    return f"{_FILES[file]}{rank + 1}"


def _square(name: str) -> tuple[int, int]:
    return _FILES.index(name[0]), int(name[1:]) - 1


def _render(n: int, queens: set[tuple[int, int]]) -> str:
    """The board with rank numbers on the left and file letters below, top rank first."""
    labels, rows = _board_parts(n)
    file_on = {rank: file for file, rank in queens}
    lines = [labels[rank] + rows[file_on.get(rank, n)] for rank in reversed(range(n))]
    lines.append(labels[n])
    return "\n".join(lines)


@cache
def _board_parts(n: int) -> tuple[list[str], list[str]]:
    """The rank labels (then the file letters' line) and the rows, by the file of their queen (n: none)."""
    width = len(str(n))
    labels = [f"{rank + 1:>{width}} " for rank in range(n)] + [" " * (width + 1) + " ".join(_FILES[:n])]
    rows = [" ".join("Q" if f == file else "." for f in range(n)) for file in range(n + 1)]
    return labels, rows


def _square_token(text: str) -> str | None:
    """A square as written (``a1``), for the shared list reader; anything else is unreadable."""
    token = text.strip()
    return token if _SQUARE.match(token) else None
