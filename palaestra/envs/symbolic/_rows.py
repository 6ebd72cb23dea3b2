"""ARC-1D: infer a transformation of one-dimensional coloured rows from examples, apply it to a new row.

(This was the env ``symbolic/arc_1d``; it is now the ``domain="rows"`` part of ``symbolic/list_functions``,
on the same induction engine, :mod:`palaestra.envs.symbolic._programs`. The retired id resolves there.)

A row holds colours 1-9 on background 0: a few blocks of one colour, sometimes lone noise cells.
The hidden transformation is a program of one to three primitives (shift everything left or
right, mirror the row, recolour every block, push all blocks to one end, fill the gap between
two cells of the same colour, remove lone cells, grow or shrink every block by a cell at each end,
keep only the longest block; the prompt lists them). Every primitive changes some example, and the examples pin the
answer down: every program of as many primitives from the same library that agrees with all the
examples gives the same row for the new input (proved by enumeration,
:func:`palaestra.envs.symbolic._programs.predictions`). The answer is that row, its cells separated
by spaces (``0 0 3 3 0``; commas or brackets are read too).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import cache

from palaestra.core import Problem, Verdict, retry
from palaestra.envs.symbolic._programs import BudgetExceeded, Primitive, predictions, run
from palaestra.verifiers.blocks import read_grid
from palaestra.verifiers.normalize import read_answer

Row = tuple[int, ...]
_LABEL = re.compile(r"^\s*(?:the\s+)?output(?:\s+row)?\s*(?::|=|is\b)\s*", re.IGNORECASE)  # "Output row: 0 3 3"


def _blocks(row: Row) -> list[tuple[int, int, int]]:
    """(start, end exclusive, colour) of each maximal run of one non-background colour."""
    out, i = [], 0
    while i < len(row):
        if row[i]:
            j = i
            while j < len(row) and row[j] == row[i]:
                j += 1
            out.append((i, j, row[i]))
            i = j
        else:
            i += 1
    return out


def _shift(row: Row, k: int) -> Row | None:
    if (k > 0 and any(row[len(row) - k :])) or (k < 0 and any(row[:-k])):
        return None  # a coloured cell would fall off the edge
    return (0,) * k + row[: len(row) - k] if k > 0 else row[-k:] + (0,) * (-k)


def _gravity(row: Row, left: bool) -> Row:
    cells = tuple([c for c in row if c])
    pad = (0,) * (len(row) - len(cells))
    return cells + pad if left else pad + cells


def _fill(row: Row) -> Row:
    out = list(row)
    coloured = [i for i, c in enumerate(row) if c]
    for a, b in zip(coloured, coloured[1:]):
        if row[a] == row[b]:
            for i in range(a + 1, b):
                out[i] = row[a]
    return tuple(out)


def _remove_lone(row: Row) -> Row:
    return tuple(0 if c and (i == 0 or not row[i - 1]) and (i == len(row) - 1 or not row[i + 1]) else c
                 for i, c in enumerate(row))


def _grow(row: Row) -> Row:
    out = list(row)
    for start, end, colour in _blocks(row):
        for i in (start - 1, end):
            if 0 <= i < len(row) and not row[i]:
                out[i] = colour
    return tuple(out)


def _shrink(row: Row) -> Row:
    out = list(row)
    for start, end, _ in _blocks(row):
        out[start] = out[end - 1] = 0
    return tuple(out)


def _keep_longest(row: Row) -> Row | None:
    blocks = _blocks(row)
    lengths = sorted((e - s for s, e, _ in blocks), reverse=True)
    if len(lengths) < 2 or lengths[0] == lengths[1]:
        return None  # no single longest block
    start, end, colour = max(blocks, key=lambda b: b[1] - b[0])
    return (0,) * start + (colour,) * (end - start) + (0,) * (len(row) - end)


@cache
def library() -> tuple[Primitive, ...]:
    prims = [Primitive(f"shift right {k}", lambda r, k=k: _shift(r, k)) for k in (1, 2, 3)]
    prims += [Primitive(f"shift left {k}", lambda r, k=k: _shift(r, -k)) for k in (1, 2, 3)]
    prims += [Primitive(f"recolour {c}", lambda r, c=c: tuple([c if x else 0 for x in r])) for c in range(1, 10)]
    prims += [
        Primitive("mirror", lambda r: r[::-1]),
        Primitive("gravity left", lambda r: _gravity(r, True)),
        Primitive("gravity right", lambda r: _gravity(r, False)),
        Primitive("fill gaps", _fill),
        Primitive("remove lone cells", _remove_lone),
        Primitive("grow", _grow),
        Primitive("shrink", _shrink),
        Primitive("keep longest", _keep_longest),
    ]
    return tuple(prims)


class RowInduction:
    """Generation and judging of the ARC-1D row problems (``symbolic/list_functions`` delegates to it)."""

    @dataclass(frozen=True)
    class Config:
        depth: int
        examples: int
        width: tuple[int, int]
        blocks: tuple[int, int]

    def config(self, level: int) -> Config:
        return [
            self.Config(depth=1, examples=3, width=(10, 12), blocks=(1, 2)),
            self.Config(depth=1, examples=3, width=(14, 20), blocks=(2, 3)),
            self.Config(depth=2, examples=3, width=(12, 16), blocks=(2, 3)),
            self.Config(depth=2, examples=4, width=(18, 24), blocks=(2, 4)),
            self.Config(depth=3, examples=4, width=(20, 28), blocks=(2, 4)),
        ][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        prims = library()

        def draw() -> tuple[list[str], list[tuple[Row, Row]], Row, Row] | None:
            program = [rng.choice(prims) for _ in range(config.depth)]
            width = rng.randint(*config.width)
            inputs = [_random_row(rng, width, config.blocks) for _ in range(config.examples + 1)]
            outputs = [run(program, x) for x in inputs]
            if any(y is None or not any(y) for y in outputs) or len(set(inputs)) < len(inputs):
                return None
            for k in range(config.depth):
                before = [run(program[:k], x) for x in inputs[:-1]]
                if all(program[k].apply(v) == v for v in before):
                    return None  # a step that changes nothing
            if outputs[-1] == inputs[-1]:
                return None
            examples = list(zip(inputs[:-1], outputs[:-1]))
            try:
                if predictions(prims, examples, inputs[-1], config.depth) != {outputs[-1]}:
                    return None
                if config.depth > 1 and predictions(prims, examples, inputs[-1], config.depth - 1):
                    return None  # a shorter program fits the examples: the steps collapse (recolour 9, recolour 3)
            except BudgetExceeded:
                return None
            return [p.name for p in program], examples, inputs[-1], outputs[-1]

        program, examples, query, output = retry(draw, what="examples that pin the transformation down")
        shown = "\n".join(f"Example {i}:\ninput:  {_show(x)}\noutput: {_show(y)}"
                          for i, (x, y) in enumerate(examples, 1))
        prompt = (
            "Each row below is a line of cells; 0 is the background and 1-9 are colours. The same hidden "
            f"transformation turns every input row into its output row. It is {_family(config.depth)}\n\n"
            f"{shown}\n\n"
            f"Test input:  {_show(query)}\n\n"
            f"What is the output row for the test input? Give its {len(query)} cells separated by spaces, in the "
            "same format as the example outputs."
        )
        return Problem(prompt=prompt, answer=_show(output), data={
            "program": program, "examples": [[list(x), list(y)] for x, y in examples], "query": list(query),
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        query = tuple(problem.data["query"])
        row = read_cells(answer, 4 * len(query))
        if row is None:
            return Verdict.unparsed("expected one row of digits separated by spaces")
        if len(row) != len(query):
            return Verdict.wrong(f"the row has {len(row)} cells, not {len(query)}")
        by_name = {p.name: p for p in library()}
        return Verdict.judge(row == run([by_name[n] for n in problem.data["program"]], query))

    def difficulty(self, problem: Problem) -> float:
        """Primitives in the hidden program times the row's width."""
        return float(len(problem.data["program"]) * len(problem.data["query"]))

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        cells = gold.split()
        return ["".join(cells), ", ".join(cells), f"[{', '.join(cells)}]",
                f"output: {gold}", f"{gold}.", f"The output row is {gold}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        cells = (problem.answer or "").split()
        i = rng.randrange(len(cells))
        changed = cells[:i] + [str((int(cells[i]) + rng.randint(1, 9)) % 10)] + cells[i + 1 :]
        return [" ".join(changed), " ".join(cells[:-1]), " ".join(map(str, problem.data["query"])),
                f"{problem.answer} or {' '.join(changed)}"]


def _family(depth: int) -> str:
    """The hypothesis space, in words: the answer is proven the same for every program in it."""
    count = "one step" if depth == 1 else f"one to {depth} steps applied in turn"
    return (f"{count}, each one of: shift every cell 1, 2 or 3 places left or right; mirror the row; recolour "
            "every coloured cell with one colour; push all coloured cells to the left or right end, keeping their "
            "order; fill the background between two cells of the same colour with that colour; remove lone cells "
            "(a coloured cell with no coloured neighbour); grow every block by one cell at each end; shrink every "
            "block by one cell at each end; keep only the longest block. The examples determine the answer.")


def _random_row(rng: random.Random, width: int, blocks: tuple[int, int]) -> Row:
    row = [0] * width
    for _ in range(rng.randint(*blocks)):
        length = rng.randint(1, max(1, width // 5))
        start = rng.randrange(width - length + 1)
        colour = rng.randint(1, 9)
        for i in range(start, start + length):
            row[i] = colour
    return tuple(row)


def _show(row: Row) -> str:
    return " ".join(map(str, row))


def read_cells(text: str, max_cells: int) -> Row | None:
    """One row of digit cells, separated by spaces or commas or side by side, brackets allowed."""
    if not isinstance(text, str) or len(text) > 8 * max_cells + 400:
        return None

    def read(s: str) -> Row | None:
        s = _LABEL.sub("", s, count=1)
        grid = read_grid(s, "0123456789", max_cells=max_cells)
        return tuple(int(c) for c in grid[0]) if grid is not None and len(grid) == 1 else None

    return read_answer(text, read)
