"""Propositional formulas for the proof envs: a hand-written tokenizer and parser, printing, truth tables.

A formula is a nested tuple: ``("atom", "p")``, ``("bot",)``, ``("not", A)``, ``("and", A, B)``,
``("or", A, B)``, ``("imp", A, B)``. The tokenizer reads ASCII and Unicode spellings of the
connectives (``->`` ``=>`` ``→`` ``⊃``; ``&`` ``/\\`` ``∧``; ``|`` ``\\/`` ``∨``; ``~`` ``!`` ``¬``;
``⊥`` ``_|_``) and is linear in the text; the parser is recursive descent over the tokens with the
usual precedence (¬ binds tightest, then ∧, then ∨, then → which groups to the right) and reads the
*longest* formula at the start of a token list, so a proof line's justification after the formula
(``∧E 3``) is left for its own reader. Nesting is capped, so hostile input costs bounded time and stack.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Sequence
from typing import Any

Formula = tuple[Any, ...]
Token = tuple[str, str]  # (kind, text): kinds "num", "word", "conn", "open", "close", "punct", "other"

BOT: Formula = ("bot",)
MAX_NESTING = 40
ATOMS = ("p", "q", "r", "s", "t", "u", "v", "w")

# Longest spellings first: the tokenizer tries them in this order at each position.
_SYMBOLS = (
    ("<->", "iff"), ("<=>", "iff"), ("_|_", "bot"), ("->", "imp"), ("=>", "imp"), ("/\\", "and"), ("\\/", "or"),
    ("&&", "and"), ("→", "imp"), ("⇒", "imp"), ("⊃", "imp"), ("∧", "and"), ("&", "and"), ("∨", "or"),
    ("|", "bar"), ("│", "bar"), ("┃", "bar"), ("¬", "not"), ("~", "not"), ("!", "not"), ("⊥", "bot"),
    ("↔", "iff"), ("□", "empty"), ("∅", "empty"),
)
# The spellings by their first character, in the order above: most characters start none, and skip the search.
_SYMBOLS_BY_FIRST = {first: tuple(symbol for symbol in _SYMBOLS if symbol[0][0] == first)
                     for first in {spelling[0] for spelling, _ in _SYMBOLS}}
_PUNCT = {"(": "open", ")": "close", "[": "lbrack", "]": "rbrack", "{": "lbrace", "}": "rbrace", ",": "punct",
          ";": "punct", ":": "punct", ".": "punct", "-": "dash", "–": "dash", "—": "dash", "−": "dash",
          "*": "op", "·": "op", "∘": "op", "'": "prime", "=": "eq", "^": "caret", "⁻": "sup", "¹": "sup"}
SYMBOL = {"and": "∧", "or": "∨", "imp": "→", "not": "¬", "bot": "⊥"}
ASCII = {"and": "&", "or": "|", "imp": "->", "not": "~", "bot": "_|_"}


def tokenize(text: str, limit: int = 400) -> list[Token] | None:
    """The tokens of ``text``, or None past ``limit`` tokens. Whitespace separates; anything unknown is
    one ``other`` token (which no reader accepts)."""
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        if len(tokens) > limit:
            return None
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        if "0" <= ch <= "9":  # ASCII digits only: str.isdigit() also takes superscripts such as ¹
            j = i
            while j < n and j - i < 9 and "0" <= text[j] <= "9":
                j += 1
            tokens.append(("num", text[i:j]))
            i = j
            continue
        if ch.isascii() and (ch.isalpha() or ch == "_") and not text.startswith("_|_", i):
            j = i
            while j < n and j - i < 40 and text[j].isascii() and (text[j].isalnum() or text[j] == "_"):
                j += 1
            tokens.append(("word", text[i:j]))
            i = j
            continue
        for spelling, kind in _SYMBOLS_BY_FIRST.get(ch, ()):
            if text.startswith(spelling, i):
                tokens.append(("conn", kind))
                i += len(spelling)
                break
        else:
            tokens.append((_PUNCT.get(ch, "other"), ch))
            i += 1
    return tokens


class _Parser:
    """Recursive descent over tokens from ``pos``; every method returns (formula, next position) or None."""

    def __init__(self, tokens: Sequence[Token], atoms: Iterable[str]) -> None:
        self.tokens = tokens
        self.atoms = set(atoms)

    def conn(self, pos: int, kind: str) -> bool:
        if pos >= len(self.tokens):
            return False
        return self.tokens[pos] == ("conn", kind) or (kind == "or" and self.tokens[pos] == ("conn", "bar"))

    def implication(self, pos: int, depth: int) -> tuple[Formula, int] | None:
        left = self.disjunction(pos, depth)
        if left is None:
            return None
        if self.conn(left[1], "imp"):
            right = self.implication(left[1] + 1, depth)
            if right is not None:
                return ("imp", left[0], right[0]), right[1]
        return left

    def _chain(self, pos: int, depth: int, kind: str, operand: Any) -> tuple[Formula, int] | None:
        left = operand(pos, depth)
        if left is None:
            return None
        formula, pos = left
        while self.conn(pos, kind):
            right = operand(pos + 1, depth)
            if right is None:
                break  # the connective belongs to what follows the formula (a rule name such as "∧E")
            formula, pos = (kind, formula, right[0]), right[1]
        return formula, pos

    def disjunction(self, pos: int, depth: int) -> tuple[Formula, int] | None:
        return self._chain(pos, depth, "or", self.conjunction)

    def conjunction(self, pos: int, depth: int) -> tuple[Formula, int] | None:
        return self._chain(pos, depth, "and", self.unary)

    def unary(self, pos: int, depth: int) -> tuple[Formula, int] | None:
        if depth > MAX_NESTING or pos >= len(self.tokens):
            return None
        kind, text = self.tokens[pos]
        if (kind, text) == ("conn", "not"):
            inner = self.unary(pos + 1, depth + 1)
            return None if inner is None else (("not", inner[0]), inner[1])
        if (kind, text) == ("conn", "bot") or (kind == "word" and text in ("bot", "false", "False")):
            return BOT, pos + 1
        if kind == "word" and text in self.atoms:
            return ("atom", text), pos + 1
        if kind == "open":
            inner = self.implication(pos + 1, depth + 1)
            if inner is not None and inner[1] < len(self.tokens) and self.tokens[inner[1]][0] == "close":
                return inner[0], inner[1] + 1
        return None


def parse_prefix(tokens: Sequence[Token], atoms: Iterable[str], pos: int = 0) -> tuple[Formula, int] | None:
    """The longest formula starting at ``tokens[pos]`` and the position after it, or None."""
    return _Parser(tokens, atoms).implication(pos, 0)


def parse_formula(text: str, atoms: Iterable[str]) -> Formula | None:
    """The formula ``text`` spells in full, or None.

    >>> show(parse_formula("~p -> q & r | s", "pqrs"))
    '¬p → ((q ∧ r) ∨ s)'
    """
    tokens = tokenize(text)
    if not tokens:
        return None
    read = parse_prefix(tokens, atoms)
    return read[0] if read is not None and read[1] == len(tokens) else None


def show(formula: Formula, ascii_only: bool = False) -> str:
    """The formula with brackets around every binary part below the top, e.g. ``(p ∧ q) → ¬(r ∨ p)``."""
    names = ASCII if ascii_only else SYMBOL

    def inner(f: Formula, top: bool) -> str:
        kind = f[0]
        if kind == "atom":
            return str(f[1])
        if kind == "bot":
            return names["bot"]
        if kind == "not":
            return names["not"] + inner(f[1], False)
        text = f"{inner(f[1], False)} {names[kind]} {inner(f[2], False)}"
        return text if top else f"({text})"

    return inner(formula, True)


def atoms_of(formula: Formula) -> set[str]:
    if formula[0] == "atom":
        return {formula[1]}
    return set().union(*(atoms_of(part) for part in formula[1:])) if len(formula) > 1 else set()


def size(formula: Formula) -> int:
    """Atoms, ⊥ and connectives in the formula."""
    return 1 + sum(size(part) for part in formula[1:]) if formula[0] != "atom" else 1


def value(formula: Formula, assignment: dict[str, bool]) -> bool:
    kind = formula[0]
    if kind == "atom":
        return assignment[formula[1]]
    if kind == "bot":
        return False
    if kind == "not":
        return not value(formula[1], assignment)
    left, right = value(formula[1], assignment), value(formula[2], assignment)
    if kind == "and":
        return left and right
    if kind == "or":
        return left or right
    return (not left) or right


def models(formulas: Sequence[Formula], names: Sequence[str]) -> int:
    """The assignments to ``names`` (as bits of an int, one per row of the truth table) where all hold.

    Row ``r`` is the ``r``-th assignment of ``itertools.product((False, True), repeat=len(names))``
    (the first name the most significant bit of ``r``). Every row is evaluated at once: a formula's
    truth table is an int with one bit per row, built from the atoms' columns by bitwise operations,
    which is what :func:`value` gives row by row, without a Python call per row and subformula.
    """
    full = (1 << (1 << len(names))) - 1
    columns = dict(zip(names, _atom_columns(len(names))))
    mask = full
    for formula in formulas:
        mask &= _truth_table(formula, columns, full)
    return mask


@functools.lru_cache(maxsize=None)
def _atom_columns(count: int) -> tuple[int, ...]:
    """Each of ``count`` atoms' truth-table column: bit ``r`` set where the atom is true in row ``r``."""
    rows = 1 << count
    return tuple(sum(1 << r for r in range(rows) if r >> (count - 1 - k) & 1) for k in range(count))


def _truth_table(formula: Formula, columns: dict[str, int], full: int) -> int:
    kind = formula[0]
    if kind == "atom":
        return columns[formula[1]]
    if kind == "bot":
        return 0
    if kind == "not":
        return full & ~_truth_table(formula[1], columns, full)
    left, right = _truth_table(formula[1], columns, full), _truth_table(formula[2], columns, full)
    if kind == "and":
        return left & right
    if kind == "or":
        return left | right
    return (full & ~left) | right


def entails(premises: Sequence[Formula], goal: Formula, names: Sequence[str]) -> bool:
    """Whether every assignment that makes the premises true makes the goal true (classical entailment)."""
    return models(premises, names) & ~models([goal], names) == 0


def random_formula(rng: random.Random, names: Sequence[str], depth: int) -> Formula:
    """A random formula of at most ``depth`` connective levels (negation counts as one) over ``names``."""
    if depth <= 0 or rng.random() < 0.15:
        return ("atom", rng.choice(names))
    kind = rng.choices(("imp", "and", "or", "not"), weights=(4, 3, 3, 1))[0]
    if kind == "not":
        return ("not", random_formula(rng, names, depth - 1))
    return (kind, random_formula(rng, names, depth - 1), random_formula(rng, names, depth - 1))
