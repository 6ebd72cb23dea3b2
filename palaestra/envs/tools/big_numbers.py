"""Exact computations on huge integers with a sandboxed Python interpreter.

Questions about numbers of dozens to thousands of digits, far beyond mental or paper
arithmetic: the digit sum of a product ``p x ... x q``, of a Fibonacci number ``F(n)`` or of a binomial coefficient
``C(n, k)``, the number of digits of ``a^b``, the last ``k`` digits of ``a^(b^c)`` or ``a^(b^c) mod m``
(an exponent of thousands of digits; the base of a last-digits question is never a multiple of 10, whose
last digits would all be zeros). The model computes them with the python tool (arbitrary-precision integers)
and answers with the exact integer (thousands separators allowed; for last digits, the digits as
written, leading zeros optional). Levels grow the numbers. The difficulty is the base-10 logarithm
of the number of digits of the largest number involved (for modular powers, the exponent).

Generation speed: about 660 problems/s at level 4 on this 2-core machine. The reference answer is
computed exactly with Python integers of thousands of digits (a binomial coefficient, a product of a
range, a Fibonacci number or a modular power with a huge exponent) and converted to decimal for its digit
sum or count; that exact arithmetic is the point of the task, and it is nearly all the time.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.tools.common import ToolTask, counted_units, tool_call
from palaestra.verifiers.numeric import grade_number

KINDS = ("product_digit_sum", "fibonacci_digit_sum", "binomial_digit_sum", "power_digit_count",
         "power_last_digits", "power_mod")
_STR_LIMIT = 10**4000  # below this, str() needs no raised digit limit


@register
class BigNumbers(ToolTask):
    id = "tools/big_numbers"
    family = "tools"
    description = "Compute exact facts about huge integers (digit sums, digit counts, last digits) with Python."
    tags = ("tools", "multi-turn", "python", "arithmetic", "big-integers")
    tool_names = ("python",)
    version = 3  # v3: no base that is a multiple of 10 for the last digits (the answer was 0)

    @dataclass(frozen=True)
    class Config:
        digits: tuple[int, int]  # range of the digit count of the largest number involved

    presets = (
        Config((40, 120)),
        Config((150, 400)),
        Config((500, 1500)),
        Config((2000, 4000)),
        Config((4500, 8000)),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(KINDS)
        target = rng.randint(*config.digits)
        params, text = _draw(kind, target, rng)
        answer, size = _solve(kind, params)
        example = "4096"  # a fixed placeholder: independent of the answer
        prompt = (
            f"{text}\n\nThe numbers are far too large to handle by hand: use the python tool (Python integers are "
            f"exact and unbounded). Answer with the exact integer, e.g. <answer>{example}</answer>.\n\n"
            f"{self.tools_prompt(4)}"
        )
        data = {"kind": kind, "params": params, "size": size, "budget": 4}
        return Problem(prompt=prompt, answer=str(answer), data=data)

    def difficulty(self, problem: Problem) -> float:
        return math.log10(problem.data["size"])

    def judge(self, problem: Problem, answer: str) -> Verdict:
        verdict = grade_number(answer, int(problem.answer or 0), units=counted_units(problem.prompt))
        if verdict is None:
            return Verdict.unparsed("not an integer")
        return Verdict.judge(verdict)

    def plan(self, problem: Problem) -> list[str]:
        return [tool_call("python", code=_code(problem.data["kind"], problem.data["params"])), problem.answer or ""]

    def spellings(self, problem: Problem) -> list[str]:
        value = int(problem.answer or 0)
        spelled = [f"{value:,}", f"{value}."]
        if problem.data["kind"] == "power_last_digits":
            spelled.append(str(value).rjust(problem.data["params"]["k"], "0"))
        return spelled

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value = int(problem.answer or 0)
        return [str(value + 1), str(value - 9), f"{value} or {value + 1}", f"about {value}"]


def _draw(kind: str, target: int, rng: random.Random) -> tuple[dict[str, Any], str]:
    """Parameters making the largest number about ``target`` digits, and the question."""
    if kind == "product_digit_sum":
        p = rng.randint(2, 60 + target // 10)
        q = _inverse(lambda m: _log10_range_product(p, m), target)
        return {"p": p, "q": q}, (f"What is the sum of the decimal digits of the product of all integers from {p} "
                                  f"to {q} ({p} x {p + 1} x ... x {q})?")
    if kind == "fibonacci_digit_sum":
        n = max(10, round(target / math.log10((1 + 5**0.5) / 2))) + rng.randint(0, 9)
        return {"n": n}, (f"The Fibonacci numbers are F(0) = 0, F(1) = 1, F(n) = F(n-1) + F(n-2). What is the sum "
                          f"of the decimal digits of F({n})?")
    if kind == "binomial_digit_sum":
        k_share = rng.uniform(0.2, 0.5)
        n = _inverse(lambda m: _log10_binomial(m, int(m * k_share)), target)
        k = int(n * k_share)
        return {"n": n, "k": k}, (f"What is the sum of the decimal digits of the binomial coefficient C({n}, {k}) "
                                  f"(the number of ways to choose {k} items out of {n})?")
    if kind == "power_digit_count":
        a = rng.randint(3, 999)
        b = max(2, round(target / math.log10(a))) + rng.randint(0, 50)
        return {"a": a, "b": b}, f"How many decimal digits does {a}^{b} ({a} to the power {b}) have?"
    a, b = rng.randint(2, 99), rng.randint(2, 30)
    c = max(2, round(target / math.log10(b))) + rng.randint(0, 9)  # b^c, the exponent, has about target digits
    if kind == "power_last_digits":
        if a % 10 == 0:  # a multiple of 10 to a huge power ends in zeros: "0" would score without computing
            a += rng.randint(1, 9)
        k = rng.randint(8, 16)
        return {"a": a, "b": b, "c": c, "m": 10**k, "k": k}, (
            f"What are the last {k} decimal digits of {a}^({b}^{c}), {a} to the power {b}^{c}? Give them as an "
            "integer (leading zeros may be dropped).")
    m = rng.randint(10**6, 10**9)
    return {"a": a, "b": b, "c": c, "m": m}, (f"What is {a}^({b}^{c}) mod {m}, the remainder of {a} to the power "
                                              f"{b}^{c} divided by {m}?")


def _inverse(size: Any, target: int) -> int:
    """The smallest ``m`` with ``size(m) >= target`` (a bisection on an increasing function)."""
    low, high = 2, 2
    for _ in range(64):
        if size(high) >= target:
            break
        high *= 2
    for _ in range(64):
        if low >= high:
            break
        middle = (low + high) // 2
        low, high = (middle + 1, high) if size(middle) < target else (low, middle)
    return low


def _log10_range_product(p: int, q: int) -> float:
    """log10 of p x (p + 1) x ... x q (0 when q < p)."""
    return (math.lgamma(q + 1) - math.lgamma(p)) / math.log(10) if q >= p else 0.0


def _log10_binomial(n: int, k: int) -> float:
    return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)) / math.log(10)


def _solve(kind: str, p: dict[str, Any]) -> tuple[int, int]:
    """(the answer, the digit count of the largest number involved), computed exactly."""
    if kind == "product_digit_sum":
        value = math.prod(range(p["p"], p["q"] + 1))
    elif kind == "fibonacci_digit_sum":
        value = _fibonacci(p["n"])
    elif kind == "binomial_digit_sum":
        value = math.comb(p["n"], p["k"])
    elif kind == "power_digit_count":
        digits = _digit_count(p["a"], p["b"])
        return digits, digits
    else:  # a modular power: the exponent b^c is the big number
        exponent = p["b"] ** p["c"]
        return pow(p["a"], exponent, p["m"]), math.floor(p["c"] * math.log10(p["b"])) + 1
    text = _decimal(value)
    return sum(map(int, text)), len(text)


def _fibonacci(n: int) -> int:
    """F(n) by fast doubling."""
    a, b = 0, 1  # F(0), F(1)
    for bit in bin(n)[2:]:
        a, b = a * (2 * b - a), a * a + b * b  # F(2k), F(2k+1)
        if bit == "1":
            a, b = b, a + b
    return a


def _digit_count(a: int, b: int) -> int:
    """Decimal digits of a^b, exactly (the logarithm's floor, checked with integers at the boundary)."""
    estimate = math.floor(b * math.log10(a)) + 1
    power = a**b
    for digits in (estimate - 1, estimate, estimate + 1):
        if 10 ** (digits - 1) <= power < 10**digits:
            return digits
    raise ArithmeticError("digit count estimate off by more than one")


def _decimal(n: int) -> str:
    """``str(n)`` for any size (divide and conquer, without raising the interpreter's digit limit)."""
    if n < _STR_LIMIT:
        return str(n)
    half = (n.bit_length() * 30103 // 100000) // 2
    high, low = divmod(n, 10**half)
    return _decimal(high) + _decimal(low).rjust(half, "0")


def _code(kind: str, p: dict[str, Any]) -> str:
    """The oracle's program."""
    if kind == "product_digit_sum":
        return f"import math\nsum(map(int, str(math.prod(range({p['p']}, {p['q']} + 1)))))"
    if kind == "fibonacci_digit_sum":
        return (f"a, b = 0, 1\nfor _ in range({p['n']}):\n    a, b = b, a + b\n"
                "sum(map(int, str(a)))")
    if kind == "binomial_digit_sum":
        return f"import math\nsum(map(int, str(math.comb({p['n']}, {p['k']}))))"
    if kind == "power_digit_count":
        return f"len(str({p['a']} ** {p['b']}))"
    return f"pow({p['a']}, {p['b']} ** {p['c']}, {p['m']})"
