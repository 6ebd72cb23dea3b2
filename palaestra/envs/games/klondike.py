"""Klondike solitaire on a short deck, one move per turn: build the foundations up from the ace by suit.

The deck holds the ranks ace up to the level's top rank in four suits (clubs and spades black, diamonds and hearts
red). Columns 1..k are dealt with 1..k cards, only the last of each face up; the rest of the deck is the face-down
stock, in an order drawn with the problem and never shown. Each turn the model makes one move:

- ``draw``: the next stock card goes face up onto the waste; with the stock empty, ``draw`` turns the waste over
  into a new stock, as often as the level's redeals allow;
- ``5H to foundation``: the top card of the waste or of a column goes onto its suit's foundation, which it must
  continue (the ace first, then 2, 3 ...);
- ``5H to column 3``: the waste's top card, or a face-up card of a column together with the cards on it, goes onto
  column 3, whose last card must be one rank higher and of the other colour; only the top rank goes to an empty
  column. A face-down card left uncovered is turned up.

Cards never leave the foundations, so the count there only grows. The game ends when every card is on the
foundations or no move is left (``stop`` ends it too). The reward is regret-normalised
(:func:`palaestra.core.multiturn.regret_reward`) on the foundation count: ``best`` is every card (the generator
keeps deals a bounded depth-first solver that sees the hidden cards clears completely with at least twelve turns of
the budget to spare: solvable deals at every level), the ``baseline`` is the most that any of 8 seeded uniformly random legal games
(drawn at generation with the turn budget) reaches, and each move that raises the count pays its share of
``clip((count - baseline) / (best - baseline))``, so the rewards add up to that at any point. An unreadable or
illegal move is refused (the turn is spent). The oracle plays the solver's line; off that line it falls back to
the honest player's rule. The honest player (:meth:`Klondike.honest_move`) reads only the table: it plays a card to
the foundations when it can, then moves that turn up a hidden card or put the waste card on a column, else draws.

The turn budget is fixed by the level: two turns per card and per stock card, less six (62, 70, 86, 76, 92 at levels
0-4). Version 1's was the solver's line plus twelve, so every "(N turns left)" told the hidden line's length exactly.

Levels grow the deck (ranks 5 to 8), the columns (3 to 5) and the stock, and cut the redeals (two, then one). The
difficulty measure is the number of cards plus twice the columns plus a tenth of the solver's line length.

Generation speed: about 40 to 170 problems/s at level 4 on this 2-core machine (it varies with the number of draws
the seeds need). Each drawn deal is solved by a depth-first search for a line that clears it (its length is checked
against the move budget) and 8 random games set the reward's zero; about half the deals are redrawn because the solver
finds no line short enough or random play clears too much. The solve is kept because the budget must be one that is known to suffice.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, View, register, regret_reward, retry
from palaestra.envs.games._cards import CARD_PATTERN, card_from_groups, card_name, deck, parse_names, rank_of, suit_of
from palaestra.envs.games.common import MAX_MOVE_CHARS
from palaestra.verifiers.normalize import read_answer

RANDOM_GAMES = 8  # seeded random legal games whose best count is the reward's zero
SOLVER_NODES = 600  # positions the solver may visit per deal
SLACK = 12  # turns past the solver's line the budget allows at least (deals whose line leaves less are redrawn)
DRAW, STOP, FOUNDATION = "draw", "stop", "foundation"
Choice = Any  # "draw", "stop", or (card, "foundation" | column number)
_MOVE = re.compile(rf"^(?:move |play |put )?(?:the )?{CARD_PATTERN} (?:to|onto|on) (?:the )?"
                   r"(?:(foundations?)|(?:column|col\.?) ?(\d{1,2}))$")
_COLUMN_LINE = re.compile(r"^Column (\d+):(.*)$", re.MULTILINE)
_WASTE = re.compile(r"Waste: (\S+)")
_FOUNDATIONS = re.compile(r"Foundations: (.*)")
_TOP_RANK = re.compile(r"the ranks A to (\w+)")


@register
class Klondike(MultiTurnTask):
    id = "games/klondike"
    version = 2
    family = "games"
    description = "Klondike solitaire on a short seeded deck, one move per turn; regret-scored foundation cards."
    tags = ("games", "multi-turn", "single-player", "cards", "planning", "imperfect-information")
    one_move_per_turn = True
    hidden_information = True  # the face-down cards and the stock's order
    score_based = True

    @dataclass(frozen=True)
    class Config:
        ranks: int
        columns: int
        redeals: int

    presets = (Config(5, 3, 2), Config(6, 4, 2), Config(7, 4, 1), Config(7, 5, 1), Config(8, 5, 1))
    bounded = "the solver that proves a deal clears completely grows steeply with the deck"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> dict[str, Any] | None:
            cards = rng.sample(deck(config.ranks), 4 * config.ranks)
            columns, used = [], 0
            for i in range(config.columns):
                columns.append(cards[used:used + i + 1])
                used += i + 1
            data: dict[str, Any] = {"ranks": config.ranks, "columns": columns, "stock": cards[used:],
                                    "redeals": config.redeals}
            line = _solve(data)
            if line is None:
                return None
            data["line"] = line
            data["budget"] = _budget(config)
            if len(line) + SLACK > data["budget"]:
                return None
            counts = [_random_count(data, random.Random(rng.getrandbits(32))) for _ in range(RANDOM_GAMES)]
            data["baseline"] = max(counts)
            data["random"] = round(sum(counts) / len(counts), 4)
            return data if data["baseline"] < 4 * config.ranks - 2 else None

        data = retry(draw, attempts=100, what="a deal the solver clears")
        top = card_name(config.ranks - 1)[:-1]
        prompt = (
            f"Let's play Klondike solitaire with a short deck: the ranks A to {top} in four suits (clubs and spades "
            f"black, diamonds and hearts red; cards are written rank then suit: AC, 10H). {config.columns} columns "
            "are dealt, only their last card face up (## is a face-down card); the rest is the face-down stock, in "
            "an order you do not see. Build each suit's foundation up from the ace. Each turn, make one move:\n"
            "- draw: turn the next stock card face up onto the waste (with the stock empty, draw turns the waste "
            f"over into a new stock, {_times(config.redeals)} in the game);\n"
            "- a card to the foundation, for example: 2H to foundation (the top card of the waste or of a column);\n"
            "- a card to a column, for example: 5H to column 3 (the waste's top card, or a face-up card of a column "
            "with the cards on it), onto a card one rank higher of the other colour; only a "
            f"{top} goes to an empty column.\n"
            "A face-down card left uncovered is turned up. Cards on the foundations stay there. The game ends when "
            "every card is on the foundations or no move is left (or when you write stop). You score by the cards "
            "on the foundations: 0 up to a baseline count (the most that uniformly random legal play reached in "
            f"{RANDOM_GAMES} trial games), rising evenly to 1 for all of them.\n\n"
            + _situation(data, _start(data))
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["budget"]

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        return 4 * data["ranks"] + 2 * len(data["columns"]) + len(data["line"]) / 10

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return _start(problem.data)

    def reads_as_move(self, problem: Problem, state: dict[str, Any], piece: str) -> bool:
        return read_move(piece) is not None

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        choice = read_move(move)
        if choice is None:
            return Outcome.invalid(state, "write draw, a card to the foundation (2H to foundation) or a card to a "
                                          "column (5H to column 3)")
        if choice == STOP:
            return _end(data, state, state, "You stop.")
        why = _refusal(data, state, choice)
        if why:
            return Outcome.invalid(state, why)
        after, said = _apply(data, state, choice)
        on_line = state["on_line"] and state["moves"] < len(data["line"]) and data["line"][state["moves"]] == \
            _canonical(choice)
        after = {**after, "moves": state["moves"] + 1, "on_line": on_line}
        if len(after["found"]) == 4 * data["ranks"] or not _legal(data, after):
            return _end(data, state, after, said)
        reward = _reward(data, after) - _reward(data, state)
        verdict = Verdict(reward, False, True, "game goes on") if reward else Verdict.ongoing()
        return Outcome(after, verdict, f"{said}\n{_situation(data, after)}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        data = problem.data
        if state["on_line"] and state["moves"] < len(data["line"]):
            return data["line"][state["moves"]]
        return _rule_move(data, state)

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        return _legal(problem.data, state)

    def heuristics(self) -> dict[str, Policy]:
        return {"play to the foundation when possible, else draw":
                lambda problem, state, history, rng: _foundation_or_draw(problem.data, state)}

    def honest_move(self, view: View) -> str:
        """Read the table from the latest text; the rule of :func:`_rule_move` on what is visible."""
        text = next(t for t in reversed([view.prompt, *view.observations]) if "Column 1:" in t)
        top = _TOP_RANK.search(view.prompt)
        assert top is not None
        ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"].index(top.group(1)) + 1
        columns = []
        for _, body in _COLUMN_LINE.findall(text):
            columns.append((body.count("##"), parse_names(body)))
        waste = parse_names(_WASTE.findall(text)[-1])
        found_text = _FOUNDATIONS.findall(text)[-1]
        found = parse_names(found_text)
        stock_left = int(re.findall(r"Stock: (\d+) cards?", text)[-1])
        redeals_left = int(re.findall(r"(\d+) redeals? left", text)[-1])
        table = _Table(ranks, columns, waste, found, stock_left, redeals_left)
        return _choose(table)


def _count(n: int) -> str:
    return f"{n} card{'s' * (n != 1)}"


def _times(n: int) -> str:
    return {0: "never", 1: "once", 2: "twice"}.get(n, f"{n} times")


def read_move(move: str) -> Choice | None:
    """``"draw"``, ``"stop"``, ``(card, "foundation")`` or ``(card, column number)``, or None.

    >>> read_move("Draw."), read_move("move the 5 of hearts to column 3"), read_move("2H to foundation, draw")
    ('draw', (30, 3), None)
    """
    if not isinstance(move, str) or len(move) > MAX_MOVE_CHARS:
        return None

    def read(text: str) -> Choice | None:
        lowered = " ".join(text.lower().split())
        if lowered in ("draw", "draw a card", "draw from the stock", "turn the stock", "deal"):
            return DRAW
        if lowered in ("stop", "i stop", "resign", "end the game"):
            return STOP
        match = _MOVE.match(lowered)
        if not match:
            return None
        c = card_from_groups(match.group(1), match.group(2))
        return (c, FOUNDATION) if match.group(3) else (c, int(match.group(4)))

    return read_answer(move, read)


def _canonical(choice: Choice) -> str:
    if isinstance(choice, str):
        return choice
    c, where = choice
    return f"{card_name(c)} to foundation" if where == FOUNDATION else f"{card_name(c)} to column {where}"


# --- the game -----------------------------------------------------------------------------------------------
# state: down (face-down count per column), up (face-up cards per column), stock (cards, next first), waste (top
# last), found (cards on the foundations), redeals (left), moves (legal moves made), on_line (the oracle's line)

def _start(data: dict[str, Any]) -> dict[str, Any]:
    return {"down": [len(c) - 1 for c in data["columns"]], "up": [c[-1:] for c in data["columns"]],
            "stock": list(data["stock"]), "waste": [], "found": [], "redeals": data["redeals"], "moves": 0,
            "on_line": True}


def _fits_foundation(found: list[int], c: int) -> bool:
    return rank_of(c) == 1 + sum(1 for f in found if suit_of(f) == suit_of(c))


def _red(c: int) -> bool:
    return suit_of(c) in (1, 2)


def _fits_column(ranks: int, column: list[int], down: int, c: int) -> bool:
    if not column:
        return down == 0 and rank_of(c) == ranks
    target = column[-1]
    return rank_of(target) == rank_of(c) + 1 and _red(target) != _red(c)


def _where(state: dict[str, Any], c: int) -> tuple[str, int, int] | None:
    """Where a movable card lies: ("waste", 0, 0) for the waste top, ("column", i, position), or None."""
    if state["waste"] and state["waste"][-1] == c:
        return "waste", 0, 0
    for i, column in enumerate(state["up"]):
        if c in column:
            return "column", i, column.index(c)
    return None


def _refusal(data: dict[str, Any], state: dict[str, Any], choice: Choice) -> str:
    if choice == DRAW:
        return "" if state["stock"] or (state["waste"] and state["redeals"]) else \
            "the stock is empty and no redeal is left" if not state["stock"] and state["waste"] else "nothing to draw"
    assert isinstance(choice, tuple)
    c, target = choice
    where = _where(state, c)
    if where is None:
        return f"{card_name(c)} is not a face-up card you can move (the waste's top card or a column's face-up card)"
    if target == FOUNDATION:
        if where[0] == "column" and where[2] != len(state["up"][where[1]]) - 1:
            return f"{card_name(c)} is not the last card of its column"
        return "" if _fits_foundation(state["found"], c) else f"{card_name(c)} does not continue its foundation"
    assert isinstance(target, int)
    if not 1 <= target <= len(state["up"]):
        return f"there is no column {target}"
    if where[0] == "column" and where[1] == target - 1:
        return f"{card_name(c)} is in column {target} already"
    if not _fits_column(data["ranks"], state["up"][target - 1], state["down"][target - 1], c):
        return f"{card_name(c)} does not fit on column {target}"
    return ""


def _apply(data: dict[str, Any], state: dict[str, Any], choice: Choice
           ) -> tuple[dict[str, Any], str]:
    after = {**state, "up": [list(column) for column in state["up"]], "down": list(state["down"]),
             "stock": list(state["stock"]), "waste": list(state["waste"]), "found": list(state["found"])}
    if choice == DRAW:
        _play(data, after, choice, None)
        return after, (f"You draw {card_name(after['waste'][-1])}." if state["stock"] else
                       "You turn the waste over into the stock.")
    assert isinstance(choice, tuple)
    c, target = choice
    kind, i, position = _where(state, c)  # type: ignore[misc]
    _play(data, after, choice, (-1, 0) if kind == "waste" else (i, position))
    said = f"You move {card_name(c)} to " + ("the foundation." if target == FOUNDATION else f"column {target}.")
    if after["down"][i] < state["down"][i]:
        said += f" {card_name(after['up'][i][0])} is turned up in column {i + 1}."
    return after, said


def _play(data: dict[str, Any], state: dict[str, Any], choice: Choice, place: tuple[int, int] | None) -> None:
    """Make the legal move ``choice`` in ``state`` itself (its lists are changed): ``place`` is where the moved card
    lies (column index, or -1 for the waste top; its position in the column), None for a draw. The random games
    play on one state of their own this way; :func:`_apply` plays on a copy."""
    if choice == DRAW:
        if state["stock"]:
            state["waste"].append(state["stock"].pop(0))
        else:
            state["stock"], state["waste"], state["redeals"] = state["waste"], [], state["redeals"] - 1
        return
    assert isinstance(choice, tuple) and place is not None
    c, target = choice
    i, position = place
    up, down = state["up"], state["down"]
    if i == -1:
        moving = [state["waste"].pop()]
    else:
        moving = up[i][position:]
        del up[i][position:]
        if not up[i] and down[i]:
            down[i] -= 1
            up[i].append(data["columns"][i][down[i]])
    if target == FOUNDATION:
        state["found"].append(c)
    else:
        up[int(target) - 1].extend(moving)


def _choices(data: dict[str, Any], state: dict[str, Any]) -> list[Choice]:
    """Every legal move but stop: draw first, then, per movable card, the foundation and the columns it fits."""
    return _choices_and_places(data, state)[0]


def _choices_and_places(data: dict[str, Any], state: dict[str, Any]
                        ) -> tuple[list[Choice], dict[int, tuple[int, int, bool]]]:
    """:func:`_choices`, and where each movable card lies: (column index, or -1 for the waste top; its position in
    the column; whether it is the column's last card). The solver and the random games call this in their inner
    loops, so it works on card numbers directly (``c // 13`` the suit, ``c % 13`` the 0-based rank)."""
    waste, up = state["waste"], state["up"]
    choices: list[Choice] = [DRAW] if state["stock"] or (waste and state["redeals"]) else []
    places: dict[int, tuple[int, int, bool]] = {}
    if waste:
        places[waste[-1]] = (-1, 0, True)
    for i, column in enumerate(up):
        last = len(column) - 1
        for position, c in enumerate(column):
            places[c] = (i, position, position == last)
    heights = [0, 0, 0, 0]
    for f in state["found"]:
        heights[f // 13] += 1
    for c, (_, _, last) in places.items():
        if last and c % 13 == heights[c // 13]:
            choices.append((c, FOUNDATION))
    down = state["down"]
    for t, column in enumerate(up):
        if column:
            target = column[-1]
            rank = target % 13  # the 0-based rank one below the target's
            if rank == 0:
                continue
            for c in ((rank - 1, 39 + rank - 1) if target // 13 in (1, 2) else (13 + rank - 1, 26 + rank - 1)):
                place = places.get(c)
                if place is not None and place[0] != t:
                    choices.append((c, t + 1))
        elif down[t] == 0:
            top = data["ranks"] - 1
            choices.extend((c, t + 1) for c, (i, _, _) in places.items() if c % 13 == top and i != t)
    return choices, places


def _legal(data: dict[str, Any], state: dict[str, Any]) -> list[str]:
    return [_canonical(choice) for choice in _choices(data, state)]


def _reward(data: dict[str, Any], state: dict[str, Any]) -> float:
    return regret_reward(len(state["found"]), data["baseline"], 4 * data["ranks"])


def _end(data: dict[str, Any], before: dict[str, Any], after: dict[str, Any], said: str) -> Outcome:
    count, total = len(after["found"]), 4 * data["ranks"]
    reward = _reward(data, after) - _reward(data, before)
    verdict = Verdict(reward, count == total, True, f"{count} of {total} cards on the foundations")
    return Outcome(after, verdict, f"{said} The game is over: {count} of {total} cards are on the foundations "
                                   f"(the score's zero is {data['baseline']}).", True)


def _situation(data: dict[str, Any], state: dict[str, Any]) -> str:
    lines = [f"Column {i + 1}:" + " ##" * down + "".join(f" {card_name(c)}" for c in up)
             for i, (down, up) in enumerate(zip(state["down"], state["up"]))]
    found = [max((f for f in state["found"] if suit_of(f) == suit), default=None, key=rank_of) for suit in range(4)]
    waste = card_name(state["waste"][-1]) if state["waste"] else "empty"
    redeals = state["redeals"]
    return "\n".join([
        f"Foundations: {', '.join(card_name(f) if f is not None else '-' for f in found)}.",
        *lines,
        f"Waste: {waste} ({_count(len(state['waste']))}). Stock: {_count(len(state['stock']))}, {redeals} "
        f"redeal{'s' * (redeals != 1)} left."])


# --- players ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Table:
    """What a player sees: per column (face-down count, face-up cards), the waste top, the foundation tops."""

    ranks: int
    columns: list[tuple[int, list[int]]]
    waste: list[int]  # the top card, or none
    found_tops: list[int]
    stock_left: int
    redeals_left: int


def _table(data: dict[str, Any], state: dict[str, Any]) -> _Table:
    tops = [max((f for f in state["found"] if suit_of(f) == s), key=rank_of) for s in range(4)
            if any(suit_of(f) == s for f in state["found"])]
    return _Table(data["ranks"], list(zip(state["down"], state["up"])), state["waste"][-1:], tops,
                  len(state["stock"]), state["redeals"])


def _next_rank(table: _Table, c: int) -> bool:
    """Whether ``c`` continues its foundation, given the foundation tops."""
    top = max((rank_of(f) for f in table.found_tops if suit_of(f) == suit_of(c)), default=0)
    return rank_of(c) == top + 1


def _fits(table: _Table, target: int, c: int) -> bool:
    down, up = table.columns[target]
    if not up:
        return down == 0 and rank_of(c) == table.ranks
    return rank_of(up[-1]) == rank_of(c) + 1 and _red(up[-1]) != _red(c)


def _choose(table: _Table) -> str:
    """The visible-table rule: a card to the foundation; a column's face-up run moved so a hidden card turns up (or,
    a top-rank run, into an empty column from over hidden cards); the waste card to the foundation or a column;
    else draw; else stop."""
    for down, up in table.columns:
        if up and _next_rank(table, up[-1]):
            return f"{card_name(up[-1])} to foundation"
    if table.waste and _next_rank(table, table.waste[0]):
        return f"{card_name(table.waste[0])} to foundation"
    for i, (down, up) in enumerate(table.columns):
        if not up or not down:
            continue
        for target in range(len(table.columns)):
            if target != i and _fits(table, target, up[0]):
                return f"{card_name(up[0])} to column {target + 1}"
    if table.waste:
        for target in range(len(table.columns)):
            if _fits(table, target, table.waste[0]):
                return f"{card_name(table.waste[0])} to column {target + 1}"
    if table.stock_left or (table.waste and table.redeals_left):
        return DRAW
    return STOP


def _rule_move(data: dict[str, Any], state: dict[str, Any]) -> str:
    return _choose(_table(data, state))


def _foundation_or_draw(data: dict[str, Any], state: dict[str, Any]) -> str:
    table = _table(data, state)
    for _, up in table.columns:
        if up and _next_rank(table, up[-1]):
            return f"{card_name(up[-1])} to foundation"
    if table.waste and _next_rank(table, table.waste[0]):
        return f"{card_name(table.waste[0])} to foundation"
    return DRAW if DRAW in _choices(data, state) else STOP


def _budget(config: Klondike.Config) -> int:
    """The turn budget, fixed by the level: two turns per card and per stock card, less six. Version 1's was the
    hidden-card solver's line plus :data:`SLACK`, which every "(N turns left)" then told exactly."""
    cards = 4 * config.ranks
    stock = cards - config.columns * (config.columns + 1) // 2
    return 2 * (cards + stock) - 6


def _random_count(data: dict[str, Any], rng: random.Random) -> int:
    """The foundation count a uniformly random legal player reaches within the turn budget."""
    state = _start(data)  # fresh lists of its own: played on in place
    for _ in range(data["budget"]):
        moves, places = _choices_and_places(data, state)
        if not moves or len(state["found"]) == 4 * data["ranks"]:
            break
        choice = rng.choice(moves)
        _play(data, state, choice, None if choice == DRAW else places[choice[0]][:2])
    return len(state["found"])


Key = tuple[Any, ...]


def _key(state: dict[str, Any]) -> Key:
    return (tuple(state["down"]), tuple(tuple(u) for u in state["up"]), tuple(state["stock"]), tuple(state["waste"]),
            len(state["found"]), state["redeals"], frozenset(state["found"]))


def _solve(data: dict[str, Any]) -> list[str] | None:
    """A line of moves that puts every card on the foundations, found by a depth-first search that sees the hidden
    cards (moves in the order of :func:`_candidates`; at most :data:`SOLVER_NODES` positions), or None."""
    seen: set[Key] = set()
    total = 4 * data["ranks"]
    line: list[str] = []

    def search(state: dict[str, Any]) -> bool:
        if len(state["found"]) == total:
            return True
        key = _key(state)
        if key in seen or len(seen) >= SOLVER_NODES:
            return False
        seen.add(key)
        for choice in _candidates(data, state):
            line.append(_canonical(choice))
            if search(_apply(data, state, choice)[0]):
                return True
            line.pop()
        return False

    return list(line) if search(_start(data)) else None


def _candidates(data: dict[str, Any], state: dict[str, Any]) -> list[Choice]:
    """The solver's moves, most promising first: to the foundations, runs that turn up a hidden card or fill an
    empty column from over hidden cards, the waste card onto a column, then draw. Other run moves are skipped."""
    first, later, draw = [], [], []
    choices, places = _choices_and_places(data, state)
    for choice in choices:
        if choice == DRAW:
            draw.append(choice)
            continue
        c, target = choice
        column, position, _ = places[c]
        if target == FOUNDATION:
            first.append(choice)
        elif column == -1:
            later.append(choice)
        elif position == 0 and state["down"][column]:
            first.append(choice)
    return first + later + draw
