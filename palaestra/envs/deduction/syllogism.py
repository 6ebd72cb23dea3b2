"""Categorical syllogisms and sorites: does the conclusion follow? If not, show a counter-situation.

Statements have the four classical forms: All X are Y, No X are Y, Some X are Y, Some X are not
Y, read in modern logic (no statement implies that any group is non-empty unless it says
"some"), and "There is at least one X" (stored as "Some X are X"; version 4). Validity is decided
by a model checker over the Venn regions of the terms: a situation says which of the 2^m regions
(which terms a thing belongs to) are non-empty, and the argument is valid exactly when no situation makes the premises true and the conclusion false.
Universal statements empty regions and particular ones need a non-empty region, so all 2^(2^m)
situations are checked at once with region bitmasks (:func:`_satisfiable`; a test compares it
with brute force over every situation, and with a SAT solver). No table of valid moods is used.

Balance: the premise layout (a tree of premises over the terms) and the forms of every
statement are drawn first and kept only when some orientation of the statements makes the
argument valid and another makes it invalid; then the label is drawn (valid with probability
``VALID_SHARE``) and an orientation with that label is used. So the forms (and the words "all",
"no", "some", "not") say nothing about the answer. Premises are always jointly satisfiable, and the
conclusion never repeats a premise. The same rule keeps cheap counter-situations away: the empty
situation, one thing in every group, and a thing in every region each make a statement true or
false by its form alone, so one that refuted some orientation would refute them all, and such forms
are never kept.

The answer is ``valid``, or ``invalid:`` followed by a counter-situation: the things that exist,
each with the groups it belongs to (``invalid: one thing that is a poet and a singer; one thing
that is a dancer but not a poet``; a group left out is one the thing is not in; ``invalid:
nothing`` when no things at all is the counter-situation). The verifier evaluates every premise and
the conclusion on the situation written, so **any** counter-situation is accepted (at most 2^m
things). Semicolons, new lines, full stops or a new "one thing"/"a thing"/"another" separate the
things; a term may be singular or plural, with or without "a"/"an"/"is"/"are", and "not", "non-"
or "neither ... nor" for groups a thing is not in. A word the grammar does not know (a remark, a
second verdict, "or" between groups a thing is in) leaves the answer unread.

Version 2: "valid" has no short certificate (the whole model check is the proof), so it is the
certificate-free side, said alone and drawn for a quarter of the problems (``VALID_SHARE``): a
constant ``valid`` scores about 0.25. A bare ``invalid`` scores 0. Version 1 took a bare valid or
invalid on balanced problems, which a coin paid half the time. An invalid orientation is also not
kept when a counter-situation written without reading the conclusion refutes it (one thing in
exactly the groups of each particular premise: it refuted 0.45 of the invalid 3-term arguments), or,
up to ``GUESSED_TERMS`` terms, when more than ``GUESS_SHARE`` of the situations of one, two or three
random things do; the layout is kept only when both labels remain, so the forms still say nothing.
Measured on 400 problems per level, a situation of one to three random things scores 0.107, 0.035,
0.015, 0.025, 0.000 at levels 0-4 (at 3 terms every invalid argument has one of the 7 one-thing
situations as a counter-situation: 0.75 / 7 is the floor), the empty situation, one thing in every
group and one thing in each group alone score 0. The premises' witnesses plus one thing against the
conclusion (the first step of building a counter-situation by hand, unchecked) scores 0.36, 0.19,
0.14, 0.07, 0.07; it is declared among the heuristics.

Version 3: existential import. From 4 terms, with probability 0.4 (drawn apart from the verdict) the
layout must also allow an invalid orientation that is valid in traditional logic, where the subject of every
universal premise has members (:func:`_valid_with_import`; then also when every group has members), and an invalid
argument is that one: its every counter-situation leaves a group empty. Such arguments were 0-6% of the problems,
so a solver taking every group to be non-empty, against the prompt's modern reading, scored 1.00, 0.96, 0.93, 0.96,
0.93 at levels 0-4 (400 seeds a level); now 1.00, 0.64, 0.61, 0.70, 0.67. The verdict is still drawn after the
layout, so the forms and the numbers of universal and particular premises still say nothing about it (the valid
share per pattern of forms stays about ``VALID_SHARE``). Level 0 keeps 1.00: at 3 terms every argument import makes
valid has two universal premises and a particular conclusion, which the empty situation refutes whatever the
orientation, so keeping it would pay the constant ``invalid: nothing`` instead.

Version 4: existential import at every level, and in two thirds of the problems. A layout drawn for import (with
probability ``IMPORT_SHARE``) also states that one group has members ("There is at least one poet", read as "Some
poets are poets"), so no counter-situation is empty and three terms allow such arguments too (All M are P; All S are
M; there is at least one M; so some S are P: invalid, one thing that is an M and a P). The import solver above
(every group non-empty, or only the subjects of the universal premises) now scores 0.50, 0.46, 0.50, 0.54, 0.47 at
levels 0-4 (200 seeds a level; v3: 1.00, 0.64, 0.61, 0.70, 0.67), the constant ``valid`` about 0.22, a bare
``invalid`` and ``invalid: nothing`` 0; the premises' witnesses and one thing against the conclusion 0.12, 0.05,
0.07, 0.04, 0.02. Stated membership is drawn apart from the verdict like the rest, but at
three terms (level 0) few invalid shapes remain, each refuted by one thing: a fixed "one thing that is S and P"
scores 0.40 there and a lookup on the group the statement names 0.55 (0.15-0.20 at level 1, under 0.1 above), a
leak left for a later pass.

Version 5: one of two invalid arguments no situation refutes both of, up to ``PAIRED_TERMS`` terms (levels 0-1). A
lookup keyed on the conclusion's form and which group the statement of membership names (the conclusion's subject,
predicate, another or none), answering valid or a fixed counter-situation over those groups, learned on seeds 10000+,
scored 0.62 and 0.32 at levels 0-1 (200 seeds; constant ``valid`` 0.24, 0.21), and 0.67, 0.44 keyed on the premises'
forms too: there the conclusion's orientation is fixed, every orientation of the premises is tried, and the layout is
kept when one is valid and two invalid ones are :func:`_apart`; an invalid answer is either at random, so any fixed
situation refutes at most half of the invalid problems a layout gives (0.375 of them): now 0.37, 0.23 (valid 0.25,
0.24) and 0.37, 0.29 with the forms. Three terms cannot go lower with the forms still saying nothing of the verdict:
no 3-term layout has three invalid orientations pairwise apart, and only two layouts (one stating membership, whose
pair holds an argument import makes valid) keep a valid and two apart invalid ones, so level 0 asks those two
(under new term names); spreading a lookup cell over layouts instead reaches 0.32 only by letting the forms tell the
verdict (0.43 to 0.90 for the forms lookup). When membership is stated one of the two must be valid with import, so
the import solver scores 0.55, 0.53 at levels 0-1 (v4: 0.52, 0.39); levels 2 and up are as in version 4.

Generation speed: about 4 to 24 ms of CPU a problem at levels 0-4. About 1 in 160 drawn layouts is kept at 3 terms
where import must make a difference (1 in 80 from 4 terms; 1 in 15 to 37 elsewhere), each orientation checked by the
Venn-region model checker, because no orientation makes the argument valid or none makes it invalid without a cheap
counter-situation; the balance keeps the forms from saying anything about the answer.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.deduction.common import read_verdict
from palaestra.verifiers.normalize import read_answer, strip_wrappers, unify

# fmt: off
_TERMS = (
    "artists", "bakers", "chemists", "dancers", "engineers", "farmers", "gardeners", "hikers", "jugglers",
    "knitters", "lawyers", "musicians", "nurses", "painters", "poets", "sailors", "singers", "teachers",
    "writers", "pilots", "climbers", "drummers", "fishers", "golfers",
)
# fmt: on
_FORMS = ("all", "no", "some", "some_not")
_ORIENTATIONS = 24  # orientations of the statements tried for one layout and set of forms
GUESSED_SIZES = 3  # a guess of this many things or fewer ...
GUESS_SHARE = 1 / 6  # ... may refute a kept invalid argument at most this often, at each number of things
PAIRED_TERMS = 4  # up to this many terms an invalid argument is one of two that no situation refutes both of
GUESSED_TERMS = 4  # checked exactly up to this many terms (past it random guesses refute under 3% of the arguments)
VALID_SHARE = 0.25  # the certificate-free "valid" is this rare: a constant "valid" scores about 0.25
IMPORT_SHARE = 2 / 3  # this share of the layouts allows an invalid argument that existential import makes valid
_IMPORT_ATTEMPTS = 5_000  # about 1 drawn layout in 160 at 3 terms (1 in 80 from 4) allows both verdicts and such an argument
_YES = ("valid", "yes", "true", "it is valid", "the argument is valid", "the conclusion follows")
_NO = ("invalid", "no", "false", "it is invalid", "it is not valid", "the argument is invalid",
       "the argument is not valid", "the conclusion does not follow")
_EXAMPLE = "invalid: one thing that is a cook and a runner; one thing that is a pianist but not a cook"


@register
class Syllogism(Task):
    id = "deduction/syllogism"
    family = "deduction"
    description = ("Decide whether a categorical syllogism (or a longer chain of premises) is valid; if not, show a "
                   "counter-situation.")
    tags = ("logic", "deduction", "certificates")
    version = 5  # v5: levels 0-1 ask one of two invalid arguments no situation refutes both of (v4: stated membership)
    max_answer_chars = 4000
    certificate_free = ("valid",)
    bare_verdicts = ("invalid",)

    @dataclass(frozen=True)
    class Config:
        terms: int  # the premises form a tree over this many terms: terms - 1 premises

    presets = (Config(terms=3), Config(terms=4), Config(terms=5), Config(terms=6), Config(terms=7))
    # Capped at level 12's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"terms": 15})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        m = config.terms
        imported = rng.random() < IMPORT_SHARE  # drawn apart from the verdict, so it tells nothing of it
        premises, conclusion, valid = retry(lambda: _argument(rng, m, imported), attempts=_IMPORT_ATTEMPTS,
                                            what="a layout with both verdicts possible")
        terms = rng.sample(_TERMS, m)
        listing = "\n".join(f"{i}. {_sentence(s, terms)}" for i, s in enumerate(premises, 1))
        prompt = (
            "Read each statement in modern logic: \"All X are Y\" and \"No X are Y\" do not imply that there are "
            "any X; \"Some X are Y\" means at least one X is a Y; \"Some X are not Y\" means at least one X is "
            "not a Y; \"There is at least one X\" means the group X has members. An argument is valid when the conclusion is true in every situation where all the premises "
            f"are true.\n\nPremises:\n{listing}\n\nConclusion: {_sentence(conclusion, terms)}\n\n"
            "Is the argument valid? If it is, answer with the single word valid. If it is not, answer invalid "
            "followed by a counter-situation: the things that exist, separated by semicolons, each with the groups "
            "it belongs to (it belongs to none of the groups you leave out), such that every premise is true and "
            f"the conclusion is false. Write it like this: {_EXAMPLE}\n"
            "If the situation with no things at all works, write: invalid: nothing"
        )
        answer = "valid" if valid else "invalid: " + _describe(_counter_situation(rng, m, premises, conclusion), terms)
        data = {"terms": terms, "premises": premises, "conclusion": conclusion, "valid": valid}
        return Problem(prompt=prompt, answer=answer, data=data)

    def difficulty(self, problem: Problem) -> float:
        """Venn regions to reason about (2 ** terms) plus the premises to combine, plus half the kinds of
        premise among them."""
        premises = problem.data["premises"]
        return float(2 ** len(problem.data["terms"]) + len(premises)) + len({p[0] for p in premises}) / 2

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if not isinstance(answer, str) or len(answer) > self.max_answer_chars:
            return Verdict.unparsed("answer too long")
        data = problem.data
        said = read_verdict(answer, yes=_YES, no=_NO)
        if said is True:
            return Verdict.judge(data["valid"], "the argument is invalid")
        if said is False:
            return Verdict.wrong("invalid needs a counter-situation: the things in it and the groups each belongs to")
        terms = data["terms"]
        occupied = read_answer(unify(answer), lambda text: _read_situation(text, terms))
        if occupied is None:
            return Verdict.unparsed("expected valid, or invalid: followed by things such as "
                                    "'one thing that is a ... and a ...; one thing that is a ...'")
        m = len(terms)
        for i, premise in enumerate(data["premises"], 1):
            if not _holds(m, premise, occupied):
                return Verdict.wrong(f"premise {i} is false in that situation")
        return Verdict.judge(not _holds(m, data["conclusion"], occupied), "the conclusion is true in that situation")

    def spellings(self, problem: Problem) -> list[str]:
        if problem.data["valid"]:
            return [*super().spellings(problem), "Valid", "VALID.", "yes", "**valid**", "\\boxed{valid}",
                    "Valid.", "The argument is valid."]
        terms, m = problem.data["terms"], len(problem.data["terms"])
        things = _regions(_read_situation(problem.answer or "", terms), m)
        singular = [_singular(t) for t in terms]

        def full(region: int) -> str:  # every group named, the ones it is not in with "not"
            inside = [f"a {singular[t]}" for t in range(m) if region >> t & 1]
            outside = [f"not a {singular[t]}" for t in range(m) if not region >> t & 1]
            return ", ".join(inside + outside)

        gold = problem.answer or ""
        listed = [" and ".join(terms[t] for t in range(m) if r >> t & 1) for r in things]
        return [*super().spellings(problem), gold.replace("invalid:", "Invalid:", 1), f"{gold}.",
                "The argument is invalid. Counterexample: " + "; ".join(
                    f"a thing that is {full(r)}" for r in things),
                "invalid\n" + "\n".join(f"- {', '.join(singular[t] for t in range(m) if r >> t & 1)}" for r in things),
                "Not valid: " + ", ".join(f"one thing that is {full(r)}" for r in things),
                "\\boxed{" + gold + "}",
                "invalid. " + " ".join("One thing that is " + " and ".join(
                    singular[t] if r >> t & 1 else f"non-{singular[t]}" for t in range(m)) + "." for r in things),
                "invalid: " + "; ".join(f"some things are {x}" for x in listed),
                "invalid:\n" + "\n".join(f"{i}. {x}" for i, x in enumerate(listed, 1))]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        terms, m = problem.data["terms"], len(problem.data["terms"])
        everything = "one thing that is " + " and ".join(_singular(t) for t in terms)
        if problem.data["valid"]:
            return ["invalid", "Invalid.", "invalid: nothing", f"invalid: {everything}", "valid or invalid", "maybe",
                    "valid, no wait, invalid", "The argument is invalid.", "valid\ninvalid",
                    f"valid: {everything}"]
        gold = problem.answer or ""
        body = gold.removeprefix("invalid: ")
        other = next(t for t in _TERMS if t not in terms)
        wrong = ["valid", "invalid", "Invalid.", "The argument is invalid.", "valid or invalid", f"{gold}. Valid.",
                 f"{gold} or valid", f"valid ({gold})", f"{gold}. No wait, it is valid.", f"valid: {body}",
                 f"{gold}; or maybe {body}", f"invalid: {body} or nothing",
                 gold.replace(f" {_singular(next(t for t in terms if f' {_singular(t)}' in gold))}",
                              f" {_singular(other)}", 1)]
        things = _regions(_read_situation(problem.answer or "", terms), m)
        candidates = [[r for r in things if r != dropped] for dropped in things]
        candidates += [[(1 << m) - 1], list(range(1 << m)), [*things, rng.randrange(1, 1 << m)]]
        for regions in candidates:
            text = "invalid: " + _describe(regions, terms)
            if self.verify(problem, text).reward == 0:
                wrong.append(text)
        return wrong

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        """Counter-situations written without checking them: blind ones, and the witnesses the statements name."""
        def random_few(problem: Problem) -> str:
            m = len(problem.data["terms"])
            rng = random.Random(f"{problem.seed} random situation")
            return "invalid: " + _describe(sorted(rng.sample(range(1, 1 << m), rng.randint(1, 3))), problem.data["terms"])

        def named(problem: Problem, against_conclusion: bool) -> str:
            statements = [*problem.data["premises"], *([problem.data["conclusion"]] if against_conclusion else [])]
            witnesses = (_named_witness(form, x, y, negate=i == len(problem.data["premises"]))
                         for i, (form, x, y) in enumerate(statements))
            return "invalid: " + _describe(sorted({r for r in witnesses if r is not None}), problem.data["terms"])

        def every(problem: Problem) -> str:
            return "invalid: " + _describe([(1 << len(problem.data["terms"])) - 1], problem.data["terms"])

        def each_alone(problem: Problem) -> str:
            return "invalid: " + _describe([1 << t for t in range(len(problem.data["terms"]))], problem.data["terms"])

        return {
            "nothing": lambda problem: "invalid: nothing",
            "one thing in every group": every,
            "one thing in each group alone": each_alone,
            "one to three random things": random_few,
            "the premises' witnesses": lambda problem: named(problem, against_conclusion=False),
            "the premises' witnesses and one against the conclusion": lambda problem: named(problem, True),
        }

    def surface_features(self, problem: Problem) -> dict[str, float]:
        """The statements' forms, which a lazy policy might read instead of reasoning."""
        premises, conclusion = problem.data["premises"], problem.data["conclusion"]
        forms = [s[0] for s in premises]
        return {
            "particular premises": float(sum(f in ("some", "some_not") for f in forms)),
            "negative premises": float(sum(f in ("no", "some_not") for f in forms)),
            "conclusion form": float(_FORMS.index(conclusion[0])),
            "conclusion subject is a premise subject": float(any(s[1] == conclusion[1] for s in premises)),
            "conclusion predicate is a premise predicate": float(any(s[2] == conclusion[2] for s in premises)),
        }


