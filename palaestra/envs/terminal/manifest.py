"""Write a MANIFEST of a generated data tree (each file's line count and path, sorted), with a sandboxed shell.

The tree holds ``data/`` (nested folders) with text files. The task: write ``MANIFEST`` in the working
directory with one line per file under ``data/`` (at any depth), ``<lines> <path>``, where ``<path>`` is
relative to ``data/`` and ``<lines>`` is the number of newline characters in the file (what ``wc -l``
counts), sorted by path in byte order (``LC_ALL=C sort``); files whose names start with a dot and files
under any folder named ``tmp`` are left out. The traps grow by level: files without a final newline (their
last line is not counted) and empty files; hidden files and ``tmp/`` folders at any depth, next to
look-alikes that count (``tmp.txt``, ``tmpl/``); from level 3 names with spaces and upper-case letters
(byte order puts ``B`` before ``a``). Every trap in play decides a line of every problem: a hidden file and
a file under ``tmp/``, ``tmpl/`` and ``tmp.txt``, a file without its final newline and, with odd names, a
case-blind sort that orders the lines otherwise (v1 drew them by chance: skipping the hidden or the tmp/ rule
passed 30-33% at level 0, excluding ``tmp*`` 25-35% at levels 0-4, a case-blind sort 15% at level 3; v2: 0%).
The data files must stay as they were; other new files (scratch
files) are allowed.

``MANIFEST`` is judged line by line against the one the rule determines (unique: the order is fixed);
Windows line endings and a missing final newline are accepted. The final answer is ``done``. The
difficulty is the number of files plus the excluded ones plus the traps in play.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, register, retry
from palaestra.core.task import Growth
from palaestra.envs.terminal.common import DONE, ShellTask, shell_plan, words

MANIFEST = "MANIFEST"
EXTENSIONS = ("txt", "csv", "log", "md")
ORACLE = (
    "cd data && find . -type f ! -name '.*' ! -path '*/tmp/*' -print0 | LC_ALL=C sort -z | "
    "while IFS= read -r -d '' f; do printf '%s %s\\n' \"$(wc -l < \"$f\")\" \"${f#./}\"; done > ../" + MANIFEST
)


@register
class Manifest(ShellTask):
    id = "terminal/manifest"
    family = "terminal"
    description = "Write a sorted manifest of a generated data tree (line counts and paths, with exclusions)."
    tags = ("terminal", "multi-turn", "shell", "files", "report", "agentic")
    end_state = True
    new_files_allowed = True
    version = 2  # v2: every trap in every problem (hidden, tmp/, tmpl/, tmp.txt, a last line unended, case order)

    @dataclass(frozen=True)
    class Config:
        files: tuple[int, int]
        depth: int
        excluded: tuple[int, int]  # hidden files and files under tmp/ folders
        odd_names: bool  # spaces and upper-case letters
        budget: int

    presets = (
        Config((4, 7), 1, (2, 3), False, 5),
        Config((7, 11), 1, (2, 3), False, 6),
        Config((10, 15), 2, (2, 4), False, 7),
        Config((14, 20), 2, (3, 5), True, 8),
        Config((18, 26), 3, (4, 6), True, 9),
    )
    growth = Growth(limits={"files": 200, "depth": 6, "excluded": 30, "budget": 16})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[dict[str, str], int] | None:
            names = words(rng, 2 * config.files[1] + config.excluded[1] + 2 * config.depth + 14, 2)
            folders = [["data"]]
            for _ in range(config.depth * 2):
                folders.append([*rng.choice(folders), names.pop()])
            look_alike = [*rng.choice(folders), "tmpl"]  # a look-alike of tmp/ that counts

            def file_name() -> str:
                stem = names.pop()
                if config.odd_names and rng.random() < 0.3:
                    stem = rng.choice((f"{stem} {names.pop()}", stem.title(), f"{stem.upper()} copy"))
                return f"{stem}.{rng.choice(EXTENSIONS)}"

            files: dict[str, str] = {}
            for _ in range(rng.randint(*config.files)):
                files["/".join([*rng.choice(folders), file_name()])] = _body(rng)
            files["/".join([*look_alike, file_name()])] = _body(rng)
            files["/".join([*rng.choice(folders), "tmp.txt"])] = _body(rng)  # a file named tmp.txt counts
            folders.append(look_alike)
            excluded = 0
            for index in range(rng.randint(*config.excluded)):
                folder = rng.choice(folders)
                if (index if index < 2 else rng.randrange(2)) == 0:  # a hidden file first, then one under tmp/
                    path = "/".join([*folder, f".{rng.choice(('keep', 'env', names.pop()))}"])
                else:
                    path = "/".join([*folder, "tmp", file_name()])
                if path not in files:
                    files[path] = _body(rng)
                    excluded += 1
            counted = [p for p in files if _counted(p)]
            if not any(files[p] and not files[p].endswith("\n") for p in counted):
                return None  # every file ends its last line: counting lines, not newlines, would pass
            paths = sorted(counted, key=lambda p: p.encode())
            if config.odd_names and paths == sorted(counted, key=lambda p: (p.lower(), p.encode())):
                return None  # the byte order is the case-blind order: sort -f would pass
            return files, excluded

        files, excluded = retry(draw, what="a data tree where every trap decides a line", attempts=100)
        counted = sorted((p for p in files if _counted(p)), key=lambda p: p.encode())
        manifest = "".join(f"{files[p].count(chr(10))} {p.removeprefix('data/')}\n" for p in counted)
        prompt = (
            f"Your working directory holds a folder data/ (with subfolders). Write a file {MANIFEST} in the working "
            "directory with one line per file under data/ (at any depth), written as <lines> <path>: <path> is the "
            "file's path relative to data/ (like reports/a.txt), and <lines> is the number of newline characters "
            "in the file (what wc -l counts). Sort the lines by path in byte order (the order of LC_ALL=C sort). "
            "Leave out files whose names start with a dot and files under any folder named tmp. Do not change "
            "the files under data/.\n\n"
            f"{self.done_instruction()}\n\n{self.tools_prompt(config.budget)}"
        )
        data: dict[str, Any] = {"files": files, "manifest": manifest, "excluded": excluded,
                                "odd_names": config.odd_names, "budget": config.budget}
        return Problem(prompt=prompt, answer=DONE, data=data)

    def expected_tree(self, problem: Problem) -> dict[str, bytes]:
        tree = {path: body.encode() for path, body in problem.data["files"].items()}
        tree[MANIFEST] = problem.data["manifest"].encode()
        return tree

    def final_files(self, problem: Problem, state: Any) -> dict[str, bytes]:
        """The tree, with the manifest's line endings made canonical (CRLF or LF, final newline or not)."""
        files = super().final_files(problem, state)
        if MANIFEST in files:
            lines = files[MANIFEST].replace(b"\r\n", b"\n").split(b"\n")
            while lines and lines[-1] == b"":
                lines.pop()
            files[MANIFEST] = b"\n".join(lines) + b"\n"
        return files

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        unterminated = sum(1 for body in data["files"].values() if body and not body.endswith("\n"))
        return len(data["files"]) + data["excluded"] + unterminated / 2 + 4 * data["odd_names"]

    def plan(self, problem: Problem) -> list[str]:
        return shell_plan([ORACLE], DONE)

    def spellings(self, problem: Problem) -> list[str]:
        return ["Done.", "DONE", "**done**"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        return ["not done", MANIFEST, "done!?"]


def _counted(path: str) -> bool:
    parts = path.split("/")
    return not parts[-1].startswith(".") and "tmp" not in parts[:-1]


def _body(rng: random.Random) -> str:
    """Text with a newline count that ``wc -l`` gives: some files lack the final newline, some are empty."""
    draw = rng.random()
    if draw < 0.1:
        return ""
    lines = [f"{rng.choice(('row', 'entry', 'item'))} {rng.randint(0, 99_999)}" for _ in range(rng.randint(1, 40))]
    return "\n".join(lines) + ("" if draw < 0.35 else "\n")
