"""Convert numbers to and from unusual positional systems: negabinary, balanced ternary, factoradic,
Zeckendorf (Fibonacci) and bijective base 26 (spreadsheet column letters).

Each system is defined in the prompt, so the question is self-contained: negabinary (base -2, digits 0 and 1,
every integer once), balanced ternary (base 3, digits 1, 0 and T for -1), the factorial number system (the
digit at place i, counting from 0 at the right, is at most i and weighs i!; digits written with colons because
they may pass 9), Zeckendorf (a sum of Fibonacci numbers 1, 2, 3, 5, 8, ... with no two consecutive ones used,
written as 0s and 1s), and bijective base 26 (A = 1 ... Z = 26, no zero digit: 27 is AA, as spreadsheet
columns are named). Each representation is unique in its canonical form (no leading zeros; for Zeckendorf no
two adjacent 1s), and the canonical form is judged: ``0101`` or a Zeckendorf string with adjacent 1s has the
right value but is wrong, and the feedback says so. The other direction asks for the number, in decimal.

This is not ``arithmetic/base_conversion``: those are ordinary bases 2-36 with digits 0 to b - 1; here the
systems have a negative base, a negative digit, mixed radices, Fibonacci weights or no zero digit.

Levels add systems and grow the numbers (unbounded: the largest number is multiplied by ten per level past
the presets). Difficulty: four per decimal digit of the number and twice the system's own weight
(bijective and factoradic 1, negabinary and balanced ternary 2, Zeckendorf 2).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.verifiers.normalize import read_answer, strip_wrappers
from palaestra.verifiers.numeric import read_integer

SYSTEMS = ("bijective26", "factoradic", "negabinary", "balanced_ternary", "zeckendorf")
WEIGHT = {"bijective26": 1, "factoradic": 1, "negabinary": 2, "balanced_ternary": 2, "zeckendorf": 2}
DEFINITIONS = {
    "bijective26": "bijective base 26 (the letters A = 1, B = 2, ..., Z = 26 are the digits, there is no zero "
                   "digit, and place values are powers of 26: Z is 26, AA is 27, AZ is 52, BA is 53, as spreadsheet "
                   "columns are named)",
    "factoradic": "the factorial number system (the digit at place i, counting places from 0 at the right, is "
                  "between 0 and i and is worth that many times i!; digits are written with colons between them, "
                  "so 2:1:0 is 2*2! + 1*1! + 0*0! = 5)",
    "negabinary": "negabinary, base -2 (digits 0 and 1, place values 1, -2, 4, -8, 16, ... from the right: 110 is "
                  "4 - 2 = 2; negative numbers need no sign)",
    "balanced_ternary": "balanced ternary (base 3 with the digits 1, 0 and T, where T stands for -1; place values "
                        "1, 3, 9, 27, ... from the right: 1T is 3 - 1 = 2; negative numbers need no sign)",
    "zeckendorf": "Zeckendorf (Fibonacci) form: a string of 0s and 1s whose places, from the right, are worth the "
                  "Fibonacci numbers 1, 2, 3, 5, 8, 13, ..., with no two adjacent 1s (100 is 3, 1010 is 5 + 2 = 7)",
}
EXAMPLES = {"bijective26": "QX", "factoradic": "3:0:2:1:0", "negabinary": "110101", "balanced_ternary": "1T0T1",
            "zeckendorf": "1001010"}  # fixed placeholders of each system's shape: never derived from the answer
MAX_DIGITS = 400
# a base label a grader reads past: a subscript after the numeral (``110_{-2}``, ``(1T0)_3``) or a phrase
BASE_LABELS = {"bijective26": ("26",), "factoradic": ("!",), "negabinary": ("-2", "(-2)"),
               "balanced_ternary": ("3", "bal3"), "zeckendorf": ("F", "Fib")}
BASE_PHRASES = {"bijective26": ("(bijective base 26)", "in bijective base 26", "(base 26)"),
                "factoradic": ("(factoradic)", "in factoradic"),
                "negabinary": ("(base -2)", "in base -2", "(negabinary)", "in negabinary"),
                "balanced_ternary": ("(balanced ternary)", "in balanced ternary"),
                "zeckendorf": ("(Zeckendorf)", "in Zeckendorf form")}


def _without_base(text: str, system: str, value: int) -> str:
    """``text`` without a leading ``value =`` and a trailing base subscript of ``system`` (``5 = 101_{-2}``)."""
    s = text.strip()
    for lead in (f"{value} =", f"{value}_{{10}} =", f"{value}_10 ="):
        if s.startswith(lead):
            s = s[len(lead):].strip()
            break
    head, mark, label = s.rpartition("_")
    if mark and label.strip("{}") in BASE_LABELS[system]:
        s = head.strip()
        if s.startswith("(") and s.endswith(")"):
            s = s[1:-1].strip()
    return s


def _fibonacci_places(limit: int) -> list[int]:
    places = [1, 2]
    while places[-1] <= limit:  # bounded by limit: the numbers at least double every two steps
        places.append(places[-1] + places[-2])
    return places


def encode(system: str, n: int) -> str:
    """The canonical representation of n (n >= 1 for bijective and Zeckendorf, n >= 0 for factoradic)."""
    if system == "bijective26":
        letters = []
        while n > 0:  # bounded: n shrinks 26-fold
            n, r = divmod(n - 1, 26)
            letters.append(chr(ord("A") + r))
        return "".join(reversed(letters))
    if system == "factoradic":
        digits, place = [], 1
        while True:  # bounded: n shrinks by the growing place each turn
            n, r = divmod(n, place)
            digits.append(r)
            place += 1
            if n == 0:
                break
        return ":".join(str(d) for d in reversed(digits))
    if system == "negabinary":
        if n == 0:
            return "0"
        bits: list[str] = []
        while n != 0:  # bounded: |n| roughly halves
            n, r = divmod(n, -2)
            if r < 0:
                n, r = n + 1, r + 2
            bits.append(str(r))
        return "".join(reversed(bits))
    if system == "balanced_ternary":
        if n == 0:
            return "0"
        trits: list[str] = []
        while n != 0:  # bounded: |n| shrinks threefold
            r = n % 3
            if r == 2:
                trits.append("T")
                n = (n + 1) // 3
            else:
                trits.append(str(r))
                n //= 3
        return "".join(reversed(trits))
    places = _fibonacci_places(n)
    bits = []
    for place in reversed(places):
        if place <= n:
            bits.append("1")
            n -= place
        elif bits:
            bits.append("0")
    return "".join(bits)


def decode(system: str, text: str) -> int | None:
    """The value of a representation (canonical or not), or None when it uses other symbols."""
    if not text or len(text) > MAX_DIGITS:
        return None
    if system == "bijective26":
        if not text.isascii() or not text.isalpha():
            return None
        value = 0
        for ch in text.upper():
            value = value * 26 + ord(ch) - ord("A") + 1
        return value
    if system == "factoradic":
        parts = text.split(":")
        if not all(p.isdigit() and len(p) <= 4 for p in parts):
            return None
        digits = [int(p) for p in reversed(parts)]
        if any(d > i for i, d in enumerate(digits)):
            return None
        value, factorial = 0, 1
        for i, d in enumerate(digits):
            factorial *= max(i, 1)
            value += d * factorial
        return value
    if system == "negabinary":
        if any(ch not in "01" for ch in text):
            return None
        return sum((-2) ** i for i, ch in enumerate(reversed(text)) if ch == "1")
    if system == "balanced_ternary":
        table = {"1": 1, "0": 0, "T": -1, "t": -1}
        if any(ch not in table for ch in text):
            return None
        return sum(table[ch] * 3**i for i, ch in enumerate(reversed(text)))
    if any(ch not in "01" for ch in text):
        return None
    places = _fibonacci_places(2 ** min(len(text), MAX_DIGITS))
    return sum(places[i] for i, ch in enumerate(reversed(text)) if ch == "1")


def _read_representation(text: str) -> str | None:
    s = strip_wrappers(text).strip().replace("\\text{", "").replace("\\mathrm{", "").replace("}", "")
    s = s.replace(" : ", ":").replace(": ", ":")
    return s if s and len(s) <= MAX_DIGITS and all(ch.isascii() and (ch.isalnum() or ch == ":") for ch in s) else None


@register
class NumeralSystems(Task):
    id = "sequences/numeral_systems"
    family = "sequences"
    description = "Convert to and from negabinary, balanced ternary, factoradic, Zeckendorf and bijective base 26."
    tags = ("math", "numerals")
    version = 2  # v2: level 1 numbers up to 2,000 (was 1,000: about 10,000 problems, 94% distinct in 1,000 draws)

    @dataclass(frozen=True)
    class Config:
        systems: int  # the first this many SYSTEMS are drawn
        largest: int  # the largest number converted

    presets = (Config(2, 200), Config(4, 2000), Config(5, 10_000), Config(5, 10**6), Config(5, 10**9))
    growth = Growth(factors={"largest": 10}, limits={"systems": len(SYSTEMS)})

    def space_size(self, level: int) -> int | None:
        """Level 0: two unsigned systems, two directions, the numbers 1 to 200 (uniform draws)."""
        return 2 * 2 * 200 if level == 0 else None

    def generate(self, rng: random.Random, config: Config) -> Problem:
        system = rng.choice(SYSTEMS[: config.systems])
        signed = system in ("negabinary", "balanced_ternary")
        n = rng.randint(-config.largest // 2, config.largest) if signed else rng.randint(1, config.largest)
        if n == 0:
            n = config.largest
        direction = rng.choice(("to", "from"))
        definition = DEFINITIONS[system]
        representation = encode(system, n)
        if direction == "to":
            prompt = (f"Write the number {n} in {definition}.\n\nGive the canonical form (no leading zeros"
                      + ("; no two adjacent 1s" if system == "zeckendorf" else "")
                      + f"), for example: {EXAMPLES[system]}")
            answer = representation
        else:
            prompt = (f"The numeral {representation} is written in {definition}. What number is it?\n\n"
                      "Give the number in ordinary decimal digits, for example: -1234")
            answer = str(n)
        return Problem(prompt=prompt, answer=answer,
                       data={"system": system, "direction": direction, "value": n, "representation": representation})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        data = problem.data
        if not isinstance(answer, str) or len(answer) > 2 * MAX_DIGITS:
            return Verdict.unparsed("expected one number or numeral")
        if data["direction"] == "from":
            found = read_integer(answer)
            if found is None:
                return Verdict.unparsed("expected the number in decimal digits, such as -1234")
            return Verdict.judge(found == data["value"], "right" if found == data["value"] else "not its value")
        written = read_answer(answer, lambda text: _read_representation(_without_base(text, data["system"],
                                                                                      data["value"])),
                              units=BASE_PHRASES[data["system"]])
        value = decode(data["system"], written) if written is not None else None
        if written is None or value is None:
            return Verdict.unparsed(f"expected a numeral of this system, such as {EXAMPLES[data['system']]}")
        canonical = data["representation"]
        if (written.upper() if data["system"] in ("bijective26", "balanced_ternary") else written) == canonical:
            return Verdict.right()
        if value == data["value"]:
            return Verdict.wrong("the right value, but not the canonical form (no leading zeros"
                                 + ("; no two adjacent 1s)" if data["system"] == "zeckendorf" else ")"))
        return Verdict.wrong("not the numeral of that number")

    def difficulty(self, problem: Problem) -> float:
        """Four per decimal digit of the number (each adds a place or more in every system) and twice the
        system's weight. (The representation's length is not counted: it differs fivefold between systems.)"""
        data = problem.data
        return float(4 * len(str(abs(data["value"]))) + 2 * WEIGHT[data["system"]])

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        extra = [gold.lower()] if problem.data["system"] == "bijective26" and problem.data["direction"] == "to" else []
        if problem.data["direction"] == "to":
            label = BASE_LABELS[problem.data["system"]][0]
            extra += [f"{problem.data['value']} = {gold}", f"{gold}_{{{label}}}", f"({gold})_{{{label}}}",
                      f"{gold} {BASE_PHRASES[problem.data['system']][0]}"]
        return [*super().spellings(problem), f"\\boxed{{{gold}}}", f"{gold}.", f"Answer: {gold}", f"`{gold}`", *extra]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        n, system = data["value"], data["system"]
        if data["direction"] == "from":
            return [str(n + 1), str(-n), f"{n} or {n + 1}"]
        near = n + 1 if encode(system, n + 1) != data["representation"] else n + 2
        wrong = [encode(system, near), f"{data['representation']} or {encode(system, near)}"]
        if system in ("negabinary", "zeckendorf"):
            wrong.append("0" + data["representation"])  # a leading zero: not canonical
        if system == "zeckendorf" and "100" in data["representation"]:
            # F(k) = F(k-1) + F(k-2): the same value with two adjacent 1s, not the canonical form
            wrong.append(data["representation"].replace("100", "011", 1).lstrip("0"))
        return [w for w in wrong if w != data["representation"]]
