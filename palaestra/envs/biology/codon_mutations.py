"""Classify point mutations of a coding sequence: silent, missense, nonsense, frameshift or in-frame.

A coding DNA sequence (start codon ATG, sense codons, one stop codon at the end) is shown in the numbered
blocks of ten that sequence records use, with a list of mutations, each applied alone to the original:
substitutions (``position 14: G>A``), deletions of one or more consecutive bases and insertions after a
position. Every mutation lies strictly between the start and the stop codon. The categories, as the prompt
defines them:

- silent: a substitution whose codon still codes the same amino acid;
- missense: a substitution that changes the amino acid;
- nonsense: a substitution that turns a sense codon into a stop codon;
- frameshift: an insertion or deletion of a number of bases that is not a multiple of 3;
- in-frame: an insertion or deletion of a multiple of 3 bases (drawn so that it never creates a stop codon).

The category of each mutation follows from the standard code (shipped with the family), so the answer is
unique; categories are drawn evenly per mutation, so no constant labelling passes. Silent and missense
substitutions (v3) lie at a codon's first or third base, by a coin drawn before the base, with the same kinds of
change on both sides (at a first base C<->T or A<->C, the only first-base changes that can be silent, as CTA>TTA; at
a third base transversions), and sequences are kept only when all four (class, position) pools are open, before any
label is drawn: so neither the position nor the kind of change tells silent from missense. v2 drew half of them
against the third-position shortcut (its silent ones at a first base, missense ones at a third), which left "first base silent, second missense,
third silent" solving 43/54/39/43/23% of levels 0-4 (chance, a coin per silent-or-missense mutation after spotting
stops and indel lengths: 28/41/32/28/16%); v3: every position rule and the change-kind rule within 5 points of
chance (200 seeds a level). The second base never carries a silent or missense change (none is silent).
Answers are one label per mutation name (``M1: missense``), read by the shared assignment reader with the usual synonyms (synonymous,
frame-shift); the feedback names the first wrong label.

Difficulty: the substitutions (a codon to translate twice), the indels, and the sequence's codons.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.biology.common import CODONS, SENSE, START, STOPS
from palaestra.verifiers.assignments import read_values

BASES = "ACGT"
SUBSTITUTIONS = ("silent", "missense", "nonsense")
INDELS = ("frameshift", "in-frame")
SYNONYMS = {"silent": ("silent", "synonymous", "same-sense", "samesense"),
            "missense": ("missense", "mis-sense", "non-synonymous", "nonsynonymous"),
            "nonsense": ("nonsense", "non-sense"),
            "frameshift": ("frameshift", "frame-shift", "frame shift"),
            "in-frame": ("in-frame", "inframe", "in frame", "in-frame indel", "in-frame deletion",
                         "in-frame insertion")}
_LABELS = {spelling: label for label, spellings in SYNONYMS.items() for spelling in spellings}
# "M1 - nonsense", "M2 – silent": a dash set off by spaces between a mutation's name and its class, read as ":"
_DASHED = re.compile(r"(?<![\w-])(M\d{1,3}) ?[-–—] (?=\S)")
MAX_ANSWER_CHARS = 4_000


def read_label(text: str) -> str | None:
    """One category word, optionally followed by "mutation" (any case); None for anything else."""
    s = text.strip().strip("*").strip().lower().rstrip(".").strip()
    if s.endswith(" mutation"):
        s = s[: -len(" mutation")].strip()
    return _LABELS.get(s)


def blocks(dna: str) -> str:
    """The sequence in numbered lines of six blocks of ten bases, as sequence records print it."""
    lines = []
    for start in range(0, len(dna), 60):
        chunk = dna[start: start + 60]
        lines.append(f"{start + 1:>5} " + " ".join(chunk[i: i + 10] for i in range(0, len(chunk), 10)))
    return "\n".join(lines)


def _substitution_label(dna: str, position: int, base: str) -> str:
    """The category of replacing the base at 1-based ``position`` (not in the start or stop codon)."""
    index = position - 1
    codon_start = index - index % 3
    old = dna[codon_start: codon_start + 3]
    new = old[: index % 3] + base + old[index % 3 + 1:]
    if CODONS[new] == "*":
        return "nonsense"
    return "silent" if CODONS[new] == CODONS[old] else "missense"


def _no_early_stop(dna: str) -> bool:
    """Whether the sequence's only stop codon in frame is its last codon."""
    return len(dna) % 3 == 0 and all(CODONS[dna[i: i + 3]] != "*" for i in range(0, len(dna) - 3, 3))


