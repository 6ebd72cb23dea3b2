"""The Tower of Hanoi's rules, for the classic puzzle (``search/hanoi``) and its variants (``planning/hanoi_variants``).

A position is the peg of each disk, smallest first: ``"ABB"`` has disk 1 on A and disks 2 and 3
on B (a peg's disks are always stacked largest at the bottom, so the string says everything). A
move ``(source, target)`` takes the top (smallest) disk of ``source`` onto ``target``; it may not
land on a smaller disk. A variant may also restrict which ``(source, target)`` pairs are allowed.

Example::

    >>> rules = HanoiRules("AA", "CC")
    >>> rules.run([("A", "B"), ("A", "C"), ("B", "C")]).solved
    True
    >>> illegal("AB", ("B", "A"))
    'disk 2 cannot go on the smaller disk 1'
    >>> print(show("ABA", "ABC"))
    A: 3 1
    B: 2
    C: (empty)
"""

from __future__ import annotations

from palaestra.solvers.simulate import Rules

Move = tuple[str, str]


def every_move(pegs: str) -> tuple[Move, ...]:
    """Every move between two different pegs, in the order of ``pegs``."""
    return tuple((a, b) for a in pegs for b in pegs if a != b)


def illegal(position: str, move: Move) -> str | None:
    """Why ``move`` breaks the disk rules in ``position`` (same peg, empty peg, onto a smaller disk), or None."""
    source, target = move
    if source == target:
        return "a disk must move to a different peg"
    top = position.find(source)  # the smallest disk on the source peg
    if top < 0:
        return f"peg {source} is empty"
    below = position.find(target)
    if 0 <= below < top:
        return f"disk {top + 1} cannot go on the smaller disk {below + 1}"
    return None


def moved(position: str, move: Move) -> str:
    """The position after a legal ``move``."""
    top = position.find(move[0])
    return position[:top] + move[1] + position[top + 1:]


def show(position: str, pegs: str) -> str:
    """One line per peg, its disks from the bottom up."""
    stacks = {peg: [d for d in range(len(position), 0, -1) if position[d - 1] == peg] for peg in pegs}
    return "\n".join(f"{peg}: {' '.join(map(str, stacks[peg])) or '(empty)'}" for peg in pegs)


class HanoiRules(Rules[str, Move]):
    """The puzzle from ``start`` to ``goal`` with the moves ``allowed`` (default: any move among ``pegs``)."""

    def __init__(self, start: str, goal: str, pegs: str = "ABC", allowed: tuple[Move, ...] | None = None) -> None:
        self.start, self.target = start, goal
        self.allowed = every_move(pegs) if allowed is None else allowed

    def initial(self) -> str:
        return self.start

    def moves(self, state: str) -> tuple[Move, ...]:
        return self.allowed

    def check(self, state: str, move: Move) -> str | None:
        if move[0] != move[1] and move not in self.allowed:
            return f"this variant does not allow a move from {move[0]} to {move[1]}"
        return illegal(state, move)

    def apply(self, state: str, move: Move) -> str:
        return moved(state, move)

    def goal(self, state: str) -> bool:
        return state == self.target
