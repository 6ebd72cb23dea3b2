"""Gin rummy, one hand, against a scripted opponent: draw, discard, and knock at the right moment.

The deck holds the ranks ace (low) up to the level's top rank in the four suits (the full 52 cards at the top
level). The model and the opponent are dealt a hand each, one card turned up starts the discard pile, the rest
is the face-down stock, in an order drawn with the problem and never shown. A meld is three or four cards of
one rank, or a run of three or more consecutive ranks of one suit (the ace only below the 2); a hand's deadwood
is the value of its cards outside its best set of disjoint melds (ace 1, number cards their number, J Q K 10).

Each turn the model first draws (``draw``: the top stock card; ``take``: the top of the discard pile), then
discards one card (``discard 7H``; never the card just taken from the pile) or knocks (``knock 7H``: discard it
and end the hand, allowed when the remaining hand's deadwood is at most the level's knock limit). The opponent
then plays by the rule the prompt states: it takes the pile's top card when that lowers its deadwood, else
draws; it discards the card that leaves it the least deadwood (the higher card on a tie; at the lower levels,
on a drawn share of its turns, a random card outside its melds instead); it knocks as soon as its deadwood is
at most its own threshold (higher at higher levels: it knocks earlier). At a knock both hands are shown; the
knocker wins with gin (no deadwood) or with less deadwood than the other hand (no laying off), otherwise the
other player wins (an undercut). The hand is dead (nobody wins) when the stock is down to two cards or after
the level's number of rounds. The reward is 1 when the model wins the hand, else 0 (a win/loss game).

The opponent's choices depend only on the cards and on a tape drawn with the problem
(:func:`palaestra.envs.games.common.tape_uniform`), so a replay gives the same hand. The generator keeps only
deals that a player who sees the stock and the opponent's hand (the oracle: it draws from whichever source
leaves less deadwood, discards what leaves least deadwood and does not meld with the opponent's cards, knocks
as soon as the knock wins) wins; it drops every deal the rule "draw from the stock, discard the highest
unmatched card, knock when allowed" wins, and all but a share (60% at level 0 down to 15% at level 4) of the
deals the greedy rule "take the pile's card when it lowers the deadwood, discard to the least deadwood, knock
when allowed" wins, so that rule wins about 30-40% at the top level. A uniformly random legal player wins at
most a few percent (measured: 0-7% per level). The honest player (:meth:`GinRummy.honest_move`) reads only its
hand, the pile and the cards shown so far: it plays the greedy rule, breaking ties towards keeping the cards
that unseen cards would complete into melds; it wins 30-65% per level (gin rummy past careful greedy play is
mostly the luck of the draw, so the declared share is 20%). An unreadable move, a card not in hand or a knock
over the limit is refused (the turn is spent; the budget allows four such slips).

Levels grow the deck (ranks 7 to 13) and the hands (6 to 10 cards), and sharpen the opponent (less noise,
earlier knocks). The difficulty measure is the hand size plus a third of the top rank plus the rounds the
oracle needs.

Generation speed: about 85 to 110 problems/s at level 4 on this 2-core machine (it varies with the seeds). Each drawn
deal is played out by the oracle (which sees the stock) to count the rounds it needs to win, and by the greedy and
simple rules to check they lose; about 6 deals are drawn per problem because the oracle cannot win or a rule does.
The games are kept because the prompt's round budget must be one the oracle meets and no simple rule may earn
reward.
"""

from __future__ import annotations

import functools
import itertools
import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, View, register, retry
from palaestra.envs.games._cards import (
    CARD_PATTERN,
    RANK_NAMES,
    card_from_groups,
    card_name,
    cards_text,
    deck,
    parse_names,
)
from palaestra.envs.games.common import MAX_MOVE_CHARS, tape_uniform
from palaestra.verifiers.normalize import read_answer

SLIPS = 4  # refused moves the turn budget allows
DEAD_STOCK = 2  # the hand is dead when the stock is down to this many cards
_DRAW = re.compile(r"^(?:i )?(?:draw|draw (?:a|one) card|draw from (?:the )?stock|(?:the )?stock)$")
_TAKE = re.compile(rf"^(?:i )?(?:take|pick up|pick)(?: (?:the )?(?:discard|upcard|up card|top card|card|"
                   rf"discard pile|pile)| {CARD_PATTERN})?(?: from (?:the )?(?:discard )?pile)?$")
