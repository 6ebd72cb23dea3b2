"""Are two bit-vector functions equivalent? If not, give an input on which they differ.

``f`` is a random expression over w-bit unsigned inputs (``+ - * & | ^ << >>`` with wrap-around)
holding one select ``A if d(p) cmp c else A ⊕ T``: ``d(p) = p * m + a`` is an invertible function of
an input ``p`` (``m`` odd), so exactly one value of ``p``, the *switching point*, has ``d(p) = c``,
and the other branch is the same ``A`` nudged by ``T = (p ^ k) & bits`` (``⊕`` is ``+`` or ``^``).
``g`` comes from ``f`` by moving that select's boundary by one, written with the same symbols
(``d < c`` as ``d <= c``; as ``d >= c + 1`` with the branches swapped, ...), then by identities at
random places that hold for every input (commuting, ``a + b`` as ``(a ^ b) + ((a & b) << 1)``,
``a | b`` as ``(a ^ b) + (a & b)``, ``a ^ b`` as ``(a | b) - (a & b)``, a shift as a multiplication
by a power of two, a select with its condition negated and branches swapped or its comparison
mirrored, a subtraction of a constant as an addition of its complement).

So f and g can differ only at the switching point, and there they differ exactly when ``T`` is not
zero there: the label is decided by ``k`` agreeing with the switching point on ``bits``, which
needs the switching point (solving ``p * m + a = c`` modulo 2^w), not a comparison of the printed
constants. Every pair moves a boundary by one, so comparing thresholds says nothing, and a guess at
the printed threshold is almost never the switching point.

``equivalent`` has no short proof, so it is the certificate-free side: only 20% of pairs are
equivalent (``EQUIVALENT_SHARE``), and a constant ``equivalent`` scores about 0.20. It must be said
alone: an input with ``equivalent`` beside it is a hedge and is not read.

The label is proven at generation: f and g are equivalent exactly when they agree on every input
with ``p`` pinned to the switching point; the inputs left free are run exhaustively when there are
at most 2^16 of them, otherwise z3 decides (bit-vector logic, deterministic resource limit). A draw
whose status differs from the one drawn is drawn again. The answer is ``equivalent`` or an input
on which the two differ (``x = 5, y = 17``; ``not equivalent: x = 5`` reads too); **any** such input
is accepted, checked by running both.

Generation speed: about 500 problems/s at level 4 on this 2-core machine. Each draw decides whether the
two programs are equivalent: the free inputs are run exhaustively up to 2^16 of them, otherwise random
inputs are tried and, when none separates the two, z3 proves equivalence over bit-vectors; the z3 calls
(and loading z3 on first use) are most of the time, and that proof is what makes every yes answer true.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.verification.common import (
    COMPARISONS,
    read_word,
    require_z3,
    semantics_note,
    without_values_label,
    z3_compare,
)
from palaestra.verifiers.assignments import read_assignment
from palaestra.verifiers.claims import has_digit, mentions
from palaestra.verifiers.normalize import read_answer, strip_wrappers, unify

EXHAUSTIVE_BITS = 16  # input spaces up to 2^16 are checked by running every input; larger ones by z3
_SAMPLES = 32  # random inputs tried for a separating one before z3 is asked
RLIMIT = 400_000  # z3 resource units for one equivalence proof (deterministic); more means a redraw
_EQUIVALENT = frozenset({"equivalent", "they are equivalent", "the functions are equivalent", "f and g are equivalent",
                         "yes, equivalent", "equivalent functions", "f = g", "f == g", "yes"})
_NOT_EQUIVALENT = ("not equivalent", "they are not equivalent", "the functions are not equivalent",
                   "f and g are not equivalent", "no")
_COMMUTATIVE = ("+", "*", "&", "|", "^")
EQUIVALENT_SHARE = 0.2  # the certificate-free side is rare, so answering it blindly pays little
_EQUIVALENT_MENTIONS = ("equivalent", "yes", "f = g", "f == g")
_MIRROR = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_NEGATE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


@register
class ProgramEquivalence(Task):
    id = "verification/program_equivalence"
    family = "verification"
    description = "Decide whether two bit-vector functions are equivalent; if not, give an input where they differ."
    tags = ("verification", "bit-vectors", "equivalence-checking", "smt")
    max_answer_chars = 600
    python_requires = ("z3",)
    version = 2
    certificate_free = ("equivalent",)

    @dataclass(frozen=True)
    class Config:
        width: int
        inputs: int
        depth: int  # of the random subexpressions around the select
        rewrites: int  # identity rewrites besides the paired one

    presets = (
        Config(width=8, inputs=1, depth=1, rewrites=1),
        Config(width=8, inputs=2, depth=1, rewrites=2),
        Config(width=16, inputs=1, depth=2, rewrites=2),
        Config(width=16, inputs=2, depth=2, rewrites=3),
        Config(width=32, inputs=2, depth=2, rewrites=4),
    )
    # Capped at level 12's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"width": 160, "inputs": 10, "depth": 10, "rewrites": 12})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        names = ["x", "y"][: config.inputs]
        equivalent = rng.random() < EQUIVALENT_SHARE

        def draw() -> tuple[list, list, dict[str, int] | None] | None:
            first, pinned = _function(rng, config, names, equivalent)
            paired = _paired_rewrite(rng, first, config.width, slip=True)
            if paired is None:
                return None
            second = paired[0]
            for _ in range(config.rewrites):
                second = _rewrite(rng, second, config.width)
            witness = _difference(rng, first, second, config.width, names, pinned)
            if witness == "unknown" or (witness is None) != equivalent:
                return None  # a slip that keeps the meaning, or a proof past the budget: draw again
            return first, second, witness

        first, second, witness = retry(draw, attempts=50, what="a pair of functions with the drawn status")
        example = ", ".join(f"{n} = {v}" for n, v in zip(names, (12, 200)))
        prompt = (
            f"{semantics_note(config.width)}\n\n"
            f"f({', '.join(names)}) = {render(first)}\n"
            f"g({', '.join(names)}) = {render(second)}\n\n"
            f"Are f and g equivalent, that is, equal on every input (each input ranging over 0..{(1 << config.width) - 1})? "
            "If they are, answer with the single word equivalent. If not, answer with an input on which they "
            f"return different values, giving every argument, written like: {example}"
        )
        answer = "equivalent" if witness is None else ", ".join(f"{n} = {witness[n]}" for n in names)
        data = {"width": config.width, "inputs": names, "first": first, "second": second, "equivalent": equivalent}
        return Problem(prompt=prompt, answer=answer, data=data)

    def difficulty(self, problem: Problem) -> float:
        """Operations in both functions times the input bits."""
        data = problem.data
        return float((_size(data["first"]) + _size(data["second"])) * data["width"] * len(data["inputs"]))

    def surface_features(self, problem: Problem) -> dict[str, float]:
        first, second = problem.data["first"], problem.data["second"]
        a, b = render(first), render(second)
        return {
            "length difference": float(len(b) - len(a)),
            "size difference": float(_size(second) - _size(first)),
            "selects": float(a.count(" if ") + b.count(" if ")),
            "'=' in g": float(b.count("=")),
            "digits difference": float(sum(c.isdigit() for c in b) - sum(c.isdigit() for c in a)),
            "same constants": float(sorted(_constants(first)) == sorted(_constants(second))),
        }

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if not isinstance(answer, str) or len(answer) > self.max_answer_chars:
            return Verdict.unparsed("answer too long")
        data = problem.data
        bare = strip_wrappers(unify(answer)).strip().rstrip(".!").strip().lower()
        if not has_digit(answer) and read_answer(unify(answer), _read_equivalent):
            return Verdict.judge(data["equivalent"], "f and g are not equivalent")
        names = data["inputs"]
        text = without_values_label(_drop_verdict(strip_wrappers(unify(answer))))
        if mentions(text, _EQUIVALENT_MENTIONS, unless_after=("not",)):
            return Verdict.unparsed("the answer gives both an input and 'equivalent'")
        values = read_assignment(text, names, read_word, max_chars=self.max_answer_chars)
        if values is None and len(names) == 1:
            single = read_answer(text, read_word)
            values = None if single is None else {names[0]: single}
        if values is None:
            if bare.rstrip(":;,") in _NOT_EQUIVALENT:
                return Verdict.wrong("a counterexample input is needed, not just the verdict")
            return Verdict.unparsed("expected equivalent, or a value for every argument, e.g. "
                                    + ", ".join(f"{n} = 3" for n in names))
        top = (1 << data["width"]) - 1
        for name in names:
            if not 0 <= values[name] <= top:
                return Verdict.wrong(f"{name} is outside 0..{top}")
        a, b = (evaluate(data[k], values, data["width"]) for k in ("first", "second"))
        return Verdict.judge(a != b, f"f and g both return {a} on this input")

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        if problem.data["equivalent"]:
            return [*super().spellings(problem), "Equivalent.", "EQUIVALENT", "They are equivalent.", "**equivalent**",
                    "Equivalent."]
        pairs = gold.split(", ")
        values = [int(p.split(" = ")[1]) for p in pairs]
        out = [*super().spellings(problem), f"Not equivalent: {gold}", "; ".join(p.replace(" ", "") for p in pairs),
               ", ".join(f"{p.split(' = ')[0]} = {hex(v)}" for p, v in zip(pairs, values)), f"{gold}."]
        if len(pairs) == 1:
            out.append(str(values[0]))
        return out

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        names, width = data["inputs"], data["width"]
        top = (1 << width) - 1
        if data["equivalent"]:
            return ["not equivalent", ", ".join(f"{n} = {rng.randrange(top + 1)}" for n in names), "maybe"]
        wrong = ["equivalent", "not equivalent", f"{problem.answer}. Equivalent.", f"equivalent ({problem.answer})"]
        for _ in range(30):  # an input where both agree, found by running them
            values = {n: rng.randrange(top + 1) for n in names}
            if evaluate(data["first"], values, width) == evaluate(data["second"], values, width):
                wrong.append(", ".join(f"{n} = {values[n]}" for n in names))
                break
        return wrong


def _read_equivalent(text: str) -> bool | None:
    return True if text.strip().rstrip(".!").strip().lower() in _EQUIVALENT else None


def _drop_verdict(text: str) -> str:
    """The text after a leading ``not equivalent`` verdict and a name for the input (``Not equivalent: x = 5``,
    ``Counterexample: x = 5``, ``They differ at x = 5`` -> ``x = 5``)."""
    lowered = text.lower()
    for verdict in sorted(_NOT_EQUIVALENT, key=len, reverse=True):
        if lowered.startswith(verdict) and len(text) > len(verdict) and not text[len(verdict)].isalnum():
            text = text[len(verdict):].lstrip(" :;,.-—–\n").strip()
            break
    return strip_wrappers(_WITNESS_LABEL.sub("", text, count=1)) or text


# "Counterexample: x = 5", "a distinguishing input: x = 5", "f and g differ at x = 5": a name for the input before it
# (one character class after it, so the pattern stays linear on long runs of spaces)
_WITNESS_LABEL = re.compile(r"^(?:(?:an?|one|the)\s+)?(?:(?:counter-?\s?example|distinguishing\s+input|witness)\b"
                            r"(?:\s+input)?(?:\s+is\b)?|(?:they|f\s+and\s+g|the\s+(?:programs|functions))\s+differ\s+"
                            r"(?:at|on|for|when)\b)[\s,.:;—–-]*", re.IGNORECASE)


# --- expressions --------------------------------------------------------------------------------
# ["var", name] | ["const", k] | [op, a, b] for op in + - * & | ^ << >> | ["?", cmp, p, q, then, else]


def _constant(k: int) -> list:
    return ["const", k]


def _leaf(rng: random.Random, names: list[str], width: int) -> list:
    if rng.random() < 0.75:
        return ["var", rng.choice(names)]
    return _constant(rng.randrange(1, (1 << width) - 1))


def _expression(rng: random.Random, names: list[str], width: int, depth: int) -> list:
    """A random expression; no operation has two equal operands or a constant that makes it a no-op."""
    if depth == 0:
        return ["var", rng.choice(names)]
    op = rng.choice(("+", "-", "*", "&", "|", "^", "<<", ">>"))
    left = _expression(rng, names, width, depth - 1) if rng.random() < 0.6 else ["var", rng.choice(names)]
    if op in ("<<", ">>"):
        return [op, left, _constant(rng.randrange(1, width))]
    if op == "*":
        return [op, left, _constant(rng.randrange(3, 64, 2))]
    right = _leaf(rng, names, width) if rng.random() < 0.6 else _expression(rng, names, width, depth - 1)
    if right == left:
        right = _constant(rng.randrange(1, (1 << width) - 1))
    return [op, left, right]


def _function(
    rng: random.Random, config: ProgramEquivalence.Config, names: list[str], equivalent: bool
) -> tuple[list, dict[str, int]]:
    """A random expression holding the select ``A if d(p) cmp c else A ⊕ T`` combined with another part, and
    ``{p: switching point}``. ``T = (p ^ k) & bits`` vanishes at the switching point exactly when the pair is
    to be equivalent, so moving the boundary by one changes the meaning exactly when it is not."""
    width, top = config.width, (1 << config.width) - 1
    p = rng.choice(names)
    multiplier, offset, bound = rng.randrange(3, 64, 2), rng.randrange(1, top), rng.randrange(2, top - 1)
    derived = ["+", ["*", ["var", p], _constant(multiplier)], _constant(offset)]
    switch = (bound - offset) * pow(multiplier, -1, 1 << width) & top
    bits = rng.randrange(1, top + 1) | 1 << rng.randrange(width)
    key = (switch & bits) | (rng.randrange(top + 1) & ~bits & top)
    if not equivalent:
        key ^= 1 << rng.choice([i for i in range(width) if bits >> i & 1])
    nudge = ["&", ["^", ["var", p], _constant(key)], _constant(bits)]
    branch = _expression(rng, names, width, config.depth)
    select = ["?", rng.choice(COMPARISONS[:4]), derived, _constant(bound), branch, [rng.choice(("+", "^")), branch, nudge]]
    if rng.random() < 0.5:
        select[4], select[5] = select[5], select[4]
    other = _expression(rng, names, width, config.depth)
    op = rng.choice(("+", "-", "^", "|", "&"))
    return ([op, select, other] if rng.random() < 0.5 else [op, other, select]), {p: switch}


def render(e: list, top: bool = True) -> str:
    """The expression with parentheses around every inner operation."""
    kind = e[0]
    if kind == "var":
        return e[1]
    if kind == "const":
        return str(e[1])
    if kind == "?":
        text = f"{render(e[4], False)} if {render(e[2], False)} {e[1]} {render(e[3], False)} else {render(e[5], False)}"
    else:
        text = f"{render(e[1], False)} {kind} {render(e[2], False)}"
    return text if top else f"({text})"


def evaluate(e: list, values: dict[str, int], width: int) -> int:
    """The expression's value on one input (values in range)."""
    mask = (1 << width) - 1
    kind = e[0]
    if kind == "var":
        return values[e[1]]
    if kind == "const":
        return e[1]
    if kind == "?":
        p, q = evaluate(e[2], values, width), evaluate(e[3], values, width)
        holds = {"<": p < q, "<=": p <= q, ">": p > q, ">=": p >= q, "==": p == q, "!=": p != q}[e[1]]
        return evaluate(e[4] if holds else e[5], values, width)
    a, b = evaluate(e[1], values, width), evaluate(e[2], values, width)
    if kind == "<<":
        return (a << b) & mask if b < width else 0
    if kind == ">>":
        return a >> b
    return {"+": a + b, "-": a - b, "*": a * b, "&": a & b, "|": a | b, "^": a ^ b}[kind] & mask


