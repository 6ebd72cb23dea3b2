"""Give an optimal global alignment (Needleman–Wunsch) of two DNA sequences under a stated linear scoring.

B is A with a few random substitutions, insertions and deletions. The prompt states the scoring (a match, a
mismatch, a gap column) and the answer format (two rows with ``-`` for gaps). Many alignments can be optimal,
so the verifier does not compare with one: it checks the rows are equally long, no column is gap against gap,
removing the gaps gives A and B, and the alignment's score equals the optimum computed by the dynamic
programme at generation. A valid but suboptimal alignment is told its score.

Difficulty: the table cells the dynamic programme fills, (|A| + 1)(|B| + 1), plus the edits that made B.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.biology.common import (
    GAP,
    SCORINGS,
    AlignmentTask,
    best_alignment,
    mutate,
    scoring_text,
)

EXAMPLE = "ACG-TTA\nACGGT-A"  # a fixed placeholder of the right shape: never derived from the answer
@register
class GlobalAlignment(AlignmentTask):
    id = "biology/global_alignment"
    local = False
    example_rows = "ACG-TTA / ACGGT-A"
    family = "biology"
    description = "Give an optimal global (Needleman–Wunsch) alignment of two DNA sequences under a stated scoring."
    tags = ("biology", "sequences", "algorithmic", "dynamic-programming")

    @dataclass(frozen=True)
    class Config:
        length: int  # most bases in A
        edits: int  # most random edits that make B from A

    presets = (Config(6, 2), Config(9, 3), Config(12, 4), Config(16, 5), Config(20, 6))
    growth = Growth(steps={"length": 4, "edits": 1})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        a = "".join(rng.choice("ACGT") for _ in range(rng.randint(config.length * 3 // 4, config.length)))
        edits = rng.randint(1, config.edits)
        b = retry(lambda: mutate(rng, a, edits), lambda t: t != a, what="a different sequence")
        scoring = rng.choice(SCORINGS)
        score, row_a, row_b = best_alignment(a, b, scoring, local=False)
        prompt = (
            f"Align these two DNA sequences end to end (a global alignment):\n\nA = {a}\nB = {b}\n\n"
            f"Scoring: {scoring_text(scoring)}. No column may have a gap in both rows. The alignment's score is the "
            f"sum of its columns' scores.\n\n"
            f"Give an alignment with the highest possible score (if several have it, any one): two rows of equal "
            f"length, first A then B, with {GAP} for gaps, for example:\n{EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=f"{row_a}\n{row_b}",
                       data={"a": a, "b": b, "scoring": list(scoring), "score": score, "edits": edits})

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        a, b = data["a"], data["b"]
        row_a, row_b = (problem.answer or "").split("\n")
        all_gaps = f"{a}{GAP * len(b)}\n{GAP * len(a)}{b}"  # valid but (almost always) far from optimal
        wrong = [f"{row_b}\n{row_a}", f"{row_a}\n{row_b[:-1]}", f"{row_a[:-1]}{GAP}\n{row_b}", all_gaps,
                 f"{row_a}\n{row_b}\nor\n{a}\n{b}"]
        return [w for w in wrong if not self.verify(problem, w).correct]
