"""Gomoku: win a position by a sequence of fours (VCF) against a defender that must block.

The model plays X on a square board (11 x 11 up to 15 x 15, columns ``a``.., rows ``1``.. from
the top); five or more X stones in a row, column or diagonal win. It is X's move in a position
where X can force a win within ``N`` moves by *continuous fours*: every move but the last makes
four in a five-cell line whose fifth cell is open, so the opponent must block there, until a move
makes two such fours at once (or a four the block cannot stop). The prompt says that such a win
exists and how many moves it takes. Each turn the model writes one empty cell (``e5``); an
occupied cell or an unreadable move costs a turn.

The opponent (O) answers at once: it completes five if it can; else it blocks X's open four;
else, with the level's noise share, it plays a random empty cell next to a stone (drawn from
``event_rng`` keyed by the position), and otherwise the cell lying in most five-cell lines where X
has three stones and O none (the cell that spoils most of X's coming fours). Reward 1 for five in a
row within the turns (``N`` plus the level's spare turns), 0 otherwise.

Positions are built backwards: a cell where one X stone makes two fours at once, then, ``N - 2``
times, an earlier X move that makes a four (three new X stones on a fresh line through one of the
pattern's stones, away from the other stones, whose fifth cell the opponent will block; every
line's stones read ``X . X . X``, so no one move makes an open four), plus O
stones scattered away from the pattern. A search over X's four-making moves (at most ``N`` moves
deep, each forcing one reply, memoised) keeps a position only if its shortest such win has exactly
``N`` moves and O holds no four of its own along the way; the oracle plays a shortest one. Levels
lengthen the line (2 to 4 moves), grow the board and cut the spare turns and the opponent's noise.
The difficulty measure is ``N`` plus a twentieth of the board's side and of its stones, plus half
the opponent's accuracy.

Generation speed: about 100 to 115 problems/s at level 4 on this 2-core machine. Each built position is searched for
the shortest win by fours (every four threat and the forced reply, to the level's depth), and about 2 in 3 are
redrawn because the shortest win is shorter than the level's. The search is kept because the prompt promises a win in
exactly that many moves.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, event_rng, register, retry
from palaestra.envs.games.common import cell_name, read_cell, render_board

FIVE = 5
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


@register
class Gomoku(MultiTurnTask):
    id = "games/gomoku"
    family = "games"
    description = "Win a Gomoku position by a forced sequence of fours against a blocking defender."
    tags = ("games", "multi-turn", "two-player", "adversarial")
    one_move_per_turn = True
    distinct_from = {  # the near_duplicates kit check: why this is another skill than a similar env
        "games/connect_four": "no gravity: any empty cell of a larger board, five in a row, and the forcing moves are "
                              "fours in any of four directions rather than threats stacked in columns",
    }

    @dataclass(frozen=True)
    class Config:
        moves: int  # length of the shortest win by continuous fours
        size: int  # the board is size x size
        spare: int  # turns allowed beyond ``moves``
        noise: float  # share of the opponent's free moves played at random

    presets = (Config(2, 11, 2, 0.5), Config(3, 11, 2, 0.3), Config(3, 13, 1, 0.15), Config(4, 13, 1, 0.05),
               Config(4, 15, 1, 0.0))
    bounded = "positions won in exactly five or more fours are too rare among the built ones for generation's CPU budget"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        size, moves = config.size, config.moves

        def draw() -> tuple[list[int], list[int]] | None:
            built = _build(rng, size, moves)
            if built is None:
                return None
            mine, theirs = frozenset(built[0]), frozenset(built[1])
            if _completions(size, mine, theirs) or _completions(size, theirs, mine):
                return None
            return (sorted(mine), sorted(theirs)) if _shortest(size, mine, theirs, moves) == moves else None

        mine, theirs = retry(draw, what=f"a position won by fours in exactly {moves} moves")
        board = _board(size, mine, theirs)
        prompt = (
            f"Let's play Gomoku on a {size} x {size} board (columns a-{chr(96 + size)} from the left, rows 1-{size} "
            "from the top). Five or more of your stones in a row, column or diagonal win. You are X, the opponent is "
            f"O, and it is your move in this position:\n\n{render_board(board)}\n\n"
            f"You can force a win within {moves} moves: each move but the last makes four in a line of five cells "
            "whose fifth cell is empty, so the opponent must block it, until a move makes two such fours at once. "
            f"You have {moves + config.spare} turns; only five in a row scores. Each turn, write the empty cell you "
            "play, for example: e5"
        )
        data = {"size": size, "mine": mine, "theirs": theirs, "moves": moves, "spare": config.spare,
                "noise": config.noise}
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["moves"] + problem.data["spare"]

    def difficulty(self, problem: Problem) -> float:
        """Moves to the forced win, plus a twentieth of the board's side and of the stones on it, plus half the
        opponent's accuracy (one minus its noise share)."""
        data = problem.data
        stones = len(data["mine"]) + len(data["theirs"])
        return data["moves"] + (data["size"] + stones) / 20 + (1 - data["noise"]) / 2

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"mine": problem.data["mine"], "theirs": problem.data["theirs"]}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        size = problem.data["size"]
        cell = read_cell(move, size, size, verbs=("play", "place", "put"))
        if cell is None:
            return Outcome.invalid(state, f"write one cell, a column letter then a row number from 1 to {size}, such as e5")
        index = cell[0] * size + cell[1]
        mine, theirs = set(state["mine"]), set(state["theirs"])
        if index in mine or index in theirs:
            return Outcome(state, Verdict.wrong("occupied"), f"{cell_name(*cell)} is taken; play an empty cell.")
        mine.add(index)
        said = f"You play {cell_name(*cell)}."
        if _five(size, mine, index):
            after = {"mine": sorted(mine), "theirs": sorted(theirs)}
            return Outcome(after, Verdict.right(), f"{said} Five in a row: you win!", True)
        reply = _reply(problem, mine, theirs)
        if reply is None:
            after = {"mine": sorted(mine), "theirs": sorted(theirs)}
            return Outcome(after, Verdict.wrong("draw"), f"{said} The board is full: a draw.", True)
        theirs.add(reply)
        after = {"mine": sorted(mine), "theirs": sorted(theirs)}
        said += f" The opponent plays {cell_name(reply // size, reply % size)}."
        picture = render_board(_board(size, after["mine"], after["theirs"]))
        if _five(size, theirs, reply):
            return Outcome(after, Verdict.wrong("lost"), f"{said} Five in a row: you lose.\n{picture}", True)
        return Outcome.goes_on(after, f"{said}\n{picture}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        size = problem.data["size"]
        mine, theirs = frozenset(state["mine"]), frozenset(state["theirs"])
        cell = _winning_move(size, mine, theirs, problem.data["moves"] + problem.data["spare"])
        if cell is None:  # off the oracle's own line only
            cell = min(set(range(size * size)) - mine - theirs)
        return cell_name(cell // size, cell % size)


@functools.cache
def _lines(size: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Every five-cell line of the board, and per cell the indices of the lines through it."""
    lines = []
    for r in range(size):
        for c in range(size):
            for dr, dc in DIRECTIONS:
                cells = [(r + dr * i, c + dc * i) for i in range(FIVE)]
                if all(0 <= a < size and 0 <= b < size for a, b in cells):
                    lines.append(tuple(a * size + b for a, b in cells))
    through: list[list[int]] = [[] for _ in range(size * size)]
    for i, line in enumerate(lines):
        for cell in line:
            through[cell].append(i)
    return tuple(lines), tuple(tuple(t) for t in through)


def _completions(size: int, me: frozenset[int] | set[int], them: frozenset[int] | set[int]) -> set[int]:
    """The empty cells that would give ``me`` five in a row."""
    found: set[int] = set()
    masks = _line_masks(size)
    mine, theirs = _bits(me), _bits(them)
    for index in _lines_of(size, me):
        rest = masks[index] & ~mine
        if rest and not rest & (rest - 1) and not rest & theirs:  # one cell of the line is not ``me``'s, empty
            found.add(rest.bit_length() - 1)
    return found


@functools.cache
def _line_masks(size: int) -> tuple[int, ...]:
    """Every five-cell line of :func:`_lines` as a bit mask of its cells: the searches test lines by masking."""
    return tuple(sum(1 << c for c in line) for line in _lines(size)[0])


def _bits(stones: frozenset[int] | set[int]) -> int:
    return sum(1 << c for c in stones)


def _lines_of(size: int, stones: frozenset[int] | set[int]) -> set[int]:
    """The indices of the lines holding at least one of ``stones`` (the only ones a stone count can fill)."""
    through = _lines(size)[1]
    return {index for stone in stones for index in through[stone]}


def _four_moves(size: int, me: frozenset[int], them: frozenset[int]) -> list[int]:
    """The empty cells where a stone of ``me`` makes a four (a line with four of its stones and one empty cell)."""
    found: set[int] = set()
    lines, masks = _lines(size)[0], _line_masks(size)
    mine, theirs = _bits(me), _bits(them)
    for index in _lines_of(size, me):
        mask = masks[index]
        if (mask & mine).bit_count() == 3 and not mask & theirs:
            found.update(c for c in lines[index] if not mine >> c & 1)
    return sorted(found)


def _five(size: int, stones: set[int], last: int) -> bool:
    lines, through = _lines(size)
    return any(all(c in stones for c in lines[i]) for i in through[last])


@functools.lru_cache(maxsize=200_000)
def _shortest(size: int, me: frozenset[int], them: frozenset[int], cap: int) -> int:
    """Fewest moves (at most ``cap``) of a win by continuous fours for ``me`` to move, or 0."""
    return 1 if _completions(size, me, them) else _best_four(size, me, them, cap)[0]


@functools.lru_cache(maxsize=200_000)
def _best_four(size: int, me: frozenset[int], them: frozenset[int], cap: int) -> tuple[int, int]:
    """(fewest moves, first move) of a win by continuous fours that does not win at once, or (0, -1).

    A line is skipped where ``them`` holds a four (it could win instead of blocking) or its forced
    block makes one.
    """
    if cap < 2 or _completions(size, them, me):
        return 0, -1
    best, first = 0, -1
    for move in _four_moves(size, me, them):
        mine = me | {move}
        threats = _completions(size, mine, them)
        if len(threats) >= 2:
            return 2, move
        if len(threats) != 1:
            continue
        theirs = them | threats
        if _completions(size, theirs, mine):
            continue
        limit = (best - 1 if best else cap) - 1
        if limit < 2:
            continue
        length = _best_four(size, frozenset(mine), frozenset(theirs), limit)[0]
        if length:
            best, first = length + 1, move
    return best, first


def _winning_move(size: int, me: frozenset[int], them: frozenset[int], cap: int) -> int | None:
    """The first move of a shortest win by continuous fours within ``cap`` moves, or None."""
    immediate = _completions(size, me, them)
    if immediate:
        return min(immediate)
    length, move = _best_four(size, me, them, cap)
    return move if length else None


def _reply(problem: Problem, mine: set[int], theirs: set[int]) -> int | None:
    size = problem.data["size"]
    empty = [c for c in range(size * size) if c not in mine and c not in theirs]
    if not empty:
        return None
    win = _completions(size, theirs, mine)
    if win:
        return min(win)
    block = _completions(size, mine, theirs)
    if block:
        return min(block)
    rng = event_rng((problem.env_id, problem.level, problem.seed), "reply", sorted(mine), sorted(theirs))
    if rng.random() < problem.data["noise"]:
        near = [c for c in empty if _near(size, c, mine | theirs, 1)]
        return rng.choice(near or empty)
    lines, through = _lines(size)
    spoil = {c: sum(1 for i in through[c] if sum(x in mine for x in lines[i]) == 3
                    and not any(x in theirs for x in lines[i])) for c in empty}
    most = max(spoil.values())
    return rng.choice(sorted(c for c in empty if spoil[c] == most))


def _near(size: int, cell: int, stones: set[int], reach: int) -> bool:
    """Whether a stone lies within ``reach`` cells of ``cell`` (rows and columns both)."""
    r, c = divmod(cell, size)
    return any((r + dr) * size + c + dc in stones for dr in range(-reach, reach + 1) for dc in range(-reach, reach + 1)
               if (dr or dc) and 0 <= r + dr < size and 0 <= c + dc < size)


def _board(size: int, mine: list[int], theirs: list[int]) -> list[list[str]]:
    cells = [["."] * size for _ in range(size)]
    for index in mine:
        cells[index // size][index % size] = "X"
    for index in theirs:
        cells[index // size][index % size] = "O"
    return cells


def _build(rng: random.Random, size: int, moves: int) -> tuple[set[int], set[int]] | None:
    """A position built backwards for a win by fours in ``moves`` moves (checked by the caller), or None.

    ``reserved`` holds every cell the line of play uses (the moves, their blocks, the final fours'
    cells), so later additions never land on them; a forcing move's new cells keep two cells away
    from every stone and reserved cell, so they do not line up with the rest by accident.
    """
    margin = 2
    final = rng.choice([r * size + c for r in range(margin, size - margin) for c in range(margin, size - margin)])
    mine: set[int] = set()
    reserved = {final}
    for direction in rng.sample(range(4), 2):
        fits = _lines_through(size, final, direction)
        if not fits:
            return None
        line = rng.choice(fits)
        others = [c for c in line if c != final]
        if any(c in reserved for c in others):
            return None
        open_cell = _gap(rng, line, final)
        mine.update(c for c in others if c != open_cell)
        reserved.update(others)
    for _ in range(moves - 2):  # an earlier forcing move: a stone of the pattern is played as a four
        candidates = sorted(mine)
        rng.shuffle(candidates)
        for played in candidates:
            crowd = (mine | reserved) - {played}
            distant = {c for c in crowd if not _near(size, c, {played}, 1)}  # the played stone's neighbours may touch
            options = [line for direction in range(4) for line in _lines_through(size, played, direction)
                       if not any(c in crowd or _near(size, c, distant, 1) for c in line if c != played)]
            if options:
                break
        else:
            return None
        line = rng.choice(options)
        others = [c for c in line if c != played]
        block = _gap(rng, line, played)
        mine.discard(played)
        mine.update(c for c in others if c != block)
        reserved.update(others)
    free = [c for c in range(size * size) if c not in reserved and c not in mine]
    theirs = set(rng.sample(free, min(len(free), len(mine) - 1 + rng.randint(0, 2))))
    return mine, theirs


def _gap(rng: random.Random, line: tuple[int, ...], key: int) -> int:
    """The line's other empty cell: inside the line like ``key``, so the stones read X . X . X (no run of three
    that one more stone would turn into an open four, a second threat)."""
    return rng.choice([line[i] for i in (1, 2, 3) if line[i] != key])


@functools.cache
def _lines_through(size: int, cell: int, direction: int) -> tuple[tuple[int, ...], ...]:
    """The five-cell lines through ``cell`` in ``direction`` with ``cell`` inside (not at an end)."""
    lines, through = _lines(size)
    dr, dc = DIRECTIONS[direction]
    return tuple(lines[i] for i in through[cell]
                 if lines[i][1] - lines[i][0] == dr * size + dc and cell in lines[i][1:4])
