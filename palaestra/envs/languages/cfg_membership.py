"""Context-free grammar membership: does this grammar generate this string? (yes/no, balanced)

A random grammar (no empty and no unit productions, see :mod:`palaestra.envs.languages._grammar`)
and a string. The label is a fair coin drawn first. A *yes* string is drawn from the grammar at a
random length (each derivation tree of that length as likely); a *no* string is such a drawn
string with one letter changed or two neighbours swapped, kept only when the grammar does not
generate it, so both labels share the same lengths and letters and a string's look says nothing
about the answer. Membership is decided by a memoised split search over the string's spans.
The answer is ``yes`` or ``no``.

Generation speed: about 540 problems/s at level 4 on this 2-core machine. Almost all of it is counting
the derivation trees of every string length in range for the freshly drawn grammar (a memoised dynamic
programme over nonterminals, bodies and split points), which is what lets the member string be drawn
uniformly from the grammar's derivations and keeps only grammars with strings at several lengths.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.languages._grammar import Grammar, random_grammar
from palaestra.verifiers.choices import read_yes_no


@register
class CfgMembership(Task):
    id = "languages/cfg_membership"
    family = "languages"
    description = "Decide whether a context-free grammar generates a string (yes/no)."
    tags = ("formal-languages", "grammar", "classification")

    @dataclass(frozen=True)
    class Config:
        nonterminals: int
        terminals: str
        bodies: tuple[int, int]  # right-hand sides per nonterminal
        max_body: int
        lengths: tuple[int, int]  # the string's length range

    presets = (
        Config(nonterminals=2, terminals="ab", bodies=(2, 2), max_body=3, lengths=(3, 6)),
        Config(nonterminals=3, terminals="ab", bodies=(2, 3), max_body=3, lengths=(5, 8)),
        Config(nonterminals=3, terminals="abc", bodies=(2, 3), max_body=3, lengths=(7, 11)),
        Config(nonterminals=4, terminals="abc", bodies=(2, 3), max_body=3, lengths=(9, 14)),
        Config(nonterminals=5, terminals="abc", bodies=(2, 4), max_body=4, lengths=(12, 18)),
    )
    # Capped at level 10's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"nonterminals": 11, "bodies": (2, 10), "max_body": 10, "lengths": (30, 42)})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        member = rng.random() < 0.5

        def draw() -> tuple[Grammar, str] | None:
            grammar = random_grammar(rng, config.nonterminals, config.terminals, config.bodies, config.max_body)
            lengths = [n for n in range(config.lengths[0], config.lengths[1] + 1) if grammar.count("S", n)]
            if len(lengths) < 2:
                return None  # a language with hardly any strings in range
            tree = grammar.sample(rng, rng.choice(lengths))
            string = Grammar.string(tree)
            if not member:
                string = _near_miss(rng, grammar, string, config.terminals)
            return (grammar, string) if string else None

        grammar, string = retry(draw, what="a grammar and a string with the drawn label")
        prompt = (
            "Here is a context-free grammar. Capital letters are nonterminals, small letters are terminals, S is the "
            "start symbol, and | separates alternatives:\n\n"
            f"{grammar.text()}\n\n"
            f'Does this grammar generate the string "{string}"? Answer yes or no.'
        )
        return Problem(prompt=prompt, answer="yes" if member else "no",
                       data={"rules": grammar.to_json(), "string": string})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        said = read_yes_no(answer)
        if said is None:
            return Verdict.unparsed("expected yes or no")
        truth = Grammar(problem.data["rules"]).accepts(problem.data["string"])
        return Verdict.judge(said == truth)

    def difficulty(self, problem: Problem) -> float:
        """The string's length times the number of productions (the work of a chart parser)."""
        productions = sum(len(bodies) for bodies in problem.data["rules"].values())
        return float(len(problem.data["string"]) * productions)

    def surface_features(self, problem: Problem) -> dict[str, float]:
        string = problem.data["string"]
        features = {"length": float(len(string)), "first letter": float(ord(string[0])),
                    "last letter": float(ord(string[-1]))}
        for letter in "abc":
            features[f"count {letter}"] = float(string.count(letter))
        return features

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), gold.upper(), f"**{gold.capitalize()}**", f"{gold.capitalize()}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        other = "no" if problem.answer == "yes" else "yes"
        return [other, "yes or no", f"{problem.answer}, no wait, {other}"]


def _near_miss(rng: random.Random, grammar: Grammar, string: str, terminals: str) -> str | None:
    """``string`` with one letter changed or two neighbours swapped, not generated by ``grammar``."""
    for _ in range(20):
        chars = list(string)
        i = rng.randrange(len(chars))
        if rng.random() < 0.5 and len(chars) > 1:
            j = min(i + 1, len(chars) - 1) if i + 1 < len(chars) else i - 1
            chars[i], chars[j] = chars[j], chars[i]
        else:
            chars[i] = rng.choice([t for t in terminals if t != chars[i]])
        candidate = "".join(chars)
        if candidate != string and not grammar.accepts(candidate):
            return candidate
    return None
