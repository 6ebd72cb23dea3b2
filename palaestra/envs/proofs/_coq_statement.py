"""Reading a Coq answer that states a theorem and then proves it: ``Theorem name : statement. Proof. ... Qed.``

Envs whose answer fills a hole in a statement (a threshold, a formula) read the statement with
:func:`read_statement` and the proof after it with :func:`palaestra.verifiers.coq.read_script`.
``Theorem`` or ``Lemma`` both do, the name is free, the statement's white space is normalised, and the
statement ends at its first period followed by white space (Coq's own sentence end).
"""

from __future__ import annotations

from palaestra.verifiers import coq
from palaestra.verifiers.blocks import read_block


def read_statement(answer: str) -> tuple[str, str] | str:
    """(the statement with white space normalised, the text after it), or why the answer cannot be read."""
    if not isinstance(answer, str) or len(answer) > coq.MAX_SCRIPT_CHARS:
        return "the answer is missing or too long"
    block = read_block(answer, leading="strip")
    if block is None:
        return "expected the theorem and its proof"
    words = "\n".join(block).split(None, 2)
    if len(words) < 3 or words[0] not in ("Theorem", "Lemma") or not words[1].rstrip(":").isidentifier():
        return "expected: Theorem name : statement. then Proof. ... Qed."
    body = words[2] if words[1].endswith(":") else words[2].removeprefix(":")
    end = next((i for i, ch in enumerate(body) if ch == "." and (i + 1 == len(body) or body[i + 1].isspace())), -1)
    if end < 0:
        return "the statement does not end with a period"
    return " ".join(body[:end].split()), body[end + 1 :]


def strip_binder(statement: str, variable: str, kind: str) -> str | None:
    """The statement after its leading binder ``forall v : kind,`` (or ``forall v,`` or ``forall (v : kind),``),
    or None when it does not start with one."""
    for binder in (f"forall {variable} : {kind},", f"forall {variable},", f"forall ({variable} : {kind}),"):
        if statement.startswith(binder + " "):
            return statement[len(binder) + 1 :]
    return None


def polynomial_text(coefficients: list[int]) -> str:
    """``[4, 0, 3]`` as ``3 * n * n + 4`` (highest power first, powers as products)."""
    terms = []
    for power in range(len(coefficients) - 1, -1, -1):
        c = coefficients[power]
        if c == 0:
            continue
        factors = ([str(c)] if c != 1 or power == 0 else []) + ["n"] * power
        terms.append(" * ".join(factors))
    return " + ".join(terms) or "0"


MAX_EXPRESSION_TOKENS = 200
MAX_EXPONENT = 64


def evaluate(expression: str, atoms: dict[str, int]) -> int | None:
    """The value of a nat expression in Coq's syntax, or None when it is not one this reader knows: numerals,
    the names of ``atoms`` (``"spec l"``, ``"length l"``: a function applied to a variable counts as one name),
    ``+``, ``*``, ``^`` (a numeral or name as exponent, at most :data:`MAX_EXPONENT`), ``max a b`` (or
    ``Nat.max``) and brackets. Bounded: at most :data:`MAX_EXPRESSION_TOKENS` tokens, nesting capped."""
    tokens = _tokens(expression)
    if tokens is None:
        return None
    merged: list[str] = []
    for token in tokens:
        if merged and f"{merged[-1]} {token}" in atoms:
            merged[-1] = f"{merged[-1]} {token}"
        else:
            merged.append(token)
    reader = _Evaluator(merged, atoms)
    read = reader.sum(0, 0)
    return read[0] if read is not None and read[1] == len(merged) else None


def _tokens(text: str) -> list[str] | None:
    tokens: list[str] = []
    i = 0
    while i < len(text):
        if len(tokens) > MAX_EXPRESSION_TOKENS:
            return None
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch.isascii() and (ch.isalnum() or ch == "_"):
            j = i
            while j < len(text) and j - i < 30 and text[j].isascii() and (text[j].isalnum() or text[j] in "_.'"):
                j += 1
            tokens.append(text[i:j])
            i = j
        elif ch in "+*^()":
            tokens.append(ch)
            i += 1
        else:
            return None
    return tokens


class _Evaluator:
    def __init__(self, tokens: list[str], atoms: dict[str, int]) -> None:
        self.tokens, self.atoms = tokens, atoms

    def at(self, pos: int) -> str:
        return self.tokens[pos] if pos < len(self.tokens) else ""

    def sum(self, pos: int, depth: int) -> tuple[int, int] | None:
        read = self.product(pos, depth)
        while read is not None and self.at(read[1]) == "+":
            right = self.product(read[1] + 1, depth)
            read = None if right is None else (read[0] + right[0], right[1])
        return read

    def product(self, pos: int, depth: int) -> tuple[int, int] | None:
        read = self.power(pos, depth)
        while read is not None and self.at(read[1]) == "*":
            right = self.power(read[1] + 1, depth)
            read = None if right is None else (read[0] * right[0], right[1])
        return read

    def power(self, pos: int, depth: int) -> tuple[int, int] | None:
        base = self.application(pos, depth)
        if base is None or self.at(base[1]) != "^":
            return base
        exponent = self.atom(base[1] + 1, depth)
        if exponent is None or exponent[0] > MAX_EXPONENT:
            return None
        return base[0] ** exponent[0], exponent[1]

    def application(self, pos: int, depth: int) -> tuple[int, int] | None:
        if self.at(pos) in ("max", "Nat.max"):
            first = self.atom(pos + 1, depth)
            second = None if first is None else self.atom(first[1], depth)
            return None if first is None or second is None else (max(first[0], second[0]), second[1])
        return self.atom(pos, depth)

    def atom(self, pos: int, depth: int) -> tuple[int, int] | None:
        token = self.at(pos)
        if depth > 20 or not token:
            return None
        if token in self.atoms:
            return self.atoms[token], pos + 1
        if token.isdigit() and len(token) <= 9:
            return int(token), pos + 1
        if token == "(":
            inner = self.sum(pos + 1, depth + 1)
            if inner is not None and self.at(inner[1]) == ")":
                return inner[0], inner[1] + 1
        return None
