"""Red team r31: web/compare_sites' stated rules decide the lowest total (v2, levels 0-4: counting the free-shipping
threshold before the deal was right in 0.97-0.99 of the problems, the deal without its threshold 0.77-0.87, the flat
fee always due 0.73-0.86, the first item's fee for every item 0.62-0.77, comparing the shops for one unit 0.66-0.84)."""

from __future__ import annotations

import functools
from typing import Any

from envs_support import cents, compare_sites_offers

from palaestra.core.registry import make_source

SITES = make_source("web/compare_sites")


@functools.cache
def _problem(level: int, seed: int) -> Any:
    return SITES.sample(level, seed)


def _total(price: int, units: int, rule: dict[str, Any], deal: tuple[int, int] | None, misread: str = "") -> int:
    before = price * units
    items = before
    if deal and misread != "no deal" and (before >= deal[1] or misread == "deal at any cost"):
        items = -(-before * (100 - deal[0]) // 100) if misread == "rounded up" else before * (100 - deal[0]) // 100
    if rule["kind"] == "flat":
        basis = before if misread == "threshold before the deal" else items
        return items + (rule["fee"] if misread == "fee always" or basis < rule["free_from"] else 0)
    if misread == "first fee each":
        return items + rule["first"] * units
    return items + rule["first"] + rule["further"] * (units - 1)


def _share(misread: str, kind: str | None, levels: range, seeds: int) -> float:
    """The share of the problems (those whose shops ship by ``kind``, when given) the misreading answers right."""
    right = counted = 0
    for level in levels:
        for seed in range(seeds):
            problem = _problem(level, seed)
            offers = compare_sites_offers(problem)
            if kind is not None and offers[0][1]["kind"] != kind:
                continue
            units = problem.data["units"]
            assert min(_total(p, units, r, d) for p, r, d in offers) == cents(problem.answer)  # the parse is right
            right += min(_total(p, units, r, d, misread) for p, r, d in offers) == cents(problem.answer)
            counted += 1
    assert counted >= seeds // 4
    return right / counted


def test_compare_r31_the_free_shipping_rules_decide() -> None:
    assert _share("threshold before the deal", "flat", range(2, 5), 30) < 0.55
    assert _share("fee always", "flat", range(0, 5), 24) < 0.5


def test_compare_r31_the_deal_rules_decide() -> None:
    assert _share("deal at any cost", None, range(2, 5), 24) < 0.4
    assert _share("rounded up", None, range(2, 5), 24) < 0.4
    assert _share("no deal", None, range(2, 5), 24) < 0.2


def test_compare_r31_the_per_item_fees_decide() -> None:
    assert _share("first fee each", "per item", range(0, 5), 24) < 0.1


def test_compare_r31_comparing_the_shops_for_one_unit_fails() -> None:
    right = 0
    for level in range(5):
        for seed in range(16):
            problem = _problem(level, seed)
            offers = compare_sites_offers(problem)
            price, rule, deal = min(offers, key=lambda offer: _total(offer[0], 1, offer[1], offer[2]))
            right += _total(price, problem.data["units"], rule, deal) == cents(problem.answer)
    assert right / 80 < 0.2, right
