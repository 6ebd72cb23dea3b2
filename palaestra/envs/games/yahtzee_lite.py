"""Yahtzee lite: a solo dice game with a few scoring categories, scored by the expected points the moves give up.

The player has ``dice`` six-sided dice and one turn per category. Each turn starts with a roll of all the
dice; the player may reroll any of them twice (one move per reroll: ``keep 6 6``, ``keep none``), then
must score the dice in a category not used yet (``score sixes``), which ends the turn. Categories:
sixes and fives (the face times the number of dice showing it), chance (the dice's sum), all same (30
when every die shows one face), straight (20 when the dice show consecutive faces) and three of a kind
(the dice's sum when at least three dice show one face). Levels use 2 dice and 3 or 4 categories, then 3 dice
and 4, 5 or 6 categories.

The dice are drawn with the problem: for each turn and each of its three rolls a row of ``dice`` faces;
a roll that throws ``m`` dice shows the first ``m`` faces of its row, so a replay meets the same dice and
every strategy faces the same luck.

The reward judges the decisions, not the luck of the dice. An exact dynamic programme over the categories
left, the dice and the rerolls left gives every position's optimal expected final total ``V`` and every
move's ``Q`` (the expected final total after that move, played optimally from there). Each move gives up
``V - Q >= 0`` expected points, and ``given_up`` sums them over the game (its expectation under any
strategy is the optimal expected total minus that strategy's expected total, so luck cancels out). The
zero, ``allowed``, is per game: the least that any rule of :data:`SIMPLE_RULES` gives up when played on these
very dice. The family crosses nine ways of choosing dice to keep (never reroll, reroll all, keep the most
common face, keep sixes, keep sixes and fives, keep 4s to 6s, keep a pair or else the highest die, chase a
straight while it is open else the most common face or else sixes and fives) with four stopping rules (reroll
while allowed, or score at once when the dice already score at least 15, 20 or 25) and two ways to score (the
open category scoring most, ties to the listed order, or ties and zeros to the least valuable category
first); the kit plays the ones in :data:`DECLARED_RULES` as the env's heuristics. The reward, paid when the game
ends, is
:func:`palaestra.core.multiturn.regret_reward` ``(-given_up, -allowed, 0)`` = ``clip(1 - given_up / allowed,
0, 1)`` (both rounded to 6 decimals): the oracle, which plays the optimal strategy, gives up nothing and
scores 1; every simple rule of the family scores exactly 0 on every game; uniformly random legal play gives up
far more and scores 0. A near-optimal player still earns a fair share: the optimal moves but the category scoring
most in the last three turns averages 0.5-0.8 per level, and the optimal rerolls with the category scoring
most in every turn 0.4-0.6 (0.25 at level 4, where that scoring gives up about 7 expected points, over half of
what the best simple rule gives up on average). The zero is per game rather than the best rule's exact expected
loss because one game's loss spreads widely about its mean: against a constant zero the rules scored 0.25-0.4
on their lucky games. Dice on which some simple rule gives up less than ``MIN_ALLOWED`` points are redrawn
(bounded; about a third at level 0, a few at the top), so the scale is never a knife edge. A hand-built
problem without ``allowed`` has it computed at scoring. In version 1 the zero was set from uniformly random
legal play's score distribution and the reward compared the dice total with the optimal strategy's total on
these dice; any sensible rule beat random play by far (keeping toward a straight, else the most common face,
scored 0.70 at level 4).
The dynamic programmes are memoised per (dice, categories) in the process. An unreadable or illegal move
(a die not showing, a used category, a reroll after two) is refused; the turn budget allows ``SLIPS``.

The difficulty measure is three times the dice times the categories (the room for choices) plus the number
of moves the optimal strategy makes on these dice (its rerolls vary with the luck of the draw).
"""

from __future__ import annotations

import functools
import itertools
import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from math import factorial
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, register, regret_reward, retry
from palaestra.envs.games.common import MAX_MOVE_CHARS
from palaestra.verifiers.moves import read_move_answer

