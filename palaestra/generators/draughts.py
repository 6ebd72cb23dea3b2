"""English draughts (checkers) on an n x n board: move generation, and an exact retrograde endgame solver.

The board has ``n`` rows and columns (n even: 6 or 8); play is on the dark squares, those whose
column and row (counted from 0 at ``a1``) add up to an even number, so ``a1`` is dark. The dark
squares are numbered 0, 1, ... row by row from ``a1``. Player 0 plays up the board (its men move
towards row ``n``), player 1 down (towards row 1). A position is four bit masks over the dark
squares, ``(men of 0, kings of 0, men of 1, kings of 1)``; the player to move is given apart.

The rules (English draughts): a man moves one square diagonally forward, a king one square
diagonally either way. A capture jumps an enemy piece on a diagonally adjacent square onto the
empty square just beyond it, forwards only for a man; the captured piece is removed. Capturing
is mandatory: when any capture exists, only captures may be played (any of them, not
necessarily the longest). A capture sequence must be completed: after a jump, the piece keeps
jumping while it can, and a capture that ends with a choice of continuations is one move per
continuation. A man reaching the far row is crowned a king, and its move ends there. A player
with no legal move on their turn -- no pieces left, or every piece blocked -- loses.

A move is the path of squares its piece visits: ``(from, to)`` for a step, ``(from, landing,
landing, ...)`` for a capture sequence. :class:`Solver` values positions exactly by retrograde
analysis over everything reachable from a position (captures lead to smaller material, crowning
to kings; both are solved along the way and remembered per process): a won position is a win
in an odd number of plies (the winner takes the fastest win), a lost one a loss in an even
number (the loser resists longest), and a position the analysis leaves open is a draw (the
winner cannot force a win against best defence; repetitions draw).

Example (a king on a1 and a man on e1 against a lone king on b2 of a 6 x 6 board)::

    >>> board = Board(6)
    >>> position = (board.mask("e1"), board.mask("a1"), 0, board.mask("b2"))
    >>> [board.path_name(path) for path, _ in board.moves(position, 0)]  # capturing is mandatory
    ['a1xc3']
"""

from __future__ import annotations

import functools
import string
from collections.abc import Callable, Mapping

from palaestra.core.bits import set_bits

Position = tuple[int, int, int, int]  # (men of 0, kings of 0, men of 1, kings of 1), bit masks over dark squares
Path = tuple[int, ...]  # the squares a move's piece visits
Move = tuple[Path, Position]
DRAW = -1  # a solver value: no side can force a win
UP, DOWN = ((1, -1), (1, 1)), ((-1, -1), (-1, 1))  # (row, column) steps: forward for player 0, for player 1


