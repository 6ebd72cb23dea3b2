"""Implement a small Lua class with metatables (operator overloading, ``__tostring``, ``__eq``...), judged by a driver.

Kinds of value type (the class name, the text format and the details are drawn per problem):

- **vec**: 2-D integer vectors with ``+``, ``-``, unary minus, scaling by a number on either side, ``==``,
  ``#`` (a stated length: Manhattan, squared Euclidean or Chebyshev) and a ``dot`` method;
- **mod**: integers modulo a stated prime with ``+``, ``-``, ``*`` (a plain number allowed on either side),
  ``^`` by a non-negative integer and ``==``;
- **frac**: exact fractions in lowest terms with ``+ - * /``, ``==``, ``<`` and ``<=``.

How it is judged: the answer is Lua code defining a global table ``NAME`` with a constructor ``NAME.new``; our
driver (Lua 5.4) loads it as ``solution.lua``, builds a few values and prints, for each hidden check, the
``tostring`` of an expression over them (nested at the higher levels: ``(a + b) * 3``, ``#(-a)``...), or
``error`` when it raises. The trusted parent compares each line with the value our Python model of the type
gives, so every metamethod used must behave exactly as stated; operators the statement does not list are never
used.

Version 2: the hidden checks also fail each kind's plausible slips (``Kind.slips``: ``a ^ 0`` giving a, from a
power loop that starts at a; ``<=`` and ``<`` swapped for fractions), redrawn otherwise, and the exponent is 0
more often. In version 1 ``a ^ 0 = a`` passed 0.74-0.95 of the residue problems (level 4 to 0) and ``<=`` as
``<`` 0.18-0.40 of the fraction ones; now 0.00.
"""

from __future__ import annotations

import functools
import math
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from palaestra.core import Problem, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.code._driven import DrivenTask, other_params
from palaestra.envs.code._polyglot import convention
from palaestra.envs.code.templates import ProgramTexts

CODE = ProgramTexts("lua_metatables")
Tree = list[Any]  # ["var", name] | ["new", args] | ["int", k] | [operator, operand...]


class Kind:
    """One value type: its statement, constructor arguments, operators and Python model."""

    name: ClassVar[str]
    classes: ClassVar[tuple[str, ...]]
    formats: ClassVar[dict[str, tuple[str, str]]]  # format: (how the statement shows it, Lua expression)
    operators: ClassVar[dict[str, str]]  # operator: result ("T", "bool" or "int"), operands are T unless noted
    tier: ClassVar[int] = 1
    # Plausible wrong programs that the hidden checks must fail: apply() models one when params["slip"] names it.
    slips: ClassVar[tuple[str, ...]] = ()

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"format": rng.choice(list(self.formats))}

    def statement(self, cls: str, p: dict[str, Any]) -> str:
        raise NotImplementedError

    def new_args(self, rng: random.Random, p: dict[str, Any]) -> list[int]:
        raise NotImplementedError

    def make(self, args: list[int], p: dict[str, Any]) -> Any:
        raise NotImplementedError

    def apply(self, op: str, values: list[Any], p: dict[str, Any]) -> Any:
        """The result of ``op`` on evaluated operands, or raises ValueError where the check is undefined."""
        raise NotImplementedError

    def text(self, value: Any, p: dict[str, Any]) -> str:
        raise NotImplementedError

    def number(self, rng: random.Random, op: str) -> int:
        return rng.randint(-4, 6)

    def reference(self, cls: str, p: dict[str, Any]) -> str:
        return CODE(self.name, name=cls, text=self.formats[p["format"]][1], **self.fields(p))

    def fields(self, p: dict[str, Any]) -> dict[str, Any]:
        return {}


VEC_LENGTHS = {"manhattan": ("|x| + |y|", "math.abs(a.x) + math.abs(a.y)"),
               "squared": ("x * x + y * y", "a.x * a.x + a.y * a.y"),
               "chebyshev": ("the larger of |x| and |y|", "math.max(math.abs(a.x), math.abs(a.y))")}


