"""Build a release archive holding exactly the stated files of a generated project, with a sandboxed shell (tar).

The tree holds ``project/`` (source, docs, tests, nested folders) with files a release leaves out. The task:
create ``release.tar.gz`` in the working directory, a gzipped tar whose regular-file members are exactly the
files under ``project/`` that are not excluded, each with its contents, named ``<path>`` relative to
``project/`` (from level 2 ``<prefix>/<path>``, a stated folder prefix such as ``acme-1.4.2``). Excluded,
growing by level: everything under ``build/``; from level 1 files ending in ``.pyc``; from level 2 hidden
files and everything under hidden folders (``.git/``); from level 3 files ending in ``.tmp``, and names with
spaces appear. Look-alikes that stay: ``build.py``, ``rebuild/``, ``notes.pyc.txt``, ``tmp.md``. Folder
members may be present or not; a leading ``./`` on member names is accepted; the project files must stay
as they were (other new files are allowed).

Judged on the final tree: the project's files unchanged, and the archive's members (read with bounded
reads: a member named twice, an unreadable archive, one not gzip-compressed, or a missing one fail) compared name by name and byte by
byte with the expected ones (the rule fixes them, so they are unique). The final answer is ``done``. The
difficulty is the number of files plus the excluded ones plus twice the level's rules.

Version 2: every rule in play excludes at least one file (for the hidden rule, both a hidden file and a file
under ``.git/``), and ``tmp.md``, ``notes.pyc.txt`` and a file under ``rebuild/`` always stay (session-30 red
team: in version 1 the excluded files were 2-4 draws of a random rule, so an archive that skipped the ``.pyc``
rule was right in 31-42% of levels 2-4, one that skipped hidden folders (``! -name '.*'`` alone) in 63-66%, one
that skipped ``.tmp`` in 40-43% of levels 3-4, and excluding every name holding ``tmp`` in all of them).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.terminal._trees import archive_members
from palaestra.envs.terminal.common import DONE, ShellTask, shell_plan, tree_difference, words
from palaestra.verifiers.normalize import read_answer

ARCHIVE = "release.tar.gz"
GZIP_MAGIC = b"\x1f\x8b"
TOP = ("src", "docs", "tests", "rebuild")
EXTENSIONS = ("py", "md", "txt", "json", "cfg")


@register
class ArchiveBuild(ShellTask):
    id = "terminal/archive_build"
    family = "terminal"
    description = "Build a release tar.gz holding exactly the non-excluded files of a generated project, with a shell."
    tags = ("terminal", "multi-turn", "shell", "files", "archive", "agentic")
    version = 2
    end_state = True
    new_files_allowed = True

    @dataclass(frozen=True)
    class Config:
        files: tuple[int, int]
        depth: int
        rules: int  # 1..4: build/, .pyc, hidden (and the prefix), .tmp and spaces
        budget: int

    presets = (
        Config((5, 8), 1, 1, 5),
        Config((8, 12), 1, 2, 6),
        Config((10, 15), 2, 3, 7),
        Config((13, 19), 2, 4, 8),
        Config((16, 24), 3, 4, 9),
    )
    growth = Growth(limits={"files": 150, "rules": 4, "depth": 5, "budget": 16})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        rules = config.rules
        names = words(rng, 3 * config.files[1] + 2 * config.depth + 8, 2)
        folders = [[top] for top in TOP]
        for _ in range(2 * config.depth):
            folders.append([*rng.choice(folders), names.pop()])
        excluded_folders = [["build"], ["build", names.pop()]] + ([[".git"], [".git", "objects"]] if rules >= 3 else [])
        files: dict[str, str] = {}

        def add(folder: list[str], name: str) -> None:
            files["/".join(["project", *folder, name])] = f"{name} {rng.randint(0, 99_999)}\n" * rng.randint(1, 4)

        for _ in range(rng.randint(*config.files)):
            stem = names.pop()
            if rules >= 4 and rng.random() < 0.25:
                stem = f"{stem} {names.pop()}"
            add(rng.choice(folders), f"{stem}.{rng.choice(EXTENSIONS)}")
        add([], "build.py")
        add(["rebuild"], f"{names.pop()}.{rng.choice(EXTENSIONS)}")  # under rebuild/: stays
        add(rng.choice(folders), "tmp.md")
        if rules >= 2:
            add(rng.choice(folders), "notes.pyc.txt")
        # Excluded: one file for each rule in play (for hidden ones, a hidden file and a file under a hidden
        # folder), then up to two more of any rule in play.
        kinds = [0, 1, 2, 3, 4][: rules + (rules >= 3)]
        kinds += [rng.choice(kinds) for _ in range(rng.randint(0, 2))]
        for kind in kinds:
            folder, name = rng.choice(folders), f"{names.pop()}.{rng.choice(EXTENSIONS)}"
            if kind == 0:
                folder = rng.choice(excluded_folders[:2])
            elif kind == 1:
                name = f"{name.rsplit('.', 1)[0]}.pyc"
            elif kind == 2:
                folder = rng.choice(excluded_folders[2:])
            elif kind == 3:
                name = f".{name}"
            else:
                name = f"{name}.tmp"
            add(folder, name)
        add(["build"], "main.o")
        prefix = f"{names.pop()}-{rng.randint(0, 3)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}" if rules >= 3 else ""
        members = {_member(path, prefix): body for path, body in files.items() if _included(path, rules)}
        excluded = ["everything under project/build/"]
        if rules >= 2:
            excluded.append("files whose names end in .pyc")
        if rules >= 3:
            excluded.append("hidden files (names starting with a dot) and everything under hidden folders")
        if rules >= 4:
            excluded.append("files whose names end in .tmp")
        naming = (f"{prefix}/<path>, where <path> is the file's path relative to project/ (so project/src/a.py is "
                  f"{prefix}/src/a.py)" if prefix else
                  "by its path relative to project/ (so project/src/a.py is src/a.py)")
        prompt = (
            f"Your working directory holds a folder project/. Create {ARCHIVE} in the working directory: a "
            "gzip-compressed tar archive holding every file under project/ (at any depth) except "
            + "; ".join(excluded) + f". Name each member {naming}. The archive holds no other files. Do not "
            "change the files under project/.\n\n"
            f"{self.done_instruction()}\n\n{self.tools_prompt(config.budget)}"
        )
        data: dict[str, Any] = {"files": files, "members": sorted(members), "prefix": prefix, "rules": rules,
                                "budget": config.budget}
        return Problem(prompt=prompt, answer=DONE, data=data)

    def expected_tree(self, problem: Problem) -> dict[str, bytes]:
        return {path: body.encode() for path, body in problem.data["files"].items()}

    def expected_members(self, problem: Problem) -> dict[str, bytes]:
        data = problem.data
        return {_member(path, data["prefix"]): body.encode() for path, body in data["files"].items()
                if _included(path, data["rules"])}

    def judge_episode(self, problem: Problem, state: Mapping[str, Any], answer: str) -> Verdict:
        if not read_answer(answer, lambda s: True if s.strip().lower() == DONE else None):
            return Verdict.unparsed(f"the final answer of this task is the word {DONE!r}, once the archive is made")
        files = self.final_files(problem, state)
        difference = tree_difference(files, self.expected_tree(problem), allow_new=True)
        if difference is not None:
            return Verdict.wrong(f"the project changed: {difference}")
        if ARCHIVE not in files:
            return Verdict.wrong(f"no {ARCHIVE} in the working directory")
        if not files[ARCHIVE].startswith(GZIP_MAGIC):  # the prompt asks for gzip; tar reads plain, xz, bzip2 alike
            return Verdict.wrong(f"{ARCHIVE} is not gzip-compressed")
        members = archive_members(files[ARCHIVE])
        if isinstance(members, str):
            return Verdict.wrong(f"{ARCHIVE}: {members}")
        difference = tree_difference(members, self.expected_members(problem))
        if difference is not None:
            return Verdict.wrong(f"{ARCHIVE} members {difference}")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return len(data["files"]) + len(data["files"]) - len(data["members"]) + 2 * data["rules"]

    def plan(self, problem: Problem) -> list[str]:
        data = problem.data
        tests = ["! -path './build/*'"] + (["! -name '*.pyc'"] if data["rules"] >= 2 else []) \
            + (["! -path '*/.*'"] if data["rules"] >= 3 else []) + (["! -name '*.tmp'"] if data["rules"] >= 4 else [])
        transform = f" --transform 's#^#{data['prefix']}/#'" if data["prefix"] else ""
        command = (f"cd project && find . -type f {' '.join(tests)} | sed 's#^\\./##' | "
                   f"tar -czf ../{ARCHIVE}{transform} -T - && cd ..")
        return shell_plan([command], DONE)

    def spellings(self, problem: Problem) -> list[str]:
        return ["Done.", "DONE", "**done**"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        return ["not done", "done?!", ARCHIVE]


def _included(path: str, rules: int) -> bool:
    parts = path.split("/")[1:]
    name = parts[-1]
    return not (parts[0] == "build" or (rules >= 2 and name.endswith(".pyc"))
                or (rules >= 3 and any(part.startswith(".") for part in parts))
                or (rules >= 4 and name.endswith(".tmp")))


def _member(path: str, prefix: str) -> str:
    relative = path.split("/", 1)[1]
    return f"{prefix}/{relative}" if prefix else relative

