"""Place lettered objects on a small grid from relative-position clues; the clues fix exactly one layout.

The objects fill a rows x columns grid, one per cell. Clues say that an object is immediately left of
another (same row, next column), directly above another (same column, next row), in some column left of
another, in some row above another, or between two others in a row (same row, its column strictly between
theirs). Clues are drawn from a hidden layout and added until an exhaustive search (backtracking over every
placement, counting layouts up to two) finds exactly one layout, so the answer is unique. The answer is the
grid of letters, one row per line; the verifier compares it cell by cell and, when wrong, names a clue the
answer breaks (or says that it breaks none, yet another clue set... never: a layout satisfying every clue is
the unique one).

A solver blind to one clause of a clue kind (reading "immediately left" as somewhere left, "directly above" as
somewhere above, or "between ... in the same row" in any rows) must not find the layout: clue sets where such a
misreading still leaves one layout are redrawn. Version 2: reading "immediately left" as "somewhere left" still
pinned the layout on 0.60 / 0.63 / 0.67 / 0.50 / 0.73 of levels 0-4 (30 seeds); now it never does (0 / 0 / 0 /
0 / 0), nor do the other two misreadings where they change a clue.

Difficulty: the nodes of the exhaustive search that proves the layout unique, on the drawn clues.

Generation speed: about 16 problems/s at level 4 on this busy 2-core machine, 62 ms of CPU each (version 1: about 145
under the same load); the redraws against misreadings take most of it. Clues are added until an exhaustive
backtracking search over every placement finds exactly one layout, and that search (about 90% of the time,
rerun after each batch of clues) is kept because it makes the answer unique and its node count is the
difficulty measure.
"""

from __future__ import annotations

import random
import re
import string
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.verifiers.blocks import read_grid
from palaestra.verifiers.normalize import read_answer

EXAMPLE = "QR\nST"  # a fixed placeholder of the right shape (letters not used by any problem)
LETTERS = string.ascii_uppercase[:16]

Clue = tuple  # (kind, objects...)


def holds(clue: Clue, where: dict[int, tuple[int, int]]) -> bool:
    """Whether ``clue`` is true of positions ``object -> (row, column)``."""
    kind = clue[0]
    (r1, c1), (r2, c2) = where[clue[1]], where[clue[2]]  # indexed, not unpacked: the search's innermost call
    if kind == "left":
        return r1 == r2 and c1 == c2 - 1
    if kind == "above":
        return c1 == c2 and r1 == r2 - 1
    if kind == "west":
        return c1 < c2
    if kind == "north":
        return r1 < r2
    r3, c3 = where[clue[3]]
    if kind == "between_columns":  # "between" with "in the same row" dropped: only a misreading says it
        return min(c2, c3) < c1 < max(c2, c3)
    return r1 == r2 == r3 and min(c2, c3) < c1 < max(c2, c3)


def describe(clue: Clue, names: str) -> str:
    kind, *objects = clue
    a, b = names[objects[0]], names[objects[1]]
    return {"left": f"{a} is immediately left of {b}", "above": f"{a} is directly above {b}",
            "west": f"{a} is in a column somewhere left of {b}'s", "north": f"{a} is in a row somewhere above {b}'s",
            "between": f"{a} is between {b} and {names[objects[-1]]} in the same row"}[kind]


def misread(clues: list[Clue], weaker: dict[str, str]) -> list[Clue]:
    """The clues as a solver reads them who takes each kind in ``weaker`` as the weaker kind it names."""
    return [(weaker.get(clue[0], clue[0]), *clue[1:]) for clue in clues]


# a solver blind to one clause of a clue kind (adjacency, or the same row), with the kind it misreads: each must
# leave the layout open where it changes a clue (translated before the search: the search's inner loop stays plain)
MISREADINGS: dict[str, tuple[str, dict[str, str]]] = {
    "immediately left read as somewhere left": ("left", {"left": "west"}),
    "directly above read as somewhere above": ("above", {"above": "north"}),
    "between read in any rows": ("between", {"between": "between_columns"}),
}


def count_layouts(clues: list[Clue], count: int, rows: int, cols: int, limit: int = 2) -> tuple[int, int]:
    """Layouts satisfying every clue (counted up to ``limit``) and the search nodes it took."""
    order: list[int] = []
    for clue in clues:
        order += [o for o in clue[1:] if o not in order]
    order += [o for o in range(count) if o not in order]
    rank = {o: i for i, o in enumerate(order)}
    ready: list[list[Clue]] = [[] for _ in range(count)]
    for clue in clues:
        ready[max(rank[o] for o in clue[1:])].append(clue)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    where: dict[int, tuple[int, int]] = {}
    used: set[tuple[int, int]] = set()
    found = nodes = 0

    def place(position: int) -> None:
        nonlocal found, nodes
        if position == count:
            found += 1
            return
        item = order[position]
        for cell in cells:
            if cell in used:
                continue
            nodes += 1
            where[item] = cell
            if all(holds(clue, where) for clue in ready[position]):
                used.add(cell)
                place(position + 1)
                used.discard(cell)
                if found >= limit:
                    return
        where.pop(item, None)

    place(0)
    return found, nodes


def true_clues(where: dict[int, tuple[int, int]], rng: random.Random) -> list[Clue]:
    """Every clue true of the layout, in a random order that puts most weak ordering clues last."""
    objects = list(where)
    clues: list[Clue] = []
    for a in objects:
        for b in objects:
            if a == b:
                continue
            for kind in ("left", "above", "west", "north"):
                if holds((kind, a, b), where):
                    clues.append((kind, a, b))
            for c in objects:
                if b < c and a not in (b, c) and holds(("between", a, b, c), where):
                    clues.append(("between", a, b, c))
    # strong clues (a fixed neighbour, or betweenness) mostly come first, so few clues pin the layout
    keyed = [(rng.random() + (0.6 if clue[0] in ("west", "north") else 0.0), index) for index, clue in enumerate(clues)]
    return [clues[index] for _, index in sorted(keyed)]