MIN_ALLOWED = 0.5  # dice on which some simple rule gives up fewer expected points than this are redrawn
DRAWS = 60  # attempts at such dice (at level 0 about a third are redrawn)
SLIPS = 2
REROLLS = 2
CATEGORIES = ("sixes", "fives", "chance", "all same", "straight", "three of a kind")
Dice = tuple[int, ...]  # sorted faces
_KEEP = re.compile(r"^(?:keep|hold)\s+(none|nothing|all|(?:[1-6][\s,]*)+)$|^(reroll|roll) (all|everything)$")
_SCORE = re.compile(r"^(?:score|use|take)?\s*(?:(?:it|them|the dice)\s+)?(?:in|as|under)?\s*(?:the\s+)?"
                    r"(sixes|fives|chance|all same|straight|three of a kind)(?:\s+category)?$")


def category_score(category: str, dice: Dice) -> int:
    """What ``dice`` score in ``category``.

    >>> category_score("sixes", (2, 6, 6)), category_score("straight", (3, 4, 5)), category_score("all same", (1, 1, 2))
    (12, 20, 0)
    """
    counts = Counter(dice)
    if category == "sixes":
        return 6 * counts[6]
    if category == "fives":
        return 5 * counts[5]
    if category == "chance":
        return sum(dice)
    if category == "all same":
        return 30 if len(counts) == 1 else 0
    if category == "straight":
        return 20 if len(counts) == len(dice) and max(dice) - min(dice) == len(dice) - 1 else 0
    return sum(dice) if max(counts.values()) >= 3 else 0  # three of a kind


_points = functools.lru_cache(maxsize=None)(category_score)  # by (category, sorted dice), for the hot loops


