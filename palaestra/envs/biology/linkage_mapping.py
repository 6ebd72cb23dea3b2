"""Linkage mapping from a testcross: the gene order and the map distances between neighbouring genes.

A fly heterozygous for linked genes (each allele either wild type ``+`` or the mutant, named by the gene's
letter) is testcrossed to a homozygous recessive; the prompt lists the offspring classes (the heterozygote's
gametes, genes written in alphabetical order, not map order) with their counts. The phase of the
heterozygote is not given: the parental classes are the two most frequent. Counts come from a crossover
model along the true map (recombination fractions 4-25% per interval), with sampling noise, so double and
higher crossovers are the rarest classes.

The answer is the map: the genes in order with the distance between each neighbouring pair in cM, the
percentage of offspring recombinant between the two genes (double crossovers counted), e.g.
``b 12.5 a 8.25 d`` (the reverse order reads the same map). Distances are exact rationals from the counts and
accepted rounded to two decimal places (within 0.005 cM), as the prompt states.

Uniqueness: the order is the one whose neighbouring recombination frequencies sum to the least (the fewest
crossovers explain the data); the generator checks by brute force over every order that the true order is
the unique minimum, up to reversal. The feedback says whether the order or a distance is wrong.

Difficulty: the genes (orders to consider grow factorially), the classes listed, the rare classes and the
offspring in thousands (the counts to tally).
"""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.normalize import read_answer
from palaestra.verifiers.numeric import Tolerance, parse_number

GENE_LETTERS = "abdeghjkmnprstvwy"
TOLERANCE = Tolerance.decimals(2)
MAX_ANSWER_CHARS = 400
_SEPARATORS = ("—", "–", "-", ",", ";", "|", "(", ")", "cM", "cm", "map units", "map unit", "m.u.", "%")
# one neighbouring pair and its distance: "a-b: 12.5 cM", "a–b = 12.5", "a to b 12.5 m.u." (the pattern is fixed)
_PAIR = re.compile(r"\s*([a-z])\s*(?:-|–|—|to)\s*([a-z])\s*[:=]?\s*(\d+(?:\.\d+)?)\s*(?:cM|cm|m\.u\.|map units?|%)?\s*")
_ORDER = re.compile(r"\s*(?:(?:gene )?order\s*(?:is|:)?\s*)?([a-z](?:\s*-\s*[a-z])+)\s*", re.IGNORECASE)
_PAIR_SEPARATORS = re.compile(r"[,;\n]|\band\b")


def read_map(text: str, genes: list[str]) -> tuple[list[str], list[Fraction]] | None:
    """``gene distance gene distance gene`` (spaces, dashes, commas or "cM" between) -> (order, distances)."""

    def read(s: str) -> tuple[list[str], list[Fraction]] | None:
        for separator in _SEPARATORS:
            s = s.replace(separator, " ")
        tokens = s.split()
        if len(tokens) != 2 * len(genes) - 1:
            return None
        order = tokens[0::2]
        if sorted(order) != sorted(genes):
            return None
        distances = [parse_number(token) for token in tokens[1::2]]
        if any(d is None for d in distances):
            return None
        return order, [Fraction(d) for d in distances if d is not None]

    def read_pairs(s: str) -> tuple[list[str], list[Fraction]] | None:
        """Neighbouring pairs with their distances ("b-a: 12.5 cM, a-d: 8.25 cM", in any order and either way
        round) chained into one map; an order stated first ("Order: b-a-d;") must be that map's."""
        pieces = [piece for piece in _PAIR_SEPARATORS.split(s.strip().rstrip(".")) if piece.strip()]
        stated = _ORDER.fullmatch(pieces[0]) if pieces else None
        if stated:
            pieces = pieces[1:]
        distance: dict[frozenset[str], Fraction] = {}
        for piece in pieces:
            match = _PAIR.fullmatch(piece)
            if match is None or match.group(1) == match.group(2):
                return None
            pair = frozenset(match.group(1, 2))
            if pair in distance:
                return None
            distance[pair] = Fraction(match.group(3))
        if len(distance) != len(genes) - 1 or set().union(*distance) != set(genes):
            return None
        ends = [g for g in genes if sum(g in pair for pair in distance) == 1]
        if len(ends) != 2:
            return None
        order = [min(ends)]
        while len(order) < len(genes):
            following = [g for g in genes if g not in order and frozenset((order[-1], g)) in distance]
            if len(following) != 1:
                return None
            order.append(following[0])
        if stated and stated.group(1).replace(" ", "").split("-") not in (order, order[::-1]):
            return None
        return order, [distance[frozenset(order[i: i + 2])] for i in range(len(order) - 1)]

    if not isinstance(text, str) or len(text) > MAX_ANSWER_CHARS:
        return None
    return read_answer(text, lambda s: read(s) or read_pairs(s))


