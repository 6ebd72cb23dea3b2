"""Dots and boxes: win a mid-game position against a perfect, seeded opponent.

Dots stand on a grid (columns a, b, ..., rows 1, 2, ...); a move draws one line between two
neighbouring dots, written as the two dots (``a1-b1``, ``b2 b3``, ``a1 to a2``; either order).
Drawing the fourth side of a box wins that box, and the player who did so must draw again.
When every line is drawn, the player with more boxes wins. The model is X and moves next in a
position reached by random play, mostly of lines that give no box away (the boxes taken so far
are marked X or O). An unreadable, non-adjacent or already
drawn line costs a turn.

The opponent plays perfectly: every line it draws maximises its final margin (exact search
over the remaining lines, memoised), ties broken by ``event_rng`` keyed by the position. Every
position is a win for the model with perfect play, and has at least one losing line, so the
choice matters. The oracle plays perfectly too. Reward 1 for a win, 0 otherwise.

Positions are also drawn so that the simple rules "take a box, else any line", "take a box,
else a line that gives none away, else any line" and (version 4) "take a box, else a line that
gives none away, else the line giving away the fewest boxes" win rarely, and more rarely with the
level: each rule's exact chance of winning (its random choices and the opponent's tie-breaks
averaged) is at most 60%, 50%, 40%, 30%, 30% at levels 0-4 (level 4 on a larger board). In
version 3 the third rule, the textbook shortest-chain sacrifice, won 0.38, 0.43, 0.47, 0.57 and
0.32 of games at levels 0-4 (60 seeds a level).

Levels grow the board and the number of lines left. The difficulty measure is the lines left
to draw plus the boxes still open.

Generation speed: about 20 to 25 problems/s at level 4 on this 2-core machine. Each drawn position is solved exactly
(the final margin after every line, by a memoised search over the undrawn lines), and the won ones are then scored
for how often the three simple rules win; most positions are redrawn. The exact values are kept because the
prompt promises a won position in which some line loses.
"""

from __future__ import annotations

import functools
import random
import re
import string
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, event_rng, register, retry
from palaestra.envs.games.common import MAX_MOVE_CHARS
from palaestra.verifiers.moves import read_move_answer
from palaestra.verifiers.normalize import strip_wrappers

_LINE = re.compile(r"^\s*(?:(?:draw|add)\s+(?:(?:the|a)\s+)?(?:line\s+)?(?:from\s+)?)?\(?\s*([a-z])\s*(\d{1,2})\s*\)?\s*(?:-+|–|—|\s|to|,|and)+\s*\(?\s*([a-z])\s*(\d{1,2})\s*\)?\s*$",
                   re.IGNORECASE)


