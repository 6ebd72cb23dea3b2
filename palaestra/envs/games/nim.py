"""Impartial heap games (Nim, a subtraction game, Kayles, Grundy's game) against a seeded opponent.

Heaps of counters are labelled A, B, ... (relabelled in order after every move, as the
observation shows). Players alternate; whoever makes the last move wins. The rules depend on
the level:

- ``nim``: take any number of counters from one heap;
- ``subtraction``: take a number from a stated set (always containing 1) from one heap;
- ``kayles``: take 1 or 2 counters from one heap, and optionally split what is left of that
  heap into two heaps;
- ``grundy``: split one heap into two non-empty heaps of different sizes (heaps of 1 or 2
  are stuck).

A move is written as the heap and the numbers: ``take 3 from heap B`` (or ``B 3``),
``take 1 from heap B and split the rest into 2 and 4`` (``B 1 2 4``), ``split heap B into 2
and 5`` (``B 2 5``). An unreadable or illegal move costs a turn. The opponent replies at
once: from a position it can win it plays a winning move, otherwise a random legal move; its
choices are drawn from ``event_rng`` keyed by the position. Every start position is a win for
the model (its Sprague-Grundy value is not 0); the oracle always moves to a position of
value 0. Reward 1 for a win, 0 for a loss.

The difficulty measure is the number of counters on the table at the start.
"""

from __future__ import annotations

import functools
import itertools
import random
import re
import string
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, event_rng, register, retry
from palaestra.core.task import Growth
from palaestra.verifiers.moves import read_command

FILLERS = frozenset("take takes remove from heap pile and split splitting the rest remainder into leaving leave "
                    "counters counter stones stone of then".split())
_NUMBER = re.compile(r"^\d{1,3}$")

Move = tuple[int, int, tuple[int, ...]]  # (heap index, counters taken, the heaps it leaves in its place)


