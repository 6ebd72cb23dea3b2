"""Linear systems with free variables: one solution, the general solution, or none.

The coefficient matrix has rank below the number of unknowns (built as ``U · [R; 0]``,
as in :mod:`palaestra.envs.linalg.null_space`); the right-hand side is ``A x0`` for an
integer x0, or, in a share of the problems from level 1, a vector outside the column
space (no solution). That share is 8% (``NO_SOLUTION_SHARE``): at 20-25% a constant ``no solution`` scored
0.20-0.28 for no work, and at 8% it still scored 0.07-0.09 at levels 1, 3 and 4 (version 3). Levels 0-1 ask for any one solution; levels 2-4 for the general
solution in terms of free parameters; sizes grow from 2 equations in 3 unknowns to 4
equations in 6.

Answers are checked, not compared. One solution: any exact vector with A x = b
(``(1, 0, -2)``, ``x = 1, y = 0, z = -2``). The general solution: a vector whose entries are
linear in parameters (``(1 + 2s - t, s, 3 - t, t)``, ``x = 1 + 2s - t, y = s, ...``,
``(1, 0, 3, 0) + s(2, 1, 0, 0) + t(-1, 0, -1, 1)``, with a remark such as ``s, t ∈ ℝ``): its
constant part must solve A x = b and its parameter directions must be independent
solutions of A v = 0, one per free variable, so every solution is covered and nothing
else. ``no solution`` (or ``inconsistent``, ``∅``) must come with its certificate (version 4): multipliers of the
equations, in order, whose combination cancels every unknown but not the right-hand side (``no solution: (1, -2,
1)``: 1·eq1 - 2·eq2 + 1·eq3 reads 0 = 5), so a blind ``no solution`` earns nothing; the verifier checks yᵀA = 0
and yᵀb ≠ 0.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.linalg.common import cell, multiply, unimodular
from palaestra.solvers.linalg import nullspace, rank, rref
from palaestra.verifiers.assignments import read_assignment
from palaestra.verifiers.claims import mentions
from palaestra.verifiers.formulas import linear_combination, read_formula
from palaestra.verifiers.normalize import closing_bracket, enclosed, read_answer, split_top_level, strip_wrappers
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.polynomials import to_polynomial
from palaestra.verifiers.sets import read_list

PARAMETERS = ("s", "t", "u", "r", "k", "p", "q")
_NAMES = {3: "xyz", 4: "xyzw"}
NO_SOLUTION_WORDS = ("no solution", "no solutions", "inconsistent", "none")
_NONE = re.compile(r"^(?:no solutions?|none|inconsistent|the system (?:is inconsistent|has no solutions?)|∅|"
                   r"\\emptyset|no real solutions?|there (?:is|are) no solutions?)\.?$", re.IGNORECASE)
_COMMA = re.compile(r",")  # pieces are stripped: a leading \s* rescans a space run at every position
_COEFFICIENT = re.compile(r"\s*([+-]?)\s*([^()\[\]]*?)\s*(?:\*|\\cdot)?\s*$")
MAX_VECTOR_TERMS = 8
MAX_CERTIFICATE_ENTRIES = 12
NO_SOLUTION_SHARE = 0.08  # inconsistent systems: rare (and since version 4 'no solution' needs its certificate)
NO_SOLUTION_ASK = ("if there is none, write 'no solution' followed by one multiplier per equation, in order, whose "
                   "combination of the equations cancels every unknown but not the right-hand side, e.g. "
                   "no solution: (1, -2, 1) for three equations.")
# "no solution: (1, -2, 1)", "Inconsistent; multipliers [1, -2, 1]", "no solution, y = (1, -2, 1)"
_CERTIFIED = re.compile(r"^(?:no solutions?|inconsistent|the system (?:is inconsistent|has no solutions?)|∅|"
                        r"there (?:is|are) no solutions?)\s*[:;,.—–-]?\s*(?:(?:with |by )?(?:the )?(?:multipliers|"
                        r"certificate|y)\s*(?:=|:|are|is)?\s*)?([(\[][^()\[\]]{1,400}[)\]])\.?$", re.IGNORECASE)
# a closing remark on the parameters: ", s, t ∈ ℝ", "where s and t are real numbers", "(s, t free)"
_PARAMETER_NAMES = r"(?:[a-z]\s*(?:,|and)\s*){0,6}[a-z]"
_REALS = r"(?:∈|\\in|in)\s*(?:ℝ|\\mathbb\s*\{?\s*R\s*\}?|\\R|R)"
_DOMAIN = re.compile(
    r"[,;.]?\s*\(?\s*(?:"
    rf"(?:(?:where|with)\s+)?{_PARAMETER_NAMES}\s*(?:{_REALS}|(?:are\s+|is\s+)?(?:any\s+|arbitrary\s+)?"
    r"(?:real(?:\s+numbers?)?|arbitrary|free)(?:\s+(?:parameters?|constants?))?)"
    rf"|(?:for|with)\s+(?:all|any|arbitrary)\s+(?:real\s+(?:numbers\s+)?)?{_PARAMETER_NAMES}(?:\s*{_REALS})?"
    r")\s*\)?\s*\.?\s*$"
)


def _names(n: int) -> list[str]:
    return list(_NAMES[n]) if n in _NAMES else [f"x{i + 1}" for i in range(n)]


@register
class UnderdeterminedSystem(Task):
    id = "linalg/underdetermined_system"
    family = "linalg"
    description = "Solve A x = b with free variables: any solution, the general solution, or no solution."
    tags = ("math", "linear-algebra")
    version = 4  # v3: a fixed example (v2 chose it by the answer); v4: 'no solution' needs its multipliers

    @dataclass(frozen=True)
    class Config:
        rows: int
        columns: int
        rank: int
        general: bool  # ask for the general solution
        inconsistent: float  # share of systems with no solution

    presets = (
        Config(2, 3, 2, False, 0.0),
        Config(3, 4, 2, False, NO_SOLUTION_SHARE),
        Config(3, 4, 2, True, 0.0),
        Config(4, 5, 3, True, NO_SOLUTION_SHARE),
        Config(4, 6, 3, True, NO_SOLUTION_SHARE),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        matrix = retry(lambda: _matrix(rng, config), what="a matrix of the planned rank")
        n = config.columns
        names = _names(n)
        x0 = [rng.randint(-5, 5) for _ in range(n)]
        rhs = [int(v) for row in multiply(matrix, [[v] for v in x0]) for v in row]
        consistent = rng.random() >= config.inconsistent
        if not consistent:
            rhs = retry(lambda: [v + rng.randint(-3, 3) for v in rhs],
                        lambda b: rank([row + [v] for row, v in zip(matrix, b)]) > config.rank,
                        what="a right-hand side outside the column space")
        equations = "\n".join("  " + linear_combination([(c, name) for c, name in zip(row, names)]) + f" = {v}"
                              for row, v in zip(matrix, rhs))
        unknowns = ", ".join(names)
        if config.general:
            ask = (f"Find the general solution, as ({unknowns}) written with free parameters (use s, t, ...), "
                   f"e.g. (2 - s, s, 1 + 3t, t){' for four unknowns' if n != 4 else ''}; {NO_SOLUTION_ASK}")
        else:
            # a fixed placeholder: v2 showed (3, 1, -1, ...) exactly when (1, 2, 3, ...) solved the system
            example = [k + 1 for k in range(n)]
            ask = (f"Find one solution ({unknowns}), e.g. ({', '.join(map(str, example))})"
                   + (f"; {NO_SOLUTION_ASK}" if config.inconsistent else "."))
        prompt = f"Solve the system of linear equations in {unknowns}:\n{equations}\n\n{ask}"
        answer = f"no solution: {_certificate(matrix, rhs)}" if not consistent else \
            _general(matrix, x0, names) if config.general else "(" + ", ".join(map(str, x0)) + ")"
        return Problem(prompt=prompt, answer=answer, data={
            "matrix": matrix, "rhs": rhs, "consistent": consistent, "general": config.general,
            "free": n - config.rank,
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        matrix, rhs = problem.data["matrix"], problem.data["rhs"]
        n = len(matrix[0])
        if len(answer) > self.max_answer_chars:
            return Verdict.unparsed(f"answer longer than {self.max_answer_chars} characters")
        if read_answer(answer, lambda s: True if _NONE.match(strip_wrappers(s).strip()) else None):
            if problem.data["consistent"]:
                return Verdict.wrong("the system has solutions")
            return Verdict.wrong("'no solution' needs its certificate: one multiplier per equation whose "
                                 "combination cancels every unknown but not the right-hand side")
        multipliers = read_answer(answer, _read_certificate)
        if multipliers is not None:
            if problem.data["consistent"]:
                return Verdict.wrong("the system has solutions")
            return _judge_certificate(matrix, rhs, multipliers)
        if mentions(answer, NO_SOLUTION_WORDS) or "∅" in answer:  # a vector and 'no solution': a hedge, not read
            return Verdict.unparsed("give either one solution vector or 'no solution', not both")
        parametric = _read_parametric(answer, _names(n))
        if parametric is None:
            return Verdict.unparsed(f"not a vector of {n} entries (or 'no solution')")
        constant, directions = parametric
        if not problem.data["consistent"]:
            return Verdict.wrong("the system has no solution")
        if [sum((Fraction(a) * x for a, x in zip(row, constant)), Fraction(0)) for row in matrix] != \
                [Fraction(v) for v in rhs]:
            return Verdict.wrong("the vector does not solve A x = b")
        if not problem.data["general"]:
            return Verdict.judge(not directions, "one solution was asked, not a family")
        for v in directions:
            if any(sum((Fraction(a) * x for a, x in zip(row, v)), Fraction(0)) != 0 for row in matrix):
                return Verdict.wrong("a parameter direction is not a solution of A v = 0")
        if len(directions) != problem.data["free"] or (directions and rank(directions) != len(directions)):
            return Verdict.wrong(f"the solution set has {problem.data['free']} free parameters")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Entries of the matrix plus twice the free parameters to find for a general solution, plus a tenth
        of the digits of the right-hand side and the answer."""
        matrix = problem.data["matrix"]
        digits = sum(len(str(abs(v))) for v in problem.data["rhs"]) + sum(c.isdigit() for c in problem.answer or "")
        return float(len(matrix) * len(matrix[0]) + (2 * problem.data["free"] if problem.data["general"] else 0)) \
            + digits / 10

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer or ""
        if not problem.data["consistent"]:
            vector = answer.partition(": ")[2]
            return [*super().spellings(problem), f"No solution; multipliers {vector}.",
                    f"The system is inconsistent: y = [{vector[1:-1]}]", f"∅ {vector}"]
        names = _names(len(problem.data["matrix"][0]))
        entries = [e.strip() for _, e in split_top_level(answer[1:-1], _COMMA)]
        return [*super().spellings(problem), ", ".join(f"{n} = {e}" for n, e in zip(names, entries)),
                f"\\left({answer[1:-1]}\\right)", _as_vector_sum(answer, len(names)),
                f"({', '.join(names)}) = {answer}", answer.replace("s", "p").replace("t", "q")
                if problem.data["general"] else f"[{answer[1:-1]}]"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        answer = problem.answer or ""
        n = len(problem.data["matrix"][0])
        if not problem.data["consistent"]:
            m = len(problem.data["matrix"])
            y = [Fraction(v) for v in answer.partition(": ")[2][1:-1].split(", ")]
            raised = [y[0] + 1, *y[1:]]  # no longer cancels the unknowns
            return [w for w in ["no solution", "(" + ", ".join("0" for _ in range(n)) + ")",
                                "no solution: (" + ", ".join("0" for _ in range(m)) + ")",
                                "no solution: (" + ", ".join(cell(v) for v in raised) + ")"]
                    if not self.verify(problem, w).correct]
        entries = [e.strip() for _, e in split_top_level(answer[1:-1], _COMMA)]
        bumped = [f"({entries[0]}) + 1", *entries[1:]]
        wrong = ["(" + ", ".join(bumped) + ")", "no solution"]
        if problem.data["general"]:
            constant = _read_parametric(answer, _names(n))
            assert constant is not None
            wrong.append("(" + ", ".join(cell(v) for v in constant[0]) + ")")  # one solution, not the family
        return [w for w in wrong if not self.verify(problem, w).correct]


def _matrix(rng: random.Random, config: UnderdeterminedSystem.Config) -> list[list[int]] | None:
    m, n, r = config.rows, config.columns, config.rank
    pivots = sorted(rng.sample(range(n), r))
    echelon = [[0] * n for _ in range(r)]
    for i, p in enumerate(pivots):
        echelon[i][p] = 1
        for c in range(p + 1, n):
            if c not in pivots:
                echelon[i][c] = rng.randint(-4, 4)
    mixer = unimodular(rng, m, steps=rng.randint(m + 1, 2 * m + 2), top=2)
    matrix = [[int(v) for v in row] for row in multiply(mixer, echelon + [[0] * n for _ in range(m - r)])]
    if max(abs(v) for row in matrix for v in row) > 20 or rank(matrix) != r:
        return None
    if any(all(v == 0 for v in row) for row in matrix) or any(all(row[c] == 0 for row in matrix) for c in range(n)):
        return None
    if len({tuple(row) for row in matrix}) < m:
        return None  # an equation written twice
    return matrix


def _certificate(matrix: list[list[int]], rhs: list[int]) -> str:
    """Whole multipliers y of the equations with yᵀA = 0 and yᵀb ≠ 0, as ``(1, -2, 1)``: the left null space's
    first basis vector that does not cancel b, scaled to coprime integers."""
    columns = [list(column) for column in zip(*matrix)]
    for y in nullspace(columns, len(matrix)):
        if sum((v * b for v, b in zip(y, rhs)), Fraction(0)) != 0:
            scale = math.lcm(*(v.denominator for v in y))
            whole = [int(v * scale) for v in y]
            common = math.gcd(*whole)
            return "(" + ", ".join(str(v // common) for v in whole) + ")"
    raise AssertionError("an inconsistent system has a certificate")  # the generator drew b outside the columns


def _read_certificate(text: str) -> list[Fraction] | None:
    """The multipliers after 'no solution' (:data:`_CERTIFIED`), or None."""
    certified = _CERTIFIED.match(text.strip())
    if certified is None:
        return None
    return read_list(certified.group(1), read_exact, max_items=MAX_CERTIFICATE_ENTRIES)


def _judge_certificate(matrix: list[list[int]], rhs: list[int], y: list[Fraction]) -> Verdict:
    if len(y) != len(matrix):
        return Verdict.wrong(f"one multiplier per equation: {len(matrix)}, not {len(y)}")
    for column in range(len(matrix[0])):
        if sum((v * row[column] for v, row in zip(y, matrix)), Fraction(0)) != 0:
            return Verdict.wrong("the combination of the equations does not cancel every unknown")
    if sum((v * b for v, b in zip(y, rhs)), Fraction(0)) == 0:
        return Verdict.wrong("the combination of the equations reads 0 = 0: no contradiction")
    return Verdict.right()


def _general(matrix: list[list[int]], x0: list[int], names: list[str]) -> str:
    """x0 plus the null space basis (one vector per free column) with parameters s, t, u, ..."""
    reduced, pivots = rref(matrix)
    n = len(matrix[0])
    free = [c for c in range(n) if c not in pivots]
    entries = []
    for i in range(n):
        terms: list[tuple[Fraction, str]] = [(Fraction(x0[i]), "1")]
        for parameter, f in zip(PARAMETERS, free):
            if i == f:
                terms.append((Fraction(1), parameter))
            elif i in pivots:
                terms.append((-reduced[pivots.index(i)][f], parameter))
        entries.append(linear_combination(terms))
    return "(" + ", ".join(entries) + ")"


def _as_vector_sum(answer: str, size: int) -> str:
    """A parametric answer ``(1 + 2s, s, 3)`` written as ``(1, 0, 3) + s(2, 1, 0)``."""
    entries = [e.strip() for _, e in split_top_level(answer[1:-1], _COMMA)]
    used = [p for p in PARAMETERS if p not in _names(size)]
    polynomials = [to_polynomial(read_formula(e, used), used) or {} for e in entries]
    terms = ["(" + ", ".join(cell(p.get((0,) * len(used), Fraction(0))) for p in polynomials) + ")"]
    for k, name in enumerate(used):
        unit = tuple(1 if j == k else 0 for j in range(len(used)))
        column = [p.get(unit, Fraction(0)) for p in polynomials]
        if any(column):
            terms.append(f"{name}(" + ", ".join(cell(v) for v in column) + ")")
    return " + ".join(terms)


def _read_parametric(text: str, names: list[str]) -> tuple[list[Fraction], list[list[Fraction]]] | None:
    """(constant vector, one direction per parameter used) of a written (parametric) vector."""
    def entries_of(s: str) -> list[str] | None:
        s = strip_wrappers(s)
        s = re.sub(r"^\(\s*" + r"\s*,\s*".join(map(re.escape, names)) + r"\s*\)\s*=\s*", "", s)
        s = s.replace("\\left", "").replace("\\right", "")
        if enclosed(s, "(["):
            parts = [p.strip() for _, p in split_top_level(s[1:-1], _COMMA)]
            return parts if len(parts) == len(names) else None
        combined = _vector_form(s, len(names))
        if combined is not None:
            return combined
        values = read_assignment(s, names, lambda v: v)
        return [values[name] for name in names] if values else None

    remark = _DOMAIN.search(text[-100:]) if isinstance(text, str) else None
    if remark is not None and remark.group().strip(" .") and len(remark.group()) < len(text):
        text = text[: len(text) - len(remark.group())]
    entries = read_answer(text, entries_of)
    if entries is None:
        return None
    # a variable written as its own entry is a free variable, the parameter itself: (5 - 4y - 4z, y, z, 0)
    free = [name for name, entry in zip(names, entries, strict=True) if entry.strip() == name]
    used = free + [p for p in PARAMETERS if p not in names]
    polynomials = [to_polynomial(read_formula(e, used), used) for e in entries]
    if any(p is None for p in polynomials):
        return None
    constant = [p.get((0,) * len(used), Fraction(0)) for p in polynomials]  # type: ignore[union-attr]
    directions = []
    for k in range(len(used)):
        unit = tuple(1 if j == k else 0 for j in range(len(used)))
        column = [p.get(unit, Fraction(0)) for p in polynomials]  # type: ignore[union-attr]
        if any(sum(m) > 1 for p in polynomials for m in p):  # type: ignore[union-attr]
            return None  # not linear in the parameters
        if any(column):
            directions.append(column)
    return constant, directions


def _vector_form(text: str, size: int) -> list[str] | None:
    """The entries of a vector written as a combination ``(1, 0, 2) + s(2, 1, 0) - t*(1, 0, 1)``, each as a
    formula (``+ (1)*(1) + (s)*(2) - (t)*(1)``), or None when ``text`` is not such a combination."""
    entries = [""] * size
    position = 0
    for _ in range(MAX_VECTOR_TERMS):
        opening = min((i for i in (text.find("(", position), text.find("[", position)) if i >= 0), default=-1)
        closing = closing_bracket(text, opening)
        if closing < 0:
            return None
        coefficient = _COEFFICIENT.fullmatch(text[position:opening])
        if coefficient is None or (position > 0 and not coefficient.group(1)):
            return None  # terms are joined by + or -
        sign, factor = coefficient.group(1) or "+", coefficient.group(2) or "1"
        parts = [p.strip() for _, p in split_top_level(text[opening + 1 : closing], _COMMA)]
        if len(parts) != size:
            return None
        entries = [f"{entry} {sign} ({factor})*({part})" for entry, part in zip(entries, parts)]
        position = closing + 1
        if not text[position:].strip():
            return entries
    return None
