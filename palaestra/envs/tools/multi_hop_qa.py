"""Multi-hop question answering with search and open over a generated, noisy document collection.

Every problem has its own invented world (people, organisations, cities, countries) rendered as a
document collection; the question chains 1 to 4 facts (``In which country is the birthplace of the
CEO of Quorvex Labs located?``). The model searches (BM25) and opens documents, then answers with
the entity's name (any alias counts, case and punctuation ignored), year or number (thousands
separators allowed). Levels add hops, people, paraphrased statements, alias mentions, distractor
documents, near-duplicate names and unverified documents stating false facts. The difficulty is
the number of hops plus a corpus-size term.

Generation speed: about 350 problems/s at level 4 on this 2-core machine: each problem draws its own
fictional world (people, organisations, cities, countries with their facts, near-duplicate names and
aliases, by the shared knowledge generator, which checks every name and alias is unique after
normalisation), so that no answer can be memorised across problems; the world is over 90% of the time for
64 people. The question's chain of hops is then read off the world in well under a millisecond.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Verdict, register
from palaestra.envs.tools import _qa as qa
from palaestra.envs.tools.common import ToolTask
from palaestra.generators import knowledge
from palaestra.generators.knowledge import CorpusParams


@register
class MultiHopQa(ToolTask):
    id = "tools/multi_hop_qa"
    family = "tools"
    description = "Answer a 1-4 hop question by searching and reading a generated document collection."
    tags = ("tools", "multi-turn", "search", "retrieval", "multi-hop")
    tool_names = ("search", "open")
    version = 2

    @dataclass(frozen=True)
    class Config:
        hops: int
        corpus: CorpusParams
        budget: int

    presets = (
        Config(1, qa.corpus_params(people=16, noise=0.0), 6),
        Config(2, qa.corpus_params(people=24, noise=0.3), 8),
        Config(3, qa.corpus_params(people=32, noise=0.5), 10),
        Config(4, qa.corpus_params(people=40, noise=0.7), 12),
        Config(4, qa.corpus_params(people=64, noise=1.0, facts_per_document=2), 12),
    )
    bounded = "its questions take 1 to 4 hops, all reached by level 4"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        seed, world, question = qa.draw_question(
            rng, config.corpus, lambda world: knowledge.multi_hop_question(world, rng, hops=config.hops))
        example = qa.example_answer(question)
        prompt = (
            f"{qa.INTRO}\n\nQuestion: {question.text}\n\n"
            f"Answer with a name (an alias also counts) or a number, e.g. <answer>{example}</answer>.\n\n"
            f"{self.tools_prompt(config.budget)}"
        )
        data = {"corpus": knowledge.corpus_spec(seed, config.corpus), "question": question.to_dict(),
                "budget": config.budget}
        return Problem(prompt=prompt, answer=question.answer, data=data)

    def difficulty(self, problem: Problem) -> float:
        """Hops plus a hundredth of the world, plus a fiftieth of the question's characters."""
        question = problem.data["question"]
        return question["hops"] + qa.world_size(problem) / 100 + len(question["text"]) / 50

    def judge(self, problem: Problem, answer: str) -> Verdict:
        return qa.judge_named_answer(answer, qa.question_of(problem))

    def plan(self, problem: Problem) -> list[str]:
        question = qa.question_of(problem)
        return [*qa.lookup_moves(qa.corpus_of(problem), question.facts), str(question.answer)]

    def spellings(self, problem: Problem) -> list[str]:
        question = qa.question_of(problem)
        return [*question.accepted(), f"{question.answer.upper()}", f"{question.answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        question = qa.question_of(problem)
        world = qa.corpus_of(problem).world
        wrong = [f"{question.answer} or {rng.choice(world.names())}", question.answer[:-1], "not in the corpus"]
        if question.answer_type in ("number", "year"):
            wrong.append(str(int(question.answer) + rng.choice((-1, 1))))
        else:
            wrong.append(knowledge.near_duplicate(question.answer.split()[-1], rng))
        return [w for w in wrong if not knowledge.answer_matches(w, question)]