class Board:
    """The dark squares of an n x n board, their names, steps and jumps (see the module docstring)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.cells = [(row, col) for row in range(size) for col in range(size) if (row + col) % 2 == 0]
        self.index = {cell: number for number, cell in enumerate(self.cells)}
        self.count = len(self.cells)
        self.last_row = tuple(sum(1 << self.index[(row, col)] for col in range(size) if (row, col) in self.index)
                              for row in (size - 1, 0))  # the crowning row of player 0, of player 1
        # Per square and direction: the adjacent dark square and the square beyond it (-1: off the board).
        self.steps: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}
        for direction in UP + DOWN:
            rows = []
            for row, col in self.cells:
                near = self.index.get((row + direction[0], col + direction[1]), -1)
                far = self.index.get((row + 2 * direction[0], col + 2 * direction[1]), -1)
                rows.append((near, far))
            self.steps[direction] = tuple(rows)

    def name(self, square: int) -> str:
        row, col = self.cells[square]
        return f"{string.ascii_lowercase[col]}{row + 1}"

    def square(self, name: str) -> int | None:
        """The dark square named ``name`` (``c3``), or None for a light or off-board square."""
        if len(name) < 2 or not name[1:].isdigit():
            return None
        return self.index.get((int(name[1:]) - 1, ord(name[0].lower()) - 97))

    def mask(self, *names: str) -> int:
        total = 0
        for name in names:
            square = self.square(name)
            if square is None:
                raise ValueError(f"{name} is not a dark square")
            total |= 1 << square
        return total

    def path_name(self, path: Path, capture: bool | None = None) -> str:
        """``c3-d4`` for a step, ``c3xe5xc7`` for a capture sequence."""
        if capture is None:
            capture = self.is_capture(path)
        return ("x" if capture else "-").join(self.name(square) for square in path)

    def is_capture(self, path: Path) -> bool:
        row, _ = self.cells[path[0]]
        return abs(self.cells[path[1]][0] - row) == 2

    def moves(self, position: Position, player: int) -> list[Move]:
        """Every legal move of ``player`` in ``position``, as ``(path, child position)``; captures only, if any."""
        return _moves(self, position, player)

    def _directions(self, player: int, king: bool) -> tuple[tuple[int, int], ...]:
        return UP + DOWN if king else (UP if player == 0 else DOWN)

    def captures(self, position: Position, player: int) -> list[Move]:
        own_men, own_kings, other_men, other_kings = _mine(position, player)
        occupied = own_men | own_kings | other_men | other_kings
        found: list[Move] = []
        for pieces, king in ((own_men, False), (own_kings, True)):
            for start in set_bits(pieces):
                self._jumps(start, (start,), king, player, occupied & ~(1 << start), other_men | other_kings, 0,
                            found, position)
        return found

    def _jumps(self, square: int, path: Path, king: bool, player: int, occupied: int, enemies: int, taken: int,
               found: list[Move], position: Position) -> None:
        """Extend the capture ``path`` (now on ``square``) in every way; record it where it cannot go on."""
        extended = False
        for direction in self._directions(player, king):
            near, far = self.steps[direction][square]
            if far < 0 or not enemies >> near & 1 or taken >> near & 1 or occupied >> far & 1:
                continue
            extended = True
            crowned = not king and self.last_row[player] >> far & 1
            if crowned:  # crowning ends the move
                found.append(((*path, far), _after(position, player, path[0], far, taken | 1 << near, True)))
            else:
                self._jumps(far, (*path, far), king, player, occupied, enemies, taken | 1 << near, found, position)
        if not extended and len(path) > 1:
            found.append((path, _after(position, player, path[0], square, taken, False)))

    def steps_of(self, position: Position, player: int) -> list[Move]:
        own_men, own_kings, other_men, other_kings = _mine(position, player)
        occupied = own_men | own_kings | other_men | other_kings
        found: list[Move] = []
        for pieces, king in ((own_men, False), (own_kings, True)):
            for start in set_bits(pieces):
                for direction in self._directions(player, king):
                    near = self.steps[direction][start][0]
                    if near >= 0 and not occupied >> near & 1:
                        crowned = not king and bool(self.last_row[player] >> near & 1)
                        found.append(((start, near), _after(position, player, start, near, 0, crowned)))
        return found

    def picture(self, position: Position, marks: tuple[str, str, str, str] = ("x", "X", "o", "O"),
                seen: Callable[[tuple[int, int]], tuple[int, int]] | None = None) -> str:
        """The board drawn with row ``n`` at the top and column ``a`` at the left.

        ``marks``: the letters of player 0's men and kings, player 1's men and kings; ``.`` is an
        empty dark square, a blank a light square. ``seen`` maps a drawn cell ``(row, col)`` to
        the board's cell shown there (a board seen from another side); None: the board as it is.
        """
        letters = string.ascii_lowercase[:self.size]
        lines = ["   " + " ".join(letters)]
        for row in range(self.size - 1, -1, -1):
            cells = []
            for col in range(self.size):
                square = self.index.get(seen((row, col)) if seen else (row, col))
                mark = " " if square is None else "."
                for mask, letter in zip(position, marks, strict=True):
                    if square is not None and mask >> square & 1:
                        mark = letter
                cells.append(mark)
            lines.append(f"{row + 1:>2} " + " ".join(cells).rstrip())
        return "\n".join(lines)


def _mine(position: Position, player: int) -> Position:
    """The masks with the mover's first: ``(own men, own kings, other men, other kings)``."""
    return position if player == 0 else (position[2], position[3], position[0], position[1])


