"""The winner and the price of an auction from the bidders' values and a stated bidding rule.

Formats (the levels mix them):

- second-price sealed bid, everyone bidding their value: the highest value wins and pays the second highest
  bid (or the reserve price, if higher);
- first-price sealed bid, everyone bidding the stated fraction (n − 1)/n of their value (the symmetric
  equilibrium for independent uniform values): the highest bid wins and pays it;
- English (ascending clock): the price starts low and rises by a fixed step; a bidder stays in while the price
  is at most their value; when one bidder is left they win at the current price;
- Dutch (descending clock): the price starts high and falls by a fixed step; each bidder accepts once the price
  is at most the stated fraction of their value; the first to accept wins at that price.

Values are drawn so that no tie decides anything (distinct top values; the clock never loses the last two
bidders at once; the Dutch clock never reaches two bidders' thresholds at the same step), so the answer is
unique; it is compared exactly (the price as an exact number of dollars). Bidder names are drawn afresh for
every auction, so no constant name wins often, and the feedback tells a wrong price from a wrong winner.

Difficulty: the bidders times the format's weight (second-price 1, first-price 2, English 3, Dutch 3), plus
the clock's steps for the clock formats.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.assignments import read_assignment
from palaestra.verifiers.normalize import read_answer, squeeze_spaces
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.rationals import format_fraction
from palaestra.verifiers.sets import one_of

BIDDERS = ("Avery", "Blair", "Casey", "Drew", "Emery", "Frankie", "Gray", "Harper", "Indy", "Jordan", "Kit",
           "Logan", "Morgan", "Noor")
FORMAT_WEIGHT = {"second-price": 1, "first-price": 2, "english": 3, "dutch": 3}
DOLLARS = {"$": 1, "dollars": 1, "dollar": 1}
EXAMPLE = "winner: Zed, price: 41/2"  # a fixed placeholder of the right shape: never derived from the answer
MAX_ANSWER_CHARS = 2_000
# The outcome as a sentence: "Jordan wins and pays $237", "Kit wins the auction, paying 66 dollars", "Kit wins at a
# price of $66"; the name and the price are then read whole by the name and price readers.
_SENTENCE = re.compile(
    r"(?P<name>[A-Za-z]{1,20}) wins(?: the (?:item|auction))?,? "
    r"(?:and pays|paying|and pays a price of|at a price of|for|at) (?P<price>[^\n]{1,80})",
    re.IGNORECASE,
)
# The outcome as a bare pair, the winner first: "Jordan, $237", "Jordan; 237", "Jordan pays $237".
_PAIR = re.compile(r"(?P<name>[A-Za-z]{1,20})(?:\s*[,;:]\s*|\s+pays\s+)(?P<price>[^\n]{1,80})", re.IGNORECASE)


def english(values: list[int], start: int, step: int) -> tuple[int, int, int] | None:
    """(winner, price, steps) of the ascending clock, or ``None`` when the last two drop out together."""
    price, steps = start, 0
    while True:
        staying = [i for i, v in enumerate(values) if v >= price]
        if len(staying) == 1:
            return staying[0], price, steps
        if not staying:
            return None
        price, steps = price + step, steps + 1


def dutch(thresholds: list[Fraction], start: int, step: int) -> tuple[int, int, int] | None:
    """(winner, price, steps) of the descending clock, or ``None`` when two accept at the same step."""
    price, steps = start, 0
    while price > 0:
        accepting = [i for i, t in enumerate(thresholds) if price <= t]
        if len(accepting) == 1:
            return accepting[0], price, steps
        if accepting:
            return None
        price, steps = price - step, steps + 1
    return None


def _sentence(text: str, name_reader: Callable[[str], str | None]) -> dict[str, object] | None:
    """``{"winner": name, "price": price}`` from a sentence naming the winner and what they pay, else None."""
    match = _SENTENCE.fullmatch(text.strip()) or _PAIR.fullmatch(text.strip())
    if match is None:
        return None
    name, price = name_reader(match.group("name")), read_exact(match.group("price").strip(), units=DOLLARS)
    return None if name is None or price is None else {"winner": name, "price": price}


@register
class AuctionOutcomes(Task):
    id = "economics/auction_outcomes"
    family = "economics"
    description = "Winner and price of a second-price, first-price, English or Dutch auction from given values."
    tags = ("economics", "auctions", "game-theory")
    version = 2  # level 3 without second-price auctions

    @dataclass(frozen=True)
    class Config:
        bidders: int
        high: int  # values are drawn from 10 to this
        formats: tuple[str, ...]
        reserve: bool  # second-price auctions may have a reserve price

    presets = (Config(3, 60, ("second-price", "first-price"), False),
               Config(4, 100, ("second-price", "first-price", "english"), False),
               Config(4, 150, ("first-price", "english", "dutch"), True),
               Config(5, 200, ("first-price", "english", "dutch"), True),  # second-price (the lightest) made the mean fall
               Config(6, 300, ("english", "dutch"), True))
    growth = Growth(steps={"bidders": 1, "high": 100}, limits={"bidders": len(BIDDERS)})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(config.formats)
        n = rng.randint(max(2, config.bidders - 1), config.bidders)
        names = rng.sample(BIDDERS, n)
        share = Fraction(n - 1, n)

        def draw() -> tuple[list[int], int, Fraction, int, str] | None:
            values = [rng.randint(10, config.high) for _ in range(n)]
            ranked = sorted(values, reverse=True)
            if ranked[0] == ranked[1]:
                return None
            top = values.index(ranked[0])
            if kind == "second-price":
                reserve = rng.randint(ranked[2] if n > 2 else 10, ranked[0]) if config.reserve and rng.random() < 0.5 \
                    else 0
                rule = ("Each bidder submits a sealed bid equal to their value. The highest bid wins and pays the "
                        "second-highest bid" + (f", or the reserve price of ${reserve} if that is higher (the "
                                               f"highest bid must reach it)." if reserve else "."))
                return values, top, Fraction(max(ranked[1], reserve)), 0, rule
            if kind == "first-price":
                rule = (f"Each bidder submits a sealed bid equal to {format_fraction(share)} of their value (the "
                        "symmetric equilibrium bid). The highest bid wins and pays their own bid.")
                return values, top, share * ranked[0], 0, rule
            step = rng.choice((1, 2, 5, 10))
            if kind == "english":
                start = rng.randint(1, 10)
                outcome = english(values, start, step)
                rule = (f"English auction: the price starts at ${start} and rises by ${step} at a time. A bidder stays "
                        "in while the price is at most their value. As soon as only one bidder is left, they win and "
                        "pay the price at that moment.")
            else:
                start = config.high + rng.randint(1, 20)
                outcome = dutch([share * v for v in values], start, step)
                rule = (f"Dutch auction: the price starts at ${start} and falls by ${step} at a time. Each bidder "
                        f"accepts as soon as the price is at most {format_fraction(share)} of their value; the first "
                        "bidder to accept wins and pays the price at that moment.")
            if outcome is None:
                return None
            winner, price, steps = outcome
            return values, winner, Fraction(price), steps, rule

        values, winner, price, steps, rule = retry(draw, what="an auction decided without ties")
        listing = "\n".join(f"{name}: ${value}" for name, value in zip(names, values, strict=True))
        prompt = (
            f"Bidders value the item for sale as follows:\n\n{listing}\n\n{rule}\n\nWho wins, and what price do they "
            f"pay? Give the price exactly in dollars (a fraction, or a decimal only if it is exact), for example: "
            f"{EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=f"winner: {names[winner]}, price: {format_fraction(price)}",
                       data={"format": kind, "names": names, "values": values, "winner": names[winner],
                             "price": format_fraction(price), "steps": steps})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        names = problem.data["names"]
        name_reader = one_of(names)

        def read_value(text: str) -> str | Fraction | None:
            return name_reader(text) or read_exact(text, units=DOLLARS)

        written = read_assignment(answer, ["winner", "price"], read_value)
        if written is None and isinstance(answer, str) and len(answer) <= MAX_ANSWER_CHARS:
            written = read_answer(squeeze_spaces(answer), lambda text: _sentence(text, name_reader))
        if written is None or not isinstance(written["winner"], str) or not isinstance(written["price"], Fraction):
            return Verdict.unparsed(f"expected the winner and the price, such as winner: {names[0]}, price: 12")
        if written["winner"] != problem.data["winner"]:
            return Verdict.wrong(f"{written['winner']} does not win this auction")
        if written["price"] != Fraction(problem.data["price"]):
            return Verdict.wrong(f"{written['winner']} wins, but does not pay {format_fraction(written['price'])}")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Bidders times the format's weight, plus the clock's steps."""
        return float(len(problem.data["names"]) * FORMAT_WEIGHT[problem.data["format"]]
                     + math.sqrt(problem.data["steps"]))

    def spellings(self, problem: Problem) -> list[str]:
        winner, price = problem.data["winner"], Fraction(problem.data["price"])
        text = format_fraction(price)
        spelled = [*super().spellings(problem), f"winner = {winner}, price = ${text}", f"price: {text}, winner: {winner}",
                   f"Winner: {winner}\nPrice: {text}", f"Answer: winner: {winner}, price: {text}."]
        if price.denominator > 1 and 10 ** 6 % price.denominator == 0:
            spelled.append(f"winner: {winner}, price: {float(price)!r}")
        return spelled

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        names, values = problem.data["names"], problem.data["values"]
        winner, price = problem.data["winner"], Fraction(problem.data["price"])
        top, second = sorted(values, reverse=True)[:2]
        other = rng.choice([n for n in names if n != winner])
        candidates = [(other, price), (winner, price + 1)]
        candidates += [(winner, Fraction(p)) for p in (top, second) if Fraction(p) != price]
        wrong = [f"winner: {w}, price: {format_fraction(p)}" for w, p in candidates]
        return [*wrong, f"{problem.answer} or {wrong[0]}"]
