"""Generate a string of a context-free grammar that meets given constraints.

A random grammar (see :mod:`palaestra.envs.languages._grammar`) and constraints read off a string
it generates (so some answer exists): an exact length, plus one to three of "starts with",
"ends with", "contains the substring", "contains exactly k copies of a letter". Any string that
the grammar generates and that meets every constraint scores: the verifier checks the
constraints, then membership by a memoised split search (strings longer than the stated length
are refused before any parsing).

Version 2: where the strings of the asked length can be counted (two letters, up to nine), a problem is
kept only when the grammar generates at most a quarter of the strings that meet the conditions: a random
string meeting them, grammar ignored, scored 0.27 at level 0. The example is a fixed placeholder (it was
changed when the witness was ``abba``).

Version 3: the conditions decide. A string the grammar generates of the asked length, the conditions
ignored (a derivation drawn uniformly), scored 0.74, 0.73, 0.49, 0.32, 0.11 at levels 0-4 (100 seeds a
level). Now ``CANDIDATES`` sets of conditions are read off the witness, the one the fewest of ``SAMPLED``
drawn derivations meet is asked, and the grammar is redrawn when more than ``MEETING_SHARE`` of them
meet it: 0.15, 0.16, 0.15, 0.09, 0.01 (the conditions-only guess: 0.12, 0.08, 0.03, 0.01, 0.01).

Generation speed: about 160 problems/s at level 4 on this 2-core machine, 45 at level 0 (whose small grammars
are most often redrawn). Most of it is counting the
derivation trees of every length in range for the freshly drawn grammar (a memoised dynamic programme),
which picks the lengths with at least 3 strings and draws the witness uniformly; the share of constrained
strings the grammar generates is also computed, so that guessing any string that meets the constraints
does not pay.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.envs.languages._grammar import Grammar, random_grammar
from palaestra.verifiers.normalize import read_answer, strip_wrappers, unify

EXAMPLE = "abba"  # a fixed placeholder: never derived from the answer
GUESS_SHARE = 0.25  # the most of the strings meeting the conditions that the grammar may generate (when countable)
ENUMERATED = 512  # strings of the asked length, at most, for that share to be counted
MEETING_SHARE = 0.2  # the most of the grammar's derivations of the asked length whose string may meet the conditions ...
SAMPLED = 32  # ... estimated on this many drawn derivations
CANDIDATES = 6  # sets of conditions read off the witness, of which the one the fewest drawn strings meet is asked


@register
class CfgGeneration(Task):
    id = "languages/cfg_generation"
    family = "languages"
    description = "Write a string that a context-free grammar generates and that meets given constraints."
    tags = ("formal-languages", "grammar", "generation")
    version = 3  # v3: the conditions asked are met by at most a fifth of the grammar's strings of that length

    @dataclass(frozen=True)
    class Config:
        nonterminals: int
        terminals: str
        bodies: tuple[int, int]
        max_body: int
        lengths: tuple[int, int]
        constraints: int  # besides the length

    presets = (
        Config(nonterminals=2, terminals="ab", bodies=(2, 2), max_body=3, lengths=(4, 6), constraints=1),
        Config(nonterminals=3, terminals="ab", bodies=(2, 3), max_body=3, lengths=(6, 9), constraints=1),
        Config(nonterminals=3, terminals="abc", bodies=(2, 3), max_body=3, lengths=(8, 11), constraints=2),
        Config(nonterminals=4, terminals="abc", bodies=(2, 3), max_body=3, lengths=(10, 14), constraints=2),
        Config(nonterminals=5, terminals="abc", bodies=(2, 4), max_body=4, lengths=(13, 18), constraints=3),
    )
    bounded = "growing its sizes past the presets exhausts a fixed pool the generator draws from (names, letters or tables)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[Grammar, str, list[list]] | None:
            grammar = random_grammar(rng, config.nonterminals, config.terminals, config.bodies, config.max_body)
            lengths = [n for n in range(config.lengths[0], config.lengths[1] + 1) if grammar.count("S", n) >= 3]
            if not lengths:
                return None
            witness = Grammar.string(grammar.sample(rng, rng.choice(lengths)))
            drawn = (grammar.sample(rng, len(witness)) for _ in range(SAMPLED))
            samples = [Grammar.string(tree) for tree in drawn if tree]  # never None: that length has strings

            def meeting(constraints: list[list]) -> int:  # drawn strings of the grammar that meet the conditions
                return sum(all(_meets(s, c) for c in constraints) for s in samples)

            candidates = [[_constraint(rng, kind, witness, config.terminals)
                           for kind in rng.sample(["prefix", "suffix", "substring", "count"], config.constraints)]
                          for _ in range(CANDIDATES)]
            constraints = min(candidates, key=meeting)
            if meeting(constraints) > MEETING_SHARE * SAMPLED:
                return None  # most strings of the grammar meet the conditions: the conditions hardly matter
            if _generated_share(grammar, len(witness), constraints, config.terminals) > GUESS_SHARE:
                return None  # most strings meeting the conditions are in the language: the grammar hardly matters
            return grammar, witness, constraints

        grammar, witness, constraints = retry(draw, what="a grammar with several strings of a wanted length")
        wanted = "\n".join(f"- {_describe(c)}" for c in [["length", len(witness)], *constraints])
        prompt = (
            "Here is a context-free grammar. Capital letters are nonterminals, small letters are terminals, S is the "
            "start symbol, and | separates alternatives:\n\n"
            f"{grammar.text()}\n\n"
            f"Write a string that this grammar generates and that meets all of these conditions:\n{wanted}\n\n"
            f"Any such string is accepted. Give the string alone, without spaces or quotes, for example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=witness, data={
            "rules": grammar.to_json(), "length": len(witness), "constraints": constraints,
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        string = read_string(answer, problem.data["length"])
        if string is None:
            return Verdict.unparsed("expected one string of letters")
        if len(string) != problem.data["length"]:
            return Verdict.wrong(f"the string has {len(string)} letters, not {problem.data['length']}")
        for constraint in problem.data["constraints"]:
            if not _meets(string, constraint):
                return Verdict.wrong(f"the string does not meet: {_describe(constraint)}")
        grammar = Grammar(problem.data["rules"])
        return Verdict.judge(grammar.accepts(string), "the grammar does not generate the string")

    def difficulty(self, problem: Problem) -> float:
        """The string's length times the number of productions, times the number of conditions."""
        productions = sum(len(bodies) for bodies in problem.data["rules"].values())
        return float(problem.data["length"] * productions * (1 + len(problem.data["constraints"])))

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), f'"{gold}"', " ".join(gold), f"`{gold}`", f"{gold}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold = problem.answer or ""
        return [gold[:-1], gold + gold[-1], f"{gold} or {gold[::-1]}", gold.upper() + "1"]