def _columns(e: list, columns: dict[str, Any], width: int) -> Any:
    """The expression over numpy columns of inputs (uint64; products wrap mod 2^64, then get masked)."""
    mask = np.uint64((1 << width) - 1)
    kind = e[0]
    if kind == "var":
        return columns[e[1]]
    if kind == "const":
        return np.uint64(e[1])
    if kind == "?":
        p, q = _columns(e[2], columns, width), _columns(e[3], columns, width)
        holds = {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal, "==": np.equal,
                 "!=": np.not_equal}[e[1]](p, q)
        return np.where(holds, _columns(e[4], columns, width), _columns(e[5], columns, width))
    a, b = _columns(e[1], columns, width), _columns(e[2], columns, width)
    with np.errstate(over="ignore"):
        if kind == "<<":
            return (a << b) & mask
        if kind == ">>":
            return a >> b
        return {"+": np.add, "-": np.subtract, "*": np.multiply, "&": np.bitwise_and, "|": np.bitwise_or,
                "^": np.bitwise_xor}[kind](a, b) & mask


def _z3_term(z3: Any, e: list, variables: dict[str, Any], width: int) -> Any:
    kind = e[0]
    if kind == "var":
        return variables[e[1]]
    if kind == "const":
        return z3.BitVecVal(e[1], width)
    if kind == "?":
        p, q = _z3_term(z3, e[2], variables, width), _z3_term(z3, e[3], variables, width)
        return z3.If(z3_compare(z3, e[1], p, q), _z3_term(z3, e[4], variables, width), _z3_term(z3, e[5], variables, width))
    a, b = _z3_term(z3, e[1], variables, width), _z3_term(z3, e[2], variables, width)
    if kind == "<<":
        return a << b
    if kind == ">>":
        return z3.LShR(a, b)
    return {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "&": lambda: a & b, "|": lambda: a | b,
            "^": lambda: a ^ b}[kind]()


