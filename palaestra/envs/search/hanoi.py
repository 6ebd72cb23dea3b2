"""Tower of Hanoi from a given legal position to all disks on one peg, in the fewest moves.

The start is a random legal position (every disk on a random peg, stacks sorted)
and the target peg is random; from level 2 on the largest disk starts away from
the target, so the solution needs at least ``2**(n-1)`` moves. The answer is a
comma-separated list of moves such as ``A->C, A->B, C->B``. The verifier plays the
moves, rejects an illegal one, and accepts the answer if it ends with every disk
on the target peg in the minimal number of moves (computed at generation by the
classical recursion, which is optimal from any legal position to a single peg).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register

PEGS = "ABC"
MAX_ANSWER_CHARS = 20_000
_FILLER = re.compile(r"->|→|=>|-|>|\bTO\b|[\s,;.\[\]()'\"]")


@register
class Hanoi(Task):
    id = "search/hanoi"
    family = "search"
    description = "Solve a Tower of Hanoi position in the minimum number of moves."
    tags = ("search", "planning", "puzzle")

    @dataclass(frozen=True)
    class Config:
        disks: int
        largest_off_target: bool  # the largest disk must move, so the solution is long

    def config(self, level: int) -> Config:
        return [
            self.Config(disks=4, largest_off_target=False),
            self.Config(disks=5, largest_off_target=False),
            self.Config(disks=6, largest_off_target=True),
            self.Config(disks=7, largest_off_target=True),
            self.Config(disks=8, largest_off_target=True),
        ][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.disks
        while True:
            target = rng.choice(PEGS)
            position = [rng.choice(PEGS) for _ in range(n)]  # position[d - 1]: peg of disk d
            largest_off = position[-1] != target
            if largest_off or (not config.largest_off_target and set(position) != {target}):
                break
        moves: list[str] = []
        _solve(position[:], n, target, moves)
        stacks = _stacks(position)
        lines = "\n".join(f"{peg}: {' '.join(map(str, stacks[peg])) or '(empty)'}" for peg in PEGS)
        prompt = (
            f"Tower of Hanoi with pegs A, B, C and {n} disks numbered 1 (smallest) to {n} (largest). "
            f"The current position, each peg listed from bottom to top:\n\n{lines}\n\n"
            "A move takes the top disk of one peg and puts it on another peg; a disk may never be "
            "put on a smaller disk.\n"
            f"Move all disks onto peg {target} using the minimum possible number of moves.\n"
            "Give the moves in order, separated by commas, each written as FROM->TO with peg letters, "
            "for example: A->C, A->B, C->B"
        )
        return Problem(
            prompt=prompt,
            answer=", ".join(moves),
            data={"disks": n, "stacks": stacks, "target": target, "optimal_moves": len(moves)},
        )

    def verify(self, problem: Problem, answer: str) -> Verdict:
        moves = _read_moves(answer)
        if moves is None:
            return Verdict.unparsed("expected moves like A->C separated by commas")
        stacks = {peg: list(disks) for peg, disks in problem.data["stacks"].items()}
        for i, (source, dest) in enumerate(moves, start=1):
            reason = _illegal(stacks, source, dest)
            if reason:
                return Verdict.wrong(f"move {i} ({source}->{dest}) is illegal: {reason}")
            stacks[dest].append(stacks[source].pop())
        if len(stacks[problem.data["target"]]) != problem.data["disks"]:
            return Verdict.wrong(f"not all disks end on peg {problem.data['target']}")
        optimal = problem.data["optimal_moves"]
        return Verdict.judge(len(moves) == optimal, f"{len(moves)} moves is not the minimum")

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold = problem.answer or ""
        target = problem.data["target"]
        spare = rng.choice([p for p in PEGS if p != target])
        stacks = problem.data["stacks"]
        illegal = next(f"{a}->{b}" for a in PEGS for b in PEGS if a != b and _illegal(stacks, a, b))
        return [
            gold.rsplit(", ", 1)[0] if ", " in gold else "",  # stops one move short
            f"{gold}, {target}->{spare}, {spare}->{target}",  # reaches the goal, two moves too many
            f"{illegal}, {gold}",
        ]


def _solve(position: list[str], disks: int, target: str, moves: list[str]) -> None:
    """Append the optimal moves putting disks 1..``disks`` on ``target``, updating ``position``."""
    if disks == 0:
        return
    here = position[disks - 1]
    if here == target:
        _solve(position, disks - 1, target, moves)
        return
    spare = next(p for p in PEGS if p not in (here, target))
    _solve(position, disks - 1, spare, moves)  # clear everything smaller onto the spare peg
    moves.append(f"{here}->{target}")
    position[disks - 1] = target
    _solve(position, disks - 1, target, moves)


def _stacks(position: list[str]) -> dict[str, list[int]]:
    """Disks on each peg from bottom (largest) to top."""
    return {peg: [d for d in range(len(position), 0, -1) if position[d - 1] == peg] for peg in PEGS}


def _illegal(stacks: dict[str, list[int]], source: str, dest: str) -> str:
    """Why moving the top disk from ``source`` to ``dest`` is illegal ('' if it is legal)."""
    if source == dest:
        return "a disk must move to a different peg"
    if not stacks[source]:
        return f"peg {source} is empty"
    if stacks[dest] and stacks[dest][-1] < stacks[source][-1]:
        return f"disk {stacks[source][-1]} cannot go on the smaller disk {stacks[dest][-1]}"
    return ""


def _read_moves(answer: str) -> list[tuple[str, str]] | None:
    if not isinstance(answer, str) or len(answer) > MAX_ANSWER_CHARS:
        return None
    letters = _FILLER.sub("", answer.upper())
    if not letters or len(letters) % 2 or any(ch not in PEGS for ch in letters):
        return None
    return [(letters[i], letters[i + 1]) for i in range(0, len(letters), 2)]
