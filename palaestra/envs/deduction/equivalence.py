"""Truth-table equivalence: are two propositional formulas equivalent? If not, show an assignment.

The first formula is random (no connective joins a formula with itself or its negation). The
second comes from it by a few rewrites at random places: laws that keep the meaning (De
Morgan, implication as a disjunction, contraposition, distribution, commuting, double
negation, ...), and at one step, for both labels, a *paired* rewrite: a law and a classic slip
written with exactly the same symbols (contrapositive / inverse, ``¬a ∨ b`` / ``a ∨ ¬b`` for
``a → b``, distributing over the wrong operand, a biconditional / its exclusive-or, ...). The
label is drawn first; an equivalent pair takes the law there, a non-equivalent one
the slip, and truth tables over all assignments confirm the label (a slip that happens to keep
the meaning is drawn again, and so is one that changes more than a sixteenth of the rows, which
guessing an assignment would expose). So counting connectives or negations says nothing about the
answer.

Every level has at least five variables, so the answers are many (``equivalent`` and every
assignment) and the kit's answer-balance check does not apply; the equivalent/not split is
balanced against connective counts as above.

``equivalent`` has no short proof (a truth table is exponential), so it is the certificate-free
side: only 20% of pairs are equivalent (``EQUIVALENT_SHARE``), and a constant ``equivalent`` scores
about 0.20. It must be said alone: an assignment with ``equivalent`` beside it (or the other way
round) is a hedge and is not read.

The answer is ``equivalent``, or an assignment on which the formulas differ (``p = true, q =
false``, ``p=1 q=0`` or the literals ``p, ¬q``); **any** such assignment is accepted.

Generation speed: about 1,050 problems/s at level 4. About 16 in 17 drawn formula pairs are redrawn, each checked by
truth tables over at least five variables, because the slip happens to keep the meaning or changes more than a
sixteenth of the rows; the redraws keep guessing an assignment and counting connectives from earning reward.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import cache

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.envs.deduction.common import read_truth_assignment
from palaestra.verifiers.claims import has_digit, mentions
from palaestra.verifiers.normalize import read_answer, strip_wrappers, unify

_NAMES = "pqrstu"
_SYMBOL = {"and": "∧", "or": "∨", "imp": "→", "iff": "↔"}
_EQUIVALENT = frozenset({"equivalent", "they are equivalent", "the formulas are equivalent", "yes, equivalent",
                         "equivalent formulas", "logically equivalent", "they are logically equivalent",
                         "f and g are equivalent", "f and g are logically equivalent", "yes", "yes, they are equivalent",
                         "f ≡ g", "f ⇔ g"})
EQUIVALENT_SHARE = 0.2  # the certificate-free side is rare, so answering it blindly pays little
# "Not equivalent: p = true, ..." states the verdict before the separating assignment.
_NOT_EQUIVALENT = re.compile(r"^(?:no\s*[,.:;]?\s*)?(?:(?:f and g|they|the formulas)\s+are\s+)?not\s+(?:logically\s+)?"
                             r"equivalent\s*[,.:;—–-]*\s*", re.IGNORECASE)
# "Counterexample: p = true, ...", "No. They differ when p = true, ...": a bare no, or a name for the assignment, before it
# (one character class between the parts, so the pattern stays linear on long runs of spaces; no hyphen in it: -p is
# the literal not p)
_LABEL = (r"(?:(?:an?|one|the)\s+)?(?:(?:counter-?\s?example|distinguishing\s+assignment|separating\s+assignment|"
          r"witness)\b(?:\s+assignment)?(?:\s+is\b)?|(?:they|f\s+and\s+g|the\s+formulas)\s+differ\s+(?:when|under|at|on|"
          r"for)\b)")
_WITNESS_LABEL = re.compile(r"^(?:no\b[\s,.:;—–]+(?:" + _LABEL + r")?|(?:" + _LABEL + r"))[\s,.:;—–]*", re.IGNORECASE)


@register
class Equivalence(Task):
    id = "deduction/equivalence"
    family = "deduction"
    description = "Decide whether two propositional formulas are equivalent; if not, give a separating assignment."
    tags = ("logic", "propositional", "truth-tables")
    max_answer_chars = 600
    version = 2
    certificate_free = ("equivalent",)

    @dataclass(frozen=True)
    class Config:
        variables: int
        depth: int
        rewrites: int

    presets = (
        Config(variables=5, depth=3, rewrites=1),
        Config(variables=5, depth=3, rewrites=3),
        Config(variables=5, depth=4, rewrites=3),
        Config(variables=6, depth=3, rewrites=4),
        Config(variables=6, depth=4, rewrites=7),
    )
    bounded = "growing its sizes past the presets exhausts a fixed pool the generator draws from (names, letters or tables)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.variables
        equivalent = rng.random() < EQUIVALENT_SHARE

        def draw() -> tuple[list, list] | None:
            first = _formula(rng, n, config.depth)
            if len(_variables(first)) < n or _degenerate(first):
                return None
            second = first
            paired_at = rng.randrange(config.rewrites)  # for both labels: only the rewrite used there differs
            for step in range(config.rewrites):
                if step == paired_at:
                    second = _paired_rewrite(rng, second, slip=not equivalent)
                else:
                    second = _rewrite(rng, second)
                if second is None:
                    return None
            differ = bin(_table(first, n) ^ _table(second, n)).count("1")
            if (differ == 0) != equivalent or differ > (1 << n) // 16 or _render(second) == _render(first):
                return None  # a slip that changes many rows would be found by trying any assignment
            return first, second

        first, second = retry(draw, attempts=6_000, what="a pair of formulas with the drawn status")
        names = ", ".join(_NAMES[:n])
        prompt = (
            f"Over the variables {names}, with ¬ meaning not, ∧ and, ∨ (inclusive) or, → implies and ↔ if and "
            "only if, consider:\n\n"
            f"F = {_render(first)}\nG = {_render(second)}\n\n"
            "Are F and G equivalent, that is, true under exactly the same assignments? If they are, answer with "
            "the single word equivalent. If not, answer with an assignment of truth values to all the variables "
            "under which one is true and the other false, written like: p = true, q = false, ... (one value "
            "per variable)"
        )
        answer = "equivalent" if equivalent else _separating(rng, first, second, n)
        data = {"variables": n, "first": first, "second": second, "equivalent": equivalent}
        return Problem(prompt=prompt, answer=answer, data=data)

    def difficulty(self, problem: Problem) -> float:
        """Truth-table rows times the connectives of both formulas."""
        text = _render(problem.data["first"]) + _render(problem.data["second"])
        connectives = sum(text.count(s) for s in (*_SYMBOL.values(), "¬"))
        return float(2 ** problem.data["variables"] * connectives)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if not isinstance(answer, str) or len(answer) > self.max_answer_chars:
            return Verdict.unparsed("answer too long")
        data = problem.data
        bare = not has_digit(answer) and "=" not in answer and "¬" not in answer and not mentions(
            answer, ("true", "false"))
        if bare and read_answer(unify(answer), _read_equivalent):
            return Verdict.judge(data["equivalent"], "the formulas are not equivalent")
        n = data["variables"]
        names = list(_NAMES[:n])
        text = _NOT_EQUIVALENT.sub("", strip_wrappers(unify(answer)), count=1)
        text = strip_wrappers(_WITNESS_LABEL.sub("", text, count=1)) or text
        if mentions(text, ("equivalent", "yes", "≡", "⇔"), unless_after=("not",)):
            return Verdict.unparsed("the answer gives both an assignment and 'equivalent'")
        values = read_answer(text, lambda s: read_truth_assignment(s, names))
        if values is None:
            return Verdict.unparsed("expected equivalent, or a truth value for every variable")
        assignment = sum(1 << i for i in range(n) if values[_NAMES[i]])
        first = _table(data["first"], n) >> assignment & 1
        second = _table(data["second"], n) >> assignment & 1
        return Verdict.judge(first != second, "F and G agree under this assignment")

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        if problem.data["equivalent"]:
            return [*super().spellings(problem), "Equivalent.", "EQUIVALENT", "They are equivalent.", "**equivalent**",
                    "F and G are equivalent.", "Equivalent."]
        pairs = [pair.split(" = ") for pair in gold.split(", ")]
        return [*super().spellings(problem), " ".join(f"{k}={1 if v == 'true' else 0}" for k, v in pairs),
                ", ".join(k if v == "true" else f"¬{k}" for k, v in pairs),
                "\n".join(f"{k}: {'T' if v == 'true' else 'F'}" for k, v in pairs), f"Not equivalent: {gold}",
                f"{gold}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        n = problem.data["variables"]
        if problem.data["equivalent"]:
            return ["not equivalent", ", ".join(f"{_NAMES[i]} = true" for i in range(n)), "maybe",
                    "equivalent, or not", "Equivalent. Actually they differ."]
        first, second = _table(problem.data["first"], n), _table(problem.data["second"], n)
        agreeing = [a for a in range(1 << n) if (first >> a & 1) == (second >> a & 1)]
        flipped = "false" if (problem.answer or "").startswith(f"{_NAMES[0]} = true") else "true"
        wrong = ["equivalent", f"{problem.answer}\n{_NAMES[0]} = {flipped}", f"{problem.answer}. Equivalent.",
                 f"equivalent ({problem.answer})"]
        if agreeing:
            wrong.append(_assignment(rng.choice(agreeing), n))
            wrong.append(f"Not equivalent: {_assignment(rng.choice(agreeing), n)}")
        return wrong


def _read_equivalent(text: str) -> bool | None:
    return True if text.strip().rstrip(".!").strip().lower() in _EQUIVALENT else None


def _assignment(a: int, n: int) -> str:
    return ", ".join(f"{_NAMES[i]} = {'true' if a >> i & 1 else 'false'}" for i in range(n))


def _separating(rng: random.Random, first: list, second: list, n: int) -> str:
    """A random assignment on which the formulas differ."""
    differ = _table(first, n) ^ _table(second, n)
    return _assignment(rng.choice([a for a in range(1 << n) if differ >> a & 1]), n)


def _degenerate(f: list) -> bool:
    """Whether some connective joins a formula with itself or its negation (``p ∧ p``, ``q ∨ ¬q``)."""
    if f[0] == "var":
        return False
    if f[0] == "not":
        return _degenerate(f[1])
    a, b = f[1], f[2]
    return a == b or a == _neg(b) or b == _neg(a) or _degenerate(a) or _degenerate(b)


def _variables(f: list) -> set[int]:
    return {f[1]} if f[0] == "var" else set().union(*(_variables(g) for g in f[1:]))


def _table(f: list, n: int) -> int:
    """The truth table as an int: bit a is the value under assignment a (bit i of a: variable i true)."""
    everything = (1 << (1 << n)) - 1
    op = f[0]
    if op == "var":
        return _variable_table(f[1], n)
    if op == "not":
        return everything ^ _table(f[1], n)
    a, b = _table(f[1], n), _table(f[2], n)
    if op == "and":
        return a & b
    if op == "or":
        return a | b
    if op == "imp":
        return (everything ^ a) | b
    if op == "iff":
        return everything ^ a ^ b
    raise KeyError(op)


@cache
def _variable_table(variable: int, n: int) -> int:
    """The truth table of one variable (built once per variable and size, then looked up)."""
    return sum(1 << a for a in range(1 << n) if a >> variable & 1)


def _formula(rng: random.Random, n: int, depth: int) -> list:
    if depth == 0 or (depth < 2 and rng.random() < 0.3):
        leaf = ["var", rng.randrange(n)]
        return ["not", leaf] if rng.random() < 0.3 else leaf
    made = [rng.choice(("and", "or", "imp", "iff")), _formula(rng, n, depth - 1), _formula(rng, n, depth - 1)]
    return ["not", made] if rng.random() < 0.2 else made


def _render(f: list, top: bool = True) -> str:
    op = f[0]
    if op == "var":
        return _NAMES[f[1]]
    if op == "not":
        return "¬" + _render(f[1], top=False)
    text = f"{_render(f[1], top=False)} {_SYMBOL[op]} {_render(f[2], top=False)}"
    return text if top else f"({text})"


def _neg(f: list) -> list:
    return f[1] if f[0] == "not" else ["not", f]


def _laws(f: list) -> list[list]:
    """Formulas equivalent to ``f`` by one law applied at its top."""
    op, out = f[0], []
    if op == "not":
        g = f[1]
        if g[0] == "and":
            out.append(["or", _neg(g[1]), _neg(g[2])])
        if g[0] == "or":
            out.append(["and", _neg(g[1]), _neg(g[2])])
        if g[0] == "imp":
            out.append(["and", g[1], _neg(g[2])])
        if g[0] == "iff":
            out.append(["iff", g[1], _neg(g[2])])
        if g[0] == "not":
            out.append(g[1])
    if op in ("and", "or", "iff"):
        out.append([op, f[2], f[1]])
    if op == "imp":
        out += [["or", _neg(f[1]), f[2]], ["imp", _neg(f[2]), _neg(f[1])]]
    if op == "iff":
        out.append(["and", ["imp", f[1], f[2]], ["imp", f[2], f[1]]])
    if op == "and" and f[2][0] == "or":
        out.append(["or", ["and", f[1], f[2][1]], ["and", f[1], f[2][2]]])
    if op == "or" and f[2][0] == "and":
        out.append(["and", ["or", f[1], f[2][1]], ["or", f[1], f[2][2]]])
    if op in ("and", "or"):
        out.append(["not", ["or" if op == "and" else "and", _neg(f[1]), _neg(f[2])]])
    return out


def _paired(f: list) -> list[tuple[list, list]]:
    """(law, slip) pairs for ``f``: a rewrite that keeps the meaning and a classic slip with exactly
    the same symbols, so counting connectives cannot tell them apart (the caller checks the slip
    does change the meaning)."""
    op, out = f[0], []
    if op == "imp":
        a, b = f[1], f[2]
        out.append((["imp", _neg(b), _neg(a)], ["imp", _neg(a), _neg(b)]))  # contrapositive / inverse
        out.append((["or", _neg(a), b], ["or", a, _neg(b)]))
    if op == "not" and f[1][0] == "imp":
        a, b = f[1][1], f[1][2]
        out.append((["and", a, _neg(b)], ["and", _neg(a), b]))
    if op == "not" and f[1][0] == "and":
        a, b = f[1][1], f[1][2]
        out.append((["imp", a, _neg(b)], ["imp", _neg(a), b]))
    if op == "or":
        a, b = f[1], f[2]
        out.append((["imp", _neg(a), b], ["imp", b, _neg(a)]))
    if op == "and":
        a, b = f[1], f[2]
        out.append((["not", ["imp", a, _neg(b)]], ["not", ["imp", _neg(a), b]]))
    if op == "and" and f[2][0] == "or":
        a, b, c = f[1], f[2][1], f[2][2]
        out.append((["or", ["and", a, b], ["and", a, c]], ["or", ["and", a, b], ["and", b, c]]))
    if op == "or" and f[2][0] == "and":
        a, b, c = f[1], f[2][1], f[2][2]
        out.append((["and", ["or", a, b], ["or", a, c]], ["and", ["or", a, b], ["or", b, c]]))
    if op == "iff":
        a, b = f[1], f[2]
        out.append((["or", ["and", a, b], ["and", _neg(a), _neg(b)]], ["or", ["and", a, _neg(b)], ["and", _neg(a), b]]))
    return [(law, slip) for law, slip in out if law != slip]


def _subterms(f: list, path: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    out = [path]
    if f[0] != "var":
        for i, g in enumerate(f[1:], 1):
            out += _subterms(g, (*path, i))
    return out


def _at(f: list, path: tuple[int, ...]) -> list:
    for i in path:
        f = f[i]
    return f


def _replace(f: list, path: tuple[int, ...], new: list) -> list:
    if not path:
        return new
    copy = list(f)
    copy[path[0]] = _replace(f[path[0]], path[1:], new)
    return copy


def _rewrite(rng: random.Random, f: list) -> list | None:
    """``f`` with one law applied at a random place; None if none applies."""
    places = _subterms(f)
    rng.shuffle(places)
    for path in places:
        options = _laws(_at(f, path))
        if options:
            return _replace(f, path, rng.choice(options))
    return None


def _paired_rewrite(rng: random.Random, f: list, slip: bool) -> list | None:
    """``f`` with a paired rewrite at a random place: its law, or its slip when ``slip``; None if none applies."""
    places = _subterms(f)
    rng.shuffle(places)
    for path in places:
        options = _paired(_at(f, path))
        if options:
            law, wrong = rng.choice(options)
            return _replace(f, path, wrong if slip else law)
    return None
