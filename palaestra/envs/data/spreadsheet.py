"""Evaluate the formulas of a small spreadsheet: cell references, ranges, SUM/AVERAGE/MIN/MAX and IF.

The sheet lists its non-blank cells: numbers and formulas such as ``=SUM(A1:B3)``, ``=AVERAGE(C2:C5)``,
``=MIN(A2:D2) * 2``, ``=IF(B4 > C1, A3, D2 - 1)`` or ``=(A1 + B2) * 3``. Formulas refer to numbers and to
other formulas in any position of the sheet (a formula may depend on one further down), so they must be
evaluated in dependency order; the sheet has no cycle. Ranges cover every cell of the rectangle; the range
functions skip blank cells; from level 1 the sheet is redrawn until counting blank cells as 0 in the range
functions changes an asked value (v1: that misreading answered 0.74 of level 2 and 0.70 of level 4). The question asks for the values of two or three formula cells at the ends of
the longest dependency chains. Values are exact rationals (AVERAGE may give a fraction), judged as
``cell = value`` pairs in any order with the shared assignment reader; the first wrong cell is named.

Difficulty: the formulas on the sheet plus twice the longest dependency chain among the asked cells plus
the cells the asked values depend on.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.data.common import EXACT_NUMBER_RULE, exact_text, keyed_text, keyed_verdict, number_spellings
from palaestra.verifiers.normalize import markup_spellings

EXAMPLE = "Z9 = 14, Y8 = 5/2"  # a fixed placeholder naming cells no sheet has: never derived from the answer
FUNCTIONS = ("SUM", "AVERAGE", "MIN", "MAX")


def cell_name(col: int, row: int) -> str:
    return f"{chr(ord('A') + col)}{row + 1}"


def _range_cells(corner: tuple[int, int], other: tuple[int, int]) -> list[str]:
    (c1, r1), (c2, r2) = corner, other
    return [cell_name(c, r) for r in range(min(r1, r2), max(r1, r2) + 1) for c in range(min(c1, c2), max(c1, c2) + 1)]


def evaluate(node: Any, values: dict[str, Fraction], *, blanks_as_zero: bool = False) -> Fraction:
    """The value of a formula tree over the known ``values`` (blank cells are absent: 0 in arithmetic).

    ``blanks_as_zero`` misreads the range rule: blank cells count as 0 in SUM, AVERAGE, MIN and MAX.
    """
    kind = node[0]
    if kind == "num":
        return Fraction(node[1])
    if kind == "ref":
        return values.get(node[1], Fraction(0))
    if kind in ("add", "sub", "mul"):
        a, b = (evaluate(part, values, blanks_as_zero=blanks_as_zero) for part in node[1:3])
        return a + b if kind == "add" else a - b if kind == "sub" else a * b
    if kind == "fn":
        present = [values.get(name, Fraction(0)) for name in node[2]] if blanks_as_zero else [
            values[name] for name in node[2] if name in values]
        if node[1] == "SUM":
            return Fraction(sum(present))
        if node[1] == "AVERAGE":
            return Fraction(sum(present), len(present))
        return min(present) if node[1] == "MIN" else max(present)
    condition, then, otherwise = node[1], node[2], node[3]
    left, right = (evaluate(part, values, blanks_as_zero=blanks_as_zero) for part in condition[1:3])
    holds = left > right if condition[0] == ">" else left < right if condition[0] == "<" else left == right
    return evaluate(then if holds else otherwise, values, blanks_as_zero=blanks_as_zero)


def render(node: Any, grouped: bool = False) -> str:
    """Formula text; ``grouped``: the node is an operand that needs brackets if it is a sum or difference."""
    kind = node[0]
    if kind in ("num", "ref"):
        return str(node[1])
    if kind in ("add", "sub"):
        text = f"{render(node[1])} {'+' if kind == 'add' else '-'} {render(node[2], True)}"
        return f"({text})" if grouped else text
    if kind == "mul":
        return f"{render(node[1], True)} * {render(node[2], True)}"
    if kind == "fn":
        return f"{node[1]}({node[3]})"
    condition = node[1]
    return f"IF({render(condition[1])} {condition[0]} {render(condition[2])}, {render(node[2])}, {render(node[3])})"


def references(node: Any) -> set[str]:
    kind = node[0]
    if kind == "ref":
        return {node[1]}
    if kind == "fn":
        return set(node[2])
    if kind == "num":
        return set()
    if kind == "if":
        return references(node[1][1]) | references(node[1][2]) | references(node[2]) | references(node[3])
    return references(node[1]) | references(node[2])


@register
class Spreadsheet(Task):
    id = "data/spreadsheet"
    family = "data"
    description = "Evaluate spreadsheet formulas with cell references, ranges, SUM/AVERAGE/MIN/MAX and IF."
    tags = ("data", "spreadsheets", "evaluation")
    version = 2  # v2: blanks read as 0 give another asked value (v1: that misreading answered 0.70 of level 4)

    @dataclass(frozen=True)
    class Config:
        cols: int
        rows: int
        formulas: int
        targets: int
        blanks: int  # blank cells on the sheet (ranges must skip them)

    presets = (Config(3, 3, 3, 2, 0), Config(3, 4, 5, 2, 1), Config(4, 4, 7, 3, 1), Config(4, 5, 9, 3, 2),
               Config(5, 6, 13, 3, 3))
    # capped where generation stops scaling (kit check far_levels)
    growth = Growth(steps={"rows": 1, "formulas": 3}, limits={"rows": 20, "formulas": 94})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> dict[str, Any] | None:
            positions = [(c, r) for r in range(config.rows) for c in range(config.cols)]
            rng.shuffle(positions)
            formula_at = positions[: config.formulas]  # in evaluation order: each may use earlier ones
            blank = {cell_name(*p) for p in positions[config.formulas : config.formulas + config.blanks]}
            numbers = {cell_name(*p): rng.randint(-5, 30) for p in positions[config.formulas + config.blanks :]}
            values: dict[str, Fraction] = {name: Fraction(v) for name, v in numbers.items()}
            depth: dict[str, int] = dict.fromkeys(numbers, 0)
            formulas: dict[str, Any] = {}
            for position in formula_at:
                name = cell_name(*position)
                ready = list(values)  # numbers and formulas already defined
                node = _formula(rng, ready, set(values) | blank, config, name)
                if node is None:
                    return None
                formulas[name] = node
                values[name] = evaluate(node, values)
                depth[name] = 1 + max((depth.get(ref, 0) for ref in references(node)), default=0)
            by_depth = sorted(formulas, key=lambda n: (-depth[n], n))
            targets = by_depth[: config.targets]
            if config.blanks:  # the range rule must matter: blanks read as 0 give another asked value
                misread: dict[str, Fraction] = {name: Fraction(v) for name, v in numbers.items()}
                for name, node in formulas.items():
                    misread[name] = evaluate(node, misread, blanks_as_zero=True)
                if all(misread[name] == values[name] for name in targets):
                    return None
            return {"numbers": numbers, "formulas": formulas, "values": values, "depth": depth, "targets": targets,
                    "order": [cell_name(*p) for p in positions], "blank": sorted(blank)}

        sheet = retry(draw, attempts=300, what="a sheet whose formulas all fit and whose blanks matter")
        cells = {**{n: str(v) for n, v in sheet["numbers"].items()},
                 **{n: "=" + render(f) for n, f in sheet["formulas"].items()}}
        listing = "\n".join(f"{name}: {cells[name]}" for name in sorted(cells, key=_row_major))
        last = cell_name(config.cols - 1, config.rows - 1)
        targets = sheet["targets"]
        asked = ", ".join(targets[:-1]) + f" and {targets[-1]}"
        prompt = (
            f"A spreadsheet has columns A to {last[0]} and rows 1 to {config.rows}. Its non-blank cells are:\n\n"
            f"{listing}\n\nCells not listed are blank. A range such as A1:B3 covers every cell of that rectangle; "
            "SUM, AVERAGE, MIN and MAX use only the non-blank cells of their range. IF(condition, x, y) is x when "
            "the condition holds and y otherwise. Formulas may refer to cells anywhere on the sheet.\n\n"
            f"What are the values of {asked}? Give {EXACT_NUMBER_RULE}, as cell = value pairs separated "
            f"by commas, in any order. For example: {EXAMPLE}"
        )
        result = {name: exact_text(sheet["values"][name]) for name in targets}
        support = set()
        stack = list(targets)
        while stack:
            name = stack.pop()
            if name in sheet["formulas"] and name not in support:
                support.add(name)
                stack.extend(references(sheet["formulas"][name]))
        data = {"cells": cells, "result": result, "names": sorted(cells) + sheet["blank"],
                "formulas": len(sheet["formulas"]), "depth": max(sheet["depth"][n] for n in targets),
                "support": len(support)}
        return Problem(prompt=prompt, answer=keyed_text(result), data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        truth = {name: Fraction(value) for name, value in problem.data["result"].items()}
        return keyed_verdict(answer, truth, problem.data["names"], what="cell", example=EXAMPLE, describe=exact_text)

    def difficulty(self, problem: Problem) -> float:
        """Formulas + 2 x the longest chain among the asked cells + formulas the asked values depend on."""
        data = problem.data
        return float(data["formulas"] + 2 * data["depth"] + data["support"])

    def spellings(self, problem: Problem) -> list[str]:
        result = problem.data["result"]
        return [*markup_spellings(problem.answer or ""), keyed_text(dict(reversed(list(result.items()))), "\n"),
                ", ".join(f"{k}: {number_spellings(Fraction(v))[-1]}" for k, v in result.items())]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        result = {k: Fraction(v) for k, v in problem.data["result"].items()}
        victim = rng.choice(list(result))
        off = {k: (v + rng.choice((-1, 1)) if k == victim else v) for k, v in result.items()}
        first = next(iter(result))
        return [keyed_text({k: exact_text(v) for k, v in off.items()}),
                keyed_text({k: exact_text(v) for k, v in result.items() if k != first}),
                keyed_text({k: "0" for k in result})]


def _row_major(name: str) -> tuple[int, str]:
    return int(name[1:]), name[0]


def _formula(rng: random.Random, ready: list[str], known: set[str], config: Any, name: str) -> Any | None:
    """A random formula over the ``ready`` cells (ranges may also cover blank cells), or None when none fits."""
    def ref() -> Any:
        return ["ref", rng.choice(ready)]

    kinds = ["arith", "fn", "fn", "if"] if len(ready) >= 3 else ["arith"]
    kind = rng.choice(kinds)
    if kind == "fn":
        for _ in range(30):
            c1, c2 = rng.randrange(config.cols), rng.randrange(config.cols)
            r1, r2 = rng.randrange(config.rows), rng.randrange(config.rows)
            cells = _range_cells((c1, r1), (c2, r2))
            if 2 <= len(cells) <= 8 and name not in cells and all(c in known for c in cells) \
                    and any(c in ready for c in cells):
                text = f"{cell_name(min(c1, c2), min(r1, r2))}:{cell_name(max(c1, c2), max(r1, r2))}"
                node: list[Any] = ["fn", rng.choice(FUNCTIONS), cells, text]
                if rng.random() < 0.4:
                    node = [rng.choice(("add", "mul")), node, ["num", rng.randint(2, 4)]]
                return node
        kind = "arith"
    if kind == "if":
        comparison = [rng.choice((">", "<")), ref(), ref()]
        if comparison[1] == comparison[2]:
            comparison[2] = ["num", rng.randint(0, 20)]
        return ["if", comparison, ref(), ["sub", ref(), ["num", rng.randint(1, 5)]]]
    if len(ready) < 1:
        return None
    shape = rng.randrange(3)
    if shape == 0:
        return [rng.choice(("add", "sub")), ref(), ref()]
    if shape == 1:
        return [rng.choice(("add", "sub")), ["mul", ref(), ["num", rng.randint(2, 5)]], ref()]
    return ["mul", [rng.choice(("add", "sub")), ref(), ref()], ["num", rng.randint(2, 4)]]
