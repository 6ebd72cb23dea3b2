"""Mate the lone king: king and queen, or king and rook, against a king that resists as long as it can.

The model plays White (king and queen at the lower levels, king and rook above) in a position
where White, to move, mates by force; Black has only its king. Each turn the model writes one
White move (SAN such as ``Qd4+``, long algebraic ``Qa1-d4`` or UCI ``a1d4``, any case) and the
defender answers at once. The defender reads an exact distance-to-mate table
(:mod:`palaestra.generators.lone_king`, built by retrograde analysis): it takes an undefended
piece when it can (a draw), and otherwise plays the king move after which White needs the most
moves to mate, preferring the square nearest the centre among equals. So the defender is the
perfect longest-resistance defender at every level; the levels differ by the piece and by how
deep the mate is.

Reward 1 for checkmate within the turn budget (the mate's length against perfect defence plus
three spare moves); 0 for stalemate, a lost piece or running out of turns. An unreadable or
illegal move costs a turn and leaves the position. The oracle plays a move that shortens the
distance to mate each turn (read from the same table), so it mates in exactly the position's
distance.

Positions come from a catalogue searched offline by :func:`write_catalogue`
(``chess_endgame_positions.txt``, 1,000 a level): each is drawn at random with the level's distance to
mate and kept only if no cheap rule of :data:`RULES` -- squeeze the king's squares; squeeze, then
bring the king closer; mate, else a safe check, else a safe move (each a uniform pick among its
ties, never stalemating or hanging the piece) -- mates it within the budget more than one time in
ten (exact expectations against this defender, :func:`rule_mate_chance`). Such rules mate the lone
king often in short races: in version 1 (positions drawn on the fly) squeezing mated 0.17 of the
games at level 0 and squeezing with the king brought closer 0.47 / 0.28 / 0.27 at levels 0-2;
from the catalogue at most 0.10 by construction, 0.03 / 0.04 on average at levels 0 / 1 (exact,
the king rule; the plain squeeze 0.015), and in 60 games a level none of these rules mated more
than 0.03. Uniformly random legal moves, the first or the last listed move and checking whenever
possible essentially never mate (measured in the tests).

Levels: king and queen, mate in 2-4, 4-6, 6-10 moves; king and rook, mate in 6-11, then
11-16. The env is bounded: no king-and-queen position needs more than 10 moves against the best
defence, none with king and rook more than 16. The difficulty measure is the dealt position's
distance to mate, plus 4 with a rook (the rook mate takes a method the queen mate does not).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

import chess

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register
from palaestra.core.multiturn import History, Policy
from palaestra.envs.games.common import write_catalogue_file
from palaestra.generators.lone_king import (
    Position,
    black_moves,
    black_to_move_mate_in,
    in_check,
    king_distance,
    square,
    square_name,
    white_moves,
    white_to_move_legal,
    white_to_move_mate_in,
)
from palaestra.verifiers.chess_moves import looks_like_move, read_move

SPARE_MOVES = 3
ROOK_BONUS = 4.0  # difficulty added for the rook mate
PIECE_NAMES = {"Q": "queen", "R": "rook"}
EXAMPLE_MOVE = "Kd2"  # a fixed placeholder of the right shape, not derived from the position
CATALOGUE = "chess_endgame_positions.txt"
PER_LEVEL = 1000  # catalogued positions per level (the kit wants 1,000 problems a level)
RULE_BOUND = 0.1  # the most a catalogued position lets each cheap rule of RULES mate (exact expectation)


@register
class ChessEndgame(MultiTurnTask):
    id = "games/chess_endgame"
    family = "games"
    description = "Checkmate a lone king with king and queen or king and rook against a longest-resistance defender."
    tags = ("games", "multi-turn", "two-player", "adversarial", "chess")
    version = 2  # v2: positions from a catalogue where the squeezing rules mate at most one time in ten
    one_move_per_turn = True
    bounded = "king and queen mate in at most 10 moves, king and rook in at most 16, against the best defence"

    @dataclass(frozen=True)
    class Config:
        piece: str  # "Q" or "R"
        mate_in: tuple[int, int]  # (fewest, most) White moves to mate against the best defence

    presets = (
        Config("Q", (2, 4)),
        Config("Q", (4, 6)),
        Config("Q", (6, 10)),
        Config("R", (6, 11)),
        Config("R", (11, 16)),
    )

    def space_size(self, level: int) -> int | None:
        """Each catalogued position of the level is one problem."""
        return len(_entries(self.level_config(level)))

    def generate(self, rng: random.Random, config: Config) -> Problem:
        piece = config.piece
        wk, bk, p = rng.choice(_entries(config))
        depth = white_to_move_mate_in(piece, wk, bk, p)
        turns = depth + SPARE_MOVES
        name = PIECE_NAMES[piece]
        board = _board(piece, wk, bk, p)
        prompt = (
            f"Chess endgame. You are White with a king and a {name}; Black has only its king. White to move:\n\n"
            f"White: K{square_name(wk)}, {piece}{square_name(p)}. Black: K{square_name(bk)}.\n"
            f"FEN: {board.fen()}\n\n{_diagram(board)}\n\n"
            f"Checkmate the black king within {turns} moves of yours. Black defends as well as it can: it takes "
            f"your {name} if you leave it undefended next to its king, and it heads for the squares that put mate "
            "off longest. Stalemate, losing the piece or running out of moves scores 0; only checkmate scores.\n\n"
            f"Each turn, write one White move in SAN or UCI, for example: {EXAMPLE_MOVE}. "
            "Black replies at once and you will see the new position."
        )
        data = {"piece": piece, "white_king": wk, "black_king": bk, "white_piece": p, "mate_in": depth,
                "turns": turns}
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        """The dealt position's distance to mate in White moves, plus :data:`ROOK_BONUS` for the rook."""
        return float(problem.data["mate_in"]) + (ROOK_BONUS if problem.data["piece"] == "R" else 0.0)

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        data = problem.data
        return {"wk": data["white_king"], "bk": data["black_king"], "p": data["white_piece"]}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        piece = problem.data["piece"]
        board = _board(piece, state["wk"], state["bk"], state["p"])
        chosen = read_move(board, move)
        if chosen is None:
            if looks_like_move(move):
                return Outcome.invalid(state, f"{move.strip()[:20]} is not a legal White move in this position")
            return Outcome.invalid(state, f"write one legal White move in SAN or UCI, such as {EXAMPLE_MOVE}")
        said = f"You play {board.san(chosen)}."
        wk, bk, p = state["wk"], state["bk"], state["p"]
        if chosen.from_square == wk:
            wk = chosen.to_square
        else:
            p = chosen.to_square
        board.push(chosen)
        replies = black_moves(piece, (wk, bk, p))
        if not replies:
            after = {"wk": wk, "bk": bk, "p": p}
            if in_check(piece, (wk, bk, p)):
                return Outcome(after, Verdict.right(), f"{said} Checkmate: you win!\n{_diagram(board)}", True)
            return Outcome(after, Verdict.wrong("stalemate"),
                           f"{said} Black has no legal move and is not in check: stalemate, a draw. You lose.\n"
                           f"{_diagram(board)}", True)
        reply = _defence(piece, wk, bk, p, replies)
        reply_san = board.san(chess.Move(bk, reply))
        board.push(chess.Move(bk, reply))
        after = {"wk": wk, "bk": reply, "p": p}
        if reply == p:
            return Outcome(after, Verdict.wrong("piece lost"),
                           f"{said} Black plays {reply_san}, taking your {PIECE_NAMES[piece]}: only the kings are "
                           f"left, a draw. You lose.\n{_diagram(board)}", True)
        return Outcome.goes_on(after, f"{said} Black plays {reply_san}.\n{_diagram(board)}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        piece = problem.data["piece"]
        position = (state["wk"], state["bk"], state["p"])
        best = min((depth, after) for after in white_moves(piece, position)
                   if (depth := black_to_move_mate_in(piece, *after)) is not None)[1]
        return _san(piece, position, best)

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        piece = problem.data["piece"]
        position = (state["wk"], state["bk"], state["p"])
        return [_san(piece, position, after) for after in white_moves(piece, position)]

    def heuristics(self) -> dict[str, Policy]:
        def checks_first(problem: Problem, state: dict[str, Any], history: History, rng: random.Random) -> str:
            piece, position = problem.data["piece"], (state["wk"], state["bk"], state["p"])
            moves = list(white_moves(piece, position))
            checking = [after for after in moves if in_check(piece, after)]
            return _san(piece, position, rng.choice(checking or moves))

        def rule(rank: Rank) -> Policy:
            def policy(problem: Problem, state: dict[str, Any], history: History, rng: random.Random) -> str:
                piece, position = problem.data["piece"], (state["wk"], state["bk"], state["p"])
                return _san(piece, position, rng.choice(rule_picks(piece, position, rank)))

            return policy

        return {"check when you can": checks_first, **{name: rule(rank) for name, rank in RULES.items()}}


Rank = Callable[[str, Position], tuple[int, ...]]  # a cheap rule's key for the position after White's move


def _badness(piece: str, after: Position) -> int:
    """0 for a mate, 100 for a stalemate or a piece left to be taken, else the Black king's number of moves."""
    replies = black_moves(piece, after)
    if not replies:
        return 0 if in_check(piece, after) else 100
    return 100 if after[2] in replies else len(replies)


def _safe_check(piece: str, after: Position) -> tuple[int, ...]:
    badness = _badness(piece, after)
    return (0,) if badness == 0 else (3,) if badness == 100 else (1,) if in_check(piece, after) else (2,)


# The cheap rules the catalogue is searched against (each a uniform pick among the moves of the least key).
# The king-approach tie-break is the textbook queen mate's second half; in version 1 it mated 0.47 / 0.28 / 0.27
# of the games at levels 0-2 (exact), the plain squeeze 0.17 at level 0.
RULES: dict[str, Rank] = {
    "squeeze, then bring the king closer": lambda piece, after: (_badness(piece, after),
                                                                  king_distance(after[0], after[1])),
    "mate, else a safe check, else a safe move": _safe_check,
    "squeeze the king's squares": lambda piece, after: (_badness(piece, after),),
}


def rule_picks(piece: str, position: Position, rank: Rank) -> list[Position]:
    """The positions after White's moves that ``rank`` likes best (its ties)."""
    keyed = [(rank(piece, after), after) for after in white_moves(piece, position)]
    best = min(key for key, _ in keyed)
    return [after for key, after in keyed if key == best]


def rule_mate_chance(piece: str, position: Position, turns: int, rank: Rank,
                     memo: dict[tuple[Position, int], float]) -> float:
    """The chance that White, playing uniformly among ``rank``'s picks, mates the env's defender within ``turns``."""
    if turns == 0:
        return 0.0
    if (position, turns) not in memo:
        picks = rule_picks(piece, position, rank)
        total = 0.0
        for wk, bk, p in picks:
            replies = black_moves(piece, (wk, bk, p))
            if not replies:
                total += in_check(piece, (wk, bk, p))
            elif p not in replies:
                total += rule_mate_chance(piece, (wk, _defence(piece, wk, bk, p, replies), p), turns - 1, rank, memo)
        memo[(position, turns)] = total / len(picks)
    return memo[(position, turns)]


def _defence(piece: str, wk: int, bk: int, p: int, replies: list[int]) -> int:
    """The defender's square: take the piece if it can, else put mate off longest, then stay central."""
    if p in replies:
        return p

    def resistance(target: int) -> tuple[int, float, int]:
        depth = white_to_move_mate_in(piece, wk, target, p) or 1000  # 0: no forced win left (cannot happen here)
        centre = abs(target % 8 - 3.5) + abs(target // 8 - 3.5)
        return (-depth, centre, target)

    return min(replies, key=resistance)


def _board(piece: str, wk: int, bk: int, p: int) -> chess.Board:
    board = chess.Board(None)
    board.set_piece_at(wk, chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(bk, chess.Piece(chess.KING, chess.BLACK))
    board.set_piece_at(p, chess.Piece(chess.QUEEN if piece == "Q" else chess.ROOK, chess.WHITE))
    board.turn = chess.WHITE
    return board


def _san(piece: str, before: Position, after: Position) -> str:
    """The SAN of White's move from ``before`` to ``after``."""
    origin, target = (before[0], after[0]) if before[0] != after[0] else (before[2], after[2])
    return _board(piece, *before).san(chess.Move(origin, target))


def _diagram(board: chess.Board) -> str:
    rows = [f"{rank + 1} " + " ".join(str(board.piece_at(chess.square(f, rank)) or ".") for f in range(8))
            for rank in range(7, -1, -1)]
    return "\n".join(rows + ["  a b c d e f g h"])


# --- the catalogue (offline) -------------------------------------------------------------------------------------

def search(config: ChessEndgame.Config, count: int, seed: int) -> list[Position]:
    """``count`` distinct positions of the config's mate length where no rule of RULES mates more than RULE_BOUND."""
    rng = random.Random(seed)
    memos: dict[str, dict[tuple[Position, int], float]] = {name: {} for name in RULES}  # shared: positions recur
    found: dict[Position, None] = {}
    low, high = config.mate_in
    while len(found) < count:
        position = (rng.randrange(64), rng.randrange(64), rng.randrange(64))
        if position in found or not white_to_move_legal(position, config.piece):
            continue
        depth = white_to_move_mate_in(config.piece, *position)
        if low <= depth <= high and all(
                rule_mate_chance(config.piece, position, depth + SPARE_MOVES, rank, memos[name]) <= RULE_BOUND
                for name, rank in RULES.items()):
            found[position] = None
    return list(found)


def catalogue_line(level: int, per_level: int = PER_LEVEL) -> str:
    """The catalogue's line for preset ``level``: piece, mate lengths, then the positions (White king, Black king,
    piece: ``e1e8d4``)."""
    config = ChessEndgame.presets[level]
    return " ".join([config.piece, *map(str, config.mate_in),
                     *("".join(map(square_name, position)) for position in search(config, per_level, seed=level))])


def _entries(config: ChessEndgame.Config) -> list[Position]:
    return catalogue()[(config.piece, *config.mate_in)]


@functools.cache
def catalogue() -> dict[tuple[str, int, int], list[Position]]:
    """The shipped positions, ``(piece, fewest, most moves to mate) -> [(White king, Black king, piece), ...]``."""
    table: dict[tuple[str, int, int], list[Position]] = {}
    for line in resources.files("palaestra.envs.games").joinpath(CATALOGUE).read_text().splitlines():
        if line and not line.startswith("#"):
            piece, low, high, *entries = line.split()
            table[(piece, int(low), int(high))] = [
                (square(entry[0:2]), square(entry[2:4]), square(entry[4:6])) for entry in entries]
    return table


def write_catalogue(path: str | None = None, levels: range = range(len(ChessEndgame.presets))) -> None:
    """Rebuild the shipped catalogue for the presets (minutes of CPU)."""
    write_catalogue_file(__file__, CATALOGUE, path,
        "King and queen / king and rook positions the cheap rules seldom mate; built by "
        "palaestra.envs.games.chess_endgame.write_catalogue",
        (catalogue_line(level) for level in levels))
