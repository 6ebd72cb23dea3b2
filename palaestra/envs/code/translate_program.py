"""Translate a Python function into C or JavaScript, keeping its exact behaviour on hidden tests.

Each problem generates a small integer function ``f(n, xs)`` (loops over the list or a range,
conditionals, accumulators, digit loops, wrap-around indexing) from a little expression
language, shows it in Python, and asks for the same function in C or JavaScript. The traps are
Python's semantics: ``//`` and ``%`` round toward minus infinity (C's and JavaScript's ``/`` and
``%`` truncate toward zero), ``xs[i - 1]`` at ``i = 0`` is the last element, ``max``/``min``/
``abs`` are built in. Values stay below 2**50 in magnitude (checked on every hidden test), so
64-bit integers and JavaScript numbers hold them exactly.

The Python shown and the C and JavaScript references are renderings of the same program;
expected outputs come from the Python rendering itself, run in-process with every value checked
(:func:`run`), and ``tests/code`` checks the three renderings through the sandbox.

The hidden tests also reject each near miss of a careful translation (:func:`near_misses`): C's rounding at
one ``//`` or ``%`` only, at every ``//`` only or every ``%`` only, a wrap-around read that gives 0; a probe
input that tells one apart is added where the drawn tests do not (v2: such a one-place slip that changes the
function passed all tests in 0.08-0.16 of the cases at levels 1-4 before, 0.03-0.06 now).

Generation speed: about 26 ms a problem at level 4 on this 2-core machine. Each draw runs the random
program in this module's interpreter on every test and 24 probes, and the naive translation on every test,
and about 4 draws in 9 are redrawn because the tests cannot tell the two apart or give too few distinct
results; then each near miss runs on the tests, and on the probes when the tests do not tell it apart.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.code._polyglot import PolyglotTask, convention, join_cases
from palaestra.envs.code.common import compiled_function
from palaestra.envs.code.templates import ProgramTexts
from palaestra.verifiers import polyglot
from palaestra.verifiers.polyglot import Budget, Program, Report, fence

LIMIT = 2**50
PROBES = 24  # inputs drawn besides the tests, from which one is added for a near miss the tests miss
STEPS = 20_000
NAMES = ("compute", "mystery", "score", "fold", "crunch", "reduce_list", "walk", "tally", "blend", "churn")

Expr = list[Any]
Stmt = list[Any]


class Overflow(Exception):
    """A value left the safe range (or the program ran too long): the generator draws again."""


# --- the trusted run: the Python rendering, checked, compiled in-process ---------------------

def _check(value: int) -> int:
    if abs(value) >= LIMIT:
        raise Overflow
    return value


def _divide(a: int, b: int, truncating: bool) -> int:
    quotient = a // b
    return quotient + 1 if truncating and quotient < 0 and quotient * b != a else quotient  # C and JS: toward 0


def _remainder(a: int, b: int, truncating: bool) -> int:
    return a - b * _divide(a, b, truncating)


def run(program: dict[str, Any], n: int, xs: list[int], truncating: bool = False) -> int:
    """The trusted result of ``f(n, xs)`` (raises Overflow outside the safe range or past ``STEPS``
    statements); ``truncating``: with C's division and remainder instead (what a naive translation
    computes). It runs the program's own Python rendering with every value checked (``lang="checked"``)."""
    budget = [STEPS]

    def tick() -> None:
        budget[0] -= 1
        if budget[0] < 0:
            raise Overflow

    helpers = "from palaestra.envs.code.translate_program import _check, _divide, _remainder\n\n\n"
    return compiled_function(helpers + render(program, "checked"), "checked")(n, list(xs), truncating, tick)


# --- rendering --------------------------------------------------------------------------------

