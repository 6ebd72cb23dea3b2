"""Retrieve numbers from documents, then compute with them exactly: search, open and a calculator.

The prompt names 2 to 5 quantities of a generated world (``A = the population of the birthplace of
the CEO of Quorvex Labs``, ``B = the founding year of Tarnholm Works``...) and a formula over them
with products, sums and differences (``(A * B) - C``). The model finds each quantity with search and
open, evaluates the formula with the calculator (the products have 10 or more digits), and answers
with the exact integer (thousands separators allowed). Two kinds of tool in one episode: retrieval,
then computation. Levels add quantities, longer paths to them and noisier collections. The
difficulty is the number of facts to find plus the number of operations.

Generation speed: about 440 problems/s at level 4 on this 2-core machine: each problem draws its own
fictional world (people, organisations, cities, countries with their facts, near-duplicate names and
aliases, by the shared knowledge generator, which checks every name and alias is unique after
normalisation), so that no answer can be memorised across problems; the world is over 90% of the time for
48 people. Picking the facts and the calculation on them is cheap.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.tools import _qa as qa
from palaestra.envs.tools.common import ToolTask, tool_call
from palaestra.generators import knowledge
from palaestra.generators.knowledge import CorpusParams, World
from palaestra.verifiers.numeric import grade_number

LETTERS = "ABCDE"
EXAMPLE = "1,234,567,890"  # the prompt's example answer


@register
class SearchCalculate(ToolTask):
    id = "tools/search_calculate"
    family = "tools"
    description = "Find numbers in a generated document collection, then evaluate a formula over them exactly."
    tags = ("tools", "multi-turn", "search", "calculator", "multi-tool", "arithmetic")
    tool_names = ("search", "open", "calculator")
    version = 2

    @dataclass(frozen=True)
    class Config:
        quantities: int
        max_hops: int  # relations before the numeric attribute
        corpus: CorpusParams

    presets = (
        Config(2, 0, qa.corpus_params(people=16, noise=0.0)),
        Config(3, 0, qa.corpus_params(people=24, noise=0.3)),
        Config(3, 1, qa.corpus_params(people=32, noise=0.5)),
        Config(4, 1, qa.corpus_params(people=40, noise=0.7)),
        Config(5, 2, qa.corpus_params(people=48, noise=1.0)),
    )
    # Capped at level 12's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"quantities": 13, "max_hops": 10})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def ask(world: World) -> dict:
            paths, ends = [], set()
            for _ in range(config.quantities):  # each quantity a different fact
                hops = rng.randint(0, config.max_hops)
                path = retry(lambda h=hops: knowledge.walk(world, rng, h + 1, last_to_entity=False),
                             lambda p: knowledge.follow(world, *p)[1][-1][:2] not in ends,
                             what="a new quantity", attempts=50)
                ends.add(knowledge.follow(world, *path)[1][-1][:2])
                paths.append(path)
            values, facts = [], []
            for start, relations in paths:
                value, used = knowledge.follow(world, start, relations)
                values.append(int(value))
                facts += [list(f) for f in used]
            formula = _formula(rng, LETTERS[: config.quantities])
            return {"phrases": [knowledge.noun_phrase(world, s, r) for s, r in paths], "values": values,
                    "facts": facts, "formula": formula}

        seed, _, task = qa.draw_question(rng, config.corpus, ask)
        result = _evaluate(task["formula"], task["values"])
        budget = 2 * len(task["facts"]) + 3
        names = "\n".join(f"{letter} = {phrase}" for letter, phrase in zip(LETTERS, task["phrases"]))
        example = EXAMPLE  # a fixed placeholder: independent of the answer
        prompt = (
            f"{qa.INTRO}\n\nLet\n{names}\n\nCompute {task['formula']} exactly (years and populations as plain "
            f"integers). Answer with the integer, e.g. <answer>{example}</answer>.\n\n"
            f"{self.tools_prompt(budget)}"
        )
        data = {"corpus": knowledge.corpus_spec(seed, config.corpus), **task, "budget": budget}
        return Problem(prompt=prompt, answer=str(result), data=data)

    def difficulty(self, problem: Problem) -> float:
        """Facts to find plus values to combine, plus the formula's operators and a tenth of the values'
        digits (the arithmetic)."""
        data = problem.data
        operators = sum(data["formula"].count(op) for op in "+-*/")
        digits = sum(len(str(abs(v))) for v in data["values"])
        return len(data["facts"]) + len(data["values"]) - 1 + operators / 2 + digits / 10

    def judge(self, problem: Problem, answer: str) -> Verdict:
        verdict = grade_number(answer, int(problem.answer or 0))
        if verdict is None:
            return Verdict.unparsed("not an integer")
        return Verdict.judge(verdict)

    def plan(self, problem: Problem) -> list[str]:
        facts = [tuple(f) for f in problem.data["facts"]]
        expression = problem.data["formula"]
        for letter, value in zip(LETTERS, problem.data["values"]):
            expression = expression.replace(letter, str(value))
        return [*qa.lookup_moves(qa.corpus_of(problem), facts), tool_call("calculator", expression=expression),
                problem.answer or ""]

    def spellings(self, problem: Problem) -> list[str]:
        value = int(problem.answer or 0)
        return [f"{value:,}", f"{value}.", f"**{value}**"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value = int(problem.answer or 0)
        return [str(value + 1), str(value - rng.randint(2, 9)), f"{value:.3e}", f"{value} or {value + 10}"]


def _formula(rng: random.Random, letters: str) -> str:
    """A fully parenthesised formula using every letter once, with at least one product."""
    parts = list(letters)
    rng.shuffle(parts)
    operators = [rng.choice("+-*") for _ in range(len(parts) - 1)]
    operators[rng.randrange(len(operators))] = "*"
    expression = parts[0]
    for operator, part in zip(operators, parts[1:]):
        expression = f"({expression} {operator} {part})" if rng.random() < 0.5 else f"({part} {operator} {expression})"
    return expression[1:-1]


def _evaluate(formula: str, values: list[int]) -> int:
    """The formula's value, read by the allow-list expression parser (never ``eval``)."""
    from palaestra.verifiers import expressions

    text = formula
    for letter, value in zip(LETTERS, values):
        text = text.replace(letter, f"({value})")
    tree = expressions.parse_expression(text, implicit_multiplication=False)
    exact = expressions.evaluate_exact(tree) if tree is not None else None
    if exact is None or exact.denominator != 1:
        raise ValueError(f"formula {formula!r} did not evaluate to an integer")
    return int(exact)
