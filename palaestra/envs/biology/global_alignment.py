"""Give an optimal global alignment (Needleman–Wunsch) of two DNA sequences under a stated linear scoring.

B is A with a few random substitutions, insertions and deletions. The prompt states the scoring (a match, a
mismatch, a gap column) and the answer format (two rows with ``-`` for gaps). Many alignments can be optimal,
so the verifier does not compare with one: it checks the rows are equally long, no column is gap against gap,
removing the gaps gives A and B, and the alignment's score equals the optimum computed by the dynamic
programme at generation. A valid but suboptimal alignment is told its score.

Version 2: from level 2 up the pair is redrawn until no greedy aligner is optimal on it. Version 1 was paid by a
left-to-right scan (take a matching column; else open a gap where one letter of look-ahead finds a match; else a
mismatch): 0.71 at level 2 and 0.63 at the top level, with no table filled; the same scan from right to left
scored about as much. The family of greedy scans (both ways, look-ahead 1 to 3, with or without a check of the
remaining lengths) and the rows padded with gaps at either end is declared as heuristics; from level 2 none of
them is optimal on any problem.

Generation speed: from level 2 about one draw in 45 (level 2) to one in 11 (level 4) qualifies, each checked
by the table and the scans: about 7 ms (level 2) and 5 ms (level 4) a problem, kept because the greedy scans
must not be paid.

Difficulty: the table cells the dynamic programme fills, (|A| + 1)(|B| + 1), plus the edits that made B.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
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
from palaestra.solvers.greedy_alignment import SCANS, greedy_scans

EXAMPLE = "ACG-TTA\nACGGT-A"  # a fixed placeholder of the right shape: never derived from the answer


def iter_greedy_alignments(a: str, b: str) -> Iterator[tuple[str, str]]:
    """The greedy scans (both ways: :mod:`palaestra.solvers.greedy_alignment`) and the two end-padded alignments, as
    rows, one at a time: cheap rules a policy could learn instead of the table."""
    for columns in greedy_scans(a, b):
        yield "".join(x or GAP for x, _ in columns), "".join(y or GAP for _, y in columns)
    width = max(len(a), len(b))
    yield a.ljust(width, GAP), b.ljust(width, GAP)
    yield a.rjust(width, GAP), b.rjust(width, GAP)


def greedy_alignments(a: str, b: str) -> list[tuple[str, str]]:
    return list(iter_greedy_alignments(a, b))


def alignment_score(rows: tuple[str, str], scoring: tuple[int, int, int]) -> int:
    return sum(column_score(x, y, scoring) for x, y in zip(*rows, strict=True))


@register
class GlobalAlignment(AlignmentTask):
    id = "biology/global_alignment"
    local = False
    example_rows = "ACG-TTA / ACGGT-A"
    family = "biology"
    description = "Give an optimal global (Needleman–Wunsch) alignment of two DNA sequences under a stated scoring."
    tags = ("biology", "sequences", "algorithmic", "dynamic-programming")
    version = 2

    @dataclass(frozen=True)
    class Config:
        length: int  # most bases in A
        edits: int  # most random edits that make B from A

    presets = (Config(6, 2), Config(9, 3), Config(12, 4), Config(16, 5), Config(20, 6))
    growth = Growth(steps={"length": 4, "edits": 1})

    def generate(self, rng: random.Random, config: Config) -> Problem:

        def draw() -> tuple[str, str, int, tuple[int, int, int]]:
            a = "".join(rng.choice("ACGT") for _ in range(rng.randint(config.length * 3 // 4, config.length)))
            edits = rng.randint(1, config.edits)
            b = retry(lambda: mutate(rng, a, edits), lambda t: t != a, what="a different sequence")
            return a, b, edits, rng.choice(SCORINGS)

        def beats_greedy(drawn: tuple[str, str, int, tuple[int, int, int]]) -> bool:
            a, b, _, scoring = drawn
            optimum = best_alignment(a, b, scoring, local=False)[0]
            return all(alignment_score(rows, scoring) < optimum for rows in iter_greedy_alignments(a, b))

        # from level 2 no greedy scan may be optimal (about one draw in 45 qualifies at level 2)
        a, b, edits, scoring = (
            draw()
            if config.length < 12
            else retry(draw, beats_greedy, attempts=2500, what="a pair on which every greedy scan is suboptimal")
        )
        score, row_a, row_b = best_alignment(a, b, scoring, local=False)
        prompt = (
            f"Align these two DNA sequences end to end (a global alignment):\n\nA = {a}\nB = {b}\n\n"
            f"Scoring: {scoring_text(scoring)}. No column may have a gap in both rows. The alignment's score is the "
            f"sum of its columns' scores.\n\n"
            f"Give an alignment with the highest possible score (if several have it, any one): two rows of equal "
            f"length, first A then B, with {GAP} for gaps, for example:\n{EXAMPLE}"
        )
        return Problem(
            prompt=prompt,
            answer=f"{row_a}\n{row_b}",
            data={"a": a, "b": b, "scoring": list(scoring), "score": score, "edits": edits},
        )

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def rule(index: int) -> Callable[[Problem], str]:
            return lambda problem: "\n".join(greedy_alignments(problem.data["a"], problem.data["b"])[index])

        names = [
            f"greedy scan {way}, look-ahead {look}{'' if guard else ', unguarded'}"
            for way in ("left to right", "right to left")
            for look, guard in SCANS
        ]
        return {name: rule(index) for index, name in enumerate([*names, "gaps at the end", "gaps at the start"])}

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        data = problem.data
        a, b = data["a"], data["b"]
        row_a, row_b = (problem.answer or "").split("\n")
        all_gaps = f"{a}{GAP * len(b)}\n{GAP * len(a)}{b}"  # valid but (almost always) far from optimal
        wrong = [
            f"{row_b}\n{row_a}",
            f"{row_a}\n{row_b[:-1]}",
            f"{row_a[:-1]}{GAP}\n{row_b}",
            all_gaps,
            f"{row_a}\n{row_b}\nor\n{a}\n{b}",
        ]
        return [w for w in wrong if not self.verify(problem, w).correct]
