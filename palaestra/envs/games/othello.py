"""Othello endgames on small boards: win a won position against a perfect, seeded opponent.

Standard Othello (Reversi) rules on a 6x6 board: a move places a disc so that it brackets
one or more straight lines of the opponent's discs, which flip; a player with no legal move
passes; the game ends when neither can move, and more discs wins. The model is X and moves next
in a position reached by random play; the board and the model's legal moves are shown in the
prompt and after every turn. Each turn the model writes one cell (``c4``, ``play c4``); an illegal, occupied or
unreadable cell costs a turn.

The opponent plays perfectly (every reply maximises its final disc margin, by exact search over
the remaining empties, memoised), ties broken by ``event_rng`` keyed by the position; when the
model must pass, the opponent simply moves again. Every position is a win for the model with
perfect play, and two rules throw the win away with their first move: the mobility rule (leave
the opponent the fewest replies) and the first legal move listed (declared with the most-flips
rule as heuristic baselines; checked by a yes/no search: can the side to move
force a margin of at least t? My margin >= t exactly when the opponent cannot force 1 - t). The
oracle keeps the win with the first move that does. Reward 1 for a
win, 0 otherwise.

Levels add empty cells (5 to 9). The difficulty measure is the number of
empty cells plus the model's legal moves at the start.

Generation speed: about 50 to 75 problems/s at level 4 on this 2-core machine (it varies with the number of draws the
seeds need). A random game is played to the level's number of empty squares and the endgame is solved exhaustively to
prove it won with a losing move, after first proving that the two simple rules' first moves lose; about 14 draws are
made per problem. The proofs are kept because the prompt promises a won position and no simple rule may earn reward.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, event_rng, register, retry
from palaestra.envs.games.common import cell_name, read_cell, render_board

DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


@register
class Othello(MultiTurnTask):
    id = "games/othello"
    family = "games"
    description = "Win a small-board Othello endgame against a perfect opponent."
    tags = ("games", "multi-turn", "two-player", "adversarial")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)

    @dataclass(frozen=True)
    class Config:
        size: int
        empties: int

    presets = (Config(6, 5), Config(6, 6), Config(6, 7), Config(6, 8), Config(6, 9))
    version = 2
    bounded = "past the presets its generator or oracle gets too slow (the levels 5-9 check did not finish in 40 s on a busy machine)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = config.size

        def draw() -> tuple[int, int] | None:
            h = n // 2
            me = (1 << ((h - 1) * n + h)) | (1 << (h * n + h - 1))
            them = (1 << ((h - 1) * n + h - 1)) | (1 << (h * n + h))
            for _ in range(n * n):
                if _count(_full(n) & ~(me | them)) <= config.empties:
                    break
                options = _moves(n, me, them)
                if not options:
                    if not _moves(n, them, me):
                        return None
                    me, them = them, me
                    continue
                cell, flips = rng.choice(options)
                me, them = them & ~flips, me | flips | (1 << cell)
            if not _moves(n, me, them):
                return None
            # After each move, can the opponent still hold the margin at 0 or better (a non-win for the model)?
            # The first moves of the mobility rule and of the first listed move must throw the win away (they kept it
            # in about half the positions: checked first, one search each), so neither rule wins (#21).
            for cell, flips in (_fewest_replies(n, me, them), _moves(n, me, them)[0]):
                if not _at_least(n, them & ~flips, me | flips | (1 << cell), 0):
                    return None
            # A pure yes/no question: stopping at the first move that wins gives the same answer.
            wins = any(not _at_least(n, them & ~f, me | f | (1 << c), 0) for c, f in _moves(n, me, them))
            return (me, them) if wins else None

        me, them = retry(draw, what="a won Othello position with a losing move")
        data = {"size": n, "me": me, "them": them}
        prompt = (
            f"Let's play an Othello endgame on a {n}x{n} board. You are X, the opponent is O, and it is your move. A "
            "move places your disc on an empty cell so that it brackets, in at least one straight line (across, "
            "down or diagonal), an unbroken row of the opponent's discs between it and another of your discs; those "
            "discs turn to yours. A player with no move passes; when neither can move, more discs wins (only a win "
            f"scores).\n\n{_picture(n, me, them)}\n{_options(n, me, them)}\n\n"
            f"Each turn, write the one cell you play as column letter and row number, for example: {_example(n, me, them)} "
            "(that one shows the spelling only: it is not a legal move now). An illegal or unreadable move costs a turn."
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        data = problem.data
        return _count(_full(data["size"]) & ~(data["me"] | data["them"])) + 3

    def difficulty(self, problem: Problem) -> float:
        data = problem.data
        empties = _count(_full(data["size"]) & ~(data["me"] | data["them"]))
        return empties + len(_moves(data["size"], data["me"], data["them"]))

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"me": problem.data["me"], "them": problem.data["them"]}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        n = problem.data["size"]
        me, them = state["me"], state["them"]
        cell = read_cell(move, n, n, ("play", "place"))
        if cell is None:
            return Outcome.invalid(state, "write one cell as column letter and row number, e.g. c4")
        index = cell[0] * n + cell[1]
        flips = dict(_moves(n, me, them)).get(index)
        if not flips:
            return Outcome(state, Verdict.wrong("illegal"), f"{cell_name(*cell)} is not a legal move. "
                                                            f"{_options(n, me, them)}")
        me, them = me | flips | (1 << index), them & ~flips
        said = [f"You play {cell_name(*cell)}."]
        rng = event_rng((problem.env_id, problem.level, problem.seed), "reply", me, them)
        for _ in range(n * n):  # the opponent moves, again and again while the model must pass
            replies = _moves(n, them, me)
            if not replies:
                if _moves(n, me, them):
                    said.append("The opponent has no move and passes.")
                break
            values = {c: -_value(n, me & ~f, them | f | (1 << c)) for c, f in replies}
            best = max(values.values())
            reply = rng.choice(sorted(c for c, v in values.items() if v == best))
            flips = dict(replies)[reply]
            them, me = them | flips | (1 << reply), me & ~flips
            said.append(f"The opponent plays {cell_name(*divmod(reply, n))}.")
            if _moves(n, me, them):
                break
            if _moves(n, them, me):
                said.append("You have no move and pass.")
        state = {"me": me, "them": them}
        picture = _picture(n, me, them)
        if not _moves(n, me, them) and not _moves(n, them, me):
            mine, theirs = _count(me), _count(them)
            won = mine > theirs
            result = f"Game over: you {mine}, opponent {theirs}. " + ("You win!" if won else "You do not win.")
            return Outcome(state, Verdict.right() if won else Verdict.wrong("not won"),
                           f"{' '.join(said)} {result}\n{picture}", True)
        return Outcome.goes_on(state, f"{' '.join(said)}\n{picture}\n{_options(n, me, them)}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        n = problem.data["size"]
        me, them = state["me"], state["them"]
        options = _moves(n, me, them)
        winning = [c for c, f in options if not _at_least(n, them & ~f, me | f | (1 << c), 0)]
        return cell_name(*divmod((winning or [options[0][0]])[0], n))

    def heuristics(self) -> dict[str, Any]:
        def policy(choose: Any) -> Any:
            def move(problem: Problem, state: dict[str, Any], history: Any, rng: random.Random) -> str:
                n = problem.data["size"]
                return cell_name(*divmod(choose(n, state["me"], state["them"])[0], n))
            return move
        return {"leave the opponent the fewest replies": policy(_fewest_replies),
                "flip the most discs": policy(lambda n, me, them: max(_moves(n, me, them),
                                                                      key=lambda m: _count(m[1]))),
                "the first legal move listed": policy(lambda n, me, them: _moves(n, me, them)[0])}


def _count(bits: int) -> int:
    return bits.bit_count()


@functools.cache
def _full(n: int) -> int:
    return (1 << (n * n)) - 1


@functools.cache
def _rays(n: int) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]:
    """Per cell, the lines of cells leading away from it in each direction (two cells long at least), each as the bit
    of its first cell and the bits of the rest: bits, so that the move generator (the search's inner loop) only
    masks."""
    out = []
    for index in range(n * n):
        r, c = divmod(index, n)
        lines = []
        for dr, dc in DIRECTIONS:
            line = []
            rr, cc = r + dr, c + dc
            while 0 <= rr < n and 0 <= cc < n:
                line.append(1 << (rr * n + cc))
                rr, cc = rr + dr, cc + dc
            if len(line) >= 2:
                lines.append((line[0], tuple(line[1:])))
        out.append(tuple(lines))
    return tuple(out)


def _fewest_replies(n: int, me: int, them: int) -> tuple[int, int]:
    """The mobility rule's move: the one leaving the opponent the fewest legal replies (first listed on ties)."""
    return min(_moves(n, me, them), key=lambda m: len(_moves(n, them & ~m[1], me | m[1] | (1 << m[0]))))


def _moves(n: int, me: int, them: int) -> list[tuple[int, int]]:
    """Legal moves of the player owning ``me``: (cell, discs it flips), in cell order."""
    out = []
    empty = _full(n) & ~(me | them)
    rays = _rays(n)
    while empty:
        bit = empty & -empty
        empty ^= bit
        index = bit.bit_length() - 1
        flips = 0
        for first, rest in rays[index]:
            if them & first:
                run = first
                for b in rest:
                    if them & b:
                        run |= b
                    else:
                        if me & b:
                            flips |= run
                        break
        if flips:
            out.append((index, flips))
    return out


@functools.lru_cache(maxsize=500_000)
def _value(n: int, me: int, them: int, passed: bool = False) -> int:
    """The final disc margin (own minus other's) with perfect play for the player to move, who owns ``me``."""
    options = _moves(n, me, them)
    if not options:
        if passed:
            return _count(me) - _count(them)
        return -_value(n, them, me, True)
    return max(-_value(n, them & ~f, me | f | (1 << c)) for c, f in options)


@functools.lru_cache(maxsize=500_000)
def _at_least(n: int, me: int, them: int, target: int, passed: bool = False) -> bool:
    """Whether the player to move (owning ``me``) can force a final margin of at least ``target``: a yes/no
    search that stops at the first move that does it, much cheaper than the exact value."""
    options = _moves(n, me, them)
    if not options:
        if passed:
            return _count(me) - _count(them) >= target
        return not _at_least(n, them, me, 1 - target, True)
    return any(not _at_least(n, them & ~f, me | f | (1 << c), 1 - target) for c, f in options)


def _example(n: int, me: int, them: int) -> str:
    """A cell that is not a legal move, to show the spelling without hinting at a move."""
    legal = {c for c, _ in _moves(n, me, them)}
    return cell_name(*divmod(next(c for c in range(n * n) if c not in legal), n))


def _picture(n: int, me: int, them: int) -> str:
    return render_board([["X" if me >> (r * n + c) & 1 else "O" if them >> (r * n + c) & 1 else "."
                          for c in range(n)] for r in range(n)])


def _options(n: int, me: int, them: int) -> str:
    cells = [cell_name(*divmod(c, n)) for c, _ in _moves(n, me, them)]
    return f"Your legal moves: {', '.join(cells)}." if cells else "You have no legal move."
