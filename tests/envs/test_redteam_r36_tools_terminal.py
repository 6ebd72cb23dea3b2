"""Session-36 red team (helper tools_terminal): clauses of a rule a solver could skip, and answers a constant earns.

Each test writes, in Python over the problem's data, the solver that follows the task's rule with one clause skipped
(or a cheap answer) and asserts the share of problems it solves at levels 0-4; the full rule must solve them all.
Before -> after (40 seeds a level, the worst level):

- terminal/split_csv v2: keeping the carriage return of a CRLF part's value 75-90% at levels 3-4 -> 0%;
- terminal/archive_restore v2: restoring the backup named by the prompt's day 42-60% at levels 1-4 -> 0%;
- terminal/dedupe_files v3: comparing contents without the final newline 38%, case-blind 40%, keeping the first copy
  by file name 42% (level 0) -> 0%;
- terminal/sort_files v2: ignoring the no-dot case 38% at level 0, each false status line 5-30% at levels 2-4 -> 0%;
- terminal/manifest v2: keeping hidden files 30%, files under tmp/ 33% (level 0), leaving out tmp* 25-35% (levels
  0-4), a case-blind sort 15% (level 3) -> 0%;
- tools/sql_statistics v3: the answer 0 (a slope rounding to 0.0000) 4-8% at levels 3-4 -> 0%;
- terminal/csv_report v2: reading a status with its carriage return 15-28% at levels 3-4, every file in the standard
  column order 12% at level 4 -> 0%;
- interactive/escape_room v2: entering 00, 01, 02... on the door until the budget ends 10-15% at levels 0-1 -> 2.5%.
"""

from __future__ import annotations

import base64
import gzip
import io
import itertools
import re
import tarfile
from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from envs_support import solves

from palaestra.core import Problem
from palaestra.core.registry import make_source

LEVELS = range(5)
SEEDS = range(20)


def _share(env_id: str, solved: Callable[[Problem], bool], levels: range = LEVELS, seeds: range = SEEDS) -> float:
    """The share of (level, seed) problems ``solved`` solves, over ``levels``."""
    source = make_source(env_id)
    problems = [source.sample(level, seed) for level in levels for seed in seeds]
    return sum(bool(solved(p)) for p in problems) / len(problems)


# --- terminal/split_csv: a value read with its carriage return names a wrong file --------------------------------

def _split(problem: Problem, keep_cr: bool) -> bool:
    data = problem.data
    outputs: dict[str, list[str]] = defaultdict(list)
    header = ""
    for path in sorted(data["files"]):
        lines = data["files"][path].split("\n")[:-1]
        header = lines[0].rstrip("\r")
        column = header.split(",").index(data["key"])
        for line in lines[1:]:
            value = (line if keep_cr else line.rstrip("\r")).split(",")[column]
            outputs[f"split/{value or 'none'}.csv"].append(line.rstrip("\r"))  # the judge reads LF or CRLF alike
    got = {path: "\n".join([header, *lines]) + "\n" for path, lines in outputs.items()}
    return got == data["expected"]


def test_split_csv_the_carriage_return_always_decides_a_file() -> None:
    assert _share("terminal/split_csv", lambda p: _split(p, keep_cr=True), range(3, 5)) == 0  # v1: 75-90%
    assert _share("terminal/split_csv", lambda p: _split(p, keep_cr=False)) == 1


# --- terminal/archive_restore: the stated day is never a backup's own date ---------------------------------------

def _restored_from(problem: Problem, rule: str) -> bool:
    data = problem.data
    day = re.search(r"on or before (\d{4}-\d\d-\d\d)", problem.prompt)
    if day is None:
        return False
    dates = sorted(name[len("backups/site-"):-len(".tar.gz")] for name in data["archives"])
    picked = [d for d in dates if d == day.group(1)] if rule == "named" else [d for d in dates if d <= day.group(1)]
    return bool(picked) and f"backups/site-{picked[-1]}.tar.gz" == data["backup"]


def _restored_tree(problem: Problem) -> dict[str, bytes]:
    """The tree after replacing the folder with the chosen backup's copy of it (the oracle's effect)."""
    data = problem.data
    folder = data["folder"] + "/"
    archive = gzip.decompress(base64.b64decode(data["archives"][data["backup"]]))
    tree = {p: b.encode() for p, b in data["files"].items() if not p.startswith(folder)}
    with tarfile.open(fileobj=io.BytesIO(archive)) as members:
        for member in members.getmembers():
            name = member.name.removeprefix("./")
            handle = members.extractfile(member) if member.isfile() else None
            if handle is not None and name.startswith(folder):
                tree[name] = handle.read()
    return tree