def _sentence(statement: list, terms: list[str]) -> str:
    form, x, y = statement[0], terms[statement[1]], terms[statement[2]]
    if x == y:
        return f"There is at least one {_singular(x)}."
    return {"all": f"All {x} are {y}.", "no": f"No {x} are {y}.", "some": f"Some {x} are {y}.",
            "some_not": f"Some {x} are not {y}."}[form]


_CONTRADICTORY = {"all": "some_not", "no": "some", "some": "no", "some_not": "all"}


@cache
def _region_masks(m: int) -> tuple[tuple[int, ...], int]:
    """Per term, the bitmask of the Venn regions inside it (bit r: region r, whose bit t says "in term t")."""
    inside = tuple(sum(1 << r for r in range(1 << m) if r >> t & 1) for t in range(m))
    return inside, (1 << (1 << m)) - 1


def _satisfiable(m: int, statements: list[list], negated_last: bool) -> bool:
    """Whether some situation (a set of non-empty Venn regions) makes every statement true.

    A universal statement (all, no) says some regions are empty; a particular one (some, some
    not) says some region of a set is not. So the statements hold together exactly when every
    particular one keeps a region that no universal one empties: making all those regions
    non-empty is then a model. This checks all 2 ** (2 ** m) situations at once.
    """
    empty, needed = _constraints(m, statements, negated_last)
    return all(regions & ~empty for regions in needed)


