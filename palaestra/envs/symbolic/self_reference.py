"""Self-referential statements: which of these statements about the statements are true?

A numbered list of statements that speak about the list itself: how many of them are true or
false (at least, at most, exactly), whether that number is even, odd or prime, whether a given
statement is true or false, and "either this one or that one, not both". An assignment of truth
values is consistent when every statement is true exactly when what it says holds. Statements
are drawn until exactly one of the ``2 ** n`` assignments is consistent (checked by trying them
all), so the answer, the set of true statements, is unique. It is written as statement numbers
(``1, 4, 5``, any order) or ``none``.

Version 3: the draws make about half the statements true, so at level 0 (4 statements) two true ones answered
0.51 of the problems and each pair about 0.09-0.10 (500 seeds): a constant pair paid. The number of true
statements is now drawn first, k with chance C(n, k) / 2^n, and statements are drawn until their one consistent
assignment has k true (the draws are symmetric in the statements' numbers, so every set of k is then as likely):
every answer is about 1/2^n of its level, 1/16 at level 0. A count not met in 2,000 draws (all nine of level 4
true never is) gives way to any count.
"""

from __future__ import annotations

import bisect
import itertools
import random
import re
from dataclasses import dataclass
from functools import cache

from palaestra.core import GenerationError, Problem, Task, Verdict, register, retry
from palaestra.verifiers.numeric import read_integer
from palaestra.verifiers.sets import read_set

PRIMES = {2, 3, 5, 7, 11, 13}
_COUNT_DRAWS = 2_000  # draws tried for the drawn number of true statements (the rarest needed, 4 of 4, takes ~250)
_LEAD = re.compile(r"^\s*(?:(?:the\s+)?true(?:\s+statements?)?\s*(?::|=|are\b)|(?:the\s+true\s+)?statements?\s*:?)\s*",
                   re.IGNORECASE)
_ARE_TRUE = re.compile(r"\s+(?:are|is)\s+true\s*\.?\s*$", re.IGNORECASE)

_COUNT_KINDS = ("at least", "at most", "exactly", "exactly false", "at least false", "parity", "prime")

Statement = list  # ["at least", k], ["exactly false", k], ["is true", j], ["either", i, j], ["parity", "even"], ...


