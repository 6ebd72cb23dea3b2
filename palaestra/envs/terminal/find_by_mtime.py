"""List the files of a generated tree modified within a stated time range (and other metadata), with a shell.

The tree holds ``data/`` (nested from level 1) whose files carry modification times spread over a few
months (the episode's tree keeps them: it starts from a prepared archive). The question asks for the files
modified on or after a stated UTC instant and before another; from level 2 the file must also be larger
than a stated number of bytes, and from level 3 have a stated extension. Near misses: files modified
exactly at the lower bound (they count, though ``find -newermt`` is strict and misses them), exactly at the
upper bound and one second before the lower one (they do not count), files exactly at the size bound (not
larger), hidden files (they count), and from level 3 names with spaces. ``find -newermt`` with care at the
bounds, or ``stat -c '%Y'``/``find -printf '%T@'`` compared as numbers, do it.

The answer is the set of matching paths relative to the working directory (``data/a/b.txt``), one per line
or separated by commas, in any order; judged as a set: every matching file and no other. Every problem has
at least two matching files and not all of them match. The difficulty is the number of files plus the near
misses plus twice the conditions.

The four files at the time bounds (at and one second before the lower one, at and one second before the upper
one) meet the size and extension conditions, so that only the bounds decide them: in version 1 they often
failed another condition, and ``find -newermt LOW ! -newermt HIGH`` (strict at the lower bound, inclusive at
the upper one) listed exactly the right files in about 45% of levels 3-4. The file at the lower bound is
hidden (it counts): in version 1 hidden files were left to chance, and a listing without them was right in
67-83% of problems.

Version 3 (session-30 red team): from level 2 a file inside the range, with the extension asked, is exactly at the
size bound, and from level 3 one inside the range and larger than the bound has another extension; in version 2
they were left to chance, and a listing with ``-size`` taken as "at least" was right in 33-42% of levels 2-4,
one that skipped the extension in 36-48% of levels 3-4.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from palaestra.core import Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.terminal._trees import PreparedTreeTask, tree_archive
from palaestra.envs.terminal.common import judge_paths, path_list_spellings, shell_plan, words

EXAMPLE = "<answer>\ndata/reports/q1.csv\ndata/notes.txt\n</answer>"  # fixed: a made-up tree's paths
EXTENSIONS = ("txt", "csv", "log", "json")


@register
class FindByMtime(PreparedTreeTask):
    id = "terminal/find_by_mtime"
    family = "terminal"
    description = "List the files of a generated tree modified within a UTC time range (and larger than a size)."
    tags = ("terminal", "multi-turn", "shell", "files", "search", "agentic")
    version = 3

    @dataclass(frozen=True)
    class Config:
        files: tuple[int, int]
        depth: int
        conditions: int  # 1: the time range; 2: and a size; 3: and an extension (and names with spaces)
        budget: int

    presets = (
        Config((6, 9), 0, 1, 5),
        Config((9, 13), 1, 1, 6),
        Config((12, 17), 1, 2, 7),
        Config((15, 22), 2, 3, 8),
        Config((20, 28), 2, 3, 9),
    )
    growth = Growth(limits={"files": 200, "depth": 5, "conditions": 3, "budget": 16})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[dict[str, str], dict[str, int], dict[str, Any], list[str]] | None:
            files, mtimes, question = _tree(rng, config)
            matching = sorted(path for path in files if _matches(path, files[path], mtimes[path], question))
            return (files, mtimes, question, matching) if 2 <= len(matching) <= len(files) - 3 else None

        files, mtimes, question, matching = retry(draw, what="a tree with a few matching files", attempts=50)
        low, high = (_stamp(question[key]) for key in ("low", "high"))
        conditions = [f"- it was last modified at or after {low} and before {high} (UTC)"]
        if question["size"] is not None:
            conditions.append(f"- it is larger than {question['size']} bytes")
        if question["extension"] is not None:
            conditions.append(f"- its name ends in .{question['extension']}")
        prompt = (
            "Your working directory holds a folder data/. Find every file under data/ (at any depth, hidden files "
            "included) that meets all of these conditions:\n" + "\n".join(conditions) + "\n\n"
            "Answer with the paths of the matching files relative to the working directory, one per line, in any "
            f"order; for example, for a different tree:\n{EXAMPLE}\n\n{self.tools_prompt(config.budget)}"
        )
        data: dict[str, Any] = {"files": files, "mtimes": mtimes, "question": question, "matching": matching,
                                "budget": config.budget}
        return Problem(prompt=prompt, answer="\n".join(matching), data=data)

    def initial_archive(self, problem: Problem) -> bytes:
        return tree_archive(problem.data["files"], mtimes=problem.data["mtimes"])

    def judge(self, problem: Problem, answer: str) -> Verdict:
        return judge_paths(answer, problem.data["matching"], "matching file(s)", "do not match", tree=problem.data["files"])

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        question = data["question"]
        near = sum(1 for t in data["mtimes"].values() if abs(t - question["low"]) <= 1 or t == question["high"])
        conditions = 1 + (question["size"] is not None) + (question["extension"] is not None)
        return len(data["files"]) + near + 2 * conditions

    def plan(self, problem: Problem) -> list[str]:
        question = problem.data["question"]
        size = question["size"] if question["size"] is not None else -1
        extension = f" && $3 ~ /\\.{question['extension']}$/" if question["extension"] is not None else ""
        # Paths may hold spaces: the path is everything after the second field.
        command = (f"find data -type f -printf '%T@ %s %p\\n' | awk '{{ t = int($1); p = substr($0, index($0, $3)) }} "
                   f"t >= {question['low']} && t < {question['high']} && $2 > {size}{extension} {{ print p }}'")
        return shell_plan([command], problem.answer or "")

    def spellings(self, problem: Problem) -> list[str]:
        return path_list_spellings(problem.data["matching"], tree=problem.data["files"])

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        matching = problem.data["matching"]
        others = sorted(set(problem.data["files"]) - set(matching))
        return ["\n".join(matching[1:]), "\n".join([*matching, rng.choice(others)]),
                "\n".join(sorted(problem.data["files"])), ""]


def _stamp(seconds: int) -> str:
    return datetime.fromtimestamp(seconds, timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def _tree(rng: random.Random, config: FindByMtime.Config) -> tuple[dict[str, str], dict[str, int], dict[str, Any]]:
    names = words(rng, 2 * config.files[1] + 2 * config.depth + 4, 2)
    folders = ["data"]
    for _ in range(2 * config.depth):
        folders.append(f"{rng.choice(folders)}/{names.pop()}")
    start = datetime(2024, rng.randint(1, 6), rng.randint(1, 28), tzinfo=timezone.utc)
    low = start + timedelta(days=rng.randint(20, 40), hours=rng.choice((0, 0, 9, 13)), minutes=rng.choice((0, 30)))
    high = low + timedelta(days=rng.randint(3, 20))
    low_s, high_s = int(low.timestamp()), int(high.timestamp())
    question: dict[str, Any] = {"low": low_s, "high": high_s,
                                "size": rng.choice((40, 60, 80)) if config.conditions >= 2 else None,
                                "extension": rng.choice(EXTENSIONS) if config.conditions >= 3 else None}
    span = int((high - start).total_seconds()) + 30 * 86_400
    files: dict[str, str] = {}
    mtimes: dict[str, int] = {}
    near = [low_s, low_s - 1, high_s, high_s - 1]  # at the bounds: in, out, out, in
    for index in range(rng.randint(*config.files)):
        stem = names.pop()
        if config.conditions >= 3 and rng.random() < 0.25:
            stem = f"{stem} {names.pop()}"
        if index == 0 or rng.random() < 0.1:  # the file at the lower bound (it counts) is hidden
            stem = f".{stem}"
        at_bound = index < len(near)  # a file at a time bound meets the other conditions: the bound alone decides
        # Inside the range and meeting every other condition: a file exactly at the size bound, one of another
        # extension (so that each of these conditions, and the size bound's strictness, decides a file).
        size_miss = question["size"] is not None and index == len(near)
        other_extension = question["extension"] is not None and index == len(near) + 1
        if other_extension:
            extension = rng.choice([e for e in EXTENSIONS if e != question["extension"]])
        else:
            extension = (question["extension"] if question["extension"] and (at_bound or size_miss or rng.random() < 0.5)
                         else rng.choice(EXTENSIONS))
        path = f"{rng.choice(folders)}/{stem}.{extension}"
        body = "".join(f"{rng.choice(('row', 'entry', 'note'))} {rng.randint(0, 999)}\n" for _ in range(rng.randint(1, 12)))
        if (at_bound or other_extension) and question["size"] is not None:
            while len(body) <= question["size"]:
                body += f"{rng.choice(('row', 'entry', 'note'))} {rng.randint(0, 999)}\n"
        elif size_miss or (question["size"] is not None and rng.random() < 0.2):  # at the size bound: not larger
            body = (body * (question["size"] // len(body) + 1))[: question["size"] - 1] + "\n"
        files[path] = body
        if index < len(near):
            mtimes[path] = near[index]
        elif size_miss or other_extension:
            mtimes[path] = rng.randrange(low_s + 1, high_s - 1)
        elif rng.random() < 0.35:  # inside the range
            mtimes[path] = rng.randrange(low_s, high_s)
        else:
            mtimes[path] = int(start.timestamp()) + rng.randrange(span)
    return files, mtimes, question


def _matches(path: str, body: str, mtime: int, question: dict[str, Any]) -> bool:
    return (question["low"] <= mtime < question["high"]
            and (question["size"] is None or len(body.encode()) > question["size"])
            and (question["extension"] is None or path.endswith("." + question["extension"])))
