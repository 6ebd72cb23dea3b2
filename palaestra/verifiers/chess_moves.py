"""Reading chess moves written by a model (SAN or UCI) safely against a position.

python-chess raises ``ValueError`` subclasses on malformed, illegal or ambiguous
moves and returns a null move for ``--``/``0000``; these readers turn all of
that into ``None`` and cap the input length first.

Example::

    >>> board = chess.Board()
    >>> read_move(board, "Nf3"), read_move(board, "1. g1f3"), read_move(board, "Ke2")
    (Move.from_uci('g1f3'), Move.from_uci('g1f3'), None)
    >>> looks_like_move("Qxh7#"), looks_like_move("hello")
    (True, False)
"""

from __future__ import annotations

import re

import chess

MAX_MOVE_CHARS = 16
_MOVE_NUMBER = re.compile(r"^\d{1,3}\s*\.+\s*")
_SAN = r"[KQRBN]?[a-h]?[1-8]?[-x]?[a-h][1-8](?:=?[QRBNqrbn])?"  # also long algebraic (Qd4-g7, e7-e8=Q)
_UCI = r"[a-h][1-8][a-h][1-8][qrbnQRBN]?"
_CASTLING = r"[O0]-[O0](?:-[O0])?"
_MOVE_SHAPE = re.compile(rf"^(?:{_SAN}|{_UCI}|{_CASTLING})[+#]?$")


def _clean(text: str) -> str:
    return _MOVE_NUMBER.sub("", text.strip()).rstrip("!?.").strip()


def looks_like_move(text: str) -> bool:
    """Whether ``text`` is shaped like a SAN or UCI move (legal or not)."""
    return isinstance(text, str) and len(text) <= MAX_MOVE_CHARS and bool(_MOVE_SHAPE.match(_clean(text)))


def read_move(board: chess.Board, text: str) -> chess.Move | None:
    """The legal move of ``board`` written in SAN or UCI, or ``None``. Never raises."""
    if not isinstance(text, str) or len(text) > MAX_MOVE_CHARS:
        return None
    move_text = _clean(text)
    try:
        move = board.parse_san(move_text)
    except ValueError:
        try:
            move = board.parse_uci(move_text.lower())
        except ValueError:
            return None
    return move if move and board.is_legal(move) else None
