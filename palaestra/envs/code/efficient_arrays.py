"""Efficient array algorithms: correct is not enough, the hidden large tests need the right complexity.

Afterburner-style: each problem's arrays are generated from a short line per test (``n``, a
seed ``s`` and a parameter) by a generated linear congruential formula, so the hidden tests
can be large (n up to 300,000 per test) without megabytes of input. The whole run has a CPU
budget per language, calibrated against the reference programs (``tests/code`` asserts that
each reference finishes well inside its budget and that a quadratic solution does not).

Templates (parameters vary the rule; the generator constants are drawn per problem):

- **subarray_sums** (prefix sums and counting): blocks whose sum is exactly k, divisible by k,
  or at most k;
- **longest_window** (two pointers): the longest block with at most k distinct values, or with
  sum at most k;
- **pair_count** (sorting, counting): pairs with sum at most k, sum exactly k, or values at most
  k apart;
- **histogram** (monotonic stack): the largest rectangle or square under a histogram;
- **window_extremes** (monotonic deques): the sum over all windows of length k of the maximum,
  the minimum, or their difference;
- **inversions** (Fenwick tree or merge sort): pairs i < j with x_i > x_j, x_i >= x_j, or
  x_i > 2 x_j.

Expected answers come from the Python reference program, run in-process (templates/efficient_arrays.txt),
except for inversions (NumPy, three times faster on the hidden large tests).

Version 2 (red team, round 3, session 43): the hidden large tests' bounds make the counted blocks and pairs long and
many. In version 1 k kept every window short (a block sum at most k over values below v with k <= 40 v, at most k
of at most 60 values, pairs at most v/50 apart), so a C program walking from every start until the bound broke,
or listing every close pair after sorting, passed every problem it was tried on: longest_window (distinct 18/18
and 17/17 at levels 0/1, sum 20/20 and 14/14), subarray_sums at_most (13/13, 13/13), pair_count close (11/11,
7/7, 8/8 at levels 0-2), 0.62 of all level-0 problems (100 seeds) and 0.51 of level 1. Now a large test's k keeps
blocks of n/6 to n/3 values (sums), half to two thirds of 50,000-99,999 values (distinct), pairs up to v/10-v/4
apart (close): those programs run out of time on every one (0/62 and 0/51), the references stay under 0.15 s.
Left for later: histogram, where expanding from every bar passes (28/28, 22/23, 34/41 at levels 1-3), as iid bar
heights leave every bar a short span; the sandbox enforces a fractional CPU budget as a whole second (C's 0.5 s is
1 s).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar

from palaestra.core import Problem, register
from palaestra.core.retry import retry
from palaestra.envs.code._polyglot import (
    EfficiencyTask,
    StdioTemplate,
    efficiency_problem,
    generated,
    generator_code,
    generator_params,
    generator_text,
    language_texts,
    stdio_sources,
)
from palaestra.envs.code.templates import ProgramTexts

MAX_N = 300_000  # per test; C arrays are sized for it

CODE = ProgramTexts("efficient_arrays")
LARGE = 1000  # tests longer than this are the hidden large ones


def long_window_sum(rng: random.Random, v: int, n: int) -> int:
    """A bound on a block's sum (values 0 .. v-1) that blocks of n/6 to n/3 values keep under: a program that
    walks every counted block, or every block up to the first one over the bound, does n^2/6 steps or more."""
    return rng.randint(n // 6, n // 3) * (v - 1) // 2


class GeneratedArray(StdioTemplate):
    """A template whose test is ``n s k``: the array comes from the problem's generator."""

    MEASURES: ClassVar[tuple[str, ...]]  # what a problem of the template may ask (its params["measure"])
    low, span = 0, 1000  # the generated values: low .. low + span - 1

    def params(self, rng: random.Random) -> dict[str, Any]:
        measure = rng.choice(self.MEASURES)
        low, span = self.value_range(measure, rng)
        return {"measure": measure, "generator": generator_params(rng, low, span)}

    def value_range(self, measure: str, rng: random.Random) -> tuple[int, int]:
        return self.low, self.span

    def draw_k(self, rng: random.Random, p: dict[str, Any], n: int) -> int:
        raise NotImplementedError

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        return {"n": size, "s": rng.randrange(1, p["generator"]["m"]), "k": self.draw_k(rng, p, size)}

    def case_input(self, case: Any, p: dict[str, Any]) -> str:
        return f"{case['n']} {case['s']} {case['k']}\n"

    def values(self, case: Any, p: dict[str, Any]) -> list[int]:
        return generated(case["n"], case["s"], p["generator"])

    def intro(self, p: dict[str, Any]) -> str:
        return (f"Each test is one line with n, s and k. The test's array x_1 ... x_n is generated from s: "
                f"{generator_text(p['generator'])}.")

    def programs(self, p: dict[str, Any], python: str, c: str, javascript: str, imports: str = "") -> dict[str, str]:
        """The three reference programs: each body runs after the array ``x`` of the test is built."""
        generate = {lang: generator_code(lang, p["generator"]) for lang in ("python", "c", "javascript")}
        c = c.replace("/*GENERATE*/", CODE("GeneratedArray.c.generate", generate=generate["c"]))  # where C builds x
        return stdio_sources(CODE, "GeneratedArray", p, imports, python=python, c=c, javascript=javascript,
                             generate=generate, size=MAX_N + 5)


