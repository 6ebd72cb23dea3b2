"""Go endgames on small boards under area scoring: win a narrowly won position against an exact solver.

The board is ``n x n`` (columns a, b, ..., rows 1, 2, ... from the top), X is Black and O is White;
the model plays the side to move (stated in the prompt) in a late endgame with a few empty points
left. The rules (:mod:`palaestra.generators.go`): a move puts a stone on an empty point; opposing
groups left without liberties are captured and lifted; suicide is illegal; simple ko (a lone stone
that just captured a lone stone may not be retaken at once); a pass is always legal. The game ends
after two passes in a row, or after the model's ``T``-th move and the opponent's reply (``T``, the
turn budget, is stated), and the board is then counted as it stands by area (Tromp-Taylor): stones
plus empty regions touching only one colour; komi, a half point so there are no draws, is added to
White's count (a negative komi to Black's). Reward 1 for a win, 0 for a loss.

Every position is a win for the model with perfect play, by 0.5, 1.5 or 2.5 points (the komi is set
so), proved by an exact memoised solver over the state (board, side to move, ko point, passes in a
row, plies left) -- exact because the ply budget makes every game finite. The opponent is the same
solver at every level: it wins if the model's move let it (the first winning reply in point order,
pass last), else plays the *stubborn* reply, leaving the model the fewest winning answers. (It never
errs; the levels grow the board and the empty points instead.)

The positions come from a catalogue searched offline by :mod:`palaestra.envs.games._go_catalogue`
(``go_endgame_positions.txt``, rebuilt by ``python -m palaestra.envs.games._go_catalogue``) from seeded
random playouts, kept only where at most half of the model's legal first moves (the pass included)
keep the win, a uniformly random legal player wins at most 5% and each cheap rule of
:meth:`GoEndgame.heuristics` at most 25% of its games against the opponent (exact), and the forced
result is within six points of the count as the board stands. A position is dealt in one of its
eight looks (turned and mirrored) and with the colours as found or exchanged (Black and White
swapped, the komi negated: the same game); the solver and the opponent's tie-breaks work on the
catalogue's board (point order, which no colour swap changes), so those bounds hold in every look. The oracle plays a winning move each turn and wins every
game.

Each turn the model writes one point (``c3``, ``C3``, ``play c3``, ``Move: c3.``) or ``pass``. An
unreadable reply, two moves, an occupied point, suicide or a ko retake is refused with the reason
and costs the turn (the position stays). The feedback names the opponent's move and the captures,
redraws the board, and at the end gives both sides' area counts.

Levels: 5 x 5 boards with 5-6 empty points and 3 turns (level 0), 7-8 points and 4 turns (level 1);
6 x 6 boards with 7-8 points (level 2), 9-10 points (level 3) and 10-11 points (level 4), all with 4
turns. Bounded: the catalogue is searched offline and the exact solver's cost grows steeply
with the empty points and the turns. The difficulty measure is the empty points at the start, plus
twice the rows beyond five, plus a tenth of the legal first moves.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from importlib import resources
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register
from palaestra.core.multiturn import MAX_MOVE_CHARS, History, Policy
from palaestra.envs.games._go_catalogue import CATALOGUE
from palaestra.envs.games.common import read_cell, render_board
from palaestra.generators.go import (
    BLACK,
    LOOKS,
    PASS,
    RULES,
    WHITE,
    Board,
    Solver,
    State,
    board_seen_from,
    go_of,
    seen_from,
    solver_of,
    start_state,
)
from palaestra.generators.wording import ordinal
from palaestra.verifiers.moves import read_move_answer
from palaestra.verifiers.normalize import squeeze_spaces, unify

COLOURS = ("Black", "White")
MARKS = ("X", "O")
VERBS = ("play", "move", "place")
EXAMPLE = "b2"

Entry = tuple[Board, int, float]  # (board, side to move = the model, komi)


@register
class GoEndgame(MultiTurnTask):
    id = "games/go_endgame"
    family = "games"
    description = "Win a small-board Go endgame by area score (captures, ko, komi) against an exact solver."
    tags = ("games", "multi-turn", "two-player", "adversarial", "board-game", "go")
    version = 1
    one_move_per_turn = True
    bounded = "positions come from a catalogue searched offline; the exact solver's cost grows steeply with the empty points"

    @dataclass(frozen=True)
    class Config:
        size: int  # the board is size x size
        empties: tuple[int, int]  # (fewest, most) empty points at the start
        turns: int  # the model's moves before the board is counted
        catalogue: int  # entries searched for the catalogue
        shards: int = 1  # independent seeded searches the catalogue's entries are split over (to run in parallel)

    presets = (
        Config(5, (5, 6), 3, 40),
        Config(5, (7, 8), 4, 66),
        Config(6, (7, 8), 4, 66),
        Config(6, (9, 10), 4, 66, shards=3),
        Config(6, (10, 11), 4, 66, shards=3),
    )

    def space_size(self, level: int) -> int | None:
        """Every catalogued position of the level, in each of its distinct looks and either colouring, is one problem."""
        size = self.presets[level].size
        return 2 * sum(len({board_seen_from(look, size, board) for look in range(LOOKS)})
                       for board, _, _ in catalogue()[level])

    def generate(self, rng: random.Random, config: Config) -> Problem:
        level = self.presets.index(config)
        board, player, komi = rng.choice(catalogue()[level])
        look = rng.randrange(LOOKS)
        if rng.random() < 0.5:  # the colours exchanged: the same game with Black and White swapped, komi negated
            board, player, komi = (board[1], board[0]), 1 - player, -komi
        n = config.size
        go = go_of(n)
        empties = len(go.empties(board))
        solver = solver_of(n, player, komi)
        first_moves = len(solver.moves(start_state(board, player, 2 * config.turns)))
        data = {"size": n, "board": [board[0], board[1]], "player": player, "komi": komi, "look": look,
                "turns": config.turns, "empties": empties, "first_moves": first_moves}
        you, them = COLOURS[player], COLOURS[1 - player]
        prompt = (
            f"Let's play the end of a game of Go on a {n}x{n} board, counted by area. X is Black and O is White; "
            f"you play {you} ({MARKS[player]}) and it is your move. Columns are letters from the left, rows numbers "
            "from the top.\n\n"
            "Rules: a move puts one stone of your colour on an empty point. Stones of one colour that touch along "
            "the lines form a group; its liberties are the empty points next to it. A move that takes the last "
            "liberty of opposing groups captures them: they are removed. A move that leaves its own group without "
            "liberties (after any captures) is suicide and not allowed. Ko: right after a single stone captures "
            "a single stone, the other player may not recapture at once on the point just emptied. You may pass "
            "instead of playing.\n\n"
            f"The game ends after two passes in a row, or after your {ordinal(config.turns)} move and {them}'s reply, "
            "whichever comes first. Then each side's area is counted: its stones plus the empty points enclosed "
            f"only by its stones (an empty region touching both colours counts for no one). {_komi_text(komi)} "
            "The higher total wins.\n\n"
            f"{_picture(data, board)}\n\n"
            f"{_count_text(data, board)}\n\n"
            f"You can win with perfect play; only a win scores. You have {config.turns} turns: a refused move (an "
            "occupied point, suicide, a ko retake, an unreadable reply) uses one up, and a game unfinished when they "
            f"run out is lost. Each turn, write one point as column letter and row number, for example {EXAMPLE}, "
            "or write pass."
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        """Empty points at the start, plus twice the rows beyond five, plus a tenth of the legal first moves."""
        data = problem.data
        return float(data["empties"] + 2 * (data["size"] - 5)) + data["first_moves"] / 10

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        data = problem.data
        return {"state": list(start_state(tuple(data["board"]), data["player"], 2 * data["turns"]))}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        n = data["size"]
        point = _read_move(move, data)
        if point is None:
            return Outcome.invalid(state, f"write one point as column letter and row number, such as {EXAMPLE}, "
                                          "or write pass")
        solver = _solver(data)
        current: State = tuple(state["state"])  # type: ignore[assignment]
        black, white, to_move, ko = current[:4]
        if point != PASS:
            name = _name(data, point)
            if (black | white) >> point & 1:
                return Outcome.invalid(state, f"{name} is occupied")
            if point == ko:
                return Outcome.invalid(state, f"{name} would retake the ko at once, which the ko rule forbids this "
                                              "turn (play elsewhere or pass first)")
            if go_of(n).play((black, white), point, to_move) is None:
                return Outcome.invalid(state, f"{name} would leave your group without liberties (suicide), which "
                                              "is not allowed")
        said = _describe(data, current, point, "You")
        child = dict(solver.moves(current))[point]
        if child[2] == -1:
            return _finish(data, solver, child, said, ended_by_passes=True)  # the budget ends only on a reply
        reply, after = solver.reply(child)
        said += " " + _describe(data, child, reply, COLOURS[1 - data["player"]])
        if after[2] == -1:
            return _finish(data, solver, after, said, ended_by_passes=reply == PASS and child[4] == 1)
        return Outcome.goes_on({"state": list(after)}, f"{said}\n\n{_picture(data, after[:2])}\n\n"
                               f"{_count_text(data, after[:2])} Your moves left before the count: {after[5] // 2}.")

    def reads_as_move(self, problem: Problem, state: dict[str, Any], piece: str) -> bool:
        return _read_move(piece, problem.data) is not None

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        solver = _solver(problem.data)
        current: State = tuple(state["state"])  # type: ignore[assignment]
        winning = solver.winning_moves(current)
        return _name(problem.data, winning[0] if winning else solver.moves(current)[0][0])

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        solver = _solver(problem.data)
        return [_name(problem.data, move) for move, _ in solver.moves(tuple(state["state"]))]  # type: ignore[arg-type]

    def heuristics(self) -> dict[str, Policy]:
        def rule(name: str) -> Policy:
            def policy(problem: Problem, state: dict[str, Any], history: History, rng: random.Random) -> str:
                choices = RULES[name](_solver(problem.data), tuple(state["state"]))  # type: ignore[arg-type]
                return _name(problem.data, rng.choice(choices))

            return policy

        return {name: rule(name) for name in RULES}


def _solver(data: dict[str, Any]) -> Solver:
    return solver_of(data["size"], data["player"], data["komi"])


def _komi_text(komi: float) -> str:
    if komi >= 0:
        return f"Komi: White adds {komi:g} points to its count."
    return f"Komi: Black adds {-komi:g} points to its count."


def _count_text(data: dict[str, Any], board: Board) -> str:
    black, white = go_of(data["size"]).area(board)
    return f"If the game ended now: Black {_total(black, min(0.0, data['komi']))}, White " \
           f"{_total(white, max(0.0, data['komi']))}."


def _total(area: int, komi: float) -> str:
    return f"{area}" if not komi else f"{area} + {abs(komi):g} = {area + abs(komi):g}"


@functools.lru_cache(maxsize=16)
def _shown_to_board(look: int, size: int) -> tuple[int, ...]:
    """Per point as drawn in ``look``, the catalogue board's point."""
    table = [0] * (size * size)
    for point in range(size * size):
        table[seen_from(look, size, point)] = point
    return tuple(table)


