"""Build a pivot table from a CSV of store visits: one row per store, one column per weekday, cells summed.

A table of visit counts (store, weekday, shift, visitors; several rows may share a store and weekday) is
given with the pivot asked: rows are the stores in a stated order, columns the weekdays in a stated
order, each cell the total visitors of that store on that weekday (0 where the table has no row); from
level 2 only one shift is counted. The answer gives each store's row of cells: ``Harbor: 12, 0, 7`` per
line, stores in any order, cells in the stated column order (a Markdown or CSV table of the same rows is read
too: with a header row naming the weekdays, in its own column order). The verifier reads ``store: cells`` pairs
with the shared assignment reader and names the first wrong store and weekday.

Difficulty: the table's rows plus the pivot's cells plus its non-zero cells plus the rows a shift filter drops.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.data.common import WORDS, csv_text
from palaestra.verifiers.assignments import read_values
from palaestra.verifiers.normalize import markup_spellings, strip_wrappers

EXAMPLE = "Alpha: 5, 0, 12\nBeta: 0, 3, 7"  # a fixed placeholder (no store has these names)
SHIFTS = ("morning", "evening")
_CELL_SPLIT = re.compile(r"[\s,;|]+")
_CELL = re.compile(r"\d{1,7}")


def _read_row(text: str) -> tuple[int, ...] | None:
    cells = [c for c in _CELL_SPLIT.split(text.strip().strip("[]()")) if c]
    if not cells or len(cells) > 100 or not all(_CELL.fullmatch(c) for c in cells):
        return None
    return tuple(int(c) for c in cells)


def read_table(answer: str, stores: list[str], days: list[str]) -> dict[str, tuple[int, ...]] | None:
    """The answer written as a table (Markdown ``| Harbor | 12 | 0 |`` or CSV ``Harbor,12,0``), or None.

    An optional header row names the weekdays (then its order decides the columns, as a grader reads a table);
    without one the cells are in the stated order. Every other line must be a store's row (or a Markdown rule).
    """
    lines = [line.strip() for line in strip_wrappers(answer).splitlines() if line.strip()]
    if not lines or len(lines) > 2 * len(stores) + 4 or not any("|" in line or "," in line for line in lines):
        return None
    names = {name.lower(): name for name in stores}
    order = list(range(len(days)))
    rows: dict[str, tuple[int, ...]] = {}
    for line in lines:
        if "|" in line and set(line) <= set("|-: "):
            continue  # a Markdown rule under the header
        cells = [cell.strip().strip("*").strip() for cell in
                 (line.strip("|").split("|") if "|" in line else line.split(","))]
        labels = [cell.lower() for cell in cells[1:]]
        if not rows and sorted(labels) == sorted(day.lower() for day in days) and len(set(labels)) == len(days):
            order = [labels.index(day.lower()) for day in days]
            continue
        store = names.get(cells[0].lower())
        if store is None or store in rows or len(cells) != len(days) + 1 or not all(
                _CELL.fullmatch(cell) for cell in cells[1:]):
            return None
        rows[store] = tuple(int(cells[1 + column]) for column in order)
    return rows or None


def pivot(rows: list[list], stores: list[str], days: list[str], shift: str | None) -> dict[str, list[int]]:
    """The reference: per store, the visitors summed per weekday (in ``days`` order), one shift or all."""
    table = {store: [0] * len(days) for store in stores}
    for store, day, row_shift, visitors in rows:
        if shift is None or row_shift == shift:
            table[store][days.index(day)] += visitors
    return table


@register
class Pivot(Task):
    id = "data/pivot"
    family = "data"
    description = "Pivot a CSV of store visits into a stores x weekdays table of summed visitors."
    tags = ("data", "tables", "pivot")

    @dataclass(frozen=True)
    class Config:
        stores: int
        days: int
        rows: int
        filtered: bool  # count one shift only

    presets = (Config(2, 3, 8, False), Config(3, 3, 12, False), Config(3, 4, 18, True), Config(4, 5, 26, True),
               Config(5, 7, 36, True))
    growth = Growth(steps={"stores": 1, "rows": 10}, limits={"stores": 8})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        stores = rng.sample(WORDS["stores"], config.stores)
        days = list(WORDS["weekdays"][: config.days]) if config.days == 7 else sorted(
            rng.sample(WORDS["weekdays"], config.days), key=WORDS["weekdays"].index)
        shift = rng.choice(SHIFTS) if config.filtered else None

        def draw() -> list[list]:
            return [[rng.choice(stores), rng.choice(days), rng.choice(SHIFTS), rng.randint(1, 60)]
                    for _ in range(config.rows)]

        def varied(rows: list[list]) -> bool:
            cells = [c for row in pivot(rows, stores, days, shift).values() for c in row]
            return 0 < cells.count(0) < len(cells) // 2 + 1 or (cells.count(0) == 0 and len(set(cells)) > 2)

        rows = retry(draw, varied, attempts=200, what="a pivot with varied cells")
        result = pivot(rows, stores, days, shift)
        what = f"visitors of the {shift} shift" if shift else "visitors (all shifts)"
        prompt = (
            f"Here is a table of store visits:\n\n{csv_text(['store', 'weekday', 'shift', 'visitors'], rows)}\n\n"
            f"Build a pivot table with one row per store ({', '.join(stores)}) and one column per weekday in the "
            f"order {', '.join(days)}; each cell is the total {what} of that store on that weekday, or 0 if there "
            "are none.\n\nAnswer with one line per store: its name, a colon, and its cells in the column order "
            f"above, separated by commas. For example:\n{EXAMPLE}"
        )
        answer = "\n".join(f"{store}: {', '.join(map(str, cells))}" for store, cells in result.items())
        dropped = sum(1 for row in rows if shift is not None and row[2] != shift)
        data = {"stores": stores, "days": days, "result": result, "rows": len(rows), "dropped": dropped}
        return Problem(prompt=prompt, answer=answer, data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        stores, days = problem.data["stores"], problem.data["days"]
        given = read_table(answer, stores, days) or read_values(answer, stores, _read_row, partial=True)
        if not given:
            return Verdict.unparsed(f"expected one line per store such as {EXAMPLE.splitlines()[0]}")
        for store in stores:
            if store not in given:
                return Verdict.wrong(f"the row of {store} is missing")
            cells, truth = given[store], problem.data["result"][store]
            if len(cells) != len(truth):
                return Verdict.wrong(f"the row of {store} has {len(cells)} cells, not one per weekday")
            for day, mine, theirs in zip(days, cells, truth, strict=True):
                if mine != theirs:
                    return Verdict.wrong(f"the cell of {store} on {day} is wrong")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Rows + cells + non-zero cells + rows the shift filter drops."""
        data = problem.data
        cells = [c for row in data["result"].values() for c in row]
        return float(data["rows"] + len(cells) + sum(1 for c in cells if c) + data["dropped"])

    def spellings(self, problem: Problem) -> list[str]:
        result = problem.data["result"]
        return [*markup_spellings(problem.answer or ""),
                "\n".join(f"{s} = {' '.join(map(str, c))}" for s, c in reversed(list(result.items()))),
                "; ".join(f"{s}: [{', '.join(map(str, c))}]" for s, c in result.items()),
                "\n".join(["| store | " + " | ".join(problem.data["days"]) + " |",
                           "|---" * (len(problem.data["days"]) + 1) + "|",
                           *(f"| {s} | " + " | ".join(map(str, c)) + " |" for s, c in result.items())]),
                "\n".join(["store," + ",".join(problem.data["days"]),
                           *(f"{s}," + ",".join(map(str, c)) for s, c in result.items())])]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        result = problem.data["result"]
        store = rng.choice(list(result))
        bumped = {s: [c + (1 if s == store and i == 0 else 0) for i, c in enumerate(cells)]
                  for s, cells in result.items()}
        shifted = {s: cells[1:] + cells[:1] for s, cells in result.items()}

        def text(table: dict[str, list[int]]) -> str:
            return "\n".join(f"{s}: {', '.join(map(str, c))}" for s, c in table.items())
        wrong = [text(bumped), text({s: c for s, c in result.items() if s != store})]
        if shifted != result:
            wrong.append(text(shifted))
        return wrong
