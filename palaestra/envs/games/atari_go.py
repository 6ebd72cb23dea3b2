"""Atari Go (capture Go): the first capture wins; find the forcing sequence of ataris from a set position.

The board is ``n x n`` (columns a, b, ..., rows 1, 2, ... from the top). The model plays X, the
opponent O; stones already stand on the board and X is to move. A move is one empty point (``c3``,
``play c3``); a stone joins the orthogonally adjacent stones of its colour into a group, and a
group's liberties are the empty points next to it. A move that takes the last liberty of an
opposing group captures it and wins the game at once, for either side. A move that leaves its own
group without liberties and captures nothing (suicide) is illegal; it, an occupied or off-board
point and an unreadable move cost the turn. Reward 1 for the first capture by X; 0 when O captures
first or the turns run out.

Positions are drawn at random (a few stones of each colour, no group in atari) and kept when X
has a *forced* capture by a sequence of ataris in exactly the level's number of moves and not
fewer: every X move but the last leaves an O group with one liberty, O's only non-losing reply is
to extend that group at its liberty (O cannot capture anything after X's move; two O groups in
atari at once cannot both be saved), and X's last move captures. The search that proves it
(:func:`forced_capture`, memoised) is exact for such sequences, so the oracle, which replays it
every turn, wins every game: O's other replies lose at once. Positions where several first moves
put O in atari but few win keep the greedy "always give atari" rule from winning.

The opponent, when not forced, plays by level: it captures when it can; saves a group in atari by
extending it; at levels 1 and up looks for its own forcing sequence (one to three moves by level)
and plays it; otherwise it plays a random legal move with the level's noise share (50% at level 0
down to none at level 3), else the move that most raises the fewest liberties of its groups over X's;
from level 3 on (version 2), among the moves after which X has no forced capture in its turns left (else
those putting X's shortest one furthest off), so a move that gives no atari is refuted.
Its randomness comes from ``event_rng`` keyed by the position, so a replay plays the same game.

The rule "capture, else the atari leaving the fewest liberties after O's extension, never one whose
stone O can capture" (declared as a heuristic baseline) won 0.35 of level 4's games in version 1
(0.46 on the kit's seeds). O's replies to ataris are forced, so from level 3 on positions are also
redrawn when the rule's line of ataris wins on the level's ``rule_share`` or more of its random
tie-breaks (:func:`_rule_share`; 0.5 at level 3 since version 3, 0.3 at level 4): it now wins about 0.25 of level 3's
games (0.43 in version 2) and 0.27 of level 4's.

The turn budget is the forced sequence's length plus the level's spare turns (2 at level 0, then 1). Levels grow
the board (5x5 to 7x7), the sequence (2 to 5 moves) and the opponent's strength. The oracle plays
the shortest forced capture from the current position (a longer one found afresh every turn could
be put off forever). The difficulty
measure is twice the sequence's length, plus a tenth of the empty points (the moves to choose from), plus
the empty points' share of the board times the number of first moves that give atari (more tempting
wrong ataris: harder).

Generation speed: about 100 to 120 problems/s at level 4 on this 2-core machine (it varies with the number of draws
the seeds need). Random positions are searched for a forced capture of exactly the level's length (and none shorter),
then every atari is searched to check that most of them do not win; about 85 positions are drawn per problem
(about 1.5 times as many at level 4 since version 2's rule filter, about 3 times as many at level 3 since
version 3's: about 45 ms per problem there). The
searches are kept because the prompt promises a capture of that length and the greedy atari rule must not earn
reward.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, event_rng, register, retry
from palaestra.core.multiturn import History
from palaestra.envs.games.common import cell_name, read_cell, render_board

EMPTY, MODEL, OPPONENT = ".", "X", "O"
VERBS = ("play", "place", "put", "move")


@register
class AtariGo(MultiTurnTask):
    id = "games/atari_go"
    family = "games"
    description = "Capture Go from a set position: find the forcing sequence of ataris before the opponent captures."
    tags = ("games", "multi-turn", "two-player", "adversarial", "go")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    # version 2: from level 3 on, O's free moves spoil X's forced captures and the atari rule's line must not win
    # version 3: level 3 redraws positions where that rule's line wins on half its tie-breaks or more (was 0.75: the
    # rule won 0.43 of level 3's games on the kit's tie-breaks, 200 seeds; now 0.29)
    version = 3

    @dataclass(frozen=True)
    class Config:
        size: int  # the board is size x size
        stones: tuple[int, int]  # (fewest, most) stones of each colour at the start
        depth: int  # X's moves in the shortest forced capture (the last one captures)
        spare: int  # turns beyond the forced sequence
        search: int  # the opponent's own forcing search, in its moves (0: none)
        noise: float  # share of the opponent's free moves played at random
        refute: bool = False  # the opponent's free moves spoil X's forced captures (version 2)
        rule_share: float = 1.0  # redraw positions where the atari rule of RULE wins on this share of its tie-breaks

    presets = (
        Config(size=5, stones=(3, 5), depth=2, spare=2, search=0, noise=0.5),
        Config(size=5, stones=(4, 6), depth=3, spare=1, search=1, noise=0.3),
        Config(size=6, stones=(5, 7), depth=3, spare=1, search=2, noise=0.1),
        Config(size=6, stones=(4, 7), depth=4, spare=1, search=3, noise=0.0, refute=True,
               rule_share=0.5),
        Config(size=7, stones=(4, 7), depth=5, spare=1, search=3, noise=0.0, refute=True,
               rule_share=0.3),
    )
    bounded = "longer forced sequences on larger boards are rare among random positions and cost too much to find"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.size

        def draw() -> tuple[str, int] | None:
            cells = rng.sample(range(n * n), 2 * rng.randint(*config.stones))
            board = [EMPTY] * (n * n)
            for i, cell in enumerate(cells):
                board[cell] = MODEL if i % 2 == 0 else OPPONENT
            text = "".join(board)
            if any(libs.bit_count() <= 1 for _, libs in groups(text, n)):
                return None  # a quiet start: no group is in atari
            if forced_capture(text, n, MODEL, config.depth) is None:
                return None
            if forced_capture(text, n, MODEL, config.depth - 1) is not None:
                return None  # a shorter win exists
            ataris = len(atari_moves(text, n, MODEL))
            winners = sum(atari_wins(text, n, p, MODEL, config.depth) for p in atari_moves(text, n, MODEL))
            if config.depth >= 3 and 2 * winners > ataris:
                return None  # most ataris win: the greedy rule would too
            if config.rule_share < 1 and _rule_share(text, n, config.depth + config.spare) >= config.rule_share:
                return None  # the fewest-liberties atari rule wins on most of its tie-breaks
            return text, ataris

        board, ataris = retry(draw, attempts=20_000, what="a position with a forced capture of the level's length")
        empty = board.count(EMPTY) / (n * n)
        data = {"size": n, "board": board, "depth": config.depth, "turns": config.depth + config.spare,
                "search": config.search, "noise": config.noise, "refute": config.refute, "difficulty": round(2 * config.depth + board.count(EMPTY) / 10 + empty * ataris, 3)}
        prompt = (
            f"Let's play Atari Go (capture Go) on a {n}x{n} board. You are X, your opponent is O, and it is your move. "
            "Stones of one colour that touch along the lines form a group; its liberties are the empty points "
            "next to it. Playing on the last liberty of an opposing group captures it, and the first capture "
            "wins the game, for either side. A move that leaves your own group without liberties and captures "
            "nothing is not allowed.\n\n"
            f"{_picture(board, n)}\n\n"
            f"Capture an O group within {data['turns']} moves, before O captures one of yours. Each turn, write "
            "one empty point as column letter and row number, for example: b2"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        return float(problem.data["difficulty"])

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"board": problem.data["board"]}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        n, board = problem.data["size"], state["board"]
        cell = read_cell(move, n, n, VERBS)
        if cell is None:
            return Outcome.invalid(state, "write one empty point as column letter and row number, e.g. b2")
        point = cell[0] * n + cell[1]
        name = cell_name(*cell)
        if board[point] != EMPTY:
            return Outcome.invalid(state, f"{name} is occupied")
        after, captured = place(board, n, point, MODEL)
        if after is None:
            return Outcome.invalid(state, f"{name} would leave your group without liberties (suicide)")
        if captured:
            return Outcome({"board": after}, Verdict.right(), f"You play {name} and capture {captured} O "
                           f"{'stone' if captured == 1 else 'stones'}. You win!\n\n{_picture(after, n)}", True)
        reply = opponent_move(problem, after)
        if reply is None:
            return Outcome.goes_on({"board": after}, f"You play {name}. O has no legal move and passes.\n\n"
                                   f"{_picture(after, n)}")
        final, taken = place(after, n, reply, OPPONENT)
        assert final is not None, "the opponent plays legal moves"
        said = f"You play {name}. O plays {cell_name(*divmod(reply, n))}"
        if taken:
            return Outcome({"board": final}, Verdict.wrong("O captured first"),
                           f"{said} and captures {taken} X {'stone' if taken == 1 else 'stones'}. You lose.\n\n"
                           f"{_picture(final, n)}", True)
        return Outcome.goes_on({"board": final}, f"{said}.\n\n{_picture(final, n)}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        n = problem.data["size"]
        # The shortest forced capture: a longer one found afresh every turn could be put off forever.
        point = next((p for moves in range(1, problem.data["depth"] + 1)
                      if (p := forced_capture(state["board"], n, MODEL, moves)) is not None), None)
        if point is None:  # not reached from the start (the sequence is forced); any legal move keeps it total
            point = legal_moves(state["board"], n, MODEL)[0]
        return cell_name(*divmod(point, n))

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        n = problem.data["size"]
        return [cell_name(*divmod(p, n)) for p in legal_moves(state["board"], n, MODEL)]

    def heuristics(self) -> dict[str, Any]:
        def random_legal(problem: Problem, state: dict[str, Any], history: History, rng: random.Random) -> str:
            return rng.choice(self.legal_moves(problem, state))

        def greedy_atari(problem: Problem, state: dict[str, Any], history: History, rng: random.Random) -> str:
            """Capture when possible, else give atari (a random one), else a random legal move."""
            n, board = problem.data["size"], state["board"]
            captures = capture_points(board, n, MODEL)
            options = sorted(captures) or atari_moves(board, n, MODEL) or legal_moves(board, n, MODEL)
            return cell_name(*divmod(rng.choice(options), n))

        def fewest_liberties(problem: Problem, state: dict[str, Any], history: History, rng: random.Random) -> str:
            n, board = problem.data["size"], state["board"]
            options = _rule_choices(board, n) or legal_moves(board, n, MODEL)
            return cell_name(*divmod(rng.choice(options), n))

        return {"random legal": random_legal, "capture, else give atari": greedy_atari, RULE: fewest_liberties}


# A cheap rule declared as a heuristic baseline (r3s26): it won 0.97 / 0.85 / 0.56 / 0.35 of levels 0 / 2 / 3 / 4 in
# version 1 (0.46 of the kit's 48 seeds at level 4). O's reply to an atari is forced, so from level 3 on (version 2)
# positions where the rule's line of ataris wins on the level's rule_share or more of its tie-breaks are redrawn,
# and O's free moves (after a move that gives no atari) spoil X's forced captures.
RULE = ("capture, else the atari leaving the fewest liberties after the extension, never an atari whose stone can be "
        "captured (random ties), else a random legal move")


def _rule_choices(board: str, n: int) -> list[int]:
    """The points the rule of RULE may play, capture or atari (its ties); empty when it has neither."""
    captures = capture_points(board, n, MODEL)
    if captures:
        return sorted(captures)
    scored = {}
    for point in atari_moves(board, n, MODEL):
        after, _ = place(board, n, point, MODEL)
        assert after is not None
        if capture_points(after, n, OPPONENT):
            continue
        liberties = 0
        for escape in capture_points(after, n, MODEL):
            extended, _ = place(after, n, escape, OPPONENT)
            if extended is not None:
                liberties = max(liberties, next(libs for stones, libs in _colour_groups(extended, n, OPPONENT)
                                                if stones >> escape & 1).bit_count())
        scored[point] = liberties
    fewest = min(scored.values(), default=None)
    return [point for point, liberties in scored.items() if liberties == fewest]


@functools.lru_cache(maxsize=100_000)
def _rule_share(board: str, n: int, turns: int) -> float:
    """The share of the rule's random tie-breaks that captures within ``turns`` while O's replies are forced (O
    extends its largest group in atari, as :func:`opponent_move` does); a line where it gives no atari counts as a
    loss (O's free moves refute)."""
    if turns <= 0:
        return 0.0
    if capture_points(board, n, MODEL):
        return 1.0
    choices = _rule_choices(board, n)
    won = 0.0
    for point in choices:
        after, _ = place(board, n, point, MODEL)
        assert after is not None
        escape = max((stones.bit_count(), libs.bit_length() - 1) for stones, libs in _colour_groups(after, n, OPPONENT)
                     if libs.bit_count() == 1)[1]
        extended, _ = place(after, n, escape, OPPONENT)
        if extended is None:  # the extension is suicide: O plays elsewhere and X captures next
            won += turns >= 2
        else:
            won += _rule_share(extended, n, turns - 1)
    return won / len(choices) if choices else 0.0


@functools.cache
def _edges(n: int) -> tuple[int, int, int]:
    """Bit masks of the whole board, of every point but the first column, and of every point but the last."""
    full = (1 << n * n) - 1
    first = sum(1 << r * n for r in range(n))
    return full, full & ~first, full & ~(first << n - 1)


def _spread(mask: int, n: int) -> int:
    """The points orthogonally next to the points of ``mask`` (bit ``r * n + c`` is the point at row r, column c)."""
    full, not_first, not_last = _edges(n)
    return (((mask & not_last) << 1) | ((mask & not_first) >> 1) | (mask << n) | (mask >> n)) & full


# Per colour, the translation of a board's text to a binary numeral with a 1 where that colour stands.
_ONES = {colour: str.maketrans({c: "1" if c == colour else "0" for c in (EMPTY, MODEL, OPPONENT)})
         for colour in (EMPTY, MODEL, OPPONENT)}


def _mask(board: str, colour: str) -> int:
    """The points of ``colour`` as a bit mask (bit ``p`` for ``board[p]``), read as one binary numeral."""
    return int(board[::-1].translate(_ONES[colour]), 2)


@functools.lru_cache(maxsize=200_000)
def _groups(board: str, n: int) -> dict[str, tuple[tuple[int, int], ...]]:
    """Per colour, every group as (its points, its liberties), both as bit masks (a flood fill over bits, the
    neighbour shifts of :func:`_spread` written out: the searches fill every board they meet)."""
    _, not_first, not_last = _edges(n)
    empty = _mask(board, EMPTY)
    found: dict[str, tuple[tuple[int, int], ...]] = {}
    for colour in (MODEL, OPPONENT):
        left = _mask(board, colour)
        mine: list[tuple[int, int]] = []
        while left:
            group = left & -left
            while True:
                grown = group | ((((group & not_last) << 1) | ((group & not_first) >> 1) | (group << n)
                                  | (group >> n)) & left)
                if grown == group:
                    break
                group = grown
            left &= ~group
            mine.append((group, _spread(group, n) & empty))
        found[colour] = tuple(mine)
    return found


def groups(board: str, n: int) -> tuple[tuple[int, int], ...]:
    """Every group of stones as (its points, its liberties), as bit masks."""
    found = _groups(board, n)
    return found[MODEL] + found[OPPONENT]


def _colour_groups(board: str, n: int, colour: str) -> tuple[tuple[int, int], ...]:
    return _groups(board, n)[colour]


def _points(mask: int) -> list[int]:
    return [p for p in range(mask.bit_length()) if mask >> p & 1]


def other(colour: str) -> str:
    return OPPONENT if colour == MODEL else MODEL


def capture_points(board: str, n: int, colour: str) -> set[int]:
    """The points where ``colour`` captures now: the last liberty of an opposing group in atari."""
    return {libs.bit_length() - 1 for _, libs in _colour_groups(board, n, other(colour)) if libs.bit_count() == 1}


def place(board: str, n: int, point: int, colour: str) -> tuple[str | None, int]:
    """(the board after ``colour`` plays ``point``, stones captured); (None, 0) for an occupied point or suicide."""
    if board[point] != EMPTY:
        return None, 0
    after = board[:point] + colour + board[point + 1:]
    captured = sum(stones.bit_count() for stones, libs in _colour_groups(after, n, other(colour)) if not libs)
    if captured:
        return after, captured  # the game ends here; the captured stones need not be lifted
    own = next(libs for stones, libs in _colour_groups(after, n, colour) if stones >> point & 1)
    return (after, 0) if own else (None, 0)


def legal_moves(board: str, n: int, colour: str) -> list[int]:
    return [p for p in range(n * n) if board[p] == EMPTY and place(board, n, p, colour)[0] is not None]


def atari_moves(board: str, n: int, colour: str) -> list[int]:
    """The legal moves of ``colour`` that leave some opposing group with one liberty (and capture nothing)."""
    candidates = sorted({p for _, libs in _colour_groups(board, n, other(colour)) if libs.bit_count() == 2
                         for p in _points(libs)})
    found = []
    for p in candidates:
        after, captured = place(board, n, p, colour)
        if after is not None and not captured and capture_points(after, n, colour):
            found.append(p)
    return found


@functools.lru_cache(maxsize=200_000)
def forced_capture(board: str, n: int, attacker: str, moves: int) -> int | None:
    """The first move of a forced capture by ``attacker`` (to move) in at most ``moves`` moves, or None.

    Every move but the last gives atari; the defender, unable to capture after it, must extend its
    group at the one liberty (two groups in atari cannot both be saved); the last move captures.
    """
    captures = capture_points(board, n, attacker)
    if captures:
        return min(captures)
    if moves <= 1:
        return None
    return next((p for p in atari_moves(board, n, attacker) if atari_wins(board, n, p, attacker, moves)), None)


def atari_wins(board: str, n: int, point: int, attacker: str, moves: int) -> bool:
    """Whether ``attacker``'s atari at ``point`` forces a capture within ``moves`` moves (this one included).

    The defender cannot capture after it (else it wins); its only replies that do not lose at once
    extend a group in atari at its liberty, and every such reply must leave a forced capture in
    ``moves - 1`` (an extension may touch and save a second group in atari too, so each is tried).
    """
    after, _ = place(board, n, point, attacker)
    defender = other(attacker)
    if after is None or capture_points(after, n, defender):
        return False
    for escape in capture_points(after, n, attacker):
        extended, _ = place(after, n, escape, defender)
        if extended is not None and forced_capture(extended, n, attacker, moves - 1) is None:
            return False
    return True


def opponent_move(problem: Problem, board: str) -> int | None:
    """O's reply (see the module docstring), or None when O has no legal move."""
    data, n = problem.data, problem.data["size"]
    captures = capture_points(board, n, OPPONENT)
    if captures:
        return min(captures)
    legal = legal_moves(board, n, OPPONENT)
    if not legal:
        return None
    in_atari = [(stones.bit_count(), libs.bit_length() - 1) for stones, libs in _colour_groups(board, n, OPPONENT)
                if libs.bit_count() == 1]
    if in_atari:
        return max(in_atari)[1] if max(in_atari)[1] in legal else legal[0]
    if data["search"]:
        attack = forced_capture(board, n, OPPONENT, data["search"] + 1)
        if attack is not None:
            return attack
    rng = event_rng((problem.env_id, problem.level, problem.seed), "reply", board)
    if rng.random() < data["noise"]:
        return rng.choice(legal)
    left = data["turns"] - (board.count(MODEL) - data["board"].count(MODEL))  # X's turns left (stones only grow)
    if data.get("refute") and left > 0:
        # X gave no atari: prefer the moves after which X has no forced capture in its turns left, else those making
        # its shortest one longest (a free reply let the atari rule find a new line, r3s26).
        def spoils(point: int) -> int:
            after, _ = place(board, n, point, OPPONENT)
            assert after is not None
            return next((-moves for moves in range(1, left + 1)
                         if forced_capture(after, n, MODEL, moves) is not None), 1)
        scores = {p: spoils(p) for p in legal}
        legal = [p for p in legal if scores[p] == max(scores.values())]
    return max(legal, key=lambda p: (_margin(board, n, p), -p))


def _margin(board: str, n: int, point: int) -> int:
    """The fewest liberties of O's groups minus X's after O plays ``point`` (not moving into a capture)."""
    after, _ = place(board, n, point, OPPONENT)
    assert after is not None
    if capture_points(after, n, MODEL):
        return -100
    fewest = {colour: min((libs.bit_count() for _, libs in _colour_groups(after, n, colour)), default=9)
              for colour in (MODEL, OPPONENT)}
    return fewest[OPPONENT] - fewest[MODEL]


def _picture(board: str, n: int) -> str:
    return render_board([list(board[r * n:(r + 1) * n]) for r in range(n)])
