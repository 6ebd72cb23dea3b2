"""Stable seeding: a problem's RNG is derived from ``(env_id, level, seed)`` only.

The hash is BLAKE2b, stable across processes, machines and Python versions (never
the salted built-in ``hash``); the generator is a private ``random.Random``, so the
global ``random`` and ``numpy.random`` states are never read or changed.

Example::

    >>> problem_rng("graphs/shortest_path", 2, 7).random() == problem_rng("graphs/shortest_path", 2, 7).random()
    True
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable


def derive_seed(*parts: object) -> int:
    """A 64-bit integer determined by the string forms of ``parts``."""
    text = "\x1f".join(map(str, parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


def seed_deriver(*prefix: object) -> Callable[..., int]:
    """``derive_seed(*prefix, *rest)`` as a function of ``rest``, hashing the fixed prefix once.

    For callers that derive thousands of seeds under one prefix (a game replaying the events of one tape):
    each call copies the hash state of the prefix instead of hashing it again; the values are those of
    :func:`derive_seed`.

    >>> seed_deriver("event", "games/x")(3, "turn") == derive_seed("event", "games/x", 3, "turn")
    True
    """
    if not prefix:
        return derive_seed
    start = hashlib.blake2b("\x1f".join(map(str, prefix)).encode(), digest_size=8)

    def derive(*rest: object) -> int:
        hasher = start.copy()
        if rest:
            hasher.update(("\x1f" + "\x1f".join(map(str, rest))).encode())
        return int.from_bytes(hasher.digest(), "big")

    return derive


def problem_rng(env_id: str, level: int, seed: int) -> random.Random:
    """The private random generator for one problem."""
    return random.Random(derive_seed(env_id, level, seed))


def event_rng(problem_id: tuple[str, int, int], *keys: object) -> random.Random:
    """A private generator for a random event during play (an opponent's move, a slippery step).

    Keyed by the problem's identity ``(env_id, level, seed)`` and by what makes the event
    distinct (e.g. the turn number and the moves so far), so replaying the same moves
    replays the same events, in any process.
    """
    return random.Random(derive_seed("event", *problem_id, *keys))
