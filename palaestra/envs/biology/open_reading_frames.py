"""Find a longest open reading frame (ATG … stop) of a DNA sequence, on either strand.

An open reading frame (ORF) here is a stretch that starts with ATG and runs codon by codon to the first stop
codon (TAA, TAG, TGA) in that frame, stop included, read 5'→3' on the given strand or on its reverse
complement. The generator plants one ORF of several codons at a random place and strand in random DNA, so an
ORF always exists and the shortest ones (ATG + stop) never win. Several ORFs may share the greatest length:
any of them is right. The verifier does not compare with one: it checks the answer starts with ATG, ends with
its first in-frame stop, occurs on one of the two strands, and is as long as the longest ORF (all ORFs are
listed at generation by scanning from every ATG of both strands).

Reading only from each strand's first ATG (the textbook "the first ATG is the start") found a longest ORF in
75% of level 4 problems: the random DNA around the planted ORF rarely holds an earlier ATG. Now short ORFs
(2 to 3 + length/30 of them) are planted at random places on either strand, so no rank of ATG (first, second,
last) marks the answer and every ATG must be tried.

Difficulty: the letters of both strands plus the codons the exhaustive scan reads from every ATG.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.biology.common import SENSE, START, STOPS, read_sequence, reverse_complement

EXAMPLE = "ATGCCCGGGTAG"  # a fixed placeholder of the right shape (too short to be the answer: ORFs planted are longer)
SUBJECTS = ("the longest orf is", "the longest open reading frame is", "the orf is")


def open_reading_frames(dna: str) -> tuple[list[str], int]:
    """Every ORF of both strands (as read 5'→3' on its strand) and the codons scanned to find them."""
    found, scanned = [], 0
    for strand in (dna, reverse_complement(dna)):
        for start in range(len(strand) - 2):
            if strand[start: start + 3] != START:
                continue
            for end in range(start + 3, len(strand) - 2, 3):
                scanned += 1
                if strand[end: end + 3] in STOPS:
                    found.append(strand[start: end + 3])
                    break
    return found, scanned


def why_not_orf(written: str, dna: str) -> str | None:
    """Why ``written`` is not an ORF of ``dna`` (either strand), or ``None`` if it is one."""
    if not written.startswith(START):
        return "an ORF starts with the start codon ATG"
    if len(written) % 3:
        return f"{len(written)} letters is not a whole number of codons"
    if written[-3:] not in STOPS:
        return "an ORF ends with a stop codon (TAA, TAG or TGA)"
    if any(written[i: i + 3] in STOPS for i in range(0, len(written) - 3, 3)):
        return "the answer runs past an in-frame stop codon: the ORF ends at the first one"
    if written not in dna and written not in reverse_complement(dna):
        return "the answer does not occur on either strand of the sequence"
    return None


@register
class OpenReadingFrames(Task):
    id = "biology/open_reading_frames"
    family = "biology"
    description = "Find a longest open reading frame (ATG to the first in-frame stop) on either DNA strand."
    tags = ("biology", "sequences", "algorithmic")
    version = 2

    @dataclass(frozen=True)
    class Config:
        length: int  # letters of random DNA around the planted ORF
        planted: int  # most sense codons in the planted ORF

    presets = (Config(24, 5), Config(40, 7), Config(64, 9), Config(90, 12), Config(120, 15))
    growth = Growth(steps={"length": 30, "planted": 3})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        # short ORFs at random places on both strands, so no rank of ATG (first, second, last) marks the longest ORF,
        # the planted one or a long one of the random DNA
        orf = START + "".join(rng.choice(SENSE) for _ in range(rng.randint(4, config.planted))) + rng.choice(STOPS)
        around = "".join(rng.choice("ACGT") for _ in range(rng.randint(config.length * 3 // 4, config.length)))
        cut = rng.randint(0, len(around))
        sides = [around[:cut], around[cut:]]
        for _ in range(rng.randint(2, 3 + config.length // 30)):
            decoy = START + "".join(rng.choice(SENSE) for _ in range(rng.randint(0, 2))) + rng.choice(STOPS)
            side = rng.randrange(2)
            at = rng.randint(0, len(sides[side]))
            sides[side] = sides[side][:at] + (decoy if rng.random() < 0.5 else reverse_complement(decoy)) + \
                sides[side][at:]
        strand = sides[0] + orf + sides[1]
        dna = strand if rng.random() < 0.5 else reverse_complement(strand)
        orfs, scanned = open_reading_frames(dna)
        longest = max(len(o) for o in orfs)
        answer = next(o for o in orfs if len(o) == longest)
        prompt = (
            f"An open reading frame (ORF) starts with the start codon ATG and continues codon by codon up to and "
            f"including the first stop codon (TAA, TAG or TGA) in the same frame. ORFs may lie on either strand: "
            f"on the sequence below (read 5'→3') or on its reverse complement (also read 5'→3').\n\n{dna}\n\n"
            f"Find a longest ORF. If several have the greatest length, give any one of them. Answer with the ORF's "
            f"letters from ATG through the stop codon, as read 5'→3' on its own strand, for example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=answer, data={"dna": dna, "longest": longest, "scanned": scanned})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        written = read_sequence(answer, "ACGT", subjects=SUBJECTS)
        if written is None:
            return Verdict.unparsed("expected one ORF in DNA letters, such as ATGCCCGGGTAG")
        why = why_not_orf(written, problem.data["dna"])
        if why is not None:
            return Verdict.wrong(why)
        if len(written) < problem.data["longest"]:
            return Verdict.wrong(f"that is an ORF of {len(written) // 3} codons, but a longer one exists")
        return Verdict.right()

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def first_start(problem: Problem) -> str:
            """The longer of the two ORFs that start at each strand's first ATG."""
            best = ""
            for strand in (problem.data["dna"], reverse_complement(problem.data["dna"])):
                start = strand.find(START)
                ends = [end for end in range(start + 3, len(strand) - 2, 3) if strand[end: end + 3] in STOPS]
                if start >= 0 and ends and ends[0] + 3 - start > len(best):
                    best = strand[start: ends[0] + 3]
            return best or START

        return {"from each strand's first ATG": first_start}

    def difficulty(self, problem: Problem) -> float:
        """Letters of both strands plus the codons scanned from every ATG."""
        return float(2 * len(problem.data["dna"]) + problem.data["scanned"])

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        grouped = " ".join(gold[i: i + 3] for i in range(0, len(gold), 3))
        orfs, _ = open_reading_frames(problem.data["dna"])
        other = next((o for o in orfs if len(o) == len(gold) and o != gold), gold)  # another longest one, if any
        return [*super().spellings(problem), gold.lower(), grouped, f"5'-{gold}-3'", f"\\boxed{{{gold}}}",
                f"Answer: {gold}.", f"The longest ORF is {gold}.", other]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold, dna = problem.answer or "", problem.data["dna"]
        orfs, _ = open_reading_frames(dna)
        shorter = [o for o in orfs if len(o) < len(gold)]
        wrong = [gold[:-3], gold[3:], gold[:-3] + "TGG", f"{gold} or {gold[:-3]}", *shorter[:2]]
        return [w for w in wrong if w and w != gold]
