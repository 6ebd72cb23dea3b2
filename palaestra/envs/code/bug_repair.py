"""Repair a program: a reference function with injected faults, and one failing test shown.

Each template is a small function with generated constants (a range, a window size, a base, a
threshold ...) written with *slots*; a fault replaces one slot's text by a plausible wrong one
(off-by-one, wrong operator, wrong comparison, swapped arguments, wrong initial value). The
original and the buggy sources (our own code) are compiled and run in-process: the expected and
the buggy outputs come from the one text of each. A problem is kept only if the faults change
the output of some hidden test, and one such test is shown. Any program passing every hidden test is
accepted (the fix need not be textually the original). Levels widen the template pool, drop
the hint naming the kind of bug, and inject two faults at the top levels.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from palaestra.core import Problem, register, retry
from palaestra.envs.code.common import (
    FunctionTask,
    call_text,
    compiled_function,
    dedupe_inputs,
    function_footer,
    function_problem,
    function_tests,
    random_ints,
    show,
    varied,
)

Slots = dict[str, str]  # slot -> chosen variant ("ok" or a bug name)
REPAIR_CHECKED = "The corrected function is checked on hidden tests. Use only the standard library."
@dataclass(frozen=True)
class Template:
    name: str
    params: str
    level: int  # first level whose pool holds it
    doc: str  # what the function should do, with {constants}
    code: str  # source with {slot} and {constant} fields (literal braces doubled)
    slots: dict[str, dict[str, str]]  # slot -> variant -> text (may use {constants})
    kinds: dict[str, str]  # bug variant -> kind of fault
    draw: Callable[[random.Random], dict[str, Any]]
    inputs: Callable[[random.Random, int, int], list[list[Any]]]  # (rng, count, size)
    notes: dict[str, Any] = field(default_factory=dict)

    def source(self, c: dict[str, Any], chosen: Slots) -> str:
        texts = {slot: self.slots[slot][chosen.get(slot, "ok")].format(**c) for slot in self.slots}
        return self.code.format(**c, **texts)

    def run(self, c: dict[str, Any], chosen: Slots, *args: Any) -> Any:
        """The trusted runner: the source with these slots (our own code) run in-process."""
        return compiled_function(self.source(c, chosen), self.name)(*args)

    def bugs(self) -> list[tuple[str, str]]:
        """(slot, bug variant) pairs."""
        return [(slot, v) for slot, variants in self.slots.items() for v in variants if v != "ok"]


def _range(lo: int, width: int) -> dict[str, Any]:
    return {"lo": lo, "hi": lo + width}


def _strictness(strict: bool) -> dict[str, Any]:
    return {"strict": strict, "rel": ">" if strict else ">=", "cmp_ok": "<=" if strict else "<",
            "cmp_bad": "<" if strict else "<="}


def _lists(lo: int, hi: int) -> Callable[[random.Random, int, int], list[list[Any]]]:
    def make(rng: random.Random, count: int, size: int) -> list[list[Any]]:
        out: list[list[Any]] = [[[]], [[rng.randint(lo, hi)]]]
        while len(out) < count:
            out.append([random_ints(rng, rng.randint(2, size), lo, hi)])
        return out

    return make


def _sorted_queries(rng: random.Random, count: int, size: int) -> list[list[Any]]:
    out: list[list[Any]] = [[[], 3], [[5], 5], [[1, 2, 2, 2, 3], 2], [[1, 3, 5], 9]]
    while len(out) < count:
        xs = sorted(random_ints(rng, rng.randint(1, size), 0, 20))
        out.append([xs, rng.choice(xs) * rng.randint(1, 5) + rng.randint(-8, 8) if rng.random() < 0.7
                    else rng.randint(-10, 110)])
    return out


def _naturals(rng: random.Random, count: int, size: int) -> list[list[Any]]:
    out: list[list[Any]] = [[0], [1], [rng.randint(2, 9)]]
    while len(out) < count:
        out.append([rng.randint(10, 10 ** min(9, size // 2 + 3))])
    return out


def _times(k: int, term: str) -> str:
    """``term`` or ``k * term``."""
    return term if k == 1 else f"{k} * {term}"


def _plus(c: int) -> str:
    """`` + c``, `` - |c|`` or nothing."""
    return "" if c == 0 else (f" + {c}" if c > 0 else f" - {-c}")


def _pairs_constants(r: random.Random) -> dict[str, Any]:
    k = r.randint(1, 3)
    return {"t": r.randint(-30, 60), "k": k, "term": _times(k, "xs[j]")}


def _digit_constants(r: random.Random) -> dict[str, Any]:
    b, w, c = r.randint(2, 16), r.randint(1, 9), r.randint(0, 20)
    return {"b": b, "w": w, "c": c, "wmul": "" if w == 1 else f"{w} * ", "cadd": _plus(c),
            "what": f"{_times(w, 'd')}{_plus(c)}"}


def _balance_constants(r: random.Random) -> dict[str, Any]:
    fee = r.randint(0, 5)
    return {"start": r.randint(-100, 100), "fee": fee, "step": f"(change - {fee})" if fee else "change",
            "how": f"adding it, then subtracting a fee of {fee}" if fee else "adding it"}


def _rotate_constants(r: random.Random) -> dict[str, Any]:
    mul = r.randint(1, 5)
    return {"k": r.randint(1, 12), "mul": mul, "add": r.randint(1, 30), "term": _times(mul, "x")}


def _first_index_constants(r: random.Random) -> dict[str, Any]:
    a, b = r.randint(1, 9), r.randint(-30, 30)
    return {**_strictness(r.random() < 0.5), "a": a, "b": b, "key": f"{_times(a, 'xs[mid]')}{_plus(b)}",
            "doc_key": f"{_times(a, 'xs[i]')}{_plus(b)}"}


TEMPLATES: list[Template] = [
    Template(
        "count_in_range", "xs", 0,
        "return how many elements x of the list xs satisfy {lo} <= x <= {hi}",
        "def count_in_range(xs):\n    count = {init}\n    for x in xs:\n        if {cond}:\n"
        "            count += 1\n    return count\n",
        {"init": {"ok": "0", "init": "1"},
         "cond": {"ok": "{lo} <= x <= {hi}", "cmp_lo": "{lo} < x <= {hi}", "cmp_hi": "{lo} <= x < {hi}"}},
        {"init": "wrong initial value", "cmp_lo": "wrong comparison", "cmp_hi": "wrong comparison"},
        lambda r: _range(r.randint(-30, 30), r.randint(1, 30)), _lists(-40, 60)),
    Template(
        "lowest_balance", "changes", 0,
        "start from a balance of {start}, apply each change in the list changes in order ({how}), and "
        "return the lowest balance ever reached, the starting balance included",
        "def lowest_balance(changes):\n    balance = {start}\n    lowest = {init}\n    for change in changes:\n"
        "        balance {op} {step}\n        if balance {cmp} lowest:\n            lowest = balance\n"
        "    return lowest\n",
        {"init": {"ok": "{start}", "init": "0"}, "op": {"ok": "+=", "op": "-="}, "cmp": {"ok": "<", "cmp": ">"}},
        {"init": "wrong initial value", "op": "wrong operator", "cmp": "wrong comparison"},
        _balance_constants, _lists(-25, 25)),
    Template(
        "count_pairs", "xs", 0,
        "return the number of pairs of positions i < j with xs[i] + {term} == {t}",
        "def count_pairs(xs):\n    count = 0\n    for i in range(len(xs)):\n        for j in range({inner}, len(xs)):\n"
        "            if xs[i] {op} {term} {eq} {t}:\n                count += 1\n    return count\n",
        {"inner": {"ok": "i + 1", "inner": "i"}, "op": {"ok": "+", "op": "-"}, "eq": {"ok": "==", "eq": "<="}},
        {"inner": "off-by-one", "op": "wrong operator", "eq": "wrong comparison"},
        _pairs_constants, _lists(-10, 20)),
    Template(
        "digit_sum", "n", 0,
        "return the sum of {what} over the digits d of the integer n >= 0 written in base {b} (0 for n = 0)",
        "def digit_sum(n):\n    total = {init}\n    while {loop}:\n        total += {wmul}{op}{cadd}\n"
        "        n //= {b}\n    return total\n",
        {"init": {"ok": "0", "init": "1"}, "loop": {"ok": "n > 0", "loop": "n > 1"},
         "op": {"ok": "(n % {b})", "op": "(n // {b})"}},
        {"init": "wrong initial value", "loop": "off-by-one", "op": "wrong operator"},
        _digit_constants, _naturals),
    Template(
        "longest_run", "xs", 0,
        "return the length of the longest run of consecutive elements x of the list xs that all satisfy "
        "{lo} <= x <= {hi}",
        "def longest_run(xs):\n    best = 0\n    current = 0\n    for x in xs:\n        if {cmp}:\n"
        "            current += 1\n            best = {update}(best, current)\n        else:\n"
        "            current = {reset}\n    return best\n",
        {"cmp": {"ok": "{lo} <= x <= {hi}", "cmp": "{lo} < x <= {hi}"}, "update": {"ok": "max", "update": "min"},
         "reset": {"ok": "0", "reset": "1"}},
        {"cmp": "wrong comparison", "update": "wrong function (min/max)", "reset": "wrong initial value"},
        lambda r: _range(r.randint(-15, 15), r.randint(2, 25)), _lists(-20, 30)),
    Template(
        "count_jumps", "xs", 1,
        "return how many positions i >= {s} of the list xs satisfy {lo} <= xs[i] - xs[i - {s}] <= {hi}",
        "def count_jumps(xs):\n    count = 0\n    for i in range({start}, len(xs)):\n        jump = {diff}\n"
        "        if {lo} {cmp} jump <= {hi}:\n            count += 1\n    return count\n",
        {"start": {"ok": "{s}", "start": "{s} + 1"},
         "diff": {"ok": "xs[i] - xs[i - {s}]", "diff": "xs[i - {s}] - xs[i]"}, "cmp": {"ok": "<=", "cmp": "<"}},
        {"start": "off-by-one", "diff": "swapped arguments", "cmp": "wrong comparison"},
        lambda r: {**_range(r.randint(-10, 20), r.randint(3, 30)), "s": r.randint(1, 4)}, _lists(-20, 30)),
    Template(
        "max_window_sum", "xs", 1,
        "return the largest sum of {k} consecutive elements of the list xs, where every element is first clamped "
        "to the range [{low}, {cap}] (smaller ones count as {low}, larger ones as {cap}; 0 if xs has fewer than {k} "
        "elements)",
        "def max_window_sum(xs):\n    if len(xs) < {k}:\n        return 0\n"
        "    capped = [{clip} for x in xs]\n    best = {init}\n    for i in range(1, {stop}):\n"
        "        total = sum(capped[i:i + {k}])\n"
        "        if total {cmp} best:\n            best = total\n    return best\n",
        {"clip": {"ok": "min(max(x, {low}), {cap})", "clip": "max(min(x, {low}), {cap})"},
         "init": {"ok": "sum(capped[:{k}])", "init": "0"},
         "stop": {"ok": "len(xs) - {k} + 1", "stop": "len(xs) - {k}"}, "cmp": {"ok": ">", "cmp": "<"}},
        {"clip": "wrong function (min/max)", "init": "wrong initial value", "stop": "off-by-one",
         "cmp": "wrong comparison"},
        lambda r: {"k": r.randint(2, 8), "low": r.randint(-20, 0), "cap": r.randint(0, 40)}, _lists(-20, 25)),
    Template(
        "rotate_left", "xs", 1,
        "return the list xs rotated left by {k} positions (the first {k} elements, taking {k} modulo the length, "
        "move to the end in order; an empty list stays empty), with every element x then replaced by {term} + {add}",
        "def rotate_left(xs):\n    if not xs:\n        return xs\n    k = {kexpr} % len(xs)\n    turned = {order}\n"
        "    return [{term} {shift} {add} for x in turned]\n",
        {"kexpr": {"ok": "{k}", "kexpr": "({k} + 1)"}, "order": {"ok": "xs[k:] + xs[:k]", "order": "xs[:k] + xs[k:]"},
         "shift": {"ok": "+", "shift": "-"}},
        {"kexpr": "off-by-one", "order": "swapped arguments", "shift": "wrong operator"},
        _rotate_constants, _lists(0, 99)),
    Template(
        "power_sum", "xs", 1,
        "return the sum of (x + {a}) ** {p} over the elements x of the list xs (non-negative integers), modulo {m}",
        "def power_sum(xs):\n    total = {init}\n    for x in xs:\n        base = x {shift} {a}\n"
        "        total = (total + pow({args})) % {m}\n    return total\n",
        {"init": {"ok": "0", "init": "1"}, "shift": {"ok": "+", "shift": "-"},
         "args": {"ok": "base, {p}, {m}", "args": "{p}, base, {m}"}},
        {"init": "wrong initial value", "shift": "wrong operator", "args": "swapped arguments"},
        lambda r: {"p": r.randint(2, 9), "m": r.choice(POWER_MODULI), "a": r.randint(1, 9)}, _lists(0, 60)),
    Template(
        "first_index", "xs, target", 2,
        "take a list xs sorted in increasing order and return the smallest index i such that {doc_key} {rel} "
        "target (len(xs) if there is none), using binary search",
        "def first_index(xs, target):\n    lo, hi = {lo}, {hi}\n    while lo < hi:\n        mid = (lo + hi) // 2\n"
        "        if {key} {cmp} target:\n            lo = mid + 1\n        else:\n            hi = mid\n"
        "    return lo\n",
        {"lo": {"ok": "0", "lo": "1"}, "hi": {"ok": "len(xs)", "hi": "len(xs) - 1"},
         "cmp": {"ok": "{cmp_ok}", "cmp": "{cmp_bad}"}},
        {"lo": "wrong initial value", "hi": "off-by-one", "cmp": "wrong comparison"},
        _first_index_constants, _sorted_queries),
]
POWER_MODULI = (97, 101, 103, 107, 109, 113, 127, 131, 137, 139, 149, 151, 157, 163, 167, 173, 179, 181, 191, 193,
                197, 199, 211, 223, 227, 229, 233, 239, 241, 251, 997, 1009, 10007)


@register
class BugRepair(FunctionTask):
    id = "code/bug_repair"
    description = "Fix a function with injected bugs (off-by-one, wrong operator/comparison, swapped arguments)."
    tags = ("code", "programming", "debugging")
    version = 3

    @dataclass(frozen=True)
    class Config:
        max_template_level: int  # templates with level <= this are in the pool
        bugs: int
        hint: bool  # name the kind of each bug
        size: int  # input size
        tests: int

    presets = (
        Config(max_template_level=0, bugs=1, hint=True, size=6, tests=10),
        Config(max_template_level=1, bugs=1, hint=True, size=8, tests=12),
        Config(max_template_level=2, bugs=1, hint=False, size=10, tests=12),
        Config(max_template_level=2, bugs=2, hint=True, size=12, tests=14),
        Config(max_template_level=2, bugs=2, hint=False, size=16, tests=14),
    )
    bounded = "larger configs are infeasible for its generator (no valid problem in 1,000 draws past the presets)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        pool = [t for t in TEMPLATES if t.level <= config.max_template_level]

        def draw() -> tuple[Template, dict[str, Any], Slots, list[dict[str, Any]], list[int]] | None:
            template = rng.choice(pool)
            constants = template.draw(rng)
            chosen: Slots = {}
            for slot, bug in rng.sample(template.bugs(), len(template.bugs())):
                if slot not in chosen and len(chosen) < config.bugs:
                    chosen[slot] = bug
            ok_slots = {slot: "ok" for slot in template.slots}
            bad_slots = {**ok_slots, **chosen}
            inputs = dedupe_inputs(template.inputs(rng, config.tests, config.size))
            tests = function_tests(functools.partial(template.run, constants, ok_slots), inputs)
            failing = [i for i, t in enumerate(tests)
                       if _outcome(template, constants, bad_slots, t["args"]) != t["expected"]]
            # each fault must matter on its own too: with any one of them fixed, the program still fails
            each_matters = all(
                any(_outcome(template, constants, {**bad_slots, slot: "ok"}, t["args"]) != t["expected"]
                    for t in tests)
                for slot in chosen
            ) if len(chosen) > 1 else True
            # the hidden tests pin the function down: every single fault of the template (the injected ones and
            # the others, i.e. every wrong fix of the kind the hint names) fails some test
            pinned = all(any(_outcome(template, constants, {**ok_slots, slot: bug}, t["args"]) != t["expected"]
                             for t in tests)
                         for slot, bug in template.bugs())
            if (len(chosen) == config.bugs and len(failing) >= 2 and varied(tests, at_least=3) and each_matters
                    and pinned):
                return template, constants, chosen, tests, failing
            return None

        template, constants, chosen, tests, failing = retry(draw, what="a fault that shows on the hidden tests")
        ok_slots = {slot: "ok" for slot in template.slots}
        bad_slots = {**ok_slots, **chosen}
        shown = min(failing, key=lambda i: (len(show(tests[i]["args"])), i))
        buggy = template.source(constants, bad_slots)
        fixed = template.source(constants, ok_slots)
        got = _outcome(template, constants, bad_slots, tests[shown]["args"])
        call = call_text(template.name, tests[shown]["args"])
        happened = f"raises {got[1]}" if isinstance(got, tuple) else f"returns {show(got)}"
        count = "exactly one bug" if config.bugs == 1 else f"exactly {config.bugs} bugs (on different lines)"
        hint = ""
        if config.hint:
            kinds = sorted({template.kinds[bug] for bug in chosen.values()})
            hint = f"\nHint: {'kinds of the bugs' if len(chosen) > 1 else 'kind of bug'}: {'; '.join(kinds)}."
        text = (
            f"The Python function below should {template.doc.format(**constants)}. It has {count}.\n\n"
            f"```python\n{buggy}```\n\n"
            f"For example, `{call}` should return {show(tests[shown]['expected'])}, but this code {happened}.{hint}\n\n"
            f"Fix the code and give the complete corrected function (keep its name `{template.name}`)."
        )
        spec = {"template": template.name, "constants": constants, "bugs": chosen}
        return function_problem(function=template.name, params=template.params, task_text=text, tests=tests,
                                reference_source=fixed, examples=0, extra={"spec": spec, "buggy": buggy},
                                footer=function_footer(template.name, template.params, REPAIR_CHECKED,
                                                       "the corrected function"))

    def difficulty(self, problem: Problem) -> float:
        """Faults to find, plus half a fault when no hint names their kind, plus a quarter per template tier."""
        spec = problem.data["spec"]
        tier = next(t.level for t in TEMPLATES if t.name == spec["template"])
        return len(spec["bugs"]) + 0.5 * ("Hint:" not in problem.prompt) + 0.25 * tier

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        return [problem.data["buggy"], *super().corruptions(problem, rng)]


def _outcome(template: Template, constants: dict[str, Any], slots: Slots, args: list[Any]) -> Any:
    """What the (possibly buggy) program returns, or ("raises", exception name)."""
    try:
        return template.run(constants, slots, *[list(a) if isinstance(a, list) else a for a in args])
    except Exception as exc:  # a fault may make the program raise
        return ("raises", type(exc).__name__)
