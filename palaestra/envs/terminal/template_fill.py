"""Render generated templates from a values file (fill ``{{KEY}}`` placeholders), with a sandboxed shell.

The tree holds ``values.env`` and ``templates/`` (nested from level 1) with ``.tmpl`` files among other
files. The task: for every file ``templates/<path>.tmpl`` (at any depth), write ``out/<path>`` (the same
relative path, ``.tmpl`` dropped): the template with every placeholder ``{{KEY}}`` whose key is defined in
``values.env`` replaced by its value; a placeholder of an undefined key stays as it is. ``values.env`` holds
``KEY=value`` lines (the value is everything after the first ``=``), ``#`` comment lines and blank lines;
a key defined twice takes its last value. Nothing else changes. The traps grow by level: values holding
characters that are special to ``sed`` (``/``, ``&``, ``|``) and ``=`` itself; from level 1 files that are
not templates (``.tmpl.bak``, ``README.md``) holding placeholders; from level 2 commented-out definitions and
placeholders of undefined keys (since version 2 the commented-out ``# KEY=old`` line follows KEY's definition and
the first template fills KEY, so a reader that finds ``KEY=`` anywhere in a line takes the old value; before, it
took it in 17% of levels 2-4 only); from level 3 keys defined twice and keys that differ only in case; from
level 4 names with spaces.

The episode is judged by the final tree, path by path and byte by byte (the rule fixes every output, so the
expected tree is unique); the final answer is ``done``. The difficulty is the number of templates plus the
placeholders to fill plus the traps in play.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, register
from palaestra.core.task import Growth
from palaestra.envs.terminal.common import DONE, ShellTask, shell_plan, words

VALUES = "values.env"
KEYS = ("HOST", "PORT", "USER", "DB_NAME", "API_URL", "TITLE", "REGION", "OWNER", "LOG_DIR", "MOTTO", "TIMEOUT",
        "GREETING")
# Awk reads values.env first (the last definition of a key wins), then fills each template's placeholders.
RENDER = (
    "awk 'FNR == NR { if ($0 ~ /^[A-Za-z_][A-Za-z0-9_]*=/) { i = index($0, \"=\"); v[substr($0, 1, i - 1)] = "
    "substr($0, i + 1) } next } { s = $0; o = \"\"; while (match(s, /\\{\\{[A-Za-z_][A-Za-z0-9_]*\\}\\}/)) { "
    "k = substr(s, RSTART + 2, RLENGTH - 4); o = o substr(s, 1, RSTART - 1) ((k in v) ? v[k] : "
    "substr(s, RSTART, RLENGTH)); s = substr(s, RSTART + RLENGTH) } print o s }' values.env"
)
ORACLE = (
    "find templates -type f -name '*.tmpl' -print0 | while IFS= read -r -d '' t; do o=out/${t#templates/}; "
    f"o=${{o%.tmpl}}; mkdir -p \"${{o%/*}}\" && {RENDER} \"$t\" > \"$o\"; done"
)


@register
class TemplateFill(ShellTask):
    id = "terminal/template_fill"
    family = "terminal"
    description = "Render generated templates by filling {{KEY}} placeholders from a values file, with a shell."
    tags = ("terminal", "multi-turn", "shell", "files", "text", "agentic")
    end_state = True
    version = 2

    @dataclass(frozen=True)
    class Config:
        templates: tuple[int, int]
        depth: int
        traps: int  # 0..4: the level's traps (see the module docstring)
        budget: int

    presets = (
        Config((2, 3), 0, 0, 5),
        Config((3, 5), 1, 1, 6),
        Config((4, 6), 1, 2, 7),
        Config((5, 8), 2, 3, 8),
        Config((6, 10), 2, 4, 9),
    )
    growth = Growth(limits={"templates": 80, "traps": 4, "depth": 5, "budget": 16})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        traps = config.traps
        values, lines, commented = _values(rng, traps)
        names = words(rng, 3 * config.templates[1] + 2 * config.depth + 6, 2)
        folders = [""]
        for _ in range(2 * config.depth):
            folders.append(f"{rng.choice(folders)}{names.pop()}/")
        keys = sorted(values)
        undefined = [f"{k}_X" for k in keys[:2]] + (["SECRET"] if traps >= 2 else [])
        files: dict[str, str] = {VALUES: "".join(line + "\n" for line in lines)}
        targets: dict[str, str] = {}
        for _ in range(rng.randint(*config.templates)):
            stem = names.pop()
            if traps >= 4 and rng.random() < 0.3:
                stem = f"{stem} {names.pop()}"
            path = f"{rng.choice(folders)}{stem}.{rng.choice(('conf', 'txt', 'yaml', 'html'))}"
            used = rng.sample(keys, min(len(keys), rng.randint(2, 4)))
            if traps >= 2 and not targets and commented not in used:
                used.append(commented)  # the first template fills the key with a commented-out definition
            if traps >= 2:
                used.append(rng.choice(undefined))
            body = _template(rng, used)
            files[f"templates/{path}.tmpl"] = body
            targets[f"out/{path}"] = _render(body, values)
        if traps >= 1:  # not templates: left alone, nothing written for them
            files[f"templates/{rng.choice(folders)}{names.pop()}.conf.tmpl.bak"] = _template(rng, keys[:2])
            files["templates/README.md"] = "Templates use {{KEY}} placeholders, e.g. {{HOST}}.\n"
        prompt = (
            f"Your working directory holds {VALUES} and a folder templates/. For every file under templates/ (at "
            "any depth) whose name ends in .tmpl, write out/<path>, where <path> is the template's path relative "
            "to templates/ without the .tmpl ending (templates/a/b.conf.tmpl gives out/a/b.conf): the template "
            "with every placeholder {{KEY}} replaced by KEY's value from " + VALUES + ". In " + VALUES + " a "
            "definition is a line KEY=value (the value is everything after the first =); lines starting with # "
            "are comments; if a key is defined more than once, its last definition counts. Keys are "
            "case-sensitive. A placeholder whose key is not defined stays as it is. Change nothing else.\n\n"
            f"{self.done_instruction()}\n\n{self.tools_prompt(config.budget)}"
        )
        data: dict[str, Any] = {"files": files, "targets": targets, "traps": traps, "budget": config.budget}
        return Problem(prompt=prompt, answer=DONE, data=data)

    def expected_tree(self, problem: Problem) -> dict[str, bytes]:
        tree = {path: body.encode() for path, body in problem.data["files"].items()}
        tree.update((path, body.encode()) for path, body in problem.data["targets"].items())
        return tree

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        filled = sum(body.count("{{") for path, body in data["files"].items() if path.endswith(".tmpl"))
        return len(data["targets"]) + filled / 2 + 2 * data["traps"]

    def plan(self, problem: Problem) -> list[str]:
        return shell_plan([ORACLE], DONE)

    def spellings(self, problem: Problem) -> list[str]:
        return ["Done.", "DONE", "**done**"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        return ["not done", "done?!", VALUES]


def _values(rng: random.Random, traps: int) -> tuple[dict[str, str], list[str], str]:
    """The values file's lines, the definitions they make and the key with a commented-out definition."""
    keys = rng.sample(KEYS, rng.randint(4, 6))
    specials = ("https://api.example.com/v2?x=1&y=2", "a|b|c", "R&D / ops", "p@ss=word&1", "/var/log/app")
    values = {key: (rng.choice(specials) if rng.random() < 0.5 else f"{key.lower()}-{rng.randint(1, 99)}")
              for key in keys}
    lines = [f"{key}={value}" for key, value in values.items()]
    if traps >= 2:
        # after the key's definition (lines[0]), so a reader that takes "KEY=" anywhere in a line takes it last
        lines.insert(rng.randrange(1, len(lines) + 1), f"# {keys[0]}=old-{rng.randint(1, 99)}")
        lines.insert(rng.randrange(len(lines) + 1), "")
    if traps >= 3:
        values[keys[1]] = f"final-{rng.randint(1, 99)}"
        lines.append(f"{keys[1]}={values[keys[1]]}")  # defined twice: the last one counts
        other = keys[2].lower()
        values[other] = f"lower-{rng.randint(1, 99)}"  # a key differing only in case
        lines.insert(rng.randrange(len(lines) + 1), f"{other}={values[other]}")
    return values, lines, keys[0]


def _template(rng: random.Random, keys: list[str]) -> str:
    lines = [f"# generated for {{{{{keys[0]}}}}}"]
    for key in keys:
        lines.append(rng.choice((f"{key.lower()} = {{{{{key}}}}}", f"url: {{{{{key}}}}}/path", f"[{{{{{key}}}}}]",
                                 f"value {{{{{key}}}}} and ${key} and {{{key}}}")))
    lines.insert(rng.randrange(1, len(lines) + 1), f"static line {rng.randint(1, 999)}")
    return "".join(line + "\n" for line in lines)


def _render(body: str, values: dict[str, str]) -> str:
    out, rest = [], body
    while "{{" in rest:
        head, _, tail = rest.partition("{{")
        key, closed, after = tail.partition("}}")
        if closed and key in values:
            out.append(head + values[key])
        else:
            out.append(head + "{{" + (key + closed if closed else ""))
            rest = after if closed else tail
            continue
        rest = after
    return "".join(out) + rest
