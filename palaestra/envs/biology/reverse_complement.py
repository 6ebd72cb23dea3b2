"""Write the reverse complement of a DNA strand.

The strand is random DNA written 5'→3'; the answer is the complementary strand, also written 5'→3' (so the
complement read backwards). From level 3 on the strand also holds IUPAC ambiguity codes (R, Y, S, W, K, M, B,
D, H, V, N); the prompt then lists each code's meaning, and a code's complement is the code for the
complementary bases (R = A/G ↔ Y = C/T, S and W their own, B ↔ V, D ↔ H, N itself). The answer is unique; the
verifier compares letter by letter and names the first wrong one, and tells the two classic slips apart
(the complement not reversed, the strand reversed but not complemented).

Difficulty: the letters complemented, with an ambiguity code counting double (it is looked up, not recalled).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.biology.common import (
    COMPLEMENT,
    IUPAC_MEANINGS,
    first_difference,
    read_sequence,
    reverse_complement,
)

EXAMPLE = "GATTACA"  # a fixed placeholder of the right shape: never derived from the answer
SUBJECTS = ("the reverse complement is", "the complementary strand is", "the reverse complement of the strand is")
BASES = "ACGT"


@register
class ReverseComplement(Task):
    id = "biology/reverse_complement"
    family = "biology"
    description = "Write the reverse complement of a DNA strand (IUPAC ambiguity codes at higher levels)."
    tags = ("biology", "sequences")

    @dataclass(frozen=True)
    class Config:
        length: int  # bases in the strand
        ambiguity: float  # chance each position holds an IUPAC ambiguity code instead of a base

    presets = (Config(8, 0.0), Config(14, 0.0), Config(22, 0.0), Config(30, 0.15), Config(40, 0.25))
    growth = Growth(steps={"length": 10})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        codes = "".join(IUPAC_MEANINGS)
        strand = "".join(rng.choice(codes) if rng.random() < config.ambiguity else rng.choice(BASES)
                         for _ in range(rng.randint(config.length * 3 // 4, config.length)))
        answer = reverse_complement(strand)
        legend = ""
        if config.ambiguity:
            meanings = "\n".join(f"{code} = {meaning}" for code, meaning in IUPAC_MEANINGS.items())
            legend = (f"\n\nThe strand uses IUPAC ambiguity codes:\n{meanings}\nThe complement of a code is the code "
                      f"for the complementary bases (for example, the complement of R is Y).")
        prompt = (
            f"Here is a DNA strand written 5'→3':\n\n{strand}{legend}\n\n"
            f"Give its reverse complement: the complementary strand, also written 5'→3'. Answer with the letters "
            f"only, for example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=answer, data={"strand": strand})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        written = read_sequence(answer, "".join(COMPLEMENT), subjects=SUBJECTS)
        if written is None:
            return Verdict.unparsed("expected one DNA strand in letters, such as GATTACA")
        strand = problem.data["strand"]
        expected = reverse_complement(strand)
        if written == expected:
            return Verdict.right()
        if written == expected[::-1] and written != expected:
            return Verdict.wrong("that is the complement read 3'→5': reverse it")
        if written == strand[::-1]:
            return Verdict.wrong("that is the strand reversed but not complemented")
        return Verdict.wrong(first_difference(written, expected))

    def difficulty(self, problem: Problem) -> float:
        """Letters complemented, an ambiguity code counting double."""
        strand = problem.data["strand"]
        return float(len(strand) + sum(base not in BASES for base in strand))

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        grouped = " ".join(gold[i: i + 3] for i in range(0, len(gold), 3))
        return [*super().spellings(problem), gold.lower(), f"5'-{gold}-3'", grouped, f"\\boxed{{{gold}}}",
                f"Answer: {gold}.", f"The reverse complement is {gold}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold, strand = problem.answer or "", problem.data["strand"]
        changed = gold[:-1] + next(b for b in BASES if b != gold[-1])
        wrong = [gold[::-1], strand[::-1], changed, gold[1:], f"{gold} or {changed}"]
        return [w for w in wrong if w != gold]