@register
class DotsAndBoxes(MultiTurnTask):
    id = "games/dots_and_boxes"
    family = "games"
    description = "Win a dots-and-boxes position against a perfect opponent (box chains, extra moves)."
    tags = ("games", "multi-turn", "two-player", "combinatorial-game-theory")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    version = 4

    @dataclass(frozen=True)
    class Config:
        rows: int  # boxes down
        cols: int  # boxes across
        left: int  # lines still to draw
        rule_wins: float  # the most often a simple rule may win the position
        safe_share: float = 0.9  # share of the opening lines drawn among those that give no box away

    presets = (
        Config(2, 4, 10, 0.6, safe_share=0.6),
        # fewer safe openings on 3x3: at 0.9, 5.5% (level 1) and 8.3% (level 2) of 1,000 positions repeated
        Config(3, 3, 10, 0.5, safe_share=0.75),
        Config(3, 3, 11, 0.4, safe_share=0.7),
        Config(3, 4, 11, 0.3),
        Config(4, 4, 11, 0.3),
    )
    bounded = "past the presets generation gets too slow (over 1 s of CPU at level 9)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        lines = _lines(config.rows, config.cols)

        def draw() -> dict[str, Any] | None:
            drawn, scores, mover = 0, [0, 0], 0
            taker: dict[str, int] = {}
            for _ in range(len(lines) - config.left):
                # Mostly lines that give no box away, as players do before the endgame: the position is close
                # and its chains decide it (a purely random prefix hands one side most of the boxes).
                rule = _safe_line if rng.random() < config.safe_share else _any_line
                index = rng.choice(rule(config.rows, config.cols, drawn))
                gained = _take(config.rows, config.cols, drawn, index, taker, mover)
                drawn |= 1 << index
                scores[mover] += gained
                mover = mover if gained else 1 - mover
            mine, theirs = scores[mover], scores[1 - mover]
            outcomes = [mine - theirs + value for value in _line_values(config.rows, config.cols, drawn).values()]
            if max(outcomes) <= 0 or min(outcomes) > 0:
                return None  # not a win, or a win whatever the model draws
            for rule in (_fewest_given_line, _safe_line, _any_line):  # the stronger rules first: they reject more
                if _rule_win_chance(config.rows, config.cols, rule, drawn, mine - theirs) > config.rule_wins:
                    return None
            owners = {box: "X" if who == mover else "O" for box, who in sorted(taker.items())}
            return {"drawn": drawn, "mine": mine, "theirs": theirs, "owners": owners}

        start = retry(draw, what="a won position with a losing line where simple rules mostly lose", attempts=5000)
        data = {"rows": config.rows, "cols": config.cols, **start}
        prompt = (
            f"Let's play dots and boxes on a grid of {config.rows}x{config.cols} boxes. A move draws one line between "
            "two neighbouring dots, written as the two dots, for example: a1-b1. Drawing the fourth side of a box "
            "wins it, and then you must draw another line. When every line is drawn, whoever has more boxes wins. "
            "You are X and it is your move; boxes already taken are marked X or O.\n\n"
            f"{_picture(data, start['drawn'], start['owners'])}\n\n"
            f"Score: you {start['mine']}, opponent {start['theirs']}. An unreadable or illegal line costs a turn."
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        data = problem.data
        return bin(_full(data["rows"], data["cols"]) & ~data["drawn"]).count("1") + 4

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        left = _full(data["rows"], data["cols"]) & ~data["drawn"]
        return bin(left).count("1") + data["rows"] * data["cols"] - data["mine"] - data["theirs"]

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        data = problem.data
        return {"drawn": data["drawn"], "mine": data["mine"], "theirs": data["theirs"], "owners": data["owners"]}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        rows, cols = data["rows"], data["cols"]
        index = _read_line(move, rows, cols)
        if index is None:
            return Outcome.invalid(state, "write one line as two neighbouring dots, e.g. a1-b1")
        drawn = state["drawn"]
        if drawn >> index & 1:
            return Outcome(state, Verdict.wrong("drawn"), "That line is already drawn.")
        owners = dict(state["owners"])
        mine, theirs = state["mine"], state["theirs"]
        gained = _take(rows, cols, drawn, index, owners, "X")
        drawn |= 1 << index
        mine += gained
        said = f"You draw {_line_name(rows, cols, index)}" + (f" and take {gained} box{'es' * (gained > 1)}." if gained
                                                              else ".")
        full = _full(rows, cols)
        if gained and drawn != full:
            state = {"drawn": drawn, "mine": mine, "theirs": theirs, "owners": owners}
            return Outcome(state, Verdict.wrong("again"), f"{said} Draw again.\n{_picture(data, drawn, owners)}")
        replies = []
        rng = event_rng((problem.env_id, problem.level, problem.seed), "reply", drawn)
        for _ in range(len(_lines(rows, cols))):  # the opponent draws until it stops taking boxes
            if drawn == full:
                break
            values = _line_values(rows, cols, drawn)
            best = max(values.values())
            reply = rng.choice(sorted(i for i, v in values.items() if v == best))
            taken = _take(rows, cols, drawn, reply, owners, "O")
            drawn |= 1 << reply
            theirs += taken
            replies.append(_line_name(rows, cols, reply) + (f" (taking {taken})" if taken else ""))
            if not taken:
                break
        if replies:
            said += f" The opponent draws {', '.join(replies)}."
        state = {"drawn": drawn, "mine": mine, "theirs": theirs, "owners": owners}
        score = f"Score: you {mine}, opponent {theirs}."
        if drawn == full:
            won = mine > theirs
            result = "you win!" if won else "you lose." if mine < theirs else "a draw."
            return Outcome(state, Verdict.right() if won else Verdict.wrong("not won"),
                           f"{said} Every line is drawn. {score} {result.capitalize()}", True)
        return Outcome.goes_on(state, f"{said}\n{_picture(data, drawn, owners)}\n{score}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        data = problem.data
        values = _line_values(data["rows"], data["cols"], state["drawn"])
        index = max(sorted(values), key=lambda i: values[i])
        return _line_name(data["rows"], data["cols"], index)

    def heuristics(self) -> dict[str, Policy]:
        return {"take a box, else any line": _rule_move(_any_line),
                "take a box, else a line giving none away": _rule_move(_safe_line),
                "take a box, else a line giving none away, else the fewest boxes": _rule_move(_fewest_given_line)}


def _any_line(rows: int, cols: int, drawn: int) -> list[int]:
    """The rule "take a box, else any line": the lines it picks from (uniformly)."""
    undrawn = [i for i in range(len(_lines(rows, cols))) if not drawn >> i & 1]
    taking = [i for i in undrawn if _gained(rows, cols, drawn, i)]
    return taking or undrawn


def _safe_line(rows: int, cols: int, drawn: int) -> list[int]:
    """The rule "take a box, else a line that draws no third side of a box, else any line"."""
    undrawn = [i for i in range(len(_lines(rows, cols))) if not drawn >> i & 1]
    taking = [i for i in undrawn if _gained(rows, cols, drawn, i)]
    if taking:
        return taking
    boxes, touching = _boxes(rows, cols), _touching(rows, cols)
    safe = [i for i in undrawn
            if all(bin((drawn | 1 << i) & boxes[b]).count("1") < 3 for b in touching[i])]
    return safe or undrawn


def _fewest_given_line(rows: int, cols: int, drawn: int) -> list[int]:
    """The rule "take a box, else a line giving none away, else the line giving away the fewest boxes" (the boxes
    the other side can then take one after another), the textbook way to sacrifice the shortest chain."""
    safe = _safe_line(rows, cols, drawn)
    undrawn = [i for i in range(len(_lines(rows, cols))) if not drawn >> i & 1]
    boxes, touching = _boxes(rows, cols), _touching(rows, cols)
    if any(_gained(rows, cols, drawn, i) for i in safe) or \
            any(all(bin((drawn | 1 << i) & boxes[b]).count("1") < 3 for b in touching[i]) for i in safe):
        return safe
    given = {i: _boxes_given(rows, cols, drawn | 1 << i) for i in undrawn}
    fewest = min(given.values())
    return [i for i in undrawn if given[i] == fewest]


def _boxes_given(rows: int, cols: int, drawn: int) -> int:
    """The boxes a player can take one after another from ``drawn`` (each line completing a box, greedily)."""
    taken = 0
    for _ in range(rows * cols):
        line = next((i for i in range(len(_lines(rows, cols))) if not drawn >> i & 1 and _gained(rows, cols, drawn, i)),
                    None)
        if line is None:
            break
        taken += _gained(rows, cols, drawn, line)
        drawn |= 1 << line
    return taken


def _rule_win_chance(rows: int, cols: int, rule: Callable[[int, int, int], list[int]], drawn: int,
                     margin: int) -> float:
    """The exact chance that ``rule`` (choosing uniformly among its lines) wins from ``drawn`` with the model
    to move ``margin`` boxes ahead, against the perfect opponent with its ties taken uniformly."""
    full = _full(rows, cols)

    @functools.cache
    def model(drawn: int, margin: int) -> float:
        lines = rule(rows, cols, drawn)
        return sum(after(drawn, margin, i, True) for i in lines) / len(lines)

    @functools.cache
    def opponent(drawn: int, margin: int) -> float:
        values = _line_values(rows, cols, drawn)
        best = max(values.values())
        lines = [i for i, v in values.items() if v == best]
        return sum(after(drawn, margin, i, False) for i in lines) / len(lines)

    def after(drawn: int, margin: int, line: int, by_model: bool) -> float:
        gained = _gained(rows, cols, drawn, line)
        drawn |= 1 << line
        margin += gained if by_model else -gained
        if drawn == full:
            return 1.0 if margin > 0 else 0.0
        return (model if by_model == bool(gained) else opponent)(drawn, margin)

    return model(drawn, margin)


def _rule_move(rule: Callable[[int, int, int], list[int]]) -> Policy:
    def policy(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
        rows, cols = problem.data["rows"], problem.data["cols"]
        return _line_name(rows, cols, rng.choice(rule(rows, cols, state["drawn"])))

    return policy


@functools.cache
def _lines(rows: int, cols: int) -> tuple[tuple[int, int, int, int], ...]:
    """Every line as (row, col) of its two dots: the horizontal ones, then the vertical ones."""
    horizontal = [(r, c, r, c + 1) for r in range(rows + 1) for c in range(cols)]
    vertical = [(r, c, r + 1, c) for r in range(rows) for c in range(cols + 1)]
    return tuple(horizontal + vertical)


@functools.cache
def _boxes(rows: int, cols: int) -> tuple[int, ...]:
    """Each box's four lines as a bit mask (row-major)."""
    index = {line: i for i, line in enumerate(_lines(rows, cols))}
    return tuple((1 << index[(r, c, r, c + 1)]) | (1 << index[(r + 1, c, r + 1, c + 1)])
                 | (1 << index[(r, c, r + 1, c)]) | (1 << index[(r, c + 1, r + 1, c + 1)])
                 for r in range(rows) for c in range(cols))


@functools.cache
def _touching(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Per line, the boxes (by index) it is a side of."""
    boxes = _boxes(rows, cols)
    return tuple(tuple(b for b, mask in enumerate(boxes) if mask >> i & 1) for i in range(len(_lines(rows, cols))))


@functools.cache
def _full(rows: int, cols: int) -> int:
    return (1 << len(_lines(rows, cols))) - 1


@functools.cache
def _touch_masks(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Per line, the bit masks of the boxes it is a side of."""
    boxes = _boxes(rows, cols)
    return tuple(tuple(boxes[b] for b in touching) for touching in _touching(rows, cols))


def _gained(rows: int, cols: int, drawn: int, index: int) -> int:
    after = drawn | 1 << index
    gained = 0
    for mask in _touch_masks(rows, cols)[index]:
        if after & mask == mask:
            gained += 1
    return gained


def _take(rows: int, cols: int, drawn: int, index: int, owners: dict[str, Any], who: Any) -> int:
    """Boxes completed by drawing ``index`` (recorded in ``owners`` for the picture)."""
    after = drawn | 1 << index
    boxes = _boxes(rows, cols)
    taken = [b for b in _touching(rows, cols)[index] if after & boxes[b] == boxes[b]]
    for b in taken:
        owners[str(b)] = who
    return len(taken)


def _margin(rows: int, cols: int, drawn: int) -> int:
    """The best final box margin (own minus other's, from now on) for the player about to draw."""
    return _bounded_margin(rows, cols, drawn, _open_boxes(rows, cols, drawn))


def _open_boxes(rows: int, cols: int, drawn: int) -> int:
    return sum(drawn & mask != mask for mask in _boxes(rows, cols))


@functools.lru_cache(maxsize=400_000)
def _bounded_margin(rows: int, cols: int, drawn: int, open_boxes: int) -> int:
    """:func:`_margin`, given the boxes ``drawn`` leaves open (passed down, not recounted).

    Negamax over the undrawn lines, written out (no per-state dict as in :func:`_line_values`): this
    is the generator's hot loop. It stops at a line after which the mover takes every open box: no
    margin is higher, so the value is the same and the other lines need no search.
    """
    masks = _touch_masks(rows, cols)
    undrawn = _full(rows, cols) & ~drawn
    if not undrawn:
        return 0
    best = -(rows * cols) - 1
    quiet = []
    while undrawn:  # lines taking a box first: they are the ones that can reach the bound and end the search
        bit = undrawn & -undrawn
        undrawn ^= bit
        after = drawn | bit
        gained = 0
        for mask in masks[bit.bit_length() - 1]:
            if after & mask == mask:
                gained += 1
        if gained:
            value = gained + _bounded_margin(rows, cols, after, open_boxes - gained)
            if value > best:
                best = value
                if best == open_boxes:
                    return best
        else:
            quiet.append(after)
    for after in quiet:
        value = -_bounded_margin(rows, cols, after, open_boxes)
        if value > best:
            best = value
            if best == open_boxes:
                break
    return best


def _line_values(rows: int, cols: int, drawn: int) -> dict[int, int]:
    """Per undrawn line, the mover's best final margin from now on if it draws that line."""
    values = {}
    masks = _touch_masks(rows, cols)
    open_boxes = _open_boxes(rows, cols, drawn)
    undrawn = _full(rows, cols) & ~drawn
    while undrawn:
        bit = undrawn & -undrawn
        undrawn ^= bit
        index = bit.bit_length() - 1
        after = drawn | bit
        gained = 0
        for mask in masks[index]:  # inlined _gained: this loop is the search's hot spot
            if after & mask == mask:
                gained += 1
        values[index] = (gained + _bounded_margin(rows, cols, after, open_boxes - gained) if gained
                         else -_bounded_margin(rows, cols, after, open_boxes))
    return values


def _dot(r: int, c: int) -> str:
    return f"{string.ascii_lowercase[c]}{r + 1}"


def _line_name(rows: int, cols: int, index: int) -> str:
    r1, c1, r2, c2 = _lines(rows, cols)[index]
    return f"{_dot(r1, c1)}-{_dot(r2, c2)}"


def _read_line(move: str, rows: int, cols: int) -> int | None:
    if len(move) > MAX_MOVE_CHARS:
        return None

    def read(text: str) -> int | None:
        match = _LINE.match(strip_wrappers(text))
        if not match:
            return None
        a = (int(match.group(2)) - 1, ord(match.group(1).lower()) - 97)
        b = (int(match.group(4)) - 1, ord(match.group(3).lower()) - 97)
        a, b = min(a, b), max(a, b)
        try:
            return _lines(rows, cols).index((*a, *b))
        except ValueError:
            return None

    return read_move_answer(move, read)


def _picture(data: dict[str, Any], drawn: int, owners: dict[str, str]) -> str:
    rows, cols = data["rows"], data["cols"]
    index = {line: i for i, line in enumerate(_lines(rows, cols))}
    out = ["  " + "   ".join(string.ascii_lowercase[: cols + 1])]
    for r in range(rows + 1):
        dots = "".join("+" + ("---" if c < cols and drawn >> index[(r, c, r, c + 1)] & 1 else "   ")
                       for c in range(cols + 1))
        out.append(f"{r + 1} {dots.rstrip()}")
        if r < rows:
            cells = []
            for c in range(cols + 1):
                wall = "|" if drawn >> index[(r, c, r + 1, c)] & 1 else " "
                box = r * cols + c
                owner = (owners or {}).get(str(box), " ")
                cells.append(wall + (f" {owner} " if c < cols else ""))
            out.append("  " + "".join(cells).rstrip())
    return "\n".join(out)
