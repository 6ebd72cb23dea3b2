"""Linear Diophantine equations ``a x + b y = c`` in integers.

Levels 0-1 ask for any integer solution (small, then larger coefficients, some with a
common factor and negative signs); level 2 for a solution with x and y both positive;
level 3 for the general solution in terms of an integer parameter; level 4 for the
number of solutions in non-negative integers together with the one of them with the
smallest x. Equations are built from a chosen solution, so one exists.

The count comes with its certificate (v3): the non-negative solutions are the least-x one
stepped by (b/g, -a/g), so the count follows from it, while the count alone is nearly
given away by the estimate c·g/(a·b) (the count is its floor or the next integer;
rounding it answered 67% of level 4 in v2). A bare count scores 0.

Many answers are right and each is checked, not compared: a pair must satisfy the
equation (``x = 3, y = -2``, ``(3, -2)``); a general solution ``x = x0 + p t, y = y0 + q t``
must have integer coefficients, satisfy the equation for every t, and step by
``±b/g`` (g = gcd(a, b)), so that it lists every solution and nothing else
(``x = 3 + 5t, y = -2 - 7t`` and ``x = 8 - 5k, y = -9 + 7k`` are both right); a count is
one integer followed by the pair with the smallest x (``count: 6`` then ``smallest x: x = 3, y = 60``).
The prompts' examples are fixed placeholders (v3; v2 showed the first of three pairs that was not a
solution, so a later example told that the first one was).

Version 4: where any solution or the general one is asked, c is a multiple of neither a nor b, so no pair with
x = 0 or y = 0 is found by one division: v3 paid that rule (x = 0, y = c/b, else x = c/a, y = 0) 0.44 at level 0
and 0.15 at level 1, and gave the particular solution of 20% of level 3 for free; v4 pays it 0.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.assignments import read_assignment
from palaestra.verifiers.blocks import read_block
from palaestra.verifiers.formulas import read_formula
from palaestra.verifiers.normalize import strip_wrappers, unify
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.polynomials import to_polynomial
from palaestra.verifiers.sets import read_list

PARAMETERS = ("t", "k", "n", "m", "s")
# A closing note on the parameter's domain, as a general solution is often written: ", t ∈ ℤ", "(t \in \mathbb{Z})",
# "for any integer t", "where t is an integer". Only such a note is cut, so any other text after the answer still
# leaves it unread. The pattern is ours (never the model's) and runs on the answer with its whitespace collapsed to
# single spaces, which it matches one at a time (" ?"), so no two parts compete for the same characters.
_INTEGERS = r"(?:ℤ|\\mathbb ?\{ ?Z ?\}|\\mathbb ?Z|\\Z|Z|the integers)"
_NOTE = (
    rf"(?:(?:where|for|with) )?(?:(?:all|any|each|every|some) )?(?:integers? )?(?P<p1>[tknms]) ?(?:∈|\\in|in) ?{_INTEGERS}"
    r"|(?:where|for|with) (?:(?:all|any|each|every) )?(?:integers?|whole numbers?) (?P<p2>[tknms])"
    r"|(?:where|for|with) (?P<p3>[tknms]) (?:is )?(?:an? |any )?(?:integer|whole number)"
)
_DOMAIN_NOTE = re.compile(rf" ?(?:[,;] ?)?\(? ?(?:{_NOTE}) ?\)? ?\.? ?$", re.IGNORECASE)
_DOMAIN_MAX = 600


@register
class LinearDiophantine(Task):
    id = "arithmetic/linear_diophantine"
    family = "arithmetic"
    description = "Integer solutions of a x + b y = c: one solution, a positive one, the general one, or a count."
    tags = ("math", "number-theory")
    version = 4

    @dataclass(frozen=True)
    class Config:
        kind: str  # any | positive | general | count
        top: int  # |a|, |b| up to this
        negatives: bool

    presets = (
        Config(kind="any", top=15, negatives=False),
        Config(kind="any", top=120, negatives=True),
        Config(kind="positive", top=60, negatives=False),
        Config(kind="general", top=80, negatives=True),
        Config(kind="count", top=40, negatives=False),
    )
    growth = Growth(factors={"top": 3})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        a, b, c, x0, y0 = retry(lambda: _equation(rng, config), what="an equation")
        g = math.gcd(a, b)
        equation = _equation_text(a, b, c)
        if config.kind in ("any", "positive"):
            x1, y1 = (4, -7) if config.kind == "any" else (4, 7)  # a fixed placeholder, not chosen by the answer
            which = "integers" if config.kind == "any" else "positive integers (both at least 1)"
            question = f"Find one pair of {which} x, y with {equation}. Give it like x = {x1}, y = {y1}."
            answer = f"x = {x0}, y = {y0}"
        elif config.kind == "general":
            p, q = b // g, -a // g
            example = "x = 4 + 9t, y = -1 - 2t"  # a fixed placeholder, not chosen by the answer
            question = (f"Find all integer solutions of {equation}. Give the general solution in terms of an integer "
                        f"parameter t, like {example}.")
            answer = f"x = {_linear(x0, p)}, y = {_linear(y0, q)}"
        else:
            count, least = _count_nonnegative(a, b, c), _least_nonnegative(a, b, c)
            question = (f"How many pairs of non-negative integers (x, y) satisfy {equation}? Answer on two lines: "
                        "the count, then the pair with the smallest x, for example:\n"
                        "count: 3\nsmallest x: x = 2, y = 5")
            answer = f"count: {count}\nsmallest x: x = {least[0]}, y = {least[1]}"
        return Problem(prompt=question, answer=answer,
                       data={"a": a, "b": b, "c": c, "kind": config.kind, "solution": [x0, y0]})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        a, b, c, kind = problem.data["a"], problem.data["b"], problem.data["c"], problem.data["kind"]
        if kind == "count":
            read = _read_count_and_pair(answer)
            if read is None:
                return Verdict.unparsed("expected two lines: the count, then the pair with the smallest x "
                                        "(count: 3, then smallest x: x = 2, y = 5)")
            value, (x, y) = read
            if value != _count_nonnegative(a, b, c):
                return Verdict.wrong("wrong count")
            if a * x + b * y != c or x < 0 or y < 0:
                return Verdict.wrong("the pair is not a solution in non-negative integers")
            return Verdict.judge((x, y) == _least_nonnegative(a, b, c), "another solution has a smaller x")
        if kind == "general":
            return _verify_general(a, b, c, answer)
        pair = _read_pair(answer)
        if pair is None:
            return Verdict.unparsed("not a pair of integers (write x = 4, y = -7)")
        x, y = pair
        if x.denominator != 1 or y.denominator != 1:
            return Verdict.wrong("x and y must be integers")
        if kind == "positive" and (x < 1 or y < 1):
            return Verdict.wrong("x and y must both be positive")
        return Verdict.judge(a * x + b * y == c, "the pair does not satisfy the equation")

    def difficulty(self, problem: Problem) -> float:
        """Digits of a, b and c plus the form asked (any 0, positive 2, general 3, count 5: the count and the pair
        with the smallest x, two results)."""
        data = problem.data
        digits = sum(len(str(abs(data[k]))) for k in ("a", "b", "c"))
        return float(digits + {"any": 0, "positive": 2, "general": 3, "count": 5}[data["kind"]])

    def spellings(self, problem: Problem) -> list[str]:
        data = problem.data
        kind = data["kind"]
        if kind == "count":
            a, b, c = data["a"], data["b"], data["c"]
            n, (x, y) = _count_nonnegative(a, b, c), _least_nonnegative(a, b, c)
            return [*super().spellings(problem), f"{n} pairs\n({x}, {y})", f"{n}\nx = {x}, y = {y}",
                    f"Count: {n}; smallest x: x = {x}, y = {y}", f"{n} solutions; the smallest x: ({x}, {y})",
                    f"count = {n}\nsmallest x: (x, y) = ({x}, {y})"]
        x0, y0 = data["solution"]
        if kind == "general":
            g = math.gcd(data["a"], data["b"])
            p, q = data["b"] // g, -data["a"] // g
            shifted = f"x = {_linear(x0 + p, -p, 'k')}, y = {_linear(y0 + q, -q, 'k')}"  # t -> 1 - k
            return [*super().spellings(problem), shifted, problem.answer.replace("t", "n"),
                    f"(x, y) = ({_linear(x0, p)}, {_linear(y0, q)})", problem.answer.replace(", ", "; "),
                    f"{problem.answer}, t ∈ ℤ", f"{problem.answer} for any integer t",
                    f"{problem.answer}, where t is an integer."]  # a closing domain note (read since r21)
        other = [f"({x0}, {y0})", f"y = {y0}, x = {x0}", f"x = {x0} and y = {y0}"]
        if kind == "any":
            g = math.gcd(data["a"], data["b"])
            other.append(f"x = {x0 + data['b'] // g}, y = {y0 - data['a'] // g}")  # another solution
        return [*super().spellings(problem), *other]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        x0, y0 = data["solution"]
        if data["kind"] == "count":
            a, b, c = data["a"], data["b"], data["c"]
            n, (x, y) = _count_nonnegative(a, b, c), _least_nonnegative(a, b, c)
            step_x, step_y = b // math.gcd(a, b), a // math.gcd(a, b)
            pair = f"smallest x: x = {x}, y = {y}"
            wrong = [str(n), f"count: {n}", f"count: {n + 1}\n{pair}", f"count: {n - 1}\n{pair}",
                     f"count: {n} or {n + 1}\n{pair}", f"count: {n}\nsmallest x: x = {x + 1}, y = {y}"]
            if n > 1:  # a solution, but not the one with the smallest x
                wrong.append(f"count: {n}\nsmallest x: x = {x + step_x}, y = {y - step_y}")
            return [w for w in wrong if not self.verify(problem, w).correct]
        if data["kind"] == "general":
            g = math.gcd(data["a"], data["b"])
            p, q = data["b"] // g, -data["a"] // g
            return [f"x = {_linear(x0, 2 * p)}, y = {_linear(y0, 2 * q)}",  # misses every other solution
                    f"x = {_linear(x0 + 1, p)}, y = {_linear(y0, q)}",
                    f"x = {_linear(x0, q)}, y = {_linear(y0, p)}" if (p, q) != (q, p) else "x = t, y = t",
                    f"x = {x0}, y = {y0}"]
        wrong = [f"x = {x0 + 1}, y = {y0}", f"x = {y0}, y = {x0}" if data["a"] != data["b"] else "x = 0, y = 0",
                 f"x = {x0}, y = {y0} or x = {x0 + 1}, y = {y0}"]
        if data["kind"] == "positive":
            g = math.gcd(data["a"], data["b"])
            step = data["b"] // g
            k = x0 // step + 1 if step > 0 else 1
            wrong.append(f"x = {x0 - k * step}, y = {y0 + k * (data['a'] // g)}")  # a solution, not a positive one
        return [w for w in wrong if not self.verify(problem, w).correct]


def _equation(rng: random.Random, config: LinearDiophantine.Config) -> tuple[int, int, int, int, int] | None:
    a, b = rng.randint(2, config.top), rng.randint(2, config.top)
    if a == b:
        return None
    if rng.random() < 0.3:  # a shared factor, so c must be a multiple of it and the step is b/g, not b
        factor = rng.randint(2, 6)
        a, b = a * factor, b * factor
    if config.negatives:
        a, b = a * rng.choice([1, -1]), b * rng.choice([1, -1])
    if config.kind == "count":
        # The count drawn first, uniformly, then an equation with that many non-negative solutions: x0 is the least
        # non-negative x (below the step b/g) and y0 leaves room for count - 1 more steps of a/g. Drawing x0 and y0
        # freely made 1 the answer of a third of the problems.
        g = math.gcd(a, b)
        count = rng.randint(1, 6 + config.top // 8)
        x0, y0 = rng.randrange(b // g), (count - 1) * (a // g) + rng.randrange(a // g)
    elif config.kind == "positive":
        x0, y0 = rng.randint(1, 25), rng.randint(1, 25)
    else:
        x0, y0 = rng.randint(-30, 30), rng.randint(-30, 30)
    c = a * x0 + b * y0
    if config.kind in ("any", "general") and (c % a == 0 or c % b == 0):
        return None  # x = 0 or y = 0 solves it by one division (v3: 44% of level 0, 20% of level 3)
    return (a, b, c, x0, y0) if c != 0 else None


def _equation_text(a: int, b: int, c: int) -> str:
    return f"{a}x {'+' if b > 0 else '-'} {abs(b)}y = {c}"


def _linear(constant: int, slope: int, name: str = "t") -> str:
    step = f"{abs(slope)}{name}" if abs(slope) != 1 else name
    if constant == 0:
        return step if slope > 0 else f"-{step}"
    return f"{constant} {'+' if slope > 0 else '-'} {step}"


def _count_nonnegative(a: int, b: int, c: int) -> int:
    """Solutions in non-negative integers, in closed form: from the least non-negative x, x steps by b/g while
    y >= 0 (a loop over x would take as long as c / a)."""
    if a <= 0 or b <= 0:
        return -1  # not asked for such equations
    g = math.gcd(a, b)
    if c < 0 or c % g:
        return 0
    least_x = c // g * pow(a // g, -1, b // g) % (b // g)
    return 0 if a * least_x > c else (c - a * least_x) // (a * b // g) + 1


def _least_nonnegative(a: int, b: int, c: int) -> tuple[int, int]:
    """The solution in non-negative integers with the smallest x (count problems always have one)."""
    g = math.gcd(a, b)
    x = c // g * pow(a // g, -1, b // g) % (b // g)
    return x, (c - a * x) // b


_COUNT_LABELS = ("count", "number of pairs", "number of solutions", "there are", "the count is")
_PAIR_LABELS = ("smallest x", "the smallest x", "least x", "the least x", "pair with the smallest x",
                "the pair with the smallest x", "solution with the smallest x", "the solution with the smallest x")


def _read_count_and_pair(text: str) -> tuple[Fraction, tuple[Fraction, Fraction]] | None:
    """The count and the pair of a count answer: two lines (or two parts split by ``;``), each with an optional
    label (``count:``, ``smallest x:``), or None."""
    block = read_block(strip_wrappers(unify(text)), leading="strip")
    if block is None:
        return None
    lines = [line.strip() for line in block if line.strip()]
    if len(lines) == 2 and lines[-1].endswith("."):  # a closing full stop
        lines[-1] = lines[-1][:-1]
    if len(lines) == 1 and ";" in lines[0]:
        lines = [part.strip() for part in lines[0].split(";", 1)]
    if len(lines) != 2:
        return None
    count = read_exact(_unlabel(lines[0], _COUNT_LABELS).rstrip(",."), units=("pairs", "solutions"))
    pair = _read_pair(_unlabel(lines[1], _PAIR_LABELS))
    if count is None or pair is None or count.denominator != 1 or any(v.denominator != 1 for v in pair):
        return None
    return count, pair


def _unlabel(line: str, labels: tuple[str, ...]) -> str:
    """``line`` without a leading label (``count:``, ``count =``, ``Smallest x:``), bullets and bold marks."""
    text = line.lstrip("-*• ").replace("**", "").strip()
    lowered = text.lower()
    for label in sorted(labels, key=len, reverse=True):
        if lowered.startswith(label):
            rest = text[len(label):].lstrip()
            if rest[:1] in (":", "="):
                return rest[1:].strip()
            if label in ("there are", "the count is"):
                return rest
    return text


def _read_pair(text: str) -> tuple[Fraction, Fraction] | None:
    values = read_assignment(text, ["x", "y"])
    if values is not None:
        return values["x"], values["y"]
    items = read_list(text, read_exact)
    if items is not None and len(items) == 2:
        return items[0], items[1]
    return None


def _without_domain_note(answer: str) -> tuple[str, str | None]:
    """``answer`` without a closing note on its parameter's domain (``x = 4 + 9t, y = -1 - 2t, t ∈ ℤ``), and the
    parameter the note names (``None`` when there is no note)."""
    if not isinstance(answer, str) or len(answer) > _DOMAIN_MAX:
        return answer, None
    collapsed = " ".join(answer.split())
    note = _DOMAIN_NOTE.search(collapsed)
    if note is None or note.start() == 0:
        return answer, None
    return collapsed[: note.start()], note.group("p1") or note.group("p2") or note.group("p3")


def _verify_general(a: int, b: int, c: int, answer: str) -> Verdict:
    answer, named = _without_domain_note(answer)
    for parameter in PARAMETERS:
        if named is not None and parameter != named.lower():
            continue  # the note names the parameter: "x = 4 + 9t, y = -1 - 2t for any integer k" is not read
        values = read_assignment(answer, ["x", "y"], lambda s, p=parameter: read_formula(s, [p]))
        if values is None:
            continue
        x, y = to_polynomial(values["x"], [parameter]), to_polynomial(values["y"], [parameter])
        if x is None or y is None:
            return Verdict.wrong("x and y must be linear in the parameter")
        x0, p = x.get((0,), Fraction(0)), x.get((1,), Fraction(0))
        y0, q = y.get((0,), Fraction(0)), y.get((1,), Fraction(0))
        if any(k[0] > 1 for k in (*x, *y)):
            return Verdict.wrong("x and y must be linear in the parameter")
        if any(v.denominator != 1 for v in (x0, p, y0, q)):
            return Verdict.wrong("the coefficients must be integers")
        if a * x0 + b * y0 != c or a * p + b * q != 0:
            return Verdict.wrong("not every value of the parameter gives a solution")
        g = math.gcd(a, b)
        if abs(p) != abs(b) // g:
            return Verdict.wrong("the step misses solutions" if p else "the parameter must change x and y")
        return Verdict.right()
    return Verdict.unparsed("not a general solution in one parameter (write x = 4 + 9t, y = -1 - 2t)")
