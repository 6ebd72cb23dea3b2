"""Shared blocks of the verification family: the lazy z3 import, bounded readers of words and
integers, and straight-line bit-vector programs (draw, run, print, translate to z3).
No environment is registered here.

A bit-vector program is JSON-native: ``{"width": w, "inputs": ["x"], "steps": [[name, expr], ...]}``,
where each step assigns one operation on *atoms* (an input, an earlier step's name, or a
constant) and the last step's value is returned. An expression is ``[op, a, b]`` for a binary
operation (``+ - * & | ^ << >>``, every result reduced modulo 2^w, ``>>`` logical) or
``["?", cmp, a, b, then, else]`` for a select (``then if a cmp b else else``, unsigned
comparison). An atom is a name (str) or a constant (int).

Example::

    >>> program = {"width": 8, "inputs": ["x"], "steps": [["a", ["*", "x", 3]], ["b", ["^", "a", "x"]]]}
    >>> run_program(program, {"x": 100})
    72
    >>> print(render_program(program))
    def f(x):
        a = x * 3
        b = a ^ x
        return b
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from typing import Any

from palaestra.verifiers.normalize import strip_wrappers, unify

BINARY = ("+", "-", "*", "&", "|", "^", "<<", ">>")
COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")
TEMP_NAMES = "abcdeghijkmnpqrstuvw"  # steps (not f, the function, nor l and o); inputs use x, y, z
MAX_WORD_CHARS = 80  # a 64-bit word in binary with its prefix fits easily

_WORD = re.compile(r"(0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+)")
_SIGNED = re.compile(r"([+-]?)\s*([0-9]+)")
# "Solution: a = 1, b = 2", "Inputs: x = 5", "A satisfying assignment: ...": a name for the values before them (one
# character class after it, so the pattern stays linear on long runs of spaces)
_VALUES_LABEL = re.compile(r"^\**(?:(?:an?|one|the)\s+)?(?:solution|model|(?:satisfying\s+)?assignment|inputs?|arguments?|"
                           r"values?)\b(?:\s+(?:is|are)\b)?[\s*,.:;\u2013\u2014]*", re.IGNORECASE)


def without_values_label(answer: str) -> str:
    """``answer`` without a leading name for its values (``Solution: a = 1``, ``Inputs: x = 5``, ``**Model:** ...``);
    ``answer`` itself when it has none or nothing follows the name.

    >>> without_values_label("Inputs: x = 5, y = 7"), without_values_label("a = 1")
    ('x = 5, y = 7', 'a = 1')
    """
    text = strip_wrappers(unify(answer))
    rest = _VALUES_LABEL.sub("", text, count=1)
    return strip_wrappers(rest) if rest != text and rest.strip() else answer


def require_z3() -> Any:
    """The ``z3`` module, or an ImportError naming the extra that installs it."""
    try:
        import z3
    except ImportError as exc:  # the verification family is an optional extra
        raise ImportError(
            "the verification environments need the z3 SMT solver: pip install 'palaestra[verify]' (z3-solver)"
        ) from exc
    return z3


def read_word(text: str) -> int | None:
    """A non-negative integer written in decimal, ``0x`` hex or ``0b`` binary (``_`` separators allowed).

    The range is the caller's to check; None for anything else (signs, fractions, long text).

    >>> read_word("0x2A"), read_word("42"), read_word("0b101010"), read_word("-3"), read_word("4.0")
    (42, 42, 42, None, None)
    """
    s = text.strip().replace("_", "")
    if not s or len(s) > MAX_WORD_CHARS or not _WORD.fullmatch(s):
        return None
    return int(s, 0) if s[:2].lower() in ("0x", "0b") else int(s)


def read_signed(text: str) -> int | None:
    """An integer written in decimal with an optional sign (``-3``, ``+ 4``); None for anything else.

    >>> read_signed("-17"), read_signed("3.5"), read_signed("1e3")
    (-17, None, None)
    """
    s = text.strip().replace("−", "-")
    if not s or len(s) > MAX_WORD_CHARS:
        return None
    match = _SIGNED.fullmatch(s)
    if not match:
        return None
    value = int(match.group(2))
    return -value if match.group(1) == "-" else value


# --- straight-line bit-vector programs ----------------------------------------------------------


def binary_operation(op: str, width: int) -> Callable[[int, int], int]:
    """The w-bit operation ``op`` on two in-range values."""
    mask = (1 << width) - 1
    return {
        "+": lambda a, b: (a + b) & mask,
        "-": lambda a, b: (a - b) & mask,
        "*": lambda a, b: (a * b) & mask,
        "&": lambda a, b: a & b,
        "|": lambda a, b: a | b,
        "^": lambda a, b: a ^ b,
        "<<": lambda a, b: (a << b) & mask if b < width else 0,
        ">>": lambda a, b: a >> b,
    }[op]


def compare(cmp: str, a: int, b: int) -> bool:
    if cmp == "<":
        return a < b
    if cmp == "<=":
        return a <= b
    if cmp == ">":
        return a > b
    if cmp == ">=":
        return a >= b
    if cmp == "==":
        return a == b
    return a != b


def run_program(program: Mapping[str, Any], inputs: Mapping[str, int]) -> int:
    """The value the program returns on ``inputs`` (each already in range)."""
    columns = run_columns(program, {name: [value] for name, value in inputs.items()})
    return columns[program["steps"][-1][0]][0]


def run_columns(program: Mapping[str, Any], columns: Mapping[str, list[int]]) -> dict[str, list[int]]:
    """Every input's and step's value over many inputs at once: ``columns`` maps each input to a list of
    values (one per trial); the result adds one list per step. Faster than :func:`run_program` per trial."""
    env = dict(columns)
    trials = len(next(iter(columns.values())))

    def column(atom: str | int) -> list[int]:
        return [atom] * trials if isinstance(atom, int) else env[atom]

    for name, expr in program["steps"]:
        op = expr[0]
        if op == "?":
            _, cmp, a, b, then, other = expr
            env[name] = [t if compare(cmp, p, q) else e
                         for p, q, t, e in zip(column(a), column(b), column(then), column(other))]
        else:
            operation = binary_operation(op, program["width"])
            env[name] = [operation(p, q) for p, q in zip(column(expr[1]), column(expr[2]))]
    return env


def redundant_step(program: Mapping[str, Any], columns: Mapping[str, list[int]]) -> bool:
    """Whether some step only repeats a value computed before it (an input, an earlier step or a
    constant) on every trial of ``columns`` (from :func:`run_columns`): a no-op or a cancellation
    such as ``b = a ^ x; c = b ^ x``."""
    seen = {tuple(columns[name]) for name in program["inputs"]}
    for name, _ in program["steps"]:
        values = tuple(columns[name])
        if values in seen or len(set(values)) == 1:
            return True
        seen.add(values)
    return False


def render_expr(expr: list) -> str:
    if expr[0] == "?":
        _, cmp, a, b, then, other = expr
        return f"{then} if {a} {cmp} {b} else {other}"
    return f"{expr[1]} {expr[0]} {expr[2]}"


def render_program(program: Mapping[str, Any], name: str = "f") -> str:
    """The program as indented pseudo-code ``def f(x, y): ... return v``."""
    lines = [f"def {name}({', '.join(program['inputs'])}):"]
    lines += [f"    {target} = {render_expr(expr)}" for target, expr in program["steps"]]
    lines.append(f"    return {program['steps'][-1][0]}")
    return "\n".join(lines)


def semantics_note(width: int) -> str:
    """The rules a reader needs to run a program of this width exactly."""
    return (
        f"All values are {width}-bit unsigned integers (0 to {(1 << width) - 1}). Every +, - and * is taken "
        f"modulo 2^{width} (results wrap around), << shifts left dropping the bits shifted past bit {width - 1}, "
        ">> is a logical right shift, &, | and ^ are bitwise and, or and exclusive or, comparisons are "
        "unsigned, and `a if c else b` is a if the condition c holds, else b."
    )


def draw_constant(rng: random.Random, op: str, width: int) -> int:
    """A constant operand that is never a no-op for ``op`` (no ``+ 0``, ``* 1``, ``& all-ones``, shift by 0)."""
    mask = (1 << width) - 1
    if op in ("<<", ">>"):
        return rng.randrange(1, width)
    if op == "*":
        return rng.randrange(3, min(mask, 255), 2)  # odd: multiplication stays invertible
    return rng.randrange(1, mask)


def draw_program(
    rng: random.Random, width: int, inputs: list[str], steps: int, select_share: float
) -> dict[str, Any]:
    """A random straight-line program in which every step is used by the next one (no dead code).

    Each step's first operand is the previous step's value (an input for the first step);
    the second is an input, an earlier value or a constant. Selects compare two values or a
    value and a constant and choose between two distinct values.
    """
    program_steps: list[list[Any]] = []
    names: list[str] = []
    previous: str = rng.choice(inputs)
    for i in range(steps):
        name = TEMP_NAMES[i]
        earlier = [n for n in [*inputs, *names] if n != previous]
        if rng.random() < select_share and earlier:
            other = rng.choice(earlier)
            bound: str | int = rng.choice([rng.choice(earlier), rng.randrange(1, (1 << width) - 1)])
            then, alternative = (previous, other) if rng.random() < 0.5 else (other, previous)
            expr: list[Any] = ["?", rng.choice(COMPARISONS[:4]), previous, bound, then, alternative]
        else:
            op = rng.choice(BINARY)
            if op in ("<<", ">>") or not earlier or rng.random() < 0.35:
                operand: str | int = draw_constant(rng, op, width)
            else:
                operand = rng.choice(earlier)
            expr = [op, previous, operand]
        program_steps.append([name, expr])
        names.append(name)
        previous = name
    return {"width": width, "inputs": list(inputs), "steps": program_steps}


def z3_program(program: Mapping[str, Any], variables: Mapping[str, Any]) -> Any:
    """The program's result as a z3 bit-vector term over ``variables`` (input name -> z3 BitVec)."""
    z3 = require_z3()
    width = program["width"]
    env: dict[str, Any] = dict(variables)

    def atom(a: str | int) -> Any:
        return z3.BitVecVal(a, width) if isinstance(a, int) else env[a]

    value = None
    for name, expr in program["steps"]:
        op = expr[0]
        if op == "?":
            _, cmp, a, b, then, other = expr
            value = z3.If(z3_compare(z3, cmp, atom(a), atom(b)), atom(then), atom(other))
        else:
            value = _z3_binary(z3, op, atom(expr[1]), atom(expr[2]))
        env[name] = value
    return value


