"""Answer a question about a generated project's commit history (a folder of numbered patches), with a shell.

The tree holds ``app/`` as it is now and ``.history/<n>.patch``: the commits that built it, numbered from 1
(not zero-padded, so ``ls`` puts ``10.patch`` before ``2.patch``), each a header (``commit``, ``Author:``,
``Date:``, ``Subject:``) and a unified diff with ``a/``/``b/`` paths. Every line of every file carries a
unique token (``k4821``), so a line is easy to name. Questions, by level: which commit first added the
line holding a token (later commits show it as a context line, and from level 2 a commit may remove it and
a later one add it again); from level 1 which commit last changed a file; from level 2 which author made the
most commits changing a file (the maximum is unique); from level 3 in which commit a file was deleted
(``+++ /dev/null``; a look-alike file with a longer name lives on, and two more are deleted in other commits,
so the patches ending at ``/dev/null`` do not answer without the file's name). For "last changed" the answer is drawn first,
uniformly from commit 2 to the one before the last, and the file is left alone after it: the last commits touch
most files, so asking about a random file made "the commit before the last" (a constant near the usual history
length, or ``ls`` and subtract one) right on most of those questions. ``grep``/``awk`` over the patches, with
the numbers sorted as numbers, do it.

The answer is a commit number (``7``, ``commit 7`` and ``#7`` are accepted) or an author's name (any case),
judged exactly. The difficulty is the number of commits plus the changed lines over four plus the question's
weight.

Generation speed: about 560 problems/s at level 4 on this 2-core machine. Each draw builds a commit
history of 18-24 commits over 5 files with a unified diff per changed file (difflib) and a pool of 4,000
distinct tokens, and about 1 draw in 10 is redrawn because the question has no clear answer (for "top
author", most draws: see ``TOP_AUTHOR_KEPT``); the diffs
are the history the model reads.
"""

from __future__ import annotations

import collections
import random
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from palaestra.core import Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.terminal._patches import unified_diff
from palaestra.envs.terminal.common import ShellTask, shell_plan, words
from palaestra.verifiers.normalize import read_answer

HISTORY = ".history"
QUESTIONS = ("first_added", "last_changed", "top_author", "deleted_in")  # a level's questions: a prefix
DECOYS = ("_bak.txt", "_tmp.txt")  # "deleted in": look-alikes of the file asked about, deleted in other commits
# "top author": the chance a draw is kept, by how many authors made more commits in the whole history than the
# answer. A file's commits are a good share of the history, so its top author was the busiest of the history on
# about 0.6 of the draws, and the second busiest on 0.25: these even the first three out (a blind pick of a rank
# from the Author: lines, the file unread, earned 0.58 before).
TOP_AUTHOR_KEPT = (0.1, 0.3, 1.0)
WEIGHT = {"first_added": 0, "last_changed": 2, "top_author": 4, "deleted_in": 3}


