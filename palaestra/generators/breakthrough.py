"""Breakthrough's rules on a small board and an exact solver for positions with few pieces.

The board has ``cols`` files (``a``, ``b``, ...) and ``rows`` ranks (1 at the bottom). White
moves up the board (toward the last rank), Black down (toward rank 1). A piece moves one square
forward: straight ahead onto an empty square, or diagonally forward onto an empty square or an
enemy piece, which is captured; captures are only diagonal. A player wins by moving a piece onto
the far rank or by capturing every enemy piece; a player with no legal move on their turn loses.
Pieces only move forward, so every game ends, and there are no draws.

A square is numbered ``rank_index * cols + file_index``; a side's pieces are a bit mask of
squares. Positions are seen from the side to move: ``(mover, other, white)``, where ``white``
says whether the mover is White.

:class:`Solver` gives the exact value of a position as a signed number of plies (half-moves):
``+n`` when the side to move wins with its ``n``-th ply at the latest against any defence (``n``
odd), ``-n`` when it loses after ``n`` plies at the latest (``n`` even; ``0``: it has no move).
It is memoised per board (per process, bounded) and prunes exactly: a side that can win at once
does so; a side facing an enemy piece one step from its goal must capture it, or it loses in
two plies.

Example (3 files x 4 ranks: White a2, Black c3; White to move reaches rank 4 in two moves)::

    >>> solver = solver_for(3, 4)
    >>> solver.value(1 << square("a2", 3), 1 << square("c3", 3), True)
    3
"""

from __future__ import annotations

import functools
import string
from typing import NamedTuple

from palaestra.core.bits import set_bits

MEMO_LIMIT = 2_000_000  # positions remembered per board before the memo starts afresh


class Move(NamedTuple):
    origin: int
    target: int
    capture: bool
    mover: int  # the mover's pieces after the move
    other: int  # the other side's pieces after the move
    wins: bool  # the move reaches the far rank or takes the last enemy piece


def square(name: str, cols: int) -> int:
    """``"b3"`` -> the square's number on a board ``cols`` files wide."""
    return (int(name[1:]) - 1) * cols + string.ascii_lowercase.index(name[0])


def square_name(number: int, cols: int) -> str:
    """The square's number -> its name, ``b3`` (file letter, rank counted from 1 at the bottom)."""
    rank, file = divmod(number, cols)
    return f"{string.ascii_lowercase[file]}{rank + 1}"


def move_name(move: Move, cols: int) -> str:
    """``b2-b3`` for a step, ``b2xc3`` for a capture."""
    return f"{square_name(move.origin, cols)}{'x' if move.capture else '-'}{square_name(move.target, cols)}"


@functools.cache
def _steps(cols: int, rows: int, white: bool) -> tuple[tuple[tuple[int, bool], ...], ...]:
    """Per square, the ``(target, straight)`` squares a piece of that colour may step to, straight ahead first."""
    forward = 1 if white else -1
    table: list[tuple[tuple[int, bool], ...]] = []
    for number in range(cols * rows):
        rank, file = divmod(number, cols)
        ahead = rank + forward
        if not 0 <= ahead < rows:
            table.append(())
            continue
        options = [(ahead * cols + file, True)]
        options += [(ahead * cols + f, False) for f in (file - 1, file + 1) if 0 <= f < cols]
        table.append(tuple(options))
    return tuple(table)


def goal_rank(rows: int, white: bool) -> int:
    return rows - 1 if white else 0


def moves(cols: int, rows: int, mover: int, other: int, white: bool) -> list[Move]:
    """The legal moves of the side to move, by origin square then straight, left, right."""
    steps = _steps(cols, rows, white)
    goal = goal_rank(rows, white)
    options = []
    for origin in set_bits(mover):
        for target, straight in steps[origin]:
            bit = 1 << target
            if mover & bit or (straight and other & bit):
                continue
            capture = bool(other & bit)
            after_other = other & ~bit
            wins = target // cols == goal or not after_other
            options.append(Move(origin, target, capture, mover & ~(1 << origin) | bit, after_other, wins))
    return options


