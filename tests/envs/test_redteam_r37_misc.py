"""Red team, round 3 session 37 (leftovers and the least recently touched data envs): fans that see a star-shaped
polygon, checks with an extra clause, a 31-day window, misread rules of four data envs.

- geometry/polygon_area v4: v3 joined the vertices in angular order around their centroid, so the fan of
  unsigned triangle areas from that centroid solved every problem of levels 0-4 (40 seeds a level), from the
  area centroid 0.47-0.68 of levels 2-4, from the middle of the bounding box 0.33-0.55, and a fan from the
  second, third, fourth or last vertex 0.03-0.28 of levels 2-4 and 0.75-0.88 of level 1. Now every polygon
  from level 1 is not star-shaped (its kernel is empty): each of those fans solves 0.00 of levels 1-4.
- repo/input_validation v3: the valid inputs of the hidden tests never held an empty list beside another rule,
  a negative limit or value, fewer values than a size, an empty right side to merge or an empty text, so a
  check with an extra clause (``not values or limit < 0``, ``size < 1 or not values``, ``low > high or not
  values``, ``not words``...) passed every such function at levels 0-4 (30 seeds a level), rejecting an empty
  part of a text 0.17-0.67. Now the boundary holds those inputs: 0.
- service/payroll_corrections v4: v3 paid every period three days after it ended, 14 days apart, so no period
  was paid 31 days ago beside the one paid 30 days ago: a policy counting 31 days as within the 30-day window
  solved 1.00 of levels 2-6. Now the period before the one paid 30 days ago had its pay held up to the next
  day: 0.12-0.17 (40 seeds), the all-allowed problems, as any policy that refuses less.
- data/sessionize v3: sessions read as windows of G minutes from their first event solved 0.53 of level 0 and
  0.12 of level 1, one session per user 0.23 of level 0 (40 seeds a level); now 0.
- data/log_windows v3: counting the lines outside the span in the nearest window solved 0.62-0.85 of levels 0-1
  (a line at the span's end kept in the last window) and 0.45-0.60 of levels 2-5; now 0.
- data/asof_join v3: the rate of the nearest effective date solved 0.62/0.33/0.20 of levels 0-2, the first row
  listed on or before the date 0.68/0.50 of levels 0-1; now 0.
- code/knapsack v3: the greedy rule for the fewest coins (largest first, each up to the limit) passed every
  hidden test of 0.29-0.33 of those problems at levels 0-4 (60 seeds a level); now the first target where it goes
  wrong is tested: it passes only coin sets where it is right on every target in range (a correct program).
- data/csv_fields v3: reading each line that starts with a record id as the record (continuation lines skipped)
  solved 0.42-0.68 of levels 2-6 (the quantity sat left of the only multi-line field; a tenth had no broken
  note); now the note precedes both asked columns and one is always broken: 0.
- data/json_diff v3: comparing Python values (``True == 1``) solved every problem of levels 0-5, reading null as
  no setting 0.75-0.95, comparing only the settings in both versions 0.17-0.47; now 0.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import re
from datetime import date, datetime, timedelta
from fractions import Fraction
from typing import Any

import pytest
from envs_support import solves

from palaestra.core.registry import make_source
from palaestra.envs.code.common import compiled_function
from palaestra.envs.repo import _templates as tpl
from palaestra.envs.repo.input_validation import RULES
from palaestra.envs.service.common import call, dollars
from palaestra.verifiers.rationals import format_fraction

# --- geometry/polygon_area --------------------------------------------------------------------------------------

POLYGON = make_source("geometry/polygon_area")
Point = tuple[Fraction, Fraction]


def _cross(o: Point, a: Point, b: Point) -> Fraction:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _edges(points: list[Point]) -> list[tuple[Point, Point]]:
    return list(zip(points, points[1:] + points[:1]))


def _fan(points: list[Point], origin: Point) -> Fraction:
    """The unsigned areas of the triangles from ``origin`` to every edge, added up."""
    return sum((abs(_cross(origin, a, b)) for a, b in _edges(points)), Fraction(0)) / 2


def _origins(points: list[Point]) -> dict[str, Point]:
    n = len(points)
    twice = sum((_cross((Fraction(0), Fraction(0)), a, b) for a, b in _edges(points)), Fraction(0))
    xs, ys = [x for x, _ in points], [y for _, y in points]
    area_centroid = (sum(((a[0] + b[0]) * _cross((Fraction(0), Fraction(0)), a, b) for a, b in _edges(points)),
                         Fraction(0)) / (3 * twice),
                     sum(((a[1] + b[1]) * _cross((Fraction(0), Fraction(0)), a, b) for a, b in _edges(points)),
                         Fraction(0)) / (3 * twice))
    return {"first vertex": points[0], "second vertex": points[1], "third vertex": points[2],
            "fourth vertex": points[3 % n], "last vertex": points[-1],
            "vertex centroid": (sum(xs, Fraction(0)) / n, sum(ys, Fraction(0)) / n),
            "area centroid": area_centroid,
            "bounding box middle": ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)}


def _points(problem: Any) -> list[Point]:
    return [(Fraction(x), Fraction(y)) for x, y in problem.data["points"]]


def test_polygon_area_no_fan_of_unsigned_triangles_from_a_fixed_point_solves() -> None:
    for level in range(1, 5):
        wins: dict[str, int] = {}
        for seed in range(25):
            problem = POLYGON.sample(level, 37_000 + seed)
            points = _points(problem)
            for name, origin in _origins(points).items():
                wins[name] = wins.get(name, 0) + (POLYGON.verify(problem, format_fraction(_fan(points, origin))).reward
                                                  == 1.0)
        assert max(wins.values()) <= 1, (level, wins)  # v3: the vertex centroid's fan solved 25 of 25


def test_polygon_area_is_simple_and_the_shoelace_area_is_accepted() -> None:
    for level in range(6):
        for seed in range(15):
            problem = POLYGON.sample(level, 37_100 + seed)
            points = _points(problem)
            edges = _edges(points)
            n = len(edges)
            for i in range(n):
                for j in range(i + 2, n - (i == 0)):
                    (a, b), (c, d) = edges[i], edges[j]
                    crossing = (_cross(a, b, c) * _cross(a, b, d) <= 0 and _cross(c, d, a) * _cross(c, d, b) <= 0)
                    assert not crossing, (level, seed, i, j)
            area = abs(sum((_cross((Fraction(0), Fraction(0)), a, b) for a, b in edges), Fraction(0))) / 2
            assert POLYGON.verify(problem, format_fraction(area)).reward == 1.0
            assert POLYGON.verify(problem, problem.answer).reward == 1.0


# --- repo/input_validation --------------------------------------------------------------------------------------

# checks with an extra clause, each rejecting a valid input the request does not name (leaf key -> checks)
OVER_BROAD = {
    "count_above": ("not values or limit < 0", "not values or limit <= 0", "not values or limit < 2",
                    "not values or any(v < 0 for v in values)"),
    "window_sums": ("size < 1 or not values", "size < 1 or size > len(values)"),
    "chunks": ("size < 1 or not values", "size < 1 or size > len(values)"),
    "clamp": ("low > high or not values", "low > high or low < 0"),
    "weighted_total": ("len(prices) != len(counts) or not prices", "len(prices) != len(counts) or 0 in counts"),
    "merge": ("any(a > b for a, b in zip(left, left[1:])) or any(a > b for a, b in zip(right, right[1:])) "
              "or not right",),
    "running_max": ("not values or any(v < 0 for v in values)",),
    "spread": ("not values or any(v < 0 for v in values)",),
    "initials": ("any(word == '' for word in words) or not words",),
    "parse_pairs": ("any(part and not part.partition('=')[0].strip() for part in text.split(';')) or not text",
                    "any(not part.partition('=')[0].strip() for part in text.split(';'))"),
}


def _checked(key: str, name: str, check: str) -> Any:
    """The leaf's function (the env's own template text) with ``check`` raising ValueError first."""
    head, body = tpl.leaf_text(tpl.LEAF_BY_KEY[key], name).split("\n", 1)
    namespace: dict[str, Any] = {}
    exec(f"{head}\n    if {check}:\n        raise ValueError('invalid input')\n{body}", namespace)  # noqa: S102
    return namespace[name]


def _passes(function: Any, cases: list[list[Any]]) -> bool:
    for _, _, args, expected in cases:
        try:
            result: Any = json.loads(json.dumps(function(*tpl.copied(args))))
        except ValueError:
            result = {"raised": "ValueError"}
        except Exception as error:  # noqa: BLE001 - the kind is the result, as the hidden tests report it
            result = {"raised": type(error).__name__}
        if result != expected:
            return False
    return True


def _requested(problem: Any) -> list[tuple[str, str]]:
    """The (leaf key, function name) of each function the request names."""
    text = "\n".join(problem.data["files"].values())
    found = []
    for name in re.findall(r"- `(\w+)` in", problem.prompt):
        params = re.search(rf"^def {name}\(([^)]*)\)", text, re.MULTILINE).group(1)  # type: ignore[union-attr]
        found += [(leaf.key, name) for leaf in tpl.LEAVES if leaf.params == params and name.startswith(leaf.names)]
    return found


def test_input_validation_checks_with_an_extra_clause_fail_the_hidden_cases() -> None:
    task = make_source("repo/input_validation")
    passed: dict[str, int] = {}
    seen = set()
    for level in range(5):
        for seed in range(25):
            problem = task.sample(level, 37_000 + seed)
            for key, name in _requested(problem):
                seen.add(key)
                cases = [case for case in problem.data["hidden"] if case[1] == name]
                assert _passes(_checked(key, name, RULES[key].check), cases), (level, seed, key)
                for check in OVER_BROAD.get(key, ()):
                    passed[check] = passed.get(check, 0) + _passes(_checked(key, name, check), cases)
    assert seen >= set(OVER_BROAD)
    assert not any(passed.values()), {check: n for check, n in passed.items() if n}  # v3: count_above's all


@pytest.fixture()
def _python_sandbox() -> None:
    from palaestra.sandbox import probe

    if "python" not in probe().languages:
        pytest.skip("the sandbox cannot run Python here: the repo envs run their tests in it")


@pytest.mark.usefixtures("_python_sandbox")
def test_input_validation_the_negative_limit_check_fails_in_the_sandbox_and_the_oracle_passes() -> None:
    task = make_source("repo/input_validation")
    problem = next(p for p in (task.sample(1, 37_000 + seed) for seed in range(40))
                   if any(key == "count_above" for key, _ in _requested(p)))
    files = dict(problem.data["files"])
    for path, before, after in problem.data["changes"]:
        files[path] = files[path].replace(before, after) if before else after
    assert task.judge_episode(problem, {"repo": files}, "submit").reward == 1.0
    line = f"    if {RULES['count_above'].check}:\n"
    path = next(path for path, text in files.items() if line in text and "limit" in text)
    files[path] = files[path].replace(line, "    if not values or limit < 0:\n")
    assert task.judge_episode(problem, {"repo": files}, "submit").reward == 0.0


# --- service/payroll_corrections --------------------------------------------------------------------------------

PAYROLL = make_source("service/payroll_corrections")


def _pay(rate: int, hours: float) -> int:
    return int(rate * Fraction(min(hours, 8)) + Fraction(3, 2) * rate * Fraction(max(hours - 8, 0)))


def _replies(problem: Any, window_days: int) -> list[str]:
    """The payroll policy as stated, but for a window of ``window_days`` days (30: as stated)."""
    data = problem.data
    records, caller, rules = copy.deepcopy(data["records"]), data["caller"], data["rules"]
    today = date.fromisoformat(records["today"])
    replies = [call("find_employee", email=records["employees"][caller]["email"])]
    added, total = 0, 0
    for index, request in enumerate(data["requests"]):
        if index == data["vague"]:
            replies.append("Which day, and how many hours did you work?")
        employee, day, hours = request["employee"], request["day"], request["hours"]
        replies.append(call("get_day", employee_id=employee, day=day))
        period = next(p for p in records["periods"].values() if p["start"] <= day <= p["end"])
        rate = records["employees"][employee]["rate_cents"]
        message = "Sorry, the policy does not allow that correction."
        if employee != caller or (rules["limit"] and hours > 12):
            pass
        elif period["paid"] is None:
            replies.append(call("set_hours", employee_id=employee, day=day, hours=hours))
            records["hours"][employee][day] = hours
            message = "Corrected."
        elif not rules["window"] or (today - date.fromisoformat(period["paid"])).days <= window_days:
            amount = _pay(rate, hours) - _pay(rate, records["hours"][employee][day])
            replies.append(call("add_adjustment", employee_id=employee, day=day, amount_cents=amount))
            message = f"Adjustment ADJ{100 + added} of {dollars(amount)} added."
            added, total = added + 1, total + amount
        replies.append(f"{message} Anything else?")
    return [*replies, dollars(total)]


def test_payroll_a_31_day_window_solves_only_the_all_allowed_problems() -> None:
    for level in range(2, 6):
        wins = 0
        for seed in range(25):
            problem = PAYROLL.sample(level, 37_000 + seed)
            assert solves(PAYROLL, problem, _replies(problem, 30)), (level, seed)
            wins += solves(PAYROLL, problem, _replies(problem, 31))
        assert wins <= 6, (level, wins)  # v3: 25 of 25


def test_payroll_with_the_window_periods_are_paid_30_and_31_days_ago() -> None:
    for seed in range(10):
        problem = PAYROLL.sample(2, seed)
        today = date.fromisoformat(problem.data["records"]["today"])
        paid = {p["paid"] for p in problem.data["records"]["periods"].values()}
        assert {(today - timedelta(days=days)).isoformat() for days in (30, 31)} <= paid


# --- data/sessionize, data/log_windows, data/asof_join ----------------------------------------------------------


def _clicks(problem: Any) -> list[tuple[int, str]]:
    """(second of the day, user) of each event, read from the prompt's log."""
    events = []
    for line in problem.prompt.split("```")[1].strip().splitlines():
        stamp, user, _ = line.split()
        hours, minutes, seconds = map(int, stamp.split(":"))
        events.append((3600 * hours + 60 * minutes + seconds, user))
    return events


