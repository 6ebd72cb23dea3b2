"""King and queen or king and rook against the lone king: rules, and exact distance-to-mate tables.

Squares are numbered 0-63 (``a1`` = 0, ``b1`` = 1, ..., ``h8`` = 63). A position is three squares,
``(white_king, black_king, piece)``, with the white piece a queen (``"Q"``) or a rook (``"R"``).

The tables hold, for every position with White to move, the number of White moves to mate
against the longest defence (0: no forced win -- an illegal position, or one where Black takes
the piece or is stalemated). They are computed by retrograde analysis (:func:`build_table`:
mates, then every White-to-move position that reaches a mate-in-``n`` in one move, then every
Black-to-move position all of whose moves reach such positions, layer by layer) and shipped
compressed in ``lone_king_dtm.txt`` (White king folded into the a1-d1-d4 triangle by the board's
eight symmetries). ``python -m palaestra.generators.lone_king`` rebuilds that file.

Example::

    >>> queen = "Q"
    >>> white_to_move_mate_in(queen, square("c6"), square("a8"), square("h7"))  # Qb7# (Qa7+ hangs the queen)
    1
    >>> black_to_move_mate_in(queen, square("c6"), square("a8"), square("b7"))  # Black just got mated
    0
"""

from __future__ import annotations

import base64
import functools
import zlib
from collections.abc import Iterator
from importlib import resources

PIECES = ("Q", "R")
DATA_FILE = "lone_king_dtm.txt"
Position = tuple[int, int, int]  # (white king, black king, white piece)

_ROOK_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))
_BISHOP_STEPS = ((1, 1), (1, -1), (-1, 1), (-1, -1))
_KING_STEPS = _ROOK_STEPS + _BISHOP_STEPS


def square(name: str) -> int:
    """``"c6"`` -> 42."""
    return (ord(name[0]) - 97) + 8 * (int(name[1]) - 1)


def square_name(index: int) -> str:
    """42 -> ``"c6"``."""
    return f"{chr(97 + index % 8)}{index // 8 + 1}"


