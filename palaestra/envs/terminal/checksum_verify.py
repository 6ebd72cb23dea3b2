"""Find the files that fail their checksum lists in a generated release tree, with a sandboxed shell.

The tree holds ``dist/<package>/`` folders (nested from level 1). Each package has a checksum list at its
top, ``SHA256SUMS`` (from level 3 some packages have ``MD5SUMS`` instead), in the format ``sha256sum``
writes: ``<hex digest>  <path>`` with the path relative to the package folder (from level 2 some lines use
the binary marker, ``<digest> *<path>``). A listed file *fails* when it is missing or its contents no
longer give the listed digest. Near misses: files that changed by one character or by a trailing newline
(they fail), files that are not listed at all (they never fail, whatever they hold), hidden files that are
listed, and from level 3 names with spaces. Since version 2 every problem has a listed file that is missing
and a listed hidden file that changed (both in one package), and from level 3 a package with ``MD5SUMS``
(the same one): in version 1 they were left to chance, and a check that skipped missing files was right in
about 19% of levels 0-2, one that skipped hidden files in 47-77%, and one that checked only the
``SHA256SUMS`` lists in 18-28% of levels 3-4. ``sha256sum -c``/``md5sum -c`` run in each package folder do it.

The answer is the set of failing paths relative to the working directory (``dist/core/lib/a.txt``), one
per line or separated by commas, in any order; it is judged as a set: every failing path and no other.
Every problem has at least two failing files and listed files that pass. The difficulty is the number of
files plus the number of failing ones plus the traps in play.

Generation speed: about 870 problems/s at level 4 on this 2-core machine. Most of the time goes to
inventing about 290 distinct file and folder names by the shared name generator, which redraws any name
already taken for 4-5 packages of 6-10 files; the checksums themselves are cheap.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.terminal.common import ShellTask, judge_paths, path_list_spellings, shell_plan, words

EXAMPLE = "<answer>\ndist/web/index.html\ndist/web/css/site.css\n</answer>"  # fixed: a made-up tree's paths
EXTENSIONS = ("txt", "js", "css", "json", "so", "md")
ORACLE = (
    "find dist -type f \\( -name SHA256SUMS -o -name MD5SUMS \\) | while IFS= read -r list; do "
    "dir=${list%/*}; tool=sha256sum; [ \"${list##*/}\" = MD5SUMS ] && tool=md5sum; "
    "( cd \"$dir\" && $tool -c --quiet \"${list##*/}\" 2>/dev/null ) | sed -n 's/: FAILED.*$//p' | "
    "sed \"s#^#$dir/#\"; done"
)


@register
class ChecksumVerify(ShellTask):
    id = "terminal/checksum_verify"
    family = "terminal"
    description = "Find the files that fail their packages' checksum lists (sha256sum/md5sum) in a generated tree."
    tags = ("terminal", "multi-turn", "shell", "files", "checksums", "agentic")
    version = 2

    @dataclass(frozen=True)
    class Config:
        packages: tuple[int, int]
        files: tuple[int, int]  # per package
        depth: int
        binary_marker: bool
        md5_and_spaces: bool
        budget: int

    presets = (
        Config((1, 1), (5, 8), 0, False, False, 5),
        Config((2, 2), (4, 7), 1, False, False, 6),
        Config((2, 3), (5, 8), 1, True, False, 7),
        Config((3, 4), (5, 9), 2, True, True, 8),
        Config((4, 5), (6, 10), 2, True, True, 9),
    )
    growth = Growth(limits={"packages": 30, "files": 60, "depth": 5, "budget": 16})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[dict[str, str], list[str]] | None:
            files, failing, listed = _tree(rng, config)
            return (files, failing) if 2 <= len(failing) <= listed - 2 else None  # and two listed files pass

        files, failing = retry(draw, what="a tree with a few failing files", attempts=50)
        prompt = (
            "Your working directory holds a folder dist/ with one folder per package. Each package folder has a "
            "checksum list at its top, named SHA256SUMS or MD5SUMS, in the format sha256sum and md5sum write "
            "(<digest>  <path>, or <digest> *<path>), where each path is relative to that package folder. A "
            "listed file fails its check when it is missing or its contents do not give the listed digest. "
            "Find every listed file that fails. Files that no list names are not checked.\n\n"
            "Answer with the paths of the failing files relative to the working directory, one per line, in any "
            f"order; for example, for a different tree:\n{EXAMPLE}\n\n{self.tools_prompt(config.budget)}"
        )
        data: dict[str, Any] = {"files": files, "failing": failing, "spaces": config.md5_and_spaces,
                                "budget": config.budget}
        return Problem(prompt=prompt, answer="\n".join(failing), data=data)

    def judge(self, problem: Problem, answer: str) -> Verdict:
        return judge_paths(answer, problem.data["failing"], "failing file(s)", "do not fail", tree=problem.data["files"])

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return len(data["files"]) + len(data["failing"]) + 4 * data["spaces"]

    def plan(self, problem: Problem) -> list[str]:
        return shell_plan([ORACLE], problem.answer or "")

    def spellings(self, problem: Problem) -> list[str]:
        return path_list_spellings(problem.data["failing"], tree=problem.data["files"])

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        failing = problem.data["failing"]
        passing = sorted(p for p in problem.data["files"] if p not in failing and not p.endswith("SUMS"))
        return ["\n".join(failing[1:]), "\n".join([*failing, rng.choice(passing)]),
                "\n".join(p.split("/", 2)[-1] for p in failing), ""]


def _tree(rng: random.Random, config: ChecksumVerify.Config) -> tuple[dict[str, str], list[str], int]:
    """The tree, its failing files and how many files the lists name."""
    names = words(rng, 4 * config.packages[1] * (config.files[1] + config.depth + 2) + 8, 2)
    files: dict[str, str] = {}
    failing: list[str] = []
    listed = 0
    for number in range(rng.randint(*config.packages)):
        package = f"dist/{names.pop()}"
        folders = [""]
        for _ in range(config.depth * 2):
            folders.append(f"{rng.choice(folders)}{names.pop()}/")
        md5 = config.md5_and_spaces and (number == 0 or rng.random() < 0.4)
        digest = (lambda b: hashlib.md5(b).hexdigest()) if md5 else (lambda b: hashlib.sha256(b).hexdigest())
        lines = []
        for index in range(rng.randint(*config.files)):
            stem = names.pop()
            if config.md5_and_spaces and rng.random() < 0.25:
                stem = f"{stem} {names.pop()}"
            planted = number == 0 and index < 2  # the first package's first two files: see the module docstring
            name = f".{stem}" if (planted and index == 1) or rng.random() < 0.1 else f"{stem}.{rng.choice(EXTENSIONS)}"
            relative = f"{rng.choice(folders)}{name}"
            body = "".join(f"{rng.choice(('var', 'let', 'key', 'row'))} {rng.randint(0, 9999)}\n"
                           for _ in range(rng.randint(1, 8)))
            draw = rng.random()
            if planted:  # listed but missing; a hidden file with one character changed
                draw = 0.15 if index == 0 else 0.35
            listed_body = body
            now: str | None = body
            if draw < 0.12:  # not listed at all: never fails, even if it "looks" changed
                files[f"{package}/{relative}"] = body
                continue
            if draw < 0.22:
                now = None  # listed but missing
            elif draw < 0.3:
                now = body[:-1]  # lost its final newline
            elif draw < 0.38:
                position = rng.randrange(len(body) - 1)
                now = body[:position] + ("x" if body[position] != "x" else "y") + body[position + 1:]
            if now is not None:
                files[f"{package}/{relative}"] = now
            if now != listed_body:
                failing.append(f"{package}/{relative}")
            marker = "*" if config.binary_marker and rng.random() < 0.3 else " "
            lines.append(f"{digest(listed_body.encode())} {marker}{relative}")
            listed += 1
        rng.shuffle(lines)
        files[f"{package}/{'MD5SUMS' if md5 else 'SHA256SUMS'}"] = "".join(line + "\n" for line in lines)
    return files, sorted(failing), listed
