"""``seed_deriver`` hashes a fixed prefix once and gives exactly ``derive_seed``'s values; the games' tape draws
built on it are the draws ``derive_seed`` gave."""

from __future__ import annotations

import random

from palaestra.core.seeding import derive_seed, seed_deriver
from palaestra.envs.games.common import tape_uniform


def test_seed_deriver_equals_derive_seed_for_any_split_of_the_parts() -> None:
    rng = random.Random(5)
    pool: list[object] = ["event", "games/x", "tape", "", "a\x1fb", "é", 0, -3, 2**70, 1.5, None, True, (1, 2)]
    for _ in range(500):
        parts = [rng.choice(pool) for _ in range(rng.randint(0, 6))]
        cut = rng.randint(0, len(parts))
        assert seed_deriver(*parts[:cut])(*parts[cut:]) == derive_seed(*parts), parts


def test_tape_uniform_is_the_hash_of_the_whole_key() -> None:
    for tape in (0, 7, 2**63):
        for keys in ((), ("turn", 3), (1, 2, "north")):
            expected = derive_seed("event", "games/x", "tape", tape, *keys) / 2**64
            assert tape_uniform("games/x", tape, *keys) == expected
