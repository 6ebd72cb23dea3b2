"""Dynamic programming on knapsack variants with generated constraints.

Variants (the constraint constants are generated and baked into the specification):

- **zero_one**: the best worth (values minus a fee ``F`` per item and ``G`` per unit of weight) of
  at least ``J`` and at most ``K`` items with total weight <= capacity (or exactly the capacity;
  None if no selection qualifies);
- **bounded**: the best worth when each item may be taken up to ``L`` times (fee ``F`` per copy,
  ``G`` per unit of weight) and each item type taken earns a bonus ``B`` once;
- **count_subsets**: the number of choices of exactly ``K`` items whose weights sum to exactly (or
  at most) a target, modulo a prime ``M``;
- **divisible_subsets**: the number of non-empty choices whose sum is a multiple of ``D``, mod ``M``;
- **min_coins** / **max_coins**: the fewest / most coins summing to a target when each value may
  be used at most ``L`` times, -1 if impossible;
- **count_change**: the number of ways to pay a target (order counted with unlimited coins, or
  order ignored with at most ``L`` coins of each value), modulo ``M``.

Levels grow the number of items, weights and capacities; the difficulty measure is the dynamic
programme's table size on the largest test. Expected outputs come from the reference source (the
gold answer) run in-process (``tests/code`` also checks it against brute force).

Version 3: the fewest and the most coins are tested on the first target where the greedy rule (the largest coins
first for the fewest, the smallest first for the most, each as often as allowed) goes wrong, if one is in the
tests' range: that greedy passed 0.29-0.33 of the fewest-coins problems of levels 0-4 (60 seeds a level); now it
passes only those where it is right on every target in range (0-0.29 of them), a correct program there.

Generation speed: about 290 problems/s at level 4 on this 2-core machine. The reference knapsack
programme and each of its near-miss variants (a constant moved by one, a flag flipped, a coin left out,
the modulus ignored) are compiled in-process and run on every test, to prove the hidden tests reject
every near miss; that proof is nearly all the time, and it is what keeps almost-right solutions from
earning reward.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, register, retry
from palaestra.core.task import Growth
from palaestra.envs.code.common import FunctionTask, function_problem, pinned_tests
from palaestra.envs.code.templates import ProgramTexts

# Primes below 2,000, so results wrap (each problem has a test whose count exceeds its modulus).
MODULI = tuple(p for p in range(97, 2000) if all(p % d for d in range(2, int(p ** 0.5) + 1)))
MAX_COIN = 12

CODE = ProgramTexts("knapsack")


@register
class Knapsack(FunctionTask):
    id = "code/knapsack"
    description = "Dynamic programming: knapsack, subset-count and coin-change variants with generated constraints."
    tags = ("code", "programming", "dynamic-programming")
    version = 3  # v3: the fewest or most coins are tested on a target where taking coins greedily goes wrong

    @dataclass(frozen=True)
    class Config:
        max_items: int
        max_weight: int
        max_capacity: int
        tests: int

    presets = (
        Config(max_items=5, max_weight=6, max_capacity=12, tests=10),
        Config(max_items=7, max_weight=8, max_capacity=20, tests=10),
        Config(max_items=9, max_weight=10, max_capacity=30, tests=12),
        Config(max_items=12, max_weight=15, max_capacity=45, tests=12),
        Config(max_items=16, max_weight=20, max_capacity=60, tests=14),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
            variant = rng.choice(sorted(VARIANTS))
            spec = VARIANTS[variant].draw(rng, config)
            inputs = VARIANTS[variant].inputs(rng, config, spec)
            tests = pinned_tests(_source, spec, spec_mutants(spec), inputs, at_least=4)  # every constant matters
            return (spec, tests) if tests else None

        spec, tests = retry(draw, what="a knapsack variant with varied results")
        v = VARIANTS[spec["variant"]]
        return function_problem(function="solve", params=v.params, task_text=v.text(spec), tests=tests,
                                reference_source=_source(spec), examples=2, extra={"spec": spec})

    def difficulty(self, problem: Problem) -> float:
        """The dynamic programme's table size on the largest test (items or coins times capacity or target)."""
        return max(table_size(problem.data["spec"], t["args"]) for t in problem.data["tests"])


