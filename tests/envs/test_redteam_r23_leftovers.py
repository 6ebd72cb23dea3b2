"""Red-team regressions for leftover findings in the terminal and physics families (round 3, session 23).

Each test applies a careless shortcut (a prefix match, a reader that does not skip comments, a constant) to
generated problems and checks that it no longer pays, and that the careful version of the same policy does.
"""

from __future__ import annotations

import re
from datetime import datetime

import palaestra
from palaestra.core.registry import make_source
from palaestra.envs.terminal.template_fill import _render

BASE = 23_000


def _problems(env_id: str, level: int, count: int) -> list[palaestra.Problem]:
    source = make_source(env_id)
    return [source.sample(level, BASE + seed) for seed in range(count)]


# --- terminal/ini_edit: near misses forced for every change ------------------------------------------------------


def _ini_careless(body: str, edits: list[list[str]], mode: str) -> str:
    """The files' text after a careless edit: ``key`` matches every key starting with K, ``section`` every section
    starting with S, ``comments`` also commented-out lines, ``spacing`` only ``K = v`` lines; ``exact`` is right."""
    section, out = None, []
    for line in body.split("\n"):
        if line.startswith("["):
            section = line[1:-1]
            out.append(line)
            continue
        for name, key, value in edits:
            if not (section or "").startswith(name) if mode == "section" else section != name:
                continue
            if mode == "key":
                hit = line.startswith(key)
            elif mode == "comments":
                hit = re.fullmatch(r"[;#]? *" + re.escape(key) + " *=.*", line) is not None
            elif mode == "spacing":
                hit = line.startswith(key + " = ")
            else:
                hit = re.fullmatch(re.escape(key) + " *=.*", line) is not None
            if hit:
                line = f"{key} = {value}"
                break
        out.append(line)
    return "\n".join(out)


def _ini_share(level: int, mode: str, count: int) -> float:
    source = make_source("terminal/ini_edit")
    right = 0
    for problem in _problems("terminal/ini_edit", level, count):
        files = problem.data["files"]
        tree = {
            p: (_ini_careless(b, problem.data["edits"], mode) if p.endswith(".ini") else b).encode()
            for p, b in files.items()
        }
        right += tree == source.expected_tree(problem)
    return right / count


def test_ini_edit_careless_matches_fail_at_level_0() -> None:
    # version 1: the key-prefix match was right 61% of the time at level 0, the section-prefix one 35%
    assert _ini_share(0, "exact", 30) == 1.0
    for mode in ("key", "section", "comments", "spacing"):
        assert _ini_share(0, mode, 60) == 0.0, mode


# --- terminal/log_window: notes that a careless reader counts --------------------------------------------------

_REQUEST = re.compile(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?Z (\S+) \S+ \S+ (\d+) (\d+)")


def _log_answer(problem: palaestra.Problem, skip_notes: bool) -> str:
    """The measure over every line holding a request record (found anywhere in the line, as an unanchored grep
    finds it), skipping lines starting with # only when asked."""
    low, high = (datetime.strptime(bound, "%Y-%m-%dT%H:%M:%SZ") for bound in problem.data["bounds"])
    status, inside = problem.data["status"], []
    for body in problem.data["files"].values():
        for line in body.splitlines():
            match = _REQUEST.search(line)
            if not match or (skip_notes and line.startswith("#")):
                continue
            stamp = datetime.strptime(match.group(1), "%Y-%m-%dT%H:%M:%S")
            if match.group(2):
                stamp = stamp.replace(microsecond=int(match.group(2).ljust(6, "0")))
            if low <= stamp < high and (status is None or int(match.group(4)) // 100 == status):
                inside.append((match.group(3), int(match.group(5))))
    measure = problem.data["measure"]
    if measure == "count":
        return str(len(inside))
    return str(sum(size for _, size in inside) if measure == "bytes" else len({ip for ip, _ in inside}))


def test_log_window_notes_change_the_answer() -> None:
    # version 3: notes held no time, so counting them changed nothing (the careless reader was right 100%)
    source = make_source("terminal/log_window")
    for level in (2, 4):
        problems = _problems("terminal/log_window", level, 25)
        assert all(source.judge(p, _log_answer(p, skip_notes=True)).correct for p in problems)
        assert not any(source.judge(p, _log_answer(p, skip_notes=False)).correct for p in problems)


# --- terminal/template_fill: the commented-out definition is read by a careless reader ---------------------------


def _fill_right(problem: palaestra.Problem, careless: bool) -> bool:
    """Whether rendering with values read by ``KEY=value`` found anywhere in a line (``careless``, as ``grep KEY=``
    does) or only on lines not starting with # gives the expected outputs."""
    definition = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(.*)")
    values: dict[str, str] = {}
    for line in problem.data["files"]["values.env"].splitlines():
        match = definition.search(line) if careless else None if line.startswith("#") else definition.match(line)
        if match:
            values[match.group(1)] = match.group(2)
    outputs = {
        "out/" + path[len("templates/") : -len(".tmpl")]: _render(body, values)
        for path, body in problem.data["files"].items()
        if path.startswith("templates/") and path.endswith(".tmpl")
    }
    return outputs == problem.data["targets"]


def test_template_fill_commented_definition_matters() -> None:
    # version 1: the careless reader was right on 17% of levels 2-4
    for level in (2, 4):
        problems = _problems("terminal/template_fill", level, 40)
        assert all(_fill_right(p, careless=False) for p in problems)
        assert not any(_fill_right(p, careless=True) for p in problems)


# --- physics/kinematics: the constant 0 ---------------------------------------------------------------------------


def test_kinematics_constant_zero_scores_nothing() -> None:
    # version 3: the constant 0 scored 6% at level 1 (a start from rest or a stop asked for)
    source = make_source("physics/kinematics")
    for level in (1, 2, 3):
        problems = _problems("physics/kinematics", level, 150)
        assert sum(source.check(p, source.format_answer("0")).reward for p in problems) == 0
