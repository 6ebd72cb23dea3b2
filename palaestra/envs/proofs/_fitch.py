"""Fitch-style natural deduction: reading proof lines, checking every step, and building reference proofs.

A proof is numbered lines, one formula each, with a rule and the lines or subproofs it cites::

    1. p → q          premise
    2. | p ∧ r        assumption
    3. | p            ∧E 2
    4. | q            →E 1, 3
    5. (p ∧ r) → q    →I 2-4

Leading bars give the subproof depth; an ``assumption`` line opens a subproof at its depth (closing
any open one at that depth or deeper); a line with fewer bars closes subproofs. A cited line must be
earlier and still accessible (in the same or an enclosing subproof); a cited range ``i-j`` must be a
closed subproof of the current context, opened by the assumption on line ``i`` and ending on line
``j`` at its own level. Rules: premise, assumption, reiteration, ∧I/∧E, ∨I/∨E, →I/→E, ¬I/¬E
(from A and ¬A infer ⊥), ⊥E (ex falso), and the classical RAA (a subproof from ¬A to ⊥ gives A)
and ¬¬E. :func:`check` returns the first error, so feedback names the first bad step.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from palaestra.envs.proofs._logic import (
    BOT,
    Formula,
    Token,
    atoms_of,
    entails,
    models,
    parse_prefix,
    random_formula,
    show,
    size,
    tokenize,
)
from palaestra.verifiers.blocks import read_block, without_end_of_proof

MAX_LINES = 300
MAX_LINE_CHARS = 400

# Rule names: a connective (or its name) followed by intro/elim, and the names that stand alone.
_CONNECTIVE_NAMES = {"∧": ("∧", "and", "conj", "conjunction"), "∨": ("∨", "or", "disj", "disjunction"),
                     "→": ("→", "imp", "impl", "implies", "cond", "conditional", "if"),
                     "¬": ("¬", "not", "neg", "negation"), "⊥": ("⊥", "bot", "falsum")}
_SUFFIXES = {"I": ("i", "intro", "introduction", "+"), "E": ("e", "elim", "elimination")}
_STANDALONE = {
    "premise": ("premise", "prem", "pr", "given", "p"),
    "assumption": ("assumption", "assume", "assumed", "hyp", "hypothesis", "ass", "a", "as"),
    "reit": ("r", "reit", "reiteration", "rep", "repeat", "re", "copy", "reiterate"),
    "→E": ("mp", "modusponens"),
    "→I": ("cp", "conditionalproof"),
    "⊥E": ("x", "efq", "exfalso", "exfalsoquodlibet", "explosion"),
    "¬E": ("⊥i", "contradiction", "contra"),
    "RAA": ("raa", "ip", "pbc", "reductio", "reductioadabsurdum", "indirectproof", "¬¬i"),
    "¬¬E": ("¬¬e", "dne", "dn", "doublenegation", "doublenegationelimination"),
}


def _rule_table() -> dict[str, str]:
    table = {}
    for symbol, names in _CONNECTIVE_NAMES.items():
        for name in names:
            for rule, suffixes in _SUFFIXES.items():
                for suffix in suffixes:
                    table[name + suffix] = symbol + rule
    for rule, names in _STANDALONE.items():
        for name in names:
            table[name] = rule
    return table


RULES = _rule_table()
_CANONICAL_TOKEN = {"and": "∧", "or": "∨", "bar": "∨", "imp": "→", "not": "¬", "bot": "⊥"}


@dataclass
class Line:
    number: int
    depth: int
    formula: Formula
    rule: str
    lines: list[int] = field(default_factory=list)  # cited single lines
    ranges: list[tuple[int, int]] = field(default_factory=list)  # cited subproofs


def _rule_name(tokens: Sequence[Token]) -> str | None:
    text = ""
    for kind, token in tokens:
        if kind == "conn" and token in _CANONICAL_TOKEN:
            text += _CANONICAL_TOKEN[token]
        elif kind == "word":
            text += token.lower()
        elif kind == "dash" or token == "_":
            continue
        else:
            return None
    if text in RULES:
        return RULES[text]
    if text[-1:] in ("1", "2", "l", "r") and text[:-1] in RULES and RULES[text[:-1]] in ("∧E", "∨I"):
        return RULES[text[:-1]]  # ∧E1, ∨I2, ∧El: which side is plain from the formula
    return None


def _citations(tokens: Sequence[Token]) -> tuple[list[int], list[tuple[int, int]]] | None:
    lines: list[int] = []
    ranges: list[tuple[int, int]] = []
    i = 0
    while i < len(tokens):
        kind, text = tokens[i]
        if kind == "punct" and text in ",;" or (kind == "word" and text.lower() in ("and", "lines", "line")):
            i += 1
            continue
        if kind != "num":
            return None
        if i + 2 < len(tokens) and tokens[i + 1][0] == "dash" and tokens[i + 2][0] == "num":
            ranges.append((int(text), int(tokens[i + 2][1])))
            i += 3
        else:
            lines.append(int(text))
            i += 1
    return lines, ranges


def read_line(text: str, atoms: Sequence[str]) -> Line | str:
    """One proof line, or the reason it cannot be read."""
    if len(text) > MAX_LINE_CHARS:
        return "the line is too long"
    tokens = tokenize(text)
    if not tokens or tokens[0][0] != "num":
        return "a proof line starts with its number"
    number = int(tokens[0][1])
    pos = 1
    if pos < len(tokens) and tokens[pos][1] in (".", ")", ":"):
        pos += 1
    depth = 0
    while pos < len(tokens) and tokens[pos] == ("conn", "bar"):
        depth += 1
        pos += 1
    read = parse_prefix(tokens, atoms, pos)
    if read is None:
        return "no formula after the line number and bars"
    formula, pos = read
    rest = list(tokens[pos:])
    if rest and rest[-1] == ("punct", "."):
        rest.pop()
    if rest and rest[0][0] in ("punct", "dash") and rest[0][1] != ".":
        rest.pop(0)
    if len(rest) >= 2 and (rest[0][0], rest[-1][0]) in (("open", "close"), ("lbrack", "rbrack"), ("lbrace", "rbrace")):
        rest = rest[1:-1]
    cut = next((i for i, token in enumerate(rest) if token[0] == "num"), len(rest))
    while cut > 0 and rest[cut - 1][0] == "punct":  # "→E, 1, 2" / "→E: 1, 2"
        cut -= 1
    if cut == 0:
        return "no rule named after the formula"
    rule = _rule_name(rest[:cut])
    if rule is None:
        return "unknown rule"
    cited = _citations(rest[cut:])
    if cited is None:
        return "could not read the cited lines"
    return Line(number, depth, formula, rule, *cited)


@dataclass
class _Subproof:
    start: int
    path: tuple[int, ...]  # the ids of the subproofs enclosing it, and its own
    last: int = 0  # its last line at its own level


def check(lines: Sequence[Line], premises: Sequence[Formula], goal: Formula, classical: bool = True,
          complete: bool = True) -> str | None:
    """None when ``lines`` prove ``goal`` from ``premises``; otherwise the first error, naming its line. With
    ``complete=False`` only the steps are checked (a proof under way need not have reached the goal)."""
    if not lines:
        return "the proof is empty"
    if len(lines) > MAX_LINES:
        return f"the proof has more than {MAX_LINES} lines"
    context: dict[int, tuple[int, ...]] = {}  # line number -> path of the subproofs it stands in
    opened: dict[int, _Subproof] = {}  # first line -> subproof
    stack: list[int] = []  # the open subproofs, as first lines
    formulas: dict[int, Formula] = {}
    seen_step = False
    for index, line in enumerate(lines, start=1):
        where = f"line {line.number}"
        if line.number != index:
            return f"{where}: lines must be numbered 1, 2, 3, ... in order (expected {index})"
        if line.rule == "assumption":
            if line.lines or line.ranges:
                return f"{where}: an assumption cites nothing"
            if not 1 <= line.depth <= len(stack) + 1:
                return f"{where}: an assumption opens a subproof one bar deeper than the lines it follows"
            del stack[line.depth - 1 :]
            stack.append(index)
            opened[index] = _Subproof(index, tuple(stack))
        else:
            if line.depth > len(stack):
                return f"{where}: {line.depth} bar(s) but only {len(stack)} subproof(s) open; open one with an assumption"
            del stack[line.depth :]
        path = tuple(stack)
        context[index] = path
        if stack:
            opened[stack[-1]].last = index
        formulas[index] = line.formula
        if line.rule == "premise":
            if seen_step or line.depth:
                return f"{where}: premises come first, outside every subproof"
            if line.formula not in premises:
                return f"{where}: {show(line.formula)} is not one of the premises"
            continue
        seen_step = True
        if line.rule == "assumption":
            continue
        for cited in line.lines:
            if not 1 <= cited < index:
                return f"{where}: it cites line {cited}, which is not an earlier line"
            if context[cited] != path[: len(context[cited])]:
                return f"{where}: line {cited} is inside a subproof that is closed here"
        subproofs = []
        for start, end in line.ranges:
            sub = opened.get(start)
            if sub is None or not start <= end < index:
                return f"{where}: {start}-{end} is not a subproof (line {start} is no assumption)"
            if sub.path[:-1] != path[: len(sub.path) - 1] or start in path:
                return f"{where}: the subproof {start}-{end} is not a closed subproof of this context"
            if sub.last != end:
                return f"{where}: the subproof opened on line {start} ends on line {sub.last}, not {end}"
            subproofs.append((formulas[start], formulas[end]))
        problem = _step(line, [formulas[c] for c in line.lines], subproofs, classical)
        if problem:
            return f"{where}: {problem}"
    if not complete:
        return None
    final = lines[-1]
    if final.depth:
        return "the last line must stand outside every subproof"
    if final.formula != goal:
        return f"the last line is {show(final.formula)}, not the goal {show(goal)}"
    return None


def _step(line: Line, cited: list[Formula], subs: list[tuple[Formula, Formula]], classical: bool) -> str | None:
    """Why ``line`` does not follow by its rule from the cited formulas and subproofs (None when it does)."""
    rule, f = line.rule, line.formula
    shape = {"reit": (1, 0), "∧I": (2, 0), "∧E": (1, 0), "∨I": (1, 0), "∨E": (1, 2), "→I": (0, 1), "→E": (2, 0),
             "¬I": (0, 1), "¬E": (2, 0), "⊥E": (1, 0), "RAA": (0, 1), "¬¬E": (1, 0)}.get(rule)
    if shape is None:
        return f"{rule} is not a rule of this system"
    if (len(cited), len(subs)) != shape:
        lines, ranges = shape
        return f"{rule} cites {lines} line(s) and {ranges} subproof(s)"
    if rule in ("RAA", "¬¬E") and not classical:
        return f"{rule} is classical; this proof must be intuitionistic"
    ok = False
    if rule == "reit":
        ok = f == cited[0]
    elif rule == "∧I":
        ok = f[0] == "and" and sorted(map(repr, cited)) == sorted(map(repr, f[1:]))
    elif rule == "∧E":
        ok = cited[0][0] == "and" and f in cited[0][1:]
    elif rule == "∨I":
        ok = f[0] == "or" and cited[0] in f[1:]
    elif rule == "∨E":
        (a, c1), (b, c2) = subs
        ok = cited[0][0] == "or" and c1 == c2 == f and sorted(map(repr, (a, b))) == sorted(map(repr, cited[0][1:]))
    elif rule == "→I":
        ok = f == ("imp", *subs[0])
    elif rule == "→E":
        ok = any(c == ("imp", other, f) for c, other in (cited, cited[::-1]))
    elif rule == "¬I":
        ok = subs[0][1] == BOT and f == ("not", subs[0][0])
    elif rule == "¬E":
        ok = f == BOT and (cited[1] == ("not", cited[0]) or cited[0] == ("not", cited[1]))
    elif rule == "⊥E":
        ok = cited[0] == BOT
    elif rule == "RAA":
        ok = subs[0] == (("not", f), BOT)
    elif rule == "¬¬E":
        ok = cited[0] == ("not", ("not", f))
    return None if ok else f"{show(f)} does not follow by {'R' if rule == 'reit' else rule} from what it cites"


# --- reference proofs: a random natural-deduction tree, then its Fitch lines -------------------------------

@dataclass
class Node:
    rule: str  # a rule of check(), or "premise" / "hyp" for leaves
    formula: Formula
    children: list[Node] = field(default_factory=list)
    discharged: list[Formula] = field(default_factory=list)  # per subproof child: its assumption


def _subformulas(formula: Formula) -> list[Formula]:
    found = [formula]
    for part in formula[1:] if formula[0] != "atom" else ():
        found += _subformulas(part)
    return found


class TreeBuilder:
    """Builds a random proof tree of a goal, backwards: each goal is proved by a rule whose premises become
    new goals; goals that are open assumptions are cited, and the rest, when the budget is spent, become
    premises of the sequent."""

    def __init__(self, rng: random.Random, names: Sequence[str], classical: bool) -> None:
        self.rng = rng
        self.names = list(names)
        self.classical = classical

    def _pick(self, hyps: list[Formula]) -> Formula:
        pool = [s for h in hyps for s in _subformulas(h) if s != BOT]
        if pool and self.rng.random() < 0.7:
            return self.rng.choice(pool)
        return ("atom", self.rng.choice(self.names))

    def build(self, goal: Formula, hyps: list[Formula], budget: int) -> Node:
        rng = self.rng
        if goal in hyps:
            return Node("hyp", goal)
        kind = goal[0]
        if budget <= 0:
            if kind == "bot":
                negated = [h for h in hyps if h[0] == "not"]
                if negated:
                    h = rng.choice(negated)
                    return Node("¬E", BOT, [self.build(h[1], hyps, 0), Node("hyp", h)])
                if hyps:
                    h = rng.choice(hyps)
                    return Node("¬E", BOT, [Node("hyp", h), Node("premise", ("not", h))])
            return Node("premise", goal)
        options = {"→E": 2.0, "∧E": 0.4}
        if kind in ("and", "imp", "not"):
            options[{"and": "∧I", "imp": "→I", "not": "¬I"}[kind]] = 6.0
        if kind == "or":
            options["∨I"] = 3.0
        if kind == "bot":
            options = {"¬E": 1.0}
        if budget >= 4 and kind != "bot":
            options["∨E"] = 0.8
        if self.classical and kind in ("atom", "or"):
            options["RAA"] = 1.0
        rule = rng.choices(list(options), weights=list(options.values()))[0]
        rest = budget - 1
        if rule == "→I":
            return Node(rule, goal, [self.build(goal[2], [*hyps, goal[1]], rest)], [goal[1]])
        if rule == "¬I":
            return Node(rule, goal, [self.build(BOT, [*hyps, goal[1]], rest)], [goal[1]])
        if rule == "RAA":
            negation = ("not", goal)
            return Node(rule, goal, [self.build(BOT, [*hyps, negation], rest)], [negation])
        if rule == "∧I":
            split = rng.randint(0, rest)
            return Node(rule, goal, [self.build(goal[1], hyps, split), self.build(goal[2], hyps, rest - split)])
        if rule == "∨I":
            side = rng.choice((1, 2))
            return Node(rule, goal, [self.build(goal[side], hyps, rest)])
        if rule == "∧E":
            other = ("atom", rng.choice(self.names))
            conjunction = ("and", goal, other) if rng.random() < 0.5 else ("and", other, goal)
            return Node(rule, goal, [self.build(conjunction, hyps, rest)])
        if rule == "→E":
            antecedent = self._pick(hyps)
            split = rng.randint(0, rest)
            return Node(rule, goal, [self.build(("imp", antecedent, goal), hyps, split),
                                     self.build(antecedent, hyps, rest - split)])
        if rule == "∨E":
            left: Formula = self._pick(hyps)
            right: Formula = ("atom", rng.choice(self.names))
            if left == right:
                right = ("not", left)
            first = rng.randint(0, rest - 2)  # each case gets at least one step: a case proved by a premise
            second = rng.randint(1, rest - first - 1)  # equal to the goal would make the goal a premise
            return Node(rule, goal, [self.build(("or", left, right), hyps, first),
                                     self.build(goal, [*hyps, left], second),
                                     self.build(goal, [*hyps, right], rest - first - second)], [left, right])
        # ¬E: a formula and its negation
        negated = [h for h in hyps if h[0] == "not"]
        if negated and rng.random() < 0.6:
            h = rng.choice(negated)
            return Node(rule, BOT, [self.build(h[1], hyps, rest), Node("hyp", h)])
        base = self._pick(hyps)
        split = rng.randint(0, rest)
        return Node(rule, BOT, [self.build(base, hyps, split), self.build(("not", base), hyps, rest - split)])


def _doubled(formula: Formula) -> bool:
    """Whether a part joins a formula with itself (``p → p``, ``q ∧ q``): filler, not a premise anyone writes."""
    return any(len(part) == 3 and part[1] == part[2] for part in _subformulas(formula))


def premises_of(node: Node) -> list[Formula]:
    found: list[Formula] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.rule == "premise" and current.formula not in found:
            found.append(current.formula)
        stack.extend(reversed(current.children))
    return found


def linearize(tree: Node, premises: Sequence[Formula]) -> list[Line]:
    """The Fitch lines of a proof tree: the premises first, each subproof closed on its conclusion."""
    lines: list[Line] = [Line(i, 0, f, "premise") for i, f in enumerate(premises, start=1)]
    scopes: list[tuple[Formula, int]] = []  # open assumptions, innermost last

    def emit(node: Node, depth: int) -> int:
        if node.rule == "premise":
            return premises.index(node.formula) + 1
        if node.rule == "hyp":
            return next(number for formula, number in reversed(scopes) if formula == node.formula)
        cited, ranges = [], []
        subproofs = iter(node.discharged)
        for child, assumption in zip(node.children, _subproof_marks(node)):
            if not assumption:
                cited.append(emit(child, depth))
                continue
            hypothesis = next(subproofs)
            start = len(lines) + 1
            lines.append(Line(start, depth + 1, hypothesis, "assumption"))
            scopes.append((hypothesis, start))
            result = emit(child, depth + 1)
            if result != len(lines) or lines[-1].depth != depth + 1:
                lines.append(Line(len(lines) + 1, depth + 1, child.formula, "reit", [result]))
            scopes.pop()
            ranges.append((start, len(lines)))
        lines.append(Line(len(lines) + 1, depth, node.formula, node.rule, cited, ranges))
        return len(lines)

    result = emit(tree, 0)
    if result != len(lines) or lines[-1].depth:
        lines.append(Line(len(lines) + 1, 0, tree.formula, "reit", [result]))
    return lines


def _subproof_marks(node: Node) -> list[bool]:
    """Which children of ``node`` are subproofs (True) rather than cited lines."""
    if node.rule in ("→I", "¬I", "RAA"):
        return [True]
    if node.rule == "∨E":
        return [False, True, True]
    return [False] * len(node.children)


def render(lines: Sequence[Line], ascii_only: bool = False) -> str:
    """The proof as text: ``3. | q    →E 1, 2``."""
    out = []
    for line in lines:
        cites = [str(c) for c in line.lines] + [f"{a}-{b}" for a, b in line.ranges]
        rule = {"reit": "R"}.get(line.rule, line.rule)
        if ascii_only:
            rule = rule.replace("→", "->").replace("∧", "&").replace("∨", "|").replace("¬", "~").replace("⊥", "_|_")
        bars = "| " * line.depth
        justification = f"{rule} {', '.join(cites)}".rstrip()
        out.append(f"{line.number}. {bars}{show(line.formula, ascii_only)}    {justification}")
    return "\n".join(out)


@dataclass(frozen=True)
class Sequent:
    premises: tuple[Formula, ...]
    goal: Formula
    proof: tuple[Line, ...]
    tree: Node


def draw_sequent(rng: random.Random, names: Sequence[str], goal_depth: int, budget: int, classical: bool,
                 min_lines: int, max_premises: int, all_needed: bool = False) -> Sequent | None:
    """A random valid sequent with a reference proof, or None when the draw is unsuitable: premises
    jointly unsatisfiable (⊥E would prove anything), premises none of which is needed, a premise that
    follows from the others, a part joining a formula with itself (``p → p``), the goal among the
    premises, or a proof shorter than ``min_lines`` steps; with ``all_needed``, also when an antecedent
    of the goal (``A`` in ``A → (B → C)``) could be dropped."""
    goal = random_formula(rng, names, goal_depth)
    for _ in range(20):  # cheap redraws of the goal alone
        if goal[0] != "atom" and len(atoms_of(goal)) >= 2:
            break
        goal = random_formula(rng, names, goal_depth)
    else:
        return None
    tree = TreeBuilder(rng, names, classical).build(goal, [], budget)
    premises = premises_of(tree)
    if goal in premises or len(premises) > max_premises or any(size(p) > 3 * goal_depth + 5 for p in premises):
        return None
    used = sorted(set(atoms_of(goal)).union(*(atoms_of(p) for p in premises)))
    if premises and models(premises, used) == 0:
        return None
    if premises and all(entails(premises[:i] + premises[i + 1 :], goal, used) for i in range(len(premises))):
        return None  # no premise matters
    if any(entails(premises[:i] + premises[i + 1 :], p, used) for i, p in enumerate(premises)):
        return None  # a premise follows from the others
    if any(_doubled(f) for f in (goal, *premises)):
        return None
    if all_needed:  # every antecedent of the goal's chain of implications is used
        hypotheses, conclusion = list(premises), goal
        while conclusion[0] == "imp":
            hypotheses.append(conclusion[1])
            conclusion = conclusion[2]
        if any(entails(hypotheses[:i] + hypotheses[i + 1 :], conclusion, used)
               for i in range(len(premises), len(hypotheses))):
            return None
    lines = linearize(tree, premises)
    if len(lines) - len(premises) < min_lines or check(lines, premises, goal, classical) is not None:
        return None
    return Sequent(tuple(premises), goal, tuple(lines), tree)


MAX_PROOF_CHARS = 40_000


def read_proof(text: str, atoms: Sequence[str]) -> list[Line] | str:
    """The lines of a written proof, or why it cannot be read. A code fence and one label line
    (``Proof:``) may surround it; separator lines (``|---``) are skipped; every other line must be
    a proof line, so a remark or retraction after the proof leaves it unread."""
    if not isinstance(text, str) or len(text) > MAX_PROOF_CHARS:
        return "the proof is missing or too long"
    block = read_block(text, leading="strip")
    if block is None:
        return "expected numbered proof lines"
    rows = without_end_of_proof([row for row in block if row.strip() and not _is_separator(row)])
    if rows and len(rows[0]) <= 40 and rows[0].rstrip().endswith(":") and not any(c.isdigit() for c in rows[0]):
        rows = rows[1:]  # "Proof:"
    if not rows:
        return "expected numbered proof lines"
    if len(rows) > MAX_LINES:
        return f"more than {MAX_LINES} lines"
    lines = []
    for position, row in enumerate(rows, start=1):
        line = read_line(row, atoms)
        if isinstance(line, str):
            return f"proof line {position} ({row.strip()[:60]}): {line}"
        lines.append(line)
    return lines


def _is_separator(row: str) -> bool:
    """A drawn line under an assumption, such as ``|----`` or ``| |___``."""
    marks = row.replace(" ", "")
    return bool(marks) and all(c in "|│┃-_—–=" for c in marks) and any(c in "-_—–=" for c in marks)