def _expr(e: Expr, lang: str, naive: bool = False) -> str:
    """``e`` in ``lang``: ``python``, ``c``, ``javascript``, or ``checked`` (Python whose every arithmetic
    result is checked, the division and remainder of the caller's ``truncating`` rule: the trusted run)."""
    kind = e[0]
    if kind == "num":
        return str(e[1])
    if kind == "var":
        return e[1]
    if kind == "len":
        return {"python": "len(xs)", "checked": "len(xs)", "c": "len", "javascript": "xs.length"}[lang]
    if kind == "index0":  # a near miss's read before the list's start, which gives 0 (see near_misses)
        return f"(xs[{e[1]} - {e[2]}] if {e[1]} - {e[2]} >= 0 else 0)"
    if kind == "index":
        var, k = e[1], e[2]
        if lang in ("python", "checked"):
            return f"xs[{var} - {k}]"
        if lang == "c":
            return f"xs[py_mod({var} - {k}, len)]"
        return f"xs[pyMod({var} - {k}, xs.length)]"
    if kind == "abs":
        inner = _expr(e[1], lang, naive)
        return {"python": f"abs({inner})", "checked": f"_check(abs({inner}))", "c": f"py_abs({inner})",
                "javascript": f"Math.abs({inner})"}[lang]
    op, a, b = e[1], _expr(e[2], lang, naive), _expr(e[3], lang, naive)
    if op in ("max", "min"):
        if lang in ("python", "checked"):
            return f"{op}({a}, {b})"
        return f"py_{op}({a}, {b})" if lang == "c" else f"Math.{op}({a}, {b})"
    if lang == "checked":
        if op in ("//t", "%t"):  # a near miss's operation with C's rounding whatever ``truncating`` says
            return f"_check({'_divide' if op == '//t' else '_remainder'}({a}, {b}, True))"
        if op == "//":
            return f"_check(_divide({a}, {b}, truncating))"
        return f"_check(_remainder({a}, {b}, truncating))" if op == "%" else f"_check({a} {op} {b})"
    if naive and op in ("//", "%"):  # the translation that forgets Python's rounding
        if op == "%" or lang == "c":
            return f"({a} {'/' if op == '//' else '%'} {b})"
        return f"Math.trunc({a} / {b})"
    if op == "//":
        return {"python": f"({a} // {b})", "c": f"py_div({a}, {b})", "javascript": f"pyDiv({a}, {b})"}[lang]
    if op == "%":
        return {"python": f"({a} % {b})", "c": f"py_mod({a}, {b})", "javascript": f"pyMod({a}, {b})"}[lang]
    return f"({a} {op} {b})"


def _cond(c: list[Any], lang: str, naive: bool = False) -> str:
    if c[0] in ("and", "or"):
        word = c[0] if lang in ("python", "checked") else ("&&" if c[0] == "and" else "||")
        return f"({_cond(c[1], lang, naive)} {word} {_cond(c[2], lang, naive)})"
    op = c[1]
    if lang == "javascript" and op in ("==", "!="):
        op += "="
    return f"{_expr(c[2], lang, naive)} {op} {_expr(c[3], lang, naive)}"


def _lines(body: list[Stmt], depth: int, lang: str, naive: bool = False) -> list[str]:
    """The statements in ``lang``: Python's indented blocks (``checked``: each statement counted by ``tick()``,
    for the trusted run) or C's and JavaScript's braces and semicolons."""
    pad = "    " * depth
    python = lang in ("python", "checked")
    end, close = ("", []) if python else (";", [f"{pad}}}"])

    def block(head: str, inner: list[str]) -> list[str]:
        return [f"{pad}{head}:" if python else f"{pad}{head} {{", *inner, *close]

    def nested(statements: list[Stmt]) -> list[str]:
        return _lines(statements, depth + 1, lang, naive)

    out = []
    for s in body:
        kind = s[0]
        if lang == "checked":
            out.append(f"{pad}tick()")
        if kind == "set":
            out.append(f"{pad}{s[1]} = {_expr(s[2], lang, naive)}{end}")
        elif kind == "if":
            condition = _cond(s[1], lang, naive)
            out += [f"{pad}if {condition}:" if python else f"{pad}if ({condition}) {{",
                    *(nested(s[2]) or ([f"{pad}    pass"] if python else []))]
            if s[3]:
                out += [f"{pad}else:" if python else f"{pad}}} else {{", *nested(s[3])]
            out += close
        elif kind == "for_list":
            head = {"c": "for (i = 0; i < len; i++)", "javascript": "for (i = 0; i < xs.length; i++)"}.get(
                lang, "for i in range(len(xs))")
            out += block(head, [f"{pad}    x = xs[i]{end}", *nested(s[1])])
        elif kind == "for_range":
            bound = _expr(s[1], lang, naive)
            out += block(f"for j in range({bound})" if python else f"for (j = 0; j < {bound}; j++)", nested(s[2]))
        else:
            base = s[2]
            absolute, remainder, divide = {
                "c": ("py_abs", f"py_mod(t, {base})", f"py_div(t, {base})"),
                "javascript": ("Math.abs", f"pyMod(t, {base})", f"pyDiv(t, {base})"),
            }.get(lang, ("abs", f"t % {base}", f"t // {base}"))
            out += [f"{pad}t = {absolute}({_expr(s[1], lang, naive)}){end}",
                    *block("while t > 0" if python else "while (t > 0)",
                           [f"{pad}    d = {remainder}{end}", *nested(s[3]), f"{pad}    t = {divide}{end}"])]
    return out