def _constraints(m: int, statements: list[list], negated_last: bool) -> tuple[int, list[int]]:
    """(the regions the universal statements empty, per particular statement the regions one of which it needs)."""
    inside, everything = _region_masks(m)
    empty, needed = 0, []
    last = len(statements) - 1
    for i, (form, x, y) in enumerate(statements):
        if negated_last and i == last:
            form = _CONTRADICTORY[form]
        if form == "all":
            empty |= inside[x] & (everything ^ inside[y])
        elif form == "no":
            empty |= inside[x] & inside[y]
        else:
            needed.append(inside[x] & inside[y] if form == "some" else inside[x] & (everything ^ inside[y]))
    return empty, needed


def _valid(m: int, premises: list[list], conclusion: list) -> bool:
    """No situation (set of non-empty Venn regions) has the premises true and the conclusion false."""
    return not _satisfiable(m, [*premises, conclusion], negated_last=True)


def _argument(rng: random.Random, m: int, imported: bool) -> tuple[list[list], list, bool] | None:
    """Premises over a random tree of terms, a conclusion, and its validity (valid with probability ``VALID_SHARE``,
    whatever the forms), or None. When ``imported``, the layout must also allow an invalid orientation that
    :func:`_valid_with_import`, and an invalid argument is that one."""
    order = list(range(m))
    rng.shuffle(order)
    edges = [(order[i], order[rng.randrange(i)]) for i in range(1, m)]  # a random tree: each joins an earlier term
    ends = rng.sample(range(m), 2)
    if any({a, b} == set(ends) for a, b in edges):
        return None  # the conclusion must not relate two terms a premise already relates
    forms = [rng.choice(_FORMS) for _ in range(m)]  # m - 1 premises and the conclusion
    if imported and all(form in ("some", "some_not") for form in forms[:-1]):
        return None  # import is about the subjects of universal premises: without one it changes nothing
    # "There is at least one X" ("Some X are X"): the group it names has members, so no counter-situation is empty
    existing = [["some", term, term] for term in rng.sample(range(m), 1 if imported else 0)]
    if m <= PAIRED_TERMS:
        return _paired(rng, m, forms, [*edges, (ends[0], ends[1])], existing, imported)
    found: dict[bool, tuple[list[list], list]] = {}
    for _ in range(_ORIENTATIONS):
        flips = [rng.random() < 0.5 for _ in range(m)]
        pairs = [*edges, tuple(ends)]
        statements = [[form, b, a] if flip else [form, a, b] for form, (a, b), flip in zip(forms, pairs, flips)]
        statements[-1:-1] = existing
        label = _label_few_terms(m, tuple(map(tuple, statements))) if m <= GUESSED_TERMS else _label(m, statements)
        if label is None or label in found:
            continue  # the first orientation with each label is the one used
        if imported and label is False and not _valid_with_import(m, statements):
            continue
        found[label] = (statements[:-1], statements[-1])
        if len(found) == 2:
            break
    if len(found) < 2:
        return None
    valid = rng.random() < VALID_SHARE
    premises, conclusion = found[valid]
    premises = premises[:]
    rng.shuffle(premises)
    return premises, conclusion, valid


