"""Rotate a generated application log by hand: split it by date, compress all but the newest days, with a shell.

The tree holds ``var/log/app.log``: entries ``<YYYY-MM-DD> <HH:MM:SS> <LEVEL> <message>`` over several days,
in time order. The task: write each entry to ``var/log/archive/app-<date>.log`` for its date (entries in
their order); gzip the files of all but the newest ``K`` dates (``app-<date>.log.gz`` replaces
``app-<date>.log``); leave ``app.log`` empty. The traps grow by level: from level 1 entries span several
lines (continuation lines, indented or ``Caused by:``, belong to the entry above them and carry no date);
from level 2 ``DEBUG`` entries are to be dropped, continuation lines included; from level 3 messages
mention other dates (``retry scheduled for <date>``), so a ``grep`` for a date picks wrong lines. Dates
have gaps (a day without entries gets no file).

The episode is judged by the final tree, path by path: every ``.gz`` file is judged by its decompressed
contents (a gzip header's name and time do not matter; a file that is not gzip data is wrong), every other
file byte by byte. The final answer is ``done``. The difficulty is log2 of the entries plus the dates plus
twice the traps in play.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from palaestra.core import Problem, register
from palaestra.core.task import Growth
from palaestra.envs.terminal._trees import MAX_MEMBER_BYTES, MAX_TOTAL_BYTES, gunzipped
from palaestra.envs.terminal.common import DONE, ShellTask, shell_plan, words

LOG = "var/log/app.log"
ARCHIVE = "var/log/archive"
LEVELS = ("INFO", "INFO", "WARN", "ERROR")
NOT_GZIP = b"\0not gzip data\0"  # a final .gz file that is not gzip data: its bytes, marked (no log text holds NUL)
STAMP = "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] "  # an entry's first line (mawk has no {4})


@register
class LogRotate(ShellTask):
    id = "terminal/log_rotate"
    family = "terminal"
    description = "Split a generated application log by date into an archive, gzipping all but the newest days."
    tags = ("terminal", "multi-turn", "shell", "logs", "files", "agentic")
    end_state = True

    @dataclass(frozen=True)
    class Config:
        days: tuple[int, int]
        entries: tuple[int, int]  # per day
        traps: int  # 0..3 (see the module docstring)
        budget: int

    presets = (
        Config((3, 4), (2, 5), 0, 5),
        Config((4, 6), (3, 7), 1, 6),
        Config((5, 7), (4, 9), 2, 7),
        Config((6, 9), (5, 12), 3, 8),
        Config((8, 12), (6, 15), 3, 9),
    )
    growth = Growth(limits={"days": 60, "entries": 200, "traps": 3, "budget": 16})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        traps = config.traps
        day = date(2024, rng.randint(1, 12), rng.randint(1, 28))
        dates = []
        for _ in range(rng.randint(*config.days)):
            dates.append(day.isoformat())
            day += timedelta(days=rng.choice((1, 1, 1, 2, 3)))
        keep = rng.randint(1, max(1, len(dates) - 2))
        modules = words(rng, 5, 2)
        log: list[str] = []
        archive: dict[str, list[str]] = {}
        for when in dates:
            seconds = sorted(rng.sample(range(86_400), rng.randint(*config.entries)))
            for second in seconds:
                level = "DEBUG" if traps >= 2 and rng.random() < 0.2 else rng.choice(LEVELS)
                message = f"{rng.choice(modules)}: request {rng.randint(1, 99_999)} handled"
                if traps >= 3 and rng.random() < 0.25:
                    message = f"{rng.choice(modules)}: retry scheduled for {rng.choice(dates)}"
                entry = [f"{when} {second // 3600:02d}:{second // 60 % 60:02d}:{second % 60:02d} {level} {message}"]
                if traps >= 1 and rng.random() < 0.25:
                    entry.append(f"Caused by: {rng.choice(modules)}Error: code {rng.randint(1, 99)}")
                    entry += [f"    at {rng.choice(modules)}.run(line {rng.randint(1, 500)})"
                              for _ in range(rng.randint(1, 3))]
                log += entry
                if level != "DEBUG":
                    archive.setdefault(when, []).extend(entry)
        written = sorted(archive)
        targets = {f"{ARCHIVE}/app-{when}.log{'' if when in written[len(written) - keep:] else '.gz'}":
                   "".join(line + "\n" for line in archive[when]) for when in written}
        rules = [f"Write each entry to {ARCHIVE}/app-<date>.log, named by the entry's date, keeping the entries "
                 "in their order."]
        if traps >= 1:
            rules.append("An entry starts with its date and time; the lines after it that do not start with a "
                         "date (continuation lines) belong to it and go with it.")
        if traps >= 2:
            rules.append("Drop DEBUG entries (those whose level, the third field, is DEBUG), with their "
                         "continuation lines.")
        rules.append(f"Compress with gzip the files of all dates but the newest {_days(keep)} you wrote: "
                     "app-<date>.log.gz replaces app-<date>.log.")
        rules.append(f"Leave {LOG} empty (the file stays, with no contents).")
        prompt = (
            f"Your working directory holds {LOG}, an application log whose entries read <YYYY-MM-DD> <HH:MM:SS> "
            "<LEVEL> <message>. Rotate it by hand:\n" + "\n".join(f"- {rule}" for rule in rules)
            + "\nCreate the folders you need and change nothing else.\n\n"
            f"{self.done_instruction()}\n\n{self.tools_prompt(config.budget)}"
        )
        data: dict[str, Any] = {"files": {LOG: "".join(line + "\n" for line in log)}, "targets": targets,
                                "keep": keep, "traps": traps, "budget": config.budget}
        return Problem(prompt=prompt, answer=DONE, data=data)

    def expected_tree(self, problem: Problem) -> dict[str, bytes]:
        tree = {path: body.encode() for path, body in problem.data["targets"].items()}
        tree[LOG] = b""
        return tree

    def final_files(self, problem: Problem, state: Any) -> dict[str, bytes]:
        """The tree with every ``.gz`` file decompressed; a file that is not gzip data, or past the bounded reads,
        is marked so that it differs (its bytes alone could be the expected text: an uncompressed file renamed
        ``.gz`` passed)."""
        files = super().final_files(problem, state)
        budget = MAX_TOTAL_BYTES
        for path, body in sorted(files.items()):
            if path.endswith(".gz"):
                plain = gunzipped(body, min(MAX_MEMBER_BYTES, max(budget, 0)))
                files[path] = NOT_GZIP + body if plain is None else plain
                budget -= len(files[path])
        return files

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        entries = sum(1 for line in data["files"][LOG].splitlines() if line[:1].isdigit())
        return math.log2(entries) + len(data["targets"]) + 2 * data["traps"]

    def plan(self, problem: Problem) -> list[str]:
        data = problem.data
        drop = ' && $3 != "DEBUG"' if data["traps"] >= 2 else ""
        command = (f"mkdir -p {ARCHIVE} && awk '/^{STAMP}/ {{ d = $1; keep = 1{drop} }} keep {{ print > "
                   f"(\"{ARCHIVE}/app-\" d \".log\") }}' {LOG} && : > {LOG} && "
                   f"ls {ARCHIVE}/app-*.log | sort | head -n -{data['keep']} | xargs -r gzip")
        return shell_plan([command], DONE)

    def spellings(self, problem: Problem) -> list[str]:
        return ["Done.", "DONE", "**done**"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        return ["not done", "done?!", "rotated"]


def _days(count: int) -> str:
    return "date" if count == 1 else f"{count} dates"
