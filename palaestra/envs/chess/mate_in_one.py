"""Find a move that checkmates at once (mate in one) in a generated chess position.

Positions are built by placing a few pieces around the defending king (mostly on
an edge) and keeping only legal positions (``Board.is_valid``) in which at least
one move mates; higher levels add defenders and distant pieces and demand a
unique mate among several checks. The verifier accepts **any** mating move, in
SAN (``Qh7#``, ``Qh7``, long form ``Qh5-h7#``) or UCI (``h5h7``) in any case
(``H5H7``), with a move number or a short remark, checking it with python-chess.

Version 2: upper-case UCI is read (it was refused); levels 1 and 2 ask for a unique mate
and levels 3 and 4 bring more pieces and checks, so the difficulty measure (two-ply search
nodes per mating move) grows with the level.

Generation speed: about 130 to 190 problems/s at level 4 on this 2-core machine (it varies with the seeds). Random
positions are placed and, when they have enough checking moves, every check is tested for mate (by python-chess's
move generation), keeping only positions with exactly one mate; about 45 positions are drawn per problem. The tests
are kept because the answer must be the one mating move.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import chess

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.envs.chess.common import diagram, read_chess_move
from palaestra.verifiers.chess_moves import looks_like_move

_EDGE = [s for s in chess.SQUARES if chess.square_rank(s) in (0, 7) or chess.square_file(s) in (0, 7)]
_DISTANCE = [[chess.square_distance(a, b) for b in chess.SQUARES] for a in chess.SQUARES]
# _WITHIN[king][(near, far)]: the squares at distance near..far from a king square
_RANGES = [(1, 2), (1, 4), (1, 7), (2, 3)]
_WITHIN = [
    {r: [s for s in chess.SQUARES if r[0] <= _DISTANCE[k][s] <= r[1]] for r in _RANGES} for k in chess.SQUARES
]
_KING_LINES = [
    chess.BB_RANK_ATTACKS[k][0] | chess.BB_FILE_ATTACKS[k][0] | chess.BB_DIAG_ATTACKS[k][0] for k in chess.SQUARES
]
_PAWN_SQUARES = frozenset(s for s in chess.SQUARES if chess.square_rank(s) not in (0, 7))  # pawns' legal squares
# Positions whose king has more free flight squares almost never hold a mate; skipping them
# before the (costly) move search keeps generation fast.
_MAX_FLIGHTS = 2
_EXAMPLE_TARGET = chess.H7  # the target square of the prompt's example move
_PIECE_LETTERS = {"Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT, "P": chess.PAWN}


@register
class MateInOne(Task):
    id = "chess/mate_in_one"
    family = "chess"
    description = "Find a checkmating move in a chess position (mate in one)."
    tags = ("chess", "games", "search")
    max_answer_chars = 64
    version = 3

    @dataclass(frozen=True)
    class Config:
        attackers: int  # pieces of the side to move besides its king, placed near the enemy king
        attacker_pieces: str  # letters the attacking pieces are drawn from (repeats weight them)
        defenders: int  # pieces of the defending side placed near its king
        distractors: int  # pieces of either colour placed anywhere
        unique_mate: bool  # keep only positions with exactly one mating move
        min_checks: int  # at least this many checking moves, so the mate is not the only check

    presets = (
        Config(attackers=1, attacker_pieces="QQR", defenders=1, distractors=0, unique_mate=False, min_checks=1),
        Config(attackers=2, attacker_pieces="QRRBN", defenders=1, distractors=1, unique_mate=True, min_checks=2),
        Config(attackers=2, attacker_pieces="QRRBNP", defenders=2, distractors=2, unique_mate=True, min_checks=3),
        Config(attackers=3, attacker_pieces="QRRBBNNP", defenders=3, distractors=4, unique_mate=True, min_checks=4),
        Config(attackers=4, attacker_pieces="QRRBBNNP", defenders=4, distractors=6, unique_mate=True, min_checks=5),
    )
    bounded = "past the presets generation gets too slow (over 1 s of CPU at level 8)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[chess.Board, list[chess.Move], int] | None:
            board = _random_position(rng, config)
            if board is None or _flight_squares(board) > _MAX_FLIGHTS:
                return None
            checks = _checking_moves(board)
            if len(checks) < config.min_checks:
                return None  # few checks: the mate would be easy to spot (and testing for mates costs most)
            mates = [m for m in checks if _mates(board, m)]
            if mates and (len(mates) == 1 or not config.unique_mate):
                return board, mates, len(checks)
            return None

        # a few hundred placements per accepted position at the top level
        board, mates, checks = retry(draw, attempts=100_000, what="a position with a mate in one")
        side = "White" if board.turn == chess.WHITE else "Black"
        fen = board.fen()
        san, long, uci = _example(mates)
        prompt = (
            f"Chess position (FEN): {fen}\n\n{diagram(board)}\n\n"
            f"Uppercase letters are White pieces, lowercase letters Black pieces. {side} to move.\n"
            f"Find a move for {side} that checkmates immediately. "
            f"Give the move in standard algebraic notation (e.g. {san} or {long}) or UCI notation (e.g. {uci})."
        )
        answer = board.lan(rng.choice(mates))  # long algebraic (Qd4-g7#): names the moving piece and its square
        return Problem(prompt=prompt, answer=answer, data={"fen": fen, "mates": len(mates), "checks": checks})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        text = answer.strip()  # a mate spelled out ("Qh7 mate", "Qh7++") is read as Qh7# by the move reader
        if len(text) > self.max_answer_chars or not looks_like_move(text, in_sentence=True):
            return Verdict.unparsed("expected one move in SAN or UCI notation")
        board = chess.Board(problem.data["fen"])
        move = read_chess_move(board, text)
        if move is None:
            return Verdict.wrong("not a legal move in this position")
        board.push(move)
        if board.is_checkmate():
            return Verdict.right()
        return Verdict.wrong("legal, but not checkmate" + (" (it gives check)" if board.is_check() else ""))

    def difficulty(self, problem: Problem) -> float:
        """Search effort: the nodes of a full-width two-ply search (every legal move and every reply to
        it) per mating move."""
        board = chess.Board(problem.data["fen"])
        nodes = 0
        for move in board.legal_moves:
            board.push(move)
            nodes += 1 + board.legal_moves.count()
            board.pop()
        return nodes / problem.data["mates"]

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        """Checking moves are few and the mate is one of them: the first check in alphabetical SAN is about chance
        among them (0.43 / 0.24 / 0.17 / 0.07 / 0.20 at levels 0-4, 100 seeds)."""
        def first_check(problem: Problem) -> str:
            board = chess.Board(problem.data["fen"])
            checks = sorted(board.san(move) for move in board.legal_moves if board.gives_check(move))
            return checks[0] if checks else ""

        return {"the first checking move in alphabetical SAN": first_check}

    def spellings(self, problem: Problem) -> list[str]:
        board = chess.Board(problem.data["fen"])
        mate = board.parse_san(problem.answer or "")
        san, uci = board.san(mate), mate.uci()
        number = board.fullmove_number
        return [*super().spellings(problem), san, san.rstrip("#"), uci, uci.upper(), f"{number}. {san}",
                f"\\boxed{{{san}}}", f"{san}.", f"**{san}**", board.lan(mate).lower()]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        board = chess.Board(problem.data["fen"])
        non_mates = [m for m in board.legal_moves if not _mates(board, m)]
        wrong = [board.uci(m) for m in rng.sample(non_mates, min(2, len(non_mates)))]
        wrong += [board.san(m) for m in rng.sample(non_mates, min(2, len(non_mates)))]
        if problem.data["mates"] == 1 and non_mates:  # a hedge between the mate and another move
            wrong.append(f"{problem.answer} or {board.san(rng.choice(non_mates))}")
        king = board.king(board.turn)
        illegal = [s for s in chess.SQUARES if _DISTANCE[king][s] > 2]  # a king never moves that far
        wrong.append(chess.square_name(king) + chess.square_name(rng.choice(illegal)))
        return wrong


def _random_position(rng: random.Random, config: MateInOne.Config) -> chess.Board | None:
    """A random position with the attacker to move, or None if the placement failed or is illegal."""
    attacker = rng.choice([chess.WHITE, chess.BLACK])
    defender = not attacker
    board = chess.Board(None)
    board.turn = attacker
    defender_king = rng.choice(_EDGE) if rng.random() < 0.8 else rng.choice(chess.SQUARES)
    taken = {defender_king}
    board.set_piece_at(defender_king, chess.Piece(chess.KING, defender))
    # (piece, colour, min and max distance from the defending king)
    plan = [(chess.KING, attacker, 2, 3)]
    plan += [(_PIECE_LETTERS[rng.choice(config.attacker_pieces)], attacker, 1, 4) for _ in range(config.attackers)]
    plan += [(rng.choice([chess.PAWN, chess.PAWN, chess.ROOK, chess.BISHOP, chess.KNIGHT]), defender, 1, 2)
             for _ in range(config.defenders)]
    plan += [(rng.choice([chess.PAWN, chess.PAWN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.QUEEN]),
              rng.choice([attacker, defender]), 1, 7) for _ in range(config.distractors)]
    for piece_type, colour, near, far in plan:
        if not _place(rng, board, chess.Piece(piece_type, colour), _WITHIN[defender_king][(near, far)], taken):
            return None
    return board if board.is_valid() else None


def _place(rng: random.Random, board: chess.Board, piece: chess.Piece, squares: list[int], taken: set[int]) -> bool:
    """Put ``piece`` on a free square of ``squares`` where it does not check the side not to move."""
    attacker = board.turn
    defender_king = board.king(not attacker)
    for _ in range(10):
        square = rng.choice(squares)
        if square in taken or (piece.piece_type == chess.PAWN and square not in _PAWN_SQUARES):
            continue
        board.set_piece_at(square, piece)
        if piece.color != attacker or not board.is_attacked_by(attacker, defender_king):
            taken.add(square)
            return True
        board.remove_piece_at(square)
    return False


def _flight_squares(board: chess.Board) -> int:
    """Squares next to the defending king that are neither its own pieces' nor attacked now."""
    king = board.king(not board.turn)
    own = board.occupied_co[not board.turn]
    return sum(
        1 for s in chess.SquareSet(chess.BB_KING_ATTACKS[king] & ~own) if not board.is_attacked_by(board.turn, s)
    )


