"""Write a Lua function over strings and tables (1-based arrays, string patterns), judged on hidden tests.

Templates (parameters vary the name, the rule and the output format):

- **word_counts**: a table mapping each word (letters only, lowercased) of at least N letters to its count;
- **run_length**: run-length encode a string, or decode one, as ``a3b1`` or ``3a1b``;
- **merge_intervals**: merge an array of ``{lo, hi}`` pairs (touching intervals merged, or also adjacent
  integer intervals), sorted;
- **grid**: rotate a 2-D array clockwise, counter-clockwise or by 180 degrees, transpose it, or mirror it;
- **rpn**: evaluate a reverse Polish expression of integer tokens with ``+ - * / %`` where division and
  remainder round down or toward zero, as stated.

How it is judged: the answer is Lua code defining the named global function. It is ``solution.lua`` next to
our trusted driver (``main.lua``, Lua 5.4), which loads it, calls the function on every hidden test's
arguments (written into the driver as Lua literals) and prints a canonical text of each result (arrays as
``[a,b]``, other tables as ``{"key":value}`` with sorted keys, the empty table as ``[]``). The trusted parent
compares each line with the same text of the value our Python reference computes; expected values never
enter the sandbox. A test whose call raises prints ``error``.

Version 3: the hidden tests also fail each template's plausible slips (``LuaTemplate.slips``: an interval inside
another taken as the merged end, decoding one-digit counts, rpn's other rounding, ``%w+`` for a word), with up
to 8 test draws per template so that the templates keep their shares. In version 2 the contained interval passed
0.13-0.50 of the merge problems (level 1 to 4), one-digit counts 0.15-0.38 of the decoding ones (level 0 and 1),
the other rounding 0.15-0.17 of the rpn ones (level 2 and 3), ``%w+`` 0.15 of the word counts; now 0.00 each.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from palaestra.core import Problem, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.code._polyglot import PolyglotTask, convention, near_misses, pins_constants
from palaestra.envs.code.templates import ProgramTexts
from palaestra.verifiers import polyglot
from palaestra.verifiers.polyglot import Budget, Program, Report, fence

CODE = ProgramTexts("lua_functions")
WORDS = ("sun", "moon", "star", "tide", "reef", "wind", "rain", "snow", "leaf", "root", "seed", "bark", "fern",
         "a", "an", "of", "to", "in", "by", "sea", "sky", "ice", "ash", "owl")


def encode(value: Any) -> str:
    """The driver's canonical text of a value (see the module docstring)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ",".join(encode(v) for v in value) + "]"
    if not value:
        return "[]"
    return "{" + ",".join(f"{json.dumps(str(k))}:{encode(value[k])}" for k in sorted(value)) + "}"


