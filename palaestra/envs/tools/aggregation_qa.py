"""Aggregation questions over a generated document collection: collect a set of facts, then count,
sum, subtract or take the earliest.

``What is the combined population of A and B?``, ``How many years after the birth year of its
founder was X founded?``, ``How many people work for X?``, ``Among the people who work for X, who
was born first?``, ``How many of the people who work for X were born in Y?``. The answer is a number
(thousands separators allowed) or a name (any alias counts). Counting questions need every
employee's document, found with several searches, and unverified documents may claim false
employments. Levels move from two facts to sets of up to ten people in larger, noisier
collections. A count's answer is drawn uniformly from the level's range before the question (2-10
employees; at level 4 4-10 employees and 1-3 born in a city, so the ranges do not overlap), and the count
levels mix in a question of another kind (founder ages at level 2, earliest employees at levels 3-4), so that
no answer is more than about an eighteenth of a level's problems (v4 drew counts 3-8 alone at level 2: the
constant 4 paid 0.2). The tool budget
is a level constant sized for the level's largest question (a budget sized to the question told the
count: it was 2 * (count + 1)). The difficulty is the number of facts to collect plus the world's
size in units of 20 people.

Generation speed: about 210 problems/s at level 4 on this 2-core machine: each problem draws its own
fictional world (people, organisations, cities, countries with their facts, near-duplicate names and
aliases, by the shared knowledge generator, which checks every name and alias is unique after
normalisation), so that no answer can be memorised across problems; the world is over 90% of the time for
48 people, and about 1 world in 3 is redrawn because no aggregate question of the drawn kind fits its
size range.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Verdict, register, retry
from palaestra.envs.tools import _qa as qa
from palaestra.envs.tools.common import ToolTask
from palaestra.generators import knowledge
from palaestra.generators.knowledge import CorpusParams, Question


@register
class AggregationQa(ToolTask):
    id = "tools/aggregation_qa"
    family = "tools"
    description = "Count, sum or compare a set of facts collected by searching a generated document collection."
    tags = ("tools", "multi-turn", "search", "retrieval", "aggregation")
    tool_names = ("search", "open")
    version = 5  # v5: counts over 2-10 and mixed with other kinds, so no constant pays more than ~0.06

    @dataclass(frozen=True)
    class Config:
        kinds: tuple[str, ...]
        max_count: int  # most employees of an organisation asked about (or the top of a drawn count's range)
        min_facts: int  # for the questions whose answer is not a drawn count
        counts: tuple[tuple[str, int, int], ...]  # (kind, low, high): that kind's answer is drawn uniformly first
        budget: int  # tool calls: enough for the largest question of the level, the same for every problem
        corpus: CorpusParams

    presets = (
        Config(("combined_population", "years_apart"), 8, 2, (), 6, qa.corpus_params(people=16, noise=0.0)),
        Config(("founder_age",), 8, 3, (), 8, qa.corpus_params(people=24, noise=0.3)),
        # v5: counts 2-10 (nine values, every one held by an organisation in at least 7% of the worlds) and half the
        # level founder ages (22-59), so no answer is more than an eighteenth of the problems (v4: counts 3-8 alone,
        # the constant 4 paid 0.2); the budget is the count's largest question, 2 * (10 + 1)
        Config(("count_employees", "founder_age"), 8, 2, (("count_employees", 2, 10),), 22,
               qa.corpus_params(people=32, noise=0.5)),
        Config(("earliest_employee", "count_employees"), 9, 5, (("count_employees", 2, 10),), 38,
               qa.corpus_params(people=40, noise=0.7)),
        # a sixth born-in counts (1-3, all the world allows), a third employee counts (4-10), half earliest employees:
        # no count answers more than an eighteenth of the problems (v4: a quarter and a half, 0.083 each)
        Config(("count_employees_born_in", "earliest_employee", "earliest_employee", "earliest_employee",
                "count_employees", "count_employees"), 9, 8,
               (("count_employees_born_in", 1, 3), ("count_employees", 4, 10)), 38,
               qa.corpus_params(people=48, noise=1.0)),
    )
    bounded = "larger configs are infeasible for its generator (no valid problem in 1,000 draws past the presets)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(config.kinds)
        # A count's answer is drawn before the question, uniformly, so no answer is much more common than
        # another; then the questions of that kind are drawn until one has that answer.
        span = next(((low, high) for k, low, high in config.counts if k == kind), None)
        target = None if span is None else str(rng.randint(*span))

        def fits(q: Question) -> bool:
            return q.answer == target if target is not None else len(q.facts) >= config.min_facts

        seed, world, question = qa.draw_question(rng, config.corpus, lambda world: retry(
            lambda: knowledge.aggregation_question(world, rng, kind, max(config.max_count, span[1] if span else 0)),
            fits, what=f"a {kind} question", attempts=40))
        budget = config.budget  # a level constant: a budget sized to the question would tell its answer
        form = ("Answer with a number, e.g. <answer>" if question.answer_type == "number"
                else "Answer with the name (an alias also counts), e.g. <answer>")
        prompt = (f"{qa.INTRO}\n\nQuestion: {question.text}\n\n{form}{qa.example_answer(question)}</answer>.\n\n"
                  f"{self.tools_prompt(budget)}")
        data = {"corpus": knowledge.corpus_spec(seed, config.corpus), "question": question.to_dict(), "budget": budget}
        return Problem(prompt=prompt, answer=question.answer, data=data)

    def difficulty(self, problem: Problem) -> float:
        """Facts to gather plus a twentieth of the world, plus a tenth of the question's words, plus four times the
        corpus's confusion (the top level gathers slightly fewer facts than the one below, in a far noisier corpus)."""
        question = problem.data["question"]
        return (len(question["facts"]) + qa.world_size(problem) / 20 + len(question["text"].split()) / 10
                + 4 * qa.confusion(problem))

    def judge(self, problem: Problem, answer: str) -> Verdict:
        return qa.judge_named_answer(answer, qa.question_of(problem))

    def plan(self, problem: Problem) -> list[str]:
        question = qa.question_of(problem)
        return [*qa.lookup_moves(qa.corpus_of(problem), question.facts), str(question.answer)]

    def spellings(self, problem: Problem) -> list[str]:
        question = qa.question_of(problem)
        return [*question.accepted(), f"{question.answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        question = qa.question_of(problem)
        if question.answer_type == "number":
            value = int(question.answer)
            return [str(value + 1), str(max(value - 1, 0)) if value > 0 else "-1", f"{value} or {value + 1}"]
        world = qa.corpus_of(problem).world
        others = [world.entities[str(s)].name for s, relation, _ in question.facts
                  if relation == "birth_year" and world.entities[str(s)].name != question.answer]
        return [others[0], f"{question.answer} or {others[0]}"]
