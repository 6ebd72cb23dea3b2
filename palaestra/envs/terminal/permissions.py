"""Set the permission modes of a generated deployment tree to a stated spec, with a sandboxed shell (chmod).

The tree holds ``deploy/`` (``bin/``, ``conf/``, ``secrets/``, ``logs/``, nested from level 2) whose files
start with assorted modes. The prompt lists rules, applied in order (a later rule overrides an earlier one
for a file both name); a file no rule names keeps its mode, and folders keep theirs. The rules grow by
level: files whose names end in ``.sh`` get 755; files under ``secrets/`` (at any depth, hidden ones
included) get 600; from level 1 files under ``conf/`` get 644; from level 2 files under ``bin/`` whose first
line starts with ``#!`` get 750; from level 3 files whose names end in ``.key`` anywhere get 400. Near misses
make a careless command fail: ``.sh.bak`` and ``.shell`` names, a ``secrets.txt`` and a ``not-secrets/``
folder outside ``secrets/``, ``#!`` on a later line, hidden files, names with spaces (from level 3; since
version 2 a hidden file in ``secrets/``, a ``.sh.bak`` file and, with the ``#!`` rule, a ``bin/`` file with
``#!`` on its second line are always there, each at a mode its slip would change); and
``chmod -R`` changes folders too (a folder set to 600 can no longer be entered, and its files are lost).

The episode is judged by the final tree, file by file: the contents unchanged and the mode (the
permission bits) the rules give; the final answer is ``done``. The difficulty is the number of files plus
the files whose mode changes plus twice the rules.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.terminal._trees import PreparedTreeTask, tree_archive
from palaestra.envs.terminal.common import DONE, SHOWN_PATHS, shell_plan, words
from palaestra.verifiers.normalize import read_answer

FOLDER_MODE = 0o755  # every folder's mode, at the start and at the end
START_MODES = (0o644, 0o600, 0o755, 0o700, 0o640, 0o444)  # no group or other write: the sandbox's umask keeps them
RULES = (  # (prompt text, shell command applying it)
    ("every file whose name ends in .sh gets mode 755", "find deploy -type f -name '*.sh' -exec chmod 755 {} +"),
    ("every file under deploy/secrets/ (at any depth) gets mode 600",
     "find deploy/secrets -type f -exec chmod 600 {} +"),
    ("every file under deploy/conf/ (at any depth) gets mode 644", "find deploy/conf -type f -exec chmod 644 {} +"),
    ("every file under deploy/bin/ (at any depth) whose first line starts with #! gets mode 750",
     "find deploy/bin -type f -print0 | while IFS= read -r -d '' f; do [ \"$(head -c 2 \"$f\")\" = '#!' ] && "
     "chmod 750 \"$f\"; done; true"),
    ("every file whose name ends in .key gets mode 400", "find deploy -type f -name '*.key' -exec chmod 400 {} +"),
)


@register
class Permissions(PreparedTreeTask):
    id = "terminal/permissions"
    family = "terminal"
    description = "Set the permission modes of a generated deployment tree's files to a stated list of rules (chmod)."
    tags = ("terminal", "multi-turn", "shell", "files", "permissions", "agentic")
    version = 2
    end_state = True

    @dataclass(frozen=True)
    class Config:
        files: tuple[int, int]
        depth: int
        rules: int  # how many of RULES apply
        budget: int

    presets = (
        Config((6, 9), 0, 2, 5),
        Config((8, 12), 0, 3, 6),
        Config((10, 15), 1, 4, 7),
        Config((13, 19), 1, 5, 8),
        Config((16, 24), 2, 5, 9),
    )
    growth = Growth(limits={"files": 150, "rules": 5, "depth": 5, "budget": 16})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        names = words(rng, 3 * config.files[1] + 2 * config.depth + 8, 2)
        tops = ["bin", "conf", "secrets", "logs", "not-secrets"]
        folders = [[top] for top in tops]
        for _ in range(2 * config.depth):
            folders.append([*rng.choice(folders), names.pop()])
        files: dict[str, str] = {}
        modes: dict[str, int] = {}
        endings = (".sh", ".sh", ".sh.bak", ".shell", ".txt", ".conf", ".key", ".log", "")
        for index in range(rng.randint(*config.files) + 4):
            stem = names.pop()
            if config.rules >= 5 and rng.random() < 0.25:
                stem = f"{stem} {names.pop()}"
            folder = [tops[index - 1]] if 1 <= index <= 3 else rng.choice(folders)  # bin/, conf/, secrets/ hold files
            name = (f".{stem}" if rng.random() < 0.1 else
                    "secrets.txt" if index == 0 else f"{stem}{rng.choice(endings)}")
            shebang = rng.random()
            first = "#!/bin/sh\n" if shebang < 0.4 else "# run me\n#!/bin/sh\n" if shebang < 0.55 else "data\n"
            path = "/".join(["deploy", *folder, name])
            files[path] = f"{first}echo {rng.randint(0, 9999)}\n"
            modes[path] = rng.choice(START_MODES)
        # Planted near misses, one per careless command, each starting at a mode its slip would change (in
        # version 1 they were left to chance: chmod 600 deploy/secrets/* was right in 78% of level 0 and 41% of
        # level 4, a #! on any line in 54% of level 4, a name containing .sh in 16-27%).
        planted = [("secrets", f".{names.pop()}", "data\n", 0o600), ("logs", f"{names.pop()}.sh.bak", "data\n", 0o755)]
        if config.rules >= 4:
            planted.append(("bin", f"{names.pop()}.txt", "# run me\n#!/bin/sh\n", 0o750))
        for top, name, first, slipped in planted:
            path = f"deploy/{top}/{name}"
            files[path] = f"{first}echo {rng.randint(0, 9999)}\n"
            modes[path] = rng.choice([mode for mode in START_MODES if mode != slipped])
        targets = {path: _mode(path, files[path], modes[path], config.rules) for path in files}
        listed = "\n".join(f"{number}. {RULES[rule][0]}" for number, rule in enumerate(range(config.rules), start=1))
        prompt = (
            "Your working directory holds a folder deploy/. Set the permission modes of its files by these rules, "
            "applied in this order (where two rules name the same file, the later one wins):\n"
            f"{listed}\n\nA file that no rule names keeps its mode, folders keep theirs, and every file keeps its "
            "name and contents.\n\n"
            f"{self.done_instruction()}\n\n{self.tools_prompt(config.budget)}"
        )
        data: dict[str, Any] = {"files": files, "modes": modes, "targets": targets, "rules": config.rules,
                                "budget": config.budget}
        return Problem(prompt=prompt, answer=DONE, data=data)

    def initial_archive(self, problem: Problem) -> bytes:
        return tree_archive(problem.data["files"], modes=problem.data["modes"])

    def expected_tree(self, problem: Problem) -> dict[str, bytes]:
        return {path: body.encode() for path, body in problem.data["files"].items()}

    def judge_episode(self, problem: Problem, state: Any, answer: str) -> Verdict:
        if not read_answer(answer, lambda s: True if s.strip().lower() == DONE else None):
            return Verdict.unparsed(f"the final answer of this task is the word {DONE!r}, once the modes are set")
        entries = self.final_entries(state, folders=True)
        files = problem.data["files"]
        missing = sorted(p for p in files if entries.get(p, ("", 0, b""))[0] != "file")
        changed = sorted(p for p in files if p not in missing and entries[p][2] != files[p].encode())
        wrong = sorted(p for p in files if p not in missing and entries[p][1] & 0o777 != problem.data["targets"][p])
        # "Folders keep theirs" (0755, as the tree starts): a chmod -R or a find without -type f that left the
        # files readable but a folder at 700 or 750 passed.
        folders = sorted({"/".join(path.split("/")[:depth]) for path in files for depth in range(1, path.count("/") + 1)})
        moved = sorted(f for f in folders if entries.get(f, ("dir", FOLDER_MODE, b""))[1] & 0o7777 != FOLDER_MODE)
        parts = [f"{label}: {', '.join(paths[:SHOWN_PATHS])}{' and more' if len(paths) > SHOWN_PATHS else ''}"
                 for label, paths in (("missing", missing), ("different contents", changed), ("wrong mode", wrong),
                                      ("folder mode changed", moved))
                 if paths]
        return Verdict.judge(not parts, "; ".join(parts))

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        changing = sum(1 for path in data["files"] if data["targets"][path] != data["modes"][path])
        return len(data["files"]) + changing + 2 * data["rules"]

    def plan(self, problem: Problem) -> list[str]:
        command = " && ".join(RULES[rule][1] for rule in range(problem.data["rules"]))
        return shell_plan([command], DONE)

    def spellings(self, problem: Problem) -> list[str]:
        return ["Done.", "DONE", "**done**"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        return ["not done", "done?!", "chmod"]


def _mode(path: str, body: str, mode: int, rules: int) -> int:
    """The mode the first ``rules`` rules give the file."""
    parts = path.split("/")
    name = parts[-1]
    tests = (name.endswith(".sh"), parts[1] == "secrets", parts[1] == "conf",
             parts[1] == "bin" and body.startswith("#!"), name.endswith(".key"))
    targets = (0o755, 0o600, 0o644, 0o750, 0o400)
    for rule in range(rules):
        if tests[rule]:
            mode = targets[rule]
    return mode
