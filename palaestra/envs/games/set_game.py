"""Set: name three cards that form a set, turn after turn, until the stated number of sets is taken.

Every card has one value of each attribute (three values each): number (1, 2, 3), colour (red,
green, purple), shape (diamond, oval, squiggle) and, from level 1, shading (solid, striped,
open). Three cards form a *set* when, in every attribute, they are all alike or all different.
The deck (27 or 81 cards, or the first cards of such a deck) is shuffled at generation and held
in ``problem.data``; the model sees only the cards dealt to the table, labelled A, B, C, ....

Each turn the model names three cards of the table by their labels (``A F K``, ``A, F and K``,
``cards A, F, K``). A set is taken: its cards are replaced from the deck while the table holds no
more than its usual size (9 or 12 cards), and otherwise simply removed; whenever the table holds
no set and the deck is not empty, three more cards are dealt, as in the card game. Three cards
that are not a set cost the turn, and the feedback names every attribute that breaks it (``colour:
red, red, green``); an unreadable move, a label not on the table or a card named twice also costs
the turn. Reward 1 on the turn the stated number of sets is reached, 0 if the turns run out.

The goal is always reachable, whatever sets the player takes: the game only stops early when the
deck is empty and the table holds no set, and a set-free collection of cards (a cap set) has at
most 9 cards with three attributes and 20 with four, so at least ``(deck - 9) / 3`` or
``(deck - 18) / 3`` sets are taken before that; the goal is that count. The turn budget is the
goal plus the level's spare turns, so a wrong guess is affordable only a few times; three cards
named at random form a set about once in 30 to 80 tries. The oracle names the first set of the
table (in label order) and wins every game.

Levels: three attributes and a 27-card deck on a 9-card table, then four attributes with a
12-card table, a longer deck and fewer spare turns, up to the full 81 cards and 21 sets with one
spare turn. The difficulty measure is the search the oracle's game needed: the sum over its turns
of ``log2(triples on the table / sets on the table)``.
"""

from __future__ import annotations

import functools
import math
import random
import re
import string
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register
from palaestra.core.multiturn import MAX_MOVE_CHARS, History
from palaestra.verifiers.moves import read_move_answer
from palaestra.verifiers.normalize import strip_wrappers

ATTRIBUTES = (
    ("number", ("1", "2", "3")),
    ("colour", ("red", "green", "purple")),
    ("shape", ("diamond", "oval", "squiggle")),
    ("shading", ("solid", "striped", "open")),
)
# The most cards with no set among them (cap sets of the affine space over three values), by attribute count.
CAP_SET = {3: 9, 4: 20}


