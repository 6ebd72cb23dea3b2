"""Venn-diagram counting: from survey totals about overlapping groups, work out a count that is asked.

A hidden survey assigns a number of people to every region of a Venn diagram of two to four
groups. Facts about it are drawn (the total, a group's size, an overlap, "only A", "A but not
B", "A or B", "exactly one", "none of them", ...); each fact is a linear equation over the region
counts. The asked quantity is uniquely determined when its coefficient vector lies in the span
of the facts' vectors (exact Gaussian elimination, modulo a prime too large to change any rank): then every survey, with
any real counts, that fits the facts gives the same answer. Facts are added until that holds,
then removed in random order while it still holds, so none is superfluous; the asked quantity
is never itself one of the facts. Then one to ``spare`` facts the answer does not need are added
(where a fact with a new vector is left), and all are shuffled.

The answer is one whole number; over two groups (levels 0-1) two counts are asked, X and Y, each
fixed by the facts and neither stated, and the answer is ``X = 17, Y = 4`` (any spelling the
assignment reader takes, or the two numbers bare in order).

Version 3: arithmetic on the stated numbers alone, the facts unread, pays far less. With only the
facts the answer needs, the answer is a sum or difference of few of them, so the largest minus the
smallest answered 0.55 of level 0 (40 seeds), and the commonest sign pattern over the numbers in size
order, per number of facts (learned on other seeds), answered 0.56, 0.41, 0.20, 0.33, 0.17 of levels
0-4 (300 seeds a level; level 3 always stated the same eight facts). The facts the answer does not
need hide which numbers to combine, and a problem is redrawn when the answer is a number stated, the
difference of two, the largest minus the rest (or the rest minus it) or the sum
(:func:`_blind_answers`). Levels 1 and 3 may now state "A but not B" (their five and nine basic
vectors left no fact to spare). The learned sign pattern now answers 0.15, 0.23, 0.05, 0.06, 0.04 of
levels 0-4: over two groups the sums of a few region counts are too few to hide completely.
Version 4: the best fixed combination of the numbers in size order (coefficients -1, 0, 1, 2, learned
per number of facts on seeds 1000-1199) answered 0.075 and 0.30 of levels 0-1 (seeds 0-39; 0.17 and 0.25
on 200 seeds), in prompt order 0.10; two counts asked there, the best fixed pair answers both in 0.025
and 0.10 (0.03 and 0.09 on 200 seeds). Levels 2-4, one count, stay at 0.05 or less.

Generation speed: about 260 problems/s at level 4. Each fact added, and each tried for removal, is followed by
exact Gaussian elimination to test whether the asked quantity lies in the span of the facts; that test is the proof
that the answer is determined and that no needed fact is superfluous.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.verifiers.assignments import read_values
from palaestra.verifiers.normalize import strip_wrappers
from palaestra.verifiers.numeric import read_integer

# topic: (what a description says, its negation) per group
_TOPICS = (
    ("people at a festival", tuple((f"liked the {x}", f"did not like the {x}") for x in ("music", "food", "games", "art"))),
    ("students", tuple((f"take {x}", f"do not take {x}") for x in ("French", "Spanish", "German", "Italian"))),
    ("members of a gym", tuple((x, f"do not {x}") for x in ("swim", "run", "cycle", "row"))),
    ("shoppers", tuple((f"bought {x}", f"did not buy {x}") for x in ("bread", "milk", "eggs", "fruit"))),
)
_LETTERS = "ABCD"


@register
class VennCounts(Task):
    id = "deduction/venn_counts"
    version = 4  # v4: two counts asked over two groups, so a fixed sum of the numbers in size order must be right twice
    # v3: facts the answer does not need, and no answer that blind arithmetic on the numbers gives
    family = "deduction"
    description = "Work out a count in an overlapping-groups survey from totals, overlaps and exclusions."
    tags = ("logic", "sets", "counting", "math")

    @dataclass(frozen=True)
    class Config:
        groups: int
        kinds: tuple[str, ...]  # fact kinds that may be stated
        spare: int  # at most this many facts the answer does not need (at least one where a vector is left)
        asked: int = 1  # counts asked: two where two groups leave few ways to combine the numbers

    def config(self, level: int) -> Config:
        basic = ("total", "group", "both", "none")
        richer = basic + ("only", "but_not", "either", "exactly_one")
        # rich facts ("only A", "exactly one") pin regions down faster than sizes and overlaps, which need
        # inclusion-exclusion: each group count comes first with rich facts, then with basic ones
        return [
            self.Config(groups=2, kinds=richer, spare=3, asked=2),
            # five basic vectors over four regions (nine over eight) leave none to spare: "A but not B" adds some
            self.Config(groups=2, kinds=(*basic, "but_not"), spare=3, asked=2),
            self.Config(groups=3, kinds=richer + ("all", "exactly_two"), spare=2),
            self.Config(groups=3, kinds=(*basic, "all", "but_not"), spare=4),
            self.Config(groups=4, kinds=richer + ("all", "exactly_two"), spare=3),
        ][level]
    bounded = "growing its sizes past the presets exhausts a fixed pool the generator draws from (names, letters or tables)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        topic, pool = rng.choice(_TOPICS)
        g = config.groups
        verbs = rng.sample(pool, g)
        facts, needed, questions, counts = retry(lambda: _draw(rng, config), what="facts that fix the asked counts")
        values = [_value(q, counts, g) for q in questions]
        lines = [f"- {_describe(f, verbs)}: {_value(f, counts, g)}" for f in facts]
        if len(questions) == 1:
            ask = (f"How many people {_describe(questions[0], verbs, asking=True)}? These facts determine it. "
                   "Answer with a single whole number, for example: 17")
            answer = str(values[0])
        else:
            ask = (f"Let X be the number of people who {_describe(questions[0], verbs, asking=True)}, and Y the "
                   f"number who {_describe(questions[1], verbs, asking=True)}. These facts determine both. "
                   "Answer with both, for example: X = 17, Y = 4")
            answer = f"X = {values[0]}, Y = {values[1]}"
        prompt = (
            f"A survey of {topic}. Every person either does or does not fit each of these descriptions: "
            + "; ".join(f"{_LETTERS[i]}: they {v}" for i, (v, _) in enumerate(verbs))
            + ".\n\nKnown numbers of people:\n"
            + "\n".join(lines)
            + "\n\n" + ask
        )
        # "question" and "value": the (first) asked count; "second": the other one's fact and value, if asked
        second = [questions[1], values[1]] if len(questions) > 1 else None
        return Problem(prompt=prompt, answer=answer,
                       data={"groups": g, "facts": facts, "needed": needed, "question": questions[0],
                             "value": values[0], "second": second})

    def difficulty(self, problem: Problem) -> float:
        """Regions of the diagram plus the facts to read and those to combine, plus a tenth of the answer's
        digits."""
        data = problem.data
        return float(2 ** data["groups"] + len(data["facts"]) + len(data["needed"])) + len(problem.answer or "") / 10

    def verify(self, problem: Problem, answer: str) -> Verdict:
        data = problem.data
        if data["second"] is None:
            said = _read_count(answer)
            if said is None:
                return Verdict.unparsed("expected one whole number")
            return Verdict.judge(said == data["value"], "wrong count")
        pair = _read_pair(answer)
        if pair is None:
            return Verdict.unparsed("expected two whole numbers: X = ..., Y = ...")
        wrong = [name for name, said, value in zip("XY", pair, (data["value"], data["second"][1])) if said != value]
        return Verdict.judge(not wrong, f"wrong count for {' and '.join(wrong)}")

    def spellings(self, problem: Problem) -> list[str]:
        if problem.data["second"] is not None:
            x, y = problem.data["value"], problem.data["second"][1]
            return [*super().spellings(problem), f"Y = {y}, X = {x}", f"X = {x} people; Y = {y} people",
                    f"\\boxed{{X = {x}, Y = {y}}}", f"(X, Y) = ({x}, {y})", f"{x}, {y}"]
        value = problem.answer or ""
        return [*super().spellings(problem), f"{value} people", f"\\boxed{{{value}}}", f"{value}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value = problem.data["value"]
        if problem.data["second"] is not None:
            y = problem.data["second"][1]
            return [f"X = {value + 1}, Y = {y}", f"X = {value}, Y = {y + 1}", f"X = {y}, Y = {value}" if y != value
                    else f"X = {y}, Y = {value + 2}", f"X = {value}", str(value), f"X = {value} or {value + 1}, Y = {y}"]
        return [str(value + 1), str(value - 1) if value else "1", f"{value} or {value + 1}", f"{value}.5"]


_UNITS = {"people": 1, "persons": 1, "person": 1}


def _read_count(text: str) -> int | None:
    return read_integer(text, units=_UNITS)


# the two counts bare, in the asked order: "17, 4", "(17, 4)", "17; 4", "17 and 4" (a space after a comma: not 1,000)
_BARE_PAIR = re.compile(r"\(?(\d{1,9})(?:,\s+|;\s*|\s+and\s+)(\d{1,9})\)?\.?")


def _read_pair(text: str) -> tuple[int, int] | None:
    """X's and Y's counts: ``X = 17, Y = 4`` in any spelling the assignment reader takes, or bare in order."""
    if not isinstance(text, str):
        return None
    text = text.replace("**", "")  # bold names or values: **X = 17**, **Y = 4**
    found = read_values(text, ["X", "Y"], _read_count)
    if found is not None:
        return found["X"], found["Y"]
    bare = _BARE_PAIR.fullmatch(strip_wrappers(text).strip()) if len(text) < 200 else None
    return (int(bare.group(1)), int(bare.group(2))) if bare else None


def _regions(g: int) -> list[int]:
    return list(range(1 << g))  # bit i set: in group i


def _vector(fact: list, g: int) -> list[int]:
    """Which regions the fact counts (1) or not (0)."""
    return list(_cached_vector(tuple(fact), g))


@cache
def _cached_vector(fact: tuple, g: int) -> tuple[int, ...]:
    kind, args = fact[0], fact[1:]

    def inside(region: int, i: int) -> bool:
        return bool(region >> i & 1)

    rule = {
        "total": lambda r: True,
        "group": lambda r: inside(r, args[0]),
        "both": lambda r: inside(r, args[0]) and inside(r, args[1]),
        "none": lambda r: r == 0,
        "all": lambda r: r == (1 << g) - 1,
        "only": lambda r: r == 1 << args[0],
        "but_not": lambda r: inside(r, args[0]) and not inside(r, args[1]),
        "either": lambda r: inside(r, args[0]) or inside(r, args[1]),
        "exactly_one": lambda r: bin(r).count("1") == 1,
        "exactly_two": lambda r: bin(r).count("1") == 2,
    }[kind]
    return tuple(int(rule(r)) for r in _regions(g))


def _value(fact: list, counts: list[int], g: int) -> int:
    return sum(c for c, on in zip(counts, _vector(fact, g)) if on)


def _random_fact(rng: random.Random, kinds: tuple[str, ...], g: int) -> list:
    kind = rng.choice(kinds)
    if kind in ("group", "only"):
        return [kind, rng.randrange(g)]
    if kind in ("both", "either"):
        return [kind, *sorted(rng.sample(range(g), 2))]
    if kind == "but_not":
        return [kind, *rng.sample(range(g), 2)]
    return [kind]


_PRIME = 2**61 - 1  # exceeds every minor of a 0/1 matrix with 16 columns (Hadamard: at most 4**16 = 2**32)


class _Span:
    """The span of fact vectors, kept in echelon form, to test whether a vector lies in it.

    Arithmetic is modulo a prime larger than any minor of a 0/1 matrix this wide, so every rank
    (and so every membership test) is the same as over the rationals, with machine-size integers.
    """

    def __init__(self) -> None:
        self.pivots: list[tuple[int, list[int]]] = []

    def _reduce(self, row: list[int]) -> list[int]:
        for col, pivot in self.pivots:
            factor = row[col]
            if factor:
                row = [(a - factor * b) % _PRIME for a, b in zip(row, pivot)]
        return row

    def add(self, vector: list[int]) -> None:
        row = self._reduce(list(vector))
        lead = next((i for i, v in enumerate(row) if v), None)
        if lead is not None:
            inverse = pow(row[lead], _PRIME - 2, _PRIME)
            self.pivots.append((lead, [v * inverse % _PRIME for v in row]))

    def holds(self, vector: list[int]) -> bool:
        return not any(self._reduce(list(vector)))


def _determined(facts: list[list], target: list, g: int) -> bool:
    """Whether the target's vector is a rational combination of the facts' vectors."""
    span = _Span()
    for fact in facts:
        span.add(_vector(fact, g))
    return span.holds(_vector(target, g))


def _draw(rng: random.Random, config: VennCounts.Config) -> tuple | None:
    g = config.groups
    counts = [rng.randint(0, 25) for _ in _regions(g)]
    questions: list[list] = []
    while len(questions) < config.asked:
        question = _random_fact(rng, config.kinds, g)
        if all(_vector(question, g) != _vector(q, g) for q in questions):
            questions.append(question)
    goals = [_vector(q, g) for q in questions]
    facts: list[list] = []
    span = _Span()
    for _ in range(12 * 2 ** g):  # add facts until the asked counts are fixed
        fact = _random_fact(rng, config.kinds, g)
        vector = _vector(fact, g)
        if vector not in goals and all(vector != _vector(f, g) for f in facts):
            facts.append(fact)
            span.add(vector)
            if all(span.holds(goal) for goal in goals):
                break
    if not facts or not all(span.holds(goal) for goal in goals):
        return None
    rng.shuffle(facts)
    for fact in list(facts):  # drop facts the answers do not need
        rest = [f for f in facts if f is not fact]
        if rest and all(_determined(rest, q, g) for q in questions):
            facts = rest
    needed = list(facts)
    stated = len(needed) + rng.randint(1, config.spare)
    for _ in range(12 * 2 ** g):  # facts the answer does not need, so the numbers alone do not tell which to combine
        if len(facts) == stated:
            break
        fact = _random_fact(rng, config.kinds, g)
        vector = _vector(fact, g)
        if vector not in goals and all(vector != _vector(f, g) for f in facts):
            facts.append(fact)
    rng.shuffle(facts)
    blind = _blind_answers([_value(f, counts, g) for f in facts])
    if any(_value(q, counts, g) in blind for q in questions):
        return None
    return facts, [i for i, fact in enumerate(facts) if any(fact is n for n in needed)], questions, counts


def _blind_answers(values: list[int]) -> set[int]:
    """What arithmetic on the stated numbers alone, the facts unread, would answer: a number stated, the
    difference of two, the largest minus the rest or the rest minus the largest, or the sum."""
    largest, total = max(values), sum(values)
    return {*values, *(abs(a - b) for a in values for b in values), 2 * largest - total, total - 2 * largest, total}


def _describe(fact: list, verbs: Sequence[tuple[str, str]], asking: bool = False) -> str:
    kind, args = fact[0], fact[1:]

    def v(i: int) -> str:
        return verbs[i][0]

    def neg(i: int) -> str:
        return verbs[i][1]

    text = {
        "total": "were surveyed in all" if asking else "surveyed in all",
        "group": f"{v(args[0])}" if args else "",
        "both": f"{v(args[0])} and {v(args[1])}" if len(args) > 1 else "",
        "none": "fit none of the descriptions",
        "all": "fit all of the descriptions",
        "only": f"{v(args[0])} and fit no other description" if args else "",
        "but_not": f"{v(args[0])} but {neg(args[1])}" if len(args) > 1 else "",
        "either": f"{v(args[0])} or {v(args[1])} (or both)" if len(args) > 1 else "",
        "exactly_one": "fit exactly one of the descriptions",
        "exactly_two": "fit exactly two of the descriptions",
    }[kind]
    return text if asking else f"people who {text}" if kind != "total" else "people surveyed in all"
