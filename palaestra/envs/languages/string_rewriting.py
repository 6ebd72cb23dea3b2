"""String rewriting: turn a source string into a target with a given set of rewrite rules.

A random rewriting system (rules such as ``ab -> ba``, ``c -> aa``, ``bb -> c``), a source
string, and a target reached from it by a random walk of rule applications (so a solution
exists). The answer is the chain of strings from the source to the target, each one rule
application at one place in the previous string: ``abc -> bac -> baaa``. Any valid chain
scores, not only a shortest one. The verifier is bounded: at most ``MAX_STEPS`` strings are
read, none longer than ``MAX_LENGTH`` letters, and each step is checked in time linear in the
string. The difficulty is the length of a shortest chain, found at generation by breadth-first
search from both ends (within a budget of strings reached).

Generation speed: about 530 problems/s at level 4 on this 2-core machine. Each draw walks the rules from
a random source and then finds the shortest rewriting chain to where it ended by a bounded breadth-first
search, and about 2 in 3 draws are redrawn because the shortest chain is under the minimum number of
steps; the search is what guarantees every problem needs that many steps (its difficulty), so it stays.

Version 2: the walk grows by 2 steps per level past the presets only up to 24 (level 10; levels 0-9 unchanged).
A longer walk more often strands the string where no rule applies or leaves it too long for a target, so
fewer draws qualify: 1.7% at a walk of 24, 0.8% at 28, 0.15% at 84 (level 40), where generation failed
(GenerationError after 1000 draws) at 4 seeds in 8, and at 3 in 40 already at level 20. At 24 a seed fails
with chance about (1 - 0.017)^1000, 5e-8.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.languages.common import read_chain

MAX_STEPS = 200
MAX_LENGTH = 40
SEARCH_BUDGET = 4_000  # strings reached, both ends together

Rule = tuple[str, str]


@register
class StringRewriting(Task):
    id = "languages/string_rewriting"
    family = "languages"
    description = "Rewrite a source string into a target string using given rewrite rules, step by step."
    tags = ("formal-languages", "rewriting", "search")
    multiline = True
    version = 2

    @dataclass(frozen=True)
    class Config:
        alphabet: str
        rules: int
        source: tuple[int, int]  # source length range
        walk: int  # random rule applications from the source to the target
        min_steps: int  # a shortest chain has at least this many steps

    presets = (
        Config(alphabet="ab", rules=3, source=(3, 4), walk=3, min_steps=2),
        Config(alphabet="abc", rules=3, source=(3, 5), walk=5, min_steps=3),
        Config(alphabet="abc", rules=4, source=(4, 6), walk=7, min_steps=5),
        Config(alphabet="abcd", rules=4, source=(5, 7), walk=10, min_steps=7),
        Config(alphabet="abcd", rules=4, source=(6, 8), walk=12, min_steps=9),
    )
    # the walk capped where a random walk still qualifies often enough (see the docstring, version 2)
    growth = Growth(steps={"walk": 2}, limits={"walk": 24})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[list[Rule], str, str, list[str]] | None:
            rules = _random_rules(rng, config.alphabet, config.rules)
            source = "".join(rng.choice(config.alphabet) for _ in range(rng.randint(*config.source)))
            current = source
            for _ in range(config.walk):
                options = list(_neighbours(current, rules))
                if not options:
                    return None
                current = rng.choice(options)
            if current == source or len(current) > MAX_LENGTH // 2:
                return None
            chain = shortest_chain(rules, source, current, SEARCH_BUDGET)
            if chain is None or len(chain) - 1 < config.min_steps:
                return None
            return rules, source, current, chain

        rules, source, target, chain = retry(draw, what="a rewriting problem needing enough steps")
        listing = "\n".join(f"  {i}. {left} -> {right}" for i, (left, right) in enumerate(rules, 1))
        prompt = (
            f"A string-rewriting system has these rules:\n{listing}\n\n"
            "A step replaces one occurrence of a rule's left-hand side, anywhere in the string, by its right-hand "
            f'side. Rewrite "{source}" into "{target}".\n'
            "Give the whole chain of strings from the first to the last, separated by ->, for example: "
            "abc -> bac -> bc (this only shows the notation). Any valid chain is accepted, not only a shortest "
            f"one, within {MAX_STEPS} steps and with no string longer than {MAX_LENGTH} letters."
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
        """Steps in a shortest chain, plus a fifth of the target's length."""
        return float(problem.data["shortest"]) + len(problem.data["target"]) / 5

    def spellings(self, problem: Problem) -> list[str]:
        chain = (problem.answer or "").split(" -> ")
        return [*super().spellings(problem), "\n".join(chain), " → ".join(chain), " => ".join(chain[1:]),
                "\n".join(f"{i}. {s}" for i, s in enumerate(chain)), f"{problem.answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        chain = (problem.answer or "").split(" -> ")
        rules = [tuple(r) for r in problem.data["rules"]]
        wrong = [f"{problem.answer} or {chain[-1]}"]
        if len(chain) > 2 and not one_step(rules, chain[-3], chain[-1]):
            wrong.append(" -> ".join(chain[:-2] + chain[-1:]))  # two steps in one
        wrong.append(" -> ".join(chain[:-1]))  # stops one step short (the target differs from every earlier string)
        return wrong


def _neighbours(string: str, rules: list[Rule]) -> Iterator[str]:
    """Every string one rule application away (duplicates possible), none longer than ``MAX_LENGTH``."""
    for left, right in rules:
        if len(string) - len(left) + len(right) > MAX_LENGTH:
            continue
        i = string.find(left)
        for _ in range(len(string)):
            if i < 0:
                break
            yield string[:i] + right + string[i + len(left) :]
            i = string.find(left, i + 1)


def shortest_chain(rules: list[Rule], source: str, target: str, budget: int) -> list[str] | None:
    """A shortest chain from ``source`` to ``target`` (strings of at most ``MAX_LENGTH`` letters), or None
    if there is none or more than ``budget`` strings were reached first.

    Breadth-first from both ends: backwards, a step replaces a right-hand side by its left-hand side.
    Whole layers are expanded, the smaller side first, and the best meeting within the first layer that
    meets gives a shortest chain. Twelve steps cost a few hundred strings instead of tens of thousands.

    >>> shortest_chain([("ab", "ba")], "aab", "baa", 100)
    ['aab', 'aba', 'baa']
    """
    backward = [(right, left) for left, right in rules]
    seen: tuple[dict[str, str | None], dict[str, str | None]] = ({source: None}, {target: None})
    layers = ([source], [target])
    for _ in range(budget):
        side = 0 if len(layers[0]) <= len(layers[1]) else 1
        own, other = seen[side], seen[1 - side]
        layer, meets = [], []
        for string in layers[side]:
            for nxt in _neighbours(string, rules if side == 0 else backward):
                if nxt not in own:
                    own[nxt] = string
                    layer.append(nxt)
                    if nxt in other:
                        meets.append(nxt)
        if meets:
            halves = [(_walk(seen[0], m)[::-1], _walk(seen[1], m)) for m in meets]
            head, tail = min(halves, key=lambda h: len(h[0]) + len(h[1]))
            return head + tail[1:]
        if not layer or len(seen[0]) + len(seen[1]) > budget:
            return None
        layers = (layer, layers[1]) if side == 0 else (layers[0], layer)
    return None


def _walk(parents: dict[str, str | None], string: str | None) -> list[str]:
    """``string`` and its parents back to the end the search started from."""
    path: list[str] = []
    for _ in range(len(parents)):
        if string is None:
            break
        path.append(string)
        string = parents[string]
    return path


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