def spec_mutants(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """Near misses of a specification: each integer constant moved by one, each flag flipped, each coin
    left out, the modulus ignored."""
    out: list[dict[str, Any]] = []
    for key, value in spec.items():
        if key == "ordered":  # ordered and unordered counts differ everywhere; and they use other constants
            continue
        if key == "m":
            out.append({**spec, "m": 10 ** 30})
        elif type(value) is bool:
            out.append({**spec, key: not value})
        elif type(value) is int:
            out += [{**spec, key: value - 1}, {**spec, key: value + 1}]
        elif isinstance(value, list):
            out += [{**spec, key: value[:i] + value[i + 1:]} for i in range(len(value))]
    return out


def table_size(spec: dict[str, Any], args: list[Any]) -> int:
    """Cells of the reference's table on one input."""
    kind = spec["variant"]
    if kind == "zero_one":
        return (len(args[0]) + 1) * (spec["k"] + 1) * (args[2] + 1)
    if kind == "bounded":
        return (len(args[0]) + 1) * spec["l"] * (args[2] + 1)
    if kind == "count_subsets":
        return (len(args[0]) + 1) * (spec["k"] + 1) * (args[1] + 1)
    if kind == "divisible_subsets":
        return (len(args[0]) + 1) * spec["d"]
    return len(spec["coins"]) * spec.get("l", 1) * (args[0] + 1)


@dataclass(frozen=True)
class Variant:
    params: str
    draw: Any
    inputs: Any
    text: Any


# --- each variant: parameters, test inputs, statement, reference source ---------------------

def _items(rng: random.Random, config: Knapsack.Config) -> list[list[Any]]:
    n = config.max_items
    inputs: list[list[Any]] = [
        [[], [], rng.randint(0, config.max_capacity)], [[3], [5], 2], [[2], [7], 2],
        [[1] * n, [20] * n, n * 6],  # many light valuable items: the limits on items and copies bind
        [[rng.randint(1, 3) for _ in range(n)], [1] * n, config.max_capacity],  # items worth less than their fees
    ]
    while len(inputs) < config.tests:
        n = rng.randint(1, config.max_items)
        weights = [rng.randint(1, config.max_weight) for _ in range(n)]
        values = [rng.randint(1, 20) for _ in range(n)]
        inputs.append([weights, values, rng.randint(0, config.max_capacity)])
    return inputs


def _fees(s: dict[str, Any], unit: str) -> tuple[str, str]:
    """(how a selection's worth is computed, in words; the per-item worth, as code over wt and val)."""
    parts = [f"its value minus a fee of {s['fee']}"] if s["fee"] else ["its value"]
    if s["per_weight"]:
        parts.append(f"minus {s['per_weight']} times its weight")
    words = f"each {unit} taken is worth " + " ".join(parts)
    code = "val" + (f" - {s['fee']}" if s["fee"] else "") + (f" - {s['per_weight']} * wt" if s["per_weight"] else "")
    return words, code


def _zero_one_text(s: dict[str, Any]) -> str:
    worth, _ = _fees(s, "item")
    count = (f"at most {s['k']} item{'s' if s['k'] != 1 else ''}" if not s["least"] else
             f"at least {s['least']} and at most {s['k']} items")
    weight = "exactly `capacity`" if s["exact"] else "at most `capacity`"
    return (
        "Write a Python function `solve(weights, values, capacity)`. Item i has weight `weights[i]` (a positive "
        f"integer) and value `values[i]`; each item can be taken at most once, and {worth}. A selection's worth is "
        f"the sum of the worths of its items. Among the selections of {count} whose total weight is {weight}, "
        "return the largest worth, or None if there is no such selection (the empty selection has weight 0 and "
        "worth 0)."
    )


def _bounded_text(s: dict[str, Any]) -> str:
    worth, _ = _fees(s, "copy")
    bonus = (f" Moreover, every item type of which at least one copy is taken earns a bonus of {s['bonus']} (once "
             "per type).") if s["bonus"] else ""
    return (
        "Write a Python function `solve(weights, values, capacity)`. Item type i has weight `weights[i]` (a "
        f"positive integer) and value `values[i]`, and you may take up to {s['l']} copies of each item type; "
        f"{worth}.{bonus} A selection's worth is the sum of these. Return the largest worth of a selection whose "
        "total weight is at most `capacity` (the empty selection is worth 0)."
    )


def _count_subsets_text(s: dict[str, Any]) -> str:
    return (
        "Write a Python function `solve(weights, target)` that returns the number of ways to choose exactly "
        f"{s['k']} of the positions of `weights` (a list of positive integers; equal values at different "
        "positions count as different items) so that the chosen weights sum to "
        f"{'at most' if s['at_most'] else 'exactly'} `target`, modulo {s['m']}."
    )


def _coins(s: dict[str, Any]) -> str:
    return ", ".join(map(str, s["coins"]))


def _coin_count_text(s: dict[str, Any]) -> str:
    """The statement of min_coins and max_coins."""
    most = "largest" if s["variant"] == "max_coins" else "smallest"
    return (
        f"Coins have the values {_coins(s)}, and at most {s['l']} coin{'s' if s['l'] != 1 else ''} of each value "
        f"may be used. Write a Python function `solve(target)` that returns the {most} number of coins whose "
        "values sum to exactly `target` (0 for target 0), or -1 if it cannot be done."
    )


def _count_change_text(s: dict[str, Any]) -> str:
    if s["ordered"]:
        how = ("each available in unlimited supply. Return the number of sequences of coins (the order of "
               "payment matters: 1+2 and 2+1 are different)")
    else:
        how = (f"and at most {s['l']} coin{'s' if s['l'] != 1 else ''} of each value may be used. Return the number "
               "of combinations of coins (the order does not matter: 1+2 and 2+1 are the same)")
    return (
        f"Coins have the values {_coins(s)}, {how} whose values sum to exactly `target`, modulo {s['m']} "
        "(paying 0 has exactly one way). Write a Python function `solve(target)` that returns it for an integer "
        "target >= 0."
    )


def _divisible_text(s: dict[str, Any]) -> str:
    return (
        "Write a Python function `solve(weights)` that returns the number of non-empty choices of positions of "
        "`weights` (a list of positive integers; equal values at different positions count as different items) "
        f"whose chosen weights sum to a multiple of {s['d']}, modulo {s['m']}."
    )


def _source(s: dict[str, Any]) -> str:
    """The reference source of a variant: its section of templates/knapsack.txt with the pieces the
    specification decides filled in."""
    key = f"count_change.{'ordered' if s['ordered'] else 'limited'}" if s["variant"] == "count_change" else s["variant"]
    return CODE(key, s=s, worth=_fees(s, "item")[1] if "fee" in s else "",
                ws="[capacity]" if s.get("exact") else "range(capacity + 1)",
                bonus=f" + {s['bonus']}" if s.get("bonus") else "",
                final="sum(ways[k]) % m" if s.get("at_most") else "ways[k][target]")


def _zero_one_spec(rng: random.Random) -> dict[str, Any]:
    k = rng.randint(1, 6)
    return {"variant": "zero_one", "k": k, "least": rng.randint(0, min(2, k)), "exact": rng.random() < 0.4,
            "fee": rng.randint(0, 9), "per_weight": rng.randint(0, 3)}


def _coin_set(rng: random.Random, config: Knapsack.Config) -> list[int]:
    return sorted(rng.sample(range(1, max(MAX_COIN, config.max_weight) + 1), rng.randint(2, 5)))


def _targets(rng: random.Random, config: Knapsack.Config, spec: dict[str, Any]) -> list[list[Any]]:
    """Targets; for the fewest or most coins, the first where taking coins greedily goes wrong, if any (greedy passed
    0.3 of those problems when the targets fell as they came); drawn without the rng, so other draws stay."""
    top = config.max_capacity * 2
    big = [[config.max_capacity * 6]]  # counts beyond the modulus
    inputs = [[0], [1], [top]] + [[rng.randint(2, top)] for _ in range(config.tests - 4)] + big
    if spec["variant"] in ("min_coins", "max_coins"):
        wrong = _greedy_misses(spec, big[0][0])
        if wrong:
            inputs[3] = wrong[:1]
    return inputs


def _greedy_misses(spec: dict[str, Any], top: int) -> list[int]:
    """The targets from 2 to ``top`` whose count of coins the greedy rule gets wrong: the largest coins first for
    the fewest, the smallest first for the most, each as many times as allowed and fits."""
    most = spec["variant"] == "max_coins"
    best: list[int | None] = [0] + [None] * top  # the bounded knapsack's table, as the reference fills it
    for coin in spec["coins"]:
        for target in range(top, 0, -1):
            for copies in range(1, spec["l"] + 1):
                before = best[target - copies * coin] if copies * coin <= target else None
                now = best[target]
                if before is not None and (now is None or (before + copies > now if most else before + copies < now)):
                    best[target] = before + copies

    def greedy(target: int) -> int:
        count = 0
        for coin in sorted(spec["coins"], reverse=not most):
            copies = min(spec["l"], target // coin)
            target, count = target - copies * coin, count + copies
        return count if target == 0 else -1

    return [target for target in range(2, top + 1) if greedy(target) != (best[target] if best[target] is not None
                                                                          else -1)]


def _subset_targets(rng: random.Random, config: Knapsack.Config, spec: dict[str, Any]) -> list[list[Any]]:
    """Weights and targets that some choice of exactly k items reaches (and a few that none does)."""
    k = spec["k"]
    inputs: list[list[Any]] = [[[1, 2], 0], [[], 3], [[3] * k, 3 * k]]
    ones = next((n for n in range(k, 2000) if math.comb(n, k) > spec["m"]), None)
    if ones is not None:  # C(ones, k) choices: beyond the modulus (no list that short gets there when k is 1)
        inputs.append([[1] * ones, k])
    while len(inputs) < config.tests:
        n = rng.randint(k, max(k, config.max_items + 4))
        weights = [rng.randint(1, config.max_weight) for _ in range(n)]
        target = sum(rng.sample(weights, k)) if rng.random() < 0.8 else rng.randint(1, config.max_capacity)
        inputs.append([weights, target])
    return inputs


def _weight_lists(rng: random.Random, config: Knapsack.Config, spec: dict[str, Any]) -> list[list[Any]]:
    inputs: list[list[Any]] = [[[]], [[spec["d"]]], [[1] * 5]]
    inputs.append([[rng.randint(1, config.max_weight * 3) for _ in range(24)]])  # counts beyond the modulus
    while len(inputs) < config.tests:
        n = rng.randint(2, config.max_items + 4)
        inputs.append([[rng.randint(1, config.max_weight * 3) for _ in range(n)]])
    return inputs


def _count_change_spec(rng: random.Random, config: Knapsack.Config) -> dict[str, Any]:
    spec = {"variant": "count_change", "coins": _coin_set(rng, config), "ordered": rng.random() < 0.3,
            "m": rng.choice(MODULI)}
    return spec if spec["ordered"] else {**spec, "l": rng.randint(1, 4)}  # ordered: unlimited coins


VARIANTS: dict[str, Variant] = {
    "zero_one": Variant(
        "weights, values, capacity",
        lambda r, c: _zero_one_spec(r),
        lambda r, c, s: _items(r, c), _zero_one_text),
    "bounded": Variant(
        "weights, values, capacity",
        lambda r, c: {"variant": "bounded", "l": r.randint(2, 6), "fee": r.randint(0, 12),
                      "per_weight": r.randint(0, 4), "bonus": r.randint(0, 8)},
        lambda r, c, s: _items(r, c), _bounded_text),
    "count_subsets": Variant(
        "weights, target",
        lambda r, c: {"variant": "count_subsets", "k": r.randint(1, 6), "m": r.choice(MODULI),
                      "at_most": r.random() < 0.5},
        _subset_targets, _count_subsets_text),
    "divisible_subsets": Variant(
        "weights",
        lambda r, c: {"variant": "divisible_subsets", "d": r.randint(3, 30), "m": r.choice(MODULI)},
        _weight_lists, _divisible_text),
    "min_coins": Variant(
        "target",
        lambda r, c: {"variant": "min_coins", "coins": _coin_set(r, c), "l": r.randint(1, 4)},
        _targets, _coin_count_text),
    "max_coins": Variant(
        "target",
        lambda r, c: {"variant": "max_coins", "coins": _coin_set(r, c), "l": r.randint(1, 4)},
        _targets, _coin_count_text),
    "count_change": Variant(
        "target",
        _count_change_spec,
        _targets, _count_change_text),
}
