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

Scoring is regret-normalised (:func:`palaestra.core.multiturn.regret_reward`) over the final score: ``best`` is
what the reference player (:meth:`Hanabi.oracle`, who sees its own cards: plays any playable card, else marks a
playable partner card, else discards a dead or duplicated card; of its two orders of the first two steps, the one
that scores more on this deal) scores with the partner, and the zero is the most that any of the simple rules in
:data:`RULES` scores on this deal (the game is deterministic given the moves, so each rule is played through at
generation): the textbook rule "play a marked card, else mark a playable partner card, else discard the oldest
card" (the honest player of version 1), the same with its first two steps swapped, "play a marked card, else
discard the oldest" (never hinting), "always play the newest card" and "always discard the oldest card"; and never
below the level where 16 seeded games of
uniformly random legal moves average at most 0.05
(:func:`palaestra.envs.games._social.random_zero`). So every rule of the family scores exactly 0, and the
generator keeps deals where ``best`` beats the zero by at least one card. ``reward = clip((score - zero) / (best -
zero), 0, 1)``.

The honest player (:meth:`Hanabi.honest_move`, :func:`_smart_move`) reads only the observations: per own slot it
keeps the cards the hints allow and what the convention tells (a partner that could hint and discarded saw no
playable card it could mark; a partner's mark falls on the newest such card), weighs them by the copies still
unseen, marks a playable partner card when the partner holds no marked card, else plays its likeliest playable
card when at least 0.4 likely (0.5 after a strike, certain after two), else discards the card least worth keeping
(playable or the last copy of a card still needed counts for it, a dead card against it). It scores 0.37 / 0.41 /
0.31 / 0.40 / 0.38 at levels 0-4 (48 games a level). An unreadable or illegal move (a slot out of range, a hint with
no token or one that points out no card) is refused and the turn is spent. The partner is scripted and
deterministic; the deck's order is the only chance, drawn with the problem.

Version 2 (this one) sets the zero at the best simple rule and reshapes the levels. Version 1 set the zero from
random play, and the textbook rule (then also the honest player) scored 0.57 / 0.68 / 0.71 at levels 0 / 2 / 4; a
player reading the hints 0.70-0.80. A rule outside the family, "mark a playable partner card, else play a marked
card, else play the newest card blind" (:data:`GAMBLERS`, declared), scores 0.10 / 0.10 / 0.12 / 0.20 / 0.16
(48 games a level): putting it in the family brings the honest player under 0.3 at two levels (0.27 and 0.29).
On small decks the textbook rule is close to the reference player (two colours of three ranks: the honest player
gained 0.09 of the gap over the best rule), so every level has five ranks; levels grow the colours, the hand and the tokens; past the presets one colour more per
level (at most twelve). The difficulty measure is the deck's size plus the hand's plus the cards by which the
reference beats the score's zero.

Generation speed: 5-11 ms a problem per level on this 2-core machine: each drawn deck is played through by two
reference players (the best sets the reward's top), 16 random players and the five rules (the zero); a deck is
drawn again when the reference does not beat the best rule (about one deck in ten).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, View, register, regret_reward, retry
from palaestra.core.task import Growth
from palaestra.envs.games._social import random_zero, read_command

COLOURS = ("red", "green", "blue", "yellow", "white", "purple", "orange", "pink", "grey", "brown", "black", "gold")
MAX_TOKENS = 8
STRIKES = 3
RANDOM_GAMES = 16  # random legal games played at generation to set the score's zero
SLIPS = 2  # refused moves the turn budget allows
SURE = (0.4, 0.5, 1.0)  # the honest player plays a card this likely playable, by the strikes taken
_MOVE = re.compile(
    r"^(play|discard)(?: (?:my |the )?(?:card )?(?:in )?(?:slot|card|position|#)?)? ?#?(\d{1,2})$"
    r"|^(?:give (?:a |the )?)?(?:hint|clue|tell)(?: (?:my |the )?partner)?(?: about)?:? (?:(?:colou?r|rank) )?"
    r"([a-z]+|\d{1,2})s?$")
_HAND = re.compile(r"^(Partner's hand|Your hand): (.*)$", re.MULTILINE)
_SLOT = re.compile(r"(\d+) \[(\S+) (\S+)( marked)?\](?: ([a-z]+) (\d+))?")
_STACKS = re.compile(r"^Fireworks: (.*)\. Hint tokens: (\d+)\. Strikes: (\d+) .*Discarded: (.*)\.$", re.MULTILINE)
_OWN = re.compile(r"You (played|discarded) slot (\d+)")
_TOLD = re.compile(r"Your partner hinted (\w+): your slots? ([\d, ]+)[;.]( slot (\d+) is marked)?")

Card = tuple[int, int]  # colour index, rank


@register
class Hanabi(MultiTurnTask):
    id = "games/hanabi"
    family = "games"
    description = "Cooperative Hanabi with a scripted partner following a stated convention; own hand hidden."
    version = 2
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
        margin: int  # keep deals where the reference beats the best simple rule by at least this many cards

    presets = (Config(3, 5, 3, 3, 1), Config(4, 5, 3, 4, 1), Config(5, 5, 3, 4, 1), Config(5, 5, 4, 6, 1),
               Config(6, 5, 4, 6, 1))
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
            rules = [_final_score(data, lambda state, rule=rule: rule(data, state)) for rule in RULES.values()]
            zero = max(random_zero(scores, best), *rules)
            if best - zero < config.margin:
                return None
            return {**data, "best": best, "way": finals.index(best), "zero": zero,
                    "random": round(sum(scores) / len(scores), 4), "rules": rules}

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
            "is empty. The score is the number of cards on the fireworks. Your reward is 0 up to a zero: the most "
            "that any of five simple rules scores with this partner on this deal (the textbook rule: play a marked "
            "card, else mark a playable partner card, else discard the oldest card; the same with marking first; "
            "play a marked card, else discard the oldest, never hinting; always play the newest card; always "
            "discard the oldest card), and at least what uniformly random legal moves score; it rises evenly to 1 "
            "at what a player who could see its own cards scores with this partner on this deal.\n"
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
        return len(data["deck"]) + data["hand"] + data["best"] - data["zero"]

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
        def follow(rule: Any) -> Policy:
            def policy(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
                return _spell(problem.data, rule(problem.data, state))
            return policy

        return {name: follow(rule) for name, rule in {**RULES, **GAMBLERS}.items()}

    def honest_move(self, view: View) -> str:
        return _smart_move(view)


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


def _textbook_action(data: dict[str, Any], state: dict[str, Any]) -> tuple[str, int]:
    """The textbook rule: play the oldest own marked card; else mark a playable partner card; else discard the
    oldest unmarked own card."""
    own = [bool(t[2]) for t in state["told"][0]]
    if any(own):
        return "play", own.index(True) + 1
    if state["tokens"]:
        hint = _marking_hint(state["hands"][1], [bool(t[2]) for t in state["told"][1]], state["stacks"], set(),
                             data["colours"], data["ranks"])
        if hint is not None:
            return hint
    return "discard", own.index(False) + 1 if not all(own) else 1


def _hint_first_action(data: dict[str, Any], state: dict[str, Any]) -> tuple[str, int]:
    """The textbook rule with its first two steps swapped: mark a playable partner card; else play the oldest own
    marked card; else discard the oldest unmarked own card."""
    if state["tokens"]:
        hint = _marking_hint(state["hands"][1], [bool(t[2]) for t in state["told"][1]], state["stacks"], set(),
                             data["colours"], data["ranks"])
        if hint is not None:
            return hint
    return _textbook_action(data, {**state, "tokens": 0})


def _gamble_action(data: dict[str, Any], state: dict[str, Any]) -> tuple[str, int]:
    """Mark a playable partner card, else play a marked card, else play the newest card blind (discard the oldest
    unmarked card at the last strike)."""
    action = _hint_first_action(data, state)
    if action[0] == "discard" and state["strikes"] < STRIKES - 1:
        return "play", len(state["hands"][0])
    return action


def _newest_action(data: dict[str, Any], state: dict[str, Any]) -> tuple[str, int]:
    return "play", len(state["hands"][0])


def _oldest_action(data: dict[str, Any], state: dict[str, Any]) -> tuple[str, int]:
    return "discard", 1


RULES = {"the textbook rule: play a marked card, else mark a playable partner card, else discard the oldest":
         _textbook_action,
         "mark a playable partner card, else play a marked card, else discard the oldest": _hint_first_action,
         "play a marked card, else discard the oldest (never hint)": lambda data, state: _marked_else_discard(state),
         "always play the newest card": _newest_action,
         "always discard the oldest card": _oldest_action}


# A cheap rule outside the zero's family (0.10-0.20 a level at version 2, see the module docstring), checked by the kit.
GAMBLERS = {"mark a playable partner card, else play a marked card, else play the newest card blind (discard the "
            "oldest at the last strike)": _gamble_action}


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


def _read_situation(text: str) -> dict[str, Any]:
    """The last situation block of an observation: fireworks, tokens, strikes, discards, both hands as told."""
    stacks_text, tokens, strikes, discards_text = _STACKS.findall(text)[-1]
    hands = {who: _SLOT.findall(body) for who, body in _HAND.findall(text)}
    discards = [] if discards_text == "none" else [_read_card(part) for part in discards_text.split(", ")]
    partner = [((COLOURS.index(c), int(r)), bool(m)) for _, _, _, m, c, r in hands["Partner's hand"]]
    return {"stacks": [int(part.split()[-1]) for part in stacks_text.split(", ")], "tokens": int(tokens),
            "strikes": int(strikes), "discards": discards, "partner": partner,
            "marks": [bool(m) for _, _, _, m, *_ in hands["Your hand"]]}


def _read_card(text: str) -> Card:
    colour, rank = text.split()
    return COLOURS.index(colour), int(rank)


def _copies(rank: int, ranks: int) -> int:
    return 3 if rank == 1 else 1 if rank == ranks else 2


def _own_knowledge(view: View) -> tuple[dict[str, Any], list[tuple[set[Card], set[Card]]]]:
    """The latest situation and, per own slot, the cards it can be: by the hints (hard) and also by what the
    partner's convention tells (soft: a partner that could hint and did not, or marked a card, saw no playable
    card it could mark among the newer ones)."""
    colours, ranks = view.public["colours"], view.public["ranks"]
    every = {(c, r) for c in range(colours) for r in range(1, ranks + 1)}
    texts = [view.prompt] + [observation for _, observation in view.history]
    situation = _read_situation(texts[0])
    slots = [(set(every), set(every)) for _ in range(view.public["hand"])]
    for text in texts[1:]:
        if "Fireworks: " not in text:  # a refused move changes nothing
            continue
        before, situation = situation, _read_situation(text)
        marks, tokens = list(before["marks"]), before["tokens"]
        own = _OWN.search(text)
        if own:
            slot = int(own.group(2)) - 1
            slots.pop(slot)
            marks.pop(slot)
            if own.group(1) == "discarded":
                tokens = min(MAX_TOKENS, tokens + 1)
            if "You drew a card" in text:
                slots.append((set(every), set(every)))
                marks.append(False)
        elif text.startswith("You hinted"):
            tokens -= 1
        playable = {card for card in every if _playable(card, situation["stacks"])}
        told = _TOLD.search(text)
        if told:
            word, touched = told.group(1), {int(x) - 1 for x in told.group(2).split(", ")}
            index, value = (1, int(word)) if word.isdigit() else (0, COLOURS.index(word))
            for slot, (hard, soft) in enumerate(slots):
                keep = {card for card in every if (card[index] == value) == (slot in touched)}
                hard &= keep
                soft &= keep
            if told.group(4):
                marked = int(told.group(4)) - 1
                slots[marked][1].intersection_update(playable)
                for slot in range(marked + 1, len(slots)):
                    slots[slot][1].difference_update(playable)
        elif "Your partner discarded" in text and tokens and not any(marks):
            for _, soft in slots:
                soft -= playable
    return situation, slots


def _smart_move(view: View) -> str:
    """The honest player: tracks what every hint and the partner's convention told about each own card, weighs
    the cards still unseen, plays a card that is surely playable, else marks a playable partner card when the
    partner holds no marked card, else discards the card most likely useless (never one likely the last copy)."""
    colours, ranks = view.public["colours"], view.public["ranks"]
    situation, slots = _own_knowledge(view)
    stacks, partner = situation["stacks"], situation["partner"]
    seen: dict[Card, int] = {}
    for card in situation["discards"] + [card for card, _ in partner]:
        seen[card] = seen.get(card, 0) + 1
    discarded = {card: situation["discards"].count(card) for card in set(situation["discards"])}
    limit = []  # per colour, the first rank that can no longer be played
    for c in range(colours):
        top = ranks + 1
        for r in range(stacks[c] + 1, ranks + 1):
            if discarded.get((c, r), 0) >= _copies(r, ranks):
                top = r
                break
        limit.append(top)

    def unseen(card: Card) -> int:
        return max(0, _copies(card[1], ranks) - seen.get(card, 0) - (1 if card[1] <= stacks[card[0]] else 0))

    weights = []
    for hard, soft in slots:
        options = {card: unseen(card) for card in soft if unseen(card)} or {card: unseen(card) for card in hard
                                                                              if unseen(card)} or {c: 1 for c in hard}
        weights.append(options)
    ps = []
    for options in weights:
        total = sum(options.values())
        play = sum(w for card, w in options.items() if _playable(card, stacks)) / total
        dead = sum(w for card, w in options.items() if card[1] <= stacks[card[0]] or card[1] >= limit[card[0]]) / total
        last = sum(w for card, w in options.items() if not (card[1] <= stacks[card[0]] or card[1] >= limit[card[0]])
                   and _copies(card[1], ranks) - discarded.get(card, 0) == 1) / total
        ps.append((play, dead, last))
    threshold = SURE[min(situation["strikes"], len(SURE) - 1)]
    best = max(range(len(slots)), key=lambda s: (ps[s][0], situation["marks"][s], -s))
    hinted = None
    if situation["tokens"] and not any(marked for _, marked in partner):
        sure = {next(iter(options)) for options, p in zip(weights, ps) if len(options) == 1 and p[0] == 1}
        hint = _marking_hint([card for card, _ in partner], [False] * len(partner), stacks, sure, colours, ranks)
        if hint is not None:
            hinted = _spell({"colours": colours}, hint)
    if hinted:
        return hinted
    if ps[best][0] >= threshold - 1e-9:
        return f"play {best + 1}"
    keep = [p[0] * 2 + p[2] * 3 - p[1] * 2 + (1 if marked else 0) for p, marked in zip(ps, situation["marks"])]
    return f"discard {min(range(len(slots)), key=lambda s: (keep[s], s)) + 1}"

