"""Find a longest open reading frame (ATG … stop) on each strand of a DNA sequence: two labelled answers.

An open reading frame (ORF) here is a stretch that starts with ATG and runs codon by codon to the first stop
codon (TAA, TAG, TGA) in that frame, stop included, read 5'→3' on its strand. The answer names a longest ORF of
the given strand and one of its reverse complement, each after a label ("given strand: …; reverse complement: …",
on two lines or split by a semicolon or comma, in either order). The generator plants one ORF of several codons on
each strand at random places in random DNA, so both strands hold an ORF and the shortest ones (ATG + stop) never
win. Several ORFs of a strand may share its greatest length: any of them is right. The verifier does not compare
with one: for each strand it checks the answer starts with ATG, ends with its first in-frame stop, occurs on that
strand, and is as long as that strand's longest ORF (all ORFs are listed at generation by scanning from every ATG).
Both parts must be right; an unlabelled pair, a missing strand, a strand named twice or a hedge is not read.

v2 asked for one longest ORF on either strand: a scan of the given strand alone (never reading the reverse
complement) found one in 0.40-0.68 of problems at levels 0-4. v3 asks for each strand's longest, so a one-strand
scan earns 0. Reading only from each strand's first ATG (the textbook "the first ATG is the start") is defeated by
short decoy ORFs (2 to 3 + length/30 of them) planted at random places on either strand, so no rank of ATG (first,
second, last) marks the answer and every ATG must be tried.

Difficulty: the letters of both strands plus the codons the exhaustive scan reads from every ATG.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.biology.common import SENSE, START, STOPS, read_sequence, reverse_complement
from palaestra.verifiers.normalize import read_answer

# a fixed placeholder of the right shape, never the answer: each strand's planted ORF has 4+ sense codons, these 2
EXAMPLE = "given strand: ATGCCCGGGTAG; reverse complement: ATGAAATTTTGA"
SUBJECTS = ("the longest orf is", "the longest open reading frame is", "the orf is")
STRANDS = ("given strand", "reverse complement")
# the labels a careful grader reads as naming one strand (env-written, matched case-insensitively at a part's start)
_FORWARD = r"given|forward|top|sequence above|(?:5'|5′) ?(?:->|→|to) ?(?:3'|3′)"
_REVERSE = r"reverse complement|reverse|other|bottom|complementary"
_LABEL = re.compile(
    r"(?:[-*•] )?(?:\*\*)?(?:(?:the )?longest (?:orf|open reading frame) )?(?:(?:on|of|for) )?(?:the )?"
    rf"(?:(?P<forward>{_FORWARD})|(?P<reverse>{_REVERSE}))(?: strand)?(?: orf)?(?:\*\*)?\s*(?::|=|—|–|-|is)\s*"
    r"(?:\*\*)?\s*", re.IGNORECASE)


def strand_orfs(strand: str) -> tuple[list[str], int]:
    """Every ORF of one strand (read 5'→3') and the codons scanned to find them."""
    found, scanned = [], 0
    for start in range(len(strand) - 2):
        if strand[start: start + 3] != START:
            continue
        for end in range(start + 3, len(strand) - 2, 3):
            scanned += 1
            if strand[end: end + 3] in STOPS:
                found.append(strand[start: end + 3])
                break
    return found, scanned


def read_pair(text: str) -> tuple[str, str] | None:
    """The (given strand, reverse complement) ORFs of a two-part labelled answer, or ``None``: exactly one part per
    strand, each a label then one sequence; the parts on two lines or split by a semicolon or comma."""
    parts = [part.strip() for part in re.split(r"\n|;|,", text) if part.strip()]
    if len(parts) != 2:
        return None
    read: dict[str, str] = {}
    for part in parts:
        label = _LABEL.match(part[:80])
        sequence = read_sequence(part[label.end():], "ACGT", subjects=SUBJECTS) if label else None
        if label is None or sequence is None:
            return None
        read["forward" if label.group("forward") else "reverse"] = sequence
    return (read["forward"], read["reverse"]) if len(read) == 2 else None


def why_not_orf(written: str, strand: str) -> str | None:
    """Why ``written`` is not an ORF of ``strand`` (read 5'→3'), or ``None`` if it is one."""
    if not written.startswith(START):
        return "an ORF starts with the start codon ATG"
    if len(written) % 3:
        return f"{len(written)} letters is not a whole number of codons"
    if written[-3:] not in STOPS:
        return "an ORF ends with a stop codon (TAA, TAG or TGA)"
    if any(written[i: i + 3] in STOPS for i in range(0, len(written) - 3, 3)):
        return "the answer runs past an in-frame stop codon: the ORF ends at the first one"
    if written not in strand:
        return "the answer does not occur on that strand"
    return None


def labelled(forward: str, reverse: str) -> str:
    return f"{STRANDS[0]}: {forward}; {STRANDS[1]}: {reverse}"


@register
class OpenReadingFrames(Task):
    id = "biology/open_reading_frames"
    family = "biology"
    description = "Find a longest open reading frame (ATG to the first in-frame stop) on each DNA strand."
    tags = ("biology", "sequences", "algorithmic")
    version = 3  # v3: a longest ORF on each strand, labelled (v2's "either strand" paid a one-strand scan)

    @dataclass(frozen=True)
    class Config:
        length: int  # letters of random DNA around the planted ORFs
        planted: int  # most sense codons in each planted ORF

    presets = (Config(24, 5), Config(40, 7), Config(64, 9), Config(90, 12), Config(120, 15))
    growth = Growth(steps={"length": 30, "planted": 3})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def orf(most: int) -> str:
            return START + "".join(rng.choice(SENSE) for _ in range(most)) + rng.choice(STOPS)

        # one ORF of several codons per strand, so each strand's answer exists; short decoys at random places on both
        # strands, so no rank of ATG (first, second, last) marks a strand's longest ORF
        planted = [orf(rng.randint(4, config.planted)), reverse_complement(orf(rng.randint(4, config.planted)))]
        rng.shuffle(planted)
        around = "".join(rng.choice("ACGT") for _ in range(rng.randint(config.length * 3 // 4, config.length)))
        cuts = sorted(rng.randint(0, len(around)) for _ in range(2))
        sides = [around[:cuts[0]], around[cuts[0]:cuts[1]], around[cuts[1]:]]
        for _ in range(rng.randint(2, 3 + config.length // 30)):
            decoy = orf(rng.randint(0, 2))
            side = rng.randrange(3)
            at = rng.randint(0, len(sides[side]))
            sides[side] = sides[side][:at] + (decoy if rng.random() < 0.5 else reverse_complement(decoy)) + \
                sides[side][at:]
        dna = sides[0] + planted[0] + sides[1] + planted[1] + sides[2]
        forward, scanned_forward = strand_orfs(dna)
        reverse, scanned_reverse = strand_orfs(reverse_complement(dna))
        longest = [max(len(o) for o in forward), max(len(o) for o in reverse)]
        answer = labelled(*(next(o for o in orfs if len(o) == most) for orfs, most in zip((forward, reverse), longest)))
        prompt = (
            f"An open reading frame (ORF) starts with the start codon ATG and continues codon by codon up to and "
            f"including the first stop codon (TAA, TAG or TGA) in the same frame. ORFs lie on both strands: on the "
            f"sequence below (read 5'→3') and on its reverse complement (also read 5'→3').\n\n{dna}\n\n"
            f"Find a longest ORF on each strand. If several ORFs of a strand share its greatest length, give any one "
            f"of them. Answer with two labelled parts, on two lines or separated by a semicolon: each ORF's letters "
            f"from ATG through the stop codon, as read 5'→3' on its own strand, in the format (placeholder ORFs): "
            f"{EXAMPLE}"
        )
        data = {"dna": dna, "longest": longest, "scanned": scanned_forward + scanned_reverse}
        return Problem(prompt=prompt, answer=answer, data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        pair = read_answer(answer, read_pair)
        if pair is None:
            return Verdict.unparsed(f"expected one labelled ORF per strand, such as {EXAMPLE}")
        dna = problem.data["dna"]
        for name, written, strand, longest in zip(STRANDS, pair, (dna, reverse_complement(dna)),
                                                  problem.data["longest"]):
            why = why_not_orf(written, strand)
            if why is not None:
                return Verdict.wrong(f"{name}: {why}")
            if len(written) < longest:
                return Verdict.wrong(f"{name}: that is an ORF of {len(written) // 3} codons, but a longer one exists")
        return Verdict.right()

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def first_start(problem: Problem) -> str:
            """Each strand's ORF from its first ATG."""
            found = []
            for strand in (problem.data["dna"], reverse_complement(problem.data["dna"])):
                start = strand.find(START)
                ends = [end for end in range(start + 3, len(strand) - 2, 3) if strand[end: end + 3] in STOPS]
                found.append(strand[start: ends[0] + 3] if start >= 0 and ends else START)
            return labelled(*found)

        def given_strand_only(problem: Problem) -> str:
            """The longest ORF of the given strand, the reverse complement never read."""
            orfs, _ = strand_orfs(problem.data["dna"])
            return f"{STRANDS[0]}: {max(orfs, key=len)}"

        return {"from each strand's first ATG": first_start, "the given strand only": given_strand_only}

    def difficulty(self, problem: Problem) -> float:
        """Letters of both strands plus the codons scanned from every ATG."""
        return float(2 * len(problem.data["dna"]) + problem.data["scanned"])

    def _parts(self, problem: Problem) -> tuple[str, str]:
        pair = read_pair(problem.answer or "")
        assert pair is not None  # the reference is written by labelled()
        return pair

    def spellings(self, problem: Problem) -> list[str]:
        forward, reverse = self._parts(problem)
        dna = problem.data["dna"]
        grouped = " ".join(forward[i: i + 3] for i in range(0, len(forward), 3))
        others = [next((o for o in strand_orfs(strand)[0] if len(o) == len(gold) and o != gold), gold)
                  for strand, gold in ((dna, forward), (reverse_complement(dna), reverse))]  # other longest ones
        return [*super().spellings(problem), f"Given strand: {forward}\nReverse complement: {reverse}",
                f"Reverse complement: {reverse}; given strand: {forward}",
                f"forward: {grouped}\nreverse: 5'-{reverse}-3'", f"\\boxed{{{labelled(forward, reverse)}}}",
                f"Answer: {labelled(forward.lower(), reverse)}.",
                f"Longest ORF on the given strand: {forward}\nLongest ORF on the reverse complement: {reverse}",
                f"- **Top strand:** {forward}\n- **Bottom strand:** {reverse}", labelled(*others)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        forward, reverse = self._parts(problem)
        dna = problem.data["dna"]
        shorter = [o for o in strand_orfs(dna)[0] if len(o) < len(forward)]
        wrong = [f"{STRANDS[0]}: {forward}", f"{STRANDS[1]}: {reverse}", f"{forward}\n{reverse}",
                 labelled(forward[:-3], reverse), labelled(forward, reverse[3:]), labelled(forward, reverse[:-3] + "TGG"),
                 labelled(f"{forward} or {forward[:-3]}", reverse),
                 f"{STRANDS[0]}: {forward}; {STRANDS[0]}: {reverse}; {STRANDS[1]}: {reverse}",
                 *(labelled(o, reverse) for o in shorter[:2])]
        if forward not in reverse_complement(dna) or reverse not in dna:  # swapped labels name the wrong strands
            wrong.append(labelled(reverse, forward))
        return wrong
