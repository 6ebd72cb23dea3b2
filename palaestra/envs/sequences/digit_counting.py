"""Counting digits in written-out number sequences: page numbering, digit tallies and the N-th digit.

Three classic puzzles, all answered exactly by counting in blocks of equal length:

- *pages*: a book's pages are numbered from 1 and the numbering used D digits; how many pages? (The digits
  used grow strictly with the pages, so D names one book.)
- *tally*: how many times the digit d is written when the whole numbers from 1 to N are written out (0 is
  never a leading digit);
- *nth digit*: the whole numbers from 1, or the multiples of k, are written one after another without
  separators (123456789101112...); which three digits stand at positions N, N + 1 and N + 2? (Three, so that
  a constant digit does not pay.)

The generator computes each answer by block arithmetic (how many numbers have each length) and, in the tests,
it is checked against writing the sequence out. Level 0 draws N from 10 to 3,999 (a wide range, so that its
page puzzles, one per N, stay distinct); levels grow the numbers tenfold past the presets and add the
multiples-of-k variant. Difficulty: the digits of the number that sets the size (N or D), plus the kind's
steps (pages 1, tally 2, nth digit 2, of multiples 3).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.verifiers.normalize import read_answer, strip_wrappers
from palaestra.verifiers.numeric import read_integer

EXAMPLE = "1234"  # fixed placeholders of the right shapes: never derived from the answer
EXAMPLE_DIGITS = "093"
KIND_STEPS = {"pages": 1, "tally": 2, "nth_digit": 2, "nth_digit_multiples": 3}


def digits_used(pages: int) -> int:
    """Digits written to number the pages 1..pages."""
    total, length, start = 0, 1, 1
    while start <= pages:  # bounded by the digits of pages
        end = min(pages, 10 * start - 1)
        total += (end - start + 1) * length
        start, length = 10 * start, length + 1
    return total


def tally(n: int, d: int) -> int:
    """How many times digit d is written in 1..n (no leading zeros)."""
    count, place = 0, 1
    while place <= n:  # bounded by the digits of n
        higher, current, lower = n // (place * 10), (n // place) % 10, n % place
        if d == 0:
            if higher == 0:
                break
            count += (higher - 1) * place + (place if current > 0 else lower + 1)
        else:
            count += higher * place + (place if current > d else lower + 1 if current == d else 0)
        place *= 10
    return count


def nth_digit(position: int, step: int = 1) -> int:
    """The digit at ``position`` (from 1) of the multiples of ``step`` written one after another."""
    length, start = 1, 1
    while True:  # bounded: position shrinks by each block it skips
        first = -(-start // step) * step
        last = (10 * start - 1) // step * step
        count = (last - first) // step + 1 if last >= first else 0
        if position <= count * length:
            number = first + (position - 1) // length * step
            return int(str(number)[(position - 1) % length])
        position -= count * length
        start, length = 10 * start, length + 1


def _read_digits(text: str) -> str | None:
    """Three digits written together (``093``) or separated by commas or spaces (``0, 9, 3``)."""
    s = strip_wrappers(text).strip()
    for separator in (", ", ",", " "):
        s = s.replace(separator, "")
    return s if len(s) == 3 and s.isascii() and s.isdigit() else None


@register
class DigitCounting(Task):
    id = "sequences/digit_counting"
    family = "sequences"
    description = "Page numbering, digit tallies and the N-th digit of written-out number sequences."
    tags = ("math", "counting")
    version = 2  # v2: level 0 draws N from 10..3,999 (was 100..999: only 900 page puzzles, 86% distinct problems)

    @dataclass(frozen=True)
    class Config:
        smallest: int  # the smallest N (pages, tally bound or digit position)
        largest: int  # the largest N
        kinds: tuple[str, ...]

    presets = (Config(10, 3_999, ("pages", "tally")), Config(1_000, 9_999, ("pages", "tally", "nth_digit")),
               Config(10_000, 99_999, ("pages", "tally", "nth_digit")),
               Config(100_001, 10**6, ("tally", "nth_digit", "nth_digit_multiples")),
               Config(10**7 + 1, 10**8, ("tally", "nth_digit", "nth_digit_multiples")))
    growth = Growth(factors={"smallest": 10, "largest": 10})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(config.kinds)
        n = rng.randint(config.smallest, config.largest)
        step = 1
        if kind == "pages":
            size = digits_used(n)
            question = (f"The pages of a book are numbered 1, 2, 3, ... and printing all the page numbers used "
                        f"{size} digits in total. How many pages does the book have?")
            count = n
        elif kind == "tally":
            d = rng.randrange(10)
            size = n
            question = (f"All the whole numbers from 1 to {n} are written out in ordinary decimal digits (no leading "
                        f"zeros). How many times is the digit {d} written in total?")
            count = tally(n, d)
        else:
            size = n
            if kind == "nth_digit_multiples":
                step = rng.randint(3, 19)
                what = f"the positive multiples of {step} ({step}, {2 * step}, {3 * step}, ...)"
            else:
                what = "the positive whole numbers (1, 2, 3, ...)"
            question = (f"Write {what} one after another without separators, making one long string of digits. "
                        f"Counting from 1 at the left, which three digits stand at positions {n}, {n + 1} and "
                        f"{n + 2}?")
            digits = "".join(str(nth_digit(n + i, step)) for i in range(3))
            prompt = f"{question}\n\nGive the three digits in order, for example: {EXAMPLE_DIGITS}"
            return Problem(prompt=prompt, answer=digits,
                           data={"kind": kind, "size": size, "n": n, "step": step, "answer": digits})
        prompt = f"{question}\n\nGive a whole number, for example: {EXAMPLE}"
        return Problem(prompt=prompt, answer=str(count),
                       data={"kind": kind, "size": size, "n": n, "step": step, "answer": count})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if not isinstance(answer, str) or len(answer) > 200:
            return Verdict.unparsed("expected one whole number")
        if problem.data["kind"].startswith("nth_digit"):
            digits = read_answer(answer, _read_digits)
            if digits is None:
                return Verdict.unparsed(f"expected three digits in order, such as {EXAMPLE_DIGITS}")
            return Verdict.judge(digits == problem.data["answer"],
                                 "right" if digits == problem.data["answer"] else "not the digits at those positions")
        found = read_integer(answer)
        if found is None:
            return Verdict.unparsed(f"expected one whole number, such as {EXAMPLE}")
        return Verdict.judge(found == problem.data["answer"],
                             "right" if found == problem.data["answer"] else "not the count asked for")

    def difficulty(self, problem: Problem) -> float:
        """Twice the digits of the size-setting number plus the kind's steps."""
        data = problem.data
        return float(2 * len(str(data["size"])) + KIND_STEPS[data["kind"]])

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), f"\\boxed{{{gold}}}", f"{gold}.", f"Answer: {gold}",
                f"**{gold}**"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value = problem.data["answer"]
        if isinstance(value, str):  # three digits
            shifted = str((int(value[-1]) + 1) % 10)
            return [value[:-1] + shifted, value[:2], f"{value} or {value[:-1] + shifted}"]
        return [str(value + 1), str(value - 1) if value > 0 else str(value + 2), f"{value} or {value + 1}"]