def horizon(cols: int, rows: int, white_pieces: int, black_pieces: int) -> int:
    """An upper bound on the plies left: every ply takes one piece one rank forward."""
    return (sum(rows - 1 - s // cols for s in set_bits(white_pieces)) + sum(s // cols for s in set_bits(black_pieces)))


class Solver:
    """Exact Breakthrough play on one board (see the module docstring), memoised per process.

    The core is the bounded question :meth:`wins_within` -- can the side to move force a win
    within ``n`` plies? -- searched depth-first with every proof remembered (per position, the
    fewest plies known to win and the most known not to). A side that can win at once always
    does; a side facing an enemy piece one step from its goal is refuted by that piece's next
    move, so no deeper search is spent there.
    """

    def __init__(self, cols: int, rows: int) -> None:
        self.cols, self.rows = cols, rows
        self._won: dict[tuple[int, int, bool], int] = {}  # the fewest plies known to win
        self._not_won: dict[tuple[int, int, bool], int] = {}  # the most plies known not to suffice
        self._replies: dict[tuple[int, int, bool], Move] = {}  # longest_resistance's choices

    def moves(self, mover: int, other: int, white: bool) -> list[Move]:
        return moves(self.cols, self.rows, mover, other, white)

    def _ordered(self, mover: int, other: int, white: bool) -> list[Move]:
        """The moves, captures and the most advanced pieces first (where wins and refutations usually are)."""
        options = self.moves(mover, other, white)
        sign = 1 if white else -1
        return sorted(options, key=lambda move: (not move.capture, -sign * move.target))

    def wins_within(self, mover: int, other: int, white: bool, plies: int) -> bool:
        """Whether the side to move can force a win with its move on ply ``plies`` at the latest."""
        if plies <= 0:
            return False
        key = (mover, other, white)
        if self._won.get(key, plies + 1) <= plies:
            return True
        if self._not_won.get(key, 0) >= plies:
            return False
        options = self._ordered(mover, other, white)
        if any(move.wins for move in options):
            self._remember(self._won, key, 1)
            return True
        found = plies >= 3 and any(self.loses_within(move.other, move.mover, not white, plies - 1)
                                   for move in options)
        if found:
            self._remember(self._won, key, min(self._won.get(key, plies), plies))
        else:
            self._remember(self._not_won, key, max(self._not_won.get(key, 0), plies))
        return found

    def loses_within(self, mover: int, other: int, white: bool, plies: int) -> bool:
        """Whether the side to move loses, whatever it plays, by the other side's move on ply ``plies``."""
        options = self._ordered(mover, other, white)
        if not options:
            return True
        return not any(move.wins for move in options) and all(
            self.wins_within(move.other, move.mover, not white, plies - 1) for move in options)

    def _remember(self, memo: dict[tuple[int, int, bool], int], key: tuple[int, int, bool], plies: int) -> None:
        if len(self._won) + len(self._not_won) >= MEMO_LIMIT:
            self._won.clear()
            self._not_won.clear()
        memo[key] = plies

    def _horizon(self, mover: int, other: int, white: bool) -> int:
        return horizon(self.cols, self.rows, *((mover, other) if white else (other, mover))) + 1

    def win_distance(self, mover: int, other: int, white: bool) -> int | None:
        """The fewest plies in which the side to move forces a win (odd), or None if it cannot."""
        limit = self._horizon(mover, other, white)
        if not self.wins_within(mover, other, white, limit):
            return None
        return next(plies for plies in range(1, limit + 1, 2) if self.wins_within(mover, other, white, plies))

    def value(self, mover: int, other: int, white: bool) -> int:
        """The exact value for the side to move (plies, signed; see the module docstring)."""
        distance = self.win_distance(mover, other, white)
        if distance is not None:
            return distance
        options = self.moves(mover, other, white)
        return -max((1 + (self.win_distance(move.other, move.mover, not white) or 0) for move in options), default=0)

    def keeps_win(self, move: Move, white: bool, plies: int) -> bool:
        """Whether ``move`` wins with its side's move on ply ``plies`` at the latest (counted from before it)."""
        return move.wins or self.loses_within(move.other, move.mover, not white, plies - 1)

    def winning_moves(self, mover: int, other: int, white: bool) -> list[Move]:
        """The moves after which the side that played them still wins against any defence."""
        limit = self._horizon(mover, other, white)
        return [move for move in self.moves(mover, other, white) if self.keeps_win(move, white, limit)]

    def fastest_win(self, mover: int, other: int, white: bool) -> Move | None:
        """The first move (in :func:`moves` order) that wins fastest, or None if the side to move is lost."""
        distance = self.win_distance(mover, other, white)
        if distance is None:
            return None
        return next(move for move in self.moves(mover, other, white) if self.keeps_win(move, white, distance))

    def longest_resistance(self, mover: int, other: int, white: bool) -> Move:
        """The best move: the fastest win if there is one; else the move delaying the loss longest.

        Among equally long losses, the one leaving the other side the fewest moves that keep its
        fastest win; then the first in :func:`moves` order. The side must have a move.
        """
        key = (mover, other, white)
        known = self._replies.get(key)
        if known is None:
            known = self.fastest_win(mover, other, white) or self._slowest_loss(mover, other, white)
            if len(self._replies) >= MEMO_LIMIT:
                self._replies.clear()
            self._replies[key] = known
        return known

    def _slowest_loss(self, mover: int, other: int, white: bool) -> Move:
        def rank(move: Move) -> tuple[int, int]:
            distance = self.win_distance(move.other, move.mover, not white) or 0
            answers = sum(self.keeps_win(answer, not white, distance)
                          for answer in self.moves(move.other, move.mover, not white))
            return distance, -answers

        return max(self.moves(mover, other, white), key=rank)


@functools.cache
def solver_for(cols: int, rows: int) -> Solver:
    """The per-process memoised solver for one board size."""
    return Solver(cols, rows)


def mirror(mask: int, cols: int, rows: int) -> int:
    """The pieces mirrored left-right (file a <-> the last file)."""
    return sum(1 << (rank * cols + cols - 1 - file) for rank, file in (divmod(s, cols) for s in set_bits(mask)))


def flip(mask: int, cols: int, rows: int) -> int:
    """The pieces mirrored top-bottom (rank 1 <-> the last rank): with the colours swapped, the same game."""
    return sum(1 << ((rows - 1 - rank) * cols + file) for rank, file in (divmod(s, cols) for s in set_bits(mask)))


def picture(white: int, black: int, cols: int, rows: int) -> str:
    """The board, last rank on top: ``W`` White, ``B`` Black, ``.`` empty; file letters below."""
    lines = []
    width = len(str(rows))
    for rank in reversed(range(rows)):
        cells = ["W" if white >> (rank * cols + f) & 1 else "B" if black >> (rank * cols + f) & 1 else "."
                 for f in range(cols)]
        lines.append(f"{rank + 1:>{width}} " + " ".join(cells))
    lines.append(" " * width + " " + " ".join(string.ascii_lowercase[:cols]))
    return "\n".join(lines)


def capture_or_advance(cols: int, rows: int, mover: int, other: int, white: bool) -> list[Move]:
    """The cheap rule "win if you can, else capture, else advance the most advanced piece": its tied picks."""
    options = moves(cols, rows, mover, other, white)
    for chosen in ([move for move in options if move.wins], [move for move in options if move.capture]):
        if chosen:
            return chosen
    return _most_advanced(options, cols, white)


def run_most_advanced(cols: int, rows: int, mover: int, other: int, white: bool) -> list[Move]:
    """The cheap rule "win if you can, else run the most advanced piece, straight ahead if free": its tied picks."""
    options = moves(cols, rows, mover, other, white)
    winning = [move for move in options if move.wins]
    if winning:
        return winning
    leading = _most_advanced(options, cols, white)
    straight = [move for move in leading if move.target % cols == move.origin % cols]
    return straight or leading


def _most_advanced(options: list[Move], cols: int, white: bool) -> list[Move]:
    """The moves of the pieces furthest forward among those that can move."""
    def progress(move: Move) -> int:
        rank = move.origin // cols
        return rank if white else -rank

    best = max(map(progress, options), default=0)
    return [move for move in options if progress(move) == best]
