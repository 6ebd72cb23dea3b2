"""Propositional proofs in Coq for the proof envs: formulas in Coq's syntax, a proof tree as a term or a tactic script.

The trees are :class:`palaestra.envs.proofs._fitch.Node` natural-deduction trees built without the
classical rules, so every one has an intuitionistic Coq proof. :func:`proof_term` writes the tree as one
explicit term (every implicit argument given); :func:`tactic_script` writes it as a tactic script, one
tactic a line, subproofs in braces, every step unambiguous (``refine (f _)`` for an elimination, never
``apply``'s search), so that a line edited in it breaks exactly that step. :data:`AUTOMATION` lists the
tactics that decide such goals outright, refused where the proof is the task, and :func:`read_hand_script`
also refuses the combinators that let one fixed script search for the proof (:data:`SEARCH`, ``||`` and the
backtracking ``+``): ``intros; repeat match goal with ... end.`` (a case per connective) proved 8 of 10
level-0 goals and 5 of 10 at level 3 of ``proofs/coq_tautology``, and ``repeat first [assumption | split |
apply H; clear H | ...]`` 7 and 5, the same text for every problem.
"""

from __future__ import annotations

from palaestra.envs.proofs._fitch import Node
from palaestra.envs.proofs._logic import Formula
from palaestra.verifiers import coq

AUTOMATION = frozenset({"tauto", "intuition", "firstorder", "dtauto", "rtauto", "itauto", "auto", "eauto", "easy",
                        "now", "trivial", "congruence", "lia", "nia", "lra", "psatz", "btauto", "decide", "solve",
                        "zify",
                        # the variants under other names: "intros; dintuition." proved every drawn goal
                        "dintuition", "gintuition", "intuition_solver", "info_auto", "info_eauto", "info_trivial"})
SEARCH = frozenset({"repeat", "do", "try", "first", "progress", "once", "exactly_once", "tryif", "match",
                    "lazymatch", "multimatch", "rec"})
THEOREM = "taut"


def read_hand_script(answer: str, statement: str) -> str:
    """The tactic script of a proof written by hand (:func:`palaestra.verifiers.coq.read_script` with
    :data:`AUTOMATION` and :data:`SEARCH` refused), or why it is refused, prefixed by ``refused:``. Within a
    sentence, after its bullets, ``||`` and ``+`` (Ltac's alternatives; the statements hold no numbers) are
    refused too."""
    script = coq.read_script(answer, statement, AUTOMATION | SEARCH)
    if script.startswith("refused:"):
        return script
    for sentence in script.splitlines():
        body = sentence.lstrip("-+*{} \t")
        if "||" in body or "+" in body:
            return f"refused: {sentence.strip()[:60]!r} chains alternatives (|| or +), a search, not a proof by hand"
    return script


def coq_formula(formula: Formula) -> str:
    """The formula in Coq's syntax, every binary part below the top in brackets."""

    def inner(f: Formula, top: bool) -> str:
        kind = f[0]
        if kind == "atom":
            return str(f[1]).upper()
        if kind == "bot":
            return "False"
        if kind == "not":
            return "~ " + inner(f[1], False)
        symbol = {"and": "/\\", "or": "\\/", "imp": "->"}[kind]
        text = f"{inner(f[1], False)} {symbol} {inner(f[2], False)}"
        return text if top else f"({text})"

    return inner(formula, True)


