"""Compare two generated directory trees and list the files that differ, found with a sandboxed shell.

The working directory holds ``before/`` and ``after/``: two versions of one project (``docs/``, ``src/``,
``assets/``, nested from level 2). Most files are the same; some were edited (a changed character, an
appended line, a trailing space, a lost final newline: every byte counts), deleted, added or moved to
another folder (a move is a deletion and an addition), and a file may have a twin with the same name and
contents in another folder. The question asks, by level, for the paths (relative to the two roots, e.g.
``docs/a.txt``) of the files that differ in any way, or of those only edited (present in both, contents
different), only added, or only deleted; from level 3 files whose names end in ``.tmp`` are to be ignored,
and they differ too (one of them always qualifies under the question, since version 2). ``diff -rq``, ``comm`` over sorted ``find`` listings or ``md5sum`` do it.

The answer is judged as a set of paths (any order, one per line or separated by commas, ``./`` allowed):
every such path and no other. Every problem has at least two, and files that do not qualify under each
near miss of the question. The difficulty is the number of files plus twice the number of changes plus
the question's weight.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.terminal.common import ShellTask, judge_paths, path_list_spellings, shell_plan, words

TOP = ("docs", "src", "assets")
EXTENSIONS = ("txt", "md", "py", "json", "css")
QUESTIONS = {
    "any": "differs between the two versions in any way: present in only one of them, or present in both with "
           "different contents",
    "edited": "is present in both versions with different contents (not files present in only one)",
    "added": "is present in after/ but not at the same path in before/",
    "deleted": "is present in before/ but not at the same path in after/",
}
QUESTION_WEIGHT = {"any": 0, "added": 1, "deleted": 1, "edited": 2}
EXAMPLE = "<answer>\nlib/core.c\nREADME\n</answer>"  # fixed: a made-up tree's paths
# The oracle: checksums of both sides by path, joined; then the question's rows.
ORACLE = (
    "for side in before after; do (cd $side && find . -type f ! -name '*.tmp' -exec md5sum {{}} + "
    "| awk '{{print substr($2, 3), $1}}' | LC_ALL=C sort) > ../$side.sums; done; "
    "LC_ALL=C join -a1 -a2 -e MISSING -o 0,1.2,2.2 ../before.sums ../after.sums | awk '{select}' | LC_ALL=C sort"
)
SELECT = {"any": "$2 != $3 {print $1}", "edited": "$2 != $3 && $2 != \"MISSING\" && $3 != \"MISSING\" {print $1}",
          "added": "$2 == \"MISSING\" {print $1}", "deleted": "$3 == \"MISSING\" {print $1}"}


@register
class TreeDiff(ShellTask):
    id = "terminal/tree_diff"
    family = "terminal"
    description = "Compare two generated directory trees and list the files that differ as asked, with a sandboxed shell."
    tags = ("terminal", "multi-turn", "shell", "files", "diff", "agentic")
    version = 2

    @dataclass(frozen=True)
    class Config:
        files: tuple[int, int]
        changes: tuple[int, int]
        depth: int
        questions: tuple[str, ...]
        ignored: bool  # .tmp files, differing, to be ignored
        budget: int

    presets = (
        Config((6, 9), (2, 3), 0, ("any",), False, 5),
        Config((9, 14), (3, 4), 1, ("any", "added", "deleted"), False, 6),
        Config((12, 18), (3, 5), 2, ("any", "added", "deleted", "edited"), False, 7),
        Config((16, 24), (4, 6), 2, ("added", "deleted", "edited"), True, 8),
        Config((22, 32), (5, 8), 3, ("any", "edited"), True, 9),
    )
    growth = Growth(limits={"files": 200, "changes": 40, "depth": 6, "budget": 16})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        question = rng.choice(config.questions)
        before, after, answer = retry(lambda: _draw(rng, config, question), what="a few files that qualify",
                                      attempts=60)
        files = {**{f"before/{p}": b for p, b in before.items()}, **{f"after/{p}": b for p, b in after.items()}}
        ignore = " Ignore files whose names end in .tmp (wherever they lie)." if config.ignored else ""
        prompt = (
            "Your working directory holds two versions of a project: before/ and after/. List every file (at any "
            f"depth) that {QUESTIONS[question]}.{ignore} Compare contents byte by byte.\n\n"
            "Answer with the paths relative to the two versions' roots (docs/a.txt, not before/docs/a.txt), one "
            f"per line, in any order; for example, for different trees:\n{EXAMPLE}\n\n"
            f"{self.tools_prompt(config.budget)}"
        )
        changes = sum(before.get(p) != after.get(p) for p in set(before) | set(after))
        data: dict[str, Any] = {"files": files, "question": question, "matching": answer, "changes": changes,
                                "ignored": config.ignored, "budget": config.budget}
        return Problem(prompt=prompt, answer="\n".join(answer), data=data)

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return len(data["files"]) / 2 + 2 * data["changes"] + QUESTION_WEIGHT[data["question"]] + 2 * data["ignored"]

    def judge(self, problem: Problem, answer: str) -> Verdict:
        return judge_paths(answer, problem.data["matching"], "qualifying file(s)", "do not qualify", tree=problem.data["files"])

    def plan(self, problem: Problem) -> list[str]:
        return shell_plan([ORACLE.format(select=SELECT[problem.data["question"]])], problem.answer or "")

    def spellings(self, problem: Problem) -> list[str]:
        return path_list_spellings(problem.data["matching"], tree=problem.data["files"])

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        matching = problem.data["matching"]
        prefixed = "\n".join(f"before/{p}" for p in matching)
        return ["\n".join(matching[1:]), prefixed, ""]


def _text(rng: random.Random) -> str:
    return "\n".join(f"{rng.choice(('title', 'size', 'colour', 'owner', 'note'))}: {rng.randint(0, 99_999)}"
                     for _ in range(rng.randint(1, 6))) + "\n"


def _edited(rng: random.Random, body: str) -> str:
    """A small edit: one digit, an appended line, a trailing space on a line, or the final newline gone."""
    kind = rng.randrange(4)
    if kind == 0:
        digits = [i for i, c in enumerate(body) if c.isdigit()]
        i = rng.choice(digits)
        return body[:i] + str((int(body[i]) + rng.randint(1, 9)) % 10) + body[i + 1:]
    if kind == 1:
        return body + f"note: {rng.randint(0, 999)}\n"
    if kind == 2:
        return body.replace("\n", " \n", 1)
    return body.rstrip("\n")


def _draw(rng: random.Random, config: TreeDiff.Config,
          question: str) -> tuple[dict[str, str], dict[str, str], list[str]] | None:
    names = words(rng, 2 * config.files[1] + 3 * config.changes[1] + 2 * config.depth + 10, 2)
    folders = [[top] for top in TOP]
    for _ in range(config.depth * 2):
        folders.append([*rng.choice(folders), names.pop()])

    def new_path() -> str:
        return "/".join([*rng.choice(folders), f"{names.pop()}.{rng.choice(EXTENSIONS)}"])

    before = {new_path(): _text(rng) for _ in range(rng.randint(*config.files))}
    twin_source = rng.choice(sorted(before))  # the same name and contents in another folder, unchanged
    twin = "/".join([*rng.choice(folders), twin_source.rsplit("/", 1)[1]])
    before.setdefault(twin, before[twin_source])
    after = dict(before)
    for _ in range(rng.randint(*config.changes)):
        kind = rng.choice(("edit", "edit", "delete", "add", "move"))
        present = sorted(p for p in after if after[p] == before.get(p))  # not changed yet
        if not present:
            return None
        path = rng.choice(present)
        if kind == "edit":
            after[path] = _edited(rng, after[path])
        elif kind == "delete":
            del after[path]
        elif kind == "add":
            after[new_path()] = _text(rng)
        else:
            body = after.pop(path)
            after["/".join([*rng.choice(folders), path.rsplit("/", 1)[1]])] = body
    if config.ignored:  # scratch files that differ (or exist on one side only): ignored
        # The first one qualifies under the question, so that keeping the .tmp files always changes the answer (in
        # version 1 they were only edited or deleted: keeping them was right in every "added" question and in
        # about half of the "deleted" ones).
        fates = [question if question != "any" else "edited"]
        fates += [rng.choice(("edited", "edited", "deleted", "added")) for _ in range(rng.randint(0, 2))]
        for fate in fates:
            path = "/".join([*rng.choice(folders), f"{names.pop()}.tmp"])
            body = _text(rng)
            if fate != "added":
                before[path] = body
            if fate != "deleted":
                after[path] = _edited(rng, body) if fate == "edited" else body
    counted = sorted(p for p in set(before) | set(after) if not p.endswith(".tmp"))
    kinds = {p: ("added" if p not in before else "deleted" if p not in after else
                 "edited" if before[p] != after[p] else "same") for p in counted}
    matching = sorted(p for p, kind in kinds.items() if kind == question or (question == "any" and kind != "same"))
    others_differ = any(kind not in ("same", question) for kind in kinds.values()) or question == "any"
    if len(matching) < 2 or not others_differ:
        return None
    return before, after, sorted(matching, key=lambda p: p.encode())