@register
class YahtzeeLite(MultiTurnTask):
    id = "games/yahtzee_lite"
    family = "games"
    description = "Solo Yahtzee with a few categories: choose dice to keep and categories; regret-scored."
    tags = ("games", "multi-turn", "single-player", "dice", "planning", "stochastic")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    score_based = True

    @dataclass(frozen=True)
    class Config:
        dice: int
        categories: int  # the first this many of CATEGORIES

    presets = (Config(2, 3), Config(2, 4), Config(3, 4), Config(3, 5), Config(3, 6))
    bounded = "the categories are a fixed list of six"
    # v2: the reward sums the expected points each move gives up; the zero is the best simple rule's.
    # v3: the data no longer carries random play's mean (computed for reference only, and slow to compute).
    version = 3

    def generate(self, rng: random.Random, config: Config) -> Problem:
        categories = CATEGORIES[:config.categories]
        tables = _tables(config.dice, categories)

        def draw() -> dict[str, Any] | None:
            rolls = [[[rng.randint(1, 6) for _ in range(config.dice)] for _ in range(REROLLS + 1)]
                     for _ in range(len(categories))]
            data: dict[str, Any] = {"dice": config.dice, "categories": list(categories), "rolls": rolls}
            allowed, rule = _simple_best(data)
            if allowed < MIN_ALLOWED:
                return None
            return {**data, "allowed": allowed, "simple_rule": rule}

        data = retry(draw, attempts=DRAWS, what="dice on which every simple rule gives up points")
        best, moves = _optimal_game(data)
        data.update(best=best, optimal_mean=round(tables.optimal_mean, 6),
                    optimal_moves=moves)
        prompt = (
            f"Let's play a solo dice game with {config.dice} six-sided dice and these categories, each used once: "
            + "; ".join(_RULES[c] for c in categories) + ". "
            "Each turn starts with a roll of all the dice. You may reroll any of them up to two times, one reroll "
            "per move: write which dice to keep by their faces, for example: keep 6 6 (or keep none, or keep "
            "all); the others are rolled again. Then score the dice in a category you have not used, for "
            "example: score chance; that ends the turn, and the game ends when every category is used. Your "
            "result judges your decisions, not the luck of the dice: each move is compared with the best move "
            "in its position (the one with the highest expected final total, computed exactly), and the "
            "expected points your moves give up are added up. You score 1 when you give up none, falling "
            "evenly to 0 when you give up as many as the best of a family of simple rules gives up on these "
            "same dice (rules such as never rerolling, rerolling all, keeping the most common face, keeping "
            "sixes and fives, keeping high dice or chasing a straight, each scoring the open category that "
            "scores most).\n\n"
            f"{_situation(data, _start(data))}"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return len(problem.data["categories"]) * (REROLLS + 1) + SLIPS

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return 3 * data["dice"] * len(data["categories"]) + data["optimal_moves"]

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return _start(problem.data)

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        parsed = read_move(move)
        if parsed is None:
            return Outcome.invalid(state, "write keep and the faces to keep (keep 6 6, keep none, keep all) or "
                                          "score and an unused category (score chance)")
        kind, value = parsed
        if kind == "keep":
            if state["rerolls"] <= 0:
                return Outcome.invalid(state, "no rerolls are left this turn: score the dice in a category")
            kept = _as_dice(state["showing"]) if value == "all" else tuple(sorted(int(face) for face in value))
            if Counter(kept) - Counter(state["showing"]):
                return Outcome.invalid(state, "keep only dice that are showing")
            after = _reroll(data, state, kept)
            after["given_up"] = state["given_up"] + _loss(data, state, "keep", kept)
            return Outcome.goes_on(after, f"You keep {_faces(kept) or 'none'} and roll again.\n"
                                          f"{_situation(data, after)}")
        category = value
        if category not in state["open"]:
            return Outcome.invalid(state, f"{category} is not an open category")
        points = category_score(category, _as_dice(state["showing"]))
        after = _scored(data, state, category, points)
        after["given_up"] = state["given_up"] + _loss(data, state, "score", category)
        said = f"You score {points} in {category}. Total: {after['total']}."
        if not after["open"]:
            given_up = round(after["given_up"], 6)
            allowed = data["allowed"] if "allowed" in data else _simple_best(data)[0]  # drawn problems carry it
            reward = regret_reward(-given_up, -allowed, 0.0)
            verdict = Verdict(reward, given_up <= 0, True,
                              f"total {after['total']}, gave up {given_up:.3f} expected points; the best simple "
                              f"rule gave up {allowed:.3f}")
            return Outcome(after, verdict, f"{said} The game is over: your moves gave up {given_up:.2f} expected "
                                           f"points against the best strategy; the best simple rule on these dice "
                                           f"gave up {allowed:.2f}.", True)
        return Outcome.goes_on(after, f"{said}\n{_situation(data, after)}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return _optimal_move(problem.data, state)

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        moves = [f"score {category}" for category in state["open"]]
        if state["rerolls"] > 0:
            keeps = {kept for size in range(len(state["showing"]) + 1)
                     for kept in itertools.combinations(_as_dice(state["showing"]), size)}
            moves += [f"keep {_faces(kept) or 'none'}" for kept in sorted(keeps)]
        return moves

    def heuristics(self) -> dict[str, Policy]:
        named = {"score the best open category at once": "never reroll; score the most"}
        named.update((name, name) for name in DECLARED_RULES)
        return {label: _as_policy(SIMPLE_RULES[name]) for label, name in named.items()}


def read_move(move: str) -> tuple[str, Any] | None:
    """``("keep", "all" or a tuple of faces)`` or ``("score", category)``, or None.

    >>> read_move("Keep 6, 6."), read_move("score chance"), read_move("keep 6, score sixes")
    (('keep', ('6', '6')), ('score', 'chance'), None)
    """
    if not isinstance(move, str) or len(move) > MAX_MOVE_CHARS:
        return None

    def read(text: str) -> tuple[str, Any] | None:
        flat = " ".join(text.lower().replace("-", " ").split())
        keep = _KEEP.match(flat)
        if keep:
            if keep.group(2) or keep.group(1) == "all":
                return ("keep", ()) if keep.group(2) else ("keep", "all")
            if keep.group(1) in ("none", "nothing"):
                return "keep", ()
            return "keep", tuple(face for face in keep.group(1) if face.isdigit())
        score = _SCORE.match(flat)
        return ("score", score.group(1)) if score else None

    return read_move_answer(move, read)


_RULES = {
    "sixes": "sixes (6 points per die showing 6)",
    "fives": "fives (5 points per die showing 5)",
    "chance": "chance (the sum of the dice)",
    "all same": "all same (30 points when every die shows the same face)",
    "straight": "straight (20 points when the dice show consecutive faces, such as 2 3 4)",
    "three of a kind": "three of a kind (the sum of the dice when at least three show the same face)",
}


def _faces(dice: Dice) -> str:
    return " ".join(str(face) for face in dice)


def _as_dice(faces: list[int]) -> Dice:
    return tuple(sorted(faces))


def _start(data: dict[str, Any]) -> dict[str, Any]:
    return {"turn": 0, "rerolls": REROLLS, "showing": sorted(data["rolls"][0][0]), "open": list(data["categories"]),
            "total": 0, "given_up": 0.0}


def _reroll(data: dict[str, Any], state: dict[str, Any], kept: Dice) -> dict[str, Any]:
    roll = REROLLS + 1 - state["rerolls"]
    thrown = data["rolls"][state["turn"]][roll][:data["dice"] - len(kept)]
    return {**state, "rerolls": state["rerolls"] - 1, "showing": sorted([*kept, *thrown])}


def _scored(data: dict[str, Any], state: dict[str, Any], category: str, points: int) -> dict[str, Any]:
    turn, left = state["turn"] + 1, [c for c in state["open"] if c != category]
    showing = sorted(data["rolls"][turn][0]) if left else []
    return {"turn": turn, "rerolls": REROLLS, "showing": showing, "open": left, "total": state["total"] + points,
            "given_up": state["given_up"]}


def _situation(data: dict[str, Any], state: dict[str, Any]) -> str:
    return (f"Turn {state['turn'] + 1} of {len(data['categories'])}: the dice show {_faces(_as_dice(state['showing']))}"
            f" ({state['rerolls']} rerolls left). Open categories: {', '.join(state['open'])}. "
            f"Total: {state['total']}.")


@functools.lru_cache(maxsize=None)
def _outcomes(count: int) -> tuple[tuple[Dice, float], ...]:
    """Every sorted result of throwing ``count`` dice with its chance."""
    results = []
    for dice in itertools.combinations_with_replacement(range(1, 7), count):
        ways = factorial(count)
        for times in Counter(dice).values():
            ways //= factorial(times)
        results.append((dice, ways / 6 ** count))
    return tuple(results)


@functools.lru_cache(maxsize=None)
def _landings(dice: int, kept: Dice) -> tuple[tuple[Dice, float], ...]:
    """Every sorted result of keeping ``kept`` and throwing the other dice, with its chance, in
    :func:`_outcomes`' order (memoised: the dynamic programmes weigh the same throws again and again)."""
    return tuple((tuple(sorted(kept + thrown)), chance) for thrown, chance in _outcomes(dice - len(kept)))


@functools.lru_cache(maxsize=None)
def _distinct_keeps(showing: Dice) -> tuple[Dice, ...]:
    """The distinct sub-multisets of the dice showing, sorted."""
    return tuple(sorted(set(_keeps(showing))))


@dataclass(frozen=True)
class _Tables:
    value: Any  # (open categories, dice, rerolls) -> the optimal expected total still to come
    after_throw: Any  # (open categories, dice kept, rerolls) -> the same once the dice not kept are thrown
    optimal_mean: float


@functools.lru_cache(maxsize=16)
def _tables(dice: int, categories: tuple[str, ...]) -> _Tables:
    @functools.lru_cache(maxsize=None)
    def future(open_: frozenset[str]) -> float:
        """The optimal expected total of the turns left, before their first roll."""
        if not open_:
            return 0.0
        return sum(chance * value(open_, roll, REROLLS) for roll, chance in _outcomes(dice))

    @functools.lru_cache(maxsize=None)
    def value(open_: frozenset[str], showing: Dice, rerolls: int) -> float:
        best = max(category_score(c, showing) + future(open_ - {c}) for c in open_)
        if rerolls:
            for kept in _distinct_keeps(showing):
                best = max(best, after_throw(open_, kept, rerolls - 1))
        return best

    @functools.lru_cache(maxsize=None)
    def after_throw(open_: frozenset[str], kept: Dice, rerolls: int) -> float:
        """The optimal expected total still to come once the dice not ``kept`` are thrown, with ``rerolls`` left.
        It does not depend on the dice showing, so it is summed once per (categories open, dice kept, rerolls)
        rather than for every showing dice that keeps them."""
        return sum(chance * value(open_, landed, rerolls) for landed, chance in _landings(dice, kept))

    return _Tables(value, after_throw, future(frozenset(categories)))


def _keeps(showing: Dice) -> list[Dice]:
    """Every sub-multiset of the dice showing (as sorted tuples; repeats possible)."""
    return [kept for size in range(len(showing) + 1) for kept in itertools.combinations(showing, size)]


def _optimal_move(data: dict[str, Any], state: dict[str, Any]) -> str:
    """The optimal strategy's move: the category or keep with the highest expected total (categories first,
    then fewer dice kept, on a tie)."""
    dice, categories = data["dice"], tuple(data["categories"])
    open_, showing = frozenset(state["open"]), _as_dice(state["showing"])
    options: list[tuple[float, int, str]] = []
    for category in sorted(open_):
        rest = open_ - {category}
        after = _expected_after_throw(dice, categories, rest, (), REROLLS) if rest else 0.0  # a fresh turn's roll
        options.append((category_score(category, showing) + after, 1, f"score {category}"))
    if state["rerolls"]:
        for kept in _distinct_keeps(showing):
            expected = _expected_after_throw(dice, categories, open_, kept, state["rerolls"] - 1)
            options.append((expected, -len(kept), f"keep {_faces(kept) or 'none'}"))
    return max(options, key=lambda option: (round(option[0], 9), option[1]))[2]


def _expected_after_throw(dice: int, categories: tuple[str, ...], open_: frozenset[str], kept: Dice,
                          rerolls: int) -> float:
    """The optimal expected total still to come once the dice not ``kept`` are thrown, with ``rerolls`` left
    (memoised with the tables: the optimal game played at generation weighs the same ones again and again)."""
    return _tables(dice, categories).after_throw(open_, kept, rerolls)


def _optimal_game(data: dict[str, Any]) -> tuple[int, int]:
    """The optimal strategy's total on the drawn dice and the number of moves it makes."""
    state, moves = _start(data), 0
    while state["open"]:
        move = _optimal_move(data, state)
        moves += 1
        kind, value = read_move(move) or ("score", "chance")
        if kind == "keep":
            state = _reroll(data, state, tuple(sorted(int(face) for face in value)))
        else:
            state = _scored(data, state, value, category_score(value, _as_dice(state["showing"])))
    return state["total"], moves


def _loss(data: dict[str, Any], state: dict[str, Any], kind: str, value: Any) -> float:
    """The expected points the move (``"keep"`` and the dice kept, or ``"score"`` and a category) gives up against
    the best move in ``state``: the optimal expected total from the position minus the one after the move."""
    return _move_loss(data["dice"], tuple(data["categories"]), frozenset(state["open"]), _as_dice(state["showing"]),
                      state["rerolls"], kind, value)


@functools.lru_cache(maxsize=1 << 16)  # bounded: the positions and moves of all levels would be some 10^6
def _move_loss(dice: int, categories: tuple[str, ...], open_: frozenset[str], showing: Dice, rerolls: int, kind: str,
               value: Any) -> float:
    """:func:`_loss` by position (memoised: the simple rules played at generation meet the same positions often)."""
    tables = _tables(dice, categories)
    if kind == "keep":
        after = tables.after_throw(open_, value, rerolls - 1)
    else:
        rest = open_ - {value}
        after = _points(value, showing) + (tables.after_throw(rest, (), REROLLS) if rest else 0.0)
    return max(0.0, tables.value(open_, showing, rerolls) - after)


# --- the simple rules: the zero of the reward --------------------------------------------------------------

Rule = Callable[[frozenset[str], Dice, int], tuple[str, Any]]  # (open, dice showing, rerolls) -> a move
DUMP_ORDER = ("all same", "straight", "three of a kind", "fives", "sixes", "chance")  # least valuable first


def _most_common(open_: frozenset[str], dice: Dice) -> Dice:
    face = max(set(dice), key=lambda f: (dice.count(f), f))
    return tuple(f for f in dice if f == face)


def _toward_straight(dice: Dice) -> Dice:
    """The most distinct faces that fit in one straight (the higher straight on a tie)."""
    best: Dice = ()
    for low in range(7 - len(dice), 0, -1):
        kept = tuple(sorted({f for f in dice if low <= f < low + len(dice)}))
        best = kept if len(kept) > len(best) else best
    return best


def _fives_up(open_: frozenset[str], dice: Dice) -> Dice:
    return tuple(f for f in dice if f >= 5)


_KEEP_RULES: dict[str, Callable[[frozenset[str], Dice], Dice | None]] = {
    "never reroll": lambda open_, dice: None,
    "reroll all": lambda open_, dice: (),
    "keep the most common face": _most_common,
    "keep sixes": lambda open_, dice: tuple(f for f in dice if f == 6),
    "keep sixes and fives": _fives_up,
    "keep 4 to 6": lambda open_, dice: tuple(f for f in dice if f >= 4),
    "keep a pair or else the highest die": lambda open_, dice: (
        _most_common(open_, dice) if len(set(dice)) < len(dice) else (max(dice),)),
    "chase a straight while open, else the most common face": lambda open_, dice: (
        _toward_straight(dice) if "straight" in open_ else _most_common(open_, dice)),
    "chase a straight while open, else sixes and fives": lambda open_, dice: (
        _toward_straight(dice) if "straight" in open_ else _fives_up(open_, dice)),
}
_STOPS = {"": None, ", stop at 15+": 15, ", stop at 20+": 20, ", stop at 25+": 25}
_SCORERS = {"score the most": CATEGORIES, "score the most, ties and zeros to the least valuable": DUMP_ORDER}


def _rule(keep: Callable[[frozenset[str], Dice], Dice | None], stop: int | None, order: tuple[str, ...]) -> Rule:
    def rule(open_: frozenset[str], dice: Dice, rerolls: int) -> tuple[str, Any]:
        category = max(sorted(open_, key=order.index), key=lambda c: _points(c, dice))
        if not rerolls or (stop is not None and _points(category, dice) >= stop):
            return "score", category
        kept = keep(open_, dice)
        if kept is None or len(kept) == len(dice):
            return "score", category
        return "keep", tuple(sorted(kept))
    return rule


SIMPLE_RULES: dict[str, Rule] = {
    f"{keep_name}{stop_name}; {score_name}": _rule(keep, stop, order)
    for keep_name, keep in _KEEP_RULES.items() for stop_name, stop in _STOPS.items()
    if keep_name != "never reroll" or stop is None
    for score_name, order in _SCORERS.items()}
DECLARED_RULES = (  # the ones the kit plays (every rule of the family scores 0 by construction)
    "reroll all; score the most",
    "keep the most common face; score the most",
    "keep sixes; score the most",
    "keep sixes and fives; score the most",
    "keep 4 to 6; score the most",
    "keep a pair or else the highest die; score the most",
    "chase a straight while open, else the most common face; score the most",
    "keep the most common face, stop at 20+; score the most, ties and zeros to the least valuable",
    "chase a straight while open, else sixes and fives, stop at 15+; score the most, ties and zeros to the least "
    "valuable",
)


def _rule_given_up(data: dict[str, Any], rule: Rule) -> float:
    """The expected points ``rule`` gives up playing these dice, summed move by move as :meth:`YahtzeeLite.play`
    sums them (so a player making the rule's moves gives up exactly as much)."""
    dice, categories, rolls = data["dice"], tuple(data["categories"]), data["rolls"]
    open_, given_up = frozenset(categories), 0.0
    for turn in range(len(categories)):
        showing, rerolls = _as_dice(rolls[turn][0]), REROLLS
        for _ in range(REROLLS + 1):  # each pass rerolls once or scores; with no rerolls left every rule scores
            kind, value = rule(open_, showing, rerolls)
            given_up = given_up + _move_loss(dice, categories, open_, showing, rerolls, kind, value)
            if kind == "score":
                open_ = open_ - {value}
                break
            showing = tuple(sorted(value + tuple(rolls[turn][REROLLS + 1 - rerolls][:dice - len(value)])))
            rerolls -= 1
    return given_up


def _simple_best(data: dict[str, Any]) -> tuple[float, str]:
    """The least any simple rule gives up on these dice (rounded to 6 decimals) and the first rule that does."""
    losses = {name: round(_rule_given_up(data, rule), 6) for name, rule in SIMPLE_RULES.items()}
    name = min(losses, key=losses.__getitem__)
    return losses[name], name


def _as_policy(rule: Rule) -> Policy:
    def policy(problem: Problem, state: Any, history: Any, rng: random.Random) -> str:
        kind, value = rule(frozenset(state["open"]), _as_dice(state["showing"]), state["rerolls"])
        return f"keep {_faces(value) or 'none'}" if kind == "keep" else f"score {value}"
    return policy