def proof_term(tree: Node, premises: list[Formula]) -> str:
    """The natural-deduction tree as a Coq proof term, every implicit argument given (``@conj A B a b``), with
    the premises named ``H1``, ``H2``, ... and discharged assumptions ``h1``, ``h2``, ... ."""
    counter = [0]

    def fresh() -> str:
        counter[0] += 1
        return f"h{counter[0]}"

    def typ(f: Formula) -> str:
        return f"({coq_formula(f)})"

    def term(node: Node, scope: list[tuple[Formula, str]]) -> str:
        f, rule, kids = node.formula, node.rule, node.children
        if rule == "premise":
            return f"H{premises.index(f) + 1}"
        if rule == "hyp":
            return next(name for formula, name in reversed(scope) if formula == f)
        if rule in ("→I", "¬I"):
            name = fresh()
            return f"(fun {name} : {typ(f[1])} => {term(kids[0], [*scope, (f[1], name)])})"
        if rule == "∧I":
            return f"(@conj {typ(f[1])} {typ(f[2])} {term(kids[0], scope)} {term(kids[1], scope)})"
        if rule == "∧E":
            pair = kids[0].formula
            which = "proj1" if pair[1] == f else "proj2"
            return f"(@{which} {typ(pair[1])} {typ(pair[2])} {term(kids[0], scope)})"
        if rule == "∨I":
            which = "or_introl" if kids[0].formula == f[1] else "or_intror"
            return f"(@{which} {typ(f[1])} {typ(f[2])} {term(kids[0], scope)})"
        if rule == "∨E":
            either = kids[0].formula
            left, right = fresh(), fresh()
            return (f"(@or_ind {typ(either[1])} {typ(either[2])} {typ(f)} "
                    f"(fun {left} : {typ(either[1])} => {term(kids[1], [*scope, (either[1], left)])}) "
                    f"(fun {right} : {typ(either[2])} => {term(kids[2], [*scope, (either[2], right)])}) "
                    f"{term(kids[0], scope)})")
        if rule == "→E":
            return f"({term(kids[0], scope)} {term(kids[1], scope)})"
        if rule == "¬E":
            first, second = kids
            if second.formula == ("not", first.formula):
                return f"({term(second, scope)} {term(first, scope)})"
            return f"({term(first, scope)} {term(second, scope)})"
        if rule == "⊥E":
            return f"(@False_ind {typ(f)} {term(kids[0], scope)})"
        raise ValueError(f"rule {rule} has no intuitionistic proof term")

    return term(tree, [])


def tactic_script(tree: Node, premises: list[Formula]) -> list[str]:
    """The tree as tactic lines after ``intros`` of the premises ``H1``, ``H2``...: discharged assumptions are
    named ``h1``, ``h2``..., a subproof is a ``{ ... }`` block, an elimination refines its major premise."""
    counter = [0]

    def fresh() -> str:
        counter[0] += 1
        return f"h{counter[0]}"

    def typ(f: Formula) -> str:
        return f"({coq_formula(f)})"

    def block(lines: list[str]) -> list[str]:
        body = ["{ " + lines[0], *("  " + line for line in lines[1:])]
        body[-1] += " }"
        return body

    def name(node: Node, scope: list[tuple[Formula, str]]) -> str | None:
        if node.rule == "premise":
            return f"H{premises.index(node.formula) + 1}"
        if node.rule == "hyp":
            return next(n for formula, n in reversed(scope) if formula == node.formula)
        return None

    def function(node: Node, scope: list[tuple[Formula, str]]) -> tuple[list[str], str]:
        """Lines that put the proof of ``node`` (an implication or negation) in the context, and its name."""
        known = name(node, scope)
        if known is not None:
            return [], known
        held = fresh()
        return [f"assert ({held} : {coq_formula(node.formula)}).", *block(lines(node, scope))], held

    def lines(node: Node, scope: list[tuple[Formula, str]]) -> list[str]:
        f, rule, kids = node.formula, node.rule, node.children
        known = name(node, scope)
        if known is not None:
            return [f"exact {known}."]
        if rule in ("→I", "¬I"):
            held = fresh()
            return [f"intro {held}.", *lines(kids[0], [*scope, (f[1], held)])]
        if rule == "∧I":
            return ["split.", *block(lines(kids[0], scope)), *block(lines(kids[1], scope))]
        if rule == "∧E":
            pair = kids[0].formula
            which = "proj1" if pair[1] == f else "proj2"
            return [f"refine (@{which} {typ(pair[1])} {typ(pair[2])} _).", *lines(kids[0], scope)]
        if rule == "∨I":
            return ["left." if kids[0].formula == f[1] else "right.", *lines(kids[0], scope)]
        if rule == "∨E":
            either, held = kids[0].formula, fresh()
            left, right = fresh(), fresh()
            return [f"assert ({held} : {coq_formula(either)}).", *block(lines(kids[0], scope)),
                    f"destruct {held} as [{left} | {right}].", *block(lines(kids[1], [*scope, (either[1], left)])),
                    *block(lines(kids[2], [*scope, (either[2], right)]))]
        if rule in ("→E", "¬E"):
            major, minor = kids
            if rule == "¬E" and major.formula != ("not", minor.formula):
                major, minor = minor, major
            setup, held = function(major, scope)
            return [*setup, f"refine ({held} _).", *lines(minor, scope)]
        if rule == "⊥E":
            return ["exfalso.", *lines(kids[0], scope)]
        raise ValueError(f"rule {rule} has no intuitionistic tactic")

    return lines(tree, [])