def _paired(rng: random.Random, m: int, forms: list[str], pairs: list[tuple[int, int]], existing: list[list],
            imported: bool) -> tuple[list[list], list, bool] | None:
    """:func:`_argument` up to ``PAIRED_TERMS`` terms: the conclusion's orientation is fixed and every orientation of
    the premises is tried; the layout is kept when one is valid and two invalid ones share no counter-situation,
    and an invalid argument is one of those two at random. So no situation written from the forms, the conclusion
    and the stated group refutes more than half of the invalid arguments those say could be asked. When
    ``imported``, one of the two must be valid with existential import (:func:`_valid_with_import`)."""
    turned = rng.random() < 0.5
    orientations = list(itertools.product((False, True), repeat=m - 1))
    rng.shuffle(orientations)
    valid: list[list] | None = None
    invalid: list[list[list]] = []
    couple: tuple[list[list], list[list]] | None = None
    for flips in orientations:
        statements = [[form, b, a] if flip else [form, a, b] for form, (a, b), flip in zip(forms, pairs, (*flips, turned))]
        statements[-1:-1] = existing
        label = _label_few_terms(m, tuple(map(tuple, statements)))
        if label:
            valid = valid or statements
        elif label is False:
            couple = couple or next(((other, statements) for other in invalid if _apart(m, other, statements)
                                     and (not imported or _valid_with_import(m, other) or
                                          _valid_with_import(m, statements))), None)
            invalid.append(statements)
        if valid and couple:
            break
    if not (valid and couple):
        return None
    chosen = valid if rng.random() < VALID_SHARE else rng.choice(couple)
    premises = chosen[:-1]
    rng.shuffle(premises)
    return premises, chosen[-1], chosen is valid