def _sessions(events: list[tuple[int, str]], gap: int, rule: str) -> str:
    """``user: sessions, seconds`` lines under the rule as stated, as windows from a session's first event, or as
    one session per user."""
    lines = []
    for user in dict.fromkeys(user for _, user in events):
        stamps = sorted(second for second, who in events if who == user)
        count, start, longest = 1, stamps[0], 0
        for previous, current in zip(stamps, stamps[1:]):
            split = {"stated": current - previous > gap, "window": current - start > gap, "one": False}[rule]
            if split:
                longest, count, start = max(longest, previous - start), count + 1, current
        lines.append(f"{user}: {count}, {max(longest, stamps[-1] - start)}")
    return "\n".join(lines)


def test_sessionize_windows_from_the_first_event_and_one_session_per_user_fail() -> None:
    source = make_source("data/sessionize")
    for level in range(3):
        wins = {"window": 0, "one": 0}
        for seed in range(30):
            problem = source.sample(level, 37_000 + seed)
            events, gap = _clicks(problem), 60 * problem.data["gap"]
            assert source.verify(problem, _sessions(events, gap, "stated")).reward == 1.0
            for rule in wins:
                wins[rule] += source.verify(problem, _sessions(events, gap, rule)).reward == 1.0
        assert max(wins.values()) <= 1, (level, wins)  # v2: windows 16 of 30 at level 0


