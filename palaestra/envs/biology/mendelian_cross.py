"""Give the offspring genotype or phenotype fractions of a Mendelian cross of two or three genes.

Genes come from a fixed pool of twelve (letter and trait words each). Each gene has two alleles (upper case
dominant or, where stated, incompletely dominant: the heterozygote shows an intermediate trait); genes assort
independently. Both parents' genotypes are drawn at random (the offspring fall in at least two classes). The answer lists every genotype (or phenotype) that
occurs with its exact fraction, in any order, genes and trait words in any order; the fractions of a cross
are unique, so the verifier compares the distribution exactly (an exact decimal equal to a fraction is the
same number) and names the first class that is missing, extra or wrong.

Difficulty: the gamete pairings a Punnett square of the drawn cross fills, plus the offspring classes listed.
"""

from __future__ import annotations

import itertools
import math
import random
import re
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.verifiers.normalize import read_answer
from palaestra.verifiers.numeric import format_number, read_exact

# per gene: its letter, the dominant trait, the recessive trait, the heterozygote's trait under incomplete dominance
GENES = (
    ("T", "tall", "short", "medium"),
    ("P", "purple", "white", "lavender"),
    ("R", "round", "wrinkled", "dimpled"),
    ("Y", "yellow", "green", "lime"),
    ("B", "black", "brown", "dun"),
    ("H", "hairy", "bald", "downy"),
    ("S", "smooth", "rough", "ridged"),
    ("W", "winged", "wingless", "stubby"),
    ("C", "curly", "straight", "wavy"),
    ("G", "glossy", "matte", "satin"),
    ("N", "narrow", "broad", "oval"),
    ("V", "velvety", "waxy", "silky"),
)
TRAITS = {trait: gene for gene, *traits in GENES for trait in traits}
MAX_ENTRIES = 100
MAX_ENTRY_CHARS = 200  # one class and its fraction: bounds the reader's work on a hostile answer


def gene_offspring(first: str, second: str) -> dict[str, Fraction]:
    """Offspring genotype fractions of one gene (genotypes written upper case first)."""
    result: dict[str, Fraction] = {}
    for x, y in itertools.product(first, second):
        genotype = "".join(sorted(x + y))  # "A" sorts before "a"
        result[genotype] = result.get(genotype, Fraction(0)) + Fraction(1, 4)
    return result


def phenotype(genotype: str, gene: tuple[str, str, str, str], incomplete: bool) -> str:
    _, dominant, recessive, middle = gene
    if genotype.islower():
        return recessive
    return middle if incomplete and genotype[1].islower() else dominant


def canonical_genotype(text: str, letters: str) -> str | None:
    """``AaBb``-style text with each gene's two letters once, in any gene order, as ``AaBb`` (gene order
    A, B, C, upper case first), or ``None``. The genes may be written apart (``Aa Bb``), each a pair of one letter."""
    chunks = text.split()
    if len(chunks) == len(letters) > 1 and all(len(c) == 2 and c[0].upper() == c[1].upper() for c in chunks):
        text = "".join(chunks)
    if len(text) != 2 * len(letters) or not text.isalpha():
        return None
    genes = []
    for letter in letters:
        pair = [c for c in text if c.upper() == letter]
        if len(pair) != 2:
            return None
        genes.append("".join(sorted(pair)))
    return "".join(genes)


def canonical_phenotype(text: str, letters: str) -> str | None:
    """Trait words (one per gene, any order, spaces, commas or hyphens between) in gene order, or ``None``."""
    words = text.replace(",", " ").replace("-", " ").lower().split()
    if len(words) != len(letters) or any(w not in TRAITS for w in words):
        return None
    by_gene = {TRAITS[w]: w for w in words}
    if sorted(by_gene) != sorted(letters):
        return None
    return " ".join(by_gene[letter] for letter in letters)


# an entry separator after a fraction: "tall: 1/2, short: 1/2" (a comma inside a class, "tall, purple", has no
# digit before it)
_COMMA_AFTER_NUMBER = re.compile(r"(?<=[\d%])\s*,\s+")
_TABLE_RULE = re.compile(r"[|:\s-]+")


def _fraction(text: str) -> Fraction | None:
    """An exact number, or an exact percentage (``37.5%`` is 3/8)."""
    text = text.strip().rstrip(",").strip()
    if text.endswith("%"):
        value = read_exact(text[:-1].strip())
        return None if value is None else value / 100
    return read_exact(text)


