"""Answer from the documents, or say the documents hold no answer (abstention) — half the questions.

Half the questions are ordinary 1-4 hop questions over the generated collection; the other half
look the same but cannot be answered from it: the named entity does not exist (at higher levels
its name is one letter away from a real entity's) or a fact on the path is missing (an unmarried
person's spouse, an unemployed person's employer). The model must answer ``not in the corpus``
exactly when the collection holds no answer (``no answer``, ``unknown``, ``not found``... also
count) and the right name or number otherwise. Prompts and tool budgets do not depend on which
half a question is in. The difficulty is the number of hops plus the world's size in units of 20
people.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Verdict, register
from palaestra.envs.tools import qa
from palaestra.envs.tools.common import ToolTask, tool_call
from palaestra.generators import knowledge
from palaestra.generators.knowledge import CorpusParams


@register
class UnanswerableQa(ToolTask):
    id = "tools/unanswerable_qa"
    family = "tools"
    description = "Answer a question from a generated document collection, or report that it holds no answer."
    tags = ("tools", "multi-turn", "search", "retrieval", "abstention")
    tool_names = ("search", "open")

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
        answerable = rng.random() < 0.5

        def ask(world: knowledge.World) -> knowledge.Question:
            if answerable:
                return knowledge.multi_hop_question(world, rng, hops=config.hops)
            return knowledge.no_answer_question(world, rng, hops=config.hops, near_miss=config.near_miss)

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
        return qa.question_of(problem).hops + qa.world_size(problem) / 20

    def judge(self, problem: Problem, answer: str) -> Verdict:
        return qa.judge_named_answer(answer, qa.question_of(problem), qa.corpus_of(problem).world)

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
