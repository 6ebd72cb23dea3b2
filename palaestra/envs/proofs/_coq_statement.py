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
