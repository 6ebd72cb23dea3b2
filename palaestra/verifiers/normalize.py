r"""Shared clean-up for every answer reader, and the one answer grammar.

The readers in this package (numbers, assignments, sets and lists, yes/no and fixed
options, multi-line blocks, moves) all read a model's final answer the way a careful
human grader does: notation that does not change the answer is looked through, and
text that could change it is not read past. This module holds the parts they share, so
every reader accounts for an answer block the same way.

The answer grammar
------------------
An answer block is accepted only when *all* of its text is accounted for by::

    block    = lead-in? answer unit? closing?
    lead-in  = "Answer:" | "Solution:" | "Final answer:" | "The (final) answer is" | "My (final) answer is" | "So,"
             | "Thus," | "Therefore," | "Hence," | "Move:" | "The <named quantity> is/are/equals" (a naming sentence:
               "The area of the triangle is", "The survivor is") | "There is/are"
             | "It is" | "x =" (a name and "=", read by the readers that take one: numbers, values)
    answer   = what the reader reads (a number, a set, an assignment, a grid, a move ...)
    unit     = one of the units or nouns the reader declares ("m/s", "shortest paths"),
               never a free word
    closing  = one "." or "!" (not "!" after a digit: ``10!`` is a factorial), and markup
               around any of the above: ``\boxed{}``, ``$...$``, ``**...**``, backticks, a
               one-block code fence, quotes

Anything else is text the grammar cannot account for, and the answer is unparsed, with
feedback naming what was not understood. There is no list of "harmless" remarks: a
remark after the answer (``10. That is the total.``), a parenthetical (``10 (the
total)``), a justification (``Yes, by premises 1 and 2.``), a retraction (``4. That is
not the answer.``, ``yes. I take it back.``, a last line ``Just kidding, I do not
know.``), a hedge (``10, or maybe 12``) and a second answer (``x = 2 (or 3)``) are all
refused alike, because a grader cannot tell a remark from a retraction without reading
it, and a reward that reads past remarks pays for retractions. A reader first tries the
whole block; only when that fails does it try the block without its closing or unit
(:func:`read_answer`), so neither can change what is read.

Examples (``read`` a reader of digits, ``units`` a declared noun)::

    accepted                                   unparsed
    10                                         10. That is the total.
    Answer: **10**.                            10 (the total)
    \boxed{10}                                 4. That is not the answer.
    The number of shortest paths is 10.       10, or maybe 12
    There are 10 shortest paths.               10\nJust kidding, I do not know.
    `10`!                                      I think it is 10
    **The answer is 10**                       **10** or **12**

    >>> strip_wrappers(r"The final answer is $\boxed{10}$")
    '10'
    >>> read_answer("**10**.", lambda s: s if s.isdigit() else None)
    '10'
    >>> read_answer("10. That is the total.", lambda s: s if s.isdigit() else None) is None
    True
    >>> read_answer("There are 10 shortest paths.", lambda s: s if s.isdigit() else None, units=["shortest paths"])
    '10'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator, Sequence
from functools import lru_cache
from typing import TypeVar

import numpy as np

T = TypeVar("T")

MAX_WRAPPER_PASSES = 8
MAX_UNITS = 32  # declared units tried per answer: bounds the work whatever a caller passes

_SPACE_CHARS = "\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000\t"
_UNIFY = str.maketrans(
    {**dict.fromkeys(_SPACE_CHARS, " "), **dict.fromkeys("\u200b\u200c\u200d\u2060\ufeff", None),
     "\u2212": "-", "\ufe63": "-", "\uff0d": "-", "\u2044": "/", "\u2215": "/", "\r": None}
)
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
# Bold markup around a lead-in ("**Answer:** 7", "**Answer**: 7"): closing stars are taken only when opening ones
# were, so "Answer: **7**" keeps the answer's own bold pair, and one star is never markup ("*" marks a cell).
_OPEN_BOLD = r"(?P<bold>\*\*)?"
_CLOSE_BOLD = r"(?(bold)(?:\*\*)?)"

# Words that make a naming sentence no naming sentence (an alternation for a regex): they hedge, negate, join a
# second quantity or are verbs ("The wrong value is 5", "Maybe the charge is 5", "The charge or the voltage is").
NOT_IN_NAME = (
    "not|no|non|none|never|neither|nor|wrong|incorrect|false|invalid|cannot|isn't|aren't|wasn't|"
    "maybe|perhaps|probably|possibly|likely|unlikely|presumably|supposedly|apparently|guess|think|believe|suppose|"
    "assume|unsure|uncertain|if|unless|whether|might|may|could|would|should|must|can|will|shall|"
    "or|and|either|but|except|instead|rather|alternatively|other|another|else|than|versus|vs|"
    "is|are|was|were|be|been|being|equals?|equalling|"
    "approximate|approximately|approx|about|around|roughly|nearly|almost|estimated?|circa|"
    "i|we|you|he|she|they|it|me")
_LEAD_INS = (
    re.compile(r"^(?:so|thus|therefore|hence)\b\s*,?\s*", re.IGNORECASE),
    re.compile(rf"^{_OPEN_BOLD}\s*(?:my\s+)?(?:next\s+)?(?:move|guess|bid)\s*{_CLOSE_BOLD}\s*:\s*{_CLOSE_BOLD}\s*(?=\S)",
               re.IGNORECASE),  # "Move: c4"
    re.compile(
        rf"^{_OPEN_BOLD}\s*(?:(?:the|my)\s+)?(?:final\s+)?(?:answers?|results?|solutions?)\b\s*(?:(?:is|are)\b)?\s*{_CLOSE_BOLD}\s*[:=]?"
        rf"\s*{_CLOSE_BOLD}\s*(?=\S)",
        re.IGNORECASE,
    ),
    # A naming sentence: "The coefficient is 27/4.", "The area of the triangle is 6", "The survivor is badge 8", "The
    # digits are 807", "An antiderivative is x^2": a named quantity from a fixed list (or its plural), then
    # "is"/"are"/"equals"; what follows must
    # still be read whole by the env's reader ("is not 5" stays unreadable). Sentences with another subject ("The culprit is Ann") are left to the env.
    re.compile(
        rf"^(?:the|an?)\s+(?:(?!(?:{NOT_IN_NAME})\s)[a-z-]+\s+){{0,3}}?(?:value|probability|coefficient|area|volume|length|perimeter|"
        r"determinant|limit|integral|derivative|sum|product|total|number|count|minimum|maximum|median|mean|average|"
        r"variance|distance|cost|weight|time|speed|force|solution|remainder|quotient|ratio|rank|size|height|output|"
        r"expression|survivor|winner|angle|digit|position|index|term|date|price|profit|root|gcd|lcm|divisor|"
        r"multiple|inverse|factori[sz]ation|form|antiderivative|polynomial|expansion|fraction|centre|center|radius|"
        r"range|mode|deviation|z-score|hypotenuse|leg|side|altitude|circumradius|inradius|sine|cosine)s?\b"
        r"(?:\s+(?:of|for)\s+[^\n=:]{1,40}?)?\s+(?:is|are|equals?)\s+(?=\S)",
        re.IGNORECASE,
    ),
    re.compile(r"^there\s+(?:is|are)\s+(?:exactly\s+)?(?=\S)", re.IGNORECASE),  # "There are 3 shortest paths."
    re.compile(r"^it(?:\s+is|['’]s)\s+(?=\S)", re.IGNORECASE),  # "It is 19." (what follows is still read whole)
)
_DELIMITERS = (("```", "```"), ("$$", "$$"), ("\\[", "\\]"), ("\\(", "\\)"), ("$", "$"), ("**", "**"), ("`", "`"))
_QUOTES = (('"', '"'), ("'", "'"), ("“", "”"), ("‘", "’"))
_COMMANDS = ("\\boxed", "\\fbox", "\\text", "\\textbf", "\\mathrm", "\\mathbf", "\\textrm", "\\mbox")
_CLOSERS = {"(": ")", "[": "]", "{": "}"}
_SCANNED_IN_PYTHON = 256  # characters a bracket scan reads in a loop before numpy, whose setup costs more on short texts
_SPACE_RUN = re.compile(r"[ \t]+")
_BLANK_LINES = re.compile(r" ?\n[ \n]*")
_WRAPPER_STARTS = frozenset("`~$\\*\"'“‘")
_WRAPPER_ENDS = frozenset("`$*}\"'”’)]")
_LEAD_IN_WORD = re.compile(r"(?:so|thus|therefore|hence|the|an?|there|it|final|answers?|results?|solutions?|my|next|move|guess|bid)\b",
                           re.IGNORECASE)
_FENCE_OPEN = re.compile(r"^(`{3,}|~{3,})[^\n`]*\n")


def unify(text: str) -> str:
    """Unicode look-alikes made plain: other spaces become ``' '``, zero-width marks go,
    ``−`` (and other minus signs) become ``-``, the fraction and division slashes ``⁄ ∕`` become ``/``, ``\\r`` goes.

    >>> unify("−7\\u00a0m\\r\\n")
    '-7 m\\n'
    """
    return text.translate(_UNIFY)


@lru_cache(maxsize=16)  # the readers an env tries unwrap the same texts: a hostile answer nested in many wrappers
def closing_bracket(text: str, start: int) -> int:
    """Index of the bracket closing the one at ``text[start]`` (``(``, ``[`` or ``{``), or -1.

    Linear in the distance scanned; other bracket kinds inside are not checked.

    >>> closing_bracket("{a{b}c}d", 0)
    6
    """
    if not 0 <= start < len(text) or text[start] not in _CLOSERS:
        return -1
    opener = text[start]
    closer = _CLOSERS[opener]
    depth = 0
    for i in range(start, min(len(text), start + _SCANNED_IN_PYTHON)):
        char = text[i]
        if char == opener:
            depth += 1
        elif char == closer:
            depth -= 1
            if depth == 0:
                return i
    # Past the first few hundred characters numpy scans: the wrapper readers unwrap a hostile answer nested a thousand
    # deep once per layer, and a Python loop over each layer's whole text cost ~1 ms per 8,000 characters.
    position, size = start + _SCANNED_IN_PYTHON, _SCANNED_IN_PYTHON
    while position < len(text):  # each pass moves on by a block four times the last
        size *= 4
        block = text[position : position + size]
        codes = np.frombuffer(block.encode("latin-1", "replace"), dtype=np.uint8)  # one byte per character
        depths = depth + np.cumsum((codes == ord(opener)).astype(np.int64) - (codes == ord(closer)))
        closed = np.flatnonzero(depths == 0)
        if closed.size:
            return position + int(closed[0])
        depth = int(depths[-1])
        position += len(block)
    return -1


def enclosed(text: str, brackets: str = "([{") -> bool:
    """Whether all of ``text`` is one bracketed group opened by one of ``brackets``.

    >>> enclosed("{1, 2}"), enclosed("{1}, {2}"), enclosed(""), enclosed("(1)", "[{")
    (True, False, False, False)
    """
    return text[:1] != "" and text[0] in brackets and closing_bracket(text, 0) == len(text) - 1


def _unwrap_once(s: str) -> str:
    if s[:1] not in _WRAPPER_STARTS and not _LEAD_IN_WORD.match(s):
        return s  # the common case, decided without trying every wrapper
    fence = _FENCE_OPEN.match(s)
    if fence and s.endswith(fence.group(1)) and len(s) > fence.end() + len(fence.group(1)) - 1:
        inner = s[fence.end() : len(s) - len(fence.group(1))]
        if "```" not in inner and "~~~" not in inner:
            return inner.strip()
    # A full stop or "!" just after a wrapper closes the sentence: it is outside the wrapper, so never the answer's
    # ("**acyclic: 0 2 1**.", "\boxed{7}."); the wrapper is looked at without it.
    body = s[:-1] if s[-1:] in ".!" and s[-2:-1] in _WRAPPER_ENDS else s
    # A pair around the whole text before a lead-in: "**Answer: 7**" is bold around a lead-in and its answer (the lead-in's
    # own bold pattern would take the opening stars and leave the closing ones on the answer).
    for left, right in _DELIMITERS:
        if len(body) > len(left) + len(right) and body.startswith(left) and body.endswith(right):
            inner = body[len(left) : -len(right)]
            if left not in inner and right not in inner:
                return inner.strip()
    for pattern in _LEAD_INS:
        stripped = pattern.sub("", s, count=1)
        if stripped != s:
            return stripped.strip()
    for command in _COMMANDS:
        if body.startswith(command + "{") and body.endswith("}") and closing_bracket(body, len(command)) == len(body) - 1:
            return body[len(command) + 1 : -1].strip()
    for left, right in _QUOTES:
        if len(body) >= 3 and body[0] == left and body[-1] == right and left not in body[1:-1] and right not in body[1:-1]:
            return body[1:-1].strip()
    return s


def strip_wrappers(text: str) -> str:
    r"""``text`` without whole-answer wrappers and lead-ins, repeatedly, then stripped.

    Only wrappers around the *whole* text are removed: ``\boxed{1} + 1`` stays as it is.

    >>> strip_wrappers(r"**Answer:** $\boxed{\text{Yes}}$")
    'Yes'
    >>> strip_wrappers("```\n42\n```")
    '42'
    """
    s = text.strip()
    for _ in range(MAX_WRAPPER_PASSES):
        unwrapped = _unwrap_once(s)
        if unwrapped == s:
            break
        s = unwrapped
    return s


def words(text: str) -> list[str]:
    """The lower-cased words of ``text`` (letters, with inner apostrophes).

    >>> words("It isn't 7 m/s!")
    ['it', "isn't", 'm', 's']
    """
    return [w.lower() for w in _WORD.findall(text)]


def mentions(text: str, labels: Collection[str]) -> bool:
    """Whether one of ``labels`` stands in ``text`` as a token of its own, spelled exactly (case too).

    For one-letter labels such as options ``A``-``D`` or pegs ``A``-``C``, where the
    lower-case word ``a`` is an article, not a label.

    >>> mentions("not B", ["B"]), mentions("a big one", ["A", "B"])
    (True, False)
    """
    return any(re.search(rf"(?<![^\W_]){re.escape(label)}(?![^\W_])", text) for label in labels if label)


_MARKUP_ONLY = re.compile(r"[\s*_`$]*")


def is_closing(text: str) -> bool:
    """Whether ``text``, found after an answer, is only closing punctuation and markup (the grammar's ``closing``).

    >>> is_closing(" ."), is_closing("**!**"), is_closing(""), is_closing(". That is the total."), is_closing("...")
    (True, True, True, False, False)
    """
    if len(text) > 200:
        return False
    bare = _MARKUP_ONLY.sub("", text)
    return bare in ("", ".") or bare == "!" * len(bare)


def without_closing(text: str) -> str:
    """``text`` without one closing full stop or ``!`` (and wrappers inside it), or ``text`` itself.

    >>> without_closing("**7**."), without_closing("10!"), without_closing("3.14..."), without_closing("7")
    ('7', '10!', '3.14...', '7')
    """
    # One full stop, or "!" (a run for emphasis), not after a digit ("10!" is a factorial); "3.14..." trails off.
    # Read from the end only: the answer block may be a megabyte long.
    body = text.rstrip()
    if body.endswith("!"):
        head = body.rstrip("!")
        return text if head[-1:].isdigit() or head.endswith(".") else strip_wrappers(head)
    if body.endswith(".") and not body[:-1].endswith((".", "!")):
        return strip_wrappers(body[:-1])
    return text


def unit_endings(text: str, units: Sequence[str]) -> Iterator[tuple[str, str]]:
    """``(answer, unit)`` for each declared unit ``text`` ends with (longest first), set off from the answer by a
    space (a unit that starts with a symbol, ``°`` or ``%``, may also follow it directly); the answer's own markup
    removed (``**6** s``, ``\\boxed{21} paths``).

    >>> list(unit_endings("**6** s", ["s", "m/s"]))
    [('6', 's')]
    """
    lowered = text.lower()
    for unit in sorted(units, key=len, reverse=True)[:MAX_UNITS]:
        if unit and lowered.endswith(unit.lower()):
            head = text[: len(text) - len(unit)]
            if head.endswith(" ") or (head and not unit[:1].isalnum()):
                answer = strip_wrappers(head)
                if answer:
                    yield answer, text[len(head):]


def read_answer(text: str, read: Callable[[str], T | None], *, units: Sequence[str] = ()) -> T | None:
    """``read`` applied to the answer the grammar of the module docstring finds in ``text``, or ``None``.

    Lead-ins and wrappers go first (:func:`strip_wrappers`); ``read`` gets the rest whole,
    then, only if that fails, without its closing punctuation, and without one of the
    declared ``units`` (nouns or units that may follow the answer: ``"m/s"``,
    ``"shortest paths"``). ``read`` returns ``None`` when it cannot read its text; nothing
    else is dropped, so a remark, a retraction or a second answer leaves the text unreadable.

    >>> read_answer(r"\\boxed{7}.", lambda s: int(s) if s.isdigit() else None)
    7
    >>> read_answer("7. Done.", lambda s: int(s) if s.isdigit() else None) is None
    True
    """
    whole = strip_wrappers(text)
    value = read(whole)
    if value is not None:
        return value
    bare = without_closing(whole)
    if bare != whole:
        value = read(bare)
        if value is not None:
            return value
    for answer, _ in unit_endings(bare, units):
        value = read(answer)
        if value is not None:
            return value
    return None


MAX_RESTATED_CHARS = 400  # longer answers are not split into restatements
MAX_RESTATEMENTS = 4  # parts of an answer written more than once
# where an answer starts again: "42 m. Answer: 42 m", "42 m; so the answer is 42 m", "42 m\nFinal answer: 42 m"
_RESTATING = re.compile(r"\s*(?:[.;,]\s*|\n\s*)(?=(?:so|thus|hence|therefore|(?:the\s+|my\s+)?(?:final\s+)?answer)\b)",
                        re.IGNORECASE)


def restated(text: str, read: Callable[[str], T | None]) -> T | None:
    """The value of an answer written more than once (``42 m. Answer: 42 m``, ``Friday 12:14. So the answer is
    Friday 12:14.``): each part, split where a lead-in starts again, read by ``read`` (through the grammar of
    the module docstring) to one same value; else None. Two different values are a second answer, and a part
    ``read`` cannot read (a hedge, a retraction) leaves the whole unread."""
    if not isinstance(text, str) or len(text) > MAX_RESTATED_CHARS:
        return None
    parts = _RESTATING.split(text.strip())
    if not 2 <= len(parts) <= MAX_RESTATEMENTS:
        return None
    values = [read(part) for part in parts]
    first = values[0]
    return first if first is not None and all(value == first for value in values) else None


_NEGATING = r"(?:no|not|never|wrong|incorrect|false|invalid)\b"  # words that deny the name they stand before


def named(read: Callable[[str], T | None], subject: str) -> Callable[[str], T | None]:
    """``read``, that also reads the answer of a naming sentence about ``subject`` (a regular expression of nouns
    written by the env, never by the model): "The smallest period is 12", "The shortest path from A to D: A C D",
    "The suffix array is [2, 0, 1]".

    The sentence must be the whole text: the answer after it is read whole, so a remark, a hedge or a
    retraction after it leaves the text unreadable, as everywhere in the answer grammar.

    The name may be in bold (``**Period:** 12``); a name negated ("Not the period: 12", "The wrong period is 12")
    says the answer is something else, and is not read.

    >>> read = named(lambda s: int(s) if s.isdigit() else None, "period")
    >>> read("12"), read("The smallest period is 12"), read("the period is 12, or 6"), read("The period: 12")
    (12, 12, None, 12)
    >>> read("**Period:** 12"), read("Not the period: 12")
    (12, None)
    """
    pattern = re.compile(r"^(?P<bold>\*\*)?(?:(?:the|an?|one)\s+)?(?:(?!" + _NEGATING + r")[a-z-]+\s+){0,3}?(?:" + subject
                         + r")\b(?:\s+(?:of|for|from)\s+[^\n=:*]{1,40}?)?\s*(?(bold)(?:\*\*)?)\s*"
                         r"(?:is|are|equals?|=|:|,|—|–)\s*(?(bold)(?:\*\*)?)\s*(?=\S)", re.IGNORECASE)

    def core(text: str) -> T | None:
        value = read(text)
        if value is not None:
            return value
        match = pattern.match(text[:200])  # a sentence's subject is short: the pattern never sees a long text
        return read(strip_wrappers(text[match.end():])) if match else None

    return core


def unparsed_feedback(text: str, what: str) -> str:
    """Feedback for an answer the grammar could not account for: what was expected, and the text not understood.

    >>> unparsed_feedback("4. That is not the answer.", "a whole number")[:59]
    "could not read a whole number in '4. That is not the answer"
    """
    shown = text.strip()
    shown = shown if len(shown) <= 80 else shown[:60] + " ... " + shown[-15:]
    return (f"could not read {what} in {shown!r}: the answer block must hold only the answer (an optional lead-in "
            "such as 'Answer:', the answer, an optional unit, closing punctuation); remarks, retractions and second "
            "answers are not read past")


_BULLETED_LINE = re.compile(r"^[ \t]*([-*•])[ \t]+")


def without_bullets(text: str) -> str:
    """``text`` without its bullets when every line (two or more) starts with the same one (``- A->C``, ``* U``).

    >>> without_bullets("- A->C\\n- A->B"), without_bullets("- A->C\\n* A->B"), without_bullets("- A->C")
    ('A->C\\nA->B', '- A->C\\n* A->B', '- A->C')
    """
    lines = text.split("\n") if 0 < text.count("\n") <= 2_000 else None
    if lines is None:
        return text
    marks = [_BULLETED_LINE.match(line) for line in lines]
    if not all(marks) or len({m.group(1) for m in marks if m}) != 1:
        return text
    return "\n".join(line[m.end() :] for line, m in zip(lines, marks, strict=True) if m)


def squeeze_spaces(text: str) -> str:
    r"""Runs of spaces made one space and blank lines dropped, so later patterns meet no long runs.

    >>> squeeze_spaces("a   b \n\n  c")
    'a b\nc'
    """
    return _BLANK_LINES.sub("\n", _SPACE_RUN.sub(" ", text))


def split_top_level(text: str, separator: re.Pattern[str], limit: int | None = None) -> list[tuple[str, str]]:
    """``text`` cut at the matches of ``separator`` outside ``()``, ``[]`` and ``{}``.

    Returns ``(separator_before, piece)`` pairs (the first separator is ``''``) so a
    caller can glue pieces back together. Brackets are counted between separators (in
    C, by ``str.count``), so the cost grows with the number of separators, not of
    brackets; with ``limit``, cutting stops after more than ``limit`` pieces and the rest
    is one last piece (the caller then knows there are too many). Closing brackets with
    nothing open count as depth 0.

    >>> split_top_level("a, f(b, c); d", re.compile(r"\\s*[,;]\\s*"))
    [('', 'a'), (', ', 'f(b, c)'), ('; ', 'd')]
    """
    pieces: list[tuple[str, str]] = []
    depth, scanned, piece_start, before = 0, 0, 0, ""
    for match in separator.finditer(text):
        if match.end() == match.start():
            continue
        between = text[scanned : match.start()]
        depth += sum(between.count(b) for b in "([{") - sum(between.count(b) for b in ")]}")
        depth, scanned = max(0, depth), match.start()
        if depth == 0:
            pieces.append((before, text[piece_start : match.start()]))
            before, piece_start = match.group(), match.end()
            if limit is not None and len(pieces) > limit:
                break  # the rest stays one last piece: nothing is lost, and there are too many pieces
    pieces.append((before, text[piece_start:]))
    return pieces


_LATEX_SPACES = re.compile(r"\\[,;:! ]|\\q?quad\b|\\(?:display|text|script)style\b")  # spacing and style only
_LATEX_SIZING = re.compile(r"\\(?:left|right|big|Big|bigg|Bigg)(?=[()\[\]{}|.]|\\[{}])\.?")
_LATEX_TEXT = re.compile(r"\\(?:text|textrm|textbf|mathrm|mathbf|mbox|operatorname)\s*\{((?:[^{}]|\{[^{}]*\})*)\}")
_LATEX_SYMBOLS = {
    "\\{": "{", "\\}": "}", "\\times": "×", "\\cdot": "·", "\\approx": "≈", "\\simeq": "≃", "\\sim": "~",
    "\\in": "∈", "\\emptyset": "∅", "\\varnothing": "∅", "\\pm": "±", "\\%": "%", "\\circ": "°", "\\infty": "∞",
    "\\dfrac": "\\frac", "\\tfrac": "\\frac", "\\cfrac": "\\frac", "\\le": "≤", "\\ge": "≥", "\\leq": "≤",
    "\\geq": "≥", "\\neq": "≠",
}
_LATEX_SYMBOL = re.compile("|".join(re.escape(k) + (r"(?![A-Za-z])" if k[-1].isalpha() else "")
                                    for k in sorted(_LATEX_SYMBOLS, key=len, reverse=True)))


def simplify_latex(text: str) -> str:
    r"""Presentation-only LaTeX made plain: spacing commands, ``\displaystyle``, ``\left``/``\right``, ``\text{}``,
    ``\{ \}``, ``\\`` (to a new line), ``\dfrac``/``\tfrac`` (to ``\frac``), and symbols such as ``\times``, ``\in``,
    ``\emptyset``, ``\approx`` (to ``×``, ``∈``, ``∅``, ``≈``). ``{,}`` becomes ``,``.

    >>> simplify_latex(r"x \in \left\{ 1{,}000,\ 2 \right\}")
    'x ∈ { 1,000, 2 }'
    """
    if "\\" not in text and "{," not in text:
        return text
    s = _LATEX_SIZING.sub("", text.replace("\\\\", "\n"))
    s = _LATEX_SPACES.sub(" ", s)
    s = _LATEX_TEXT.sub(lambda m: m.group(1), s)
    s = _LATEX_SYMBOL.sub(lambda m: _LATEX_SYMBOLS[m.group()], s)
    return s.replace("{,}", ",")


def markup_spellings(answer: str) -> list[str]:
    r"""``answer`` in the notations the grammar looks through, for an env's ``spellings()``: ``\boxed{}``, a
    full stop, bold, backticks and an ``Answer:`` lead-in.

    >>> markup_spellings("7")
    ['\\boxed{7}', '7.', '**7**', '`7`', 'Answer: 7']
    """
    return [f"\\boxed{{{answer}}}", f"{answer}.", f"**{answer}**", f"`{answer}`", f"Answer: {answer}"]
