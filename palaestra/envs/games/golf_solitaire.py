"""Golf solitaire with a seeded deck: clear the face-up columns onto the waste, one card or draw per turn.

Ranks only matter (A 2 .. 10 J Q K, ranks 1-13). Some columns of face-up cards lie on the table; a
waste pile shows one card; a face-down stock holds the rest of the deal, in an order drawn with the
problem and never shown. Each turn the model either plays the top card of a column (the last one
listed) onto the waste, allowed when its rank is one above or one below the waste card's (no
wrapping between K and A), or draws: the next stock card goes onto the waste. The game ends when
every column is cleared, or when the stock is empty and no column card can be played. The model
scores the number of column cards it cleared.

The reward is normalised to regret (:func:`palaestra.core.multiturn.regret_reward`) and paid when the game ends:
``clip((cleared - zero) / (best - zero))``. ``best`` is the most cards any play clears, from an exact search that
knows the stock. Version 2's zero sits :data:`RULE_SHARE` (0.8; a half at level 0 and 0.7 at level 1, whose small
deals leave the honest player the least room past the rules) of the way from random play's zero to the most that
the best of six simple rules clears in this deal (:data:`RULES`, each reading only the visible table, so its result
on the deal is fixed and is played out at generation): the first, the last or the tallest playable column, the first
card of the longest visible chain (version 1's honest player), the card that leaves the most column plays (each
else draw), and draw whenever the stock allows. Random play's zero is the lowest whole count, at least random play's
mean, at which uniformly random legal play (its exact distribution over the deal) averages a reward of at most 0.05.
Version 1's zero was random play's alone, and the chain rule scored 0.48-0.77 per level, "first playable column"
0.24-0.62. A deal is redrawn when the best play clears fewer than :data:`ROOM` cards more than random play's zero or
than any of the rules. Why 0.8 and not the best rule itself: the stock is hidden, and an honest player cannot beat
the best rule in hindsight by much (measured on 40 deals per level 0, 2, 4 with 12 sampled stocks a move: 0.26, 0.18,
0.28 with the zero at the best rule, 0.31, 0.31, 0.38 at 0.8; with the 40 samples kept: 0.32, 0.39, 0.41 at 0.8,
where every rule scores at most 0.09, 0.14, 0.12 and random play at most 0.02; but 0.28 on the kit's 48 deals at
level 0, hence a half there: 0.34 on those deals, where the chain rule scores 0.17 and the others at most 0.16; and
0.29 on them at level 1, hence 0.7 there: 0.31, every rule at most 0.10).

An unreadable move, a column that is empty or whose card does not fit, or a draw from an empty stock is refused
(the turn is spent; the budget allows two such slips). The stock is hidden: the honest player
(:meth:`GolfSolitaire.honest_move`) reads the columns, the waste and the cards drawn so far from the text, draws
:data:`SAMPLES` stocks from the ranks not yet seen and plays the move whose exact best count is highest on average
over them (a sampled lookahead; it plays better than each rule without seeing the stock).

Levels grow the columns and the stock. The difficulty measure is the number of column cards plus
a tenth of the stock plus the share of ``best`` random play misses.

Generation speed: about 5-18 ms of CPU per problem per level on a busy 2-core machine (level 1 the slowest: its
small deals are redrawn about 25 times a problem; version 1: about 6 ms; this version as first written: 17-68 ms).
Most deals are redrawn, so a redraw must be cheap, and the tests run cheapest first (a redraw is a redraw whichever
test makes it, so the kept deals do not depend on their order): the six rules are played side by side on each drawn
deal (:func:`_rule_counts`), then a search that stops at the first line clearing :data:`ROOM` past the best rule
(:func:`_reaches`) rejects the deals where no play does; only a kept deal is solved exhaustively (one pass over its
few hundred states) for the most cards that can be cleared and for the exact spread of random play's result. All of
it is kept: the reward is normalised to it exactly.
"""

from __future__ import annotations

