"""Split generated CSV exports into one file per value of a key column, with a sandboxed shell (awk).

The tree holds ``exports/part-NN.csv`` (one file at level 0, several above it): each starts with the same
header line, then one record per line; the fields never contain commas or quotes. The task: for each value
of the column named in the prompt, write ``split/<value>.csv`` holding the header line, then every record
with that value, in input order (the parts in name order, then line order); records whose value is empty
go to ``split/none.csv``. Nothing else is created and the exports stay as they were. The traps grow by
level: the key column is not the first one; other columns hold the same words (a ``grep`` for a value finds
the wrong lines); from level 2 several parts (their header lines are not records) and empty values; from
level 3 Windows line endings in some parts, at least one (the output may use either ending, but a value must
not keep the carriage return), with the key in the last column, so a value read with its carriage return names
a wrong file (v1 put the key last one time in six: a split keeping the carriage return passed 75-90% at levels
3-4; v2: never).

The episode is judged by the final tree, path by path (the output files line by line, with CRLF and a
missing final newline accepted). The final answer is ``done``. The difficulty is log2 of the records plus
the output files plus the parts plus the traps in play.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, register
from palaestra.core.task import Growth
from palaestra.envs.terminal.common import DONE, ShellTask, shell_plan, words

OUT = "split"
NONE = "none"
ORACLE = (
    "mkdir -p " + OUT + " && awk -F, -v key={key} 'FNR == 1 {{ sub(/\\r$/, \"\"); header = $0; "
    "for (i = 1; i <= NF; i++) if ($i == key) k = i; next }} {{ sub(/\\r$/, \"\"); v = $k; if (v == \"\") v = \""
    + NONE + "\"; f = \"" + OUT + "/\" v \".csv\"; if (!(f in seen)) {{ print header > f; seen[f] = 1 }} print > f }}' "
    "$(ls exports/*.csv | LC_ALL=C sort)"
)


@register
class SplitCsv(ShellTask):
    id = "terminal/split_csv"
    family = "terminal"
    description = "Split generated CSV exports into one file per value of a key column, using a sandboxed shell."
    tags = ("terminal", "multi-turn", "shell", "csv", "data", "agentic")
    end_state = True
    version = 2  # v2: with CRLF parts in play the key is the last column and some part has CRLF endings

    @dataclass(frozen=True)
    class Config:
        parts: int
        rows: tuple[int, int]  # per part
        values: tuple[int, int]  # distinct key values
        empty_values: bool
        crlf: bool
        budget: int

    presets = (
        Config(1, (8, 14), (2, 3), False, False, 5),
        Config(1, (14, 24), (3, 4), False, False, 6),
        Config(2, (12, 20), (3, 5), True, False, 7),
        Config(3, (12, 22), (4, 6), True, True, 8),
        Config(4, (15, 25), (5, 7), True, True, 9),
    )
    growth = Growth(limits={"parts": 12, "rows": 120, "values": 20, "budget": 16})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        pool = [w for w in words(rng, config.values[1] + 16, 2) if w != NONE]
        values = [pool.pop() for _ in range(rng.randint(*config.values))]
        key = rng.choice(("region", "team", "channel", "site"))
        columns = ["id", "date", key, "owner", "amount", "note"]
        columns.remove(key)
        # Never the first column; the last where CRLF parts are in play, so that the carriage return sticks to it.
        columns.insert(len(columns) if config.crlf else rng.randint(1, len(columns)), key)
        header = ",".join(columns)
        files: dict[str, str] = {}
        outputs: dict[str, list[str]] = {}
        serial = rng.randint(1_000, 9_000)
        crlf_part = rng.randint(1, config.parts)  # one part surely has CRLF endings, the others by chance
        for part in range(1, config.parts + 1):
            lines = []
            for _ in range(rng.randint(*config.rows)):
                serial += rng.randint(1, 9)
                value = "" if config.empty_values and rng.random() < 0.08 else rng.choice(values)
                record = {"id": str(serial), "date": f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
                          key: value, "owner": rng.choice(values + pool[:4]),  # the same words in other columns
                          "amount": str(rng.randint(1, 99_999)), "note": rng.choice([*values, "ok", "late", ""])}
                line = ",".join(record[c] for c in columns)
                lines.append(line)
                outputs.setdefault(value or NONE, []).append(line)
            crlf = config.crlf and (part == crlf_part or rng.random() < 0.5)
            ending = "\r\n" if crlf else "\n"
            files[f"exports/part-{part:02d}.csv"] = ending.join([header, *lines]) + ending
        expected = {f"{OUT}/{value}.csv": "\n".join([header, *lines]) + "\n" for value, lines in outputs.items()}
        parts = "a file exports/part-01.csv" if config.parts == 1 else "files exports/part-NN.csv"
        prompt = (
            f"Your working directory holds CSV exports: {parts}, each starting with the same header line, then one "
            "record per line (fields never contain commas or quotes). For each value of the column "
            f"{key}, write {OUT}/<value>.csv: the header line, then every record whose {key} is that value, in "
            "input order (files in name order, then line by line). Records whose "
            f"{key} is empty go to {OUT}/{NONE}.csv. Values are taken exactly as written. Create no other files "
            "and do not change the exports.\n\n"
            f"{self.done_instruction()}\n\n{self.tools_prompt(config.budget)}"
        )
        data: dict[str, Any] = {"files": files, "expected": expected, "key": key, "crlf": config.crlf,
                                "empty_values": config.empty_values, "budget": config.budget}
        return Problem(prompt=prompt, answer=DONE, data=data)

    def expected_tree(self, problem: Problem) -> dict[str, bytes]:
        tree = {path: body.encode() for path, body in problem.data["files"].items()}
        tree.update((path, body.encode()) for path, body in problem.data["expected"].items())
        return tree

    def final_files(self, problem: Problem, state: Any) -> dict[str, bytes]:
        """The tree, with the output files' line endings made canonical (CRLF or LF, final newline or not)."""
        files = super().final_files(problem, state)
        for path, body in files.items():
            if path.startswith(OUT + "/"):
                lines = body.replace(b"\r\n", b"\n").split(b"\n")
                while lines and lines[-1] == b"":
                    lines.pop()
                files[path] = b"\n".join(lines) + b"\n"
        return files

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        records = sum(body.count("\n") - 1 for body in data["files"].values())
        traps = data["crlf"] + data["empty_values"]
        return math.log2(records) + len(data["expected"]) + len(data["files"]) + 3 * traps

    def plan(self, problem: Problem) -> list[str]:
        return shell_plan([ORACLE.format(key=problem.data["key"])], DONE)

    def spellings(self, problem: Problem) -> list[str]:
        return ["Done.", "DONE", "**done**"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        return ["not done", OUT, "done?"]
