"""Count the legal moves in a chess position, or list the legal moves of one piece.

Positions come from random legal play from the initial position, longer at
higher levels. Two question kinds: "how many legal moves does the side to move
have" (an integer) and "list every legal move of the piece on e4" (moves in
UCI or SAN notation, any order, or ``none``), checked as a set against
python-chess's move generator.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import chess

from palaestra.core import Problem, Task, Verdict, register
from palaestra.verifiers.chess_moves import read_move
from palaestra.verifiers.numeric import parse_number
from palaestra.verifiers.structured import parse_tokens

_MAX_ANSWER = 2_000
_NONE_WORDS = frozenset({"none", "no moves", "no legal moves", "nothing", "-", "[]", "{}", "0 moves"})


@register
class LegalMoves(Task):
    id = "chess/legal_moves"
    family = "chess"
    description = "Count all legal moves of a chess position, or list the legal moves of one piece."
    tags = ("chess", "games", "rules")

    @dataclass(frozen=True)
    class Config:
        min_plies: int  # random plies played from the initial position
        max_plies: int
        count_share: float  # probability of the "count all moves" question
        stuck_share: float  # probability of asking about a piece with no legal move (a pinned or blocked piece)

    def config(self, level: int) -> Config:
        return [
            self.Config(min_plies=4, max_plies=12, count_share=0.0, stuck_share=0.0),
            self.Config(min_plies=10, max_plies=24, count_share=0.2, stuck_share=0.05),
            self.Config(min_plies=20, max_plies=40, count_share=0.4, stuck_share=0.1),
            self.Config(min_plies=30, max_plies=60, count_share=0.5, stuck_share=0.1),
            self.Config(min_plies=50, max_plies=90, count_share=0.6, stuck_share=0.1),
        ][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        board = _random_game(rng, rng.randint(config.min_plies, config.max_plies))
        side = "White" if board.turn == chess.WHITE else "Black"
        fen = board.fen()
        header = (
            f"Chess position (FEN): {fen}\n\n{_diagram(board)}\n\n"
            f"Uppercase letters are White pieces, lowercase letters Black pieces. {side} to move. "
            "Castling rights and the en passant square are as given in the FEN.\n"
        )
        if rng.random() < config.count_share:
            count = board.legal_moves.count()
            prompt = header + f"How many legal moves does {side} have in this position? Give the number."
            return Problem(prompt=prompt, answer=str(count), data={"fen": fen, "kind": "count", "count": count})
        square = _pick_square(rng, board, stuck=rng.random() < config.stuck_share)
        moves = sorted(m.uci() for m in board.generate_legal_moves(from_mask=chess.BB_SQUARES[square]))
        piece = chess.piece_name(board.piece_type_at(square))
        name = chess.square_name(square)
        prompt = header + (
            f"List every legal move of the {side} {piece} on {name}. Write the moves in UCI notation "
            "(e.g. g1f3; a promotion adds the piece letter, e.g. e7e8q) or in SAN, "
            "separated by spaces, in any order. If the piece has no legal move, answer none."
        )
        answer = " ".join(moves) or "none"
        return Problem(prompt=prompt, answer=answer, data={"fen": fen, "kind": "list", "square": name, "moves": moves})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if len(answer) > _MAX_ANSWER:
            return Verdict.unparsed("answer too long")
        if problem.data["kind"] == "count":
            value = parse_number(answer)
            if value is None:
                return Verdict.unparsed("the answer is not a number")
            return Verdict.judge(value == problem.data["count"], "wrong number of legal moves")
        return _verify_list(problem, answer)

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        if problem.data["kind"] == "count":
            return [str(problem.data["count"] + d) for d in (-1, 1, 2)]
        moves, square = problem.data["moves"], problem.data["square"]
        legal_targets = {m[2:4] for m in moves}
        bogus = square + rng.choice([s for s in chess.SQUARE_NAMES if s not in legal_targets and s != square])
        wrong = [" ".join(moves + [bogus])]
        if moves:
            wrong += [" ".join(moves[1:]) or "none", "none"]
        return wrong


def _verify_list(problem: Problem, answer: str) -> Verdict:
    board = chess.Board(problem.data["fen"])
    text = answer.strip().lower().rstrip(".")
    if text in _NONE_WORDS:
        given: set[str] = set()
    else:
        tokens = parse_tokens(answer, max_items=300)
        if tokens is None:
            return Verdict.unparsed("expected moves separated by spaces, or none")
        given = set()
        for token in tokens:
            move = read_move(board, token)
            if move is None:
                return Verdict.wrong(f"{token[:16]!r} is not a legal move in this position")
            if chess.square_name(move.from_square) != problem.data["square"]:
                return Verdict.wrong(f"{token[:16]!r} does not move the piece on {problem.data['square']}")
            given.add(move.uci())
    expected = set(problem.data["moves"])
    if given == expected:
        return Verdict.right()
    return Verdict.wrong("some legal moves are missing")


def _random_game(rng: random.Random, plies: int) -> chess.Board:
    """The position after ``plies`` random legal moves; replays when a game ends early."""
    while True:
        board = chess.Board()
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if not board.is_game_over(claim_draw=False):
            return board


def _pick_square(rng: random.Random, board: chess.Board, stuck: bool) -> chess.Square:
    """A square of a piece of the side to move with legal moves (or with none, when ``stuck``).

    The piece of a random legal move is taken, so mobile pieces (with longer answers) are
    asked about more often than the many pawns.
    """
    moves = list(board.legal_moves)
    movable = {m.from_square for m in moves}
    stuck_squares = [s for s in chess.SquareSet(board.occupied_co[board.turn]) if s not in movable]
    if stuck and stuck_squares:
        return rng.choice(stuck_squares)
    return rng.choice(moves).from_square


def _diagram(board: chess.Board) -> str:
    rows = [f"{rank + 1} " + " ".join(str(board.piece_at(chess.square(f, rank)) or ".") for f in range(8))
            for rank in range(7, -1, -1)]
    return "\n".join(rows + ["  a b c d e f g h"])
