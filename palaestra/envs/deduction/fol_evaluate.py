"""Evaluate a first-order sentence in a finite structure: is it true or false there?

The structure lists a small domain {1, ..., n}, the elements each unary predicate holds of and
the pairs each binary relation holds of. The sentence nests quantifiers (∀, ∃), connectives
(¬, ∧, ∨, →) and atoms (P(x), L(x, y), x = y); its truth value is computed by evaluating it
over every assignment of domain elements to its variables.

Balance: the structure and the sentence's shape are drawn first; the sentence is then kept only
when renaming its predicates (and swapping the arguments of its relations) can make it true and
can make it false in that structure. The label is a fair coin and a renaming with that value is
shown, so the structure, the quantifiers and the connectives say nothing about the answer.

The answer is ``true`` or ``false`` (``yes``/``no`` read the same way).

Generation speed: about 330 problems/s at level 4. About 5 in 6 drawn sentences are redrawn, each evaluated over
every variable assignment for each renaming of its predicates, because no renaming makes it true or none makes it
false; the balance is kept so that the structure and the sentence's shape say nothing about the answer.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.deduction._first_order import (
    BINARY,
    UNARY,
    degenerate,
    describe,
    holds,
    quantifier_depth,
    random_sentence,
    random_structure,
    renamed,
    render,
    size,
)
from palaestra.envs.deduction.common import read_verdict

_YES = ("true", "yes", "it is true", "t", "⊤", "the sentence is true", "it is true in this structure",
        "the sentence is true in this structure", "it holds", "the sentence holds")
_NO = ("false", "no", "it is false", "f", "⊥", "the sentence is false", "it is false in this structure",
       "the sentence is false in this structure", "it does not hold", "the sentence does not hold",
       "the sentence is not true")


@register
class FolEvaluate(Task):
    id = "deduction/fol_evaluate"
    family = "deduction"
    description = "Decide whether a first-order sentence is true in a given finite structure."
    tags = ("logic", "first-order-logic", "model-checking", "classification")

    @dataclass(frozen=True)
    class Config:
        domain: int
        quantifiers: int
        connectives: int
        unary: int  # predicates P, Q, R available
        binary: int  # relations L, M available

    presets = (
        Config(domain=3, quantifiers=1, connectives=1, unary=2, binary=1),
        Config(domain=3, quantifiers=2, connectives=1, unary=2, binary=1),
        Config(domain=4, quantifiers=2, connectives=2, unary=2, binary=1),
        Config(domain=4, quantifiers=3, connectives=2, unary=3, binary=2),
        Config(domain=5, quantifiers=3, connectives=3, unary=3, binary=2),
    )
    # Capped at level 11's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(steps={"domain": 1}, limits={"domain": 12})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        unary, binary = UNARY[: config.unary], BINARY[: config.binary]

        def draw() -> tuple[dict, list, bool] | None:
            structure = random_structure(rng, config.domain, unary, binary)
            shape = random_sentence(rng, config.quantifiers, config.connectives, unary, binary)
            if degenerate(shape):
                return None
            found: dict[bool, list] = {}
            for names, flip in _renamings(rng, unary, binary):
                sentence = renamed(shape, names, flip)
                found.setdefault(holds(structure, sentence), sentence)
                if len(found) == 2:
                    truth = rng.random() < 0.5
                    return structure, found[truth], truth
            return None

        structure, sentence, truth = retry(draw, what="a sentence whose renamings take both truth values")
        prompt = (
            "A first-order structure is given by its domain and the extension of each predicate (the elements "
            "it holds of) and each binary relation (the ordered pairs it holds of):\n\n"
            f"{describe(structure)}\n\n"
            f"Sentence: {render(sentence)}\n\n"
            "Here ∀ means for all, ∃ there exists (both range over the domain), ¬ not, ∧ and, ∨ or, → implies, "
            "and L(x, y) holds when the pair (x, y) is in L. Is the sentence true in this structure? Answer "
            "with one word: true or false."
        )
        data = {"structure": structure, "sentence": sentence, "true": truth}
        return Problem(prompt=prompt, answer="true" if truth else "false", data=data)

    def difficulty(self, problem: Problem) -> float:
        """Evaluation work: domain size to the power of the quantifier depth, times the sentence's symbols."""
        sentence = problem.data["sentence"]
        return float(problem.data["structure"]["size"] ** quantifier_depth(sentence) * size(sentence))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        said = read_verdict(answer, yes=_YES, no=_NO)
        if said is None:
            return Verdict.unparsed("expected true or false")
        return Verdict.judge(said == problem.data["true"], "wrong")

    def spellings(self, problem: Problem) -> list[str]:
        word = problem.answer or ""
        yes = "yes" if problem.data["true"] else "no"
        return [*super().spellings(problem), word.upper(), word.capitalize() + ".", f"**{word}**", yes,
                f"\\boxed{{{word}}}", f"It is {word} in this structure.",
                f"The sentence is {word}.", word[0].upper()]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        other = "false" if problem.data["true"] else "true"
        return [other, other.upper(), "true or false", "unknown", f"{problem.answer}, no wait, {other}",
                f"The sentence is {other}.", f"{problem.answer}\n{other}"]

    def surface_features(self, problem: Problem) -> dict[str, float]:
        """The sentence's quantifiers and connectives, and how full the structure's extensions are."""
        sentence, structure = problem.data["sentence"], problem.data["structure"]
        text = render(sentence)
        n = structure["size"]
        unary = [len(v) / n for v in structure["unary"].values()]
        binary = [len(v) / n ** 2 for v in structure["binary"].values()]
        return {
            "∀ minus ∃": float(text.count("∀") - text.count("∃")),
            "leading ∀": float(text.startswith("∀")),
            "negations": float(text.count("¬") + text.count("≠")),
            "→ count": float(text.count("→")),
            "∨ minus ∧": float(text.count("∨") - text.count("∧")),
            "mean unary fill": sum(unary) / len(unary),
            "mean relation fill": sum(binary) / max(1, len(binary)),
        }


def _renamings(rng: random.Random, unary: tuple[str, ...], binary: tuple[str, ...]) -> list[tuple[dict, bool]]:
    """Every renaming of the predicates and relations (with and without swapped arguments), shuffled."""
    options = []
    for u in itertools.permutations(unary):
        for b in itertools.permutations(binary):
            for flip in (False, True):
                options.append(({**dict(zip(unary, u)), **dict(zip(binary, b))}, flip))
    rng.shuffle(options)
    return options