CODE = ProgramTexts("translate_program")
C_HELPERS = CODE("c.helpers")

JS_HELPERS = CODE("js.helpers")

LOCALS = ("acc", "other", "x", "i", "j", "t", "d")


def render(program: dict[str, Any], lang: str, naive: bool = False) -> str:
    """The program in ``lang``; ``naive``: with C's or JavaScript's own division and remainder
    (a plausible, wrong translation)."""
    name = program["name"]
    if lang == "python":
        result = _expr(program["result"], "python")
        lines = [f"def {name}(n, xs):", *_lines(program["body"], 1, "python"), f"    return {result}"]
        return "\n".join(lines) + "\n"
    if lang == "checked":
        result = _expr(program["result"], "checked")
        return "\n".join(["def checked(n, xs, truncating, tick):", *_lines(program["body"], 1, "checked"),
                          f"    return _check({result})"]) + "\n"
    body = _lines(program["body"], 1, lang, naive)
    result = _expr(program["result"], lang, naive)
    if lang == "c":
        return (f"{C_HELPERS}\nlong long {name}(long long n, const long long *xs, int len) {{\n"
                f"    long long {', '.join(f'{v} = 0' for v in LOCALS)};\n" + "\n".join(body)
                + f"\n    return {result};\n}}\n")
    return (f"{JS_HELPERS}\nfunction {name}(n, xs) {{\n    let {', '.join(f'{v} = 0' for v in LOCALS)};\n"
            + "\n".join(body) + f"\n    return {result};\n}}\n")


# --- generation -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Shape:
    statements: int  # updates inside the main loop
    branches: bool
    nested: bool  # a for-range or digit loop inside
    wrap: bool  # xs[i - k] (wrap-around indexing)
    extras: bool  # max/min/abs


def _atom(rng: random.Random, names: list[str]) -> Expr:
    """A variable, or a constant that is not 0, 1 or -1 (which would make operations trivial)."""
    if rng.random() < 0.7:
        return ["var", rng.choice(names)]
    return ["num", rng.choice([-9, -7, -5, -3, -2, 2, 3, 4, 6, 8])]


def _expr_draw(rng: random.Random, names: list[str], depth: int, shape: Shape) -> Expr:
    if depth == 0 or rng.random() < 0.3:
        return _atom(rng, names)
    roll = rng.random()
    if roll < 0.35:  # floor division / modulo by a positive constant: the semantic trap
        inner = retry(lambda: _expr_draw(rng, names, depth - 1, shape), lambda e: e[0] != "num", attempts=20,
                      what="a non-constant dividend")
        return ["bin", rng.choice(["//", "%"]), inner, ["num", rng.randint(2, 7)]]
    if shape.extras and roll < 0.55:
        if rng.random() < 0.3:
            return ["abs", retry(lambda: _expr_draw(rng, names, depth - 1, shape), lambda e: e[0] != "num",
                                 attempts=20, what="a non-constant operand")]
        left = _expr_draw(rng, names, depth - 1, shape)
        return ["bin", rng.choice(["max", "min"]), left, _distinct(rng, names, depth - 1, shape, left)]
    op = rng.choice(["+", "-", "+", "-", "*"])
    left = _expr_draw(rng, names, depth - 1, shape)
    return ["bin", op, left, _distinct(rng, names, depth - 1, shape, left)]


