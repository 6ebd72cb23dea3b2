"""Kakuro: fill white cells with digits 1-9 so that every run sums to its clue without repeats.

A layout of white and black cells is drawn (every white cell in an across run and a down run of
at least two cells, white cells connected), then a digit filling with no repeat inside a run
(a randomized depth-first fill that leans each run towards low or high digits, whose sums have
few digit combinations). The run sums are the clues. A SAT solver (cell digits, at most one of
each digit per run, and per run the digit sets with its length and sum) then looks for a second
solution; while one exists, a cell where the two differ is revealed as a given digit. The
givens are finally pruned in random order (:func:`prune_clues`), keeping only those the proof
needs, so every puzzle has exactly one solution and a minimal set of givens.

The answer is the grid with a digit in every white cell and ``#`` in every black cell, one row
per line; the verifier checks the rules (digits 1-9, givens kept, no repeat in a run, every sum).

Version 2: the top level keeps only puzzles that the textbook rule of Kakuro does not finish, declared as the
heuristic ``run combinations``: each cell of a run keeps the digits that some combination of distinct digits reaching
the run's sum, placed within every cell's digits, puts there (so a placed digit leaves the rest of its runs),
repeated until it stops. In version 1 it finished 53% of the level 4 puzzles (60 seeds; 70-98% at levels 0-3), so
half the top level needed no reasoning past it; now it finishes none there (100 seeds). Levels 0-3 are unchanged
(the same problems for every seed).

Generation speed: about 20-25 problems/s of CPU time at level 4 on this busy 2-core machine (about 100 in version 1),
over 100 at levels 0-3. About 80% of a draw's time goes to proving uniqueness: a SAT encoding per layout (digit sets
per run length and sum), one SAT call per revealed given to find a rival filling, and one bounded proof per given
while pruning them to a minimal set; the rest is drawing the layout and its filling (about 2 draws per puzzle). The
proof makes the puzzle have exactly one solution. At the top level about 2 puzzles are drawn per kept one, each
then run through the declared rule (about 9 ms), because the rule finishes the others.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.envs.puzzles.common import (
    CNF,
    PROOF_BUDGET,
    BudgetExhausted,
    ProofSolver,
    connected,
    grid_corruptions,
    grid_spellings,
    prune_clues,
    read_cells,
    with_spaces,
)

_FILL_STEPS = 5_000  # depth-first steps before a filling attempt gives up
_BLACK = "#"

Cell = tuple[int, int]


@register
class Kakuro(Task):
    id = "puzzles/kakuro"
    family = "puzzles"
    description = "Fill a Kakuro grid: digit runs that reach their clue sums without repeating a digit (one solution)."
    tags = ("puzzle", "grid", "constraint-satisfaction", "arithmetic")
    multiline = True
    version = 2  # v2: the top level keeps only puzzles that run combinations do not finish

    @dataclass(frozen=True)
    class Config:
        rows: int
        cols: int
        black_share: float  # chance a cell starts black (more turn black to avoid one-cell runs)
        beyond_rules: bool = False  # keep only puzzles that run combinations alone do not finish

    presets = (
        Config(rows=4, cols=4, black_share=0.15),
        Config(rows=5, cols=5, black_share=0.2),
        Config(rows=6, cols=6, black_share=0.2),
        Config(rows=7, cols=7, black_share=0.22),
        Config(rows=8, cols=8, black_share=0.22, beyond_rules=True),
    )
    bounded = "past the presets its generator or oracle gets too slow (the levels 5-9 check did not finish in 40 s on a busy machine)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        rows, cols = config.rows, config.cols

        def draw() -> tuple[set[Cell], list[list[Cell]], dict[Cell, int], set[Cell]]:
            white, runs, digits = retry(lambda: _filled_layout(rng, config), what="a fillable Kakuro layout")
            return white, runs, digits, _minimal_givens(rng, white, runs, digits)

        def hard_enough(drawn: tuple[set[Cell], list[list[Cell]], dict[Cell, int], set[Cell]]) -> bool:
            _, runs, digits, givens = drawn
            if not config.beyond_rules:
                return True
            totals = [sum(digits[cell] for cell in run) for run in runs]
            return _by_rules(runs, totals, {cell: digits[cell] for cell in givens}) != digits

        # the rules finish about half the top level's draws: 40 draws all fall to them with chance about 1e-11
        white, runs, digits, givens = retry(draw, hard_enough, attempts=40,
                                            what="a Kakuro that run combinations do not finish")
        grid = [[(str(digits[(r, c)]) if (r, c) in givens else ".") if (r, c) in digits else _BLACK
                 for c in range(cols)] for r in range(rows)]
        across = [run for run in runs if run[0][0] == run[-1][0]]
        down = [run for run in runs if run[0][1] == run[-1][1]]

        def clue(run: list[Cell], across: bool) -> str:
            (r1, c1), (r2, c2) = run[0], run[-1]
            where = f"row {r1 + 1}, columns {c1 + 1}-{c2 + 1}" if across else f"column {c1 + 1}, rows {r1 + 1}-{r2 + 1}"
            return f"{where}: {sum(digits[cell] for cell in run)}"

        given_note = " Some white cells already hold a digit; keep them." if givens else ""
        prompt = (
            f"Solve this Kakuro puzzle on a {rows}x{cols} grid. Black cells are #, white cells are . (or hold a "
            "given digit). Fill every white cell with a digit from 1 to 9 so that each run (a maximal line of "
            "white cells across or down) adds up to its clue and contains no digit twice." + given_note +
            " The puzzle has exactly one solution. Rows and columns are numbered from 1, top left.\n\n"
            + "\n".join(" ".join(row) for row in grid)
            + "\n\nAcross sums:\n" + "\n".join(clue(run, True) for run in across)
            + "\n\nDown sums:\n" + "\n".join(clue(run, False) for run in down)
            + f"\n\nGive the completed grid as {rows} lines of {cols} cells, with # for black cells and the "
            "digit for white cells. For example, a solved 3x3 grid could be written:\n#13\n521\n34#"
        )
        answer = "\n".join("".join(str(digits[(r, c)]) if (r, c) in digits else _BLACK for c in range(cols))
                           for r in range(rows))
        return Problem(
            prompt=prompt,
            answer=answer,
            data={
                "grid": ["".join(row) for row in grid],
                "runs": [[[r, c] for r, c in run] for run in runs],
                "sums": [sum(digits[cell] for cell in run) for run in runs],
            },
        )

    def difficulty(self, problem: Problem) -> float:
        """White cells to fill (those without a given digit)."""
        return float(sum(row.count(".") for row in problem.data["grid"]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        shown = problem.data["grid"]
        rows, cols = len(shown), len(shown[0])
        grid = read_cells(answer, rows, cols, "123456789" + _BLACK)
        if isinstance(grid, str):
            return Verdict.unparsed(grid)
        for r in range(rows):
            for c in range(cols):
                if (shown[r][c] == _BLACK) != (grid[r][c] == _BLACK):
                    should = "black" if shown[r][c] == _BLACK else "a digit"
                    return Verdict.wrong(f"row {r + 1}, column {c + 1} should be {should}")
                if shown[r][c] not in ".#" and grid[r][c] != shown[r][c]:
                    return Verdict.wrong(f"the given digit in row {r + 1}, column {c + 1} was changed")
        for run, total in zip(problem.data["runs"], problem.data["sums"]):
            values = [int(grid[r][c]) for r, c in run]
            if len(set(values)) < len(values) or sum(values) != total:
                (r1, c1), (r2, c2) = run[0], run[-1]
                return Verdict.wrong(f"the run from row {r1 + 1}, column {c1 + 1} to row {r2 + 1}, column {c2 + 1} "
                                     f"repeats a digit or does not sum to {total}")
        return Verdict.right()

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        """Run combinations, repeated until they stop (cells they leave open written .)."""
        return {"run combinations": _rules_answer}

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), *grid_spellings(gold), with_spaces(gold),
                "\n".join(",".join(row) for row in gold.splitlines()), f"```\n{gold}\n```"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        rows = [list(row) for row in (problem.answer or "").splitlines()]
        digits = [(r, c) for r, row in enumerate(rows) for c, v in enumerate(row) if v != _BLACK]
        r, c = rng.choice(digits)
        bumped = [row[:] for row in rows]
        bumped[r][c] = str(int(bumped[r][c]) % 9 + 1)
        blackened = [row[:] for row in rows]
        blackened[r][c] = _BLACK
        wrong_grids = ["\n".join(map("".join, g)) for g in (bumped, blackened, rows[:-1])]
        return [*wrong_grids, *grid_corruptions(problem.answer or "", wrong_grids[0])]


def _layout(rng: random.Random, config: Kakuro.Config) -> set[Cell] | None:
    """White cells, each in an across and a down run of two or more cells, all connected; or None."""
    rows, cols = config.rows, config.cols
    white = {(r, c) for r in range(rows) for c in range(cols) if rng.random() >= config.black_share}

    def is_lonely(r: int, c: int) -> bool:  # not in both an across and a down run
        return not (((r, c - 1) in white or (r, c + 1) in white) and ((r - 1, c) in white or (r + 1, c) in white))

    # Blacken the first lonely cell in reading order until none is left. A cell's loneliness depends only on
    # its four neighbours, and blackening never makes a cell less lonely, so only the blackened cell's
    # neighbours are looked at again.
    lonely = {cell for cell in white if is_lonely(*cell)}
    while lonely:
        cell = min(lonely)
        lonely.discard(cell)
        white.discard(cell)
        r, c = cell
        for neighbour in ((r, c - 1), (r, c + 1), (r - 1, c), (r + 1, c)):
            if neighbour in white and is_lonely(*neighbour):
                lonely.add(neighbour)
    if len(white) < rows * cols // 2 or not connected(white):
        return None
    return white


def _runs(white: set[Cell], rows: int, cols: int) -> list[list[Cell]]:
    """Maximal across runs (in reading order), then maximal down runs."""
    runs = []
    for line_cells in ([[(r, c) for c in range(cols)] for r in range(rows)]
                       + [[(r, c) for r in range(rows)] for c in range(cols)]):
        run: list[Cell] = []
        for cell in [*line_cells, None]:
            if cell is not None and cell in white:
                run.append(cell)
            else:
                if len(run) >= 2:
                    runs.append(run)
                run = []
    return runs


def _filled_layout(rng: random.Random, config: Kakuro.Config
                   ) -> tuple[set[Cell], list[list[Cell]], dict[Cell, int]] | None:
    white = _layout(rng, config)
    if white is None:
        return None
    runs = _runs(white, config.rows, config.cols)
    digits = _fill(rng, sorted(white), runs)
    return None if digits is None else (white, runs, digits)


def _fill(rng: random.Random, cells: list[Cell], runs: list[list[Cell]]) -> dict[Cell, int] | None:
    """Digits with no repeat inside a run, each run leaning low or high; None past the step bound."""
    runs_of: dict[Cell, list[int]] = {}
    for i, run in enumerate(runs):
        for cell in run:
            runs_of.setdefault(cell, []).append(i)
    lean = [rng.choice((-1, 1)) for _ in runs]
    used = [0] * len(runs)
    digits: dict[Cell, int] = {}
    steps = [0]

    def place(k: int) -> bool:
        steps[0] += 1
        if k == len(cells):
            return True
        if steps[0] > _FILL_STEPS:
            return False
        cell = cells[k]
        pull = sum(lean[i] for i in runs_of[cell])
        order = sorted(range(1, 10), key=lambda d: pull * d + 4 * rng.random())  # pull < 0: low digits first
        for d in order:
            bit = 1 << d
            if any(used[i] & bit for i in runs_of[cell]):
                continue
            for i in runs_of[cell]:
                used[i] |= bit
            digits[cell] = d
            if place(k + 1):
                return True
            for i in runs_of[cell]:
                used[i] ^= bit
        return False

    return digits if place(0) else None


@cache
def _combinations(length: int, total: int) -> tuple[tuple[int, ...], ...]:
    return tuple(combo for combo in itertools.combinations(range(1, 10), length) if sum(combo) == total)


def _minimal_givens(rng: random.Random, white: set[Cell], runs: list[list[Cell]], digits: dict[Cell, int]) -> set[Cell]:
    """Cells to reveal so that the solution is the only one: reveal differing cells until unique, then prune."""
    cnf = CNF()
    cells = sorted(white)
    var = {cell: [0] + [cnf.var((cell, d)) for d in range(1, 10)] for cell in cells}
    for cell in cells:
        cnf.exactly_one(var[cell][1:])
    for run in runs:
        digit_of = [var[cell] for cell in run]  # digit_of[i][d]: the run's i-th cell holds d
        holding = [[lits[d] for lits in digit_of] for d in range(10)]  # holding[d]: the run's literals for d
        for d in range(1, 10):
            cnf.at_most(holding[d], 1)
        combos = _combinations(len(run), sum(digits[cell] for cell in run))
        possible = set().union(*combos)
        for cell in run:
            cnf.clauses.extend([-var[cell][d]] for d in range(1, 10) if d not in possible)
        # A combination's digits fill the run: each cell holds one of them and each appears (the second
        # half is implied, but stating it spares the solver pigeonhole reasoning, which is hard for it).
        chosen = [cnf.auxiliary() for _ in combos] if len(combos) > 1 else [cnf.true]
        cnf.add(chosen)
        for choice, combo in zip(chosen, combos):
            cnf.clauses.extend([-choice, *[lits[d] for d in combo]] for lits in digit_of)
            cnf.clauses.extend([-choice, *holding[d]] for d in combo)
    cnf.add([-var[cell][digits[cell]] for cell in cells])  # another solution?
    revealed: list[Cell] = []
    with ProofSolver(cnf, PROOF_BUDGET) as solver:
        for _ in range(len(cells)):  # each pass reveals a new cell, or stops
            try:
                model = solver.model([var[cell][digits[cell]] for cell in revealed])
            except BudgetExhausted:
                model = {}  # not proven: reveal another cell
            if model is None:
                break
            differing = [cell for cell in cells if cell not in revealed and not model.get((cell, digits[cell]))]
            if not differing:
                break
            revealed.append(rng.choice(differing))
        order = list(range(len(revealed)))
        rng.shuffle(order)
        kept = prune_clues(solver, [[var[cell][digits[cell]]] for cell in revealed], order)
    return {cell for cell, keep in zip(revealed, kept) if keep}


def _supported(candidates: list[set[int]], combo: tuple[int, ...]) -> list[set[int]]:
    """Per cell of a run, the digits of ``combo`` it can hold when the run's cells hold exactly the digits of
    ``combo`` (each once), every cell within its candidates: a pass over the digit sets each prefix of cells can
    take, and one over those each suffix can take."""
    k = len(candidates)
    options = [[1 << d for d in combo if d in cand] for cand in candidates]
    forward: list[set[int]] = [{0}]
    for i in range(k):
        forward.append({used | bit for used in forward[i] for bit in options[i] if not used & bit})
    backward: list[set[int]] = [set() for _ in range(k)] + [{0}]
    for i in reversed(range(k)):
        backward[i] = {rest | bit for rest in backward[i + 1] for bit in options[i] if not rest & bit}
    full = sum(1 << d for d in combo)
    return [{d for d in combo if d in candidates[i] and any(
        not used >> d & 1 and full ^ used ^ (1 << d) in backward[i + 1] for used in forward[i])} for i in range(k)]


def _by_rules(runs: list[list[Cell]], totals: list[int], fixed: dict[Cell, int]) -> dict[Cell, int | None]:
    """The digits the textbook rule of Kakuro fills (None where it stalls), from the run sums and the given digits:
    each cell of a run keeps the digits that some combination of distinct digits reaching the run's sum, placed
    within every cell's digits, puts there (which also strikes a placed digit from the rest of its runs); repeated
    until nothing changes."""
    cells = {cell for run in runs for cell in run}
    candidates = {cell: ({fixed[cell]} if cell in fixed else set(range(1, 10))) for cell in cells}
    for _ in range(9 * len(candidates) + 1):  # each pass that goes on strikes at least one digit
        changed = False
        for run, total in zip(runs, totals):
            allowed: list[set[int]] = [set() for _ in run]
            for combo in _combinations(len(run), total):
                for i, digits_here in enumerate(_supported([candidates[cell] for cell in run], combo)):
                    allowed[i] |= digits_here
            for cell, keep in zip(run, allowed):
                if candidates[cell] - keep:
                    candidates[cell] &= keep
                    changed = True
        if not changed:
            break
    return {cell: min(cand) if len(cand) == 1 else None for cell, cand in candidates.items()}


def _rules_answer(problem: Problem) -> str:
    """The grid as the run-combination rule leaves it (open cells written .)."""
    shown = problem.data["grid"]
    runs = [[(r, c) for r, c in run] for run in problem.data["runs"]]
    fixed = {(r, c): int(ch) for r, row in enumerate(shown) for c, ch in enumerate(row) if ch.isdigit()}
    filled = _by_rules(runs, problem.data["sums"], fixed)
    return "\n".join("".join(_BLACK if ch == _BLACK else str(filled[(r, c)] or ".") for c, ch in enumerate(row))
                     for r, row in enumerate(shown))
