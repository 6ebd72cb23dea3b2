"""Memory (concentration): find every matching pair of face-down cards, remembering what each flip showed.

``2n`` cards lie face down in a row, numbered 1 to ``2n``; every picture appears on exactly two
cards. Each turn the model flips two cards (``3 7``, ``3,7``, ``flip 3 and 7``) and sees both
pictures; a matching pair stays face up, otherwise both turn face down again. Nothing but the
conversation remembers earlier flips. Reward 1 when every pair is found within the turn budget;
flipping a card already matched, the same card twice, a number off the table or an unreadable
move costs a turn.

The budget leaves a player with a perfect memory some spare turns for unlucky flips, fewer at
higher levels; the oracle knows the layout and flips the pairs one by one. The honest player
(:meth:`MemoryPairs.honest_move`: match a pair it has seen, else flip two unseen cards) wins
within the budget at every level (version 2 gave levels 3 and 4 one more turn each for it). Levels add pairs and
cut the spare turns. The difficulty measure is the number of pairs per spare turn.

``make("games/memory_pairs", progress_rewards=True)`` pays ``1 / pairs`` per pair found instead
(the last pair pays what is left, so a won game still totals 1).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, View, register
from palaestra.core.task import Growth
from palaestra.envs.games.common import MAX_MOVE_CHARS
from palaestra.verifiers.moves import read_move_answer
from palaestra.verifiers.normalize import strip_wrappers

PICTURES = ("apple", "boat", "cat", "drum", "eagle", "fern", "guitar", "hat", "igloo", "jar", "kite", "lamp",
            "moon", "nest", "owl", "pear", "queen", "rose", "sun", "tree", "umbrella", "violin", "whale", "yacht")
_PAIR = re.compile(r"^(?:flip\s+)?(?:cards?\s+)?(?:\(\s*(\d{1,2})\s*(?:,|and|&|\s)\s*(\d{1,2})\s*\)|(\d{1,2})\s*(?:,|and|&|\s)"
                   r"\s*(?:card\s+)?(\d{1,2}))$", re.IGNORECASE)  # "1 2", "1, 2", "cards 1 and 2", "(1, 2)"


@register
class MemoryPairs(MultiTurnTask):
    id = "games/memory_pairs"
    family = "games"
    description = "Concentration: flip two cards a turn and find every matching pair from memory."
    tags = ("games", "multi-turn", "memory")
    option_variants = ({"progress_rewards": True},)
    one_move_per_turn = True  # a reply holding several moves is refused (checked by the kit)
    hidden_information = True
    version = 2

    @dataclass(frozen=True)
    class Config:
        pairs: int
        turns: int

    def __init__(self, answer_format: str | None = None, progress_rewards: bool = False) -> None:
        """``progress_rewards``: pay ``1 / pairs`` for each pair found instead of 1 at the end (same total)."""
        super().__init__(answer_format)
        self.progress_rewards = progress_rewards

    presets = (
        Config(4, 12),
        Config(6, 14),
        Config(8, 17),
        Config(10, 21),
        Config(12, 24),
    )
    # Capped at level 10's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"pairs": 24, "turns": 42})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        pictures = rng.sample(PICTURES, config.pairs)
        layout = pictures * 2
        rng.shuffle(layout)
        prompt = (
            f"Let's play memory. {2 * config.pairs} cards lie face down, numbered 1 to {2 * config.pairs}; every "
            "picture is on exactly two cards. Each turn, flip two cards by their numbers, for example: 1 2. You see "
            "both pictures; a matching pair stays face up, otherwise both are turned face down again. Find every "
            f"pair within {config.turns} turns."
        )
        return Problem(prompt=prompt, answer=None, data={"layout": layout, "turns": config.turns})

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    constant_difficulty = "a shuffled layout of the level's pairs: every card must be turned to be known, in any order"

    def difficulty(self, problem: Problem) -> float:
        pairs = len(problem.data["layout"]) // 2
        return pairs / (problem.data["turns"] - pairs)

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"found": []}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        layout = problem.data["layout"]
        pair = _read_pair(move, len(layout))
        if pair is None:
            return Outcome.invalid(state, f"write two different card numbers from 1 to {len(layout)}, e.g. 1 2")
        a, b = pair
        if a in state["found"] or b in state["found"]:
            return Outcome(state, Verdict.wrong("already matched"), "One of those cards is already face up.")
        said = f"Card {a + 1}: {layout[a]}. Card {b + 1}: {layout[b]}."
        if layout[a] != layout[b]:
            return Outcome(state, Verdict.wrong("no match"), f"{said} No match; both are turned face down.")
        found = sorted([*state["found"], a, b])
        share = 2 / len(layout) if self.progress_rewards else 0.0
        if len(found) == len(layout):
            win = Verdict(1.0 - share * (len(found) // 2 - 1), True, True, "won") if share else Verdict.right()
            return Outcome({"found": found}, win, f"{said} A match! Every pair is found: you win!", True)
        shown = ", ".join(str(i + 1) for i in found)
        return Outcome({"found": found}, Verdict(share, False, True, "match"), f"{said} A match! Face up now: {shown}.")

    def honest_move(self, view: View) -> str:
        """Match a pair seen on two cards; else flip two cards never seen (a known one, if only one is left)."""
        cards = int(_CARDS.search(view.prompt).group(1))  # type: ignore[union-attr]
        seen: dict[int, str] = {}
        found: set[int] = set()
        for _, observation in view.history:
            flipped = [(int(n) - 1, picture) for n, picture in _FLIP.findall(observation)]
            seen.update(flipped)
            if "A match!" in observation:
                found.update(card for card, _ in flipped)
        by_picture: dict[str, list[int]] = {}
        for card, picture in sorted(seen.items()):
            if card not in found:
                by_picture.setdefault(picture, []).append(card)
        pair = next((cards_ for cards_ in by_picture.values() if len(cards_) == 2), None)
        if pair:
            return f"{pair[0] + 1} {pair[1] + 1}"
        unseen = [c for c in range(cards) if c not in seen and c not in found]
        if len(unseen) >= 2:
            return f"{unseen[0] + 1} {unseen[1] + 1}"
        known = [c for c in range(cards) if c in seen and c not in found]
        return f"{unseen[0] + 1} {known[0] + 1}"

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        layout = problem.data["layout"]
        first = next(i for i in range(len(layout)) if i not in state["found"])
        second = next(j for j in range(first + 1, len(layout)) if layout[j] == layout[first])
        return f"{first + 1} {second + 1}"


_CARDS = re.compile(r"(\d+) cards lie face down")
_FLIP = re.compile(r"Card (\d+): ([^.]+)\.")


def _read_pair(move: str, cards: int) -> tuple[int, int] | None:
    if len(move) > MAX_MOVE_CHARS:
        return None

    def read(text: str) -> tuple[int, int] | None:
        match = _PAIR.match(strip_wrappers(text).strip())
        if not match:
            return None
        first, second = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
        a, b = int(first) - 1, int(second) - 1
        return (a, b) if a != b and 0 <= a < cards and 0 <= b < cards else None

    return read_move_answer(move, read)
