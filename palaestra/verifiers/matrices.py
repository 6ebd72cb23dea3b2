r"""Reading matrices and vectors of exact numbers written by a model.

:func:`read_matrix` reads a matrix from any of these spellings, entries exact
(:func:`palaestra.verifiers.numeric.read_exact`: ``-3/4``, ``\frac{1}{2}``, ``0.5``):

- nested lists ``[[1, 2], [3, 4]]`` (round brackets too), MATLAB rows ``[1 2; 3 4]``;
- one row per line, cells separated by spaces, commas or ``&``, each row optionally in
  brackets or bars (``[ 1 -2 ]``, ``| 3 4 |``);
- LaTeX ``\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}`` (``bmatrix``, ``matrix``, ``array``, ...);
- a lead-in ``A^{-1} =`` and a scalar in front, ``\frac{1}{2}\begin{pmatrix}...`` or
  ``(1/2) * [[4, -2], [-3, 1]]``, which multiplies every entry.

:func:`read_vectors` reads a list of vectors (a basis): ``(1, -2, 1), (0, 1, 3)``,
``{[1, -2, 1], [0, 1, 3]}``, ``span{(1, -2, 1), (0, 1, 3)}``, ``N(A) = span{...}``,
``v1 = (1, -2, 1), v2 = (0, 1, 3)``, rows marked transposed (``(1, -2, 1)^T``), one per line,
or the columns of a LaTeX matrix, under the answer grammar of :mod:`palaestra.verifiers.normalize`
(``(1, -3, 1).`` reads; a remark after it does not). Everything is bounded by
:data:`MAX_CHARS` and :data:`MAX_ENTRIES`; nothing raises.

Example::

    >>> read_matrix(r"A^{-1} = \frac{1}{2}\begin{pmatrix} 4 & -2 \\ -3 & 1 \end{pmatrix}")
    [[Fraction(2, 1), Fraction(-1, 1)], [Fraction(-3, 2), Fraction(1, 2)]]
    >>> read_matrix("[[2, -1], [-3/2, 1/2]]") == read_matrix("2 -1\n-1.5 0.5")
    True
    >>> read_vectors("v1 = (1, -2, 1), v2 = (0, 1, 3)", 3)
    [[Fraction(1, 1), Fraction(-2, 1), Fraction(1, 1)], [Fraction(0, 1), Fraction(1, 1), Fraction(3, 1)]]
"""

from __future__ import annotations

import re
from fractions import Fraction

from palaestra.verifiers.normalize import (
    enclosed,
    read_answer,
    simplify_latex,
    split_top_level,
    squeeze_spaces,
    strip_wrappers,
    unify,
)
from palaestra.verifiers.numeric import read_exact

MAX_CHARS = 20_000
MAX_ENTRIES = 400

Matrix = list[list[Fraction]]

_SIZED = re.compile(r"\\(?:left|right)\b")
_ENVIRONMENT = re.compile(r"\\begin\s*\{([a-zA-Z*]{1,12})\}(?:\s*\{[^{}]{0,30}\})?(.*?)\\end\s*\{\1\}", re.DOTALL)
_LEAD_IN = re.compile(
    r"^(?:[A-Za-z](?:_\{?\w{1,3}\}?)?(?:\s*\^\s*(?:\{\s*-\s*1\s*\}|\(\s*-\s*1\s*\)|-\s*1)|\^\{?T\}?)?"
    r"|\w{1,12}\s*\(\s*[A-Za-z]\s*\))\s*=\s*"
)
_COMMA = re.compile(r"\s*,\s*")
_SEMICOLON = re.compile(r"\s*;\s*")
_CELL_SPLIT = re.compile(r"\s*[,&]\s*|\s+")
# "A basis is", "Basis:", "N(A) =", "null(A) =", "ker(A) =", "The null space is spanned by", before the vectors.
_BASIS_LEAD_IN = re.compile(
    r"^(?:(?:(?:a|the)\s+)?basis(?:\s+(?:of|for)\s+the\s+null\s*space)?(?:\s+is)?\s*:?|(?:the\s+)?null\s*space(?:\s+of\s+A)?"
    r"(?:\s+is)?(?:\s+spanned\s+by)?\s*:?|(?:N|null|Null|ker|Ker|nul|Nul)\s*\(\s*A\s*\)\s*=)\s*",
    re.IGNORECASE,
)
_SPAN = re.compile(r"^(?:\\operatorname\{span\}|\\mathrm\{span\}|\\text\{span\}|span)\s*", re.IGNORECASE)
_NAMED_VECTOR = re.compile(r"^[A-Za-z](?:_?\{?\w{1,3}\}?)?\s*=\s*")
# A bracketed row marked transposed, "(1, -2, 1)^T", "[1, -2, 1]^{T}", "(1, -2, 1)ᵀ", "(1, -2, 1)^\top": the same vector
_TRANSPOSED = re.compile(r"(?<=[)\]])\s*(?:\^\s*(?:T|\\top|\\intercal|\{\s*(?:T|\\top|\\intercal)\s*\})|ᵀ)$")