def test_archive_restore_the_backup_named_by_the_day_is_wrong() -> None:
    assert _share("terminal/archive_restore", lambda p: _restored_from(p, "named"), range(1, 5)) == 0  # v1: 42-60%
    assert _share("terminal/archive_restore", lambda p: _restored_from(p, "on or before"), range(1, 5)) == 1
    source = make_source("terminal/archive_restore")
    for level in LEVELS:
        problem = source.sample(level, 3)
        expected = source.expected_tree(problem)
        assert _restored_tree(problem) == {p: b for p, b in expected.items() if not p.startswith("backups/")}


# --- terminal/dedupe_files: every near miss and the byte order of paths decide a file -----------------------------

def _deduped(problem: Problem, same: Callable[[str], Any], order: Callable[[str], Any]) -> bool:
    files = problem.data["files"]
    first: dict[Any, str] = {}
    for path in sorted(files, key=order):
        first.setdefault(same(files[path]), path)
    return sorted(first.values()) == sorted(problem.data["kept"])


def test_dedupe_files_careless_comparisons_and_orders_fail() -> None:
    def by_bytes(path: str) -> bytes:
        return path.encode()

    def exact(body: str) -> str:
        return body

    careless = {"no final newline": (lambda b: b.rstrip("\n"), by_bytes), "case-blind": (str.lower, by_bytes),
                "by file name": (exact, lambda p: p.rsplit("/", 1)[1].encode()),
                "shortest path": (exact, lambda p: (len(p), p.encode()))}
    for what, (same, order) in careless.items():  # v2 at level 0: 38%, 40%, 42%, 28%
        assert _share("terminal/dedupe_files", lambda p, s=same, o=order: _deduped(p, s, o)) == 0, what
    assert _share("terminal/dedupe_files", lambda p: _deduped(p, exact, by_bytes)) == 1


# --- terminal/sort_files: every clause of the rule decides a file -------------------------------------------------

def _sorted_by_rule(problem: Problem, skip: str) -> bool:
    data = problem.data
    for path, body in data["files"].items():
        name = path.rsplit("/", 1)[1]
        if data["rule"] == "extension":
            if "." not in name:
                folder = name if skip == "no dot" else "none"  # ${name##*.} is the whole name
            else:
                extension = name.rsplit(".", 1)[1]
                folder = extension if skip == "lower case" else extension.lower()
            target = f"sorted/{folder}/{name}"
        elif data["rule"] == "date":
            year, month = re.search(r"_(\d{4})-(\d\d)-", name).groups()  # type: ignore[union-attr]
            target = f"archive/{year}/{month}/{name}"
        else:
            lines = body.split("\n")
            pattern = {"first line": r"status: (\w+)$", "case": r"(?i)status: (\w+)$", "colon": r"status:? (\w+)$",
                       "none": r"status: (\w+)$"}[skip]
            status = None
            for line in lines if skip == "first line" else lines[:1]:
                match = re.match(pattern, line)
                status = status or (match.group(1) if match else None)
            target = f"{status or 'unsorted'}/{name}"
        if target != data["targets"][path]:
            return False
    return True


def test_sort_files_every_clause_of_the_rule_decides_a_file() -> None:
    def share(skip: str, rule: str) -> float:
        return _share("terminal/sort_files", lambda p: p.data["rule"] == rule and _sorted_by_rule(p, skip))

    assert share("no dot", "extension") == 0  # v1: 38% at level 0
    assert share("lower case", "extension") == 0
    for skip in ("first line", "case", "colon"):  # v1: 5-30% at levels 2-4
        assert share(skip, "status") == 0, skip
    assert _share("terminal/sort_files", lambda p: _sorted_by_rule(p, "none")) == 1


# --- terminal/manifest: every exclusion, the newline count and the byte order decide a line -----------------------

