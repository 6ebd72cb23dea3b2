"""Greedy algorithms as stdin/stdout programs in Python, C, C++ or JavaScript.

Templates (parameters vary the rules, the input format and what is asked):

- **interval_selection**: the most pairwise compatible intervals (or the fewest to remove), with
  closed or half-open intervals given by their ends or their lengths;
- **meeting_rooms**: the fewest rooms for a set of meetings when a room needs a cleaning gap;
- **task_assignment**: the most tasks done when a worker can do a task at most a slack above skill;
- **digit_removal**: the smallest or largest number left after removing (or keeping) k digits;
- **refuelling**: the fewest fuel stops to reach a target, or the farthest reach with K stops;
- **deadlines**: the best profit (or most jobs) when jobs of length L must finish by deadlines.

Multi-test (T cases in one input, one answer line each). Levels add templates and grow the
inputs. Expected answers come from the Python reference program, run in-process (templates/greedy_programs.txt).
"""

from __future__ import annotations

import random
from typing import Any

from palaestra.core import register
from palaestra.envs.code._polyglot import (
    SizedConfig,
    StdioPolyglotTask,
    StdioTemplate,
    stdio_sources,
)
from palaestra.envs.code.templates import ProgramTexts

CODE = ProgramTexts("greedy_programs")


def _pairs_input(pairs: list[list[int]]) -> str:
    return f"{len(pairs)}\n" + "".join(f"{a} {b}\n" for a, b in pairs)


# --- interval selection -----------------------------------------------------------------------

def _at_the_gap(rng: random.Random, intervals: list[list[int]], gap: int, longest: int) -> list[list[int]]:
    """``intervals`` with, more often than not, one more starting exactly ``gap`` (or ``gap - 1``) after one of them
    ends: the boundary a program with the gap off by one gets wrong (version 2)."""
    if rng.random() < 0.6:
        _, end = rng.choice(intervals)
        start = max(0, end + gap - rng.choice((0, 1)))
        intervals.insert(rng.randint(0, len(intervals)), [start, start + rng.randint(1, longest)])
    return intervals


class IntervalSelection(StdioTemplate):
    name = "interval_selection"
    pinned = ("gap",)
    tier = 1

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"gap": rng.randint(0, 4), "measure": rng.choice(["keep", "remove"]), "lengths": rng.random() < 0.5}

    def statement(self, p: dict[str, Any]) -> str:
        given = ("\"s d\": an interval from s to s + d (d >= 1)" if p["lengths"]
                 else "\"s e\": an interval from s to e (s < e)")
        gap = p["gap"]
        rule = (f"Two intervals are compatible when the later one starts at least {gap} after the earlier one ends "
                f"(an interval ending at e is compatible with one starting at s when s >= e + {gap})"
                + (", so intervals that share only an endpoint are compatible." if gap == 0 else "."))
        asked = ("the largest number of intervals that can be chosen so that any two of them are compatible"
                 if p["measure"] == "keep" else
                 "the smallest number of intervals to remove so that any two of the remaining ones are compatible")
        return f"Each test is a line with n, then n lines {given}. {rule} For each test print {asked}."

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        out = []
        for _ in range(rng.randint(1, size)):
            start = rng.randint(0, 3 * size)
            out.append([start, start + rng.randint(1, 8)])
        return _at_the_gap(rng, out, p["gap"], 8)

    def case_input(self, case: Any, p: dict[str, Any]) -> str:
        return _pairs_input([[s, e - s] if p["lengths"] else [s, e] for s, e in case])

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        end = "s + e" if p["lengths"] else "e"
        gap = p["gap"]
        result_py = "kept" if p["measure"] == "keep" else "n - kept"
        return stdio_sources(CODE, "IntervalSelection", p, end=end, gap=gap, result_py=result_py)


# --- meeting rooms ----------------------------------------------------------------------------

class MeetingRooms(StdioTemplate):
    name = "meeting_rooms"
    pinned = ("gap",)
    tier = 1

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"gap": rng.randint(0, 5), "durations": rng.random() < 0.5}

    def statement(self, p: dict[str, Any]) -> str:
        given = ("\"s d\": a meeting that starts at time s and lasts d (d >= 1)" if p["durations"]
                 else "\"s e\": a meeting from time s to time e (s < e)")
        gap = (f"After a meeting ending at time e, its room must be cleaned: it can host a meeting starting at time "
               f"e + {p['gap']} or later." if p["gap"] else
               "A room whose meeting ends at time e can host a meeting starting at time e or later.")
        return (f"Each test is a line with n, then n lines {given}. A room hosts one meeting at a time. {gap} For "
                "each test print the smallest number of rooms that can host all the meetings.")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        out = []
        for _ in range(rng.randint(1, size)):
            start = rng.randint(0, 4 * size)
            out.append([start, start + rng.randint(1, 10)])
        return _at_the_gap(rng, out, p["gap"], 10)

    def case_input(self, case: Any, p: dict[str, Any]) -> str:
        return _pairs_input([[s, e - s] if p["durations"] else [s, e] for s, e in case])

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        end = "s + e" if p["durations"] else "e"
        gap = p["gap"]
        return stdio_sources(CODE, "MeetingRooms", p, end=end, gap=gap)


