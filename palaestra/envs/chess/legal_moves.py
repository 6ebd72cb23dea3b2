"""Count the legal moves in a chess position, or list the legal moves of one piece.

Positions come from random legal play from the initial position, longer at
higher levels. Two question kinds: "how many legal moves does the side to move
have" (an integer, ``20`` or ``20 moves``) and "list every legal move of the piece
on e4" (moves in UCI or SAN notation in any case, any order, separated by spaces,
commas or ``and``, bracketed or quoted as in ``['d2d3', 'd2d4']``; ``none`` or ``0``
for a piece that cannot move), checked as a set against python-chess's move
generator. A listed move that is illegal, or that moves another piece, makes the
answer wrong; text that is not a list of moves leaves it unread.

Ignoring the rule that a move may not leave one's own king in check (listing or counting the
pseudo-legal moves: pins, checks and attacked squares next to the king ignored) was right for 0.85-0.99
of the list questions and 0.25-0.65 of the count questions before version 4. Now 95% of problems
(``trap_share``) ask about a position, and for a list a piece, where that rule removes a move: random
games go on for up to 40 more plies until one has such a piece (nearly always found at the presets).

Version 2: answers read with the shared readers (quoted lists such as
``['d2d3', 'd2d4']`` were scored wrong; ``0`` was refused for a piece with no move);
a difficulty measure. Version 5: game lengths stop growing at level 13 (230-360 plies): longer random
games rarely last, and generation replayed them for seconds or failed.

Generation speed: about 430 problems/s at level 4 on this 2-core machine. Each position comes from a random game of
50 to 90 plies from the starting position, every ply listing all legal moves with python-chess, and nearly all are played
on to a position where some piece's move is forbidden by the check rule. The game is kept because it gives reachable
positions with castling rights, en passant and pins, which random placement would not.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

import chess

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.chess.common import diagram, read_chess_move
from palaestra.verifiers.chess_moves import CHESS_EMPTY_WORDS, looks_like_move
from palaestra.verifiers.numeric import read_integer
from palaestra.verifiers.sets import read_items

_MAX_MOVES = 300  # more moves than any position has
_COUNT_UNITS = ("moves", "legal moves", "move")
_ONE_BULLET = re.compile(r"^[-*•]\s+([^\s,;]+)$")  # one move after a list bullet, alone on its line
_TRAP_EXTRA_PLIES = 40  # random plies played past the drawn length, at most, to reach a position with a trap


@register
class LegalMoves(Task):
    id = "chess/legal_moves"
    family = "chess"
    description = "Count all legal moves of a chess position, or list the legal moves of one piece."
    tags = ("chess", "games", "rules")
    max_answer_chars = 2_000
    version = 5

    @dataclass(frozen=True)
    class Config:
        min_plies: int  # random plies played from the initial position
        max_plies: int
        count_share: float  # probability of the "count all moves" question
        stuck_share: float  # probability of asking about a piece with no legal move (a pinned or blocked piece)
        trap_share: float  # probability that ignoring checks and pins gives a wrong answer

    presets = (
        Config(min_plies=4, max_plies=12, count_share=0.0, stuck_share=0.0, trap_share=0.95),
        Config(min_plies=10, max_plies=24, count_share=0.2, stuck_share=0.05, trap_share=0.95),
        Config(min_plies=20, max_plies=40, count_share=0.4, stuck_share=0.1, trap_share=0.95),
        Config(min_plies=30, max_plies=60, count_share=0.5, stuck_share=0.1, trap_share=0.95),
        Config(min_plies=50, max_plies=90, count_share=0.6, stuck_share=0.1, trap_share=0.95),
    )
    # Random play rarely lasts past a few hundred plies (mates, stalemates, bare kings, the 75-move rule): from
    # level 14 on, generation replayed for seconds and failed at some seeds at level 40. Level 13's lengths are
    # the cap (the count share and the move lists keep the difficulty from there).
    growth = Growth(limits={"min_plies": 230, "max_plies": 360})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        board = _random_game(rng, rng.randint(config.min_plies, config.max_plies))
        trapped = rng.random() < config.trap_share
        if trapped:
            _play_on_to_a_trap(rng, board)
        side = "White" if board.turn == chess.WHITE else "Black"
        fen = board.fen()
        header = (
            f"Chess position (FEN): {fen}\n\n{diagram(board)}\n\n"
            f"Uppercase letters are White pieces, lowercase letters Black pieces. {side} to move. "
            "Castling rights and the en passant square are as given in the FEN.\n"
        )
        if rng.random() < config.count_share:
            count = board.legal_moves.count()
            prompt = header + (f"How many legal moves does {side} have in this position? "
                               "Give the number as an integer, for example: 31")
            return Problem(prompt=prompt, answer=str(count), data={"fen": fen, "kind": "count", "count": count})
        square = _pick_square(rng, board, stuck=rng.random() < config.stuck_share, trapped=trapped)
        moves = sorted(m.uci() for m in board.generate_legal_moves(from_mask=chess.BB_SQUARES[square]))
        piece = chess.piece_name(board.piece_type_at(square))
        name = chess.square_name(square)
        example = "g1f3 g1h3"  # a fixed placeholder: independent of the answer
        prompt = header + (
            f"List every legal move of the {side} {piece} on {name}. Write the moves in UCI notation "
            "(e.g. g1f3; a promotion adds the piece letter, e.g. e7e8q) or in SAN, "
            f"separated by spaces, in any order, for example: {example}. If the piece has no legal move, answer none."
        )
        answer = " ".join(moves) or "none"
        return Problem(prompt=prompt, answer=answer, data={"fen": fen, "kind": "list", "square": name, "moves": moves})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if len(answer) > self.max_answer_chars:
            return Verdict.unparsed("answer too long")
        if problem.data["kind"] == "count":
            value = read_integer(answer, units=_COUNT_UNITS)
            if value is None:
                return Verdict.unparsed("the answer is not a whole number")
            return Verdict.judge(value == problem.data["count"], "wrong number of legal moves")
        return _verify_list(problem, answer)

    def difficulty(self, problem: Problem) -> float:
        """The moves a solver has to establish (all legal moves for a count, the piece's moves plus one
        for a list) plus the plies of random play behind the position: the further from the
        opening, the less familiar the position (exposed kings, pins, promotions, lost castling rights).
        """
        plies = chess.Board(problem.data["fen"]).ply()
        if problem.data["kind"] == "count":
            return float(problem.data["count"] + plies)
        return float(len(problem.data["moves"]) + 1 + plies)

    def spellings(self, problem: Problem) -> list[str]:
        board = chess.Board(problem.data["fen"])
        if problem.data["kind"] == "count":
            count = problem.data["count"]
            return [*super().spellings(problem), f"{count} moves", f"\\boxed{{{count}}}",
                    f"{count}.", f"{count} legal moves"]
        moves = problem.data["moves"]
        if not moves:
            return [*super().spellings(problem), "None", "0", "no legal moves", "[]", "None."]
        san = [board.san(chess.Move.from_uci(m)) for m in moves]
        return [
            *super().spellings(problem),
            ", ".join(reversed(moves)),
            " ".join(san),
            str(moves),  # ['d2d3', 'd2d4']
            " ".join(m.upper() for m in moves),
            "{" + ", ".join(san[::-1]) + "}",
            ", ".join(san[:-1]) + (" and " if len(san) > 1 else "") + san[-1],
            " ".join(moves) + ".",
        ]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        if problem.data["kind"] == "count":
            return [str(problem.data["count"] + d) for d in (-1, 1, 2)]
        moves, square = problem.data["moves"], problem.data["square"]
        legal_targets = {m[2:4] for m in moves}
        bogus = square + rng.choice([s for s in chess.SQUARE_NAMES if s not in legal_targets and s != square])
        wrong = [" ".join(moves + [bogus])]
        if moves:
            hedge = " or ".join(moves) if len(moves) > 1 else f"{moves[0]} or none"
            wrong += [" ".join(moves[1:]) or "none", "none", "0", hedge]
        board = chess.Board(problem.data["fen"])
        others = [m.uci() for m in board.legal_moves if chess.square_name(m.from_square) != square]
        if others:
            wrong.append(" ".join(moves + [rng.choice(others)]))  # a legal move of another piece
        return [w for w in wrong if w.strip() != (problem.answer or "").strip()]


def _move_shaped(item: str) -> str | None:
    return item if looks_like_move(item) else None


def _verify_list(problem: Problem, answer: str) -> Verdict:
    board = chess.Board(problem.data["fen"])
    # Items split at commas, "and", new lines and bullets first (so "e2 to e4" stays one move), else at spaces too.
    # A one-line answer that is one bulleted move ("- dxc6") loses its bullet (several bulleted lines already read;
    # the shared reader keeps a lone "- " since in a list of numbers it may be a minus sign).
    bullet = _ONE_BULLET.match(answer.strip())
    text = bullet.group(1) if bullet else answer
    written = None
    for spaces in (False, True):
        written = read_items(text, _move_shaped, allow_empty=True, empty_words=CHESS_EMPTY_WORDS,
                             space_separated=spaces, max_items=_MAX_MOVES, max_chars=LegalMoves.max_answer_chars)
        if written is not None:
            break
    if written is None:
        return Verdict.unparsed("expected moves separated by spaces, or none")
    given = set()
    for token in written:
        move = read_chess_move(board, token)
        if move is None:
            return Verdict.wrong(f"{token[:16]!r} is not a legal move in this position (or is ambiguous)")
        if chess.square_name(move.from_square) != problem.data["square"]:
            return Verdict.wrong(f"{token[:16]!r} does not move the piece on {problem.data['square']}")
        given.add(move.uci())
    expected = set(problem.data["moves"])
    if given == expected:
        return Verdict.right()
    return Verdict.wrong("some legal moves are missing")


def _random_game(rng: random.Random, plies: int) -> chess.Board:
    """The position after ``plies`` random legal moves; replays when a game ends early."""

    def play() -> chess.Board | None:
        board = chess.Board()
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                return None
            board.push(rng.choice(moves))
        return None if board.is_game_over(claim_draw=False) else board

    return retry(play, what="a random game still in progress")


def _play_on_to_a_trap(rng: random.Random, board: chess.Board) -> None:
    """Random plies (a few at most) until some piece of the side to move has a pseudo-legal move that the
    check rule forbids; the rare game that finds none in time stays where it got to, still in play (long
    games at far levels end in bare kings, where replaying would not find one either)."""
    for _ in range(_TRAP_EXTRA_PLIES):
        if _trap_squares(board):
            return
        board.push(rng.choice(list(board.legal_moves)))
        if board.is_game_over(claim_draw=False):
            board.pop()
            return


def _trap_squares(board: chess.Board) -> list[chess.Square]:
    """Squares of pieces with a legal move and a pseudo-legal move that would leave their king in check."""
    legal = set(board.legal_moves)
    movable = {m.from_square for m in legal}
    return sorted({m.from_square for m in board.generate_pseudo_legal_moves()
                   if m not in legal and m.from_square in movable})


def _pick_square(rng: random.Random, board: chess.Board, stuck: bool, trapped: bool) -> chess.Square:
    """A square of a piece of the side to move with legal moves (or with none, when ``stuck``; or, when
    ``trapped``, with a pseudo-legal move that the check rule forbids).

    The piece of a random legal move is taken, so mobile pieces (with longer answers) are
    asked about more often than the many pawns.
    """
    moves = list(board.legal_moves)
    traps = set(_trap_squares(board)) if trapped else set()
    if traps:
        return rng.choice([m for m in moves if m.from_square in traps]).from_square
    movable = {m.from_square for m in moves}
    stuck_squares = [s for s in chess.SquareSet(board.occupied_co[board.turn]) if s not in movable]
    if stuck and stuck_squares:
        return rng.choice(stuck_squares)
    return rng.choice(moves).from_square
