"""Missionaries and cannibals, with parameters: the counting-constraint puzzles of ``planning/river_crossing``.

(This was the env ``planning/missionaries_cannibals``, merged into ``planning/river_crossing`` as its
``puzzle="people"`` problems; the retired id resolves there.)

Missionaries and cannibals (not always as many of each) must cross a river in a boat that holds
``capacity`` people and needs at least one to row. On either bank, wherever there are
missionaries, the cannibals may outnumber them by at most ``margin`` (0: never). In some puzzles
the rule also holds inside the boat; some people may start on the far bank already, and the
boat on either side. The answer lists the crossings, each as the people in the boat: ``MC`` (one
of each), ``CC``, ``2M 1C``; the verifier replays them (:class:`palaestra.solvers.simulate.Rules`)
and accepts a plan that reaches the goal split of the people between the banks (everyone on the
right bank, the classic goal, is one of them) in the minimum number of crossings,
found by breadth-first search over the ``(M + 1) * (C + 1) * 2`` states.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Verdict, retry
from palaestra.envs.planning.common import without_label
from palaestra.solvers.simulate import Rules, shortest_plan
from palaestra.verifiers.normalize import read_answer, squeeze_spaces, strip_wrappers, unify

MAX_CROSSINGS = 300
LEFT, RIGHT = 0, 1
_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "a": 1, "an": 1}
_KINDS = {"missionary": "M", "missionaries": "M", "cannibal": "C", "cannibals": "C", "m": "M", "c": "C"}
_FILLER = frozenset(["and", "+", "&", "with", "cross", "crosses", "go", "goes", "back", "return", "returns", "over",
                     "across", "take", "takes", "send", "the", "boat", "to", "from", "left", "right", "bank", "in"])
_SPLIT = re.compile(r"\s*(?:[;,\n]|->|→)\s*")
_NUMBERING = re.compile(r"^(?:(?:crossing|trip|step)\s*)?\d{1,3}\s*[.):]\s*", re.IGNORECASE)
_TOKEN = re.compile(r"\d+|[a-z]+|[&+]")

State = tuple[int, int, int]  # missionaries and cannibals on the left bank, the boat's side
Load = tuple[int, int]  # missionaries and cannibals in the boat


class PeopleCrossing:
    """Generation and judging of the people-crossing problems (the merged env delegates to it)."""

    @dataclass(frozen=True)
    class Config:
        people: tuple[int, int]  # range of missionaries, and of cannibals
        capacities: tuple[int, ...]
        margins: tuple[int, ...]
        boat_rule: tuple[bool, ...]  # whether the rule may also hold in the boat
        min_crossings: int  # a shortest plan takes between min_crossings and max_crossings crossings
        max_crossings: int

    def config(self, level: int) -> Config:
        return [
            self.Config(people=(2, 6), capacities=(2, 3), margins=(0, 1, 2), boat_rule=(False, True), min_crossings=3, max_crossings=6),
            self.Config(people=(3, 7), capacities=(2, 3), margins=(0, 1, 2), boat_rule=(False, True), min_crossings=7,
                        max_crossings=10),
            self.Config(people=(4, 9), capacities=(2, 3, 4), margins=(0, 1, 2), boat_rule=(False, True),
                        min_crossings=9, max_crossings=13),
            self.Config(people=(5, 11), capacities=(3, 4), margins=(0, 1, 2), boat_rule=(False, True),
                        min_crossings=13, max_crossings=17),
            self.Config(people=(6, 14), capacities=(3, 4, 5), margins=(0, 1, 2), boat_rule=(False, True),
                        min_crossings=17, max_crossings=25),
        ][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[dict, list[Load]] | None:
            missionaries, cannibals = rng.randint(*config.people), rng.randint(*config.people)
            setup = {"missionaries": missionaries, "cannibals": cannibals, "capacity": rng.choice(config.capacities),
                     "margin": rng.choice(config.margins), "boat_rule": rng.choice(config.boat_rule),
                     "start": [rng.randint(0, missionaries), rng.randint(0, cannibals), rng.choice((LEFT, RIGHT))]}
            rules = _rules({**setup, "goal": [-1, -1]})
            if not rules.bank_safe(*setup["start"][:2]):
                return None
            distance = _distances(rules)
            splits = sorted({(m, c) for (m, c, _), d in distance.items()
                             if config.min_crossings <= d <= config.max_crossings})
            nearest = {split: min(distance.get((*split, side), 10**9) for side in (LEFT, RIGHT)) for split in splits}
            options = [split for split in splits if nearest[split] >= config.min_crossings]
            if not options:
                return None
            setup["goal"] = list(rng.choice(options))
            return setup, shortest_plan(_rules(setup))

        setup, plan = retry(draw, what="a solvable crossing needing enough trips")
        m, c, cap, margin = setup["missionaries"], setup["cannibals"], setup["capacity"], setup["margin"]
        left_m, left_c, boat = setup["start"]
        answer = "; ".join(_load_text(load) for load in plan)
        rule = ("the cannibals must never outnumber the missionaries" if margin == 0
                else f"the cannibals may outnumber the missionaries by at most {margin}")
        where = ("on either bank and in the boat" if setup["boat_rule"]
                 else "on either bank (the boat itself is exempt)")
        start = (f"On the left bank there are {_people(left_m, left_c)}; on the right bank there are "
                 f"{_people(m - left_m, c - left_c)}. The boat is at the {('left', 'right')[boat]} bank.")
        goal_m, goal_c = setup["goal"]
        aim = ("Bring everyone to the right bank" if setup["goal"] == [0, 0] else
               f"Reach a position with {_people(goal_m, goal_c)} on the left bank and {_people(m - goal_m, c - goal_c)} "
               "on the right bank (the boat may end on either side)")
        example = "MC; M; CC"  # a fixed placeholder of the answer's shape
        prompt = (
            f"{m} missionaries and {c} cannibals are crossing a river. {start}\n"
            f"The boat holds at most {cap} people and needs at least one person aboard to cross. Wherever there are "
            f"missionaries, {rule}: this holds {where}. A bank is counted after each crossing, once the "
            "passengers have landed.\n\n"
            f"{aim} in as few crossings as possible (only a shortest plan is accepted).\n"
            "List the crossings in order, separated by semicolons, each written as the people in the boat: one "
            f"letter M per missionary and C per cannibal (or counts such as 2M 1C). For example: {example}"
        )
        return Problem(prompt=prompt, answer=answer, data={**setup, "optimal": len(plan)})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        loads = read_loads(without_label(answer))
        if loads is None:
            return Verdict.unparsed("expected crossings such as MC; M; CC")
        run = _rules(problem.data).run(loads)
        if run.illegal is not None:
            bad = run.illegal
            return Verdict.wrong(f"crossing {bad.index + 1} ({_load_text(bad.move)}) is not allowed: {bad.reason}")
        if not run.solved:
            return Verdict.wrong("the crossings do not reach the goal position")
        optimal = problem.data["optimal"]
        return Verdict.judge(len(loads) <= optimal, f"{len(loads)} crossings; it can be done in {optimal}")

    def difficulty(self, problem: Problem) -> float:
        """Crossings in a shortest plan, plus a quarter of the people and the tightness of the rule (margin 0 is
        tightest), plus one when it also holds in the boat."""
        data = problem.data
        people = data["missionaries"] + data["cannibals"]
        return float(data["optimal"] + people / 4 + (2 - data["margin"]) / 2 + data["boat_rule"])

    def spellings(self, problem: Problem) -> list[str]:
        """Other spellings of the reference (the env adds the generic ones)."""
        loads = read_loads(problem.answer or "") or []
        counts = [" ".join(f"{n}{k}" for n, k in ((m, "M"), (c, "C")) if n) for m, c in loads]
        words = [" and ".join(f"{n} {kind if n == 1 else kind + 's'}".replace("missionarys", "missionaries")
                              for n, kind in ((m, "missionary"), (c, "cannibal")) if n) for m, c in loads]
        return ["; ".join(counts), "\n".join(f"{i}. {w}" for i, w in enumerate(words, 1)),
                ", ".join(_load_text(load).lower() for load in loads), f"{problem.answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        crossings = (problem.answer or "").split("; ")
        too_many = "M" * (problem.data["capacity"] + 1)
        return ["; ".join(crossings[:-1]) or "M", f"{problem.answer} or {crossings[-1]}", f"{too_many}; {problem.answer}",
                "; ".join([crossings[0], crossings[0], crossings[0], *crossings[1:]])]


class CrossingRules(Rules[State, Load]):
    """The puzzle over (missionaries left, cannibals left, boat side); a move is the boat's load."""

    def __init__(self, missionaries: int, cannibals: int, capacity: int, margin: int, boat_rule: bool,
                 start: State, target: tuple[int, int] = (0, 0)) -> None:
        self.missionaries, self.cannibals, self.capacity = missionaries, cannibals, capacity
        self.margin, self.boat_rule, self.start, self.target = margin, boat_rule, start, target

    def safe(self, m: int, c: int) -> bool:
        return m == 0 or c - m <= self.margin

    def bank_safe(self, left_m: int, left_c: int) -> bool:
        """Both banks are safe when the left one holds ``left_m`` missionaries and ``left_c`` cannibals."""
        return self.safe(left_m, left_c) and self.safe(self.missionaries - left_m, self.cannibals - left_c)

    def initial(self) -> State:
        return self.start

    def moves(self, state: State) -> list[Load]:
        return [(m, c) for m in range(self.capacity + 1) for c in range(self.capacity + 1 - m) if m + c]

    def check(self, state: State, move: Load) -> str | None:
        m, c = move
        left_m, left_c, side = state
        if m + c == 0:
            return "the boat needs someone to row"
        if m + c > self.capacity:
            return f"the boat holds at most {self.capacity} people"
        here_m, here_c = (left_m, left_c) if side == LEFT else (self.missionaries - left_m, self.cannibals - left_c)
        if m > here_m or c > here_c:
            return "not that many people are on the boat's bank"
        if self.boat_rule and not self.safe(m, c):
            return "the cannibals outnumber the missionaries in the boat"
        new_m, new_c, _ = self.apply(state, move)
        if not self.bank_safe(new_m, new_c):
            return "the cannibals outnumber the missionaries on a bank"
        return None

    def apply(self, state: State, move: Load) -> State:
        left_m, left_c, side = state
        sign = -1 if side == LEFT else 1
        return left_m + sign * move[0], left_c + sign * move[1], 1 - side

    def goal(self, state: State) -> bool:
        return (state[0], state[1]) == self.target


