"""Count arrangements that satisfy constraints; the count is found by brute-force enumeration.

Six settings: strings over a small alphabet, orderings of people in a line, arrangements
of the letters of a word with repeated letters, integer solutions of ``x1 + ... + xk = n``
with bounds, subsets of ``{1, ..., n}``, and committees chosen from two groups. Each
question applies two constraints (levels 0-1), three (level 2) or four (levels 3-4) drawn from the setting's
list (no two equal letters side by side, A before B, no two consecutive numbers, at least
two women, ...), and the sizes grow with the level. The generator enumerates every
candidate (at most a few tens of thousands) and counts those that pass, so the answer
does not depend on a formula being right. Every constraint matters: a question where dropping one leaves the count
unchanged (no candidate fails that constraint alone) is redrawn.

The answer is one whole number (``1440``, ``1,440``, ``\\boxed{1440}``); an expression
such as ``6!*2`` is not read.

Generation speed: about 190 problems/s at level 4. Every candidate arrangement (up to a few tens of thousands) is
enumerated and tested against each constraint, about twice per problem since about one drawn question in two is
redrawn; the brute-force count is kept because it makes the answer independent of any counting formula being right.

Version 5: a solver that skipped one stated constraint (always the last one, say) answered 0.35 of level 3 and
0.27 of level 4, the constraint being implied by the others in that share of the questions (no two As side by side
under no two equal letters side by side; at least one man on a committee with more women than men of size 3...);
such questions are now redrawn -> 0.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.verifiers.numeric import read_exact

MAX_CANDIDATES = 30_000
_PEOPLE = ("Ava", "Ben", "Cai", "Dina", "Eli", "Fay", "Gus", "Hana")
_WORDS = ("BANANA", "LETTER", "COFFEE", "PEPPER", "BALLOON", "SUCCESS", "TATTOO", "BOOKKEEP", "ADDRESS", "COOKBOOK",
          "MAMMAL", "PAPAYA", "BUBBLE", "GIGGLE", "REFERRED", "ASSESS", "COMMITTEE", "DEEDED")

Question = tuple[str, int, int, int]  # text, count, candidates enumerated, constraints


@register
class ConstrainedCounting(Task):
    id = "probability/constrained_counting"
    version = 5  # v3: presets (2, 2), (2, 4), (3, 3), (4, 2), (4, 4): level 0 repeated 5% of its problems at (2, 1); v4: counts above 1
    # v5: every constraint must change the count (skipping one stated constraint answered up to 0.35 of level 3)
    family = "probability"
    seed_id = "combinatorial/constrained_counting"  # moved from combinatorial/ in round 3; same problems
    aliases = {"combinatorial/constrained_counting": {"version": 2}}
    description = "Count strings, orderings, arrangements, solutions, subsets or committees under constraints."
    tags = ("math", "combinatorics", "counting")

    @dataclass(frozen=True)
    class Config:
        constraints: int  # how many constraints a question combines
        scale: int  # 0 (smallest sizes) .. 4

    presets = (Config(2, 2), Config(2, 4), Config(3, 3), Config(4, 2), Config(4, 4))
    bounded = "larger configs are infeasible for its generator (no valid problem in 1,000 draws past the presets)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        setting = rng.choice(tuple(_SETTINGS))
        # v4: a count of 1 is redrawn too: the constant answer "1" earned 11% of level 3 (the constraints pinning a
        # single arrangement), past the kit's chance + 0.10, and 5% of level 4
        def draw() -> Question | None:
            try:
                return _SETTINGS[setting](rng, config)
            except _Redundant:
                return None

        question, count, candidates, constraints = retry(draw, lambda q: q[1] > 1,
                                                         what="a question with a count above 1 and no idle constraint")
        example = 96  # a fixed placeholder: independent of the answer
        prompt = f"{question}\n\nGive the count as a whole number, e.g. {example}."
        return Problem(prompt=prompt, answer=str(count), data={
            "setting": setting, "count": count, "candidates": candidates, "constraints": constraints,
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        value = read_exact(answer, max_digits=40, units=("ways", "arrangements", "strings", "subsets", "committees",
                                                          "solutions", "orderings"))
        if value is None:
            return Verdict.unparsed("not a whole number")
        return Verdict.judge(value == problem.data["count"], "wrong count")

    def difficulty(self, problem: Problem) -> float:
        """Bits of the space enumerated plus two per constraint."""
        return math.log2(problem.data["candidates"]) + 2 * problem.data["constraints"]

    def spellings(self, problem: Problem) -> list[str]:
        n = problem.data["count"]
        out = [*super().spellings(problem), f"\\boxed{{{n}}}", f"{n} ways", f"{n}.", f"{n}.0"]
        if n >= 1000:
            out.append(f"{n:,}")
        return out

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        n = problem.data["count"]
        return [*super().corruptions(problem, rng), str(n + 1), str(n * 2), f"{n} or {n + 1}", str(max(0, n - 1))]


class _Redundant(Exception):
    """A drawn constraint changes nothing: the question is redrawn."""


def _count(candidates: Iterable, tests: list[Callable]) -> tuple[int, int]:
    """The candidates passing every test and the candidates enumerated; _Redundant when a test changes nothing.

    Dropping test i lets in exactly the candidates that fail it alone; when there are none, the constraint is implied
    by the others and a solver that skips it counts right (v5: each stated constraint was so redundant in 0.18-0.35 of
    level 3's questions, 0.22-0.27 of level 4's).
    """
    total = passed = 0
    failing_alone = [0] * len(tests)
    for candidate in candidates:
        total += 1
        failed = []
        for i, test in enumerate(tests):
            if not test(candidate):
                failed.append(i)
                if len(failed) == 2:
                    break
        if not failed:
            passed += 1
        elif len(failed) == 1:
            failing_alone[failed[0]] += 1
    if not all(failing_alone):
        raise _Redundant
    return passed, total


def _pick(rng: random.Random, options: list[tuple[str, Callable]], k: int) -> tuple[list[str], list[Callable]]:
    chosen = rng.sample(options, min(k, len(options)))
    return [text for text, _ in chosen], [test for _, test in chosen]


def _joined(texts: list[str]) -> str:
    return texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " and " + texts[-1]


def _strings(rng: random.Random, config: ConstrainedCounting.Config) -> Question | None:
    a = rng.randint(3, 5)
    n = rng.randint(3 + config.scale // 2, 4 + config.scale)
    if a**n > MAX_CANDIDATES:
        return None
    letters = "ABCDE"[:a]
    x, y = rng.sample(letters, 2)
    k = rng.randint(1, n - 1)
    options = [
        ("no two neighbouring letters are equal", lambda s: all(p != q for p, q in zip(s, s[1:]))),
        (f"the letter {x} appears at least once", lambda s: x in s),
        (f"the letter {x} appears exactly {k} times", lambda s: s.count(x) == k),
        (f"the string does not contain {x}{y} (the two letters side by side)", lambda s: f"{x}{y}" not in "".join(s)),
        ("the letters never decrease from left to right (alphabetical order)", lambda s: list(s) == sorted(s)),
        (f"letter number {k} (from the left) is not {y}", lambda s: s[k - 1] != y),
        (f"{x} appears more often than {y}", lambda s: s.count(x) > s.count(y)),
    ]
    texts, tests = _pick(rng, options, config.constraints)
    count, total = _count(itertools.product(letters, repeat=n), tests)
    return (f"How many strings of length {n} over the letters {', '.join(letters)} (letters may repeat) satisfy: "
            f"{_joined(texts)}?"), count, total, len(tests)


def _orderings(rng: random.Random, config: ConstrainedCounting.Config) -> Question | None:
    n = rng.randint(4 + config.scale // 2, 5 + (config.scale + 1) // 2)
    people = list(_PEOPLE[:n])
    p, q, r = rng.sample(people, 3)
    pos = rng.randint(1, n)
    options = [
        (f"{p} is not first", lambda o: o[0] != p),
        (f"{p} stands somewhere before {q}", lambda o: o.index(p) < o.index(q)),
        (f"{p} and {q} are not next to each other", lambda o: abs(o.index(p) - o.index(q)) != 1),
        (f"{p} and {q} stand next to each other", lambda o: abs(o.index(p) - o.index(q)) == 1),
        (f"{r} is not in position {pos}", lambda o: o.index(r) != pos - 1),
        (f"{q} is at one of the two ends", lambda o: o.index(q) in (0, n - 1)),
        ("nobody is in their alphabetical position (the k-th name alphabetically is not k-th in line)",
         lambda o: all(o[i] != people[i] for i in range(n))),
    ]
    texts, tests = _pick(rng, options, config.constraints)
    count, total = _count(itertools.permutations(people), tests)
    return (f"{', '.join(people[:-1])} and {people[-1]} stand in a line. In how many orders can they stand so that "
            f"{_joined(texts)}?"), count, total, len(tests)


def _multiset_permutations(letters: list[str]) -> Iterable[tuple[str, ...]]:
    counts = {c: letters.count(c) for c in sorted(set(letters))}
    n = len(letters)
    out: list[str] = []

    def walk() -> Iterable[tuple[str, ...]]:
        if len(out) == n:
            yield tuple(out)
            return
        for c in counts:
            if counts[c]:
                counts[c] -= 1
                out.append(c)
                yield from walk()
                out.pop()
                counts[c] += 1

    return walk()


def _words(rng: random.Random, config: ConstrainedCounting.Config) -> Question | None:
    if rng.random() < 0.4:
        word = rng.choice([w for w in _WORDS if len(w) <= 6 + config.scale])
        letters = list(word)
        what = f"the letters of the word {word}"
    else:  # a random multiset of letters, some repeated
        distinct = rng.sample("ABCDEIKLMNOPRST", rng.randint(3, 4))
        letters = sorted(c for c in distinct for _ in range(rng.randint(1, 2 + (config.scale >= 2))))
        if len(letters) > 6 + config.scale or len(set(letters)) == len(letters):
            return None
        what = "the letters " + ", ".join(letters)
    total_expected = math.factorial(len(letters)) // math.prod(math.factorial(letters.count(c)) for c in set(letters))
    if total_expected > MAX_CANDIDATES:
        return None
    repeated = sorted(c for c in set(letters) if letters.count(c) > 1)
    x = rng.choice(repeated)
    first, last = rng.choice(sorted(set(letters))), rng.choice(sorted(set(letters)))
    options = [
        ("no two equal letters are side by side", lambda w: all(p != q for p, q in zip(w, w[1:]))),
        (f"it starts with {first}", lambda w: w[0] == first),
        (f"all the {x}s are together", lambda w: "".join(w).count(x * letters.count(x)) == 1),
        (f"it does not end with {last}", lambda w: w[-1] != last),
        (f"no two {x}s are side by side", lambda w: x * 2 not in "".join(w)),
        # v5: two constraints more, since any four of the five above hold a pair where one implies or excludes the other
        ("its first and last letters are different", lambda w: w[0] != w[-1]),
        (f"its second letter is not {first}", lambda w: w[1] != first),
    ]
    texts, tests = _pick(rng, options, config.constraints)
    count, total = _count(_multiset_permutations(letters), tests)
    return (f"How many different arrangements of {what} (all {len(letters)} letters used, equal letters "
            f"indistinguishable) satisfy: {_joined(texts)}?"), count, total, len(tests)


def _solutions(rng: random.Random, config: ConstrainedCounting.Config) -> Question | None:
    k = rng.randint(3, 3 + (config.scale >= 2) + (config.scale >= 4))
    n = rng.randint(6 + config.scale, 12 + 3 * config.scale)
    if (n + 1) ** (k - 1) > MAX_CANDIDATES:
        return None
    low = rng.randint(0, 1)
    cap = rng.randint(max(2, n // k), n - 1)
    least = rng.randint(2, max(2, n // 2))
    divisor = rng.randint(2, 4)
    options = [
        (f"every variable is at most {cap}", lambda v: max(v) <= cap),
        (f"x1 is a multiple of {divisor}", lambda v: v[0] % divisor == 0),
        ("x1 < x2", lambda v: v[0] < v[1]),
        (f"x{k} is at least {least}", lambda v: v[-1] >= least),
        ("no two variables are equal", lambda v: len(set(v)) == k),
    ]
    texts, tests = _pick(rng, options, config.constraints)

    def candidates() -> Iterable[tuple[int, ...]]:
        for head in itertools.product(range(low, n + 1), repeat=k - 1):
            last = n - sum(head)
            if last >= low:
                yield (*head, last)

    count, total = _count(candidates(), tests)
    names = " + ".join(f"x{i + 1}" for i in range(k))
    kind = "non-negative" if low == 0 else "positive"
    return (f"How many solutions in {kind} integers does {names} = {n} have such that {_joined(texts)}?"), \
        count, max(total, 2), len(tests)


def _subsets(rng: random.Random, config: ConstrainedCounting.Config) -> Question | None:
    n = rng.randint(6 + config.scale, 10 + 2 * config.scale)
    k = rng.randint(2 + config.scale // 2, min(6, n // 2))
    if math.comb(n, k) > MAX_CANDIDATES:
        return None
    m = rng.randint(3, 9)
    bound = rng.randint(k + 1, n - 1)
    options = [
        ("no two chosen numbers are consecutive", lambda s: all(b - a > 1 for a, b in zip(s, s[1:]))),
        (f"the sum of the chosen numbers is a multiple of {m}", lambda s: sum(s) % m == 0),
        ("at least one chosen number is even", lambda s: any(v % 2 == 0 for v in s)),
        (f"the largest chosen number is at most {bound}", lambda s: s[-1] <= bound),
        ("the chosen numbers are not all odd and not all even", lambda s: len({v % 2 for v in s}) == 2),
    ]
    texts, tests = _pick(rng, options, config.constraints)
    count, total = _count(itertools.combinations(range(1, n + 1), k), tests)
    return (f"How many {k}-element subsets of {{1, 2, ..., {n}}} satisfy: {_joined(texts)}?"), count, total, len(tests)


def _committees(rng: random.Random, config: ConstrainedCounting.Config) -> Question | None:
    women, men = rng.randint(3, 6 + config.scale), rng.randint(3, 6 + config.scale)
    size = rng.randint(3, min(6, women + men - 2))
    people = [f"W{i + 1}" for i in range(women)] + [f"M{i + 1}" for i in range(men)]
    if math.comb(len(people), size) > MAX_CANDIDATES:
        return None
    j = rng.randint(1, min(size - 1, women))
    options = [
        (f"it has at least {j} {'woman' if j == 1 else 'women'}", lambda c: sum(p[0] == "W" for p in c) >= j),
        ("W1 and M1 are not both on it", lambda c: not ("W1" in c and "M1" in c)),
        ("M2 is on it", lambda c: "M2" in c),
        ("it has more women than men", lambda c: 2 * sum(p[0] == "W" for p in c) > size),
        ("it has at least one man", lambda c: any(p[0] == "M" for p in c)),
        # v5: two constraints more, since any four of the five above hold a pair where one implies the other
        ("W2 is not on it", lambda c: "W2" not in c),
        ("M1 and M3 are not both on it", lambda c: not ("M1" in c and "M3" in c)),
    ]
    texts, tests = _pick(rng, options, config.constraints)
    count, total = _count(itertools.combinations(people, size), tests)
    return (f"A committee of {size} is chosen from {women} women (W1 to W{women}) and {men} men (M1 to M{men}). "
            f"How many committees are possible if {_joined(texts)}?"), count, total, len(tests)


_SETTINGS: dict[str, Callable[[random.Random, ConstrainedCounting.Config], Question | None]] = {
    "strings": _strings, "orderings": _orderings, "words": _words, "solutions": _solutions, "subsets": _subsets,
    "committees": _committees,
}
