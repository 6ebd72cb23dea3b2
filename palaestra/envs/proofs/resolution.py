"""Resolution refutation: derive the empty clause from an unsatisfiable CNF, each resolvent checked.

Random clauses of two or three literals (three from five variables on) are added until the formula is unsatisfiable (a truth table
kept as bitmasks: the rows each clause falsifies must cover every row), then cut down to a minimal
unsatisfiable subset (every clause is needed, so none is filler). The reference refutation comes
from a DPLL search (unit clauses first): a branch that falsifies a clause returns it, and two branches
on ``x`` resolve on ``x``; steps the empty clause does not depend on are dropped.

The answer is numbered resolution steps continuing the clause numbers, each ``k. resolvent (i, j)``.
The checker requires the written clause to be exactly the resolvent of clauses ``i`` and ``j`` (given
or derived earlier) on one complementary pair, and the last step to be the empty clause; **any**
valid refutation scores. Clauses are sets: order and repeats of literals do not matter. Difficulty:
the reference's steps plus half the clause count.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.proofs._logic import Token, tokenize
from palaestra.verifiers.blocks import read_block, without_end_of_proof

Clause = frozenset[int]
MAX_STEPS = 1_500
MAX_PROOF_CHARS = 60_000
_EMPTY_WORDS = ("empty", "bot", "false", "contradiction")
_CITATION_WORDS = ("from", "res", "resolution", "resolve", "resolving", "resolvent", "of", "by", "r", "and",
                   "clauses", "clause", "lines", "line")


@register
class Resolution(Task):
    id = "proofs/resolution"
    family = "proofs"
    description = "Refute an unsatisfiable CNF by resolution: derive the empty clause, each resolvent checked."
    tags = ("logic", "proofs", "resolution", "satisfiability")
    version = 1
    multiline = True
    max_answer_chars = MAX_PROOF_CHARS

    @dataclass(frozen=True)
    class Config:
        variables: int
        min_clauses: int  # the minimal unsatisfiable subset has at least this many clauses

    presets = (
        Config(variables=3, min_clauses=4),
        Config(variables=4, min_clauses=6),
        Config(variables=5, min_clauses=8),
        Config(variables=6, min_clauses=10),
        Config(variables=7, min_clauses=12),
    )
    # capped where generation stops scaling (kit check far_levels)
    growth = Growth(steps={"variables": 1, "min_clauses": 1}, limits={"variables": 16, "min_clauses": 21})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.variables
        clauses = retry(lambda: _draw_core(rng, n, config.min_clauses), attempts=2_000,
                        what="a minimal unsatisfiable formula")
        steps = refutation(clauses, n)
        listing = "\n".join(f"{i}. {clause_text(c)}" for i, c in enumerate(clauses, start=1))
        m = len(clauses)
        prompt = (
            f"These clauses over x1..x{n} (¬ means not, ∨ means or) are jointly unsatisfiable:\n{listing}\n\n"
            "Refute them by resolution: derive the empty clause. Write one resolution step per line, numbered on "
            f"from {m + 1}: the number, the resolvent, and in parentheses the two earlier clauses (given or derived) "
            "it resolves. The resolvent must be exactly the union of the two clauses without one complementary "
            "pair of literals. Write the empty clause as ⊥. Any valid refutation is accepted. The shape, for "
            f"example:\n{m + 1}. ¬x1 ∨ x2   (2, 3)\n{m + 2}. ⊥   ({m + 1}, 1)"
        )
        answer = "\n".join(f"{m + k}. {clause_text(c)}   ({a}, {b})" for k, (c, a, b) in enumerate(steps, start=1))
        return Problem(prompt=prompt, answer=answer, data={
            "variables": n, "clauses": [sorted(c, key=lambda lit: (abs(lit), lit)) for c in clauses],
            "steps": len(steps),
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        n = problem.data["variables"]
        given = [frozenset(c) for c in problem.data["clauses"]]
        steps = read_steps(answer, n)
        if isinstance(steps, str):
            return Verdict.unparsed(steps)
        known = list(given)
        for number, clause, cited in steps:
            if cited is None:  # a given clause restated under its own number
                if number > len(given) or given[number - 1] != clause:
                    return Verdict.wrong(f"line {number}: only a given clause may stand without its two parents")
                continue
            if number != len(known) + 1:
                return Verdict.wrong(f"line {number}: steps are numbered on from {len(known) + 1}")
            first, second = cited
            if not (1 <= first <= len(known) and 1 <= second <= len(known)):
                return Verdict.wrong(f"line {number}: it cites a clause that does not exist yet")
            if not is_resolvent(clause, known[first - 1], known[second - 1]):
                return Verdict.wrong(f"line {number}: {clause_text(clause)} is not a resolvent of clauses {first} "
                                     f"and {second}")
            known.append(clause)
        if len(known) == len(given) or known[-1]:
            return Verdict.wrong("the last step is not the empty clause")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Steps of the reference refutation plus half the number of clauses."""
        return problem.data["steps"] + len(problem.data["clauses"]) / 2

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        ascii_only = gold.replace("¬", "~").replace(" ∨ ", " | ").replace("⊥", "{}")
        braces = "\n".join(_braced(row) for row in gold.splitlines())
        restated = "\n".join(f"{i}. {clause_text(frozenset(c))}" for i, c in enumerate(problem.data["clauses"], 1))
        return [*super().spellings(problem), ascii_only, braces, gold.replace("⊥", "□"), f"```\n{gold}\n```",
                f"{restated}\n{gold}", gold.replace("   (", " [from ").replace(")", "]")]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        rows = (problem.answer or "").splitlines()
        wrong = ["\n".join(rows[:-1]) or "⊥", f"{len(problem.data['clauses']) + 1}. ⊥   (1, 2)"]
        number = rows[-1].partition(".")[0]
        # the last step cites clauses 1 and 2, which cannot clash: the minimal core has more than two clauses
        wrong.append("\n".join([*rows[:-1], f"{number}. ⊥   (1, 2)"]))
        return wrong