def _entry(text: str) -> Fraction | None:
    s = text.strip()
    if not s or len(s) > 80:
        return None
    return read_exact(s, max_digits=60)


def _cells(row: str) -> list[Fraction] | None:
    """One row's entries: separated by ``&``, by commas, or else by spaces (``- 3`` then counts as one entry)."""
    s = row.strip().strip("|").strip()
    if enclosed(s, "[("):
        s = s[1:-1].strip()
    if not s:
        return None
    if "&" in s:
        parts = s.split("&")
    elif "," in s:
        parts = _COMMA.split(s)
    else:
        parts = re.sub(r"(?<![\d.}])-\s+(?=\d)", "-", s).split()
    values = [_entry(p) for p in parts]
    if any(v is None for v in values) or len(values) > MAX_ENTRIES:
        return None
    return values  # type: ignore[return-value]


def _rows(body: str) -> Matrix | None:
    s = body.strip()
    if "\n" in s:
        rows = [line for line in s.split("\n") if line.strip() and not set(line.strip()) <= set("-=_|+ ")]
        if len(rows) > 1 or (len(rows) == 1 and not enclosed(rows[0].strip(), "[(")):
            out = [_cells(r) for r in rows]
            return None if any(r is None for r in out) else out  # type: ignore[return-value]
        s = rows[0].strip() if rows else ""
    if enclosed(s, "[(") and (s[1:].lstrip().startswith(("[", "("))):
        inner = s[1:-1].strip()
        groups = [g.strip() for _, g in split_top_level(inner, _COMMA, limit=MAX_ENTRIES)]
        if all(enclosed(g, "[(") for g in groups):
            out = [_cells(g) for g in groups]
            return None if any(r is None for r in out) else out  # type: ignore[return-value]
        return None
    if enclosed(s, "[") and ";" in s:
        out = [_cells(r) for r in _SEMICOLON.split(s[1:-1].strip())]
        return None if any(r is None for r in out) else out  # type: ignore[return-value]
    if ";" in s:
        out = [_cells(r) for r in _SEMICOLON.split(s)]
        return None if any(r is None for r in out) else out  # type: ignore[return-value]
    return None


def _scaled(text: str) -> tuple[Fraction, str]:
    """A scalar written before the matrix, and the matrix text."""
    for start in ("\\begin", "[", "("):
        at = text.find(start)
        if at <= 0 or start == "(" and text[:at].strip() == "":
            continue
        head = text[:at].strip().rstrip("*·×").strip()
        if not head or len(head) > 40:
            continue
        factor = read_exact(head.strip("()"), max_digits=30) if enclosed(head, "(") or "(" not in head else None
        if factor is None:
            factor = read_exact(head, max_digits=30)
        if factor is not None:
            return factor, text[at:]
    return Fraction(1), text


