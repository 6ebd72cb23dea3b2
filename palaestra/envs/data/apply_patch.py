"""Apply a unified diff to a configuration file and write out the patched file in full.

A generated INI-style file (sections of ``key = value`` lines, blank lines between sections, a few
comments; keys repeat across sections, so a hunk's place comes from its line numbers and context, not
from a search for the key) and a unified diff of it (``---``/``+++`` headers, ``@@ -a,b +c,d @@`` hunks with
context lines) are given; the diff changes values, inserts lines and deletes lines at one to several
places. The answer is the whole patched file; the verifier reads a multi-line block (a code fence
optional), ignores trailing spaces and blank lines at its edges, and names the first line that differs.
The reference is the file the diff was made from, so it is unique.
Version 2: a line the diff removes (or the context line an insertion follows) also stands, identical, in an
earlier section, so applying each change at the first line equal to it, without line numbers or context (0.65-0.96
of v1's problems), misplaces an edit; applying each hunk where its whole old text (context included) stands still
works, as it should.

Difficulty: the file's lines plus the diff's removed and added lines plus twice its hunks.
"""

from __future__ import annotations

import difflib
import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.data.common import WORDS
from palaestra.verifiers.blocks import read_block

EXAMPLE = "```\n[section]\nkey = value\n```"  # a fixed placeholder: never derived from the answer
MAX_ANSWER_CHARS = 40_000
VALUES = ("true", "false", "info", "debug", "warn", "utf-8", "latin-1", "eu-west", "us-east", "/var/data", "/srv/app")


def _value(rng: random.Random) -> str:
    return rng.choice(VALUES) if rng.random() < 0.4 else str(rng.choice((rng.randint(1, 99), rng.randrange(100, 10000, 50))))


def _config_file(rng: random.Random, sections: int, lines: int) -> list[str]:
    names = rng.sample(WORDS["sections"], sections)
    sizes = [1] * sections
    for _ in range(max(0, lines - sections)):
        sizes[rng.randrange(sections)] += 1
    out: list[str] = []
    for index, (name, size) in enumerate(zip(names, sizes, strict=True)):
        if index:
            out.append("")
        out.append(f"[{name}]")
        if rng.random() < 0.3:
            out.append(f"# {name} settings")
        keys = rng.sample(WORDS["settings"], min(size, len(WORDS["settings"])))
        out.extend(f"{key} = {_value(rng)}" for key in keys)
    return out


def _edit(rng: random.Random, lines: list[str], sites: int, must: int | None = None) -> list[str]:
    """The file with ``sites`` edits (value changes, insertions, deletions) at key lines far enough apart, one of
    them at line index ``must`` when given."""
    keyed = [i for i, line in enumerate(lines) if " = " in line]
    chosen: list[int] = [] if must is None else [must]
    for index in rng.sample(keyed, len(keyed)):
        if len(chosen) >= sites:
            break
        if all(abs(index - other) > 4 for other in chosen):
            chosen.append(index)
    edited = list(lines)
    for index in sorted(chosen, reverse=True):  # from the bottom, so earlier indexes stay valid
        key = lines[index].split(" = ")[0]
        kind = rng.choice(("change", "change", "insert", "delete", "replace"))
        fresh = [f"{rng.choice(WORDS['settings'])} = {_value(rng)}" for _ in range(rng.randint(1, 2))]
        if kind == "change":
            new_value = _value(rng)
            while f"{key} = {new_value}" == lines[index]:
                new_value = str(rng.randint(100, 999))
            edited[index] = f"{key} = {new_value}"
        elif kind == "insert":
            edited[index + 1 : index + 1] = fresh
        elif kind == "delete":
            del edited[index]
        else:
            edited[index : index + 1] = [f"{key} = {_value(rng)}", *fresh]
    return edited


def _duplicate(rng: random.Random, lines: list[str]) -> int | None:
    """Copy a key line of a later section over a key line of an earlier one (its key not yet in that section), so
    the same line stands twice; the index of the later copy, or None when the file has no room for one."""
    starts = [i for i, line in enumerate(lines) if line.startswith("[")]
    section = [sum(1 for start in starts if start <= i) for i in range(len(lines))]
    keyed = [i for i, line in enumerate(lines) if " = " in line]
    pairs = [(j, i) for i in keyed for j in keyed if section[j] < section[i]
             and not any(lines[k].split(" = ")[0] == lines[i].split(" = ")[0] for k in keyed if section[k] == section[j])]
    if not pairs:
        return None
    j, i = rng.choice(pairs)
    lines[j] = lines[i]
    return i


