r"""Shared clean-up for every answer reader, and the one trailing-text rule.

The readers in this package (numbers, assignments, sets and lists, yes/no and fixed
options, multi-line blocks, moves) all read a model's final answer the way a careful
human grader does: notation that does not change the answer is looked through, text
that changes it is not. This module holds the parts they share, so every reader
treats wrappers and trailing remarks the same way.

Wrappers looked through (:func:`strip_wrappers`): ``\boxed{...}``, ``$...$``,
``$$...$$``, ``\(...\)``, ``\[...\]``, ``**...**``, ``\text{...}``, a one-block code
fence, matching quotes around the whole answer, and lead-ins such as ``Answer:``,
``The final answer is`` and ``Therefore,``.

The trailing-text rule
----------------------
An answer may end with a short remark: ``10. That is the total.`` reads as ``10``.
Text after the answer (its *tail*) is ignored only when all of these hold:

1. it starts at a break:

   - a sentence end: ``.`` or ``!`` (runs such as ``!!!`` too) followed by a space or the
     end, but not ``!`` after a digit (``10!`` is a factorial) and not an ellipsis
     (``3.14...`` trails off); a dash set off by spaces (``No — ...``); an opening
     parenthesis (``10 (the total)``);
   - a clause break ``,`` ``;`` ``:`` followed by at least two words (``10, that is
     all``; ``10, x`` is no remark), or one where symbols are allowed (rule 3: ``Yes,
     definitely``). Readers of several items (sets, assignments, moves) take no clause
     breaks, which separate their items: ``red, blue, green`` never drops ``green``;
   - a new line followed by a sentence of at least two words ending in ``.`` or ``!``
     (not one more line of items);
2. it is at most :data:`MAX_TAIL_CHARS` characters long;
3. it holds no maths: none of ``= < > + * / ^ \ { } [ ] | $ ≈ ~ ± × ÷ ? ` ``, no digits
   and nothing that looks like a symbol rather than prose: a lone letter other than
   ``a``/``I``, or a word in capitals (``10, x`` and ``U, RRDD`` are not remarks). A reader
   whose answer symbols cannot change (yes/no, a fixed option) may allow digits and
   symbols (``Yes, by premises 1 and 2.``);
4. it holds no hedging or correcting word (:data:`HEDGE_WORDS`: ``or``, ``maybe``,
   ``wait``, ``actually``, ``approximately``, ...) and none of the reader's own answer
   words (another option, a number word, a name being assigned).

Otherwise the tail is part of the answer, and the reader fails to read the whole:
``(8 + 4) * 7 = 85`` is not read as ``(8 + 4) * 7``; ``10, or maybe 12`` and
``x = 2 (or 3)`` are unreadable. A reader first tries the whole text; only when that
fails does it try dropping a tail (:func:`read_with_tail`), so a tail can never change
what is read, it can only make an answer readable or not.

Example::

    >>> strip_wrappers(r"The final answer is $\boxed{10}$")
    '10'
    >>> read_with_tail("10. That is the total.", lambda s: s if s.isdigit() else None)
    '10'
    >>> read_with_tail("10, or maybe 12", lambda s: s if s.isdigit() else None) is None
    True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator
from typing import TypeVar

T = TypeVar("T")

MAX_TAIL_CHARS = 120
MAX_TAIL_TRIES = 6  # breaks tried, nearest the end first: bounds the work on hostile text
MAX_WRAPPER_PASSES = 8

HEDGE_WORDS = frozenset(
    """or nor maybe perhaps possibly probably likely unlikely unless either alternatively otherwise wait actually
    but however although though except instead rather unsure uncertain guess approximately approx roughly about
    around nearly almost circa if assuming oops sorry correction mistake wrong incorrect hmm unclear""".split()
)
NUMBER_WORDS = frozenset(
    """zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen
    seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred hundreds thousand
    thousands million millions billion billions trillion half halves third thirds quarter quarters dozen percent
    cent minus plus negative times squared cubed over point degree degrees""".split()
)
UNIT_WORDS = frozenset(
    """s sec secs second seconds min mins minute minutes h hr hrs hour hours day days m metre metres meter meters
    km kilometre kilometres kilometer kilometers cm mm kg g gram grams kilogram kilograms n newton newtons kn
    kilonewton kilonewtons j joule joules w watt watts l litre litres liter liters ml mph kph rad radian radians
    dollar dollars euro euros""".split()
)

_SPACE_CHARS = "\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000\t"
_UNIFY = str.maketrans(
    {**dict.fromkeys(_SPACE_CHARS, " "), **dict.fromkeys("\u200b\u200c\u200d\u2060\ufeff", None),
     "\u2212": "-", "\ufe63": "-", "\uff0d": "-", "\r": None}
)
_MATHY = frozenset("=<>+*/^\\{}[]|$≈~±×÷?`≤≥≠∈∪∩")
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_SENTENCE_BREAK = r"(?<![.!])(?:\.|(?<!\d)!)[.!]*(?=\s|$)|[ ]+[-–—]+(?=\s)|—|[ ]*\n|[ ]*\("
_BREAKS = {True: re.compile(rf"[;:,](?=\s|$)|{_SENTENCE_BREAK}"), False: re.compile(_SENTENCE_BREAK)}

_LEAD_INS = (
    re.compile(r"^(?:so|thus|therefore|hence)\b\s*,?\s*", re.IGNORECASE),
    re.compile(r"^\**\s*(?:my\s+)?(?:next\s+)?(?:move|guess|bid)\s*\**\s*:\s*\**\s*(?=\S)", re.IGNORECASE),  # "Move: c4"
    re.compile(
        r"^\**\s*(?:the\s+)?(?:final\s+)?(?:answers?|results?)\b\s*(?:(?:is|are)\b)?\s*\**\s*[:=]?\s*\**\s*(?=\S)",
        re.IGNORECASE,
    ),
    # "The coefficient is 27/4.", "The minimum cost is 7", "The area of the triangle is 6": a named quantity, then
    # "is"/"equals"; what follows must still be read by the env's own reader ("is not 5" stays unreadable).
    re.compile(
        r"^\**\s*the\s+(?:[a-z-]+\s+){0,3}?(?:value|probability|coefficient|area|volume|length|perimeter|determinant|"
        r"limit|integral|derivative|sum|product|total|number|count|minimum|maximum|median|mean|average|variance|"
        r"distance|cost|weight|time|speed|force|solution|remainder|quotient|ratio|determinant|rank|size|height|"
        r"output|expression)\b(?:\s+(?:of|for)\s+[^\n=:]{1,40}?)?\s+(?:is|equals)\s+\**\s*(?=\S)",
        re.IGNORECASE,
    ),
)
_DELIMITERS = (("```", "```"), ("$$", "$$"), ("\\[", "\\]"), ("\\(", "\\)"), ("$", "$"), ("**", "**"), ("`", "`"))
_QUOTES = (('"', '"'), ("'", "'"), ("“", "”"), ("‘", "’"))
_COMMANDS = ("\\boxed", "\\fbox", "\\text", "\\textbf", "\\mathrm", "\\mathbf", "\\textrm", "\\mbox")
_CLOSERS = {"(": ")", "[": "]", "{": "}"}
_SPACE_RUN = re.compile(r"[ \t]+")
_BLANK_LINES = re.compile(r" ?\n[ \n]*")
_WRAPPER_STARTS = frozenset("`~$\\*\"'“‘")
_LEAD_IN_WORD = re.compile(r"(?:so|thus|therefore|hence|the|final|answers?|results?|my|next|move|guess|bid)\b", re.IGNORECASE)
_FENCE_OPEN = re.compile(r"^(`{3,}|~{3,})[^\n`]*\n")


def unify(text: str) -> str:
    """Unicode look-alikes made plain: other spaces become ``' '``, zero-width marks go,
    ``−`` (and other minus signs) become ``-``, ``\\r`` goes.

    >>> unify("−7\\u00a0m\\r\\n")
    '-7 m\\n'
    """
    return text.translate(_UNIFY)


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
    for i in range(start, len(text)):
        char = text[i]
        if char == opener:
            depth += 1
        elif char == closer:
            depth -= 1
            if depth == 0:
                return i
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
    for pattern in _LEAD_INS:
        stripped = pattern.sub("", s, count=1)
        if stripped != s:
            return stripped.strip()
    fence = _FENCE_OPEN.match(s)
    if fence and s.endswith(fence.group(1)) and len(s) > fence.end() + len(fence.group(1)) - 1:
        inner = s[fence.end() : len(s) - len(fence.group(1))]
        if "```" not in inner and "~~~" not in inner:
            return inner.strip()
    for command in _COMMANDS:
        if s.startswith(command + "{") and s.endswith("}") and closing_bracket(s, len(command)) == len(s) - 1:
            return s[len(command) + 1 : -1].strip()
    for left, right in _DELIMITERS:
        if len(s) > len(left) + len(right) and s.startswith(left) and s.endswith(right):
            inner = s[len(left) : -len(right)]
            if left not in inner and right not in inner:
                return inner.strip()
    for left, right in _QUOTES:
        if len(s) >= 3 and s[0] == left and s[-1] == right and left not in s[1:-1] and right not in s[1:-1]:
            return s[1:-1].strip()
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


def _label_like(word: str) -> bool:
    """A lone letter other than ``a``/``I`` or an all-capitals word: a symbol, move or name, not prose."""
    return (len(word) == 1 and word.lower() not in "ai") or (len(word) > 1 and word.isupper())


def is_benign_tail(
    tail: str, *, symbols: bool = False, answer_words: Collection[str] = (), labels: Collection[str] = ()
) -> bool:
    """Whether ``tail``, the text after an answer, is a short remark that cannot change it.

    ``symbols``: whether digits and symbol-like words (``P``, ``H3``) may appear, for answers
    they cannot change (yes/no); ``answer_words``: lower-case
    words (or word sequences joined by one space) that would name a different answer;
    ``labels``: exact-case tokens that would (see :func:`mentions`).

    >>> is_benign_tail(". That is the total."), is_benign_tail(", or maybe 12"), is_benign_tail(" = 85")
    (True, False, False)
    """
    t = tail.strip()
    if len(t) > MAX_TAIL_CHARS or t.startswith(("..", "…")):
        return False  # an ellipsis trails off: "3.14..." is a truncation, not a full stop
    lead = tail.lstrip(" ")[:1]
    t = t.lstrip(".!;:,-–— \n")
    if not t:
        return True
    if any(char in _MATHY for char in t):
        return False
    if not symbols and (any(char.isdigit() for char in t) or any(_label_like(w) for w in _WORD.findall(t))):
        return False
    tail_words = words(t)
    if lead in ",;:" and len(tail_words) < 2 and not symbols:
        return False  # a clause, not one more item or symbol
    if lead == "\n" and (len(tail_words) < 2 or t[-1] not in ".!"):
        return False  # a sentence on its own line, not a last line of items
    if any(w in HEDGE_WORDS or w in answer_words for w in tail_words) or mentions(t, labels):
        return False
    phrases = [w for w in answer_words if " " in w]
    if phrases:
        joined = " " + " ".join(tail_words) + " "
        return not any(f" {phrase} " in joined for phrase in phrases)
    return True


def tail_splits(text: str, *, clauses: bool = True) -> Iterator[tuple[str, str]]:
    """Ways to cut ``text`` into ``(answer, tail)`` at a break, the longest answer first.

    Only breaks within :data:`MAX_TAIL_CHARS` of the end are tried, at most
    :data:`MAX_TAIL_TRIES` of them, so the cost is bounded whatever the text.
    ``clauses=False``: no cuts at ``,`` ``;`` ``:`` (for readers whose items they separate).

    >>> list(tail_splits("Yes, it is entailed."))
    [('Yes, it is entailed', '.'), ('Yes', ', it is entailed.')]
    """
    window = max(0, len(text) - MAX_TAIL_CHARS - 8)
    starts = [m.start() for m in _BREAKS[clauses].finditer(text, window)]
    tried = 0
    for start in reversed(starts):
        answer = text[:start].rstrip()
        if not answer:
            continue
        yield answer, text[start:]
        tried += 1
        if tried >= MAX_TAIL_TRIES:
            return


def read_with_tail(
    text: str,
    read: Callable[[str], T | None],
    *,
    symbols: bool = False,
    answer_words: Collection[str] = (),
    labels: Collection[str] = (),
    clauses: bool = True,
) -> T | None:
    """``read`` applied to ``text`` without wrappers; failing that, to ``text`` without a benign tail.

    This is the trailing-text rule of the module docstring, in one place. ``read`` gets
    the candidate answer with :func:`strip_wrappers` applied and returns ``None`` when it
    cannot read it. ``symbols``, ``answer_words``, ``labels``: see :func:`is_benign_tail`;
    ``clauses``: see :func:`tail_splits`.

    >>> read_with_tail(r"\\boxed{7}. Done.", lambda s: int(s) if s.isdigit() else None)
    7
    """
    whole = strip_wrappers(text)
    value = read(whole)
    if value is not None:
        return value
    for answer, tail in tail_splits(whole, clauses=clauses):
        if is_benign_tail(tail, symbols=symbols, answer_words=answer_words, labels=labels):
            value = read(strip_wrappers(answer))
            if value is not None:
                return value
    return None


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


_LATEX_SPACES = re.compile(r"\\[,;:! ]|\\q?quad\b")
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
    r"""Presentation-only LaTeX made plain: spacing commands, ``\left``/``\right``, ``\text{}``,
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