# --- task assignment --------------------------------------------------------------------------

class TaskAssignment(StdioTemplate):
    name = "task_assignment"
    pinned = ("slack", "capacity")
    tier = 2

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"slack": rng.randint(0, 4), "measure": rng.choice(["done", "left"]), "capacity": rng.randint(1, 3)}

    def statement(self, p: dict[str, Any]) -> str:
        slack = f"at most {p['slack']} above the worker's skill" if p["slack"] else "at most the worker's skill"
        asked = ("the largest number of tasks that can be done" if p["measure"] == "done"
                 else "the smallest number of tasks that must be left undone")
        return (f"Each test is a line with n and m, a line with the n skills of the workers and a line with the m "
                f"difficulties of the tasks. A worker can do a task whose difficulty is {slack}; each worker does "
                f"at most {'one task' if p['capacity'] == 1 else str(p['capacity']) + ' tasks'} and each task needs "
                f"one worker. For each test print {asked}.")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        top = 2 * size + 5
        workers = [rng.randint(1, top) for _ in range(rng.randint(1, size))]
        tasks = [rng.randint(1, top) for _ in range(rng.randint(1, size))]
        if rng.random() < 0.6:  # a task right at (or just past) a worker's reach: the slack must be exact
            tasks[rng.randrange(len(tasks))] = rng.choice(workers) + p["slack"] + rng.choice((0, 1))
        return [workers, tasks]

    def case_input(self, case: Any, p: dict[str, Any]) -> str:
        workers, tasks = case
        return f"{len(workers)} {len(tasks)}\n{' '.join(map(str, workers))}\n{' '.join(map(str, tasks))}\n"

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        slack, capacity = p["slack"], p["capacity"]
        result = "done" if p["measure"] == "done" else "m - done"
        return stdio_sources(CODE, "TaskAssignment", p, capacity=capacity, slack=slack, result=result)


# --- digit removal ----------------------------------------------------------------------------

class DigitRemoval(StdioTemplate):
    name = "digit_removal"
    tier = 2

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"goal": rng.choice(["smallest", "largest"]), "given": rng.choice(["remove", "keep"]),
                "zeros": rng.choice(["strip", "keep"]), "k_first": rng.random() < 0.5}

    def statement(self, p: dict[str, Any]) -> str:
        k = ("delete exactly k of its digits" if p["given"] == "remove"
             else "delete digits so that exactly k of them remain")
        zeros = ("Print the result without leading zeros (print 0 if nothing but zeros is left)."
                 if p["zeros"] == "strip" else "Print every remaining digit, leading zeros included.")
        line = "an integer k and a string of digits" if p["k_first"] else "a string of digits and an integer k"
        return (f"Each test is one line with {line}. From the string, {k}, keeping the "
                f"others in their order. For each test print the {p['goal']} number that can be left. {zeros}")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        pool = "0123456789" if rng.random() < 0.7 else "0019"
        digits = "".join(rng.choice(pool) for _ in range(rng.randint(2, size + 1)))
        return [digits, rng.randint(1, len(digits) - 1)]

    def case_input(self, case: Any, p: dict[str, Any]) -> str:
        return f"{case[1]} {case[0]}\n" if p["k_first"] else f"{case[0]} {case[1]}\n"

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        remove_py = "k" if p["given"] == "remove" else "len(digits) - k"
        remove_c = "k" if p["given"] == "remove" else "n - k"
        remove_js = "k" if p["given"] == "remove" else "digits.length - k"
        worse = ">" if p["goal"] == "smallest" else "<"
        strip = p["zeros"] == "strip"
        py_out = '(result.lstrip("0") or "0")' if strip else "result"
        c_out = ('    int start = 0;\n    while (start < top - 1 && stack_[start] == \'0\') start++;\n'
                 '    puts(stack_ + start);' if strip else "    puts(stack_);")
        js_out = 'result.replace(/^0+/, "") || "0"' if strip else "result"
        if p["k_first"]:
            read_py = "k, digits = next_int(), next_word()"
            read_c = "int k = (int)next_int();\n    strcpy(digits, next_word());"
            read_js = "const k = nextInt(), digits = nextWord();"
        else:
            read_py = "digits, k = next_word(), next_int()"
            read_c = "strcpy(digits, next_word());\n    int k = (int)next_int();"
            read_js = "const digits = nextWord(), k = nextInt();"
        return stdio_sources(CODE, "DigitRemoval", p,
                             read_py=read_py, remove_py=remove_py, worse=worse, py_out=py_out, read_c=read_c,
                             remove_c=remove_c, c_out=c_out, read_js=read_js, remove_js=remove_js, js_out=js_out)


# --- refuelling -------------------------------------------------------------------------------

