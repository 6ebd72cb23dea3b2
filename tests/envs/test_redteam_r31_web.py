"""Red team r31 (web): the boundary and free-shipping misreadings fail.

web/compare_sites v3 required only two misreadings to fail with flat fees and deals, so counting the free-shipping
threshold before the deal (0.32-0.38 at levels 2-4) and the fee always due (0.36-0.37) still paid; v4: 0. web/checkout
v2 drew the days asked for anywhere between the answer's and the next cheaper option's, so reading "within N days" as
"under N days" (0.25-0.42) or as "N + 1 days or under" (0.28-0.40) often picked the answer; v3: under 0.1.
"""

from __future__ import annotations

import functools
from typing import Any

from envs_support import cents, compare_sites_offers

from palaestra.core.registry import make_source

SITES = make_source("web/compare_sites")
SHOPS = make_source("web/checkout")


# --- web/compare_sites: both readings of the free-shipping rule fail -----------------------------------------------

@functools.cache
def _site(level: int, seed: int) -> Any:
    return SITES.sample(level, seed)


def _total(price: int, units: int, rule: dict[str, Any], deal: tuple[int, int] | None, misread: str = "") -> int:
    before = items = price * units
    if deal and before >= deal[1]:
        items = before * (100 - deal[0]) // 100
    basis = before if misread == "threshold before the deal" else items
    return items + (rule["fee"] if misread == "fee always" or basis < rule["free_from"] else 0)


def _flat_share(misread: str) -> float:
    """The share of levels 2-4's problems with flat shipping fees that ``misread`` answers right."""
    right = counted = 0
    for level in range(2, 5):
        for seed in range(40):
            problem = _site(level, seed)
            offers = compare_sites_offers(problem)
            if "fee" not in offers[0][1]:
                continue  # shipping by the item
            units = problem.data["units"]
            assert min(_total(p, units, r, d) for p, r, d in offers) == cents(problem.answer)  # the parse is right
            right += min(_total(p, units, r, d, misread) for p, r, d in offers) == cents(problem.answer)
            counted += 1
    assert counted >= 30
    return right / counted


def test_compare_r31_web_the_threshold_counted_before_the_deal_fails() -> None:
    assert _flat_share("threshold before the deal") < 0.1


def test_compare_r31_web_the_fee_always_due_fails() -> None:
    assert _flat_share("fee always") < 0.1


# --- web/checkout: the days asked for sit at the answer's edge ------------------------------------------------------

def _checkout_share(reads_within: Any) -> float:
    """The share of levels 0-4's problems where choosing the cheapest option ``reads_within(days, asked)`` allows is
    every order's answer (v6 asks for two orders, each with its own days)."""
    right = 0
    for level in range(5):
        for seed in range(60):
            problem = SHOPS.sample(level, seed)
            options = problem.data["records"]["shipping"]
            for order in problem.data["orders"]:
                allowed = [(option["price"], code) for code, option in options.items()
                           if reads_within(option["days"], order["within"])]
                if not allowed or min(allowed)[1] != order["shipping"]:
                    break
            else:
                right += 1
    return right / 300


def test_checkout_r31_web_the_stated_reading_is_the_answer() -> None:
    assert _checkout_share(lambda days, asked: days <= asked) == 1


def test_checkout_r31_web_within_read_as_under_fails() -> None:
    # v5 (session 32) puts the answer at the deadline in half the problems, so that "under N days" and "exactly N
    # days" each win about half (v3-v4: under 0.2 and 0.82-0.94): one deadline cannot make both err. v6 (session 34)
    # asks for two orders, one at its deadline and one under it: both 0 (tests/envs/test_redteam_r34_checkout.py).
    assert _checkout_share(lambda days, asked: days < asked) < 0.65
    assert _checkout_share(lambda days, asked: days == asked) < 0.65


def test_checkout_r31_web_within_read_as_one_day_more_fails() -> None:
    assert _checkout_share(lambda days, asked: days <= asked + 1) < 0.2