def _log_counts(problem: Any, clamp: bool) -> str:
    """The counts of the asked lines per window, from the prompt (``clamp``: lines outside the span counted in the
    nearest window)."""
    found = re.search(r"from (\S+ \S+) to (\S+ \S+) UTC into consecutive (\d+)-minute", problem.prompt)
    assert found is not None
    start, end = (datetime.fromisoformat(found.group(k) + "+00:00") for k in (1, 2))
    width = 60 * int(found.group(3))
    windows = int((end - start).total_seconds()) // width
    what = re.search(r"Count the (.*?) in each window", problem.prompt).group(1)  # type: ignore[union-attr]
    counts = [0] * windows
    for line in problem.prompt.split("```")[1].strip().splitlines():
        stamp, level, service = line.split()[:3]
        if "WARN or ERROR" in what:
            counted = level in ("WARN", "ERROR")
        elif what.startswith("lines of level"):
            counted = level == what.split()[-1]
        else:
            counted = level == "ERROR" and service.strip("[]") == what.split()[-2]
        second = int((datetime.fromisoformat(stamp.replace("Z", "+00:00")) - start).total_seconds())
        if clamp:
            second = min(max(second, 0), windows * width - 1)
        if counted and 0 <= second < windows * width:
            counts[second // width] += 1
    return ", ".join(map(str, counts))


def test_log_windows_counting_lines_outside_the_span_fails() -> None:
    source = make_source("data/log_windows")
    for level in range(5):
        wins = 0
        for seed in range(25):
            problem = source.sample(level, 37_000 + seed)
            assert source.verify(problem, _log_counts(problem, False)).reward == 1.0
            wins += source.verify(problem, _log_counts(problem, True)).reward == 1.0
        assert wins <= 1, (level, wins)  # v2: 18 of 25 at level 0


def _euros(problem: Any, rule: str) -> str:
    """``id = euros`` pairs at the rate in force (``stated``), at the nearest effective date's, or at the first row
    listed on or before the date."""
    rates_text, rest = problem.prompt.split("Transactions:")
    rows = [line.split(",") for line in rates_text.splitlines() if re.match(r"[A-Z]{3},\d{4}-", line)]
    pairs = []
    for line in rest.split("A rate applies")[0].splitlines():
        if not re.match(r"T\d+,", line):
            continue
        key, day, currency, amount = line.split(",")
        eligible = [(when, Fraction(rate)) for cur, when, rate in rows if cur == currency]
        if currency == "EUR":
            rate = Fraction(1)
        elif rule == "stated":
            rate = max(row for row in eligible if row[0] <= day)[1]
        elif rule == "nearest":
            moment = date.fromisoformat(day)
            rate = min(eligible, key=lambda row: abs((date.fromisoformat(row[0]) - moment).days))[1]
        else:
            rate = next(value for when, value in eligible if when <= day)
        pairs.append(f"{key} = {format_fraction(Fraction(amount) * rate)}")
    return ", ".join(pairs)


def test_asof_join_the_nearest_date_and_the_first_listed_rate_fail() -> None:
    source = make_source("data/asof_join")
    for level in range(3):
        wins = {"nearest": 0, "listed": 0}
        for seed in range(30):
            problem = source.sample(level, 37_000 + seed)
            assert source.verify(problem, _euros(problem, "stated")).reward == 1.0
            for rule in wins:
                wins[rule] += source.verify(problem, _euros(problem, rule)).reward == 1.0
        assert max(wins.values()) <= 1, (level, wins)  # v2: 21 of 30 at level 0


def _settings(node: dict, prefix: str = "") -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in node.items():
        found.update(_settings(value, f"{prefix}{key}.") if isinstance(value, dict) else {f"{prefix}{key}": value})
    return found


def _diff(problem: Any, reading: str) -> str:
    """The entries under the rule as stated, comparing Python values, reading null as no setting, or comparing
    only the settings in both versions."""
    old, new = (_settings(json.loads(block.split("```")[0])) for block in problem.prompt.split("```json")[1:3])
    if reading == "null absent":
        old, new = ({k: v for k, v in side.items() if v is not None} for side in (old, new))
    entries = {f"~{k}" for k in old.keys() & new.keys()
               if (old[k] != new[k] if reading == "python" else json.dumps(old[k]) != json.dumps(new[k]))}
    if reading != "both only":
        entries |= {f"+{k}" for k in new.keys() - old.keys()} | {f"-{k}" for k in old.keys() - new.keys()}
    return ", ".join(sorted(entries))


def test_json_diff_python_equality_null_as_absent_and_common_settings_only_fail() -> None:
    source = make_source("data/json_diff")
    for level in range(5):
        wins = {"python": 0, "null absent": 0, "both only": 0}
        for seed in range(20):
            problem = source.sample(level, 37_000 + seed)
            assert source.verify(problem, _diff(problem, "stated")).reward == 1.0
            for reading in wins:
                wins[reading] += source.verify(problem, _diff(problem, reading)).reward == 1.0
        assert max(wins.values()) <= 1, (level, wins)  # v2: Python equality 20 of 20


# --- code/knapsack ----------------------------------------------------------------------------------------------


def _greedy_coins(spec: dict[str, Any]) -> Any:
    """The greedy rule for the fewest (largest coins first) or most (smallest first) coins, each up to the limit."""
    def solve(target: int) -> int:
        count = 0
        for coin in sorted(spec["coins"], reverse=spec["variant"] == "min_coins"):
            copies = min(spec["l"], target // coin)
            target, count = target - copies * coin, count + copies
        return count if target == 0 else -1
    return solve


def test_knapsack_greedy_coins_fail_a_hidden_test_unless_right_on_every_target() -> None:
    source = make_source("code/knapsack")
    seen, passed = 0, 0
    for level in range(5):
        for seed in range(40):
            problem = source.sample(level, 37_000 + seed)
            spec = problem.data["spec"]
            if spec["variant"] in ("min_coins", "max_coins"):
                seen += 1
                greedy = _greedy_coins(spec)
                if all(greedy(*test["args"]) == test["expected"] for test in problem.data["tests"]):
                    passed += 1
                    reference = compiled_function(problem.answer)
                    bound = max(test["args"][0] for test in problem.data["tests"])
                    assert all(greedy(t) == reference(t) for t in range(bound + 1)), (level, seed)
    assert seen >= 20 and passed <= seen // 4, (seen, passed)  # v2: greedy passed 0.29-0.33 of the fewest coins


def _column(problem: Any, line_by_line: bool) -> str:
    """The asked column's values: the file parsed as CSV, or each line that starts with a record's id parsed alone
    (the lines continuing a note skipped)."""
    text = problem.prompt.split("```")[1].strip("\n")
    asked = re.search(r"value of the column (\w+)", problem.prompt).group(1)  # type: ignore[union-attr]
    if line_by_line:
        rows = [next(csv.reader([line])) for line in text.splitlines() if re.match(r"\d+,", line) or line[:3] == "id,"]
    else:
        rows = list(csv.reader(io.StringIO(text)))
    index = rows[0].index(asked)
    return ", ".join(row[index] if len(row) > index else "" for row in rows[1:])


def test_csv_fields_reading_line_by_line_fails_from_level_2() -> None:
    source = make_source("data/csv_fields")
    for level in range(2, 5):
        wins = 0
        for seed in range(30):
            problem = source.sample(level, 37_000 + seed)
            assert source.verify(problem, _column(problem, False)).reward == 1.0
            wins += source.verify(problem, _column(problem, True)).reward == 1.0
        assert wins <= 1, (level, wins)  # v2: 0.42-0.68