def _apart(m: int, first: list[list], second: list[list]) -> bool:
    """Whether no situation is a counter-situation to both arguments (premises, then the conclusion)."""
    negated = [[*s[:-1], [_CONTRADICTORY[s[-1][0]], *s[-1][1:]]] for s in (first, second)]
    return not _satisfiable(m, negated[0] + negated[1], negated_last=False)


def _valid_with_import(m: int, statements: list[list]) -> bool:
    """Whether the argument (premises, then the conclusion) is valid in traditional logic, where the subject of
    every universal premise has members. That is the weakest reading of existential import: taking every group to
    have members, or the subjects of every statement, makes any argument valid that this makes valid."""
    empty, needed = _constraints(m, statements, negated_last=True)
    inside, _ = _region_masks(m)
    needed += [inside[x] for form, x, _y in statements[:-1] if form in ("all", "no")]
    return not all(regions & ~empty for regions in needed)


def _label(m: int, statements: list[list]) -> bool | None:
    """Whether the argument (premises, then the conclusion) is valid; None when its premises contradict each other
    or it is invalid but :func:`_easily_refuted`."""
    premises, conclusion = statements[:-1], statements[-1]
    if not _satisfiable(m, premises, negated_last=False):
        return None
    valid = _valid(m, premises, conclusion)
    return None if not valid and _easily_refuted(m, premises, conclusion) else valid


