"""Red-team regressions (round 3, session 30, "wolves"): games/werewolf paid a player that never asks.

A player that asks nothing lists the role assignments the morning's claims allow, votes the player who is a wolf
in most of them and repeats after each reveal. In version 1 the claims left 2-4.5 assignments on average and that
vote won 0.33, 0.47, 0.29, 0.27, 0.31 of the games at levels 0-4 (100 seeds a level); version 2 keeps only
villages whose claims leave at least 10 assignments (0.07-0.10 on 200 seeds a level).
"""

from __future__ import annotations

import itertools
import re

from palaestra.core.registry import make_source
from palaestra.kit.base import sample

WEREWOLF = "games/werewolf"


def _no_question_vote(prompt: str, out: list[int]) -> str:
    """Read the players, the wolves and the claims from the prompt alone; among the wolf sets the claims and the
    wolves voted out (``out``, from 1) allow, vote the player still in who is a wolf in most (lowest on a tie)."""
    players = int(re.search(r"The players are P1 to P(\d+)", prompt).group(1))
    wolves = int(re.search(r"(\d+) of them are wolves", prompt).group(1))
    claims = [(int(s), int(t), side == "a wolf")
              for s, t, side in re.findall(r"^P(\d+): P(\d+) is (a villager|a wolf)\.$", prompt, re.M)]
    counts = [0] * (players + 1)
    for chosen in itertools.combinations(range(1, players + 1), wolves):
        pack = set(chosen)
        if set(out) <= pack and all(((s in pack) != (t in pack)) == differ for s, t, differ in claims):
            for p in pack:
                counts[p] += 1
    return f"vote P{max((p for p in range(1, players + 1) if p not in out), key=lambda p: (counts[p], -p))}"


def _plays_and_wins(level: int, seed: int) -> bool:
    source = make_source(WEREWOLF)
    problem = sample(WEREWOLF, level, seed)
    state, out = source.initial_state(problem), []
    for _ in range(problem.data["wolves"]):
        move = _no_question_vote(problem.prompt, out)
        outcome = source.play(problem, state, move)
        if outcome.done:
            return outcome.verdict.reward == 1.0
        state, out = outcome.state, [*out, int(move.removeprefix("vote P"))]
    return False


def test_werewolf_a_vote_without_questions_rarely_wins():
    wins = {level: sum(_plays_and_wins(level, seed) for seed in range(40)) for level in range(5)}
    assert all(won <= 8 for won in wins.values()), wins  # at most 0.2 of 40 games a level (v1: 0.27-0.47)
    assert sum(wins.values()) <= 24, wins  # at most 0.12 over the levels


def test_werewolf_claims_leave_many_assignments():
    source = make_source(WEREWOLF)
    for level in range(5):
        for seed in range(30):
            problem = sample(WEREWOLF, level, seed)
            assert problem.data["candidates"] >= 10, (level, seed, problem.data["candidates"])
            assert source.max_turns(problem) >= problem.data["questions"] + problem.data["wolves"]


def test_werewolf_declares_the_no_question_vote():
    rules = make_source(WEREWOLF).heuristics()
    assert any("consistent assignments" in name for name in rules)
    name = next(name for name in rules if "consistent assignments" in name)
    problem = sample(WEREWOLF, 2, 3)
    state = make_source(WEREWOLF).initial_state(problem)
    assert rules[name](problem, state, (), None) == _no_question_vote(problem.prompt, [])
