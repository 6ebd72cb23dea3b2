r"""Formulas in one or more variables written by a model: reading, high-precision checks, printing.

Reading (:func:`read_formula`) goes through the allow-list parser of
:mod:`palaestra.verifiers.expressions` (``ast.parse`` plus a whitelisting walker, never
``eval``/``sympify``) after a bounded clean-up of the notations people write:

- LaTeX: ``\frac{a}{b}`` (nested), ``\sqrt{a}``, ``\sqrt[3]{a}``, ``x^{2}``, ``\sin x``, ``\ln|x|``,
  ``\arctan``, ``\cdot``, ``\left( \right)``, ``\mathrm{e}^{x}``;
- cube roots ``cbrt(a)``, ``∛(a)``, ``∛x`` (read as ``a^(1/3)``, like ``\sqrt[3]{a}``);
- function application without brackets (``sin x``, ``ln 2x``), powers of functions
  (``sin^2 x``, ``\cos^{2}(x)``), ``|x|`` and ``ln|x|``, superscripts ``x²``;
- implicit products ``2x``, ``x(x+1)``, ``x sin(x)``, ``xy`` (when every letter is a variable);
- a lead-in ``f(x) =``, ``y =``, ``dy/dx =``, ``f'(x) =``, ``F(x) =``; with ``constant=True``
  a trailing ``+ C`` (any constant of integration) is dropped; a short trailing sentence.

Checking: :func:`evaluate` computes a parsed formula at a point with 40 significant digits
(mpmath, promoting to complex where needed) and :func:`derivative_at` its derivative in one
variable by forward-mode automatic differentiation. Two formulas *agree* at a point when
they match to 25 significant digits: formulas with different exact coefficients differ far
more than that, and a rounded decimal (``0.3333333333`` for 1/3) is rejected because
:func:`read_formula` refuses decimals with more than :data:`MAX_DECIMALS` digits after the
point. The caller picks the points (inside the domain the prompt states).

Printing: :func:`format_expr` writes a tree back as a readable formula the reader reads
(``3x^2 - (1/2)sin(2x)``), :func:`differentiate` and :func:`simplify` give exact
symbolic derivatives of trees for reference answers.

Example::

    >>> f = read_formula(r"F(x) = \frac{x^{3}}{3} - \cos x + C", ["x"], constant=True)
    >>> g = read_formula("x^2 + sin(x)", ["x"])
    >>> agree(derivative_at(f, "x", {"x": Fraction(1, 3)})[1], evaluate(g, {"x": Fraction(1, 3)}))
    True
    >>> format_expr(read_formula("2 x sin x", ["x"])), read_formula("0.3333333333333333333333333333x", ["x"])
    ('2x*sin(x)', None)
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any

import mpmath

from palaestra.verifiers.expressions import Expr, parse_expression
from palaestra.verifiers.normalize import closing_bracket, read_answer, simplify_latex, unify
from palaestra.verifiers.numeric import decimal_agrees, max_fraction_digits

MAX_FORMULA_CHARS = 1_500
MAX_DECIMALS = 12  # digits after a decimal point: more is a rounded value, not an exact one
DIGITS = 40  # working precision of the checks
AGREE_DIGITS = 25  # two values agree when they match to this many significant digits
MAX_POWER = 1_000  # |exponent| bound in evaluation
MAX_MAGNITUDE = mpmath.mpf(10) ** 10_000
MAX_CUBE_ROOTS = 20  # cbrt(...) and ∛ signs read in one formula

BASIC_FUNCTIONS = ("sqrt", "exp", "log", "ln", "sin", "cos", "tan", "abs")
CALCULUS_FUNCTIONS = (*BASIC_FUNCTIONS, "atan")
_ALIASES = {"arctan": "atan", "tan^-1": "atan", "tan^{-1}": "atan", "tan ^{-1}": "atan"}
_LATEX_FUNCTIONS = ("arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "sin", "cos", "tan", "sec", "csc", "cot",
                    "exp", "log", "ln")

_CTX = mpmath.MPContext()
_CTX.dps = DIGITS
_TOLERANCE = _CTX.mpf(10) ** (-AGREE_DIGITS)

# "f(x) =", "f'(x) =", "F(x) =", "y =", "y(x) =", "dy/dx =", "y' =", "\frac{dy}{dx} =", "g^{-1}(x) ="
_LEAD_IN = re.compile(
    r"^(?:[A-Za-z](?:_\{?\w{1,3}\}?)?(?:'{1,3}|\^\{?-1\}?|\^\{?\(-1\)\}?)?(?: ?\( ?[A-Za-z](?: ?, ?[A-Za-z]){0,3} ?\))?"
    r"|d ?[A-Za-z] ?/ ?d ?[A-Za-z]|\\frac ?\{ ?d ?[A-Za-z]? ?\} ?\{ ?d ?[A-Za-z] ?\}(?: ?\(?[^=]{0,40}?\)?)?"
    r"|(?:\\int|∫)[^=]{0,60}?d ?[A-Za-z]) ?= ?"
)
_CONSTANT_NAME = r"(?:C|c|K|C_?\{?\d\}?|\\text\{ ?const ?\}|const(?:ant)?)"
_CONSTANT = re.compile(rf" ?[+-] ?{_CONSTANT_NAME}$")
_LEADING_CONSTANT = re.compile(rf"^{_CONSTANT_NAME} ?\+ ?")
_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
_SUPERSCRIPT_RUN = re.compile("[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+")
_LATEX_COMMAND = re.compile(r"\\(" + "|".join(_LATEX_FUNCTIONS) + r")(?![A-Za-z])")
_LATEX_CONSTANT = re.compile(r"\\(?:mathrm|text|operatorname)\{ ?([A-Za-z]+) ?\}")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
_SPACES = re.compile(r"\s+")


class _Unreadable(Exception):
    pass


# --- reading ----------------------------------------------------------------


def _braced(text: str, start: int) -> tuple[str, int]:
    """The contents of the brace group opening at ``text[start]`` and the index after it."""
    end = closing_bracket(text, start)
    if end < 0:
        raise _Unreadable
    return text[start + 1 : end], end + 1


def _frac_argument(text: str, start: int) -> tuple[str, int]:
    r"""An argument of ``\frac`` from ``start`` on (spaces skipped), as LaTeX reads one: a brace group, a control word
    (``\pi``) or a single character, so ``\frac12`` is ``\frac{1}{2}`` and ``\frac\pi4`` is ``\frac{\pi}{4}``."""
    j = start
    while j < len(text) and text[j] == " ":
        j += 1
    if j >= len(text) or text[j] in "}^_":
        raise _Unreadable
    if text[j] == "{":
        return _braced(text, j)
    if text[j] == "\\":
        end = j + 1
        while end < len(text) and text[end].isalpha():
            end += 1
        if end == j + 1:
            raise _Unreadable
        return text[j:end], end
    return text[j], j + 1


def _latex_structures(text: str, budget: list[int]) -> str:
    r"""``\frac{a}{b}`` -> ``((a)/(b))``, ``\sqrt[n]{a}`` -> ``((a)**(1/(n)))``, ``\sqrt{a}`` -> ``sqrt(a)``,
    ``^{a}`` -> ``^(a)``, innermost structures included; bounded by ``budget`` rewrites."""
    out, i = [], 0
    while i < len(text):
        budget[0] -= 1
        if budget[0] < 0:
            raise _Unreadable
        if text.startswith("\\frac", i):
            top, j = _frac_argument(text, i + 5)
            bottom, j = _frac_argument(text, j)
            out.append(f"(({_latex_structures(top, budget)})/({_latex_structures(bottom, budget)}))")
            i = j
            continue
        if text.startswith("\\sqrt", i):
            j = i + 5
            index = None
            if j < len(text) and text[j] == "[":
                end = text.find("]", j)
                if end < 0:
                    raise _Unreadable
                index, j = text[j + 1 : end], end + 1
            if j < len(text) and text[j] == "{":
                body, j = _braced(text, j)
                inner = _latex_structures(body, budget)
                out.append(f"sqrt({inner})" if index is None else f"(({inner})**(1/({index})))")
                i = j
                continue
            out.append("sqrt")
            i = j
            continue
        if text[i] == "{":
            body, j = _braced(text, i)
            out.append(f"({_latex_structures(body, budget)})")
            i = j
            continue
        out.append(text[i])
        i += 1
    return "".join(out)


_CUBE_ROOT_SIGN = re.compile(r"∛|(?<![A-Za-z_])cbrt(?![A-Za-z_0-9])")
_ROOT_OPERAND = re.compile(r"\d+(?:\.\d+)?|[A-Za-z_]\w*")


def _cube_roots(text: str) -> str:
    """``cbrt(a)``, ``∛(a)``, ``∛x``, ``∛2``, ``cbrt x`` -> ``((a)**(1/3))`` (a number or a name without brackets
    is the whole argument, as for ``√``). The last root sign first, so an argument never holds an unrewritten one;
    at most :data:`MAX_CUBE_ROOTS` of them (each rewrite rescans the text)."""
    for _ in range(MAX_CUBE_ROOTS + 1):
        sign = None
        for sign in _CUBE_ROOT_SIGN.finditer(text):
            pass
        if sign is None:
            return text
        start = sign.end()
        while start < len(text) and text[start] == " ":
            start += 1
        if start < len(text) and text[start] == "(":
            end = closing_bracket(text, start)
            if end < 0:
                raise _Unreadable
            argument, end = text[start + 1 : end], end + 1
        else:
            operand = _ROOT_OPERAND.match(text, start)
            if operand is None:
                raise _Unreadable
            argument, end = operand.group(), operand.end()
        text = f"{text[: sign.start()]}(({argument})**(1/3)){text[end:]}"
    raise _Unreadable  # more root signs than MAX_CUBE_ROOTS


def _absolute_values(text: str) -> str:
    """``|a|`` -> ``abs(a)``, pairing bars left to right (``ln|x|`` -> ``ln(abs(x))``)."""
    if "|" not in text:
        return text
    parts = text.split("|")
    if len(parts) % 2 == 0 or len(parts) > 21:
        raise _Unreadable
    out = [parts[0]]
    for k in range(1, len(parts), 2):
        out.append(f"(abs({parts[k]}))")
        out.append(parts[k + 1])
    return "".join(out)


_FUNCTION_POWER = re.compile(r"\b(sin|cos|tan|atan|ln|log|exp|sqrt|abs) ?\^ ?\(?(\d)\)? ?")
_BARE_ARGUMENT = re.compile(r"\b(sin|cos|tan|atan|ln|log|exp|sqrt|abs)\s*(-?\d*\.?\d*\s*[A-Za-z]?\b(?:\*\*\d+)?|\d+)")


def _function_forms(text: str, functions: set[str]) -> str:
    """``sin^2 x`` -> ``(sin(x))**2``; ``sin x``/``ln 2x`` -> ``sin(x)``/``ln(2x)``; ``arctan`` -> ``atan``."""
    def power(match: re.Match[str]) -> str:
        return f"§{match.group(2)}§{match.group(1)}"  # marker: the function's next argument gets the power

    text = _FUNCTION_POWER.sub(power, text)

    def bare(match: re.Match[str]) -> str:
        name, argument = match.group(1), match.group(2).strip()
        if not argument or argument.startswith("("):
            return match.group(0)
        return f"{name}({argument})"

    text = _BARE_ARGUMENT.sub(bare, text)
    # apply the powers recorded above: "§2§sin(x)" -> "(sin(x))**2"
    for _ in range(20):
        start = text.find("§")
        if start < 0:
            break
        second = text.find("§", start + 1)
        if second < 0:
            raise _Unreadable
        exponent = text[start + 1 : second]
        name = _IDENTIFIER.match(text, second + 1)
        if not name or name.group() not in functions:
            raise _Unreadable
        open_at = name.end()
        while open_at < len(text) and text[open_at] == " ":
            open_at += 1
        if open_at >= len(text) or text[open_at] != "(":
            raise _Unreadable
        close_at = closing_bracket(text, open_at)
        if close_at < 0:
            raise _Unreadable
        text = f"{text[:start]}({name.group()}{text[open_at:close_at + 1]})**{exponent}{text[close_at + 1:]}"
    if "§" in text:
        raise _Unreadable
    return text


# A written number, a space, then a bracketed number: no grader reads that as one product.
_SPACED_NUMBERS = re.compile(r"(?<![\w.*/])\d+(?:\.\d+)?\s+\(\s*\d+(?:\.\d+)?\s*(?:/\s*\d+(?:\.\d+)?\s*)?\)")


def _implicit_products(text: str, variables: set[str], functions: set[str]) -> str:
    """Products written by juxtaposition: ``xy`` (all letters variables), ``x(x+1)``, ``x sin(x)``, ``2 x``,
    ``(n + 2)3^n``."""
    known = variables | functions | {"pi", "e"}
    pieces: list[str] = []
    last = 0
    for match in _IDENTIFIER.finditer(text):
        word = match.group()
        pieces.append(text[last : match.start()])
        if word not in known and word.isalpha() and all(ch in variables | {"e"} for ch in word):
            word = "*".join(word)  # "xy" -> "x*y", "ex" -> "e*x"
        pieces.append(word)
        last = match.end()
    pieces.append(text[last:])
    s = "".join(pieces)
    # an operand (variable, constant, number or closing bracket) followed by another operand: a product
    operand_end = r"(?:(?<![A-Za-z_])(?:" + "|".join(sorted(variables | {"pi", "e"}, key=len, reverse=True)) + r")|\))"
    s = re.sub(operand_end + r"\s*(?=\()", lambda m: m.group() + "*", s)
    s = re.sub(operand_end + r"\s+(?=[A-Za-z_0-9(])", lambda m: m.group().rstrip() + "*", s)
    if _SPACED_NUMBERS.search(s):
        raise _Unreadable  # "2 (3/4)": a mixed number or a product? "0 (5/4)sqrt(2)": an answer and another?
    s = re.sub(r"(?<=\d)\s+(?=[A-Za-z_(])", "*", s)
    return re.sub(r"\)(?=\d)", ")*", s)  # (n + 2)3^n, \frac{35}{2}3^n: a bracket then a number


def prepare(text: str, variables: Iterable[str], functions: Iterable[str] = BASIC_FUNCTIONS) -> str | None:
    """``text`` rewritten into the syntax :func:`palaestra.verifiers.expressions.parse_expression` reads,
    or ``None`` when it cannot be (see the module docstring for the notations handled).

    >>> prepare(r"\\frac{x^{2}}{2} + \\sin^2 x", ["x"])
    '((x**(2))/(2)) + (sin(x))**2'
    """
    if not isinstance(text, str) or len(text) > MAX_FORMULA_CHARS:
        return None
    variables, functions = set(variables), set(functions)
    try:
        s = simplify_latex(unify(text)).replace("$", "")
        s = _LATEX_CONSTANT.sub(lambda m: m.group(1), s)
        s = _LATEX_COMMAND.sub(lambda m: " " + m.group(1) + " ", s)
        for alias, name in _ALIASES.items():
            s = s.replace(alias, name)
        s = s.replace("\\pi", " pi ").replace("π", " pi ").replace("·", "*").replace("×", "*").replace("÷", "/")
        s = s.replace("\\cdot", "*").replace("\\times", "*").replace("\\div", "/").replace("\\,", " ")
        s = _SUPERSCRIPT_RUN.sub(lambda m: "^(" + m.group().translate(_SUPERSCRIPT) + ")", s)
        s = _latex_structures(s, [4 * MAX_FORMULA_CHARS])
        if "\\" in s:
            return None
        s = _absolute_values(s)
        s = _cube_roots(_SPACES.sub(" ", s).strip())
        s = _function_forms(s.replace("**", "^"), functions).replace("^", "**")
        s = _implicit_products(s, variables, functions)
    except (_Unreadable, RecursionError):
        return None
    return s


_OPERAND_END = frozenset("0123456789.)]}!|πe") | frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_OPERAND_START = frozenset("0123456789.([{|\\√π") | frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _product_across_lines(text: str) -> bool:
    """Whether a line break stands between two operands with no operator at the break (``4ln(2)`` then ``1`` on
    the next line): that is two answers, one a line, never an implicit product. A break next to an operator
    (``3e^x +`` then ``2``) continues one formula. Linear in the text."""
    if "\n" not in text:
        return False
    lines = [line.strip() for line in text.split("\n")]
    lines = [line for line in lines if line]
    return any(a[-1] in _OPERAND_END and b[0] in _OPERAND_START for a, b in zip(lines, lines[1:]))


def _read_plain(text: str, variables: Sequence[str], functions: Sequence[str], constant: bool) -> Expr | None:
    s = text.strip()
    if _product_across_lines(s):
        return None
    lead_in = _LEAD_IN.match(s)
    if lead_in and lead_in.end() < len(s):
        s = s[lead_in.end() :]
    if constant:
        s = _LEADING_CONSTANT.sub("", _CONSTANT.sub("", s.rstrip(". ")))
    if max_fraction_digits(s) > MAX_DECIMALS:
        return None
    prepared = prepare(s, variables, functions)
    if prepared is None:
        return None
    return parse_expression(prepared, variables=variables, functions=functions, implicit_multiplication=True)


def read_formula(
    text: str,
    variables: Sequence[str],
    *,
    functions: Sequence[str] = BASIC_FUNCTIONS,
    constant: bool = False,
) -> Expr | None:
    """The formula written in ``text`` as an expression tree over ``variables``, or ``None``.

    ``functions``: the function names allowed (``atan`` needs :data:`CALCULUS_FUNCTIONS`).
    ``constant``: a trailing constant of integration (``+ C``) is allowed and dropped.
    Never raises; bounded by the parser's limits.

    >>> read_formula("y = 3e^{2x}", ["x"]) == read_formula("3*exp(2*x)", ["x"])
    False
    >>> evaluate(read_formula("y = 3e^{2x}", ["x"]), {"x": 0})
    mpf('3.0')
    """
    if not isinstance(text, str) or len(text) > 4 * MAX_FORMULA_CHARS:
        return None
    if not variables:  # a constant may be followed by its decimal value: "pi/15 ≈ 0.2094"
        return read_answer(text, lambda s: _with_approximation(s, functions))
    return read_answer(text, lambda s: _read_plain(s, variables, functions, constant))


_APPROX_MARKS = ("≈", "\\approx", "~=", "≃")
_APPROX_VALUE = re.compile(r"\s*([+-]?\d{1,30}(?:\.\d{1,30})?)(?:\s*(?:\.\.\.|…))?\s*")


def _with_approximation(text: str, functions: Sequence[str]) -> Expr | None:
    """An exact constant, alone or followed by ``≈`` and a decimal that agrees with it to the digits written
    (rounded or cut off, :func:`~palaestra.verifiers.numeric.decimal_agrees`): ``pi/15 ≈ 0.2094`` reads as
    ``pi/15``; ``pi/15 ≈ 0.5`` contradicts itself and is unreadable, like any second answer."""
    mark, start = max(((m, text.rfind(m)) for m in _APPROX_MARKS), key=lambda found: found[1])
    if start < 0:
        return _read_plain(text, [], functions, False)
    match = _APPROX_VALUE.fullmatch(text, start + len(mark))  # anchored after the mark: linear on any text
    if match is None:
        return None
    exact = _read_plain(text[:start], [], functions, False)
    value = evaluate(exact, {})
    if value is None:
        return None
    written = match.group(1)
    try:
        approximately = Fraction(float(value))
    except (TypeError, ValueError, OverflowError):
        return None
    return exact if decimal_agrees(approximately, Fraction(written), written) else None


# --- evaluation -------------------------------------------------------------

_FUNCTION_VALUES: dict[str, Any] = {
    "sqrt": _CTX.sqrt, "exp": _CTX.exp, "log": _CTX.log, "ln": _CTX.log, "sin": _CTX.sin, "cos": _CTX.cos,
    "tan": _CTX.tan, "atan": _CTX.atan, "abs": abs,
}


def _number(value: Fraction | int | float | Any) -> Any:
    if isinstance(value, Fraction):
        return _CTX.mpf(value.numerator) / value.denominator
    return _CTX.mpmathify(value)


def _check(value: Any) -> Any:
    if not _CTX.isfinite(value) or abs(value) > MAX_MAGNITUDE:
        raise _Unreadable
    return value


def _value(e: Expr, point: Mapping[str, Any]) -> Any:
    kind = e[0]
    if kind == "num":
        return _number(e[1])
    if kind == "var":
        return point[e[1]]
    if kind == "const":
        return _CTX.pi if e[1] == "pi" else _CTX.e
    if kind == "neg":
        return -_value(e[1], point)
    if kind == "call":
        return _check(_FUNCTION_VALUES[e[1]](_value(e[2], point)))
    a, b = _value(e[1], point), _value(e[2], point)
    if kind == "+":
        return a + b
    if kind == "-":
        return a - b
    if kind == "*":
        return _check(a * b)
    if kind == "/":
        if b == 0:
            raise ZeroDivisionError
        return _check(a / b)
    return _power(a, b)


def _power(a: Any, b: Any) -> Any:
    if abs(b) > MAX_POWER:
        raise _Unreadable
    if a == 0:
        if _CTX.re(b) > 0:
            return _CTX.mpf(0)
        raise ZeroDivisionError
    if _CTX.im(b) == 0 and _CTX.re(b) == int(_CTX.re(b)):
        return _check(a ** int(_CTX.re(b)))
    return _check(a**b)


def evaluate(expr: Expr | None, point: Mapping[str, Fraction | int | float]) -> Any | None:
    """The value of ``expr`` at ``point`` (variables -> numbers), to :data:`DIGITS` digits, or ``None``
    where it is undefined there (division by zero, a pole) or out of bounds."""
    if expr is None:
        return None
    try:
        return _value(expr, {name: _number(v) for name, v in point.items()})
    except (_Unreadable, ZeroDivisionError, ValueError, KeyError, OverflowError, RecursionError, TypeError):
        return None


def _dual(e: Expr, wrt: str, point: Mapping[str, Any]) -> tuple[Any, Any]:
    kind = e[0]
    zero = _CTX.mpf(0)
    if kind == "num":
        return _number(e[1]), zero
    if kind == "var":
        return point[e[1]], _CTX.mpf(1 if e[1] == wrt else 0)
    if kind == "const":
        return (_CTX.pi if e[1] == "pi" else _CTX.e), zero
    if kind == "neg":
        v, d = _dual(e[1], wrt, point)
        return -v, -d
    if kind == "call":
        u, du = _dual(e[2], wrt, point)
        name = e[1]
        value = _check(_FUNCTION_VALUES[name](u))
        if name in ("log", "ln"):
            slope = 1 / u
        elif name == "exp":
            slope = value
        elif name == "sin":
            slope = _CTX.cos(u)
        elif name == "cos":
            slope = -_CTX.sin(u)
        elif name == "tan":
            slope = 1 / _CTX.cos(u) ** 2
        elif name == "atan":
            slope = 1 / (1 + u * u)
        elif name == "sqrt":
            slope = 1 / (2 * value)
        else:  # abs, off its kink: the sign of a real argument
            if _CTX.im(u) != 0 or u == 0:
                raise _Unreadable
            slope = 1 if u > 0 else -1
        return value, _check(slope * du)
    (a, da), (b, db) = _dual(e[1], wrt, point), _dual(e[2], wrt, point)
    if kind == "+":
        return a + b, da + db
    if kind == "-":
        return a - b, da - db
    if kind == "*":
        return _check(a * b), _check(da * b + a * db)
    if kind == "/":
        if b == 0:
            raise ZeroDivisionError
        return _check(a / b), _check((da * b - a * db) / (b * b))
    value = _power(a, b)
    if db == 0:
        slope = 0 if da == 0 else _check(b * _power(a, b - 1) * da)
        return value, slope
    return value, _check(value * (db * _CTX.log(a) + b * da / a))


def derivative_at(
    expr: Expr | None, variable: str, point: Mapping[str, Fraction | int | float]
) -> tuple[Any, Any] | None:
    """``(value, d value / d variable)`` of ``expr`` at ``point`` by forward-mode automatic
    differentiation, or ``None`` where undefined (or at a kink of ``abs``)."""
    if expr is None:
        return None
    try:
        return _dual(expr, variable, {name: _number(v) for name, v in point.items()})
    except (_Unreadable, ZeroDivisionError, ValueError, KeyError, OverflowError, RecursionError, TypeError):
        return None


def agree(a: Any | None, b: Any | None) -> bool:
    """Whether two computed values match to :data:`AGREE_DIGITS` significant digits (``None`` never does)."""
    if a is None or b is None:
        return False
    a, b = (_number(v) if isinstance(v, (Fraction, int)) else v for v in (a, b))
    scale = max(_CTX.mpf(1), abs(a), abs(b))
    return bool(abs(a - b) <= _TOLERANCE * scale)


@lru_cache(maxsize=2048)
def reference_tree(text: str, variables: tuple[str, ...], functions: tuple[str, ...] = CALCULUS_FUNCTIONS) -> Expr:
    """A tree for a formula the generator wrote (cached: verifiers parse the same references often).

    Raises ``ValueError`` when the text is unreadable: a generator bug, never model text.
    """
    tree = read_formula(text, variables, functions=functions)
    if tree is None:
        raise ValueError(f"unreadable reference formula {text!r}")
    return tree


# --- symbolic manipulation and printing --------------------------------------

ONE: Expr = ("num", Fraction(1))
ZERO: Expr = ("num", Fraction(0))


def num(value: Fraction | int) -> Expr:
    return ("num", Fraction(value))


def _is_num(e: Expr, value: Fraction | int | None = None) -> bool:
    return e[0] == "num" and (value is None or e[1] == value)


def simplify(e: Expr) -> Expr:
    """Light, exact clean-up: constants folded, ``0``/``1`` terms and factors dropped, signs moved out.

    >>> format_expr(simplify(read_formula("0*x + 1*x^1 - (-2)*3", ["x"])))
    'x + 6'
    """
    kind = e[0]
    if kind in ("num", "var", "const"):
        return e
    if kind == "neg":
        inner = simplify(e[1])
        if _is_num(inner):
            return num(-inner[1])
        return inner[1] if inner[0] == "neg" else ("neg", inner)
    if kind == "call":
        return ("call", e[1], simplify(e[2]))
    a, b = simplify(e[1]), simplify(e[2])
    if _is_num(a) and _is_num(b) and kind != "**":
        if kind == "/" and b[1] == 0:
            return (kind, a, b)
        return num({"+": a[1] + b[1], "-": a[1] - b[1], "*": a[1] * b[1], "/": a[1] / b[1] if b[1] else 0}[kind])
    if kind == "+":
        if _is_num(a, 0):
            return b
        if _is_num(b, 0):
            return a
        if b[0] == "neg":
            return simplify(("-", a, b[1]))
        if _is_num(b) and b[1] < 0:
            return ("-", a, num(-b[1]))
        return ("+", a, b)
    if kind == "-":
        if _is_num(b, 0):
            return a
        if _is_num(a, 0):
            return simplify(("neg", b))
        if b[0] == "neg":
            return ("+", a, b[1])
        if _is_num(b) and b[1] < 0:
            return ("+", a, num(-b[1]))
        return ("-", a, b)
    if kind == "*":
        if _is_num(a, 0) or _is_num(b, 0):
            return ZERO
        if b[0] == "/" and _is_num(b[1], 1):  # a * (1/c) -> a/c
            return simplify(("/", a, b[2]))
        if a[0] == "/" and _is_num(a[1], 1):
            return simplify(("/", b, a[2]))
        if _is_num(a) and b[0] == "/" and _is_num(b[1]):  # 3 * (2/c) -> 6/c
            return simplify(("/", num(a[1] * b[1][1]), b[2]))
        if _is_num(a, 1):
            return b
        if _is_num(b, 1):
            return a
        if _is_num(a, -1):
            return simplify(("neg", b))
        if _is_num(b, -1):
            return simplify(("neg", a))
        if a[0] == "neg":
            return simplify(("neg", ("*", a[1], b)))
        if b[0] == "neg":
            return simplify(("neg", ("*", a, b[1])))
        if _is_num(b) and not _is_num(a):
            a, b = b, a  # the number first: 3x, not x*3
        if _is_num(a) and b[0] == "*" and _is_num(b[1]):
            return simplify(("*", num(a[1] * b[1][1]), b[2]))
        if not _is_num(a) and b[0] == "*" and _is_num(b[1]):
            return simplify(("*", b[1], ("*", a, b[2])))
        if a[0] == "*" and _is_num(a[1]) and not _is_num(b):
            return simplify(("*", a[1], ("*", a[2], b)))
        if a[0] == "neg" and _is_num(b):
            return ("*", num(-b[1]), a[1])
        if _is_num(a) and a[1] < 0:
            return ("neg", simplify(("*", num(-a[1]), b)))
        return ("*", a, b)
    if kind == "/":
        if _is_num(a, 0):
            return ZERO
        if _is_num(b, 1):
            return a
        if _is_num(a) and a[1] < 0:  # (-3)/c -> -(3/c)
            return ("neg", simplify(("/", num(-a[1]), b)))
        if a[0] == "/":  # (p/q)/c -> p/(q*c)
            return simplify(("/", a[1], ("*", a[2], b)))
        if (_is_num(a) and b[0] == "*" and _is_num(b[1]) and a[1].denominator == 1 and b[1][1].denominator == 1
                and b[1][1] > 0 and math.gcd(int(a[1]), int(b[1][1])) > 1):  # 30/(5x) -> 6/x
            g = math.gcd(int(a[1]), int(b[1][1]))
            rest = b[2] if b[1][1] == g else ("*", num(b[1][1] / g), b[2])
            return simplify(("/", num(a[1] / g), rest))
        if _is_num(a) and a[1].denominator != 1 and not _is_num(b):  # (3/2)/c -> 3/(2c)
            return simplify(("/", num(a[1].numerator), ("*", num(a[1].denominator), b)))
        if _is_num(b) and b[1] != 0:
            return simplify(("*", num(1 / b[1]), a))
        if a[0] == "neg":
            return simplify(("neg", ("/", a[1], b)))
        return ("/", a, b)
    # power
    if _is_num(b, 0):
        return ONE
    if _is_num(b, 1):
        return a
    if _is_num(a) and _is_num(b) and b[1].denominator == 1 and abs(b[1]) <= 12 and a[1] != 0:
        return num(a[1] ** int(b[1]))
    if a[0] == "**" and _is_num(a[2]) and _is_num(b):
        return simplify(("**", a[1], num(a[2][1] * b[1])))
    if a[0] == "call" and a[1] == "sqrt" and _is_num(b, 2):  # sqrt(u)^2 -> u
        return a[2]
    return ("**", a, b)


def _has(e: Expr, variable: str) -> bool:
    if e[0] == "var":
        return e[1] == variable
    if e[0] in ("num", "const"):
        return False
    children = e[2:] if e[0] == "call" else e[1:]
    return any(_has(c, variable) for c in children)


def differentiate(e: Expr, variable: str) -> Expr:
    """The exact derivative of a tree (unsimplified; pass it through :func:`simplify`).

    >>> format_expr(simplify(differentiate(read_formula("x^3*sin(2x)", ["x"]), "x")))
    '3x^2*sin(2x) + 2x^3*cos(2x)'
    """
    kind = e[0]
    if not _has(e, variable):
        return ZERO
    if kind == "var":
        return ONE
    if kind == "neg":
        return ("neg", differentiate(e[1], variable))
    if kind == "call":
        name, u = e[1], e[2]
        du = differentiate(u, variable)
        outer = {
            "sin": ("call", "cos", u),
            "cos": ("neg", ("call", "sin", u)),
            "tan": ("/", ONE, ("**", ("call", "cos", u), num(2))),
            "exp": e,
            "log": ("/", ONE, u),
            "ln": ("/", ONE, u),
            "sqrt": ("/", ONE, ("*", num(2), e)),
            "atan": ("/", ONE, ("+", ONE, ("**", u, num(2)))),
        }.get(name)
        if outer is None:
            raise ValueError(f"cannot differentiate {name}")
        if outer[0] == "/" and outer[1] == ONE:
            return ("/", du, outer[2])
        return ("*", du, outer) if du != ONE else outer
    a, b = e[1], e[2]
    if kind in ("+", "-"):
        return (kind, differentiate(a, variable), differentiate(b, variable))
    if kind == "*":
        if not _has(a, variable):
            return ("*", a, differentiate(b, variable))
        if not _has(b, variable):
            return ("*", b, differentiate(a, variable)) if not _is_num(b) else ("*", b, differentiate(a, variable))
        return ("+", ("*", differentiate(a, variable), b), ("*", a, differentiate(b, variable)))
    if kind == "/":
        if not _has(b, variable):
            return ("/", differentiate(a, variable), b)
        return ("/", ("-", ("*", differentiate(a, variable), b), ("*", a, differentiate(b, variable))),
                ("**", b, num(2)))
    if not _has(b, variable):  # a**c
        if a == ("const", "e"):
            return ("*", differentiate(b, variable), e)
        return ("*", ("*", b, ("**", a, ("-", b, ONE))), differentiate(a, variable))
    if not _has(a, variable):  # c**u
        if a == ("const", "e"):
            return ("*", differentiate(b, variable), e)
        return ("*", ("*", e, ("call", "ln", a)), differentiate(b, variable))
    raise ValueError("cannot differentiate a variable power of a variable")


_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "neg": 3, "**": 4}


def _precedence(e: Expr) -> int:
    if e[0] == "num" and (e[1] < 0 or e[1].denominator != 1):
        return 2 if e[1] >= 0 else 1
    return _PRECEDENCE.get(e[0], 5)


def _wrap(e: Expr, minimum: int) -> str:
    text = format_expr(e)
    return f"({text})" if _precedence(e) < minimum else text


def _juxtaposable(e: Expr) -> bool:
    """A factor that can follow a number without ``*``: a variable or a power of one."""
    return e[0] == "var" or (e[0] == "**" and e[1][0] == "var")


def _leftmost_plain(e: Expr) -> bool:
    """Whether a product starts with a variable, a power of one or a function call (so ``3`` may precede it)."""
    while e[0] == "*":
        e = e[1]
    return _juxtaposable(e) or e[0] == "call"


def format_expr(e: Expr) -> str:
    """A readable formula that :func:`read_formula` reads back to the same value.

    >>> format_expr(simplify(read_formula("(3/4)*x^2 - exp(2*x)/3 + 2*sin(x)*cos(x)", ["x"])))
    '(3/4)x^2 - (1/3)e^(2x) + 2sin(x)*cos(x)'
    """
    kind = e[0]
    if kind == "num":
        value = e[1]
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    if kind == "var":
        return e[1]
    if kind == "const":
        return e[1]
    if kind == "neg":  # -(a*b) reads as (-a)*b, so only sums need brackets
        return "-" + (_wrap(e[1], 2) if e[1][0] in ("*", "/") else _wrap(e[1], 3))
    if kind == "call":
        if e[1] == "exp":
            inner = e[2]
            body = format_expr(inner)
            bare = inner[0] == "var" or (inner[0] == "num" and inner[1] >= 0 and inner[1].denominator == 1)
            return f"e^{body}" if bare else f"e^({body})"
        return f"{e[1]}({format_expr(e[2])})"
    a, b = e[1], e[2]
    if kind == "+":
        return f"{format_expr(a)} + {_wrap(b, 2)}" if b[0] != "neg" else f"{format_expr(a)} - {_wrap(b[1], 2)}"
    if kind == "-":
        return f"{format_expr(a)} - {_wrap(b, 2)}"
    if kind == "*":
        if _is_num(a) and a[1].denominator == 1 and a[1] > 0 and (_juxtaposable(b) or b[0] == "call"):
            return f"{format_expr(a)}{_wrap(b, 2) if b[0] != '*' else format_expr(b)}"
        if _is_num(a) and a[1].denominator != 1 and a[1] > 0:
            return f"({format_expr(a)}){_wrap(b, 3)}"
        if _is_num(a) and a[1].denominator == 1 and a[1] > 0 and b[0] == "*" and _leftmost_plain(b):
            return f"{format_expr(a)}{format_expr(b)}"
        return f"{_wrap(a, 2)}*{_wrap(b, 3)}"
    if kind == "/":
        return f"{_wrap(a, 2)}/{_wrap(b, 3)}"
    base = _wrap(a, 5)
    exponent = b
    if exponent[0] == "num" and exponent[1].denominator == 1 and exponent[1] >= 0:
        return f"{base}^{exponent[1]}"
    if exponent[0] == "var":
        return f"{base}^{exponent[1]}"
    return f"{base}^({format_expr(exponent)})"


def linear_combination(terms: Iterable[tuple[Fraction | int, str]]) -> str:
    """``c1*t1 + c2*t2 + ...`` written readably from (coefficient, term text) pairs; a term ``"1"`` is a
    constant, a term ``"1/u"`` is written ``c/u``. Zero coefficients are dropped; an empty sum is ``0``.

    >>> linear_combination([(Fraction(3, 4), "x^2"), (-1, "sin(x)"), (2, "1"), (Fraction(-1, 2), "e^(2x)")])
    '(3/4)x^2 - sin(x) + 2 - (1/2)e^(2x)'
    >>> linear_combination([(3, "1/x"), (Fraction(-2, 3), "1/(x + 1)"), (1, "1/x^2")])
    '3/x - 2/(3(x + 1)) + 1/x^2'
    """
    out: list[str] = []
    for coefficient, term in terms:
        c = Fraction(coefficient)
        if c == 0:
            continue
        sign = "-" if c < 0 else "+"
        size = abs(c)
        if term == "1":
            body = str(size) if size.denominator == 1 else f"{size.numerator}/{size.denominator}"
        elif term.startswith("1/"):
            rest = term[2:]
            bottom = rest if size.denominator == 1 else f"({size.denominator}{rest})"
            body = f"{size.numerator}/{bottom}"
        elif size == 1:
            body = term
        elif size.denominator == 1:
            body = f"{size.numerator}{term}" if term[0].isalpha() or term[0] == "(" else f"{size.numerator}*{term}"
        else:
            body = f"({size.numerator}/{size.denominator}){term}"
        out.append(("-" if sign == "-" else "") + body if not out else f" {sign} {body}")
    return "".join(out) or "0"


def points_in(low: Fraction, high: Fraction, count: int, variable: str = "x") -> list[dict[str, Fraction]]:
    """``count`` fixed points spread through ``(low, high)`` at irregular rational offsets (never a
    round number, so a formula that is right only at simple points is caught).

    >>> [p["x"] for p in points_in(Fraction(0), Fraction(1), 2)]
    [Fraction(137, 601), Fraction(421, 601)]
    """
    offsets = (Fraction(137, 601), Fraction(421, 601), Fraction(263, 601), Fraction(557, 601), Fraction(31, 601),
               Fraction(349, 601), Fraction(491, 601), Fraction(89, 601))
    return [{variable: low + (high - low) * offsets[i % len(offsets)]} for i in range(count)]
