"""Shared pieces of the multi-turn games (no environment here): move readers, boards, scaled rewards.

- :func:`read_label`: one label out of a few (``B``, ``machine B``, ``(B)``, ``pull B.``);
- :func:`read_cell`: one board cell written chess-style (``b3``, ``B3``, ``b 3``);
- :func:`read_cells`: several cells (``a1 b2``, ``a1, b2``);
- :func:`column_letters`, :func:`render_board`, :func:`cell_name`: boards with lettered columns
  and numbered rows, as every board game here draws them;
- :func:`tape_rng`, :func:`tape_uniform`: random events keyed by a tape drawn at generation (see its docstring);
- :func:`ucb_choice`, :func:`explore_then_commit`: bandit players on observed payouts (an honest
  player and a cheap rule for the bandit games).

Example::

    >>> read_label("pull machine C.", "ABCD", nouns=("machine",), verbs=("pull",))
    'C'
    >>> read_cell("b3", 4, 4), read_cell("row 3", 4, 4)
    ((2, 1), None)
    >>> print(render_board([".X", "O."]))
      a b
    1 . X
    2 O .
"""

from __future__ import annotations

import functools
import math
import pathlib
import random
import re
import string
from collections.abc import Callable, Iterable, Sequence

from palaestra.core import event_rng
from palaestra.core.multiturn import MAX_MOVE_CHARS
from palaestra.core.seeding import seed_deriver
from palaestra.verifiers.moves import read_move_answer
from palaestra.verifiers.normalize import read_answer, squeeze_spaces, strip_wrappers, unify

_CELL = re.compile(r"^\(?\s*([a-z])\s*,?\s*(\d{1,2})\s*\)?$", re.IGNORECASE)
_CELL_SPLIT = re.compile(r"[\s,;]+")


def tape_rng(env_id: str, tape: int, *keys: object) -> random.Random:
    """A private generator for a random event during play, keyed by a *tape* stored in the problem.

    Games whose generator checks that the oracle can win against the random events (an
    opponent's slips, the tiles of 2048, a slippery floor) must replay those events while
    generating, before the problem's seed is known; so they draw ``tape`` from the problem's
    RNG, store it in ``problem.data`` and key every event by it (and by what makes the event
    distinct: the board, the turn). This is :func:`palaestra.core.seeding.event_rng` with the
    tape in the place of the seed: deterministic from ``(id, level, seed)``, replayable in any process.

    >>> tape_rng("games/x", 7, "turn", 3).random() == tape_rng("games/x", 7, "turn", 3).random()
    True
    """
    return event_rng((env_id, "tape", tape), *keys)


def tape_uniform(env_id: str, tape: int, *keys: object) -> float:
    """One uniform draw in [0, 1) for an event keyed like :func:`tape_rng`, without building a generator.

    For games whose search replays thousands of events (a slippery floor): the 64-bit hash of
    the keys, scaled, is the draw.

    >>> 0.0 <= tape_uniform("games/x", 7, "turn", 3) < 1.0
    True
    """
    return _tape_seeds(env_id, tape)(*keys) / 2**64


@functools.lru_cache(maxsize=64)
def _tape_seeds(env_id: str, tape: int) -> Callable[..., int]:
    """The seeds of one tape's events, its prefix hashed once (a game's search replays thousands of them)."""
    return seed_deriver("event", env_id, "tape", tape)


def read_label(move: str, labels: Iterable[str], nouns: Sequence[str] = (), verbs: Sequence[str] = ()) -> str | None:
    """The one label of ``labels`` that ``move`` names, or None.

    Besides the bare label (any case, ``(B)``, ``B.``), ``noun label`` and ``verb noun label``
    spellings are read (``machine B``, ``pull machine B``, ``pull the machine B``, ``pull B``), after a sentence's
    opening too (``I pull B.``, ``I choose B``, ``My move is B``: :func:`palaestra.verifiers.moves.sentence_move`).
    ``B or C`` is unreadable.

    >>> read_label("Arm b", "ABC", nouns=("arm",)), read_label("A or B", "ABC"), read_label("I go B.", "ABC", verbs=("go",))
    ('B', None, 'B')
    """
    canonical = {label.lower(): label for label in labels}
    pattern = _label_pattern(tuple(nouns), tuple(verbs))

    def read(text: str) -> str | None:
        match = pattern.match(squeeze_spaces(unify(text)).strip().lower())
        return canonical.get(match.group(1)) if match else None

    return read_move_answer(move, read)


@functools.lru_cache(maxsize=64)
def _label_pattern(nouns: tuple[str, ...], verbs: tuple[str, ...]) -> re.Pattern[str]:
    def options(words: tuple[str, ...]) -> str:
        return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) or "(?!)"

    return re.compile(
        rf"^(?:(?:{options(verbs)})\s+)?(?:the\s+)?(?:(?:{options(nouns)})\s+)?[(\[]?([^\W\d_]+|\d+)[)\]]?\.?$"
    )