def _difference(
    rng: random.Random, first: list, second: list, width: int, names: list[str], pinned: dict[str, int]
) -> dict[str, int] | None | str:
    """An input on which the expressions differ, None when they are equivalent, ``"unknown"`` past z3's budget.

    ``pinned`` fixes the compared input to the paired rewrite's constant: the identity rewrites
    keep the meaning everywhere and the paired one can only change it there, so the two are
    equivalent exactly when they agree on every input with that value. The inputs left free are
    run exhaustively up to 2^16 of them; otherwise random inputs are tried and, when none separates
    the two, z3 must prove them equivalent (bit-vector logic, with the pinned input a constant,
    under a deterministic resource limit; z3's models are never used, so the problem does not
    depend on which model z3 happens to find).
    """
    free = [n for n in names if n not in pinned]
    if not free or width * len(free) <= EXHAUSTIVE_BITS:
        shape = (1 << width,) * len(free)
        grid = np.indices(shape, dtype=np.uint64).reshape(len(free), -1) if free else np.zeros((0, 1), np.uint64)
        columns = {n: grid[i] for i, n in enumerate(free)}
        columns.update({n: np.full(grid.shape[1], v, dtype=np.uint64) for n, v in pinned.items()})
        differ = np.flatnonzero(_columns(first, columns, width) != _columns(second, columns, width))
        if not len(differ):
            return None
        pick = int(differ[rng.randrange(len(differ))])
        return {n: int(columns[n][pick]) for n in names}
    for _ in range(_SAMPLES):  # a separating input drawn from the rng, not read off z3's model: deterministic
        trial = {n: rng.randrange(1 << width) for n in free} | pinned
        if evaluate(first, trial, width) != evaluate(second, trial, width):
            return {n: trial[n] for n in names}
    z3 = require_z3()
    variables = {n: z3.BitVec(n, width) for n in free}
    variables.update({n: z3.BitVecVal(v, width) for n, v in pinned.items()})
    solver = z3.SolverFor("QF_BV")
    solver.set("rlimit", RLIMIT)
    solver.add(_z3_term(z3, first, variables, width) != _z3_term(z3, second, variables, width))
    result = solver.check()
    if result == z3.unsat:
        return None
    return "unknown"  # differences too rare to sample (or past the budget): draw again