class Vec(Kind):
    name, classes = "vec", ("Vec", "Point", "Vector2", "Step")
    formats = {"paren": ("(x, y), e.g. (3, -4)", '"(" .. a.x .. ", " .. a.y .. ")"'),
               "angle": ("<x|y>, e.g. <3|-4>", '"<" .. a.x .. "|" .. a.y .. ">"'),
               "bracket": ("[x y], e.g. [3 -4]", '"[" .. a.x .. " " .. a.y .. "]"')}
    operators = {"+": "T", "-": "T", "neg": "T", "*k": "T", "k*": "T", "==": "bool", "#": "int", "dot": "int"}

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {**super().params(rng), "length": rng.choice(list(VEC_LENGTHS))}

    def statement(self, cls: str, p: dict[str, Any]) -> str:
        return (f"{cls}.new(x, y) makes a 2-D vector with integer coordinates x and y. Vectors support: a + b and "
                f"a - b (coordinate-wise), -a, a * k and k * a for an integer k (each coordinate times k), a == b "
                f"(true when both coordinates are equal, also for distinct tables), #a (the integer "
                f"{VEC_LENGTHS[p['length']][0]}), the method a:dot(b) (the integer x1 * x2 + y1 * y2) and "
                f"tostring(a), which gives {self.formats[p['format']][0]}.")

    def new_args(self, rng: random.Random, p: dict[str, Any]) -> list[int]:
        return [rng.randint(-9, 9), rng.randint(-9, 9)]

    def make(self, args: list[int], p: dict[str, Any]) -> Any:
        return (args[0], args[1])

    def apply(self, op: str, values: list[Any], p: dict[str, Any]) -> Any:
        a = values[0]
        if op == "+":
            return (a[0] + values[1][0], a[1] + values[1][1])
        if op == "-":
            return (a[0] - values[1][0], a[1] - values[1][1])
        if op == "neg":
            return (-a[0], -a[1])
        if op in ("*k", "k*"):  # the number is the second operand of the tree either way
            return (a[0] * values[1], a[1] * values[1])
        if op == "==":
            return a == values[1]
        if op == "dot":
            return a[0] * values[1][0] + a[1] * values[1][1]
        x, y = abs(a[0]), abs(a[1])
        return {"manhattan": x + y, "squared": x * x + y * y, "chebyshev": max(x, y)}[p["length"]]

    def text(self, value: Any, p: dict[str, Any]) -> str:
        x, y = value
        return {"paren": f"({x}, {y})", "angle": f"<{x}|{y}>", "bracket": f"[{x} {y}]"}[p["format"]]

    def fields(self, p: dict[str, Any]) -> dict[str, Any]:
        return {"length": VEC_LENGTHS[p["length"]][1]}


class Mod(Kind):
    name, classes = "mod", ("Mod", "Residue", "Zmod", "Clock")
    formats = {"paren": ("n (mod m), e.g. 3 (mod 7)", 'a.n .. " (mod " .. M .. ")"'),
               "bracket": ("[n], e.g. [3]", '"[" .. a.n .. "]"'),
               "word": ("n mod m, e.g. 3 mod 7", 'a.n .. " mod " .. M')}
    operators = {"+": "T", "-": "T", "*": "T", "+k": "T", "k+": "T", "*k": "T", "k*": "T", "^": "T", "==": "bool"}
    tier = 2
    slips = ("a ^ 0 is a",)  # a loop that starts from a rather than from 1

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {**super().params(rng), "modulus": rng.choice((7, 11, 13, 17, 19, 23))}

    def statement(self, cls: str, p: dict[str, Any]) -> str:
        m = p["modulus"]
        return (f"{cls}.new(n) makes the residue of the integer n modulo {m}: it holds n mod {m} in 0..{m - 1} "
                f"(also for negative n: {cls}.new(-1) holds {m - 1}). Residues support: a + b, a - b and a * b "
                f"(the result reduced modulo {m}), where one of the two operands may also be a plain integer "
                f"(a + 5, 5 + a, a * 2, 2 * a); a ^ k for an integer k >= 0 (a multiplied k times; a ^ 0 holds 1); "
                f"a == b (true when both hold the same residue, also for distinct tables); and tostring(a), which "
                f"gives {self.formats[p['format']][0].replace('7', str(m))}, with n in 0..{m - 1}.")

    def new_args(self, rng: random.Random, p: dict[str, Any]) -> list[int]:
        return [rng.randint(-3 * p["modulus"], 3 * p["modulus"])]

    def make(self, args: list[int], p: dict[str, Any]) -> Any:
        return args[0] % p["modulus"]

    def number(self, rng: random.Random, op: str) -> int:
        if op == "^":  # the exponent 0 often, where a loop starting from a goes wrong
            return rng.choice((0, rng.randint(1, 12), rng.randint(1, 12)))
        return rng.randint(-30, 30)

    def apply(self, op: str, values: list[Any], p: dict[str, Any]) -> Any:
        m = p["modulus"]
        a, b = values
        if op == "==":
            return a == b
        if op == "^":
            return a if b == 0 and p.get("slip") == "a ^ 0 is a" else pow(a, b, m)
        if op in ("+", "+k", "k+"):
            return (a + b) % m
        if op == "-":
            return (a - b) % m
        return (a * b) % m

    def text(self, value: Any, p: dict[str, Any]) -> str:
        return {"paren": f"{value} (mod {p['modulus']})", "bracket": f"[{value}]",
                "word": f"{value} mod {p['modulus']}"}[p["format"]]

    def fields(self, p: dict[str, Any]) -> dict[str, Any]:
        return {"modulus": p["modulus"]}


