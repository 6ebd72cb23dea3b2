"""Replay a ledger of stock movements over opening balances and report the closing stock per item and warehouse.

Opening stock (item, warehouse, quantity) and a numbered list of movements in time order are given:
receipts, shipments, transfers between warehouses, and stock counts that set a quantity outright. A
shipment or transfer asking for more than its source holds at that moment is rejected as a whole (it
changes nothing); between one movement and a third of them (one at level 0) are rejected, so the ledger must
be replayed in order, not summed. Since v2 every ledger has a stock count that changes the closing stock
(v1: replaying without the counts answered 0.69 of level 0, 0.33 of level 2 and 0.16 of level 4), and from
level 1 (since v3 at every level) moving what the source holds instead of rejecting an over-draw gives another
closing stock. The answer gives the closing
quantity of every item at every warehouse as ``item_W1 = 12`` pairs in any order (zeros included); the
verifier reads them with the shared assignment reader and names the first wrong pair.

Difficulty: the movements plus the item-warehouse pairs plus twice the rejected movements.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.data.common import WORDS, keyed_text, keyed_verdict
from palaestra.verifiers.normalize import markup_spellings

EXAMPLE = "widget_W1 = 12, widget_W2 = 0"  # a fixed placeholder: never derived from the answer


def replay(stock: dict[str, int], movements: list[list[Any]], *,
           partial: bool = False) -> tuple[dict[str, int], list[int]]:
    """Closing stock (``item_W`` keys) and the numbers of the rejected movements.

    ``partial`` misreads the rule as moving what the source holds (the over-draw clamped, not rejected).
    """
    stock = dict(stock)
    rejected = []
    for number, (kind, item, quantity, source, target) in enumerate(movements, start=1):
        if kind == "receive":
            stock[f"{item}_{target}"] += quantity
        elif kind == "count":
            stock[f"{item}_{target}"] = quantity
        elif stock[f"{item}_{source}"] < quantity and not partial:
            rejected.append(number)
        else:
            quantity = min(quantity, stock[f"{item}_{source}"])
            stock[f"{item}_{source}"] -= quantity
            if kind == "transfer":
                stock[f"{item}_{target}"] += quantity
    return stock, rejected


def describe(movement: list[Any]) -> str:
    kind, item, quantity, source, target = movement
    return {"receive": f"receive {quantity} {item} at {target}",
            "ship": f"ship {quantity} {item} from {source}",
            "transfer": f"transfer {quantity} {item} from {source} to {target}",
            "count": f"stock count: {item} at {target} is {quantity}"}[kind]


@register
class StockLedger(Task):
    id = "data/stock_ledger"
    family = "data"
    description = "Replay stock movements (receipts, shipments, transfers, counts; over-draws rejected) to closing stock."
    tags = ("data", "ledgers", "state-tracking")
    version = 3  # v3: a rejection changes the closing stock at every level; v2: a stock count always does

    @dataclass(frozen=True)
    class Config:
        items: int
        warehouses: int
        movements: int

    presets = (Config(2, 2, 5), Config(2, 2, 8), Config(3, 2, 11), Config(3, 3, 15), Config(4, 3, 20))
    growth = Growth(steps={"movements": 5, "items": 1}, limits={"items": 10})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        items = rng.sample(WORDS["products"], config.items)
        warehouses = [f"W{i + 1}" for i in range(config.warehouses)]
        keys = [f"{item}_{w}" for item in items for w in warehouses]

        def draw() -> tuple[dict[str, int], list[list[Any]]]:
            opening = {key: rng.randint(0, 25) for key in keys}
            movements: list[list[Any]] = []
            for _ in range(config.movements):
                kind = rng.choices(("receive", "ship", "transfer", "count"), (3, 4, 3, 1))[0]
                item = rng.choice(items)
                source, target = rng.sample(warehouses, 2)
                quantity = rng.randint(1, 20) if kind != "count" else rng.randint(0, 30)
                movements.append([kind, item, quantity, source if kind in ("ship", "transfer") else "",
                                  target if kind in ("receive", "transfer", "count") else ""])
            return opening, movements

        def interesting(drawn: tuple[dict[str, int], list[list[Any]]]) -> bool:
            closing, rejected = replay(*drawn)
            uncounted, _ = replay(drawn[0], [m for m in drawn[1] if m[0] != "count"])
            if uncounted == closing:  # a stock count must change the closing stock
                return False
            # some rejection must matter: moving what the source holds instead gives another closing stock (since
            # v3 at level 0 too: ignoring the rejection rule answered 0.37 of v2's level 0)
            return 1 <= len(rejected) <= max(1, config.movements // 3) and replay(*drawn, partial=True)[0] != closing

        opening, movements = retry(draw, interesting, attempts=300, what="a ledger with some rejected movements")
        closing, rejected = replay(opening, movements)
        opening_text = "\n".join(f"{item} at {w}: {opening[f'{item}_{w}']}" for item in items for w in warehouses)
        ledger = "\n".join(f"{number}. {describe(m)}" for number, m in enumerate(movements, start=1))
        prompt = (
            f"Opening stock:\n\n{opening_text}\n\nMovements, in time order:\n\n{ledger}\n\nA shipment or transfer "
            "that asks for more than its source warehouse holds at that moment is rejected and changes nothing. A "
            "stock count sets the quantity to the counted number.\n\nGive the closing stock of every item at every "
            "warehouse as item_warehouse = quantity pairs separated by commas, in any order (zeros included), "
            f"for example: {EXAMPLE}"
        )
        data = {"result": closing, "keys": keys, "movements": len(movements), "rejected": rejected}
        return Problem(prompt=prompt, answer=keyed_text(closing), data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        return keyed_verdict(answer, problem.data["result"], problem.data["keys"], what="pair", example=EXAMPLE)

    def difficulty(self, problem: Problem) -> float:
        """Movements + item-warehouse pairs + 2 per rejected movement."""
        data = problem.data
        return float(data["movements"] + len(data["keys"]) + 2 * len(data["rejected"]))

    def spellings(self, problem: Problem) -> list[str]:
        result = problem.data["result"]
        return [*markup_spellings(problem.answer or ""), keyed_text(dict(reversed(list(result.items()))), "\n"),
                ", ".join(f"{k}: {v}" for k, v in result.items())]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        result = problem.data["result"]
        victim = rng.choice(list(result))
        return [keyed_text({**result, victim: result[victim] + 1}),
                keyed_text({k: v for k, v in result.items() if k != victim}),
                keyed_text(dict.fromkeys(result, 0))]