def _size(e: list) -> int:
    if e[0] in ("var", "const"):
        return 0
    return 1 + sum(_size(child) for child in e[1:] if isinstance(child, list))


def _constants(e: list) -> list[int]:
    if e[0] == "const":
        return [e[1]]
    return [k for child in e[1:] if isinstance(child, list) for k in _constants(child)]


def _places(e: list, path: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    out = [path]
    if e[0] not in ("var", "const"):
        for i, child in enumerate(e[1:], 1):
            if isinstance(child, list):
                out += _places(child, (*path, i))
    return out


def _at(e: list, path: tuple[int, ...]) -> list:
    for i in path:
        e = e[i]
    return e


def _replace(e: list, path: tuple[int, ...], new: list) -> list:
    if not path:
        return new
    copy = list(e)
    copy[path[0]] = _replace(e[path[0]], path[1:], new)
    return copy


def _paired_rewrite(rng: random.Random, e: list, width: int, slip: bool) -> tuple[list, dict[str, int]] | None:
    """``e`` with one select's comparison with a constant rewritten: correctly, or (``slip``) off by one.

    For ``p < c``: ``p <= c - 1`` / ``p <= c``, or ``p >= c`` / ``p >= c + 1`` with the branches
    swapped (and the same for the other comparisons). With the rewritten expression comes ``{p: c}``
    when the compared ``p`` is an input (the only value of ``p`` where the two can differ), else ``{}``
    (the generator compares ``d(p)``, and knows the switching point itself).
    """
    top = (1 << width) - 1
    selects = [path for path in _places(e) if _at(e, path)[0] == "?" and _at(e, path)[3][0] == "const"]
    if not selects:
        return None
    path = rng.choice(selects)
    _, cmp, p, bound, then, other = _at(e, path)
    c = bound[1]
    if rng.random() < 0.5:  # strictness changes: p < c is p <= c - 1
        new_cmp = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}[cmp]
        shift = {"<": -1, "<=": 1, ">": 1, ">=": -1}[cmp]
        new = ["?", new_cmp, p, _constant(c if slip else c + shift), then, other]
    else:  # negation with swapped branches: p < c is not p >= c
        new_cmp = _NEGATE[cmp]
        shift = {"<": -1, "<=": 1, ">": 1, ">=": -1}[cmp]
        new = ["?", new_cmp, p, _constant(c - shift if slip else c), other, then]
    if not 0 <= new[3][1] <= top:
        return None
    return _replace(e, path, new), ({p[1]: c} if p[0] == "var" else {})