class Frac(Kind):
    name, classes = "frac", ("Frac", "Ratio", "Rational", "Q")
    formats = {"always": ("p/q in lowest terms with q > 0, e.g. -3/4, 2/1 and 0/1",
                          'a.p .. "/" .. a.q'),
               "integer": ("p/q in lowest terms with q > 0, e.g. -3/4, or just p when q is 1, e.g. 2 and 0",
                           'a.q == 1 and tostring(a.p) or a.p .. "/" .. a.q')}
    operators = {"+": "T", "-": "T", "*": "T", "/": "T", "==": "bool", "<": "bool", "<=": "bool"}
    tier = 2
    slips = ("<= as <", "< as <=")

    def statement(self, cls: str, p: dict[str, Any]) -> str:
        return (f"{cls}.new(p, q) makes the exact fraction p/q of two integers (q is never 0, but may be negative). "
                "Fractions support: a + b, a - b, a * b and a / b (exact; b is never zero when dividing), a == b "
                "(equal values, also for distinct tables), a < b and a <= b (by value), and tostring(a), which "
                f"gives {self.formats[p['format']][0]}. Keep numerators and denominators integers (Lua's // and %).")

    def new_args(self, rng: random.Random, p: dict[str, Any]) -> list[int]:
        return [rng.randint(-9, 9), rng.choice((1, 2, 3, 4, 5, 6, -2, -3, 8, 9))]

    def make(self, args: list[int], p: dict[str, Any]) -> Any:
        return Fraction(args[0], args[1])

    def apply(self, op: str, values: list[Any], p: dict[str, Any]) -> Any:
        a, b = values
        if op == "/":
            if b == 0:
                raise ValueError("division by zero")
            return a / b
        strict = {"<= as <": "<=", "< as <=": "<"}.get(p.get("slip", ""))  # the comparison a slip swaps
        less = {"<": a < b, "<=": a <= b}
        if op == strict:
            return less["<" if op == "<=" else "<="]
        return {"+": a + b, "-": a - b, "*": a * b, "==": a == b, **less}[op]

    def text(self, value: Any, p: dict[str, Any]) -> str:
        if p["format"] == "integer" and value.denominator == 1:
            return str(value.numerator)
        return f"{value.numerator}/{value.denominator}"


KINDS: dict[str, Kind] = {k.name: k for k in (Vec(), Mod(), Frac())}
VARIABLES = ("a", "b", "c")


