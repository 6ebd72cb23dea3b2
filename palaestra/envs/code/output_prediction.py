"""Predict the exact output of a small generated Python program.

Programs are random typed syntax trees (integers, strings, lists of integers;
assignments, ``if``, ``for``, ``while``, functions at higher levels), rendered as
Python source. Their output is computed at generation time by a small
interpreter over the same trees, never by running code, and programs that fail
(index errors, runaway loops, huge values) are discarded, as are programs that print
nothing or print a line that is blank or starts with a space, so every output can be
written as an answer. The verifier compares the answer line by line with the shared
block reader: leading spaces are significant (`` 8`` is not ``8``, as the prompt says),
trailing spaces and blank lines around the output are not, and a code fence around the
output (with an optional ``Output:`` label before it) is stripped exactly.

Version 2: no blank or space-led output lines (an empty printed line made a problem
unanswerable); answers read by the shared block reader (a fenced output starting with a
space was refused, while ``8`` was accepted for `` 8``); a minimum trace length per level
and a difficulty measure (the statements executed).

Generation speed: about 200 problems/s at level 4 on this 2-core machine. Each draw builds a random
program and runs it in this module's own step-counting interpreter for the reference output, and about 5
draws in 6 are redrawn because the program runs too few steps or prints an unwritable line; the minimum
step count is the difficulty the level promises.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.verifiers.blocks import read_block

_EXAMPLE = ("3", "[1, 2]")  # the prompt's example output, whatever the answer
_WORDS = ("cat", "data", "loop", "tree", "node", "sun", "code", "graph", "moon", "star", "pixel", "queue")
_NAMES = {
    "int": ("a", "b", "c", "n", "x", "y", "z", "total", "count", "acc", "k", "m"),
    "str": ("s", "t", "word", "text", "out"),
    "list": ("nums", "vals", "items", "xs", "ys"),
}
_LOOP_NAMES = ("i", "j", "r")
_FUNCTION_NAMES = ("f", "g", "h")
_PARAM_NAMES = ("p", "q")

Node = tuple  # a syntax tree node: (tag, *fields)


@register
class OutputPrediction(Task):
    id = "code/output_prediction"
    family = "code"
    seed_id = "programs/output_prediction"  # moved from programs/ in round 3; same problems
    aliases = {"programs/output_prediction": {"version": 3}}
    description = "Predict the exact printed output of a small generated Python program."
    tags = ("code", "programs", "execution")
    max_answer_chars = 10_000
    version = 3
    multiline = True
    verbatim = True  # the exact output, nothing else (the prompt says so)

    @dataclass(frozen=True)
    class Config:
        statements: int  # top-level statements before the final print
        max_depth: int  # nesting depth of if / for / while blocks
        loops: bool
        strings: bool
        lists: bool
        whiles: bool
        functions: int  # functions defined at the top of the program
        min_steps: int  # executed statements required, so the trace to follow is not trivially short
        max_steps: int  # executed statements allowed, which bounds the trace to follow
        max_lines: int  # printed lines allowed
        max_int: int  # magnitude bound on every integer value

    presets = (
        Config(statements=4, max_depth=1, loops=False, strings=False, lists=False, whiles=False, functions=0,
              min_steps=0, max_steps=20, max_lines=3, max_int=1_000),
        Config(statements=5, max_depth=1, loops=True, strings=True, lists=False, whiles=False, functions=0,
              min_steps=8, max_steps=60, max_lines=5, max_int=10_000),
        Config(statements=6, max_depth=2, loops=True, strings=True, lists=True, whiles=False, functions=0,
              min_steps=16, max_steps=120, max_lines=6, max_int=100_000),
        Config(statements=7, max_depth=2, loops=True, strings=True, lists=True, whiles=True, functions=1,
              min_steps=40, max_steps=200, max_lines=8, max_int=1_000_000),
        Config(statements=9, max_depth=3, loops=True, strings=True, lists=True, whiles=True, functions=2,
              min_steps=80, max_steps=350, max_lines=10, max_int=1_000_000),
    )
    bounded = "past the presets its generator or oracle gets too slow (the levels 5-9 check did not finish in 40 s on a busy machine)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[list[Node], _Machine] | None:
            program = _Builder(rng, config).program()
            machine = _Machine(config)
            output = machine.run(program)
            writable = output and all(_writable(line) for line in output)
            return (program, machine) if writable and machine.steps >= config.min_steps else None

        program, machine = retry(draw, what="a program that prints non-blank lines after enough steps")
        source = "\n".join(_render_block(program, 0))
        text = "\n".join(machine.output)
        first, second = _EXAMPLE  # a fixed placeholder: independent of the answer
        prompt = (
            "What does the following Python 3 program print?\n\n"
            f"```python\n{source}\n```\n\n"
            "Give the exact output, one printed line per line, and nothing else. Spaces at the start of a "
            "line count (` 8` is not `8`); trailing spaces do not. For example, a program printing "
            f"{first} and then {second} has the output:\n{first}\n{second}"
        )
        return Problem(prompt=prompt, answer=text, data={"program": source, "output": text, "steps": machine.steps})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if len(answer) > self.max_answer_chars:
            return Verdict.wrong("the output is far longer than the program's")
        given = _lines(answer)
        if given is None:
            return Verdict.unparsed("no output found (empty answer, or more than one code block)")
        expected = _lines(problem.data["output"]) or []
        if len(given) != len(expected):
            return Verdict.wrong(f"expected {len(expected)} line(s), got {len(given)}")
        for number, (got, want) in enumerate(zip(given, expected), start=1):
            if got != want:
                spaces = got.strip() == want.strip()
                return Verdict.wrong(f"line {number} differs" + (" (in its leading spaces)" if spaces else ""))
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Statements executed (loop tests included): the length of the trace to follow."""
        return float(problem.data["steps"])

    def spellings(self, problem: Problem) -> list[str]:
        output = problem.data["output"]
        return [
            *super().spellings(problem),
            f"```\n{output}\n```",
            f"```text\n{output}\n```",
            f"Output:\n```\n{output}\n```",
            f"```\n{output}\n```",
            "\n".join(line + "  " for line in output.split("\n")),  # trailing spaces do not count
            f"\n{output}\n\n",
        ]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        lines = problem.data["output"].split("\n")
        first = lines[0]
        position = rng.randrange(len(first))
        replacement = "7" if first[position] != "7" else "8"
        changed = [first[:position] + replacement + first[position + 1 :]] + lines[1:]
        shorter = lines[:-1] if len(lines) > 1 else lines + ["0"]
        indented = "\n".join(" " + line for line in lines)
        fenced_indented = f"```\n{indented}\n```"
        return ["\n".join(changed), "\n".join(shorter), fenced_indented, "\n".join(lines + lines[-1:]),
                f"```\n{problem.data['output']}\n```\n```\n0\n```"]


