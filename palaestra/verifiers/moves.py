r"""Reading move sequences: tokens from a fixed alphabet, and moves between named places.

:func:`read_tokens` reads a sequence of symbols such as maze steps: ``U D L R``, ``UDLR``,
``U, D, L``, ``up, down``, ``["U", "D"]``, ``U -> D -> L``, ``1. U 2. D``, one per line.
:func:`read_place_moves` reads moves from one place to another such as Tower of Hanoi
moves: ``A->C``, ``A → C``, ``A to C``, ``(A, C)``, ``AC``, ``1. A->C``, ``1) A -> C``,
``Step 1: A -> C``, ``move disk 1 from A to C``, ``Move the top disk from peg A to peg C``,
separated by commas, semicolons, ``then``, spaces or new lines. Both refuse more than
``max_count`` moves and read an answer by the grammar of :mod:`palaestra.verifiers.normalize`
(lead-ins, markup, a closing full stop; never a remark after it). Chess moves are read in
:mod:`palaestra.verifiers.chess_moves`.

One move of a game (a turn) may also be named in a sentence: :func:`sentence_move` reads past a
sentence's opening (``I play e2e4.``, ``I'll take 2 from heap A``, ``My move is 4``) and
:func:`read_move_answer` reads one move by the answer grammar and that opening; every game's
move reader uses them, so the grammar is written once.

:func:`read_command` reads one command of a task's own grammar (``take the red key``, ``drop 2``,
``I take the red key.``): it lower-cases the move, drops articles, quotes and a trailing full stop,
and hands the words to the task's parser, which gets every word (a remark after the command is
the parser's to refuse).

Example::

    >>> steps = {"U": "U", "D": "D", "L": "L", "R": "R", "up": "U", "down": "D", "left": "L", "right": "R"}
    >>> read_tokens("R, R, down", steps, max_count=50), read_tokens("RRD", steps, max_count=50)
    (['R', 'R', 'D'], ['R', 'R', 'D'])
    >>> read_place_moves("1. A->C\n2. A->B\n3. C->B", "ABC", max_count=10)
    [('A', 'C'), ('A', 'B'), ('C', 'B')]
    >>> read_place_moves("move disk 1 from A to C", "ABC", max_count=10, pieces=True)
    [('A', 'C', 1)]
    >>> read_command("Take the red key.", lambda words: words)
    ['take', 'red', 'key']
    >>> read_command("go north, or maybe south", lambda words: words if len(words) == 2 else None) is None
    True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import TypeVar

from palaestra.core.multiturn import MAX_MOVE_CHARS
from palaestra.verifiers.normalize import (
    enclosed,
    is_closing,
    read_answer,
    squeeze_spaces,
    strip_wrappers,
    unify,
    without_bullets,
)

T = TypeVar("T")

_NUMBERING = re.compile(r"^(?:(?:step|move)\s*)?\d{1,4}[.):]$", re.IGNORECASE)
_ARROWS = r"->|→|=>|⇒|-+>|—>"
_TOKEN_SPLIT = re.compile(rf"(?:{_ARROWS}|[\s,;])+")
_TOKEN_SPLIT_DASH = re.compile(rf"(?:{_ARROWS}|[\s,;]|-)+")
_TOKEN_FILLERS = frozenset(["then", "and", "&"])
_NO_MOVES = frozenset(["none", "no moves", "nothing", "empty", "[]", "()", "{}", "∅"])
_GAP = re.compile(r"[\s,;.()\[\]'\"]*(?:(?:(?:then|and)\b|&)[\s,;.()\[\]'\"]*)*", re.IGNORECASE)
_LABEL = re.compile(r"[^\d:\n]{1,40}:\s*")


def _spellings(alphabet: Mapping[str, T] | Iterable[str], case_sensitive: bool) -> dict[str, T]:
    pairs = alphabet.items() if isinstance(alphabet, Mapping) else ((s, s) for s in alphabet)
    return {(spelling if case_sensitive else spelling.lower()): value for spelling, value in pairs}


def _tokens_core(
    text: str, table: Mapping[str, T], case_sensitive: bool, max_count: int, allow_empty: bool
) -> list[T] | None:
    s = without_bullets(strip_wrappers(squeeze_spaces(unify(text))))
    if not s:
        return None  # no answer, not an empty sequence
    if s.lower().rstrip(".") in _NO_MOVES:
        return [] if allow_empty else None
    if enclosed(s):
        s = s[1:-1]
    dash_in_spelling = any("-" in spelling for spelling in table)
    letters = {spelling for spelling in table if len(spelling) == 1}
    result: list[T] = []
    raws = (_TOKEN_SPLIT if dash_in_spelling else _TOKEN_SPLIT_DASH).split(s)
    for position, raw in enumerate(raws):
        token = raw.strip("\"'`()[]{}")
        key = token if case_sensitive else token.lower()
        if not key or key in _TOKEN_FILLERS:
            continue
        if _NUMBERING.match(token) and position < len(raws) - 1:
            continue  # "1." numbers the move after it; a last "3." is a move and a full stop
        if key in table:
            result.append(table[key])
        elif letters and all(char in letters for char in key):
            result.extend(table[char] for char in key)
        else:
            return None
        if len(result) > max_count:
            return None
    return result if result or allow_empty else None


def read_tokens(
    text: str,
    alphabet: Mapping[str, T] | Iterable[str],
    *,
    max_count: int,
    case_sensitive: bool = False,
    allow_empty: bool = False,
) -> list[T] | None:
    """The symbols of ``text`` as the values of ``alphabet``, in order, or ``None``.

    ``alphabet``: spellings (``"UDLR"``, ``["up", "down"]``) or a mapping from each spelling
    to its value. Tokens are separated by spaces, commas, semicolons, arrows or dashes (unless
    a spelling holds a dash); one-character spellings may also be written side by side
    (``UUR``). Numbering (``1.``) and ``then``/``and`` are skipped. More than ``max_count``
    symbols, or any token not in the alphabet, makes the answer unreadable. ``allow_empty``:
    ``none``, ``no moves`` or ``[]`` read as no moves (blank text never does).

    >>> read_tokens("1. U\\n2. L", "UDLR", max_count=5), read_tokens("U, X", "UDLR", max_count=5)
    (['U', 'L'], None)
    """
    table = _spellings(alphabet, case_sensitive)
    if not isinstance(text, str) or len(text) > max_count * (max(map(len, table), default=1) + 12) + 400:
        return None
    return read_answer(text, lambda s: _tokens_core(s, table, case_sensitive, max_count, allow_empty))


def _move_pattern(places: list[str]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(p) for p in sorted(places, key=len, reverse=True))
    holder = r"(?:(?:peg|rod|tower|pole|stack|post|column|pile)\s+)?"
    return re.compile(
        r"(?:(?:step|move)\s*)?(?:\d{1,4}\s*[.):]\s*)?"  # numbering
        r"(?:move\s+)?(?:(?:the|a)\s+)?(?:top\s+)?(?:(?:disk|disc|ring|piece)\s*(?:#\s*)?(?P<piece>\d{1,4})?\s+)?"
        rf"(?:from\s+)?{holder}(?<![A-Za-z0-9])(?P<source>{alternatives})"
        rf"\s*(?:(?:{_ARROWS}|to\b|-|–|—|>|,)\s*)?{holder}(?P<target>{alternatives})(?![A-Za-z0-9])",
        re.IGNORECASE,
    )


def _place_core(
    text: str, pattern: re.Pattern[str], canonical: Mapping[str, str], max_count: int, pieces: bool
) -> list[tuple] | None:
    s = without_bullets(strip_wrappers(squeeze_spaces(unify(text))))
    label = _LABEL.match(s)
    position = label.end() if label and not pattern.match(s, 0) else 0
    s = s[:position] + without_bullets(s[position:])  # "Moves:" on a line of its own, then bulleted moves
    moves: list[tuple] = []
    for _ in range(max_count + 1):  # anchored matches one after another: linear, never a search
        gap = _GAP.match(s, position)
        match = pattern.match(s, gap.end()) if gap else None
        if match is None:
            break
        source, target = canonical[match.group("source").lower()], canonical[match.group("target").lower()]
        piece = match.group("piece")
        moves.append((source, target, int(piece) if piece else None) if pieces else (source, target))
        position = match.end()
    rest = s[position:]
    if not moves or len(moves) > max_count:
        return None
    if _GAP.fullmatch(rest):
        return moves
    if rest.lstrip()[:1] in (",", ";", ":"):
        return None  # after a list separator comes one more (unreadable) move, not a remark
    return moves if is_closing(rest) else None


def read_place_moves(
    text: str,
    places: Iterable[str],
    *,
    max_count: int,
    pieces: bool = False,
) -> list[tuple] | None:
    """Moves ``(source, target)`` between the named ``places`` (``"ABC"`` or ``["L", "M", "R"]``), or ``None``.

    Place names match in any case and come back as spelled in ``places``. With
    ``pieces=True`` each move is ``(source, target, piece)``, ``piece`` being the disk
    number written (``move disk 2 from A to C``) or ``None``, for a checker that wants it.
    Text between moves other than separators, numbering and ``then`` makes the answer
    unreadable, and so do more than ``max_count`` moves.

    >>> read_place_moves("A to C, then B to C.", "ABC", max_count=5)
    [('A', 'C'), ('B', 'C')]
    >>> read_place_moves("A->C or A->B", "ABC", max_count=5), read_place_moves("A->C, A->B", "ABC", max_count=1)
    (None, None)
    """
    names = list(places)
    if not isinstance(text, str) or len(text) > max_count * 60 + 400:
        return None
    canonical = {name.lower(): name for name in names}
    pattern = _move_pattern(names)
    return read_answer(text, lambda s: _place_core(s, pattern, canonical, max_count, pieces))


# A sentence's opening before one move, read past as a careful grader does: "I play e2e4.", "I'll take 2 from heap A",
# "My move is column 4", "I choose to draw", "I'll place a stone at k7". What follows must still be read whole by the
# game's reader, so "I play e2e4 or d2d4", "I won't play e2e4" and "My move is not 4" stay unreadable. Fixed patterns
# over the model's text, tried once each on at most MAX_MOVE_CHARS characters.
_SUBJECT = (r"(?:i['’]ll choose to|i choose to|i decide to|i['’]d like to|i would like to|i want to|i['’]m going to"
            r"|i am going to|i['’]ll|i will|i shall|let me)")  # longest first: the first alternative that fits is taken
# Verbs that only say "this is my move"; a game's own verbs with another meaning ("draw" a card, "call" a bid) are not
# among them, so "I draw 7C" never reads as playing 7C: the game reads "draw 7C" itself, after the subject.
_CHOICE = r"(?:play|place|put|take|choose|pick|select|go with|go|move|make|try|guess|bid)"
_OBJECT = r"(?: (?:a|my|the) (?:stone|piece|disc|mark|card|guess|bid|move))?(?: (?:at|on|in|into|to))?"
_NAMING = r"my (?:next |final )?(?:move|choice|pick|play|guess|bid|offer|price|word|action|turn)(?: (?:is|will be):?|:)"
_OPENINGS = (
    re.compile(rf"^{_NAMING} (?=\S)", re.IGNORECASE),  # "My move is 4": the move itself follows
    re.compile(rf"^{_SUBJECT} (?=\S)", re.IGNORECASE),  # "I'll take 2 from heap A": the game's own command follows
    # After a bare "I" only a verb (a lower-case word): "I stand", never "I ABCD", where "I" may be a colour or a label.
    re.compile(r"^[Ii] (?=[a-z]{2,}\b)"),
    re.compile(rf"^(?:{_SUBJECT}|i) {_CHOICE}{_OBJECT} (?=\S)", re.IGNORECASE),  # "I play e2e4": the move follows
)


def sentence_move(read: Callable[[str], T | None]) -> Callable[[str], T | None]:
    """``read``, that also reads one move named in a sentence (``I play e2e4.``, ``I'll take 2 from heap A``,
    ``My move is **4**``): the move after the opening is read whole, with its own markup and closing full stop,
    by the grammar of :mod:`palaestra.verifiers.normalize`; the least the openings take off that ``read`` reads wins.

    >>> read = sentence_move(lambda s: s if s in ("e4", "take 2") else None)
    >>> read("I play e4."), read("I'll take 2"), read("My move is `e4`"), read("I play e4 or d4"), read("I won't play e4")
    ('e4', 'take 2', 'e4', None, None)
    """
    def core(text: str) -> T | None:
        value = read(text)
        if value is not None or len(text) > MAX_MOVE_CHARS:
            return value
        sentence = squeeze_spaces(unify(text)).strip()
        for opening in _OPENINGS:
            match = opening.match(sentence)
            if match:
                value = read_answer(sentence[match.end():], read)
                if value is not None:
                    return value
        return None

    return core


def read_move_answer(move: str, read: Callable[[str], T | None]) -> T | None:
    """``read`` applied to the one move of a game's reply: the answer grammar of
    :mod:`palaestra.verifiers.normalize` (``Move: e4``, ``**e4**``, ``e4.``) and a sentence's opening
    (:func:`sentence_move`); None for a reply longer than :data:`palaestra.core.multiturn.MAX_MOVE_CHARS`.

    >>> read_move_answer("**I play e4.**", lambda s: s if s == "e4" else None)
    'e4'
    """
    if not isinstance(move, str) or len(move) > MAX_MOVE_CHARS:
        return None
    return read_answer(move, sentence_move(read))


ARTICLES = frozenset(["the", "a", "an"])
_COMMAND_SPLIT = re.compile(r"[\s,;:]+")


def command_words(text: str, articles: bool = False) -> list[str]:
    """The lower-case words of a command, without quotes, a final full stop or (unless ``articles``) articles.

    Keep the articles where a one-letter label ``A`` could be taken for one.
    """
    s = squeeze_spaces(unify(text)).strip().lower().rstrip(".!").strip().strip("\"'`").strip()
    return [w for w in _COMMAND_SPLIT.split(s) if w and (articles or w not in ARTICLES)]


def read_command(move: str, parse: Callable[[list[str]], T | None], articles: bool = False) -> T | None:
    """``parse`` applied to the words of ``move`` (see :func:`command_words`), a benign trailing remark allowed;
    None for a move longer than :data:`palaestra.core.multiturn.MAX_MOVE_CHARS`."""
    if not isinstance(move, str) or len(move) > MAX_MOVE_CHARS:
        return None
    return read_answer(move, sentence_move(lambda text: parse(command_words(text, articles))))
