"""Roman numerals: convert both ways, rewrite old additive numerals canonically, and compute with numerals.

Kinds by level: a number to its Roman numeral and a numeral to its number (level 0 up to 399, level 1 up to
3999); from level 2 an old additive numeral (``MDCCCCLXXXXVIIII``, no subtractive pairs, as on many medieval
documents) rewritten in the canonical subtractive form (always a number with a 4 or a 9 in some place, so
the two forms differ: copying the numeral solved 75% of these before); from level 3 the sum or difference of two numerals,
and at level 4 expressions of three numerals with a product, answered as a numeral.

The canonical form is the standard one (the largest symbols first; subtractive pairs only IV, IX, XL, XC, CD and
CM; no symbol more than three times in a row), so every number from 1 to 3999 has exactly one. A numeral
answer is judged by spelling, case aside: ``IIII`` or ``IC`` has the right value but is not canonical and is
wrong, and the feedback says so. Standard numerals stop at 3999, so the levels are bounded. Difficulty: the
symbols read and written, plus the steps of the kind (conversion 0, additive rewrite 1, arithmetic 2 or 3).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.verifiers.normalize import read_answer, strip_wrappers
from palaestra.verifiers.numeric import read_integer

SYMBOLS = (("M", 1000), ("CM", 900), ("D", 500), ("CD", 400), ("C", 100), ("XC", 90), ("L", 50), ("XL", 40),
           ("X", 10), ("IX", 9), ("V", 5), ("IV", 4), ("I", 1))
VALUES = {"M": 1000, "D": 500, "C": 100, "L": 50, "X": 10, "V": 5, "I": 1}
LARGEST = 3999
EXAMPLE_NUMERAL = "DCCLXXIII"  # fixed placeholders of the right shapes: never derived from the answer
EXAMPLE_NUMBER = "1234"
KIND_STEPS = {"to_roman": 0, "from_roman": 0, "additive": 1, "sum": 2, "difference": 2, "expression": 3}


def to_roman(n: int) -> str:
    """The canonical numeral of 1 <= n <= 3999."""
    out = []
    for symbol, value in SYMBOLS:
        count, n = divmod(n, value)
        out.append(symbol * count)
    return "".join(out)


def additive(n: int) -> str:
    """The old additive numeral: no subtractive pairs (4 is IIII, 900 is DCCCC)."""
    out = []
    for symbol in "MDCLXVI":
        count, n = divmod(n, VALUES[symbol])
        out.append(symbol * count)
    return "".join(out)


def value_of(numeral: str) -> int | None:
    """The value of any string of Roman symbols read by the subtractive rule (not only canonical ones)."""
    if not numeral or any(ch not in VALUES for ch in numeral):
        return None
    total = 0
    for i, ch in enumerate(numeral):
        v = VALUES[ch]
        total += -v if i + 1 < len(numeral) and VALUES[numeral[i + 1]] > v else v
    return total


def _read_numeral(text: str) -> str | None:
    s = strip_wrappers(text).strip().replace("\\text{", "").replace("\\mathrm{", "").replace("}", "")
    if not 0 < len(s) <= 40:
        return None
    upper = s.upper()
    if any(ch not in VALUES for ch in upper) or not (s == upper or s == s.lower()):
        return None
    return upper


@register
class RomanNumerals(Task):
    id = "sequences/roman_numerals"
    family = "sequences"
    description = "Roman numerals: convert both ways, canonicalise additive numerals, compute with numerals."
    tags = ("math", "numerals")
    version = 2
    bounded = "standard Roman numerals end at 3999 (MMMCMXCIX); the top level already mixes every kind"

    @dataclass(frozen=True)
    class Config:
        largest: int  # the largest number converted
        kinds: tuple[str, ...]

    presets = (Config(399, ("to_roman", "from_roman")), Config(LARGEST, ("to_roman", "from_roman")),
               Config(LARGEST, ("to_roman", "from_roman", "additive")), Config(LARGEST, ("additive", "sum", "difference")),
               Config(LARGEST, ("sum", "difference", "expression")))

    def space_size(self, level: int) -> int | None:
        """Levels 0 and 1 draw a kind of two and a number uniformly: twice the numbers."""
        return 2 * self.presets[level].largest if level <= 1 else None

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(config.kinds)
        answer_is_numeral = kind != "from_roman"
        if kind in ("to_roman", "from_roman", "additive"):
            n = rng.randint(1, config.largest)
            if kind == "additive":  # a number without a 4 or a 9 reads the same both ways: copying it is no work
                n = retry(lambda: rng.randint(1, config.largest), lambda m: additive(m) != to_roman(m),
                          what="a number whose additive and standard numerals differ") \
                    if additive(n) == to_roman(n) else n
            operands = [n]
            if kind == "to_roman":
                question = f"Write {n} as a Roman numeral."
            elif kind == "from_roman":
                question = f"What number does the Roman numeral {to_roman(n)} stand for?"
            else:
                question = (f"The old additive Roman numeral {additive(n)} (written without subtractive pairs) "
                            "stands for a number. Write that number as a standard Roman numeral.")
        elif kind in ("sum", "difference"):
            def draw() -> tuple[int, int]:
                return rng.randint(1, LARGEST), rng.randint(1, LARGEST)

            a, b = retry(draw, lambda p: (0 < p[0] + p[1] <= LARGEST) if kind == "sum" else p[0] - p[1] > 0,
                         attempts=100, what="operands with a result from 1 to 3999")
            n = a + b if kind == "sum" else a - b
            operands = [a, b]
            sign = "+" if kind == "sum" else "-"
            question = f"Compute {to_roman(a)} {sign} {to_roman(b)} and write the result as a Roman numeral."
        else:
            def draw_expression() -> tuple[int, int, int, str]:
                return rng.randint(2, 60), rng.randint(2, 60), rng.randint(1, 2000), rng.choice("+-")

            a, b, c, sign = retry(draw_expression,
                                  lambda e: 0 < e[0] * e[1] + (e[2] if e[3] == "+" else -e[2]) <= LARGEST,
                                  attempts=200, what="an expression with a result from 1 to 3999")
            n = a * b + (c if sign == "+" else -c)
            operands = [a, b, c]
            question = (f"Compute {to_roman(a)} × {to_roman(b)} {sign} {to_roman(c)} (multiplication first) and write "
                        "the result as a Roman numeral.")
        if answer_is_numeral:
            form = (f"Use the standard form (subtractive pairs IV, IX, XL, XC, CD, CM; no symbol more than three "
                    f"times in a row). Answer with the numeral only, for example: {EXAMPLE_NUMERAL}")
            answer = to_roman(n)
        else:
            form = f"Answer with the number in digits, for example: {EXAMPLE_NUMBER}"
            answer = str(n)
        return Problem(prompt=f"{question}\n\n{form}", answer=answer,
                       data={"kind": kind, "value": n, "operands": operands})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        n = problem.data["value"]
        if not isinstance(answer, str) or len(answer) > 300:
            return Verdict.unparsed("expected one answer")
        if problem.data["kind"] == "from_roman":
            found = read_integer(answer)
            if found is None:
                return Verdict.unparsed(f"expected a number in digits, such as {EXAMPLE_NUMBER}")
            return Verdict.judge(found == n, "right" if found == n else "not the numeral's value")
        numeral = read_answer(answer, _read_numeral)
        if numeral is None:
            return Verdict.unparsed(f"expected a Roman numeral such as {EXAMPLE_NUMERAL}")
        if numeral == to_roman(n):
            return Verdict.right()
        if value_of(numeral) == n:
            return Verdict.wrong(f"{numeral} is not the standard form of {n}")
        return Verdict.wrong("not the right value")

    def difficulty(self, problem: Problem) -> float:
        """Symbols read and written, plus the steps of the kind."""
        data = problem.data
        symbols = sum(len(to_roman(v)) for v in data["operands"]) + len(to_roman(data["value"]))
        if data["kind"] == "additive":
            symbols += len(additive(data["value"]))
        return float(symbols + 4 * KIND_STEPS[data["kind"]])

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        extra = [gold.lower(), f"\\text{{{gold}}}"] if problem.data["kind"] != "from_roman" else []
        return [*super().spellings(problem), f"\\boxed{{{gold}}}", f"{gold}.", f"**{gold}**", f"Answer: {gold}", *extra]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        n = problem.data["value"]
        if problem.data["kind"] == "from_roman":
            return [str(n + 1), str(n - 1), str(value_of(additive(n)[::-1]) or n + 10), f"{n} or {n + 1}"]
        near = n + 1 if n < LARGEST else n - 1
        wrong = [to_roman(near), f"{to_roman(n)} or {to_roman(near)}", to_roman(n)[:-1] or "MM"]
        if additive(n) != to_roman(n):
            wrong.append(additive(n))  # the right value, not the standard form
        return [w for w in wrong if w != to_roman(n)]
