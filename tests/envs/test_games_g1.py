"""Games g1 (issue #27): Black Box -- hand-checked rays, refused moves, replays, the oracle and random play."""

from __future__ import annotations

import random

import palaestra
from palaestra.core import Problem
from palaestra.core.registry import make_source
from palaestra.envs.games.black_box import REFLECTED, _table, _trace, read_move


def oracle_episode(env_id: str, level: int, seed: int) -> tuple[float, bool, list[str]]:
    """(total reward, won, replies) of the oracle's game through ``advance`` (full replies, as a model's)."""
    source = make_source(env_id)
    problem = source.sample(level, seed)
    state, total, replies = source.initial_state(problem), 0.0, []
    for _ in range(source.max_turns(problem)):
        reply = source.format_answer(source.oracle(problem, state))
        replies.append(reply)
        outcome = source.advance(problem, state, reply)
        state, total = outcome.state, total + outcome.verdict.reward
        if outcome.done:
            return total, bool(outcome.verdict.correct), replies
    return total, False, replies


def b2_problem() -> Problem:
    """One atom at B2 on a 4x4 grid (ports 1-4 top, 5-8 right, 9-12 bottom, 13-16 left)."""
    data = {"size": 4, "atoms": 1, "secret": ["B2"], "rays": 3}
    return Problem(env_id="games/black_box", level=0, seed=0, data=data)


def test_black_box_rays_follow_the_stated_rules() -> None:
    b2 = frozenset({5})  # row 1, column B
    assert _trace(4, b2, 1) == "absorbed"  # port 2 runs straight down column B into the atom
    assert _trace(4, b2, 0) == 15  # port 1 turns away from B2 at A1 and leaves by port 16
    assert _trace(4, b2, 2) == 4  # port 3 turns right at C1 and leaves by port 5
    assert _trace(4, b2, 15) == 0  # and the path back: port 16 leaves by port 1
    assert _trace(4, frozenset({0}), 1) == REFLECTED  # an atom at A1 reflects port 2 before it enters
    assert _trace(4, frozenset({4, 6}), 1) == REFLECTED  # atoms at A2 and C2 turn port 2's ray back


def test_black_box_play_answers_rays_and_judges_the_guess() -> None:
    source = make_source("games/black_box")
    problem = b2_problem()
    state = source.initial_state(problem)
    fired = source.play(problem, state, "fire 1")
    assert not fired.done and fired.observation == "Ray from port 1: exits at port 16."
    assert source.play(problem, state, "Fire from port 2.").observation == "Ray from port 2: absorbed."
    won = source.play(problem, fired.state, "Atoms at b2.")
    assert won.done and won.verdict.correct and won.verdict.reward == 1
    lost = source.play(problem, fired.state, "atoms at C2")
    assert lost.done and not lost.verdict.correct and lost.verdict.reward == 0


def test_black_box_refuses_bad_ports_sizes_and_plans() -> None:
    source = make_source("games/black_box")
    problem = b2_problem()
    state = source.initial_state(problem)
    no_port = source.play(problem, state, "fire 17")
    assert not no_port.done and not no_port.verdict.parsed and "ports are 1 to 16" in no_port.observation
    two = source.play(problem, state, "atoms at B2, C3")
    assert not two.done and "exactly 1 different cells" in two.observation
    off = source.play(problem, state, "atoms at E2")
    assert not off.done and "columns A to D" in off.observation
    assert read_move("fire 3, fire 4", 4) is None and read_move("B2 or C3", 4) is None
    assert read_move(r"\boxed{B2, D4}", 4) == ("atoms", ("B2", "D4"))


def test_black_box_every_drawn_set_is_the_only_one_its_rays_fit() -> None:
    table = _table(4, 4)
    secret = table.unique[0]
    alike = [p for p in table.placements if table.answers[p] == table.answers[secret]]
    assert alike == [secret]
    assert len(table.unique) < len(table.placements)  # some 4-atom sets on 4x4 hide from every ray


def test_black_box_oracle_wins_and_the_replay_scores_the_same() -> None:
    for level in range(5):
        total, won, replies = oracle_episode("games/black_box", level, 3)
        assert won and total == 1
        problem = make_source("games/black_box").sample(level, 3)
        assert palaestra.score(problem, replies).reward == 1


def test_black_box_random_legal_play_loses_at_the_top_level() -> None:
    source = make_source("games/black_box")
    for seed in range(4):
        problem = source.sample(4, seed)
        state, rng = source.initial_state(problem), random.Random(seed)
        for _ in range(source.max_turns(problem)):
            outcome = source.play(problem, state, rng.choice(source.legal_moves(problem, state)))
            state = outcome.state
            assert outcome.verdict.reward == 0
