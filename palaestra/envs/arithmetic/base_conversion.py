"""Convert whole numbers between bases, and do arithmetic in a base other than ten.

Level 0 converts between decimal and binary (numbers below 256); level 1 between
decimal and bases 3 to 16; level 2 between two bases neither of which is ten; level 3
adds or subtracts two numbers written in a base from 2 to 16 and asks for the result in
that base; level 4 multiplies in such a base or converts larger numbers in bases up to 36.

The answer is the number written in the target base: digits 0-9 then letters A-Z for
ten and above, in either case, leading zeros allowed, optionally with a base marker
(``0b1011``, ``0x1F``, ``0o17`` for bases 2, 16 and 8, ``1011_2``, ``(1011)_2``, ``1011₂``) or
with its digits grouped by spaces (``1011 0110``). A digit that does not exist in the
base (``2`` in binary) makes the answer wrong, and so does the right value written in
another base.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.verifiers.normalize import read_answer, strip_wrappers

DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_PREFIX = {2: "0b", 8: "0o", 16: "0x"}
_THOUSANDS = re.compile(r"[1-9][0-9]{0,2}(?:,[0-9]{3})+")
_SUBSCRIPT = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")
_MARKED = re.compile(r"^\(?\s*(-?[0-9A-Za-z ]+?)\s*\)?\s*(?:_\s*\{?\s*(\d{1,2})\s*\}?|([₀-₉]{1,2}))$")


def to_base(n: int, base: int) -> str:
    """``n`` written in ``base`` (2-36), upper-case letters for digits above nine."""
    if n == 0:
        return "0"
    sign, n = ("-", -n) if n < 0 else ("", n)
    out = []
    while n:  # bounded: n shrinks by a factor of base every pass
        n, digit = divmod(n, base)
        out.append(DIGITS[digit])
    return sign + "".join(reversed(out))


def read_in_base(text: str, base: int) -> int | None:
    """The integer that ``text`` writes in ``base``, or ``None`` (a foreign digit, a marker for another base)."""
    if not isinstance(text, str) or len(text) > 400:
        return None
    named = [f"in base {base}", f"(base {base})", f"base {base}", f"in base-{base}"]
    if base == 10:
        named += ["in decimal", "(decimal)"]
    return read_answer(text, lambda s: _read(s, base), units=named)  # "2201 in base 3": the base named after it


def _read(text: str, base: int) -> int | None:
    s = strip_wrappers(text).replace("$", "").replace("\\text", "").replace("\\mathrm", "").strip()
    s = re.sub(r"^(?:[A-Za-z]{1,3}\s*=\s*)", "", s)
    marked = _MARKED.match(s)
    if marked and (marked.group(2) or marked.group(3)):
        written_base = int((marked.group(2) or marked.group(3)).translate(_SUBSCRIPT))
        if written_base != base:
            return None
        s = marked.group(1).strip()
    sign = -1 if s.startswith("-") else 1
    s = s.lstrip("-").strip()
    prefix = s[:2].lower()
    if prefix in ("0b", "0o", "0x"):
        if _PREFIX.get(base) != prefix:
            return None
        s = s[2:]
    if base == 10 and "," in s:  # thousands separators, grouped as written numbers are: "0, 3074" is two answers
        if not _THOUSANDS.fullmatch(s):
            return None
        s = s.replace(",", "")
    s = s.replace(" ", "").replace("_", "")
    if not s or any(c.upper() not in DIGITS[:base] for c in s):
        return None
    return sign * int(s, base)


@register
class BaseConversion(Task):
    id = "arithmetic/base_conversion"
    version = 2
    family = "arithmetic"
    description = "Convert numbers between bases 2-36 and add, subtract or multiply in another base."
    tags = ("math", "arithmetic", "number-systems")

    @dataclass(frozen=True)
    class Config:
        kinds: tuple[str, ...]  # to_base | from_base | between | add | subtract | multiply
        bases: tuple[int, ...]  # drawn from these
        max_value: int

    presets = (
        Config(("to_base", "from_base"), bases=(2, 8, 16), max_value=4_095),
        Config(("to_base", "from_base"), bases=tuple(range(3, 17)), max_value=50_000),
        Config(("between",), bases=tuple(range(2, 17)), max_value=200_000),
        Config(("add", "subtract"), bases=tuple(range(2, 17)), max_value=200_000),
        Config(("multiply", "between"), bases=tuple(range(2, 37)), max_value=10**7),
    )
    growth = Growth(factors={"max_value": 10})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(config.kinds)
        base = rng.choice([b for b in config.bases if b != 10])
        n = rng.randint(2, config.max_value)
        if kind == "to_base":
            question, value, target = f"Write the decimal number {n} in base {base}.", n, base
        elif kind == "from_base":
            question, value, target = f"Write the base-{base} number {to_base(n, base)} in decimal (base 10).", n, 10
        elif kind == "between":
            other = rng.choice([b for b in config.bases if b not in (base, 10)])
            question, value, target = (f"Write the base-{base} number {to_base(n, base)} in base {other}.", n, other)
        else:
            m = rng.randint(2, config.max_value if kind != "multiply" else 3_000)
            if kind == "multiply":
                n = rng.randint(2, 3_000)
            a, b = (max(n, m), min(n, m)) if kind == "subtract" and rng.random() < 0.7 else (n, m)
            symbol = {"add": "+", "subtract": "-", "multiply": "×"}[kind]
            value = a + b if kind == "add" else a - b if kind == "subtract" else a * b
            question = (f"In base {base}, compute {to_base(a, base)} {symbol} {to_base(b, base)}. Give the result "
                        f"in base {base}" + (" (with a minus sign if it is negative)." if kind == "subtract" else "."))
            target = base
        example = to_base(5_000, target) if target != 10 else "5000"  # whatever the answer
        note = "" if target <= 10 else " (letters A, B, C, ... stand for the digits 10, 11, 12, ...)"
        prompt = f"{question}\n\nGive just the number in base {target}{note}, e.g. {example}."
        return Problem(prompt=prompt, answer=to_base(value, target),
                       data={"kind": kind, "value": value, "base": target})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        value = read_in_base(answer, problem.data["base"])
        if value is None:
            return Verdict.unparsed(f"not a number written in base {problem.data['base']}")
        return Verdict.judge(value == problem.data["value"], "wrong value")

    def difficulty(self, problem: Problem) -> float:
        """Bits of the result plus the operation's weight (conversion 1, via a third base 3, arithmetic 3-5)."""
        weight = {"to_base": 1, "from_base": 1, "between": 3, "add": 3, "subtract": 4, "multiply": 5}
        return abs(problem.data["value"]).bit_length() + weight[problem.data["kind"]]

    def spellings(self, problem: Problem) -> list[str]:
        base, answer = problem.data["base"], problem.answer
        sign, digits = ("-", answer[1:]) if answer.startswith("-") else ("", answer)
        out = [*super().spellings(problem), f"{sign}{digits.lower()}", f"{answer}_{base}", f"({answer})_{{{base}}}",
               f"{sign}0{digits}", f"{answer}."]
        if base in _PREFIX and not sign:
            out.append(f"{_PREFIX[base]}{digits}")
        if base == 2 and len(digits) > 4 and not sign:
            padded = digits.rjust((len(digits) + 3) // 4 * 4, "0")
            out.append(" ".join(padded[i:i + 4] for i in range(0, len(padded), 4)))
        if base < 10:
            out.append(f"{answer}{str(base).translate(str.maketrans('0123456789', '₀₁₂₃₄₅₆₇₈₉'))}")
        return out

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        base, value = problem.data["base"], problem.data["value"]
        wrong = [to_base(value + 1, base), to_base(value * base, base),
                 f"{problem.answer} or {to_base(value + 1, base)}"]
        if base != 10:
            wrong.append(str(value) if to_base(value, base) != str(value) else to_base(value + 2, base))
            other = 16 if base != 16 else 8
            wrong.append(f"{to_base(value, other)}_{other}")
        if len(problem.answer) > 1:
            wrong.append(problem.answer[::-1] if problem.answer[::-1] != problem.answer else problem.answer + "1")
        return [w for w in wrong if read_in_base(w, base) != value]