import functools
import random
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, View, register, regret_reward, retry
from palaestra.envs.games.common import MAX_MOVE_CHARS
from palaestra.verifiers.moves import read_move_answer

RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANDOM_REWARD = 0.05  # random play's zero: the count at which uniformly random legal play averages at most this
RULE_SHARE = 0.8  # the reward's zero: this share of the way from random play's zero to the best simple rule's count
ROOM = 2  # column cards the best play clears past the best simple rule at least (else the deal is redrawn)
SAMPLES = 40  # stocks the honest player draws from the unseen cards per move (about 0.1 s of CPU per game)
SLIPS = 2  # refused moves the turn budget allows
DRAW = "draw"
_MOVE = re.compile(r"^(?:(?:play|move|take)\s+)?(?:(?:from\s+)?(?:the\s+)?(?:column|col\.?|pile)\s*)?(\d{1,2})$"
                   r"|^(draw|turn|deal|stock|draw (?:a|one|the next) card|draw from the stock"
                   r"|turn (?:over )?(?:a|the next|one) (?:stock )?card)$")
_COLUMN_LINE = re.compile(r"^Column (\d+):(.*)$", re.MULTILINE)
_WASTE = re.compile(r"Waste: (\w+)\.")
_STOCK = re.compile(r"Stock: (\d+) cards? left")
_DRAWN = re.compile(r"You draw (\w+)\.")
Columns = tuple[tuple[int, ...], ...]


