"""Reading step lists for the planning puzzles: each step matched by an env's own pattern, one after another.

:func:`read_steps` reads ``fill A, pour A B, empty B`` or a numbered list one step per line: the
env gives a compiled pattern for one step and a function turning a match into a step (or
``None`` when the match names nothing real). Steps are separated by commas, semicolons, new lines
or ``then``; numbering (``1.``, ``Step 2:``) and bullets on every line are skipped; wrappers and a short trailing sentence
are read past by the rule in :mod:`palaestra.verifiers.normalize`. Matching is anchored, step
after step, so the work is linear in the text. A candidate for ``palaestra/verifiers/moves.py``
(it generalises :func:`~palaestra.verifiers.moves.read_place_moves` to any step grammar).

Example::

    >>> step = re.compile(r"(fill|empty) ([AB])", re.IGNORECASE)
    >>> read_steps("1. fill A\\n2. empty B", step, lambda m: (m[1].lower(), m[2].upper()), max_count=5)
    [('fill', 'A'), ('empty', 'B')]
    >>> read_steps("fill A or empty B", step, lambda m: (m[1], m[2]), max_count=5) is None
    True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from typing import TypeVar

from palaestra.verifiers.moves import read_tokens
from palaestra.verifiers.normalize import read_answer, squeeze_spaces, strip_wrappers, unify, without_bullets

T = TypeVar("T")

MAX_CHARS_PER_STEP = 80
_GAP = re.compile(r"(?:[\s,;]|\bthen\b|\band\b)*(?:(?:step|move|crossing|trip)?\s*\d{1,4}\s*[.):]\s*)?", re.IGNORECASE)


def _steps_core(text: str, step: re.Pattern[str], convert: Callable[[re.Match[str]], T | None],
                max_count: int) -> list[T] | None:
    s = without_bullets(squeeze_spaces(text).strip())  # "- fill A" on every line: a bulleted list
    steps: list[T] = []
    position = 0
    for _ in range(max_count + 1):  # anchored matches one after another: linear, never a search
        position = _GAP.match(s, position).end()
        match = step.match(s, position)
        if match is None or match.end() == position:
            break
        value = convert(match)
        if value is None:
            return None
        steps.append(value)
        position = match.end()
    position = _GAP.match(s, position).end()
    if position < len(s) or not steps or len(steps) > max_count:
        return None
    return steps


def read_steps(text: str, step: re.Pattern[str], convert: Callable[[re.Match[str]], T | None], *, max_count: int,
               answer_words: Collection[str] = (), labels: Collection[str] = ()) -> list[T] | None:
    """The steps of ``text`` in order, or ``None`` (see the module docstring).

    ``answer_words`` / ``labels``: words and exact-case tokens that may not appear in a trailing
    remark (they would name another step), as in :func:`palaestra.verifiers.normalize.is_closing`.
    """
    if not isinstance(text, str) or len(text) > max_count * MAX_CHARS_PER_STEP + 400:
        return None
    return read_answer(unify(text), lambda s: _steps_core(s, step, convert, max_count))


# A naming phrase before a whole plan (our pattern, anchored, no nested repetition): "Route: LLDD", "The shortest
# path is UURR.", "Moves: 1. U 2. L", "Steps: fill A, pour A B", "Crossings: goat; nothing", "Tiles: 4, 7, 1".
_PLAN_LABEL = re.compile(
    r"^\s*(?:(?:the|my|a)\s+)?(?:(?:shortest|optimal|minimal|final|full)\s+)?"
    r"(?:route|path|moves?|plan|steps?|crossings?|tiles?|solution|sequence)\s*(?:(?:is|are)\s*:?\s*|:\s*)",
    re.IGNORECASE,
)


def without_label(text: str) -> str:
    """``text`` without one naming phrase before the plan (see ``_PLAN_LABEL``); other text unchanged.

    >>> without_label("Route: UURR"), without_label("The shortest path is UURR."), without_label("UURR")
    ('UURR', 'UURR.', 'UURR')
    """
    if not isinstance(text, str):
        return text
    return _PLAN_LABEL.sub("", text, count=1)


_ARROW_MOVES = {"↑": " U ", "↓": " D ", "←": " L ", "→": " R "}
_VERTICAL_OR_LEFT = re.compile("[↑↓←]")
_ONLY_RIGHT_ARROWS = re.compile(r"[\s,;→]+")


def arrow_moves(text: str) -> str:
    """``text`` with arrow moves ``↑ ↓ ← →`` written as ``U D L R`` where they spell a grid route.

    ``→`` also separates moves (``up → left``), so it is read as a move only beside ``↑``, ``↓`` or ``←``, or
    where the whole text is made of ``→`` alone.

    >>> arrow_moves("↓↓→"), arrow_moves("up → left"), arrow_moves("→ →")
    (' D  D  R ', 'up → left', ' R   R ')
    """
    if not isinstance(text, str) or not (_VERTICAL_OR_LEFT.search(text) or _ONLY_RIGHT_ARROWS.fullmatch(text)):
        return text
    return "".join(_ARROW_MOVES.get(char, char) for char in text)


# A count of the moves after the plan, as it is often written: "RRDD (4 moves)", "RRDD - 4 steps.". Read only when it
# counts the moves read (a count that does not is a second claim, and the answer stays unread).
_MOVE_COUNT = re.compile(r"(?:[(\[]\s*(\d{1,5})\s+(?:moves?|steps?)\s*[)\]]|[-–—,:]\s*(\d{1,5})\s+(?:moves?|steps?))\s*\.?\s*$",
                         re.IGNORECASE)


def read_moves(text: str, steps: Mapping[str, T], *, max_count: int) -> list[T] | None:
    """A grid plan of ``steps`` (``UURR``, ``up, up, right``, arrows, ``Route: ...``; see :func:`without_label`
    and :func:`arrow_moves`), also with the count of its moves after it when that count is right.

    >>> steps = {"U": "U", "R": "R"}
    >>> read_moves("Route: UURR (4 moves)", steps, max_count=9), read_moves("UURR (5 moves)", steps, max_count=9)
    (['U', 'U', 'R', 'R'], None)
    """
    if not isinstance(text, str):
        return None
    moves: list[T] | None = read_tokens(arrow_moves(without_label(text)), steps, max_count=max_count)
    if moves is not None or len(text) > max_count * MAX_CHARS_PER_STEP + 400:
        return moves
    counted = _MOVE_COUNT.search(strip_wrappers(text))
    if counted is None:
        return None
    plan = strip_wrappers(text)[: counted.start()]
    moves = read_tokens(arrow_moves(without_label(plan)), steps, max_count=max_count)
    return moves if moves is not None and len(moves) == int(counted.group(1) or counted.group(2)) else None
