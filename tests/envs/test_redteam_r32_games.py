"""Red team r32 (games): rules that skip a stated rule earned reward.

interactive/preference_elicitation v5: knowing the weights but ignoring the must-haves won 0.70, 0.73, 0.44, 0.34,
0.29 of levels 0-4 (100 seeds; a user with no must-have was as likely as each must-have set, and levels 0-1 offered
one feature). v6: 0.00, 0.00, 0.01, 0.04, 0.00. (Assuming every feature a must-have still wins 0.47-0.85: see the
env's docstring.)

web/checkout v3: shipping prices rose with speed, so ignoring them paid: the slowest option within the days asked
for won every problem, the first option taking exactly those days 0.90-0.99, the fastest 0.17-0.35 (levels 0-5,
100 seeds). v4: 0.36-0.50, 0.36-0.46 and 0.
"""

from __future__ import annotations

from typing import Any

from palaestra.core.registry import make_source
from palaestra.envs.interactive.preference_elicitation import _position

RENTALS = make_source("interactive/preference_elicitation")
SHOPS = make_source("web/checkout")


# --- interactive/preference_elicitation: the must-haves decide -----------------------------------------------------

def _best_by_weights(data: dict[str, Any], required: list[str]) -> int:
    """The rental the user's weights prefer among those with every feature in ``required`` and none of the user's
    deal-breakers (v7; ties: the earlier)."""
    rentals = data["rentals"]
    pool = [i for i in range(len(rentals)) if all(rentals[i][f] for f in required)
            and not any(rentals[i][f] for f, refused in data["refuses"].items() if refused)]
    return max(pool, key=lambda i: (sum(w * _position(data, i, a) for a, w in data["weights"].items()), -i),
               default=-1)


def _rental_share(required: Any, levels: range, seeds: int = 40) -> float:
    """The share of ``levels``' problems where the weights' best rental among those with ``required(data)`` is the
    favourite."""
    right = sum(_best_by_weights(data, required(data)) == data["favourite"]
                for level in levels for seed in range(seeds) for data in [RENTALS.sample(level, seed).data])
    return right / (len(levels) * seeds)


def test_preference_elicitation_r32_the_true_must_haves_find_the_favourite() -> None:
    assert _rental_share(lambda data: [f for f, need in data["needs"].items() if need], range(5), 20) == 1


def test_preference_elicitation_r32_ignoring_the_must_haves_fails() -> None:
    for level in range(3):
        assert _rental_share(lambda data: [], range(level, level + 1)) < 0.2, level


# --- web/checkout: the prices decide ------------------------------------------------------------------------------

def _shipping_share(pick: Any, seeds: int = 40) -> float:
    """The share of levels 0-4's problems where ``pick(rows, asked)`` -- the checkout table's rows (code, days,
    price) in their order and the days an order asks for -- names every order's answer (v6: two orders)."""
    right = 0
    for level in range(5):
        for seed in range(seeds):
            problem = SHOPS.sample(level, seed)
            rows = [(code, o["days"], o["price"]) for code, o in problem.data["records"]["shipping"].items()]
            right += all(pick(rows, order["within"]) == order["shipping"] for order in problem.data["orders"])
    return right / (5 * seeds)


def _slowest_in_time(rows: list[tuple[str, int, int]], asked: int) -> str:
    return max((row for row in rows if row[1] <= asked), key=lambda row: row[1])[0]  # ties: the first row


def test_checkout_r32_the_cheapest_in_time_is_the_answer() -> None:
    assert _shipping_share(lambda rows, asked: min((p, c) for c, d, p in rows if d <= asked)[1], 20) == 1


def test_checkout_r32_ignoring_the_prices_fails() -> None:
    assert _shipping_share(_slowest_in_time) < 0.6
    assert _shipping_share(lambda rows, asked: next((c for c, d, p in rows if d == asked), "")) < 0.6


def test_checkout_r32_the_fastest_option_fails() -> None:
    assert _shipping_share(lambda rows, asked: min(rows, key=lambda row: row[1])[0]) < 0.05