def _entry(entry: str, canonical) -> tuple[str, Fraction] | None:  # type: ignore[no-untyped-def]
    """One ``class: fraction`` entry (also ``class = fraction``, ``| class | fraction |``, ``fraction class`` and
    ``class (fraction)``) as (canonical class, fraction), or ``None``."""
    if len(entry) > MAX_ENTRY_CHARS:
        return None
    if entry.startswith("|") and entry.endswith("|"):
        cells = [cell.strip() for cell in entry.strip("|").split("|")]
        if len(cells) != 2:
            return None
        entry = f"{cells[0]}: {cells[1]}"
    name, colon, value = entry.rpartition(":")
    if not colon:
        name, colon, value = entry.rpartition("=")
    if not colon and entry.endswith(")") and "(" in entry:
        name, colon, value = entry[:-1].rpartition("(")
    if not colon and " " in entry:
        value, colon, name = entry.partition(" ")
    if not colon:
        return None
    label = canonical(name.strip().strip("*`").strip())
    fraction = _fraction(value)
    return None if label is None or fraction is None else (label, fraction)


def read_distribution(answer: str, canonical) -> dict[str, Fraction] | None:  # type: ignore[no-untyped-def]
    """``class: fraction`` entries (lines, or separated by ``;`` or by commas after the fractions; or the rows of a
    table, its header aside) read into a distribution, or ``None``."""
    if not isinstance(answer, str) or len(answer) > MAX_ENTRIES * MAX_ENTRY_CHARS:
        return None

    def read(text: str) -> dict[str, Fraction] | None:
        if text.count("\n") + text.count(";") + text.count(",") > 4 * MAX_ENTRIES:  # not split a megabyte
            return None
        entries = [e.strip() for line in text.replace(";", "\n").split("\n")
                   for e in _COMMA_AFTER_NUMBER.split(line) if e.strip()]
        if len(entries) > 2 and entries[0].startswith("|") and _TABLE_RULE.fullmatch(entries[1]):
            entries = entries[2:]  # a table's header and its rule
        if not entries or len(entries) > MAX_ENTRIES:
            return None
        result: dict[str, Fraction] = {}
        for entry in entries:
            read_entry = _entry(entry, canonical)
            if read_entry is None or read_entry[0] in result:
                return None
            result[read_entry[0]] = read_entry[1]
        return result

    return read_answer(answer, read)


