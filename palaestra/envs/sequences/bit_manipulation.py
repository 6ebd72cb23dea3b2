"""Bit manipulation: trace a chain of bit operations on a fixed-width unsigned value, or find the value with
given bit properties.

Kinds: a *chain* starts from a w-bit value and applies generated steps in order (AND/OR/XOR with a constant,
logical shifts that drop the bits shifted out, rotations, NOT, x XOR (x >> s), clearing or isolating the lowest
set bit, adding a constant modulo 2^w, reversing the w bits, ); every step
changes the value, so no step is a no-op. From level 2 the property questions join it: the next larger number
with the same number of 1 bits, the number whose w-bit Gray code is given, and the value whose bits are listed
by position. Each has exactly one answer, computed with Python integers.

Answers are whole numbers in decimal, or in hexadecimal or binary with a ``0x``/``0b`` prefix (``0x1F``,
``0b11111`` and ``31`` are the same answer). Difficulty: the steps' effort (bitwise 1; shifts, rotations and
lowest-bit tricks 2; carries, xorshift and reversal 3), a quarter of the width, a quarter of the start value's 1
bits, and six for a property question (the inverse direction).

Version 2: the next-same-popcount question draws only values whose lowest block of 1 bits holds two or more, so the
half of Gosper's rule that moves the lowest 1 bit up one place (n + (n & -n); n + 1 for a value ending in 01) is
never the answer: version 1 paid it 45% of those questions, 0.10 of levels 3 and 4 (n + 1 alone 0.07).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.normalize import read_answer, strip_wrappers
from palaestra.verifiers.numeric import read_integer

EXAMPLE = "0x2A (or 42, or 0b101010)"  # a fixed placeholder of the right shape: never derived from the answer
STEP_KINDS = ("and", "or", "xor", "shl", "shr", "rotl", "rotr", "not", "xorshift", "clear_lowest", "isolate_lowest",
              "add", "reverse")
# Effort per step: a plain bitwise step 1; shifts, rotations and lowest-bit tricks 2; carries, xorshift, reversal 3.
STEP_WEIGHT = {"and": 1, "or": 1, "xor": 1, "not": 1, "shl": 2, "shr": 2, "rotl": 2, "rotr": 2, "clear_lowest": 2,
               "isolate_lowest": 2, "add": 3, "xorshift": 3, "reverse": 3}
PROPERTY_KINDS = ("next_same_popcount", "gray_decode", "from_bits")


def _hex(value: int, width: int) -> str:
    return f"0x{value:0{width // 4}X}"


def apply(step: list, x: int, width: int) -> int:
    kind, c = step
    mask = (1 << width) - 1
    if kind == "and":
        return x & c
    if kind == "or":
        return x | c
    if kind == "xor":
        return x ^ c
    if kind == "shl":
        return (x << c) & mask
    if kind == "shr":
        return x >> c
    if kind == "rotl":
        return ((x << c) | (x >> (width - c))) & mask
    if kind == "rotr":
        return ((x >> c) | (x << (width - c))) & mask
    if kind == "not":
        return ~x & mask
    if kind == "xorshift":
        return x ^ (x >> c)
    if kind == "clear_lowest":
        return x & (x - 1)
    if kind == "isolate_lowest":
        return x & -x
    if kind == "add":
        return (x + c) & mask
    return int(f"{x:0{width}b}"[::-1], 2)  # reverse


def describe(step: list, width: int) -> str:
    kind, c = step
    return {
        "and": f"x = x AND {_hex(c, width)}", "or": f"x = x OR {_hex(c, width)}", "xor": f"x = x XOR {_hex(c, width)}",
        "shl": f"x = x << {c} (bits shifted past bit {width - 1} are lost)", "shr": f"x = x >> {c} (logical shift)",
        "rotl": f"x = x rotated left by {c} bits", "rotr": f"x = x rotated right by {c} bits",
        "not": "x = NOT x (flip all bits)", "xorshift": f"x = x XOR (x >> {c})",
        "clear_lowest": "x = x AND (x - 1) (clear the lowest set bit)",
        "isolate_lowest": "x = x AND (-x) (keep only the lowest set bit)",
        "add": f"x = (x + {c}) mod 2^{width}", "reverse": f"x = the {width} bits of x in reverse order",
    }[kind]


def next_same_popcount(n: int) -> int:
    """The smallest number larger than n with as many 1 bits (n > 0)."""
    lowest = n & -n
    ripple = n + lowest
    return ripple | (((n ^ ripple) >> 2) // lowest)


def gray_decode(g: int) -> int:
    n = 0
    while g:  # bounded by the bit length of g
        n ^= g
        g >>= 1
    return n


def _read_value(text: str) -> int | None:
    """One value, also written twice in two notations that agree (``4 (0x04)``, ``0b100 (= 4)``): the same number, as
    a careful grader reads it; two notations that disagree are unreadable."""
    single = _read_single(text)
    if single is not None or not isinstance(text, str):
        return single
    s = strip_wrappers(text).strip()
    if s.endswith(")") and s.count("(") == 1:
        first, second = s[:-1].split("(")
        second = second.strip()
        base = 0
        for lead in ("=", "i.e.", "binary", "hex", "hexadecimal", "decimal", "in binary", "in hex", "in decimal"):
            if second.lower().startswith(lead + " ") or (lead == "=" and second.startswith("=")):
                second = second[len(lead):].strip()
                base = {"binary": 2, "in binary": 2, "hex": 16, "hexadecimal": 16, "in hex": 16}.get(lead, 0)
                break
        digits = "0123456789abcdef"[:base]
        a = _read_single(first)
        b = int(second, base) if base and 0 < len(second) <= 64 and all(ch in digits for ch in second.lower()) \
            else _read_single(second)
        if a is not None and a == b:
            return a
    return None


def _read_single(text: str) -> int | None:
    s = strip_wrappers(text).strip().replace("_", "").replace("\\_", "")
    if "=" in s and len(s) <= 200:  # x = 0x2A, or the value twice in notations that agree: 42 = 0x2A
        parts = [part.strip() for part in s.split("=")]
        if len(parts) > 1 and len(parts[0]) <= 30 and _read_single(parts[0]) is None and all(
                ch.isalnum() or ch in " _()" for ch in parts[0]):
            parts = parts[1:]  # a name: x = 0x2A, popcount(x) = 3
        if not parts or any("=" in part or not part for part in parts):
            return None
        values = {_read_single(part) for part in parts} if len(parts) > 1 or parts[0] != s else {None}
        return values.pop() if len(values) == 1 else None
    lowered = s.lower()
    if lowered.startswith(("0x", "0b")) and 2 < len(s) <= 70:
        digits = lowered[2:]
        base = 16 if lowered[1] == "x" else 2
        allowed = "0123456789abcdef"[:base]
        return int(digits, base) if all(ch in allowed for ch in digits) else None
    value = read_integer(s)
    return value if isinstance(value, int) and value >= 0 else None


@register
class BitManipulation(Task):
    id = "sequences/bit_manipulation"
    family = "sequences"
    description = "Trace a chain of bit operations on a w-bit value, or find the value with given bit properties."
    tags = ("math", "bits", "programming")
    version = 2

    @dataclass(frozen=True)
    class Config:
        width: int  # bits of the value
        steps: int  # steps of a chain
        properties: bool  # whether property questions are drawn too

    presets = (Config(8, 2, False), Config(8, 3, False), Config(16, 4, True), Config(16, 5, True), Config(32, 6, True))
    growth = Growth(steps={"steps": 1, "width": 8}, limits={"width": 64})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        width = config.width
        kind = rng.choice(["chain", "chain", *PROPERTY_KINDS]) if config.properties else "chain"
        if kind == "chain":
            return self._chain(rng, config)
        mask = (1 << width) - 1
        if kind == "next_same_popcount":
            def draw() -> int:
                return rng.randint(1, mask >> 1)

            # the lowest block of 1 bits holds two or more, so moving the lowest 1 bit up one place (n + (n & -n),
            # n + 1 when n ends in 01) is not the answer: the rest of the block must drop to the bottom
            n = retry(draw, lambda v: v & (v + 1) != 0 and v & ((v & -v) << 1) != 0 and next_same_popcount(v) <= mask,
                      attempts=100, what="a value whose next same-popcount number fits")
            value = next_same_popcount(n)
            question = (f"What is the smallest whole number larger than {n} ({_hex(n, width)}) whose binary form "
                        f"has exactly as many 1 bits as {n}?")
            operands = [n]
        elif kind == "gray_decode":
            value = rng.randint(1, mask)
            gray = value ^ (value >> 1)
            question = (f"The {width}-bit reflected binary Gray code of a number n is n XOR (n >> 1). Which n has the "
                        f"Gray code {_hex(gray, width)} (binary {gray:0{width}b})?")
            operands = [gray]
        else:
            value = rng.randint(1, mask)
            ones = [i for i in range(width) if value >> i & 1]
            question = (f"A {width}-bit number has 1 bits exactly at positions {', '.join(map(str, ones))} (position 0 "
                        "is the least significant bit) and 0 bits everywhere else. What is the number?")
            operands = ones
        prompt = f"{question}\n\nGive a whole number in decimal, or in hexadecimal or binary with a 0x or 0b prefix, " \
                 f"for example: {EXAMPLE}"
        return Problem(prompt=prompt, answer=str(value),
                       data={"kind": kind, "width": width, "value": value, "operands": operands, "steps": []})

    def _chain(self, rng: random.Random, config: Config) -> Problem:
        width = config.width
        mask = (1 << width) - 1

        def step_draw() -> list:
            kind = rng.choice(STEP_KINDS)
            if kind in ("and", "or", "xor"):
                return [kind, rng.randint(1, mask)]
            if kind in ("shl", "shr"):  # at most half the width, so the value keeps most of its bits
                return [kind, rng.randint(1, width // 2)]
            if kind in ("rotl", "rotr", "xorshift"):
                return [kind, rng.randint(1, width - 1)]
            if kind == "add":
                return [kind, rng.randint(1, mask)]
            return [kind, 0]

        def draw() -> tuple[int, list[list], int]:
            start = rng.randint(1, mask)
            x, steps = start, []
            for _ in range(config.steps):
                def changes(step: list, x: int = x) -> bool:
                    return apply(step, x, width) not in (x, 0)

                step = retry(step_draw, changes, attempts=50, what="a step that changes x")
                steps.append(step)
                x = apply(step, x, width)
            return start, steps, x

        start, steps, value = draw()
        listing = "\n".join(f"{i + 1}. {describe(s, width)}" for i, s in enumerate(steps))
        prompt = (
            f"x is an unsigned {width}-bit integer (every result is kept to {width} bits). It starts as "
            f"x = {_hex(start, width)} (binary {start:0{width}b}). Apply these steps in order:\n\n{listing}\n\n"
            "What is x at the end? Give a whole number in decimal, or in hexadecimal or binary with a 0x or 0b "
            f"prefix, for example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=str(value),
                       data={"kind": "chain", "width": width, "value": value, "operands": [start], "steps": steps})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if not isinstance(answer, str) or len(answer) > 300:
            return Verdict.unparsed("expected one whole number")
        found = read_answer(answer, _read_value)
        if found is None:
            return Verdict.unparsed(f"expected one whole number, such as {EXAMPLE}")
        if found != problem.data["value"]:
            return Verdict.wrong("not the value asked for")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """The steps' effort (see STEP_WEIGHT), a quarter of the width, the 1 bits of the start value over four,
        and for a property question six."""
        data = problem.data
        effort = sum(STEP_WEIGHT[kind] for kind, _ in data["steps"])
        ones = bin(data["operands"][0]).count("1") if data["kind"] != "from_bits" else len(data["operands"])
        return float(effort + data["width"] / 4 + ones / 4 + (6 if data["kind"] != "chain" else 0))

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def lowest_bit_up(problem: Problem) -> str:
            n = problem.data["operands"][0]
            return str(n + (n & -n)) if problem.data["kind"] == "next_same_popcount" else ""

        return {"move the lowest 1 bit up one place": lowest_bit_up}

    def spellings(self, problem: Problem) -> list[str]:
        value = problem.data["value"]
        width = problem.data["width"]
        return [*super().spellings(problem), hex(value), _hex(value, width), bin(value), f"0b{value:0{width}b}",
                f"\\boxed{{{value}}}", f"x = {value}", f"Answer: {hex(value)}.", f"x = {hex(value)}",
                f"{value} = {_hex(value, width)}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value = problem.data["value"]
        width = problem.data["width"]
        flipped = value ^ (1 << rng.randrange(width))
        return [str(flipped), str(value + 1), f"{value:b}" if f"{value:b}" != str(value) else str(value + 2),
                f"{value} or {flipped}", hex(flipped)]
