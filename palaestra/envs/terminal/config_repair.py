"""Repair a generated YAML-like config by the messages of a validator's log, with a sandboxed shell (sed, awk).

The tree holds ``config/app.yaml`` (sections of ``key: value`` lines, two-space indented, comments), the
validator's messages about it in ``validate.log``, and from level 1 a backup ``config/app.yaml.bak`` that
must stay as it is. Each error message names a line of the file as it is now and says exactly what to do:
replace a value (``use <value>``), rename a key (keeping its value), from level 3 delete a line (a
duplicate key), and from level 4 insert a line after it (a missing key). The task: apply every error,
nothing else. The traps: the same key in other sections (only the named line changes), from level 2
``warning:`` lines that are not to be applied, and from level 3 deletions and insertions that shift the
lines below them, so that applying the messages one at a time with the log's numbers edits the wrong lines
(one ``sed`` pass with all the addresses, or working from the bottom up, does it). Since version 2 the
top-down slip always fails from level 3 (in version 1 the shifting fixes sometimes came last or not at all,
and applying the messages one at a time from the top was right in about 16% of level 3).

The episode is judged by the final tree, path by path and byte by byte (the messages fix every line, so the
expected file is unique); the final answer is ``done``. The difficulty is the number of lines plus twice the
errors plus the warnings plus the shifting edits.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, register, retry
from palaestra.core.task import Growth
from palaestra.envs.terminal.common import DONE, ShellTask, quote, shell_plan, words

CONFIG = "config/app.yaml"
LOG = "validate.log"
KEYS = ("host", "port", "timeout", "retries", "name", "user", "level", "path", "workers", "enabled")
TYPOS = {"retries": "retires", "timeout": "timout", "workers": "wrokers", "enabled": "enabeld", "level": "levle",
         "host": "hots", "port": "prot", "name": "nmae", "user": "usr", "path": "pth"}


@register
class ConfigRepair(ShellTask):
    id = "terminal/config_repair"
    family = "terminal"
    description = "Repair a generated YAML-like config by a validator log's line-numbered messages, with a shell."
    tags = ("terminal", "multi-turn", "shell", "files", "config", "agentic")
    version = 2
    end_state = True

    @dataclass(frozen=True)
    class Config:
        sections: tuple[int, int]
        errors: tuple[int, int]
        kinds: int  # 1: values; 2: and renames; 3: and warnings; 4: and deletions; 5: and insertions
        budget: int

    presets = (
        Config((2, 3), (2, 3), 1, 5),
        Config((3, 4), (3, 4), 2, 6),
        Config((3, 5), (3, 5), 3, 7),
        Config((4, 6), (4, 6), 4, 8),
        Config((5, 7), (5, 8), 5, 9),
    )
    growth = Growth(limits={"sections": 40, "errors": 60, "kinds": 5, "budget": 16})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        return retry(lambda: self._draw(rng, config), what="errors whose fixes shift the lines", attempts=40)

    def _draw(self, rng: random.Random, config: Config) -> Problem | None:
        names = words(rng, config.sections[1] + 2, 2)
        lines = ["# application settings"]
        sections: list[tuple[str, int, int]] = []  # (name, first key line, last key line), 1-based
        for _ in range(rng.randint(*config.sections)):
            section = names.pop()
            lines.append(f"{section}:")
            first = len(lines) + 1
            for key in rng.sample(KEYS, rng.randint(3, 6)):
                lines.append(f"  {key}: {_value(rng, key)}")
            sections.append((section, first, len(lines)))
            if rng.random() < 0.4:
                lines.append("")
        kinds = ["value"] + (["rename"] if config.kinds >= 2 else []) + (["delete"] if config.kinds >= 4 else []) \
            + (["insert"] if config.kinds >= 5 else [])
        key_lines = [number for _, first, last in sections for number in range(first, last + 1)]
        chosen = sorted(rng.sample(key_lines, min(len(key_lines) - 1, rng.randint(*config.errors))))
        edits: dict[int, tuple[str, str]] = {}  # line -> (kind, new text)
        messages: list[tuple[int, str]] = []
        for number in chosen:
            kind = rng.choice(kinds)
            key, value = lines[number - 1].strip().split(": ", 1)
            section, first, last = next(s for s in sections if s[1] <= number <= s[2])
            present = {lines[n - 1].strip().split(": ", 1)[0] for n in range(first, last + 1)}
            earlier = [n for n in range(first, number) if n not in edits]
            if (kind == "delete" and not earlier) or (kind == "insert" and present >= set(KEYS)):
                kind = "value"
            if kind == "value":
                new = _value(rng, key, avoid=value)
                messages.append((number, f"error: line {number}: {section}.{key}: invalid value {value!r}; use {new}"))
                edits[number] = ("change", f"  {key}: {new}")
            elif kind == "rename":
                typo = TYPOS[key]
                lines[number - 1] = f"  {typo}: {value}"
                messages.append((number, f"error: line {number}: unknown key {typo!r} in {section}; rename it to "
                                         f"{key!r}"))
                edits[number] = ("change", f"  {key}: {value}")
            elif kind == "delete":  # a real duplicate: this line repeats an earlier key of its section
                key = lines[rng.choice(earlier) - 1].strip().split(": ", 1)[0]
                lines[number - 1] = f"  {key}: {value}"
                messages.append((number, f"error: line {number}: duplicate key {key!r} in {section}; delete this "
                                         "line"))
                edits[number] = ("delete", "")
            else:
                missing = rng.choice([k for k in KEYS if k not in present])
                new = _value(rng, missing)
                messages.append((number, f"error: line {number}: {section} lacks the key {missing!r}; insert the "
                                         f"line '  {missing}: {new}' after this line"))
                edits[number] = ("append", f"  {missing}: {new}")
        if config.kinds >= 3:  # warnings: about other key lines, not to be applied
            for number in rng.sample([n for n in key_lines if n not in edits], 2):
                key = lines[number - 1].strip().split(": ", 1)[0]
                messages.append((number, f"warning: line {number}: {key} looks unusual; use "
                                         f"{_value(rng, key, avoid=lines[number - 1].split(': ', 1)[1])}"))
        messages.sort()
        original = "".join(line + "\n" for line in lines)
        fixed = []
        for number, line in enumerate(lines, start=1):
            kind, text = edits.get(number, ("keep", line))
            if kind == "change":
                fixed.append(text)
            elif kind == "keep":
                fixed.append(line)
            elif kind == "append":
                fixed += [line, text]
        files = {CONFIG: original, LOG: "".join(f"{message}\n" for _, message in messages)}
        if config.kinds >= 4 and _top_down(lines, edits) == fixed:
            return None  # applying the messages one at a time, top down, with the log's numbers must fail
        if config.kinds >= 2:
            files[f"{CONFIG}.bak"] = original
        prompt = (
            f"Your working directory holds {CONFIG}, which fails validation, and {LOG}, the validator's messages "
            f"about it. Fix every error the log reports in {CONFIG}, exactly as its message says; line numbers in "
            "the messages refer to the file as it is now, before any fix. Lines starting with warning: are not "
            "errors: leave those lines alone. Change nothing else.\n\n"
            f"{self.done_instruction()}\n\n{self.tools_prompt(config.budget)}"
        )
        data: dict[str, Any] = {"files": files, "fixed": "".join(line + "\n" for line in fixed),
                                "edits": {str(n): list(e) for n, e in edits.items()}, "kinds": config.kinds,
                                "budget": config.budget}
        return Problem(prompt=prompt, answer=DONE, data=data)

    def expected_tree(self, problem: Problem) -> dict[str, bytes]:
        tree = {path: body.encode() for path, body in problem.data["files"].items()}
        tree[CONFIG] = problem.data["fixed"].encode()
        return tree

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        lines = data["files"][CONFIG].count("\n")
        warnings = data["files"][LOG].count("warning:")
        shifting = sum(1 for kind, _ in data["edits"].values() if kind != "change")
        return lines + 2 * len(data["edits"]) + warnings + 2 * shifting

    def plan(self, problem: Problem) -> list[str]:
        script = {"change": "c\\", "delete": "d", "append": "a\\"}
        parts = [f"-e {quote(f'{number}{script[kind]}{text}')}" for number, (kind, text)
                 in sorted(problem.data["edits"].items(), key=lambda item: int(item[0]))]
        return shell_plan([f"sed -i {' '.join(parts)} {CONFIG}"], DONE)

    def spellings(self, problem: Problem) -> list[str]:
        return ["Done.", "DONE", "**done**"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        return ["not done", "done?!", "fixed"]


def _value(rng: random.Random, key: str, avoid: str = "") -> str:
    """A value of the key's kind, other than ``avoid``."""
    for _ in range(20):
        value = {"port": str(rng.randint(1024, 9999)), "timeout": f"{rng.randint(1, 120)}",
                 "retries": str(rng.randint(0, 9)), "workers": str(rng.randint(1, 32)),
                 "enabled": rng.choice(("true", "false")), "level": rng.choice(("debug", "info", "warn", "error")),
                 "host": f"10.0.{rng.randint(0, 9)}.{rng.randint(1, 250)}", "path": f"/srv/{rng.randint(1, 99)}/data",
                 }.get(key) or f"{key}{rng.randint(1, 99)}"
        if value != avoid:
            return value
    return avoid + "0"


def _top_down(lines: list[str], edits: dict[int, tuple[str, str]]) -> list[str]:
    """The file after applying the fixes one at a time from the top, each at the log's line number in the file as
    the earlier fixes left it (the slip: a deletion or insertion above shifts every later line)."""
    result = list(lines)
    for number in sorted(edits):
        kind, text = edits[number]
        index = number - 1
        if index >= len(result):
            continue
        if kind == "change":
            result[index] = text
        elif kind == "delete":
            del result[index]
        else:
            result.insert(index + 1, text)
    return result