def _after(position: Position, player: int, start: int, end: int, taken: int, crowned: bool) -> Position:
    """The position once ``player``'s piece has gone from ``start`` to ``end``, taking ``taken`` (and crowned)."""
    own_men, own_kings, other_men, other_kings = _mine(position, player)
    bit = 1 << start
    if own_kings & bit:
        own_kings = own_kings & ~bit | 1 << end
    else:
        own_men &= ~bit
        if crowned:
            own_kings |= 1 << end
        else:
            own_men |= 1 << end
    other_men &= ~taken
    other_kings &= ~taken
    if player == 0:
        return own_men, own_kings, other_men, other_kings
    return other_men, other_kings, own_men, own_kings


def _moves(board: Board, position: Position, player: int) -> list[Move]:
    return board.captures(position, player) or board.steps_of(position, player)


def mover_moves(value: int) -> int:
    """The moves of the player to move in a win in ``value`` plies (its own moves, the first one included)."""
    return (value + 1) // 2


# Looks: ways to show a board that keep the rules. Each maps a cell (row, col) to the cell shown there and is its
# own inverse; all keep the dark squares dark. Look 1 turns the board half round (the other side's view: forward
# moves point the other way); looks 2 and 3 reflect it in a long diagonal, turning forward moves sideways, so only
# positions without men may be shown in them.
LOOKS_WITH_MEN, LOOKS_KINGS_ONLY = 2, 4


def seen_from(look: int, size: int, cell: tuple[int, int]) -> tuple[int, int]:
    """The cell that look ``look`` (0 as is, 1 turned half round, 2 and 3 reflected) shows at ``cell``."""
    row, col = cell
    last = size - 1
    return ((row, col), (last - row, last - col), (col, row), (last - col, last - row))[look]


def images(board: Board, position: Position) -> list[Position]:
    """The positions the board's symmetries map ``position`` to: the looks of a kings-only position as positions
    (the same game, each move mapped), only itself when men are on the board."""
    if position[0] | position[2]:
        return [position]
    found = []
    for look in range(LOOKS_KINGS_ONLY):
        moved = tuple(sum(1 << board.index[seen_from(look, board.size, board.cells[square])]
                          for square in set_bits(mask)) for mask in position)
        found.append(moved)
    return found  # type: ignore[return-value]


@functools.cache
def board_of(size: int) -> Board:
    """The one :class:`Board` per size in this process."""
    return Board(size)


class Solver:
    """Exact values of draughts positions on one board, by retrograde analysis, remembered per process.

    :meth:`value` is the number of plies to the end with best play -- odd: the player to move
    wins that fast; even: the player to move loses that late (0: no move now) -- or
    :data:`DRAW`. Each new position is solved together with every position reachable from it
    that was not solved before.
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        self.values: dict[tuple[Position, int], int] = {}
        self._children: dict[tuple[Position, int], list[Move]] = {}

    def moves(self, position: Position, player: int) -> list[Move]:
        key = (position, player)
        known = self._children.get(key)
        if known is None:
            known = self._children[key] = self.board.moves(position, player)
        return known

    def value(self, position: Position, player: int) -> int:
        key = (position, player)
        if key not in self.values:
            self._solve(key)
        return self.values[key]

    def _solve(self, start: tuple[Position, int]) -> None:
        # Gather the unsolved positions reachable from the start, with their children's keys.
        keys = [start]
        number = {start: 0}
        children: list[list[int]] = []
        boundary: dict[int, int] = {}  # node -> value of an already solved node
        done = 0
        while done < len(keys):
            if done in boundary:  # solved before: a leaf here
                children.append([])
                done += 1
                continue
            position, player = keys[done]
            row = []
            for _, successor in self.moves(position, player):
                key = (successor, 1 - player)
                node = number.get(key)
                if node is None:
                    node = number[key] = len(keys)
                    keys.append(key)
                    if key in self.values:
                        boundary[node] = self.values[key]
                row.append(node)
            children.append(row)
            done += 1
        parents: list[list[int]] = [[] for _ in keys]
        for node, row in enumerate(children):
            for child in row:
                parents[child].append(node)
        # Layer by layer in plies: a node with a child lost in n plies wins in n + 1 (the first such child is the
        # fastest); a node all of whose children are won loses in one more than the last of them (the longest).
        result: dict[int, int] = dict(boundary)
        left = [len(row) for row in children]
        layers: dict[int, list[int]] = {}
        for node, value in boundary.items():
            if value != DRAW:
                layers.setdefault(value, []).append(node)
        for node, row in enumerate(children):
            if not row and node not in boundary:
                result[node] = 0
                layers.setdefault(0, []).append(node)
        plies = 0
        while layers:
            for node in layers.pop(plies, []):
                for parent in parents[node]:
                    if parent in result:
                        continue
                    if plies % 2 == 0:
                        result[parent] = plies + 1
                        layers.setdefault(plies + 1, []).append(parent)
                    else:
                        left[parent] -= 1
                        if left[parent] == 0:
                            result[parent] = plies + 1
                            layers.setdefault(plies + 1, []).append(parent)
            plies += 1
        for node, key in enumerate(keys):
            self.values[key] = result.get(node, DRAW)

    def winning_moves(self, position: Position, player: int) -> list[Move]:
        """The moves of ``player`` that keep its fastest win (an empty list when it has no forced win)."""
        own = self.value(position, player)
        if own == DRAW or own % 2 == 0:
            return []
        return [(path, child) for path, child in self.moves(position, player)
                if self.value(child, 1 - player) == own - 1]

    def best_move(self, position: Position, player: int) -> Move:
        """The best move: the fastest win, else a draw, else the longest resistance (first in move order)."""
        options = self.moves(position, player)
        return max(options, key=lambda option: _preference(self.value(option[1], 1 - player)))


def _preference(child_value: int) -> tuple[int, int]:
    """How much the mover likes a child (valued for the other side): the other side's fastest loss first,
    then a draw, then the other side's slowest win."""
    if child_value == DRAW:
        return (1, 0)
    if child_value % 2 == 0:  # the other side loses
        return (2, -child_value)
    return (0, child_value)