def by_first_match(original: list[str], diff: list[str]) -> list[str] | None:
    """The misreading that ignores line numbers and context: each hunk's removed lines replaced at the first line
    of the file equal to the first of them (an insertion made after the first line equal to the context line
    before it); None where a line is not found."""
    hunks: list[list[str]] = []
    for line in diff:
        if line.startswith("@@"):
            hunks.append([])
        elif hunks and not line.startswith(("---", "+++")):
            hunks[-1].append(line)
    out = list(original)
    for hunk in hunks:
        removed = [line[1:] for line in hunk if line.startswith("-")]
        added = [line[1:] for line in hunk if line.startswith("+")]
        if removed:
            anchor = removed[0]
            where = out.index(anchor) if anchor in out else None
            if where is None:
                return None
            out[where : where + len(removed)] = added
        else:
            first_add = next(k for k, line in enumerate(hunk) if line.startswith("+"))
            context = [line[1:] for line in hunk[:first_add]]
            if not context or context[-1] not in out:
                return None
            where = out.index(context[-1]) + 1
            out[where:where] = added
    return out


@register
class ApplyPatch(Task):
    id = "data/apply_patch"
    family = "data"
    description = "Apply a unified diff (hunks with line numbers and context) to a config file; give the result."
    tags = ("data", "diff", "text-processing")
    multiline = True
    version = 2  # v2: a line the diff edits also stands earlier in the file, so a search for it misplaces the edit

    @dataclass(frozen=True)
    class Config:
        lines: int  # key lines in the file
        sections: int
        sites: int  # places the diff edits
        context: int  # context lines around each change

    presets = (Config(8, 2, 1, 3), Config(12, 3, 2, 3), Config(18, 4, 3, 2), Config(26, 5, 4, 2), Config(36, 6, 5, 1))
    growth = Growth(steps={"lines": 10, "sites": 1}, limits={"sites": 30})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        name = rng.choice(("app.ini", "service.conf", "settings.ini", "worker.cfg"))

        def draw() -> tuple[list[str], list[str], list[str]]:
            original = _config_file(rng, config.sections, config.lines)
            twin = _duplicate(rng, original)  # an edited line that also stands earlier: a search finds the wrong one
            patched = _edit(rng, original, config.sites, twin)
            diff = list(difflib.unified_diff(original, patched, f"a/{name}", f"b/{name}", n=config.context,
                                             lineterm=""))
            return original, patched, diff

        original, patched, diff = retry(draw, lambda drawn: by_first_match(drawn[0], drawn[2]) != drawn[1],
                                        attempts=100, what="a diff that a search for its lines misplaces")
        body = "\n".join(original)
        prompt = (
            f"Here is the file {name}:\n\n```\n{body}\n```\n\nApply this unified diff to it:\n\n```diff\n"
            + "\n".join(diff)
            + "\n```\n\nIn each hunk, @@ -a,b +c,d @@ says the hunk starts at line a of the old file (b lines) and "
            "line c of the new file (d lines); lines starting with a space are unchanged context, - removes a line "
            "and + adds one.\n\nGive the whole patched file, every line in order, in one code block, for example:\n"
            f"{EXAMPLE}"
        )
        changed = sum(1 for line in diff if line[:1] in "+-" and not line.startswith(("+++", "---")))
        hunks = sum(1 for line in diff if line.startswith("@@"))
        text = "\n".join(patched)
        return Problem(prompt=prompt, answer=f"```\n{text}\n```", data={
            "original": "\n".join(original), "patched": text, "changed": changed, "hunks": hunks})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if len(answer) > MAX_ANSWER_CHARS:
            return Verdict.wrong("the answer is far longer than the file")
        given = read_block(answer, leading="keep", trailing="strip", blank_edges=True, max_chars=MAX_ANSWER_CHARS)
        if given is None:
            return Verdict.unparsed("expected the patched file in one code block")
        expected = [line.rstrip() for line in problem.data["patched"].split("\n")]
        for number, (got, want) in enumerate(zip(given, expected, strict=False), start=1):
            if got != want:
                return Verdict.wrong(f"line {number} differs from the patched file")
        if len(given) != len(expected):
            return Verdict.wrong(f"the patched file has {len(expected)} lines, the answer {len(given)}")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """File lines + removed and added lines + twice the hunks."""
        data = problem.data
        return float(len(data["original"].split("\n")) + data["changed"] + 2 * data["hunks"])

    def spellings(self, problem: Problem) -> list[str]:
        text = problem.data["patched"]
        return [text, f"```ini\n{text}\n```", f"Patched file:\n```\n{text}\n```", f"\n{text}\n\n",
                "\n".join(line + "  " for line in text.split("\n"))]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        lines = problem.data["patched"].split("\n")
        keyed = [i for i, line in enumerate(lines) if " = " in line]
        index = rng.choice(keyed)
        altered = list(lines)
        altered[index] = altered[index] + "0"
        return [f"```\n{problem.data['original']}\n```", "\n".join(altered), "\n".join(lines[:-1]),
                "\n".join([*lines, lines[-1]]), f"```\n{problem.data['patched']}\n```\n```\nx = 1\n```"]