@lru_cache(maxsize=1 << 14)  # over few terms the same orientations recur: three terms have a few thousand
def _label_few_terms(m: int, statements: tuple[tuple, ...]) -> bool | None:
    return _label(m, [list(s) for s in statements])


def _holds(m: int, statement: list, occupied: int) -> bool:
    """A statement's truth in a situation (bit r of ``occupied``: some thing is in Venn region r)."""
    inside, everything = _region_masks(m)
    form, x, y = statement
    if form in ("all", "some_not"):
        witnesses = occupied & inside[x] & (everything ^ inside[y])
        return not witnesses if form == "all" else bool(witnesses)
    witnesses = occupied & inside[x] & inside[y]
    return not witnesses if form == "no" else bool(witnesses)


def _regions(occupied: int | None, m: int) -> list[int]:
    return [r for r in range(1 << m) if (occupied or 0) >> r & 1]


def _counter_situation(rng: random.Random, m: int, premises: list[list], conclusion: list) -> list[int]:
    """The Venn regions of a smallest-looking counter-situation: for each particular statement among the premises
    and the conclusion's contradictory, one thing in a region no universal one empties (the fewest groups, ties
    at random), unless an earlier thing already serves."""
    empty, needed = _constraints(m, [*premises, conclusion], negated_last=True)
    chosen = 0
    for options in needed:
        allowed = options & ~empty
        if allowed & chosen:
            continue
        regions = _regions(allowed, m)
        fewest = min(bin(r).count("1") for r in regions)
        chosen |= 1 << rng.choice([r for r in regions if bin(r).count("1") == fewest])
    return _regions(chosen, m)