@register
class LinkageMapping(Task):
    id = "biology/linkage_mapping"
    family = "biology"
    description = "Gene order and map distances (cM) from the offspring counts of a multi-point testcross."
    tags = ("biology", "science", "math")

    @dataclass(frozen=True)
    class Config:
        genes: int
        progeny: int  # about this many offspring counted

    presets = (Config(3, 500), Config(3, 1000), Config(4, 1000), Config(4, 2000), Config(5, 2000))
    growth = Growth(steps={"genes": 1, "progeny": 1000}, limits={"genes": 7})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        return retry(lambda: self._draw(rng, config), lambda p: p is not None, attempts=100,
                     what="counts whose map order is unique")

    def _draw(self, rng: random.Random, config: Config) -> Problem | None:
        k = config.genes
        genes = rng.sample(GENE_LETTERS, k)
        order = list(genes)  # map order; the prompt lists alphabetically
        fractions = [rng.randint(4, 25) / 100 for _ in range(k - 1)]
        phase = [rng.random() < 0.5 for _ in range(k)]  # True: the mutant allele on the first parental haplotype
        counts: dict[tuple[bool, ...], int] = {}
        for pattern in itertools.product((0, 1), repeat=k - 1):
            probability = 1.0
            for crossed, r in zip(pattern, fractions, strict=True):
                probability *= r if crossed else 1 - r
            total = round(config.progeny * probability * rng.uniform(0.85, 1.15))
            first = round(total * rng.uniform(0.4, 0.6))
            haplotype, strand = [], 0
            for index in range(k):
                if index > 0 and pattern[index - 1]:
                    strand ^= 1
                haplotype.append(phase[index] if strand == 0 else not phase[index])
            reciprocal = tuple(not m for m in haplotype)
            counts[tuple(haplotype)] = counts.get(tuple(haplotype), 0) + first
            counts[reciprocal] = counts.get(reciprocal, 0) + total - first
        counts = {h: c for h, c in counts.items() if c > 0}
        size = sum(counts.values())
        position = {gene: i for i, gene in enumerate(order)}

        def recombinant(g: str, h: str) -> int:
            i, j = position[g], position[h]
            parental = phase[i] == phase[j]
            return sum(c for hap, c in counts.items() if (hap[i] == hap[j]) != parental)

        table = {(g, h): recombinant(g, h) for g in genes for h in genes if g != h}
        best: list[tuple[int, tuple[str, ...]]] = []
        for candidate in itertools.permutations(genes):
            if candidate[0] > candidate[-1]:
                continue  # each order once, up to reversal
            best.append((sum(table[candidate[i], candidate[i + 1]] for i in range(k - 1)), candidate))
        best.sort()
        true_order = tuple(order) if order[0] < order[-1] else tuple(reversed(order))
        if best[0][1] != true_order or best[1][0] == best[0][0]:
            return None
        distances = [Fraction(100 * table[order[i], order[i + 1]], size) for i in range(k - 1)]
        listed = sorted(genes)
        rows = list(counts.items())
        rng.shuffle(rows)
        lines = [" ".join(gene if hap[position[gene]] else "+" for gene in listed) + f"    {count}"
                 for hap, count in rows]
        prompt = (
            f"A female heterozygous for {k} linked recessive mutations ({', '.join(listed)}) is crossed to a male "
            "homozygous recessive for all of them. Each offspring class below shows the alleles the female "
            f"passed on, genes in alphabetical order ('+' is the wild-type allele), with its count ({size} "
            "offspring in all):\n\n" + "\n".join(lines) + "\n\n"
            "Give the genes in map order with the map distance between each neighbouring pair in cM (the percentage "
            "of recombinant offspring between the two genes, double crossovers counted), rounded to two decimal "
            "places (within 0.005 cM of the exact value). Write the genes and distances alternately, for example: "
            "p 10 q 2.5 r"
        )
        answer = " ".join(part for i, gene in enumerate(order)
                          for part in ([gene] if i == 0 else [format(float(distances[i - 1]), ".2f"), gene]))
        return Problem(prompt=prompt, answer=answer,
                       data={"order": order, "distances": [[d.numerator, d.denominator] for d in distances],
                             "classes": len(counts), "offspring": size, "rare": sum(c < size * 0.02 for c in counts.values())})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        order = problem.data["order"]
        given = read_map(answer, order)
        if given is None:
            return Verdict.unparsed("expected the genes in map order with distances between, such as p 10 q 2.5 r")
        given_order, given_distances = given
        distances = [Fraction(*d) for d in problem.data["distances"]]
        if given_order == list(reversed(order)):
            given_order, given_distances = given_order[::-1], given_distances[::-1]
        if given_order != order:
            return Verdict.wrong("that gene order does not fit the data: another order needs fewer crossovers")
        for index, (value, exact) in enumerate(zip(given_distances, distances, strict=True)):
            if not TOLERANCE.accepts(value, exact):
                return Verdict.wrong(f"the distance between {order[index]} and {order[index + 1]} is not "
                                     f"{float(value):g} cM")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Genes weigh 3 each, plus the classes listed over four, the rare classes and the offspring in thousands."""
        data = problem.data
        return float(3 * len(data["order"]) + data["classes"] / 4 + data["rare"] / 2 + data["offspring"] / 1000)

    def spellings(self, problem: Problem) -> list[str]:
        order = problem.data["order"]
        distances = [Fraction(*d) for d in problem.data["distances"]]
        reverse = " ".join(part for i, gene in enumerate(reversed(order))
                           for part in ([gene] if i == 0 else [format(float(distances[-i]), ".3f"), gene]))
        dashed = " - ".join(part for i, gene in enumerate(order)
                            for part in ([gene] if i == 0 else [f"{float(distances[i - 1]):.2f} cM", gene]))
        return [*super().spellings(problem), reverse, dashed, f"Answer: {problem.answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        order = problem.data["order"]
        distances = [Fraction(*d) for d in problem.data["distances"]]

        def text(genes: list[str], values: list[Fraction]) -> str:
            return " ".join(part for i, gene in enumerate(genes)
                            for part in ([gene] if i == 0 else [format(float(values[i - 1]), ".2f"), gene]))

        swapped = [order[1], order[0], *order[2:]]
        return [text(swapped, distances), text(order, [d + Fraction(1, 10) for d in distances]),
                text(order, [d / 2 for d in distances])]
