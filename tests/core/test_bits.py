"""The shared bit-mask helper every bit-board generator and solver lists its members with."""

from __future__ import annotations

import doctest
import random

from palaestra.core import bits
from palaestra.core.bits import set_bits


def test_docstring_examples() -> None:
    result = doctest.testmod(bits)
    assert result.attempted > 0 and result.failed == 0


def test_set_bits_lists_exactly_the_members_in_increasing_order() -> None:
    rng = random.Random(7)
    for _ in range(200):
        members = sorted(rng.sample(range(130), rng.randrange(0, 40)))
        mask = sum(1 << m for m in members)
        assert set_bits(mask) == members