@register
class SetGame(MultiTurnTask):
    id = "games/set_game"
    family = "games"
    description = "Play the card game Set: name three cards alike or all different in every attribute, turn by turn."
    tags = ("games", "multi-turn", "cards", "pattern", "visual-reasoning")
    one_move_per_turn = True  # a reply naming two sets is refused (checked by the kit)
    version = 1

    @dataclass(frozen=True)
    class Config:
        attributes: int  # 3 or 4 attributes of three values each
        deck: int  # cards in play (a multiple of 3, at most 3 ** attributes)
        table: int  # cards on the table when no extra cards are out
        spare: int  # turns beyond the goal's count of sets

    presets = (
        Config(attributes=3, deck=27, table=9, spare=3),
        Config(attributes=4, deck=36, table=12, spare=3),
        Config(attributes=4, deck=48, table=12, spare=2),
        Config(attributes=4, deck=63, table=12, spare=2),
        Config(attributes=4, deck=81, table=12, spare=1),
    )
    bounded = "the top level plays the whole 81-card deck, the game itself"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.attributes
        deck = rng.sample(range(3**n), config.deck)
        goal = guaranteed_sets(n, config.deck)
        data: dict[str, Any] = {"attributes": n, "deck": deck, "table": config.table, "goal": goal,
                                "turns": goal + config.spare}
        bits = oracle_bits(data)
        data["oracle_bits"] = round(bits, 3)
        start = _deal({"table": [], "dealt": 0, "sets": 0}, data)
        names = ", ".join(f"{name} ({', '.join(values)})" for name, values in ATTRIBUTES[:n])
        prompt = (
            f"Let's play Set. Every card has {n} attributes with three values each: {names}. Three cards form a set "
            "when, in every attribute, the three cards are all the same or all different. "
            f"The deck has {config.deck} cards; {config.table} are dealt to the table. After you take a set its "
            f"cards are replaced from the deck (while the table would otherwise hold fewer than {config.table}); "
            "when the table holds no set, three more cards are dealt.\n\n"
            f"Collect {goal} sets within {data['turns']} turns. Each turn, name three cards of the table by their "
            "labels, for example: A D G. Three cards that are not a set cost the turn.\n\n"
            f"{_picture(start, n, len(deck))}"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        return float(problem.data["oracle_bits"])

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return _deal({"table": [], "dealt": 0, "sets": 0}, problem.data)

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data, n = problem.data, problem.data["attributes"]
        table = state["table"]
        labels = read_labels(move, len(table))
        if labels is None:
            return Outcome.invalid(state, f"name three cards by their labels A to {string.ascii_uppercase[len(table) - 1]}"
                                          ", for example: A D G")
        if len(set(labels)) < 3:
            return Outcome.invalid(state, "name three different cards")
        cards = [table[i] for i in labels]
        named = ", ".join(f"{string.ascii_uppercase[i]} ({describe(card, n)})" for i, card in zip(labels, cards))
        broken = breaking_attributes(cards, n)
        if broken:
            return Outcome(state, Verdict.wrong("not a set"), f"Not a set: {named}. Broken by {'; '.join(broken)}.")
        after = _take(state, data, labels)
        taken = f"Set taken: {named}. Sets: {after['sets']} of {data['goal']}."
        if after["sets"] >= data["goal"]:
            return Outcome(after, Verdict.right(), f"{taken} You collected every set needed!", True)
        if find_set(after["table"]) is None:  # the deck is empty and no set is left: only a broken goal gets here
            return Outcome(after, Verdict.wrong("no set left"), f"{taken} No set is left and the deck is empty.", True)
        usual = min(max(data["table"], len(table) - 3), len(table) - 3 + len(data["deck"]) - state["dealt"])
        note = " No set was on the table: more cards dealt." if len(after["table"]) > usual else ""
        return Outcome.goes_on(after, f"{taken}{note}\n\n{_picture(after, n, len(data['deck']))}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        triple = find_set(state["table"])
        return " ".join(string.ascii_uppercase[i] for i in triple) if triple else "A B C"

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        letters = string.ascii_uppercase[:len(state["table"])]
        return [" ".join(triple) for triple in combinations(letters, 3)]

    def heuristics(self) -> dict[str, Any]:
        def random_triple(problem: Problem, state: dict[str, Any], history: History, rng: random.Random) -> str:
            return rng.choice(self.legal_moves(problem, state))

        def first_three(problem: Problem, state: dict[str, Any], history: History, rng: random.Random) -> str:
            return "A B C"

        return {"three cards at random": random_triple, "always A B C": first_three}


def guaranteed_sets(attributes: int, deck: int) -> int:
    """Sets every game reaches before it can stall: a stall leaves a set-free table (at most the cap set's size,
    and a multiple of 3 away from the deck size) with the deck empty."""
    leftover = CAP_SET[attributes] - (CAP_SET[attributes] - deck) % 3
    return (deck - leftover) // 3


def value(card: int, attribute: int) -> int:
    return card // 3**attribute % 3


def describe(card: int, attributes: int) -> str:
    """``2 red striped ovals``: number, colour, shading (with four attributes), shape."""
    number, colour, shape = (ATTRIBUTES[a][1][value(card, a)] for a in range(3))
    shading = f"{ATTRIBUTES[3][1][value(card, 3)]} " if attributes == 4 else ""
    return f"{number} {colour} {shading}{shape}{'' if number == '1' else 's'}"


def third_card(one: int, two: int, attributes: int) -> int:
    """The one card completing a set with ``one`` and ``two``: per attribute, the value making the sum 0 mod 3."""
    return sum((-(value(one, a) + value(two, a)) % 3) * 3**a for a in range(attributes))


def breaking_attributes(cards: list[int], attributes: int) -> list[str]:
    """The attributes in which three cards are neither all alike nor all different, with their values."""
    broken = []
    for a, (name, values) in enumerate(ATTRIBUTES[:attributes]):
        seen = [value(card, a) for card in cards]
        if len(set(seen)) == 2:
            broken.append(f"{name}: {', '.join(values[v] for v in seen)} (two alike, one different)")
    return broken


def find_set(table: list[int]) -> tuple[int, int, int] | None:
    """The first set of the table by label order (positions), or None."""
    third = _third_cards()  # a card's missing fourth attribute is 0 for all, which is all alike: harmless
    where = {card: i for i, card in enumerate(table)}
    for i, j in combinations(range(len(table)), 2):
        k = where.get(third[table[i]][table[j]])
        if k is not None and k > j:
            return (i, j, k)
    return None


def count_sets(table: list[int]) -> int:
    third = _third_cards()
    where = {card: i for i, card in enumerate(table)}
    return sum(where.get(third[table[i]][table[j]], -1) > j for i, j in combinations(range(len(table)), 2))


@functools.cache
def _third_cards() -> tuple[tuple[int, ...], ...]:
    """:func:`third_card` for every pair of the 81 four-attribute cards, built once: looking for sets on the table
    is most of the generator's work (the oracle's game is played to count its search)."""
    return tuple(tuple(third_card(one, two, 4) for two in range(3**4)) for one in range(3**4))


def _deal(state: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """Fill the table up to its size from the deck, then deal threes while no set is on it and cards remain."""
    deck, table, dealt = data["deck"], list(state["table"]), state["dealt"]
    missing = max(0, data["table"] - len(table))
    table += deck[dealt:dealt + missing]
    dealt = min(len(deck), dealt + missing)
    while find_set(table) is None and dealt < len(deck):
        table += deck[dealt:dealt + 3]
        dealt = min(len(deck), dealt + 3)
    return {**state, "table": table, "dealt": dealt}


def oracle_bits(data: dict[str, Any]) -> float:
    """Sum over the oracle's turns of log2(triples / sets) on the table: the search its game needed."""
    state, bits = _deal({"table": [], "dealt": 0, "sets": 0}, data), 0.0
    for _ in range(data["goal"]):
        table = state["table"]
        bits += math.log2(math.comb(len(table), 3) / count_sets(table))
        triple = find_set(table)
        assert triple is not None, "the goal is reachable whatever sets are taken"
        state = _take(state, data, triple)
    return bits


def _take(state: dict[str, Any], data: dict[str, Any], triple: tuple[int, ...]) -> dict[str, Any]:
    """The state after taking the set at positions ``triple`` (the rules of :meth:`SetGame.play`)."""
    table = state["table"]
    kept = [card for i, card in enumerate(table) if i not in triple]
    if len(kept) < data["table"]:
        refill = iter(data["deck"][state["dealt"]:state["dealt"] + 3])
        table = [next(refill, None) if i in triple else card for i, card in enumerate(table)]
        taken = sum(card is not None for card in table) - len(kept)
        kept = [card for card in table if card is not None]
        state = {**state, "dealt": state["dealt"] + taken}
    return _deal({**state, "table": kept, "sets": state["sets"] + 1}, data)


def _picture(state: dict[str, Any], attributes: int, deck: int) -> str:
    lines = [f"{string.ascii_uppercase[i]}: {describe(card, attributes)}" for i, card in enumerate(state["table"])]
    return f"Table ({deck - state['dealt']} cards left in the deck):\n" + "\n".join(lines)


_SEPARATORS = re.compile(r"\s*(?:,|;|&|\+|/|-|\band\b|\s)\s*", re.IGNORECASE)
_LEAD = re.compile(r"^(?:(?:take|choose|pick|select|play|call)\s+)?(?:(?:the\s+)?(?:set|cards?)\s*:?\s+)?",
                   re.IGNORECASE)


@functools.lru_cache(maxsize=4096)
def _read_labels_cached(move: str, size: int) -> tuple[int, ...] | None:
    def read(text: str) -> tuple[int, ...] | None:
        body = _LEAD.sub("", strip_wrappers(text).strip().strip("[](){}").strip(), count=1)
        tokens = [token for token in _SEPARATORS.split(body) if token]
        if len(tokens) != 3 or not all(len(t) == 1 and t.isalpha() and t.isascii() for t in tokens):
            return None
        positions = tuple(ord(t.upper()) - 65 for t in tokens)
        return positions if all(p < size for p in positions) else None

    return read_move_answer(move, read)


def read_labels(move: str, size: int) -> tuple[int, ...] | None:
    """Positions of the three table labels ``move`` names (``A F K``, ``a, f and k``, ``cards A, F, K``), or None.

    Exactly three one-letter labels of a table of ``size`` cards; anything else (a fourth label, a remark,
    a second triple) leaves the move unreadable.
    """
    if not isinstance(move, str) or len(move) > MAX_MOVE_CHARS:
        return None
    return _read_labels_cached(move, size)
