"""Count whole-word uses of an identifier across a generated code tree, with exclusions, using a sandboxed shell.

The tree is a small project (``src/``, ``tests/``, ``lib/``, nested from level 1) of source files in a few
languages. The question names an identifier, a file extension and a measure: the lines that use the
identifier, the uses themselves (several on one line count apart), or the files that use it. A use is the
identifier as a whole word, case-sensitive, where a word is a run of letters, digits and underscores (what
``grep -w`` matches). Files under ``vendor/`` and under hidden folders (``.git/``, ``.cache/``) are left
out. Near misses make a careless search miscount: longer identifiers that contain it (``total_x``,
``xs``), the identifier in other cases, in files with another extension, and from level 1 in the
excluded folders; from level 2 several uses on one line, and ``x.attr``/``obj.x`` forms that are uses.

The answer is an integer, judged exactly (a unit word such as "lines" is accepted). Counts are at least 4
(below 12 kept with probability count / 12), and the share of
lines using the identifier is drawn per problem (10-50%), so that no small constant is a good guess (with a
fixed 25% share, 7 and 8 answered a sixth of level 0 each). Every problem has a planted file with another extension
that uses the identifier, and from level 1 one with the extension in an excluded folder, so that dropping
either filter changes the count: in version 2 a count over every extension was right in about half of level
0, and one keeping vendor/ and hidden folders in about a fifth of level 2. The difficulty is the number of files plus the
near-miss lines plus the measure's weight.

Generation speed: about 950 problems/s at level 4 on this 2-core machine. Each problem writes 20-30 files
of 8-18 generated lines each, counting the pattern's uses, lines and files as it writes, and invents
about 45 names by the shared name generator, which redraws any name already taken; the lines are the data
the model must search, so their cost stays.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.terminal.common import ShellTask, quote, shell_plan, words
from palaestra.verifiers.numeric import grade_number

MEASURES = {"lines": "lines that use the identifier {target}",
            "uses": "uses of the identifier {target} (two uses on one line count as two)",
            "files": "files that use the identifier {target}"}
MEASURE_WEIGHT = {"files": 0, "lines": 1, "uses": 2}
EXTENSIONS = ("py", "js", "rb")
TOP = ("src", "tests", "lib")
EXCLUDED = ("vendor", ".git", ".cache")
MIN_COUNT = 4
SPREAD = 12
FILLER = ("value", "result", "count", "item", "index", "total", "buffer", "config")
# The unit words a count of each measure may carry ("20 matching lines"); another measure's word is a wrong answer
# ("20 files" where lines were asked), not a spelling of this one.
UNITS = {"lines": ("lines", "matching lines"), "uses": ("uses", "occurrences", "times", "matches"),
         "files": ("files", "matching files")}


@register
class CountMatches(ShellTask):
    id = "terminal/count_matches"
    family = "terminal"
    description = "Count whole-word uses of an identifier across a generated code tree with exclusions, via a shell."
    tags = ("terminal", "multi-turn", "shell", "search", "code", "agentic")
    version = 3

    @dataclass(frozen=True)
    class Config:
        files: tuple[int, int]
        lines: tuple[int, int]  # per file
        depth: int
        excluded: bool
        measures: tuple[str, ...]
        budget: int

    presets = (
        Config((5, 8), (4, 10), 0, False, ("lines",), 5),
        Config((8, 12), (5, 12), 1, True, ("lines", "uses"), 6),
        Config((10, 16), (6, 14), 1, True, ("lines", "uses"), 7),
        Config((14, 22), (6, 16), 2, True, ("lines", "uses", "files"), 8),
        Config((20, 30), (8, 18), 3, True, ("uses", "lines", "files"), 9),
    )
    growth = Growth(limits={"files": 200, "lines": 60, "depth": 6, "budget": 16})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        measure = rng.choice(config.measures)
        extension = rng.choice(EXTENSIONS)
        files, target, count = retry(lambda: _draw(rng, config, measure, extension), what="a count that is not tiny",
                                     attempts=60)
        prompt = (
            "Your working directory holds a software project. Looking only at the files whose names end in "
            f".{extension}, at any depth, and leaving out everything under vendor/ and under hidden folders (whose "
            f"names start with a dot), count the {MEASURES[measure].format(target=target)}. "
            f"A use is {target} as a whole word, with exactly that case, where a word is a run of letters, digits "
            "and underscores (what grep -w matches).\n\n"
            "Answer with the number, e.g. <answer>42</answer>.\n\n"
            f"{self.tools_prompt(config.budget)}"
        )
        near = sum(1 for body in files.values() for line in body.split("\n")
                   if target.lower() in line.lower() and not _uses(line, target))
        data: dict[str, Any] = {"files": files, "target": target, "extension": extension, "measure": measure,
                                "near_misses": near, "budget": config.budget}
        return Problem(prompt=prompt, answer=str(count), data=data)

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return len(data["files"]) + data["near_misses"] / 2 + 2 * MEASURE_WEIGHT[data["measure"]]

    def judge(self, problem: Problem, answer: str) -> Verdict:
        verdict = grade_number(answer, int(problem.answer or 0), units=UNITS[problem.data["measure"]])
        return Verdict.unparsed("not an integer") if verdict is None else Verdict.judge(verdict)

    def plan(self, problem: Problem) -> list[str]:
        data = problem.data
        found = (f"find . -type f -name {quote('*.' + data['extension'])} -not -path './vendor/*' "
                 f"-not -path '*/.*/*' -print0 | xargs -0 grep -w")
        target = quote(data["target"])
        command = {"lines": f"{found}h {target} | wc -l", "uses": f"{found}oh {target} | wc -l",
                   "files": f"{found}l {target} | wc -l"}[data["measure"]]
        return shell_plan([command], problem.answer or "")

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer or "0"
        return [f"{answer}.", f"\\boxed{{{answer}}}", f"{answer} {problem.data['measure']}", f"Answer: {answer}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        count = int(problem.answer or 0)
        return [str(count + 1), str(count - 1), f"{count} or {count + 1}"]


def _uses(line: str, target: str) -> int:
    """Whole-word uses of ``target`` on ``line`` (generated text and a generated identifier only)."""
    return len(re.findall(rf"(?<![A-Za-z0-9_]){re.escape(target)}(?![A-Za-z0-9_])", line))


def _line(rng: random.Random, target: str, config: CountMatches.Config, plain: bool, use: float) -> str:
    """A source line: the identifier with probability ``use`` (never in a ``plain`` file), a look-alike of it
    (one in four), or neither."""
    other = rng.choice(FILLER)
    draw = rng.uniform(use if plain else 0.0, 1.0)
    lookalikes = (f"total_{target}", f"{target}s", f"{target}_old", target.upper(), target.capitalize(),
                  f"my{target}")
    if draw < use:
        forms = [f"{target} = {other} + 1", f"return {target}", f"print({target}, {other})"]
        if config.depth >= 1:  # several uses on a line, and dotted forms, which are uses too
            forms += [f"{target} = {target} * 2", f"{other}.{target} = self.{target}", f"{target}.append({other})"]
        return rng.choice(forms)
    if draw < use + 0.25:
        return f"{rng.choice(lookalikes)} = {other}"
    return f"{other} = {rng.choice(FILLER)}({rng.randint(0, 99)})"


def _draw(rng: random.Random, config: CountMatches.Config, measure: str,
          extension: str) -> tuple[dict[str, str], str, int] | None:
    names = words(rng, config.files[1] + 2 * config.depth + 8, 2)
    target = rng.choice(("alpha", "node", "key", "limit", "user", "path", "rate", "size", "token", "queue"))
    use = rng.uniform(0.1, 0.5)  # drawn per problem, so the counts spread (a fixed share piled them on 7-9)
    folders = [[top] for top in TOP]
    for _ in range(config.depth * 2):
        folders.append([*rng.choice(folders), names.pop()])
    if config.excluded:
        folders += [[rng.choice(EXCLUDED)], [rng.choice(TOP), ".cache"]]
    files: dict[str, str] = {}
    for _ in range(rng.randint(*config.files)):
        folder = rng.choice(folders)
        name = f"{names.pop()}.{extension if rng.random() < 0.7 else rng.choice(EXTENSIONS)}"
        plain = rng.random() < 0.3  # a file with look-alikes only
        lines = [_line(rng, target, config, plain, use) for _ in range(rng.randint(*config.lines))]
        files["/".join([*folder, name])] = "\n".join(lines) + "\n"

    def kept(path: str) -> bool:
        return path.split("/")[0] != "vendor" and not any(part.startswith(".") for part in path.split("/")[:-1])

    # Planted near misses that use the identifier, so that each filter matters: a file with another extension
    # where the search looks, and (from level 1) a file with the extension in an excluded folder.
    planted = [(rng.choice([f for f in folders if kept("/".join([*f, "x"]))]),
                rng.choice([e for e in EXTENSIONS if e != extension]))]
    if config.excluded:
        planted.append((rng.choice([f for f in folders if not kept("/".join([*f, "x"]))]), extension))
    for folder, other_extension in planted:
        lines = [_line(rng, target, config, False, use) for _ in range(rng.randint(*config.lines))]
        lines.insert(rng.randrange(len(lines) + 1), f"{target} = {rng.choice(FILLER)} + 1")
        files["/".join([*folder, f"{names.pop()}.{other_extension}"])] = "\n".join(lines) + "\n"

    def measured(chosen: list[str]) -> int:
        per_line = [_uses(line, target) for path in chosen for line in files[path].split("\n")]
        return {"lines": sum(1 for n in per_line if n), "uses": sum(per_line),
                "files": sum(1 for path in chosen if _uses(files[path], target))}[measure]

    counted = [path for path in files if path.endswith("." + extension) and kept(path)]
    count = measured(counted)
    if count < MIN_COUNT or (count == len(counted) and measure == "files") or rng.random() >= count / SPREAD:
        return None  # small counts are kept with probability count / SPREAD: no small constant is a good guess
    return files, target, count
