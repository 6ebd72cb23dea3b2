"""Categorical syllogisms and sorites: does the conclusion follow from the premises?

Statements have the four classical forms: All X are Y, No X are Y, Some X are Y, Some X are not
Y, read in modern logic (no statement implies that any group is non-empty unless it says
"some"). Validity is decided by a model checker over the Venn regions of the terms: a
situation says which of the 2^m regions (which terms a thing belongs to) are non-empty, and the
argument is valid exactly when no situation makes the premises true and the conclusion false.
Universal statements empty regions and particular ones need a non-empty region, so all 2^(2^m)
situations are checked at once with region bitmasks (:func:`_satisfiable`; a test compares it
with brute force over every situation, and with a SAT solver). No table of valid moods is used.

Balance: the premise layout (a tree of premises over the terms) and the forms of every
statement are drawn first and kept only when some orientation of the statements makes the
argument valid and another makes it invalid; then the label is a fair coin and an orientation
with that label is used. So the forms (and the words "all", "no", "some", "not") say nothing
about the answer. Premises are always jointly satisfiable, and the conclusion never repeats a
premise.

The answer is ``valid`` or ``invalid`` (``yes``/``no`` read the same way).

Generation speed: about 1,050 problems/s at level 4. About 10 in 11 drawn premise layouts and forms are redrawn, each
orientation checked by the Venn-region model checker, because no orientation makes the argument valid or none makes
it invalid; the balance keeps the forms from saying anything about the answer.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.deduction.common import read_verdict

# fmt: off
_TERMS = (
    "artists", "bakers", "chemists", "dancers", "engineers", "farmers", "gardeners", "hikers", "jugglers",
    "knitters", "lawyers", "musicians", "nurses", "painters", "poets", "sailors", "singers", "teachers",
    "writers", "pilots", "climbers", "drummers", "fishers", "golfers",
)
# fmt: on
_FORMS = ("all", "no", "some", "some_not")
_ORIENTATIONS = 24  # orientations of the statements tried for one layout and set of forms
_YES = ("valid", "yes", "true", "it is valid", "the argument is valid", "the conclusion follows")
_NO = ("invalid", "no", "false", "it is invalid", "it is not valid", "the argument is invalid",
       "the argument is not valid", "the conclusion does not follow")


@register
class Syllogism(Task):
    id = "deduction/syllogism"
    family = "deduction"
    description = "Decide whether a categorical syllogism (or a longer chain of premises) is valid."
    tags = ("logic", "deduction", "classification")

    @dataclass(frozen=True)
    class Config:
        terms: int  # the premises form a tree over this many terms: terms - 1 premises

    presets = (Config(terms=3), Config(terms=4), Config(terms=5), Config(terms=6), Config(terms=7))
    # Capped at level 12's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"terms": 15})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        m = config.terms
        premises, conclusion, valid = retry(lambda: _argument(rng, m), what="a layout with both verdicts possible")
        terms = rng.sample(_TERMS, m)
        listing = "\n".join(f"{i}. {_sentence(s, terms)}" for i, s in enumerate(premises, 1))
        prompt = (
            "Read each statement in modern logic: \"All X are Y\" and \"No X are Y\" do not imply that there are "
            "any X; \"Some X are Y\" means at least one X is a Y; \"Some X are not Y\" means at least one X is "
            "not a Y. An argument is valid when the conclusion is true in every situation where all the premises "
            f"are true.\n\nPremises:\n{listing}\n\nConclusion: {_sentence(conclusion, terms)}\n\n"
            "Is the argument valid? Answer with one word: valid or invalid."
        )
        data = {"terms": terms, "premises": premises, "conclusion": conclusion, "valid": valid}
        return Problem(prompt=prompt, answer="valid" if valid else "invalid", data=data)

    def difficulty(self, problem: Problem) -> float:
        """Venn regions to reason about (2 ** terms) plus the premises to combine, plus half the kinds of
        premise among them."""
        premises = problem.data["premises"]
        return float(2 ** len(problem.data["terms"]) + len(premises)) + len({p[0] for p in premises}) / 2

    def verify(self, problem: Problem, answer: str) -> Verdict:
        said = read_verdict(answer, yes=_YES, no=_NO)
        if said is None:
            return Verdict.unparsed("expected valid or invalid")
        return Verdict.judge(said == problem.data["valid"], "wrong")

    def spellings(self, problem: Problem) -> list[str]:
        if problem.data["valid"]:
            return [*super().spellings(problem), "Valid", "VALID.", "yes", "**valid**", "\\boxed{valid}",
                    "Valid.", "The argument is valid."]
        return [*super().spellings(problem), "Invalid", "INVALID.", "no", "not valid", "**invalid**",
                "Invalid.", "The argument is not valid.", "It is invalid."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        other = "invalid" if problem.data["valid"] else "valid"
        return [other, other.upper(), "valid or invalid", "maybe", f"{problem.answer}, no wait, {other}",
                f"The argument is {other}.", f"{problem.answer}\n{other}"]

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
    return all(regions & ~empty for regions in needed)


def _valid(m: int, premises: list[list], conclusion: list) -> bool:
    """No situation (set of non-empty Venn regions) has the premises true and the conclusion false."""
    return not _satisfiable(m, [*premises, conclusion], negated_last=True)


def _argument(rng: random.Random, m: int) -> tuple[list[list], list, bool] | None:
    """Premises over a random tree of terms, a conclusion, and its validity (a fair coin), or None."""
    order = list(range(m))
    rng.shuffle(order)
    edges = [(order[i], order[rng.randrange(i)]) for i in range(1, m)]  # a random tree: each joins an earlier term
    ends = rng.sample(range(m), 2)
    if any({a, b} == set(ends) for a, b in edges):
        return None  # the conclusion must not relate two terms a premise already relates
    forms = [rng.choice(_FORMS) for _ in range(m)]  # m - 1 premises and the conclusion
    found: dict[bool, tuple[list[list], list]] = {}
    for _ in range(_ORIENTATIONS):
        flips = [rng.random() < 0.5 for _ in range(m)]
        pairs = [*edges, tuple(ends)]
        statements = [[form, b, a] if flip else [form, a, b] for form, (a, b), flip in zip(forms, pairs, flips)]
        premises, conclusion = statements[:-1], statements[-1]
        if not _satisfiable(m, premises, negated_last=False):
            continue
        found.setdefault(_valid(m, premises, conclusion), (premises, conclusion))
        if len(found) == 2:
            break
    if len(found) < 2:
        return None
    valid = rng.random() < 0.5
    premises, conclusion = found[valid]
    premises = premises[:]
    rng.shuffle(premises)
    return premises, conclusion, valid
