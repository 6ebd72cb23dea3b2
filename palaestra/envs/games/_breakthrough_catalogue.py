"""The offline search behind ``breakthrough_positions.txt``, the catalogue of ``games/breakthrough``.

Run ``python -m palaestra.envs.games._breakthrough_catalogue`` to rebuild the file (minutes of CPU; with a
level number it prints that level's line). Per preset it draws random positions (White on the ranks below its last two, Black above
White's first two, so neither side stands one step from its goal), White to move, and keeps one
only if

* White wins against any defence, and its fastest win takes at least the preset's plies;
* at least three first moves exist and at most half of them keep the win;
* a uniformly random player wins at most 5% of games against the env's opponent, each cheap
  rule of ``Breakthrough.heuristics`` (a uniform pick among its ties) at most 15%, and so do
  "win, else capture, else any move" and "any move of the most advanced piece": exact
  expectations (:func:`policy_win_chance`);
* the first move in reading order, played every turn, loses -- in each of the four reading orders
  (rank 1 or the last rank first, file a or the last file first), so in every view the env deals; as do
  the first and the last move as :meth:`Breakthrough.legal_moves` lists them (the kit's listed-move
  rules);
* it is not its own mirror image, and its mirror image is not already kept (positions are
  stored as the smaller of the two).

Nothing here runs when the env is used; the env only reads the file.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from palaestra.generators.breakthrough import (
    Move,
    Solver,
    capture_or_advance,
    mirror,
    moves,
    run_most_advanced,
    solver_for,
)

MAX_RANDOM_WIN = 0.05  # the most random play may win from a kept position (exact)
MAX_RULE_WIN = 0.15  # the most a cheap rule may win from a kept position (exact); 0.25 until the env's v2
PER_LEVEL = 260  # positions per preset (four views each: over 1,000 problems a level; level 0 finds 79)
DRAWS = 400_000  # random positions drawn per preset at most

Picks = Callable[[int, int, int, int, bool], list[Move]]


class Preset(Protocol):
    """What the search needs of a level's config (``Breakthrough.Config``)."""

    @property
    def cols(self) -> int: ...

    @property
    def rows(self) -> int: ...

    @property
    def pieces(self) -> tuple[int, int]: ...

    @property
    def plies(self) -> tuple[int, int]: ...


def policy_win_chance(solver: Solver, white: int, black: int, picks: Picks,
                      memo: dict[tuple[int, int], float] | None = None) -> float:
    """The chance that White, playing uniformly among ``picks``, beats the env's opponent from here (exact).

    The opponent (Black) plays :meth:`Solver.longest_resistance`, as ``games/breakthrough`` does.
    """
    memo = {} if memo is None else memo
    key = (white, black)
    if key in memo:
        return memo[key]
    cols, rows = solver.cols, solver.rows
    options = picks(cols, rows, white, black, True)
    total = 0.0
    for move in options:
        if move.wins:
            total += 1.0
            continue
        if not moves(cols, rows, move.other, move.mover, False):
            total += 1.0
            continue
        reply = solver.longest_resistance(move.other, move.mover, False)
        if not reply.wins:
            total += policy_win_chance(solver, reply.other, reply.mover, picks, memo)
    memo[key] = total / len(options) if options else 0.0
    return memo[key]


def all_moves(cols: int, rows: int, mover: int, other: int, white: bool) -> list[Move]:
    return moves(cols, rows, mover, other, white)


def captures_first(cols: int, rows: int, mover: int, other: int, white: bool) -> list[Move]:
    """The cheap rule "win if you can, else capture, else any move": its tied picks."""
    options = moves(cols, rows, mover, other, white)
    return [move for move in options if move.wins] or [move for move in options if move.capture] or options