# --- subarray sums ----------------------------------------------------------------------------

class SubarraySums(GeneratedArray):
    name = "subarray_sums"
    tier = 1
    MEASURES = ("exact", "divisible", "at_most")

    def value_range(self, measure: str, rng: random.Random) -> tuple[int, int]:
        if measure == "exact":
            spread = rng.randint(3, 10)
            return -spread, 2 * spread + 1
        return 0, rng.choice([10, 50, 100, 1000]) if measure == "divisible" else rng.randint(10, 100)

    def draw_k(self, rng: random.Random, p: dict[str, Any], n: int) -> int:
        g = p["generator"]
        if p["measure"] == "exact":
            return rng.randint(-2 * g["v"], 2 * g["v"])
        if p["measure"] == "divisible":
            return rng.randint(2, 60)
        if n > LARGE:  # blocks of n/6 to n/3 values: listing every counted block is quadratic
            return long_window_sum(rng, g["v"], n)
        return rng.randint(g["v"], 30 * g["v"])

    def statement(self, p: dict[str, Any]) -> str:
        asked = {"exact": "whose sum is exactly k", "divisible": "whose sum is divisible by k (k >= 2)",
                 "at_most": "whose sum is at most k"}[p["measure"]]
        return (f"{self.intro(p)} For each test print the number of blocks x_i, ..., x_j (1 <= i <= j <= n) {asked}.")

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        measure = p["measure"]
        if measure != "exact":
            return self.programs(p, *language_texts(CODE, "SubarraySums", ".2" if measure == "at_most" else ".3"))
        offset = MAX_N * -p["generator"]["low"] + 1  # the exact sums, shifted to be non-negative indices
        return self.programs(p, *language_texts(CODE, "SubarraySums", n2_offset_1=2 * offset + 1, offset=offset,
                                                n2_offset=2 * offset))


# --- longest window ---------------------------------------------------------------------------

