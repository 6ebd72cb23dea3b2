"""Mastermind deduction: from a given history of guesses and their scores, name the only code that fits.

A secret code of L digits from 1..C (repeats allowed) is drawn. Guesses are added one at a time,
some random and some chosen among the codes still consistent (as a player would), each scored
as usual: exact = right digit in the right place, partial = right digit in the wrong place
(each digit of the secret counted once). After each guess every code still consistent with all
scores is kept (a vectorised filter over all C^L codes); the history stops when only the secret
is left, and guesses that rule nothing out or hit the secret are not used. So exactly one code
fits the history (single-turn; the interactive game is ``games/mastermind``). Histories are redrawn
until reading half of each score leaves at least six codes: the exact counts alone named the code
in 0.43/0.16 of levels 0/2 and the totals alone (positions ignored) in 0.24 of level 0 before
version 3.

The answer is the code, e.g. ``3142`` (``3 1 4 2`` and ``3, 1, 4, 2`` are read too).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import cache
from math import log2

import numpy as np

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.generators.mastermind import score
from palaestra.verifiers.normalize import read_answer, strip_wrappers, unify

_MAX_GUESSES = 14
_HALF_READING_FITS = 6  # codes left when a score is half read: a lazy reader names the code 1 time in 6 at most
_SEPARATORS = re.compile(r"[\s,;\-]+")
_LEAD_IN = re.compile(r"^(?:the\s+)?(?:secret\s+)?code\s*(?:is\b|:|=)\s*", re.IGNORECASE)


@register
class MastermindDeduce(Task):
    id = "deduction/mastermind_deduce"
    version = 3
    family = "deduction"
    description = "Deduce the secret Mastermind code from a given history of guesses and scores (one code fits)."
    tags = ("logic", "deduction", "code-breaking")

    @dataclass(frozen=True)
    class Config:
        length: int
        digits: int

    presets = (
        Config(length=3, digits=4),
        Config(length=4, digits=5),
        Config(length=4, digits=6),
        Config(length=5, digits=6),
        Config(length=5, digits=8),
    )
    bounded = "past the presets its generator or oracle gets too slow (the levels 5-9 check did not finish in 40 s on a busy machine)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        secret, history = retry(lambda: _draw(rng, config), what="a history that pins the code down")
        lines = [f"Guess {i}: {''.join(map(str, g))} -> {e} exact, {p} partial" for i, (g, e, p) in
                 enumerate(history, 1)]
        example = "".join(str((i % config.digits) + 1) for i in range(config.length))  # whatever the answer
        prompt = (
            f"A secret code has {config.length} digits, each from 1 to {config.digits} (digits may repeat). Each "
            "guess below was scored: exact counts digits that are right and in the right place; partial counts "
            "digits that appear in the code but in another place (each digit of the code is matched at most "
            "once, exact matches first).\n\n" + "\n".join(lines)
            + f"\n\nExactly one code fits every score. What is it? Answer with the {config.length} digits, for "
            f"example: {example}"
        )
        data = {"length": config.length, "digits": config.digits,
                "history": [[list(g), e, p] for g, e, p in history], "secret": list(secret)}
        return Problem(prompt=prompt, answer="".join(map(str, secret)), data=data)

    def difficulty(self, problem: Problem) -> float:
        """Bits of the code space plus the guesses to combine."""
        data = problem.data
        return data["length"] * log2(data["digits"]) + len(data["history"])

    def verify(self, problem: Problem, answer: str) -> Verdict:
        data = problem.data
        code = read_answer(answer, lambda s: _read_code(s, data["length"], data["digits"]))
        if code is None:
            return Verdict.unparsed(f"expected {data['length']} digits from 1 to {data['digits']}")
        for guess, exact, partial in data["history"]:
            if score(guess, code) != (exact, partial):
                return Verdict.wrong(f"the guess {''.join(map(str, guess))} would not score {exact} exact, {partial} partial")
        return Verdict.right()

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), " ".join(gold), ", ".join(gold), f"**{gold}**", f"{gold}.",
                f"The code is {gold}.", f"Code: {gold}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold = problem.answer or ""
        i = rng.randrange(len(gold))
        changed = gold[:i] + str(int(gold[i]) % problem.data["digits"] + 1) + gold[i + 1:]
        rotated = gold[1:] + gold[0]
        guesses = ["".join(map(str, g)) for g, _, _ in problem.data["history"]]
        return [w for w in (changed, rotated, guesses[-1], gold[:-1], f"{gold} or {changed}", f"{gold}\n{changed}",
                            f"The code is {gold}. Actually {changed}.") if w != gold]


def _read_code(text: str, length: int, digits: int) -> list[int] | None:
    body = _LEAD_IN.sub("", strip_wrappers(unify(text)).strip())
    body = strip_wrappers(body).strip().strip("[](){}").strip()
    if len(body) > 4 * length + 10:
        return None
    compact = _SEPARATORS.sub("", body)
    if len(compact) != length or not compact.isdecimal():  # isdigit() holds for "³", which int() refuses
        return None
    code = [int(ch) for ch in compact]
    return code if all(1 <= d <= digits for d in code) else None


@cache
def _all_codes(length: int, digits: int) -> tuple[np.ndarray, np.ndarray]:
    """Every code (rows) and, per code, how often each digit occurs; stored column by column (Fortran order)
    because the scores below read one position or one digit at a time."""
    grids = np.indices((digits,) * length).reshape(length, -1).T + 1
    counts = np.stack([(grids == d).sum(axis=1) for d in range(1, digits + 1)], axis=1)
    return np.asfortranarray(grids, dtype=np.int8), np.asfortranarray(counts, dtype=np.int8)


def _scores(codes: np.ndarray, counts: np.ndarray, guess: tuple[int, ...], digits: int) -> tuple[np.ndarray, np.ndarray]:
    """(exact, partial) of ``guess`` against every code, summed one position and one guessed digit at a time
    (a digit the guess lacks adds nothing to the common count)."""
    exact = np.zeros(len(codes), dtype=np.int8)
    for position, digit in enumerate(guess):
        exact += codes[:, position] == digit
    common = np.zeros(len(codes), dtype=np.int8)
    for digit in sorted(set(guess)):
        common += np.minimum(counts[:, digit - 1], guess.count(digit))
    return exact, common - exact


def _half_readings_stay_open(scored: list, history: list) -> bool:
    """Whether reading only the exact counts, or only each score's total (exact + partial, positions
    ignored), leaves at least ``_HALF_READING_FITS`` codes, so half of each score does not name the code.
    ``scored`` holds each guess's (exact, partial) against every code, as ``_scores`` gave them."""
    exact_fits = total_fits = np.ones(len(scored[0][0]), dtype=bool)
    for (got_exact, got_partial), (_, exact, partial) in zip(scored, history, strict=True):
        exact_fits = exact_fits & (got_exact == exact)
        total_fits = total_fits & (got_exact + got_partial == exact + partial)
    return bool(min(np.count_nonzero(exact_fits), np.count_nonzero(total_fits)) >= _HALF_READING_FITS)


