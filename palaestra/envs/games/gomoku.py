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
line's stones read ``X . X . X``, so no one move makes an open four). Around it go up to three
poisoned fours (decoys): a cell that makes a four and two threes at once, whose forced block gives
O a four of its own (three O stones on a line through the block), so that any further four of X's
loses at once; then O stones scattered away from the line of play, about as many as X's. A search
over X's four-making moves (at most ``N`` moves deep, each forcing one reply, memoised) keeps a
position only if its shortest such win has exactly ``N`` moves and O holds no four of its own
along the way; the oracle plays a shortest one. Levels lengthen the line (2 to 4 moves), grow the
board and cut the spare turns and the opponent's noise. The difficulty measure is ``N`` plus a
twentieth of the board's side and of its stones, plus half the opponent's accuracy.

Cheap rules (v2, red team r24). Each completes five if it can, else makes the four it ranks highest, else plays a
random empty cell next to a stone: the four making the most fours then threes; the four leaving the most fours after
the block (two-ply); a double four, else the four nearest the centre / with the most X stones within two cells / first
in reading order. In v1 the forcing move was the only four that also made a three, and these rules won (40 games a
level; levels 0, 2, 4): most fours then threes 1.00 1.00 0.82; two-ply 1.00 0.82 0.65; nearest the stones 1.00 0.68
0.42; nearest the centre 1.00 0.60 0.33; first double four 1.00 0.45 0.40; a random four 0.30 0.20 0.10. From level 1
on a position is kept only if no rule wins it whatever its tie-break (``_rule_wins``: every tie followed, each four
forcing its block), and the decoys make that common; the declared rules (ties in reading order) then score 0.00 at
levels 1-4 and a random four at most 0.07, a random double-else-four at most 0.25 (level 2). At level 0 the win is a
double four in one move, which every rule preferring double fours finds (1.00 there, by construction: finding it is
the skill). Level 1's board grew from 11 to 13 for the decoys to fit. A rule that also blocks the opponent's five (which saves
the game after a poisoned four) and plays a random four no position can beat on every tie; it is declared
(``RANDOM_FOUR``) and won 0.55, 0.38, 0.25, 0.29 at levels 1-4 (r3s26, 100 games a level).

