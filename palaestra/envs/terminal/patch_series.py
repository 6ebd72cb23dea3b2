"""Apply a generated series of patch files in the right order (skipping dropped ones), with a sandboxed shell.

The tree holds ``app/`` (a few text files at version 0) and ``patches/<number>-<slug>.patch``: a series of
mail-style patches (``From:``, ``Subject:``, then a unified diff with ``a/``/``b/`` paths) whose hunks build
on each other, so they apply only in order. The task: apply them in the order of the number their names
start with. The traps grow by level: from level 1 the series has ten or more patches and the numbers are not
zero-padded (``ls`` and a glob put ``10-...`` before ``2-...``, and the first applied two-digit patch changes a line that a patch numbered 2-9 wrote, so that order cannot apply it); from level 2 patches whose ``Subject:`` line
starts with ``[DROP]`` are to be skipped (the later patches do not need them); from level 3 some patches
create new files. ``sort -n`` and ``patch -p1`` do it.

The episode is judged by the final tree: every file under ``app/`` byte by byte as the series leaves it (the
order is fixed, so the result is unique), the patches unchanged; other new files (``.orig``, ``.rej``) are
allowed. The final answer is ``done``. The difficulty is the number of patches plus the hunks plus twice the
traps in play.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, register
from palaestra.core.task import Growth
from palaestra.envs.terminal._patches import unified_diff
from palaestra.envs.terminal.common import DONE, ShellTask, shell_plan, words

ORACLE = (
    "for p in $(ls patches | sort -n); do grep -q '^Subject: \\[DROP\\]' \"patches/$p\" && continue; "
    "patch -p1 -s < \"patches/$p\" || break; done"
)
VERBS = ("fix", "add", "tune", "rename", "drop", "update", "clean")
AUTHORS = ("Ada", "Lin", "Sam", "Kit", "Noor")


@register
class PatchSeries(ShellTask):
    id = "terminal/patch_series"
    family = "terminal"
    description = "Apply a generated series of patch files in numeric order, skipping dropped ones, with a shell."
    tags = ("terminal", "multi-turn", "shell", "files", "patch", "agentic")
    end_state = True
    new_files_allowed = True
    version = 2  # v2: the first applied two-digit patch changes a line a patch 2-9 wrote (glob order fails)

    @dataclass(frozen=True)
    class Config:
        patches: tuple[int, int]
        files: int
        traps: int  # 0..3 (see the module docstring)
        budget: int

    presets = (
        Config((3, 5), 2, 0, 5),
        Config((10, 12), 2, 1, 6),
        Config((10, 14), 3, 2, 7),
        Config((12, 16), 3, 3, 8),
        Config((14, 20), 4, 3, 9),
    )
    growth = Growth(limits={"patches": 99, "files": 12, "traps": 3, "budget": 16})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        traps = config.traps
        names = words(rng, 3 * config.files + config.patches[1] + 4, 2)
        app = {f"app/{names.pop()}.txt": [f"{names[-1 - i % 3]} value {rng.randint(0, 999)}\n" for i in range(8)]
               for _ in range(config.files)}
        initial = {path: "".join(lines) for path, lines in app.items()}
        count = rng.randint(*config.patches)
        dropped = set(rng.sample(range(2, count + 1), rng.randint(1, 2))) if traps >= 2 else set()
        files: dict[str, str] = dict(initial)
        hunks = 0
        after_first: dict[str, set[str]] = {}
        for number in range(1, count + 1):
            paths = rng.sample(sorted(app), min(len(app), rng.randint(1, 2)))
            edited = {path: _edit(rng, app[path], names) for path in paths}
            if traps >= 1 and number >= 10 and number not in dropped and not any(
                    n >= 10 and n not in dropped for n in range(10, number)):
                # The first applied two-digit patch changes a line that a patch numbered 2-9 wrote, so a glob's
                # order (1, 10, 11, ..., 2, ...) cannot apply it (v1: that order was right in ~11% of level 2).
                edited.update(_dependent(rng, app, after_first, names))
            if traps >= 3 and rng.random() < 0.2:
                new = f"app/{names.pop()}.txt"
                app_new = [f"created by patch {number}\n", f"line {rng.randint(0, 999)}\n"]
                edited[new] = app_new
            diff = "".join(unified_diff(path, app.get(path, []), lines) for path, lines in sorted(edited.items()))
            hunks += diff.count("\n@@ ")
            drop = number in dropped
            subject = f"{'[DROP] ' if drop else ''}{rng.choice(VERBS)} {rng.choice(names[:6])}"
            header = f"From: {rng.choice(AUTHORS)} <dev@example.org>\nSubject: {subject}\n\n---\n"
            label = f"{number:02d}" if traps == 0 else str(number)
            files[f"patches/{label}-{subject.split()[-1]}.patch"] = header + diff
            if not drop:
                app.update(edited)
            if number == 1:
                after_first = {path: set(lines) for path, lines in app.items()}
        expected = {path: "".join(lines) for path, lines in app.items()}
        steps = ("Apply the patches in patches/ to the files, one after another in the order of the number each "
                 "patch's name starts with (1, 2, ..., 10, ...); the paths in them start with a/ and b/.")
        if traps >= 2:
            steps += " Skip every patch whose Subject: line starts with [DROP]."
        prompt = (
            f"Your working directory holds a folder app/ and a series of patches in patches/. {steps} Do not "
            "change the patch files.\n\n"
            f"{self.done_instruction()}\n\n{self.tools_prompt(config.budget)}"
        )
        data: dict[str, Any] = {"files": files, "expected": expected, "hunks": hunks, "traps": traps,
                                "budget": config.budget}
        return Problem(prompt=prompt, answer=DONE, data=data)

    def expected_tree(self, problem: Problem) -> dict[str, bytes]:
        data = problem.data
        tree = {path: body.encode() for path, body in data["files"].items() if path.startswith("patches/")}
        tree.update((path, body.encode()) for path, body in data["expected"].items())
        return tree

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        patches = sum(1 for path in data["files"] if path.startswith("patches/"))
        return patches + data["hunks"] / 2 + 2 * data["traps"]

    def plan(self, problem: Problem) -> list[str]:
        return shell_plan([ORACLE], DONE)

    def spellings(self, problem: Problem) -> list[str]:
        return ["Done.", "DONE", "**done**"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        return ["not done", "done?!", "applied"]


def _edit(rng: random.Random, lines: list[str], names: list[str]) -> list[str]:
    """``lines`` with one line changed, inserted or deleted (never emptied)."""
    lines = list(lines)
    kind = rng.random()
    at = rng.randrange(len(lines))
    if kind < 0.5:
        lines[at] = f"{rng.choice(names[:6])} value {rng.randint(1000, 9999)}\n"
    elif kind < 0.8 or len(lines) < 4:
        lines.insert(at, f"{rng.choice(names[:6])} added {rng.randint(1000, 9999)}\n")
    else:
        del lines[at]
    return lines



def _dependent(rng: random.Random, app: dict[str, list[str]], after_first: dict[str, set[str]],
               names: list[str]) -> dict[str, list[str]]:
    """A change of one line that a patch after the first one wrote (absent from its file after patch 1), or no
    change when none is left (a patch can only have deleted lines)."""
    written = [(path, at) for path in sorted(app) for at, line in enumerate(app[path])
               if line not in after_first.get(path, set())]
    if not written:
        return {}
    path, at = rng.choice(written)
    lines = list(app[path])
    lines[at] = f"{rng.choice(names[:6])} value {rng.randint(10_000, 99_999)}\n"
    return {path: lines}
