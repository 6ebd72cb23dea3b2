"""Cooperative Hanabi with a scripted partner who follows a stated convention; the model cannot see its own hand.

Two players build one firework per colour, ranks 1 up to the top rank in order. Each colour has three
1s, two of every middle rank and one top card; the deck's order is drawn with the problem. Each holds
a hand of cards, slot 1 the oldest; a card that leaves a hand closes the gap and the card drawn goes
into the last slot. The model sees its partner's cards but not its own. On its turn a player either
plays a card (it goes on its colour's firework if it is the next rank there, else it is discarded and
the team takes a strike), discards one (the team gains a hint token, at most 8), or spends a token to
hint the other player: name a colour or a rank, and every card of that colour or rank in the other
hand is pointed out. The game ends at the third strike, when every firework is complete, or one turn
each after the last card is drawn. The score is the number of cards on the fireworks.

The partner's convention, stated in the prompt, is the one it expects the model to follow too: a
hint *marks to play* the newest card it touches that was not marked already. On its turn the
partner (1) plays its oldest marked card; else (2) when a token is left and the model holds no
marked card, it hints the model's newest card that is playable now and that a hint can mark (its
colour if that marks it, else its rank), skipping cards identical to a marked or played one; else
(3) discards its oldest unmarked card. It never looks at its own cards, only at its marks. Observations
show both hands' hint knowledge (what each slot was told and its mark), so following the convention
needs no memory, only reading.

Scoring is regret-normalised (:func:`palaestra.core.multiturn.regret_reward`): ``best`` is what the
reference player (:meth:`Hanabi.oracle`, who sees its own cards: plays any playable card, else marks a
playable partner card, else discards a dead or duplicated card; of its two orders of the first two
steps, the one that scores more on this deal) scores with the partner, and the zero is set from 16
seeded games of uniformly random legal moves (:func:`palaestra.envs.games._social.random_zero`). The
generator keeps deals where ``best`` beats the zero by at least two cards and, from level 2, where
the rule "play a marked card, else discard the oldest" (it never hints, so only the partner's hints
score) earns at most 0.6, 0.5, 0.4 (levels 2, 3, 4 and on). The honest player
(:meth:`Hanabi.honest_move`) reads only the observations: it plays its marked cards, marks a playable
partner card, else discards its oldest unmarked card. An unreadable or illegal move (a slot out of
range, a hint with no token or one that points out no card) is refused and the turn is spent. The
partner is scripted and deterministic; the deck's order is the only chance, drawn with the problem.

Levels grow the colours, the ranks and the hand; past the presets one colour more per level (at
most ten). The difficulty measure is the deck's size plus the cards by which the reference beats the
score's zero.

Generation speed: about 280 problems/s at level 4 on this 2-core machine. Each drawn deck is played through by two
reference players (the best sets the reward's top), 16 random players (the zero) and the simple rule; about 3 decks
are drawn per problem because play hardly matters or the rule scores too well. The games are kept because the reward
is normalised to them.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, View, register, regret_reward, retry
from palaestra.core.task import Growth
from palaestra.envs.games._social import random_zero, read_command

COLOURS = ("red", "green", "blue", "yellow", "white", "purple", "orange", "pink", "grey", "brown")
MAX_TOKENS = 8
STRIKES = 3
RANDOM_GAMES = 16  # random legal games played at generation to set the score's zero
SLIPS = 2  # refused moves the turn budget allows
_MOVE = re.compile(
    r"^(?:i )?(play|discard)(?: (?:my |the )?(?:card )?(?:in )?(?:slot|card|position|#)?)? ?#?(\d{1,2})$"
    r"|^(?:give (?:a |the )?)?(?:hint|clue|tell)(?: (?:my |the )?partner)?(?: about)?:? (?:(?:colou?r|rank) )?"
    r"([a-z]+|\d{1,2})s?$")
_HAND = re.compile(r"^(Partner's hand|Your hand): (.*)$", re.MULTILINE)
_SLOT = re.compile(r"(\d+) \[(\S+) (\S+)( marked)?\](?: (\S+) (\d+))?")
_STACKS = re.compile(r"^Fireworks: (.*)\. Hint tokens: (\d+)\.", re.MULTILINE)

Card = tuple[int, int]  # colour index, rank


@register
class Hanabi(MultiTurnTask):
    id = "games/hanabi"
    family = "games"
    description = "Cooperative Hanabi with a scripted partner following a stated convention; own hand hidden."
    tags = ("games", "multi-turn", "cooperative", "cards", "imperfect-information", "theory-of-mind")
    one_move_per_turn = True
    hidden_information = True  # the model's own hand and the deck's order
    score_based = True

    @dataclass(frozen=True)
    class Config:
        colours: int
        ranks: int
        hand: int
        tokens: int  # hint tokens at the start
        rule_cap: float  # keep deals where "play marked cards, else discard" (never hinting) scores at most this

    presets = (Config(2, 3, 3, 3, 1.0), Config(3, 3, 3, 4, 1.0), Config(3, 4, 4, 4, 0.6), Config(4, 4, 4, 5, 0.5),
               Config(4, 5, 4, 6, 0.4))
    growth = Growth(steps={"colours": 1}, limits={"colours": len(COLOURS)})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        deck = [(colour, rank) for colour in range(config.colours) for rank in range(1, config.ranks + 1)
                for _ in range(3 if rank == 1 else 1 if rank == config.ranks else 2)]

        def draw() -> dict[str, Any] | None:
            order = rng.sample(deck, len(deck))
            data: dict[str, Any] = {"colours": config.colours, "ranks": config.ranks, "hand": config.hand,
                                    "tokens": config.tokens, "deck": [list(card) for card in order]}
            finals = [_final_score(data, lambda state, way=way: _reference_action(data, state, way))
                      for way in range(len(REFERENCE_WAYS))]
            best = max(finals)
            scores = [_final_score(data, lambda state, r=random.Random(rng.random()): r.choice(_legal(data, state)))
                      for _ in range(RANDOM_GAMES)]
            zero = random_zero(scores, best)
            rule = _final_score(data, lambda state: _marked_else_discard(state))
            if best - zero < 2 or regret_reward(rule, zero, best) > config.rule_cap:
                return None
            return {**data, "best": best, "way": finals.index(best), "zero": zero,
                    "random": round(sum(scores) / len(scores), 4), "rule": rule}

        data = retry(draw, what="a deal where play matters")
        names = ", ".join(COLOURS[:config.colours])
        copies = "three 1s, one of the top rank and two of every other rank" if config.ranks > 2 else "three 1s"
        prompt = (
            "Let's play cooperative Hanabi, you and a scripted partner against the deck. Colours: "
            f"{names}; ranks 1 to {config.ranks}; each colour has {copies}. Together you build one firework per "
            "colour, from 1 upwards in order. You see your partner's cards but not your own. Hands are listed slot "
            "1 (oldest) first; a card that leaves a hand closes the gap and the card drawn goes into the last slot.\n"
            "On your turn do one of: play a slot (the card goes on its firework if it is that colour's next rank, "
            "otherwise it is discarded and the team takes a strike); discard a slot (the team gains a hint token, "
            f"at most {MAX_TOKENS}); or spend a token to hint your partner with a colour or a rank: every card of "
            "it in your partner's hand is pointed out. A hint must point out at least one card. The game ends at "
            f"the {STRIKES}rd strike, when every firework is complete, or after one more turn each once the deck "
            "is empty. Your score is the number of cards on the fireworks: 0 up to a zero set so that uniformly "
            "random legal moves average at most 0.05, rising evenly to 1 at what a player who could see its own "
            "cards scores with this partner on this deal.\n"
            "The convention (your partner follows it and reads your hints by it): a hint marks to play the newest "
            "card it points out that was not marked already. On its turn your partner (1) plays its oldest marked "
            "card; else (2) if a token is left and you hold no marked card, hints your newest card that is playable "
            "now and that a hint can mark (by colour if that marks it, else by rank), never one identical to a "
            "marked or played card; else (3) discards its oldest unmarked card. It never sees its own cards.\n"
            "Each hand below shows per slot [colour rank] as told by hints (? = not told) and whether it is marked; "
            "your partner's cards follow their hint knowledge.\n\n"
            f"{_situation(data, _start(data))}\n\n"
            "Each turn write one move, for example: play 3, or: discard 1, or: hint blue, or: hint 2"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    public_keys = ("colours", "ranks", "hand")

    def max_turns(self, problem: Problem) -> int:
        data = problem.data
        return 2 * (len(data["deck"]) - 2 * data["hand"]) + data["tokens"] + 2 * data["hand"] + SLIPS

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return len(data["deck"]) + data["best"] - data["zero"]

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return _start(problem.data)

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        action = read_move(move, data["colours"], data["ranks"])
        if action is None:
            return Outcome.invalid(state, "write one move: play N, discard N (N a slot), hint a colour or hint a rank")
        why = _illegal(data, state, 0, action)
        if why:
            return Outcome.invalid(state, why)
        state, said = _act(data, state, 0, action)
        lines = [said]
        if not _over(data, state):
            partner = _partner_action(data, state)
            state, said = _act(data, state, 1, partner)
            lines.append(said)
        if _over(data, state):
            score = sum(state["stacks"])
            reward = regret_reward(score, data["zero"], data["best"])
            verdict = Verdict(reward, score >= data["best"], True, f"scored {score}, reference {data['best']}")
            lines.append(f"The game is over: the fireworks hold {score} cards (the reference player scores "
                         f"{data['best']}; the score's zero is {data['zero']}).")
            return Outcome(state, verdict, " ".join(lines), True)
        return Outcome.goes_on(state, " ".join(lines) + "\n" + _situation(data, state))

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return _spell(problem.data, _reference_action(problem.data, state, problem.data["way"]))

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        return [_spell(problem.data, action) for action in _legal(problem.data, state)]

    def heuristics(self) -> dict[str, Policy]:
        def newest(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
            return f"play {len(state['hands'][0])}"

        def marked_else_discard(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
            return _spell(problem.data, _marked_else_discard(state))

        return {"always play the newest card": newest,
                "play a marked card, else discard the oldest (never hint)": marked_else_discard}

    def honest_move(self, view: View) -> str:
        """Read the latest situation: play the oldest own marked card; else mark a playable partner card that
        is not the same as an own marked card; else discard the oldest unmarked own card."""
        text = (view.observations or [view.prompt])[-1]
        colours, ranks = view.public["colours"], view.public["ranks"]
        stacks_text, tokens = _STACKS.findall(text)[-1]
        stacks = [int(part.split()[-1]) for part in stacks_text.split(", ")]
        hands = {who: _SLOT.findall(body) for who, body in _HAND.findall(text)}
        mine = hands["Your hand"]
        for slot, _, _, marked, *_ in mine:
            if marked:
                return f"play {slot}"
        partner = [((COLOURS.index(c), int(r)), (tc, tr, bool(m))) for _, tc, tr, m, c, r in hands["Partner's hand"]]
        if int(tokens):
            hint = _marking_hint([card for card, _ in partner], [bool(told[2]) for _, told in partner], stacks,
                                 avoid=set(), colours=colours, ranks=ranks)
            if hint is not None:
                return _spell({"colours": colours}, hint)
        unmarked = [slot for slot, _, _, marked, *_ in mine if not marked]
        return f"discard {unmarked[0] if unmarked else mine[0][0]}"


def read_move(move: str, colours: int, ranks: int) -> tuple[str, int] | None:
    """``("play", slot)``, ``("discard", slot)``, ``("colour", index)`` or ``("rank", rank)``, or None.

    >>> read_move("Play slot 2.", 3, 4), read_move("hint blue", 3, 4), read_move("clue 4s", 3, 4)
    (('play', 2), ('colour', 2), ('rank', 4))
    >>> read_move("hint purple", 3, 4) is None, read_move("play 1 then discard 2", 3, 4) is None
    (True, True)
    """
    groups = read_command(move, _MOVE)
    if groups is None:
        return None
    if len(groups) == 2:
        return groups[0], int(groups[1])
    word = groups[0]
    if word.isdigit():
        return ("rank", int(word)) if 1 <= int(word) <= ranks else None
    return ("colour", COLOURS.index(word)) if word in COLOURS[:colours] else None


def _start(data: dict[str, Any]) -> dict[str, Any]:
    hand = data["hand"]
    deck = data["deck"]
    return {"hands": [deck[:hand], deck[hand:2 * hand]], "told": [[[-1, 0, 0]] * hand, [[-1, 0, 0]] * hand],
            "next": 2 * hand, "stacks": [0] * data["colours"], "discards": [], "tokens": data["tokens"],
            "strikes": 0, "final": -1}


def _over(data: dict[str, Any], state: dict[str, Any]) -> bool:
    return (state["strikes"] >= STRIKES or state["final"] == 0
            or sum(state["stacks"]) == data["colours"] * data["ranks"])


def _illegal(data: dict[str, Any], state: dict[str, Any], who: int, action: tuple[str, int]) -> str:
    kind, value = action
    if kind in ("play", "discard"):
        size = len(state["hands"][who])
        return "" if 1 <= value <= size else f"there is no slot {value} (slots 1 to {size})"
    if not state["tokens"]:
        return "no hint token is left"
    index = 0 if kind == "colour" else 1
    if not any(card[index] == value for card in state["hands"][1 - who]):
        return f"the hint {_spell(data, action)[5:]} points out no card"
    return ""


def _legal(data: dict[str, Any], state: dict[str, Any]) -> list[tuple[str, int]]:
    size = len(state["hands"][0])
    moves = [(kind, slot) for kind in ("play", "discard") for slot in range(1, size + 1)]
    if state["tokens"]:
        other = state["hands"][1]
        moves += [("colour", c) for c in sorted({card[0] for card in other})]
        moves += [("rank", r) for r in sorted({card[1] for card in other})]
    return moves


def _act(data: dict[str, Any], state: dict[str, Any], who: int, action: tuple[str, int]) -> tuple[dict[str, Any], str]:
    """Apply one legal action of player ``who`` (0 the model, 1 the partner); the new state and what happened."""
    kind, value = action
    hands = [list(hand) for hand in state["hands"]]
    told = [list(t) for t in state["told"]]
    stacks, discards = list(state["stacks"]), list(state["discards"])
    tokens, strikes, following = state["tokens"], state["strikes"], state["next"]
    name = "You" if who == 0 else "Your partner"
    final = state["final"] - 1 if state["final"] > 0 else state["final"]
    if kind in ("play", "discard"):
        card = hands[who].pop(value - 1)
        told[who].pop(value - 1)
        shown = _card_name(card)
        if kind == "play" and stacks[card[0]] == card[1] - 1:
            stacks[card[0]] += 1
            said = f"{name} played slot {value}: {shown}, which fits."
        elif kind == "play":
            strikes += 1
            discards.append(card)
            said = f"{name} played slot {value}: {shown}, which does not fit: strike {strikes} of {STRIKES}."
        else:
            discards.append(card)
            tokens = min(MAX_TOKENS, tokens + 1)
            said = f"{name} discarded slot {value}: {shown}."
        if following < len(data["deck"]):
            hands[who].append(data["deck"][following])
            told[who].append([-1, 0, 0])
            following += 1
            said += f" {name} drew a card into slot {len(hands[who])}" + (
                "." if who == 0 else f": {_card_name(hands[who][-1])}.")
            if following == len(data["deck"]) and final < 0:
                final = 2
                said += " The deck is empty: one more turn each."
    else:
        tokens -= 1
        other = 1 - who
        index = 0 if kind == "colour" else 1
        touched = [slot for slot, card in enumerate(hands[other]) if card[index] == value]
        for slot in touched:
            colour, rank, mark = told[other][slot]
            told[other][slot] = [value, rank, mark] if kind == "colour" else [colour, value, mark]
        fresh = [slot for slot in touched if not told[other][slot][2]]
        if fresh:
            told[other][fresh[-1]] = [*told[other][fresh[-1]][:2], 1]
        whose = "your partner's" if who == 0 else "your"
        said = (f"{name} hinted {_spell(data, action)[5:]}: {whose} slot{'s' if len(touched) > 1 else ''} "
                + ", ".join(str(slot + 1) for slot in touched)
                + (f"; slot {fresh[-1] + 1} is marked to play." if fresh else "; nothing new is marked."))
    return {"hands": hands, "told": told, "next": following, "stacks": stacks, "discards": discards,
            "tokens": tokens, "strikes": strikes, "final": final}, said


def _playable(card: Card | list[int], stacks: list[int]) -> bool:
    return stacks[card[0]] == card[1] - 1


def _marking_hint(hand: list[Any], marks: list[bool], stacks: list[int], avoid: set[Card], colours: int,
                  ranks: int) -> tuple[str, int] | None:
    """The hint that marks the newest card of ``hand`` that is playable and not in ``avoid`` (its colour if that
    marks it, else its rank), or None when no such card can be marked."""
    for slot in range(len(hand) - 1, -1, -1):
        card = tuple(hand[slot])
        if marks[slot] or not _playable(card, stacks) or card in avoid:
            continue
        for index, kind in ((0, "colour"), (1, "rank")):
            fresh = [s for s, other in enumerate(hand) if other[index] == card[index] and not marks[s]]
            if fresh and fresh[-1] == slot:
                return kind, card[index]
    return None


def _partner_action(data: dict[str, Any], state: dict[str, Any]) -> tuple[str, int]:
    """The partner's convention: play its oldest marked card; else mark one of the model's playable cards when
    the model holds none marked; else discard its oldest unmarked card."""
    marks = [bool(t[2]) for t in state["told"][1]]
    if any(marks):
        return "play", marks.index(True) + 1
    model_marks = [bool(t[2]) for t in state["told"][0]]
    if state["tokens"] and not any(model_marks):
        played = {(c, r) for c, height in enumerate(state["stacks"]) for r in range(1, height + 1)}
        hint = _marking_hint(state["hands"][0], model_marks, state["stacks"], played, data["colours"], data["ranks"])
        if hint is not None:
            return hint
    return "discard", marks.index(False) + 1


REFERENCE_WAYS = ("plays first", "keeps the partner busy first")


def _marked_else_discard(state: dict[str, Any]) -> tuple[str, int]:
    """The cheap rule: play the oldest own marked card, else discard slot 1 (never hint)."""
    marked = [slot for slot, told in enumerate(state["told"][0], start=1) if told[2]]
    return ("play", marked[0]) if marked else ("discard", 1)


def _reference_action(data: dict[str, Any], state: dict[str, Any], way: int) -> tuple[str, int]:
    """The reference player, who sees its own cards: play a playable card (not one the partner is marked to play),
    else mark a playable partner card, else discard a dead card, a duplicate, or the oldest unmarked card. Way 1
    first marks a playable partner card when the partner holds none marked (so it plays rather than discards)."""
    mine, partner = state["hands"][0], state["hands"][1]
    stacks = state["stacks"]
    partner_marked = {tuple(card) for card, told in zip(partner, state["told"][1]) if told[2]}
    if way == 1 and state["tokens"] and not partner_marked:
        marks = [bool(t[2]) for t in state["told"][1]]
        avoid = {tuple(card) for card in mine if _playable(card, stacks)}
        hint = _marking_hint(partner, marks, stacks, avoid, data["colours"], data["ranks"])
        if hint is not None:
            return hint
    for slot, card in enumerate(mine, start=1):
        if _playable(card, stacks) and tuple(card) not in partner_marked:
            return "play", slot
    if state["tokens"]:
        marks = [bool(t[2]) for t in state["told"][1]]
        avoid = {tuple(card) for card in mine if _playable(card, stacks)} | partner_marked
        hint = _marking_hint(partner, marks, stacks, avoid, data["colours"], data["ranks"])
        if hint is not None:
            return hint
    for slot, card in enumerate(mine, start=1):  # dead: already played, or held by the partner too
        if card[1] <= stacks[card[0]] or tuple(card) in {tuple(other) for other in partner}:
            return "discard", slot
    seen = [tuple(card) for card in state["discards"]]
    for slot, card in enumerate(mine, start=1):  # another copy is still to come
        copies = 3 if card[1] == 1 else 1 if card[1] == data["ranks"] else 2
        if seen.count(tuple(card)) + 1 < copies and not state["told"][0][slot - 1][2]:
            return "discard", slot
    unmarked = [slot for slot, told in enumerate(state["told"][0], start=1) if not told[2]]
    return "discard", unmarked[0] if unmarked else 1


def _final_score(data: dict[str, Any], choose: Any) -> int:
    """The score of a whole game in which the model's side plays ``choose(state)`` and the partner its convention."""
    state = _start(data)
    while True:
        state, _ = _act(data, state, 0, choose(state))
        if _over(data, state):
            return sum(state["stacks"])
        state, _ = _act(data, state, 1, _partner_action(data, state))
        if _over(data, state):
            return sum(state["stacks"])


