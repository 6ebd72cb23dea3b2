"""The offline search behind ``go_endgame_positions.txt``: Go endgames the model wins narrowly and random play loses.

For each level of ``games/go_endgame`` (``python -m palaestra.envs.games._go_catalogue`` rebuilds the
file from the env's presets, read through the registry; about half an hour of CPU -- a level's search
may be split into independently seeded shards, :func:`shard_entries`, to run in parallel), positions come
from seeded random playouts on the level's board: the players alternate uniformly random legal moves that
neither fill a point all of whose neighbours are their own stones (an eye) nor leave their own group
in atari without capturing, until the level's number of empty points is left and no group is in atari.
The side to move is the model. A position is kept when, with the ply budget of the level
(:mod:`palaestra.generators.go`; the game ends after two passes in a row or when the budget is spent):

- its exact value, the best area margin the model can force (Black's area minus White's, from the
  model's side), is within :data:`MAX_SWING` of the area count as the board stands (an endgame:
  no large group dies under best play), and both colours have stones;
- the komi is set so that the model wins by 0.5, 1.5 or 2.5 points with perfect play (each of
  the three that passes the remaining tests makes an entry), and then at most half of the model's legal first moves (the pass included) keep the win;
- a uniformly random legal player wins at most :data:`MAX_RANDOM_WIN` of its games against the
  solver's replies, and each cheap rule of :data:`palaestra.generators.go.RULES` at most
  :data:`MAX_RULE_WIN` -- both exact (:func:`palaestra.generators.go.win_chance`, averaging over
  the players' random picks among tied moves);
- the whole search of those checks visits at most :data:`MAX_STATES` states (so the env's memoised
  solver answers in tens of milliseconds), and no earlier entry is the same position in another look.
"""

from __future__ import annotations

import pathlib
import random
from collections.abc import Sequence
from typing import Any

from palaestra.generators.go import (
    BLACK,
    LOOKS,
    RULES,
    WHITE,
    Board,
    Go,
    Solver,
    board_seen_from,
    go_of,
    start_state,
    win_chance,
)

CATALOGUE = "go_endgame_positions.txt"
ENV_ID = "games/go_endgame"
MAX_RANDOM_WIN = 0.05
MAX_RULE_WIN = 0.25
MAX_SWING = 6  # the most the forced result may differ from the count as the board stands
MAX_STATES = 6_000
PLAYOUT_MOVES = 300
HEADER = ("# Go endgames the side to move wins narrowly under area scoring; one line a level: level, board size, then "
          "positions as board (X Black, O White, . empty, row by row from a1), side to move (B/W), komi (added to "
          "White's count); built by palaestra.envs.games._go_catalogue")


def _liberties(go: Go, board: Board, point: int, colour: int) -> int:
    group = go.group(1 << point, board[colour])
    return (go.spread(group) & go.full & ~(board[0] | board[1])).bit_count()


def _settled(go: Go, board: Board) -> bool:
    """No group of either colour is in atari."""
    return all(_liberties(go, board, point, colour) >= 2
               for colour in (BLACK, WHITE) for point in range(go.size ** 2) if board[colour] >> point & 1)


def playout(rng: random.Random, size: int, empties: int) -> tuple[Board, int] | None:
    """A board with ``empties`` empty points and no group in atari, and the side to move; None if the playout fails."""
    go = go_of(size)
    board: Board = (0, 0)
    colour, ko, passes = BLACK, -1, 0
    for _ in range(PLAYOUT_MOVES):
        free = go.empties(board)
        if len(free) == empties and _settled(go, board):
            return board, colour
        options = []
        for point in free:
            if point == ko or go.neighbours[point] & board[colour] == go.neighbours[point]:
                continue
            after, captured, new_ko = go.play_with_ko(board, point, colour)
            if after is None or (not captured and _liberties(go, after, point, colour) < 2):
                continue
            options.append((after, new_ko))
        if not options:
            passes += 1
            if passes == 2:
                return None
            colour, ko = 1 - colour, -1
            continue
        passes = 0
        board, ko = rng.choice(options)
        colour = 1 - colour
    return None