def _writable(line: str) -> bool:
    """A printed line an answer can carry unambiguously: visible text, no leading space."""
    return bool(line.strip()) and not line[0].isspace()


def _lines(text: str) -> list[str] | None:
    """The answer's lines: leading spaces kept, trailing ones and blank edge lines dropped, a fence stripped."""
    return read_block(text, leading="keep", trailing="strip", blank_edges=True, max_chars=OutputPrediction.max_answer_chars)


# --- generation: random typed syntax trees ------------------------------------

class _Scope:
    """Variables visible while generating a block: name -> type, and those the block must not assign."""

    def __init__(
        self, types: dict[str, str] | None = None, frozen: frozenset[str] = frozenset(), prints: bool = True
    ) -> None:
        self.types = dict(types or {})
        self.frozen = frozen
        self.prints = prints  # function bodies do not print, so a call is a pure value

    def child(self, *, freeze: tuple[str, ...] = (), add: dict[str, str] | None = None) -> _Scope:
        frozen = self.frozen | frozenset(freeze) | frozenset(add or ())
        return _Scope({**self.types, **(add or {})}, frozen, self.prints)

    def of(self, kind: str, writable: bool = False) -> list[str]:
        return sorted(n for n, t in self.types.items() if t == kind and not (writable and n in self.frozen))


