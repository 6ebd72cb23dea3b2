"""Bit masks as sets of small integers (board squares, graph nodes, cards): the one loop that lists their members.

Several generators and solvers keep a set of positions in one Python ``int`` (a union is ``|``, a test is ``&``,
both far faster than ``set`` operations on the few dozen members these envs hold).

Example::

    >>> set_bits(0b101001)
    [0, 3, 5]
    >>> set_bits(0)
    []
"""

from __future__ import annotations


def set_bits(mask: int) -> list[int]:
    """The positions of the bits set in ``mask`` (a non-negative int), lowest first."""
    members = []
    while mask:
        lowest = mask & -mask
        members.append(lowest.bit_length() - 1)
        mask ^= lowest
    return members
