"""Answer from the documents, or say the documents hold no answer (abstention) — a fifth of the questions.

Most questions are ordinary 1-4 hop questions over the generated collection; a fifth
(``UNANSWERABLE_SHARE``) look the same but cannot be answered from it: the named entity does not
exist (at higher levels its name is one letter away from a real entity's) or a fact on the path is
missing (an unmarried person's spouse, an unemployed person's employer). The model must answer
``not in the corpus`` exactly when the collection holds no answer (``no answer``, ``unknown``,
``not found``... also count) and the right name or number otherwise.

"Not in the corpus" has no short certificate, so that class is kept at 20% of the problems at every
level **and for every question template** (relation path): an unanswerable question asks along the
path of an answerable question drawn first, so a constant abstention scores about 0.2 (at most 0.25)
however the question reads. Prompts and tool budgets do not depend on which class a question is in.
The difficulty is the number of hops plus the world's size in units of 20 people.

Generation speed: about 450 problems/s at level 4 on this 2-core machine: each problem draws its own
fictional world (people, organisations, cities, countries with their facts, near-duplicate names and
aliases, by the shared knowledge generator, which checks every name and alias is unique after
normalisation), so that no answer can be memorised across problems; the world is over 90% of the time for
48 people. Choosing the question (answerable or not, proved from the world's facts) is cheap.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Verdict, register, retry
from palaestra.envs.tools import _qa as qa
from palaestra.envs.tools.common import ToolTask, tool_call
from palaestra.generators import knowledge
from palaestra.generators.knowledge import CorpusParams, Question

UNANSWERABLE_SHARE = 0.2  # the certificate-free class: a constant "not in the corpus" scores about this
GAPS = ("married_to", "works_for")  # relations a person may lack


@register
class UnanswerableQa(ToolTask):
    id = "tools/unanswerable_qa"
    family = "tools"
    description = "Answer a question from a generated document collection, or report that it holds no answer."
    tags = ("tools", "multi-turn", "search", "retrieval", "abstention")
    tool_names = ("search", "open")
    version = 2
    certificate_free = ("not in the corpus",)  # no short proof: the class is kept at 20% (the kit's bound 0.25)

    @dataclass(frozen=True)
    class Config:
        hops: int
        near_miss: bool  # a missing entity's name is one letter away from a real one
        corpus: CorpusParams

    presets = (
        Config(1, False, qa.corpus_params(people=16, noise=0.0)),
        Config(2, False, qa.corpus_params(people=24, noise=0.3)),
        Config(2, True, qa.corpus_params(people=32, noise=0.5)),
        Config(3, True, qa.corpus_params(people=40, noise=0.7)),
        Config(4, True, qa.corpus_params(people=48, noise=1.0)),
    )
    bounded = "its questions take 1 to 4 hops, all reached by level 4"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        answerable = rng.random() >= UNANSWERABLE_SHARE

        def ask(world: knowledge.World) -> knowledge.Question:
            if answerable:
                return knowledge.multi_hop_question(world, rng, hops=config.hops)
            start, relations = knowledge.walk(world, rng, config.hops)  # the path an answerable question takes
            return unanswerable_along(world, rng, start, relations, config.near_miss)

        seed, _, question = qa.draw_question(rng, config.corpus, ask)
        budget = 2 * config.hops + 4
        prompt = (
            f"{qa.INTRO}\n\nQuestion: {question.text}\n\n"
            "Answer with a name (an alias also counts) or a number, e.g. <answer>1,250</answer>. If the collection "
            "does not contain the answer (the entity does not exist in it, or the fact is not recorded), answer "
            "<answer>not in the corpus</answer>.\n\n"
            f"{self.tools_prompt(budget)}"
        )
        data = {"corpus": knowledge.corpus_spec(seed, config.corpus), "question": question.to_dict(), "budget": budget}
        return Problem(prompt=prompt, answer=question.answer or knowledge.NO_ANSWER, data=data)

    def difficulty(self, problem: Problem) -> float:
        """Hops plus a twentieth of the world, plus a tenth of the question's words."""
        question = problem.data["question"]
        return question["hops"] + qa.world_size(problem) / 20 + len(question["text"].split()) / 10

    def judge(self, problem: Problem, answer: str) -> Verdict:
        return qa.judge_named_answer(answer, qa.question_of(problem))

    def plan(self, problem: Problem) -> list[str]:
        question = qa.question_of(problem)
        moves = qa.lookup_moves(qa.corpus_of(problem), question.facts)
        if not question.answerable:  # the facts up to the gap, then a search for what is missing
            moves.append(tool_call("search", query=question.text, k=10))
        return [*moves, question.answer or knowledge.NO_ANSWER]

    def spellings(self, problem: Problem) -> list[str]:
        question = qa.question_of(problem)
        if not question.answerable:
            return ["Not in the corpus.", "no answer", "unknown", "not found"]
        return [*question.accepted(), f"{question.answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        question = qa.question_of(problem)
        world = qa.corpus_of(problem).world
        if not question.answerable:
            return [rng.choice(world.names()), "0", "yes"]
        return ["not in the corpus", "unknown", f"{question.answer} or not in the corpus"]


def unanswerable_along(world: knowledge.World, rng: random.Random, start: str, relations: list[str],
                       near_miss: bool) -> Question:
    """A question along ``relations`` that the collection cannot answer: from a person lacking one of the
    path's spouse or employer facts (when the path has one, half the time), else from an invented entity
    of the start's kind. Asking along an answerable question's path keeps every template's share of
    unanswerable questions at the class's share."""
    gaps = [i for i, relation in enumerate(relations) if relation in GAPS]
    if gaps and rng.random() < 0.5:
        kind = world.entities[start].kind
        lacking = [e.id for e in world.of_kind(kind) if _gap_on_path(world, e.id, relations)]
        if lacking:
            other = rng.choice(lacking)
            _, used = knowledge.follow(world, other, relations)
            return Question("no_answer", knowledge.path_question_text(world, other, relations), None, (), "none",
                            len(relations), tuple(used))
    fake = retry(lambda: _invented_name(world, rng, start, near_miss), what="an invented name", attempts=200)
    return Question("no_answer", knowledge.path_question_text(world, None, relations, start_name=fake), None, (),
                    "none", len(relations), ())


def _gap_on_path(world: knowledge.World, start: str, relations: list[str]) -> bool:
    """Whether following ``relations`` from ``start`` stops at a missing spouse or employer fact."""
    value, used = knowledge.follow(world, start, relations)
    return value is None and relations[len(used)] in GAPS


def _invented_name(world: knowledge.World, rng: random.Random, start: str, near_miss: bool) -> str | None:
    """A name of the start entity's kind that no entity has (one letter from its name when ``near_miss``)."""
    real = world.entities[start]
    if near_miss:
        parts = real.name.split(" ")
        index = rng.randrange(len(parts)) if real.kind != "organisation" else 0
        parts[index] = knowledge.near_duplicate(parts[index], rng)
        fake = " ".join(parts)
    else:
        forge = knowledge.NameForge(rng)
        if real.kind == "organisation":
            fake = f"{forge.syllables(2)} {rng.choice(knowledge.ORG_SUFFIXES)}"
        elif real.kind in ("city", "country"):
            fake = forge.syllables(2)
        else:
            fake = f"{forge.syllables(2)} {forge.syllables(2)}"
    taken = {knowledge.normalize(n) for e in world.entities.values() for n in (e.name, *e.aliases)}
    return None if knowledge.normalize(fake) in taken else fake