def _example(mates: list[chess.Move]) -> tuple[str, str, str]:
    """An example queen move (SAN, long SAN, UCI), the same whatever the mates are (an example avoiding the
    mating squares would tell which squares they are not)."""
    to = _EXAMPLE_TARGET
    rank = chess.square_rank(to)
    source = chess.square(chess.square_file(to), rank - 2 if rank >= 2 else rank + 2)
    to_name, source_name = chess.square_name(to), chess.square_name(source)
    return f"Q{to_name}#", f"Q{source_name}-{to_name}#", f"{source_name}{to_name}"


def _mates(board: chess.Board, move: chess.Move) -> bool:
    if not board.gives_check(move):
        return False
    board.push(move)
    mate = board.is_checkmate()
    board.pop()
    return mate


def _checking_moves(board: chess.Board) -> list[chess.Move]:
    """The checking moves, in a deterministic order.

    A checking move either lands on a square on the enemy king's lines or a knight's jump
    from it, or leaves such a line (a discovered check); only those moves are tried, as
    ``gives_check`` is the costly part. The positions have no castling or en passant.
    """
    king = board.king(not board.turn)
    landing = _KING_LINES[king] | chess.BB_KNIGHT_ATTACKS[king]
    candidates = list(board.generate_legal_moves(to_mask=landing))
    candidates += board.generate_legal_moves(from_mask=_KING_LINES[king], to_mask=~landing & chess.BB_ALL)
    return [m for m in candidates if board.gives_check(m)]