def _distinct(rng: random.Random, names: list[str], depth: int, shape: Shape, left: Expr) -> Expr:
    """A right operand that is neither the left one (x - x) nor, next to a constant, another constant."""
    def fine(right: Expr) -> bool:
        return right != left and not (right[0] == "num" and left[0] == "num")

    return retry(lambda: _expr_draw(rng, names, depth, shape), fine, attempts=20, what="a distinct operand")


def _cond_draw(rng: random.Random, names: list[str], shape: Shape) -> list[Any]:
    if rng.random() < 0.5:
        c = ["cmp", rng.choice(["==", "!="]), ["bin", "%", ["var", rng.choice(names)], ["num", rng.randint(2, 5)]],
             ["num", rng.randint(0, 1)]]
    else:
        left = ["var", rng.choice(names)]
        c = ["cmp", rng.choice(["<", "<=", ">", ">="]), left,
             retry(lambda: _atom(rng, names), lambda e: e != left, attempts=20, what="another operand")]
    if shape.extras and rng.random() < 0.25:
        return [rng.choice(["and", "or"]), c, _cond_draw(rng, names, Shape(1, False, False, False, False))]
    return c


def _floors(e: Any) -> bool:
    """Whether an expression holds a floor division or a modulo (where Python differs from C and JS)."""
    return isinstance(e, list) and (e[:1] == ["bin"] and e[1] in ("//", "%") or any(_floors(c) for c in e))


def _update(rng: random.Random, names: list[str], shape: Shape) -> Stmt:
    """An assignment to an accumulator, whose expression divides or reduces modulo a constant."""
    target = rng.choice(["acc", "other"])
    value = retry(lambda: _expr_draw(rng, names, 2, shape), _floors, attempts=50, what="an expression with // or %")
    if rng.random() < 0.6:  # an accumulation: every element counts
        value = ["bin", rng.choice(["+", "-"]), ["var", target], value]
    return ["set", target, value]


def draw_program(rng: random.Random, shape: Shape) -> dict[str, Any]:
    names = ["acc", "other", "x", "i", "n"]
    inner: list[Stmt] = []
    for _ in range(shape.statements):
        stmt = _update(rng, names, shape)
        if shape.wrap and rng.random() < 0.5:
            stmt = ["set", stmt[1], ["bin", rng.choice(["+", "-"]), stmt[2], ["index", "i", rng.randint(1, 2)]]]
        if shape.branches and rng.random() < 0.6:
            other = _update(rng, names, shape) if rng.random() < 0.6 else None
            stmt = ["if", _cond_draw(rng, names, shape), [stmt], [other] if other else []]
        inner.append(stmt)
    if shape.nested:
        if rng.random() < 0.5:
            inner.append(["for_range", ["bin", "%", ["var", "x"], ["num", rng.randint(2, 4)]],
                          [["set", "other", ["bin", rng.choice(["+", "-"]), ["var", "other"],
                                             rng.choice([["var", "j"], ["bin", "*", ["var", "j"], ["var", "i"]]])]]]])
        else:
            inner.append(["digits", rng.choice([["var", "x"], ["var", "acc"]]), rng.randint(2, 10),
                          [["set", "other", ["bin", "+", ["var", "other"], ["var", "d"]]]]])
    body = [["set", "acc", ["num", rng.randint(-5, 5)]], ["set", "other", ["num", rng.randint(0, 3)]],
            ["for_list", inner]]
    result = rng.choice([["var", "acc"], ["bin", "+", ["var", "acc"], ["var", "other"]],
                         ["bin", "-", ["var", "acc"], ["bin", "*", ["num", 2], ["var", "other"]]]])
    return {"body": body, "result": result, "name": rng.choice(NAMES)}