def _z3_binary(z3: Any, op: str, a: Any, b: Any) -> Any:
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "&":
        return a & b
    if op == "|":
        return a | b
    if op == "^":
        return a ^ b
    if op == "<<":
        return a << b
    return z3.LShR(a, b)


def z3_compare(z3: Any, cmp: str, a: Any, b: Any) -> Any:
    """An unsigned bit-vector comparison as a z3 term."""
    if cmp == "<":
        return z3.ULT(a, b)
    if cmp == "<=":
        return z3.ULE(a, b)
    if cmp == ">":
        return z3.UGT(a, b)
    if cmp == ">=":
        return z3.UGE(a, b)
    return a == b if cmp == "==" else a != b


# --- a bounded reader of integer formulas -------------------------------------------------------

MAX_FORMULA_CHARS = 2_000
MAX_FORMULA_TOKENS = 400
MAX_FORMULA_DEPTH = 40
MAX_CONSTANT = 10**9
MAX_POWER = 4

_TOKEN = re.compile(
    r"\s*(?:(\d+)|([A-Za-z_][A-Za-z0-9_]*)|(<==>|==>|<=>|=>|->|→|↔|⇒|⇔|&&|\|\||/\\|\\/|<=|>=|==|!=|<>|≤|≥|≠|∧|∨|¬|\*\*"
    r"|[-+*^()<>=!&|~]))"
)
_WORD_TOKENS = {"and": "&&", "or": "||", "not": "!", "implies": "==>", "iff": "<==>", "true": "true", "false": "false"}
_SYMBOLS = {"→": "==>", "⇒": "==>", "=>": "==>", "->": "==>", "↔": "<==>", "⇔": "<==>", "<=>": "<==>", "∧": "&&",
            "/\\": "&&", "&": "&&", "∨": "||", "\\/": "||", "|": "||", "¬": "!", "~": "!", "≤": "<=", "≥": ">=",
            "≠": "!=", "<>": "!=", "=": "==", "**": "^"}
