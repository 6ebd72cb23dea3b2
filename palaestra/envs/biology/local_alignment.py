"""Give an optimal local alignment (Smith–Waterman) of two DNA sequences under a stated linear scoring.

A and B share a related stretch (B's copy carries a few random substitutions, insertions and deletions)
inside unrelated random flanks. The answer aligns a stretch of A with a stretch of B (two rows, ``-`` for
gaps); the best local alignment may be shorter or longer than the planted stretch, and several may tie, so
the verifier does not compare with one: it checks the rows are equally long, no column is gap against gap,
removing the gaps gives a stretch (consecutive letters) of A and of B, and the score equals the optimum
computed by the dynamic programme (floored at zero) at generation.

Version 2: from level 2 up the pair is redrawn until the best ungapped local alignment (the best-scoring run of
one diagonal, what an ungapped seed-and-extend search finds, with no gap ever opened) scores below the optimum.
In version 1 that rule scored 0.55 at level 2 and 0.33 at the top level (the longest common substring alone 0.39
and 0.16); it is declared as a heuristic.

Difficulty: the table cells the dynamic programme fills, (|A| + 1)(|B| + 1), plus the edits in the shared
stretch.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.biology.common import (
    GAP,
    SCORINGS,
    AlignmentTask,
    best_alignment,
    column_score,
    mutate,
    scoring_text,
)

EXAMPLE = "GCA-TC\nGCAGTC"  # a fixed placeholder of the right shape: never derived from the answer


def best_ungapped(a: str, b: str, scoring: tuple[int, int, int]) -> tuple[int, str, str]:
    """The best-scoring run of one diagonal (score, stretch of a, stretch of b): a local alignment without gaps."""
    best = (column_score(a[0], b[0], scoring), a[:1], b[:1])  # any run that scores more replaces it
    for shift in range(-len(b) + 1, len(a)):
        pairs = [(i, i - shift) for i in range(max(0, shift), min(len(a), len(b) + shift))]
        running, start = 0, 0
        for k, (i, j) in enumerate(pairs):
            if running <= 0:
                running, start = 0, k
            running += column_score(a[i], b[j], scoring)
            if running > best[0]:
                first_a, first_b = pairs[start]
                best = (running, a[first_a : i + 1], b[first_b : j + 1])
    return best


def random_dna(rng: random.Random, low: int, high: int) -> str:
    return "".join(rng.choice("ACGT") for _ in range(rng.randint(low, high)))


@register
class LocalAlignment(AlignmentTask):
    id = "biology/local_alignment"
    local = True
    example_rows = "GCA-TC / GCAGTC"
    family = "biology"
    description = "Give an optimal local (Smith–Waterman) alignment of two DNA sequences under a stated scoring."
    tags = ("biology", "sequences", "algorithmic", "dynamic-programming")
    version = 2
    distinct_from = {
        "biology/global_alignment": (
            "a local alignment picks the best-scoring stretches of both sequences (the "
            "table floored at zero, the best cell anywhere); the other aligns them end to end"
        ),
    }

    @dataclass(frozen=True)
    class Config:
        shared: int  # most bases in the related stretch
        flank: int  # most unrelated bases on each side of it
        edits: int  # most random edits in B's copy of the stretch

    presets = (Config(5, 2, 1), Config(7, 3, 2), Config(9, 4, 3), Config(11, 6, 3), Config(14, 7, 4))
    growth = Growth(steps={"shared": 3, "flank": 2, "edits": 1})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[str, str, int, tuple[int, int, int]]:
            core = random_dna(rng, max(4, config.shared * 2 // 3), config.shared)
            edits = rng.randint(0, config.edits)
            a = random_dna(rng, 1, config.flank) + core + random_dna(rng, 1, config.flank)
            b = random_dna(rng, 1, config.flank) + mutate(rng, core, edits) + random_dna(rng, 1, config.flank)
            return a, b, edits, rng.choice(SCORINGS)

        def needs_gap(drawn: tuple[str, str, int, tuple[int, int, int]]) -> bool:
            a, b, _, scoring = drawn
            return best_ungapped(a, b, scoring)[0] < best_alignment(a, b, scoring, local=True)[0]

        # from level 2 every optimal local alignment has a gap (about half the draws qualify at level 2)
        a, b, edits, scoring = (
            draw()
            if config.shared < 9
            else retry(draw, needs_gap, attempts=200, what="a pair whose best local alignment needs a gap")
        )
        score, row_a, row_b = best_alignment(a, b, scoring, local=True)
        prompt = (
            f"Find the best local alignment of two DNA sequences: choose a stretch of consecutive bases of A and a "
            f"stretch of B and align them, ignoring the rest of both.\n\nA = {a}\nB = {b}\n\n"
            f"Scoring: {scoring_text(scoring)}. No column may have a gap in both rows. The score is the sum of the "
            f"aligned stretches' columns; the bases left outside them cost nothing.\n\n"
            f"Give a local alignment with the highest possible score (if several have it, any one): two rows of "
            f"equal length, first the stretch of A then the stretch of B, with {GAP} for gaps, for example:\n"
            f"{EXAMPLE}"
        )
        return Problem(
            prompt=prompt,
            answer=f"{row_a}\n{row_b}",
            data={"a": a, "b": b, "scoring": list(scoring), "score": score, "edits": edits},
        )

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def ungapped(problem: Problem) -> str:
            _, row_a, row_b = best_ungapped(problem.data["a"], problem.data["b"], tuple(problem.data["scoring"]))
            return f"{row_a}\n{row_b}"

        return {"best ungapped diagonal": ungapped}

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        row_a, row_b = (problem.answer or "").split("\n")
        _, whole_a, whole_b = best_alignment(data["a"], data["b"], tuple(data["scoring"]), local=False)  # type: ignore[arg-type]
        wrong = [
            f"{row_a[1:]}\n{row_b[1:]}",
            f"{row_a}\n{row_b[:-1]}",
            f"{whole_a}\n{whole_b}",
            f"{row_b}\n{row_a}",
            f"{row_a}\n{row_b}\nor\n{row_a[1:]}\n{row_b[1:]}",
        ]
        return [w for w in wrong if not self.verify(problem, w).correct]
