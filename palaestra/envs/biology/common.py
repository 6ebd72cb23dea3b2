"""Shared pieces of the biology family: the standard genetic code (package data), complements and a
sequence reader.

The codon table ships as ``codons.json`` next to this module (the standard code, DNA letters, ``*`` for the
three stop codons), so the family runs offline and every env reads the same table.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from importlib import resources
from typing import ClassVar

from palaestra.core import Problem, Task, Verdict
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
# A strand between its end marks: "5'" then a hyphen or a space, the letters, and optionally a hyphen or a space then
# "3'" (prime or apostrophe); the letters inside are read by the caller's reader as before
_STRAND_ENDS = re.compile(r"5['′](?: - |-| -|- | )?([^\s'′-](?:.*?[^\s'′-])?)(?:(?: - |-| -|- | )?3['′])?", re.DOTALL)


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
    naming sentence's subject ("The protein is") or its label ("Protein:"): fixed phrases the env declares, matched
    literally; optionally between end marks ("5'-GATTACA-3'", "5' GATTACA 3'")."""

    def read(text: str) -> str | None:
        s = text.strip()
        if not s or len(s) > MAX_SEQUENCE_CHARS:
            return None
        lowered = s.lower()
        for subject in subjects:
            if lowered.startswith(subject + " "):
                s = s[len(subject) + 1:].strip()
                break
            label = _label(subject)  # "the protein is" -> "protein:", as in "Protein: MKL"
            if lowered.startswith(label):
                s = s[len(label):].strip()
                break
        ends = _STRAND_ENDS.fullmatch(s)
        if ends:  # "5'-GATTACA-3'", "5' GATTACA 3'", "5'GATTACA": the strand's ends marked
            s = ends.group(1)
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


def _label(subject: str) -> str:
    """The label form of a naming sentence's subject: "the protein sequence is" -> "protein sequence:"."""
    words = subject.split()
    if words and words[0] == "the":
        words = words[1:]
    if words and words[-1] == "is":
        words = words[:-1]
    return " ".join(words) + ":"


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


# ---- pairwise alignment (global: Needleman–Wunsch; local: Smith–Waterman), linear gap scores ----

GAP = "-"


def column_score(x: str, y: str, scoring: tuple[int, int, int]) -> int:
    """The score of one alignment column under (match, mismatch, gap)."""
    match, mismatch, gap = scoring
    if x == GAP or y == GAP:
        return gap
    return match if x == y else mismatch


def alignment_table(a: str, b: str, scoring: tuple[int, int, int], local: bool) -> list[list[int]]:
    """The dynamic-programming table: cell (i, j) is the best score of aligning a[:i] with b[:j] (global) or
    of an alignment ending there (local, floored at 0)."""
    gap = scoring[2]
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    if not local:
        for i in range(len(a) + 1):
            table[i][0] = i * gap
        for j in range(len(b) + 1):
            table[0][j] = j * gap
    for i in range(1, len(a) + 1):
        row, above = table[i], table[i - 1]
        for j in range(1, len(b) + 1):
            best = max(above[j - 1] + column_score(a[i - 1], b[j - 1], scoring), above[j] + gap, row[j - 1] + gap)
            row[j] = max(best, 0) if local else best
    return table


def best_alignment(a: str, b: str, scoring: tuple[int, int, int], local: bool,
                   prefer_gaps: bool = False) -> tuple[int, str, str]:
    """An optimal alignment (score, row of a, row of b), traced back through the table. ``prefer_gaps`` breaks
    ties towards gap columns instead of diagonal ones, which often gives another optimal alignment."""
    table = alignment_table(a, b, scoring, local)
    gap = scoring[2]
    if local:
        score, i, j = max((table[i][j], i, j) for i in range(len(a) + 1) for j in range(len(b) + 1))
    else:
        score, i, j = table[-1][-1], len(a), len(b)
    row_a: list[str] = []
    row_b: list[str] = []
    while (i or j) and not (local and table[i][j] == 0):
        diagonal = i and j and table[i][j] == table[i - 1][j - 1] + column_score(a[i - 1], b[j - 1], scoring)
        up = i and table[i][j] == table[i - 1][j] + gap
        left = j and table[i][j] == table[i][j - 1] + gap
        if diagonal and not (prefer_gaps and (up or left)):
            row_a.append(a[i - 1])
            row_b.append(b[j - 1])
            i, j = i - 1, j - 1
        elif up:
            row_a.append(a[i - 1])
            row_b.append(GAP)
            i -= 1
        else:
            row_a.append(GAP)
            row_b.append(b[j - 1])
            j -= 1
    return score, "".join(reversed(row_a)), "".join(reversed(row_b))


