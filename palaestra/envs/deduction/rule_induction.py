"""Rule induction over a finite hypothesis space: which listed rule produced these labelled examples?

Numbers from 1 to 99 are labelled yes or no by a hidden rule. The candidate rules are listed
(divisibility, comparisons, parity, last or contained digits, digit sums, primes, squares,
ranges, and at the upper levels conjunctions and disjunctions of these), every candidate
with a different set of yes-numbers. Examples are drawn so that every candidate but the hidden
one contradicts at least one of them (each new example is chosen to rule out a candidate that
still fits, plus a few random ones), and the candidate list is re-checked: exactly one rule
fits all examples. The hidden rule's letter is uniform over the list, and its wording is drawn
like the others', so the letters and the texts carry no hint.

The answer is the letter of the rule (``C``, ``(C)`` or the rule's text).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.verifiers.choices import read_choice

_NUMBERS = range(1, 100)
_PRIMES = frozenset(n for n in _NUMBERS if n > 1 and all(n % d for d in range(2, int(n ** 0.5) + 1)))
_LETTERS = "ABCDEFGHIJ"
_RANGE = re.compile(r"between \d+ and \d+")


def _atom(rng: random.Random) -> tuple[str, frozenset[int]]:
    """A random simple rule: its wording and the numbers 1-99 it says yes to."""
    kind = rng.choice(("divisible", "greater", "less", "parity", "last_digit", "contains", "digit_sum", "prime",
                       "square", "between"))
    if kind == "divisible":
        k = rng.randint(3, 9)
        return f"is divisible by {k}", frozenset(n for n in _NUMBERS if n % k == 0)
    if kind == "greater":
        t = rng.randint(10, 89)
        return f"is greater than {t}", frozenset(n for n in _NUMBERS if n > t)
    if kind == "less":
        t = rng.randint(11, 90)
        return f"is less than {t}", frozenset(n for n in _NUMBERS if n < t)
    if kind == "parity":
        even = rng.random() < 0.5
        return ("is even" if even else "is odd"), frozenset(n for n in _NUMBERS if (n % 2 == 0) == even)
    if kind == "last_digit":
        d = rng.randint(0, 9)
        return f"ends in the digit {d}", frozenset(n for n in _NUMBERS if n % 10 == d)
    if kind == "contains":
        d = rng.randint(1, 9)
        return f"contains the digit {d}", frozenset(n for n in _NUMBERS if str(d) in str(n))
    if kind == "digit_sum":
        even = rng.random() < 0.5
        return (f"has an {'even' if even else 'odd'} digit sum",
                frozenset(n for n in _NUMBERS if (sum(map(int, str(n))) % 2 == 0) == even))
    if kind == "prime":
        return "is a prime number", _PRIMES
    if kind == "square":
        return "is a perfect square", frozenset(n * n for n in range(1, 10))
    a = rng.randint(1, 80)
    b = rng.randint(a + 5, min(99, a + 40))
    return f"is between {a} and {b} inclusive", frozenset(range(a, b + 1))


def _rule(rng: random.Random, compound: float) -> tuple[str, frozenset[int]]:
    text, members = _atom(rng)
    if rng.random() < compound:
        other, other_members = _atom(rng)
        if rng.random() < 0.5:
            return f"{text} and {other}", members & other_members
        return f"{text} or {other}", members | other_members
    return text, members


@register
class RuleInduction(Task):
    id = "deduction/rule_induction"
    version = 2
    family = "deduction"
    description = "Pick the one listed rule that fits all the labelled example numbers."
    tags = ("induction", "deduction", "hypothesis-elimination", "classification")

    @dataclass(frozen=True)
    class Config:
        candidates: int
        compound: float  # chance a candidate joins two simple rules with and/or
        extra: int  # random examples shown besides those that rule candidates out

    presets = (
        Config(candidates=4, compound=0.0, extra=3),
        Config(candidates=6, compound=0.0, extra=2),
        Config(candidates=6, compound=0.5, extra=2),
        Config(candidates=8, compound=0.7, extra=1),
        Config(candidates=10, compound=1.0, extra=1),
    )
    bounded = "growing its sizes past the presets exhausts a fixed pool the generator draws from (names, letters or tables)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        rules, target, examples = retry(lambda: _draw(rng, config), what="candidate rules and telling examples")
        listing = "\n".join(f"({_LETTERS[i]}) yes exactly when the number {text}" for i, (text, _) in
                            enumerate(rules))
        shown = "\n".join(f"{n}: {'yes' if label else 'no'}" for n, label in examples)
        prompt = (
            "A hidden rule labels each whole number from 1 to 99 yes or no. It is one of these candidate rules:\n"
            f"{listing}\n\nLabelled examples:\n{shown}\n\n"
            "Exactly one candidate agrees with every example. Which one? Answer with its letter, for example: "
            + "B"  # a fixed placeholder: independent of the answer
        )
        data = {"rules": [text for text, _ in rules], "target": target, "examples": [[n, lb] for n, lb in examples]}
        return Problem(prompt=prompt, answer=_LETTERS[target], data=data)

    def difficulty(self, problem: Problem) -> float:
        """Candidates to eliminate plus examples to check, plus a point per compound rule."""
        rules = problem.data["rules"]
        compound = sum(" or " in r or " and " in _RANGE.sub("", r) for r in rules)
        return float(len(rules) + len(problem.data["examples"]) + compound)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        rules = problem.data["rules"]
        letters = _LETTERS[: len(rules)]
        texts = {letter: rules[i] for i, letter in enumerate(letters)}
        synonyms = {letter: (f"rule {letter}", f"the rule is {letter}", f"candidate {letter}",
                             f"yes exactly when the number {rules[i]}", f"the number {rules[i]}")
                    for i, letter in enumerate(letters)}
        said = read_choice(answer, letters, texts=texts, synonyms=synonyms)
        if said is None:
            return Verdict.unparsed(f"expected one letter from A to {letters[-1]}")
        return Verdict.judge(said == _LETTERS[problem.data["target"]], "that rule disagrees with an example")

    def spellings(self, problem: Problem) -> list[str]:
        letter = problem.answer or ""
        text = problem.data["rules"][problem.data["target"]]
        return [*super().spellings(problem), f"({letter})", letter.lower(), f"{letter}) {text}", text,
                f"Option {letter}.", f"The rule is {letter}.", f"yes exactly when the number {text}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        letters = _LETTERS[: len(problem.data["rules"])]
        others = [x for x in letters if x != problem.answer]
        rules = problem.data["rules"]
        wrong_text = rules[letters.index(others[0])]
        return [rng.choice(others), f"{problem.answer} or {others[0]}", "".join(letters[:2]),
                f"{problem.answer}) {wrong_text}", f"The rule is {problem.answer}. No wait, {others[0]}."]

    def surface_features(self, problem: Problem) -> dict[str, float]:
        """Where the rule sits and how its wording looks, which a lazy policy might follow."""
        rules, examples = problem.data["rules"], problem.data["examples"]
        return {
            "longest rule position": float(max(range(len(rules)), key=lambda i: len(rules[i]))),
            "shortest rule position": float(min(range(len(rules)), key=lambda i: len(rules[i]))),
            "yes share": sum(lb for _, lb in examples) / len(examples),
            "examples": float(len(examples)),
            "last example is yes": float(examples[-1][1]),
        }


def _draw(rng: random.Random, config: RuleInduction.Config) -> tuple | None:
    rules: list[tuple[str, frozenset[int]]] = []
    for _ in range(20 * config.candidates):
        if len(rules) == config.candidates:
            break
        text, members = _rule(rng, config.compound)
        if 5 <= len(members) <= 94 and all(members != m and text != t for t, m in rules):
            rules.append((text, members))
    if len(rules) < config.candidates:
        return None
    target = rng.randrange(len(rules))
    yes = rules[target][1]
    examples: list[tuple[int, bool]] = []
    alive = [i for i in range(len(rules)) if i != target]
    for _ in range(4 * len(rules)):  # each pass rules out at least one candidate
        if not alive:
            break
        victim = rng.choice(alive)
        telling = sorted(yes ^ rules[victim][1])  # numbers on which the victim and the hidden rule disagree
        n = rng.choice(telling)
        examples.append((n, n in yes))
        alive = [i for i in alive if (n in rules[i][1]) == (n in yes)]
    seen = {n for n, _ in examples}
    for n in rng.sample([m for m in _NUMBERS if m not in seen], config.extra):
        examples.append((n, n in yes))
    examples.sort()
    fitting = [i for i, (_, members) in enumerate(rules) if all((n in members) == label for n, label in examples)]
    return (rules, target, examples) if fitting == [target] else None