def king_distance(a: int, b: int) -> int:
    """The number of king steps between two squares (Chebyshev distance)."""
    return max(abs(a % 8 - b % 8), abs(a // 8 - b // 8))


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < 8 and 0 <= rank < 8


KING_MOVES: tuple[tuple[int, ...], ...] = tuple(
    tuple((s % 8 + df) + 8 * (s // 8 + dr) for df, dr in _KING_STEPS if _on_board(s % 8 + df, s // 8 + dr))
    for s in range(64))


def _rays(steps: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    table = []
    for s in range(64):
        rays = []
        for df, dr in steps:
            ray, file, rank = [], s % 8 + df, s // 8 + dr
            while _on_board(file, rank):
                ray.append(file + 8 * rank)
                file, rank = file + df, rank + dr
            if ray:
                rays.append(tuple(ray))
        table.append(tuple(rays))
    return tuple(table)


RAYS = {"R": _rays(_ROOK_STEPS), "Q": _rays(_ROOK_STEPS + _BISHOP_STEPS)}


def _between_masks(piece: str) -> tuple[tuple[int, ...], ...]:
    """``[a][b]``: bit mask of the squares strictly between ``a`` and ``b`` on one of the piece's lines, -1 if none."""
    masks = [[-1] * 64 for _ in range(64)]
    for a in range(64):
        for ray in RAYS[piece][a]:
            mask = 0
            for b in ray:
                masks[a][b] = mask
                mask |= 1 << b
    return tuple(tuple(row) for row in masks)


_BETWEEN = {piece: _between_masks(piece) for piece in PIECES}


def attacks(piece: str, origin: int, target: int, blocker: int) -> bool:
    """Whether ``piece`` on ``origin`` attacks ``target`` with only ``blocker`` (the White king) in the way."""
    mask = _BETWEEN[piece][origin][target]
    return mask >= 0 and not (mask >> blocker) & 1


def legal(position: Position) -> bool:
    """Three distinct squares, the kings not touching (either side may be to move)."""
    wk, bk, p = position
    return wk != p and bk != p and king_distance(wk, bk) > 1


def white_to_move_legal(position: Position, piece: str) -> bool:
    """Legal with White to move: besides :func:`legal`, the Black king is not in check."""
    wk, bk, p = position
    return legal(position) and not attacks(piece, p, bk, wk)


def in_check(piece: str, position: Position) -> bool:
    wk, bk, p = position
    return attacks(piece, p, bk, wk)


def black_moves(piece: str, position: Position) -> list[int]:
    """The Black king's legal destination squares (a capture of the piece included)."""
    wk, bk, p = position
    return [t for t in KING_MOVES[bk]
            if king_distance(t, wk) > 1 and (t == p or not attacks(piece, p, t, wk))]


def white_moves(piece: str, position: Position) -> Iterator[Position]:
    """The positions White's legal moves lead to (Black to move), king moves first."""
    wk, bk, p = position
    for t in KING_MOVES[wk]:
        if t != p and king_distance(t, bk) > 1:
            yield (t, bk, p)
    for ray in RAYS[piece][p]:
        for t in ray:
            if t in (wk, bk):
                break
            yield (wk, bk, t)


def _index(position: Position) -> int:
    wk, bk, p = position
    return wk * 4096 + bk * 64 + p


def build_table(piece: str) -> bytearray:
    """White-to-move distance to mate (in White moves; 0 = no forced win) for all 64^3 positions, by retrograde analysis."""
    size = 64 ** 3
    white_dtm = bytearray(size)
    black_resolved = bytearray(size)
    remaining = [0] * size  # Black-to-move: legal moves not yet known to lose
    layer: list[Position] = []
    for wk in range(64):
        for bk in range(64):
            for p in range(64):
                position = (wk, bk, p)
                if not legal(position):
                    continue
                moves = black_moves(piece, position)
                if not moves:
                    if in_check(piece, position):
                        black_resolved[_index(position)] = 1
                        layer.append(position)
                    continue
                remaining[_index(position)] = size if p in moves else len(moves)  # a capture draws: never lost
    depth = 0
    while layer:
        depth += 1
        won: list[Position] = []
        for wk, bk, p in layer:  # White moves that reach a lost Black-to-move position: undo them
            for before in _white_unmoves(piece, wk, bk, p):
                if white_to_move_legal(before, piece) and not white_dtm[_index(before)]:
                    white_dtm[_index(before)] = depth
                    won.append(before)
        layer = []
        for wk, bk, p in won:  # Black king moves into a won position: undo them
            for s in KING_MOVES[bk]:
                before = (wk, s, p)
                if s == p or not legal(before):
                    continue
                index = _index(before)
                if black_resolved[index]:
                    continue
                remaining[index] -= 1
                if remaining[index] == 0:
                    black_resolved[index] = 1
                    layer.append(before)
    return white_dtm


def _white_unmoves(piece: str, wk: int, bk: int, p: int) -> Iterator[Position]:
    """Positions before a White move that led to ``(wk, bk, p)`` (moves are reversible: no captures by White)."""
    for s in KING_MOVES[wk]:
        if s != p and s != bk and king_distance(s, bk) > 1:
            yield (s, bk, p)
    for ray in RAYS[piece][p]:
        for s in ray:
            if s in (wk, bk):
                break
            yield (wk, bk, s)


def _symmetries() -> tuple[tuple[int, ...], ...]:
    maps = []
    for swap in (False, True):
        for flip_file in (False, True):
            for flip_rank in (False, True):
                table = []
                for s in range(64):
                    file, rank = s % 8, s // 8
                    if swap:
                        file, rank = rank, file
                    file = 7 - file if flip_file else file
                    rank = 7 - rank if flip_rank else rank
                    table.append(file + 8 * rank)
                maps.append(tuple(table))
    return tuple(maps)


SYMMETRIES = _symmetries()
TRIANGLE = tuple(f + 8 * r for f in range(4) for r in range(f + 1))  # a1 b1 b2 c1 c2 c3 d1 d2 d3 d4


def _fold() -> tuple[tuple[int, ...], ...]:
    """For each White king square, a symmetry that takes it into :data:`TRIANGLE`."""
    return tuple(next(m for m in SYMMETRIES if m[wk] in TRIANGLE) for wk in range(64))


_FOLD = _fold()
_TRIANGLE_SLOT = {s: i for i, s in enumerate(TRIANGLE)}


def encode(table: bytearray) -> bytes:
    """The folded table (White king in the triangle only), compressed."""
    folded = bytearray()
    for wk in TRIANGLE:
        folded += table[wk * 4096:(wk + 1) * 4096]
    return zlib.compress(bytes(folded), 9)


@functools.cache
def _tables() -> dict[str, bytes]:
    text = resources.files("palaestra.generators").joinpath(DATA_FILE).read_text()
    tables = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            piece, blob = line.split(" ", 1)
            tables[piece] = zlib.decompress(base64.b64decode(blob))
    return tables


def white_to_move_mate_in(piece: str, wk: int, bk: int, p: int) -> int:
    """White moves to mate against the longest defence, White to move (0: no forced win or not legal)."""
    fold = _FOLD[wk]
    return _tables()[piece][_TRIANGLE_SLOT[fold[wk]] * 4096 + fold[bk] * 64 + fold[p]]


def black_to_move_mate_in(piece: str, wk: int, bk: int, p: int) -> int | None:
    """White moves still needed to mate, Black to move: 0 if Black is mated now, None if White has no forced win."""
    moves = black_moves(piece, (wk, bk, p))
    if not moves:
        return 0 if in_check(piece, (wk, bk, p)) else None
    worst = 0
    for t in moves:
        after = 0 if t == p else white_to_move_mate_in(piece, wk, t, p)
        if after == 0:
            return None
        worst = max(worst, after)
    return worst


def write_data_file(path: str) -> None:
    """Rebuild the shipped tables (a minute or so of CPU)."""
    lines = ["# White-to-move distance to mate for KQK and KRK, White king folded into a1-d1-d4; "
             "built by palaestra.generators.lone_king.build_table"]
    for piece in PIECES:
        lines.append(f"{piece} {base64.b64encode(encode(build_table(piece))).decode()}")
    with open(path, "w") as handle:
        handle.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    import pathlib

    write_data_file(str(pathlib.Path(__file__).with_name(DATA_FILE)))