def _alignment_reader(alphabet: str) -> Callable[[str], tuple[str, str] | None]:
    """A reader of two gapped rows, one per line, each optionally labelled ``A:``/``B:`` (or ``A =``)."""
    allowed = set(alphabet + GAP)

    def read(text: str) -> tuple[str, str] | None:
        if len(text) > MAX_SEQUENCE_CHARS:
            return None
        lines = [line.strip() for line in text.split("\n") if line.strip()]
        if len(lines) != 2:
            return None
        rows = []
        for line, label in zip(lines, "AB"):
            for mark in (":", "="):
                if line.startswith(label) and line[1:].lstrip().startswith(mark):
                    line = line[1:].lstrip()[1:].strip()
                    break
            row = line.upper()
            if not row or any(char not in allowed for char in row):
                return None
            rows.append(row)
        return rows[0], rows[1]

    return read


def read_alignment(answer: str, alphabet: str) -> tuple[str, str] | None:
    """Two gapped rows read through the answer grammar, or ``None``."""
    return read_answer(answer, _alignment_reader(alphabet))


def why_not_alignment(rows: tuple[str, str], a: str, b: str, local: bool) -> str | None:
    """Why ``rows`` do not align ``a`` with ``b`` (all of them, or for a local alignment a stretch of each), or
    ``None`` if they do."""
    row_a, row_b = rows
    if len(row_a) != len(row_b):
        return f"the rows have {len(row_a)} and {len(row_b)} columns; an alignment's rows are equally long"
    if any(x == GAP and y == GAP for x, y in zip(row_a, row_b)):
        return "a column has a gap in both rows"
    for row, sequence, name in ((row_a, a, "A"), (row_b, b, "B")):
        letters = row.replace(GAP, "")
        if local and letters not in sequence:
            return f"the first row's letters are not a stretch of {name}" if name == "A" else \
                f"the second row's letters are not a stretch of {name}"
        if not local and letters != sequence:
            return f"removing the gaps from the {'first' if name == 'A' else 'second'} row does not give {name}"
    return None


SCORINGS = ((1, -1, -1), (1, -1, -2), (2, -1, -2), (3, -1, -2), (2, -1, -1))  # (match, mismatch, gap)


def mutate(rng: random.Random, text: str, edits: int) -> str:
    """``text`` with ``edits`` random single-base substitutions, insertions and deletions."""
    result = list(text)
    for _ in range(edits):
        kind = rng.choice(("insert", "delete", "substitute") if len(result) > 2 else ("insert", "substitute"))
        if kind == "insert":
            result.insert(rng.randint(0, len(result)), rng.choice("ACGT"))
        elif kind == "delete":
            del result[rng.randrange(len(result))]
        else:
            result[rng.randrange(len(result))] = rng.choice("ACGT")
    return "".join(result)


def scoring_text(scoring: tuple[int, int, int]) -> str:
    match, mismatch, gap = scoring
    return (f"a column of two equal bases scores {match:+d}, a column of two different bases {mismatch:+d}, and a "
            f"column with a gap ({GAP}) against a base {gap:+d}")


class AlignmentTask(Task):
    """What the global and the local alignment envs share: any optimal alignment is right.

    Subclasses set ``local`` and write ``generate`` (its problem data: ``a``, ``b``, ``scoring``, the optimal
    ``score`` and the ``edits`` that made the pair) and ``corruptions``. The verifier reads two gapped rows,
    checks they are an alignment of the pair (of stretches of it when local) and that their score is optimal.
    """

    local: ClassVar[bool] = False
    example_rows: ClassVar[str] = "ACG-TTA / ACGGT-A"

    def verify(self, problem: Problem, answer: str) -> Verdict:
        rows = read_alignment(answer, "ACGT")
        if rows is None:
            return Verdict.unparsed(f"expected two rows of bases and - gaps, one per line, such as {self.example_rows}")
        data = problem.data
        why = why_not_alignment(rows, data["a"], data["b"], local=self.local)
        if why is not None:
            return Verdict.wrong(why)
        scoring = tuple(data["scoring"])
        score = sum(column_score(x, y, scoring) for x, y in zip(*rows))  # type: ignore[arg-type]
        if score < data["score"]:
            kind = "local alignment" if self.local else "one"
            return Verdict.wrong(f"that alignment scores {score}; a higher-scoring {kind} exists")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Cells of the dynamic-programming table for the drawn pair, plus the edits that made B."""
        data = problem.data
        return float((len(data["a"]) + 1) * (len(data["b"]) + 1) + data["edits"])

    def spellings(self, problem: Problem) -> list[str]:
        data = problem.data
        row_a, row_b = (problem.answer or "").split("\n")
        _, other_a, other_b = best_alignment(data["a"], data["b"], tuple(data["scoring"]), local=self.local,  # type: ignore[arg-type]
                                             prefer_gaps=True)
        return [*super().spellings(problem), f"A: {row_a}\nB: {row_b}", f"```\n{row_a}\n{row_b}\n```",
                f"{row_a.lower()}\n{row_b.lower()}", f"{other_a}\n{other_b}", f"Answer:\n{row_a}\n{row_b}"]
