"""Context-free grammars for the language envs: random grammars, membership, sampling, derivations.

Nonterminals are single capital letters (``S`` is the start), terminals single small letters.
Grammars here have no empty productions and no unit productions (``A -> B``), so every rule
either emits a terminal or grows the sentential form: derivations of a string of length ``n``
are finite, membership is a memoised split search over the string's spans (each nonterminal
covers at least one character), and strings of a chosen length can be drawn by counting
derivation trees (:meth:`Grammar.sample`).

This is a family helper (no env registers here).

Example::

    >>> g = Grammar({"S": ["aSb", "ab"]})
    >>> g.accepts("aabb"), g.accepts("abab")
    (True, False)
    >>> g.text()
    'S -> a S b | a b'
    >>> g.leftmost(g.tree("aaabbb"))
    ['S', 'aSb', 'aaSbb', 'aaabbb']
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

Tree = tuple[str, int, list[Any]]  # (nonterminal, production index, children: terminals or subtrees)

MAX_LENGTH = 64  # strings longer than this are refused by every check


class Grammar:
    """A grammar as ``{nonterminal: [right-hand sides as strings]}``; ``S`` is the start symbol."""

    def __init__(self, rules: dict[str, list[str]]) -> None:
        self.rules = {head: list(bodies) for head, bodies in rules.items()}
        self.terminals = sorted({ch for bodies in rules.values() for body in bodies for ch in body if ch.islower()})
        self._derives = lru_cache(maxsize=None)(self._derives_uncached)
        self._count_sequence = lru_cache(maxsize=None)(self._count_sequence_uncached)

    def text(self) -> str:
        """The rules, one line per nonterminal (``S`` first), symbols separated by spaces."""
        order = ["S"] + sorted(h for h in self.rules if h != "S")
        return "\n".join(f"{h} -> " + " | ".join(" ".join(body) for body in self.rules[h]) for h in order)

    def to_json(self) -> dict[str, list[str]]:
        return {h: list(b) for h, b in self.rules.items()}

    # --- membership ----------------------------------------------------------------------------------------

    def accepts(self, string: str, symbol: str = "S") -> bool:
        """Whether ``symbol`` derives ``string`` (False for strings over other letters or too long)."""
        if not string or len(string) > MAX_LENGTH or any(ch not in self.terminals for ch in string):
            return False
        self._text = string
        self._derives.cache_clear()
        return self._derives(symbol, 0, len(string))

    def _derives_uncached(self, symbol: str, i: int, j: int) -> bool:
        return any(self._splits(body, 0, i, j) for body in self.rules[symbol])

    def _splits(self, body: str, k: int, i: int, j: int) -> bool:
        """Whether ``body[k:]`` derives ``text[i:j]`` (each nonterminal takes one character or more)."""
        if k == len(body):
            return i == j
        rest = len(body) - k - 1  # every later symbol needs at least one character
        symbol = body[k]
        if symbol.islower():
            return i < j and self._text[i] == symbol and self._splits(body, k + 1, i + 1, j)
        if rest == 0:
            return i < j and self._derives(symbol, i, j)
        return any(self._derives(symbol, i, m) and self._splits(body, k + 1, m, j) for m in range(i + 1, j - rest + 1))

    def tree(self, string: str) -> Tree | None:
        """A derivation tree of ``string`` from ``S`` (the first found), or None."""
        if not self.accepts(string):
            return None
        return self._build("S", 0, len(string))

    def _build(self, symbol: str, i: int, j: int) -> Tree:
        for index, body in enumerate(self.rules[symbol]):
            children = self._build_body(body, 0, i, j)
            if children is not None:
                return symbol, index, children
        raise ValueError("no derivation")  # unreachable: called only on spans that derive

    def _build_body(self, body: str, k: int, i: int, j: int) -> list[Any] | None:
        if not self._splits(body, k, i, j):
            return None
        if k == len(body):
            return []
        symbol = body[k]
        if symbol.islower():
            rest = self._build_body(body, k + 1, i + 1, j)
            return None if rest is None else [symbol, *rest]
        for m in range(i + 1, j - (len(body) - k - 1) + 1):
            if self._derives(symbol, i, m) and self._splits(body, k + 1, m, j):
                rest = self._build_body(body, k + 1, m, j)
                if rest is not None:
                    return [self._build(symbol, i, m), *rest]
        return None

    def parses(self, string: str) -> int:
        """The number of derivation trees of ``string`` from ``S`` (0 when it is not generated)."""
        if not self.accepts(string):  # (also refuses strings that are too long or over other letters)
            return 0

        @lru_cache(maxsize=None)
        def spans(symbol: str, i: int, j: int) -> int:
            return sum(sequence(body, 0, i, j) for body in self.rules[symbol])

        @lru_cache(maxsize=None)
        def sequence(body: str, k: int, i: int, j: int) -> int:
            """The ways ``body[k:]`` derives ``string[i:j]`` (each nonterminal takes one character or more)."""
            if k == len(body):
                return int(i == j)
            symbol = body[k]
            if symbol.islower():
                return sequence(body, k + 1, i + 1, j) if i < j and string[i] == symbol else 0
            rest = len(body) - k - 1
            return sum(spans(symbol, i, m) * sequence(body, k + 1, m, j) for m in range(i + 1, j - rest + 1)
                       if self._derives(symbol, i, m))

        return spans("S", 0, len(string))

    # --- counting and sampling -------------------------------------------------------------------------------

    def count(self, symbol: str, length: int) -> int:
        """The number of derivation trees of ``symbol`` yielding strings of ``length``."""
        return sum(self._count_sequence(body, length) for body in self.rules[symbol])

    def _count_sequence_uncached(self, body: str, length: int) -> int:
        if not body:
            return int(length == 0)
        if length < len(body):
            return 0
        head, tail = body[0], body[1:]
        if head.islower():
            return self._count_sequence(tail, length - 1)
        return sum(self.count(head, m) * self._count_sequence(tail, length - m) for m in range(1, length - len(tail) + 1))

    def sample(self, rng: random.Random, length: int, symbol: str = "S") -> Tree | None:
        """A derivation tree of a string of ``length``, each tree as likely; None when there is none."""
        total = self.count(symbol, length)
        if total == 0:
            return None
        pick = rng.randrange(total)
        for index, body in enumerate(self.rules[symbol]):
            ways = self._count_sequence(body, length)
            if pick < ways:
                return symbol, index, self._sample_sequence(rng, body, length)
            pick -= ways
        return None  # unreachable: pick < total

    def _sample_sequence(self, rng: random.Random, body: str, length: int) -> list[Any]:
        if not body:
            return []
        head, tail = body[0], body[1:]
        if head.islower():
            return [head, *self._sample_sequence(rng, tail, length - 1)]
        weights = [(m, self.count(head, m) * self._count_sequence(tail, length - m))
                   for m in range(1, length - len(tail) + 1)]
        pick = rng.randrange(sum(w for _, w in weights))
        for m, w in weights:
            if pick < w:
                return [self.sample(rng, m, head), *self._sample_sequence(rng, tail, length - m)]
            pick -= w
        return []  # unreachable

    # --- derivations -------------------------------------------------------------------------------------------

    @staticmethod
    def string(tree: Tree) -> str:
        return "".join(c if isinstance(c, str) else Grammar.string(c) for c in tree[2])

    def leftmost(self, tree: Tree) -> list[str]:
        """The sentential forms of the leftmost derivation that builds ``tree``."""
        return self._derivation(tree, rightmost=False)

    def rightmost(self, tree: Tree) -> list[str]:
        """The sentential forms of the rightmost derivation that builds ``tree`` (the same rewrites, another order)."""
        return self._derivation(tree, rightmost=True)

    @staticmethod
    def _derivation(tree: Tree, rightmost: bool) -> list[str]:
        forms = ["S"]
        pending: list[Any] = [tree]  # the symbols of the current form: terminals or subtrees, left to right
        for _ in range(4 * MAX_LENGTH):
            places = range(len(pending) - 1, -1, -1) if rightmost else range(len(pending))
            index = next((k for k in places if not isinstance(pending[k], str)), None)
            if index is None:
                break
            pending[index : index + 1] = pending[index][2]
            forms.append("".join(item if isinstance(item, str) else item[0] for item in pending))
        return forms

    def one_step(self, before: str, after: str) -> bool:
        """Whether ``after`` comes from ``before`` by rewriting one nonterminal with one of its rules."""
        grow = len(after) - len(before) + 1  # the rule's right-hand side length
        if grow < 1:
            return False
        for i, symbol in enumerate(before):
            if symbol in self.rules and before[:i] == after[:i] and before[i + 1 :] == after[i + grow :]:
                if after[i : i + grow] in self.rules[symbol]:
                    return True
        return False

    def derivation_error(self, forms: list[str], target: str) -> str | None:
        """Why ``forms`` (starting at ``S``) is not a derivation of ``target`` in this grammar, or None when it is:
        every form uses the grammar's symbols, each comes from the one before by :meth:`one_step`, the last is
        ``target``. The cfg envs' verifiers judge an answer's derivation with it."""
        symbols = set(self.rules) | set(self.terminals)
        for number, (before, after) in enumerate(zip(forms, forms[1:]), start=1):
            if any(ch not in symbols for ch in after):
                return f"form {number + 1} ({after}) uses symbols that are not in the grammar"
            if not self.one_step(before, after):
                return f"step {number} ({before} => {after}) does not apply one rule to one nonterminal"
        if forms[-1] != target:
            return f"the derivation ends with {forms[-1]}, not {target}"
        return None


def random_grammar(rng: random.Random, nonterminals: int, terminals: str, bodies: tuple[int, int],
                   max_body: int) -> Grammar:
    """A random grammar: each nonterminal gets a few bodies (no empty and no unit ones), every nonterminal is
    reachable from ``S`` and derives some string (the caller checks the language is interesting)."""
    names = ["S", *"ABCDEFG"[: nonterminals - 1]]
    rules: dict[str, list[str]] = {}
    for position, head in enumerate(names):
        wanted = rng.randint(*bodies)
        options: list[str] = []
        # a terminal-only body first, so every nonterminal derives something
        options.append("".join(rng.choice(terminals) for _ in range(rng.randint(1, 2))))
        later = names[position + 1 :]
        for _ in range(4 * wanted):
            if len(options) >= wanted:
                break
            size = rng.randint(2, max_body)
            symbols = [rng.choice(terminals + "".join(names)) for _ in range(size)]
            if later and not any(s in later for s in symbols) and rng.random() < 0.5:
                symbols[rng.randrange(size)] = rng.choice(later)  # a way to reach the next nonterminals
            body = "".join(symbols)
            if body not in options:
                options.append(body)
        rules[head] = options
    # chain reachability: S mentions A, A mentions B, ...
    for head, nxt in zip(names, names[1:]):
        if not any(nxt in body for h in names[: names.index(head) + 1] for body in rules[h]):
            body = rules[head][-1]
            rules[head][-1] = body[:-1] + nxt if len(body) > 1 else body + nxt
    return Grammar(rules)