def _rules(data: dict) -> CrossingRules:
    return CrossingRules(data["missionaries"], data["cannibals"], data["capacity"], data["margin"], data["boat_rule"],
                         tuple(data["start"]), tuple(data["goal"]))


def _distances(rules: CrossingRules) -> dict[State, int]:
    """Breadth-first distances from the start to every reachable state (at most (M + 1) * (C + 1) * 2 of them)."""
    # rules.check inlined (this search is most of the generator's time): a load must fit on the boat's bank,
    # be safe in the boat when the boat rule holds, and leave both banks safe; every load of
    # rules.moves already fits the boat and has someone to row
    loads = [load for load in rules.moves(rules.start) if not rules.boat_rule or rules.safe(*load)]
    distance = {rules.start: 0}
    queue = [rules.start]
    for state in queue:  # grows while it is read: a queue
        left_m, left_c, side = state
        here_m, here_c = (left_m, left_c) if side == LEFT else (rules.missionaries - left_m, rules.cannibals - left_c)
        sign, steps = (-1 if side == LEFT else 1), distance[state] + 1
        for m, c in loads:
            if m <= here_m and c <= here_c:
                nxt = (left_m + sign * m, left_c + sign * c, 1 - side)
                if nxt not in distance and rules.bank_safe(nxt[0], nxt[1]):
                    distance[nxt] = steps
                    queue.append(nxt)
    return distance


