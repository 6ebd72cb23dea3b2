"""Round-table seating: deduce the clockwise order of people around a table from clues.

People sit in n seats around a round table; clues relate pairs of them (directly left or right
of, neighbours or not, opposite, a number of seats apart clockwise). Rotations are removed by
asking for the order starting from a named person. The hidden seating is drawn first, then a
pool of clues true of it; a SAT solver (person-seat variables, the named person in seat 1,
every clue guarded by a selector) proves the pool forces the seating, and clues are removed in
random order while the proof still goes through (:func:`prune_clues`), so every puzzle has
exactly one solution and no clue that could be dropped.

The answer is the clockwise order starting with the named person, names separated by commas
(``Ada, Ben, Cy, Dan``); the verifier checks every clue on it.

Generation speed: about 520 problems/s at level 4. Each puzzle draws a pool of true clues, then a SAT solver proves
the pool forces the seating and removes clues one by one while the proof still goes through; the proof is what
makes the seating unique and every clue needed.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import cache
from math import factorial, log2

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.deduction.common import PEOPLE
from palaestra.solvers.clues import minimal_clues
from palaestra.solvers.sat import CNF
from palaestra.verifiers.normalize import squeeze_spaces, unparsed_feedback
from palaestra.verifiers.sets import one_of, read_list

_KINDS = ("left", "right", "neighbours", "apart", "opposite", "not_neighbours", "not_left")
_POOL = 8  # clues drawn per person before pruning
_LEAD_IN = re.compile(r"[^:,\n]{1,60}:[ \t]*([^:\n]+)")
_ARROW = re.compile(r"[ \t]*(?:→|->|⟶|[ \t][-–—][ \t])[ \t]*")  # "Ada → Ben" and "Ada - Ben" list the order too


@register
class Seating(Task):
    id = "deduction/seating"
    version = 2
    family = "deduction"
    description = "Deduce who sits where around a round table from left/right/opposite clues (one solution)."
    tags = ("logic", "deduction", "puzzle", "ordering")

    @dataclass(frozen=True)
    class Config:
        people: int

    presets = (Config(people=4), Config(people=5), Config(people=6), Config(people=7), Config(people=8))
    # Capped at level 24's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"people": 28})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.people
        names = rng.sample(PEOPLE, n)
        seat = list(range(n))
        rng.shuffle(seat)  # seat[p]: person p's seat, counted clockwise
        anchor = seat.index(0)
        clues = retry(lambda: _minimal_clues(rng, n, seat, anchor), attempts=20, what="clues that force the seating")
        order = sorted(range(n), key=seat.__getitem__)
        answer = ", ".join(names[p] for p in order)
        example = ", ".join(sorted(names))  # the format, whatever the answer
        prompt = (
            f"{n} people, {', '.join(sorted(names))}, sit around a round table, evenly spaced and facing the "
            "centre. \"X sits directly left of Y\" means X is in the next seat clockwise from Y; \"directly right "
            "of\" means the next seat anticlockwise; \"k seats clockwise from\" counts seats going clockwise; "
            "neighbours sit in adjacent seats" + (", and opposite means directly across the table" if n % 2 == 0
                                                   else "") + ".\n\nClues:\n"
            + "\n".join(f"{i}. {_sentence(c, names)}" for i, c in enumerate(clues, 1))
            + f"\n\nExactly one seating fits the clues. List everyone in clockwise order, starting with "
            f"{names[anchor]}, separated by commas, for example: {example}"
        )
        return Problem(prompt=prompt, answer=answer, data={"names": names, "anchor": anchor, "clues": clues})

    def difficulty(self, problem: Problem) -> float:
        """Seatings to rule out ((n - 1)!) in bits, plus the clues to combine."""
        n = len(problem.data["names"])
        return log2(factorial(n - 1)) + len(problem.data["clues"])

    def verify(self, problem: Problem, answer: str) -> Verdict:
        names, anchor = problem.data["names"], problem.data["anchor"]
        if len(answer) > self.max_answer_chars:
            return Verdict.unparsed(f"answer longer than {self.max_answer_chars} characters")
        text = _ARROW.sub(", ", squeeze_spaces(answer))  # runs of spaces first: the arrow pattern is quadratic on them
        order = read_list(text, one_of(names)) or read_list(text, one_of(names), space_separated=True)
        lead_in = _LEAD_IN.fullmatch(text.strip())
        if order is None and lead_in:  # "Clockwise from Ada: Ada, Ben, Cy" (a label holding no list of its own)
            order = read_list(lead_in.group(1), one_of(names))
        if order is None:
            return Verdict.unparsed(unparsed_feedback(answer, "the names in clockwise order, separated by commas"))
        if sorted(order) != sorted(names):
            return Verdict.wrong("list every person exactly once")
        if order[0] != names[anchor]:
            return Verdict.wrong(f"start the list with {names[anchor]}")
        seat = [order.index(name) for name in names]
        n = len(names)
        for clue in problem.data["clues"]:
            if not _holds(clue, seat, n):
                return Verdict.wrong(f"this clue fails: {_sentence(clue, names)}")
        return Verdict.right()

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        items = gold.split(", ")
        return [*super().spellings(problem), "; ".join(items), "\n".join(items),
                "[" + ", ".join(items) + "]", ", ".join(items[:-1]) + ", and " + items[-1], " → ".join(items),
                " - ".join(items), " ".join(items), "\n".join(f"{i}. {name}" for i, name in enumerate(items, 1)),
                "\n".join(f"- {name}" for name in items)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        items = (problem.answer or "").split(", ")
        reversed_order = [items[0], *reversed(items[1:])]
        rotated = items[1:] + items[:1]
        i, j = rng.sample(range(1, len(items)), 2)
        swapped = items[:]
        swapped[i], swapped[j] = swapped[j], swapped[i]
        wrong = [w for w in (reversed_order, swapped) if w != items] + [rotated, items[:-1]]
        hedges = [", ".join(items) + ", or " + ", ".join(swapped), ", ".join(items) + "\n" + ", ".join(swapped),
                  ", ".join(items + items[:1])]
        return [", ".join(w) for w in wrong] + hedges


def _offset(clue: list, n: int) -> list[int]:
    """Seat offsets (clockwise, from the second person to the first) the clue speaks of (excluded ones for
    the negated kinds)."""
    kind = clue[0]
    if kind == "apart":
        return [clue[3]]
    if kind in ("left", "not_left"):
        return [1]
    if kind == "right":
        return [n - 1]
    if kind in ("neighbours", "not_neighbours"):
        return [1, n - 1]
    if kind == "opposite":
        return [n // 2]
    raise KeyError(kind)


def _holds(clue: list, seat: list[int], n: int) -> bool:
    a, b = clue[1], clue[2]
    inside = (seat[a] - seat[b]) % n in _offset(clue, n)
    return not inside if clue[0].startswith("not_") else inside


def _random_clue(rng: random.Random, n: int, seat: list[int]) -> list | None:
    """A clue of a random kind, true of the seating, about a random fitting pair (None if no pair fits)."""
    kind = rng.choice([k for k in _KINDS if k != "opposite" or n % 2 == 0])
    pairs = list(_pairs(n))
    rng.shuffle(pairs)
    for a, b in pairs:
        gap = (seat[a] - seat[b]) % n
        if kind == "apart":
            if 2 <= gap <= n - 2 and (n % 2 or gap != n // 2):  # not a left, right or opposite in disguise
                return ["apart", a, b, gap]
        elif _holds([kind, a, b], seat, n):
            return [kind, a, b]
    return None


@cache
def _pairs(n: int) -> tuple[tuple[int, int], ...]:
    """Every ordered pair of different people, in a fixed order (shuffled by each caller)."""
    return tuple((a, b) for a in range(n) for b in range(n) if a != b)


def _minimal_clues(rng: random.Random, n: int, seat: list[int], anchor: int) -> list | None:
    pool: list[list] = []
    for _ in range(3 * _POOL * n):  # draws, some repeated
        if len(pool) >= _POOL * n:
            break
        clue = _random_clue(rng, n, seat)
        if clue is not None and clue not in pool:
            pool.append(clue)
    cnf = CNF()
    at = [[cnf.var((p, s)) for s in range(n)] for p in range(n)]
    for p in range(n):
        cnf.exactly_one(at[p])
    for s in range(n):
        cnf.exactly_one([at[p][s] for p in range(n)])
    cnf.add([at[anchor][0]])
    selectors = []
    for i, clue in enumerate(pool):
        selector = cnf.var(("clue", i))
        selectors.append([selector])
        a, b = clue[1], clue[2]
        offsets = _offset(clue, n)
        for s in range(n):
            targets = [at[a][(s + d) % n] for d in offsets]
            if clue[0].startswith("not_"):
                cnf.clauses.extend([-selector, -at[b][s], -t] for t in targets)
            else:
                cnf.add([-selector, -at[b][s], *targets])
    cnf.add([-at[p][seat[p]] for p in range(n)])  # another seating?
    kept = minimal_clues(cnf, selectors, rng)
    if kept is None:
        return None
    chosen = [clue for clue, keep in zip(pool, kept) if keep]
    rng.shuffle(chosen)
    return chosen


def _sentence(clue: list, names: list[str]) -> str:
    kind, a, b = clue[0], names[clue[1]], names[clue[2]]
    if kind == "apart":
        k = clue[3]
        return f"{a} sits {k} seat{'s' if k > 1 else ''} clockwise from {b}."
    return {
        "left": f"{a} sits directly left of {b}.",
        "right": f"{a} sits directly right of {b}.",
        "neighbours": f"{a} and {b} are neighbours.",
        "opposite": f"{a} sits opposite {b}.",
        "not_neighbours": f"{a} and {b} are not neighbours.",
        "not_left": f"{a} does not sit directly left of {b}.",
    }[kind]
