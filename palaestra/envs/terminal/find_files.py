"""List the files of a generated project tree that meet stated conditions, found with a sandboxed shell.

The tree is a small project: ``src/``, ``tests/``, ``docs/``, and from level 1 directories a search should
skip (``vendor/``, ``build/``), nested up to a few levels, with source, text and data files. The question
combines conditions a ``find``/``grep`` command expresses: the file's extension, where it lies (under a
directory, outside the skipped ones), what it contains (a marker such as ``FIXME``, matched
case-sensitively), its size in bytes (larger than a bound), being empty. Every problem has near misses
for each condition (the marker in lower case, the right extension in a skipped directory, a size exactly at
the bound; since version 2 one of each is planted, meeting every other condition, so that each careless
test changes the answer) and at least two matching files, and not every file matches.

The answer is the set of matching paths, relative to the working directory (``src/a.py`` or
``./src/a.py``), one per line or separated by commas, in any order; it is judged as a set: every matching
path and no other. The difficulty is the number of files plus twice the number of conditions.

Generation speed: about 330 problems/s at level 4 on this 2-core machine. Each draw invents 220 distinct
file and folder names by the shared name generator (most of the time: it redraws any name already taken)
and builds a tree of 30-42 files, and about 2 draws in 3 are redrawn because too few or too many files
meet the conditions; a varied answer set is what stops a listing of all files from earning reward.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.terminal.common import ShellTask, judge_paths, path_list_spellings, quote, shell_plan, words

MARKERS = ("FIXME", "TODO", "XXX", "HACK")
EXTENSIONS = ("py", "js", "md", "txt", "json", "cfg")
TOP = ("src", "tests", "docs")
SKIPPED = ("vendor", "build")
EXAMPLE = "<answer>\nsrc/app/main.c\nsrc/util.c\n</answer>"  # fixed: a made-up tree's paths


@register
class FindFiles(ShellTask):
    id = "terminal/find_files"
    family = "terminal"
    description = "List the files of a generated project tree that meet stated conditions, found with a sandboxed shell."
    tags = ("terminal", "multi-turn", "shell", "files", "search", "agentic")
    version = 2

    @dataclass(frozen=True)
    class Config:
        files: tuple[int, int]
        depth: int
        conditions: int  # besides the extension
        skipped: bool
        budget: int

    presets = (
        Config((8, 12), 1, 1, False, 5),
        Config((12, 18), 2, 1, True, 6),
        Config((16, 24), 2, 2, True, 7),
        Config((22, 32), 3, 2, True, 8),
        Config((30, 42), 3, 3, True, 9),
    )
    growth = Growth(limits={"files": 200, "depth": 6, "conditions": 3, "budget": 16})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[dict[str, str], dict[str, Any], list[str]] | None:
            conditions = _conditions(rng, config)
            files = _tree(rng, config, conditions)
            matching = sorted(path for path, body in files.items() if _matches(path, body, conditions))
            if len(matching) < 2 or len(matching) > len(files) - 3:
                return None
            return files, conditions, matching

        files, conditions, matching = retry(draw, what="a tree with a few matching files", attempts=50)
        prompt = (
            "Your working directory holds a project tree. Find every file (at any depth) that meets all of "
            f"these conditions:\n{_describe(conditions)}\n\nSearch with the shell tool. Answer with the paths of "
            "the matching files relative to the working directory, one per line, in any order; for example, "
            f"for a different tree:\n{EXAMPLE}\n\n{self.tools_prompt(config.budget)}"
        )
        data = {"files": files, "conditions": conditions, "matching": matching, "budget": config.budget}
        return Problem(prompt=prompt, answer="\n".join(matching), data=data)

    def difficulty(self, problem: Problem) -> float:
        conditions = problem.data["conditions"]
        return len(problem.data["files"]) + 2 * sum(1 for key in ("marker", "min_bytes", "under", "empty")
                                                     if conditions.get(key)) + 2 * bool(conditions["skip"])

    def judge(self, problem: Problem, answer: str) -> Verdict:
        return judge_paths(answer, problem.data["matching"], "matching file(s)", "do not match", tree=problem.data["files"])

    def plan(self, problem: Problem) -> list[str]:
        return shell_plan([_command(problem.data["conditions"])], problem.answer or "")

    def spellings(self, problem: Problem) -> list[str]:
        return path_list_spellings(problem.data["matching"], tree=problem.data["files"])

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        matching = problem.data["matching"]
        others = sorted(set(problem.data["files"]) - set(matching))
        return ["\n".join(matching[1:]), "\n".join([*matching, rng.choice(others)]), "\n".join(problem.data["files"]),
                ""]


def _conditions(rng: random.Random, config: FindFiles.Config) -> dict[str, Any]:
    extra = rng.sample(("marker", "min_bytes", "under", "empty"), config.conditions)
    if "empty" in extra and ("marker" in extra or "min_bytes" in extra):  # an empty file holds no marker
        extra.remove("empty")
    return {
        "extension": rng.choice(EXTENSIONS[:4]),
        "marker": rng.choice(MARKERS) if "marker" in extra else None,
        "min_bytes": rng.choice((100, 150, 200, 300)) if "min_bytes" in extra else None,
        "under": rng.choice(TOP[:2]) if "under" in extra else None,
        "empty": "empty" in extra,
        "skip": list(SKIPPED) if config.skipped else [],
    }


def _tree(rng: random.Random, config: FindFiles.Config, conditions: dict[str, Any]) -> dict[str, str]:
    names = words(rng, 220, 2)
    directories = [[top] for top in TOP] + ([[s] for s in SKIPPED] if config.skipped else [])
    for _ in range(config.depth * 2):
        directories.append([*rng.choice(directories), names.pop()])
    files: dict[str, str] = {}
    for _ in range(rng.randint(*config.files)):
        directory = rng.choice(directories)
        extension = conditions["extension"] if rng.random() < 0.55 else rng.choice(EXTENSIONS)
        path = "/".join([*directory, f"{names.pop()}.{extension}"])
        files[path] = _body(rng, conditions)
    # One planted near miss per condition a careless search gets wrong, each meeting every other condition: in
    # version 1 they were left to chance: at level 4, ignoring the skipped folders was right in about 26% of the
    # problems where they matter (no "under" condition), grep -i in 37% of those with a marker, and "at least"
    # the size in 46% of those with a size.
    homes = [d for d in directories if d[0] not in conditions["skip"]
             and (conditions["under"] is None or d[0] == conditions["under"])]
    slips = [("skipped", [d for d in directories if d[0] in conditions["skip"]])]
    if conditions["marker"] is not None:
        slips.append(("lower", homes))
    if conditions["min_bytes"] is not None:
        slips.append(("at_bound", homes))
    for slip, places in slips:
        if places:
            files["/".join([*rng.choice(places), f"{names.pop()}.{conditions['extension']}"])] = _near_body(
                rng, conditions, slip)
    return files


def _near_body(rng: random.Random, conditions: dict[str, Any], slip: str) -> str:
    """The contents of a planted near miss: everything the conditions ask, but the marker in lower case
    (``lower``) or exactly ``min_bytes`` bytes (``at_bound``); ``skipped`` changes only where the file lies."""
    if conditions["empty"]:
        return ""
    lines = [f"line {i}: {rng.choice(('alpha', 'beta', 'gamma', 'delta'))} {rng.randint(0, 99_999)}"
             for i in range(rng.randint(1, 14))]
    marker = conditions["marker"]
    if marker is not None:  # first, so that cutting the body at the size bound keeps it
        lines.insert(0, f"# {marker.lower() if slip == 'lower' else marker}: fix this")
    body = "\n".join(lines) + "\n"
    bound = conditions["min_bytes"]
    if bound is not None and slip == "at_bound":
        return (body * (bound // len(body) + 1))[: bound - 1] + "\n"
    while bound is not None and len(body.encode()) <= bound:
        body += f"line {len(body)}: {rng.choice(('alpha', 'beta', 'gamma', 'delta'))}\n"
    return body


def _body(rng: random.Random, conditions: dict[str, Any]) -> str:
    """File contents with near misses: the marker in another case, sizes right at the bound, empty files."""
    if conditions["empty"] and rng.random() < 0.4:
        return ""
    lines = [f"line {i}: {rng.choice(('alpha', 'beta', 'gamma', 'delta'))} {rng.randint(0, 99_999)}"
             for i in range(rng.randint(1, 14))]
    marker = conditions["marker"]
    if marker is not None and rng.random() < 0.6:
        lines.insert(rng.randrange(len(lines) + 1), f"# {marker if rng.random() < 0.6 else marker.lower()}: fix this")
    body = "\n".join(lines) + "\n"
    bound = conditions["min_bytes"]
    if bound is not None and rng.random() < 0.2:  # exactly at the bound: not larger
        body = (body * (bound // len(body) + 1))[: bound - 1] + "\n"
    return body


def _matches(path: str, body: str, conditions: dict[str, Any]) -> bool:
    parts = path.split("/")
    return (parts[-1].endswith("." + conditions["extension"])
            and parts[0] not in conditions["skip"]
            and (conditions["under"] is None or parts[0] == conditions["under"])
            and (conditions["marker"] is None or conditions["marker"] in body)
            and (conditions["min_bytes"] is None or len(body.encode()) > conditions["min_bytes"])
            and (not conditions["empty"] or body == ""))


def _describe(conditions: dict[str, Any]) -> str:
    lines = [f"- its name ends in .{conditions['extension']}"]
    if conditions["under"]:
        lines.append(f"- it lies under {conditions['under']}/")
    if conditions["skip"]:
        lines.append(f"- it does not lie under {' or '.join(d + '/' for d in conditions['skip'])}")
    if conditions["marker"]:
        lines.append(f"- it contains the text {conditions['marker']} (in capitals, as written)")
    if conditions["min_bytes"]:
        lines.append(f"- it is larger than {conditions['min_bytes']} bytes")
    if conditions["empty"]:
        lines.append("- it is empty (0 bytes)")
    return "\n".join(lines)


def _command(conditions: dict[str, Any]) -> str:
    start = conditions["under"] or "."
    parts = [f"find {quote(start)} -type f -name {quote('*.' + conditions['extension'])}"]
    parts += [f"-not -path {quote('./' + skipped + '/*')}" for skipped in conditions["skip"]]
    if conditions["min_bytes"]:
        parts.append(f"-size +{conditions['min_bytes']}c")
    if conditions["empty"]:
        parts.append("-empty")
    command = " ".join(parts)
    if conditions["marker"]:
        command += f" -exec grep -l -F {quote(conditions['marker'])} {{}} +"
    return command + " | sed 's#^\\./##' | sort"
