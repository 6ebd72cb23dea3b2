"""Make an amount with the fewest coins from given denominations (unlimited coins of each).

Denominations are random (not a canonical coin system), and instances are redrawn until the greedy
method (largest coin first) uses more coins than necessary or fails, and so
does its common repair (each possible count of the largest coin, the rest paid greedily; it still found
the optimum in 0.53-0.57 of levels 1-4 of version 1), and (version 3) its two generalisations: each possible
count of **any one** coin, the rest paid largest first with the other coins (0.94/0.80/0.66 of levels 1/2/4 of
version 2), and largest first without one or two of the coin values (0.31/0.27/0.19), from level 2 on (at every level
since version 4), so the dynamic programme is needed. All four are declared to the kit. Version 4: levels 0-1 had 3
coins, too few for instances that beat the generalised repairs (about 1 draw in 100, and only some hundreds of
distinct instances), so level 0 was drawn against none and level 1 against the first two; the third still paid
0.99/0.95 of levels 0/1, the fourth 0.71/0.31 (300 seeds). Both now have 4 coins (up to 40 and 45; amounts 30-60 and
40-80: tens of thousands of instances that beat all four, about 1 draw in 90 and 1 in 45) and are drawn against all
four rules. The verifier accepts **any** minimum solution: coins of the given denominations, summing to the amount, as
few as the optimum (dynamic programme at generation).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.algorithms.common import read_ints
from palaestra.verifiers.numeric import read_integer

_PLUS = re.compile(r" ?\+ ?")


@register
class CoinChange(Task):
    id = "algorithms/coin_change"
    family = "algorithms"
    description = "Make an amount with the fewest coins of the given denominations."
    tags = ("algorithms", "dynamic-programming", "optimization")
    version = 4

    @dataclass(frozen=True)
    class Config:
        coins: int
        largest_coin: int
        amount: tuple[int, int]
        beat_greedy: bool
        beat_generalised: bool = False  # also the two generalised repairs (from level 2: level 1's space is too small)

    presets = (
        Config(coins=4, largest_coin=40, amount=(30, 60), beat_greedy=True, beat_generalised=True),
        Config(coins=4, largest_coin=45, amount=(40, 80), beat_greedy=True, beat_generalised=True),
        Config(coins=4, largest_coin=30, amount=(50, 100), beat_greedy=True, beat_generalised=True),
        Config(coins=5, largest_coin=40, amount=(80, 160), beat_greedy=True, beat_generalised=True),
        Config(coins=6, largest_coin=60, amount=(150, 300), beat_greedy=True, beat_generalised=True),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[list[int], int, list[int]] | None:
            coins = sorted(rng.sample(range(2, config.largest_coin + 1), config.coins))
            amount = rng.randint(*config.amount)
            best = fewest_coins(coins, amount)
            if best is None:
                return None
            if config.beat_greedy:
                for rule in list(_RULES.values())[: 4 if config.beat_generalised else 2]:
                    greedy = rule(coins, amount)
                    if greedy is not None and len(greedy) == len(best):
                        return None
            return coins, amount, best

        coins, amount, best = retry(draw, what="coins that greedy change-making gets wrong", attempts=5000)
        stranger = next(v for v in range(2, 2 * config.largest_coin) if v not in coins)  # the example is no answer
        prompt = (
            f"Coins come in the values {', '.join(map(str, coins))}, with as many coins of each value as you like. "
            f"Pay exactly {amount} using as few coins as possible. List the coins you use, separated by +, "
            f"for example: {stranger} + {stranger} + {stranger + 1}"
        )
        return Problem(prompt=prompt, answer=" + ".join(map(str, best)),
                       data={"coins": coins, "amount": amount, "fewest": len(best)})

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def policy(rule: Callable[[list[int], int], list[int] | None]) -> Callable[[Problem], str]:
            def pay(problem: Problem) -> str:
                coins = rule(problem.data["coins"], problem.data["amount"])
                return " + ".join(map(str, coins)) if coins else "0"

            return pay

        return {name: policy(rule) for name, rule in _RULES.items()}

    def difficulty(self, problem: Problem) -> float:
        """Amount times the number of denominations (the dynamic programme's table)."""
        return float(problem.data["amount"] * len(problem.data["coins"]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if not isinstance(answer, str) or len(answer) > 5_000:
            return Verdict.unparsed("answer too long")
        coins_text, _, total_text = answer.partition("=")  # "7 + 7 + 3 = 17" restates the amount
        if total_text and read_integer(total_text) != problem.data["amount"]:
            return Verdict.unparsed("the total after = is not the amount")
        values = read_ints(_PLUS.sub(", ", coins_text))
        if values is None:
            return Verdict.unparsed("expected coin values separated by +")
        strangers = [v for v in values if v not in problem.data["coins"]]
        if strangers:
            return Verdict.wrong(f"there is no coin of value {strangers[0]}")
        if sum(values) != problem.data["amount"]:
            return Verdict.wrong(f"the coins add up to {sum(values)}, not {problem.data['amount']}")
        return Verdict.judge(len(values) == problem.data["fewest"], f"{len(values)} coins is not the fewest")

    def spellings(self, problem: Problem) -> list[str]:
        coins = (problem.answer or "").split(" + ")
        return [*super().spellings(problem), ", ".join(reversed(coins)), "+".join(coins),
                f"{' + '.join(coins)} = {problem.data['amount']}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        coins = (problem.answer or "").split(" + ")
        amount = problem.data["amount"]
        wrong = [" + ".join(coins[:-1]) or "0", " + ".join([*coins, coins[0]])]
        greedy = _greedy(problem.data["coins"], amount)
        if greedy is not None and len(greedy) > problem.data["fewest"]:
            wrong.append(" + ".join(map(str, greedy)))
        wrong.append(" + ".join(["1"] * min(amount, 50)))
        return wrong


def fewest_coins(coins: list[int], amount: int) -> list[int] | None:
    """A fewest-coin way to pay ``amount`` (largest coins first), or None when impossible.

    >>> fewest_coins([3, 4, 6], 13)
    [6, 4, 3]
    """
    best: list[int | None] = [0] + [None] * amount
    last = [0] * (amount + 1)
    for total in range(1, amount + 1):
        for coin in coins:
            before = best[total - coin] if coin <= total else None
            if before is not None and (best[total] is None or before + 1 < best[total]):
                best[total], last[total] = before + 1, coin
    if best[amount] is None:
        return None
    out, total = [], amount
    while total:
        out.append(last[total])
        total -= last[total]
    return sorted(out, reverse=True)


def _greedy_varying_largest(coins: list[int], amount: int) -> list[int] | None:
    """Each possible count of the largest coin (most first), the rest paid greedily with the other coins; the
    fewest coins among the ways that pay exactly (the first found on ties), or None when none does."""
    largest, others = max(coins), [c for c in coins if c != max(coins)]
    best = None
    for count in range(amount // largest, -1, -1):
        rest = _greedy(others, amount - count * largest) if others else ([] if count * largest == amount else None)
        if rest is not None and (best is None or count + len(rest) < len(best)):
            best = [largest] * count + rest
    return best


def _greedy(coins: list[int], amount: int) -> list[int] | None:
    out = []
    for coin in sorted(coins, reverse=True):
        while amount >= coin:
            out.append(coin)
            amount -= coin
    return out if amount == 0 else None


def _greedy_varying_any(coins: list[int], amount: int) -> list[int] | None:
    """For each coin value and each possible count of it (most first), the rest paid greedily with the other coins;
    the fewest coins among the ways that pay exactly (the first found on ties), or None when none does."""
    best = None
    for coin in sorted(coins, reverse=True):
        others = [c for c in coins if c != coin]
        for count in range(amount // coin, -1, -1):
            rest = _greedy(others, amount - count * coin) if others else ([] if count * coin == amount else None)
            if rest is not None and (best is None or count + len(rest) < len(best)):
                best = sorted([coin] * count + rest, reverse=True)
    return best


def _greedy_some_values(coins: list[int], amount: int) -> list[int] | None:
    """Largest coin first without one or two of the coin values (or none left out): the fewest coins over these
    choices (the first found on ties), or None when none pays exactly. Quadratic in the number of values."""
    best = None
    dropped = [(), *((k,) for k in range(len(coins))), *combinations(range(len(coins)), 2)]
    for left_out in dropped:
        kept = [c for k, c in enumerate(coins) if k not in left_out]
        paid = _greedy(kept, amount) if kept else None
        if paid is not None and (best is None or len(paid) < len(best)):
            best = paid
    return best


# The rules a drawn instance must beat (from level 1 on), by the name the kit shows.
_RULES: dict[str, Callable[[list[int], int], list[int] | None]] = {
    "largest coin first": _greedy,
    "each count of the largest coin, the rest largest first": _greedy_varying_largest,
    "each count of any one coin, the rest largest first": _greedy_varying_any,
    "largest coin first without one or two of the coin values": _greedy_some_values,
}