_COMPARE = ("<", "<=", ">", ">=", "==", "!=")


class FormulaError(ValueError):
    """The text is not a formula this reader accepts; the message says why, for feedback."""


def _tokens(text: str) -> list[tuple[str, str]]:
    """``(kind, text)`` pairs: kind is ``num``, ``name`` or ``op`` (operators in one spelling)."""
    out: list[tuple[str, str]] = []
    position = 0
    stripped = text.rstrip()
    while position < len(stripped):
        match = _TOKEN.match(stripped, position)
        if not match or match.end() == position:
            raise FormulaError(f"unexpected character {stripped[position:position + 1].strip()[:1]!r}")
        position = match.end()
        number, name, op = match.groups()
        if number is not None:
            out.append(("num", number))
        elif name is not None:
            word = _WORD_TOKENS.get(name.lower())
            out.append(("op", word) if word else ("name", name))
        else:
            out.append(("op", _SYMBOLS.get(op, op)))
        if len(out) > MAX_FORMULA_TOKENS:
            raise FormulaError(f"formula longer than {MAX_FORMULA_TOKENS} tokens")
    return out


class _Parser:
    """Precedence climbing over the tokens: ``<==>`` < ``==>`` (right) < ``||`` < ``&&`` < ``!`` <
    comparisons (chains like ``0 <= i <= n``) < ``+ -`` < ``*`` (and ``2i``) < unary minus < ``^``."""

    def __init__(self, tokens: list[tuple[str, str]], names: frozenset[str]) -> None:
        self.tokens, self.names, self.at, self.depth = tokens, names, 0, 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self, op: str) -> bool:
        if self.peek() == ("op", op):
            self.at += 1
            return True
        return False

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_FORMULA_DEPTH:
            raise FormulaError(f"formula nested deeper than {MAX_FORMULA_DEPTH} levels")

    def formula(self) -> tuple:
        self.enter()
        left = self.implication()
        while self.take("<==>"):
            left = ("<==>", _boolean(left), _boolean(self.implication()))
        self.depth -= 1
        return left

    def implication(self) -> tuple:
        left = self.disjunction()
        if self.take("==>"):
            self.enter()
            left = ("==>", _boolean(left), _boolean(self.implication()))
            self.depth -= 1
        return left

    def disjunction(self) -> tuple:
        left = self.conjunction()
        while self.take("||"):
            left = ("||", _boolean(left), _boolean(self.conjunction()))
        return left

    def conjunction(self) -> tuple:
        left = self.negation()
        while self.take("&&"):
            left = ("&&", _boolean(left), _boolean(self.negation()))
        return left

    def negation(self) -> tuple:
        if self.take("!"):
            self.enter()
            inner = ("!", _boolean(self.negation()))
            self.depth -= 1
            return inner
        return self.comparison()

    def comparison(self) -> tuple:
        left = self.sum()
        links: list[tuple] = []
        while self.peek() in [("op", c) for c in _COMPARE]:
            op = self.tokens[self.at][1]
            self.at += 1
            right = self.sum()
            links.append((op, _integer(left), _integer(right)))
            left = right
        if not links:
            return left
        chain = links[0]
        for link in links[1:]:
            chain = ("&&", chain, link)
        return chain

    def sum(self) -> tuple:
        left = self.product()
        while self.peek() in (("op", "+"), ("op", "-")):
            op = self.tokens[self.at][1]
            self.at += 1
            left = (op, _integer(left), _integer(self.product()))
        return left

    def product(self) -> tuple:
        left = self.unary()
        while True:
            nxt = self.peek()
            if nxt == ("op", "*"):
                self.at += 1
            elif not (left[0] == "num" and nxt is not None and (nxt[0] == "name" or nxt == ("op", "("))):
                return left  # only a written number multiplies by juxtaposition: 2i, 3(i + 1)
            left = ("*", _integer(left), _integer(self.unary()))

    def unary(self) -> tuple:
        if self.take("-"):
            self.enter()
            inner = ("neg", _integer(self.unary()))
            self.depth -= 1
            return inner
        if self.take("+"):
            return _integer(self.unary())
        return self.power()

    def power(self) -> tuple:
        base = self.atom()
        if self.take("^"):
            exponent = self.peek()
            if exponent is None or exponent[0] != "num" or int(exponent[1]) > MAX_POWER:
                raise FormulaError(f"powers need a literal exponent from 0 to {MAX_POWER}")
            self.at += 1
            return ("^", _integer(base), int(exponent[1]))
        return base

    def atom(self) -> tuple:
        token = self.peek()
        if token is None:
            raise FormulaError("the formula ends too early")
        self.at += 1
        kind, text = token
        if kind == "num":
            if len(text) > 10 or int(text) > MAX_CONSTANT:
                raise FormulaError(f"constant {text[:20]} is larger than {MAX_CONSTANT}")
            return ("num", int(text))
        if kind == "name":
            if text not in self.names:
                raise FormulaError(f"unknown name {text[:30]!r} (use the program's variables)")
            return ("var", text)
        if text in ("true", "false"):
            return (text,)
        if text == "(":
            inner = self.formula()
            if not self.take(")"):
                raise FormulaError("unbalanced parentheses")
            return inner
        raise FormulaError(f"unexpected {text!r}")