_DISCARD = re.compile(rf"^(?:(?:i )?discard (?:the )?)?{CARD_PATTERN}$")
_KNOCK = re.compile(rf"^(?:i )?knock(?: (?:with|and discard|discarding|by discarding))? (?:the )?{CARD_PATTERN}$")
_HAND_LINE = re.compile(r"Your hand: ([^.\n]*)")
_PILE_LINE = re.compile(r"Discard pile top: (\w+)")
_LIMIT = re.compile(r"deadwood at most (\d+) \(the knock limit\)")
_TOP_RANK = re.compile(r"the ranks A \(low\) to (\w+)")


@register
class GinRummy(MultiTurnTask):
    id = "games/gin_rummy"
    family = "games"
    description = "One hand of gin rummy (draw, discard, knock) against a scripted opponent; win or lose."
    tags = ("games", "multi-turn", "two-player", "cards", "imperfect-information", "planning")
    one_move_per_turn = True  # draw and discard are separate moves; a reply holding both is refused
    hidden_information = True  # the stock's order and the opponent's hand
    honest_win_share = 0.2  # the honest player (a careful greedy player) wins 30-65% of the hands per level

    @dataclass(frozen=True)
    class Config:
        ranks: int  # the deck's top rank (13: the full deck)
        hand: int  # cards per hand
        knock: int  # the knock limit
        opponent_knock: int  # the opponent knocks at this deadwood or less
        noise: float  # share of the opponent's discards made at random among its unmatched cards
        rounds: int  # the hand is dead after this many rounds
        greedy_keep: float  # share of the deals won by the least-deadwood rule (see heuristics) kept

    presets = (
        Config(7, 6, 6, 2, 0.4, 8, 0.6),
        Config(8, 7, 8, 2, 0.3, 9, 0.4),
        Config(10, 8, 10, 4, 0.2, 10, 0.3),
        Config(12, 9, 10, 6, 0.1, 11, 0.2),
        Config(13, 10, 10, 8, 0.0, 12, 0.15),
    )
    bounded = "the top level plays the standard 52-card deck with 10-card hands"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> dict[str, Any] | None:
            cards = rng.sample(deck(config.ranks), 4 * config.ranks)
            h = config.hand
            data: dict[str, Any] = {
                "mine": sorted(cards[:h]), "theirs": sorted(cards[h:2 * h]), "upcard": cards[2 * h],
                "stock": cards[2 * h + 1:], "ranks": config.ranks, "knock": config.knock,
                "opponent_knock": config.opponent_knock, "noise": config.noise, "rounds": config.rounds,
                "tape": rng.getrandbits(48)}
            rounds = _oracle_rounds(data)
            if rounds is None or (rng.random() >= config.greedy_keep and _wins(data, _greedy_move)) or \
                    _wins(data, _simple_move):
                return None
            return {**data, "oracle_rounds": rounds}

        data = retry(draw, attempts=200, what="a deal the oracle wins")
        noise = (f" On {round(100 * config.noise)}% of its turns it discards a random card outside its melds "
                 "instead." if config.noise else "")
        prompt = (
            f"Let's play one hand of gin rummy with the ranks A (low) to {card_name(config.ranks - 1)[:-1]} in four "
            "suits (cards are written rank then suit: AC, 10H, QS). A meld is three or four cards of one rank, or "
            "three or more consecutive ranks of one suit (the ace only below the 2). Your deadwood is the value of "
            "the cards outside your best set of disjoint melds (A = 1, number cards their number, J Q K = 10).\n"
            "Each turn you first draw: write draw (the top card of the face-down stock) or take (the top card of "
            "the discard pile). Then write discard and a card (for example: discard 7H), or knock and a card (for "
            "example: knock 7H) to discard it and end the hand, allowed when the cards you keep have deadwood at "
            f"most {config.knock} (the knock limit). You may not discard the card you just took from the pile. "
            "The opponent takes the pile's top card when that lowers its deadwood, else draws from the stock; it "
            "discards the card leaving it the least deadwood (the higher card on a tie)." + noise +
            f" It knocks as soon as its deadwood is at most {config.opponent_knock}.\n"
            "After a knock the hands are shown: the knocker wins with no deadwood or with less deadwood than the "
            "other hand (no laying off); otherwise the other player wins. The hand is dead, and nobody wins, when "
            f"the stock is down to {DEAD_STOCK} cards or after {config.rounds} rounds. Only a win scores.\n\n"
            + _situation(data, _start(data))
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return 2 * problem.data["rounds"] + SLIPS

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return len(data["mine"]) + data["ranks"] / 3 + data["oracle_rounds"]

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return _start(problem.data)

    def reads_as_move(self, problem: Problem, state: dict[str, Any], piece: str) -> bool:
        # "draw, discard 7H": the discard is refused until the draw is made, yet it is a plan
        return read_move(piece) is not None

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        choice = read_move(move)
        if choice is None:
            return Outcome.invalid(state, "write draw, take, discard and a card (discard 7H) or knock and a card "
                                          "(knock 7H)")
        kind, chosen = choice
        why = _refusal(data, state, kind, chosen)
        if why:
            return Outcome.invalid(state, why)
        if state["phase"] == "draw":
            after, said = _draw(data, state, kind)
            return Outcome.goes_on(after, f"{said}\n{_situation(data, after)}")
        return _finish_turn(data, state, kind, chosen)

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return _seer_move(problem.data, state)

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        return _legal(problem.data, state)

    def heuristics(self) -> dict[str, Policy]:
        return {
            "draw from the stock, discard the highest unmatched card, knock when allowed":
                lambda problem, state, history, rng: _simple_move(problem.data, state),
            "take the pile's card when it lowers the deadwood, discard to the least deadwood, knock when allowed":
                lambda problem, state, history, rng: _greedy_move(problem.data, state),
        }

    def honest_move(self, view: View) -> str:
        """Read the hand and the pile's top card from the latest situation; take the pile's card when it lowers the
        deadwood; knock when allowed; else discard to the least deadwood, the higher rank first, then keeping the
        cards that the most unseen cards would complete into melds."""
        text = next(t for t in reversed([view.prompt, *view.observations]) if _HAND_LINE.search(t))
        hand = parse_names(_HAND_LINE.findall(text)[-1])
        pile = _PILE_LINE.findall(text)
        top = parse_names(pile[-1])[0] if pile and pile[-1] != "none" else None
        limit = int(_LIMIT.search(view.prompt).group(1))  # type: ignore[union-attr]
        ranks = RANK_NAMES.index(_TOP_RANK.search(view.prompt).group(1)) + 1  # type: ignore[union-attr]
        mask = _mask(hand)
        if len(hand) == len(parse_names(_HAND_LINE.findall(view.prompt)[0])):  # before drawing
            if top is not None and _best_discard(mask | 1 << top, top)[0] < _deadwood(mask):
                return "take"
            return "draw"
        taken = _taken_card(view)
        deadwood, best = _best_discard(mask, taken)
        if deadwood <= limit:
            return f"knock {card_name(best)}"
        seen = mask | _mask([c for t in [view.prompt, *view.observations] for c in parse_names(t)])
        unseen = _cards(_mask(deck(ranks)) & ~seen)
        options = [c for c in hand if c != taken]
        return f"discard {card_name(min(options, key=lambda c: _honest_key(mask, c, unseen)))}"


def read_move(move: str) -> tuple[str, int | None] | None:
    """``("draw", None)``, ``("take", None)``, ``("discard", card)`` or ``("knock", card)``, or None.

    >>> read_move("Draw."), read_move("discard the 7 of hearts"), read_move("draw, discard 7H")
    (('draw', None), ('discard', 32), None)
    """
    if not isinstance(move, str) or len(move) > MAX_MOVE_CHARS:
        return None

    def read(text: str) -> tuple[str, int | None] | None:
        lowered = " ".join(text.lower().split())
        if _DRAW.match(lowered):
            return "draw", None
        match = _TAKE.match(lowered)
        if match:
            return "take", (card_from_groups(*match.groups()) if match.group(1) else None)
        for kind, pattern in (("discard", _DISCARD), ("knock", _KNOCK)):
            match = pattern.match(lowered)
            if match:
                return kind, card_from_groups(*match.groups())
        return None

    return read_answer(move, read)


# --- melds and deadwood -------------------------------------------------------------------------------------

def _value(c: int) -> int:
    return min(c % 13 + 1, 10)


_VALUES = tuple(_value(c) for c in range(52))


def _all_melds() -> tuple[tuple[int, ...], ...]:
    """Per card, the bit masks of the melds holding it (sets of 3 or 4, runs of 3 or more)."""
    melds = []
    for rank in range(13):
        for size in (3, 4):
            for suits in itertools.combinations(range(4), size):
                melds.append(sum(1 << (s * 13 + rank) for s in suits))
    for suit in range(4):
        for start in range(13):
            for end in range(start + 3, 14):
                melds.append(sum(1 << (suit * 13 + r) for r in range(start, end)))
    return tuple(tuple(m for m in melds if m >> c & 1) for c in range(52))


MELDS = _all_melds()


def _mask(cards: list[int]) -> int:
    return sum(1 << c for c in cards)


def _cards(mask: int) -> list[int]:
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


def _melds_with(mask: int, c: int) -> bool:
    """Whether ``c`` lies in some meld of the cards ``mask | c``."""
    mask |= 1 << c
    return any(meld & mask == meld for meld in MELDS[c])


@functools.lru_cache(maxsize=400_000)
def _deadwood(mask: int) -> int:
    """The least deadwood of the hand ``mask`` over its sets of disjoint melds."""
    return _total(mask) - _cover([(meld, _total(meld)) for meld in _hand_melds(mask)])


@functools.lru_cache(maxsize=200_000)
def _discard_deadwoods(mask: int) -> tuple[tuple[int, int], ...]:
    """``(card, least deadwood of the hand without it)`` for every card of ``mask`` (its melds found once)."""
    melds = [(meld, _total(meld)) for meld in _hand_melds(mask)]
    total = _total(mask)
    melded = 0
    for meld, _ in melds:
        melded |= meld
    whole = _cover(melds)  # the cover without a card no meld holds: the same for every such card
    return tuple((c, total - _VALUES[c] - (_cover([m for m in melds if not m[0] >> c & 1]) if melded >> c & 1
                                           else whole)) for c in _cards(mask))


def _suit_totals() -> tuple[int, ...]:
    """The value of each set of one suit's cards (13 rank bits), each from the set less its lowest card."""
    totals = [0] * (1 << 13)
    for bits in range(1, 1 << 13):
        low = bits & -bits
        totals[bits] = totals[bits ^ low] + _value(low.bit_length() - 1)
    return tuple(totals)


_SUIT_TOTALS = _suit_totals()


def _total(mask: int) -> int:
    return (_SUIT_TOTALS[mask & 8191] + _SUIT_TOTALS[mask >> 13 & 8191] + _SUIT_TOTALS[mask >> 26 & 8191]
            + _SUIT_TOTALS[mask >> 39])


def _cover(melds: list[tuple[int, int]]) -> int:
    """The most value a set of disjoint melds out of ``melds`` (``(mask, value)`` pairs) covers."""
    best = 0

    def cover(start: int, used: int, covered: int) -> None:
        nonlocal best
        best = max(best, covered)
        for i in range(start, len(melds)):
            meld, value = melds[i]
            if not meld & used:
                cover(i + 1, used | meld, covered + value)

    cover(0, 0, 0)
    return best


_RANK_MASKS = tuple(sum(1 << (suit * 13 + rank) for suit in range(4)) for rank in range(13))
_SUIT_BITS = (1 << 13) - 1


def _hand_melds(mask: int) -> list[int]:
    """Every meld made of cards of ``mask``: sets of three or four, runs of three or more."""
    melds = []
    for rank_mask in _RANK_MASKS:
        same = mask & rank_mask
        if same.bit_count() >= 3:
            melds.extend(_SETS[same])
    for suit in range(4):
        bits = mask >> (suit * 13) & _SUIT_BITS
        if bits & bits >> 1 & bits >> 2:  # three ranks in a row somewhere
            melds.extend(run << (suit * 13) for run in _RUNS[bits])
    return melds


def _subsets_of_three_or_more(same: int) -> list[int]:
    cards = [1 << c for c in _cards(same)]
    return [sum(group) for size in range(3, len(cards) + 1) for group in itertools.combinations(cards, size)]


class _SetTable(dict):  # type: ignore[type-arg]
    """The sets (three or four of a rank) inside a rank's cards, computed once per combination."""

    def __missing__(self, same: int) -> list[int]:
        self[same] = _subsets_of_three_or_more(same)
        return self[same]


class _RunTable(dict):  # type: ignore[type-arg]
    """The runs (three or more in a row) inside one suit's 13 rank bits, computed once per pattern."""

    def __missing__(self, bits: int) -> list[int]:
        runs: list[int] = []
        rank = 0
        while rank < 13:
            end = rank
            while end < 13 and bits >> end & 1:
                end += 1
            runs.extend(sum(1 << r for r in range(start, stop))
                        for start in range(rank, end - 2) for stop in range(start + 3, end + 1))
            rank = end + 1
        self[bits] = runs
        return runs


_SETS = _SetTable()
_RUNS = _RunTable()


def _melds_of(mask: int) -> list[int]:
    """A best set of melds of ``mask`` (the one :func:`_deadwood` finds first)."""
    melds = []
    while mask:
        low = mask & -mask
        c = low.bit_length() - 1
        target = _deadwood(mask)
        found = next((m for m in MELDS[c] if m & mask == m and _deadwood(mask ^ m) == target), None)
        if found is None or _value(c) + _deadwood(mask ^ low) == target:
            mask ^= low
        else:
            melds.append(found)
            mask ^= found
    return melds


def _best_discard(mask: int, keep: int | None) -> tuple[int, int]:
    """(the least deadwood after one discard, that discard) of a hand just after drawing, never discarding
    ``keep``; on a tie the higher rank goes (then the later suit)."""
    deadwood, _, negative = min((left, -(c % 13), -c) for c, left in _discard_deadwoods(mask) if c != keep)
    return deadwood, -negative


# --- the game -----------------------------------------------------------------------------------------------

def _start(data: dict[str, Any]) -> dict[str, Any]:
    return {"mine": list(data["mine"]), "theirs": list(data["theirs"]), "pile": [data["upcard"]], "drawn": 0,
            "phase": "draw", "taken": None, "round": 1}


def _situation(data: dict[str, Any], state: dict[str, Any]) -> str:
    top = card_name(state["pile"][-1]) if state["pile"] else "none"
    left = len(data["stock"]) - state["drawn"]
    ask = ("Draw: write draw or take." if state["phase"] == "draw" else
           "Discard: write discard and a card, or knock and a card.")
    return (f"Round {state['round']}. Your hand: {cards_text(state['mine'])}. Discard pile top: {top}. "
            f"Stock: {left} cards. {ask}")


def _refusal(data: dict[str, Any], state: dict[str, Any], kind: str, chosen: int | None) -> str:
    """Why the move is not allowed now ('' when it is)."""
    if state["phase"] == "draw":
        if kind in ("discard", "knock"):
            return "draw first: write draw or take"
        if kind == "take" and chosen is not None and chosen != state["pile"][-1]:
            return f"the top of the discard pile is {card_name(state['pile'][-1])}, not {card_name(chosen)}"
        return ""
    if kind in ("draw", "take"):
        return "you have drawn this turn: discard or knock"
    assert chosen is not None
    if chosen not in state["mine"]:
        return f"{card_name(chosen)} is not in your hand"
    if chosen == state["taken"]:
        return f"you may not discard {card_name(chosen)}, the card you just took from the pile"
    if kind == "knock":
        left = _deadwood(_mask(state["mine"]) ^ 1 << chosen)
        if left > data["knock"]:
            return f"after discarding {card_name(chosen)} your deadwood is {left}, over the knock limit {data['knock']}"
    return ""


def _draw(data: dict[str, Any], state: dict[str, Any], kind: str) -> tuple[dict[str, Any], str]:
    if kind == "take":
        c = state["pile"][-1]
        after = {**state, "mine": sorted([*state["mine"], c]), "pile": state["pile"][:-1], "phase": "discard",
                 "taken": c}
        return after, f"You take {card_name(c)} from the pile."
    c = data["stock"][state["drawn"]]
    after = {**state, "mine": sorted([*state["mine"], c]), "drawn": state["drawn"] + 1, "phase": "discard",
             "taken": None}
    return after, f"You draw {card_name(c)}."


def _finish_turn(data: dict[str, Any], state: dict[str, Any], kind: str, chosen: int | None) -> Outcome:
    """The model's discard or knock, then (unless the hand ended) the opponent's whole turn."""
    assert chosen is not None
    mine = [c for c in state["mine"] if c != chosen]
    after = {**state, "mine": mine, "pile": [*state["pile"], chosen], "phase": "draw", "taken": None}
    said = f"You discard {card_name(chosen)}."
    if kind == "knock":
        return _showdown(after, said.replace("discard", "knock, discarding"), model_knocked=True)
    after, opponent_said, knocked = _opponent_turn(data, after)
    said = f"{said} {opponent_said}"
    if knocked:
        return _showdown(after, said, model_knocked=False)
    if len(data["stock"]) - after["drawn"] <= DEAD_STOCK or after["round"] >= data["rounds"]:
        return Outcome(after, Verdict.wrong("the hand is dead"), f"{said} The hand is dead: nobody wins.", True)
    after = {**after, "round": after["round"] + 1}
    return Outcome.goes_on(after, f"{said}\n{_situation(data, after)}")


def _showdown(state: dict[str, Any], said: str, model_knocked: bool) -> Outcome:
    mine, theirs = _deadwood(_mask(state["mine"])), _deadwood(_mask(state["theirs"]))
    knocker, other = (mine, theirs) if model_knocked else (theirs, mine)
    knocker_wins = knocker == 0 or knocker < other
    won = knocker_wins == model_knocked
    shown = (f"Your hand: {_shown(state['mine'])} (deadwood {mine}). The opponent's hand: {_shown(state['theirs'])} "
             f"(deadwood {theirs}).")
    result = "You win the hand!" if won else "The opponent wins the hand."
    verdict = Verdict.right() if won else Verdict.wrong("the opponent won the hand")
    return Outcome(state, verdict, f"{said} {shown} {result}", True)


def _shown(cards: list[int]) -> str:
    mask = _mask(cards)
    melds = _melds_of(mask)
    loose = mask
    for m in melds:
        loose ^= m
    parts = [f"[{cards_text(_cards(m))}]" for m in melds] + ([cards_text(_cards(loose))] if loose else [])
    return " ".join(parts)


def _opponent_turn(data: dict[str, Any], state: dict[str, Any]) -> tuple[dict[str, Any], str, bool]:
    """The opponent's draw, discard and knock by its stated rule; (state, what the model sees, knocked)."""
    theirs = _mask(state["theirs"])
    top = state["pile"][-1]
    pile, drawn = state["pile"], state["drawn"]
    if _best_discard(theirs | 1 << top, top)[0] < _deadwood(theirs):
        theirs |= 1 << top
        pile, taken = pile[:-1], top
        said = f"The opponent takes {card_name(top)} from the pile"
    else:
        theirs |= 1 << data["stock"][drawn]
        drawn, taken = drawn + 1, None
        said = "The opponent draws from the stock"
    deadwood, discard = _best_discard(theirs, taken)
    if data["noise"] and tape_uniform(GinRummy.id, data["tape"], "noise", state["round"]) < data["noise"]:
        loose = theirs
        for m in _melds_of(theirs):
            loose ^= m
        options = [c for c in _cards(loose) if c != taken] or [c for c in _cards(theirs) if c != taken]
        discard = options[int(tape_uniform(GinRummy.id, data["tape"], "pick", state["round"]) * len(options))]
        deadwood = _deadwood(theirs ^ 1 << discard)
    theirs ^= 1 << discard
    knocked = deadwood <= data["opponent_knock"]
    said += f" and {'knocks, discarding' if knocked else 'discards'} {card_name(discard)}."
    after = {**state, "theirs": _cards(theirs), "pile": [*pile, discard], "drawn": drawn}
    return after, said, knocked


def _legal(data: dict[str, Any], state: dict[str, Any]) -> list[str]:
    if state["phase"] == "draw":
        return ["draw", "take"]
    mask = _mask(state["mine"])
    moves = [f"discard {card_name(c)}" for c in state["mine"] if c != state["taken"]]
    return moves + [f"knock {card_name(c)}" for c in state["mine"]
                    if c != state["taken"] and _deadwood(mask ^ 1 << c) <= data["knock"]]


# --- players ------------------------------------------------------------------------------------------------

def _seer_move(data: dict[str, Any], state: dict[str, Any]) -> str:
    """The oracle: it sees the stock and the opponent's hand (see the module docstring)."""
    theirs = _deadwood(_mask(state["theirs"]))
    mask = _mask(state["mine"])
    if state["phase"] == "draw":
        top, next_card = state["pile"][-1], data["stock"][state["drawn"]]
        take = _seer_value(mask | 1 << top, top, theirs, data["knock"])
        draw = _seer_value(mask | 1 << next_card, None, theirs, data["knock"])
        return "take" if take < draw else "draw"
    taken = state["taken"]
    for c, deadwood in sorted(((c, left) for c, left in _discard_deadwoods(mask) if c != taken),
                              key=lambda pair: (pair[1], pair[0])):
        if deadwood <= data["knock"] and (deadwood == 0 or deadwood < theirs):
            return f"knock {card_name(c)}"
        break
    opponent = _mask(state["theirs"])

    left = dict(_discard_deadwoods(mask))

    def key(c: int) -> tuple[int, bool, int]:  # least deadwood, then not a card that melds with the opponent's
        return left[c], _melds_with(opponent, c), -c

    return f"discard {card_name(min((c for c in state['mine'] if c != taken), key=key))}"


def _seer_value(mask: int, keep: int | None, theirs: int, limit: int) -> tuple[int, int]:
    """(0 if a winning knock follows else 1, least deadwood after the discard)."""
    deadwood = _best_discard(mask, keep)[0]
    return (0 if deadwood <= limit and (deadwood == 0 or deadwood < theirs) else 1), deadwood


def _oracle_rounds(data: dict[str, Any]) -> int | None:
    """The rounds the oracle takes to win this deal, or None when it does not win."""
    return _rounds_to_win(data, _seer_move)


def _wins(data: dict[str, Any], player: Any) -> bool:
    return _rounds_to_win(data, player) is not None


def _rounds_to_win(data: dict[str, Any], player: Any) -> int | None:
    """The rounds ``player(data, state) -> move`` takes to win this deal, or None when it does not win."""
    state: dict[str, Any] = _start(data)
    for _ in range(2 * data["rounds"]):
        move = player(data, state)
        kind, chosen = read_move(move)  # type: ignore[misc]
        if state["phase"] == "draw":
            state = _draw(data, state, kind)[0]
            continue
        rounds = state["round"]
        outcome = _finish_turn(data, state, kind, chosen)
        if outcome.done:
            return rounds if outcome.verdict.correct else None
        state = outcome.state
    return None


def _simple_move(data: dict[str, Any], state: dict[str, Any]) -> str:
    if state["phase"] == "draw":
        return "draw"
    mask = _mask(state["mine"])
    deadwood, best = _best_discard(mask, state["taken"])
    if deadwood <= data["knock"]:
        return f"knock {card_name(best)}"
    loose = mask
    for m in _melds_of(mask):
        loose ^= m
    options = [c for c in _cards(loose) if c != state["taken"]] or [c for c in state["mine"] if c != state["taken"]]
    return f"discard {card_name(max(options, key=lambda c: (_value(c), c)))}"


def _greedy_move(data: dict[str, Any], state: dict[str, Any]) -> str:
    """Take the pile's card when it lowers the deadwood, discard to the least deadwood, knock when allowed."""
    mask = _mask(state["mine"])
    if state["phase"] == "draw":
        top = state["pile"][-1]
        return "take" if _best_discard(mask | 1 << top, top)[0] < _deadwood(mask) else "draw"
    deadwood, best = _best_discard(mask, state["taken"])
    return f"{'knock' if deadwood <= data['knock'] else 'discard'} {card_name(best)}"


def _taken_card(view: View) -> int | None:
    if not view.history:
        return None
    match = re.search(r"You take (\w+) from the pile", view.history[-1][1])
    return parse_names(match.group(1))[0] if match else None


def _honest_key(mask: int, c: int, unseen: list[int]) -> tuple[int, int, int]:
    """Discard order: least deadwood left, then the higher rank, then the most unseen cards that would join a meld."""
    rest = mask ^ 1 << c
    outs = sum(1 for u in unseen if _melds_with(rest, u))
    return _deadwood(rest), -(c % 13), -outs