class _Builder:
    def __init__(self, rng: random.Random, config: OutputPrediction.Config) -> None:
        self.rng = rng
        self.config = config
        self.functions: list[tuple[str, int]] = []  # (name, arity) of functions defined so far
        self.kinds = ["int"] + ["str"] * config.strings + ["list"] * config.lists

    def program(self) -> list[Node]:
        body: list[Node] = [self.function(name) for name in _FUNCTION_NAMES[: self.config.functions]]
        scope = _Scope()
        for _ in range(self.config.statements):
            body.append(self.statement(scope, 0))
        printable = scope.of("int") + scope.of("str") + scope.of("list")
        shown = self.rng.sample(printable, min(len(printable), self.rng.randint(1, 2)))
        body.append(("print", [("var", name) for name in shown]))
        return body

    def function(self, name: str) -> Node:
        arity = self.rng.randint(1, 2)
        params = list(_PARAM_NAMES[:arity])
        scope = _Scope({p: "int" for p in params}, prints=False)
        body: list[Node] = []
        if self.rng.random() < 0.4:  # an early return behind a condition, on the parameters only
            body.append(("if", self.condition(scope), [("return", self.int_expr(scope, 1, anchored=True))], []))
        body += [self.statement(scope, 1) for _ in range(self.rng.randint(1, 2))]
        body.append(("return", self.int_expr(scope, 2, anchored=True)))
        self.functions.append((name, arity))
        return ("def", name, params, body)

    # statements

    def statement(self, scope: _Scope, depth: int) -> Node:
        c, rng = self.config, self.rng
        if not scope.of("int"):
            return self._new(scope, depth, "int")
        options: dict[str, float] = {"new": 3.0 if depth == 0 else 0.3}
        if any(scope.of(kind, writable=True) for kind in self.kinds):
            options["update"] = 3.0
        if scope.of("list", writable=True):
            options["append"] = 2.0
        if depth > 0 and scope.prints:
            options["print"] = 1.0 if depth == 1 else 0.4  # prints deep in loops flood the output
        if depth < c.max_depth:
            options["if"] = 1.5
            if c.loops:
                options["for"] = 2.0
                if scope.of("str") or scope.of("list"):
                    options["foreach"] = 1.5
            if c.whiles:
                options["while"] = 1.0
        kind = rng.choices(sorted(options), [options[k] for k in sorted(options)])[0]
        return getattr(self, f"_{kind}")(scope, depth)

    def block(self, scope: _Scope, depth: int) -> list[Node]:
        return [self.statement(scope, depth) for _ in range(self.rng.randint(1, 2))]

    def _new(self, scope: _Scope, depth: int, kind: str = "") -> Node:
        kinds = [kind] if kind else [k for k in self.kinds if any(n not in scope.types for n in _NAMES[k])]
        if not kinds:  # every name of every type is taken
            return self._update(scope, depth)
        kind = self.rng.choice(kinds)
        name = self.rng.choice([n for n in _NAMES[kind] if n not in scope.types])
        node = ("assign", name, self.expr(kind, scope, 2))
        scope.types[name] = kind
        return node

    def _update(self, scope: _Scope, depth: int) -> Node:
        kind = self.rng.choice([k for k in self.kinds if scope.of(k, writable=True)])
        name = self.rng.choice(scope.of(kind, writable=True))
        if kind == "int":
            # repeated doubling inside loops overflows the value bound, so loops rarely multiply
            op = self.rng.choice(["+", "+", "-", "*"] if depth == 0 else ["+", "+", "-", "-", "+", "-", "*"])
            right = ("const", self.rng.randint(2, 3)) if op == "*" else self.int_expr(scope, 1)
            return ("aug", name, op, right)
        if kind == "str" and self.rng.random() < 0.7:
            return ("aug", name, "+", self.str_expr(scope, 1))
        return ("assign", name, self.expr(kind, scope, 2))

    def _append(self, scope: _Scope, depth: int) -> Node:
        return ("append", self.rng.choice(scope.of("list", writable=True)), self.int_expr(scope, 1))

    def _print(self, scope: _Scope, depth: int) -> Node:
        if self.rng.random() < 0.4:
            return ("print", [self.int_expr(scope, 1, anchored=True)])
        names = sorted(scope.types)
        return ("print", [("var", name) for name in self.rng.sample(names, min(len(names), self.rng.randint(1, 2)))])

    def _if(self, scope: _Scope, depth: int) -> Node:
        cond = self.condition(scope)
        orelse = self.block(scope.child(), depth + 1) if self.rng.random() < 0.5 else []
        return ("if", cond, self.block(scope.child(), depth + 1), orelse)

    def _for(self, scope: _Scope, depth: int) -> Node:
        var = self._loop_name(scope)
        start = self.rng.randint(0, 3)
        stop = start + self.rng.randint(2, 6)
        args: list[Node] = [("const", start), ("const", stop)]
        if self.rng.random() < 0.25:
            args.append(("const", 2))
        elif start == 0 and self.rng.random() < 0.6:
            args = [("const", stop)]
        return ("for", var, args, self.block(scope.child(add={var: "int"}), depth + 1))

    def _foreach(self, scope: _Scope, depth: int) -> Node:
        kind = self.rng.choice([k for k in ("str", "list") if scope.of(k)])
        iterable = self.rng.choice(scope.of(kind))
        var = "ch" if kind == "str" else "v"
        if var in scope.types:
            var = self._loop_name(scope)
        body_scope = scope.child(freeze=(iterable,), add={var: "str" if kind == "str" else "int"})
        return ("foreach", var, ("var", iterable), self.block(body_scope, depth + 1))

    def _while(self, scope: _Scope, depth: int) -> Node:
        """A counted loop: the counter moves towards the bound at the end of every pass."""
        counter = self.rng.choice([n for n in _NAMES["int"] if n not in scope.types] or ["w"])
        start, bound = self.rng.randint(0, 5), self.rng.randint(6, 30)
        compare, move = "<", "+"
        if self.rng.random() < 0.5:
            start, bound, compare, move = bound, start, ">", "-"
        cond = ("cmp", compare, ("var", counter), ("const", bound))
        step = ("aug", counter, move, ("const", self.rng.randint(1, 4)))
        body = self.block(scope.child(freeze=(counter,), add={counter: "int"}), depth + 1) + [step]
        scope.types[counter] = "int"
        return ("block", [("assign", counter, ("const", start)), ("while", cond, body)])

    def _loop_name(self, scope: _Scope) -> str:
        free = [n for n in _LOOP_NAMES if n not in scope.types]
        return free[0] if free else self.rng.choice(_LOOP_NAMES)

    # expressions

    def expr(self, kind: str, scope: _Scope, depth: int) -> Node:
        return {"int": self.int_expr, "str": self.str_expr, "list": self.list_expr}[kind](scope, depth)

    def int_expr(self, scope: _Scope, depth: int, anchored: bool = False) -> Node:
        """An integer expression; ``anchored`` ones involve a variable, so they are not constant."""
        rng, ints = self.rng, scope.of("int")
        if anchored and ints:
            var: Node = ("var", rng.choice(ints))
            if depth <= 0 or rng.random() < 0.4:
                return var
            return _binary(rng.choice("+-*+"), var, self.int_expr(scope, depth - 1))
        if depth <= 0 or rng.random() < 0.3:
            return ("var", rng.choice(ints)) if ints and rng.random() < 0.7 else ("const", rng.randint(1, 9))
        options = ["bin", "bin", "bin", "divmod"]
        if scope.of("str") or scope.of("list"):
            options.append("len")
        if scope.of("list"):
            options += ["aggregate", "index"]
        if self.functions:
            options += ["call", "call"]
        choice = rng.choice(options)
        if choice == "bin":
            return _binary(rng.choice("+-*+"), self.int_expr(scope, depth - 1), self.int_expr(scope, depth - 1))
        if choice == "divmod":
            return ("bin", rng.choice(["//", "%"]), self.int_expr(scope, depth - 1), ("const", rng.randint(2, 5)))
        if choice == "len":
            return ("call", "len", [("var", rng.choice(scope.of("str") + scope.of("list")))])
        if choice == "aggregate":
            return ("call", rng.choice(["sum", "max", "min", "len"]), [("var", rng.choice(scope.of("list")))])
        if choice == "index":
            return ("index", ("var", rng.choice(scope.of("list"))), ("const", rng.choice([0, 1, -1])))
        name, arity = rng.choice(self.functions)
        return ("call", name, [self.int_expr(scope, depth - 1) for _ in range(arity)])

    def str_expr(self, scope: _Scope, depth: int) -> Node:
        rng, strs = self.rng, scope.of("str")
        if depth <= 0 or rng.random() < 0.3:
            return ("var", rng.choice(strs)) if strs and rng.random() < 0.6 else ("const", rng.choice(_WORDS))
        choice = rng.choice(["concat", "concat", "upper", "reverse", "slice", "str", "repeat", "char"])
        inner = self.str_expr(scope, depth - 1)
        if choice == "concat":
            return ("bin", "+", inner, self.str_expr(scope, depth - 1))
        if choice == "upper":
            return ("method", inner, "upper")
        if choice == "reverse":
            return ("reverse", inner)
        if choice == "slice":
            start = rng.randint(0, 2)
            return ("slice", inner, start, start + rng.randint(1, 4))
        if choice == "str":
            return ("call", "str", [self.int_expr(scope, depth - 1)])
        if choice == "repeat":
            return ("bin", "*", inner, ("const", 2))
        return ("index", inner, ("const", rng.choice([0, 1, -1])))

    def list_expr(self, scope: _Scope, depth: int) -> Node:
        rng, lists = self.rng, scope.of("list")
        if depth <= 0 or not lists or rng.random() < 0.4:
            return ("list", [("const", rng.randint(0, 9)) for _ in range(rng.randint(2, 5))])
        name = ("var", rng.choice(lists))
        choice = rng.choice(["sorted", "reverse", "concat", "empty"])
        if choice == "sorted":
            return ("call", "sorted", [name])
        if choice == "reverse":
            return ("reverse", name)
        if choice == "concat":
            return ("bin", "+", name, self.list_expr(scope, depth - 1))
        return ("list", [])

    def condition(self, scope: _Scope, compound: bool = True) -> Node:
        rng = self.rng
        options = ["compare", "compare", "parity"]
        if scope.of("str"):
            options.append("vowel")
        if compound and self.config.max_depth >= 2:
            options.append("both")
        choice = rng.choice(options)
        if choice == "compare":
            op = rng.choice(["<", "<=", ">", ">=", "==", "!="])
            left = self.int_expr(scope, 1, anchored=True)
            others = [n for n in scope.of("int") if ("var", n) != left]
            right = ("var", rng.choice(others)) if others and rng.random() < 0.4 else ("const", rng.randint(0, 12))
            return ("cmp", op, left, right)
        if choice == "parity":
            k = rng.randint(2, 3)
            left = ("bin", "%", self.int_expr(scope, 0, anchored=True), ("const", k))
            return ("cmp", "==", left, ("const", rng.randrange(k)))
        if choice == "vowel":
            return ("in", ("index", ("var", rng.choice(scope.of("str"))), ("const", 0)), ("const", "aeiou"))
        return ("bool", rng.choice(["and", "or"]), self.condition(scope, False), self.condition(scope, False))