def clause_text(clause: Clause) -> str:
    if not clause:
        return "⊥"
    return " ∨ ".join(("¬" if lit < 0 else "") + f"x{abs(lit)}" for lit in sorted(clause, key=lambda x: (abs(x), x)))


def _braced(row: str) -> str:
    number, _, rest = row.partition(". ")
    clause, _, cited = rest.partition("   ")
    literals = "" if clause == "⊥" else clause.replace(" ∨ ", ", ")
    return f"{number}. {{{literals}}} {cited}"


def is_resolvent(clause: Clause, first: Clause, second: Clause) -> bool:
    """Whether ``clause`` is ``first`` and ``second`` resolved on one complementary pair."""
    return any(-lit in second and clause == (first - {lit}) | (second - {-lit}) for lit in first)


# --- generation ----------------------------------------------------------------------------------------------

def _true_rows(n: int) -> list[int]:
    """Per variable (index 0 for x1), the truth-table rows (bits of an int) on which it is true."""
    return [sum(1 << row for row in range(1 << n) if row >> var & 1) for var in range(n)]


def _falsified_rows(clause: Clause, true_rows: list[int], full: int) -> int:
    """The truth-table rows on which ``clause`` is false."""
    rows = full
    for lit in clause:
        rows &= ~true_rows[abs(lit) - 1] if lit > 0 else true_rows[abs(lit) - 1]
    return rows


_TRUE_ROWS: dict[int, list[int]] = {}


def _draw_core(rng: random.Random, n: int, min_clauses: int) -> list[Clause] | None:
    full = (1 << (1 << n)) - 1
    true_rows = _TRUE_ROWS.get(n) or _TRUE_ROWS.setdefault(n, _true_rows(n))
    clauses: list[Clause] = []
    masks: list[int] = []
    covered = 0
    for _ in range(20 * n):
        width = rng.choice((2, 3, 3)) if n <= 4 else 3  # two-literal clauses make small cores on many variables
        clause = frozenset(v if rng.random() < 0.5 else -v for v in rng.sample(range(1, n + 1), width))
        if clause in clauses:
            continue
        clauses.append(clause)
        masks.append(_falsified_rows(clause, true_rows, full))
        covered |= masks[-1]
        if covered == full:
            break
    else:
        return None
    keep = list(range(len(clauses)))
    for index in rng.sample(range(len(clauses)), len(clauses)):  # deletion: drop each clause that is not needed
        rest = [i for i in keep if i != index]
        union = 0
        for i in rest:
            union |= masks[i]
        if union == full:
            keep = rest
    core = [clauses[i] for i in keep]
    return core if len(core) >= min_clauses else None