@register
class GolfSolitaire(MultiTurnTask):
    id = "games/golf_solitaire"
    version = 2
    family = "games"
    description = "Golf solitaire with a hidden seeded stock: clear face-up columns onto the waste; regret-scored."
    tags = ("games", "multi-turn", "single-player", "cards", "planning", "imperfect-information")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    hidden_information = True  # the stock's order
    score_based = True

    @dataclass(frozen=True)
    class Config:
        columns: int
        depth: int  # cards per column
        stock: int
        share: float  # the zero's place from random play's zero (0) to the best simple rule's count (1)

    presets = (Config(4, 3, 6, 0.5), Config(4, 3, 8, 0.7), Config(4, 4, 8, RULE_SHARE),
               Config(4, 4, 9, RULE_SHARE), Config(4, 5, 8, RULE_SHARE))
    bounded = "the exact searches (the best play and random play's spread) grow steeply with the columns"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> dict[str, Any] | None:
            deck = [rank for rank in range(1, 14) for _ in range(4)]
            dealt = rng.sample(deck, config.columns * config.depth + config.stock + 1)
            columns = [dealt[i * config.depth:(i + 1) * config.depth] for i in range(config.columns)]
            rest = dealt[config.columns * config.depth:]
            data: dict[str, Any] = {"columns": columns, "waste": rest[0], "stock": rest[1:]}
            # The cheap tests first (each rejection is the same redraw, whatever the order, so the tests may stop
            # early and run in any order without changing which deal is kept): the rules' play-outs against the
            # column cards (at least ``best``), whether any play clears ROOM past the best rule, then the exact
            # searches (only on a deal that passed both: about one per problem).
            cards = config.columns * config.depth
            longest = _chain_lengths(columns)  # shared by the chain rule and the search below
            rules = _rule_counts(columns, rest[0], rest[1:], cards - ROOM + 1, longest)
            if rules is None:
                return None
            top_rule = max(rules.values())
            if not _reaches(columns, rest[0], rest[1:], top_rule + ROOM, longest):
                return None
            game = _game(data)
            best = _best(game, _start(data))
            spread = _spread(game, _start(data))
            mean = sum(cleared * chance for cleared, chance in spread)
            random_zero = _baseline(spread, mean, best)
            if best - random_zero < ROOM:
                return None
            zero = round(random_zero + config.share * max(0, top_rule - random_zero), 4)
            return {**data, "best": best, "baseline": zero, "random_zero": random_zero, "random": round(mean, 6),
                    "rules": rules, "greedy": rules["first"]}

        data = retry(draw, what="a deal where the play matters")
        prompt = (
            "Let's play golf solitaire (ranks only: A = 1, J Q K = 11 12 13). Columns of face-up cards lie on the "
            "table; the waste pile shows one card; the face-down stock holds the rest, in an order you do not see. "
            "Each turn, either play the top card of a column (the last one listed) onto the waste, allowed when its "
            "rank is one above or one below the waste card (K and A are not neighbours), or draw: the next stock "
            "card goes onto the waste. The game ends when every column is cleared, or when the stock is empty and "
            "no column card fits. You score by the number of column cards you clear: 0 up to a baseline count, set "
            "near the most that simple fixed rules clear in this deal (such as: play the first playable column, "
            "else draw), rising evenly to 1 for the most any play of this deal clears.\n\n"
            f"{_situation(_game(data), _start(data))}\n\n"
            "Each turn, write a column number to play its top card, for example: 2; or write: draw"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        data = problem.data
        return sum(len(column) for column in data["columns"]) + len(data["stock"]) + SLIPS

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return (sum(len(column) for column in data["columns"]) + len(data["stock"]) / 10
                + (data["best"] - data["random"]) / data["best"])

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return _thawed(_start(problem.data))

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        choice = read_move(move)
        if choice is None:
            return Outcome.invalid(state, "write one column number, such as 2, or the word draw")
        game, frozen = _game(problem.data), _frozen(state)
        if choice not in _legal(game, frozen):
            why = ("the stock is empty" if choice == DRAW else
                   f"there is no column {choice}" if not 1 <= int(choice) <= len(frozen[0]) else
                   f"column {choice} is empty" if not frozen[0][int(choice) - 1] else
                   f"column {choice}'s top card does not fit on the waste")
            return Outcome(state, Verdict.wrong("not allowed"), f"Not allowed: {why}.")
        after = _apply(game, frozen, choice)
        said = ("You draw" if choice == DRAW else f"You play column {choice}'s") + f" {RANK_NAMES[after[1] - 1]}."
        if _over(game, after):
            data = problem.data
            cleared = after[3]
            reward = regret_reward(cleared, data["baseline"], data["best"])
            verdict = Verdict(reward, cleared >= data["best"], True, f"cleared {cleared} of best {data['best']}")
            return Outcome(_thawed(after), verdict, f"{said} The game is over: you cleared {cleared} cards (the best "
                                                    f"play clears {data['best']}; the score's zero is "
                                                    f"{data['baseline']}).", True)
        return Outcome.goes_on(_thawed(after), f"{said}\n{_situation(game, after)}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        game, frozen = _game(problem.data), _frozen(state)
        return max(_legal(game, frozen), key=lambda move: (_best(game, _apply(game, frozen, move)), move == DRAW))

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        return list(_legal(_game(problem.data), _frozen(state)))

    def heuristics(self) -> dict[str, Policy]:
        return {_RULE_NAMES[name]: _rule_policy(rule) for name, rule in RULES.items()}

    def honest_move(self, view: View) -> str:
        """Read the columns, the waste and the cards drawn so far from the text; play the move that clears the
        most on average over :data:`SAMPLES` stocks drawn from the unseen cards (:func:`_sampled_move`)."""
        text = (view.observations or [view.prompt])[-1]
        columns = tuple(tuple(RANK_NAMES.index(name) + 1 for name in body.split())
                        for _, body in _COLUMN_LINE.findall(text))
        waste = RANK_NAMES.index(_WASTE.findall(text)[-1]) + 1
        stock_left = int(_STOCK.findall(text)[-1])
        unseen = [4] * 14
        first = [RANK_NAMES.index(name) + 1 for _, body in _COLUMN_LINE.findall(view.prompt) for name in body.split()]
        for rank in first + [RANK_NAMES.index(_WASTE.findall(view.prompt)[-1]) + 1]:
            unseen[rank] -= 1
        for observation in view.observations:
            for name in _DRAWN.findall(observation):
                unseen[RANK_NAMES.index(name) + 1] -= 1
        pool = [rank for rank in range(1, 14) for _ in range(max(0, unseen[rank]))]
        seed = zlib.crc32(f"{view.prompt}|{len(view.history)}".encode())
        return _sampled_move(columns, waste, stock_left, pool, random.Random(seed))


def read_move(move: str) -> str | None:
    """A column number as text (``"2"`` for ``2``, ``column 2``, ``play column 2``) or ``"draw"``, or None.

    >>> read_move("Column 3."), read_move("draw a card"), read_move("2 3")
    ('3', 'draw', None)
    """
    if not isinstance(move, str) or len(move) > MAX_MOVE_CHARS:
        return None

    def read(text: str) -> str | None:
        match = _MOVE.match(" ".join(text.lower().split()))
        if not match:
            return None
        return str(int(match.group(1))) if match.group(1) else DRAW

    return read_move_answer(move, read)


Game = tuple[Columns, tuple[int, ...]]  # the deal's columns and stock
State = tuple[tuple[int, ...], int, int, int]  # cards left per column, waste top, stock cards drawn, cards cleared


def _game(data: dict[str, Any]) -> Game:
    return tuple(tuple(column) for column in data["columns"]), tuple(data["stock"])


def _start(data: dict[str, Any]) -> State:
    return tuple(len(column) for column in data["columns"]), data["waste"], 0, 0


def _frozen(state: dict[str, Any]) -> State:
    return tuple(state["left"]), state["waste"], state["drawn"], state["cleared"]


def _thawed(state: State) -> dict[str, Any]:
    left, waste, drawn, cleared = state
    return {"left": list(left), "waste": waste, "drawn": drawn, "cleared": cleared}


def _fits(card: int, waste: int) -> bool:
    return abs(card - waste) == 1


def _legal(game: Game, state: State) -> tuple[str, ...]:
    return _searches(game)[0](state)


def _apply(game: Game, state: State, move: str) -> State:
    columns, stock = game
    left, waste, drawn, cleared = state
    if move == DRAW:
        return left, stock[drawn], drawn + 1, cleared
    i = int(move) - 1
    return left[:i] + (left[i] - 1,) + left[i + 1:], columns[i][left[i] - 1], drawn, cleared + 1


def _over(game: Game, state: State) -> bool:
    return not any(state[0]) or not _legal(game, state)


def _best(game: Game, state: State) -> int:
    """The most column cards cleared by the end of the game from ``state`` (counting those cleared already)."""
    return _searches(game)[1](state)


def _spread(game: Game, state: State) -> tuple[tuple[int, float], ...]:
    """The final counts a uniformly random legal player reaches from ``state``, with their chances."""
    return _searches(game)[2](state)


@functools.lru_cache(maxsize=64)
def _searches(game: Game) -> tuple[Any, Any, Any]:
    """The legal moves, the best count and random play's spread for one deal, memoised on the state alone (a key
    holding the whole deal would be hashed again at every step of the search)."""
    columns, stock = game

    @functools.lru_cache(maxsize=None)
    def legal(state: State) -> tuple[str, ...]:
        left, waste, drawn, _ = state
        moves = tuple(str(i + 1) for i, n in enumerate(left) if n and _fits(columns[i][n - 1], waste))
        return moves + ((DRAW,) if drawn < len(stock) else ())

    def best(state: State) -> int:
        return solved(_key(state))[0]

    def spread(state: State) -> tuple[tuple[int, float], ...]:
        _, low, chances = solved(_key(state))
        return tuple((low + i, chance) for i, chance in enumerate(chances) if chance)

    # Both searches in one pass over the states, each state one int (see _key): the cards left per column (a nibble
    # each, from bit 12), the waste card (bits 8-11) and the stock cards drawn (bits 0-7). The cards cleared are
    # the deal's column cards less those left. Random play's spread is kept as the chances of the counts from the
    # lowest one on (0.0 for a count it never reaches): adding 0.0 changes no sum, and the moves are taken in the
    # order of ``legal`` (columns, then the draw), so every chance is summed exactly as move by move.
    memo: dict[int, tuple[int, int, list[float]]] = {}
    dealt = sum(len(column) for column in columns)
    shifts = [12 + 4 * i for i in range(len(columns))]
    cards = list(zip(columns, shifts))
    stocked = len(stock)

    def solved(key: int) -> tuple[int, int, list[float]]:
        found = memo.get(key)
        if found is not None:
            return found
        waste, drawn = (key >> 8) & 15, key & 255
        children = []
        if key >> 12:
            for column, shift in cards:
                n = (key >> shift) & 15
                if n and (column[n - 1] - waste == 1 or waste - column[n - 1] == 1):
                    children.append(solved(key - (1 << shift) + ((column[n - 1] - waste) << 8)))
            if drawn < stocked:
                children.append(solved(key + ((stock[drawn] - waste) << 8) + 1))
        if len(children) == 1:
            # One move (often the draw): its child's result exactly (0.0 + chance / 1 is chance); the lists are
            # never changed once stored, so sharing the child's is safe.
            found = memo[key] = children[0]
            return found
        if not children:
            cleared = dealt - sum((key >> shift) & 15 for shift in shifts)
            found = memo[key] = cleared, cleared, [1.0]
            return found
        top, low, high = children[0][0], children[0][1], children[0][1] + len(children[0][2])
        for child_best, child_low, child_chances in children:
            top = child_best if child_best > top else top
            low = child_low if child_low < low else low
            high = max(high, child_low + len(child_chances))
        moves = len(children)
        chances = [0.0] * (high - low)
        for _, child_low, child_chances in children:
            i = child_low - low
            for chance in child_chances:
                chances[i] += chance / moves
                i += 1
        found = memo[key] = top, low, chances
        return found

    return legal, best, spread


def _key(state: State) -> int:
    """The state as one int for the searches (the cleared count is implied by the cards left)."""
    left, waste, drawn, _ = state
    return sum(n << (12 + 4 * i) for i, n in enumerate(left)) | waste << 8 | drawn


def _baseline(spread: tuple[tuple[int, float], ...], mean: float, best: int) -> int:
    """The lowest whole count, at least random play's mean, at which random play averages at most RANDOM_REWARD."""
    baseline = -(-mean // 1)
    while baseline < best and sum(chance * regret_reward(cleared, baseline, best)
                                  for cleared, chance in spread) > RANDOM_REWARD:
        baseline += 1
    return int(baseline)


# --- the simple rules (the reward's zero) and the honest player ---------------------------------------------
# Each rule reads only the visible table (the columns and the waste card), so its result on a deal is fixed and is
# computed at generation by playing it.

def _plays(game: Game, state: State) -> list[str]:
    return [move for move in _legal(game, state) if move != DRAW]


def _or_draw(move: str | None, game: Game, state: State) -> str:
    return move if move is not None else DRAW if DRAW in _legal(game, state) else _legal(game, state)[0]


def _greedy_move(game: Game, state: State) -> str:
    return _legal(game, state)[0]


def _last_move(game: Game, state: State) -> str:
    plays = _plays(game, state)
    return _or_draw(plays[-1] if plays else None, game, state)


def _draw_first_move(game: Game, state: State) -> str:
    moves = _legal(game, state)
    return DRAW if DRAW in moves else moves[0]


def _tallest_move(game: Game, state: State) -> str:
    plays = _plays(game, state)
    return _or_draw(max(plays, key=lambda move: state[0][int(move) - 1]) if plays else None, game, state)


def _chain_move(game: Game, state: State) -> str:
    columns = tuple(column[:n] for column, n in zip(game[0], state[0]))
    chain, first = _longest_chain(columns, state[1])
    return str(first + 1) if chain else DRAW


def _follow_move(game: Game, state: State) -> str:
    plays = _plays(game, state)
    if not plays:
        return _or_draw(None, game, state)
    return max(plays, key=lambda move: (len(_plays(game, _apply(game, state, move))), -int(move)))


RULES: dict[str, Callable[[Game, State], str]] = {  # the strongest first (generation stops at one that comes close)
    "chain": _chain_move, "follow": _follow_move, "last": _last_move, "tallest": _tallest_move,
    "first": _greedy_move, "draw": _draw_first_move}
_RULE_NAMES = {
    "first": "play the first playable column, else draw", "last": "play the last playable column, else draw",
    "draw": "draw whenever the stock allows, else the first playable column",
    "tallest": "play the playable column with the most cards, else draw",
    "chain": "play the first card of the longest visible chain, else draw",
    "follow": "play the card that leaves the most column plays, else draw"}


def _rule_policy(rule: Callable[[Game, State], str]) -> Policy:
    return lambda problem, state, history, rng: rule(_game(problem.data), _frozen(state))


def _rule_cleared(data: dict[str, Any], rule: Callable[[Game, State], str]) -> int:
    game, state = _game(data), _start(data)
    while not _over(game, state):
        state = _apply(game, state, rule(game, state))
    return state[3]


def _greedy_cleared(data: dict[str, Any]) -> int:
    return _rule_cleared(data, _greedy_move)


def _chain_lengths(columns: Columns | list[list[int]]) -> Callable[[int], int]:
    """The most column plays in a row (no draw) from a position of ``columns``, memoised for the deal: the position
    is one int, the waste card in bits 0-3 and each column's cards left in a nibble from bit 4 (a search key of
    :func:`_key` shifted right by 8, whose stock count is dropped: the chain never draws)."""
    shifts = tuple(4 + 4 * i for i in range(len(columns)))
    cards = tuple(zip(columns, shifts))
    memo: dict[int, int] = {}

    def longest(key: int) -> int:
        found = memo.get(key)
        if found is None:
            top, found = key & 15, 0
            for column, shift in cards:
                n = (key >> shift) & 15
                if n and (column[n - 1] - top == 1 or top - column[n - 1] == 1):
                    length = 1 + longest(key - (1 << shift) - top + column[n - 1])
                    if length > found:
                        found = length
            memo[key] = found
        return found

    return longest


def _rule_counts(columns: list[list[int]], waste: int, stock: list[int], enough: int,
                 longest: Callable[[int], int]) -> dict[str, int] | None:
    """Every rule's count on the deal (as :func:`_rule_cleared` plays it), or None as soon as one clears ``enough``.

    The generation's fast path: the six rules are played side by side, and rules that pick the same move stay on
    one shared line (they part only where their moves differ: at the start most of them play the one playable card
    or draw alike), so each position is read once for all of them. A position is one int: the waste card in bits
    0-3 and each column's cards left in a nibble from bit 4; ``longest`` (:func:`_chain_lengths` of the columns)
    gives the chain rule's measure, memoised for the whole deal. Each rule's tie-break is :func:`_rule_cleared`'s: the first column of
    the most (max keeps the first), the last playable column for "last".
    """
    stocked = len(stock)
    shifts = tuple(4 + 4 * i for i in range(len(columns)))
    start = sum(len(column) << shift for column, shift in zip(columns, shifts)) | waste
    dealt = sum(len(column) for column in columns)
    counts: dict[str, int] = {}
    lines = [(start, 0, tuple(RULES))]
    while lines:
        key, drawn, names = lines.pop()
        top = key & 15
        plays = []  # (column, its top card, the position after playing it), in column order
        for i, (column, shift) in enumerate(zip(columns, shifts)):
            n = (key >> shift) & 15
            if n and (column[n - 1] - top == 1 or top - column[n - 1] == 1):
                plays.append((i, column[n - 1], key - (1 << shift) - top + column[n - 1]))
        if not plays:
            if drawn < stocked and key >> 4:  # every rule draws
                lines.append((key - top + stock[drawn], drawn + 1, names))
                continue
            cleared = dealt - sum((key >> shift) & 15 for shift in shifts)
            if cleared >= enough:
                return None
            counts.update(dict.fromkeys(names, cleared))
            continue
        chosen: dict[int, list[str]] = {}  # the column played (-1: draw) -> the rules that play it
        for name in names:
            if len(plays) == 1:
                pick = -1 if name == "draw" and drawn < stocked else plays[0][0]
            elif name == "first":
                pick = plays[0][0]
            elif name == "last":
                pick = plays[-1][0]
            elif name == "draw":
                pick = -1 if drawn < stocked else plays[0][0]
            elif name == "tallest":
                pick, most = -1, -1
                for i, _, _ in plays:
                    n = (key >> shifts[i]) & 15
                    if n > most:
                        pick, most = i, n
            elif name == "chain":
                pick, most = -1, -1
                for i, _, after in plays:
                    length = longest(after)
                    if length > most:
                        pick, most = i, length
            else:  # follow: the play after which the most column cards fit the new waste card
                pick, most = -1, -1
                for i, card, after in plays:
                    follow = 0
                    for column, shift in zip(columns, shifts):
                        n = (after >> shift) & 15
                        if n and (column[n - 1] - card == 1 or card - column[n - 1] == 1):
                            follow += 1
                    if follow > most:
                        pick, most = i, follow
            chosen.setdefault(pick, []).append(name)
        for pick, group in chosen.items():
            if pick < 0:
                lines.append((key - top + stock[drawn], drawn + 1, tuple(group)))
            else:
                after = next(after for i, _, after in plays if i == pick)
                if not after >> 4:  # every column cleared
                    if dealt >= enough:
                        return None
                    counts.update(dict.fromkeys(group, dealt))
                else:
                    lines.append((after, drawn, tuple(group)))
    return {name: counts[name] for name in RULES}


def _reaches(columns: list[list[int]], waste: int, stock: list[int], target: int,
             longest: Callable[[int], int]) -> bool:
    """Whether some play of the deal clears at least ``target`` column cards (that is, ``best >= target``).

    The generation's test of a deal against the best rule, without the exact searches' arithmetic: the positions
    are visited one stock card at a time (every position reachable by column plays with that many cards drawn,
    then each of them draws), and the search stops at the first position that gets there (a kept deal); a redrawn
    deal costs one pass over its positions, mostly a few hundred. A position is one int as in :func:`_searches`,
    with the cards cleared above the columns' nibbles, so ``key >= goal`` reads "cleared at least ``target``"; the
    count is implied by the cards left, so it makes no two positions differ. Once the stock
    is spent, the rest of a line is the longest chain (``longest``, :func:`_chain_lengths` of the columns).
    """
    shifts = tuple(12 + 4 * i for i in range(len(columns)))
    cards = tuple(zip(columns, shifts))
    if target > sum(len(column) for column in columns):
        return False
    count = 12 + 4 * len(columns)  # the cleared count's lowest bit
    goal, position = target << count, (1 << (count - 8)) - 1  # position: the chain's key, from the waste up
    frontier = [sum(len(column) << shift for column, shift in cards) | waste << 8]
    if frontier[0] >= goal:
        return True
    for card in stock:
        seen = set(frontier)
        todo = frontier
        while todo:
            key = todo.pop()
            top = (key >> 8) & 15
            for column, shift in cards:
                n = (key >> shift) & 15
                if n and (column[n - 1] - top == 1 or top - column[n - 1] == 1):
                    child = key + ((column[n - 1] - top) << 8) - (1 << shift) + (1 << count)
                    if child not in seen:
                        if child >= goal:
                            return True
                        seen.add(child)
                        todo.append(child)
        drawn = (card << 8) + 1  # the waste becomes the card; one more drawn
        frontier = list({(key & ~0xF00) + drawn for key in seen})
    return any((key >> count) + longest((key >> 8) & position) >= target for key in frontier)


def _sampled_move(columns: Columns, waste: int, stock_left: int, pool: list[int], rng: random.Random) -> str:
    """The move whose exact best count (:func:`_best`) is highest on average over :data:`SAMPLES` stocks of
    ``stock_left`` cards drawn from ``pool`` (the ranks not yet seen); a column play before the draw on a tie."""
    state: State = (tuple(len(column) for column in columns), waste, 0, 0)
    stocks = [tuple(rng.sample(pool, stock_left)) if len(pool) >= stock_left else
              tuple(rng.choice(range(1, 14)) for _ in range(stock_left)) for _ in range(SAMPLES)]
    game: Game = (columns, stocks[0])
    moves = _legal(game, state)
    if len(moves) == 1:
        return moves[0]
    totals = dict.fromkeys(moves, 0)
    longest = _chain_lengths(columns)  # the columns' chains, the same under every sampled stock
    for stock in stocks:
        best = _best_only(columns, stock, longest)
        for move in moves:
            totals[move] += best(_key(_apply((columns, stock), state, move)))
    return max(moves, key=lambda move: (totals[move], move != DRAW))


def _best_only(columns: Columns, stock: tuple[int, ...],
               longest: Callable[[int], int] | None = None) -> Callable[[int], int]:
    """The best count from a position (one int, as :func:`_key` writes it) of the deal ``columns``/``stock``: the
    same count as :func:`_best`, without random play's spread (the honest player's lookahead needs only the best,
    on a fresh stock each time). One memo serves all of a stock's moves; a position stops at a line that clears
    every column card (no line clears more); once the stock is spent the rest is the longest chain
    (:func:`_chain_lengths`, whose memo ``longest`` the caller may share between stocks of the same columns)."""
    shifts = tuple(12 + 4 * i for i in range(len(columns)))
    cards = tuple(zip(columns, shifts))
    stocked, dealt = len(stock), sum(len(column) for column in columns)
    chain = longest or _chain_lengths(columns)
    memo: dict[int, int] = {}

    def best(key: int, cleared: int) -> int:
        found = memo.get(key)
        if found is not None:
            return found
        waste, drawn = (key >> 8) & 15, key & 255
        if drawn == stocked:
            found = cleared + chain(key >> 8)
        else:
            found = cleared
            for column, shift in cards:
                n = (key >> shift) & 15
                if n and (column[n - 1] - waste == 1 or waste - column[n - 1] == 1):
                    child = best(key - (1 << shift) + ((column[n - 1] - waste) << 8), cleared + 1)
                    if child > found:
                        found = child
                        if found == dealt:
                            break
            if found < dealt and key >> 12:
                child = best(key + ((stock[drawn] - waste) << 8) + 1, cleared)
                if child > found:
                    found = child
        memo[key] = found
        return found

    return lambda key: best(key, dealt - sum((key >> shift) & 15 for shift in shifts))


def _longest_chain(columns: Columns, waste: int) -> tuple[int, int]:
    """The most column plays in a row from the visible columns onto ``waste``, and the column that starts them."""
    @functools.lru_cache(maxsize=None)
    def longest(left: tuple[int, ...], top: int) -> int:
        return max((1 + longest(left[:i] + (n - 1,) + left[i + 1:], columns[i][n - 1])
                    for i, n in enumerate(left) if n and _fits(columns[i][n - 1], top)), default=0)

    start = tuple(len(column) for column in columns)
    options = [(1 + longest(start[:i] + (n - 1,) + start[i + 1:], columns[i][n - 1]), -i)
               for i, n in enumerate(start) if n and _fits(columns[i][n - 1], waste)]
    if not options:
        return 0, -1
    chain, first = max(options)
    return chain, -first


def _situation(game: Game, state: State) -> str:
    """The columns (top card last), the waste card and how many stock cards are left; never the stock's order."""
    columns, stock = game
    left, waste, drawn, cleared = state
    lines = [f"Column {i + 1}: " + " ".join(RANK_NAMES[r - 1] for r in column[:n]) if n else f"Column {i + 1}:"
             for i, (column, n) in enumerate(zip(columns, left))]
    return "\n".join([*lines, f"Waste: {RANK_NAMES[waste - 1]}. Stock: {len(stock) - drawn} cards left. "
                                f"Cleared: {cleared}."])
