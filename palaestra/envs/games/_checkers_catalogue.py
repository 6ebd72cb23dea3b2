"""The offline search behind ``checkers_positions.txt``: won draughts endgames where random play loses.

For each level of ``games/checkers`` (``python -m palaestra.envs.games._checkers_catalogue``
rebuilds the file from the env's presets, read through the registry), every position of the level's material on
its board (the model, player 0, to move) is valued by the exact solver
(:class:`palaestra.generators.draughts.Solver`) and kept when

- the model wins with perfect play in the level's range of model moves (at least three);
- the model has at least two legal moves, at most half of which keep the fastest win;
- a uniformly random legal player wins at most :data:`MAX_RANDOM_WIN` of its games against the
  solver's longest resistance within the turn budget (the fastest win plus the spare turns), and
  each cheap rule of :data:`palaestra.generators.draughts.RULES` at most :data:`MAX_RULE_WIN` --
  both exact (:func:`win_chance`: the players' random picks among their tied moves are averaged over);
- it is the first of its images under the board's symmetries
  (:func:`palaestra.generators.draughts.images`), so no two catalogue positions look alike in any look.
"""

from __future__ import annotations

import itertools
import pathlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from palaestra.generators.draughts import DRAW, RULES, Board, Move, Position, Solver, images, mover_moves, solver_of

CATALOGUE = "checkers_positions.txt"
ENV_ID = "games/checkers"
MAX_RANDOM_WIN = 0.05
MAX_RULE_WIN = 0.25

Chooser = Callable[[Board, Position, int], list[Move]]


def positions(board: Board, material: tuple[int, int, int, int]) -> Iterator[Position]:
    """Every placement of ``(model men, model kings, opponent men, opponent kings)``, no man on its crowning row."""
    men_zero, kings_zero, men_one, kings_one = material
    squares = range(board.count)
    for own in itertools.combinations(squares, men_zero + kings_zero):
        for men in itertools.combinations(own, men_zero):
            if any(board.last_row[0] >> square & 1 for square in men):
                continue
            kings = [square for square in own if square not in men]
            free = [square for square in squares if square not in own]
            for other in itertools.combinations(free, men_one + kings_one):
                for other_men in itertools.combinations(other, men_one):
                    if any(board.last_row[1] >> square & 1 for square in other_men):
                        continue
                    other_kings = [square for square in other if square not in other_men]
                    yield (_mask(men), _mask(kings), _mask(other_men), _mask(other_kings))


def _mask(squares: Iterable[int]) -> int:
    return sum(1 << square for square in squares)


def win_chance(solver: Solver, position: Position, turns: int, choose: Chooser | None,
               memo: dict[tuple[Position, int], float]) -> float:
    """The chance that a player picking uniformly among ``choose``'s moves (all legal moves: None) wins within
    ``turns`` model moves against the solver's best replies."""
    key = (position, turns)
    if key in memo:
        return memo[key]
    options = choose(solver.board, position, 0) if choose else solver.moves(position, 0)
    total = 0.0
    for _, child in options:
        if not solver.moves(child, 1):
            total += 1.0
            continue
        if turns == 1:
            continue
        after = solver.best_move(child, 1)[1]
        if solver.moves(after, 0):
            total += win_chance(solver, after, turns - 1, choose, memo)
    memo[key] = total / len(options) if options else 0.0
    return memo[key]


def fit(config: Any, spare_turns: int, solver: Solver, position: Position, memos: dict[str | None, dict]) -> bool:
    """Whether ``position`` may be dealt at the level ``config`` (the module docstring's tests)."""
    value = solver.value(position, 0)
    if value == DRAW or value % 2 == 0 or not config.moves[0] <= mover_moves(value) <= config.moves[1]:
        return False
    options = solver.moves(position, 0)
    if len(options) < 2 or 2 * len(solver.winning_moves(position, 0)) > len(options):
        return False
    turns = mover_moves(value) + spare_turns
    if win_chance(solver, position, turns, None, memos[None]) > MAX_RANDOM_WIN:
        return False
    return all(win_chance(solver, position, turns, rule, memos[name]) <= MAX_RULE_WIN for name, rule in RULES.items())


def search(config: Any, spare_turns: int) -> list[Position]:
    """Every position fit to deal at the level ``config`` (``size``, ``materials``, ``moves``), in enumeration order."""
    solver = solver_of(config.size)
    memos: dict[str | None, dict] = {name: {} for name in (None, *RULES)}
    found = []
    for material in config.materials:
        for position in positions(solver.board, material):
            if min(images(solver.board, position)) == position and fit(config, spare_turns, solver, position, memos):
                found.append(position)
    return found


def write_catalogue(path: pathlib.Path, presets: Sequence[Any], spare_turns: int) -> None:
    """Write one line per level: the level, the board size, then the positions (a minute of CPU in all)."""
    lines = ["# Won draughts endgames, one line a level: level, board size, then positions "
             "(model men.kings.opponent men.kings as hex masks over the dark squares, then the model moves of the "
             "fastest win); "
             "built by palaestra.envs.games._checkers_catalogue"]
    for level, config in enumerate(presets):
        solver = solver_of(config.size)
        found = [(*position, mover_moves(solver.value(position, 0))) for position in search(config, spare_turns)]
        lines.append(f"{level} {config.size} " + " ".join(".".join(f"{field:x}" for field in entry) for entry in found))
    path.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    from palaestra.core.registry import make_source

    game = make_source(ENV_ID)
    write_catalogue(pathlib.Path(__file__).with_name(CATALOGUE), game.presets, game.spare_turns)  # type: ignore[attr-defined]