_ROW_LABEL = re.compile(r"^[ \t]*row[ \t]*\d{1,2}[ \t]*[:.)=-][ \t]*", re.IGNORECASE | re.MULTILINE)


def _unlabelled(text: str) -> str:
    r"""The grid without ``Row 1:`` labels, upper-cased when written all in lower case (the objects are capitals).

    >>> _unlabelled("Row 1: jc\nRow 2: eb")
    'JC\nEB'
    """
    text = _ROW_LABEL.sub("", text)
    return text.upper() if text == text.lower() else text


@register
class RelativePositions(Task):
    id = "spatial/relative_positions"
    family = "spatial"
    description = "Place lettered objects on a grid from left-of/above/between clues (unique layout)."
    tags = ("spatial", "deduction", "constraint-satisfaction")
    multiline = True
    version = 2  # v2: clues redrawn until no one-clause misreading (adjacency, the same row) pins the layout

    @dataclass(frozen=True)
    class Config:
        rows: int
        cols: int

    presets = (Config(1, 5), Config(1, 6), Config(3, 3), Config(1, 7), Config(2, 5))
    bounded = "the exhaustive proof of uniqueness grows factorially; past 10 objects generation is too slow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        count = config.rows * config.cols
        names = "".join(sorted(rng.sample(LETTERS, count)))

        def draw() -> tuple[dict[int, tuple[int, int]], list[Clue], int]:
            layout = list(range(count))
            rng.shuffle(layout)
            where = {obj: divmod(cell, config.cols) for obj, cell in enumerate(layout)}
            pool = true_clues(where, rng)
            clues, rest = pool[: count - 1], pool[count - 1:]
            found, nodes = count_layouts(clues, count, config.rows, config.cols)
            while found != 1 and rest:  # the whole pool holds every immediate-neighbour clue, which fix the layout
                clues, rest = clues + rest[:2], rest[2:]
                found, nodes = count_layouts(clues, count, config.rows, config.cols)
            return where, clues, nodes

        def open_to_misreadings(drawn: tuple[dict[int, tuple[int, int]], list[Clue], int]) -> bool:
            clues = drawn[1]
            return all(count_layouts(misread(clues, weaker), count, config.rows, config.cols)[0] > 1
                       for kind, weaker in MISREADINGS.values()
                       if any(clue[0] == kind for clue in clues) and (kind != "between" or config.rows > 1))

        where, clues, nodes = retry(draw, open_to_misreadings, what="clues no one-clause misreading pins down")
        rng.shuffle(clues)
        grid = [["" for _ in range(config.cols)] for _ in range(config.rows)]
        for obj, (r, c) in where.items():
            grid[r][c] = names[obj]
        answer = "\n".join("".join(row) for row in grid)
        listing = "\n".join(f"- {describe(clue, names)}" for clue in clues)
        prompt = (
            f"The objects {', '.join(names)} fill a grid of {config.rows} row(s) and {config.cols} columns, one per "
            f"cell (rows are counted from the top, columns from the left). These clues hold:\n{listing}\n\n"
            "Exactly one layout satisfies them all. Answer with the grid, one row per line, letters with no "
            f"spaces. For example (another grid of 2 rows and 2 columns):\n{EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=answer, data={
            "names": names, "rows": config.rows, "cols": config.cols, "clues": [list(c) for c in clues],
            "layout": answer, "nodes": nodes})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        data = problem.data
        names = data["names"]
        grid = read_answer(answer, lambda s: read_grid(_unlabelled(s), frozenset(names)))
        if grid is None:
            return Verdict.unparsed(f"expected a grid of the letters {names}, one row per line")
        if len(grid) != data["rows"] or len(grid[0]) != data["cols"]:
            return Verdict.wrong(f"the grid must have {data['rows']} row(s) and {data['cols']} columns")
        cells = [cell for row in grid for cell in row]
        if sorted(cells) != sorted(names):
            return Verdict.wrong("each object must appear exactly once")
        if "\n".join("".join(row) for row in grid) == data["layout"]:
            return Verdict.right()
        where = {names.index(cell): (r, c) for r, row in enumerate(grid) for c, cell in enumerate(row)}
        broken = next(tuple(clue) for clue in data["clues"] if not holds(tuple(clue), where))
        return Verdict.wrong(f"the clue '{describe(broken, names)}' does not hold")

    def difficulty(self, problem: Problem) -> float:
        """Nodes of the exhaustive search proving the layout unique."""
        return float(problem.data["nodes"])

    def spellings(self, problem: Problem) -> list[str]:
        rows = (problem.answer or "").split("\n")
        return [*super().spellings(problem), "\n".join(" ".join(row) for row in rows), f"```\n{problem.answer}\n```",
                "\n".join(" | ".join(row) for row in rows)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        rows = [list(row) for row in (problem.answer or "").split("\n")]
        flat = [cell for row in rows for cell in row]
        swapped = flat[:]
        i, j = rng.sample(range(len(flat)), 2)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        cols = len(rows[0])
        regrid = lambda cells: "\n".join("".join(cells[k: k + cols]) for k in range(0, len(cells), cols))  # noqa: E731
        return [regrid(swapped), regrid(sorted(flat)), regrid(flat[::-1])]
