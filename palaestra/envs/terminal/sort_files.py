"""Sort the files of a generated inbox into folders by a stated rule, with a sandboxed shell.

The tree holds ``inbox/`` (flat at level 0, nested up to three directories deep above it) with text files
whose names are unique. The prompt states one rule that gives every file its folder:

- ``extension``: ``sorted/<its extension, lower-cased>/<name>``; a file without an extension goes to
  ``sorted/none/``;
- ``date``: names carry a date (``<word>_<YYYY-MM-DD>.<ext>``): ``archive/<YYYY>/<MM>/<name>``;
- ``status``: the file's first line is ``status: <word>``: ``<word>/<name>``; a file whose first line is
  not a status line goes to ``unsorted/``.

Every problem holds each near miss of its rule at least once (a name without a dot and an extension in upper
or mixed case; a status line on the second line, ``Status:``, ``status`` without the colon and no status line),
so skipping a clause of the rule fails (v1 drew them by chance: ignoring the dotless case passed 38% at level 0,
each status near miss 5-30% at levels 2-4; v2: 0%). The files keep their names and contents, nothing else changes, and ``inbox/`` ends up with no files. The
episode is judged by the final tree, path by path and byte by byte (the rule fixes every path, so the
expected tree is unique); the final answer is ``done``. The prompt never lists the files: the model
explores with ``ls``/``find``, reads first lines with ``head``, and moves with ``mkdir -p``/``mv``. The
difficulty is the number of files plus the rule's weight plus the inbox's depth; levels grow the files.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, register
from palaestra.core.task import Growth
from palaestra.envs.terminal.common import DONE, ShellTask, batched, quote, shell_plan, words

EXTENSIONS = ("txt", "md", "csv", "log", "json", "cfg", "TXT", "Md", "CSV", "LOG")
STATUSES = ("done", "todo", "blocked", "review")
RULE_WEIGHT = {"extension": 0, "date": 2, "status": 4}
TRAPS = {"extension": 2, "date": 0, "status": 4}  # the near misses each problem has at least one of (see _file)
RULE_TEXT = {
    "extension": ("Move every file under inbox/ (at any depth) to sorted/<ext>/<name>, where <ext> is the file's "
                  "extension (the text after the last dot of its name) in lower case; a file whose name has no "
                  "dot goes to sorted/none/<name>."),
    "date": ("Every file under inbox/ (at any depth) is named <word>_<YYYY-MM-DD>.<ext>. Move each to "
             "archive/<YYYY>/<MM>/<name> (the year and month of the date in its name)."),
    "status": ("Move every file under inbox/ (at any depth) by its first line: a file whose first line is exactly "
               "'status: <word>' goes to <word>/<name>; any other file goes to unsorted/<name>."),
}


@register
class SortFiles(ShellTask):
    id = "terminal/sort_files"
    family = "terminal"
    description = "Sort the files of a generated inbox into folders by a stated rule, using a sandboxed shell."
    tags = ("terminal", "multi-turn", "shell", "files", "agentic")
    end_state = True
    version = 2  # v2: every near miss of the rule (no dot, upper-case extension, each kind of false status line) in play

    @dataclass(frozen=True)
    class Config:
        files: tuple[int, int]
        depth: int  # directory levels inside inbox/
        rules: tuple[str, ...]
        budget: int

    presets = (
        Config((5, 8), 0, ("extension",), 6),
        Config((8, 14), 1, ("extension", "date"), 8),
        Config((12, 20), 2, ("date", "status"), 10),
        Config((18, 28), 2, ("status",), 12),
        Config((25, 36), 3, ("status", "date"), 14),
    )
    growth = Growth(limits={"files": 150, "depth": 5, "budget": 30})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        rule = rng.choice(config.rules)
        count = rng.randint(*config.files)
        names = words(rng, count + 2 * config.depth + 2, 2)
        folders = [["inbox"]]
        for level in range(config.depth):
            folders += [[*rng.choice(folders), names.pop()] for _ in range(2)]
        files: dict[str, str] = {}
        targets: dict[str, str] = {}
        traps = dict(zip(rng.sample(range(count), TRAPS[rule]), range(TRAPS[rule])))  # file index -> its trap
        for index in range(count):
            stem = names.pop()
            name, body, target = _file(rng, rule, stem, index, traps.get(index))
            path = "/".join([*rng.choice(folders), name])
            files[path], targets[path] = body, target
        prompt = (
            f"Your working directory holds a folder inbox/ with {_files_phrase(count)}. {RULE_TEXT[rule]} "
            "Keep every file's name and contents, create the folders you need, and change nothing else.\n\n"
            f"{self.done_instruction()}\n\n{self.tools_prompt(config.budget)}"
        )
        data = {"files": files, "targets": targets, "rule": rule, "depth": config.depth, "budget": config.budget}
        return Problem(prompt=prompt, answer=DONE, data=data)

    def expected_tree(self, problem: Problem) -> dict[str, bytes]:
        files, targets = problem.data["files"], problem.data["targets"]
        return {targets[path]: body.encode() for path, body in files.items()}

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return len(data["files"]) + RULE_WEIGHT[data["rule"]] + 2 * data["depth"]

    def plan(self, problem: Problem) -> list[str]:
        targets = problem.data["targets"]
        folders = sorted({target.rsplit("/", 1)[0] for target in targets.values()})
        moves = [f"mv {quote(path)} {quote(target)}" for path, target in sorted(targets.items())]
        return shell_plan(batched(f"mkdir -p {' '.join(quote(f) for f in folders)}", moves, " && "), DONE)

    def spellings(self, problem: Problem) -> list[str]:
        return ["Done", "DONE.", "**done**"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        return ["not done", "done, except one file", "finished"]


def _file(rng: random.Random, rule: str, stem: str, index: int, trap: int | None) -> tuple[str, str, str]:
    """A file's name, contents and target path under ``rule``; ``trap`` (an index into the rule's traps) makes it
    the given near miss, else near misses come by chance."""
    lines = [f"{stem} note {index}", f"value={rng.randint(1, 999)}"]
    if rule == "extension":
        if trap is None:
            extension = rng.choice(EXTENSIONS) if rng.random() < 0.85 else None
        else:  # no dot, or an extension in upper or mixed case
            extension = None if trap == 0 else rng.choice(EXTENSIONS[6:])
        name = stem if extension is None else f"{stem}.{extension}"
        return name, "\n".join(lines) + "\n", f"sorted/{(extension or 'none').lower()}/{name}"
    if rule == "date":
        year, month, day = rng.randint(2019, 2025), rng.randint(1, 12), rng.randint(1, 28)
        name = f"{stem}_{year}-{month:02d}-{day:02d}.{rng.choice(EXTENSIONS[:6])}"
        return name, "\n".join(lines) + "\n", f"archive/{year}/{month:02d}/{name}"
    name = f"{stem}.{rng.choice(EXTENSIONS[:6])}"
    if trap is None and rng.random() < 0.75:
        status = rng.choice(STATUSES)
        return name, "\n".join([f"status: {status}", *lines]) + "\n", f"{status}/{name}"
    # Near misses stay unsorted: a status line that is not the first line, or not exactly 'status: <word>'.
    decoys = [f"{lines[0]}\nstatus: {rng.choice(STATUSES)}", f"Status: {rng.choice(STATUSES)}",
              f"status {rng.choice(STATUSES)}", lines[0]]
    decoy = decoys[trap] if trap is not None else rng.choice(decoys)
    return name, "\n".join([decoy, *lines[1:]]) + "\n", f"unsorted/{name}"


def _files_phrase(count: int) -> str:
    return "some files" if count < 10 else "a few dozen files" if count < 40 else "many files"