@register
class CommitHistory(ShellTask):
    id = "terminal/commit_history"
    family = "terminal"
    description = "Answer a question about a generated project's commit history kept as numbered patch files."
    tags = ("terminal", "multi-turn", "shell", "files", "patch", "agentic")
    version = 3

    @dataclass(frozen=True)
    class Config:
        commits: tuple[int, int]
        files: int
        questions: int  # how many of QUESTIONS the level draws from
        budget: int

    presets = (
        Config((9, 12), 3, 1, 5),
        Config((11, 14), 3, 2, 6),
        Config((12, 16), 4, 3, 7),
        Config((14, 19), 4, 4, 8),
        Config((18, 24), 5, 4, 9),
    )
    growth = Growth(limits={"commits": 200, "files": 20, "questions": 4, "budget": 16})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(QUESTIONS[: config.questions])
        result = retry(lambda: _history(rng, config, kind), what="a history with a clear answer", attempts=120)
        files, question, answer, changed, subject = result
        prompt = (
            f"Your working directory holds a project in app/ and its commit history in {HISTORY}/: one file "
            "<n>.patch per commit, numbered from 1 in the order they were made, each a header (commit, Author:, "
            "Date:, Subject:) followed by a unified diff of the files it changed (paths starting with a/ and b/; "
            f"a deleted file's diff ends at +++ /dev/null).\n\n{question} Answer with "
            f"{'the author name' if kind == 'top_author' else 'the commit number'}.\n\n"
            f"{self.tools_prompt(config.budget)}"
        )
        data: dict[str, Any] = {"files": files, "kind": kind, "subject": subject, "changed": changed,
                                "budget": config.budget}
        return Problem(prompt=prompt, answer=answer, data=data)

    def judge(self, problem: Problem, answer: str) -> Verdict:
        if problem.data["kind"] == "top_author":
            name = read_answer(answer, _name)
            if name is None:
                return Verdict.unparsed("not a name")
            return Verdict.judge(name == (problem.answer or "").lower(), f"{name!r} is not the author asked for")
        number = read_answer(answer, _commit)
        if number is None:
            return Verdict.unparsed("not a commit number")
        return Verdict.judge(str(number) == problem.answer, f"commit {number} is not the one asked for")

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        commits = sum(1 for path in data["files"] if path.startswith(HISTORY + "/"))
        return commits + data["changed"] / 4 + WEIGHT[data["kind"]]

    def plan(self, problem: Problem) -> list[str]:
        return shell_plan([_command(problem.data["kind"], problem.data["subject"])], problem.answer or "")

    def spellings(self, problem: Problem) -> list[str]:
        if problem.data["kind"] == "top_author":
            return [(problem.answer or "").upper(), f"{problem.answer}.", f"\\boxed{{{problem.answer}}}"]
        return [f"commit {problem.answer}", f"#{problem.answer}", f"\\boxed{{{problem.answer}}}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        if problem.data["kind"] == "top_author":
            return ["nobody", f"{problem.answer}x", f"{problem.answer} or someone else"]
        number = int(problem.answer or 0)
        return [str(number + 1), str(max(number - 1, 0) if number > 1 else number + 2), f"{number} or {number + 1}"]


# Naming sentences a careful grader reads as the bare answer: "The commit is 8", "Author: Ann".
COMMIT_LEADS = ("the commit is ", "it was commit ", "it is commit ", "it was ")
NAME_LEADS = ("the author is ", "author: ", "author ", "it was ", "it is ")


def _without_lead(text: str, leads: tuple[str, ...]) -> str:
    for lead in leads:
        if text.startswith(lead):
            return text[len(lead):].strip()
    return text


def _commit(text: str) -> int | None:
    text = _without_lead(text.strip().rstrip(".").strip().lower(), COMMIT_LEADS)
    text = text.removeprefix(HISTORY + "/").removeprefix("commit").strip().removeprefix("#").removesuffix(".patch")
    return int(text.strip()) if text.strip().isdigit() and len(text.strip()) <= 6 else None


def _name(text: str) -> str | None:
    text = _without_lead(text.strip().rstrip(".").strip().lower(), NAME_LEADS)
    return text if text.isalpha() and len(text) <= 40 else None


def _history(rng: random.Random, config: CommitHistory.Config, kind: str
             ) -> tuple[dict[str, str], str, str, int, str] | None:
    """The tree, the question, its answer, the number of changed lines and the question's subject (a token or a
    path); None when the draw has no clear answer."""
    names = words(rng, 2 * config.files + 10, 2)
    authors = [name.title() for name in names[4:9]]  # files take their names from the end of the list
    tokens = iter(rng.sample(range(1000, 10_000), 4_000))

    def line() -> str:
        return f"{rng.choice(names[:4])} k{next(tokens)}\n"

    app = {f"app/{names.pop()}.txt": [line() for _ in range(6)] for _ in range(config.files)}
    if kind == "deleted_in":
        doomed = sorted(app)[0]
        app[doomed.replace(".txt", "_old.txt")] = [line() for _ in range(4)]  # a look-alike that lives on
        for suffix in DECOYS:  # look-alikes deleted in other commits
            app[doomed.replace(".txt", suffix)] = [line() for _ in range(4)]
    else:
        doomed = ""
    removed: list[str] = []  # lines taken out, that a later commit may bring back
    history: dict[int, dict[str, Any]] = {}
    count = rng.randint(*config.commits)
    delete_at = rng.randint(3, count - 1) if doomed else 0
    # Look-alikes are deleted too, in other commits: with one deletion in the history, the only patch ending at
    # +++ /dev/null answered every "deleted in" question without reading the file's name.
    decoys = dict(zip(rng.sample([n for n in range(3, count + 1) if n != delete_at], len(DECOYS)),
                      [doomed.replace(".txt", suffix) for suffix in DECOYS], strict=True)) if doomed else {}
    frozen, freeze_at = "", 0  # "last changed": the file asked about, and the commit that last changes it
    if kind == "last_changed":
        frozen, freeze_at = rng.choice(sorted(app)), rng.randint(2, count - 1)
    changed = 0
    day = date(2024, rng.randint(1, 12), rng.randint(1, 28))
    for number in range(1, count + 1):
        edits: dict[str, list[str]] = {}
        if number == delete_at:
            edits[doomed] = []
        if number in decoys:
            edits[decoys[number]] = []
        live = sorted(path for path in app if app[path] and path not in edits
                      and not (path == frozen and number > freeze_at))
        picked = rng.sample(live, min(len(live), rng.randint(1, 2)))
        if number == freeze_at and frozen not in picked:
            picked[-1] = frozen
        for path in picked:
            lines = list(app[path])
            draw = rng.random()
            at = rng.randrange(len(lines))
            if draw < 0.35:
                removed.append(lines[at])
                lines[at] = line()
            elif draw < 0.7:
                lines.insert(at, line())
            elif draw < 0.85 and removed and config.questions >= 3:
                lines.insert(at, removed.pop(rng.randrange(len(removed))))  # brought back
            elif len(lines) > 3:
                removed.append(lines.pop(at))
            else:
                lines.insert(at, line())
            edits[path] = lines
        diff = "".join(unified_diff(path, app[path], lines) for path, lines in sorted(edits.items()))
        changed += sum(1 for text in diff.splitlines() if text[:1] in "+-" and text[:3] not in ("+++", "---"))
        history[number] = {"author": rng.choice(authors), "edits": edits, "diff": diff, "day": day.isoformat()}
        day += timedelta(days=rng.randint(0, 3))
        for path, lines in edits.items():
            if lines:
                app[path] = lines
            else:
                del app[path]
    files = {path: "".join(lines) for path, lines in app.items()}
    for number, commit in history.items():
        subject = f"{rng.choice(('fix', 'tune', 'update', 'clean'))} {rng.choice(names[:4])}"
        files[f"{HISTORY}/{number}.patch"] = (f"commit {number}\nAuthor: {commit['author']}\nDate: {commit['day']}\n"
                                              f"Subject: {subject}\n\n{commit['diff']}")
    touched = {n: {p for p in c["edits"]} for n, c in history.items()}
    if kind == "first_added":
        # A line added by a commit past the first, shown by a later one too (context, removal or a re-adding).
        firsts: dict[str, int] = {}
        for number, commit in history.items():
            for text in commit["diff"].splitlines():
                if text.startswith("+") and not text.startswith("+++"):
                    firsts.setdefault(text[1:].split()[-1], number)
        shown = [token for token, number in firsts.items() if 1 < number and any(
            token in history[later]["diff"] for later in range(number + 1, count + 1))]
        if not shown:
            return None
        first = rng.choice(sorted({firsts[token] for token in shown}))  # commits equally likely, not tokens
        token = rng.choice(sorted(token for token in shown if firsts[token] == first))
        return files, f"Which commit first added a line containing {token}?", str(firsts[token]), changed, token
    if kind == "last_changed":
        path = frozen
        last = max((n for n, paths in touched.items() if path in paths), default=None)
        if last is None or last == count:  # a file no commit touched has no answer: draw again
            return None
        return files, f"Which commit last changed the file {path}?", str(last), changed, path
    if kind == "top_author":
        overall = collections.Counter(commit["author"] for commit in history.values())
        for path in rng.sample(sorted(app), len(app)):
            tally = collections.Counter(history[number]["author"] for number, paths in touched.items() if path in paths)
            ranked = [count for _, count in tally.most_common(2)]
            if len(ranked) < 2 or ranked[0] == ranked[1]:
                continue
            top = tally.most_common(1)[0][0]
            above = sum(1 for count in overall.values() if count > overall[top])  # authors busier in the history
            if rng.random() < TOP_AUTHOR_KEPT[min(above, len(TOP_AUTHOR_KEPT) - 1)]:
                return files, f"Which author made the most commits that changed the file {path}?", top, changed, path
        return None
    return files, f"In which commit was the file {doomed} deleted?", str(delete_at), changed, doomed


def _command(kind: str, subject: str) -> str:
    """The oracle's command: the patches in numeric order, searched for the question's token or path."""
    numbered = f"ls {HISTORY} | sort -n | sed 's#^#{HISTORY}/#'"
    if kind == "first_added":
        return f"{numbered} | xargs grep -l '^+.*{subject}' | head -1 | tr -dc 0-9"
    if kind == "last_changed":
        return f"{numbered} | xargs grep -l -e '^+++ b/{subject}$' -e '^--- a/{subject}$' | tail -1 | tr -dc 0-9"
    if kind == "deleted_in":
        return (f"for f in {HISTORY}/*.patch; do awk -v p='--- a/{subject}' 'prev == p && $0 == \"+++ /dev/null\" "
                "{ found = 1 } { prev = $0 } END { exit !found }' \"$f\" && echo \"$f\"; done | tr -dc 0-9")
    return (f"grep -l -e '^+++ b/{subject}$' -e '^--- a/{subject}$' {HISTORY}/*.patch | xargs grep -h '^Author:' | "
            "sort | uniq -c | sort -rn | head -1 | awk '{ print $3 }'")
