"""Who did it, and who is lying? Suspects' statements, and how many of them lie.

One suspect is the culprit and exactly k suspects lie (their statement is false); the others
tell the truth. Statements speak about the culprit ("I did not do it", "Ben did it", "it was
Ada or Cy") or about each other's honesty ("Dan is lying", "Eve tells the truth"), so truth
and guilt depend on each other. The hidden culprit and liars are drawn first and each
statement is made true or false to fit; a SAT solver (one culprit; each speaker honest exactly
when their statement holds; exactly k liars) counts the consistent (culprit, liars) pairs and
the puzzle is kept only when there is exactly one, and only when fewer liars could also explain
the statements: assuming as few liars as fit (the stated count ignored) gave the answer in
0.23/0.61/0.83 of levels 0/2/4 before version 2.

The answer names the culprit and the liars, e.g. ``culprit: Ben`` and ``liars: Ada, Cy`` (on
two lines or separated by a semicolon, liars in any order); both must be right.

Version 3: every kind of statement decides. Reading past one kind (every "X did it", or every "Y is lying"
ignored) and picking any pair that then fits answered 0.50, 0.52, 0.56, 0.39 of levels 1-4 (the worst kind,
among the problems stating it, 60 seeds a level); a puzzle is now kept only when each kind read past leaves
three pairs (two with three suspects, where no more is possible): 0.36, 0.24, 0.29, 0.22 (level 0 unchanged,
0.56 for "did").

Version 4: three suspects too. A kind said once among three suspects frees one speaker, and one liar then fixes who
lies for each culprit, so it leaves at most three pairs, and with one liar every such puzzle stating "X did it"
left two: two of three suspects may now lie, and every kind read past leaves three pairs at every level. At level 0
that reading now answers 0.31 ("I did not do it" read past; v3: 0.50 for "did", 60 seeds), levels 1-4 unchanged.

Generation speed: about 120 problems/s at level 4. Most drawn puzzles are redrawn, each checked by a SAT
solver that counts the consistent (culprit, liars) pairs (and again with fewer liars), because several pairs fit or
fewer liars cannot explain the statements; both checks are kept because the answer must be unique and assuming as
few liars as fit must not give it.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from math import comb

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.deduction.common import PEOPLE
from palaestra.solvers.sat import CNF, count_solutions
from palaestra.verifiers.normalize import is_closing, strip_wrappers
from palaestra.verifiers.sets import one_of, read_set

_BASIC = ("not_me", "did", "did_not")
_HONESTY = ("lying", "truthful")
_PART = re.compile(r"^\s*(?:the\s+)?(culprit|liars?)\s*(?:is|are|was|were|=|:)?\s*(.*)$", re.IGNORECASE | re.DOTALL)
# Parts are split at new lines, semicolons, and a comma that starts the other part ("culprit: A, liars: B").
_PARTS = re.compile(r"[\n;]+|(?:,|(?<=\w)\.)\s*(?=(?:the\s+)?(?:culprit|liars?)\s*(?:is|are|was|were|=|:))",
                    re.IGNORECASE)  # also two sentences: "The culprit is Ben. The liars are Ada and Cy."


@register
class Liars(Task):
    id = "deduction/liars"
    family = "deduction"
    description = "Find the culprit and the liars among suspects, knowing how many of them lie."
    tags = ("logic", "deduction", "puzzle", "liars")
    version = 4  # v4: also among three suspects (two may lie), a kind read past leaves three (culprit, liars) pairs
    max_answer_chars = 600

    @dataclass(frozen=True)
    class Config:
        suspects: int
        kinds: tuple[str, ...]

    presets = (
        Config(suspects=3, kinds=_BASIC),
        Config(suspects=4, kinds=(*_BASIC, "either")),
        Config(suspects=5, kinds=(*_BASIC, "either", *_HONESTY)),
        Config(suspects=6, kinds=(*_BASIC, "either", *_HONESTY)),
        Config(suspects=7, kinds=("did", "did_not", "either", *_HONESTY)),
    )
    # Capped at level 24's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"suspects": 27})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.suspects
        names = rng.sample(PEOPLE, n)
        culprit, liars, statements = retry(lambda: _draw(rng, n, config.kinds), what="a puzzle with one solution")
        lines = [f'{names[i]}: "{_sentence(s, i, names)}"' for i, s in enumerate(statements)]
        k = len(liars)
        prompt = (
            f"One of {n} suspects, {', '.join(names[:-1])} and {names[-1]}, committed the crime. Each suspect made "
            f"one statement. Exactly {k} of the suspects {'is lying' if k == 1 else 'are lying'} (their "
            "statement is false); everyone else tells the truth.\n\n" + "\n".join(lines)
            + "\n\nExactly one culprit and one set of liars fit. Who committed the crime, and who is lying? "
            "Answer on two lines, for example:\nculprit: Name\nliars: Name, Name"
        )
        answer = f"culprit: {names[culprit]}\nliars: {', '.join(names[i] for i in sorted(liars))}"
        data = {"names": names, "statements": statements, "culprit": culprit, "liars": sorted(liars)}
        return Problem(prompt=prompt, answer=answer, data=data)

    def difficulty(self, problem: Problem) -> float:
        """Cases to rule out: suspects times the ways to choose the liars."""
        n = len(problem.data["names"])
        return float(n * comb(n, len(problem.data["liars"])))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if not isinstance(answer, str) or len(answer) > self.max_answer_chars:
            return Verdict.unparsed("answer too long")
        names = problem.data["names"]
        parts: dict[str, str] = {}
        pieces = [piece for piece in _PARTS.split(strip_wrappers(answer)) if piece.strip()]
        if len(pieces) > 2 and is_closing("\n" + pieces[-1]):
            pieces = pieces[:-1]  # a closing remark such as "This is the only consistent assignment."
        for piece in pieces:
            match = _PART.match(piece.strip().strip("*"))
            if not match:
                return Verdict.unparsed("expected two lines: culprit: Name and liars: Name, Name")
            key = "culprit" if match.group(1).lower() == "culprit" else "liars"
            if key in parts:
                return Verdict.unparsed(f"{key} given twice")
            parts[key] = match.group(2).strip().strip("*").strip()
        if set(parts) != {"culprit", "liars"}:
            return Verdict.unparsed("expected two lines: culprit: Name and liars: Name, Name")
        culprit = one_of(names)(parts["culprit"].rstrip("."))
        liars = read_set(parts["liars"], one_of(names))
        if culprit is None or liars is None:
            return Verdict.unparsed("expected suspects' names")
        if culprit != names[problem.data["culprit"]]:
            return Verdict.wrong(f"{culprit} is not the culprit")
        if liars != {names[i] for i in problem.data["liars"]}:
            return Verdict.wrong("wrong set of liars")
        return Verdict.right()

    def spellings(self, problem: Problem) -> list[str]:
        names = problem.data["names"]
        culprit = names[problem.data["culprit"]]
        liars = [names[i] for i in problem.data["liars"]]
        return [*super().spellings(problem), f"culprit: {culprit}; liars: {', '.join(reversed(liars))}",
                f"Culprit: {culprit}\nLiars: {' and '.join(liars) if len(liars) == 2 else ', '.join(liars)}",
                f"liars: {', '.join(liars)}\nculprit: {culprit}",
                f"**culprit:** {culprit}\n**liars:** {', '.join(liars)}",
                f"The culprit is {culprit}.\nThe liars are {', '.join(liars)}.",
                f"Culprit: {culprit}, liars: {', '.join(liars)}",
                f"Answer:\nculprit: {culprit}\nliars: {', '.join(liars)}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        names = problem.data["names"]
        culprit = problem.data["culprit"]
        liars = [names[i] for i in problem.data["liars"]]
        other = names[(culprit + 1) % len(names)]
        honest = [nm for nm in names if nm not in liars]
        return [f"culprit: {other}\nliars: {', '.join(liars)}",
                f"culprit: {names[culprit]}\nliars: {', '.join(liars + honest[:1])}",
                f"culprit: {names[culprit]} or {other}\nliars: {', '.join(liars)}",
                f"culprit: {names[culprit]}",
                f"culprit: {names[culprit]}\nliars: {', '.join(liars)}\nNo wait, the culprit is {other}.",
                f"culprit: {names[culprit]}, liars: {', '.join(liars)}, culprit: {other}"]


def _truth(statement: list, culprit: int, liars: set[int]) -> bool:
    kind, args = statement[0], statement[1:]
    if kind == "not_me":
        return culprit != args[0]
    if kind == "did":
        return culprit == args[0]
    if kind == "did_not":
        return culprit != args[0]
    if kind == "either":
        return culprit in args
    if kind == "lying":
        return args[0] in liars
    return args[0] not in liars  # truthful


def _draw(rng: random.Random, n: int, kinds: tuple[str, ...]) -> tuple[int, set[int], list[list]] | None:
    culprit = rng.randrange(n)
    k = rng.randint(1, max(2, n // 2))  # two of three may lie: one liar among three left too few puzzles (see below)
    liars = set(rng.sample(range(n), k))
    statements = []
    for speaker in range(n):
        others = [i for i in range(n) if i != speaker]
        for _ in range(200):  # about half the draws have the truth value this speaker needs
            kind = rng.choice(kinds)
            if kind == "not_me":
                statement = [kind, speaker]
            elif kind == "either":
                statement = [kind, *sorted(rng.sample(range(n), 2))]
            else:
                statement = [kind, rng.choice(others)]
            if _truth(statement, culprit, liars) == (speaker not in liars):
                statements.append(statement)
                break
        else:
            return None
    if _solutions(n, k, statements) != 1:
        return None
    if not any(_solutions(n, fewer, statements) for fewer in range(k)):
        return None  # the fewest liars that fit would be the answer: the stated count would not matter
    # Every kind of statement decides: with one kind read past (every "X did it" ignored, say) three pairs fit, so
    # that reading guesses at best a third of the time.
    if any(_solutions(n, k, statements, ignored=kind) < 3 for kind in {str(s[0]) for s in statements}):
        return None
    return culprit, liars, statements


def _solutions(n: int, k: int, statements: list[list], ignored: str = "") -> int:
    """How many (culprit, liars) pairs fit (0, 1, 2, or 3 for more): every speaker honest exactly when their
    statement holds; a speaker of an ``ignored`` kind of statement may be either."""
    cnf = CNF()
    guilty = [cnf.var(("culprit", i)) for i in range(n)]
    lying = [cnf.var(("liar", i)) for i in range(n)]
    cnf.exactly_one(guilty)
    cnf.exactly(lying, k)
    for speaker, statement in enumerate(statements):
        kind, args = statement[0], statement[1:]
        if kind == ignored:
            continue
        if kind in ("not_me", "did_not"):
            holds = -guilty[args[0]]
        elif kind == "did":
            holds = guilty[args[0]]
        elif kind == "either":
            holds = cnf.or_of([guilty[a] for a in args])
        elif kind == "lying":
            holds = lying[args[0]]
        else:
            holds = -lying[args[0]]
        cnf.equivalent(-lying[speaker], holds)
    return count_solutions(cnf, limit=3)


def _sentence(statement: list, speaker: int, names: list[str]) -> str:
    kind, args = statement[0], statement[1:]

    def who(i: int) -> str:
        return "me" if i == speaker else names[i]

    if kind == "not_me":
        return "I did not do it."
    if kind == "did":
        return f"{names[args[0]]} did it."
    if kind == "did_not":
        return f"{names[args[0]]} did not do it."
    if kind == "either":
        return f"It was {who(args[0])} or {who(args[1])}."
    if kind == "lying":
        return f"{names[args[0]]} is lying."
    return f"{names[args[0]]} is telling the truth."