def _manifest(problem: Problem, skip: str) -> bool:
    files = problem.data["files"]
    lines = []
    for path, body in files.items():
        parts = path.split("/")
        hidden = parts[-1].startswith(".") and skip != "hidden"
        under_tmp = any(p == "tmp" or (skip == "tmp*" and p.startswith("tmp")) for p in parts[:-1]) and skip != "tmp"
        if skip == "tmp*" and parts[-1].startswith("tmp"):
            under_tmp = True
        if hidden or under_tmp:
            continue
        count = len(body.splitlines()) if skip == "lines" else body.count("\n")
        lines.append((path.removeprefix("data/"), f"{count} {path.removeprefix('data/')}\n"))
    order = (lambda item: (item[0].lower(), item[0])) if skip == "case-blind sort" else (lambda item: item[0].encode())
    return "".join(line for _, line in sorted(lines, key=order)) == problem.data["manifest"]


def test_manifest_every_trap_decides_a_line() -> None:
    for skip in ("hidden", "tmp", "tmp*", "lines"):  # v1: 30%, 33%, 35%, 10% at level 0
        assert _share("terminal/manifest", lambda p, s=skip: _manifest(p, s)) == 0, skip
    assert _share("terminal/manifest", lambda p: _manifest(p, "case-blind sort"), range(3, 5)) == 0  # v1: 15%
    assert _share("terminal/manifest", lambda p: _manifest(p, "none")) == 1


# --- tools/sql_statistics: no statistic rounds to (nearly) nothing ------------------------------------------------

def test_sql_statistics_the_answer_zero_scores_nothing() -> None:
    source = make_source("tools/sql_statistics")
    for level in (3, 4):
        for seed in range(30):  # v2: 2 of these 60 problems were slopes rounding to 0.0000
            problem = source.sample(level, seed)
            assert abs(Fraction(*problem.data["exact"])) >= Fraction(1, 100), (level, seed)
            assert not solves(source, problem, ["0"])
            if seed < 5:
                assert solves(source, problem, [problem.answer or ""])


# --- terminal/csv_report: the carriage return and the column order decide a total --------------------------------

def _report(problem: Problem, skip: str) -> bool:
    units: dict[str, int] = defaultdict(int)
    revenue: dict[str, int] = defaultdict(int)
    for body in problem.data["files"].values():
        lines = body.split("\n")[:-1]
        columns = lines[0].rstrip("\r").split(",")
        if skip == "column order":
            columns = ["date", "item", "category", "qty", "unit_cents", "status"][: len(columns)]
        for line in lines[1:]:
            sale = dict(zip(columns, (line if skip == "carriage return" else line.rstrip("\r")).split(",")))
            if sale.get("status") == "refunded":
                continue
            qty, cents = (int(sale[c]) if sale[c].strip().isdigit() else 0 for c in ("qty", "unit_cents"))
            units[sale["category"]] += qty
            revenue[sale["category"]] += qty * cents
    ranked = sorted(units, key=lambda c: (-revenue[c], c))
    return "\n".join(["category,units,revenue", *(f"{c},{units[c]},{revenue[c]}" for c in ranked)]) + "\n" == \
        problem.data["report"]


def test_csv_report_every_trap_in_play_decides_a_total() -> None:
    assert _share("terminal/csv_report", lambda p: _report(p, "carriage return"), range(3, 5)) == 0  # v1: 15-28%
    assert _share("terminal/csv_report", lambda p: _report(p, "column order"), range(4, 5), range(30)) == 0  # v1: 12%
    assert _share("terminal/csv_report", lambda p: _report(p, "none")) == 1


# --- interactive/escape_room: trying codes in order does not escape -----------------------------------------------

def test_escape_room_trying_codes_in_order_rarely_escapes() -> None:
    source = make_source("interactive/escape_room")
    brute = honest = 0
    for level in (0, 1):
        for seed in range(30):
            problem = source.sample(level, seed)
            lock = problem.data["locks"]["door"]
            dials = len(lock["dials"]) if "dials" in lock else 3
            codes = ["".join(c) for c in itertools.product("0123456789", repeat=dials)][: problem.data["budget"] - 1]
            brute += solves(source, problem, [f"enter {code} on door" for code in codes] + ["open door"])
            if seed < 5:
                honest += solves(source, problem, _oracle_replies(source, problem))
    assert brute <= 2  # v1: 10 of these 60
    assert honest == 10


def _oracle_replies(source: Any, problem: Problem) -> list[str]:
    """The oracle's commands, played out."""
    state, replies = source.initial_state(problem), []
    for _ in range(problem.data["budget"]):
        replies.append(source.oracle(problem, state))
        outcome = source.play(problem, state, replies[-1])
        if outcome.done:
            break
        state = outcome.state
    return replies
