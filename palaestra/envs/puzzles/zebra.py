"""Zebra (Einstein) puzzles: deduce who lives in which house from clues about neighbours.

A row of houses, numbered from 1 on the left; each house has one value of every attribute
(colour, nationality, pet, ...), each value in exactly one house. The hidden solution is one
random permutation per attribute. A large pool of clues true of it is drawn (same house, not
the same house, a given house, not a given house, directly left of, next to, somewhere left
of, one house between); a SAT solver over "value v of attribute a is in house h" (each value in
one house, each house one value per attribute, every clue guarded by a selector literal)
proves the pool forces the solution, then clues are removed in random order while the proof
still goes through (:func:`prune_clues`). Every puzzle has exactly one solution and no clue
that could be dropped.

The answer is the full table: one line per house, ``House 1: red, Brit, dog, tea`` (values in
any order within a line; ``1: ...`` or a Markdown table also read); the verifier checks that
every value sits in exactly one house and every clue holds.

Version 2: a "somewhere to the left of" clue never names two neighbours, so reading it as "directly left of"
(the prompt defines the difference) breaks the solution. Before, that misreading solved 0.74, 0.61, 0.55, 0.46
and 0.32 of the puzzles with such a clue at levels 0-4 (40 seeds a level); now none.

Version 3: the symmetric kinds, "next to" and "one house between", each occur in a puzzle never or at least twice,
and the two values of each such clue are named in a random order but never all the left one first (or all the
right one first) within a kind. Reading "next to" as "directly left of" (or "right of") for every such clue, or
"one house between" as "two houses left of" (or "right of"), makes the clues stronger, so the misread puzzle has
the true solution or none; now it has none. Before (v2 named "next to" clues alternately but a puzzle could hold a
single one, and "one house between" clues came in the order drawn), reading "next to" one-sidedly solved 0.45/0.35,
0.39/0.25, 0.38/0.06, 0.08/0.05, 0.05/0.03 (left/right reading) of the puzzles with such a clue at levels 0-4 (40
seeds a level), and reading "one house between" one-sidedly 0.54/0.42, 0.47/0.25, 0.30/0.39, 0.15/0.17, 0.03/0.10;
now none. A pruned set that uses a symmetric kind once is pruned again in another order (up to four times), and
then the pool is drawn again (bounded attempts; about 2.1 pools a problem at level 0, 1.1 at level 4).

Generation speed: about 2-4 ms a problem at every level on this 2-core machine. A pool of true clues (three per
house and attribute: v2 drew six, which forced the solution no more often and took twice as long to encode) is
drawn, encoded as guarded SAT clauses and proved to force the solution, and then the clues are pruned one bounded
proof at a time to a set where none can be dropped; clue encoding, loading the solver and the proofs take nearly
all the time, and they are what makes the puzzle have exactly one solution and no redundant clue.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.solvers.clues import PROOF_BUDGET, ProofSolver, prune_clues
from palaestra.solvers.sat import CNF, BudgetExhausted
from palaestra.verifiers.normalize import strip_wrappers

# attribute: (values, how a value is named in a clue)
_ATTRIBUTES: dict[str, tuple[tuple[str, ...], str]] = {
    "colour": (("red", "green", "blue", "yellow", "white", "purple"), "the person in the {} house"),
    "nationality": (("Brit", "Swede", "Dane", "Norwegian", "German", "Spaniard"), "the {}"),
    "pet": (("dog", "cat", "bird", "fish", "horse", "zebra"), "the {} owner"),
    "drink": (("tea", "coffee", "milk", "water", "juice", "cocoa"), "the {} drinker"),
    "sport": (("tennis", "chess", "golf", "rugby", "hockey", "cricket"), "the person who plays {}"),
    "food": (("pizza", "sushi", "tacos", "curry", "pasta", "salad"), "the person who eats {}"),
}
_KINDS = ("same", "not_same", "at", "not_at", "left", "next", "before", "gap")
_SYMMETRIC = ("next", "gap")  # kinds whose two values may be named in either order
_POOL_FACTOR = 3  # clues drawn per (house x attribute) before pruning
_PRUNINGS = 4  # orders a pool is pruned in before it is drawn again
_WORD = re.compile(r"[A-Za-z]+")
# Words a line of the table may hold besides values and attribute names (the answer grammar: any other word,
# such as "not", "or" or a retraction, is text the reader cannot account for).
_TABLE_WORDS = frozenset("house houses the a an and is lives in has owns keeps drinks eats plays".split())

Value = tuple[int, int]  # (attribute index, value index)


@register
class Zebra(Task):
    id = "puzzles/zebra"
    family = "puzzles"
    description = "Solve a zebra (Einstein) puzzle: place every attribute value in its house (one solution)."
    tags = ("puzzle", "logic", "deduction", "constraint-satisfaction")
    max_answer_chars = 4_000
    multiline = True
    version = 3  # v3: "next to" and "one house between" clues never occur once, never all name the same side first
    # v2: "somewhere to the left of" clues never name neighbours; "next to" clues alternate sides

    @dataclass(frozen=True)
    class Config:
        houses: int
        attributes: int

    presets = (
        Config(houses=3, attributes=3),
        Config(houses=4, attributes=3),
        Config(houses=4, attributes=4),
        Config(houses=5, attributes=5),
        Config(houses=6, attributes=6),
    )
    bounded = "growing its sizes past the presets exhausts a fixed pool the generator draws from (names, letters or tables)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n, k = config.houses, config.attributes
        names = rng.sample(list(_ATTRIBUTES), k)
        names.sort(key=list(_ATTRIBUTES).index)
        values = [list(rng.sample(_ATTRIBUTES[a][0], n)) for a in names]
        house = [rng.sample(range(n), n) for _ in range(k)]  # house[a][v]: where value v of attribute a lives
        clues = retry(lambda: _minimal_clues(rng, n, k, house), attempts=40,
                      what="clues that force the solution, no symmetric kind used once")
        _orient_symmetric(rng, clues, house)
        phrase = [_ATTRIBUTES[a][1] for a in names]

        def ref(item: list[int]) -> str:
            return phrase[item[0]].format(values[item[0]][item[1]])

        lines = [f"{i}. {_sentence(clue, ref)}" for i, clue in enumerate(clues, 1)]
        listing = "\n".join(f"- {a}: {', '.join(sorted(v))}" for a, v in zip(names, values))
        table = ["" for _ in range(n)]
        for h in range(n):
            table[h] = ", ".join(values[a][house[a].index(h)] for a in range(k))
        answer = "\n".join(f"House {h + 1}: {row}" for h, row in enumerate(table))
        prompt = (
            f"There are {n} houses in a row, numbered 1 to {n} from left to right. Each house has a different "
            f"value of each of these attributes:\n{listing}\n\n"
            "\"Next to\" means in an adjacent house; \"directly left of\" means in the house just to the left; "
            "\"somewhere to the left of\" means in any house further left.\n\nClues:\n" + "\n".join(lines)
            + "\n\nExactly one arrangement satisfies all the clues. Give it as one line per house, in order, "
            f"listing that house's values ({', '.join(names)}), for example:\n"
            "House 1: " + ", ".join(f"<{a}>" for a in names) + "\n..."
        )
        data = {"attributes": names, "values": values, "clues": clues}
        return Problem(prompt=prompt, answer=answer, data=data)

    def difficulty(self, problem: Problem) -> float:
        """Houses times attributes (the table's cells) plus the clues to combine."""
        values = problem.data["values"]
        return float(len(values) * len(values[0]) + len(problem.data["clues"]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        values = problem.data["values"]
        k, n = len(values), len(values[0])
        if not isinstance(answer, str) or len(answer) > self.max_answer_chars:
            return Verdict.unparsed("answer too long")
        table = _read_table(strip_wrappers(answer), values)
        if isinstance(table, str):
            return Verdict.unparsed(table)
        house = [[-1] * n for _ in range(k)]
        for h, row in enumerate(table):
            for a, v in row:
                house[a][v] = h
        for clue in problem.data["clues"]:
            if not _holds(clue, house, n):
                return Verdict.wrong(f"a clue does not hold: {clue[0]}")
        return Verdict.right()

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        rows = [line.split(": ", 1)[1] for line in gold.splitlines()]
        names = problem.data["attributes"]
        markdown = ["| House | " + " | ".join(names) + " |", "|" + "---|" * (len(names) + 1)]
        markdown += [f"| {h} | " + " | ".join(row.split(", ")) + " |" for h, row in enumerate(rows, 1)]
        reversed_values = "\n".join(f"House {h}: " + ", ".join(reversed(row.split(", ")))
                                    for h, row in enumerate(rows, 1))
        columns = ["| | " + " | ".join(f"House {h}" for h in range(1, len(rows) + 1)) + " |"]
        columns += [f"| {name} | " + " | ".join(row.split(", ")[a] for row in rows) + " |" for a, name in enumerate(names)]
        articles = "\n".join(f"House {h}: the " + ", the ".join(_ALIASES.get(v.lower(), (v,))[0] for v in row.split(", "))
                             for h, row in enumerate(rows, 1))
        return [*super().spellings(problem), "\n".join(markdown), reversed_values, "\n".join(columns), articles,
                "; ".join(gold.splitlines()),
                "\n".join(f"{h}: {row}" for h, row in enumerate(rows, 1)), gold.lower(),
                "\n".join(f"House {h}: {row}" for h, row in reversed(list(enumerate(rows, 1))))]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        lines = (problem.answer or "").splitlines()
        rows = [line.split(": ", 1)[1].split(", ") for line in lines]
        i, j = rng.sample(range(len(rows)), 2)
        a = rng.randrange(len(rows[0]))
        swapped = [row[:] for row in rows]
        swapped[i][a], swapped[j][a] = swapped[j][a], swapped[i][a]
        whole = rows[:]
        whole[i], whole[j] = rows[j], rows[i]
        return ["\n".join(f"House {h}: {', '.join(row)}" for h, row in enumerate(g, 1)) for g in (swapped, whole)] + [
            "\n".join(lines[:-1]), "\n".join(lines) + f"\nActually, houses {i + 1} and {j + 1} swap their values.",
            "\n".join(lines) + f"\nHouse {i + 1}: " + ", ".join(rows[j])]


def _clue_literal(cnf: CNF, x, clue: list, n: int) -> list[list[int]]:
    """Clauses stating ``clue`` (the caller guards them with a selector)."""
    kind = clue[0]
    if kind in ("at", "not_at"):
        (a, v), h = clue[1], clue[2]
        return [[x(a, v, h)]] if kind == "at" else [[-x(a, v, h)]]
    (a1, v1), (a2, v2) = clue[1], clue[2]
    clauses = []
    for h in range(n):
        here, other = x(a1, v1, h), [x(a2, v2, g) for g in range(n)]
        if kind == "same":
            clauses.append([-here, other[h]])
        elif kind == "not_same":
            clauses.append([-here, -other[h]])
        elif kind == "left":
            clauses.append([-here] + ([other[h + 1]] if h + 1 < n else []))
        elif kind == "next":
            clauses.append([-here] + [other[g] for g in (h - 1, h + 1) if 0 <= g < n])
        elif kind == "before":
            clauses.append([-here] + other[h + 1:])
        elif kind == "gap":
            clauses.append([-here] + [other[g] for g in (h - 2, h + 2) if 0 <= g < n])
    return clauses


def _holds(clue: list, house: list[list[int]], n: int) -> bool:
    kind = clue[0]
    if kind in ("at", "not_at"):
        (a, v), h = clue[1], clue[2]
        return (house[a][v] == h) == (kind == "at")
    (a1, v1), (a2, v2) = clue[1], clue[2]
    p, q = house[a1][v1], house[a2][v2]
    return {"same": p == q, "not_same": p != q, "left": q == p + 1, "next": abs(p - q) == 1,
            "before": p < q, "gap": abs(p - q) == 2}[kind]


def _random_clue(rng: random.Random, n: int, k: int, house: list[list[int]]) -> list | None:
    """A random clue true of the solution, or None when the drawn kind does not fit."""
    kind = rng.choice(_KINDS)
    a1 = rng.randrange(k)
    v1 = rng.randrange(n)
    if kind in ("at", "not_at"):
        h = house[a1][v1] if kind == "at" else rng.choice([g for g in range(n) if g != house[a1][v1]])
        return [kind, [a1, v1], h]
    a2 = rng.choice([a for a in range(k) if a != a1]) if kind in ("same", "not_same") else rng.randrange(k)
    p = house[a1][v1]
    targets = {
        "same": [p], "not_same": [g for g in range(n) if g != p], "left": [p + 1] if p + 1 < n else [],
        # "somewhere to the left" never of the house just to the left: read as "directly left of", it must fail
        "next": [g for g in (p - 1, p + 1) if 0 <= g < n], "before": list(range(p + 2, n)),
        "gap": [g for g in (p - 2, p + 2) if 0 <= g < n],
    }[kind]
    if not targets:
        return None
    q = rng.choice(targets)
    v2 = house[a2].index(q)
    if (a2, v2) == (a1, v1):
        return None
    return [kind, [a1, v1], [a2, v2]]


def _minimal_clues(rng: random.Random, n: int, k: int, house: list[list[int]]) -> list | None:
    pool: list[list] = []
    for _ in range(_POOL_FACTOR * n * k * 3):  # draws, some of them rejected or repeated
        if len(pool) >= _POOL_FACTOR * n * k:
            break
        clue = _random_clue(rng, n, k, house)
        if clue is not None and clue not in pool:
            pool.append(clue)
    cnf = CNF()
    table = [[[cnf.var((a, v, h)) for h in range(n)] for v in range(n)] for a in range(k)]

    def x(a: int, v: int, h: int) -> int:
        return table[a][v][h]

    for a in range(k):
        for v in range(n):
            cnf.exactly_one(table[a][v])
        for h in range(n):
            cnf.exactly_one([table[a][v][h] for v in range(n)])
    selectors = []
    for i, clue in enumerate(pool):
        selector = cnf.var(("clue", i))
        selectors.append([selector])
        for clause in _clue_literal(cnf, x, clue, n):
            cnf.add([-selector, *clause])
    cnf.add([-table[a][v][house[a][v]] for a in range(k) for v in range(n)])  # another solution?
    solver = ProofSolver(cnf, PROOF_BUDGET)
    with solver:
        try:
            if solver.satisfiable([lit for selector in selectors for lit in selector]):
                return None  # the whole pool does not force the solution
        except BudgetExhausted:
            return None
        # Pruning in another order keeps another minimal set: cheaper than a new pool when a set uses a symmetric
        # kind once
        for _ in range(_PRUNINGS):
            order = list(range(len(pool)))
            rng.shuffle(order)
            chosen = [clue for clue, keep in zip(pool, prune_clues(solver, selectors, order)) if keep]
            if _two_sided(chosen):
                rng.shuffle(chosen)
                return chosen
    return None


def _two_sided(clues: list) -> bool:
    """Whether no symmetric clue kind ("next to", "one house between") occurs exactly once: a lone one names its
    two values in one order, so reading it one-sidedly ("directly left of") is right half the time."""
    return all(sum(clue[0] == kind for clue in clues) != 1 for kind in _SYMMETRIC)


def _orient_symmetric(rng: random.Random, clues: list, house: list[list[int]]) -> None:
    """Name the two values of each symmetric clue in a random order, but never all the left one first (or all the
    right one first) within a kind: then reading "next to" as "directly left of" (or "right of"), or "one house
    between" as "two houses left of", breaks some clue."""
    for kind in _SYMMETRIC:
        group = [clue for clue in clues if clue[0] == kind]
        left_first = [rng.random() < 0.5 for _ in group]
        if len(group) > 1 and len(set(left_first)) == 1:
            i = rng.randrange(len(group))
            left_first[i] = not left_first[i]
        for clue, first in zip(group, left_first):
            if (house[clue[1][0]][clue[1][1]] < house[clue[2][0]][clue[2][1]]) != first:
                clue[1], clue[2] = clue[2], clue[1]


def _sentence(clue: list, ref) -> str:
    kind = clue[0]
    if kind == "at":
        text = f"{ref(clue[1])} lives in house {clue[2] + 1}."
    elif kind == "not_at":
        text = f"{ref(clue[1])} does not live in house {clue[2] + 1}."
    else:
        a, b = ref(clue[1]), ref(clue[2])
        text = {
            "same": f"{a} is {b}.",
            "not_same": f"{a} is not {b}.",
            "left": f"{a} lives directly left of {b}.",
            "next": f"{a} lives next to {b}.",
            "before": f"{a} lives somewhere to the left of {b}.",
            "gap": f"There is exactly one house between {a} and {b}.",
        }[kind]
    return text[0].upper() + text[1:]


# Other words a grader reads as a value: the nationality adjectives ("the British")
_ALIASES = {"brit": ("british",), "swede": ("swedish",), "dane": ("danish",), "spaniard": ("spanish",)}


def _value_words(values: list[list[str]]) -> dict[str, Value]:
    """Each value's lower-case spellings (the value, its plural, a nationality's adjective) -> the value."""
    lookup: dict[str, Value] = {}
    for a, row in enumerate(values):
        for v, value in enumerate(row):
            word = value.lower()
            for spelling in (word + "es", word + "s", *_ALIASES.get(word, ()), word):
                lookup[spelling] = (a, v)  # the value itself last, so it wins a clash with a plural
    return lookup


def _read_table(answer: str, values: list[list[str]]) -> list[list[Value]] | str:
    """Per house (in order), its (attribute, value) pairs; or a message saying why the answer is unreadable.

    One line per house (``House 2: ...``; lines without a number count in order), or one line per
    attribute with the houses left to right (a table with houses as columns). A line that names no
    value may stand before the table (an intro, a header) or between its lines (a rule, with no
    words). A line of the table holds only values, attribute names and the few words of a
    sentence naming them (``House 2 is red and the Dane lives in it`` reads); any other word,
    and any text after the table, leaves the answer unreadable (the answer grammar of
    :mod:`palaestra.verifiers.normalize`).
    """
    k, n = len(values), len(values[0])
    lookup = _value_words(values)
    attributes = {name.lower() for name in _ATTRIBUTES}
    found_lines: list[tuple[str, list[Value]]] = []
    tail: list[str] = []
    for line in answer.replace("|", " , ").replace(";", "\n").splitlines():  # houses may be split by ;
        words = [w.lower() for w in _WORD.findall(line)]
        found = [lookup[w] for w in words if w in lookup]
        if not found:
            if found_lines and words:
                tail.append(line)
            continue  # a header, a rule or a remark
        if tail:
            return "text between the lines of the table"
        unknown = [w for w in words if w not in lookup and w not in _TABLE_WORDS and w.rstrip("s") not in attributes]
        if unknown:
            return f"a line of the table holds words that are not values: {', '.join(unknown[:3])}"
        found_lines.append((line, found))
    if tail:
        return "text after the table: the answer must hold only the table"
    if len(found_lines) == k and all(len(found) == n and len({a for a, _ in found}) == 1 for _, found in found_lines):
        rows = [[found[h] for _, found in found_lines] for h in range(n)]  # houses as columns
    else:
        by_house: dict[int, list[Value]] = {}
        for line, found in found_lines:
            numbers = re.findall(r"\d+", line)
            h = int(numbers[0]) - 1 if numbers else len(by_house)
            if not 0 <= h < n or h in by_house:
                return "each line should start with a different house number from 1 to " + str(n)
            by_house[h] = found
        if len(by_house) != n:
            return f"expected one line for each of the {n} houses"
        rows = [by_house[h] for h in range(n)]
    for h, row in enumerate(rows):
        if sorted(a for a, _ in row) != list(range(k)):
            return f"house {h + 1} should list exactly one value of each attribute"
    placed = sorted(pair for row in rows for pair in row)
    if len(set(placed)) != n * k:
        return "a value appears in more than one house"
    return rows
