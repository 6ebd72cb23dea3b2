"""Red-team regressions (round 3, session 30, helper data3): rules of the task that the generator left inactive.

Each policy below follows the prompt but skips one stated rule; before the fix it still earned reward (measured
over 100 seeds a level):

- ``data/join`` v2: "amount greater than" read as "at least" answered 1.00 of every level (place and over-limit
  questions); v3 puts an order exactly on its bound: 0.00.
- ``data/funnel`` v2 (levels 3-4, time limit): the limit read as exclusive 0.99-1.00, measured between
  consecutive steps 0.81, only each user's first step-1 event tried 1.00; v3 plants a user for each: 0.00.
- ``data/top_k`` v2: for the fewer-games and best-game rules, skipping "then alphabetically by name" (tied
  players left in table order) answered 0.45-0.67 of all problems; v3: 0.00.
- ``data/apply_patch`` v1: each change applied at the first line equal to it, ignoring line numbers and context,
  answered 0.65-0.96; v2 repeats an edited line earlier in the file: 0.00.
- ``data/stock_ledger`` v2: ignoring the rejection of over-draws answered 0.37 of level 0; v3: 0.00.
- ``data/resample`` v2: NA readings read as 0 answered 0.25-0.30 of levels 2-4; v3: 0.00.

The policies are written from the prompt (join reads its tables from the problem's data), so they fail on the old
generators.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction

import palaestra


def _task(env_id: str):
    return palaestra.make(env_id).unwrapped.task


def _solved(env_id: str, policy: Callable, levels: tuple[int, ...], seeds: int) -> list[tuple[int, int]]:
    task = _task(env_id)
    won = []
    for level in levels:
        for seed in range(seeds):
            problem = task.sample(level, seed)
            answer = policy(problem)
            if answer is not None and task.verify(problem, answer).reward >= 1:
                won.append((level, seed))
    return won


# ----------------------------------------------------------------------------------------------------- join


def _join_at_least(problem) -> str | None:
    data = problem.data
    customers = {c["id"]: c for c in data["customers"]}
    chosen = []
    for order in data["orders"]:
        customer = customers.get(order["customer"])
        if customer is None or data["kind"] == "no_orders":
            continue
        if data["kind"] == "over_limit":
            keep = order["cents"] >= customer["limit"]
        else:
            place = customer["city"] if data["kind"] == "city" else data["countries"][customer["city"]]
            keep = place == data["place"] and order["cents"] >= data["threshold"]
        if keep:
            chosen.append(order["id"])
    return ", ".join(chosen) if data["kind"] != "no_orders" else None


def test_join_greater_than_is_not_at_least() -> None:
    assert _solved("data/join", _join_at_least, (0, 4), 12) == []


# --------------------------------------------------------------------------------------------------- funnel


def _funnel(problem, misread: str) -> str:
    log = problem.prompt.split("```\n")[1].split("\n```")[0]
    steps = re.search(r"The funnel is (.+?)\. A user", problem.prompt).group(1).split(" -> ")
    limit = int(re.search(r"all within (\d+) minutes", problem.prompt).group(1)) * 60
    per_user: dict[str, list[tuple[int, str]]] = {}
    for line in log.splitlines():
        clock, user, name = line.split()
        hours, minutes, seconds = map(int, clock.split(":"))
        per_user.setdefault(user, []).append((3600 * hours + 60 * minutes + seconds, name))
    depths = []
    for stamps in per_user.values():
        stamps.sort()
        best = 0
        for index, (start, event) in enumerate(stamps):
            if event != steps[0]:
                continue
            reached, last = 1, start
            for second, name in stamps[index + 1 :]:
                if reached == len(steps) or (misread == "exclusive" and second - start >= limit) or (
                        misread == "first" and second - start > limit):
                    break
                if name == steps[reached] and second > last and (misread != "gap" or second - last <= limit):
                    reached, last = reached + 1, second
            best = max(best, reached)
            if misread == "first":
                break
        depths.append(best)
    return ", ".join(str(sum(1 for d in depths if d > k)) for k in range(len(steps)))


def test_funnel_time_limit_rules_all_matter() -> None:
    for misread in ("exclusive", "gap", "first"):
        assert _solved("data/funnel", lambda p, m=misread: _funnel(p, m), (3, 4), 8) == [], misread


# ---------------------------------------------------------------------------------------------------- top_k


def _top_k_table_order(problem) -> str | None:
    """The stated first tie-break, but tied players left in the order they first appear (no "then by name")."""
    if "fewer games" not in problem.prompt and "best single-game" not in problem.prompt:
        return None
    table = problem.prompt.split("game,player,points\n")[1].split("\n\n")[0]
    totals: dict[str, int] = {}
    games: dict[str, int] = {}
    best: dict[str, int] = {}
    for line in table.splitlines():
        _, player, points = line.split(",")
        totals[player] = totals.get(player, 0) + int(points)
        games[player] = games.get(player, 0) + 1
        best[player] = max(best.get(player, 0), int(points))
    k = int(re.search(r"Who are the top (\d+) players", problem.prompt).group(1))
    second = (lambda p: games[p]) if "fewer games" in problem.prompt else (lambda p: -best[p])
    return ", ".join(sorted(totals, key=lambda p: (-totals[p], second(p)))[:k])  # sorted is stable: table order


def test_top_k_then_by_name_matters() -> None:
    assert _solved("data/top_k", _top_k_table_order, (0, 2, 4), 10) == []


# ---------------------------------------------------------------------------------------------- apply_patch


def _patch_by_search(problem) -> str | None:
    """Each hunk's change applied at the first line equal to its first removed line (an insertion after the first
    line equal to the context line before it), ignoring line numbers and the rest of the context."""
    lines = problem.prompt.split("```\n")[1].split("\n```")[0].split("\n")
    diff = problem.prompt.split("```diff\n")[1].split("\n```")[0].split("\n")
    hunks: list[list[str]] = []
    for line in diff:
        if line.startswith("@@"):
            hunks.append([])
        elif hunks and not line.startswith(("---", "+++")):
            hunks[-1].append(line)
    for hunk in hunks:
        removed = [line[1:] for line in hunk if line.startswith("-")]
        added = [line[1:] for line in hunk if line.startswith("+")]
        anchor = removed[0] if removed else [line[1:] for line in hunk if line.startswith(" ")][0]
        if anchor not in lines:
            return None
        if removed:
            where = lines.index(anchor)
            lines[where : where + len(removed)] = added
        else:
            before = hunk[: next(k for k, line in enumerate(hunk) if line.startswith("+"))]
            where = lines.index(before[-1][1:]) + 1
            lines[where:where] = added
    return "```\n" + "\n".join(lines) + "\n```"


def test_apply_patch_place_comes_from_line_numbers_and_context() -> None:
    assert _solved("data/apply_patch", _patch_by_search, (0, 2, 4), 8) == []


# --------------------------------------------------------------------------------------------- stock_ledger


def _ledger_without_rejections(problem) -> str:
    opening = problem.prompt.split("Opening stock:\n\n")[1].split("\n\n")[0]
    stock = {}
    for line in opening.splitlines():
        item, warehouse, quantity = re.fullmatch(r"(.+) at (W\d+): (\d+)", line).groups()
        stock[f"{item}_{warehouse}"] = int(quantity)
    for line in problem.prompt.split("in time order:\n\n")[1].split("\n\n")[0].splitlines():
        move = line.split(". ", 1)[1]
        if found := re.fullmatch(r"receive (\d+) (.+) at (W\d+)", move):
            stock[f"{found[2]}_{found[3]}"] += int(found[1])
        elif found := re.fullmatch(r"ship (\d+) (.+) from (W\d+)", move):
            stock[f"{found[2]}_{found[3]}"] -= int(found[1])
        elif found := re.fullmatch(r"transfer (\d+) (.+) from (W\d+) to (W\d+)", move):
            stock[f"{found[2]}_{found[3]}"] -= int(found[1])
            stock[f"{found[2]}_{found[4]}"] += int(found[1])
        elif found := re.fullmatch(r"stock count: (.+) at (W\d+) is (\d+)", move):
            stock[f"{found[1]}_{found[2]}"] = int(found[3])
    return ", ".join(f"{key} = {max(0, value)}" for key, value in stock.items())


def test_stock_ledger_rejection_matters_at_level_0() -> None:
    assert _solved("data/stock_ledger", _ledger_without_rejections, (0,), 30) == []


# ------------------------------------------------------------------------------------------------- resample


def _resample_na_as_zero(problem) -> str | None:
    if "NA" not in problem.prompt:
        return None
    body = problem.prompt.split("(time,value):\n\n")[1].split("\n\n")[0]
    readings = []
    for line in body.splitlines():
        clock, value = line.split(",")
        hours, minutes = map(int, clock.split(":"))
        readings.append((60 * hours + minutes, Fraction(0 if value == "NA" else int(value))))
    readings.sort()
    found = re.search(r"every (\d+) minutes from (\d\d):(\d\d) to (\d\d):(\d\d)", problem.prompt)
    step, start, end = int(found[1]), 60 * int(found[2]) + int(found[3]), 60 * int(found[4]) + int(found[5])
    values = []
    for t in range(start, end + 1, step):
        before = [r for r in readings if r[0] <= t][-1]
        after = [r for r in readings if r[0] >= t][0]
        if "forward fill" in problem.prompt or before[0] == after[0]:
            values.append(before[1])
        else:
            values.append(before[1] + (after[1] - before[1]) * Fraction(t - before[0], after[0] - before[0]))
    return ", ".join(str(v) for v in values)


def test_resample_na_is_not_zero() -> None:
    assert _solved("data/resample", _resample_na_as_zero, (2, 3, 4), 12) == []
