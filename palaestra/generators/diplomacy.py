"""Diplomacy-lite: a small map, armies only, simultaneous orders and a simplified adjudication.

The rules, for ``games/diplomacy_lite`` (and any single-turn twin that asks for one turn's result):

- A *map* is a list of province names with an undirected adjacency; some provinces are supply
  centres. A *position* is the armies (one per province at most, each of a power) and the owner of
  each centre. Powers are numbered, 0 the player's.
- *Orders*, one per army: hold (``("H",)``), move to an adjacent province (``("M", dest)``), support
  an army's hold (``("SH", where)``: the supporter is adjacent to ``where``), support an army's move
  (``("SM", where, dest)``: the supporter is adjacent to ``dest``, the army at ``where`` is too).
- Adjudication (:func:`adjudicate`), all orders at once:

  1. A support is *cut* when an army of another power is ordered into the supporter's province (even
     if that move fails), unless it comes from the province the supported move goes to. A support is *void* when the
     army it names does not do what it says (holding or supporting for a hold support; that exact
     move for a move support).
  2. A move's strength is 1 plus its supports that are neither cut nor void. An army that does not
     move (it holds or supports) defends with 1 plus such hold supports; an army whose move fails
     defends with 1.
  3. A move succeeds only when it is strictly stronger than every other move into the same
     province and than the province's defence: 0 when the province is empty or its army moves
     away; the army's defence when it stays; the strength of its move when the army there moves
     into the mover's own province (two armies cannot pass each other). Equal strengths: nobody
     enters (a standoff). A move never dislodges an army of its own power. Armies moving round a
     closed ring (three or more), each the strongest move into its province, all move.
  4. An army that stays while another army enters its province is dislodged and destroyed (no
     retreats).
  5. Afterwards each army standing on a supply centre makes its power that centre's owner; an empty
     centre keeps its owner. There are no builds.

- Scripted powers order by fixed, stated rules (:data:`POLICIES`): ``defend`` (each army supports
  the hold of the first, by name, adjacent army of its power that has an enemy army next to it, else
  holds) and ``advance`` (each army steps along a shortest path toward the nearest centre its power
  does not own, ties by name; it holds rather than enter a province where an army of its own power
  stands).

Example (a supported attack dislodges a lone defender; the province names are indices here)::

    >>> line = Map(("A", "B", "C"), ((1, 2), (0, 2), (0, 1)), (1,))
    >>> after, report = adjudicate(line, {0: 0, 2: 0, 1: 1}, {0: ("M", 1), 2: ("SM", 0, 1), 1: ("H",)})
    >>> sorted(after.items()), report[1]
    ([(1, 0), (2, 0)], 'dislodged and destroyed')
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

Order = tuple[Any, ...]  # ("H",) | ("M", dest) | ("SH", where) | ("SM", where, dest)
Units = dict[int, int]  # province -> power

POWER_NAMES = ("Blue", "Red", "Green")
POLICIES = {
    "defend": "each of its armies supports the hold of the first (by province name) adjacent army of its own power "
              "that has an army of another power next to it; an army with no such neighbour holds",
    "advance": "each of its armies moves one step along a shortest path toward the nearest supply centre its power "
               "does not own (ties: the centre whose name comes first, then the step whose name comes first); it "
               "holds instead when that step is a province where an army of its own power stands, or when every "
               "centre is already its power's",
}


@dataclass(frozen=True)
class Map:
    """Province names, the neighbours of each province (sorted indices) and the supply centres (sorted indices)."""

    names: tuple[str, ...]
    neighbours: tuple[tuple[int, ...], ...]
    centres: tuple[int, ...]

    @cached_property
    def distances(self) -> tuple[tuple[int, ...], ...]:
        """All-pairs numbers of steps (breadth-first search from each province)."""
        rows = []
        for start in range(len(self.names)):
            far = [-1] * len(self.names)
            far[start] = 0
            queue = deque([start])
            while queue:
                here = queue.popleft()
                for other in self.neighbours[here]:
                    if far[other] < 0:
                        far[other] = far[here] + 1
                        queue.append(other)
            rows.append(tuple(far))
        return tuple(rows)

    @cached_property
    def by_name(self) -> tuple[int, ...]:
        """Province indices in the alphabetical order of their names (the policies' tie order)."""
        return tuple(sorted(range(len(self.names)), key=lambda p: self.names[p]))

    def adjacent(self, a: int, b: int) -> bool:
        return b in self.neighbours[a]


def illegal(board: Map, units: Units, where: int, order: Order) -> str | None:
    """Why the army at ``where`` may not be given ``order`` (geometry only), or None."""
    names = board.names
    kind = order[0]
    if kind == "H":
        return None
    if kind == "M":
        dest = order[1]
        return None if board.adjacent(where, dest) else f"{names[where]} is not adjacent to {names[dest]}"
    supported = order[1]
    if supported == where:
        return f"the army in {names[where]} cannot support itself"
    if supported not in units:
        return f"there is no army in {names[supported]} to support"
    if kind == "SH":
        if not board.adjacent(where, supported):
            return f"{names[where]} is not adjacent to {names[supported]}, so it cannot support its hold"
        return None
    dest = order[2]
    if not board.adjacent(supported, dest):
        return f"the army in {names[supported]} cannot move to {names[dest]} (not adjacent)"
    if dest == where:
        return f"the army in {names[where]} cannot support a move into its own province"
    if not board.adjacent(where, dest):
        return f"{names[where]} is not adjacent to {names[dest]}, so it cannot support a move there"
    return None


def adjudicate(board: Map, units: Units, orders: dict[int, Order]) -> tuple[Units, dict[int, str]]:
    """The armies after ``orders`` (one legal order per army; a missing one holds) and what happened to each.

    The report maps each army's starting province to ``"moved"``, ``"bounced"``, ``"held"``,
    ``"support given"``, ``"support cut"``, ``"support void"`` or ``"dislodged and destroyed"``.
    """
    moves = {p: o[1] for p, o in orders.items() if o[0] == "M" and p in units}
    into: dict[int, list[int]] = {}
    for source, dest in moves.items():
        into.setdefault(dest, []).append(source)
    strength = dict.fromkeys(moves, 1)
    defence = {p: 1 for p in units if p not in moves}
    report: dict[int, str] = {}
    for p, order in orders.items():
        kind = order[0]
        if kind not in ("SH", "SM") or p not in units:
            continue
        aimed = order[2] if kind == "SM" else -1
        if any(units[a] != units[p] and a != aimed for a in into.get(p, ())):
            report[p] = "support cut"
        elif kind == "SH" and order[1] in defence:
            defence[order[1]] += 1
            report[p] = "support given"
        elif kind == "SM" and moves.get(order[1]) == order[2]:
            strength[order[1]] += 1
            report[p] = "support given"
        else:
            report[p] = "support void"
    success: dict[int, bool] = {}
    pending = []
    for dest, sources in into.items():
        best = max(strength[s] for s in sources)
        leaders = [s for s in sources if strength[s] == best]
        for s in sources:
            if len(leaders) > 1 or s != leaders[0]:
                success[s] = False
            else:
                pending.append(s)
    while pending:
        undecided = []
        for s in pending:
            dest = moves[s]
            if dest not in units:
                success[s] = True
            elif units[dest] == units[s] and (dest not in moves or moves[dest] == s):
                success[s] = False  # never dislodge one's own army (nor swap with it)
            elif dest not in moves:
                success[s] = strength[s] > defence[dest]
            elif moves[dest] == s:
                success[s] = strength[s] > strength[dest]
            elif dest in success:
                if success[dest]:
                    success[s] = True
                else:
                    success[s] = units[dest] != units[s] and strength[s] > 1
            else:
                undecided.append(s)
        if len(undecided) == len(pending):  # only rings remain: every army in a ring moves
            for s in undecided:
                success[s] = True
            break
        pending = undecided
    after: Units = {}
    entered = {moves[s] for s, ok in success.items() if ok}
    for p, power in units.items():
        if success.get(p):
            after[moves[p]] = power
            report[p] = "moved"
        elif p in entered:
            report[p] = "dislodged and destroyed"
        else:
            after[p] = power
            report.setdefault(p, "bounced" if p in moves else "held")
    return after, report


def update_owners(board: Map, owners: tuple[int, ...], units: Units) -> tuple[int, ...]:
    """Each centre's owner after the turn (-1: nobody): the power of the army on it, else the old owner."""
    return tuple(units.get(c, owner) for c, owner in zip(board.centres, owners, strict=True))


def policy_orders(board: Map, units: Units, owners: tuple[int, ...], power: int, policy: str) -> dict[int, Order]:
    """The orders of ``power``'s armies under ``policy`` (see :data:`POLICIES`)."""
    mine = [p for p in board.by_name if units.get(p) == power]
    orders: dict[int, Order] = {}
    if policy == "defend":
        threatened = {p for p in mine if any(q in units and units[q] != power for q in board.neighbours[p])}
        for p in mine:
            friend = next((q for q in board.by_name if q in threatened and q != p and board.adjacent(p, q)), None)
            orders[p] = ("H",) if friend is None else ("SH", friend)
        return orders
    wanted = [c for c, owner in zip(board.centres, owners, strict=True) if owner != power]
    for p in mine:
        orders[p] = ("H",)
        if not wanted:
            continue
        far = board.distances[p]
        target = min(wanted, key=lambda c: (far[c], board.names[c]))
        if far[target] <= 0:
            continue
        to_target = board.distances[target]
        step = min((q for q in board.neighbours[p] if to_target[q] == far[target] - 1), key=lambda q: board.names[q])
        if units.get(step) != power:
            orders[p] = ("M", step)
    return orders


def unit_orders(board: Map, units: Units, where: int) -> list[Order]:
    """Every legal order of the army at ``where``: hold, each move, each hold and move support it may give."""
    options: list[Order] = [("H",)]
    options += [("M", q) for q in board.neighbours[where]]
    for q in board.neighbours[where]:
        if q in units:
            options.append(("SH", q))
    for dest in board.neighbours[where]:
        for supported in board.neighbours[dest]:
            if supported != where and supported in units:
                options.append(("SM", supported, dest))
    return options


def useful_joint_orders(board: Map, units: Units, power: int) -> Iterable[dict[int, Order]]:
    """The joint orders of ``power``'s armies a search needs: holds, moves, and supports of its own armies'
    orders in the same joint order (supports of other powers' armies and void supports left out)."""
    mine = sorted(p for p, owner in units.items() if owner == power)
    basic: list[list[Order]] = [[("H",), *(("M", q) for q in board.neighbours[p])] for p in mine]
    for choice in itertools.product(*basic):
        targets = [o[1] for o in choice if o[0] == "M"]
        if len(targets) != len(set(targets)):
            continue  # two of one's own armies into one province only bounce each other
        base: dict[int, Order] = dict(zip(mine, choice, strict=True))
        # each holding army may instead support a neighbour's move or hold
        extras: list[list[Order]] = []
        for p, order in base.items():
            if order[0] != "H":
                extras.append([order])
                continue
            alternatives: list[Order] = [order]
            for q, other in base.items():
                if q == p:
                    continue
                if other[0] == "M" and other[1] != p and board.adjacent(p, other[1]):
                    alternatives.append(("SM", q, other[1]))
                elif other[0] == "H" and board.adjacent(p, q):
                    alternatives.append(("SH", q))
            extras.append(alternatives)
        for joint in itertools.product(*extras):
            yield dict(zip(mine, joint, strict=True))


def order_text(board: Map, units: Units, where: int, order: Order) -> str:
    """``A Par H``, ``A Par -> Bur``, ``A Mar S A Par``, ``A Mar S A Par -> Bur``."""
    names = board.names
    head = f"A {names[where]}"
    if order[0] == "H":
        return f"{head} H"
    if order[0] == "M":
        return f"{head} -> {names[order[1]]}"
    if order[0] == "SH":
        return f"{head} S A {names[order[1]]}"
    return f"{head} S A {names[order[1]]} -> {names[order[2]]}"


class SearchExhausted(Exception):
    """The search spent its node budget without deciding."""


def owned(owners: tuple[int, ...], power: int) -> int:
    return sum(1 for owner in owners if owner == power)


@dataclass
class Search:
    """Depth-limited search for orders of ``power`` that own ``target`` centres within a number of turns.

    The other powers order by their policies (``scripted``: ``(power, policy)`` pairs), which read
    only the position, so each position's replies are computed once. Depth-first over the distinct
    positions the useful joint orders (:func:`useful_joint_orders`) lead to, most promising first
    (most centres owned, then armies nearest the centres still to take); positions already shown
    lost within a number of turns are remembered. ``budget`` caps the positions expanded.
    """

    board: Map
    scripted: tuple[tuple[int, str], ...]
    power: int
    target: int
    budget: int = 400
    nodes: int = 0

    def __post_init__(self) -> None:
        self.lost: dict[tuple, int] = {}

    def scripted_orders(self, units: Units, owners: tuple[int, ...]) -> dict[int, Order]:
        orders: dict[int, Order] = {}
        for power, policy in self.scripted:
            orders.update(policy_orders(self.board, units, owners, power, policy))
        return orders

    def promise(self, units: Units, owners: tuple[int, ...]) -> tuple[int, int]:
        wanted = [c for c, owner in zip(self.board.centres, owners, strict=True) if owner != self.power]
        mine = [p for p, owner in units.items() if owner == self.power]
        near = sum(min((self.board.distances[p][c] for c in wanted), default=0) for p in mine)
        return owned(owners, self.power), -near

    def reachable(self, units: Units, owners: tuple[int, ...], turns: int) -> int:
        """At most how many centres ``power`` can own after ``turns`` more turns (an optimistic bound)."""
        mine = [p for p, owner in units.items() if owner == self.power]
        wanted = [c for c, owner in zip(self.board.centres, owners, strict=True) if owner != self.power]
        near = sum(1 for c in wanted if any(self.board.distances[p][c] <= turns for p in mine))
        return owned(owners, self.power) + min(near, len(mine) * turns)

    def solve(self, units: Units, owners: tuple[int, ...], turns: int) -> list[dict[int, Order]] | None:
        """A winning list of joint orders (one per turn), or None when there is none within ``turns``.

        Raises :class:`SearchExhausted` when the budget runs out first.
        """
        if owned(owners, self.power) >= self.target:
            return []
        if turns <= 0 or self.reachable(units, owners, turns) < self.target:
            return None
        key = (tuple(sorted(units.items())), owners)
        if self.lost.get(key, 0) >= turns:
            return None
        self.nodes += 1
        if self.nodes > self.budget:
            raise SearchExhausted
        scripted = self.scripted_orders(units, owners)
        children: dict[tuple, tuple[dict[int, Order], Units, tuple[int, ...]]] = {}
        for joint in useful_joint_orders(self.board, units, self.power):
            after, _ = adjudicate(self.board, units, {**scripted, **joint})
            after_owners = update_owners(self.board, owners, after)
            children.setdefault((tuple(sorted(after.items())), after_owners), (joint, after, after_owners))
        ranked = sorted(children.values(), key=lambda child: self.promise(child[1], child[2]), reverse=True)
        for joint, after, after_owners in ranked:
            if owned(after_owners, self.power) >= self.target:
                return [joint]
        for joint, after, after_owners in ranked:
            rest = self.solve(after, after_owners, turns - 1)
            if rest is not None:
                return [joint, *rest]
        self.lost[key] = turns
        return None