def _singular(term: str) -> str:
    return term[:-1]  # every term is a plural in -s


def _describe(regions: list[int], terms: list[str]) -> str:
    """``one thing that is a poet and a singer; ...`` for the things in ``regions`` (``nothing`` for none)."""
    if not regions:
        return "nothing"
    described = []
    for region in regions:
        names = [("an " if term[0] in "aeiou" else "a ") + _singular(term)
                 for t, term in enumerate(terms) if region >> t & 1]
        listed = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)
        described.append("one thing that is " + (listed or "none of these groups"))
    return "; ".join(described)


# The grammar of a counter-situation, read word by word (no pattern runs over the things themselves).
_LEAD = re.compile(r"(?:(?:the argument|it) is (?:invalid|not valid)|invalid|not valid|the conclusion does not follow)"
                   r"\b[\s,.:;!—–-]*|no\s*[,.:;!—–-][\s,.:;!—–-]*")
_LABEL = re.compile(r"(?:for example|for instance|e\.g\.|(?:here is |take )?(?:(?:a|one|the|my) )?"
                    r"(?:counter[ -]?(?:example|model|situation)|situation|example)s?\b(?: is)?)[\s,.:;!—–-]*")
_EMPTY = frozenset({"nothing", "nothing exists", "nothing at all", "nothing exists at all", "there is nothing",
                    "there is nothing at all", "no things", "no things at all", "no things exist", "there are no things",
                    "there are no things at all", "the empty situation", "an empty situation", "empty situation",
                    "empty", "none", "no things exist at all"})
_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789 \t\n,;:.-•()[]{}&'’–—")
_TOKEN = re.compile(r"[a-z]+|\d+|[;.\n{}\[\]]")  # braces and brackets may each hold one thing: {poet, singer}
_THING_WORDS = frozenset({"thing", "things", "object", "objects", "item", "items", "individual", "individuals",
                          "something", "someone", "another", "element", "elements", "entity", "entities"})
# Words that may introduce the next thing ("and one thing ...", "there is another ..."): a new thing takes them along.
_INTRODUCING = frozenset({"one", "a", "an", "and", "plus", "also", "then", "there", "is", "are", "exists", "exist", "some",
                          "other", "more", "another", "finally", "next", "first", "second", "third", "fourth", "fifth",
                          "sixth", "seventh", "eighth", "two", "three", "four", "five", "six", "seven", "eight", "with"})
_FILLER = _THING_WORDS | _INTRODUCING | frozenset({"that", "which", "who", "both", "but", "only", "just", "member",
                                                   "members", "of", "in", "the", "group", "groups", "belongs",
                                                   "belonging", "to", "it", "kind", "type"})
_ALL_OF_THEM = frozenset({"them", "these", "those", "the", "groups", "group", "terms", "above", "kinds", "categories",
                          "classes", "others", "listed"})


def _read_situation(text: str, terms: list[str]) -> int | None:
    """The situation an answer describes, as a bitmask of occupied Venn regions, or None if the grammar cannot
    account for every word: an optional ``invalid``, an optional ``counterexample:``, then ``nothing`` or the
    things, each a list of groups it is in (and optionally is not in, after ``not``/``non-``)."""
    body = strip_wrappers(text).lower().replace("*", "").replace("`", "")  # emphasis marks mean nothing here
    lead = _LEAD.match(body)
    if lead:
        body = body[lead.end():]
    label = _LABEL.match(body)
    if label:
        body = body[label.end():]
    body = strip_wrappers(body)
    if body.strip().rstrip(".!").strip() in _EMPTY:
        return 0
    if not set(body) <= _CHARACTERS:
        return None
    lookup = {}
    for t, term in enumerate(terms):
        lookup[term] = lookup[_singular(term)] = t
    occupied, described = 0, 0
    for thing in _things(_TOKEN.findall(body)):
        read = _read_thing(thing, lookup)
        if read is None:
            return None
        region, named = read
        if named:
            occupied |= 1 << region
            described += 1
            if described > 1 << len(terms):
                return None
    return occupied if described else None


def _things(tokens: list[str]) -> list[list[str]]:
    """The tokens split into things: at ``;``, a full stop or a new line, and where a new thing is introduced
    (``thing``, ``another``, ``one that``), which takes the introducing words before it along."""
    things: list[list[str]] = [[]]
    for i, word in enumerate(tokens):
        if word in ";.\n{}[]":
            things.append([])
            continue
        if word in _THING_WORDS or (word == "one" and tokens[i + 1:i + 2] in (["that"], ["which"], ["who"], ["is"])):
            current, moved = things[-1], list[str]()
            while current and (current[-1] in _INTRODUCING or current[-1].isdigit()):
                moved.insert(0, current.pop())
            things.append(moved)
        things[-1].append(word)
    return [thing for thing in things if thing]


