"""Hex endgames on an n x n board, solved exactly: find the forced win against a perfect opponent.

The board is a rhombus of n x n hexagonal cells (columns ``a``, ``b``, ..., rows ``1`` to ``n`` from the top; every
row drawn half a cell further right, so a cell touches two cells of the row above and two of the row below). The
model plays X and wins by a chain of X stones joining the top row to the bottom row; the opponent plays O and wins by
a chain joining the left column to the right column. Hex has no draws: a full board holds exactly one winning chain.

The game starts in a mid-game position with ``k`` empty cells, the opponent's stone just played and X to move. An
exact solver (negamax over the empty cells with a table of solved positions, a win found as soon as a side has a
cell completing its chain, a forced reply when the other side has exactly one such cell and a loss when it has two)
proves at generation that X has a forced win and that few of X's first moves keep it (at most ``winning``); neither
side has a cell completing its chain at the start.

The opponent plays perfectly (version 5): each turn it solves the position; if it can win (X has made a mistake) it
plays a winning move (a chain-completing one first); if it is lost it plays the losing move that leaves X the fewest
winning replies. Its ties are broken by ``event_rng`` keyed by the position, so a replay plays the same game. The
oracle plays a winning move found by the same solver and wins every game. The prompt says that X can force a win and
that the opponent plays perfectly; nothing in it says which move wins.

Each turn the model writes one empty cell (``c2``, ``play c2``); an occupied cell or an unreadable move costs a turn
(the opponent does not move). Reward 1 for a win; 0 for a loss or for running out of turns (enough to fill half the
empty cells, plus two).

Cheap rules (declared in ``heuristics()``, see RULES): random won positions are easy for them. In about 249 of 250
random won 6 x 6 positions with 10 to 12 empty cells the one-ply two-distance rule's first move wins, and it then wins
the game against the perfect opponent (0.975 of 40 positions with a single winning move, r3s28). So levels 3 and up
do not draw at random: they start from positions where the first move of every declared rule (any of its ties) loses,
walked from stored ones (``hex_positions.txt``, built by :func:`search_catalogue` from random
draws and random walks; about one position in eleven a stone's
move away from such a position is such too). The walk makes at least five (5 x 5) or two (6 x 6) accepted moves of
one stone, each to a position where X wins with one or two first moves and the one-ply rules' first moves lose, and
goes on until the two-ply rule's first move loses too (checked only then: it costs a few milliseconds); should
WALK_TRIES tries not get there, the stored position is kept.

Versions 1-4 played an n x (n+1) board, the model's sides the short distance apart, which a mirror pairing of the
cells wins for the model from any position that keeps the pairing; their opponent was a one-ply evaluation (shortest
paths, then two-distance potential). The pairing that kept every game winnable made every position easy: the one-ply
rule that plays the cell the opponent's own two-distance evaluation likes best for X won 0.96 / 0.97 / 0.85 of
version 4's levels 2-4 (r3s28).

Levels: 4 x 4 with 6 empty cells (at most 3 winning first moves) to 6 x 6 with 10 (at most 2, every rule's first move
losing). Past the presets the board grows a row and a column a level up to 13 x 13 around a walked 6 x 6 position
(``_padded``: rows of X above and below it and O's cells beside it, so the game is that position's game); the
empty cells stay at 10. The difficulty measure is the empty cells plus the board's side, plus the share of X's first
moves that lose, plus one where every declared rule's first move loses.

Generation speed: every candidate position is solved exactly for each first move of X (with a node cap: a position
whose analysis needs more is rejected) and the rules' first moves are checked; levels 0-2 take a few milliseconds a
problem, levels 3-4 (the walks) 42-45 ms of CPU on average (r3s33: 65-80 ms before the solver stopped regrowing a
group its move does not touch and the rules' scores stopped rebuilding the links of the side not moving; the same
problems), far levels about the same (the walk is on the 6 x 6 core).
"""

from __future__ import annotations

import functools
import math
import random
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, event_rng, register
from palaestra.core.bits import set_bits
from palaestra.core.retry import GenerationError
from palaestra.core.task import Growth
from palaestra.envs.games.common import cell_name, column_letters, read_cell

SPARE_TURNS = 2
CATALOGUE = "hex_positions.txt"  # the stored positions (see stored_positions)
EMPTY, MODEL, OPPONENT = ".", "X", "O"
TOO_FAR = 1000  # the potential of a side with no cell on two-distance lines to both its sides
STEPS = ((0, 1), (0, -1), (1, 0), (-1, 0), (-1, 1), (1, -1))
DRAWS = 300  # positions drawn per problem at most at the levels without stored positions
GENERATION_NODES = 30_000  # a draw whose analysis needs more solver nodes than this is rejected
MOST_COUNTED = 4  # winning first moves counted at most (the levels allow 3 at most)
WALK_STEPS = {5: 5, 6: 2}  # accepted one-stone moves from a stored position, by its side
WALK_TRIES = 300  # tries at most
PLAY_NODES = 400_000  # a bound on one reply's search in play (positions the generator's analysis never reached)