@register
class MendelianCross(Task):
    id = "biology/mendelian_cross"
    family = "biology"
    description = "Give the exact offspring genotype or phenotype fractions of a cross of two or three genes."
    tags = ("biology", "genetics", "probability")
    version = 2  # twelve genes, not eight: level 1 repeated 6% of its problems in 1,000 seeds
    bounded = "at most three genes: a fourth lists up to 81 genotype classes, a table to copy rather than a skill"

    @dataclass(frozen=True)
    class Config:
        genes: int  # genes in the cross (2-3), drawn from GENES
        incomplete: float  # chance each gene shows incomplete dominance
        heterozygous: float  # chance each parent is heterozygous at each gene (else a random homozygote)

    presets = (Config(2, 0.0, 0.4), Config(2, 0.4, 0.5), Config(3, 0.0, 0.5), Config(3, 0.3, 0.6), Config(3, 0.6, 0.7))

    def space_size(self, level: int) -> int | None:
        """Level 0 (two genes, complete dominance) is small: every pair of genes, every parents' genotypes at each
        gene, asked as genotypes or as phenotypes, whose offspring fall in at least two classes."""
        if level != 0:
            return None
        first, second = GENES[0], GENES[1]
        shapes = ("XX", "Xx", "xx")
        crosses = 0
        for ask_genotypes in (True, False):
            for a, b, c, d in itertools.product(shapes, repeat=4):
                classes = set()
                for gene, (mother, father) in ((first, (a, b)), (second, (c, d))):
                    mother, father = (s.replace("X", gene[0]).replace("x", gene[0].lower()) for s in (mother, father))
                    labels = {g if ask_genotypes else phenotype(g, gene, False) for g in gene_offspring(mother, father)}
                    classes.add(len(labels))
                crosses += max(classes) > 1
        return math.comb(len(GENES), self.presets[0].genes) * crosses

    def generate(self, rng: random.Random, config: Config) -> Problem:
        genes = sorted(rng.sample(GENES, config.genes))
        incomplete = [rng.random() < config.incomplete for _ in genes]
        ask_genotypes = rng.random() < 0.5

        def genotype_of(gene: tuple[str, str, str, str]) -> str:
            shape = "Xx" if rng.random() < config.heterozygous else rng.choice(("XX", "xx"))
            return shape.replace("X", gene[0]).replace("x", gene[0].lower())

        def draw() -> tuple[list[tuple[str, str]], dict[str, Fraction]]:
            parents = [(genotype_of(g), genotype_of(g)) for g in genes]
            return parents, offspring(parents)

        def offspring(parents: list[tuple[str, str]]) -> dict[str, Fraction]:
            distribution: dict[str, Fraction] = {"": Fraction(1)}
            for gene, (first, second), partial in zip(genes, parents, incomplete):
                per_gene: dict[str, Fraction] = {}
                for genotype, share in gene_offspring(first, second).items():
                    label = genotype if ask_genotypes else phenotype(genotype, gene, partial)
                    per_gene[label] = per_gene.get(label, Fraction(0)) + share
                distribution = {
                    (f"{k}{g}" if ask_genotypes else f"{k} {g}".strip()): v * w
                    for k, v in distribution.items()
                    for g, w in per_gene.items()
                }
            return distribution

        # at least two classes: a cross whose offspring are all alike is a lookup, not a cross
        parents, distribution = retry(draw, lambda drawn: len(drawn[1]) > 1, what="a segregating cross")
        rules = "\n".join(
            f"Gene {g[0]}: {g[0]}{g[0]} is {g[1]}, {g[0]}{g[0].lower()} is {g[3]} (incomplete dominance), "
            f"{g[0].lower()}{g[0].lower()} is {g[2]}."
            if partial
            else f"Gene {g[0]}: allele {g[0]} ({g[1]}) is completely dominant over {g[0].lower()} ({g[2]})."
            for g, partial in zip(genes, incomplete)
        )
        mother = "".join(p[0] for p in parents)
        father = "".join(p[1] for p in parents)
        if ask_genotypes:
            what, example = "genotype", "EeFf: 1/4\neeff: 1/8"
        else:
            what, example = "phenotype (its trait words, one per gene)", "spotted tufted: 3/8\nplain bare: 1/8"
        prompt = (
            f"{rules}\n{'The genes assort independently. ' if len(genes) > 1 else ''}"
            f"Two parents are crossed: {mother} × {father}.\n\n"
            f"For the offspring, give the fraction with each {what} that occurs: one line per class, the class, "
            f"a colon, and its exact fraction, in any order. For example (not this cross):\n{example}"
        )
        answer = "\n".join(f"{k}: {format_number(v)}" for k, v in sorted(distribution.items()))
        pairings = 1
        for first, second in parents:
            pairings *= len(set(first)) * len(set(second))
        return Problem(
            prompt=prompt,
            answer=answer,
            data={
                "genotypes": ask_genotypes,
                "letters": "".join(g[0] for g in genes),
                "pairings": pairings,
                "distribution": {k: format_number(v) for k, v in distribution.items()},
            },
        )

    def _canonical(self, problem: Problem):  # type: ignore[no-untyped-def]
        letters = problem.data["letters"]
        if problem.data["genotypes"]:
            return lambda text: canonical_genotype(text, letters)
        return lambda text: canonical_phenotype(text, letters)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        written = read_distribution(answer, self._canonical(problem))
        if written is None:
            return Verdict.unparsed("expected lines such as AaBb: 1/4 (or tall purple: 3/8), one class per line")
        expected = {k: Fraction(v) for k, v in problem.data["distribution"].items()}
        for label, share in expected.items():
            if label not in written:
                return Verdict.wrong(f"{label} occurs among the offspring but is not listed")
            if written[label] != share:
                return Verdict.wrong(f"the fraction for {label} is wrong")
        extra = next(iter(set(written) - set(expected)), None)
        if extra is not None:
            return Verdict.wrong(f"{extra} does not occur among the offspring of this cross")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Gamete pairings of the drawn cross's Punnett square, plus the offspring classes."""
        return float(problem.data["pairings"] + len(problem.data["distribution"]) + len(problem.data["letters"]))

    def spellings(self, problem: Problem) -> list[str]:
        lines = (problem.answer or "").split("\n")
        decimals = [
            f"{k}: {Fraction(v).numerator / Fraction(v).denominator:g}"
            for k, v in sorted(problem.data["distribution"].items())
        ]
        exact_decimals = [
            d
            for d in decimals
            if read_exact(d.rpartition(":")[2].strip()) is not None
            and read_exact(d.rpartition(":")[2].strip()) == Fraction(problem.data["distribution"][d.rpartition(":")[0]])
        ]
        reordered = [
            " ".join(reversed(line.partition(":")[0].split())) + ":" + line.partition(":")[2]
            if not problem.data["genotypes"]
            else line[2:4] + line[:2] + line[4:]
            if len(problem.data["letters"]) > 1
            else line
            for line in lines
        ]
        out = [
            *super().spellings(problem),
            "\n".join(reversed(lines)),
            "; ".join(lines),
            "\n".join(reordered),
            f"Answer:\n{problem.answer}",
        ]
        if problem.data["genotypes"] and len(problem.data["letters"]) > 1:  # genes written apart: Aa Bb: 1/4
            out.append(
                "\n".join(
                    " ".join(re.findall("..", line.partition(":")[0])) + ":" + line.partition(":")[2] for line in lines
                )
            )
        if len(exact_decimals) == len(lines):
            out.append("\n".join(exact_decimals))
        return out

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        lines = (problem.answer or "").split("\n")
        first, _, share = lines[0].partition(": ")
        doubled = format_number(2 * Fraction(share))
        wrong = [
            "\n".join(lines[1:]),
            "\n".join([f"{first}: {doubled}", *lines[1:]]),
            f"{problem.answer}\n{lines[0]}",
            f"{problem.answer}\nor\n{lines[0]}",
        ]
        return [w for w in wrong if w.strip() and not self.verify(problem, w).correct]