@register
class Nim(MultiTurnTask):
    id = "games/nim"
    version = 2
    family = "games"
    description = "Win impartial heap games (Nim, subtraction, Kayles, Grundy's game) by Sprague-Grundy play."
    tags = ("games", "multi-turn", "two-player", "combinatorial-game-theory")
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)

    @dataclass(frozen=True)
    class Config:
        rules: str  # nim, subtraction, kayles or grundy
        heaps: int
        low: int  # heap sizes drawn from [low, high]
        high: int

    presets = (
        Config("nim", 3, 1, 7),
        Config("nim", 4, 3, 15),
        Config("subtraction", 4, 5, 25),
        Config("kayles", 5, 4, 24),
        Config("grundy", 5, 5, 30),
    )
    # Heaps stop growing at level 12's (version 2): a Grundy game there takes ~230 moves, and past it the oracle's
    # games grew to hundreds more (5 s of CPU at level 20), where the labels ran past ZZ (the move raised).
    growth = Growth(limits={"heaps": 13, "low": 13, "high": 78})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        allowed: list[int] = []
        if config.rules == "subtraction":
            allowed = sorted({1, *rng.sample(range(2, 8), 2)})
        heaps = retry(lambda: [rng.randint(config.low, config.high) for _ in range(config.heaps)],
                      lambda heaps: _position_value(config.rules, tuple(allowed), heaps) != 0,
                      what="a start position the first player wins")
        example = {"nim": "take 2 from heap A", "subtraction": "take 1 from heap A",
                   "kayles": "take 1 from heap A and split the rest into 1 and 2",
                   "grundy": "split heap A into 1 and 3"}[config.rules]
        prompt = (
            f"Let's play a game with heaps of counters. {_rules_text(config.rules, allowed)} We take turns and you "
            "move first; whoever makes the last move wins (a player who cannot move loses). After every move the "
            "heaps are relabelled A, B, ... in order, leaving out empty heaps.\n\n"
            f"Heaps: {_heaps_text(heaps)}\n\n"
            f"Each turn, write one move, for example: {example}. An unreadable or illegal move costs a turn."
        )
        data = {"rules": config.rules, "allowed": allowed, "heaps": heaps}
        return Problem(prompt=prompt, answer=None, data=data)

    def space_size(self, level: int) -> int | None:
        """Level 0 is small: every ordered choice of heap sizes whose position the first player wins."""
        config = self.level_config(level)
        if level != 0:
            return None
        sizes = range(config.low, config.high + 1)
        return sum(_position_value(config.rules, (), list(heaps)) != 0
                   for heaps in itertools.product(sizes, repeat=config.heaps))

    def max_turns(self, problem: Problem) -> int:
        # Every move removes a counter or (Grundy's game) adds a heap, so a game has at most as many moves as counters.
        return sum(problem.data["heaps"]) // 2 + 4

    def difficulty(self, problem: Problem) -> float:
        return float(sum(problem.data["heaps"]))

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"heaps": list(problem.data["heaps"])}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        rules, allowed = problem.data["rules"], tuple(problem.data["allowed"])
        heaps = state["heaps"]
        chosen = read_command(move, lambda words: _parse(words, len(heaps)), articles=True)
        if chosen is None:
            return Outcome.invalid(state, "write the heap's letter and the numbers, as in the example")
        index, numbers = chosen
        legal = _move_from_numbers(rules, allowed, heaps[index], numbers)
        if legal is None:
            return Outcome(state, Verdict.wrong("illegal move"), f"That move is not allowed by the rules here. "
                                                                 f"Heaps: {_heaps_text(heaps)}")
        said = f"You {_describe(rules, index, heaps[index], legal)}."
        heaps = _apply(heaps, (index, *legal))
        if not _moves(rules, allowed, heaps):
            return Outcome({"heaps": heaps}, Verdict.right(), f"{said} No moves are left: you win!", True)
        reply = _opponent_move(problem, rules, allowed, heaps)
        said += f" I {_describe(rules, reply[0], heaps[reply[0]], reply[1:])}."
        heaps = _apply(heaps, reply)
        if not _moves(rules, allowed, heaps):
            return Outcome({"heaps": heaps}, Verdict.wrong("lost"), f"{said} No moves are left: I win.", True)
        return Outcome.goes_on({"heaps": heaps}, f"{said} Heaps: {_heaps_text(heaps)}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        rules, allowed = problem.data["rules"], tuple(problem.data["allowed"])
        heaps = state["heaps"]
        moves = _moves(rules, allowed, heaps)
        best = next((m for m in moves if _position_value(rules, allowed, _apply(heaps, m)) == 0), moves[0])
        return _move_text(rules, heaps, best)


def _rules_text(rules: str, allowed: list[int]) -> str:
    if rules == "subtraction":
        return (f"On your turn, take exactly {', '.join(map(str, allowed[:-1]))} or {allowed[-1]} counters from one "
                "heap (a heap needs at least that many).")
    return {
        "nim": "On your turn, take any number of counters (at least one) from one heap.",
        "kayles": "On your turn, take 1 or 2 counters from one heap; you may then split what is left of that heap "
                  "into two non-empty heaps.",
        "grundy": "On your turn, split one heap into two non-empty heaps of different sizes (so heaps of 1 or 2 "
                  "counters can never be split).",
    }[rules]


def label(index: int) -> str:
    """Heap labels: A to Z, then AA, AB, ..., ZZ, AAA, ... (splits can make more than 26 heaps).

    >>> [label(i) for i in (0, 25, 26, 701, 702)]
    ['A', 'Z', 'AA', 'ZZ', 'AAA']
    """
    letters = string.ascii_uppercase
    text = ""
    index += 1
    while index:  # bijective base 26: ends after one pass per letter
        index, digit = divmod(index - 1, 26)
        text = letters[digit] + text
    return text


def _heaps_text(heaps: list[int]) -> str:
    return ", ".join(f"{label(i)}={h}" for i, h in enumerate(heaps))


def _parse(words: list[str], count: int) -> tuple[int, list[int]] | None:
    labels = {label(i).lower(): i for i in range(count)}
    named = [w for w in words if w in labels]
    numbers = [w for w in words if _NUMBER.match(w)]
    rest = [w for w in words if w not in FILLERS and w not in labels and w not in numbers]
    if len(named) != 1 or not numbers or rest:
        return None
    leaving = [i for i, w in enumerate(words) if w in ("leave", "leaving")]
    if leaving and leaving[0] < words.index(numbers[0]):
        return None  # "heap B leaving 2" names what stays, not what is taken: no count taken is written
    return labels[named[0]], [int(n) for n in numbers]


def _move_from_numbers(rules: str, allowed: tuple[int, ...], heap: int, numbers: list[int]) -> tuple[int, tuple[int, ...]] | None:
    """(taken, heaps left in its place) when the numbers describe a legal move on a heap of ``heap``."""
    if rules == "grundy":
        if len(numbers) == 2 and min(numbers) >= 1 and sum(numbers) == heap and numbers[0] != numbers[1]:
            return 0, tuple(numbers)
        return None
    taken = numbers[0]
    if not 1 <= taken <= heap or (rules == "subtraction" and taken not in allowed) or (rules == "kayles" and taken > 2):
        return None
    if len(numbers) == 1:
        return taken, ((heap - taken,) if heap > taken else ())
    if rules == "kayles" and len(numbers) == 3 and min(numbers[1:]) >= 1 and sum(numbers) == heap:
        return taken, (numbers[1], numbers[2])
    return None


def _apply(heaps: list[int], move: Move) -> list[int]:
    index, _, parts = move
    return [*heaps[:index], *parts, *heaps[index + 1:]]


def _describe(rules: str, index: int, heap: int, legal: tuple[int, tuple[int, ...]]) -> str:
    taken, parts = legal
    if rules == "grundy":
        return f"split heap {label(index)} ({heap}) into {parts[0]} and {parts[1]}"
    split = f" and split the rest into {parts[0]} and {parts[1]}" if len(parts) == 2 else ""
    return f"take {taken} from heap {label(index)} ({heap}){split}"


def _move_text(rules: str, heaps: list[int], move: Move) -> str:
    index, taken, parts = move
    if rules == "grundy":
        return f"split heap {label(index)} into {parts[0]} and {parts[1]}"
    split = f" and split the rest into {parts[0]} and {parts[1]}" if len(parts) == 2 else ""
    return f"take {taken} from heap {label(index)}{split}"


@functools.lru_cache(maxsize=4096)
def _heap_moves(rules: str, allowed: tuple[int, ...], heap: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Every (taken, heaps left) move on one heap."""
    out: list[tuple[int, tuple[int, ...]]] = []
    if rules == "grundy":
        return tuple((0, (a, heap - a)) for a in range(1, (heap + 1) // 2) if a != heap - a)
    takes = range(1, heap + 1) if rules == "nim" else allowed if rules == "subtraction" else (1, 2)
    for taken in takes:
        if taken > heap:
            continue
        rest = heap - taken
        out.append((taken, (rest,) if rest else ()))
        if rules == "kayles":
            out.extend((taken, (a, rest - a)) for a in range(1, rest // 2 + 1))
    return tuple(out)


def _moves(rules: str, allowed: tuple[int, ...], heaps: list[int]) -> list[Move]:
    return [(i, taken, parts) for i, heap in enumerate(heaps) for taken, parts in _heap_moves(rules, allowed, heap)]


@functools.lru_cache(maxsize=4096)
def _grundy(rules: str, allowed: tuple[int, ...], heap: int) -> int:
    """The Sprague-Grundy value of one heap: the least value no move reaches (heaps left combine by xor)."""
    reached = set()
    for _, parts in _heap_moves(rules, allowed, heap):
        value = 0
        for part in parts:
            value ^= _grundy(rules, allowed, part)
        reached.add(value)
    return next(v for v in range(len(reached) + 1) if v not in reached)


def _position_value(rules: str, allowed: tuple[int, ...], heaps: list[int]) -> int:
    value = 0
    for heap in heaps:
        value ^= _grundy(rules, allowed, heap)
    return value


def _opponent_move(problem: Problem, rules: str, allowed: tuple[int, ...], heaps: list[int]) -> Move:
    moves = _moves(rules, allowed, heaps)
    winning = [m for m in moves if _position_value(rules, allowed, _apply(heaps, m)) == 0]
    rng = event_rng((problem.env_id, problem.level, problem.seed), "reply", *heaps)
    return rng.choice(winning or moves)
