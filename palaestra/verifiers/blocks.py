r"""Reading multi-line answers: program output, text blocks and grids.

Whitespace significance is the caller's to state, per env, and both the answer and the
expected text go through the same policy:

- ``leading``: ``"keep"`` (significant: `` 8`` is not ``8``), ``"strip"`` (each line's
  leading whitespace dropped) or ``"dedent"`` (the indentation common to all lines dropped);
- ``trailing``: ``"strip"`` (invisible, dropped; the default) or ``"keep"``;
- ``blank_edges``: blank lines before the first and after the last line dropped (default)
  or kept.

A code fence is stripped exactly: the content is every line between the opening
```` ``` ```` (or ``~~~``, with any info string such as ```` ```text ````) and the closing
fence, kept verbatim, so an output line that starts with a space keeps it. Before the
fence a short label line ending in ``:`` (``Output:``) may stand; after it, only closing
punctuation (the answer grammar of :mod:`palaestra.verifiers.normalize`: a remark after the
block, such as a retraction, leaves it unreadable). Two fenced blocks are
ambiguous and unreadable. Without a fence the whole text is the block.

Example::

    >>> read_block("```text\n 8\n10  \n```"), read_block("```\n8\n```\nJust kidding, I do not know.")
    ([' 8', '10'], None)
    >>> same_block("```\n 8\n```", " 8"), same_block("8", " 8"), same_block("8", " 8", leading="strip")
    (True, False, True)
    >>> read_grid("1 2 | 3\n------\n4 5 | 6", "0123456789")
    [['1', '2', '3'], ['4', '5', '6']]
"""

from __future__ import annotations

import re
from collections.abc import Collection

from palaestra.verifiers.normalize import is_closing

