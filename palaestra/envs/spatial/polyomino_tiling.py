"""Tile a region of the grid exactly with a given set of polyomino pieces (any valid tiling is right).

The region is a rectangle, sometimes with one edge piece cut away, partitioned at generation into random pieces
of three to five cells (two to five at level 0), each grown cell by cell from the first uncovered cell, so a
tiling exists. The pieces are shown in a random rotation or reflection and in shuffled order, lettered A, B, C,
...; each must be used exactly once and may be rotated and reflected. Many regions have several tilings: the
verifier accepts any. It reads the region's grid with a piece letter in each cell and checks that outside cells
stay ``.``, that every region cell carries a piece letter, and that the cells of each letter are exactly one
placement of that piece (its shape under some rotation or reflection); areas add up to the region's, so this is a
tiling.

Difficulty: the placements a solver branches over, the sum over pieces of their distinct orientations, plus
the region's cells, on the drawn problem.

Generation speed: about 1,200 problems/s at level 4 on this 2-core machine (280 at the 12 x 13 cap), above the
1,000 mark. A piece's growth never walls off free cells too few for a piece (`partition` takes such a pocket into
the piece, or grows elsewhere), so about 97% of partitions have only pieces of the allowed sizes; every piece's
orientations are then listed to draw the one shown.

Version 3: the partition no longer leaves pockets of one or two cells. Plain random growth had only allowed sizes
in 10% of partitions of level 4's 6 x 7 cells and 0.2% of the 12 x 13 cap's, so 1,000 attempts failed at 1 seed
in 8 at level 20 and 7 in 100 at level 10; the problems of every level changed (the mean difficulty and piece
count per level barely moved: level 4 89.8 and 10.2 before, 89.5 and 10.2 after).
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.spatial.common import EMPTY, Cell, connected, drawing, normalized, orientations
from palaestra.verifiers.blocks import read_grid
from palaestra.verifiers.normalize import read_answer

REGION = "o"
LABELS = string.ascii_uppercase + string.ascii_lowercase  # piece names, case-sensitive past Z
EXAMPLE = "AAB\nACB\nCCB"  # a fixed placeholder of the right shape (3 x 3 with three pieces; regions are larger)


STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _pockets(free: set[Cell], cell: Cell, smallest: int) -> set[Cell]:
    """The free cells that taking ``cell`` out of ``free`` would wall off in components of fewer than
    ``smallest`` cells (each neighbour's component is searched only up to ``smallest`` cells)."""
    r, c = cell
    walled: set[Cell] = set()
    for start in ((r + dr, c + dc) for dr, dc in STEPS):
        if start not in free or start in walled:
            continue
        seen, todo = {start}, [start]
        while todo and len(seen) < smallest:
            a, b = todo.pop()
            for step in ((a + dr, b + dc) for dr, dc in STEPS):
                if step in free and step != cell and step not in seen:
                    seen.add(step)
                    todo.append(step)
        if len(seen) < smallest:
            walled |= seen
    return walled


def partition(rng: random.Random, rows: int, cols: int, smallest: int, largest: int) -> list[frozenset[Cell]] | None:
    """A random partition of the rectangle into connected pieces of ``smallest``..``largest`` cells, or None.

    Each piece grows from the first free cell; a cell whose taking would wall off free cells too few for a
    piece takes those cells into the piece too, and is passed over when that would make the piece too large
    (without this, 0.2% of plain random partitions of 12 x 13 cells had only allowed sizes).
    """
    free = {(r, c) for r in range(rows) for c in range(cols)}
    pieces = []
    while free:
        seed = min(free)
        piece, target = {seed} | _pockets(free, seed, smallest), rng.randint(smallest, largest)
        free -= piece
        while len(piece) < target:
            border = sorted({(r + dr, c + dc) for r, c in piece for dr, dc in STEPS} & free)
            options = [(cell, walled) for cell in border
                       if len(piece) + 1 + len(walled := _pockets(free, cell, smallest)) <= largest]
            if not options:
                break
            grown, walled = rng.choice(options)
            piece |= {grown} | walled
            free -= {grown} | walled
        if not smallest <= len(piece) <= largest:
            return None
        pieces.append(frozenset(piece))
    return pieces


@register
class PolyominoTiling(Task):
    id = "spatial/polyomino_tiling"
    family = "spatial"
    description = "Tile a grid region exactly with given polyomino pieces, rotations and reflections allowed."
    tags = ("spatial", "tiling", "grids", "constraint-satisfaction")
    multiline = True

    @dataclass(frozen=True)
    class Config:
        rows: int
        cols: int
        largest: int  # the most cells in one piece
        smallest: int = 3  # the fewest cells in one piece

    # version 2: level 0 allows pieces of two to five cells (was three to four): its 3 x 4 rectangle had too
    # few partitions for 95% distinct prompts over 1,000 seeds; dominoes have few orientations, so it stays
    # easier than level 1. Version 3: partitions without pockets (see the module docstring)
    version = 3
    presets = (Config(3, 4, 5, smallest=2), Config(4, 4, 4), Config(4, 5, 5), Config(5, 6, 5), Config(6, 7, 5))
    # at least three cells a piece above level 0: 12 x 13 cells need at most 52 labels, A-Z then a-z
    growth = Growth(steps={"rows": 1, "cols": 1}, limits={"rows": 12, "cols": 13})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        pieces = retry(lambda: partition(rng, config.rows, config.cols, config.smallest, config.largest),
                       what="a partition of the rectangle into pieces")
        region = {cell for piece in pieces for cell in piece}
        if len(pieces) >= 4 and rng.random() < 0.5:
            edge = [p for p in pieces if any(r in (0, config.rows - 1) or c in (0, config.cols - 1) for r, c in p)
                    and connected(region - p)]
            if edge:
                cut = rng.choice(edge)
                pieces.remove(cut)
                region -= cut
        rng.shuffle(pieces)
        shown = [rng.choice(orientations(piece)) for piece in pieces]
        letters = LABELS[: len(pieces)]
        tiling = {cell: letter for letter, piece in zip(letters, pieces, strict=True) for cell in piece}
        answer = "\n".join("".join(tiling.get((r, c), EMPTY) for c in range(config.cols)) for r in range(config.rows))
        picture = "\n".join("".join(REGION if (r, c) in region else EMPTY for c in range(config.cols))
                            for r in range(config.rows))
        listing = "\n\n".join(f"Piece {letter}:\n{drawing(shape)}" for letter, shape in zip(letters, shown, strict=True))
        prompt = (
            f"Cover every {REGION} cell of this region exactly once with the pieces below, using each piece exactly "
            f"once (letters are case-sensitive); a piece may be rotated and reflected. Cells marked . are outside "
            f"the region.\n\n{picture}\n\n"
            f"The pieces (# is a cell of the piece):\n\n{listing}\n\nAnswer with the region's grid, writing in each "
            f"{REGION} cell the letter of the piece that covers it and keeping . for the outside cells, one row per "
            f"line with no spaces. Any valid tiling is accepted. For example (another region, tiled by three "
            f"pieces):\n{EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=answer, data={
            "rows": config.rows, "cols": config.cols, "region": sorted(map(list, region)),
            "pieces": [sorted(map(list, shape)) for shape in shown]})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        data = problem.data
        letters = LABELS[: len(data["pieces"])]
        readings = {EMPTY: EMPTY, **{letter: letter for letter in letters}}
        symbols = frozenset(readings)

        def region_shaped(text: str) -> list[list[str]] | None:
            grid = read_grid(text, symbols, max_cells=2_500)
            return grid if grid and len(grid) == data["rows"] and all(len(row) == data["cols"] for row in grid) else None

        def shaped(text: str) -> list[list[str]] | None:
            """The grid when ``text`` reads in the region's shape. A last row that ends in an outside cell keeps its
            own ``.``: one closing full stop after it is cut only when the grid does not read with it (the shared
            grammar leaves ``..`` alone as a trailing-off)."""
            body = text.rstrip()
            return region_shaped(text) or (region_shaped(body[:-1]) if body.endswith("..") else None)

        grid = read_answer(answer, shaped) or read_answer(answer, lambda s: read_grid(s, symbols, max_cells=2_500))
        if grid is None:
            return Verdict.unparsed(f"expected a grid of the letters {letters[0]}..{letters[-1]} and ., one row per line")
        if len(grid) != data["rows"] or len(grid[0]) != data["cols"]:
            return Verdict.wrong(f"the grid must have {data['rows']} rows and {data['cols']} columns")
        region = {tuple(cell) for cell in data["region"]}
        placed: dict[str, set[Cell]] = {letter: set() for letter in letters}
        for r, row in enumerate(grid):
            for c, mark in enumerate(row):
                mark = readings[mark]
                if (mark == EMPTY) == ((r, c) in region):
                    what = "is outside the region" if mark != EMPTY else "is in the region but left uncovered"
                    return Verdict.wrong(f"the cell in row {r + 1}, column {c + 1} {what}")
                if mark != EMPTY:
                    placed[mark].add((r, c))
        for letter, shape in zip(letters, data["pieces"], strict=True):
            cells = placed[letter]
            if not cells:
                return Verdict.wrong(f"piece {letter} is not used")
            if normalized(cells) not in orientations(frozenset(map(tuple, shape))):
                return Verdict.wrong(f"the cells marked {letter} are not the shape of piece {letter}")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Orientations summed over the pieces plus the region's cells."""
        shapes = [frozenset(map(tuple, shape)) for shape in problem.data["pieces"]]
        return float(sum(len(orientations(shape)) for shape in shapes) + len(problem.data["region"]))

    def spellings(self, problem: Problem) -> list[str]:
        rows = (problem.answer or "").split("\n")
        return [*super().spellings(problem), "\n".join(" ".join(row) for row in rows),
                f"```\n{problem.answer}\n```", f"Tiling:\n{problem.answer}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        rows = [list(row) for row in (problem.answer or "").split("\n")]
        filled = [(r, c) for r, row in enumerate(rows) for c, mark in enumerate(row) if mark != EMPTY]
        candidates = []
        for _ in range(4):
            (r1, c1), (r2, c2) = rng.sample(filled, 2)
            swapped = [row[:] for row in rows]
            swapped[r1][c1], swapped[r2][c2] = swapped[r2][c2], swapped[r1][c1]
            candidates.append("\n".join(map("".join, swapped)))
        blanked = [row[:] for row in rows]
        blanked[filled[0][0]][filled[0][1]] = EMPTY
        candidates += ["\n".join(map("".join, blanked)), "\n".join(map("".join, rows[:-1]))]
        return [c for c in candidates if not self.verify(problem, c).correct]
