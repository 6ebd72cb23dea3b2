"""Connect Four: convert a won position by a sequence of threats, against a defender that blocks.

The model plays X in a mid-game position of standard Connect Four (7 columns, 6 rows, four in
a row wins) where it can force a win within ``N`` of its moves by *continuous threats*: every
move but the last makes four-in-a-row possible on the next move, so the opponent must block,
until a double threat (or a threat the block cannot stop) wins. The prompt says that such a
win exists and how many moves it takes. Each turn the model writes one column (``4``,
``column 4``, ``drop in 4``); a full or unknown column, or an unreadable move, costs a turn.

The opponent (O) replies at once, by fixed priorities: win at once if it can; block the
model's immediate threat; start a continuous-threat win of its own of at most three moves;
otherwise a random column that does not hand the model a win at once, drawn from
``event_rng`` keyed by the position; from level 2 on (v3), among those, one after which the model
has no continuous-threat win within its turns left (else one making its shortest such win longest),
so a move that threatens nothing is refuted rather than answered at random. Reward 1 for a win, 0 for a loss, a full board or running
out of turns (``N`` plus the level's spare turns).

Positions come from random play, scanned ply by ply for one whose shortest continuous-threat
win for the side to move has exactly ``N`` moves (a bounded search, memoised) and where the
threat-making rule (win, else block, else the safe move making the most threats; declared as a
heuristic baseline) does not win by forced play; from level 2 on, also where the rules of ``RULES`` (the same
with random ties, and with the cells completing a four on the whole board as the next rank) win by forced play on
under RULE_SHARE of their tie-breaks. Those random-tie rules won 0.50 and 0.58 of the top level's games in v2 (60
games; 0.43 and 0.90 at level 0), about half of it after a non-forcing move the opponent answered at random; v3: 0.30
and 0.36 at level 4 (100 games), 0.33 and 0.38 at level 3. The oracle
plays a shortest such line. Levels lengthen the forced line (2 to 6 moves) and cut the spare
turns from two to one. The difficulty measure is ``N``.

Generation speed: about 55 to 65 problems/s at level 4 on this 2-core machine. Random games are played and, after
each ply from the tenth, a threat search proves whether the side to move wins by threats in exactly the level's
number of moves and that the simple threat rule does not force it; about 90 random games are played per problem. The
proofs are kept because the prompt promises a forced win of that length.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, event_rng, register, retry
from palaestra.verifiers.moves import read_command

WIDTH, HEIGHT = 7, 6
STRIDE = HEIGHT + 1  # one spare bit above every column keeps the line shifts from wrapping
ORDER = (3, 2, 4, 1, 5, 0, 6)  # centre columns first: shorter wins are found sooner
COLUMN_MASKS = tuple(((1 << HEIGHT) - 1) << (c * STRIDE) for c in range(WIDTH))
FULL = sum(COLUMN_MASKS)
BOTTOM = sum(1 << (c * STRIDE) for c in range(WIDTH))
TOP = sum(1 << (c * STRIDE + HEIGHT - 1) for c in range(WIDTH))
# The open columns (centre first) for each set of filled top cells: a table, as it depends on nothing else.
OPEN_COLUMNS = {
    sum(1 << (c * STRIDE + HEIGHT - 1) for c in range(WIDTH) if full >> c & 1):
        tuple(c for c in ORDER if not full >> c & 1)
    for full in range(1 << WIDTH)
}
# Words a move may hold around its one column number (a naming sentence, "I play column 4.", is read too: r3s26).
COLUMN_WORDS = frozenset(["column", "col", "drop", "in", "play", "into", "disc", "piece", "i", "i'll", "will", "my",
                          "move", "is"])


@register
class ConnectFour(MultiTurnTask):
    id = "games/connect_four"
    family = "games"
    description = "Win a Connect Four position by a forced sequence of threats against a blocking defender."
    tags = ("games", "multi-turn", "two-player", "adversarial")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)

    @dataclass(frozen=True)
    class Config:
        moves: int  # length of the shortest continuous-threat win
        spare: int  # turns allowed beyond it
        refute: bool = False  # the opponent answers a move that threatens nothing by spoiling the model's threat wins

    presets = (Config(2, 2), Config(3, 2), Config(4, 1, True), Config(5, 1, True), Config(6, 1, True))
    version = 3
    bounded = "larger configs are infeasible for its generator (no valid problem in 1,000 draws past the presets)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[int, int] | None:
            me, board = 0, 0
            for ply in range(2 * WIDTH * HEIGHT // 3):
                column = _random_column(rng, board)
                drop = _drop(board, column)
                if _four(me | drop):
                    return None
                me, board = (me | drop) ^ (board | drop), board | drop  # the other side moves next
                if (ply >= 9 and _shortest_win(me, board, config.moves) == config.moves
                        and not _threat_rule_forces_win(me, board, config.moves + config.spare)
                        and not (config.refute and any(_rule_share(me, board, config.moves + config.spare, rule)
                                                       >= RULE_SHARE for rule in range(len(RULES))))):
                    return me, board
            return None

        me, board = retry(draw, what=f"a position won by threats in {config.moves} moves")
        plural = "s" if config.moves > 1 else ""
        prompt = (
            "Let's play Connect Four. Discs drop to the lowest empty cell of the column they are played in; four of "
            "your discs in a row, column or diagonal win. You are X, the opponent is O, and it is your move in this "
            f"position:\n\n{_picture(me, board)}\n\n"
            f"You can force a win within {config.moves} move{plural}, each (but the last) threatening to win at once "
            f"so that the opponent must block. You have {config.moves + config.spare} turns; only a win scores.\n"
            "Each turn, write the number of the column you play, for example: 4"
        )
        data = {"me": me, "board": board, "moves": config.moves, "spare": config.spare, "refute": config.refute}
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["moves"] + problem.data["spare"]

    def difficulty(self, problem: Problem) -> float:
        """Moves to the forced win, plus a tenth of the pieces already on the board."""
        return float(problem.data["moves"]) + bin(problem.data["board"]).count("1") / 10

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"me": problem.data["me"], "board": problem.data["board"]}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        me, board = state["me"], state["board"]
        column = read_command(move, _parse_column)
        if column is None:
            return Outcome.invalid(state, f"write one column number from 1 to {WIDTH}")
        if not _open(board, column):
            return Outcome(state, Verdict.wrong("full column"), f"Column {column + 1} is full.")
        drop = _drop(board, column)
        me, board = me | drop, board | drop
        said = f"You play column {column + 1}."
        if _four(me):
            return Outcome({"me": me, "board": board}, Verdict.right(), f"{said} Four in a row: you win!\n"
                                                                        f"{_picture(me, board)}", True)
        if not _columns(board):
            return Outcome({"me": me, "board": board}, Verdict.wrong("draw"), f"{said} The board is full: a draw.",
                           True)
        reply = _defend(problem, me, board)
        drop = _drop(board, reply)
        board |= drop
        said += f" The opponent plays column {reply + 1}."
        picture = _picture(me, board)
        if _four(board ^ me):
            return Outcome({"me": me, "board": board}, Verdict.wrong("lost"), f"{said} Four in a row: you lose.\n"
                                                                              f"{picture}", True)
        if not _columns(board):
            return Outcome({"me": me, "board": board}, Verdict.wrong("draw"), f"{said} The board is full: a draw.",
                           True)
        return Outcome.goes_on({"me": me, "board": board}, f"{said}\n{picture}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        me, board = state["me"], state["board"]
        column = _winning_column(me, board, problem.data["moves"] + problem.data["spare"])
        if column is None:  # off the oracle's own line only
            column = next(c for c in ORDER if _open(board, c))
        return str(column + 1)

    def heuristics(self) -> dict[str, Any]:
        def policy(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
            return str(_threat_rule_column(state["me"], state["board"]) + 1)

        def tied(rule: int) -> Any:
            def chooser(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
                return str(rng.choice(_rule_choices(state["me"], state["board"], rule)) + 1)
            return chooser

        return {"win, else block, else the safe move making the most threats": policy,
                **{name: tied(rule) for rule, name in enumerate(RULES)}}


def _threat_rule_column(me: int, board: int) -> int:
    """The threat-making rule: win at once, else block, else the column whose disc makes the most threats of four
    without handing the opponent a win on top of it (centre first on ties)."""
    them = board ^ me
    forced = _wins_at(me, board) or _wins_at(them, board)
    if forced:
        return forced[0]

    def rank(column: int) -> tuple[bool, int]:
        drop = _drop(board, column)
        return not _wins_at(them, board | drop), len(_wins_at(me | drop, board | drop))

    return max(_columns(board), key=rank)


def _threat_rule_forces_win(me: int, board: int, turns: int) -> bool:
    """Whether the threat-making rule wins within ``turns`` by threats alone, every reply forced (a block or the
    opponent's own win). A position where it does is not kept: the rule won about half the top level's games and all
    of level 0's (#21); a line where it stops threatening is left to the opponent's random replies."""
    for _ in range(turns):
        drop = _drop(board, _threat_rule_column(me, board))
        me, board = me | drop, board | drop
        if _four(me):
            return True
        them = board ^ me
        forced = _wins_at(them, board) or _wins_at(me, board)
        if not forced or _four(them | _drop(board, forced[0])):
            return False
        board |= _drop(board, forced[0])
    return False


# Cheap one-ply rules with random ties (r3s26): win, else block, else the best-ranked column. With centre-first ties
# the threat rule never forces its win (checked above), but with random ties it won 0.50 of the top level's games and
# ranking the threats on the whole board next (cells that would complete a four, playable or not) won 0.58, half of
# those after a non-forcing move the opponent answered at random. From level 2 on the opponent refutes such moves
# (``_defend``) and a position is kept only if each rule's share of forced wins over its ties is below RULE_SHARE.
RULES = ("win, else block, else the safe move making the most threats (random ties)",
         "win, else block, else the safe move making the most threats, then the most cells completing a four "
         "(random ties)")
RULE_SHARE = 0.75


def _rule_rank(me: int, board: int, column: int, rule: int) -> tuple[int, ...]:
    drop = _drop(board, column)
    mine, after = me | drop, board | drop
    rank = (not _wins_at(board ^ me, after), len(_wins_at(mine, after)))
    return rank + ((_completing_cells(mine) & ~after).bit_count(),) if rule == 1 else rank


def _rule_choices(me: int, board: int, rule: int) -> list[int]:
    """The columns a rule of RULES may play (its ties): a win, else a block, else the best-ranked columns."""
    forced = _wins_at(me, board) or _wins_at(board ^ me, board)
    if forced:
        return forced
    ranks = {column: _rule_rank(me, board, column, rule) for column in _columns(board)}
    best = max(ranks.values())
    return [column for column, rank in ranks.items() if rank == best]


@functools.lru_cache(maxsize=100_000)
def _rule_share(me: int, board: int, turns: int, rule: int) -> float:
    """The share of a rule's random tie-breaks that wins within ``turns`` by threats alone, every reply forced (the
    opponent's win or its block); a line where the rule stops threatening counts as a loss (the opponent refutes)."""
    if turns <= 0:
        return 0.0
    choices = _rule_choices(me, board, rule)
    won = 0.0
    for column in choices:
        drop = _drop(board, column)
        mine, after = me | drop, board | drop
        if _four(mine):
            won += 1
            continue
        threats = _wins_at(mine, after)
        if not threats or _wins_at(after ^ mine, after):
            continue
        if len(threats) >= 2:
            won += 1
            continue
        block = _drop(after, threats[0])
        if not _four((after ^ mine) | block):
            won += _rule_share(mine, after | block, turns - 1, rule)
    return won / len(choices)


def _parse_column(words: list[str]) -> int | None:
    numbers = [w for w in words if w not in COLUMN_WORDS]
    if len(numbers) != 1 or not numbers[0].isdigit() or len(numbers[0]) > 1:
        return None
    column = int(numbers[0]) - 1
    return column if 0 <= column < WIDTH else None


def _picture(me: int, board: int) -> str:
    rows = []
    for row in reversed(range(HEIGHT)):
        cells = []
        for column in range(WIDTH):
            bit = 1 << (column * STRIDE + row)
            cells.append("X" if me & bit else "O" if board & bit else ".")
        rows.append(" ".join(cells))
    return "\n".join(rows + [" ".join(str(c + 1) for c in range(WIDTH))])


def _four(discs: int) -> bool:
    for shift in (1, STRIDE, STRIDE + 1, STRIDE - 1):
        pairs = discs & (discs >> shift)
        if pairs & (pairs >> 2 * shift):
            return True
    return False


def _open(board: int, column: int) -> bool:
    return not board & (1 << (column * STRIDE + HEIGHT - 1))


def _columns(board: int) -> tuple[int, ...]:
    return OPEN_COLUMNS[board & TOP]


def _drop(board: int, column: int) -> int:
    """The bit of the lowest empty cell of ``column``."""
    return (board + (1 << (column * STRIDE))) & ~board & (((1 << HEIGHT) - 1) << (column * STRIDE))


def _random_column(rng: random.Random, board: int) -> int:
    columns = _columns(board)
    return columns[int(rng.random() * len(columns))]


def _wins_at(discs: int, board: int) -> list[int]:
    """Columns where a disc added to ``discs`` would make four at once (centre first)."""
    cells = _completing_cells(discs) & ((board + BOTTOM) & FULL)
    return [c for c in ORDER if cells & COLUMN_MASKS[c]] if cells else []


@functools.lru_cache(maxsize=1 << 16)
def _completing_cells(discs: int) -> int:
    """Every empty-or-not cell that would complete four with ``discs`` (all directions at once, by shifts).

    Unrolled, each shift taken once, and cached: it is the inner loop of the threat search, which asks again for the
    same discs (a node's own, its opponent's for every column tried, the parent's move for the child)."""
    found = (discs << 1) & (discs << 2) & (discs << 3)  # three below it in its column
    up, down = discs << STRIDE, discs >> STRIDE  # horizontal
    found |= (up & (discs << 2 * STRIDE) & ((discs << 3 * STRIDE) | down)
              | down & (discs >> 2 * STRIDE) & (up | (discs >> 3 * STRIDE)))
    up, down = discs << (STRIDE - 1), discs >> (STRIDE - 1)  # one diagonal
    found |= (up & (discs << 2 * (STRIDE - 1)) & ((discs << 3 * (STRIDE - 1)) | down)
              | down & (discs >> 2 * (STRIDE - 1)) & (up | (discs >> 3 * (STRIDE - 1))))
    up, down = discs << (STRIDE + 1), discs >> (STRIDE + 1)  # the other
    found |= (up & (discs << 2 * (STRIDE + 1)) & ((discs << 3 * (STRIDE + 1)) | down)
              | down & (discs >> 2 * (STRIDE + 1)) & (up | (discs >> 3 * (STRIDE + 1))))
    return found & FULL


@functools.lru_cache(maxsize=200_000)
def _shortest_win(me: int, board: int, cap: int) -> int:
    """Fewest moves (at most ``cap``) of a continuous-threat win for the side to move (discs ``me``), or 0."""
    if _completing_cells(me) & (board + BOTTOM) & FULL:
        return 1
    return _best_threat(me, board, cap)[0]


@functools.lru_cache(maxsize=200_000)
def _best_threat(me: int, board: int, cap: int) -> tuple[int, int]:
    """(fewest moves, first column) of a continuous-threat win that does not win at once, or (0, -1)."""
    if cap < 2:
        return 0, -1
    them = board ^ me
    playable = (board + BOTTOM) & FULL
    danger = _completing_cells(them) & playable
    if danger:
        columns = [c for c in ORDER if danger & COLUMN_MASKS[c]]
        if len(columns) >= 2:
            return 0, -1
    else:
        # Only the columns whose disc may make a threat: the others would be skipped below, after a longer test.
        candidates = _threat_cells(me, playable)
        columns = [c for c in ORDER if candidates & COLUMN_MASKS[c]] if candidates else []
    best, first = 0, -1
    for column in columns:
        drop = _drop(board, column)
        mine, after = me | drop, board | drop
        threats = _wins_at(mine, after)
        if not threats or _wins_at(them, after):
            continue
        if len(threats) >= 2:
            return 2, column
        limit = (best - 1 if best else cap) - 1
        if limit < 1:
            continue
        length = _shortest_win(mine, after | _drop(after, threats[0]), limit)
        if length:
            best, first = length + 1, column
    return best, first


def _threat_cells(me: int, playable: int) -> int:
    """The playable cells where a disc of the side to move (discs ``me``, no win at once) may make a threat: every cell
    whose disc makes ``_wins_at(me | drop, board | drop)`` non-empty is among them (a few others may be too), from two
    shift passes for the whole position instead of one per column.

    A cell completing four after the drop either completed four already (then any other drop leaves it), or is the
    cell above the drop (completing four already, or the column's with two of ``me`` below the drop), or lies on a
    line through the drop whose two other cells are ``me``'s -- and then the drop, a playable cell, completes four
    with ``me`` plus the playable cells."""
    already = _completing_cells(me)
    ready = already & playable
    if ready & (ready - 1):
        return playable
    cells = playable & (_completing_cells(me | playable) | already >> 1 | (me << 1) & (me << 2) & (FULL >> 1))
    return cells | playable & ~ready if ready else cells


def _winning_column(me: int, board: int, cap: int) -> int | None:
    """The first column of a shortest continuous-threat win within ``cap`` moves, or None."""
    immediate = _wins_at(me, board)
    if immediate:
        return immediate[0]
    length, column = _best_threat(me, board, cap)
    return column if length else None


def _defend(problem: Problem, model: int, board: int) -> int:
    them = board ^ model
    win = _wins_at(them, board)
    if win:
        return win[0]
    block = _wins_at(model, board)
    if block:
        return block[0]
    attack = _winning_column(them, board, 3)
    if attack is not None:
        return attack
    rng = event_rng((problem.env_id, problem.level, problem.seed), "reply", model, board)
    columns = _columns(board)
    # A disc under the model's winning cell would hand it the win: avoid that when possible.
    safe = sorted(c for c in columns if not _wins_at(model, board | _drop(board, c))) or sorted(columns)
    data = problem.data
    left = data["moves"] + data["spare"] - (model.bit_count() - data["me"].bit_count())  # the model's turns left, or more
    if data.get("refute") and left > 0:
        # The model threatened nothing: take a column after which it has no threat win in its turns left, else one
        # that makes its shortest threat win longest (a free random reply let a non-forcing rule win later, #r3s26).
        lengths = {c: _shortest_win(model, board | _drop(board, c), left) or left + 1 for c in safe}
        safe = [c for c in safe if lengths[c] == max(lengths.values())]
    return rng.choice(safe)