def refutation(clauses: list[Clause], n: int) -> list[tuple[Clause, int, int]]:
    """A resolution refutation of ``clauses`` (numbered from 1) as (resolvent, parent, parent) steps numbered
    on from ``len(clauses) + 1``: a DPLL search whose closed branches resolve, unit clauses first."""
    derived: dict[Clause, int] = {c: i for i, c in enumerate(clauses, start=1)}
    steps: list[tuple[Clause, int, int]] = []

    def refute(assignment: dict[int, bool]) -> Clause:
        def false(lit: int) -> bool:
            return abs(lit) in assignment and assignment[abs(lit)] != (lit > 0)

        for clause in clauses:
            if all(false(lit) for lit in clause):
                return clause
        open_clauses = [c for c in clauses if not any(abs(lit) in assignment and not false(lit) for lit in c)]
        unit = next((c for c in open_clauses if sum(abs(lit) not in assignment for lit in c) == 1), None)
        if unit is not None:
            var = next(abs(lit) for lit in unit if abs(lit) not in assignment)
        else:
            counts: dict[int, int] = {}
            for c in open_clauses:
                for lit in c:
                    if abs(lit) not in assignment:
                        counts[abs(lit)] = counts.get(abs(lit), 0) + 1
            var = max(sorted(counts), key=lambda v: counts[v])
        first = refute({**assignment, var: True})
        if -var not in first:
            return first
        second = refute({**assignment, var: False})
        if var not in second:
            return second
        resolvent = (first - {-var}) | (second - {var})
        if resolvent not in derived:
            steps.append((resolvent, derived[first], derived[second]))
            derived[resolvent] = len(clauses) + len(steps)
        return resolvent

    refute({})
    # keep only the steps the empty clause depends on, renumbered
    needed = {derived[frozenset()]}
    for clause, a, b in reversed(steps):
        if derived[clause] in needed:
            needed |= {a, b}
    renumber = {i: i for i in range(1, len(clauses) + 1)}
    kept: list[tuple[Clause, int, int]] = []
    for clause, a, b in steps:
        if derived[clause] in needed:
            kept.append((clause, renumber[a], renumber[b]))
            renumber[derived[clause]] = len(clauses) + len(kept)
    return kept


# --- reading -------------------------------------------------------------------------------------------------

def read_steps(text: str, n: int) -> list[tuple[int, Clause, tuple[int, int] | None]] | str:
    """The numbered steps of a written refutation (the clause and its two parents; None for a restated
    given clause), or why they cannot be read."""
    if not isinstance(text, str) or len(text) > MAX_PROOF_CHARS:
        return "the refutation is missing or too long"
    block = read_block(text, leading="strip", max_lines=MAX_STEPS + 100)
    if block is None:
        return "expected numbered resolution steps"
    rows = without_end_of_proof([row for row in block if row.strip()])
    if rows and len(rows[0]) <= 40 and rows[0].rstrip().endswith(":") and not any(c.isdigit() for c in rows[0]):
        rows = rows[1:]
    if not rows or len(rows) > MAX_STEPS:
        return "expected numbered resolution steps"
    steps = []
    for row in rows:
        step = _read_step(row, n)
        if isinstance(step, str):
            return f"{row.strip()[:60]}: {step}"
        steps.append(step)
    return steps


def _read_step(row: str, n: int) -> tuple[int, Clause, tuple[int, int] | None] | str:
    tokens = tokenize(row, limit=200)
    if not tokens or tokens[0][0] != "num":
        return "a step starts with its number"
    number, pos = int(tokens[0][1]), 1
    if pos < len(tokens) and tokens[pos][1] in (".", ")", ":"):
        pos += 1
    read = _read_clause(tokens, pos, n)
    if read is None:
        return "could not read the clause"
    clause, pos = read
    rest = [t for t in tokens[pos:] if not (t[0] in ("open", "close", "lbrack", "rbrack", "punct", "dash")
                                            or (t[0] == "word" and t[1].lower() in _CITATION_WORDS))]
    if not rest:
        return number, clause, None
    if len(rest) != 2 or any(kind != "num" for kind, _ in rest):
        return "expected the two clauses it resolves, such as (2, 5)"
    return number, clause, (int(rest[0][1]), int(rest[1][1]))


def _read_clause(tokens: list[Token], pos: int, n: int) -> tuple[Clause, int] | None:
    """A clause at ``pos``: ``⊥``/``□``/``{}``, or literals joined by ∨, |, ``or`` or commas, optionally in braces."""
    braced = pos < len(tokens) and tokens[pos][0] == "lbrace"
    if braced:
        pos += 1
        if pos < len(tokens) and tokens[pos][0] == "rbrace":
            return frozenset(), pos + 1
    if pos < len(tokens) and (tokens[pos] in (("conn", "bot"), ("conn", "empty"))
                              or (tokens[pos][0] == "word" and tokens[pos][1].lower() in _EMPTY_WORDS)):
        return frozenset(), pos + 1
    literals: set[int] = set()
    while True:
        negative = False
        while pos < len(tokens) and (tokens[pos] == ("conn", "not") or tokens[pos][0] == "dash"):
            negative = not negative
            pos += 1
        if pos >= len(tokens) or tokens[pos][0] != "word":
            return None
        name = tokens[pos][1]
        if not (name[:1] in "xX" and name[1:].isdigit() and 1 <= int(name[1:]) <= n and name[1:2] != "0"):
            return None
        literals.add(-int(name[1:]) if negative else int(name[1:]))
        pos += 1
        separator = pos < len(tokens) and (tokens[pos] in (("conn", "or"), ("conn", "bar"), ("punct", ","))
                                           or tokens[pos] == ("word", "or"))
        if not separator or (tokens[pos] == ("punct", ",") and not braced):
            break
        pos += 1
    if braced:
        if pos >= len(tokens) or tokens[pos][0] != "rbrace":
            return None
        pos += 1
    return frozenset(literals), pos
