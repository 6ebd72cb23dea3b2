"""What the generation speed-ups of tier-2 envs rely on: each fast path equals the slower computation it replaced."""

from __future__ import annotations

import copy
import random

import pytest

from palaestra.envs.code import mutation_tests as mt
from palaestra.envs.code.common import compiled_function

# --- code/mutation_tests ----------------------------------------------------------------------

SAMPLE_FUNCTIONS = [(name, tuple(lo for lo, _ in ranges)) for name, (_, ranges) in mt.CATALOGUE.items()] + [
    (name, tuple(hi for _, hi in ranges)) for name, (_, ranges) in mt.CATALOGUE.items()]


@pytest.mark.parametrize("name, constants", SAMPLE_FUNCTIONS)
def test_mutation_analysis_equals_running_the_written_mutants(name, constants):
    """Mutants compiled from the changed tree, run on the uncopied pool, kill exactly what the written-out
    mutants (compiled from their text, each call on a copy of its arguments) kill."""
    pool, wanted, kills = mt.analysis.__wrapped__(name, constants)
    expected = []
    for index, text in enumerate(mt.mutations(mt.source_of(name, list(constants)))):
        mutant = compiled_function(text, name, mt.SAFE_BUILTINS)
        killed = frozenset(i for i, args in enumerate(pool) if mt.differs(mt.call(mutant, args), wanted[i]))
        if killed:
            expected.append((index, killed))
    assert kills == expected


@pytest.mark.parametrize("name, constants", SAMPLE_FUNCTIONS)
def test_no_catalogue_function_or_mutant_changes_its_arguments(name, constants):
    """Why the analysis may call the mutants on the pool itself, without copying each input."""
    pool, _, _ = mt.analysis.__wrapped__(name, constants)
    before = copy.deepcopy(pool)
    for mutant in mt.mutant_functions(name, mt.source_of(name, list(constants))):
        for args in pool:
            try:
                mutant(*args)
            except Exception:
                pass
    assert pool == before


def test_mutation_cover_is_the_greedy_cover_of_the_first_best_inputs():
    """The counted cover picks, each round, the same input as the maximum over every pool input."""
    rng = random.Random(5)
    for _ in range(200):
        size = rng.randint(1, 30)
        by_index = {m: frozenset(rng.sample(range(size), rng.randint(1, size))) for m in range(rng.randint(1, 12))}
        alive = set(by_index)
        while alive:
            slow = max(range(size), key=lambda i: (sum(i in by_index[m] for m in alive), -i))
            counts: dict[int, int] = {}
            for m in alive:
                for i in by_index[m]:
                    counts[i] = counts.get(i, 0) + 1
            assert max(counts, key=lambda i: (counts[i], -i)) == slow
            alive = {m for m in alive if slow not in by_index[m]}
