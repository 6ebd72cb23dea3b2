"""Apply stated changes to keys of one section of generated INI files, with a sandboxed shell (sed, awk).

The tree holds configuration under ``etc/`` (nested from level 2): INI files (``[section]`` headers, then
``key = value`` lines, comments starting with ``;`` or ``#``, blank lines) among other files. The prompt lists
one to several changes, each "in section [S], set key K to V". In every file whose name ends in ``.ini``, at
any depth, each line of key ``K`` inside section ``[S]`` (from the header to the next header) becomes exactly
``K = V``; nothing else changes: no key is added where a section lacks it. Near misses make every careless
edit fail: the same key in another section, a section whose name only starts like ``S`` (``[S_replica]``),
keys that only start like ``K`` (``K_old``), commented-out ``; K = ...`` lines, spacing variants
(``K=v``, ``K  =  v``) that must still change, and from level 1 files that are not ``.ini`` files
(``.ini.bak``, ``.cfg``) holding the same sections. A range-scoped ``sed -i`` per change does it.

Version 2: every change has each near miss somewhere in the tree (round-3 red team: drawn by chance, they left
level 0 open to careless edits: matching keys by prefix was right 61% of the time, sections by prefix 35%,
rewriting commented-out lines too 52%, ignoring sections 20%, only the ``K = v`` spacing 22%). Each change gets,
in some INI file, a longer key ``K_old`` and a commented-out ``; K`` in its section, a spacing variant of
``K``, a twin section ``[S_replica]`` holding ``K``, and ``K`` in another section that has such a key.

The episode is judged by the final tree, path by path and byte by byte (the rules fix every line, so the
expected tree is unique); the final answer is ``done``. The difficulty is the number of INI files plus
twice the changes plus half the lines that change plus the near-miss lines.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, register, retry
from palaestra.core.task import Growth
from palaestra.envs.terminal.common import DONE, ShellTask, quote, shell_plan, words

SECTIONS = {
    "server": ("host", "port", "workers", "timeout"),
    "database": ("host", "port", "user", "pool_size", "timeout"),
    "cache": ("backend", "ttl", "size", "host"),
    "logging": ("level", "file", "rotate"),
    "auth": ("method", "timeout", "realm"),
    "mail": ("host", "port", "sender"),
}
SECTION_TWINS = ("_replica", ".old", "-test")  # section names that only start like a real one
KEY_TWINS = ("_old", "_max", "name", "2")  # key names that only start like a real one
FILLERS = ("main", "edge", "core", "app", "svc", "admin", "local", "backup")  # old values in the files
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
NEAR_MISSES = ("twin", "comment", "spacing", "section", "other")  # forced for every change (version 2)
KEY_LINE = re.compile(r"([a-z_0-9]+) *= *(.*)")  # only ever applied to generated text


@register
class IniEdit(ShellTask):
    id = "terminal/ini_edit"
    version = 2
    family = "terminal"
    description = "Apply stated changes to keys of one section of generated INI files, using a sandboxed shell."
    tags = ("terminal", "multi-turn", "shell", "config", "sed", "agentic")
    end_state = True

    @dataclass(frozen=True)
    class Config:
        files: tuple[int, int]  # INI files
        edits: int
        depth: int
        others: int  # files that are not .ini but look like them
        budget: int

    presets = (
        Config((2, 3), 1, 0, 0, 5),
        Config((3, 5), 2, 0, 1, 6),
        Config((4, 6), 2, 1, 2, 7),
        Config((5, 8), 3, 1, 3, 8),
        Config((7, 10), 4, 2, 3, 9),
    )
    # capped where generation stops scaling (kit check far_levels)
    growth = Growth(limits={"edits": 8, "depth": 4, "others": 8, "budget": 16, "files": (45, 48)})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        return retry(lambda: self._draw(rng, config), what="changes that apply somewhere", attempts=60)

    def _draw(self, rng: random.Random, config: Config) -> Problem | None:
        names = words(rng, 60, 2)
        folders = [["etc"]]
        for _ in range(config.depth * 2):
            folders.append([*rng.choice(folders), names.pop()])
        edits: list[list[str]] = []
        for section, key in rng.sample([(s, k) for s, keys in SECTIONS.items() for k in keys], config.edits):
            edits.append([section, key, _value(rng, key, names)])
        files: dict[str, str] = {}
        inis: list[str] = []
        count = rng.randint(*config.files)
        forced: list[set[tuple[str, str, str]]] = [set() for _ in range(count)]
        for section, key, _ in edits:  # every near miss, for every change, in some file
            others = [s for s, keys in SECTIONS.items() if s != section and key in keys]
            for trap in NEAR_MISSES:
                if trap == "other" and not others:
                    continue
                forced[rng.randrange(count)].add((section, key, trap))
        for index in range(count):
            path = "/".join([*rng.choice(folders), f"{names.pop()}.ini"])
            files[path] = _ini(rng, edits, forced[index])
            inis.append(path)
        for _ in range(config.others):
            source = rng.choice(inis)
            other = source + ".bak" if rng.random() < 0.5 else source[: -len(".ini")] + ".cfg"
            files[other] = files[source]
        expected = {path: (_apply(body, edits) if path in inis else body) for path, body in files.items()}
        changed_lines = sum(_changed_lines(files[p], expected[p]) for p in inis)
        if any(not any(_edit_applies(files[p], edit) for p in inis) for edit in edits):
            return None  # every change has a line to change somewhere
        near_misses = sum(_near_misses(files[p], edits) for p in inis)
        changes = "\n".join(f"- in section [{s}], set {k} to {v}" for s, k, v in edits)
        prompt = (
            "Your working directory holds configuration files under etc/. Apply these changes to every file whose "
            f"name ends in .ini (at any depth under etc/):\n{changes}\n\n"
            "The files are INI files: a section runs from its header line [name] to the next header line; a key "
            "line reads key = value (the spaces around = are optional); lines starting with ; or # are comments. "
            "A change rewrites every line of that key inside that section (not in any other section) as exactly "
            "'key = new value', with one space on each side of =. Comments, other keys (even ones whose names "
            "start the same way) and other sections stay as they are; where the section has no such key, add "
            "nothing. Do not change any other file.\n\n"
            f"{self.done_instruction()}\n\n{self.tools_prompt(config.budget)}"
        )
        data: dict[str, Any] = {"files": files, "expected": {p: expected[p] for p in inis if expected[p] != files[p]},
                                "edits": edits, "inis": len(inis), "changed_lines": changed_lines,
                                "near_misses": near_misses, "budget": config.budget}
        return Problem(prompt=prompt, answer=DONE, data=data)

    def expected_tree(self, problem: Problem) -> dict[str, bytes]:
        tree = {path: body.encode() for path, body in problem.data["files"].items()}
        tree.update((path, body.encode()) for path, body in problem.data["expected"].items())
        return tree

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return data["inis"] + 2 * len(data["edits"]) + data["changed_lines"] / 2 + data["near_misses"] / 2

    def plan(self, problem: Problem) -> list[str]:
        scripts = " ".join(f"-e {quote(_sed(section, key, value))}" for section, key, value in problem.data["edits"])
        return shell_plan([f"find etc -type f -name '*.ini' -exec sed -i {scripts} {{}} +"], DONE)

    def spellings(self, problem: Problem) -> list[str]:
        return ["Done.", "DONE", "**done**"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        return ["not done", "done?", "etc/app.ini"]


def _sed(section: str, key: str, value: str) -> str:
    """The sed command for one change: ``s`` over the lines from ``[section]`` to the next header."""
    return f"/^\\[{section}\\]$/,/^\\[/s|^{key} *=.*|{key} = {value}|"


def _value(rng: random.Random, key: str, names: list[str]) -> str:
    if key == "port":
        return str(rng.randint(1024, 9999))
    if key == "host":
        return f"{names.pop()}.example.net" if rng.random() < 0.5 else f"10.0.{rng.randint(0, 255)}.{rng.randint(1, 254)}"
    if key == "level":
        return rng.choice(LEVELS)
    if key in ("workers", "pool_size", "timeout", "ttl", "size", "rotate"):
        return str(rng.randint(2, 600))
    if key == "file":
        return f"/var/log/{names.pop()}.log"
    return names.pop()


def _ini(rng: random.Random, edits: list[list[str]], forced: set[tuple[str, str, str]]) -> str:
    """One INI file: some sections (the changed ones often among them), with near misses for the changes.

    ``forced`` holds ``(section, key, near miss)`` triples (of :data:`NEAR_MISSES`) this file must hold: ``twin``
    a longer key and ``comment`` a commented-out line of the key in the section, ``spacing`` the key's line
    spaced other than ``key = value`` there, ``section`` a twin section (``[S_replica]``) with the key, ``other``
    the key in another section that has such a key."""
    edited = {section for section, _, _ in edits}
    needed: dict[str, set[str]] = {}  # section -> keys it must hold
    twins: set[tuple[str, str]] = set()
    comments: set[tuple[str, str]] = set()
    spaced: set[tuple[str, str]] = set()
    for section, key, trap in sorted(forced):
        if trap == "section":
            needed.setdefault(section + rng.choice(SECTION_TWINS), set()).add(key)
        elif trap == "other":
            other = rng.choice([s for s, keys in SECTIONS.items() if s != section and key in keys])
            needed.setdefault(other, set()).add(key)
        else:
            needed.setdefault(section, set()).add(key)
            {"twin": twins, "comment": comments, "spacing": spaced}[trap].add((section, key))
    sections = [s for s in SECTIONS if s in needed or (s in edited and rng.random() < 0.75)]
    rest = [s for s in SECTIONS if s not in sections]
    sections += rng.sample(rest, min(len(rest), rng.randint(1, 2)))
    sections += sorted(s for s in needed if s not in SECTIONS)
    if rng.random() < 0.5:
        sections.append(rng.choice(sorted(edited)) + rng.choice(SECTION_TWINS))
    sections = list(dict.fromkeys(sections))
    rng.shuffle(sections)
    lines = [f"# {rng.choice(('generated', 'managed', 'local'))} settings"]
    for section in sections:
        base = section.split("_")[0].split(".")[0].split("-")[0]
        lines += ["", f"[{section}]"]
        keys = list(SECTIONS[base])
        chosen = [k for k in keys if k in needed.get(section, ()) or rng.random() < 0.7] or keys[:1]
        for key in chosen:
            if (section, key) in comments or rng.random() < 0.3:  # a commented-out line of the key
                lines.append(f"{rng.choice(';#')} {key} = {_value(rng, key, [rng.choice(FILLERS)])}")
            if (section, key) in twins or rng.random() < 0.25:  # a key that only starts like this one
                lines.append(f"{key}{rng.choice(KEY_TWINS)} = {_value(rng, key, [rng.choice(FILLERS)])}")
            spacing = rng.choice(("=", "  =  ", " =") if (section, key) in spaced else (" = ", " = ", "=", "  =  ", " ="))
            lines.append(f"{key}{spacing}{_value(rng, key, [rng.choice(FILLERS)])}")
    return "\n".join(lines) + "\n"


def _apply(body: str, edits: list[list[str]]) -> str:
    wanted: dict[tuple[str | None, str], str] = {(section, key): value for section, key, value in edits}
    section: str | None = None
    out = []
    for line in body.split("\n"):
        if line.startswith("["):
            section = line[1:-1] if line.endswith("]") else None
        else:
            match = KEY_LINE.fullmatch(line)
            if match and (section, match.group(1)) in wanted:
                line = f"{match.group(1)} = {wanted[section, match.group(1)]}"
        out.append(line)
    return "\n".join(out)


def _edit_applies(body: str, edit: list[str]) -> bool:
    return _apply(body, [edit]) != body


def _changed_lines(before: str, after: str) -> int:
    return sum(a != b for a, b in zip(before.split("\n"), after.split("\n"), strict=True))


def _near_misses(body: str, edits: list[list[str]]) -> int:
    """Lines a careless edit would touch: the changed keys in other sections, commented out, or with longer names."""
    keys = {key for _, key, _ in edits}
    wanted = {(section, key) for section, key, _ in edits}
    section = None
    count = 0
    for line in body.split("\n"):
        if line.startswith("["):
            section = line[1:-1]
            continue
        stripped = line.lstrip(";# ")
        match = KEY_LINE.fullmatch(stripped)
        if not match:
            continue
        name = match.group(1)
        if any(name.startswith(k) for k in keys) and not (line == stripped and (section, name) in wanted):
            count += 1
    return count
