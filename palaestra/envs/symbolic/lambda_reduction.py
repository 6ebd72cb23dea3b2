"""Lambda calculus: reduce a closed lambda term to its beta-normal form.

Random closed terms rich in redexes (abstractions applied to arguments), kept when normal-order
reduction reaches a normal form within a step budget, after at least a few steps, without the
term growing past a size cap. By the Church-Rosser theorem the normal form is unique up to the
names of bound variables, so any alpha-equivalent spelling scores: the verifier parses the answer
(``λx.λy.x y``, ``\\x y. x y``, extra parentheses...) with a bounded recursive-descent parser
(at most ``MAX_TERM_CHARS`` characters and ``MAX_DEPTH`` nesting) into de Bruijn form and
compares it with the normal form.

Version 3: tiny normal forms (at most four nodes) are kept with chance 0.15, so the identity is no longer
the answer to a fifth of level 0 (now at most 0.08 for any one answer at levels 0-4 over 400 seeds).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.verifiers.normalize import read_answer, strip_wrappers, unify

MAX_TERM_CHARS = 2_000
MAX_DEPTH = 200
# Random terms mostly collapse to a few tiny normal forms (λx.x, λx.λy.x, λx.x x): those of at most this many
# nodes are kept only with this chance, so no constant answer pays more than 0.10 at any level.
SMALL_NORMAL = 4
SMALL_KEPT = 0.15
NAMES = ("x", "y", "z", "w", "u", "v", "f", "g", "h", "a", "b", "c", "d", "e", "k", "m", "n", "p", "q", "r", "s", "t")

# Named terms: ["var", name] | ["lam", name, body] | ["app", f, a]. De Bruijn: ("v", k) | ("l", b) | ("a", f, x) | ("f", name).
Named = list
Term = tuple


@register
class LambdaReduction(Task):
    id = "symbolic/lambda_reduction"
    version = 3
    family = "symbolic"
    description = "Reduce a closed lambda-calculus term to beta-normal form."
    tags = ("symbolic", "lambda-calculus", "rewriting")

    @dataclass(frozen=True)
    class Config:
        size: int  # nodes of the random term
        steps: tuple[int, int]  # normal-order steps to the normal form
        max_normal: int  # nodes of the normal form, at most

    presets = (
        Config(size=8, steps=(1, 3), max_normal=7),
        Config(size=10, steps=(2, 4), max_normal=9),
        Config(size=12, steps=(3, 6), max_normal=12),
        Config(size=15, steps=(5, 9), max_normal=14),
        Config(size=19, steps=(7, 14), max_normal=16),
    )
    # Capped at level 11's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"size": 47, "steps": (21, 49), "max_normal": 30})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[Term, Term, int] | None:
            term = _random_term(rng, [], config.size)
            result = normalize(term, config.steps[1], 4 * config.size + 20)
            if result is None:
                return None
            normal, steps = result
            if not config.steps[0] <= steps <= config.steps[1] or _size(normal) > config.max_normal:
                return None
            if _size(normal) <= SMALL_NORMAL and rng.random() >= SMALL_KEPT:
                return None  # thinned: λx.x alone was the answer to 0.20 of level 0 (0.12 of level 2)
            return term, normal, steps

        term, normal, steps = retry(draw, what="a term reaching a small normal form in the wanted number of steps")
        answer = show(to_named(normal))
        shown = show(to_named(term))
        example = "λa.λb.b a"  # a fixed placeholder: independent of the answer
        prompt = (
            "Reduce this lambda-calculus term to its beta-normal form:\n\n"
            f"{shown}\n\n"
            "Conventions: application is left-associative (f a b means (f a) b) and the body of λx. extends as far "
            "right as possible. Beta reduction replaces (λx.M) N by M with N put in place of x (avoiding capture). "
            "Keep reducing, inside abstractions too, until no redex is left. Write the result with λ (or \\), "
            f"dots and parentheses as needed; the names of bound variables do not matter. For example: {example}"
        )
        return Problem(prompt=prompt, answer=answer, data={"term": shown, "steps": steps})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        parsed = read_term(answer)
        if parsed is None:
            return Verdict.unparsed("expected a lambda term such as λx.λy.x y")
        term = parse_term(problem.data["term"])
        result = normalize(to_de_bruijn(term), problem.data["steps"], 10**6)
        if result is None:  # unreachable: the generator reduced this term within these steps
            return Verdict.failed("the stored term did not reduce within its steps")
        mine = to_de_bruijn(parsed)
        if mine == result[0]:
            return Verdict.right()
        if normalize(mine, 0, 10**6) is None:
            return Verdict.wrong("the answer still has a redex: it is not in normal form")
        return Verdict.wrong("not the normal form")

    def difficulty(self, problem: Problem) -> float:
        """Normal-order reduction steps."""
        return float(problem.data["steps"])

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        term = parse_term(gold)
        renamed = show(_rename(term, {}))
        return [*super().spellings(problem), gold.replace("λ", "\\"), renamed, _parenthesized(term),
                show(term, multi=True), f"{gold}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold = problem.answer or ""
        term = parse_term(problem.data["term"])
        one_step = normalize(to_de_bruijn(term), 1, 10**6, partial=True)
        wrong = [problem.data["term"], f"({gold}) ({gold})"]
        if one_step is not None and one_step[0] != normalize(to_de_bruijn(term), 10**3, 10**6)[0]:
            wrong.append(show(to_named(one_step[0])))
        body = re.sub(r"^λ\w+\.", "", gold)
        if body != gold and "λ" not in body[:1]:
            wrong.append(body)  # a binder dropped
        return wrong


# --- terms ----------------------------------------------------------------------------------------------------------

def _random_term(rng: random.Random, bound: list[str], size: int) -> Term:
    """A random closed de Bruijn term of about ``size`` nodes, biased toward redexes."""
    depth = len(bound)
    if size <= 1:
        return ("v", rng.randrange(depth)) if depth else ("l", ("v", 0))
    roll = rng.random()
    if roll < 0.35 or depth == 0:
        return ("l", _random_term(rng, [*bound, "x"], size - 1))
    left = rng.randint(1, size - 1)
    if roll < 0.75:  # a redex: an abstraction applied to something
        return ("a", ("l", _random_term(rng, [*bound, "x"], max(1, left - 1))), _random_term(rng, bound, size - left))
    return ("a", _random_term(rng, bound, left), _random_term(rng, bound, size - left))


def _size(term: Term) -> int:
    if term[0] in ("v", "f"):
        return 1
    return 1 + sum(_size(t) for t in term[1:])


def _shift(term: Term, by: int, cutoff: int = 0) -> Term:
    kind = term[0]
    if kind == "v":
        return ("v", term[1] + by) if term[1] >= cutoff else term
    if kind == "f":
        return term
    if kind == "l":
        return ("l", _shift(term[1], by, cutoff + 1))
    return ("a", _shift(term[1], by, cutoff), _shift(term[2], by, cutoff))


def _substitute(term: Term, index: int, value: Term) -> Term:
    kind = term[0]
    if kind == "v":
        return value if term[1] == index else term
    if kind == "f":
        return term
    if kind == "l":
        return ("l", _substitute(term[1], index + 1, _shift(value, 1)))
    return ("a", _substitute(term[1], index, value), _substitute(term[2], index, value))


def _step(term: Term) -> Term | None:
    """One leftmost-outermost beta step, or None in normal form."""
    kind = term[0]
    if kind == "a":
        head = term[1]
        if head[0] == "l":
            return _shift(_substitute(head[1], 0, _shift(term[2], 1)), -1)
        left = _step(head)
        if left is not None:
            return ("a", left, term[2])
        right = _step(term[2])
        return None if right is None else ("a", head, right)
    if kind == "l":
        body = _step(term[1])
        return None if body is None else ("l", body)
    return None


def normalize(term: Term, max_steps: int, max_size: int, partial: bool = False) -> tuple[Term, int] | None:
    """``(normal form, steps)`` by normal-order reduction, or None past ``max_steps`` steps or ``max_size`` nodes.

    ``partial``: return the term reached after ``max_steps`` steps even if it is not normal.
    """
    for steps in range(max_steps + 1):
        nxt = _step(term)
        if nxt is None:
            return term, steps
        if steps == max_steps:
            return (nxt, steps + 1) if partial else None
        if _size(nxt) > max_size:
            return None
        term = nxt
    return None


def to_named(term: Term, depth: int = 0) -> Named:
    kind = term[0]
    if kind == "v":
        return ["var", NAMES[(depth - 1 - term[1]) % len(NAMES)]]
    if kind == "f":
        return ["var", term[1]]
    if kind == "l":
        return ["lam", NAMES[depth % len(NAMES)], to_named(term[1], depth + 1)]
    return ["app", to_named(term[1], depth), to_named(term[2], depth)]


def to_de_bruijn(term: Named, scope: tuple[str, ...] = ()) -> Term:
    kind = term[0]
    if kind == "var":
        for k, name in enumerate(reversed(scope)):
            if name == term[1]:
                return ("v", k)
        return ("f", term[1])
    if kind == "lam":
        return ("l", to_de_bruijn(term[2], (*scope, term[1])))
    return ("a", to_de_bruijn(term[1], scope), to_de_bruijn(term[2], scope))


def show(term: Named, multi: bool = False) -> str:
    """The usual notation; ``multi`` joins nested binders (``λx y.``)."""
    kind = term[0]
    if kind == "var":
        return term[1]
    if kind == "lam":
        names, body = [term[1]], term[2]
        while multi and body[0] == "lam":
            names.append(body[1])
            body = body[2]
        if multi:
            return f"λ{' '.join(names)}.{show(body, multi)}"
        return f"λ{term[1]}.{show(term[2], multi)}"
    left, right = term[1], term[2]
    left_text = f"({show(left, multi)})" if left[0] == "lam" else show(left, multi)
    right_text = f"({show(right, multi)})" if right[0] != "var" else show(right, multi)
    return f"{left_text} {right_text}"


def _rename(term: Named, names: dict[str, str]) -> Named:
    """The same term with every bound variable renamed (x -> x1, ...)."""
    if term[0] == "var":
        return ["var", names.get(term[1], term[1])]
    if term[0] == "lam":
        fresh = f"{term[1]}1"
        return ["lam", fresh, _rename(term[2], {**names, term[1]: fresh})]
    return ["app", _rename(term[1], names), _rename(term[2], names)]


def _parenthesized(term: Named) -> str:
    """Every abstraction and application in parentheses, backslash for lambda."""
    if term[0] == "var":
        return term[1]
    if term[0] == "lam":
        return f"(\\{term[1]}. {_parenthesized(term[2])})"
    return f"({_parenthesized(term[1])} {_parenthesized(term[2])})"


# --- parsing (bounded) -------------------------------------------------------------------------------------------

_TOKEN = re.compile(r"\s*(?:(λ|\\|lambda\b)|([A-Za-z][A-Za-z0-9_']*)|(\.|->|→)|(\()|(\)))")


class _Unreadable(Exception):
    pass


def _tokens(text: str) -> list[tuple[str, str]]:
    tokens, position = [], 0
    text = text.rstrip()
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:
            raise _Unreadable
        kinds = ("lambda", "name", "dot", "open", "close")
        kind = next(k for k, g in zip(kinds, match.groups()) if g is not None)
        tokens.append((kind, match.group().strip()))
        position = match.end()
    return tokens


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.tokens, self.i, self.depth = tokens, 0, 0

    def peek(self) -> str | None:
        return self.tokens[self.i][0] if self.i < len(self.tokens) else None

    def take(self, kind: str) -> str:
        if self.peek() != kind:
            raise _Unreadable
        self.i += 1
        return self.tokens[self.i - 1][1]

    def term(self) -> Named:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _Unreadable
        if self.peek() == "lambda":
            self.take("lambda")
            names = [self.take("name")]
            while self.peek() == "name":
                names.append(self.take("name"))
            self.take("dot")
            body = self.term()
            for name in reversed(names):
                body = ["lam", name, body]
            self.depth -= 1
            return body
        result = self.atom()
        while self.peek() in ("name", "open", "lambda"):
            argument = self.term() if self.peek() == "lambda" else self.atom()
            result = ["app", result, argument]
        self.depth -= 1
        return result

    def atom(self) -> Named:
        if self.peek() == "name":
            return ["var", self.take("name")]
        self.take("open")
        inner = self.term()
        self.take("close")
        return inner


def _depth(term: Named) -> int:
    """Nesting depth, counted without recursion: a long application chain nests one level per argument, and
    every later step (de Bruijn conversion, reduction) recurses that deep."""
    deepest, stack = 0, [(term, 1)]
    for _ in range(4 * MAX_TERM_CHARS):
        if not stack:
            break
        node, level = stack.pop()
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            break
        stack.extend((child, level + 1) for child in node[1:] if isinstance(child, list))
    return deepest


def read_term(text: str) -> Named | None:
    """A written answer: a lambda term, wrappers and a short trailing remark read past. A name nothing binds
    whose letters are all bound one-letter names is their application (``λx.λy.xy`` is ``λx.λy.x y``)."""
    if not isinstance(text, str) or len(text) > MAX_TERM_CHARS:
        return None
    term = read_answer(unify(text), parse_term)
    return None if term is None else _split_juxtaposed(term, ())


def _split_juxtaposed(term: Named, scope: tuple[str, ...]) -> Named:
    kind = term[0]
    if kind == "var":
        name = term[1]
        if name in scope or len(name) < 2 or not all(letter in scope for letter in name):
            return term
        result: Named = ["var", name[0]]
        for letter in name[1:]:
            result = ["app", result, ["var", letter]]
        return result
    if kind == "lam":
        return ["lam", term[1], _split_juxtaposed(term[2], (*scope, term[1]))]
    return ["app", _split_juxtaposed(term[1], scope), _split_juxtaposed(term[2], scope)]


def parse_term(text: str) -> Named | None:
    """A lambda term from text (``λ``, ``\\`` or ``lambda``; ``λx y.`` for nested binders), or None."""
    if not isinstance(text, str) or len(text) > MAX_TERM_CHARS:
        return None
    s = strip_wrappers(unify(text)).strip()
    try:
        parser = _Parser(_tokens(s))
        term = parser.term()
        return term if parser.i == len(parser.tokens) and _depth(term) <= MAX_DEPTH else None
    except (_Unreadable, RecursionError):
        return None
