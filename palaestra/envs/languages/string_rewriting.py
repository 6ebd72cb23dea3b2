"""String rewriting: turn a source string into a target with a given set of rewrite rules.

A random rewriting system (rules such as ``ab -> ba``, ``c -> aa``, ``bb -> c``), a source
string, and a target reached from it by a random walk of rule applications (so a solution
exists). The answer is the chain of strings from the source to the target, each one rule
application at one place in the previous string: ``abc -> bac -> baaa``. Any valid chain
scores, not only a shortest one. The verifier is bounded: at most ``MAX_STEPS`` strings are
read, none longer than ``MAX_LENGTH`` letters, and each step is checked in time linear in the
string. The difficulty is the length of a shortest chain, found by breadth-first search over
strings (within a node budget) at generation.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.envs.languages.common import read_chain
from palaestra.solvers.simulate import Rules, SearchBudgetExceeded, shortest_plan

MAX_STEPS = 200
MAX_LENGTH = 40
SEARCH_BUDGET = 1_500

Rule = tuple[str, str]
Step = tuple[int, int]  # (rule index, position)


@register
class StringRewriting(Task):
    id = "languages/string_rewriting"
    family = "languages"
    description = "Rewrite a source string into a target string using given rewrite rules, step by step."
    tags = ("formal-languages", "rewriting", "search")
    multiline = True

    @dataclass(frozen=True)
    class Config:
        alphabet: str
        rules: int
        source: tuple[int, int]  # source length range
        walk: int  # random rule applications from the source to the target
        min_steps: int  # a shortest chain has at least this many steps

    def config(self, level: int) -> Config:
        return [
            self.Config(alphabet="ab", rules=3, source=(3, 4), walk=3, min_steps=2),
            self.Config(alphabet="abc", rules=3, source=(3, 5), walk=5, min_steps=3),
            self.Config(alphabet="abc", rules=4, source=(4, 6), walk=7, min_steps=5),
            self.Config(alphabet="abcd", rules=4, source=(5, 7), walk=10, min_steps=7),
            self.Config(alphabet="abcd", rules=4, source=(6, 8), walk=12, min_steps=9),
        ][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[list[Rule], str, str, list[str]] | None:
            rules = _random_rules(rng, config.alphabet, config.rules)
            source = "".join(rng.choice(config.alphabet) for _ in range(rng.randint(*config.source)))
            system = Rewriting(rules, source, "")
            current = source
            for _ in range(config.walk):
                steps = list(system.moves(current))
                if not steps:
                    return None
                current = system.apply(current, rng.choice(steps))
            if current == source or len(current) > MAX_LENGTH // 2:
                return None
            system = Rewriting(rules, source, current)
            try:
                plan = shortest_plan(system, max_nodes=SEARCH_BUDGET)
            except SearchBudgetExceeded:
                return None
            if plan is None or len(plan) < config.min_steps:
                return None
            chain = [source]
            for step in plan:
                chain.append(system.apply(chain[-1], step))
            return rules, source, current, chain

        rules, source, target, chain = retry(draw, what="a rewriting problem needing enough steps")
        listing = "\n".join(f"  {i}. {left} -> {right}" for i, (left, right) in enumerate(rules, 1))
        prompt = (
            f"A string-rewriting system has these rules:\n{listing}\n\n"
            "A step replaces one occurrence of a rule's left-hand side, anywhere in the string, by its right-hand "
            f'side. Rewrite "{source}" into "{target}".\n'
            "Give the whole chain of strings from the first to the last, separated by ->, for example: "
            "abc -> bac -> bc (this only shows the notation). Any valid chain is accepted."
        )
        return Problem(prompt=prompt, answer=" -> ".join(chain), data={
            "rules": [list(r) for r in rules], "source": source, "target": target, "shortest": len(chain) - 1,
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        chain = read_chain(answer, max_items=MAX_STEPS + 1, max_length=MAX_LENGTH)
        if chain is None:
            return Verdict.unparsed("expected strings separated by ->, such as abc -> bac -> bc")
        source, target = problem.data["source"], problem.data["target"]
        if chain[0] != source:
            chain = [source, *chain]  # the source may go without saying
        rules = [tuple(r) for r in problem.data["rules"]]
        for number, (before, after) in enumerate(zip(chain, chain[1:]), start=1):
            if not one_step(rules, before, after):
                return Verdict.wrong(f"step {number} ({before} -> {after}) is not one application of a rule")
        if chain[-1] != target:
            return Verdict.wrong(f"the chain ends with {chain[-1]}, not {target}")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Steps in a shortest chain."""
        return float(problem.data["shortest"])

    def spellings(self, problem: Problem) -> list[str]:
        chain = (problem.answer or "").split(" -> ")
        return [*super().spellings(problem), "\n".join(chain), " → ".join(chain), " => ".join(chain[1:]),
                "\n".join(f"{i}. {s}" for i, s in enumerate(chain)), f"{problem.answer}. Done."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        chain = (problem.answer or "").split(" -> ")
        rules = [tuple(r) for r in problem.data["rules"]]
        wrong = [f"{problem.answer} or {chain[-1]}"]
        if len(chain) > 2 and not one_step(rules, chain[-3], chain[-1]):
            wrong.append(" -> ".join(chain[:-2] + chain[-1:]))  # two steps in one
        wrong.append(" -> ".join(chain[:-1]))  # stops one step short (the target differs from every earlier string)
        return wrong


class Rewriting(Rules[str, Step]):
    """The rewriting system between two strings; a move is (rule index, position)."""

    def __init__(self, rules: list[Rule], source: str, target: str) -> None:
        self.rules, self.source, self.target = rules, source, target

    def initial(self) -> str:
        return self.source

    def moves(self, state: str) -> list[Step]:
        return [(k, i) for k, (left, _) in enumerate(self.rules) for i in range(len(state) - len(left) + 1)
                if state.startswith(left, i) and len(state) - len(left) + len(self.rules[k][1]) <= MAX_LENGTH]

    def check(self, state: str, move: Step) -> str | None:
        k, i = move
        return None if 0 <= k < len(self.rules) and state.startswith(self.rules[k][0], i) else "the rule does not apply"

    def apply(self, state: str, move: Step) -> str:
        left, right = self.rules[move[0]]
        return state[: move[1]] + right + state[move[1] + len(left) :]

    def goal(self, state: str) -> bool:
        return state == self.target


def one_step(rules: list[Rule], before: str, after: str) -> bool:
    """Whether ``after`` is ``before`` with one occurrence of a left-hand side replaced by its right-hand side."""
    for left, right in rules:
        if len(after) - len(before) != len(right) - len(left):
            continue
        for i in range(len(before) - len(left) + 1):
            if before.startswith(left, i) and after.startswith(right, i) and before[:i] == after[:i] \
                    and before[i + len(left) :] == after[i + len(right) :]:
                return True
    return False


def _random_rules(rng: random.Random, alphabet: str, count: int) -> list[Rule]:
    rules: list[Rule] = []
    for _ in range(20 * count):
        if len(rules) >= count:
            break
        shape = rng.choice([(2, 2), (2, 1), (1, 2), (2, 2), (3, 2), (2, 3)])
        left = "".join(rng.choice(alphabet) for _ in range(shape[0]))
        right = "".join(rng.choice(alphabet) for _ in range(shape[1]))
        if left != right and all(left != other for other, _ in rules):
            rules.append((left, right))
    return rules
