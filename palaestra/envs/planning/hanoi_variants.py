"""Tower of Hanoi variants: restricted moves and more pegs, between random positions, in the fewest moves.

Four variants (``planning/hanoi`` is the classic three-peg puzzle): *linear* (pegs A, B, C, D in
a row; a disk may only move to a neighbouring peg), *cyclic* (moves only clockwise: A to B, B to
C, C to A), *four* (four pegs, any move: Reve's puzzle) and *star* (four pegs; every move goes
to or from the centre peg A). The start and the goal are random positions (every disk on some
peg, each peg sorted); at some levels the largest disk must change pegs, which makes solutions
long. The answer is a list of moves such as ``A->B, B->C`` (read by
:func:`palaestra.verifiers.moves.read_place_moves`); the verifier replays it under the variant's
rules (:class:`palaestra.solvers.simulate.Rules`) and accepts it if it reaches the goal in the
minimum number of moves, found by breadth-first search over the at most ``4 ** disks`` positions
(a lean one on position strings: generation stays a few milliseconds at six disks on four pegs).

Version 3: *linear* has four pegs in a row, not three, and draws a one-move lookahead solves are redrawn. Three
pegs in a row join all ``3 ** disks`` positions in one path (each position has at most two moves, one of them
back), so never undoing the last move reached the goal by the shortest route whenever the first move went the
right way. The lookahead (the legal move to a new position that puts the most disks on their goal pegs, larger
disks first; declared in :meth:`HanoiVariants.heuristics`) solved 0.27, 0.18, 0.16, 0.13, 0.14 of levels 0-4
(three-peg linear: 45-60%; every variant's small draws at level 0), now none; the same lookahead scoring pegs by
distance solves at most 0.06, and a two-move lookahead 0.12, 0.11, 0.09, 0.05, 0.03 (was 0.37, 0.24, 0.25,
0.19, 0.13).

Generation speed: about 600 problems/s at level 4 on this 2-core machine (1,100 before version 3: linear's
search now runs over 4^6 positions, not 3^6, and about 1 draw in 7 is redrawn for the lookahead). Nearly all
the time is the two-sided breadth-first search over up to 4^6 disk positions that finds the minimum move count
the verifier grades against (any shortest sequence is accepted, so only its length is known in advance).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.generators.hanoi import HanoiRules, Move, show
from palaestra.verifiers.moves import read_place_moves

MAX_MOVES = 2_000
VARIANTS = {
    # four pegs, not three: three in a row join every position in one path, leaving no choice but the first move
    "linear": ("ABCD", tuple(p for a, b in zip("ABC", "BCD") for p in ((a, b), (b, a)))),
    "cyclic": ("ABC", (("A", "B"), ("B", "C"), ("C", "A"))),
    "four": ("ABCD", tuple((a, b) for a in "ABCD" for b in "ABCD" if a != b)),
    "star": ("ABCD", tuple(p for x in "BCD" for p in (("A", x), (x, "A")))),
}
RULES = {
    "linear": "The four pegs stand in a row A, B, C, D: a disk may only move to a neighbouring peg (A to B, B to A, "
              "B to C, C to B, C to D, D to C), never past one.",
    "cyclic": "The pegs stand in a circle: a disk may only move clockwise, from A to B, from B to C or from C to A.",
    "four": "There are four pegs and a disk may move from any peg to any other.",
    "star": "There are four pegs; A is the centre, and every move must go from A to another peg or from another peg "
            "to A (never directly between B, C and D).",
}



@register
class HanoiVariants(Task):
    id = "planning/hanoi_variants"
    version = 3  # v3: linear has four pegs in a row (three in a row leave one choice: the first move's direction)
    family = "planning"
    description = "Tower of Hanoi with restricted moves or four pegs, between two positions, in the fewest moves."
    tags = ("planning", "puzzle", "search")

    @dataclass(frozen=True)
    class Config:
        disks: tuple[tuple[str, int, bool], ...]  # per variant: its name, disks, whether the largest disk must move

    presets = (
        Config(disks=(("linear", 4, False), ("cyclic", 4, False), ("four", 4, False), ("star", 4, False))),
        Config(disks=(("linear", 4, True), ("cyclic", 5, False), ("four", 5, False), ("star", 5, False))),
        Config(disks=(("linear", 5, False), ("cyclic", 5, True), ("four", 5, True), ("star", 5, True))),
        Config(disks=(("linear", 5, True), ("cyclic", 6, False), ("four", 6, False), ("star", 6, False))),
        Config(disks=(("linear", 6, False), ("cyclic", 6, True), ("four", 6, True), ("star", 6, True))),
    )
    bounded = "its levels are kinds of problem (the `disks` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        variant, n, largest_moves = rng.choice(config.disks)
        pegs, _ = VARIANTS[variant]

        def draw() -> tuple[str, str, list[Move]] | None:
            start = "".join(rng.choice(pegs) for _ in range(n))  # position[d - 1]: the peg of disk d
            goal = "".join(rng.choice(pegs) for _ in range(n))
            if start == goal or (largest_moves and start[-1] == goal[-1]):
                return None
            plan = _shortest_plan(VARIANTS[variant][1], start, goal)
            if _lookahead(VARIANTS[variant][1], start, goal, len(plan))[1] == goal:
                return None  # the one-move lookahead (a declared heuristic) finds a shortest plan: no puzzle
            return start, goal, plan

        start, goal, moves = retry(draw, what="two different positions")
        answer = ", ".join(f"{a}->{b}" for a, b in moves)
        allowed = VARIANTS[variant][1]
        example = ", ".join(f"{a}->{b}" for a, b in allowed[:2])  # the notation, whatever the answer
        prompt = (
            f"A Tower of Hanoi variant with pegs {', '.join(pegs)} and {n} disks numbered 1 (smallest) to {n} "
            f"(largest). {RULES[variant]} As usual, a move takes the top disk of one peg and puts it on another peg, "
            "and a disk may never be put on a smaller disk. Each peg is listed from bottom to top.\n\n"
            f"Start position:\n{show(start, pegs)}\n\nGoal position:\n{show(goal, pegs)}\n\n"
            "Reach the goal position from the start position using the minimum possible number of moves.\n"
            f"Give the moves in order, separated by commas, each written as FROM->TO with peg letters, for example: "
            f"{example}"
        )
        return Problem(prompt=prompt, answer=answer, data={
            "variant": variant, "disks": n, "largest_moves": largest_moves, "start": start, "goal": goal,
            "optimal": len(moves),
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        data = problem.data
        pegs = VARIANTS[data["variant"]][0]
        moves = read_place_moves(answer, pegs, max_count=MAX_MOVES, pieces=True)
        if moves is None:
            return Verdict.unparsed("expected moves like A->B separated by commas")
        rules = variant_rules(data["variant"], data["start"], data["goal"])
        state = rules.initial()
        for number, (source, target, disk) in enumerate(moves, start=1):
            reason = rules.check(state, (source, target))
            if reason is None and disk is not None and disk != state.find(source) + 1:
                reason = f"the top disk of peg {source} is disk {state.find(source) + 1}, not disk {disk}"
            if reason is not None:
                return Verdict.wrong(f"move {number} ({source}->{target}) is illegal: {reason}")
            state = rules.apply(state, (source, target))
        if not rules.goal(state):
            return Verdict.wrong("the moves do not reach the goal position")
        optimal = data["optimal"]
        return Verdict.judge(len(moves) <= optimal, f"{len(moves)} moves is not the minimum ({optimal})")

    def difficulty(self, problem: Problem) -> float:
        """The disks, plus half a disk when the largest one must change pegs (which forces the longest plans).

        Not the optimal number of moves: that spans 4 to 700 within one level, mostly by variant (four
        pegs give short plans, cyclic moves long ones), so its level means are noise; within each variant
        the optimum grows with this measure at every level.
        """
        return problem.data["disks"] + 0.5 * bool(problem.data.get("largest_moves"))

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def lookahead(problem: Problem) -> str:
            data = problem.data
            moves, _ = _lookahead(VARIANTS[data["variant"]][1], data["start"], data["goal"], MAX_MOVES)
            return ", ".join(f"{a}->{b}" for a, b in moves)

        return {"one-move lookahead: the move putting the most (largest-first) disks on their goal pegs": lookahead}

    def spellings(self, problem: Problem) -> list[str]:
        moves = [tuple(m.split("->")) for m in (problem.answer or "").split(", ")]
        return [*super().spellings(problem), "\n".join(f"{i}. {a}->{b}" for i, (a, b) in enumerate(moves, 1)),
                "; ".join(f"{a} to {b}" for a, b in moves), " ".join(f"({a}, {b})" for a, b in moves),
                ", ".join(f"{a.lower()} → {b.lower()}" for a, b in moves), f"{problem.answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        pegs, allowed = VARIANTS[data["variant"]]
        rules = variant_rules(data["variant"], data["start"], data["goal"])
        moves = (problem.answer or "").split(", ")
        wrong = [f"{problem.answer} or {moves[-1]}"]
        if len(moves) > 1:
            wrong.append(", ".join(moves[:-1]))
        forbidden = [(a, b) for a in pegs for b in pegs if a != b and (a, b) not in allowed]
        start = rules.initial()
        illegal = [(a, b) for a, b in forbidden if start.find(a) >= 0]
        if illegal:
            a, b = rng.choice(illegal)
            wrong.append(f"{a}->{b}, {problem.answer}")  # a move the variant forbids
        home = data["goal"][0]  # disk 1 is always on top: walking it round a loop of pegs changes nothing
        loop = [home, next(b for a, b in allowed if a == home)]
        for _ in range(len(pegs)):
            if (loop[-1], home) in allowed:
                break
            loop.append(next(b for a, b in allowed if a == loop[-1]))
        loop.append(home)
        wrong.append(", ".join([problem.answer or "", *(f"{a}->{b}" for a, b in zip(loop, loop[1:]))]))
        return wrong


def variant_rules(variant: str, start: str, goal: str) -> HanoiRules:
    """The puzzle of ``variant`` from ``start`` to ``goal``."""
    pegs, allowed = VARIANTS[variant]
    return HanoiRules(start, goal, pegs, allowed)


def _lookahead(allowed: tuple[Move, ...], start: str, goal: str, limit: int) -> tuple[list[Move], str]:
    """A one-move lookahead's moves (at most ``limit``) and where they end: each move is the legal one, to a
    position not seen before, that puts the most disks on their goal pegs, larger disks first (disk d weighs
    2 ** d); it stops at the goal or when every move leads back."""
    position, seen = start, {start}
    moves: list[Move] = []
    while position != goal and len(moves) < limit:
        best: tuple[int, str, Move] | None = None
        for source, target in allowed:
            top = position.find(source)
            if top < 0 or 0 <= position.find(target) < top:
                continue
            nxt = position[:top] + target + position[top + 1:]
            score = sum(1 << d for d in range(len(nxt)) if nxt[d] == goal[d])
            if nxt not in seen and (best is None or score > best[0]):
                best = (score, nxt, (source, target))
        if best is None:
            break
        position = best[1]
        seen.add(position)
        moves.append(best[2])
    return moves, position


def _shortest_plan(allowed: tuple[Move, ...], start: str, goal: str) -> list[Move]:
    """A shortest plan, by breadth-first search from both ends (every position reaches every other in these
    variants). The search from the goal walks moves backwards: a position's predecessors are its successors
    under the reversed moves. Whole layers are expanded, and the best meeting within the first layer that
    meets is optimal; this keeps four pegs with six disks (4,096 positions) to a few hundred visited."""
    reverse = tuple((b, a) for a, b in allowed)
    seen = ({start: None}, {goal: None})  # position -> (neighbour towards its own end, the forward move)
    layers = ([start], [goal])
    for _ in range(2 * 4 ** len(start)):
        side = 0 if len(layers[0]) <= len(layers[1]) else 1
        own, other = seen[side], seen[1 - side]
        layer, meets = [], []
        for position in layers[side]:
            for source, target in (allowed if side == 0 else reverse):
                # illegal() and moved() inlined (this loop is the generator's hot spot): the smallest disk on
                # the source peg moves, unless the peg is empty or a smaller disk tops the target peg
                top = position.find(source)
                if top < 0 or 0 <= position.find(target) < top:
                    continue
                nxt = position[:top] + target + position[top + 1:]
                if nxt not in own:
                    own[nxt] = (position, (source, target) if side == 0 else (target, source))
                    layer.append(nxt)
                    if nxt in other:
                        meets.append(nxt)
        if meets or start == goal:
            return _join(seen, min(meets, key=lambda m: _depth(seen[0], m) + _depth(seen[1], m)) if meets else start)
        layers = (layer, layers[1]) if side == 0 else (layers[0], layer)
    return []


def _depth(parents: dict[str, tuple[str, Move] | None], position: str) -> int:
    depth = 0
    for _ in range(len(parents)):
        step = parents[position]
        if step is None:
            break
        position = step[0]
        depth += 1
    return depth


def _join(seen: tuple[dict, dict], meet: str) -> list[Move]:
    """The plan from the start to ``meet`` (forward parents) followed by the plan from ``meet`` to the goal."""
    head: list[Move] = []
    position = meet
    for _ in range(len(seen[0])):
        step = seen[0][position]
        if step is None:
            break
        position, move = step
        head.append(move)
    tail: list[Move] = []
    position = meet
    for _ in range(len(seen[1])):
        step = seen[1][position]
        if step is None:
            break
        position, move = step
        tail.append(move)
    return head[::-1] + tail