def near_misses(program: dict[str, Any]) -> list[dict[str, Any]]:
    """Translations that forget one of Python's rules in one place or everywhere, as programs to run (in the
    ``checked`` rendering only): one ``//`` or ``%`` with C's rounding, every ``//`` or every ``%`` with it, and
    every wrap-around read before the list's start giving 0 (what C's static array around the list mostly holds).
    The hidden tests reject each one that some probe tells apart (:func:`pinned_tests`)."""
    places: list[tuple[Any, ...]] = []

    def walk(node: Any, path: tuple[Any, ...]) -> None:
        if isinstance(node, list):
            if node[:1] == ["bin"] and node[1] in ("//", "%") or node[:1] == ["index"]:
                places.append(path)
            for k, child in enumerate(node):
                walk(child, (*path, k))

    walk(program["body"], ("body",))
    walk(program["result"], ("result",))

    def changed(paths: list[tuple[Any, ...]]) -> dict[str, Any]:
        copy = json.loads(json.dumps(program))
        for path in paths:
            node = copy
            for step in path:
                node = node[step]
            if node[0] == "index":
                node[0] = "index0"
            else:
                node[1] += "t"
        return copy

    def at(path: tuple[Any, ...]) -> list[Any]:
        node: Any = program
        for step in path:
            node = node[step]
        return node

    floors = [path for path in places if at(path)[0] == "bin"]
    groups = [[path] for path in floors] + [[p for p in floors if at(p)[1] == op] for op in ("//", "%")]
    groups.append([path for path in places if at(path)[0] == "index"])
    return [changed(group) for group in groups if group]


def size(node: Any) -> int:
    """The number of nodes of a program's tree (the difficulty measure's core)."""
    if isinstance(node, list):
        return (1 if node and isinstance(node[0], str) else 0) + sum(size(child) for child in node)
    return 0


def _result(program: dict[str, Any], n: int, xs: list[int]) -> int | None:
    """A near miss's result on one test (None where it leaves the safe range: C's would differ)."""
    try:
        return run(program, n, xs)
    except (Overflow, ZeroDivisionError, IndexError):
        return None


def pinned_tests(program: dict[str, Any], tests: list[list[Any]], results: list[int],
                 probes: list[list[Any]]) -> list[list[Any]]:
    """``tests`` and the probes needed for every :func:`near_misses` that changes some probe's result to change
    some test's: the first such probe is added for each near miss the tests do not tell apart (a near miss that
    changes no probe is taken as the same program: an operand that is never negative)."""
    tests, results = list(tests), list(results)
    for miss in near_misses(program):
        if any(_result(miss, n, xs) != want for (n, xs), want in zip(tests, results)):
            continue
        for n, xs in probes:
            want = run(program, n, xs)
            if _result(miss, n, xs) != want:
                tests.append([n, xs])
                results.append(want)
                break
    return tests