def _generated_share(grammar: Grammar, length: int, constraints: list[list], terminals: str) -> float:
    """The share of the strings of ``length`` meeting ``constraints`` that ``grammar`` generates: what a
    guess that meets the conditions but ignores the grammar scores (0 where there are too many to count)."""
    if len(terminals) ** length > ENUMERATED:
        return 0.0
    meeting = [s for s in ("".join(t) for t in itertools.product(terminals, repeat=length))
               if all(_meets(s, c) for c in constraints)]
    return sum(grammar.accepts(s) for s in meeting) / len(meeting)


def _constraint(rng: random.Random, kind: str, witness: str, terminals: str) -> list:
    if kind == "prefix":
        return ["prefix", witness[: rng.randint(1, 2)]]
    if kind == "suffix":
        return ["suffix", witness[-rng.randint(1, 2) :]]
    if kind == "substring":
        size = rng.randint(2, 3)
        start = rng.randrange(len(witness) - size + 1)
        return ["substring", witness[start : start + size]]
    letter = rng.choice(terminals)
    return ["count", letter, witness.count(letter)]


def _describe(constraint: list) -> str:
    kind = constraint[0]
    if kind == "length":
        return f"it has exactly {constraint[1]} letters"
    if kind == "prefix":
        return f'it starts with "{constraint[1]}"'
    if kind == "suffix":
        return f'it ends with "{constraint[1]}"'
    if kind == "substring":
        return f'it contains "{constraint[1]}" somewhere'
    times = {0: "no", 1: "exactly one"}.get(constraint[2], f"exactly {constraint[2]}")
    return f'it contains {times} letter{"" if constraint[2] == 1 else "s"} "{constraint[1]}"'


def _meets(string: str, constraint: list) -> bool:
    kind = constraint[0]
    if kind == "prefix":
        return string.startswith(constraint[1])
    if kind == "suffix":
        return string.endswith(constraint[1])
    if kind == "substring":
        return constraint[1] in string
    return string.count(constraint[1]) == constraint[2]


def read_string(text: str, length: int) -> str | None:
    """One string of small letters (spaces between letters ignored), at most twice ``length`` long, or None."""
    if not isinstance(text, str) or len(text) > 4 * length + 400:
        return None

    def read(s: str) -> str | None:
        letters = "".join(s.split())
        if not letters or len(letters) > 2 * length or not letters.isascii() or not letters.isalpha():
            return None
        return letters if letters.islower() else None

    return read_answer(strip_wrappers(unify(text)), read)