Generation speed: about 35 to 60 ms of CPU a problem at levels 1-4 on this busy 2-core machine (before r3s24's
rewrite on bit boards, 90 to 180 ms; v1: 2 to 25 ms): about one built position in five has its shortest win exactly
at the level's length, and of those about one dressing in four (decoys and O stones, up to four per built line) beats
every rule. The search is kept because the prompt promises a win in exactly that many moves; the rule check, because
the rules won without reading. What is left is mostly the random draws of the decoys (about three quarters of the
dressing's time at level 1), which the rewrite keeps call for call so that every (level, seed) gives the same problem.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Set
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, event_rng, register, retry
from palaestra.envs.games.common import cell_name, read_cell, render_board

FIVE = 5
DRESSINGS = 4  # decoys and O stones drawn per line of play before it is redrawn
DECOY_TRIES = 30  # cells tried as a dead-end four's move
DECOYS = 3  # dead-end fours tried per position (each added where it fits)
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

    presets = (Config(2, 11, 2, 0.5), Config(3, 13, 2, 0.3), Config(3, 13, 1, 0.15), Config(4, 13, 1, 0.05),
               Config(4, 15, 1, 0.0))
    version = 2
    bounded = "positions won in exactly five or more fours are too rare among the built ones for generation's CPU budget"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        size, moves = config.size, config.moves

        def draw() -> tuple[list[int], list[int]] | None:
            built = _build(rng, size, moves)
            if built is None or _shortest(size, frozenset(built[0]), frozenset(), moves) != moves:
                return None
            for _ in range(DRESSINGS):  # decoys and O stones around the line of play
                mine, theirs = (frozenset(stones) for stones in _dress(rng, size, *built))
                # pure checks, all of which must pass: ordered by cost against how often they reject (the rules
                # reject most dressings, the exact-length search few), which changes the time, not the outcome
                if (_completions(size, mine, theirs) or _completions(size, theirs, mine)
                        or moves > 2 and _any_rule_wins(size, mine, theirs, moves + config.spare)):
                    continue
                if _shortest(size, mine, theirs, moves) == moves:
                    return sorted(mine), sorted(theirs)
            return None

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

    def heuristics(self) -> dict[str, Any]:
        def rule(name: str) -> Any:
            def policy(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
                size = problem.data["size"]
                mine, theirs = frozenset(state["mine"]), frozenset(state["theirs"])
                choices = _rule_choices(size, mine, theirs, name)
                if choices:
                    cell = choices[0]
                else:  # no five and no four: a random empty cell next to a stone
                    empty = [c for c in range(size * size) if c not in mine and c not in theirs]
                    cell = rng.choice([c for c in empty if _near(size, c, mine | theirs, 1)] or empty)
                return cell_name(cell // size, cell % size)
            return policy

        def random_four(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
            size = problem.data["size"]
            mine, theirs = frozenset(state["mine"]), frozenset(state["theirs"])
            return cell_name(*divmod(_random_four_move(size, mine, theirs, rng), size))

        return {**{name: rule(name) for name in RULES}, RANDOM_FOUR: random_four}

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
    """The empty cells that would give ``me`` five in a row (:func:`_completion_bits` on cell sets)."""
    if len(me) < FIVE - 1:
        return set()
    return _cells(size, _completion_bits(size, _pad(size, me), _pad(size, them)))


def _pad(size: int, stones: Iterable[int]) -> int:
    """Cells as a padded bit board (:func:`_padded_bits`)."""
    bit = _padded_bits(size)
    return sum(map(bit.__getitem__, stones))


def _completion_bits(size: int, mine: int, them: int) -> int:
    """The empty cells that would give ``mine`` five in a row, all as padded bit boards.

    By shifts of a padded bit board (an empty column after each row, so no line wraps): a cell completes five where
    the four other cells of a five-cell window through it, in some direction, all hold ``mine``'s stones."""
    found = 0
    for step in (1, size + 1, size + 2, size):
        up1, up2 = mine << step, mine << 2 * step
        down1, down2 = mine >> step, mine >> 2 * step
        near = up1 & down1
        up12, down12 = up1 & up2, down1 & down2
        found |= (up12 & up2 << step & up2 << 2 * step | down12 & down2 >> step & down2 >> 2 * step
                  | near & up2 & (mine << 3 * step | down2) | near & down2 & mine >> 3 * step)
    return found & _padded_board(size) & ~mine & ~them


def _padded_cell(size: int, low: int) -> int:
    """The cell of a padded board's single bit ``low``."""
    index = low.bit_length() - 1
    return index // (size + 1) * size + index % (size + 1)


@functools.cache
def _padded_bits(size: int) -> tuple[int, ...]:
    """Each cell's bit on a board of ``size + 1`` columns (the last always empty, so no line wraps)."""
    return tuple(1 << (c // size * (size + 1) + c % size) for c in range(size * size))


@functools.cache
def _padded_board(size: int) -> int:
    return sum(_padded_bits(size))


@functools.cache
def _line_masks(size: int) -> tuple[int, ...]:
    """Every five-cell line of :func:`_lines` as a bit mask of its cells: the searches test lines by masking."""
    return tuple(sum(1 << c for c in line) for line in _lines(size)[0])


def _bits(stones: Iterable[int]) -> int:
    return sum(1 << c for c in stones)


def _lines_of(size: int, stones: frozenset[int] | set[int]) -> set[int]:
    """The indices of the lines holding at least one of ``stones`` (the only ones a stone count can fill)."""
    through = _lines(size)[1]
    return {index for stone in stones for index in through[stone]}


def _four_moves(size: int, me: frozenset[int], them: frozenset[int]) -> list[int]:
    """The empty cells where a stone of ``me`` makes a four (:func:`_four_bits` on cell sets), in reading order."""
    return sorted(_cells(size, _four_bits(size, _pad(size, me), _pad(size, them))))


def _four_bits(size: int, mine: int, them: int) -> int:
    """The empty cells where a stone of ``mine`` makes a four (a line with four of its stones and one empty cell).

    By shifts of the padded bit board, like :func:`_completion_bits`: the two empty cells of every five-cell window
    holding three of ``mine``'s stones and none of ``them``'s."""
    empty = _padded_board(size) & ~mine & ~them
    found = 0
    for step in (1, size + 1, size + 2, size):
        stones = [mine >> (k * step) for k in range(FIVE)]
        holes = [empty >> (k * step) for k in range(FIVE)]
        for i, j in _PAIRS:
            start = holes[i] & holes[j]
            for k in range(FIVE):
                if k != i and k != j:
                    start &= stones[k]
            if start:
                found |= start << (i * step) | start << (j * step)
    return found



@functools.lru_cache(maxsize=1 << 14)  # the five rules ask it of the same position
def _four_threats(size: int, mine: int, them: int) -> dict[int, int]:
    """Per four-making cell of ``mine`` (as a bit, in reading order), the cells its four threatens (as bits).

    Where ``mine`` has no five to complete, these are exactly the completions after the move (a five-cell window
    without the move already held four of ``mine``): the other empty cell of each window holding three of ``mine``,
    the move, and none of ``them``; so the searches read them here instead of scanning the board per move."""
    empty = _padded_board(size) & ~mine & ~them
    usable = mine | empty
    table: dict[int, int] = {}
    for step in (1, size + 1, size + 2, size):
        # windows (by their first cell) on the board, free of ``them``, with exactly two empty cells: counted with
        # bit-parallel "at least one / two / three" flags rather than per pair of cells
        holes = [empty >> (k * step) for k in range(FIVE)]
        free = usable
        one = two = three = 0
        for k, hole in enumerate(holes):
            if k:
                free &= usable >> (k * step)
            three |= two & hole
            two |= one & hole
            one |= hole
        start = free & two & ~three
        while start:
            low = start & -start
            start ^= low
            a, b = (low << k * step for k in range(FIVE) if holes[k] & low)
            table[a] = table.get(a, 0) | b
            table[b] = table.get(b, 0) | a
    return {move: table[move] for move in sorted(table)}


_PAIRS = tuple((i, j) for i in range(FIVE) for j in range(i + 1, FIVE))


def _cells(size: int, bits: int) -> set[int]:
    """The cells of a padded bit board."""
    cells, stride = set(), size + 1
    while bits:
        low = bits & -bits
        index = low.bit_length() - 1
        cells.add(index // stride * size + index % stride)
        bits ^= low
    return cells


def _five(size: int, stones: set[int], last: int) -> bool:
    lines, through = _lines(size)
    return any(all(c in stones for c in lines[i]) for i in through[last])


def _shortest(size: int, me: frozenset[int], them: frozenset[int], cap: int) -> int:
    """Fewest moves (at most ``cap``) of a win by continuous fours for ``me`` to move, or 0."""
    mine, theirs = _pad(size, me), _pad(size, them)
    return 1 if _completion_bits(size, mine, theirs) else _best_four_bits(size, mine, theirs, cap)[0]


def _best_four(size: int, me: frozenset[int], them: frozenset[int], cap: int) -> tuple[int, int]:
    """(fewest moves, first move) of a win by continuous fours that does not win at once, or (0, -1)."""
    length, low = _best_four_bits(size, _pad(size, me), _pad(size, them), cap)
    return (length, _padded_cell(size, low)) if length else (0, -1)


@functools.lru_cache(maxsize=200_000)
def _best_four_bits(size: int, me: int, them: int, cap: int) -> tuple[int, int]:
    """:func:`_best_four` on padded bit boards, memoised on them (ints hash fast, and no set is built per move); the
    move is returned as its bit. Moves are tried in reading order (lowest bit first), as the tie-break wants.

    A line is skipped where ``them`` holds a four (it could win instead of blocking) or its forced
    block makes one.
    """
    if cap < 2 or _completion_bits(size, them, me):
        return 0, -1
    best, first = 0, -1
    # ``me`` has no five to complete here (the caller checked, and a block took the only one), so each move's
    # completions are its threats
    for move, threats in _four_threats(size, me, them).items():
        mine = me | move
        if threats & (threats - 1):  # two cells or more
            return 2, move
        theirs = them | threats
        if _completion_bits(size, theirs, mine):
            continue
        limit = (best - 1 if best else cap) - 1
        if limit < 2:
            continue
        length = _best_four_bits(size, mine, theirs, limit)[0]
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


def _near(size: int, cell: int, stones: Set[int], reach: int) -> bool:
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
    near = _neighbourhoods(size)
    for _ in range(moves - 2):  # an earlier forcing move: a stone of the pattern is played as a four
        candidates = sorted(mine)
        rng.shuffle(candidates)
        for played in candidates:
            # as bit masks: a line's other cells must avoid the crowd and the cells next to a distant stone (the
            # played stone's neighbours may touch); next-to is symmetric, so that is the union of their neighbourhoods
            crowd = _bits(mine | reserved) & ~(1 << played)
            distant = crowd & ~near[played]
            barred = crowd
            while distant:
                low = distant & -distant
                barred |= near[low.bit_length() - 1]
                distant ^= low
            barred &= ~(1 << played)
            options = [line for direction in range(4) for line, mask in _masks_through(size, played, direction)
                       if not mask & barred]
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
    return mine, reserved


def _dress(rng: random.Random, size: int, line: set[int], used: set[int]) -> tuple[set[int], set[int]]:
    """The X stones of the line of play plus up to :data:`DECOYS` poisoned fours (:func:`_decoy`), and O stones
    scattered away from the cells the line of play uses (``used``), about as many as X's."""
    mine, reserved, theirs = set(line), set(used), set[int]()
    for _ in range(DECOYS):
        _decoy(rng, size, mine, theirs, reserved)
    free = [c for c in range(size * size) if c not in reserved and c not in mine and c not in theirs]
    theirs |= set(rng.sample(free, min(len(free), max(0, len(mine) - len(theirs) - 1 + rng.randint(0, 2)))))
    return mine, theirs


def _decoy(rng: random.Random, size: int, mine: set[int], theirs: set[int], reserved: set[int]) -> None:
    """Add a poisoned four where one fits, away from the other stones: a cell ``d`` that makes a four (three X stones
    on a fresh line with ``d`` and the cell ``b`` the block takes) and two threes (two X stones on each of two more
    lines through ``d``), where ``b`` lies on a line of three O stones, so that the block makes a four for O. It ranks
    above the real forcing moves for a rule counting fours and threes, the fours left after the block or the stones
    nearby; after it, any further four loses at once (O completes five instead of blocking), so only a reply that
    blocks O's four saves the game, at the cost of a turn."""
    # Bit masks throughout (cells as bits of an int): the checks below are the hot spot of generation. Every
    # random draw, and the list each draw picks from, is exactly as in the set-based v2, so the same positions come out.
    crowd = mine | theirs | reserved
    near, masks_through = _neighbourhoods(size), _all_masks_through(size)
    crowd_bits = halo = 0  # the stones, and the cells next to a stone (or on one)
    for x in crowd:
        crowd_bits |= 1 << x
        halo |= near[x]
    in_halo = format(halo, f"0{size * size}b")[::-1]  # one character per cell: cheaper to read than bit shifts
    cells = [c for c, mark in enumerate(in_halo) if mark == "0"]
    rng.shuffle(cells)
    for d in cells[:DECOY_TRIES]:
        # d lies off the halo, so off every taken cell: a line fits where it holds no taken cell at all
        through = masks_through[d]
        fitting = []
        for direction in rng.sample(range(4), 4):
            pairs, union = through[direction]
            # where no line of the direction meets a stone, all fit (the same lines, in the same order)
            fits = pairs if not union & crowd_bits else [pair for pair in pairs if not pair[1] & crowd_bits]
            if fits:
                fitting.append(fits)
        if len(fitting) < 3:
            continue
        (four, four_mask), (first, first_mask), (second, second_mask) = (rng.choice(fits) for fits in fitting[:3])
        taken = crowd_bits | four_mask | first_mask | second_mask
        block = _gap(rng, four, d)  # the four's line: stones X . X . X around d and the block
        added = {c for c in four if c not in (d, block)}
        added.update(rng.sample([c for c in first if c != d], 2))
        added.update(rng.sample([c for c in second if c != d], 2))
        if in_halo[block] == "1" or any(in_halo[c] == "1" for c in added):  # d itself lies off the halo
            continue
        free = taken & ~(1 << block)
        fits = [pair for pairs, _ in masks_through[block] for pair in pairs if not pair[1] & free]
        if not fits:
            continue
        line, mask = rng.choice(fits)
        open_cell = _gap(rng, line, block)
        if mask & ~(1 << block | 1 << open_cell) & halo:
            continue
        poison = {c for c in line if c not in (block, open_cell)}
        taken |= mask
        if not _completions(size, theirs | poison, mine | added) and not _interferes(size, mine | added,
                                                                                    theirs | poison, added):
            mine |= added
            theirs |= poison
            fresh = taken & ~crowd_bits
            reserved |= {c for c in range(size * size) if fresh >> c & 1}
            return


@functools.cache
def _neighbourhoods(size: int) -> tuple[int, ...]:
    """Per cell, the bit mask of it and the cells next to it (rows and columns both)."""
    return tuple(sum(1 << (r + dr) * size + c + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                     if 0 <= r + dr < size and 0 <= c + dc < size)
                 for r, c in (divmod(x, size) for x in range(size * size)))


@functools.cache
def _all_masks_through(size: int) -> tuple[tuple[tuple[tuple[tuple[tuple[int, ...], int], ...], int], ...], ...]:
    """Per cell, :func:`_masks_through` in each of the four directions (one look-up per cell tried), each with the
    union of its lines' masks."""
    return tuple(tuple((pairs, functools.reduce(int.__or__, (mask for _, mask in pairs), 0))
                       for pairs in (_masks_through(size, cell, direction) for direction in range(4)))
                 for cell in range(size * size))


@functools.cache
def _masks_through(size: int, cell: int, direction: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """:func:`_lines_through` with each line's bit mask."""
    return tuple((line, _bits(line)) for line in _lines_through(size, cell, direction))


def _interferes(size: int, mine: set[int], theirs: set[int], new: set[int]) -> bool:
    """Whether the ``new`` stones of ``mine`` make a four, or a four-making cell that makes two fours at once (a
    shorter win than the line of play's); only lines through them are read."""
    lines, masks = _lines(size)[0], _line_masks(size)
    bits, blocked = _bits(mine), _bits(theirs)
    cells: set[int] = set()
    for index in _lines_of(size, new):
        count = (masks[index] & bits).bit_count()
        if count >= 4 and not masks[index] & blocked:
            return True
        if count == 3 and not masks[index] & blocked:
            cells.update(c for c in lines[index] if not bits >> c & 1)
    me, them, bit = _pad(size, mine), _pad(size, theirs), _padded_bits(size)
    return any(_completion_bits(size, me | bit[c], them).bit_count() >= 2 for c in cells)


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


def _fours_made(size: int, mine: frozenset[int], theirs: frozenset[int], cell: int) -> int:
    """How many fours (cells completing five) a stone of ``mine`` on ``cell`` leaves."""
    counts = _fours_counts(size, mine, theirs)
    return counts[cell] if cell in counts else len(_completions(size, mine | {cell}, theirs))


@functools.lru_cache(maxsize=20_000)
def _fours_counts(size: int, mine: frozenset[int], theirs: frozenset[int]) -> dict[int, int]:
    """:func:`_fours_made` for every four-making cell at once (the rules rank all of them), without a board per cell.

    A stone on ``cell`` keeps the position's completions but ``cell`` itself (a line completed elsewhere holds four
    stones of ``mine``, so not the empty ``cell``) and adds the empty fifth cell of each line through ``cell`` that
    then holds four of ``mine`` and none of ``theirs``."""
    base = _completions(size, mine, theirs)
    masks, through = _line_masks(size), _lines(size)[1]
    bits, blocked = _set_bits(mine), _set_bits(theirs)
    counts = {}
    for cell in _four_moves(size, mine, theirs):
        with_cell = bits | 1 << cell
        made = base - {cell}
        for i in through[cell]:
            mask = masks[i]
            if not mask & blocked and (mask & with_cell).bit_count() == 4:
                made.add((mask & ~with_cell).bit_length() - 1)
        counts[cell] = len(made)
    return counts


@functools.lru_cache(maxsize=20_000)
def _set_pad(size: int, stones: frozenset[int]) -> int:
    """:func:`_pad` of a position's stones, kept like :func:`_set_bits`."""
    return _pad(size, stones)


@functools.lru_cache(maxsize=20_000)
def _set_bits(stones: frozenset[int]) -> int:
    """:func:`_bits` of a position's stones, kept: the rules ask for the same position's masks per candidate cell."""
    return _bits(stones)


def _threes_made(size: int, mine: frozenset[int], theirs: frozenset[int], cell: int) -> int:
    """How many five-cell lines through ``cell`` hold three of ``mine`` and none of ``theirs`` once it is played."""
    masks, through = _line_masks(size), _lines(size)[1]
    bits, blocked = _set_bits(mine) | 1 << cell, _set_bits(theirs)
    return sum(1 for i in through[cell] if not masks[i] & blocked and (masks[i] & bits).bit_count() == 3)


def _follow_ups(size: int, mine: frozenset[int], theirs: frozenset[int], cell: int) -> int:
    """How many fours ``mine`` can make after playing ``cell`` and the opponent's block (many for a double four)."""
    after, them = _set_pad(size, mine) | _padded_bits(size)[cell], _set_pad(size, theirs)
    blocks = _completion_bits(size, after, them)
    if blocks & (blocks - 1):  # two cells or more
        return size * size
    return _four_bits(size, after, them | blocks & -blocks).bit_count()  # the lowest bit is the first cell


def _centre_rank(size: int, mine: frozenset[int], theirs: frozenset[int], cell: int) -> tuple[int, int]:
    r, c = divmod(cell, size)
    return _fours_made(size, mine, theirs, cell) >= 2, -((2 * r - size + 1) ** 2 + (2 * c - size + 1) ** 2)


def _company_rank(size: int, mine: frozenset[int], theirs: frozenset[int], cell: int) -> tuple[int, int]:
    r, c = divmod(cell, size)
    return (_fours_made(size, mine, theirs, cell) >= 2,
            sum(1 for x in mine if max(abs(x // size - r), abs(x % size - c)) <= 2))


# The cheap rules a policy may learn instead of reading the fours ahead: each completes five if it can, else makes the
# four ranked highest here, else plays a random empty cell next to a stone. The declared policies break ties in
# reading order; generation keeps a position only if no rule wins it whatever its tie-break (``_rule_wins``).
RULES = {
    "five, else the four making the most fours, then the most threes":
        lambda size, mine, theirs, cell: (_fours_made(size, mine, theirs, cell), _threes_made(size, mine, theirs, cell)),
    "five, else the four leaving the most fours after the block":
        lambda size, mine, theirs, cell: (_follow_ups(size, mine, theirs, cell),),
    "five, else a double four, else the four nearest the centre": _centre_rank,
    "five, else a double four, else the four with the most X stones within two cells": _company_rank,
    "five, else a double four, else the first four in reading order":
        lambda size, mine, theirs, cell: (_fours_made(size, mine, theirs, cell) >= 2, -cell),
}


# A rule no position can beat whatever its tie-break (its ties are every four, and the win is a line of fours): it
# blocks the opponent's five too, which saves the game after a poisoned four. Measured (r3s26, 100 games a level):
# 0.55 at level 1, 0.38 at level 2, 0.25 at level 3, 0.29 at level 4; declared so the kit keeps the top level below
# its limit.
RANDOM_FOUR = "five, else block a five, else a double four, else a random four"


def _random_four_move(size: int, mine: frozenset[int], theirs: frozenset[int], rng: random.Random) -> int:
    """The move of RANDOM_FOUR; with no four either, a random empty cell next to a stone."""
    five = _completions(size, mine, theirs) or _completions(size, theirs, mine)
    if five:
        return rng.choice(sorted(five))
    fours = _four_moves(size, mine, theirs)
    if fours:
        counts = _fours_counts(size, mine, theirs)
        return rng.choice([cell for cell in fours if counts[cell] >= 2] or fours)
    empty = [c for c in range(size * size) if c not in mine and c not in theirs]
    return rng.choice([c for c in empty if _near(size, c, mine | theirs, 1)] or empty)


# The order generation tries the rules in (indices into RULES): those that win most often first (the centre and
# company rules win about half the dressed positions), the two-ply rule, the dearest, last. A position is kept only if
# no rule wins, so the order changes the time spent, not the positions kept.
RULE_ORDER = (2, 3, 4, 0, 1)


@functools.lru_cache(maxsize=100_000)
def _rule_choices(size: int, mine: frozenset[int], theirs: frozenset[int], name: str) -> tuple[int, ...]:
    """The cells a rule may play (in reading order): the cells completing five, else the best-ranked fours (ties),
    else none."""
    five = _completions(size, mine, theirs)
    if five:
        return tuple(sorted(five))
    fours = _four_moves(size, mine, theirs)
    if not fours:
        return ()
    rank = RULES[name]
    ranks = {cell: rank(size, mine, theirs, cell) for cell in fours}
    best = max(ranks.values())
    return tuple(cell for cell in fours if ranks[cell] == best)


@functools.lru_cache(maxsize=100_000)
def _rule_wins(size: int, mine: frozenset[int], theirs: frozenset[int], turns: int, name: str) -> bool:
    """Whether a rule wins by fours within ``turns`` on some line of its tie-breaks (every four forces the block)."""
    if turns <= 0:
        return False
    if _completions(size, mine, theirs):
        return True
    for cell in _rule_choices(size, mine, theirs, name):
        after = mine | {cell}
        if _completions(size, theirs, after):  # the opponent wins first
            continue
        blocks = _completions(size, after, theirs)
        if len(blocks) >= 2:
            return True
        if blocks and _rule_wins(size, after, theirs | {min(blocks)}, turns - 1, name):
            return True
    return False


# The rule check on padded bit boards, for generation: the same choices and answers as _rule_choices and _rule_wins
# above (which the heuristics play), but memoised on ints and with no set built per move, as generation asks it of
# every dressed position.
def _any_rule_wins(size: int, mine: frozenset[int], theirs: frozenset[int], turns: int) -> bool:
    """Whether some rule of RULES wins (:func:`_rule_wins`) whatever its tie-break."""
    me, them = _pad(size, mine), _pad(size, theirs)
    return any(_rule_wins_bits(size, me, them, turns, rule) for rule in RULE_ORDER)


@functools.lru_cache(maxsize=100_000)
def _rule_wins_bits(size: int, me: int, them: int, turns: int, rule: int) -> bool:
    """:func:`_rule_wins` for the rule ``RULES`` lists at index ``rule``."""
    if turns <= 0:
        return False
    if _completion_bits(size, me, them):
        return True
    # with no five of ``me`` to complete, a move's completions are its threats; the opponent's fives are the ones it
    # had, but the move's cell
    threats, fives = _four_threats(size, me, them), _completion_bits(size, them, me)
    for move in _rule_choices_bits(size, me, them, rule):
        after = me | move
        if fives & ~move:  # the opponent wins first
            continue
        blocks = threats[move]
        if blocks & (blocks - 1):  # two cells or more
            return True
        if blocks and _rule_wins_bits(size, after, them | blocks & -blocks, turns - 1, rule):  # the block: lowest
            return True
    return False


def _rule_choices_bits(size: int, me: int, them: int, rule: int) -> list[int]:
    """The best-ranked fours (as bits, in reading order) of the rule at index ``rule``, where no five is on: the
    ranks of RULES, computed on the bit boards."""
    table = _four_threats(size, me, them)  # no five to complete: each move's completions are its threats
    moves = list(table)
    if not moves:
        return []
    ranks: list[Any]  # per rule: counts, or (count, threes), or (double four, closeness): compared within a rule
    if rule == 1:  # the fours left after the block
        ranks = []
        for move, blocks in table.items():
            ranks.append(size * size if blocks & (blocks - 1) else
                         _four_bits(size, me | move, them | blocks & -blocks).bit_count())
    else:
        made = [blocks.bit_count() for blocks in table.values()]
        cells = [_padded_cell(size, move) for move in moves]
        if rule == 0:  # most fours, then most threes
            masks, through = _padded_line_masks(size), _lines(size)[1]
            ranks = [(count, sum(1 for i in through[cell] if not masks[i] & them
                                 and (masks[i] & (me | move)).bit_count() == 3))
                     for count, cell, move in zip(made, cells, moves)]
        elif rule == 2:  # a double four, else nearest the centre
            ranks = [(count >= 2, -((2 * (cell // size) - size + 1) ** 2 + (2 * (cell % size) - size + 1) ** 2))
                     for count, cell in zip(made, cells)]
        elif rule == 3:  # a double four, else the most X stones within two cells
            boxes = _padded_boxes(size)
            ranks = [(count >= 2, (me & boxes[cell]).bit_count()) for count, cell in zip(made, cells)]
        else:  # a double four, else reading order
            ranks = [(count >= 2, -cell) for count, cell in zip(made, cells)]
    best = max(ranks)
    return [move for move, rank in zip(moves, ranks) if rank == best]


@functools.cache
def _padded_line_masks(size: int) -> tuple[int, ...]:
    """The five-cell lines of :func:`_lines` as padded bit masks."""
    return tuple(_pad(size, line) for line in _lines(size)[0])


@functools.cache
def _padded_boxes(size: int) -> tuple[int, ...]:
    """Per cell, the padded bit mask of the cells within two rows and columns of it."""
    return tuple(_pad(size, [(r + dr) * size + c + dc for dr in range(-2, 3) for dc in range(-2, 3)
                             if 0 <= r + dr < size and 0 <= c + dc < size])
                 for r, c in (divmod(x, size) for x in range(size * size)))