@functools.cache
def solver_of(size: int) -> Solver:
    """The one :class:`Solver` per board size in this process."""
    return Solver(board_of(size))


# Cheap rules of thumb (the envs' baselines): each lists the moves it would pick, all tied; a player picks one at random.

def _distance(board: Board, first: int, second: int) -> int:
    """Diagonal moves a king needs between two squares, ignoring pieces in the way."""
    (row, col), (other_row, other_col) = board.cells[first], board.cells[second]
    return max(abs(row - other_row), abs(col - other_col))


def _nearness(board: Board, position: Position, player: int) -> int:
    """The sum over ``player``'s pieces of the distance to the nearest enemy piece (0 with no enemy left)."""
    own_men, own_kings, other_men, other_kings = _mine(position, player)
    enemies = list(set_bits(other_men | other_kings))
    if not enemies:
        return 0
    return sum(min(_distance(board, square, enemy) for enemy in enemies) for square in set_bits(own_men | own_kings))


def _ties(options: list[Move], score: Mapping[Path, tuple[int, int]]) -> list[Move]:
    best = max(score.values())
    return [option for option in options if score[option[0]] == best]


def approach_rule(board: Board, position: Position, player: int) -> list[Move]:
    """"Take the most pieces, else close in": the moves taking most, then leaving own pieces nearest the enemy."""
    options = board.moves(position, player)
    score = {path: (len(path) if board.is_capture(path) else 0, -_nearness(board, child, player))
             for path, child in options}
    return _ties(options, score)


def advance_rule(board: Board, position: Position, player: int) -> list[Move]:
    """"Take the most pieces, else crown, else advance": most captured, then most kings, then men furthest on."""
    options = board.moves(position, player)

    def progress(child: Position) -> int:
        men, kings = _mine(child, player)[:2]
        return sum(board.cells[square][0] if player == 0 else board.size - 1 - board.cells[square][0]
                   for square in set_bits(men)) + board.size * bin(kings).count("1")

    score = {path: (len(path) if board.is_capture(path) else 0, progress(child)) for path, child in options}
    return _ties(options, score)


def cramp_rule(board: Board, position: Position, player: int) -> list[Move]:
    """"Take the most pieces, else cramp": the moves taking most, then leaving the opponent the fewest replies."""
    options = board.moves(position, player)
    score = {path: (len(path) if board.is_capture(path) else 0, -len(board.moves(child, 1 - player)))
             for path, child in options}
    return _ties(options, score)


RULES = {"take the most, else close in on the enemy": approach_rule,
         "take the most, else crown or advance": advance_rule,
         "take the most, else leave the fewest replies": cramp_rule}