def lua_literal(value: Any) -> str:
    """A Lua expression for a JSON-native test argument (our generated data: ASCII strings, integers)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)  # ASCII without control characters: the same escapes in Lua
    if isinstance(value, list):
        return "{" + ", ".join(lua_literal(v) for v in value) + "}"
    return "{" + ", ".join(f"[{json.dumps(k)}] = {lua_literal(v)}" for k, v in value.items()) + "}"


class LuaTemplate:
    name: ClassVar[str]
    tier: ClassVar[int] = 1
    functions: ClassVar[tuple[str, ...]]

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {}

    def statement(self, p: dict[str, Any]) -> str:
        raise NotImplementedError

    def args(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        raise NotImplementedError

    def result(self, args: list[Any], p: dict[str, Any]) -> Any:
        raise NotImplementedError

    def reference(self, p: dict[str, Any]) -> str:
        raise NotImplementedError

    def slips(self, p: dict[str, Any]) -> dict[str, Callable[[list[Any]], Any]]:
        """Plausible wrong programs (one detail of the statement missed), which the hidden tests must fail."""
        return {}


class WordCounts(LuaTemplate):
    name, tier, functions = "word_counts", 1, ("wordCounts", "tally", "countWords")

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"min_length": rng.randint(1, 4)}

    def statement(self, p: dict[str, Any]) -> str:
        return (f"text is a string of words, spaces, digits and punctuation. A word is a maximal run of ASCII letters; "
                f"words compare lowercased. Return a table mapping each lowercased word of at least {p['min_length']} "
                "letters to the number of times it occurs (an empty table when there is none).")

    def args(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        pieces = []
        for _ in range(rng.randint(1, size + 2)):
            word = rng.choice(WORDS)
            word = word.upper() if rng.random() < 0.2 else word.capitalize() if rng.random() < 0.2 else word
            pieces.append(word + rng.choice(("", "", ",", ".", "!", "-", "3")))
        return [" ".join(pieces)]

    def result(self, args: list[Any], p: dict[str, Any], word: str = "[A-Za-z]+") -> Any:
        counts: dict[str, int] = {}
        for found in re.findall(word, args[0]):  # our own generated text
            if len(found) >= p["min_length"]:
                counts[found.lower()] = counts.get(found.lower(), 0) + 1
        return counts

    def slips(self, p: dict[str, Any]) -> dict[str, Callable[[list[Any]], Any]]:
        return {"digits in words (%w+)": lambda args: self.result(args, p, "[A-Za-z0-9]+")}

    def reference(self, p: dict[str, Any]) -> str:
        return CODE("word_counts", name=p["function"], p=p)


class RunLength(LuaTemplate):
    name, tier, functions = "run_length", 1, ("runLength", "squeeze", "pack")

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"direction": rng.choice(("encode", "decode")), "style": rng.choice(("char_count", "count_char"))}

    def statement(self, p: dict[str, Any]) -> str:
        piece = "the letter followed by the run's length" if p["style"] == "char_count" else \
            "the run's length followed by the letter"
        example = "a3b1c2" if p["style"] == "char_count" else "3a1b2c"
        if p["direction"] == "encode":
            return (f"s is a string of lowercase letters (possibly empty). Return its run-length encoding: each maximal "
                    f"run of one letter becomes {piece} in decimal (aaabcc gives {example}).")
        return (f"s is a run-length encoding: pieces of {piece} in decimal, each length at least 1 ({example} stands "
                "for aaabcc; the empty string for the empty string). Return the decoded string.")

    def _plain(self, rng: random.Random, size: int) -> str:
        return "".join(rng.choice("abcde") * rng.choice((1, 1, 2, 3, 5, 12)) for _ in range(rng.randint(0, size)))

    def _encode(self, s: str, style: str) -> str:
        out = []
        for run in re.finditer(r"(.)\1*", s):  # our own generated string
            letter, length = run.group(1), len(run.group(0))
            out.append(f"{letter}{length}" if style == "char_count" else f"{length}{letter}")
        return "".join(out)

    def args(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        plain = self._plain(rng, size)
        return [plain if p["direction"] == "encode" else self._encode(plain, p["style"])]

    def result(self, args: list[Any], p: dict[str, Any], digits: str = r"\d+") -> Any:
        """The encoding or decoding (``digits``: a decoding slip's reading of a count, ``\\d`` for one digit)."""
        if p["direction"] == "encode":
            return self._encode(args[0], p["style"])
        pattern = rf"([a-z])({digits})" if p["style"] == "char_count" else rf"({digits})([a-z])"
        out = []
        for a, b in re.findall(pattern, args[0]):
            letter, count = (a, b) if p["style"] == "char_count" else (b, a)
            out.append(letter * int(count))
        return "".join(out)

    def reference(self, p: dict[str, Any]) -> str:
        if p["direction"] == "encode":
            piece = "c .. (j - i + 1)" if p["style"] == "char_count" else "(j - i + 1) .. c"
            return CODE("run_length.encode", name=p["function"], piece=piece)
        names, pattern = ("c, n", "(%a)(%d+)") if p["style"] == "char_count" else ("n, c", "(%d+)(%a)")
        return CODE("run_length.decode", name=p["function"], pattern_names=names, pattern=pattern)

    def slips(self, p: dict[str, Any]) -> dict[str, Callable[[list[Any]], Any]]:
        return {"counts of one digit": lambda args: self.result(args, p, r"\d")} if p["direction"] == "decode" else {}


class MergeIntervals(LuaTemplate):
    name, tier, functions = "merge_intervals", 2, ("mergeIntervals", "union", "coalesce")

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"gap": rng.choice((0, 1))}

    def statement(self, p: dict[str, Any]) -> str:
        rule = ("two intervals merge when they overlap or share an endpoint ({1, 3} and {3, 5} merge; {1, 3} and "
                "{4, 5} do not)" if p["gap"] == 0 else
                "they are sets of integers: two intervals merge when they overlap or are adjacent ({1, 3} and {4, 5} "
                "merge into {1, 5}; {1, 3} and {5, 6} do not)")
        return ("intervals is an array of closed intervals, each an array {lo, hi} of integers with lo <= hi, in any "
                f"order. Return a new array of the merged intervals, sorted by lo, where {rule}. Do not change the "
                "argument.")

    def args(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        out = []
        for _ in range(rng.randint(0, size + 1)):
            lo = rng.randint(0, 6 * size)
            out.append([lo, lo + rng.randint(0, 5)])
        return [out]

    def result(self, args: list[Any], p: dict[str, Any], contained: bool = True) -> Any:
        """The merged intervals (``contained=False``: a slip that takes a merged interval's end as the new end)."""
        merged: list[list[int]] = []
        for lo, hi in sorted(args[0]):
            if merged and lo <= merged[-1][1] + p["gap"]:
                merged[-1][1] = max(merged[-1][1], hi) if contained else hi
            else:
                merged.append([lo, hi])
        return merged

    def reference(self, p: dict[str, Any]) -> str:
        return CODE("merge_intervals", name=p["function"], gap=p["gap"])

    def slips(self, p: dict[str, Any]) -> dict[str, Callable[[list[Any]], Any]]:
        return {"an interval inside another ends it": lambda args: self.result(args, p, contained=False)}


GRID = {  # how: (statement, out rows, out cols, source row, source col)
    "clockwise": ("rotated 90 degrees clockwise", "cols", "rows", "rows - j + 1", "i"),
    "counterclockwise": ("rotated 90 degrees counter-clockwise", "cols", "rows", "j", "cols - i + 1"),
    "half_turn": ("rotated 180 degrees", "rows", "cols", "rows - i + 1", "cols - j + 1"),
    "transpose": ("transposed (row i of the result is column i of m)", "cols", "rows", "j", "i"),
    "mirror": ("mirrored left to right (each row reversed)", "rows", "cols", "i", "cols - j + 1"),
}


class Grid(LuaTemplate):
    name, tier, functions = "grid", 2, ("turn", "reshape", "transform")

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"how": rng.choice(list(GRID))}

    def statement(self, p: dict[str, Any]) -> str:
        return ("m is a non-empty 2-D array: an array of rows, each a non-empty array of integers, all rows of the "
                f"same length (m need not be square). Return a new 2-D array: m {GRID[p['how']][0]}.")

    def args(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        rows, cols = rng.randint(1, 2 + size // 2), rng.randint(1, 2 + size // 2)
        return [[[rng.randint(0, 99) for _ in range(cols)] for _ in range(rows)]]

    def result(self, args: list[Any], p: dict[str, Any]) -> Any:
        m = args[0]
        how = p["how"]
        if how == "clockwise":
            return [list(row) for row in zip(*m[::-1])]
        if how == "counterclockwise":
            return [list(row) for row in zip(*m)][::-1]
        if how == "half_turn":
            return [row[::-1] for row in m[::-1]]
        if how == "transpose":
            return [list(row) for row in zip(*m)]
        return [row[::-1] for row in m]

    def reference(self, p: dict[str, Any]) -> str:
        _, out_rows, out_cols, row, col = GRID[p["how"]]
        return CODE("grid", name=p["function"], out_rows=out_rows, out_cols=out_cols, row=row, col=col)


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


class Rpn(LuaTemplate):
    name, tier, functions = "rpn", 2, ("evaluate", "rpn", "calc")

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"rounding": rng.choice(("floor", "truncate"))}

    def statement(self, p: dict[str, Any]) -> str:
        rounding = ("/ is integer division rounding down (toward negative infinity) and % the remainder with the "
                    "sign of the divisor (a = (a / b) * b + a % b)" if p["rounding"] == "floor" else
                    "/ is integer division rounding toward zero and % the remainder with the sign of the dividend "
                    "(a = (a / b) * b + a % b)")
        return ("tokens is an array of strings forming a valid reverse Polish expression: integers (possibly negative, "
                f"such as \"-4\") and the binary operators + - * / %, where {rounding}. No division by zero occurs. "
                "Return the integer value of the expression.")

    def _apply(self, op: str, a: int, b: int, rounding: str) -> int:
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        q = a // b if rounding == "floor" else _trunc_div(a, b)
        return q if op == "/" else a - q * b

    def args(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        def build(depth: int) -> tuple[list[str], int]:
            if depth == 0 or rng.random() < 0.3:
                value = rng.randint(-20, 40)
                return [str(value)], value
            left, a = build(depth - 1)
            right, b = build(depth - 1)
            op = rng.choice("+-*/%" if b != 0 and abs(a * b) < 10**6 else "+-")
            return left + right + [op], self._apply(op, a, b, p["rounding"])

        return [build(min(8, 1 + size // 3))[0]]  # deeper trees would only grow exponentially longer

    def result(self, args: list[Any], p: dict[str, Any]) -> Any:
        stack: list[int] = []
        for token in args[0]:
            if token in ("+", "-", "*", "/", "%"):
                b, a = stack.pop(), stack.pop()
                stack.append(self._apply(token, a, b, p["rounding"]))
            else:
                stack.append(int(token))
        return stack[-1]

    def reference(self, p: dict[str, Any]) -> str:
        if p["rounding"] == "floor":
            divide, modulo = "stack[#stack + 1] = a // b", "a % b"
        else:
            divide = "local q = a // b; if q < 0 and q * b ~= a then q = q + 1 end; stack[#stack + 1] = q"
            modulo = "math.fmod(a, b)"
        return CODE("rpn", name=p["function"], divide=divide, modulo=modulo)

    def slips(self, p: dict[str, Any]) -> dict[str, Callable[[list[Any]], Any]]:
        other = "floor" if p["rounding"] == "truncate" else "truncate"
        return {"the other rounding": lambda args: self.result(args, {**p, "rounding": other})}


def tells_slips(template: LuaTemplate, p: dict[str, Any], tests: list[list[Any]], texts: list[str]) -> bool:
    """Whether every slip of the template fails some test (a slip that raises fails it)."""
    def results(slip: Callable[[list[Any]], Any]) -> list[str] | None:
        try:
            return [encode(slip(args)) for args in tests]
        except ZeroDivisionError:  # the other rounding can make a later divisor 0
            return None

    return all(results(slip) != texts for slip in template.slips(p).values())


TEMPLATES: dict[str, LuaTemplate] = {t.name: t for t in (WordCounts(), RunLength(), MergeIntervals(), Grid(), Rpn())}


@register
class LuaFunctions(PolyglotTask):
    id = "code/lua_functions"
    description = "Write a Lua function over strings and tables (patterns, 1-based arrays), judged on hidden tests."
    tags = ("code", "programming", "lua")
    languages = ("lua",)
    toolchains = languages
    version = 3  # v2: the tests reject every stated integer parameter moved by one (pins_constants); v3: the slips

    @dataclass(frozen=True)
    class Config:
        templates: tuple[str, ...]
        max_size: int
        tests: int

    presets = (
        Config(("word_counts", "run_length", "grid"), max_size=3, tests=5),
        Config(("word_counts", "run_length", "grid", "merge_intervals"), max_size=5, tests=6),
        Config(("run_length", "grid", "merge_intervals", "rpn"), max_size=7, tests=7),
        Config(("grid", "merge_intervals", "rpn"), max_size=10, tests=8),
        Config(("merge_intervals", "rpn", "word_counts"), max_size=13, tests=10),
    )
    # capped where generation stops scaling (kit check far_levels)
    growth = Growth(limits={"max_size": 5549, "tests": 46}, factors={"max_size": 1.4})  # sizes grow geometrically: the log-size measure keeps rising

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> Problem | None:
            template = TEMPLATES[rng.choice(config.templates)]
            p = {**template.params(rng), "function": rng.choice(template.functions)}
            for _ in range(8):  # several test draws per template: one that is hard to pin would get rarer
                tests = [template.args(rng, p, rng.randint(max(1, config.max_size // 2), config.max_size))
                         for _ in range(config.tests)]
                texts = [encode(template.result(args, p)) for args in tests]
                if tells_slips(template, p, tests, texts):
                    break
            else:
                return None
            # every stated integer parameter moved by one must fail some test (v1: word_counts with its minimum
            # length off by one passed ~50% of those problems, merge_intervals' gap ~20%)
            stated = [k for k, v in p.items() if type(v) is int]
            near = (q for q in near_misses(p, stated) if template.statement(q) != template.statement(p))
            if len(set(texts)) < min(3, len(texts)) or not pins_constants(
                    near, lambda q: [encode(template.result(args, q)) for args in tests], texts):
                return None
            by_size = sorted(range(len(tests)), key=lambda i: (len(json.dumps(tests[i])), i))
            shown: list[int] = []
            for i in by_size[len(by_size) // 3:] + by_size:  # mid-sized tests first, with different results
                if len(shown) < 2 and i not in shown and all(texts[i] != texts[j] for j in shown):
                    shown.append(i)
            calls = "\n".join(f"- {p['function']}({', '.join(lua_literal(a) for a in tests[i])}) returns "
                              f"{lua_literal(template.result(tests[i], p))}" for i in sorted(shown))
            prompt = (
                f"Write the Lua function {p['function']}. {template.statement(p)}\n\nExamples (Lua values):\n{calls}\n\n"
                f"Your code runs in Lua 5.4: a test driver loads it, calls the global function {p['function']} on "
                "hidden tests and compares each result with the expected value (tables by content: arrays in order, "
                "other tables as key-value sets). Do not read input or print. "
                + convention(self.languages, shape=f"function {p['function']}(...)\n    -- ...\nend")
            )
            data = {"template": template.name, "params": p, "function": p["function"], "tests": tests,
                    "expected": texts, "languages": list(self.languages), "gold": "lua"}
            return Problem(prompt=prompt, answer=fence(("lua", template.reference(p).strip())), data=data)

        return retry(draw, attempts=50, what="a Lua function problem with varied results")

    def sources(self, problem: Problem) -> dict[str, str]:
        return {"lua": TEMPLATES[problem.data["template"]].reference(problem.data["params"]).strip()}

    def required_name(self, problem: Problem) -> str | None:
        return problem.data["function"]

    def judge(self, problem: Problem, program: Program) -> Report:
        data = problem.data
        tests = "{\n" + "".join(f"    {{{', '.join(lua_literal(a) for a in args)}}},\n" for args in data["tests"]) + "}"
        driver = CODE("driver", name=data["function"], tests=tests)
        return polyglot.check_program(program, "", data["expected"], driver=driver, budget=Budget(cpu_seconds=2.0))

    def difficulty(self, problem: Problem) -> float:
        """The template's tier plus log2 of the hidden tests' total size (JSON characters)."""
        return TEMPLATES[problem.data["template"]].tier + math.log2(1 + len(json.dumps(problem.data["tests"])))
