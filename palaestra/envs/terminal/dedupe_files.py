"""Delete duplicate files from a generated tree, keeping one copy of each content, with a sandboxed shell.

The tree holds ``photos/``, ``backup/`` and ``misc/`` folders (nested from level 2) whose files come in
groups of byte-identical copies under different names, among unique files. The task: delete files so that
every content is left exactly once, keeping in each group of identical files the one whose path sorts
first (byte order, as ``LC_ALL=C sort`` orders them); nothing else changes; the paths are redrawn until keeping
the first copy by file name or the shortest path keeps other files. Near misses make a careless comparison
fail: in every problem, files that differ only in a trailing newline, in one character, and in case (not
duplicates), same-named files with different contents, and from level 3 empty files (all copies of each
other). (v2 drew each near miss's kind at random and placed files once: comparing without the final newline
or without case passed 38-40% at level 0, keeping by file name 42%; v3: 0% at levels 0-4.) ``md5sum``/``cmp``/``sort``/``uniq`` do it. The episode is judged by the final tree (the rule fixes
which files remain); the final answer is ``done``. The difficulty is the number of files plus the
number of duplicate groups.

Generation speed: about 690 problems/s at level 4 on this 2-core machine. Most of the time goes to
inventing 400 distinct file and folder names by the shared name generator, which redraws any name already
taken; the rest builds the 7-10 groups of identical files, near misses and empty files the model must
tell apart.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, register, retry
from palaestra.core.task import Growth
from palaestra.envs.terminal.common import DONE, ShellTask, batched, quote, shell_plan, words

TOP = ("photos", "backup", "misc")
EXTENSIONS = ("txt", "dat", "log", "csv")


@register
class DedupeFiles(ShellTask):
    id = "terminal/dedupe_files"
    version = 3  # v3: every kind of near miss in each problem; paths redrawn where a careless keep rule passes
    family = "terminal"
    description = "Delete duplicate files from a generated tree, keeping the first copy of each content, with a shell."
    tags = ("terminal", "multi-turn", "shell", "files", "agentic")
    end_state = True

    @dataclass(frozen=True)
    class Config:
        groups: tuple[int, int]  # groups of identical files
        copies: tuple[int, int]  # files per group
        uniques: tuple[int, int]  # files with a content of their own (some near misses)
        depth: int
        empty_files: bool
        budget: int

    presets = (
        Config((2, 3), (2, 2), (3, 5), 0, False, 5),
        Config((3, 4), (2, 3), (4, 7), 1, False, 6),
        Config((4, 6), (2, 3), (6, 10), 2, False, 7),
        Config((5, 8), (2, 4), (8, 12), 2, True, 8),
        Config((7, 10), (2, 4), (10, 16), 3, True, 9),
    )
    # capped where generation stops scaling (kit check far_levels)
    growth = Growth(limits={"groups": (33, 36), "uniques": (36, 68), "depth": 5, "budget": 16, "copies": (2, 17)})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        names = words(rng, _name_pool(config), 2)
        folders = [[top] for top in TOP]
        for _ in range(config.depth * 2):
            folders.append([*rng.choice(folders), names.pop()])
        contents: list[str] = []
        kinds = rng.sample(range(3), 3)  # every kind of near miss is in play, whatever the number of groups
        bases = []
        for index in range(rng.randint(*config.groups)):
            bases.append(_text(rng))
            contents += [bases[-1]] * rng.randint(*config.copies)
            contents.append(_near_miss(rng, bases[-1], kinds[index % 3]))  # never a copy of the group's content
        contents += [_near_miss(rng, bases[0], kind) for kind in kinds[len(bases):]]
        contents += [_text(rng) for _ in range(rng.randint(*config.uniques))]
        if config.empty_files:
            contents += [""] * rng.randint(2, 3)

        def place() -> dict[str, str] | None:
            """The files at drawn paths; None when keeping the first copy by file name, or by shortest path, keeps
            the same files as the byte order of paths (a careless rule would pass)."""
            pool = list(names)
            reused = pool.pop()
            files: dict[str, str] = {}
            for index, body in enumerate(contents):
                stem = reused if index % 5 == 0 else pool.pop()  # a shared name with different contents
                path = "/".join([*rng.choice(folders), f"{stem}.{rng.choice(EXTENSIONS)}"])
                while path in files:
                    path = "/".join([*rng.choice(folders), f"{pool.pop()}.{rng.choice(EXTENSIONS)}"])
                files[path] = body
            right = _kept(files, lambda p: p.encode())
            careless = (lambda p: p.rsplit("/", 1)[1].encode(), lambda p: (len(p), p.encode()))
            return None if any(_kept(files, order) == right for order in careless) else files

        files = retry(place, what="paths where only the byte order of paths keeps the right copies", attempts=50)
        groups: dict[str, list[str]] = defaultdict(list)
        for path in sorted(files, key=lambda p: p.encode()):
            groups[files[path]].append(path)
        kept = sorted(paths[0] for paths in groups.values())
        prompt = (
            f"Your working directory holds the folders {', '.join(t + '/' for t in TOP)} (with subfolders). Many "
            "files are byte-for-byte copies of others. Delete files so that every content is left exactly once: "
            "in each group of identical files keep only the one whose path (relative to the working directory, "
            "like photos/a/b.txt) sorts first in byte order (the order of LC_ALL=C sort), and delete the others. "
            "Files whose contents differ in any byte are not copies. Change nothing else.\n\n"
            f"{self.done_instruction()}\n\n{self.tools_prompt(config.budget)}"
        )
        data = {"files": files, "kept": kept, "groups": sum(len(p) > 1 for p in groups.values()),
                "depth": config.depth, "budget": config.budget}
        return Problem(prompt=prompt, answer=DONE, data=data)

    def expected_tree(self, problem: Problem) -> dict[str, bytes]:
        files = problem.data["files"]
        return {path: files[path].encode() for path in problem.data["kept"]}

    def difficulty(self, problem: Problem) -> float:
        return len(problem.data["files"]) + problem.data["groups"] + problem.data["depth"]

    def plan(self, problem: Problem) -> list[str]:
        doomed = sorted(set(problem.data["files"]) - set(problem.data["kept"]))
        return shell_plan(batched("rm --", [quote(p) for p in doomed]), DONE)

    def spellings(self, problem: Problem) -> list[str]:
        return ["Done.", "**Done**"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        return ["not done", "deleted"]


def _kept(files: dict[str, str], order: Callable[[str], Any]) -> list[str]:
    """The first path in ``order`` of each content, sorted."""
    first: dict[str, str] = {}
    for path in sorted(files, key=order):
        first.setdefault(files[path], path)
    return sorted(first.values())


def _text(rng: random.Random) -> str:
    return "\n".join(f"{rng.choice(('id', 'value', 'note', 'entry'))} {rng.randint(0, 10**6)}"
                     for _ in range(rng.randint(1, 6))) + "\n"


def _near_miss(rng: random.Random, base: str, kind: int) -> str:
    """A content one careless comparison takes for ``base``: without its final newline (kind 0), one digit changed
    (1), or a letter in upper case (2)."""
    if kind == 0:
        return base.rstrip("\n")
    if kind == 1:
        digits = [i for i, c in enumerate(base) if c.isdigit()]
        i = rng.choice(digits)
        return base[:i] + str((int(base[i]) + rng.randint(1, 9)) % 10) + base[i + 1:]
    return base[0].upper() + base[1:]


def _name_pool(config: DedupeFiles.Config) -> int:
    """How many names to draw (400 at least): enough for the most folders and files a problem can have, twice, as a
    file whose path is taken draws one more name (a fresh one, so at most once per file).

    Version 1 drew 400 at every level: the files outgrew them and generation raised at 20 seeds in 50 at level 20.
    Levels 0-8 still draw 400."""
    most = 2 * config.depth + 1 + config.groups[1] * (config.copies[1] + 1) + config.uniques[1] + 3
    return max(400, 2 * most)