def lua(tree: Tree, cls: str) -> str:
    """The Lua expression of a check tree."""
    head = tree[0]
    if head == "var":
        return tree[1]
    if head == "int":
        return str(tree[1])
    if head == "new":
        return f"{cls}.new({', '.join(map(str, tree[1]))})"
    parts = [lua(t, cls) for t in tree[1:]]
    wrap = [p if t[0] in ("var", "int", "new") else f"({p})" for p, t in zip(parts, tree[1:])]
    if head == "neg":
        return f"-{wrap[0]}"
    if head == "#":
        return f"#{wrap[0]}"
    if head == "dot":
        return f"{wrap[0]}:dot({parts[1]})"
    symbol = head.replace("k", "")
    if head.startswith("k"):  # a plain number on the left: the operands are stored (T, number)
        return f"{wrap[1]} {symbol} {wrap[0]}"
    return f"{wrap[0]} {symbol} {wrap[1]}"


def evaluate(tree: Tree, kind: Kind, p: dict[str, Any], variables: dict[str, list[int]]) -> Any:
    head = tree[0]
    if head == "var":
        return kind.make(variables[tree[1]], p)
    if head == "int":
        return tree[1]
    if head == "new":
        return kind.make(tree[1], p)
    return kind.apply(head, [evaluate(t, kind, p, variables) for t in tree[1:]], p)


def show(tree: Tree, kind: Kind, p: dict[str, Any], variables: dict[str, list[int]]) -> str:
    """What the driver prints for a check (ValueError where the check is undefined)."""
    value = evaluate(tree, kind, p, variables)
    if isinstance(value, bool):
        return "true" if value else "false"
    if kind.operators.get(tree[0]) == "int":
        return str(value)
    return kind.text(value, p)


def draw_tree(rng: random.Random, kind: Kind, p: dict[str, Any], depth: int, result: str, op: str | None = None,
              same: bool = False) -> Tree:
    """A random check tree of at most ``depth`` operators whose value has type ``result`` ("T" or other), with
    ``op`` at its top when given (``same``: both operands the same expression built twice)."""
    if op is None and result == "T" and (depth == 0 or rng.random() < 0.25):
        return ["var", rng.choice(VARIABLES)] if rng.random() < 0.75 else ["new", kind.new_args(rng, p)]
    wanted = [name for name, r in kind.operators.items() if (r == "T") == (result == "T")]
    op = op or rng.choice(wanted)
    operand = draw_tree(rng, kind, p, depth - 1, "T") if depth > 0 else ["var", rng.choice(VARIABLES)]
    if op in ("neg", "#"):
        return [op, operand]
    if "k" in op or op == "^":
        return [op, operand, ["int", kind.number(rng, op)]]
    other = draw_tree(rng, kind, p, depth - 1, "T") if depth > 0 else ["var", rng.choice(VARIABLES)]
    if same or (op in ("==", "<=") and rng.random() < 0.4):
        other = operand  # equal values in distinct tables: the same expression built twice
    return [op, operand, other]