@register
class Hex(MultiTurnTask):
    id = "games/hex"
    # version 2: level 0 places 2-4 pairs (one pair gave too few distinct positions: 888 in 1,000 seeds).
    # version 3: the board stops growing at level 10 (see growth)
    # version 4: the opponent scores cells by two-distance potential instead of shortest paths (r3s26)
    # version 5: n x n endgames solved exactly against a perfect opponent (r3s28: the one-ply two-distance rule won
    # 0.85-0.97 of version 4's levels 2-4; see RULES)
    version = 5
    family = "games"
    description = "Win a Hex endgame on an n x n board against a perfect opponent: find the forced win."
    tags = ("games", "multi-turn", "two-player", "adversarial", "connection")
    one_move_per_turn = True

    @dataclass(frozen=True)
    class Config:
        size: int  # the board has size x size cells
        empties: int  # empty cells at the start
        winning: int  # the most first moves of X that keep its forced win
        core: int  # 0: positions drawn at random; else the side of the stored positions the level walks from

    presets = (
        Config(4, 6, 3, 0),
        Config(4, 8, 2, 0),
        Config(5, 9, 2, 0),
        Config(5, 9, 2, 5),
        Config(6, 10, 2, 6),
    )
    # Past the presets the board grows a row and a column a level up to 13 x 13 (level 11) around a 6 x 6 position
    # walked from the stored ones (see _padded); the empty cells stay at 10.
    growth = Growth(limits={"size": 13, "empties": 10, "core": 6})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n, k = config.size, config.empties
        if config.core:
            core = config.core
            stored = stored_positions()[core]
            start = stored[rng.randrange(len(stored))]
            if rng.random() < 0.5:  # turned half a turn: the same game
                moves = _analyse(start[::-1], core, True)
                if moves is not None and _fools_two_ply(start[::-1], core, moves):
                    start = start[::-1]
            board, winning = _walk(rng, start, core, config.winning)
            if n > core:
                board = _padded(board, core, n, rng.randint(0, n - core), rng.randint(0, n - core))
        else:
            found: tuple[int, str] | None = None
            for _ in range(DRAWS):
                drawn = _fill(rng, n, n * n - k)
                moves = None if drawn is None else _analyse(drawn, n, False)
                count = None if moves is None else len(moves)
                if drawn is not None and count is not None and (found is None or count < found[0]):
                    found = (count, drawn)
                    if count <= config.winning:
                        break
            if found is None:  # never seen in testing (about one draw in six is a won position)
                raise GenerationError(f"no won Hex position on {n} x {n} with {k} empty cells in {DRAWS} draws")
            winning, board = found
        turns = math.ceil(k / 2) + SPARE_TURNS
        letters = column_letters(n)
        prompt = (
            f"Let's play Hex on a board of {n} x {n} hexagonal cells. Columns are {letters[0]} to {letters[-1]} from "
            f"left to right, rows 1 to {n} from top to bottom, and each row is drawn half a cell further right than "
            "the one above, so a cell touches the cells left and right of it, the two cells above it (same column "
            "and one to the right) and the two cells below it (same column and one to the left).\n\n"
            f"You are X: you win by a chain of touching X stones from row 1 to row {n}. The opponent is O: it wins by "
            f"a chain of touching O stones from column {letters[0]} to column {letters[-1]}. Players take turns "
            "placing one stone on an empty cell; stones never move, and the game always ends with one winner. The "
            f"opponent has just played, and it is your move in this position:\n\n{_picture(board, n)}\n\n"
            "You can force a win from here, but few moves keep the win, and the opponent plays perfectly: one "
            f"mistake and it wins. You have {turns} turns; only a win scores. Each turn, write the one empty cell you "
            "play, for example: c2"
        )
        search = _Search(PLAY_NODES)
        _winning_moves(board, n, search=search)
        data = {"size": n, "board": board, "turns": turns, "winning": winning, "rules_lose": bool(config.core),
                "nodes": PLAY_NODES - search.nodes}
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        """Empty cells at the start plus the board's side, plus one where every declared rule's first move loses, plus
        the share of X's first moves that lose, plus a tenth of the tens digits of the solver's nodes to judge them."""
        data = problem.data
        empties = data["board"].count(EMPTY)
        return (float(empties + data["size"] + data["rules_lose"]) + 1.0 - data["winning"] / empties
                + math.log10(data["nodes"]) / 10)

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"board": problem.data["board"]}

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        n = problem.data["size"]
        return [cell_name(*divmod(i, n)) for i, c in enumerate(state["board"]) if c == EMPTY]

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        n, board = problem.data["size"], state["board"]
        cell = read_cell(move, n, n, verbs=("play", "place", "put", "place at", "play at"))
        if cell is None:
            return Outcome.invalid(state, f"write one cell, a column letter then a row number from 1 to {n}, such as c2")
        index = cell[0] * n + cell[1]
        name = cell_name(*cell)
        if board[index] != EMPTY:
            return Outcome(state, Verdict.wrong("occupied"), f"{name} is taken; play an empty cell.")
        board = board[:index] + MODEL + board[index + 1:]
        said = f"You play {name}."
        if _connected(board, n, MODEL):
            return Outcome({"board": board}, Verdict.right(),
                           f"{said} Your chain joins row 1 to row {n}: you win!\n{_picture(board, n)}", True)
        reply = _reply(problem, board)
        board = board[:reply] + OPPONENT + board[reply + 1:]
        said += f" The opponent plays {cell_name(*divmod(reply, n))}."
        if _connected(board, n, OPPONENT):
            return Outcome({"board": board}, Verdict.wrong("lost"),
                           f"{said} Its chain joins the left column to the right: you lose.\n{_picture(board, n)}",
                           True)
        return Outcome.goes_on({"board": board}, f"{said}\n{_picture(board, n)}")

    def heuristics(self) -> dict[str, Any]:
        def rule(choices: Any) -> Any:
            def policy(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
                n = problem.data["size"]
                return cell_name(*divmod(rng.choice(choices(state["board"], n)), n))

            return policy

        return {name: rule(choices) for name, choices in zip(RULES, (*RULE_CHOICES, _two_ply_choices), strict=True)}

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        n, board = problem.data["size"], state["board"]
        moves = _winning_moves(board, n, most=1) or [board.index(EMPTY)]  # lost (after a mistake): any cell
        return cell_name(*divmod(moves[0], n))


# --- The exact solver ----------------------------------------------------------------------------------------------
# A position is two bit masks (cell r * n + c is bit r * n + c): the stones of the side to move and the other's.


class _OutOfNodes(Exception):
    """A search ran past its node budget."""


@dataclass(frozen=True)
class _Geometry:
    n: int
    full: int
    not_left: int  # every cell but column a
    not_right: int  # every cell but the last column
    top: int
    bottom: int
    left: int
    right: int


@functools.cache
def _geometry(n: int) -> _Geometry:
    full = (1 << n * n) - 1
    left = sum(1 << r * n for r in range(n))
    top = (1 << n) - 1
    return _Geometry(n, full, full & ~left, full & ~(left << n - 1), top, top << n * (n - 1), left, left << n - 1)


def _spread(g: _Geometry, cells: int) -> int:
    """``cells`` and every cell touching one of them."""
    n = g.n
    return (cells | ((cells << 1) | (cells >> n - 1)) & g.not_left | ((cells >> 1) | (cells << n - 1)) & g.not_right
            | (cells << n) | (cells >> n)) & g.full


def _flood(g: _Geometry, seed: int, stones: int) -> int:
    """The stones of ``stones`` joined to ``seed`` (a subset of them) by chains (``_spread`` inlined: the solver's
    inner loop)."""
    n, shift, not_left, not_right = g.n, g.n - 1, g.not_left, g.not_right
    reach = seed
    for _ in range(n * n):
        grown = (reach | ((reach << 1) | (reach >> shift)) & not_left | ((reach >> 1) | (reach << shift)) & not_right
                 | (reach << n) | (reach >> n)) & stones
        if grown == reach:
            break
        reach = grown
    return reach


def _edges(g: _Geometry, x_side: bool) -> tuple[int, int]:
    return (g.top, g.bottom) if x_side else (g.left, g.right)


def _finishers(g: _Geometry, stones: int, empty: int, x_side: bool) -> int:
    """The empty cells that complete a chain of ``stones`` between its side's two edges."""
    first, second = _edges(g, x_side)
    one = _flood(g, stones & first, stones)
    two = _flood(g, stones & second, stones)
    return empty & (_spread(g, one) | first) & (_spread(g, two) | second)


class _Search:
    """One search's table of solved positions (keyed by the stones of the side to move, the other's and the side)
    and its node budget; a fresh one per question, so that what a search finds never depends on earlier calls."""

    def __init__(self, nodes: int) -> None:
        self.table: dict[tuple[int, int, bool], bool] = {}
        self.nodes = nodes


Reach = tuple[int, int, int, int]


def _reach(g: _Geometry, stones: int, x_side: bool, one: int = 0, two: int = 0) -> Reach:
    """The stones of ``stones`` joined by chains to its side's first edge and those joined to its second (grown from
    ``one`` and ``two``, parts of them), and the cells touching each group or its edge."""
    first, second = _edges(g, x_side)
    one, two = _flood(g, one | stones & first, stones), _flood(g, two | stones & second, stones)
    return one, two, _spread(g, one) | first, _spread(g, two) | second


def _wins(g: _Geometry, mine: int, theirs: int, x_side: bool, search: _Search,
          reach: tuple[Reach, Reach] | None = None) -> bool:
    """Whether the side to move (its stones ``mine``; X's sides if ``x_side``) wins against any defence.

    Neither side has a chain yet. A cell completing the mover's chain wins; when the other side has one such cell the
    mover must take it, and when it has two the mover loses; else every empty cell is tried, cells touching stones of
    both sides first. ``reach``: ``_reach`` of the mover's stones and of the other's, if known. Raises _OutOfNodes
    past the search's node budget."""
    key = (mine, theirs, x_side)
    known = search.table.get(key)
    if known is not None:
        return known
    search.nodes -= 1
    if search.nodes < 0:
        raise _OutOfNodes
    mine_reach, theirs_reach = reach or (_reach(g, mine, x_side), _reach(g, theirs, not x_side))
    one, two, near_one, near_two = mine_reach
    empty = g.full & ~(mine | theirs)
    result = bool(empty & near_one & near_two)
    if not result:
        threats = empty & theirs_reach[2] & theirs_reach[3]
        if threats & (threats - 1):
            candidates: list[int] = []
        elif threats:
            candidates = [threats]
        else:
            near = empty & _spread(g, mine) & _spread(g, theirs)
            candidates = _single_bits(near) + _single_bits(empty & ~near)
        first, second = _edges(g, x_side)
        for bit in candidates:
            stones = mine | bit
            grown = mine_reach
            # a stone grows a group only if it touches it (or its edge): the other group and its cells stay as known
            if bit & near_one:
                grown_one = _flood(g, one | bit, stones)
                grown = (grown_one, two, _spread(g, grown_one) | first, near_two)
            if bit & near_two:
                grown_two = _flood(g, two | bit, stones)
                grown = (grown[0], grown_two, grown[2], _spread(g, grown_two) | second)
            if not _wins(g, theirs, stones, not x_side, search, (theirs_reach, grown)):
                result = True
                break
    search.table[key] = result
    return result


def _single_bits(mask: int) -> list[int]:
    """The one-bit masks of ``mask``'s bits, lowest first (``set_bits`` as masks: the solver's candidate moves)."""
    bits = []
    while mask:
        lowest = mask & -mask
        bits.append(lowest)
        mask ^= lowest
    return bits


def _masks(board: str) -> tuple[int, int]:
    """(X's stones, O's stones) of a board string."""
    x = o = 0
    for i, c in enumerate(board):
        if c == MODEL:
            x |= 1 << i
        elif c == OPPONENT:
            o |= 1 << i
    return x, o


def _winning_moves(board: str, n: int, most: int | None = None, search: _Search | None = None) -> list[int]:
    """X's first moves that keep a forced win (X to move, no chain yet), lowest cell first; stops after ``most``."""
    g, (x, o) = _geometry(n), _masks(board)
    search = search or _Search(PLAY_NODES)
    empty = g.full & ~(x | o)
    now = _finishers(g, x, empty, True)
    found = []
    for cell in set_bits(empty):
        if now >> cell & 1 or not _wins(g, o, x | 1 << cell, False, search):
            found.append(cell)
            if most is not None and len(found) >= most:
                break
    return found


def _reply(problem: Problem, board: str) -> int:
    """The opponent's cell: a chain-completing one, else a winning one (the first found in an order drawn at random),
    else the losing one that leaves X the fewest winning replies (ties at random; the draws keyed by the position).
    Should the search run past PLAY_NODES, which no position drawn so far comes near, the lowest empty cell."""
    n = problem.data["size"]
    g, (x, o) = _geometry(n), _masks(board)
    rng = event_rng((problem.env_id, problem.level, problem.seed), "reply", board)
    empty = g.full & ~(x | o)
    now = _finishers(g, o, empty, False)
    if now:
        return rng.choice(set_bits(now))
    search = _Search(PLAY_NODES)
    cells = set_bits(empty)
    try:
        for cell in rng.sample(cells, len(cells)):  # a winning move, the first found in a random order
            if not _wins(g, x, o | 1 << cell, True, search):
                return cell
        left = {cell: len(_winning_moves(_put(board, cell, OPPONENT), n, search=search)) for cell in cells}
    except _OutOfNodes:
        return cells[0]
    fewest = min(left.values())
    return rng.choice([cell for cell, count in left.items() if count == fewest])


def _fill(rng: random.Random, n: int, stones: int) -> str | None:
    """A position of ``stones`` stones, O's count rounded up, placed in turn at random cells that complete no chain
    (O last), or None when a side has no such cell left."""
    g = _geometry(n)
    own = [0, 0]  # X's stones, O's
    order = list(range(n * n))
    for turn in range(stones):
        side = (stones - 1 - turn) % 2 == 0  # 1 (O) for the last stone
        x_side = not side
        rng.shuffle(order)
        for cell in order:
            bit = 1 << cell
            if (own[0] | own[1]) & bit:
                continue
            first, second = _edges(g, x_side)
            after = own[side] | bit
            if not _flood(g, after & first, after) & second:
                own[side] = after
                break
        else:
            return None
    return "".join(MODEL if own[0] >> i & 1 else OPPONENT if own[1] >> i & 1 else EMPTY for i in range(n * n))


def _analyse(board: str, n: int, fool_rules: bool) -> list[int] | None:
    """The first moves that keep X's forced win (at most MOST_COUNTED of them), or None for a position the generator never keeps: a side already has
    a chain or a cell completing one, X has no forced win, the search runs past GENERATION_NODES, or (``fool_rules``)
    the first move of a declared rule (any of its ties) wins."""
    g, (x, o) = _geometry(n), _masks(board)
    empty = g.full & ~(x | o)
    if _finishers(g, x, empty, True) or _finishers(g, o, empty, False) or _connected(board, n, MODEL) \
            or _connected(board, n, OPPONENT):
        return None
    search = _Search(GENERATION_NODES)
    try:
        if fool_rules:  # the strongest rule first: most positions stop here
            if any(not _wins(g, o, x | 1 << cell, False, search) for cell in _potential_choices(board, n)):
                return None
        moves = _winning_moves(board, n, most=MOST_COUNTED, search=search)
    except _OutOfNodes:
        return None
    if not moves or fool_rules and any(set(moves) & set(choices(board, n)) for choices in RULE_CHOICES[1:]):
        return None
    return moves


def _moved(rng: random.Random, board: str) -> str:
    """``board`` with one stone moved to an empty cell (both at random)."""
    cells = list(board)
    stone = rng.choice([i for i, c in enumerate(cells) if c != EMPTY])
    empty = rng.choice([i for i, c in enumerate(cells) if c == EMPTY])
    cells[empty], cells[stone] = cells[stone], EMPTY
    return "".join(cells)


def _walk(rng: random.Random, board: str, n: int, winning: int) -> tuple[str, int]:
    """A random walk from a stored position that passes every filter: at least WALK_STEPS[n] accepted moves of one
    stone (at most WALK_TRIES tries), each to a position that passes the one-ply filters too (X wins with 1 to
    ``winning`` first moves, every one-ply rule's first move loses), and on until one where the two-ply rule's first
    move loses as well; returns it and its count of winning first moves (the stored one, which passes every filter,
    if the tries run out)."""
    moves = _analyse(board, n, True)
    assert moves is not None and len(moves) <= winning and _fools_two_ply(board, n, moves), "a stored position fails"
    kept, accepted = (board, len(moves)), 0
    for _ in range(WALK_TRIES):
        candidate = _moved(rng, board)
        found = _analyse(candidate, n, True)
        if found is not None and len(found) <= winning:
            board, accepted = candidate, accepted + 1
            if accepted >= WALK_STEPS[n] and _fools_two_ply(board, n, found):
                return board, len(found)
    return kept


def _fools_two_ply(board: str, n: int, moves: list[int]) -> bool:
    """Whether every first move of the two-ply rule (any of its ties) misses X's winning ``moves``."""
    return not set(moves) & set(_two_ply_choices(board, n))


def _padded(board: str, core: int, n: int, top: int, left: int) -> str:
    """A ``core`` x ``core`` position inside an ``n`` x ``n`` board, ``top`` rows above it and ``left`` columns left:
    the rows above and below are X's, the cells left and right of it in its rows O's. X's rows reach its edges and O's
    blocks its own, and neither side can pass the other's, so the game is the core's game (every cell of the core's
    top row touches X's stones above, as it touched the top edge, and so on round it)."""
    cells = []
    for r in range(n):
        for c in range(n):
            if top <= r < top + core and left <= c < left + core:
                cells.append(board[(r - top) * core + c - left])
            else:
                cells.append(OPPONENT if top <= r < top + core else MODEL)
    return "".join(cells)


def _connected(board: str, n: int, side: str) -> bool:
    """Whether ``side`` has a chain between its two edges (X: top and bottom rows; O: left and right columns)."""
    g = _geometry(n)
    x, o = _masks(board)
    stones = x if side == MODEL else o
    first, second = _edges(g, side == MODEL)
    return bool(_flood(g, stones & first, stones) & second)


# --- The declared cheap rules (their first moves lose at levels 3 and up) ---------------------------------------------
# Wins against the perfect opponent on 200 seeds a level (0-4), version 5: the two-distance rule 1.00 / 0.99 / 0.98 /
# 0.00 / 0.00, the shortest-path rule 0.56 / 0.45 / 0.51 / 0.00 / 0.00, the largest-chain rule 0.17 / 0.07 / 0.04 /
# 0.00 / 0.00, the blocking rule 0.52 / 0.41 / 0.42 / 0.00 / 0.00, the two-ply rule 1.00 / 0.98 / 0.99 / 0.00 / 0.00
# (0.55 / 0.67 at levels 3 / 4 before its first move was filtered too, 100 seeds); random play 0.10 / 0.04 / 0.01 /
# 0.00 / 0.00.
RULES = (
    "the empty cell the two-distance potential evaluation likes best for X (ten times O's potential minus X's, plus "
    "X's mobility minus O's; random ties)",
    "the empty cell that most raises the opponent's shortest-path distance minus mine (random ties)",
    "an empty cell touching my largest chain (random)",
    "the empty cell that most raises the opponent's shortest-path distance, blocking it (random ties)",
    "two-ply two-distance: the empty cell whose worst score over the opponent's replies (the first rule's score) is "
    "best (random ties)",
)


@functools.cache
def _neighbours(n: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple((r + dr) * n + c + dc for dr, dc in STEPS if 0 <= r + dr < n and 0 <= c + dc < n)
                 for r in range(n) for c in range(n))


def _best(scores: dict[int, float]) -> list[int]:
    top = max(scores.values())
    return [cell for cell, value in scores.items() if value == top]


def _empties(board: str) -> list[int]:
    return [i for i, c in enumerate(board) if c == EMPTY]


def _put(board: str, cell: int, side: str) -> str:
    return board[:cell] + side + board[cell + 1:]


def _potential_choices(board: str, n: int) -> list[int]:
    # O's links are the same whichever cell X takes: that cell is only blocked for O (see _potential)
    opponent = _links(board, n, OPPONENT)
    assert opponent is not None  # the positions asked about have no chain
    scores: dict[int, float] = {}
    for cell in _empties(board):
        model = _links(_put(board, cell, MODEL), n, MODEL)
        if model is None:
            return [cell]
        (mine, my_mobility), (theirs, their_mobility) = _potential(model, -1), _potential(opponent, cell)
        scores[cell] = 10 * (theirs - mine) + my_mobility - their_mobility
    return _best(scores)


def _path_choices(board: str, n: int) -> list[int]:
    return _best({cell: _distance(_put(board, cell, MODEL), n, OPPONENT) - _distance(_put(board, cell, MODEL), n, MODEL)
                  for cell in _empties(board)})


def _block_choices(board: str, n: int) -> list[int]:
    return _best({cell: _distance(_put(board, cell, MODEL), n, OPPONENT) for cell in _empties(board)})


def _chain_choices(board: str, n: int) -> list[int]:
    """The empty cells touching one of X's largest chains (by stones); every empty cell if X has no stone."""
    neighbours, seen, largest, chains = _neighbours(n), set(), 0, []
    for start in (i for i, c in enumerate(board) if c == MODEL):
        if start in seen:
            continue
        chain, stack = {start}, [start]
        for _ in range(n * n):
            if not stack:
                break
            for other in neighbours[stack.pop()]:
                if board[other] == MODEL and other not in chain:
                    chain.add(other)
                    stack.append(other)
        seen |= chain
        chains.append(chain)
        largest = max(largest, len(chain))
    touching = sorted({other for chain in chains if len(chain) == largest for cell in chain for other in neighbours[cell]
                       if board[other] == EMPTY})
    return touching or _empties(board)


RULE_CHOICES = (_potential_choices, _path_choices, _chain_choices, _block_choices)


def _two_ply_choices(board: str, n: int) -> list[int]:
    """The empty cells whose worst score over O's replies, by the two-distance rule's score, is best (a cell
    completing X's chain at once if there is one). Cells are tried best one-ply score first, and a cell's replies
    stop once its worst falls below the best so far (which cannot change the choices)."""
    def score(position: str) -> float:
        model, opponent = _links(position, n, MODEL), _links(position, n, OPPONENT)
        if model is None or opponent is None:
            return TOO_FAR * 100 if model is None else -TOO_FAR * 100
        (mine, my_mobility), (theirs, their_mobility) = _potential(model, -1), _potential(opponent, -1)
        return 10 * (theirs - mine) + my_mobility - their_mobility

    def replied(model: Links, after: str, reply: int) -> float:
        """``score`` of ``after`` with O's ``reply``, X's links (those of ``after``) blocked at the reply."""
        opponent = _links(_put(after, reply, OPPONENT), n, OPPONENT)
        if opponent is None:
            return -TOO_FAR * 100
        (mine, my_mobility), (theirs, their_mobility) = _potential(model, reply), _potential(opponent, -1)
        return 10 * (theirs - mine) + my_mobility - their_mobility

    best: float | None = None
    chosen: list[int] = []
    for cell in sorted(_empties(board), key=lambda cell: -score(_put(board, cell, MODEL))):
        after = _put(board, cell, MODEL)
        model = _links(after, n, MODEL)
        if model is None:
            return [cell]
        worst: float | None = None
        for reply in _empties(after):
            value = replied(model, after, reply)
            worst = value if worst is None else min(worst, value)
            if best is not None and worst < best:
                break
        if worst is None:
            continue
        if best is None or worst > best:
            best, chosen = worst, [cell]
        elif worst == best:
            chosen.append(cell)
    return chosen or _empties(board)


def _distance(board: str, n: int, side: str) -> int:
    """The fewest empty cells ``side`` must still fill to connect its edges (a 0-1 breadth-first search)."""
    starts = range(n) if side == MODEL else range(0, n * n, n)
    best = [10**6] * len(board)
    queue: deque[int] = deque()
    for cell in starts:
        if board[cell] == side:
            best[cell] = 0
            queue.appendleft(cell)
        elif board[cell] == EMPTY:
            best[cell] = 1
            queue.append(cell)
    neighbours = _neighbours(n)
    for _ in range(4 * n * n):
        if not queue:
            break
        cell = queue.popleft()
        here = best[cell]
        if (cell >= (n - 1) * n) if side == MODEL else (cell % n == n - 1):
            return here
        for other in neighbours[cell]:
            stone = board[other]
            if stone == side and here < best[other]:
                best[other] = here
                queue.appendleft(other)
            elif stone == EMPTY and here + 1 < best[other]:
                best[other] = here + 1
                queue.append(other)
    return 10**6


Links = tuple[list[tuple[int, ...]], list[int]]


def _links(board: str, n: int, side: str) -> Links | None:
    """The empty cells as ``side`` sees them, its stones merged into chains: for every cell the empty cells it touches
    directly or through one chain of ``side``, and the edges of ``side`` it touches so (bit 1: its first edge, row 1
    or the left column; bit 2: its second); None when ``side`` has connected. Stones count nothing, and no edge."""
    size = n * n
    neighbours, sides = _neighbours(n), _edge_bits(n, side == MODEL)
    chain = [-1] * size
    touched: list[set[int]] = []
    reach: list[int] = []
    for start in range(size):
        if board[start] != side or chain[start] >= 0:
            continue
        number, stack, around, edges = len(touched), [start], set(), 0
        chain[start] = number
        for _ in range(size):
            if not stack:
                break
            cell = stack.pop()
            edges |= sides[cell]
            for other in neighbours[cell]:
                if board[other] == side and chain[other] < 0:
                    chain[other] = number
                    stack.append(other)
                elif board[other] == EMPTY:
                    around.add(other)
        if edges == 3:
            return None
        touched.append(around)
        reach.append(edges)
    links: list[tuple[int, ...]] = [()] * size
    touching = [0] * size
    for cell in range(size):
        if board[cell] != EMPTY:
            continue
        near, edges = set(), sides[cell]
        for other in neighbours[cell]:
            if board[other] == EMPTY:
                near.add(other)
            elif board[other] == side:
                near |= touched[chain[other]]
                edges |= reach[chain[other]]
        near.discard(cell)
        links[cell], touching[cell] = tuple(near), edges
    return links, touching


@functools.cache
def _edge_bits(n: int, x_side: bool) -> tuple[int, ...]:
    """For every cell, the edges of a side it lies on (bit 1: the first, row 1 or the left column; bit 2: the second)."""
    return tuple((i < n) | (i >= n * n - n) << 1 if x_side else (i % n == 0) | (i % n == n - 1) << 1
                 for i in range(n * n))


def _potential(links: Links, blocked: int) -> tuple[int, int]:
    """A side's two-distance potential and mobility, ``blocked`` taken by the other side: the fewest, over the empty
    cells, of the cell's two-distance from the first edge plus that from the second, and how many cells reach it."""
    near, touching = links
    there = _two_distances(near, [cell for cell, edges in enumerate(touching) if edges & 1], blocked)
    back = _two_distances(near, [cell for cell, edges in enumerate(touching) if edges & 2], blocked)
    best, mobility = TOO_FAR, 0
    for cell, value in enumerate(there):
        if value and back[cell]:
            total = value + back[cell]
            if total < best:
                best, mobility = total, 1
            elif total == best:
                mobility += 1
    return best, mobility


def _two_distances(near: list[tuple[int, ...]], starts: Iterable[int], blocked: int) -> list[int]:
    """Every empty cell's two-distance from an edge (0: none), ``blocked`` taken by the other side: a cell touching it
    counts 1, any other one more than the second best of the cells it touches, so a single line the other side can
    cut counts as no line."""
    value = [0] * len(near)
    count = [0] * len(near)
    frontier = [cell for cell in starts if cell != blocked]
    distance = 1
    for _ in range(len(near) + 1):
        if not frontier:
            break
        following = []
        for cell in frontier:
            if value[cell]:
                continue
            value[cell] = distance
            for other in near[cell]:
                if other != blocked and not value[other]:
                    count[other] += 1
                    if count[other] == 2:
                        following.append(other)
        frontier, distance = following, distance + 1
    return value


def _picture(board: str, n: int) -> str:
    width = len(str(n))
    lines = [" " * (width + 1) + " ".join(column_letters(n))]
    for r in range(n):
        lines.append(f"{r + 1:>{width}} " + " " * r + " ".join(board[r * n:(r + 1) * n]))
    return "\n".join(lines)


# --- Stored positions ------------------------------------------------------------------------------------------------

@functools.cache
def stored_positions() -> dict[int, tuple[str, ...]]:
    """The shipped positions levels 3 and up walk from, by board size (``hex_positions.txt``, built offline by
    :func:`search_catalogue`): X to move, a forced win with one or two first moves, and every declared
    rule's first move (any of its ties) losing."""
    table: dict[int, tuple[str, ...]] = {}
    for line in resources.files("palaestra.envs.games").joinpath(CATALOGUE).read_text().splitlines():
        if line and not line.startswith("#"):
            size, *boards = line.split()
            table[int(size)] = tuple(boards)
    return table


# --- Building hex_positions.txt (offline) ---------------------------------------------------------------------------
# ``python -c "from palaestra.envs.games.hex import catalogue_line; print(catalogue_line(6, 160))"`` prints 160
# positions of a 6 x 6 board (5 x 5: 9 empty cells, 6 x 6: 10) as one line of hex_positions.txt (minutes of CPU). It draws random positions as the lower
# levels do (_fill) until it has a few that pass every filter of the stored positions, then walks from them one stone
# at a time (_moved), keeping a position that passes every few accepted moves. The seed is the board size, so a run
# repeats; nothing here runs when the env is used.

CATALOGUE_EMPTIES = {5: 9, 6: 10}  # the empty cells of the stored positions (Hex.presets' levels 3 and 4)
CATALOGUE_MOST_WINNING = 2  # first moves that keep X's win, at most
CATALOGUE_DRAWN = 4  # positions found by random draws before the walks start
CATALOGUE_KEEP_EVERY = 8  # accepted walk moves between two kept positions
CATALOGUE_RESTART_EVERY = 300  # walk tries before the walk starts again from a kept position


def _catalogue_passes(board: str, n: int) -> bool:
    """Whether ``board`` passes every filter the env applies to the positions it stores."""
    moves = _analyse(board, n, True)
    return moves is not None and len(moves) <= CATALOGUE_MOST_WINNING and _fools_two_ply(board, n, moves)


def search_catalogue(n: int, count: int, cpu_seconds: float) -> list[str]:
    """Up to ``count`` distinct positions of an ``n`` x ``n`` board passing :func:`_catalogue_passes`, within ``cpu_seconds``."""
    rng = random.Random(n)
    stones = n * n - CATALOGUE_EMPTIES[n]
    kept: list[str] = []
    deadline = time.process_time() + cpu_seconds
    while len(kept) < CATALOGUE_DRAWN and time.process_time() < deadline:  # bounded by the CPU deadline
        drawn = _fill(rng, n, stones)
        if drawn is not None and drawn not in kept and _catalogue_passes(drawn, n):
            kept.append(drawn)
    current, accepted, tries = (kept[0] if kept else None), 0, 0
    while current is not None and len(kept) < count and time.process_time() < deadline:
        tries += 1
        if tries % CATALOGUE_RESTART_EVERY == 0:
            current = rng.choice(kept)
        candidate = _moved(rng, current)
        if _catalogue_passes(candidate, n):
            current, accepted = candidate, accepted + 1
            if accepted % CATALOGUE_KEEP_EVERY == 0 and candidate not in kept:
                kept.append(candidate)
    return kept


def catalogue_line(n: int, count: int, cpu_seconds: float = 3_600.0) -> str:
    """One line of hex_positions.txt: ``n``, then up to ``count`` positions found by :func:`search_catalogue`."""
    return " ".join([str(n), *search_catalogue(n, count, cpu_seconds)])