def _binary(op: str, left: Node, right: Node) -> Node:
    """``left op right``, avoiding degenerate ``x - x`` style operations on one variable."""
    if left == right and left[0] == "var":
        right = ("const", 2 if op == "*" else 1)
    return ("bin", op, left, right)


# --- rendering ----------------------------------------------------------------

_ATOMS = frozenset({"const", "var", "call", "index", "list", "method", "reverse", "slice"})


def _render(e: Node) -> str:
    tag = e[0]
    if tag == "const":
        return repr(e[1])
    if tag == "var":
        return e[1]
    if tag == "bin":
        return f"{_operand(e[2])} {e[1]} {_operand(e[3])}"
    if tag == "call":
        return f"{e[1]}({', '.join(_render(a) for a in e[2])})"
    if tag == "index":
        return f"{_atom(e[1])}[{_render(e[2])}]"
    if tag == "method":
        return f"{_atom(e[1])}.{e[2]}()"
    if tag == "reverse":
        return f"{_atom(e[1])}[::-1]"
    if tag == "slice":
        return f"{_atom(e[1])}[{e[2]}:{e[3]}]"
    if tag == "list":
        return "[" + ", ".join(_render(x) for x in e[1]) + "]"
    if tag == "cmp":
        return f"{_render(e[2])} {e[1]} {_render(e[3])}"
    if tag == "in":
        return f"{_render(e[1])} in {_render(e[2])}"
    if tag == "bool":
        return f"{_operand(e[2])} {e[1]} {_operand(e[3])}"
    raise ValueError(f"unknown expression {tag}")


