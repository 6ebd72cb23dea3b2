"""Type inference: the most general type of a small ML expression (Hindley-Milner).

Random closed expressions of a small ML: ``fun x -> e``, application, ``let x = e in e`` (its
variable generalised, so it may be used at several types), ``if c then a else b``, pairs, integer
and boolean literals, and the built-ins ``add : int -> int -> int``, ``not : bool -> bool``,
``fst``, ``snd``. Expressions are drawn until one is well typed (Algorithm W, with the occurs
check) and, from level 1, its type has a type variable. The principal type is unique up to
renaming its type variables, so the verifier parses the answer (``('a -> 'b) -> 'a -> 'b``;
Haskell-style ``(a -> b) -> a -> b`` and ``Int`` too; redundant parentheses anywhere) with a
bounded parser and compares after naming the variables in order of first appearance. A product
of three without parentheses (``'a * 'b * 'c``, a triple in ML) is refused as ambiguous: this
language has only pairs.

Version 3: a pair's first item that is a ``fun``, ``let`` or ``if`` is printed in parentheses. Before, ``(fun y -> 4,
x)`` was shown for the pair of ``fun y -> 4`` and ``x``, which the prompt's rule (and OCaml) reads as ``fun y -> (4,
x)``: 0.14-0.48 of the problems per level were printed ambiguously, and a solver following the stated rule was
marked wrong on them.

Generation speed: about 380 problems/s at level 4. About 56 in 57 random expressions are redrawn because they are
ill typed or, from level 1, their type has no type variable, and each is typed by Algorithm W; the redraws keep the
questions to well-typed, polymorphic expressions.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.verifiers.normalize import read_answer, strip_wrappers, unify

MAX_TYPE_CHARS = 1_000
MAX_DEPTH = 100
VARIABLES = ("x", "y", "z", "f", "g", "h", "p", "q", "u", "v", "w", "k")
BUILTINS = {
    "add": ["fn", ["int"], ["fn", ["int"], ["int"]]],
    "not": ["fn", ["bool"], ["bool"]],
    "fst": ["fn", ["pair", ["tvar", 0], ["tvar", 1]], ["tvar", 0]],
    "snd": ["fn", ["pair", ["tvar", 0], ["tvar", 1]], ["tvar", 1]],
}

Expr = list
Type = list


class _TypeError(Exception):
    pass


@register
class TypeInference(Task):
    id = "symbolic/type_inference"
    version = 3  # v3: a fun, let or if as a pair's first item is parenthesised (it was printed so that the
    # stated rule "fun extends as far right as possible" read another expression than the one typed)
    family = "symbolic"
    description = "Give the most general (Hindley-Milner) type of a small ML expression."
    tags = ("symbolic", "types", "inference")

    @dataclass(frozen=True)
    class Config:
        size: tuple[int, int]  # expression nodes
        features: tuple[str, ...]  # constructs beyond fun and application
        polymorphic: bool  # the type must contain a type variable

    presets = (
        Config(size=(7, 9), features=("int", "bool", "add", "not", "if", "pair", "fst", "snd"),
                        polymorphic=False),
        Config(size=(9, 11), features=("int", "bool", "add", "not", "if", "pair"), polymorphic=True),
        Config(size=(11, 13), features=("int", "bool", "add", "if", "pair", "fst", "snd"), polymorphic=True),
        Config(size=(13, 16), features=("int", "bool", "add", "not", "if", "pair", "fst", "snd", "let"),
                        polymorphic=True),
        Config(size=(16, 20), features=("int", "bool", "add", "not", "if", "pair", "fst", "snd", "let"),
                        polymorphic=True),
    )
    bounded = "larger configs are infeasible for its generator (no valid problem in 1,000 draws past the presets)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[Expr, Type] | None:
            size = rng.randint(*config.size)
            expr = _random_expr(rng, [], size, config.features)
            if _size(expr) < config.size[0]:
                return None
            try:
                kind = infer(expr)
            except _TypeError:
                return None
            if config.polymorphic and not _has_variable(kind):
                return None
            return expr, kind

        expr, kind = retry(draw, what="a well-typed expression")
        answer = show_type(kind)
        example = "(int -> 'a) -> 'a * bool"  # a fixed placeholder: independent of the answer
        prompt = (
            "In a small ML language (like OCaml), what is the most general type of this expression?\n\n"
            f"{show(expr)}\n\n"
            "Built-ins: add : int -> int -> int, not : bool -> bool, fst : 'a * 'b -> 'a, snd : 'a * 'b -> 'b. "
            "Application is left-associative; fun x -> ... extends as far right as possible; a let-bound name may "
            "be used at different types (let-polymorphism).\n"
            "Write the type with type variables 'a, 'b, ... (their names do not matter), -> for functions "
            "(right-associative) and * for pairs (binding tighter than ->; put a pair inside a pair in "
            f"parentheses), for example: {example}"
        )
        return Problem(prompt=prompt, answer=answer, data={"expr": expr})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        said = read_type(answer)
        if said is None:
            return Verdict.unparsed("expected a type such as 'a -> int -> 'a")
        return Verdict.judge(canonical(said) == canonical(infer(problem.data["expr"])))

    def difficulty(self, problem: Problem) -> float:
        """Nodes of the expression."""
        return float(_size(problem.data["expr"]))

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        haskell = gold.replace("'", "")
        renamed = re.sub(r"'([a-z])", lambda m: "'t" + str(ord(m.group(1)) - 96), gold)
        return [*super().spellings(problem), haskell, renamed, f"`{gold}`", f"{gold}.",
                haskell.replace("int", "Int").replace("bool", "Bool"), f"({gold})"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        kind = infer(problem.data["expr"])
        wrong = [f"{show_type(kind)} -> int", "int", f"{problem.answer} or int"]
        variables = sorted(set(re.findall(r"'[a-z]", problem.answer or "")))
        if len(variables) >= 2:
            wrong.append((problem.answer or "").replace(variables[1], variables[0]))  # two variables merged
        elif variables:
            wrong.append((problem.answer or "").replace(variables[0], "int"))  # less general
        if kind[0] == "fn":
            wrong.append(show_type(["fn", kind[2], kind[1]]) if canonical(kind[1]) != canonical(kind[2]) else "bool")
        return [w for w in wrong if (parsed := read_type(w)) is None or canonical(parsed) != canonical(kind)]


# --- expressions ------------------------------------------------------------------------------------------------

def _random_expr(rng: random.Random, scope: list[str], size: int, features: tuple[str, ...]) -> Expr:
    if size <= 1:
        leaves = [["var", v] for v in scope]
        if "int" in features:
            leaves.append(["int", rng.randint(0, 9)])
        if "bool" in features:
            leaves.append(["bool", rng.random() < 0.5])
        leaves += [["var", b] for b in ("add", "not", "fst", "snd") if b in features]
        if scope:
            leaves += [["var", v] for v in scope] * 2  # prefer the bound variables
        return rng.choice(leaves) if leaves else ["int", 0]
    name = VARIABLES[len(scope) % len(VARIABLES)]
    options = ["fun", "app", "app"]
    if "if" in features and size >= 4:
        options.append("if")
    if "pair" in features and size >= 3:
        options.append("pair")
    if "let" in features and size >= 4:
        options.append("let")
    kind = rng.choice(options) if scope else "fun"
    if kind == "fun":
        return ["fun", name, _random_expr(rng, [*scope, name], size - 1, features)]
    if kind in ("app", "pair"):
        left = rng.randint(1, size - 2) if size > 2 else 1
        return [kind, _random_expr(rng, scope, left, features), _random_expr(rng, scope, size - 1 - left, features)]
    if kind == "if":
        a = rng.randint(1, size - 3)
        b = rng.randint(1, size - 2 - a)
        return ["if", _random_expr(rng, scope, a, features), _random_expr(rng, scope, b, features),
                _random_expr(rng, scope, size - 1 - a - b, features)]
    bound = rng.randint(1, size - 2)
    return ["let", name, _random_expr(rng, scope, bound, features),
            _random_expr(rng, [*scope, name], size - 1 - bound, features)]


def _size(expr: Expr) -> int:
    kind = expr[0]
    if kind in ("var", "int", "bool"):
        return 1
    if kind == "fun":
        return 1 + _size(expr[2])
    if kind == "let":
        return 1 + _size(expr[2]) + _size(expr[3])
    return 1 + sum(_size(e) for e in expr[1:])


def show(expr: Expr) -> str:
    kind = expr[0]
    if kind == "var":
        return expr[1]
    if kind == "int":
        return str(expr[1])
    if kind == "bool":
        return "true" if expr[1] else "false"
    if kind == "fun":
        return f"fun {expr[1]} -> {show(expr[2])}"
    if kind == "let":
        return f"let {expr[1]} = {show(expr[2])} in {show(expr[3])}"
    if kind == "if":
        return f"if {show(expr[1])} then {show(expr[2])} else {show(expr[3])}"
    if kind == "pair":  # a fun, let or if before the comma would extend over it: (fun y -> 4, x) is fun y -> (4, x)
        first = f"({show(expr[1])})" if expr[1][0] in ("fun", "let", "if") else show(expr[1])
        return f"({first}, {show(expr[2])})"
    left, right = expr[1], expr[2]
    left_text = show(left) if left[0] in ("var", "int", "bool", "app", "pair") else f"({show(left)})"
    right_text = show(right) if right[0] in ("var", "int", "bool", "pair") else f"({show(right)})"
    return f"{left_text} {right_text}"


# --- Algorithm W -------------------------------------------------------------------------------------------------

class _Inference:
    def __init__(self) -> None:
        self.bindings: dict[int, Type] = {}
        self.fresh_count = 0

    def fresh(self) -> Type:
        self.fresh_count += 1
        return ["tvar", self.fresh_count + 1000]

    def resolve(self, t: Type) -> Type:
        for _ in range(10_000):
            if t[0] == "tvar" and t[1] in self.bindings:
                t = self.bindings[t[1]]
            else:
                return t
        raise _TypeError("cyclic binding")

    def full(self, t: Type) -> Type:
        t = self.resolve(t)
        if t[0] in ("fn", "pair"):
            return [t[0], self.full(t[1]), self.full(t[2])]
        return t

    def occurs(self, var: int, t: Type) -> bool:
        t = self.resolve(t)
        if t[0] == "tvar":
            return t[1] == var
        return t[0] in ("fn", "pair") and (self.occurs(var, t[1]) or self.occurs(var, t[2]))

    def unify(self, a: Type, b: Type) -> None:
        a, b = self.resolve(a), self.resolve(b)
        if a[0] == "tvar":
            if a != b:
                if self.occurs(a[1], b):
                    raise _TypeError("infinite type")
                self.bindings[a[1]] = b
            return
        if b[0] == "tvar":
            self.unify(b, a)
            return
        if a[0] != b[0]:
            raise _TypeError(f"{a[0]} is not {b[0]}")
        if a[0] in ("fn", "pair"):
            self.unify(a[1], b[1])
            self.unify(a[2], b[2])

    def free(self, t: Type) -> set[int]:
        t = self.resolve(t)
        if t[0] == "tvar":
            return {t[1]}
        if t[0] in ("fn", "pair"):
            return self.free(t[1]) | self.free(t[2])
        return set()

    def instantiate(self, scheme: tuple[set[int], Type]) -> Type:
        quantified, t = scheme
        mapping = {v: self.fresh() for v in quantified}

        def copy(u: Type) -> Type:
            u = self.resolve(u)
            if u[0] == "tvar":
                return mapping.get(u[1], u)
            if u[0] in ("fn", "pair"):
                return [u[0], copy(u[1]), copy(u[2])]
            return u

        return copy(t)

    def infer(self, expr: Expr, env: dict[str, tuple[set[int], Type]]) -> Type:
        kind = expr[0]
        if kind == "int":
            return ["int"]
        if kind == "bool":
            return ["bool"]
        if kind == "var":
            if expr[1] not in env:
                raise _TypeError(f"unbound {expr[1]}")
            return self.instantiate(env[expr[1]])
        if kind == "fun":
            argument = self.fresh()
            body = self.infer(expr[2], {**env, expr[1]: (set(), argument)})
            return ["fn", argument, body]
        if kind == "app":
            function, argument, result = self.infer(expr[1], env), self.infer(expr[2], env), self.fresh()
            self.unify(function, ["fn", argument, result])
            return result
        if kind == "pair":
            return ["pair", self.infer(expr[1], env), self.infer(expr[2], env)]
        if kind == "if":
            self.unify(self.infer(expr[1], env), ["bool"])
            then = self.infer(expr[2], env)
            self.unify(then, self.infer(expr[3], env))
            return then
        bound = self.infer(expr[2], env)  # let
        in_env = set().union(*(self.free(t) - q for q, t in env.values())) if env else set()
        scheme = (self.free(bound) - in_env, bound)
        return self.infer(expr[3], {**env, expr[1]: scheme})


def infer(expr: Expr) -> Type:
    """The principal type of a closed expression (raises on a type error)."""
    state = _Inference()
    env = {name: ({0, 1}, t) for name, t in BUILTINS.items()}
    return state.full(state.infer(expr, env))


def _has_variable(t: Type) -> bool:
    return t[0] == "tvar" or (t[0] in ("fn", "pair") and (_has_variable(t[1]) or _has_variable(t[2])))


def canonical(t: Type, names: dict | None = None) -> Type:
    """``t`` with its type variables renumbered 0, 1, ... in order of first appearance."""
    names = {} if names is None else names
    if t[0] == "tvar":
        return ["tvar", names.setdefault(t[1], len(names))]
    if t[0] in ("fn", "pair"):
        return [t[0], canonical(t[1], names), canonical(t[2], names)]
    return t


def show_type(t: Type, names: dict | None = None) -> str:
    names = {} if names is None else names
    kind = t[0]
    if kind == "tvar":
        index = names.setdefault(t[1], len(names))
        return "'" + (chr(97 + index) if index < 26 else f"t{index}")
    if kind in ("int", "bool"):
        return kind
    if kind == "pair":
        parts = [show_type(p, names) for p in t[1:]]
        parts = [f"({s})" if p[0] in ("fn", "pair") else s for p, s in zip(t[1:], parts)]
        return f"{parts[0]} * {parts[1]}"
    left = show_type(t[1], names)
    if t[1][0] == "fn":
        left = f"({left})"
    return f"{left} -> {show_type(t[2], names)}"


# --- parsing types (bounded) --------------------------------------------------------------------------------------

# what a toplevel or a paper writes around a type: "val f : ...", "- : ... = <fun>", "∀a b. ..."
_DECLARATION = re.compile(r"^\s*(?:(?:val\s+)?[A-Za-z_][\w']*\s*:(?!:)|-\s*:|(?:forall|∀)\s+[\w\s']+\.)\s*|\s*=\s*<fun>\s*$")
_TYPE_TOKEN = re.compile(r"\s*(?:(->|→)|(\*|×)|(\()|(\))|('?[A-Za-zα-ω][A-Za-z0-9_]*))")


def _parse_type(text: str) -> Type | None:
    tokens, position = [], 0
    text = text.strip()
    while position < len(text):
        match = _TYPE_TOKEN.match(text, position)
        if match is None or match.end() == position:
            return None
        tokens.append(next((k, g) for k, g in zip(("arrow", "star", "open", "close", "name"), match.groups()) if g))
        position = match.end()
    index = [0]
    names: dict[str, int] = {}

    def peek() -> str | None:
        return tokens[index[0]][0] if index[0] < len(tokens) else None

    def arrow(depth: int) -> Type:
        if depth > MAX_DEPTH:
            raise _TypeError("too deep")
        left = product(depth)
        if peek() == "arrow":
            index[0] += 1
            return ["fn", left, arrow(depth + 1)]
        return left

    def product(depth: int) -> Type:
        left = atom(depth)
        if peek() == "star":
            index[0] += 1
            left = ["pair", left, atom(depth)]
            if peek() == "star":  # a * b * c: a triple in ML, which this language has not; pairs need parentheses
                raise _TypeError("ambiguous product")
        return left

    def atom(depth: int) -> Type:
        kind = peek()
        if kind == "open":
            index[0] += 1
            inner = arrow(depth + 1)
            if peek() != "close":
                raise _TypeError("unclosed")
            index[0] += 1
            return inner
        if kind == "name":
            word = tokens[index[0]][1]
            index[0] += 1
            if word.lower() in ("int", "bool"):  # Haskell spells them Int and Bool
                return [word.lower()]
            if word[0] != "'" and len(word) > 2 and not re.fullmatch(r"t\d+", word):
                raise _TypeError("unknown type name")  # a type variable is a short name; long words are prose
            return ["tvar", names.setdefault(word.lstrip("'"), len(names))]
        raise _TypeError("expected a type")

    try:
        result = arrow(0)
    except (_TypeError, RecursionError):
        return None
    return result if index[0] == len(tokens) else None


def read_type(text: str) -> Type | None:
    """A type from text: ``int``, ``bool``, type variables (``'a``, ``a``, ``α``), ``->``, ``*``, parentheses."""
    if not isinstance(text, str) or len(text) > MAX_TYPE_CHARS:
        return None
    text = strip_wrappers(unify(text))
    return read_answer(text, _parse_type) or read_answer(_DECLARATION.sub("", text, count=2), _parse_type)
