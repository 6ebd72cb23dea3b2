"""Write a summary report of generated CSV files with a sandboxed shell (awk, sort, cut...).

The tree holds ``sales/<region>/<YYYY-MM>.csv``: one header line, then one sale per line. The task is to
write ``report.csv``: the header ``category,units,revenue``, then one line per category with its total
units (the sum of ``qty``) and revenue (the sum of ``qty * unit_cents``, an integer number of cents), sorted
by revenue, largest first (ties by category name). Harder levels add what real exports do: more regions
and months; from level 2, Windows line endings in some files; from level 3, a ``status`` column whose
``refunded`` sales are left out; from level 4, columns in a different order in some regions (each file's
header says which). Each trap in play is in every problem: some region has CRLF endings (with refunds, one
with the status column last, so a status read with its carriage return is not ``refunded``) and some region has
its columns reordered (v1 drew them by chance: ignoring the carriage return passed 15-28% at levels 3-4, reading
every file in the standard order 12% at level 4; v2: 0%). The data files must stay as they were; other new files (scratch files) are allowed.

The report is judged line by line against the one the rule determines (the order is fixed by the
sort rule, the totals are exact integers): a trailing newline, a missing one and Windows line endings
are all accepted; anything else is wrong. The final answer is ``done``. The difficulty is log2 of the
sales plus the level's traps (line endings, refunds, column orders) plus the number of categories.

Generation speed: about 800 problems/s at level 4 on this 2-core machine. Each problem writes 16 CSV
files (4 regions x 4 months of 20-35 rows, with CRLF endings, refunds and reordered columns) and totals
them for the reference report; drawing and formatting the rows is nearly all the time.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, register
from palaestra.core.task import Growth
from palaestra.envs.terminal.common import DONE, ShellTask, shell_plan, words

REPORT = "report.csv"
REPORT_HEADER = "category,units,revenue"
STANDARD_COLUMNS = ("date", "item", "category", "qty", "unit_cents")
SHUFFLES = 8  # one shuffle in 120 at most leaves the standard columns in order; eight in a row about never do
# The oracle: each file's header names its columns (so a reordered file is read right), refunds skipped.
ORACLE = (
    "awk -F, 'FNR == 1 { delete col; for (i = 1; i <= NF; i++) { sub(/\\r$/, \"\", $i); col[$i] = i }; next }"
    " { sub(/\\r$/, \"\") } (\"status\" in col) && $col[\"status\"] == \"refunded\" { next }"
    " { c = $col[\"category\"]; u[c] += $col[\"qty\"]; r[c] += $col[\"qty\"] * $col[\"unit_cents\"] }"
    " END { for (c in u) print c \",\" u[c] \",\" r[c] }' sales/*/*.csv"
    " | sort -t, -k3,3nr -k1,1 | { echo " + REPORT_HEADER + "; cat; } > " + REPORT
)


@register
class CsvReport(ShellTask):
    id = "terminal/csv_report"
    family = "terminal"
    description = "Write a per-category summary of generated CSV sales files with a sandboxed shell."
    tags = ("terminal", "multi-turn", "shell", "csv", "data", "agentic")
    end_state = True
    new_files_allowed = True
    version = 2  # v2: a CRLF region (status last, with refunds) and a reordered region in every problem with those traps

    @dataclass(frozen=True)
    class Config:
        regions: int
        months: int
        rows: tuple[int, int]  # per file
        categories: int
        crlf: bool
        refunds: bool
        reordered: bool
        budget: int

    presets = (
        Config(1, 2, (8, 15), 3, False, False, False, 6),
        Config(2, 3, (10, 20), 4, False, False, False, 7),
        Config(3, 3, (12, 25), 5, True, False, False, 8),
        Config(3, 4, (15, 30), 6, True, True, False, 9),
        Config(4, 4, (20, 35), 7, True, True, True, 10),
    )
    growth = Growth(limits={"regions": 10, "months": 12, "rows": 150, "categories": 12, "budget": 16})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        names = words(rng, config.regions + config.categories + 12, 2)
        regions = [names.pop() for _ in range(config.regions)]
        categories = [names.pop() for _ in range(config.categories)]
        items = {c: [names.pop() if names else f"{c}x{i}" for i in range(2)] for c in categories}
        files: dict[str, str] = {}
        sales: list[dict[str, Any]] = []
        # One region surely has CRLF endings and another surely reorders its columns (the rest by chance), so that
        # each trap in play decides a total.
        crlf_region, reordered_region = rng.sample(regions, 2) if len(regions) > 1 else (regions[0], None)
        for region in regions:
            columns = list(STANDARD_COLUMNS) + (["status"] if config.refunds else [])
            if config.reordered and (region == reordered_region or rng.random() < 0.5):
                for _ in range(SHUFFLES):  # until the standard columns are out of their order
                    if columns[: len(STANDARD_COLUMNS)] != list(STANDARD_COLUMNS):
                        break
                    rng.shuffle(columns)
            crlf = config.crlf and (region == crlf_region or rng.random() < 0.5)
            if crlf and config.refunds and region == crlf_region:  # "refunded\r" is not "refunded"
                columns.remove("status")
                columns.append("status")
            for month in range(1, config.months + 1):
                lines = [",".join(columns)]
                for _ in range(rng.randint(*config.rows)):
                    category = rng.choice(categories)
                    sale: dict[str, Any] = {"date": f"2024-{month:02d}-{rng.randint(1, 28):02d}", "item": rng.choice(items[category]),
                            "category": category, "qty": rng.randint(1, 9), "unit_cents": rng.randint(99, 9_999),
                            "status": "refunded" if rng.random() < 0.15 else "paid"}
                    sales.append(sale)
                    lines.append(",".join(str(sale[c]) for c in columns))
                files[f"sales/{region}/2024-{month:02d}.csv"] = ("\r\n" if crlf else "\n").join(lines) + (
                    "\r\n" if crlf else "\n")
        counted = [s for s in sales if not (config.refunds and s["status"] == "refunded")]
        units: dict[str, int] = defaultdict(int)
        revenue: dict[str, int] = defaultdict(int)
        for sale in counted:
            units[sale["category"]] += sale["qty"]
            revenue[sale["category"]] += sale["qty"] * sale["unit_cents"]
        ranked = sorted(units, key=lambda c: (-revenue[c], c))
        report = "\n".join([REPORT_HEADER, *(f"{c},{units[c]},{revenue[c]}" for c in ranked)]) + "\n"
        traps = []
        if config.crlf:
            traps.append("Some files may have Windows (CRLF) line endings.")
        if config.refunds:
            traps.append("Leave out sales whose status is refunded.")
        if config.reordered:
            traps.append("Not every file has its columns in the same order: each file's header line names them.")
        prompt = (
            "Your working directory holds sales exports: sales/<region>/<YYYY-MM>.csv, each with a header line "
            f"naming the columns {', '.join(STANDARD_COLUMNS)}{' and status' if config.refunds else ''}, then "
            f"one sale per line. {' '.join(traps)}\n\nWrite {REPORT}: the header line {REPORT_HEADER}, then one "
            "line per category with its total units (the sum of qty) and its revenue (the sum of qty * "
            "unit_cents, as an integer number of cents), sorted by revenue from largest to smallest (ties by "
            "category name). Do not change the sales files.\n\n"
            f"{self.done_instruction()}\n\n{self.tools_prompt(config.budget)}"
        )
        data = {"files": files, "report": report, "sales": len(counted), "traps": len(traps),
                "categories": len(ranked), "budget": config.budget}
        return Problem(prompt=prompt, answer=DONE, data=data)

    def expected_tree(self, problem: Problem) -> dict[str, bytes]:
        tree = {path: body.encode() for path, body in problem.data["files"].items()}
        tree[REPORT] = problem.data["report"].encode()
        return tree

    def final_files(self, problem: Problem, state: Any) -> dict[str, bytes]:
        """The tree, with the report's line endings made canonical (CRLF or LF, final newline or not)."""
        files = super().final_files(problem, state)
        if REPORT in files:
            files[REPORT] = _canonical(files[REPORT])
        return files

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return math.log2(data["sales"]) + 2 * data["traps"] + data["categories"] / 2

    def plan(self, problem: Problem) -> list[str]:
        return shell_plan([ORACLE], DONE)

    def spellings(self, problem: Problem) -> list[str]:
        return ["Done.", "DONE"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        return ["not done", "report.csv"]


def _canonical(body: bytes) -> bytes:
    lines = body.replace(b"\r\n", b"\n").split(b"\n")
    while lines and lines[-1] == b"":
        lines.pop()
    return b"\n".join(lines) + b"\n"
