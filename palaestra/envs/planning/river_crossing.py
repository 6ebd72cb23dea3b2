"""River crossing: ferry everything across safely in the fewest crossings (wolf-goat-cabbage, missionaries).

One skill, two kinds of puzzle (task option ``puzzle``; by default each problem draws one):
``"items"``, the generalised wolf-goat-cabbage below, and ``"people"``, missionaries and cannibals
with parameters (counting constraints; :mod:`palaestra.envs.planning._people_crossing`). The retired
id ``planning/missionaries_cannibals`` resolves to this env with ``puzzle="people"``.

Items:

A farmer must bring a set of animals and things across a river in a boat that holds the farmer
and up to ``capacity`` of them. Some pairs must never be left together on a bank without the
farmer; the pairs are random, so every problem is a new puzzle. The answer
lists the crossings in order, each naming what the farmer takes along (``goat``, ``wolf and
cabbage``, or ``nothing``), separated by semicolons or new lines. The verifier replays them
(:class:`palaestra.solvers.simulate.Rules`) and accepts a plan that gets everything across in the
minimum number of crossings, found by breadth-first search over the ``2 ** (items + 1)`` states.
The forbidden pairs are drawn around a few "hub" items (each in conflict with most others), which
keeps most puzzles solvable and makes the shortest plans long.

Generation speed: about 300 problems/s at level 4 on this 2-core machine. Half the time goes to
missionaries-and-cannibals draws: about 24 of 25 are redrawn (an unsafe start, or no goal position whose
shortest plan falls in the level's crossing range), and each safe draw runs a full breadth-first search over
its bank states to find such a goal; the other half is the items puzzles, each draw solved by breadth-first
search and about 2 of 3 redrawn as too short. Those searches give the minimum crossing count the verifier
grades against.
"""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.envs.planning._people_crossing import PeopleCrossing
from palaestra.envs.planning.common import without_label
from palaestra.solvers.simulate import Rules, shortest_plan
from palaestra.verifiers.normalize import read_answer, squeeze_spaces, strip_wrappers, unify

MAX_CROSSINGS = 200
ITEMS = ("wolf", "goat", "cabbage", "dog", "cat", "mouse", "cheese", "fox", "hen", "grain", "lion", "zebra", "hay",
         "snake", "frog", "fly", "owl", "worm", "bear", "fish")
NOTHING = frozenset(["nothing", "none", "alone", "empty", "-", "no", "cargo", "itself", "one", "no-one", "noone",
                     "nobody", "only", "just", "himself", "herself", "themselves", "oneself"])
FILLER = frozenset(["take", "takes", "taking", "bring", "brings", "bringing", "carry", "carries", "ferry", "ferries",
                    "the", "a", "an", "farmer", "across", "back", "return", "returns", "with", "cross", "crosses",
                    "go", "goes", "row", "rows", "over", "to", "from", "left", "right", "bank", "side", "and", "&", "+",
                    "boat", "in"])
_CROSSING_SPLIT = re.compile(r"\s*(?:;|\n|->|→)\s*")
_NUMBER = re.compile(r"^(?:(?:crossing|trip|step)\s*)?\d{1,3}\s*[.):]\s*", re.IGNORECASE)
_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*|[&+,-]")
PUZZLES = ("items", "people")
PEOPLE = PeopleCrossing()

State = tuple[int, int]  # (farmer's bank: 0 start, 1 far; bitmask of the items on the far bank)


