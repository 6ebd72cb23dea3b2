"""Shared pieces of the biology family: the standard genetic code (package data), complements and a
sequence reader.

The codon table ships as ``codons.json`` next to this module (the standard code, DNA letters, ``*`` for the
three stop codons), so the family runs offline and every env reads the same table.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources

from palaestra.verifiers.normalize import read_answer

CODONS: dict[str, str] = json.loads(resources.files(__package__).joinpath("codons.json").read_text("utf-8"))
STOPS = tuple(sorted(codon for codon, amino in CODONS.items() if amino == "*"))
SENSE = tuple(sorted(codon for codon, amino in CODONS.items() if amino != "*"))
START = "ATG"
# IUPAC nucleotide codes and their complements (a code stands for a set of bases; its complement for the
# complementary set): R = A/G pairs with Y = C/T, S = C/G and W = A/T are their own complements, and so on.
COMPLEMENT = {"A": "T", "T": "A", "G": "C", "C": "G", "R": "Y", "Y": "R", "S": "S", "W": "W", "K": "M",
              "M": "K", "B": "V", "V": "B", "D": "H", "H": "D", "N": "N"}
IUPAC_MEANINGS = {"R": "A or G", "Y": "C or T", "S": "C or G", "W": "A or T", "K": "G or T", "M": "A or C",
                  "B": "C, G or T", "D": "A, G or T", "H": "A, C or T", "V": "A, C or G", "N": "any base"}
MAX_SEQUENCE_CHARS = 20_000  # bounds the reader's work on a hostile answer


def reverse_complement(dna: str) -> str:
    """The reverse complement of a DNA string (IUPAC codes included)."""
    return "".join(COMPLEMENT[base] for base in reversed(dna))


def translate(dna: str) -> str:
    """The one-letter protein of whole codons of ``dna`` up to (not including) the first stop codon."""
    protein = []
    for i in range(0, len(dna) - 2, 3):
        amino = CODONS[dna[i: i + 3]]
        if amino == "*":
            break
        protein.append(amino)
    return "".join(protein)


def _letters(alphabet: str, allow_stop: bool, subjects: tuple[str, ...]) -> Callable[[str], str | None]:
    """A reader of one sequence over ``alphabet`` (case-insensitive), optionally written in groups separated by
    single spaces or hyphens (codon triplets, "M-K-L"), optionally ending in ``*`` (a stop), optionally after a
    naming sentence's subject ("The protein is"): fixed phrases the env declares, matched literally."""

    def read(text: str) -> str | None:
        s = text.strip()
        if not s or len(s) > MAX_SEQUENCE_CHARS:
            return None
        for subject in subjects:
            if s.lower().startswith(subject + " "):
                s = s[len(subject) + 1:].strip()
                break
        if s.startswith("5'-") or s.startswith("5′-"):
            s = s[3:]
            if s.endswith("-3'") or s.endswith("-3′"):
                s = s[:-3]
        for separator in (" ", "-"):
            if separator in s:
                groups = s.split(separator)
                if any(not group for group in groups):
                    return None
                s = "".join(groups)
        if allow_stop and s.endswith("*"):
            s = s[:-1]
        s = s.upper()
        return s if s and all(char in alphabet for char in s) else None

    return read


def read_sequence(answer: str, alphabet: str, *, allow_stop: bool = False, subjects: tuple[str, ...] = ()) -> str | None:
    """One sequence over ``alphabet`` read through the answer grammar (upper case), or ``None``. ``subjects`` are
    lower-case naming-sentence openings the env accepts ("the protein is")."""
    return read_answer(answer, _letters(alphabet, allow_stop, subjects))


def first_difference(written: str, expected: str) -> str:
    """Feedback naming the first position where ``written`` departs from ``expected``."""
    for position, (got, want) in enumerate(zip(written, expected), 1):
        if got != want:
            return f"letter {position} is wrong"
    return f"the answer has {len(written)} letters, the right one has {len(expected)}"