def column_letters(count: int) -> str:
    """The first ``count`` lower-case letters: the column names of a board."""
    return string.ascii_lowercase[:count]


def cell_name(row: int, col: int) -> str:
    """``(2, 1)`` -> ``b3``: column letter, then row number counted from 1 at the top."""
    return f"{string.ascii_lowercase[col]}{row + 1}"


def _cell_core(text: str, rows: int, cols: int) -> tuple[int, int] | None:
    match = _CELL.match(text.strip())
    if not match:
        return None
    col, row = ord(match.group(1).lower()) - 97, int(match.group(2)) - 1
    return (row, col) if 0 <= row < rows and 0 <= col < cols else None


def read_cell(move: str, rows: int, cols: int, verbs: Sequence[str] = ()) -> tuple[int, int] | None:
    """``(row, col)`` of a cell written as column letter and row number (``b3``, ``B3``, ``b 3``), or None.

    ``verbs``: words that may come first (``reveal b3``, ``fire at b3``); a sentence's opening may too (``I play b3.``,
    ``My move is b3``, ``I fire at b3``: :func:`palaestra.verifiers.moves.sentence_move`); a cell off the board is None.

    >>> read_cell("I'll place a stone at B3.", 5, 5), read_cell("My move is b3", 5, 5), read_cell("I play b3 or c4", 5, 5)
    ((2, 1), (2, 1), None)
    """

    def read(text: str) -> tuple[int, int] | None:
        lowered = squeeze_spaces(unify(text)).strip().lower()
        for verb in sorted(verbs, key=len, reverse=True):
            if lowered.startswith(verb + " "):
                lowered = lowered[len(verb) + 1:].strip()
                break
        return _cell_core(lowered, rows, cols)

    return read_move_answer(move, read)


def read_cells(move: str, rows: int, cols: int, max_count: int) -> list[tuple[int, int]] | None:
    """Several cells separated by spaces, commas or semicolons (``a1 b2``, ``a1, b2``), or None.

    Any token that is not a cell on the board, or more than ``max_count`` cells, makes the move unreadable.
    """
    if not isinstance(move, str) or len(move) > MAX_MOVE_CHARS:
        return None

    def read(text: str) -> list[tuple[int, int]] | None:
        tokens = [t for t in _CELL_SPLIT.split(strip_wrappers(text).strip("[](){}")) if t and t.lower() != "and"]
        if not tokens or len(tokens) > max_count:
            return None
        cells = [_cell_core(t.strip("\"'"), rows, cols) for t in tokens]
        return None if any(c is None for c in cells) else cells  # type: ignore[return-value]

    return read_answer(move, read)


def render_board(rows: Sequence[Sequence[str]]) -> str:
    """A board drawn with lettered columns and numbered rows (one character per cell)."""
    width = len(str(len(rows)))
    header = " " * width + " " + " ".join(column_letters(len(rows[0]) if rows else 0))
    return "\n".join([header] + [f"{r + 1:>{width}} " + " ".join(row) for r, row in enumerate(rows)])


def ucb_choice(labels: Sequence[str], paid: dict[str, list[float]], scale: float = 1.0) -> str:
    """UCB1 on observed payouts: an untried label first, else the highest mean plus ``scale * sqrt(2 ln n / pulls)``.

    >>> ucb_choice("AB", {"A": [1.0]}), ucb_choice("AB", {"A": [1.0, 1.0], "B": [0.0, 0.0]})
    ('B', 'A')
    """
    for label in labels:
        if not paid.get(label):
            return label
    pulls = sum(len(v) for v in paid.values())
    return max(labels, key=lambda label: sum(paid[label]) / len(paid[label])
               + scale * math.sqrt(2 * math.log(pulls) / len(paid[label])))


def explore_then_commit(labels: Sequence[str], paid: dict[str, list[float]]) -> str:
    """The cheap rule: try each label once (in order), then always the one whose first payout was highest."""
    for label in labels:
        if not paid.get(label):
            return label
    return max(labels, key=lambda label: paid[label][0])


def write_catalogue_file(module_file: str, name: str, path: str | None, header: str, lines: Iterable[str]) -> None:
    """Write an offline catalogue of positions: ``header`` as its comment line, then ``lines``; to ``path``, or
    (``None``) to the shipped file ``name`` beside ``module_file``, the env module that reads it."""
    target = pathlib.Path(path) if path else pathlib.Path(module_file).with_name(name)
    target.write_text("\n".join([f"# {header}", *lines]) + "\n")