# The base changes drawn for silent and missense substitutions at each codon position (v3): at a first base only
# C<->T and A<->C (the only first-base changes that can be silent: CTA<->TTA, CGA<->AGA), at a third base only
# transversions (a third-base transition is silent in every two-fold box), so the change's kind tells nothing.
PLACE_CHANGES = {1: {frozenset("CT"), frozenset("AC")},
                 0: {frozenset("AC"), frozenset("AT"), frozenset("CG"), frozenset("GT")}}


def _placed(dna: str, pool: list[tuple[int, str]], place: int) -> list[tuple[int, str]]:
    """The substitutions of ``pool`` at codon position ``place`` (1 the first base, 0 the third) whose change is
    one of that position's drawn kinds."""
    return [(p, b) for p, b in pool if p % 3 == place and frozenset(dna[p - 1] + b) in PLACE_CHANGES[place]]


@register
class CodonMutations(Task):
    id = "biology/codon_mutations"
    family = "biology"
    description = "Classify point mutations of a coding sequence (silent, missense, nonsense, frameshift, in-frame)."
    tags = ("biology", "science", "strings")
    version = 3

    @dataclass(frozen=True)
    class Config:
        codons: int  # sense codons after the start codon
        mutations: int
        indels: bool  # whether insertions and deletions are drawn

    presets = (Config(8, 3, False), Config(12, 4, True), Config(18, 5, True), Config(25, 6, True),
               Config(35, 8, True))
    growth = Growth(steps={"codons": 10, "mutations": 2})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        return retry(lambda: self._draw(rng, config), lambda p: p is not None, attempts=100,
                     what="a sequence with every drawn category")

    def _draw(self, rng: random.Random, config: Config) -> Problem | None:
        dna = START + "".join(rng.choice(SENSE) for _ in range(config.codons)) + rng.choice(STOPS)
        first, last = 4, len(dna) - 3  # positions strictly between the start and the stop codon
        by_label: dict[str, list[tuple[int, str]]] = {label: [] for label in SUBSTITUTIONS}
        for position in range(first, last + 1):
            for base in BASES:
                if base != dna[position - 1]:
                    by_label[_substitution_label(dna, position, base)].append((position, base))
        if any(not _placed(dna, by_label[label], place) for label in ("silent", "missense") for place in (1, 0)):
            return None  # drawn before the labels, so that the labels never steer which sequences are kept
        categories = SUBSTITUTIONS + (INDELS if config.indels else ())
        mutations: list[dict[str, object]] = []
        seen: set[str] = set()
        for _ in range(config.mutations):
            label = rng.choice(categories)
            if label == "nonsense" and not by_label[label]:
                return None  # no codon of this sequence is one substitution from a stop
            # silent and missense: the first or the third base of a codon, as a coin says (v3), never redrawn
            place = rng.choice((1, 0)) if label in ("silent", "missense") else None
            drawn = [self._mutation(rng, dna, label, by_label, first, last, place) for _attempt in range(20)]
            text = next((t for t in drawn if t is not None and t not in seen), None)
            if text is None:
                return None
            seen.add(text)
            mutations.append({"name": f"M{len(mutations) + 1}", "text": text, "label": label})
        listing = "\n".join(f"{m['name']}: {m['text']}" for m in mutations)
        example = ", ".join(f"M{i + 1}: silent" for i in range(min(2, len(mutations))))
        prompt = (
            f"This coding DNA sequence (5'->3', the sense strand) starts with the start codon at position 1 and "
            f"ends with a stop codon; positions are numbered from 1:\n\n{blocks(dna)}\n\n"
            f"Each mutation below is applied on its own to this original sequence:\n{listing}\n\n"
            "Classify each mutation with the standard genetic code as one of: silent (a substitution coding the "
            "same amino acid), missense (a substitution changing the amino acid), nonsense (a substitution making "
            "a stop codon), frameshift (an insertion or deletion of a number of bases that is not a multiple of 3) "
            "or in-frame (an insertion or deletion of a multiple of 3 bases).\n\n"
            f"Answer with one line per mutation, its name and its class, for example: {example}"
        )
        answer = "\n".join(f"{m['name']}: {m['label']}" for m in mutations)
        return Problem(prompt=prompt, answer=answer,
                       data={"dna": dna, "mutations": mutations})

    @staticmethod
    def _mutation(rng: random.Random, dna: str, label: str, by_label: dict[str, list[tuple[int, str]]],
                  first: int, last: int, place: int | None = None) -> str | None:
        """A mutation of the category ``label`` in words, or None when the draw failed (an early stop, or no
        substitution of the category at the codon position ``place``: 1 the first base, 0 the third)."""
        if label in SUBSTITUTIONS:
            pool = by_label[label] if place is None else _placed(dna, by_label[label], place)
            if not pool:
                return None
            position, base = rng.choice(pool)
            return f"substitution at position {position}: {dna[position - 1]}>{base}"
        size = 3 * rng.randint(1, 2) if label == "in-frame" else rng.choice((1, 1, 2, 4, 5))
        if rng.random() < 0.5:
            start = rng.randint(first, last - size + 1)
            mutated = dna[: start - 1] + dna[start - 1 + size:]
            span = f"position {start}" if size == 1 else f"positions {start}-{start + size - 1}"
            text = f"deletion of {span} ({dna[start - 1: start - 1 + size]})"
        else:
            after = rng.randint(first, last - 1)
            inserted = "".join(rng.choice(BASES) for _ in range(size))
            mutated = dna[:after] + inserted + dna[after:]
            text = f"insertion of {inserted} after position {after}"
        return None if label == "in-frame" and not _no_early_stop(mutated) else text

    def verify(self, problem: Problem, answer: str) -> Verdict:
        mutations = problem.data["mutations"]
        names = [m["name"] for m in mutations]
        given = read_values(answer, names, read_label) if isinstance(answer, str) else None
        if given is None and isinstance(answer, str) and len(answer) <= MAX_ANSWER_CHARS:
            given = read_values(_DASHED.sub(r"\1: ", answer), names, read_label)
        if given is None:
            return Verdict.unparsed("expected one class per mutation, such as M1: missense, M2: frameshift")
        for mutation in mutations:
            if given[mutation["name"]] != mutation["label"]:
                return Verdict.wrong(f"{mutation['name']} ({mutation['text']}) is not {given[mutation['name']]}")
        return Verdict.right()

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def rule(guess: Callable[[int, str, str], str]) -> Callable[[Problem], str]:
            """Indels by their length; a substitution making a stop is nonsense, else ``guess(position, old base,
            new base)`` (no code table read)."""

            def play(problem: Problem) -> str:
                dna, lines = problem.data["dna"], []
                for mutation in problem.data["mutations"]:
                    text = str(mutation["text"])
                    if text.startswith("substitution"):
                        position, base = int(text.split("position ")[1].split(":")[0]), text[-1]
                        start = (position - 1) // 3 * 3
                        codon = (dna[:position - 1] + base + dna[position:])[start:start + 3]
                        label = "nonsense" if codon in STOPS else guess(position, dna[position - 1], base)
                    else:  # "deletion of positions 4-6 (ACG)" or "insertion of ACG after position 9"
                        bases = text.split("(")[1].rstrip(")") if "(" in text else text.split()[2]
                        label = "in-frame" if len(bases) % 3 == 0 else "frameshift"
                    lines.append(f"{mutation['name']}: {label}")
                return "\n".join(lines)

            return play

        def by_change(position: int, old: str, new: str) -> str:
            change = frozenset(old + new)
            if position % 3 == 0:
                return "silent" if change in (frozenset("AG"), frozenset("CT")) else "missense"
            return "silent" if position % 3 == 1 and change in (frozenset("CT"), frozenset("AC")) else "missense"

        return {"third position silent, else missense":
                    rule(lambda position, old, new: "silent" if position % 3 == 0 else "missense"),
                "first position silent, else missense":
                    rule(lambda position, old, new: "silent" if position % 3 == 1 else "missense"),
                "silent where the change can be (a third-base transition; C<->T or A<->C at a first base)":
                    rule(by_change)}

    def difficulty(self, problem: Problem) -> float:
        """Substitutions weigh 2 (a codon read and translated twice), indels 1, plus the codons over ten."""
        mutations = problem.data["mutations"]
        substitutions = sum(m["label"] in SUBSTITUTIONS for m in mutations)
        return float(2 * substitutions + (len(mutations) - substitutions) + len(problem.data["dna"]) / 30)

    def spellings(self, problem: Problem) -> list[str]:
        mutations = problem.data["mutations"]
        synonym = {"silent": "synonymous", "missense": "missense mutation", "nonsense": "Nonsense",
                   "frameshift": "frame-shift", "in-frame": "in frame"}
        return [*super().spellings(problem),
                ", ".join(f"{m['name']} = {m['label']}" for m in mutations),
                "\n".join(f"{m['name']}: {synonym[m['label']]}" for m in reversed(mutations)),
                "Answer:\n" + "\n".join(f"{m['name']} -> {m['label']}" for m in mutations) + "."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        mutations = problem.data["mutations"]
        swap = {"silent": "missense", "missense": "silent", "nonsense": "missense", "frameshift": "in-frame",
                "in-frame": "frameshift"}
        wrong = []
        for index in range(len(mutations)):
            labels = [swap[m["label"]] if i == index else m["label"] for i, m in enumerate(mutations)]
            wrong.append("\n".join(f"{m['name']}: {label}" for m, label in zip(mutations, labels, strict=True)))
        wrong.append("\n".join(f"{m['name']}: {m['label']}" for m in mutations[:-1]))  # one left out
        return wrong
