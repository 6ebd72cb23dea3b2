"""Go on a small n x n board under area scoring: moves, captures, simple ko, and an exact endgame solver.

A board is two bit masks, ``(black, white)``; bit ``r * n + c`` is the point at row r, column c.
A move places a stone of the mover's colour on an empty point; opposing groups (stones joined
along the lines) left without liberties (empty neighbours) are captured and lifted; a move
that leaves its own group without liberties after the captures is suicide and illegal. Ko is
the simple rule: right after a move that captured exactly one stone with a lone stone now in
atari, the opponent may not play at once on the point just emptied (that would recreate the
position before the capture). A pass is always legal and lifts the ko ban.

Scoring is by area (Tromp-Taylor): each side counts its stones plus the empty points whose
region (empty points joined along the lines) touches only its colour. The game ends after two
passes in a row or when the ply budget is spent (the board is then scored as it stands), so
every game is finite and :class:`Solver` is exact: a memoised game-tree search over the state
``(black, white, to move, ko point, passes in a row, plies left)``.

Example (5 x 5: Black's c4 takes the last liberty of White's c2 stone, then Black owns the board)::

    >>> go = Go(5)
    >>> board = go.board("..X.. .XOX. ..... ..... .....")
    >>> go.play(board, go.point("c2"), WHITE) is None  # occupied
    True
    >>> after = go.play(board, go.point("c3"), BLACK)
    >>> after == (board[0] | go.mask("c3"), 0)  # O on c2 captured
    True
    >>> go.area(after)
    (25, 0)
"""

from __future__ import annotations

import functools
import string
from collections.abc import Callable

BLACK, WHITE = 0, 1
PASS = -1
NO_KO = -1
MEMO_LIMIT = 2_000_000  # states a solver remembers before its memo starts afresh

Board = tuple[int, int]  # (black stones, white stones) as bit masks
State = tuple[int, int, int, int, int, int]  # (black, white, to move, ko point or -1, passes in a row, plies left)


