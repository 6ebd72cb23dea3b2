"""Elementary cellular automata: run a Wolfram rule on a row of cells for a few steps.

A row of 0/1 cells evolves by an elementary rule: each cell's next value depends on itself and
its two neighbours, and the rule number's binary digits give the eight outcomes (Wolfram's
numbering, explained in the prompt; the lower levels also spell out the table). The row wraps
around at the upper levels (the first and last cells are neighbours) and has fixed 0 cells beyond
its ends below. Rules and rows are drawn so that every step changes the row (no rule that stalls
or merely shifts, no dead row), and the answer, the row after the last step as a string of 0s and
1s, is unique: it is computed by simulation.

Version 3: a wrapped row is kept only when fixed 0 ends would give another final row (ignoring the wrap
answered 0.24 of level 2, 0.12 of level 3).

Version 4: likewise a row with fixed 0 ends is kept only when wrapping it would give another final row (a solver that
wrapped, ignoring "cells beyond the two ends count as 0", answered 0.45 of level 0 and 0.30 of level 1 -> 0).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.verifiers.blocks import read_grid
from palaestra.verifiers.normalize import read_answer

NEIGHBOURHOODS = ("111", "110", "101", "100", "011", "010", "001", "000")
_LABEL = re.compile(r"^\s*(?:the\s+)?(?:final\s+)?row(?:\s+after[^:=]{0,30}?)?\s*(?::|=|is\b)\s*", re.IGNORECASE)


@register
class ElementaryCa(Task):
    id = "symbolic/elementary_ca"
    version = 4  # v4: fixed 0 ends must matter too (wrapping answered 0.45 of level 0)
    family = "symbolic"
    description = "Run an elementary cellular automaton (a Wolfram rule number) for a few steps."
    tags = ("symbolic", "cellular-automata", "simulation")

    @dataclass(frozen=True)
    class Config:
        width: int
        steps: int
        wrap: bool  # the row wraps around (else cells beyond the ends are 0)
        table: bool  # the rule's table is spelled out

    presets = (
        Config(width=8, steps=1, wrap=False, table=True),
        Config(width=10, steps=2, wrap=False, table=True),
        Config(width=12, steps=3, wrap=True, table=False),
        Config(width=14, steps=4, wrap=True, table=False),
        Config(width=16, steps=6, wrap=True, table=False),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[int, str, str] | None:
            rule = rng.randrange(1, 255)
            row = "".join(rng.choice("01") for _ in range(config.width))
            rows = [row]
            for _ in range(config.steps):
                rows.append(step(rows[-1], rule, config.wrap))
            shifted = {row[1:] + row[0], row[-1] + row[:-1]}
            if len(set(rows)) < len(rows) or "1" not in rows[-1] or rows[1] in shifted:
                return None
            if _run(row, rule, config.steps, wrap=not config.wrap) == rows[-1]:
                return None  # the edges must matter: the other edge rule answered 0.24 of level 2, 0.45 of level 0
            return rule, row, rows[-1]

        rule, row, final = retry(draw, what="a rule and row that change at every step")
        edges = ("The row wraps around: the first and last cells are neighbours." if config.wrap
                 else "Cells beyond the two ends count as 0.")
        table = ""
        if config.table:
            table = "\nFor this rule: " + ", ".join(f"{n} -> {o}" for n, o in zip(NEIGHBOURHOODS, _outcomes(rule)))
        plural = "step" if config.steps == 1 else "steps"
        example = "0" * (config.width - 3) + "101"  # the notation, whatever the answer
        prompt = (
            f"An elementary cellular automaton follows rule {rule}. At each step every cell looks at its left "
            "neighbour, itself and its right neighbour (a pattern such as 110) and takes a new value; all cells "
            f"update at once. Rule numbering: write {rule} in binary with 8 digits; the digits give the new value "
            f"for the patterns 111, 110, 101, 100, 011, 010, 001, 000, in that order.{table}\n{edges}\n\n"
            f"Start row: {row}\n\n"
            f"What is the row after {config.steps} {plural}? Give it as a string of {config.width} digits, for "
            f"example: {example}"
        )
        return Problem(prompt=prompt, answer=final, data={"rule": rule, "row": row, "steps": config.steps,
                                                          "wrap": config.wrap})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        data = problem.data
        row = read_row(answer, 4 * len(data["row"]))
        if row is None:
            return Verdict.unparsed("expected one row of 0s and 1s")
        if len(row) != len(data["row"]):
            return Verdict.wrong(f"the row has {len(row)} cells, not {len(data['row'])}")
        truth = data["row"]
        for _ in range(data["steps"]):
            truth = step(truth, data["rule"], data["wrap"])
        return Verdict.judge(row == truth)

    def difficulty(self, problem: Problem) -> float:
        """Cells times steps, plus the cells whose final state differs from their start (changes to track)."""
        row, answer = problem.data["row"], (problem.answer or "").strip()
        changed = sum(a != b for a, b in zip(row, answer))
        return float(len(row) * problem.data["steps"] + changed / 2)

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), " ".join(gold), ", ".join(gold), f"[{', '.join(gold)}]",
                f"```\n{gold}\n```", f"{gold}.", f"Row: {gold}",
                f"The row after the steps is {gold}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold = problem.answer or ""
        data = problem.data
        i = rng.randrange(len(gold))
        flipped = gold[:i] + ("1" if gold[i] == "0" else "0") + gold[i + 1 :]
        previous = data["row"]
        for _ in range(data["steps"] - 1):
            previous = step(previous, data["rule"], data["wrap"])
        return [flipped, previous, gold[:-1], f"{gold}\n{gold}"]


def _outcomes(rule: int) -> str:
    return format(rule, "08b")


def step(row: str, rule: int, wrap: bool) -> str:
    """One update of the whole row."""
    table = dict(zip(NEIGHBOURHOODS, _outcomes(rule)))
    padded = (row[-1] + row + row[0]) if wrap else ("0" + row + "0")
    return "".join(table[padded[i : i + 3]] for i in range(len(row)))


def read_row(text: str, max_cells: int) -> str | None:
    """One row of 0/1 cells (side by side, or separated by spaces or commas; brackets allowed), or None."""
    if not isinstance(text, str) or len(text) > 8 * max_cells + 400:
        return None

    def read(s: str) -> str | None:
        grid = read_grid(_LABEL.sub("", s, count=1), "01", max_cells=max_cells)
        return "".join(grid[0]) if grid is not None and len(grid) == 1 else None

    return read_answer(text, read)


def _run(row: str, rule: int, steps: int, *, wrap: bool) -> str:
    """The row after ``steps`` steps of ``rule``."""
    for _ in range(steps):
        row = step(row, rule, wrap)
    return row