@register
class TranslateProgram(PolyglotTask):
    id = "code/translate_program"
    description = "Translate a generated Python function into C or JavaScript with exactly the same behaviour."
    tags = ("code", "translation", "c", "javascript")
    toolchains = ("c", "javascript")
    version = 2  # v2: the hidden tests reject Python's rounding forgotten at one place, for // or % only, and wrap-around

    @dataclass(frozen=True)
    class Config:
        shape: Shape
        tests: int
        max_len: int

    presets = (
        Config(Shape(1, False, False, False, False), tests=8, max_len=5),
        Config(Shape(2, True, False, False, False), tests=10, max_len=6),
        Config(Shape(2, True, False, False, True), tests=12, max_len=8),
        Config(Shape(3, True, True, True, True), tests=14, max_len=8),
        Config(Shape(4, True, True, True, True), tests=16, max_len=10),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> Problem | None:
            program = draw_program(rng, config.shape)
            drawn: list[list[Any]] = [[rng.randint(-5, 12), [rng.randint(-20, 20) for _ in range(rng.randint(1, config.max_len))]]
                                       for _ in range(config.tests + PROBES)]
            try:
                results = [run(program, n, xs) for n, xs in drawn]
                naive = [run(program, n, xs, truncating=True) for n, xs in drawn[: config.tests]]
            except (Overflow, ZeroDivisionError, IndexError):
                return None
            if naive == results[: config.tests]:  # the hidden tests must tell Python's rounding from C's
                return None
            tests = pinned_tests(program, drawn[: config.tests], results[: config.tests], drawn[config.tests:])
            results = [run(program, n, xs) for n, xs in tests]
            if len(set(results)) < min(4, len(results)):
                return None
            if not any(x < 0 for _, xs in tests for x in xs):
                return None
            target = rng.choice(["c", "javascript"])
            python = render(program, "python")
            name = program["name"]
            signature = (f"long long {name}(long long n, const long long *xs, int len)" if target == "c"
                         else f"function {name}(n, xs)")
            shown = "\n".join(f"{name}({n}, {xs}) == {r}" for (n, xs), r in list(zip(tests, results))[:2])
            where = ("C (a function with the prototype below; xs holds len elements; n and the elements can be "
                     "negative)" if target == "c" else "JavaScript (xs is an array of numbers)")
            prompt = (
                f"Translate this Python function into {where}, keeping exactly the same results for every input "
                "(integers of any sign; every intermediate value has magnitude below 2^50):\n\n"
                f"```python\n{python}```\n\n"
                f"Examples:\n{shown}\n\nWrite {signature}. A hidden test driver calls it on many inputs; do not write "
                "a main function or read input. "
                + convention([target], shape=(f"{signature} {{\n    /* ... */\n}}" if target == "c"
                                              else f"{signature} {{\n    // ...\n}}"))
            )
            data = {"program": program, "target": target, "tests": tests, "expected": [str(r) for r in results],
                    "languages": [target], "gold": target}
            return Problem(prompt=prompt, answer=fence((target, render(program, target))), data=data)

        return retry(draw, attempts=200, what="a program with safe values and varied results")

    def sources(self, problem: Problem) -> dict[str, str]:
        return {problem.data["target"]: render(problem.data["program"], problem.data["target"])}

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        """The gold cut short, and the naive translation using the target's own / and % (the hidden
        tests are drawn so that it fails)."""
        target = problem.data["target"]
        naive = render(problem.data["program"], target, naive=True)
        return [*super().corruptions(problem, rng), fence((target, naive))]

    def required_name(self, problem: Problem) -> str | None:
        return problem.data["program"]["name"]

    def judge(self, problem: Problem, program: Program) -> Report:
        data = problem.data
        name = data["program"]["name"]
        if program.language == "c":
            stdin = join_cases([f"{n} {len(xs)}\n{' '.join(map(str, xs))}\n" for n, xs in data["tests"]])
            driver = (f"#include <stdio.h>\n\nlong long {name}(long long n, const long long *xs, int len);\n\n"
                      "static long long XS[1000];\n\nint main(void) {\n    int t;\n"
                      "    if (scanf(\"%d\", &t) != 1) return 1;\n"
                      "    while (t-- > 0) {\n        long long n;\n        int len;\n"
                      "        if (scanf(\"%lld %d\", &n, &len) != 2) return 1;\n"
                      "        for (int i = 0; i < len; i++) if (scanf(\"%lld\", &XS[i]) != 1) return 1;\n"
                      f"        printf(\"%lld\\n\", {name}(n, XS, len));\n    }}\n    return 0;\n}}\n")
        else:
            stdin = join_cases([json.dumps([n, xs]) + "\n" for n, xs in data["tests"]])
            driver = JS_DRIVER.replace("NAME", name)
        return polyglot.check_program(program, stdin, data["expected"], driver=driver, budget=Budget(cpu_seconds=1.0))

    def difficulty(self, problem: Problem) -> float:
        """log2 of the program's node count plus the number of hidden tests / 8."""
        return math.log2(size(problem.data["program"]["body"])) + len(problem.data["tests"]) / 8


JS_DRIVER = CODE("js.driver")