def _operand(e: Node) -> str:
    """Nested binary operations are parenthesised, so no precedence puzzle is needed."""
    return f"({_render(e)})" if e[0] in ("bin", "bool") else _render(e)


def _atom(e: Node) -> str:
    return _render(e) if e[0] in _ATOMS else f"({_render(e)})"


def _render_block(body: list[Node], indent: int) -> list[str]:
    pad = "    " * indent
    lines: list[str] = []
    for s in body:
        tag = s[0]
        if tag == "block":
            lines += _render_block(s[1], indent)
        elif tag == "assign":
            lines.append(f"{pad}{s[1]} = {_render(s[2])}")
        elif tag == "aug":
            lines.append(f"{pad}{s[1]} {s[2]}= {_render(s[3])}")
        elif tag == "append":
            lines.append(f"{pad}{s[1]}.append({_render(s[2])})")
        elif tag == "print":
            lines.append(f"{pad}print({', '.join(_render(e) for e in s[1])})")
        elif tag == "return":
            lines.append(f"{pad}return {_render(s[1])}")
        elif tag == "if":
            lines.append(f"{pad}if {_render(s[1])}:")
            lines += _render_block(s[2], indent + 1)
            if s[3]:
                lines.append(f"{pad}else:")
                lines += _render_block(s[3], indent + 1)
        elif tag == "for":
            lines.append(f"{pad}for {s[1]} in range({', '.join(_render(a) for a in s[2])}):")
            lines += _render_block(s[3], indent + 1)
        elif tag == "foreach":
            lines.append(f"{pad}for {s[1]} in {_render(s[2])}:")
            lines += _render_block(s[3], indent + 1)
        elif tag == "while":
            lines.append(f"{pad}while {_render(s[1])}:")
            lines += _render_block(s[2], indent + 1)
        elif tag == "def":
            lines.append(f"{pad}def {s[1]}({', '.join(s[2])}):")
            lines += _render_block(s[3], indent + 1)
            lines.append("")
    return lines


