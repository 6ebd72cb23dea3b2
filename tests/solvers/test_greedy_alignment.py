"""The greedy alignment scans the alignment and edit-script envs must defeat: valid alignments, never better than
the table."""

from __future__ import annotations

import doctest
import random

from palaestra.solvers import greedy_alignment
from palaestra.solvers.greedy_alignment import SCANS, greedy_scans


def test_docstring_examples() -> None:
    result = doctest.testmod(greedy_alignment)
    assert result.attempted > 0 and result.failed == 0


def _distance(a: str, b: str) -> int:
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, start=1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, start=1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return row[-1]


def test_every_scan_is_a_valid_alignment_and_never_beats_the_table() -> None:
    rng = random.Random(3)
    for _ in range(300):
        a = "".join(rng.choice("ACGT") for _ in range(rng.randint(0, 12)))
        b = "".join(rng.choice("ACGT") for _ in range(rng.randint(0, 12)))
        scans = list(greedy_scans(a, b))
        assert len(scans) == 2 * len(SCANS)
        for columns in scans:
            assert "".join(x for x, _ in columns) == a and "".join(y for _, y in columns) == b
            assert all(x or y for x, y in columns)  # no column of two gaps
            assert sum(x != y for x, y in columns) >= _distance(a, b)