def _laws(e: list, width: int) -> list[list]:
    """Expressions equal to ``e`` on every input, by one identity applied at its top."""
    kind, out = e[0], []
    if kind in _COMMUTATIVE:
        out.append([kind, e[2], e[1]])
    if kind == "+":
        out.append(["+", ["^", e[1], e[2]], ["<<", ["&", e[1], e[2]], _constant(1)]])
    if kind == "|":
        out.append(["+", ["^", e[1], e[2]], ["&", e[1], e[2]]])
    if kind == "^":
        out.append(["-", ["|", e[1], e[2]], ["&", e[1], e[2]]])
    if kind == "<<" and e[2][0] == "const":
        out.append(["*", e[1], _constant(1 << e[2][1])])
    if kind == "-" and e[2][0] == "const":
        out.append(["+", e[1], _constant((1 << width) - e[2][1])])
    if kind == "?":
        out.append(["?", _NEGATE[e[1]], e[2], e[3], e[5], e[4]])
        out.append(["?", _MIRROR[e[1]], e[3], e[2], e[4], e[5]])
    return out


def _rewrite(rng: random.Random, e: list, width: int) -> list:
    """``e`` with one identity applied at a random place (unchanged if none applies anywhere)."""
    places = _places(e)
    rng.shuffle(places)
    for path in places:
        options = _laws(_at(e, path), width)
        if options:
            return _replace(e, path, rng.choice(options))
    return e