def _name(data: dict[str, Any], point: int) -> str:
    """A move as the model sees it: the point in the problem's look, or ``pass``."""
    if point == PASS:
        return "pass"
    return go_of(data["size"]).name(seen_from(data["look"], data["size"], point))


def _read_move(move: str, data: dict[str, Any]) -> int | None:
    """The catalogue board's point a move names, PASS, or None if unreadable."""
    if not isinstance(move, str) or len(move) > MAX_MOVE_CHARS:
        return None
    if read_move_answer(move, lambda text: True if squeeze_spaces(unify(text)).strip().lower() == "pass" else None):
        return PASS
    n = data["size"]
    cell = read_cell(move, n, n, VERBS)
    if cell is None:
        return None
    return _shown_to_board(data["look"], n)[cell[0] * n + cell[1]]


def _describe(data: dict[str, Any], before: State, move: int, who: str) -> str:
    """``You play c3, capturing 2 stones.`` / ``White passes.``"""
    if move == PASS:
        return f"{who} {'pass' if who == 'You' else 'passes'}."
    _, captured, _ = go_of(data["size"]).play_with_ko(before[:2], move, before[2])  # type: ignore[arg-type]
    taken = f", capturing {captured} {'stone' if captured == 1 else 'stones'}" if captured else ""
    return f"{who} {'play' if who == 'You' else 'plays'} {_name(data, move)}{taken}."


