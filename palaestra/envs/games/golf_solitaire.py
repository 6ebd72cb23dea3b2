"""Golf solitaire with a seeded deck: clear the face-up columns onto the waste, one card or draw per turn.

Ranks only matter (A 2 .. 10 J Q K, ranks 1-13). Some columns of face-up cards lie on the table; a
waste pile shows one card; a face-down stock holds the rest of the deal, in an order drawn with the
problem and never shown. Each turn the model either plays the top card of a column (the last one
listed) onto the waste, allowed when its rank is one above or one below the waste card's (no
wrapping between K and A), or draws: the next stock card goes onto the waste. The game ends when
every column is cleared, or when the stock is empty and no column card can be played. The model
scores the number of column cards it cleared.

The reward is normalised to regret (:func:`palaestra.core.multiturn.regret_reward`): an exact
search that knows the stock gives ``best``, the most cards any play clears; the exact distribution
of what a uniformly random legal player clears (each legal move alike, drawing included) gives
the ``baseline``: the lowest whole count, at least random play's mean, at which random play
averages a reward of at most 0.05. The reward, paid when the game ends, is
``clip((cleared - baseline) / (best - baseline))``; the generator keeps deals where
``best - baseline`` is at least two cards and, from level 2, where the rule "play the first
playable column, else draw" scores at most 0.75, 0.6, 0.5 (levels 2, 3, 4). An unreadable move, a column that is empty
or whose card does not fit, or a draw from an empty stock is refused (the turn is spent; the
budget allows two such slips). The stock is hidden: the honest player
(:meth:`GolfSolitaire.honest_move`) reads the columns and the waste from the observations and plays
the first card of the longest chain of column plays it can see, drawing when none fits.

Levels grow the columns and the stock. The difficulty measure is the number of column cards plus
a tenth of the stock plus the share of ``best`` random play misses.

Generation speed: about 450 problems/s at level 4 on this 2-core machine (it varies with the seeds). Each drawn
deal is solved exhaustively (one pass over its few hundred states) for the most cards that can be cleared and for the
exact spread of random play's result, which set the reward's top and zero; about 2 in 3 deals are redrawn because
play hardly matters or greedy play comes too close to the best. Both are kept: the reward is normalised to them
exactly.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, View, register, regret_reward, retry
from palaestra.envs.games.common import MAX_MOVE_CHARS
from palaestra.verifiers.normalize import read_answer

RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANDOM_REWARD = 0.05  # the reward's zero is set so that uniformly random legal play averages at most this
SLIPS = 2  # refused moves the turn budget allows
DRAW = "draw"
_MOVE = re.compile(r"^(?:(?:play|move|take)\s+)?(?:(?:from\s+)?(?:the\s+)?(?:column|col\.?|pile)\s*)?(\d{1,2})$"
                   r"|^(?:i\s+)?(draw|turn|deal|stock|draw (?:a|one|the next) card|draw from the stock"
                   r"|turn (?:over )?(?:a|the next|one) (?:stock )?card)$")
_COLUMN_LINE = re.compile(r"^Column (\d+):(.*)$", re.MULTILINE)
_WASTE = re.compile(r"Waste: (\w+)\.")
Columns = tuple[tuple[int, ...], ...]


@register
class GolfSolitaire(MultiTurnTask):
    id = "games/golf_solitaire"
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
        greedy_cap: float  # keep only deals where "first playable column, else draw" scores at most this

    presets = (Config(4, 3, 6, 1.0), Config(4, 3, 8, 1.0), Config(4, 4, 8, 0.75), Config(4, 4, 9, 0.6),
               Config(4, 5, 8, 0.5))
    bounded = "the exact searches (the best play and random play's spread) grow steeply with the columns"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> dict[str, Any] | None:
            deck = [rank for rank in range(1, 14) for _ in range(4)]
            dealt = rng.sample(deck, config.columns * config.depth + config.stock + 1)
            columns = [dealt[i * config.depth:(i + 1) * config.depth] for i in range(config.columns)]
            rest = dealt[config.columns * config.depth:]
            data: dict[str, Any] = {"columns": columns, "waste": rest[0], "stock": rest[1:]}
            game = _game(data)
            best = _best(game, _start(data))
            spread = _spread(game, _start(data))
            mean = sum(cleared * chance for cleared, chance in spread)
            baseline = _baseline(spread, mean, best)
            greedy = _greedy_cleared(data)
            if best - baseline < 2 or regret_reward(greedy, baseline, best) > config.greedy_cap:
                return None
            return {**data, "best": best, "baseline": baseline, "random": round(mean, 6), "greedy": greedy}

        data = retry(draw, what="a deal where the play matters")
        prompt = (
            "Let's play golf solitaire (ranks only: A = 1, J Q K = 11 12 13). Columns of face-up cards lie on the "
            "table; the waste pile shows one card; the face-down stock holds the rest, in an order you do not see. "
            "Each turn, either play the top card of a column (the last one listed) onto the waste, allowed when its "
            "rank is one above or one below the waste card (K and A are not neighbours), or draw: the next stock "
            "card goes onto the waste. The game ends when every column is cleared, or when the stock is empty and "
            "no column card fits. You score by the number of column cards you clear: 0 up to a baseline count, set "
            "so that uniformly random legal moves average a score of at most 0.05, rising evenly to 1 for the most "
            "any play of this deal clears.\n\n"
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
        return {"play the first playable column, else draw":
                lambda problem, state, history, rng: _greedy_move(_game(problem.data), _frozen(state))}

    def honest_move(self, view: View) -> str:
        """Read the columns and the waste from the latest text; play the first move of the longest chain of
        column plays visible now (the lower column on a tie), else draw."""
        text = (view.observations or [view.prompt])[-1]
        columns = tuple(tuple(RANK_NAMES.index(name) + 1 for name in body.split())
                        for _, body in _COLUMN_LINE.findall(text))
        waste = RANK_NAMES.index(_WASTE.findall(text)[-1]) + 1
        chain, first = _longest_chain(columns, waste)
        return str(first + 1) if chain else DRAW


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

    return read_answer(move, read)


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
                if n and abs(column[n - 1] - waste) == 1:
                    children.append(solved(key - (1 << shift) + ((column[n - 1] - waste) << 8)))
            if drawn < stocked:
                children.append(solved(key + ((stock[drawn] - waste) << 8) + 1))
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


def _greedy_move(game: Game, state: State) -> str:
    return _legal(game, state)[0]


def _greedy_cleared(data: dict[str, Any]) -> int:
    game, state = _game(data), _start(data)
    while not _over(game, state):
        state = _apply(game, state, _greedy_move(game, state))
    return state[3]


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
