"""Reading chess moves written by a model (SAN, long algebraic or UCI) safely against a position.

Spellings read as the same move: standard SAN (``Nf3``, ``exd5``, ``O-O``, ``e8=Q``,
``Qxh7#``), long algebraic (``Ng1-f3``, ``e2-e4``), UCI (``g1f3``, ``e7e8q``), in any case
where that is unambiguous (``nf3``, ``NF3``, ``E2E4``, ``E4``, ``o-o``, ``e8=q``; ``bc4`` is
refused where both a bishop and a b-pawn could go to c4, while ``bxc4`` as written is
standard SAN for the pawn), ``e2 to e4``, ``e2 → e4``, with move numbers (``1. e4``,
``12... Nf6``), annotation marks (``!?``), the answer grammar of :mod:`palaestra.verifiers.normalize`
(``Move: e4``, ``**e4**.``) and, for one move (:func:`read_move`), a sentence naming it (``I play e4.``).

python-chess raises ``ValueError`` subclasses on malformed, illegal or ambiguous moves
and returns a null move for ``--``/``0000``; these readers turn all of that into ``None``
and cap the input length first.

Example::

    >>> board = chess.Board()
    >>> read_move(board, "Nf3"), read_move(board, "1. g1f3"), read_move(board, "E2E4"), read_move(board, "Ke2")
    (Move.from_uci('g1f3'), Move.from_uci('g1f3'), Move.from_uci('e2e4'), None)
    >>> read_move_set(board, "['d2d3', 'd2d4']") == [chess.Move.from_uci("d2d3"), chess.Move.from_uci("d2d4")]
    True
    >>> looks_like_move("Qxh7#"), looks_like_move("QXH7"), looks_like_move("hello")
    (True, True, False)
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import chess

from palaestra.verifiers.moves import sentence_move
from palaestra.verifiers.normalize import read_answer, strip_wrappers, unify
from palaestra.verifiers.sets import read_items

MAX_MOVE_CHARS = 16  # one move as written, before wrappers and closing punctuation
MAX_MOVE_TEXT = 160
CHESS_EMPTY_WORDS = ("0", "0 moves", "zero", "no moves", "no legal moves", "none", "nothing", "-", "[]", "{}")

_MOVE_NUMBER = re.compile(r"^\d{1,3}\s*\.+\s*")
_ANNOTATION = re.compile(r"(?:[!?]+|\s*e\.p\.?)$", re.IGNORECASE)
# a mate written otherwise than "#": "++" (older notation), "‡", a spaced "#", the word (check)mate, bracketed or not.
# It is read as "#", which the board then checks like any mark.
_MATE_MARK = re.compile(r"(?:\+\+|‡|\s+#|\s*\(\s*(?:check)?mate\s*\)|\s+(?:check)?mate)$", re.IGNORECASE)
_SAN = r"[KQRBNP]?[a-h]?[1-8]?[-x:]?[a-h][1-8](?:=?[QRBN])?"  # also long algebraic (Qd4-g7, e7-e8=Q)
_UCI = r"[a-h][1-8][a-h][1-8][QRBN]?"
_CASTLING = r"[O0]-[O0](?:-[O0])?"
_MOVE_SHAPE = re.compile(rf"^(?:{_SAN}|{_UCI}|{_CASTLING})[+#]?$", re.IGNORECASE)
_SQUARE_TO_SQUARE = re.compile(r"^([a-h][1-8])\s*(?:to|->|→|—|–|-)\s*([a-h][1-8])\s*=?\s*([qrbn]?)$", re.IGNORECASE)
_SEQUENCE_SPLIT = re.compile(r"[\s,;]+|\d{1,3}\.+")


def _clean(text: str) -> str:
    s = _MOVE_NUMBER.sub("", strip_wrappers(unify(text)).strip())
    return _MATE_MARK.sub("#", _ANNOTATION.sub("", s.rstrip(".")).strip()).strip()


def looks_like_move(text: str, *, in_sentence: bool = False) -> bool:
    """Whether ``text`` is shaped like a SAN, long algebraic or UCI move in any case (legal or not); with
    ``in_sentence``, also when a sentence names it (``I play Qh7#.``, as :func:`read_move` reads a whole answer;
    a list's items stay bare moves)."""
    if not isinstance(text, str) or len(text) > MAX_MOVE_TEXT:
        return False
    def shaped(s: str) -> bool | None:
        move_text = _clean(s)
        ok = len(move_text) <= MAX_MOVE_CHARS and (_MOVE_SHAPE.match(move_text) or _SQUARE_TO_SQUARE.match(move_text))
        return True if ok else None

    return bool(read_answer(text, sentence_move(shaped) if in_sentence else shaped))


def _spellings(move_text: str) -> list[str]:
    """``move_text`` as written, then the case variants a careful reader would also consider."""
    lower = move_text.lower()
    variants = [move_text, lower]
    if lower[:1] in "kqrbn" and len(lower) >= 3:
        variants.append(lower[0].upper() + lower[1:])
    if lower[:1] == "p" and len(lower) >= 3:
        variants.append(lower[1:])  # an explicit pawn letter: Pe4
    if lower.replace("0", "o") in ("o-o", "o-o-o"):
        variants.append(lower.replace("o", "O").replace("0", "O"))
    promotion = re.sub(r"=([qrbn])", lambda m: "=" + m.group(1).upper(), lower)
    if promotion != lower:
        variants += [promotion, promotion[0].upper() + promotion[1:]]
    square_to_square = _SQUARE_TO_SQUARE.match(move_text)
    if square_to_square:
        variants.append("".join(square_to_square.groups()).lower())
    return variants


def _parse(board: chess.Board, spelling: str) -> chess.Move | None:
    for parse in (board.parse_san, board.parse_uci):
        try:
            move = parse(spelling)
        except ValueError:
            continue
        if move and board.is_legal(move):
            return move
    return None


def _is_standard(board: chess.Board, move: chess.Move, written: str) -> bool:
    return written == move.uci() or board.san(move).rstrip("+#") == written.rstrip("+#")


def _read_core(board: chess.Board, text: str) -> chess.Move | None:
    if len(text) > MAX_MOVE_CHARS + 8:
        return None
    move_text = _clean(text)
    if not move_text or len(move_text) > MAX_MOVE_CHARS:
        return None
    spellings = _spellings(move_text)
    readings = {}
    for spelling in spellings:
        move = _parse(board, spelling)
        if move is not None:
            readings.setdefault(move, spelling)
    if len(readings) == 1:
        return next(iter(readings))
    as_written = _parse(board, move_text)
    if as_written is not None and _is_standard(board, as_written, move_text):
        return as_written  # standard notation settles the case: "bxc4" is the pawn
    return None


def read_move(board: chess.Board, text: str) -> chess.Move | None:
    """The legal move of ``board`` written in ``text``, alone or named in a sentence (``I play e4.``, ``I'll move
    e2-e4``, ``My move is Nf3``: :func:`palaestra.verifiers.moves.sentence_move`), or ``None`` (see the module
    docstring). Never raises.

    >>> read_move(chess.Board(), "I'll play **Nf3**."), read_move(chess.Board(), "I play e4 or d4")
    (Move.from_uci('g1f3'), None)
    """
    if not isinstance(text, str) or len(text) > MAX_MOVE_TEXT:
        return None
    return read_answer(text, sentence_move(lambda s: _read_core(board, s)))


def _read_item(board: chess.Board, text: str) -> chess.Move | None:
    """One move of a list, bare (a sentence's opening is no list item)."""
    if not isinstance(text, str) or len(text) > MAX_MOVE_TEXT:
        return None
    return read_answer(text, lambda s: _read_core(board, s))


def read_move_set(
    board: chess.Board,
    text: str,
    *,
    max_count: int = 300,
    allow_empty: bool = False,
    empty_words: Iterable[str] = CHESS_EMPTY_WORDS,
    duplicates: str = "reject",
) -> list[chess.Move] | None:
    """Legal moves of ``board``, all from this one position, as a list in written order, or ``None``.

    Items as in :func:`palaestra.verifiers.sets.read_items` (brackets, quotes, commas, spaces,
    ``and``); ``allow_empty`` reads ``none``/``0``/``no legal moves`` (``empty_words``) as no moves.

    >>> read_move_set(chess.Board(), "Nf3 and nc3") == [chess.Move.from_uci("g1f3"), chess.Move.from_uci("b1c3")]
    True
    """
    return read_items(
        text,
        lambda item: _read_item(board, item),
        allow_empty=allow_empty,
        empty_words=empty_words if allow_empty else (),
        space_separated=True,
        duplicates=duplicates,
        max_items=max_count,
        max_chars=max_count * 24 + 400,
    )


def _line_core(board: chess.Board, text: str, max_count: int) -> list[chess.Move] | None:
    position = board.copy(stack=False)
    moves = []
    for token in _SEQUENCE_SPLIT.split(strip_wrappers(unify(text))):
        if not token:
            continue
        move = _read_core(position, token)
        if move is None or len(moves) >= max_count:
            return None
        moves.append(move)
        position.push(move)
    return moves or None


def read_move_line(board: chess.Board, text: str, *, max_count: int = 50) -> list[chess.Move] | None:
    """A sequence of moves played one after the other from ``board`` (``1. e4 e5 2. Nf3``), or ``None``.

    Each move must be legal in the position the previous ones reach; ``board`` is not changed.

    >>> [m.uci() for m in read_move_line(chess.Board(), "1. e4 e5 2. Nf3")]
    ['e2e4', 'e7e5', 'g1f3']
    """
    if not isinstance(text, str) or len(text) > max_count * 24 + 400:
        return None
    return read_answer(text, lambda s: _line_core(board, s, max_count))
