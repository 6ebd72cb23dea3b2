"""Two-handed trick taking, all cards shown: make the contract of tricks against a searching defender.

A whist-style game for two: the model and the opponent each hold ``m`` cards of a standard deck
(suits clubs, diamonds, hearts, spades; ranks 2 up to ace), and both hands are shown (double
dummy). The leader of a trick plays any card; the other player must follow the led suit if it
can, else plays any card. The highest trump wins the trick if one was played (at the levels with
a trump suit), else the highest card of the led suit; the winner leads the next trick.

The contract is the number of tricks the model can take against any defence: the value of the
deal under best play by both sides, found by a memoised minimax over the cards left, each
position reduced to who holds each remaining card in rank order (so deals share positions). The prompt states the contract. Each turn the model plays one
card (``QS``, ``10h``, ``queen of spades``); a card it does not hold, or one that breaks the rule
to follow suit, costs a turn. The opponent plays at once (its lead, when it wins a trick, too): at
the lower levels a random legal card with the level's noise share (drawn from ``event_rng`` keyed
by the position), else the card that leaves the model the fewest tricks under best play. Reward 1
once the model has taken the contract, 0 once it can no longer (a win/loss game: random play's zero needs no
rescaling). The oracle plays a card keeping the minimax value, so it always makes the contract. Deals are redrawn
where uniformly random cards make the contract (against this opponent) with more than the level's chance (25% down
to 15%, computed exactly by the same search), or where one of the declared rules makes it with more than 20% (its
exact chance against this opponent, noise and tie-breaks averaged): "play your highest legal card", "lead the
highest card; win a trick as cheaply as possible, else throw the lowest", and the same with the lead from the
shortest suit. In version 1 (redrawn only where the first rule made it against best defence) the second rule, the
textbook one, won 0.28, 0.21, 0.36, 0.15, 0.30 of games at levels 0-4 and the third 0.43, 0.34, 0.41, 0.27, 0.28
(200 seeds a level); version 2 measures 0.06 or less for each. Rules next to them still win up to about 0.28 at
level 0 (random cards about 0.2): leading the highest card of the longest suit 0.28, 0.23, 0.27, 0.13, 0.21.

Levels grow the hands (4 to 6 cards), add a trump suit (levels 2 and 4), cut the opponent's noise (20% to none)
and the chance left to random play. The difficulty measure is the hand size, plus a half with trumps, plus the chance that random
cards fail.

Generation speed: about 20 to 40 problems/s at level 4 on this 2-core machine (it varies with the number of draws
the seeds need). Each drawn deal is solved by minimax to find the contract, then gets the exact chance that random
cards make the contract (a sum over every random line of play), and the survivors the exact chance of each declared
rule (a sum over the opponent's random choices); about 9 in 10 deals are redrawn (version 1: 25 to 75/s). The
filters are kept: they are what makes the contract need care and random play and the simple rules win rarely.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, event_rng, register, retry
from palaestra.envs.games._cards import CARD_PATTERN, SUIT_NAMES, SUITS, ace_high, card_from_groups, suit_of
from palaestra.envs.games.common import MAX_MOVE_CHARS
from palaestra.verifiers.moves import read_move_answer

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")  # rank index 0-12, ace high
NO_TRUMP = -1
_CARD = re.compile(rf"^(?:(?:play|lead) )?(?:the )?{CARD_PATTERN}\.?$")


@register
class TrickTaking(MultiTurnTask):
    id = "games/trick_taking"
    family = "games"
    description = "Make a double-dummy contract of tricks in two-handed whist against a searching defender."
    tags = ("games", "multi-turn", "two-player", "adversarial", "cards")
    one_move_per_turn = True
    version = 2

    @dataclass(frozen=True)
    class Config:
        cards: int  # per hand
        trump: bool  # whether a suit is trumps
        noise: float  # share of the opponent's cards played at random
        luck: float  # redraw deals where uniformly random cards make the contract more often than this
        rule_wins: float  # redraw deals where a declared rule (RULES) makes the contract more often than this

    presets = (
        Config(4, False, 0.2, 0.25, 0.2),  # luck 0.35 and 0.3 at levels 0 and 1 before version 2
        Config(5, False, 0.1, 0.25, 0.2),
        Config(5, True, 0.05, 0.25, 0.2),
        Config(6, False, 0.0, 0.2, 0.2),
        Config(6, True, 0.0, 0.15, 0.2),
    )
    bounded = "the searches (best play, and random play's chance) grow steeply with the hands; past 6 cards a deal " \
              "costs more CPU than generation may spend"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> dict[str, Any] | None:
            deck = rng.sample(range(52), 2 * config.cards)
            mine, theirs = tuple(sorted(deck[:config.cards])), tuple(sorted(deck[config.cards:]))
            trump = rng.randrange(4) if config.trump else NO_TRUMP
            model_leads = rng.random() < 0.5
            position = _position(mine, theirs)[0]
            contract = _value(position, model_leads, trump)
            data = {"mine": list(mine), "theirs": list(theirs), "trump": trump, "model_leads": model_leads,
                    "contract": contract, "noise": config.noise}
            if contract == 0:
                return None
            luck = _random_success(position, model_leads, trump, contract, config.noise)  # the cheaper test first
            if luck > config.luck or any(_rule_chance(data, rule) > config.rule_wins for rule in RULES.values()):
                return None
            return {**data, "random_chance": round(luck, 4)}

        data = retry(draw, what="a deal whose contract needs care")
        trump = "There are no trumps." if data["trump"] == NO_TRUMP else f"Trumps are {SUIT_NAMES[data['trump']]}."
        leader = "You lead the first trick." if data["model_leads"] else "The opponent leads the first trick."
        prompt = (
            f"Let's play a hand of two-handed whist with all cards shown. Each of us holds {config.cards} cards. The "
            "leader of a trick plays any card; the other player must follow the led suit if possible, else plays any "
            f"card. {trump} The highest trump played wins the trick; with no trump played, the highest card of the "
            "led suit wins (ace high). The winner of a trick leads the next.\n\n"
            f"Your hand: {_hand_text(data['mine'])}\nThe opponent's hand: {_hand_text(data['theirs'])}\n\n"
            f"{leader} Your contract is {data['contract']} tricks: you can take that many whatever the opponent "
            "does, and you win by taking them. Each turn, play one card, written as rank then suit letter (C, D, "
            "H, S), for example: QS"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return len(problem.data["mine"]) + 2

    def difficulty(self, problem: Problem) -> float:
        """Cards per hand, plus a half with a trump suit, plus the chance that random cards fail the contract."""
        data = problem.data
        return len(data["mine"]) + 0.5 * (data["trump"] != NO_TRUMP) + 1 - data["random_chance"]

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        state = {"mine": problem.data["mine"], "theirs": problem.data["theirs"], "led": None, "taken": 0, "lost": 0}
        if not problem.data["model_leads"]:
            state["led"] = _opponent_card(problem, state)
            state["theirs"] = [c for c in state["theirs"] if c != state["led"]]
        return state

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        card = read_card(move)
        if card is None:
            return Outcome.invalid(state, "write one card as rank then suit letter, such as QS or 10H")
        if card not in state["mine"]:
            return Outcome(state, Verdict.wrong("not held"), f"You do not hold {card_name(card)}.")
        led = state["led"]
        if led is not None and card // 13 != led // 13 and any(c // 13 == led // 13 for c in state["mine"]):
            return Outcome(state, Verdict.wrong("must follow suit"),
                           f"You must follow suit: play a card of {SUIT_NAMES[led // 13]}.")
        trump = problem.data["trump"]
        mine = [c for c in state["mine"] if c != card]
        said = [f"You play {card_name(card)}."]
        if led is None:
            working = {**state, "mine": mine, "led": card}
            reply = _opponent_card(problem, working)
            theirs = [c for c in state["theirs"] if c != reply]
            said.append(f"The opponent plays {card_name(reply)}.")
            model_wins = not _beats(reply, card, trump)
        else:
            theirs = state["theirs"]
            model_wins = _beats(card, led, trump)
        taken, lost = state["taken"] + model_wins, state["lost"] + (not model_wins)
        said.append("You win the trick." if model_wins else "The opponent wins the trick.")
        after = {"mine": mine, "theirs": theirs, "led": None, "taken": taken, "lost": lost}
        contract = problem.data["contract"]
        if taken >= contract:
            return Outcome(after, Verdict.right(), f"{' '.join(said)} You have your {contract} tricks: contract made!",
                           True)
        if taken + len(mine) < contract:
            return Outcome(after, Verdict.wrong("contract lost"),
                           f"{' '.join(said)} You can no longer take {contract} tricks: contract lost.", True)
        if not model_wins:
            lead = _opponent_card(problem, after)
            after = {**after, "theirs": [c for c in theirs if c != lead], "led": lead}
            said.append(f"The opponent leads {card_name(lead)}.")
        said.append(f"Tricks: you {taken}, the opponent {lost}. Your hand: {_hand_text(mine)}")
        return Outcome.goes_on(after, " ".join(said), "hand goes on")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return card_name(_model_choice(problem.data["trump"], state))

    def heuristics(self) -> dict[str, Policy]:
        return {name: _rule_policy(rule) for name, rule in RULES.items()}


def card_name(card: int) -> str:
    """``QS`` for the queen of spades (rank then suit letter)."""
    return f"{RANKS[card % 13]}{SUITS[card // 13]}"


def read_card(move: str) -> int | None:
    """The card a move names (``QS``, ``q s``, ``10h``, ``Th``, ``queen of spades``, ``Q♠``), or None.

    >>> read_card("Q♠"), read_card("play the ten of hearts."), read_card("QS KS")
    (49, 34, None)
    """
    if len(move) > MAX_MOVE_CHARS:
        return None

    def read(text: str) -> int | None:
        match = _CARD.match(" ".join(text.lower().split()))
        if not match:
            return None
        c = card_from_groups(*match.groups())  # the shared reader's card, ace low; here the ace ranks high
        return suit_of(c) * 13 + ace_high(c) - 2

    return read_move_answer(move, read)


def _hand_text(cards: list[int]) -> str:
    groups = []
    for suit in reversed(range(4)):
        ranks = [RANKS[c % 13] for c in sorted(cards, reverse=True) if c // 13 == suit]
        if ranks:
            groups.append(f"{SUIT_NAMES[suit]} {' '.join(ranks)}")
    return "; ".join(groups) or "(empty)"


def _beats(card: int, led: int, trump: int) -> bool:
    """Whether ``card``, played second, beats the ``led`` card."""
    if card // 13 == led // 13:
        return card > led
    return card // 13 == trump


def _legal(hand: tuple[int, ...], led: int | None) -> tuple[int, ...]:
    if led is None:
        return hand
    same = tuple(c for c in hand if c // 13 == led // 13)
    return same or hand


def _without(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    """``hand`` less ``card``, which it holds (once: a hand's cards differ)."""
    at = hand.index(card)
    return hand[:at] + hand[at + 1:]


# --- the search, on positions reduced to who holds each remaining card in rank order -------------
#
# Only the order of the remaining cards matters, so a position is, per suit, the owners of its
# remaining cards from low to high ("M" the model, "T" the opponent): ``("MT", "", "TMM", "T")``.
# Neighbouring cards of one owner are equivalent; the search plays one per run. Deals share positions.

Position = tuple[str, ...]
Card = tuple[int, int]  # (suit, index in the suit's owners string)


def _position(mine: tuple[int, ...], theirs: tuple[int, ...]) -> tuple[Position, dict[int, Card]]:
    """The reduced position and where each real card sits in it."""
    owner = {**dict.fromkeys(mine, "M"), **dict.fromkeys(theirs, "T")}
    suits, where = [], {}
    for suit in range(4):
        cards = sorted(c for c in owner if c // 13 == suit)
        suits.append("".join(owner[c] for c in cards))
        where.update({c: (suit, i) for i, c in enumerate(cards)})
    return tuple(suits), where


# Cached, as _remove: the searches (best play, random play's chance) meet the same positions over and over.
@functools.lru_cache(maxsize=400_000)
def _runs(position: Position, who: str, suit: int | None) -> tuple[tuple[Card, int], ...]:
    """One card per run of ``who``'s neighbouring cards (in ``suit`` only, if given), with the run's length."""
    found = []
    for s in range(4) if suit is None else (suit,):
        owners, i = position[s], 0
        while i < len(owners):
            j = i
            while j < len(owners) and owners[j] == owners[i]:
                j += 1
            if owners[i] == who:
                found.append(((s, j - 1), j - i))
            i = j
    return tuple(found)


def _answers(position: Position, who: str, led: Card) -> tuple[tuple[Card, int], ...]:
    """``who``'s replies to ``led`` (following suit when possible), one per run, with the run's length."""
    return _runs(position, who, led[0]) if who in position[led[0]] else _runs(position, who, None)


def _wins(reply: Card, led: Card, trump: int) -> bool:
    """Whether ``reply``, played second, beats ``led``."""
    return reply[1] > led[1] if reply[0] == led[0] else reply[0] == trump


@functools.lru_cache(maxsize=400_000)
def _remove(position: Position, lead: Card, reply: Card) -> Position:
    """The position after a trick: both cards gone."""
    suits = list(position)
    # the higher index first keeps the lower one valid
    for suit, index in (lead, reply) if lead[1] >= reply[1] else (reply, lead):
        suits[suit] = suits[suit][:index] + suits[suit][index + 1:]
    return tuple(suits)


@functools.lru_cache(maxsize=400_000)
def _value(position: Position, model_leads: bool, trump: int) -> int:
    """The tricks the model takes from here with both sides at their best."""
    if "M" not in "".join(position):
        return 0
    if model_leads:
        return max(_led_value(position, lead, "M", trump) for lead, _ in _runs(position, "M", None))
    return min(_led_value(position, lead, "T", trump) for lead, _ in _runs(position, "T", None))


@functools.lru_cache(maxsize=400_000)
def _led_value(position: Position, lead: Card, leader: str, trump: int) -> int:
    """``leader`` led ``lead``: the tricks the model ends with when the other side replies at its best."""
    values = []
    for reply, _ in _answers(position, "T" if leader == "M" else "M", lead):  # as _after_trick, inlined
        model_won = _wins(reply, lead, trump) == (leader == "T")
        values.append(model_won + _value(_remove(position, lead, reply), model_won, trump))
    return min(values) if leader == "M" else max(values)


def _after_trick(position: Position, lead: Card, reply: Card, leader: str, trump: int) -> int:
    model_won = _wins(reply, lead, trump) == (leader == "T")
    return model_won + _value(_remove(position, lead, reply), model_won, trump)


@functools.lru_cache(maxsize=400_000)
def _random_success(position: Position, model_leads: bool, trump: int, need: int, noise: float) -> float:
    """The chance that uniformly random legal cards take ``need`` more tricks against the opponent (a random
    card with the ``noise`` share, else one of its value-keeping cards at random)."""
    if need <= 0:
        return 1.0
    if "M" not in "".join(position):
        return 0.0
    if model_leads:
        leads = _runs(position, "M", None)
        return sum(size * _random_reply(position, lead, trump, need, noise) for lead, size in leads) / sum(
            size for _, size in leads)
    return _opponent_mix(position, _runs(position, "T", None), noise,
                         lambda lead: _led_value(position, lead, "T", trump),
                         lambda lead: _random_follow(position, lead, trump, need, noise))


def _opponent_mix(position: Position, options: tuple[tuple[Card, int], ...], noise: float, value: Any,
                  then: Any) -> float:
    """The expectation of ``then`` over the opponent's choice among ``options`` (runs with their lengths)."""
    total = sum(size for _, size in options)
    fewest = min(value(card) for card, _ in options)
    keeping = [(card, size) for card, size in options if value(card) == fewest]
    kept = sum(size for _, size in keeping)
    if not noise:  # the cards it never plays are not followed: 0.0 times their (finite) chance adds exactly 0.0
        return (1 - noise) * sum(size * then(card) for card, size in keeping) / kept
    return (noise * sum(size * then(card) for card, size in options) / total
            + (1 - noise) * sum(size * then(card) for card, size in keeping) / kept)


def _random_reply(position: Position, lead: Card, trump: int, need: int, noise: float) -> float:
    """The model led ``lead``: its chance of success after the opponent's reply."""
    def then(reply: Card) -> float:
        won = not _wins(reply, lead, trump)
        return _random_success(_remove(position, lead, reply), won, trump, need - won, noise)

    return _opponent_mix(position, _answers(position, "T", lead), noise,
                         lambda reply: _after_trick(position, lead, reply, "M", trump), then)


def _random_follow(position: Position, lead: Card, trump: int, need: int, noise: float) -> float:
    """The opponent led ``lead``: the model's chance of success replying at random."""
    replies = _answers(position, "M", lead)
    total = 0.0
    for reply, size in replies:
        won = _wins(reply, lead, trump)
        total += size * _random_success(_remove(position, lead, reply), won, trump, need - won, noise)
    return total / sum(size for _, size in replies)


def _best(mine: tuple[int, ...], theirs: tuple[int, ...], model_leads: bool, trump: int) -> int:
    """The tricks the model takes from the deal with both sides at their best."""
    return _value(_position(mine, theirs)[0], model_leads, trump)


def _model_choice(trump: int, state: dict[str, Any]) -> int:
    """The model's card keeping the minimax value (the lowest such card)."""
    mine, theirs, led = tuple(state["mine"]), tuple(state["theirs"]), state["led"]
    position, where = _position(mine, (*theirs, led) if led is not None else theirs)
    if led is None:
        return max(mine, key=lambda card: (_led_value(position, where[card], "M", trump), -card))
    return max(_legal(mine, led), key=lambda card: (
        _after_trick(position, where[led], where[card], "T", trump), -card))


def _opponent_card(problem: Problem, state: dict[str, Any]) -> int:
    """The opponent's card (a lead if ``state["led"]`` is None, else a reply to the model's led card)."""
    trump, mine, theirs, led = problem.data["trump"], tuple(state["mine"]), tuple(state["theirs"]), state["led"]
    position, where = _position((*mine, led) if led is not None else mine, theirs)
    rng = event_rng((problem.env_id, problem.level, problem.seed), "card", mine, theirs, led)
    if led is None:
        options = {card: _led_value(position, where[card], "T", trump) for card in theirs}
    else:
        options = {card: _after_trick(position, where[led], where[card], "M", trump) for card in _legal(theirs, led)}
    if rng.random() < problem.data["noise"]:
        return rng.choice(sorted(options))
    fewest = min(options.values())
    return rng.choice(sorted(card for card, value in options.items() if value == fewest))


def _highest(mine: tuple[int, ...], led: int | None, trump: int) -> int:
    """The cheap rule's card: the highest legal card (by rank, then suit)."""
    return max(_legal(mine, led), key=lambda card: (card % 13, card // 13))


def _cheapest_win(mine: tuple[int, ...], led: int | None, trump: int) -> int:
    """A second cheap rule (measured 0.18-0.37 a level in session 30 before version 2 filtered it): lead the highest
    card; following, the cheapest card that wins the trick (a trump only when no other wins), else the lowest
    (trumps last)."""
    legal = _legal(mine, led)
    if led is None:
        return max(legal, key=lambda card: (card % 13, card // 13))
    winners = [card for card in legal if _beats(card, led, trump)]
    return min(winners or legal, key=lambda card: (card // 13 == trump, card % 13, card // 13))


def _short_suit_first(mine: tuple[int, ...], led: int | None, trump: int) -> int:
    """A third cheap rule (0.24-0.34 at levels 0-2 in session 30 once the first two were filtered): lead the highest
    card of the shortest suit held (the highest such card where suits tie), cashing the short side first; following,
    as :func:`_cheapest_win`."""
    if led is not None:
        return _cheapest_win(mine, led, trump)
    length = {suit: sum(card // 13 == suit for card in mine) for suit in {card // 13 for card in mine}}
    return max(mine, key=lambda card: (-length[card // 13], card % 13, card // 13))


Rule = Callable[[tuple[int, ...], "int | None", int], int]
# The declared cheap rules (heuristics), each a card from the hand, the led card (None when leading) and the trump
# suit; generation redraws deals where one makes the contract more often than the level's ``rule_wins``.
RULES: dict[str, Rule] = {  # the one rejecting more deals first
    "lead the highest card; win a trick as cheaply as possible, else throw the lowest": _cheapest_win,
    "lead the highest card of the shortest suit; win a trick as cheaply as possible, else throw the lowest":
        _short_suit_first,
    "play the highest legal card": _highest,
}


def _rule_policy(rule: Rule) -> Policy:
    return lambda problem, state, history, rng: card_name(rule(tuple(state["mine"]), state["led"],
                                                               problem.data["trump"]))


def _rule_chance(data: dict[str, Any], rule: Rule) -> float:
    """The exact chance that ``rule`` (the model's card from its hand, the led card or None, and the trump suit)
    makes the contract against this level's opponent: its random card with the ``noise`` share, else one of the
    cards keeping the fewest tricks for the model, each uniformly, as :func:`_opponent_card` draws them."""
    trump, noise = data["trump"], data["noise"]

    def mix(options: dict[int, int], then: Callable[[int], float]) -> float:
        """The expectation of ``then`` over the opponent's card among ``options`` (card: the model's tricks)."""
        fewest = min(options.values())
        keeping = [card for card, value in options.items() if value == fewest]
        kept = sum(then(card) for card in keeping) / len(keeping)
        if not noise:
            return kept
        return noise * sum(then(card) for card in options) / len(options) + (1 - noise) * kept

    @functools.cache
    def chance(mine: tuple[int, ...], theirs: tuple[int, ...], model_leads: bool, need: int) -> float:
        if need <= 0:
            return 1.0
        if need > len(mine):
            return 0.0
        position, where = _position(mine, theirs)
        if model_leads:
            lead = rule(mine, None, trump)
            rest = _without(mine, lead)

            def after_reply(reply: int) -> float:
                won = not _beats(reply, lead, trump)
                return chance(rest, _without(theirs, reply), won, need - won)

            return mix({reply: _after_trick(position, where[lead], where[reply], "M", trump)
                        for reply in _legal(theirs, lead)}, after_reply)

        def after_lead(lead: int) -> float:
            reply = rule(mine, lead, trump)
            won = _beats(reply, lead, trump)
            return chance(_without(mine, reply), _without(theirs, lead), won, need - won)

        return mix({lead: _led_value(position, where[lead], "T", trump) for lead in theirs}, after_lead)

    return chance(tuple(data["mine"]), tuple(data["theirs"]), data["model_leads"], data["contract"])
