"""Normalise the line endings (and byte-order marks, trailing blanks) of generated text files, with a shell.

The tree holds ``docs/`` (nested from level 1) with text files written on several systems, among files that
must not change. The task: in every file whose name ends in ``.txt``, ``.md`` or ``.csv`` (at any depth,
hidden files included), apply the level's steps, in this order: remove a UTF-8 byte-order mark at the start
(from level 2); turn every CRLF into LF; turn every remaining lone CR into LF (from level 3); remove spaces
and tabs at the end of each line (from level 4); and end a non-empty file with a newline if it lacks one
(from level 1). Files with other names (``.bat`` scripts that must keep CRLF, ``.dat`` data, ``.txt.orig``)
stay byte for byte as they are; empty files stay empty. Near misses: files mixing both endings, names with
spaces (from level 3), and files already clean (never all of them: a tree with nothing to change paid
"done" with no command, 7% of level 0). ``sed -i`` over a ``find`` does it.

Version 3 (session-30 red team): every problem has a hidden ``.txt`` file, a ``.md`` and a ``.csv`` file that hold
CRLF endings (they change), and a ``.bat`` script with CRLF endings (it must not); in version 2 names were left to
chance, and skipping hidden files was right in 77% of level 0 (21-63% of levels 1-4), skipping one of the three
extensions in 31-38% of level 0.

The episode is judged by the final tree, path by path and byte by byte (the steps fix every byte, so the
expected tree is unique); the final answer is ``done``. The difficulty is the number of files plus the
files to change plus twice the level's steps.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, register, retry
from palaestra.core.task import Growth
from palaestra.envs.terminal.common import DONE, ShellTask, shell_plan, words

BOM = "\ufeff"
TEXT = (".txt", ".md", ".csv")
STEPS = (  # (first level, the prompt's words)
    (2, "remove a UTF-8 byte-order mark (the bytes EF BB BF) at the very start of the file"),
    (0, "turn every CRLF line ending into LF"),
    (3, "turn every remaining lone CR (a carriage return not followed by a newline) into LF"),
    (4, "remove spaces and tabs at the end of every line"),
    (1, "if the file is not empty and does not end with a newline, add one at the end"),
)
SED = {0: "-e '1s/^\\xEF\\xBB\\xBF//'", 1: "-e 's/\\r$//'", 2: "-e 's/\\r/\\n/g'", 3: "", 4: ""}


@register
class NormalizeText(ShellTask):
    id = "terminal/normalize_text"
    family = "terminal"
    description = "Normalise line endings, byte-order marks and trailing blanks of generated text files with a shell."
    version = 3
    tags = ("terminal", "multi-turn", "shell", "files", "text", "agentic")
    end_state = True

    @dataclass(frozen=True)
    class Config:
        files: tuple[int, int]
        depth: int
        steps: int  # how many of STEPS apply: those whose first level is below it
        budget: int

    presets = (
        Config((5, 8), 0, 1, 5),
        Config((7, 11), 1, 2, 6),
        Config((9, 14), 1, 3, 7),
        Config((12, 18), 2, 4, 8),
        Config((15, 22), 2, 5, 9),
    )
    growth = Growth(limits={"files": 150, "steps": 5, "depth": 5, "budget": 16})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        return retry(lambda: self._draw(rng, config), what="a tree with a file to change", attempts=20)

    def _draw(self, rng: random.Random, config: Config) -> Problem | None:
        steps = [index for index, (first, _) in enumerate(STEPS) if first < config.steps]
        names = words(rng, 2 * config.files[1] + 2 * config.depth + 4, 2)
        folders = ["docs/"]
        for _ in range(2 * config.depth):
            folders.append(f"{rng.choice(folders)}{names.pop()}/")
        files: dict[str, str] = {}
        # The first four files hold CRLF endings (so they change or must not): a hidden .txt file, a .md and a
        # .csv file (each name the rule covers), and a .bat script that keeps its endings.
        planted = ["." + "{}.txt", "{}.md", "{}.csv", "{}.bat"]
        for index in range(rng.randint(*config.files)):
            stem = names.pop()
            if config.steps >= 4 and rng.random() < 0.25:
                stem = f"{stem} {names.pop()}"
            draw = rng.random()
            if index < len(planted):
                files[f"{rng.choice(folders)}{planted[index].format(stem)}"] = _crlf_body(rng, steps)
                continue
            name = (f".{stem}.txt" if draw < 0.08 else f"{stem}.bat" if draw < 0.18 else f"{stem}.dat" if draw < 0.24
                    else f"{stem}.txt.orig" if draw < 0.3 else f"{stem}{rng.choice(TEXT)}")
            files[f"{rng.choice(folders)}{name}"] = _body(rng, steps)
        targets = {path: _normalised(body, steps) if path.endswith(TEXT) else body for path, body in files.items()}
        if targets == files:  # every file already clean: "done" with no command would pass
            return None
        listed = "\n".join(f"{number}. {STEPS[step][1]}" for number, step in enumerate(steps, start=1))
        prompt = (
            "Your working directory holds a folder docs/ with text files written on several systems. In every "
            "file under docs/ (at any depth, hidden files included) whose name ends in .txt, .md or .csv, apply "
            f"these steps in this order:\n{listed}\n\nEvery other file stays byte for byte as it is, and so does "
            "an empty file. Change nothing else.\n\n"
            f"{self.done_instruction()}\n\n{self.tools_prompt(config.budget)}"
        )
        data: dict[str, Any] = {"files": files, "targets": targets, "steps": steps, "budget": config.budget}
        return Problem(prompt=prompt, answer=DONE, data=data)

    def expected_tree(self, problem: Problem) -> dict[str, bytes]:
        return {path: body.encode() for path, body in problem.data["targets"].items()}

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        changed = sum(1 for path, body in data["files"].items() if data["targets"][path] != body)
        return len(data["files"]) + changed + 2 * len(data["steps"])

    def plan(self, problem: Problem) -> list[str]:
        steps = problem.data["steps"]
        first = " ".join(SED[step] for step in steps if SED[step])
        second = " ".join(option for step, option in ((3, "-e 's/[ \\t]*$//'"), (4, "-e '$a\\'")) if step in steps)
        find = "find docs -type f \\( -name '*.txt' -o -name '*.md' -o -name '*.csv' \\) -exec sed -i"
        command = f"{find} {first} {{}} +" + (f" && {find} {second} {{}} +" if second else "")
        return shell_plan([command], DONE)

    def spellings(self, problem: Problem) -> list[str]:
        return ["Done.", "DONE", "**done**"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        return ["not done", "done?!", "normalised"]


def _body(rng: random.Random, steps: list[int]) -> str:
    """Lines with the endings of one system or a mix, and the level's blemishes."""
    if rng.random() < 0.08:
        return ""
    lines = [f"{rng.choice(('id', 'name', 'note', 'total'))},{rng.randint(0, 9999)}" for _ in range(rng.randint(1, 7))]
    if 3 in steps:
        lines = [line + rng.choice(("", "", " ", "\t", "  ")) for line in lines]
    style = rng.choice(("lf", "crlf", "mixed") + (("cr",) if 2 in steps else ()))
    text = ""
    for line in lines:
        ending = {"lf": "\n", "crlf": "\r\n", "cr": "\r"}.get(style) or rng.choice(("\n", "\r\n"))
        text += line + ending
    if 4 in steps and rng.random() < 0.4:
        text = text.rstrip("\r\n")
    if 0 in steps and rng.random() < 0.3:
        text = BOM + text
    return text


def _crlf_body(rng: random.Random, steps: list[int]) -> str:
    """A body with at least one CRLF ending (a few draws of :func:`_body`, else a fixed line)."""
    for _ in range(20):
        body = _body(rng, steps)
        if "\r\n" in body:
            return body
    return "note,1\r\n"


def _normalised(body: str, steps: list[int]) -> str:
    if 0 in steps:
        body = body.removeprefix(BOM)
    body = body.replace("\r\n", "\n")
    if 2 in steps:
        body = body.replace("\r", "\n")
    if 3 in steps:
        body = "\n".join(line.rstrip(" \t") for line in body.split("\n"))
    if 4 in steps and body and not body.endswith("\n"):
        body += "\n"
    return body