def _people(m: int, c: int) -> str:
    if not m and not c:
        return "nobody"
    parts = [f"{m} missionar{'y' if m == 1 else 'ies'}" if m else "", f"{c} cannibal{'' if c == 1 else 's'}" if c else ""]
    return " and ".join(p for p in parts if p)


def _load_text(load: Load) -> str:
    return "M" * load[0] + "C" * load[1]


def _read_load(chunk: str) -> Load | None:
    tokens = _TOKEN.findall(chunk.lower())
    if "".join(tokens) != re.sub(r"[\s()]", "", chunk.lower()):
        return None  # other symbols
    counts = {"M": 0, "C": 0}
    pending: int | None = None
    for token in tokens:
        if token.isdigit() or token in _NUMBER_WORDS:
            if pending is not None:
                return None
            pending = int(token) if token.isdigit() else _NUMBER_WORDS[token]
        elif token in _KINDS:
            counts[_KINDS[token]] += 1 if pending is None else pending
            pending = None
        elif set(token) <= {"m", "c"}:  # "mmc": one letter per person
            if pending is not None:
                return None
            counts["M"] += token.count("m")
            counts["C"] += token.count("c")
        elif token not in _FILLER:
            return None
    if pending is not None or counts["M"] > 99 or counts["C"] > 99:
        return None
    return counts["M"], counts["C"]


def _loads_core(text: str) -> list[Load] | None:
    chunks = _SPLIT.split(squeeze_spaces(text).strip())
    if len(chunks) > MAX_CROSSINGS:
        return None
    loads = []
    for chunk in chunks:
        chunk = _NUMBERING.sub("", chunk).strip().rstrip(".")
        if chunk:
            load = _read_load(chunk)
            if load is None:
                return None
            loads.append(load)
    return loads or None


def read_loads(text: str) -> list[Load] | None:
    """The boat loads ``(missionaries, cannibals)`` of the crossings written in ``text``, or ``None``.

    >>> read_loads("MC; M; 2C"), read_loads("1 missionary and 1 cannibal\\n2 cannibals"), read_loads("MC or CC")
    ([(1, 1), (1, 0), (0, 2)], [(1, 1), (0, 2)], None)
    """
    if not isinstance(text, str) or len(text) > MAX_CROSSINGS * 60 + 400:
        return None
    return read_answer(strip_wrappers(unify(text)), _loads_core)