# --- interpretation -------------------------------------------------------------

_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod,
}
_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq, "!=": operator.ne,
}
_BUILTINS: dict[str, Callable[..., Any]] = {
    "len": len, "sum": sum, "max": max, "min": min, "str": str, "sorted": sorted,
}
_MAX_TEXT, _MAX_LIST = 60, 30


class _Abort(Exception):
    """The program failed or left the configured bounds; it is discarded."""


class _Return(Exception):
    def __init__(self, value: Any) -> None:
        self.value = value


class _Machine:
    """Runs a syntax tree with Python's semantics, within step, size and output bounds."""

    def __init__(self, config: OutputPrediction.Config) -> None:
        self.config = config
        self.steps = 0
        self.output: list[str] = []
        self.functions: dict[str, Node] = {}

    def run(self, program: list[Node]) -> list[str] | None:
        try:
            self.block(program, {})
        except (_Abort, _Return, ArithmeticError, IndexError, KeyError, TypeError, ValueError):
            return None
        return self.output

    def block(self, body: list[Node], env: dict[str, Any]) -> None:
        for s in body:
            self.statement(s, env)

    def statement(self, s: Node, env: dict[str, Any]) -> None:
        self.steps += 1
        if self.steps > self.config.max_steps:
            raise _Abort
        tag = s[0]
        if tag == "block":
            self.block(s[1], env)
        elif tag == "assign":
            env[s[1]] = self.eval(s[2], env)
        elif tag == "aug":
            env[s[1]] = self.bounded(_BINARY[s[2]](env[s[1]], self.eval(s[3], env)))
        elif tag == "append":
            env[s[1]].append(self.eval(s[2], env))
            self.bounded(env[s[1]])
        elif tag == "print":
            self.output.append(" ".join(str(self.eval(e, env)) for e in s[1]))
            if len(self.output) > self.config.max_lines:
                raise _Abort
        elif tag == "return":
            raise _Return(self.eval(s[1], env))
        elif tag == "if":
            self.block(s[2] if self.eval(s[1], env) else s[3], env)
        elif tag == "for":
            for value in range(*(self.eval(a, env) for a in s[2])):
                env[s[1]] = value
                self.block(s[3], env)
        elif tag == "foreach":
            for value in self.eval(s[2], env):
                env[s[1]] = value
                self.block(s[3], env)
        elif tag == "while":
            while self.eval(s[1], env):
                self.block(s[2], env)
                self.steps += 1  # each test of the condition is a step, so an idle loop still ends
                if self.steps > self.config.max_steps:
                    raise _Abort
        elif tag == "def":
            self.functions[s[1]] = s
        else:
            raise ValueError(f"unknown statement {tag}")

    def eval(self, e: Node, env: dict[str, Any]) -> Any:
        tag = e[0]
        if tag == "const":
            return e[1]
        if tag == "var":
            return env[e[1]]
        if tag == "bin":
            return self.bounded(_BINARY[e[1]](self.eval(e[2], env), self.eval(e[3], env)))
        if tag == "call":
            args = [self.eval(a, env) for a in e[2]]
            if e[1] in self.functions:
                return self.call(self.functions[e[1]], args)
            return self.bounded(_BUILTINS[e[1]](*args))
        if tag == "index":
            return self.eval(e[1], env)[self.eval(e[2], env)]
        if tag == "method":
            return getattr(self.eval(e[1], env), e[2])()
        if tag == "reverse":
            return self.eval(e[1], env)[::-1]
        if tag == "slice":
            return self.eval(e[1], env)[e[2] : e[3]]
        if tag == "list":
            return [self.eval(x, env) for x in e[1]]
        if tag == "cmp":
            return _COMPARE[e[1]](self.eval(e[2], env), self.eval(e[3], env))
        if tag == "in":
            return self.eval(e[1], env) in self.eval(e[2], env)
        if tag == "bool":
            left = self.eval(e[2], env)
            if e[1] == "and":
                return left and self.eval(e[3], env)
            return left or self.eval(e[3], env)
        raise ValueError(f"unknown expression {tag}")

    def call(self, definition: Node, args: list[Any]) -> Any:
        _, _, params, body = definition
        try:
            self.block(body, dict(zip(params, args)))
        except _Return as result:
            return self.bounded(result.value)
        raise _Abort  # every generated function ends with a return

    def bounded(self, value: Any) -> Any:
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and abs(value) > self.config.max_int:
            raise _Abort
        if isinstance(value, (str, list)) and len(value) > (_MAX_TEXT if isinstance(value, str) else _MAX_LIST):
            raise _Abort
        return value