_BOOLEAN_NODES = frozenset({"<==>", "==>", "||", "&&", "!", "true", "false", *_COMPARE})


def _boolean(node: tuple) -> tuple:
    if node[0] not in _BOOLEAN_NODES:
        raise FormulaError("a condition was expected where a number stands")
    return node


def _integer(node: tuple) -> tuple:
    if node[0] in _BOOLEAN_NODES:
        raise FormulaError("a number was expected where a condition stands")
    return node


def parse_formula(text: str, names: frozenset[str] | set[str], *, boolean: bool = True) -> tuple:
    """The formula (or, ``boolean=False``, the integer expression) in ``text`` as a tuple tree.

    Accepts ``&& and ∧``, ``|| or ∨``, ``! not ¬``, ``==> => -> → implies``, ``<==> <=> iff``,
    comparisons ``< <= ≤ > >= ≥ == = != ≠`` (chains such as ``0 <= i <= n``), ``+ - *``, ``2i``,
    ``i^2``/``i**2`` (literal exponents up to 4), parentheses, ``true``/``false``. Raises
    :class:`FormulaError` for anything else, for names outside ``names``, constants above 10^9,
    and text past the length, token or nesting caps.

    >>> parse_formula("0 <= i <= n", {"i", "n"})
    ('&&', ('<=', ('num', 0), ('var', 'i')), ('<=', ('var', 'i'), ('var', 'n')))
    >>> parse_formula("s = 2i", {"i", "s"})
    ('==', ('var', 's'), ('*', ('num', 2), ('var', 'i')))
    """
    if len(text) > MAX_FORMULA_CHARS:
        raise FormulaError(f"formula longer than {MAX_FORMULA_CHARS} characters")
    parser = _Parser(_tokens(text), frozenset(names))
    tree = parser.formula()
    if parser.at != len(parser.tokens):
        raise FormulaError(f"unexpected {parser.tokens[parser.at][1][:20]!r} after the formula")
    return _boolean(tree) if boolean else _integer(tree)


def z3_formula(node: tuple, env: Mapping[str, Any]) -> Any:
    """A parsed formula or expression as a z3 term, with each variable replaced by ``env[name]``."""
    z3 = require_z3()
    op = node[0]
    if op == "num":
        return z3.IntVal(node[1])
    if op == "var":
        return env[node[1]]
    if op == "true":
        return z3.BoolVal(True)
    if op == "false":
        return z3.BoolVal(False)
    if op == "neg":
        return -z3_formula(node[1], env)
    if op == "!":
        return z3.Not(z3_formula(node[1], env))
    if op == "^":
        base = z3_formula(node[1], env)
        result = z3.IntVal(1)
        for _ in range(node[2]):
            result = result * base
        return result
    a, b = z3_formula(node[1], env), z3_formula(node[2], env)
    if op == "&&":
        return z3.And(a, b)
    if op == "||":
        return z3.Or(a, b)
    if op == "==>":
        return z3.Implies(a, b)
    if op == "<==>":
        return a == b
    return {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "<": lambda: a < b, "<=": lambda: a <= b,
            ">": lambda: a > b, ">=": lambda: a >= b, "==": lambda: a == b, "!=": lambda: a != b}[op]()