@register
class LuaMetatables(DrivenTask):
    id = "code/lua_metatables"
    description = "Implement a Lua class with metatables (operators, __eq, __tostring), checked by a hidden driver."
    tags = ("code", "programming", "lua", "object-oriented")
    languages = ("lua",)
    toolchains = languages
    version = 2

    @dataclass(frozen=True)
    class Config:
        kinds: tuple[str, ...]
        depth: int
        checks: int

    presets = (Config(("vec", "mod"), depth=1, checks=8), Config(("vec", "mod", "frac"), depth=1, checks=12),
               Config(("vec", "mod", "frac"), depth=2, checks=14), Config(("mod", "frac", "vec"), depth=2, checks=18),
               Config(("mod", "frac", "vec"), depth=3, checks=22))
    growth = Growth(limits={"depth": 4, "checks": 300}, factors={"checks": 1.35})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = KINDS[rng.choice(config.kinds)]
        p = kind.params(rng)
        cls = rng.choice(kind.classes)
        variables = {v: kind.new_args(rng, p) for v in VARIABLES}

        def check(op: str | None, same: bool = False) -> tuple[Tree, str] | None:
            result = kind.operators[op] if op else "T" if rng.random() < 0.6 else "other"
            tree = draw_tree(rng, kind, p, rng.randint(1, config.depth), result, op, same)
            try:
                return tree, show(tree, kind, p, variables)
            except ValueError:
                return None

        def draw() -> list[tuple[Tree, str]] | None:
            # every operator once where the checks allow, equal values in distinct tables compared once
            tops: list[str | None] = [*rng.sample(list(kind.operators), len(kind.operators)), *[None] * config.checks]
            checks = [retry(functools.partial(check, "==", True), attempts=20, what="a defined check")]
            checks += [retry(functools.partial(check, top), attempts=20, what="a defined check")
                       for top in tops[: config.checks - 1]]
            rng.shuffle(checks)
            used = {tree[0] for tree, _ in checks}
            varied = len({line for _, line in checks}) >= min(4, len(checks)) and len(used) >= min(4, len(kind.operators))
            return checks if varied and all(self._fails(slip, kind, p, variables, checks) for slip in kind.slips) else None

        checks = retry(draw, attempts=40, what="checks that use several operators")
        example_vars = {v: kind.new_args(rng, p) for v in VARIABLES}  # apart from the hidden values
        given = ", ".join(f"{v} = {cls}.new({', '.join(map(str, args))})" for v, args in example_vars.items())
        examples = []
        for result in ("T", "other"):
            for _ in range(20):
                tree = draw_tree(rng, kind, p, 1, result)
                try:
                    examples.append(f"- tostring({lua(tree, cls)}) is \"{show(tree, kind, p, example_vars)}\"")
                    break
                except ValueError:
                    continue
        prompt = (
            f"Write a Lua 5.4 class {cls} using metatables. {kind.statement(cls, p)}\n\n"
            + f"Examples, with {given}:\n" + "\n".join(examples) + "\n\n"
            + f"Define {cls} as a global table with the function {cls}.new; the values it makes must share a "
            "metatable with the metamethods (__add, __eq, __tostring, ...) that these operations need. A test "
            f"driver loads your code, builds values with {cls}.new and prints tostring of hidden expressions over "
            "them, comparing each line with the expected text (a raised error fails that check). Do not read input "
            "or print. " + convention(self.languages, shape=f"{cls} = {{}}\n{cls}.__index = {cls}\n\n"
                                                            f"function {cls}.new(...)\n    -- ...\nend")
        )
        data = {"kind": kind.name, "params": p, "class": cls, "variables": variables,
                "checks": [tree for tree, _ in checks], "expected": [line for _, line in checks],
                "languages": list(self.languages), "gold": "lua"}
        return Problem(prompt=prompt, answer=f"```lua\n{self.reference(data)}\n```", data=data)

    @staticmethod
    def _fails(slip: str, kind: Kind, p: dict[str, Any], variables: dict[str, list[int]],
               checks: list[tuple[Tree, str]]) -> bool:
        """Whether a program with ``slip`` prints some check's line wrong."""
        slipped = {**p, "slip": slip}
        for tree, line in checks:
            try:
                if show(tree, kind, slipped, variables) != line:
                    return True
            except ValueError:
                return True
        return False

    def reference(self, data: dict[str, Any]) -> str:
        return KINDS[data["kind"]].reference(data["class"], data["params"]).strip()

    def driver(self, data: dict[str, Any]) -> str:
        cls = data["class"]
        setup = "\n".join(f"local {v} = {cls}.new({', '.join(map(str, args))})" for v, args in data["variables"].items())
        checks = "\n".join(f"show(function() return {lua(tree, cls)} end)" for tree in data["checks"])
        return CODE("driver", name=cls, setup=setup, checks=checks)

    def required_name(self, problem: Problem) -> str | None:
        return problem.data["class"]

    def mutants(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        kind = KINDS[data["kind"]]

        def lines(q: dict[str, Any]) -> list[str]:
            return [show(tree, kind, q, data["variables"]) for tree in data["checks"]]

        changed = other_params(rng, data["params"], kind.params, lines, data["expected"])
        return [] if changed is None else [kind.reference(data["class"], changed).strip()]

    def difficulty(self, problem: Problem) -> float:
        """The kind's tier, the distinct operators the checks use, and log2 of the checks' operator count."""
        data = problem.data

        def operators(tree: Tree) -> int:
            return 0 if tree[0] in ("var", "int", "new") else 1 + sum(operators(t) for t in tree[1:])

        used = {tree[0] for tree in data["checks"]}
        return KINDS[data["kind"]].tier + len(used) / 2 + math.log2(1 + sum(map(operators, data["checks"])))