def most_advanced(cols: int, rows: int, mover: int, other: int, white: bool) -> list[Move]:
    """The cheap rule "any move of the most advanced piece" (White moves up the board): its tied picks."""
    options = moves(cols, rows, mover, other, white)
    front = max((move.origin // cols for move in options), default=0)
    return [move for move in options if move.origin // cols == front]


def reading_order(rank_sign: int, file_sign: int) -> Picks:
    """The rule "the first move in a reading order" (``rank_sign`` 1: rank 1 first; ``file_sign`` 1: file a first).

    Its last move is the first of the reverse order, so the four signs cover first and last in every view.
    """
    def picks(cols: int, rows: int, mover: int, other: int, white: bool) -> list[Move]:
        return sorted(moves(cols, rows, mover, other, white),
                      key=lambda move: (rank_sign * (move.origin // cols), file_sign * (move.origin % cols),
                                        file_sign * (move.target % cols)))[:1]

    return picks


def listed_first(cols: int, rows: int, mover: int, other: int, white: bool) -> list[Move]:
    return moves(cols, rows, mover, other, white)[:1]


def listed_last(cols: int, rows: int, mover: int, other: int, white: bool) -> list[Move]:
    return moves(cols, rows, mover, other, white)[-1:]


RULES: tuple[Picks, ...] = (capture_or_advance, run_most_advanced, captures_first, most_advanced)
ORDERS: tuple[Picks, ...] = (listed_first, listed_last,
                             *(reading_order(rank_sign, file_sign) for rank_sign in (1, -1) for file_sign in (1, -1)))


def _draw(rng: random.Random, config: Preset) -> tuple[int, int]:
    cols, rows = config.cols, config.rows
    white_squares = range(0, cols * (rows - 2))
    black_squares = range(2 * cols, cols * rows)
    count_white, count_black = rng.randint(*config.pieces), rng.randint(*config.pieces)
    white = rng.sample(white_squares, count_white)
    black = rng.sample([s for s in black_squares if s not in white], count_black)
    return sum(1 << s for s in white), sum(1 << s for s in black)


def worth_dealing(solver: Solver, white: int, black: int, config: Preset) -> int | None:
    """The plies of White's fastest win if the position is fit for the catalogue (module docstring), else None."""
    plies = solver.win_distance(white, black, True)
    if plies is None or not config.plies[0] <= plies <= config.plies[1]:
        return None
    options = solver.moves(white, black, True)
    if len(options) < 3 or 2 * len(solver.winning_moves(white, black, True)) > len(options):
        return None
    if policy_win_chance(solver, white, black, all_moves) > MAX_RANDOM_WIN:
        return None
    if any(policy_win_chance(solver, white, black, picks) > 0 for picks in ORDERS):  # one game each: cheap
        return None
    if any(policy_win_chance(solver, white, black, picks) > MAX_RULE_WIN for picks in RULES):
        return None
    return plies


def search(config: Preset, count: int, seed: int) -> list[tuple[int, int, int]]:
    """Up to ``count`` positions fit to deal, as ``(White, Black, plies)``, none a mirror image of another."""
    rng = random.Random(seed)
    solver = solver_for(config.cols, config.rows)
    found: dict[tuple[int, int], int] = {}
    for _ in range(DRAWS):
        if len(found) >= count:
            break
        white, black = _draw(rng, config)
        image = (mirror(white, config.cols, config.rows), mirror(black, config.cols, config.rows))
        if image == (white, black):
            continue
        position = min((white, black), image)
        if position in found:
            continue
        plies = worth_dealing(solver, *position, config)
        if plies is not None:
            found[position] = plies
    return [(white, black, plies) for (white, black), plies in found.items()]


def catalogue_line(config: Preset, level: int, count: int = PER_LEVEL) -> str:
    """Preset ``level``'s line: files, ranks, the piece and plies ranges, then ``white:black:plies`` (hex masks)."""
    entries = search(config, count, seed=level)
    return (" ".join(map(str, (config.cols, config.rows, *config.pieces, *config.plies))) + " "
            + " ".join(f"{white:x}:{black:x}:{plies}" for white, black, plies in entries))


def write_catalogue(path: str, presets: Sequence[Preset]) -> None:
    """Rebuild the catalogue file at ``path`` for the env's presets (one line each, searched with the level as seed)."""
    lines = ["# Breakthrough positions White (to move) wins; built by palaestra.envs.games._breakthrough_catalogue"]
    lines += [catalogue_line(config, level) for level, config in enumerate(presets)]
    with open(path, "w") as handle:
        handle.write("\n".join(lines) + "\n")


if __name__ == "__main__":  # rebuild the catalogue (minutes of CPU); with a level number, print that level's line
    import pathlib
    import sys

    from palaestra.core.registry import make_source

    presets = make_source("games/breakthrough").presets
    if len(sys.argv) > 1:
        print(catalogue_line(presets[int(sys.argv[1])], int(sys.argv[1])))
    else:
        write_catalogue(str(pathlib.Path(__file__).with_name("breakthrough_positions.txt")), presets)