def _read_thing(words: list[str], lookup: dict[str, int]) -> tuple[int, bool] | None:
    """(the Venn region of one thing, whether the words name any group or say "none of them"), or None if a word is
    not understood, a group is both in and out, a "not" is left dangling or "or" joins groups the thing is in."""
    inside, outside = 0, 0
    named = False
    negate_next = False  # after "not", "non", "neither", "nor": the next group is one the thing is not in
    after_negated = False  # "or"/"nor" right after a group the thing is not in keep negating
    i = 0
    while i < len(words):
        word, following = words[i], words[i + 1] if i + 1 < len(words) else ""
        if word in lookup or (word.startswith("non") and word[3:] in lookup):
            negated = negate_next or word not in lookup
            bit = 1 << lookup[word if word in lookup else word[3:]]
            if negated:
                outside |= bit
            else:
                inside |= bit
            named, after_negated, negate_next = True, negated, False
        elif word in ("not", "non", "neither") or (word in ("isn", "aren") and following == "t"):
            if negate_next:
                return None
            negate_next = True
            i += word in ("isn", "aren")
        elif word in ("or", "nor"):
            if not after_negated or negate_next:
                return None
            negate_next = True
        elif word == "none" and following == "of":
            i += 1
            while i + 1 < len(words) and words[i + 1] in _ALL_OF_THEM:
                i += 1
            named = True
        elif (word == "nothing" and following == "else") or (word == "no" and following in ("other", "others")):
            i += 1
        elif word in ("and", "but"):
            after_negated = False
        elif word not in _FILLER and not word.isdigit():
            return None
        i += 1
    if negate_next or inside & outside:
        return None
    return inside, named


def _named_witness(form: str, x: int, y: int, negate: bool = False) -> int | None:
    """The region of a thing a statement names, in exactly its groups: both for "some", the first for "some ...
    not"; for a universal statement read as false (``negate``), the thing it rules out. None for no such thing."""
    if negate:
        form = _CONTRADICTORY[form]
    if form in ("some", "no"):
        return (1 << x) | (1 << y) if form == "some" else None
    return 1 << x if form == "some_not" else None


def _easily_refuted(m: int, premises: list[list], conclusion: list) -> bool:
    """Whether a counter-situation written without reading the conclusion refutes the argument: one thing in
    exactly the two groups of each "some" premise and in the first group alone of each "some ... not" premise; or
    whether, up to ``GUESSED_TERMS`` terms, more than ``GUESS_SHARE`` of the situations of some size up to
    ``GUESSED_SIZES`` things refute it."""
    naive = sum({1 << r for r in (_named_witness(*premise) for premise in premises) if r is not None})
    if all(_holds(m, p, naive) for p in premises) and not _holds(m, conclusion, naive):
        return True
    if m > GUESSED_TERMS:
        return False
    containing, by_size = _small_situations(m)
    inside, everything = _region_masks(m)
    every_situation = by_size[-1][0]

    def holds(statement: list) -> int:  # the situations (as bits) in which the statement is true
        form, x, y = statement
        witnesses = inside[x] & (everything ^ inside[y] if form in ("all", "some_not") else inside[y])
        witnessed = 0
        for region in _regions(witnesses, m):
            witnessed |= containing[region]
        return every_situation & ~witnessed if form in ("all", "no") else witnessed

    refuting = every_situation & ~holds(conclusion)
    for premise in premises:
        refuting &= holds(premise)
    return any(bin(refuting & members).count("1") > GUESS_SHARE * count for members, count in by_size[:-1])


@cache
def _small_situations(m: int) -> tuple[list[int], list[tuple[int, int]]]:
    """The situations of 1 to ``GUESSED_SIZES`` things in distinct non-empty regions, numbered: per region the
    bitmask of the situations with a thing in it, and per number of things (bitmask, count), then all of them."""
    from itertools import combinations

    containing = [0] * (1 << m)
    by_size = []
    index = 0
    for size in range(1, GUESSED_SIZES + 1):
        start = index
        for regions in combinations(range(1, 1 << m), size):
            for region in regions:
                containing[region] |= 1 << index
            index += 1
        by_size.append((((1 << index) - 1) ^ ((1 << start) - 1), index - start))
    by_size.append(((1 << index) - 1, index))
    return containing, by_size
