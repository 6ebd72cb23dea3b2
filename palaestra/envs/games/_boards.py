"""Exact solving of small two-player board games under the normal play rule (no environment here).

In a *normal play* game the player who cannot move loses; there are no draws. A position is any
hashable value (a bit mask of empty cells, a pair of stone masks); ``moves(position, player)``
lists ``(move, child)`` pairs for ``player`` (0 or 1) to move. :class:`NormalPlaySolver` says
who wins with memoised depth-first search (it stops at the first winning move), keeps its memo
per process and bounded, and offers the two choices the games here make: the moves that win,
and the *stubborn* losing move -- the reply that leaves the other side the fewest winning
answers, so a player who is winning must keep finding rare moves.

Example (a 1 x 4 strip where each move takes two touching empty cells, either player)::

    >>> def strip(empty, player):
    ...     return [(i, empty & ~(3 << i)) for i in range(3) if empty >> i & 3 == 3]
    >>> solver = NormalPlaySolver(strip)
    >>> solver.wins(0b1111, 0), solver.winning_moves(0b1111, 0)  # take the middle pair: no pair is left
    (True, [1])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

MEMO_LIMIT = 2_000_000  # positions remembered per solver before the memo starts afresh

Moves = Callable[[Any, int], Sequence[tuple[Any, Any]]]  # (position, player) -> [(move, child), ...]


class NormalPlaySolver:
    """Who wins a normal-play game from a position, memoised (see the module docstring)."""

    def __init__(self, moves: Moves) -> None:
        self.moves = moves
        self._memo: dict[tuple[Any, int], bool] = {}

    def wins(self, position: Any, player: int) -> bool:
        """Whether ``player``, to move in ``position``, wins against any defence."""
        key = (position, player)
        known = self._memo.get(key)
        if known is not None:
            return known
        result = any(not self.wins(child, 1 - player) for _, child in self.moves(position, player))
        if len(self._memo) >= MEMO_LIMIT:
            self._memo.clear()
        self._memo[key] = result
        return result

    def winning_moves(self, position: Any, player: int) -> list[Any]:
        """The moves of ``player`` after which the other side, to move, loses."""
        return [move for move, child in self.moves(position, player) if not self.wins(child, 1 - player)]

    def stubborn_move(self, position: Any, player: int) -> Any:
        """A winning move if ``player`` has one; else the move leaving the other side the fewest winning answers.

        Among equals the first in ``moves`` order is taken. ``player`` must have a move.
        """
        options = self.moves(position, player)
        for move, child in options:
            if not self.wins(child, 1 - player):
                return move
        return min(options, key=lambda option: len(self.winning_moves(option[1], 1 - player)))[0]


def margin_rule(solver: NormalPlaySolver, position: Any, player: int, tie: Callable[[], float]) -> Any:
    """The cheap rule "most moves over the opponent's": the move maximising own moves minus the other side's after it."""
    return max(solver.moves(position, player),
               key=lambda option: (len(solver.moves(option[1], player)) - len(solver.moves(option[1], 1 - player)),
                                   tie()))[0]


def blocking_rule(solver: NormalPlaySolver, position: Any, player: int, tie: Callable[[], float]) -> Any:
    """The cheap rule "fewest replies": the move leaving the other side the fewest moves."""
    return min(solver.moves(position, player), key=lambda option: (len(solver.moves(option[1], 1 - player)), tie()))[0]


def worth_dealing(solver: NormalPlaySolver, position: Any, player: int = 0, rule_share: float = 0.0) -> bool:
    """Whether a start position makes a fair puzzle for ``player``, to move.

    ``player`` wins; it has at least three moves, of which at most a third win; the other side
    has a move; and of the first moves :func:`margin_rule` (or :func:`blocking_rule`) could pick
    -- its ties -- at most the share ``rule_share`` wins (0: none), so neither cheap rule is
    likely to get past the first move.
    """
    options = solver.moves(position, player)
    if len(options) < 3 or not solver.moves(position, 1 - player):
        return False
    margin = {move: len(solver.moves(child, player)) - len(solver.moves(child, 1 - player)) for move, child in options}
    replies = {move: len(solver.moves(child, 1 - player)) for move, child in options}
    children = dict(options)
    for ties in ({move for move in margin if margin[move] == max(margin.values())},
                 {move for move in replies if replies[move] == min(replies.values())}):
        winners = sum(not solver.wins(children[move], 1 - player) for move in ties)
        if winners > rule_share * len(ties):
            return False
    return 0 < 3 * len(solver.winning_moves(position, player)) <= len(options)


def random_win_chance(solver: NormalPlaySolver, position: Any, player: int,
                      memo: dict[Any, float] | None = None) -> float:
    """The chance that ``player``, moving uniformly at random, beats the :meth:`NormalPlaySolver.stubborn_move` replies.

    Exact (the opponent is deterministic): the mean over ``player``'s moves of a win when no reply
    is left, else of the chance after the stubborn reply (0 when that leaves ``player`` no move).
    """
    memo = {} if memo is None else memo
    if position in memo:
        return memo[position]
    options = solver.moves(position, player)
    total = 0.0
    for _, child in options:
        replies = dict(solver.moves(child, 1 - player))
        if not replies:
            total += 1.0
            continue
        after = replies[solver.stubborn_move(child, 1 - player)]
        if solver.moves(after, player):
            total += random_win_chance(solver, after, player, memo)
    memo[position] = total / len(options) if options else 0.0
    return memo[position]