def _draw(rng: random.Random, config: MastermindDeduce.Config) -> tuple[tuple[int, ...], list] | None:
    length, digits = config.length, config.digits
    codes, counts = _all_codes(length, digits)
    secret = tuple(rng.randint(1, digits) for _ in range(length))
    alive = np.ones(len(codes), dtype=bool)
    history: list = []
    scored: list[tuple[np.ndarray, np.ndarray]] = []
    for _ in range(4 * _MAX_GUESSES):  # draws, some of them skipped
        if len(history) >= _MAX_GUESSES:
            return None
        consistent = np.flatnonzero(alive)
        if len(consistent) == 1:
            return (secret, history) if _half_readings_stay_open(scored, history) else None
        if rng.random() < 0.5:
            guess = tuple(int(v) for v in codes[consistent[rng.randrange(len(consistent))]])
        else:
            guess = tuple(rng.randint(1, digits) for _ in range(length))
        if guess == secret:
            continue
        exact, partial = score(guess, secret)
        got_exact, got_partial = _scores(codes, counts, guess, digits)
        keep = alive & (got_exact == exact) & (got_partial == partial)
        if np.count_nonzero(keep) == np.count_nonzero(alive):
            continue  # rules nothing out
        alive = keep
        history.append((guess, exact, partial))
        scored.append((got_exact, got_partial))
    return None