MAX_BLOCK_CHARS = 200_000
MAX_BLOCK_LINES = 10_000
MAX_GRID_CELLS = 10_000
MAX_LABEL_CHARS = 60

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})([^`]*)$")
_INLINE_FENCE = re.compile(r"^ {0,3}(`{3,})(.+?)\1\s*$")
_SEPARATOR_LINE = re.compile(r"^[\s|+]*[-=_][-=_+|\s]*$")
_LABEL_LINE = re.compile(r"^\s*[A-Za-z][A-Za-z ()'-]{0,40}:\s*$")  # "Solution:", "Final grid:", "The answer:"
_CELL_SPLIT = re.compile(r"[\s,|;]+")
_ROW = re.compile(r"\[([^\[\]]*)\]")
_LEADING = ("keep", "strip", "dedent")
_TRAILING = ("keep", "strip")


def _fenced(lines: list[str]) -> list[str] | None:
    """The lines inside the one code fence of ``lines``; ``lines`` itself when there is no fence."""
    fences = [i for i, line in enumerate(lines) if _FENCE.match(line) or _INLINE_FENCE.match(line)]
    if not fences:
        return lines
    first = fences[0]
    before = [line for line in lines[:first] if line.strip()]
    if len(before) > 1 or (before and not (len(before[0]) <= MAX_LABEL_CHARS and before[0].rstrip().endswith(":"))):
        return None
    inline = _INLINE_FENCE.match(lines[first])
    if inline:
        content, after = [inline.group(2)], lines[first + 1 :]
        if len(fences) > 1:
            return None
    else:
        if len(fences) != 2:
            return None
        opening, closing = _FENCE.match(lines[first]), _FENCE.match(lines[fences[1]])
        marker = opening.group(1) if opening else ""
        if not closing or closing.group(2).strip() or not closing.group(1).startswith(marker[0]) or len(
            closing.group(1)
        ) < len(marker):
            return None
        content, after = lines[first + 1 : fences[1]], lines[fences[1] + 1 :]
    return content if is_closing("\n".join(after)) else None


def _apply_policy(lines: list[str], leading: str, trailing: str, blank_edges: bool) -> list[str]:
    if trailing == "strip":
        lines = [line.rstrip() for line in lines]
    if blank_edges:
        start, end = 0, len(lines)
        while start < end and not lines[start].strip():
            start += 1
        while end > start and not lines[end - 1].strip():
            end -= 1
        lines = lines[start:end]
    if leading == "strip":
        lines = [line.lstrip() for line in lines]
    elif leading == "dedent":
        indents = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
        cut = min(indents, default=0)
        lines = [line[cut:] for line in lines]
    return lines


def _check_policy(leading: str, trailing: str) -> None:
    if leading not in _LEADING or trailing not in _TRAILING:
        raise ValueError(f"leading must be one of {_LEADING} and trailing one of {_TRAILING}")


def read_block(
    text: str,
    *,
    leading: str = "keep",
    trailing: str = "strip",
    blank_edges: bool = True,
    max_lines: int = MAX_BLOCK_LINES,
    max_chars: int = MAX_BLOCK_CHARS,
) -> list[str] | None:
    """The lines of a multi-line answer under the whitespace policy, or ``None`` (empty,
    ambiguous fences, too long). See the module docstring for the policy.

    >>> read_block("Output:\\n```\\n  a\\n  b\\n```", leading="dedent"), read_block("```\\na\\n```\\n```\\nb\\n```")
    (['a', 'b'], None)
    """
    if not isinstance(text, str) or len(text) > max_chars:
        return None
    _check_policy(leading, trailing)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if len(lines) > max_lines + 64:
        return None
    content = _fenced(lines)
    if content is None:
        return None
    result = _apply_policy(content, leading, trailing, blank_edges)
    return result if result and len(result) <= max_lines else None


# A last line that only says the proof is over: a careful grader reads past it (it adds nothing and takes nothing back).
END_OF_PROOF = frozenset({"∎", "□", "■", "qed", "qed.", "q.e.d.", "q.e.d"})


def without_end_of_proof(rows: list[str]) -> list[str]:
    """``rows`` without a last row that is only an end-of-proof mark (``∎``, ``□``, ``QED``, ``Q.E.D.``, bold or not).

    >>> without_end_of_proof(["1. p  premise", "**QED**"]), without_end_of_proof(["1. p  premise", "QED, or not"])
    (['1. p  premise'], ['1. p  premise', 'QED, or not'])
    """
    if rows and rows[-1].strip().strip("*").strip().lower() in END_OF_PROOF:
        return rows[:-1]
    return rows


def same_block(
    text: str,
    expected: str,
    *,
    leading: str = "keep",
    trailing: str = "strip",
    blank_edges: bool = True,
    max_lines: int = MAX_BLOCK_LINES,
) -> bool | None:
    """Whether the answer ``text`` is the block ``expected`` under the policy; ``None`` when unreadable.

    ``expected`` is taken verbatim (never fence-stripped) and normalised by the same policy.

    >>> same_block("  x\\n", "x\\n", leading="keep"), same_block("```\\nx   \\n```", "x")
    (False, True)
    """
    given = read_block(text, leading=leading, trailing=trailing, blank_edges=blank_edges, max_lines=max_lines)
    if given is None:
        return None
    lines = expected.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return given == _apply_policy(lines, leading, trailing, blank_edges)


def _cells(row: str, alphabet: Collection[str] | None) -> list[str] | None:
    cells: list[str] = []
    for token in _CELL_SPLIT.split(row.strip().strip("|").strip()):
        token = token.strip("\"'`")
        if not token:
            continue
        if alphabet is None or token in alphabet:
            cells.append(token)
        elif all(char in alphabet for char in token):
            cells.extend(token)
        else:
            return None
    return cells or None


def read_grid(
    text: str,
    alphabet: Collection[str] | None = None,
    *,
    rectangular: bool = True,
    max_cells: int = MAX_GRID_CELLS,
) -> list[list[str]] | None:
    """A grid of cells, one row per line, or ``None``.

    Cells are separated by spaces, commas, ``;`` or ``|``, or written side by side when
    every character is a cell of ``alphabet`` (a string of one-character cells or a
    collection of symbols; ``None`` accepts any token). Separator lines such as
    ``------+------`` are skipped; a code fence is stripped; ``[[1, 2], [3, 4]]`` is read
    too. ``rectangular``: rows of different lengths make the grid unreadable.

    >>> read_grid("[[1, 2], [3, 4]]", "1234"), read_grid("```\\n#.\\n.#\\n```", "#."), read_grid("12\\n3", "123")
    ([['1', '2'], ['3', '4']], [['#', '.'], ['.', '#']], None)
    """
    if not isinstance(text, str) or len(text) > 8 * max_cells + 1_000:
        return None
    if isinstance(alphabet, str):
        alphabet = frozenset(alphabet)  # "12" in "123" is a substring test, not membership
    lines = read_block(text, leading="strip", trailing="strip")
    if lines is None:
        return None
    joined = " ".join(lines)
    if joined.startswith("[[") and joined.endswith("]]"):
        lines = _ROW.findall(joined[1:-1])
    rows = []
    for number, line in enumerate(lines):
        if not line.strip() or _SEPARATOR_LINE.match(line):
            continue
        row = _cells(line.strip().strip("[],").strip(), alphabet)
        if row is None:
            if not rows and _LABEL_LINE.match(line):
                continue  # a lead-in such as "Solution:" above the grid
            if number == len(lines) - 1 and rows and is_closing(line):
                break  # closing punctuation on a line of its own
            return None
        rows.append(row)
        if sum(len(r) for r in rows) > max_cells:
            return None
    if not rows or (rectangular and len({len(r) for r in rows}) != 1):
        return None
    return rows
