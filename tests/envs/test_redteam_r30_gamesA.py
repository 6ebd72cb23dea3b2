"""Red-team regressions, session 30 (games A): crafting's recipe choice must matter."""

import itertools

import palaestra
from palaestra.envs.games import crafting


def _length(data, choice):
    batches, gathers = crafting._needs(data, choice, {})
    return sum(batches.values()) + sum(gathers.values())


def _cheapest(data):
    units = lambda r: sum(r["inputs"].values()) / r["makes"]  # noqa: E731
    return {item: min((0, 1), key=lambda k: (units(options[k]), k))
            for item, options in data["recipes"].items() if len(options) > 1}


def test_crafting_recipe_choice_is_never_free():
    """v1: at level 2 about a third of the worlds let every recipe choice finish within the budget."""
    task = palaestra.make("games/crafting", level=2).unwrapped.task
    for seed in range(25):
        data = task.sample(2, seed).data
        doubled = sorted(item for item, options in data["recipes"].items() if len(options) > 1)
        fits = [_length(data, dict(zip(doubled, picks))) <= data["budget"]
                for picks in itertools.product((0, 1), repeat=len(doubled))]
        assert not all(fits), seed


def test_crafting_cheapest_recipe_rule_loses_at_the_top_level():
    """v1: a perfect planner taking the recipe with the fewest input units per item made won 0.68 at level 4."""
    task = palaestra.make("games/crafting", level=4).unwrapped.task
    seeds = range(60)
    wins = sum(_length(data, _cheapest(data)) <= data["budget"] for data in (task.sample(4, s).data for s in seeds))
    assert wins / len(seeds) < 0.45
