"""Water jugs: measure an exact amount with unmarked jugs in the fewest steps.

Jugs have random capacities and start with random contents. A step fills a jug from the tap,
empties it down the drain, or pours one jug into another until the first is empty or the second
full. At some levels there is no tap and no drain (the classic decanting puzzle: only pours, the
total is conserved). The goal is an exact amount in one named jug, in any jug, or two amounts in
two named jugs. The answer is a list of steps such as ``fill A, pour A B, empty B`` (``pour A
into B``, ``A -> B`` and numbered lists too); the verifier replays it
(:class:`palaestra.solvers.simulate.Rules`) and accepts it if it reaches the goal in the minimum
number of steps, found by breadth-first search over the reachable contents at generation.

The jugs' capacities come in drawn order (not sorted by size), the goal's distance is drawn first (evenly over the
distances the level allows that some goal lies at) and then a goal at it, and level 0 needs 3 to 5 steps: in v2
(sorted capacities, goals drawn among amounts, 2 to 4 steps at level 0) the constant plan "fill A, pour A B" reached a
goal in a shortest way in 12% of level 0, and "fill A, pour A C" in 11%; now the best constant plan found (every two-step
plan, and three-step ones extending the best twenty) solves 7%.

Generation speed: about 900 problems/s at level 4 on this 2-core machine, just under the 1,000 mark. Each draw
runs a breadth-first search over every reachable jug state (already coded states, about 90% of the time), and
about 3 of 4 draws are redrawn because no goal amount lies at a shortest distance in the level's step range;
the search gives the minimum step count the verifier grades against.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.envs.planning.common import read_steps, without_label
from palaestra.solvers.simulate import Rules

MAX_STEPS = 300
NAMES = "ABCD"

Contents = tuple[int, ...]
Step = tuple[str, int, int]  # ("fill", jug, -1), ("empty", jug, -1), ("pour", source, target)

_JUG = r"(?:the\s+)?(?:jug\s+)?([A-D])\b"
_STEP = re.compile(
    rf"(?:(fill|empty)\s+(?:up\s+)?{_JUG}"
    rf"|(?:pour\s+)?(?:from\s+)?{_JUG}\s*(?:->|→|=>|\binto\b|\bto\b|\bin\b|,|\s)\s*(?:the\s+)?(?:jug\s+)?([A-D])\b)",
    re.IGNORECASE,
)


@register
class WaterJugs(Task):
    id = "planning/water_jugs"
    version = 3  # v3: capacities in drawn order (were sorted), the goal's distance drawn first, level 0 needs 3-5 steps
    family = "planning"
    description = "Measure an exact amount of water with unmarked jugs in the fewest fill/empty/pour steps."
    tags = ("planning", "puzzle", "search")

    @dataclass(frozen=True)
    class Config:
        jugs: int
        max_capacity: int
        tap: bool  # fill and empty allowed (else only pours)
        goal: str  # "any" jug, "one" named jug, "two" named jugs
        min_steps: int  # the shortest solution takes between min_steps and max_steps steps
        max_steps: int

    presets = (
        Config(jugs=3, max_capacity=12, tap=True, goal="any", min_steps=3, max_steps=5),
        Config(jugs=3, max_capacity=12, tap=False, goal="one", min_steps=4, max_steps=6),
        Config(jugs=3, max_capacity=16, tap=False, goal="one", min_steps=6, max_steps=8),
        Config(jugs=3, max_capacity=16, tap=True, goal="two", min_steps=7, max_steps=10),
        Config(jugs=4, max_capacity=16, tap=False, goal="two", min_steps=8, max_steps=12),
    )
    bounded = "growing its sizes past the presets exhausts a fixed pool the generator draws from (names, letters or tables)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        names = NAMES[: config.jugs]

        def draw() -> tuple[Contents, Contents, dict[int, int], list[Step]] | None:
            capacities = tuple(rng.sample(range(2, config.max_capacity + 1), config.jugs))
            start = tuple(rng.randrange(c + 1) for c in capacities)
            if not config.tap and sum(start) == 0:
                return None
            order, links = _breadth_first(capacities, start, config.tap)
            jugs = sorted(rng.sample(range(config.jugs), 2 if config.goal == "two" else 1))
            nearest: dict[tuple[int, ...], int] = {}  # each goal's closest state's index (breadth-first order)
            if config.goal == "any":
                for index, state in enumerate(order):
                    for amount in state:
                        nearest.setdefault((amount,), index)
            elif config.goal == "two":
                first, second = jugs
                for index, state in enumerate(order):
                    nearest.setdefault((state[first], state[second]), index)
            else:
                for index, state in enumerate(order):
                    nearest.setdefault((state[jugs[0]],), index)
            options = sorted(key for key, index in nearest.items()
                             if config.min_steps <= links[index][1] <= config.max_steps)
            if not options:
                return None
            # the distance first, then a goal at it: goals two steps away outnumber the rest, and a constant
            # two-step plan ("fill A, pour A C") reached one of them in 12% of level 0 (v2)
            by_distance: dict[int, list[tuple[int, ...]]] = {}
            for option in options:
                by_distance.setdefault(links[nearest[option]][1], []).append(option)
            key = rng.choice(by_distance[rng.choice(sorted(by_distance))])
            goal = {-1: key[0]} if config.goal == "any" else dict(zip(jugs, key))
            plan: list[Step] = []
            index = nearest[key]
            for _ in range(len(order)):
                if index == 0:
                    break
                index, _, step = links[index]
                plan.append(step)
            return capacities, start, goal, plan[::-1]

        capacities, start, goal, plan = retry(draw, what="a jug puzzle needing enough steps")
        answer = ", ".join(_step_text(step, names) for step in plan)
        if -1 in goal:
            aim = f"some jug (any one) holds exactly {_litres(goal[-1])}"
        else:
            aim = " and ".join(f"jug {names[j]} holds exactly {_litres(v)}" for j, v in sorted(goal.items()))
        jugs = "\n".join(f"- jug {n}: capacity {_litres(c)}, now holding {_litres(s)}"
                         for n, c, s in zip(names, capacities, start))
        steps = ("- fill X: fill jug X to the brim from the tap;\n- empty X: pour all of jug X down the drain;\n"
                 if config.tap else "There is no tap and no drain: water can only be poured between jugs.\n")
        example = "fill A, pour A B, empty B" if config.tap else "pour A B, pour B C"  # whatever the answer
        prompt = (
            f"You have {config.jugs} unmarked water jugs:\n{jugs}\n\nThe allowed steps are:\n{steps}"
            "- pour X Y: pour from jug X into jug Y until X is empty or Y is full.\n\n"
            f"Reach a state where {aim}, using as few steps as possible (only a shortest solution is accepted).\n"
            f"Give the steps in order, separated by commas, for example: {example}"
        )
        return Problem(prompt=prompt, answer=answer, data={
            "capacities": list(capacities), "start": list(start), "tap": config.tap,
            "goal": [[j, v] for j, v in sorted(goal.items())], "optimal": len(plan),
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        names = NAMES[: len(problem.data["capacities"])]
        steps = read_steps(without_label(answer), _STEP, lambda m: _read_step(m, names), max_count=MAX_STEPS)
        if steps is None:
            return Verdict.unparsed("expected steps such as: fill A, pour A B, empty B")
        run = _rules(problem).run(steps)
        if run.illegal is not None:
            bad = run.illegal
            return Verdict.wrong(f"step {bad.index + 1} ({_step_text(bad.move, names)}) is not allowed: {bad.reason}")
        if not run.solved:
            return Verdict.wrong("the steps do not reach the goal")
        optimal = problem.data["optimal"]
        return Verdict.judge(len(steps) <= optimal, f"{len(steps)} steps; the goal can be reached in {optimal}")

    def difficulty(self, problem: Problem) -> float:
        """Steps in a shortest solution."""
        return float(problem.data["optimal"])

    def spellings(self, problem: Problem) -> list[str]:
        steps = (problem.answer or "").split(", ")
        arrows = [re.sub(r"^pour (\w) (\w)$", r"\1 -> \2", s) for s in steps]
        into = [re.sub(r"^pour (\w) (\w)$", r"pour jug \1 into jug \2", s) for s in steps]
        return [*super().spellings(problem), "\n".join(f"{i}. {s}" for i, s in enumerate(steps, 1)),
                ", ".join(arrows), "; ".join(into), (problem.answer or "").upper(),
                f"{problem.answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        steps = (problem.answer or "").split(", ")
        names = NAMES[: len(problem.data["capacities"])]
        wrong = [", ".join(steps[:-1]) or "pour A B", f"{problem.answer} or {steps[-1]}"]
        first = rng.choice(names)
        if problem.data["tap"]:
            wrong.append(f"fill {first}, empty {first}, {problem.answer}")  # valid but two steps too long
        full = [n for n, c, s in zip(names, problem.data["capacities"], problem.data["start"]) if c == s]
        empty = [n for n, s in zip(names, problem.data["start"]) if s == 0]
        if empty and len(names) > 1:
            other = next(n for n in names if n != empty[0])
            wrong.append(f"pour {empty[0]} {other}, {problem.answer}")  # pouring from an empty jug is refused
        if full:
            wrong.append(f"fill {full[0]}, {problem.answer}")
        return wrong


class JugRules(Rules[Contents, Step]):
    """The jugs puzzle: ``goal`` maps a jug to the amount wanted in it (key -1: in any jug)."""

    def __init__(self, capacities: Contents, start: Contents, goal: dict[int, int], tap: bool) -> None:
        self.capacities, self.start, self.wanted, self.tap = capacities, start, goal, tap

    def initial(self) -> Contents:
        return self.start

    def moves(self, state: Contents) -> list[Step]:
        n = len(state)
        pours: list[Step] = [("pour", a, b) for a in range(n) for b in range(n) if a != b]
        if not self.tap:
            return pours
        return [("fill", j, -1) for j in range(n)] + [("empty", j, -1) for j in range(n)] + pours

    def check(self, state: Contents, move: Step) -> str | None:
        kind, a, b = move
        if not self.tap and kind != "pour":
            return "there is no tap and no drain"
        if kind == "fill" and state[a] == self.capacities[a]:
            return "the jug is already full"
        if kind == "empty" and state[a] == 0:
            return "the jug is already empty"
        if kind == "pour":
            if a == b:
                return "a jug cannot be poured into itself"
            if state[a] == 0:
                return "the jug poured from is empty"
            if state[b] == self.capacities[b]:
                return "the jug poured into is full"
        return None

    def apply(self, state: Contents, move: Step) -> Contents:
        kind, a, b = move
        jugs = list(state)
        if kind == "fill":
            jugs[a] = self.capacities[a]
        elif kind == "empty":
            jugs[a] = 0
        else:
            amount = min(jugs[a], self.capacities[b] - jugs[b])
            jugs[a] -= amount
            jugs[b] += amount
        return tuple(jugs)

    def goal(self, state: Contents) -> bool:
        if -1 in self.wanted:
            return self.wanted[-1] in state
        return all(state[j] == v for j, v in self.wanted.items())


def _rules(problem: Problem) -> JugRules:
    data = problem.data
    return JugRules(tuple(data["capacities"]), tuple(data["start"]), {j: v for j, v in data["goal"]}, data["tap"])


def _breadth_first(capacities: Contents, start: Contents, tap: bool) -> tuple[list[Contents], list[tuple]]:
    """Every state reachable from ``start`` in breadth-first order, and for each, at the same index,
    ``(index of the previous state, distance, step)`` (the start: ``(-1, 0, None)``). The state space
    is small: at most the product of capacities + 1.

    Each state's successors are tried in a fixed order (for each jug: fill it, empty it, pour it into
    each other jug in turn). A state is known by its number in a mixed radix (jug j's amount times
    the product of the earlier jugs' capacities + 1), so a successor seen before costs no tuple.

    >>> order, links = _breadth_first((3, 5), (0, 0), tap=True)
    >>> order[:3], links[order.index((3, 2))], order[links[order.index((3, 2))][0]]
    ([(0, 0), (3, 0), (0, 5)], (2, 2, ('pour', 1, 0)), (0, 5))
    """
    jugs = range(len(capacities))
    weights = [1]
    for capacity in capacities[:-1]:
        weights.append(weights[-1] * (capacity + 1))
    fills = [("fill", a, -1) for a in jugs]
    empties = [("empty", a, -1) for a in jugs]
    pours = [[(("pour", a, b), b, weights[b] - weights[a]) for b in jugs if b != a] for a in jugs]
    start_code = sum(amount * weight for amount, weight in zip(start, weights))
    seen, codes = {start_code}, [start_code]
    order, links = [start], [(-1, 0, None)]
    for index, state in enumerate(order):  # grows while it is read: a queue
        code, distance = codes[index], links[index][1] + 1
        for a in jugs:
            amount = state[a]
            if tap:
                if amount < capacities[a]:
                    filled = code + (capacities[a] - amount) * weights[a]
                    if filled not in seen:
                        seen.add(filled)
                        codes.append(filled)
                        order.append(state[:a] + (capacities[a],) + state[a + 1 :])
                        links.append((index, distance, fills[a]))
                if amount:
                    emptied = code - amount * weights[a]
                    if emptied not in seen:
                        seen.add(emptied)
                        codes.append(emptied)
                        order.append(state[:a] + (0,) + state[a + 1 :])
                        links.append((index, distance, empties[a]))
            if not amount:
                continue
            for step, b, shift in pours[a]:
                room = capacities[b] - state[b]
                if room:
                    moved = amount if amount < room else room
                    poured = code + moved * shift
                    if poured not in seen:
                        seen.add(poured)
                        codes.append(poured)
                        after = list(state)
                        after[a] -= moved
                        after[b] += moved
                        order.append(tuple(after))
                        links.append((index, distance, step))
    return order, links


def _read_step(match: re.Match[str], names: str) -> Step | None:
    if match.group(1):
        jug = match.group(2).upper()
        return (match.group(1).lower(), names.index(jug), -1) if jug in names else None
    a, b = match.group(3).upper(), match.group(4).upper()
    return ("pour", names.index(a), names.index(b)) if a in names and b in names else None


def _step_text(step: Step, names: str) -> str:
    kind, a, b = step
    return f"pour {names[a]} {names[b]}" if kind == "pour" else f"{kind} {names[a]}"



def _litres(amount: int) -> str:
    return f"{amount} litre" if amount == 1 else f"{amount} litres"
