"""What the chess environments share: the board diagram and reading one written move.

Not an environment (nothing here is registered).

Example::

    >>> board = chess.Board()
    >>> read_chess_move(board, "G1F3"), read_chess_move(board, "Nf3"), read_chess_move(board, "Ke2")
    (Move.from_uci('g1f3'), Move.from_uci('g1f3'), None)
    >>> print(diagram(board).splitlines()[0])
    8 r n b q k b n r
"""

from __future__ import annotations

import re

import chess

from palaestra.verifiers.chess_moves import read_move
from palaestra.verifiers.normalize import strip_wrappers, unify

_UCI_ANY_CASE = re.compile(r"^[a-h][1-8][a-h][1-8][qrbn]?$", re.IGNORECASE)


def read_chess_move(board: chess.Board, text: str) -> chess.Move | None:
    """The legal move of ``board`` written in ``text`` (SAN, long algebraic or UCI, any case), or None.

    A token shaped like UCI in any case (``B8A6``) is read as UCI first: written in capitals it
    is not standard SAN, and the shared reader would also consider the bishop move ``B8a6``
    and refuse the answer as ambiguous. Everything else goes to the shared reader.
    """
    if not isinstance(text, str) or len(text) > 200:
        return None
    bare = strip_wrappers(unify(text)).rstrip(".").strip()
    if _UCI_ANY_CASE.match(bare):
        move = chess.Move.from_uci(bare.lower())
        if board.is_legal(move):
            return move
    return read_move(board, text)


def diagram(board: chess.Board) -> str:
    """The board as eight rows of piece letters (``.`` for an empty square), rank 8 first, files below."""
    rows = [f"{rank + 1} " + " ".join(str(board.piece_at(chess.square(f, rank)) or ".") for f in range(8))
            for rank in range(7, -1, -1)]
    return "\n".join(rows + ["  a b c d e f g h"])