class LongestWindow(GeneratedArray):
    name = "longest_window"
    tier = 1
    MEASURES = ("distinct", "sum")

    def value_range(self, measure: str, rng: random.Random) -> tuple[int, int]:
        return (0, rng.randint(50_000, 99_999)) if measure == "distinct" else (0, rng.randint(10, 200))

    def draw_k(self, rng: random.Random, p: dict[str, Any], n: int) -> int:
        g = p["generator"]
        if p["measure"] == "distinct":
            # large tests: a half to two thirds of the values, so windows span 35,000 values or more; small ones:
            # up to n (nearly every value differs, so a larger k would make the answer n)
            return rng.randint(g["v"] // 2, 2 * g["v"] // 3) if n > LARGE else rng.randint(1, max(1, n - 1))
        return long_window_sum(rng, g["v"], n) if n > LARGE else rng.randint(g["v"], 40 * g["v"])

    def statement(self, p: dict[str, Any]) -> str:
        asked = ("contains at most k different values" if p["measure"] == "distinct"
                 else "has a sum of at most k")
        return (f"{self.intro(p)} For each test print the length of the longest block x_i, ..., x_j that {asked} (0 if "
                "there is none).")

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        return self.programs(p, *language_texts(CODE, "LongestWindow", ".2" if p["measure"] == "distinct" else ""))


# --- pair counts ------------------------------------------------------------------------------

class PairCount(GeneratedArray):
    name = "pair_count"
    tier = 2
    MEASURES = ("sum_at_most", "sum_equal", "close")

    def value_range(self, measure: str, rng: random.Random) -> tuple[int, int]:
        return 0, rng.choice([100, 1000, 5000]) if measure == "sum_equal" else rng.choice([1000, 100000, 500000])

    def draw_k(self, rng: random.Random, p: dict[str, Any], n: int) -> int:
        v = p["generator"]["v"]
        if p["measure"] == "close":  # large tests: a tenth of all pairs or more, too many to list one by one
            return rng.randint(v // 10, v // 4) if n > LARGE else rng.randint(0, max(1, v // 50))
        return rng.randint(v // 2, 3 * v // 2)

    def statement(self, p: dict[str, Any]) -> str:
        asked = {"sum_at_most": "x_i + x_j <= k", "sum_equal": "x_i + x_j = k",
                 "close": "|x_i - x_j| <= k"}[p["measure"]]
        return f"{self.intro(p)} For each test print the number of pairs of positions i < j with {asked}."

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        suffix = {"sum_equal": ".2", "close": ".3"}.get(p["measure"], "")
        python, c, javascript = language_texts(CODE, "PairCount", suffix)
        return self.programs(p, python, c if suffix == ".2" else CODE("PairCount.c_sort") + c, javascript)


# --- histogram --------------------------------------------------------------------------------

class Histogram(GeneratedArray):
    name = "histogram"
    tier = 3
    MEASURES = ("rectangle", "square")

    def value_range(self, measure: str, rng: random.Random) -> tuple[int, int]:
        return 1, rng.choice([20, 1000, 100000]) if measure == "rectangle" else rng.choice([50, 200, 1000])

    def draw_k(self, rng: random.Random, p: dict[str, Any], n: int) -> int:
        return rng.randint(0, 50)

    def statement(self, p: dict[str, Any]) -> str:
        asked = ("the largest area of an axis-parallel rectangle that fits inside the histogram"
                 if p["measure"] == "rectangle" else
                 "the largest side of an axis-parallel square that fits inside the histogram")
        return (f"{self.intro(p)} Each test describes a histogram: bar i has width 1 and height x_i + k (the bars "
                f"stand side by side on a common base line). For each test print {asked}.")

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        square = p["measure"] == "square"
        value_py = "min(top, width)" if square else "top * width"
        value_c = "(top < width ? top : width)" if square else "top * width"
        value_js = "Math.min(top, width)" if square else "top * width"
        return self.programs(p, *language_texts(CODE, "Histogram", value_py=value_py, value_c=value_c,
                                                value_js=value_js, size=MAX_N + 5))


# --- window extremes --------------------------------------------------------------------------

class WindowExtremes(GeneratedArray):
    name = "window_extremes"
    tier = 3
    MEASURES = ("max", "min", "spread")

    def value_range(self, measure: str, rng: random.Random) -> tuple[int, int]:
        return 0, rng.choice([100, 10000, 1000000])

    def draw_k(self, rng: random.Random, p: dict[str, Any], n: int) -> int:
        return rng.randint(1, n) if n < 20 else rng.randint(n // 4, 3 * n // 4)

    def statement(self, p: dict[str, Any]) -> str:
        asked = {"max": "its largest value", "min": "its smallest value",
                 "spread": "its largest value minus its smallest value"}[p["measure"]]
        return (f"{self.intro(p)} A window is a block of k consecutive values x_i, ..., x_(i+k-1) (1 <= k <= n). For "
                f"each test print the sum, over all n - k + 1 windows, of {asked}.")

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        measure = p["measure"]
        py_total = {"max": "window_sum(x, k, True)", "min": "window_sum(x, k, False)",
                    "spread": "window_sum(x, k, True) - window_sum(x, k, False)"}[measure]
        c_total = {"max": "window_sum(n, k, 1)", "min": "window_sum(n, k, 0)",
                   "spread": "window_sum(n, k, 1) - window_sum(n, k, 0)"}[measure]
        js_total = {"max": "windowSum(x, k, true)", "min": "windowSum(x, k, false)",
                    "spread": "windowSum(x, k, true) - windowSum(x, k, false)"}[measure]
        programs = self.programs(p, f"""    return {py_total}""", CODE("WindowExtremes.c", size=MAX_N + 5,
                                                                       c_total=c_total), f"""    return {js_total};""")
        programs["python"] = programs["python"].replace("def solve():", CODE("WindowExtremes.python.helper"),
                                                        1).replace("import sys\n",
                                                                   "import sys\nfrom collections import deque\n", 1)
        js_helper = CODE("WindowExtremes.js_helper")
        programs["javascript"] = programs["javascript"].replace("function solve() {", js_helper, 1)
        return programs


# --- inversions -------------------------------------------------------------------------------

class Inversions(GeneratedArray):
    name = "inversions"
    tier = 4
    MEASURES = ("greater", "greater_equal", "double")

    def value_range(self, measure: str, rng: random.Random) -> tuple[int, int]:
        return 0, rng.choice([50, 1000, 100000]) if measure == "greater_equal" else rng.choice([1000, 100000, 500000])

    def draw_k(self, rng: random.Random, p: dict[str, Any], n: int) -> int:
        return rng.randint(0, 9)

    def statement(self, p: dict[str, Any]) -> str:
        rule = {"greater": "y_i > y_j", "greater_equal": "y_i >= y_j", "double": "y_i > 2 * y_j"}[p["measure"]]
        return (f"{self.intro(p)} Let y_i = x_i for i not divisible by 10, and y_i = k for every i divisible by 10. "
                "For "
                f"each test print the number of pairs of positions i < j with {rule}.")

    def answer(self, case: Any, p: dict[str, Any]) -> str:
        """Vectorised (the Python program takes about 3 times as long on the hidden large tests)."""
        import numpy as np

        y = self.values(case, p)
        for i in range(9, len(y), 10):  # 1-based positions 10, 20, ...
            y[i] = case["k"]
        return str(_count_pairs(np.array(y, dtype=np.int64), p["measure"]))

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        measure = p["measure"]
        top = 2 * p["generator"]["v"] + 20  # values (and doubled values) stay below this
        query = {"greater": "v", "greater_equal": "v - 1", "double": "2 * v"}[measure]
        return self.programs(p, *language_texts(CODE, "Inversions", top=top, top_1=top + 1, query=query))


def _count_pairs(y: Any, measure: str) -> int:
    """Pairs i < j with y_i > y_j (``greater``), y_i >= y_j or y_i > 2 y_j: bottom-up merge sort,
    each level's cross pairs counted with one vectorised binary search."""
    import numpy as np

    n = len(y)
    if n < 2:
        return 0
    size = 1 << (n - 1).bit_length()
    big = int(y.max()) * 2 + 10
    blocks = np.full(size, big, dtype=np.int64)  # padding sits at the end, larger than any value
    blocks[:n] = y
    real = np.zeros(size, dtype=bool)
    real[:n] = True
    count, width = 0, 1
    while width < size:
        pairs = blocks.reshape(-1, 2, width)
        left, right = pairs[:, 0, :], pairs[:, 1, :]
        right_real = real.reshape(-1, 2, width)[:, 1, :]
        offsets = (np.arange(len(pairs), dtype=np.int64) * (4 * big))[:, None]
        flat_left = (left + offsets).ravel()
        probe = {"greater": right, "greater_equal": right - 1, "double": 2 * right}[measure] + offsets
        side = "right"
        at_most = np.searchsorted(flat_left, probe.ravel(), side=side).reshape(probe.shape) - (
            np.arange(len(pairs), dtype=np.int64)[:, None] * width)
        count += int(((width - at_most) * right_real).sum())
        blocks = np.sort(pairs.reshape(-1, 2 * width), axis=1).ravel()
        width *= 2
    return count


TEMPLATES = {t.name: t for t in (SubarraySums(), LongestWindow(), PairCount(), Histogram(), WindowExtremes(),
                                 Inversions())}

# CPU seconds for the whole run, per language: each reference program uses at most a third of its
# budget on the largest level (measured by tests/code/test_polyglot_envs.py on a loaded 2-core host).
BUDGETS = {"python": 8.0, "javascript": 2.0, "c": 0.5, "cpp": 0.5}


@register
class EfficientArrays(EfficiencyTask):
    id = "code/efficient_arrays"
    description = ("Write an efficient program (Python, C, C++ or JavaScript) for a generated array problem: hidden "
                   "large tests under a CPU budget.")
    tags = ("code", "programming", "stdio", "efficiency", "multi-language")
    templates = TEMPLATES
    version = 2  # v2: the large tests' k makes windows and close pairs long and many (naive walks run out of time)
    # the two share the generated-input statement and the timing text (3-gram similarity 0.28-0.38 on the kit's
    # four prompts, depending on the templates drawn there)
    distinct_from = {"code/efficient_strings": "array algorithms (prefix sums, two pointers, monotonic stacks and "
                                               "deques, Fenwick trees) on generated integer arrays; efficient_strings "
                                               "asks for string algorithms (prefix function, Z, palindromes) on "
                                               "generated texts"}

    @dataclass(frozen=True)
    class Config:
        templates: tuple[str, ...]
        large: tuple[int, ...]  # sizes of the hidden large tests

    presets = (
        Config(("subarray_sums", "longest_window", "pair_count"), large=(200_000,)),
        Config(("subarray_sums", "longest_window", "pair_count", "histogram"), large=(250_000,)),
        Config(("pair_count", "histogram", "window_extremes", "inversions"), large=(200_000, 200_000)),
        Config(("histogram", "window_extremes", "inversions"), large=(250_000, 250_000)),
        Config(("window_extremes", "inversions"), large=(300_000, 300_000)),
    )
    bounded = "its levels are kinds of problem (the `templates` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> Problem | None:
            template = TEMPLATES[rng.choice(config.templates)]
            small = [rng.randint(3, 8), rng.randint(3, 8), rng.randint(5, 12), rng.randint(20, 50), 1000]
            return efficiency_problem(rng, template, small, list(config.large), BUDGETS,
                                      limits_text=f"Limits: T <= {len(small) + len(config.large)}, 1 <= n <= {MAX_N}.")

        return retry(draw, attempts=50, what="an array problem with varied answers")
