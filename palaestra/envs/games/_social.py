"""Shared pieces of the cooperative and social games (no environment here).

- :func:`random_zero`: the zero of a regret-normalised score, set from a sample of uniformly random
  legal play's final scores (the lowest whole score, at least their mean, at which the sample averages
  a reward of at most :data:`RANDOM_REWARD`);
- :func:`read_command`: one command of a small move grammar, read through the shared answer
  grammar (``\\boxed{}``, ``Answer:``, a closing period) from lower-cased, space-squeezed text.

Example::

    >>> random_zero([0, 0, 1, 2, 5], best=8)  # at 2 or 3 the lucky 5 alone averages more than 0.05
    4
    >>> import re
    >>> read_command("**Play slot 2.**", re.compile(r"^play (?:slot )?(\\d)$"))
    ('2',)
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from palaestra.core.multiturn import MAX_MOVE_CHARS, regret_reward
from palaestra.verifiers.moves import read_move_answer
from palaestra.verifiers.normalize import squeeze_spaces, unify

RANDOM_REWARD = 0.05  # random legal play averages at most this reward on the sample the zero is set from


def random_zero(scores: Sequence[float], best: float) -> int:
    """The lowest whole score, at least the mean of ``scores``, at which they average at most RANDOM_REWARD."""
    mean = sum(scores) / len(scores)
    zero = int(-(-mean // 1))
    while zero < best and sum(regret_reward(s, zero, best) for s in scores) / len(scores) > RANDOM_REWARD:
        zero += 1
    return zero


def read_command(move: str, grammar: re.Pattern[str]) -> tuple[str, ...] | None:
    """The groups of ``grammar`` (anchored, written for lower-case squeezed text) matching ``move``, or None.

    Only groups that matched are returned, so alternatives in one pattern give short tuples.
    """
    if not isinstance(move, str) or len(move) > MAX_MOVE_CHARS:
        return None

    def read(text: str) -> tuple[str, ...] | None:
        match = grammar.match(squeeze_spaces(unify(text)).strip().lower())
        return tuple(group for group in match.groups() if group is not None) if match else None

    return read_move_answer(move, read)