def _finish(data: dict[str, Any], solver: Solver, final: State, said: str, ended_by_passes: bool) -> Outcome:
    board: Board = (final[0], final[1])
    black, white = go_of(data["size"]).area(board)
    komi = data["komi"]
    margin = black - white - komi  # Black's lead
    lead = margin if data["player"] == BLACK else -margin
    won = solver.won(board)
    why = "two passes in a row" if ended_by_passes else "the moves are used up"
    count = (f"The game is over ({why}). Area count: Black {_total(black, min(0.0, komi))}, "
             f"White {_total(white, max(0.0, komi))}.")
    result = f"You win by {lead:g} points!" if won else f"You lose by {-lead:g} points."
    text = f"{said}\n\n{_picture(data, board)}\n\n{count} {result}"
    return Outcome({"state": list(final)}, Verdict.right() if won else Verdict.wrong(f"lost by {-lead:g}"), text, True)


def _picture(data: dict[str, Any], board: Board) -> str:
    n = data["size"]
    shown = board_seen_from(data["look"], n, board)
    cells = ["X" if shown[BLACK] >> p & 1 else "O" if shown[WHITE] >> p & 1 else "." for p in range(n * n)]
    return render_board([cells[r * n:(r + 1) * n] for r in range(n)])


@functools.cache
def catalogue() -> dict[int, list[Entry]]:
    """The shipped positions per level (searched by :mod:`palaestra.envs.games._go_catalogue`)."""
    table: dict[int, list[Entry]] = {}
    for line in resources.files("palaestra.envs.games").joinpath(CATALOGUE).read_text().splitlines():
        if line and not line.startswith("#"):
            level, size, *entries = line.split()
            go = go_of(int(size))
            table[int(level)] = []
            for entry in entries:
                text, side, komi = entry.split(":")
                table[int(level)].append((go.board(text), "BW".index(side), float(komi)))
    return table