@register
class SelfReference(Task):
    id = "symbolic/self_reference"
    version = 3
    family = "symbolic"
    description = "Find the one consistent truth assignment of a list of statements about the list itself."
    tags = ("symbolic", "logic", "self-reference")

    @dataclass(frozen=True)
    class Config:
        statements: int
        references: float  # share of statements about other statements (not about counts)

    presets = (
        Config(statements=4, references=0.2),
        Config(statements=5, references=0.25),
        Config(statements=6, references=0.3),
        Config(statements=7, references=0.3),
        Config(statements=9, references=0.35),
    )
    bounded = "past the presets its generator or oracle gets too slow (the levels 5-9 check did not finish in 40 s on a busy machine)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.statements

        pools = [_statement_pool(n, i, config.references) for i in range(1, n + 1)]
        uniform = rng.random

        def draw() -> tuple[list[Statement], frozenset[int]] | None:
            keys = [pool[bisect.bisect(running, uniform() * total, 0, last)] for pool, running, total, last in pools]
            if len(set(keys)) < n:
                return None
            solutions = _consistent(keys)
            return ([list(key) for key in keys], solutions[0]) if len(solutions) == 1 else None

        # the number of true statements is drawn first, k with chance C(n, k) / 2^n (every answer as likely), since the
        # draws themselves give about half of them (0.51 of level 0 had two true: each pair answered 0.09); a count
        # that has not come up in _COUNT_DRAWS draws (all nine true is never the one consistent assignment) gives way
        wanted = sum(rng.random() < 0.5 for _ in range(n))
        try:
            statements, truth = retry(draw, accept=lambda drawn: len(drawn[1]) == wanted, attempts=_COUNT_DRAWS,
                                      what="statements with the drawn number of true ones")
        except GenerationError:
            statements, truth = retry(draw, what="statements with exactly one consistent assignment")
        listing = "\n".join(f"{i}. {_text(s)}" for i, s in enumerate(statements, 1))
        answer = ", ".join(map(str, sorted(truth))) or "none"
        prompt = (
            f"Consider these {n} statements, which speak about themselves:\n\n{listing}\n\n"
            "Each statement is either true or false, and it is true exactly when what it says holds. Exactly one "
            "assignment of true and false makes all of that consistent. Which statements are true? Give their "
            "numbers separated by commas (or none if no statement is true), for example: "
            + "2, 3"  # a fixed placeholder: independent of the answer
        )
        return Problem(prompt=prompt, answer=answer, data={"statements": statements})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        n = len(problem.data["statements"])
        said = _read_true_set(answer, n)
        if said is None:
            return Verdict.unparsed("expected statement numbers separated by commas, or none")
        solutions = consistent(problem.data["statements"])
        return Verdict.judge(len(solutions) == 1 and said == solutions[0])

    def difficulty(self, problem: Problem) -> float:
        """Statements (the assignments to weigh grow as two to that power), plus the kinds of statement."""
        statements = problem.data["statements"]
        return float(len(statements)) + len({s[0] for s in statements}) / 2

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        if gold == "none":
            return [*super().spellings(problem), "None", "no statement is true", "{}"]
        items = gold.split(", ")
        return [*super().spellings(problem), "{" + gold + "}", ", ".join(reversed(items)),
                ", ".join(f"statement {i}" for i in items), f"{gold}.",
                f"Statements {gold} are true.", f"True: {gold}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        n = len(problem.data["statements"])
        gold = problem.answer or ""
        truth = set() if gold == "none" else {int(i) for i in gold.split(", ")}
        flip = rng.randint(1, n)
        near = sorted(truth ^ {flip})
        everything = ", ".join(map(str, range(1, n + 1)))
        wrong = [", ".join(map(str, near)) or "none", f"{gold} or {flip}"]
        if truth != set(range(1, n + 1)):
            wrong.append(everything)
        return wrong


def _read_true_set(answer: str, n: int) -> frozenset[int] | set[int] | None:
    """The statement numbers written, also as a sentence: "Statements 1 and 4 are true." is {1, 4}."""
    def read(text: str):
        return read_set(text, lambda item: _statement_number(item, n), allow_empty=True,
                        empty_words=("no statement is true", "no statements are true", "all are false",
                                     "none of them", "none of the statements", "none of them are true",
                                     "none of the statements are true", "all statements are false",
                                     "all of them are false"))

    said = read(answer)
    if said is None and isinstance(answer, str) and len(answer) < 2_000:
        said = read(_ARE_TRUE.sub("", _LEAD.sub("", answer, count=1), count=1))
    if said is None:  # "1 3 4": the numbers separated by spaces only
        said = read_set(answer, lambda item: _statement_number(item, n), space_separated=True)
    return said


def _statement_number(item: str, n: int) -> int | None:
    text = item.strip().lower()
    for prefix in ("statement", "s", "#"):
        if text.startswith(prefix) and text[len(prefix) :].strip().isdigit():
            text = text[len(prefix) :].strip()
            break
    value = read_integer(text)
    return value if value is not None and 1 <= value <= n else None


@cache
def _statement_pool(n: int, me: int, references: float) -> tuple[list[tuple], list[float], float, int]:
    """The statements number ``me`` of ``n`` may be, the running total of their chances, the total
    and the last index (for one ``bisect`` per draw): with chance ``references`` one about other
    statements (is true, is false or either-not-both, each as likely; the statements referred to
    uniform), else one about the count of true statements (at least, at most, exactly true,
    exactly false, at least false, even/odd or prime/not prime, each as likely; k uniform in 0..n).

    >>> pool, running, total, last = _statement_pool(3, 1, 0.5)
    >>> ("either", 2, 3) in pool and ("is true", 1) not in pool, round(total, 9), last + 1 == len(pool)
    (True, 1.0, True)
    """
    others = [j for j in range(1, n + 1) if j != me]
    about = references / 3
    weighted = [((kind, j), about / len(others)) for kind in ("is true", "is false") for j in others]
    pairs = list(itertools.combinations(others, 2))
    weighted += [(("either", i, j), about / len(pairs)) for i, j in pairs]
    count = (1 - references) / len(_COUNT_KINDS)
    for kind in _COUNT_KINDS:
        if kind == "parity":
            weighted += [(("parity", parity), count / 2) for parity in ("even", "odd")]
        elif kind == "prime":
            weighted += [((prime,), count / 2) for prime in ("prime", "not prime")]
        else:
            weighted += [((kind, k), count / (n + 1)) for k in range(n + 1)]
    running = list(itertools.accumulate(chance for _, chance in weighted))
    return [statement for statement, _ in weighted], running, running[-1], len(weighted) - 1


def holds(statement: Statement, true: frozenset[int], n: int) -> bool:
    count = len(true)
    kind = statement[0]
    if kind == "at least":
        return count >= statement[1]
    if kind == "at most":
        return count <= statement[1]
    if kind == "exactly":
        return count == statement[1]
    if kind == "exactly false":
        return n - count == statement[1]
    if kind == "at least false":
        return n - count >= statement[1]
    if kind == "parity":
        return count % 2 == (0 if statement[1] == "even" else 1)
    if kind == "prime":
        return count in PRIMES
    if kind == "not prime":
        return count not in PRIMES
    if kind == "is true":
        return statement[1] in true
    if kind == "is false":
        return statement[1] not in true
    return (statement[1] in true) != (statement[2] in true)  # either, not both


def consistent(statements: list[Statement]) -> list[frozenset[int]]:
    """Every consistent set of true statements (at most ``2 ** n`` candidates, n <= 12 here), in
    the order of their assignments' numbers (bit i of an assignment set: statement i + 1 true).

    Each statement's truth over all assignments is a bitmask (bit a: true under assignment a), so
    the assignments where every statement is true exactly when it holds are found with one AND each.

    >>> consistent([["at least", 1], ["is false", 1]])
    [frozenset({1})]
    """
    return _consistent([tuple(statement) for statement in statements])


def _consistent(statements: list[tuple]) -> list[frozenset[int]]:
    """:func:`consistent` for statements given as tuples (their tables are cached by statement)."""
    n = len(statements)
    statement_true, _ = _assignment_tables(n)
    tables = _holds_tables(n)
    everything = (1 << (1 << n)) - 1
    agreeing = everything
    for i, statement in enumerate(statements):
        table = tables.get(statement)
        if table is None:
            table = tables[statement] = _holds_table(n, statement)
        agreeing &= everything ^ table ^ statement_true[i]
        if not agreeing:
            return []
    found = []
    while agreeing:
        lowest = agreeing & -agreeing
        assignment = lowest.bit_length() - 1
        found.append(_true_set(assignment, n))
        agreeing ^= lowest
    return found


@cache
def _assignment_tables(n: int) -> tuple[list[int], list[int]]:
    """Bitmasks over the ``2 ** n`` assignments: where statement i + 1 is true, and where c statements are."""
    statement_true = [sum(1 << a for a in range(1 << n) if a >> i & 1) for i in range(n)]
    with_count = [0] * (n + 1)
    for a in range(1 << n):
        with_count[a.bit_count()] |= 1 << a
    return statement_true, with_count


@cache
def _holds_tables(n: int) -> dict[tuple, int]:
    """The tables of :func:`_holds_table` met so far with n statements, by statement."""
    return {}


def _holds_table(n: int, statement: tuple) -> int:
    """The assignments (a bitmask, as above) under which ``statement`` holds."""
    _, with_count = _assignment_tables(n)
    if statement[0] in ("is true", "is false", "either"):
        return sum(1 << a for a in range(1 << n) if holds(list(statement), _true_set(a, n), n))
    # the rest speak only of how many statements are true: one representative set per count
    return sum(table for count, table in enumerate(with_count)
               if holds(list(statement), frozenset(range(1, count + 1)), n))


def _true_set(assignment: int, n: int) -> frozenset[int]:
    return frozenset(i + 1 for i in range(n) if assignment >> i & 1)


def _text(statement: Statement) -> str:
    kind = statement[0]
    k = statement[1] if len(statement) > 1 else None
    return _TEXTS[kind].format(k=k, last=statement[-1])


_TEXTS = {
    "at least": "At least {k} of these statements are true.",
    "at most": "At most {k} of these statements are true.",
    "exactly": "Exactly {k} of these statements are true.",
    "exactly false": "Exactly {k} of these statements are false.",
    "at least false": "At least {k} of these statements are false.",
    "parity": "The number of true statements is {k}.",
    "prime": "The number of true statements is a prime number.",
    "not prime": "The number of true statements is not a prime number.",
    "is true": "Statement {k} is true.",
    "is false": "Statement {k} is false.",
    "either": "Either statement {k} or statement {last} is true, but not both.",
}