def black_value(size: int, board: Board, to_move: int, plies: int) -> int:
    """Black's area margin under best play (exact: the boolean solver asked at neighbouring thresholds)."""
    state = start_state(board, to_move, plies)
    black, white = go_of(size).area(board)
    margin = black - white
    if Solver(size, BLACK, margin - 0.5).wins(state):
        while Solver(size, BLACK, margin + 0.5).wins(state):
            margin += 1
        return margin
    while not Solver(size, BLACK, margin - 1.5).wins(state):
        margin -= 1
    return margin - 1


def judge(size: int, board: Board, player: int, komi: float, plies: int) -> bool:
    """Whether the position may be dealt with this komi (the module docstring's last three tests)."""
    solver = Solver(size, player, komi)
    state = start_state(board, player, plies)
    if not solver.wins(state):
        return False
    if 2 * len(solver.winning_moves(state)) > len(solver.moves(state)):
        return False
    if win_chance(solver, state, None, {}) > MAX_RANDOM_WIN:
        return False
    if any(win_chance(solver, state, rule, {}) > MAX_RULE_WIN for rule in RULES.values()):
        return False
    return solver.states() <= MAX_STATES


def canonical(size: int, board: Board) -> Board:
    return min(board_seen_from(look, size, board) for look in range(LOOKS))


def search(config: Any, count: int, seed: int, attempts: int = 20_000) -> list[tuple[Board, int, float]]:
    """Up to ``count`` positions fit for the level ``config`` (``size``, ``empties``, ``turns``)."""
    rng = random.Random(seed)
    go = go_of(config.size)
    found: list[tuple[Board, int, float]] = []
    seen: set[tuple[Board, int]] = set()
    for _ in range(attempts):
        if len(found) >= count:
            break
        drawn = playout(rng, config.size, rng.randint(*config.empties))
        if drawn is None:
            continue
        board, player = drawn
        key = (canonical(config.size, board), player)
        if key in seen or not board[0] or not board[1]:
            continue
        seen.add(key)
        plies = 2 * config.turns
        value = black_value(config.size, board, player, plies)
        black, white = go.area(board)
        if abs(value - (black - white)) > MAX_SWING:
            continue
        for lead in (0.5, 1.5, 2.5):  # each komi that makes a fair puzzle is an entry of its own
            komi = value - lead if player == BLACK else value + lead
            if judge(config.size, board, player, komi, plies):
                found.append((board, player, komi))
    return found[:count]


def shard_entries(level: int, config: Any, shard: int) -> list[str]:
    """One shard of a level's search (seed ``level + 10 * shard``), its entries written as in the catalogue."""
    go = go_of(config.size)
    count = -(-config.catalogue // config.shards)
    found = search(config, count, seed=level + 10 * shard)
    return [f"{go.text(board)}:{'BW'[player]}:{komi:g}" for board, player, komi in found]


def join_shards(level: int, config: Any, shards: Sequence[list[str]]) -> str:
    """The catalogue's line for one level: the level, the board size, then the shards' entries, repeats dropped."""
    go = go_of(config.size)
    kept: dict[tuple[Board, str], str] = {}
    for entries in shards:
        for entry in entries:
            text, side, komi = entry.split(":")
            kept.setdefault((canonical(config.size, go.board(text)), f"{side}:{komi}"), entry)
    return f"{level} {config.size} " + " ".join(kept.values())


def catalogue_line(level: int, config: Any) -> str:
    """The catalogue's line for one level (its shards can run in parallel: :func:`shard_entries`)."""
    return join_shards(level, config, [shard_entries(level, config, shard) for shard in range(config.shards)])


def write_catalogue(path: pathlib.Path, presets: Sequence[Any]) -> None:
    """Rebuild the catalogue for every preset (``catalogue`` positions each; several minutes of CPU)."""
    lines = [HEADER]
    lines += [catalogue_line(level, config) for level, config in enumerate(presets)]
    path.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    from palaestra.core.registry import make_source

    source = make_source(ENV_ID)
    write_catalogue(pathlib.Path(__file__).with_name(CATALOGUE), source.presets)  # type: ignore[attr-defined]