def _card_name(card: Any) -> str:
    return f"{COLOURS[card[0]]} {card[1]}"


def _spell(data: dict[str, Any], action: tuple[str, int]) -> str:
    kind, value = action
    if kind == "colour":
        return f"hint {COLOURS[value]}"
    if kind == "rank":
        return f"hint {value}"
    return f"{kind} {value}"


def _slots(hand: list[Any], told: list[list[int]], shown: bool) -> str:
    parts = []
    for slot, (card, (colour, rank, mark)) in enumerate(zip(hand, told), start=1):
        knowledge = f"[{COLOURS[colour] if colour >= 0 else '?'} {rank or '?'}{' marked' if mark else ''}]"
        parts.append(f"{slot} {knowledge}" + (f" {_card_name(card)}" if shown else ""))
    return " | ".join(parts)


def _situation(data: dict[str, Any], state: dict[str, Any]) -> str:
    """Fireworks, tokens, strikes, deck and discards; the partner's cards with their hint knowledge; the model's
    hint knowledge only."""
    stacks = ", ".join(f"{COLOURS[c]} {height}" for c, height in enumerate(state["stacks"]))
    discards = ", ".join(_card_name(card) for card in sorted(state["discards"])) or "none"
    return (f"Fireworks: {stacks}. Hint tokens: {state['tokens']}. Strikes: {state['strikes']} of {STRIKES}. "
            f"Deck: {len(data['deck']) - state['next']} cards. Discarded: {discards}.\n"
            f"Partner's hand: {_slots(state['hands'][1], state['told'][1], True)}\n"
            f"Your hand: {_slots(state['hands'][0], state['told'][0], False)}")
