"""Translate a generated mRNA or DNA strand into its protein with the standard genetic code.

The sequence holds one coding region: a start codon, random sense codons, a stop codon, with random
untranslated letters around it. Low levels give an mRNA and the start's position; middle levels the DNA
coding strand; top levels give the strand without the start's position (translation begins at the first
AUG/ATG, which the generator makes the only one before the coding region) and then the template strand (so
the reader first takes the reverse complement). The prompt states the reading rule, the code (the table is
printed), one-letter amino-acid codes and that the stop codon is not written, so the protein is unique; the
verifier compares it letter by letter and names the first wrong one.

Version 2: the letters after the stop codon were often fewer than a codon, so translating every codon and skipping
the stops (ignoring "up to the first stop codon") was right on 0.48 / 0.25 / 0.33 of levels 1-3 (40 seeds); a
whole codon now always follows the stop where the level has a flank: 0.05 / 0 / 0.03 (where that codon is itself
a stop; level 0 has no flank, its sequence ends with the stop).

Difficulty: the codons translated, plus the letters scanned to find the start and, for a template strand,
the letters complemented.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.biology.common import (
    CODONS,
    SENSE,
    START,
    STOPS,
    first_difference,
    read_sequence,
    reverse_complement,
    translate,
)

EXAMPLE = "MSTRG"  # a fixed placeholder of the right shape: never derived from the answer
AMINO_ACIDS = "ACDEFGHIKLMNPQRSTVWY"
SUBJECTS = ("the protein is", "the protein sequence is", "the amino acid sequence is", "the peptide is")
MODES = ("mrna", "coding", "coding_scan", "template_scan")


def codon_table(rna: bool) -> str:
    """The standard code printed compactly, one amino acid per line with its codons."""
    by_amino: dict[str, list[str]] = {}
    for codon, amino in CODONS.items():
        by_amino.setdefault(amino, []).append(codon.replace("T", "U") if rna else codon)
    lines = [f"{amino if amino != '*' else 'stop'}: {' '.join(codons)}" for amino, codons in sorted(by_amino.items())]
    return "\n".join(lines)


@register
class Translation(Task):
    id = "biology/translation"
    family = "biology"
    description = "Translate an mRNA or DNA strand into its protein with the standard genetic code."
    tags = ("biology", "sequences")
    version = 2  # v2: a whole codon always follows the stop where there is a flank

    @dataclass(frozen=True)
    class Config:
        codons: int  # most sense codons after the start codon (at least two thirds as many)
        flank: int  # most untranslated letters on either side of the coding region
        mode: str  # one of MODES: what is given and whether the start's position is stated

    presets = (Config(4, 0, "mrna"), Config(7, 6, "mrna"), Config(10, 9, "coding"), Config(14, 12, "coding_scan"),
               Config(18, 15, "template_scan"))
    growth = Growth(steps={"codons": 4, "flank": 3})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def leader() -> str:
            return "".join(rng.choice("ACGT") for _ in range(rng.randint(config.flank // 2, config.flank)))

        # the only ATG before the coding region is its start, so "the first ATG" names it (an ATG cannot overlap
        # the leader's end and the start: ATGATG has no ATG straddling the join)
        lead = retry(leader, lambda s: START not in s,
                     what="a leader without a start codon")
        codons = rng.randint(max(2, config.codons * 2 // 3), config.codons)
        body = START + "".join(rng.choice(SENSE) for _ in range(codons)) + rng.choice(STOPS)
        # at least one whole codon after the stop (where there is a flank), so reading on past the stop is wrong
        trail = "".join(rng.choice("ACGT") for _ in range(rng.randint(min(3, config.flank), config.flank)))
        coding = lead + body + trail
        protein = translate(body)
        rna = config.mode == "mrna"
        shown = coding.replace("T", "U") if rna else coding
        if config.mode == "template_scan":
            shown = reverse_complement(coding)
            given = (f"This is the template (non-coding) strand of a gene's DNA, written 5'→3'; the mRNA is "
                     f"complementary to it:\n\n{shown}\n\nTranslation starts at the first ATG of the coding strand "
                     f"(the first AUG of the mRNA)")
        elif config.mode == "coding_scan":
            given = (f"This is the coding strand of a gene's DNA, written 5'→3' (it reads like the mRNA, with T "
                     f"for U):\n\n{shown}\n\nTranslation starts at the first ATG")
        else:
            strand = "mRNA" if rna else "coding strand of a gene's DNA, written 5'→3' (it reads like the mRNA, with T for U)"
            given = (f"This is the {strand}:\n\n{shown}\n\nTranslation starts at the start codon "
                     f"{'AUG' if rna else 'ATG'} at position {len(lead) + 1} (positions count from 1)")
        prompt = (
            f"{given} and continues codon by codon in that reading frame up to the first stop codon.\n\n"
            f"The standard genetic code{' (RNA codons)' if rna else ' (DNA codons)'}:\n{codon_table(rna)}\n\n"
            f"Give the protein in one-letter amino-acid codes from the start codon's amino acid on, without writing "
            f"the stop codon. For example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=protein,
                       data={"sequence": shown, "mode": config.mode, "leader": len(lead), "protein": protein})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        written = read_sequence(answer, AMINO_ACIDS, allow_stop=True, subjects=SUBJECTS)
        if written is None:
            return Verdict.unparsed("expected one protein in one-letter codes, such as MSTRG")
        protein = problem.data["protein"]
        if written != protein:
            return Verdict.wrong(first_difference(written, protein))
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Codons translated, plus letters scanned for the start and letters complemented."""
        data = problem.data
        scanned = data["leader"] if data["mode"].endswith("scan") else 0
        complemented = len(data["sequence"]) if data["mode"] == "template_scan" else 0
        return float(3 * (len(data["protein"]) + 1) + scanned + complemented)

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), gold.lower(), f"{gold}*", "-".join(gold), f"\\boxed{{{gold}}}",
                f"Answer: {gold}.", f"The protein is {gold}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold = problem.answer or ""
        swapped = gold[:-1] + next(a for a in AMINO_ACIDS if a != gold[-1])
        # the classic slips: dropping the start's Met, reading past the stop, one codon misread, stopping early
        return [gold[1:], gold + "W", swapped, f"{gold} or {gold[:-1]}", gold[:-1]]
