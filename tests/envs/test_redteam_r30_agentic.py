"""Red-team regressions for the repo, terminal and data envs never tested before (round 3, session 30, agentic).

Each test measures a shortcut that paid without doing the asked task before its fix.
"""

from __future__ import annotations

import re

import palaestra
from palaestra.core.registry import make_source


def _problems(env_id: str, level: int, count: int, base: int = 30_000) -> list[palaestra.Problem]:
    source = make_source(env_id)
    return [source.sample(level, base + seed) for seed in range(count)]


def _patch_lines(text: str) -> dict[str, tuple[list[str], list[str]]]:
    """Per file a patch touches (its ``a/``/``b/`` path without the prefix): its removed and added lines."""
    out: dict[str, tuple[list[str], list[str]]] = {}
    current = None
    for line in text.split("\n"):
        if line.startswith("--- "):
            continue
        if line.startswith("+++ "):
            current = line[4:].split("/", 1)[1] if "/" in line[4:] else None
            if current is not None:
                out.setdefault(current, ([], []))
        elif current is not None and line[:1] in ("-", "+"):
            out[current][0 if line[0] == "-" else 1].append(line[1:])
    return out


def test_patch_series_glob_order_cannot_apply() -> None:
    # v1: a glob's order (1, 10, 11, ..., 2, ...) skipping the [DROP] patches left the right tree in ~4% of
    # level 1 and ~11% of level 2 (100 seeds, real `patch -p1`): the two-digit patches often touched lines no
    # earlier patch wrote. v2: the first applied two-digit patch removes a line that neither the initial file
    # nor patch 1 holds, so it cannot apply right after patch 1.
    for level in (1, 2, 3):
        for problem in _problems("terminal/patch_series", level, 25):
            files = problem.data["files"]
            numbered = {int(re.match(r"patches/(\d+)-", path).group(1)): body  # type: ignore[union-attr]
                        for path, body in files.items() if path.startswith("patches/")}
            applied = [n for n in sorted(numbered) if n >= 10 and "Subject: [DROP]" not in numbered[n]]
            if not applied:
                continue  # only dropped patches have two digits: a glob's order is the right one
            first = _patch_lines(numbered[1])
            later = _patch_lines(numbered[applied[0]])
            blocked = [
                line for path, (removed, _) in later.items() for line in removed
                if line not in files.get(path, "").split("\n") and line not in first.get(path, ([], []))[1]
            ]
            assert blocked, (level, problem.seed)


def _reconcile_rule(prompt: str, fields: set[str]) -> str:
    """The refs a check of only ``fields`` (``amount``, ``date``, ``payee``, ``ledger_only``, ``bank_only``)
    lists: rows compared after the bank's formatting is undone."""
    parts = prompt.split("\n\n")
    ledger = {row[0]: row for row in (line.split(",") for line in parts[1].split("\n")[1:])}
    bank = {row[0]: row for row in (line.split(",") for line in parts[3].split("\n")[1:])}
    out = (set(ledger) - set(bank) if "ledger_only" in fields else set()) | (
        set(bank) - set(ledger) if "bank_only" in fields else set())
    for ref in set(ledger) & set(bank):
        mine, theirs = ledger[ref], bank[ref]
        day, month, year = theirs[1].split("/")
        if ("date" in fields and mine[1] != f"{year}-{month}-{day}") or (
                "payee" in fields and mine[2].lower() != theirs[2].lower()) or (
                "amount" in fields and float(mine[3]) != float(theirs[3])):
            out.add(ref)
    return ", ".join(sorted(out)) or "none"


def test_reconcile_a_check_blind_to_a_field_or_side_fails() -> None:
    # v1: faults were drawn freely, so a comparison that skipped the payee was right in 63-84% of problems
    # (200 seeds a level), one that skipped the date in 34-66%, the amount in 41-60%, the missing refs in
    # 38-64%; v2 has a mismatch of every field and a ref missing from each side in every problem.
    source = make_source("data/reconcile")
    every = {"amount", "date", "payee", "ledger_only", "bank_only"}
    for level in (0, 2, 4):
        problems = _problems("data/reconcile", level, 25)
        assert all(source.verify(p, _reconcile_rule(p.prompt, every)).correct for p in problems), level
        for skipped in sorted(every):
            solved = sum(source.verify(p, _reconcile_rule(p.prompt, every - {skipped})).correct for p in problems)
            assert solved == 0, (level, skipped)


def test_json_path_every_index_and_slice_selects() -> None:
    # v1: only filters were redrawn when they kept every element, so reading a path without its slice was right
    # in 49% of level 0 problems with a slice (22-25% at levels 1-2), without its index in 16% at level 0.
    from palaestra.envs.data.json_path import select

    for level in (0, 1, 2):
        for problem in _problems("data/json_path", level, 40):
            path = problem.data["path"]
            for at, step in enumerate(path):
                if step[0] in ("index", "slice", "filter"):
                    document = _json_path_document(problem.prompt)
                    assert select(document, [*path[:at], ["wild"], *path[at + 1:]]) != select(document, path)


def _json_path_document(prompt: str) -> object:
    import json

    def cents(value: object) -> object:  # prices are kept in cents
        if isinstance(value, dict):
            return {k: round(v * 100) if k == "price" else cents(v) for k, v in value.items()}
        if isinstance(value, list):
            return [cents(v) for v in value]
        return value

    return cents(json.loads(prompt.split("Here is a JSON document:\n\n")[1].split("\n\nEvaluate")[0]))