class Refuelling(StdioTemplate):
    name = "refuelling"
    pinned = ("reserve", "stops")
    tier = 3

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"stops": rng.choice([0, 0, 1, 2, 3, 4]), "reserve": rng.randint(0, 3)}  # stops 0: the fewest stops

    def statement(self, p: dict[str, Any]) -> str:
        asked = (f"the largest distance from the start the car can reach using at most {p['stops']} fuel stops "
                 "(never more than the target distance D)" if p["stops"] else
                 "the smallest number of fuel stops needed to reach the target, or -1 if it cannot be reached")
        return ("Each test is a line with D, F and n, then n lines \"x g\": a car starts at position 0 with F units of "
                "fuel and drives towards position D, burning one unit per unit of distance; its tank has no limit. "
                "A station at position x (0 < x < D, listed by increasing x) gives g units of fuel if the car stops "
                "there; the car can reach a position only if its fuel lasts that far"
                + (f" while keeping a reserve of {p['reserve']} units that it never burns" if p["reserve"] else "")
                + f". For each test print {asked}.")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        target = rng.randint(10, 10 * size + 10)
        positions = sorted(rng.sample(range(1, target), min(rng.randint(1, size), target - 1)))
        return {"target": target, "fuel": rng.randint(1, target // 2 + 1) + p["reserve"],
                "stations": [[x, rng.randint(1, target // 3 + 1)] for x in positions]}

    def case_input(self, case: Any, p: dict[str, Any]) -> str:
        stations = case["stations"]
        return f"{case['target']} {case['fuel']} {len(stations)}\n" + "".join(f"{x} {g}\n" for x, g in stations)

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        limit, reserve = p["stops"], p["reserve"]
        limit_py, limit_c = (str(limit), str(limit)) if limit else ("n", "n")
        py_out = "min(reach, target)" if limit else "stops if reach >= target else -1"
        c_out = ("reach < target ? reach : target" if limit else "reach >= target ? stops : -1")
        return stdio_sources(CODE, "Refuelling", p, imports="import heapq",
                             reserve=reserve, limit_py=limit_py, py_out=py_out, limit_c=limit_c, c_out=c_out)


# --- deadlines --------------------------------------------------------------------------------

class Deadlines(StdioTemplate):
    name = "deadlines"
    tier = 3

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"length": rng.randint(1, 3), "measure": rng.choice(["profit", "profit", "count"]),
                "start": rng.randint(0, 3)}

    def statement(self, p: dict[str, Any]) -> str:
        asked = "the largest total profit" if p["measure"] == "profit" else "the largest number of jobs"
        length = "1 unit of time" if p["length"] == 1 else f"{p['length']} units of time"
        return (f"Each test is a line with n, then n lines \"d p\": a job with deadline d and profit p. Every job "
                f"takes {length}; jobs run one at a time, without overlap, starting at time {p['start']} or later, and "
                "a "
                "job counts only "
                f"if it finishes by its deadline (at time d or earlier). For each test print {asked} of the jobs "
                "that can all be done.")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        latest = p["length"] * (size // 2 + 2)
        return [[rng.randint(1, latest), rng.randint(1, 50)] for _ in range(rng.randint(1, size))]

    def case_input(self, case: Any, p: dict[str, Any]) -> str:
        return _pairs_input(case)

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        length, start = p["length"], p["start"]
        gain_py = "1" if p["measure"] == "count" else "profit"
        gain_c = "1" if p["measure"] == "count" else "jobs[i].profit"
        return stdio_sources(CODE, "Deadlines", p, start=start, length=length, gain_py=gain_py, gain_c=gain_c)


TEMPLATES = {t.name: t for t in (IntervalSelection(), MeetingRooms(), TaskAssignment(), DigitRemoval(), Refuelling(),
                                 Deadlines())}


@register
class GreedyPrograms(StdioPolyglotTask):
    id = "code/greedy_programs"
    description = "Write a stdin/stdout program (Python, C, C++ or JavaScript) for a generated greedy problem."
    tags = ("code", "programming", "stdio", "greedy", "multi-language")
    templates = TEMPLATES
    Config = SizedConfig
    what = "a greedy problem with varied answers"
    version = 3  # v3: no repeated hidden test; v2: the tests pin each template's stated constants (StdioTemplate.pinned): a gap off by one passed

    def config(self, level: int) -> SizedConfig:
        easy = ("interval_selection", "meeting_rooms", "task_assignment")
        return [
            self.Config(easy, max_size=5, tests=4),
            self.Config((*easy, "digit_removal"), max_size=10, tests=5),
            self.Config((*easy, "digit_removal", "refuelling"), max_size=20, tests=6),
            self.Config(("task_assignment", "digit_removal", "refuelling", "deadlines"), max_size=35, tests=7),
            self.Config(("digit_removal", "refuelling", "deadlines"), max_size=60, tests=8),
        ][level]
    bounded = "its difficulty measure stops growing with larger sizes past the presets (level 4 to 5)"

    def limits(self, config: SizedConfig) -> str:
        return (f"Limits: T <= {config.tests}; every list in a test has at most {config.max_size + 1} "
                f"elements or digits; all numbers are non-negative and below 1000.")