def _read(text: str) -> Matrix | None:
    s = strip_wrappers(simplify_latex(unify(text)).replace("$", "").strip())
    s = _LEAD_IN.sub("", s, count=1)
    factor, s = _scaled(s)
    environment = _ENVIRONMENT.search(s)
    if environment:
        around = (_SIZED.sub("", s[: environment.start()]).strip(), _SIZED.sub("", s[environment.end():]).strip())
        if around not in (("", ""), ("[", "]"), ("(", ")")):  # \left[\begin{array}...\end{array}\right]: one bracket
            return None
        body = environment.group(2).replace("\\hline", "")
        rows = [r for r in body.split("\n") if r.strip()]
        matrix = [[v for v in (_entry(c) for c in row.split("&"))] for row in rows]
        if any(v is None for row in matrix for v in row):
            return None
    else:
        matrix = _rows(s)  # type: ignore[assignment]
    if not matrix or any(not row for row in matrix):
        return None
    if len({len(row) for row in matrix}) != 1 or sum(len(r) for r in matrix) > MAX_ENTRIES:
        return None
    return [[v * factor for v in row] for row in matrix]  # type: ignore[operator]


def read_matrix(text: str, shape: tuple[int, int] | None = None) -> Matrix | None:
    """The matrix written in ``text`` (rows of exact fractions), or ``None``; with ``shape``, only one of
    that many rows and columns."""
    if not isinstance(text, str) or len(text) > MAX_CHARS:
        return None
    matrix = read_answer(text, _read)
    if matrix is None or (shape is not None and (len(matrix), len(matrix[0])) != shape):
        return None
    return matrix


def read_vectors(text: str, dimension: int) -> list[list[Fraction]] | None:
    """A list of vectors with ``dimension`` entries each, or ``None`` (see the module docstring).

    One LaTeX matrix alone is read as its columns when it has ``dimension`` rows (a basis
    written as the columns of a matrix), else as its rows; several LaTeX matrices are one
    vector each.
    """
    if not isinstance(text, str) or len(text) > MAX_CHARS:
        return None
    # Runs of spaces first: the separator pattern below is quadratic on them.
    s = squeeze_spaces(simplify_latex(unify(text)).replace("$", "").strip())
    return read_answer(s, lambda answer: _vectors_core(answer, dimension))


def _vectors_core(text: str, dimension: int) -> list[list[Fraction]] | None:
    s = _BASIS_LEAD_IN.sub("", strip_wrappers(text), count=1)
    span = _SPAN.match(s)
    if span:
        s = s[span.end() :].strip()
        if not enclosed(s, "{(["):
            return None
        s = s[1:-1].strip()
    if enclosed(s, "{") or (enclosed(s, "[(") and s[1:].lstrip()[:1] in "[("):
        s = s[1:-1].strip()
    vectors: list[list[Fraction]] = []
    if "\\begin" in s:
        environments = list(_ENVIRONMENT.finditer(s))
        if not environments:
            return None
        leftover = _ENVIRONMENT.sub(" ", s)
        if re.sub(r"[\s,;{}]|\band\b|[A-Za-z](?:_?\{?\w{1,3}\}?)?\s*=", "", leftover):
            return None
        if len(environments) == 1:
            matrix = _read(environments[0].group(0))
            if matrix is None:
                return None
            if len(matrix) == dimension:
                return [list(col) for col in zip(*matrix)]
            return matrix if len(matrix[0]) == dimension else None
        for environment in environments[:MAX_ENTRIES]:
            matrix = _read(environment.group(0))
            if matrix is None:
                return None
            vectors.append([v for row in matrix for v in row])
    else:
        separator = re.compile(r"\s*[,;]\s*(?:and\s+)?|\s+and\s+")
        for _, piece in split_top_level(s.replace("\n", ", "), separator, limit=MAX_ENTRIES):
            piece = _TRANSPOSED.sub("", _NAMED_VECTOR.sub("", piece.strip(), count=1), count=1)
            if not piece:
                continue
            if not enclosed(piece, "[(") or enclosed(piece[1:-1].strip(), "[("):
                return None
            cells = _cells(piece)
            if cells is None:
                return None
            vectors.append(cells)
    if not vectors or any(len(v) != dimension for v in vectors) or len(vectors) > MAX_ENTRIES:
        return None
    return vectors
