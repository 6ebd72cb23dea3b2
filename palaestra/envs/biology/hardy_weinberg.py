"""Hardy–Weinberg arithmetic: allele and genotype frequencies, exactly.

One gene with alleles A (dominant) and a. Four kinds of question, harder ones at higher levels:

- ``allele``: genotype counts of a sample are given; the frequency of allele a, (2·aa + Aa) / (2N).
- ``carriers``: the fraction of the population showing the recessive trait, q², is given (a square of a
  fraction, so q is exact); the frequency of heterozygous carriers, 2pq, under equilibrium.
- ``expected``: genotype counts are given; the number of heterozygotes expected in a sample of the same size
  under equilibrium with the sample's allele frequencies, 2pq·N (an exact fraction, not rounded).
- ``dominant_carriers``: q² is given; among individuals showing the dominant trait, the fraction that are
  carriers, 2pq / (p² + 2pq).

Every answer is one exact rational, unique, compared exactly (a fraction or an exact decimal; a rounded
decimal is wrong, and the prompt says so), also after the asked quantity's name (``q = 7/20``) or in a naming
sentence (v3: ``The frequency of allele a is 7/20.``, refused on every allele question in v2).

Difficulty: a weight per kind of question (the steps it takes), plus the digits of the given numbers.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.numeric import format_number, grade_number

KIND_STEPS = {"allele": 1, "carriers": 2, "expected": 3, "dominant_carriers": 4}
EXAMPLE = "7/20"  # a fixed placeholder of the right shape: never derived from the answer
EXACT = ("Give the exact value as a fraction in lowest terms or an exact decimal; a rounded decimal is not "
         f"accepted. For example: {EXAMPLE}")


@register
class HardyWeinberg(Task):
    id = "biology/hardy_weinberg"
    family = "biology"
    description = "Hardy–Weinberg allele and genotype frequencies from counts or from q², as exact fractions."
    tags = ("biology", "genetics", "arithmetic")
    version = 3  # v3: naming sentences read ("The frequency of allele a is 34/67."); v2 refused them

    @dataclass(frozen=True)
    class Config:
        kinds: tuple[str, ...]  # question kinds drawn from (KIND_STEPS)
        size: int  # most individuals per genotype class, and a third of the largest denominator of q

    presets = (Config(("allele",), 40), Config(("allele", "carriers"), 60), Config(("carriers", "expected"), 90),
               Config(("expected", "dominant_carriers"), 150), Config(("expected", "dominant_carriers"), 1000))
    growth = Growth(factors={"size": 3})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(config.kinds)
        if kind in ("allele", "expected"):
            counts = [rng.randint(1, config.size) for _ in range(3)]  # AA, Aa, aa
            total = sum(counts)
            q = Fraction(2 * counts[2] + counts[1], 2 * total)
            given = (f"A sample of {total} individuals has these genotype counts: AA {counts[0]}, Aa {counts[1]}, "
                     f"aa {counts[2]}.")
            if kind == "allele":
                answer, question = q, "What is the frequency of allele a in the sample?"
            else:
                answer = 2 * q * (1 - q) * total
                question = (f"If a population had the sample's allele frequencies and were in Hardy–Weinberg "
                            f"equilibrium, how many heterozygotes (Aa) would be expected among {total} individuals? "
                            f"Give the expected number exactly, even if it is not a whole number.")
            numbers = [*counts, total]
        else:
            # q in lowest terms, its denominator up to three times the size: an unreduced draw from a narrower range
            # repeated one problem in eight at level 1
            denominator = rng.randint(max(3, config.size // 3), 3 * config.size)
            q = retry(lambda: Fraction(rng.randint(1, denominator - 1), denominator),
                      lambda drawn: drawn.denominator == denominator, what="a reduced q")
            given = (f"A population is in Hardy–Weinberg equilibrium. A fraction {format_number(q * q)} of it shows "
                     f"the recessive trait (genotype aa).")
            p = 1 - q
            if kind == "carriers":
                answer, question = 2 * p * q, "What fraction of the population is heterozygous (Aa)?"
            else:
                answer = 2 * p * q / (p * p + 2 * p * q)
                question = "Among the individuals showing the dominant trait, what fraction are heterozygous (Aa)?"
            numbers = [(q * q).numerator, (q * q).denominator]
        prompt = (f"One gene has two alleles, A (dominant) and a (recessive).\n\n{given}\n\n{question}\n\n{EXACT}")
        digits = sum(len(str(n)) for n in numbers)
        return Problem(prompt=prompt, answer=format_number(answer),
                       data={"kind": kind, "value": format_number(answer), "digits": digits})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        units = ["heterozygotes", "individuals", "Aa individuals"] if problem.data["kind"] == "expected" else None
        verdict = grade_number(_without_asked_name(problem, answer), Fraction(problem.data["value"]), units=units,
                               sentence=True)
        if verdict is None:
            return Verdict.unparsed("expected one exact number, such as 7/20 or 0.35")
        return Verdict.right() if verdict else Verdict.wrong("that is not the exact value")

    def difficulty(self, problem: Problem) -> float:
        """Steps of the drawn kind of question, plus the digits of the given numbers."""
        return float(10 * KIND_STEPS[problem.data["kind"]] + problem.data["digits"])

    def spellings(self, problem: Problem) -> list[str]:
        value = Fraction(problem.data["value"])
        gold = problem.answer or ""
        out = [*super().spellings(problem), f"\\boxed{{{gold}}}", f"Answer: {gold}.",
               f"{value.numerator * 2}/{value.denominator * 2}", f"\\frac{{{value.numerator}}}{{{value.denominator}}}"]
        places = next((k for k in range(40) if (value * 10**k).denominator == 1), None)
        if places:  # a terminating decimal is the same exact number
            scaled = str((value * 10**places).numerator).rjust(places + 1, "0")
            out.append(f"{scaled[:-places]}.{scaled[-places:]}")
        return out

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value = Fraction(problem.data["value"])
        rounded = f"{float(value):.2f}"
        wrong = [format_number(value + Fraction(1, 100)), format_number(1 - value) if value != Fraction(1, 2) else "1",
                 rounded, format_number(value * 2), f"{problem.answer} or {format_number(value * 2)}"]
        return [w for w in wrong if Fraction(w.split(" ")[0]) != value]


# the textbook names of each asked quantity, as a grader reads "2pq = 24/49" (the shared reader takes one letter)
ASKED_NAMES = {"allele": ("q", "f(a)", "p(a)"), "carriers": ("2pq", "f(Aa)"),
               "expected": ("2pqN", "2pq·N", "2pq*N", "2pq N", "N(Aa)", "E(Aa)", "E[Aa]"),
               "dominant_carriers": ("2pq/(p^2 + 2pq)", "2pq/(p^2+2pq)", "2q/(1 + q)", "2q/(1+q)")}


def _without_asked_name(problem: Problem, answer: str) -> str:
    """The answer with one leading ``NAME =`` naming the asked quantity taken out (``2pq = 24/49``,
    ``\\boxed{2pq = 24/49}``), as a careful grader reads it (a naming sentence, ``The frequency of allele a is
    34/67.``, is read by the shared number reader)."""
    if not isinstance(answer, str) or len(answer) > 1_000:
        return answer
    for name in ASKED_NAMES[problem.data["kind"]]:
        for spelling in (f"{name} = ", f"{name}= ", f"{name} =", f"{name}="):
            if answer.count(spelling) == 1:
                return answer.replace(spelling, "", 1)
    return answer