class Go:
    """The geometry and rules of an n x n board (see the module docstring)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.full = (1 << size * size) - 1
        first = sum(1 << r * size for r in range(size))
        self._not_first, self._not_last = self.full & ~first, self.full & ~(first << size - 1)
        self.neighbours = tuple(self.spread(1 << p) for p in range(size * size))

    def spread(self, mask: int) -> int:
        """The points orthogonally next to the points of ``mask``."""
        return (((mask & self._not_last) << 1) | ((mask & self._not_first) >> 1) | (mask << self.size)
                | (mask >> self.size)) & self.full

    def group(self, start: int, stones: int) -> int:
        """The group of ``stones`` holding the point mask ``start`` (a flood fill over bits)."""
        group = start
        while True:
            grown = group | (self.spread(group) & stones)
            if grown == group:
                return group
            group = grown

    def play(self, board: Board, point: int, colour: int) -> Board | None:
        """The board after ``colour`` plays ``point``, captures lifted; None for an occupied point or suicide."""
        return self.play_with_ko(board, point, colour)[0]

    def play_with_ko(self, board: Board, point: int, colour: int) -> tuple[Board | None, int, int]:
        """(board after the move or None if illegal, stones captured, the ko point it creates or -1)."""
        bit = 1 << point
        own, other = (board[0], board[1]) if colour == BLACK else (board[1], board[0])
        if (own | other) & bit:
            return None, 0, NO_KO
        own |= bit
        empty = self.full & ~(own | other)
        captured = 0
        touching = self.neighbours[point] & other
        while touching:
            stone = touching & -touching
            chain = self.group(stone, other)
            touching &= ~chain
            if not self.spread(chain) & empty:
                captured |= chain
        other &= ~captured
        empty |= captured
        mine = self.group(bit, own)
        liberties = self.spread(mine) & empty
        if not liberties:
            return None, 0, NO_KO
        ko = NO_KO
        if captured.bit_count() == 1 and mine == bit and liberties == captured:
            ko = captured.bit_length() - 1
        after = (own, other) if colour == BLACK else (other, own)
        return after, captured.bit_count(), ko

    def area(self, board: Board) -> tuple[int, int]:
        """(Black's area, White's area): stones plus empty regions touching only that colour."""
        black, white = board
        counts = [black.bit_count(), white.bit_count()]
        empty = self.full & ~(black | white)
        while empty:
            region = self.group(empty & -empty, empty)
            empty &= ~region
            edge = self.spread(region)
            if edge & black and not edge & white:
                counts[BLACK] += region.bit_count()
            elif edge & white and not edge & black:
                counts[WHITE] += region.bit_count()
        return counts[BLACK], counts[WHITE]

    def empties(self, board: Board) -> list[int]:
        free = self.full & ~(board[0] | board[1])
        return [p for p in range(self.size * self.size) if free >> p & 1]

    # Names and pictures: columns a, b, ... from the left, rows 1, 2, ... from the top.
    def point(self, name: str) -> int:
        return (int(name[1:]) - 1) * self.size + string.ascii_lowercase.index(name[0])

    def name(self, point: int) -> str:
        return f"{string.ascii_lowercase[point % self.size]}{point // self.size + 1}"

    def mask(self, *names: str) -> int:
        return sum(1 << self.point(name) for name in names)

    def board(self, text: str) -> Board:
        """A board from rows of ``X`` (Black), ``O`` (White) and ``.`` (empty)."""
        cells = "".join(text.split())
        return (sum(1 << p for p, c in enumerate(cells) if c == "X"), sum(1 << p for p, c in enumerate(cells) if c == "O"))

    def text(self, board: Board) -> str:
        return "".join("X" if board[0] >> p & 1 else "O" if board[1] >> p & 1 else "." for p in range(self.size ** 2))


@functools.cache
def go_of(size: int) -> Go:
    return Go(size)


def start_state(board: Board, to_move: int, plies: int) -> State:
    return (board[0], board[1], to_move, NO_KO, 0, plies)


class Solver:
    """Exact play of an endgame for a fixed goal: ``player`` wins when its area margin beats ``komi``.

    Black's margin is Black's area minus White's; Black wins when it exceeds ``komi`` (a half
    integer, so there are no draws), White when it falls below. ``wins`` is memoised per state.
    The other side's reply (:meth:`reply`) wins if it can (the first such move in point order,
    pass last); otherwise it is the *stubborn* reply, leaving ``player`` the fewest winning moves.
    """

    def __init__(self, size: int, player: int, komi: float) -> None:
        self.go = go_of(size)
        self.player = player
        self.komi = komi
        self._memo: dict[State, bool] = {}

    def moves(self, state: State) -> list[tuple[int, State]]:
        """The legal moves of the side to move, pass last, each with the state after it (a finished game's state
        has the mover -1)."""
        black, white, to_move, ko, passes, plies = state
        go = self.go
        found: list[tuple[int, State]] = []
        free = go.full & ~(black | white)
        while free:
            bit = free & -free
            free &= ~bit
            point = bit.bit_length() - 1
            if point == ko:
                continue
            after, _, new_ko = go.play_with_ko((black, white), point, to_move)
            if after is not None:
                found.append((point, (after[0], after[1], 1 - to_move, new_ko, 0, plies - 1) if plies > 1 else
                              _final(after)))
        over = passes == 1 or plies <= 1
        found.append((PASS, _final((black, white)) if over else (black, white, 1 - to_move, NO_KO, 1, plies - 1)))
        return found

    def won(self, board: Board) -> bool:
        """Whether ``player`` wins the game ended with ``board``."""
        black, white = self.go.area(board)
        return black - white > self.komi if self.player == BLACK else black - white < self.komi

    def wins(self, state: State) -> bool:
        """Whether ``player`` wins from ``state`` with best play by both sides."""
        if state[2] == -1:
            return self.won((state[0], state[1]))
        known = self._memo.get(state)
        if known is not None:
            return known
        children = (child for _, child in self.moves(state))
        mover = state[2] == self.player
        result = any(map(self.wins, children)) if mover else all(map(self.wins, children))
        if len(self._memo) >= MEMO_LIMIT:
            self._memo.clear()
        self._memo[state] = result
        return result

    def winning_moves(self, state: State) -> list[int]:
        """``player``'s moves (``player`` to move) that keep the win."""
        return [move for move, child in self.moves(state) if self.wins(child)]

    def reply(self, state: State) -> tuple[int, State]:
        """The other side's move (see the class docstring) and the state after it."""
        options = self.moves(state)
        for move, child in options:
            if not self.wins(child):
                return move, child
        return min(options, key=lambda option: _winning_count(self, option[1]))

    def states(self) -> int:
        return len(self._memo)


