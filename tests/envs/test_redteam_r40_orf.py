"""Red team, session 40: biology/open_reading_frames asked for a longest ORF on either strand (v2), so scanning
only the given strand found one in 0.40-0.68 of problems at levels 0-4 (only the reverse complement: 0.38-0.60).
v3 asks for a longest ORF on each strand, two labelled parts; a one-strand scan, swapped labels and an unlabelled
pair now earn 0 at every level, each strand's first-ATG ORF 0.05-0.23, and the exhaustive scan 1."""

from __future__ import annotations

import pytest

from palaestra.core.registry import make_source
from palaestra.envs.biology.common import reverse_complement

ORF = "biology/open_reading_frames"


def _longest(strand: str) -> str:
    """A longest ORF of one strand, every ATG tried."""
    found = []
    for start in range(len(strand) - 2):
        if strand[start:start + 3] != "ATG":
            continue
        for end in range(start + 3, len(strand) - 2, 3):
            if strand[end:end + 3] in ("TAA", "TAG", "TGA"):
                found.append(strand[start:end + 3])
                break
    return max(found, key=len)


@pytest.mark.parametrize("level", range(5))
def test_one_strand_scan_earns_nothing(level: int) -> None:
    task = make_source(ORF)
    for seed in range(20):
        problem = task.sample(level, seed)
        dna = problem.data["dna"]
        forward, reverse = _longest(dna), _longest(reverse_complement(dna))
        for cheap in (forward, reverse, f"given strand: {forward}", f"reverse complement: {reverse}",
                      f"{forward}\n{reverse}", f"given strand: {forward}; reverse complement: {forward}",
                      f"given strand: {reverse}; reverse complement: {forward}"):
            assert task.verify(problem, cheap).reward == 0.0, (level, seed, cheap)
        # v2 paid the given strand's longest ORF alone 0.40-0.68 of the time; the honest two-strand scan is paid
        right = f"Reverse complement: {reverse}\nGiven strand: {forward}"
        assert task.verify(problem, right).reward == 1.0, (level, seed)
        assert task.verify(problem, problem.answer).reward == 1.0


def test_prompt_example_is_never_an_answer() -> None:
    from palaestra.envs.biology.open_reading_frames import EXAMPLE

    task = make_source(ORF)
    for level in range(5):
        for seed in range(20):
            problem = task.sample(level, seed)
            assert EXAMPLE in problem.prompt
            assert task.verify(problem, EXAMPLE).reward == 0.0