@register
class RiverCrossing(Task):
    id = "planning/river_crossing"
    family = "planning"
    description = "Ferry items across a river so that no forbidden pair is left alone, in the fewest crossings."
    tags = ("planning", "puzzle", "search")
    option_variants = tuple({"puzzle": puzzle} for puzzle in PUZZLES)
    version = 2  # v2: merged with planning/missionaries_cannibals (v1) as the "people" puzzles; fixed examples
    aliases = {"planning/missionaries_cannibals": {"version": 1, "kwargs": {"puzzle": "people"}}}

    @dataclass(frozen=True)
    class Config:
        items: int
        capacity: int  # items the boat takes besides the farmer
        hubs: int  # items in conflict with others (the "predators" and the much-threatened)
        conflict_chance: float  # chance that a hub conflicts with each other item
        min_crossings: int
        people: PeopleCrossing.Config  # the missionaries-and-cannibals puzzles at this level

    def __init__(self, answer_format: str | None = None, puzzle: str | None = None) -> None:
        super().__init__(answer_format)
        if puzzle is not None and puzzle not in PUZZLES:
            raise ValueError(f"puzzle must be one of {PUZZLES}, got {puzzle!r}")
        self.puzzle = puzzle

    presets = (
        Config(items=3, capacity=1, hubs=1, conflict_chance=0.7, min_crossings=5, people=PEOPLE.config(0)),
        Config(items=4, capacity=1, hubs=1, conflict_chance=0.7, min_crossings=7, people=PEOPLE.config(1)),
        Config(items=6, capacity=2, hubs=2, conflict_chance=0.6, min_crossings=9, people=PEOPLE.config(2)),
        Config(items=8, capacity=3, hubs=3, conflict_chance=0.7, min_crossings=11, people=PEOPLE.config(3)),
        Config(items=8, capacity=2, hubs=2, conflict_chance=0.7, min_crossings=13, people=PEOPLE.config(4)),
    )
    bounded = "past the presets its generator or oracle gets too slow (the levels 5-9 check did not finish in 40 s on a busy machine)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        if (self.puzzle or rng.choice(PUZZLES)) == "people":
            return PEOPLE.generate(rng, config.people)
        return self._items_problem(rng, config)

    def _items_problem(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[list[str], list[tuple[int, int]], list[int]] | None:
            names = rng.sample(ITEMS, config.items)
            conflicts = _conflicts(rng, config.items, config.hubs, config.conflict_chance)
            if not conflicts:
                return None
            plan = shortest_plan(CrossingRules(config.items, config.capacity, conflicts))
            if plan is None or len(plan) < config.min_crossings:
                return None
            return names, conflicts, plan

        names, conflicts, plan = retry(draw, what="a solvable crossing puzzle needing enough crossings")
        answer = "; ".join(_crossing_text(load, names) for load in plan)
        rules = "\n".join(f"- the {names[a]} and the {names[b]}" for a, b in conflicts)
        # The example's shape and names come from the drawn items, never from the answer.
        example = f"{names[0]} and {names[2]}; nothing; {names[1]}" if config.capacity > 1 else \
            f"{names[1]}; nothing; {names[0]}"
        things = ", ".join(_article(n) for n in names[:-1]) + f" and {_article(names[-1])}"
        prompt = (
            f"A farmer stands on the left bank of a river with {things}. The farmer's boat carries the farmer and "
            f"at most {config.capacity} of them; only the farmer can row, so every crossing carries the farmer.\n"
            f"Whenever the farmer is on the other bank, these pairs must not be together on the same bank:\n{rules}\n"
            "(In the boat with the farmer nothing can happen.)\n\n"
            "Get everything to the right bank in as few crossings as possible (only a shortest plan is accepted).\n"
            "List the crossings in order, separated by semicolons; for each, name what the farmer takes along "
            f"(names joined by 'and'), or 'nothing' when the farmer crosses alone. For example: {example}"
        )
        return Problem(prompt=prompt, answer=answer, data={
            "items": names, "capacity": config.capacity, "conflicts": [list(c) for c in conflicts],
            "optimal": len(plan),
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if "missionaries" in problem.data:  # also planning/missionaries_cannibals-v1 problems
            return PEOPLE.verify(problem, answer)
        names = problem.data["items"]
        loads = read_crossings(without_label(answer), names)
        if loads is None:
            return Verdict.unparsed("expected crossings separated by semicolons, each naming what is carried or 'nothing'")
        rules = CrossingRules(len(names), problem.data["capacity"], [tuple(c) for c in problem.data["conflicts"]])
        run = rules.run(loads)
        if run.illegal is not None:
            bad = run.illegal
            return Verdict.wrong(f"crossing {bad.index + 1} ({_crossing_text(bad.move, names)}) is not allowed: "
                                 f"{bad.reason}")
        if not run.solved:
            return Verdict.wrong("not everything reaches the right bank")
        optimal = problem.data["optimal"]
        return Verdict.judge(len(loads) <= optimal, f"{len(loads)} crossings; it can be done in {optimal}")

    def difficulty(self, problem: Problem) -> float:
        """Crossings in a shortest plan, plus half the forbidden pairs (people puzzles: see
        :meth:`PeopleCrossing.difficulty`)."""
        if "missionaries" in problem.data:
            return PEOPLE.difficulty(problem)
        return float(problem.data["optimal"] + len(problem.data["conflicts"]) / 2)

    def spellings(self, problem: Problem) -> list[str]:
        if "missionaries" in problem.data:
            return [*super().spellings(problem), *PEOPLE.spellings(problem)]
        names = problem.data["items"]
        loads = read_crossings(problem.answer or "", names) or []
        crossings = (problem.answer or "").split("; ")
        return [
            *super().spellings(problem),
            "\n".join(f"{i}. {c}" for i, c in enumerate(crossings, 1)),
            "\n".join(f"Take the {c} across." if load else "Return alone."
                      for c, load in zip(crossings, loads)),
            "; ".join(" + ".join(names[i] for i in _members(load)) or "farmer alone" for load in loads),
            " -> ".join(crossings).upper(),
            f"{problem.answer}.",
        ]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        if "missionaries" in problem.data:
            return PEOPLE.corruptions(problem, rng)
        names = problem.data["items"]
        crossings = (problem.answer or "").split("; ")
        first = crossings[0]
        return [
            "; ".join(crossings[:-1]),
            f"nothing; nothing; {problem.answer}",  # valid, two crossings too long
            f"{problem.answer} or {crossings[-1]}",
            "; ".join(crossings[1:]) if len(crossings) > 1 else "nothing",
            f"{first} and {first}; " + "; ".join(crossings[1:]) if first != "nothing" else f"{names[0]} and {names[0]}",
        ]


class CrossingRules(Rules[State, int]):
    """The puzzle: a move is the bitmask of items carried; the bank left behind must hold no forbidden pair."""

    def __init__(self, items: int, capacity: int, conflicts: list[tuple[int, int]]) -> None:
        self.items, self.capacity, self.conflicts = items, capacity, conflicts
        self.everything = (1 << items) - 1
        self._pair_masks = [(a, b, 1 << a | 1 << b) for a, b in conflicts]  # (check runs in the search's inner loop)

    def initial(self) -> State:
        return 0, 0

    def moves(self, state: State) -> list[int]:
        side, far = state
        here = [i for i in range(self.items) if bool(far >> i & 1) == bool(side)]
        return [sum(1 << i for i in load) for k in range(self.capacity + 1) for load in itertools.combinations(here, k)]

    def check(self, state: State, move: int) -> str | None:
        side, far = state
        if move < 0:
            return "an item is named twice"
        if move > self.everything:
            return "there is no such item"
        if move.bit_count() > self.capacity:
            return f"the boat holds at most {self.capacity} besides the farmer"
        mine = far if side else self.everything & ~far
        if move & ~mine:
            return "an item carried is not on the farmer's bank"
        left_behind = mine & ~move
        for a, b, pair in self._pair_masks:
            if left_behind & pair == pair:
                return f"item {a} and item {b} are left alone together"
        return None

    def apply(self, state: State, move: int) -> State:
        side, far = state
        return 1 - side, far ^ move

    def goal(self, state: State) -> bool:
        return state == (1, self.everything)


def _conflicts(rng: random.Random, items: int, hubs: int, chance: float) -> list[tuple[int, int]]:
    """Forbidden pairs around a few hub items: such puzzles are mostly solvable and need long shuttles."""
    pairs: set[frozenset[int]] = set()
    for hub in rng.sample(range(items), hubs):
        for other in range(items):
            if other != hub and rng.random() < chance:
                pairs.add(frozenset((hub, other)))
    return sorted(tuple(rng.sample(sorted(pair), 2)) for pair in pairs)


def _article(name: str) -> str:
    return f"an {name}" if name[0] in "aeiou" else f"a {name}"


def _members(load: int) -> list[int]:
    return [i for i in range(load.bit_length()) if load >> i & 1]


def _crossing_text(load: int, names: list[str]) -> str:
    return " and ".join(names[i] for i in _members(load)) or "nothing"


def _read_crossing(text: str, index: dict[str, int]) -> int | None:
    words = _WORD.findall(text.lower())
    if "".join(words).replace(",", "") != re.sub(r"[\s(),.]", "", text.lower()):
        return None  # something other than words: digits, other symbols
    load = 0
    for word in words:
        if word in index:
            if load >> index[word] & 1:
                return -1  # named twice: a load no boat can carry (the rules say why)
            load |= 1 << index[word]
        elif word != "," and word not in FILLER and word not in NOTHING:
            return None
    return load


def _crossings_core(text: str, index: dict[str, int]) -> list[int] | None:
    chunks = _CROSSING_SPLIT.split(squeeze_spaces(text).strip())
    if len(chunks) > MAX_CROSSINGS:
        return None
    loads = []
    for chunk in chunks:
        chunk = _NUMBER.sub("", chunk).strip().rstrip(".")
        if not chunk:
            continue
        load = _read_crossing(chunk, index)
        if load is None:
            return None
        loads.append(load)
    return loads or None


def read_crossings(text: str, names: list[str]) -> list[int] | None:
    """The loads (bitmasks over ``names``) of the crossings written in ``text``, or ``None``.

    An item named twice in one crossing reads as the load -1, which the rules refuse.
    """
    if not isinstance(text, str) or len(text) > MAX_CROSSINGS * 80 + 400:
        return None
    index = {name: i for i, name in enumerate(names)}
    return read_answer(strip_wrappers(unify(text)), lambda s: _crossings_core(s, index))