def _winning_count(solver: Solver, state: State) -> int:
    return 0 if state[2] == -1 else len(solver.winning_moves(state))


def _final(board: Board) -> State:
    """A finished game: the mover field -1 marks it."""
    return (board[0], board[1], -1, NO_KO, 2, 0)


@functools.lru_cache(maxsize=512)
def solver_of(size: int, player: int, komi: float) -> Solver:
    """One memoised solver per board size, side and komi, per process."""
    return Solver(size, player, komi)


Chooser = Callable[[Solver, State], list[int]]


def win_chance(solver: Solver, state: State, choose: Chooser | None, memo: dict[State, float]) -> float:
    """The chance that ``player``, picking uniformly among ``choose``'s moves (all legal moves: None), wins
    against :meth:`Solver.reply`."""
    if state[2] == -1:
        return 1.0 if solver.won((state[0], state[1])) else 0.0
    known = memo.get(state)
    if known is not None:
        return known
    options = dict(solver.moves(state))
    picks = choose(solver, state) if choose else list(options)
    total = 0.0
    for move in picks:
        child = options[move]
        if child[2] == -1:
            total += solver.won((child[0], child[1]))
            continue
        _, after = solver.reply(child)
        total += win_chance(solver, after, choose, memo)
    memo[state] = total / len(picks)
    return memo[state]


# The cheap rules a player might try instead of reading the position; each returns its tied choices.
def _captures(solver: Solver, state: State) -> dict[int, int]:
    """Per legal point, the stones its move captures."""
    go, (black, white, to_move) = solver.go, state[:3]
    found = {}
    for move, child in solver.moves(state):
        if move != PASS:
            found[move] = go.play_with_ko((black, white), move, to_move)[1]
    return found


def capture_else_liberties(solver: Solver, state: State) -> list[int]:
    """Capture the most stones; with no capture, the move whose own group has the most liberties."""
    captures = _captures(solver, state)
    if not captures:
        return [PASS]
    if max(captures.values()):
        best = max(captures.values())
        return [move for move, count in captures.items() if count == best]
    go, (black, white, to_move) = solver.go, state[:3]

    def liberties(point: int) -> int:
        after = go.play((black, white), point, to_move)
        assert after is not None
        own = after[to_move]
        return (go.spread(go.group(1 << point, own)) & go.full & ~(after[0] | after[1])).bit_count()

    counts = {move: liberties(move) for move in captures}
    return [move for move, count in counts.items() if count == max(counts.values())]


def capture_else_pass(solver: Solver, state: State) -> list[int]:
    """Capture the most stones; with no capture, pass (the position looks settled)."""
    captures = _captures(solver, state)
    best = max(captures.values(), default=0)
    return [move for move, count in captures.items() if count == best] if best else [PASS]


def capture_else_press(solver: Solver, state: State) -> list[int]:
    """Capture the most stones; with no capture, the empty point touching the most opposing stones."""
    captures = _captures(solver, state)
    best = max(captures.values(), default=0)
    if best:
        return [move for move, count in captures.items() if count == best]
    if not captures:
        return [PASS]
    go, board, to_move = solver.go, state[:2], state[2]
    contact = {move: (go.neighbours[move] & board[1 - to_move]).bit_count() for move in captures}
    return [move for move, count in contact.items() if count == max(contact.values())]


RULES: dict[str, Chooser] = {
    "capture most, else the most liberties": capture_else_liberties,
    "capture most, else pass": capture_else_pass,
    "capture most, else touch the most opposing stones": capture_else_press,
}


LOOKS = 8  # the symmetries of the square board


def seen_from(look: int, size: int, point: int) -> int:
    """Where ``point`` is drawn in ``look`` (0: as is; 1-3: turned a quarter at a time; 4-7: those, mirrored)."""
    row, col = divmod(point, size)
    for _ in range(look % 4):
        row, col = col, size - 1 - row
    if look >= 4:
        col = size - 1 - col
    return row * size + col


def board_seen_from(look: int, size: int, board: Board) -> Board:
    moved = [0, 0]
    for colour in (BLACK, WHITE):
        stones = board[colour]
        while stones:
            bit = stones & -stones
            stones &= ~bit
            moved[colour] |= 1 << seen_from(look, size, bit.bit_length() - 1)
    return moved[0], moved[1]
