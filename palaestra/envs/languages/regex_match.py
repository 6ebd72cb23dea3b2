"""Regular-expression matching: does this expression match the whole string? (yes/no, balanced)

A random expression (literals, classes such as ``[ab]``, concatenation, ``|``, ``*``, ``+``,
``?``; see :mod:`palaestra.envs.languages._regex`) and a string. The label is a fair coin drawn
first: a *yes* string is drawn from the expression, a *no* string is such a string with one
letter changed, inserted, deleted, or two neighbours swapped (new letters only from those the
expression uses) that the expression does not match, so both labels share lengths and letters.
An expression is kept only when it has such a near miss, whichever the label, so the expressions
themselves (their stars, their length) say nothing about the label. The truth comes from RE2 (full match).
The answer is ``yes`` or ``no``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.languages._regex import matches, mutate, random_regex, render, sample
from palaestra.verifiers.choices import read_yes_no

SYNTAX = ("| separates alternatives, * means zero or more of the preceding item, + one or more, ? zero or one, "
          "[ab] one letter out of those listed, and parentheses group")


@register
class RegexMatch(Task):
    id = "languages/regex_match"
    family = "languages"
    description = "Decide whether a regular expression matches a whole string (yes/no)."
    tags = ("formal-languages", "regex", "classification")

    @dataclass(frozen=True)
    class Config:
        leaves: int
        alphabet: str
        max_repeat: int

    presets = (
        Config(leaves=4, alphabet="abc", max_repeat=3),
        Config(leaves=6, alphabet="abc", max_repeat=3),
        Config(leaves=8, alphabet="abc", max_repeat=3),
        Config(leaves=10, alphabet="abcd", max_repeat=3),
        Config(leaves=13, alphabet="abcd", max_repeat=4),
    )
    growth = Growth(steps={"leaves": 1, "max_repeat": 1})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        member = rng.random() < 0.5

        def draw() -> tuple[str, str] | None:
            tree = random_regex(rng, config.leaves, config.alphabet)
            pattern = render(tree)
            string = sample(rng, tree, config.max_repeat)
            if len(string) < 2:
                return None
            # only letters the expression uses: a foreign letter would give the answer away
            near_miss = mutate(rng, string, "".join(sorted({ch for ch in pattern if ch.isalpha()})))
            if not near_miss or matches(pattern, near_miss):
                return None  # kept for both labels alike, so the expressions do not differ by label
            return pattern, string if member else near_miss

        pattern, string = retry(draw, what="an expression and a string with the drawn label")
        prompt = (
            f"Regular expression: {pattern}\n({SYNTAX}.)\n\n"
            f'Does this regular expression match the whole string "{string}" (from its first letter to its last)? '
            "Answer yes or no."
        )
        return Problem(prompt=prompt, answer="yes" if member else "no",
                       data={"pattern": pattern, "string": string})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        said = read_yes_no(answer)
        if said is None:
            return Verdict.unparsed("expected yes or no")
        return Verdict.judge(said == matches(problem.data["pattern"], problem.data["string"]))

    def difficulty(self, problem: Problem) -> float:
        """The expression's length plus the string's length."""
        return float(len(problem.data["pattern"]) + len(problem.data["string"]))

    def surface_features(self, problem: Problem) -> dict[str, float]:
        string, pattern = problem.data["string"], problem.data["pattern"]
        letters = [ch for ch in pattern if ch.isalpha()]
        return {"length": float(len(string)), "pattern length": float(len(pattern)),
                "letters in pattern": float(len(letters)),
                "first letter in pattern": float(string[0] in pattern),
                "last letter in pattern": float(string[-1] in pattern),
                "letters not in pattern": float(sum(ch not in pattern for ch in string)),
                "stars": float(pattern.count("*") + pattern.count("+"))}

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), gold.upper(), f"**{gold.capitalize()}**",
                f"{gold.capitalize()}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        other = "no" if problem.answer == "yes" else "yes"
        return [other, "yes or no", f"{problem.answer}, no wait, {other}"]
