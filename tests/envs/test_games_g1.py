"""Games g1 (issue #27): Black Box and Yahtzee lite -- hand-checked rays and scores, refused moves, replays, the oracle and random play."""

from __future__ import annotations

import random

import palaestra
from palaestra.core import Problem
from palaestra.core.registry import make_source
from palaestra.envs.games.black_box import REFLECTED, _table, _trace, read_move
from palaestra.envs.games.yahtzee_lite import category_score
from palaestra.envs.games.yahtzee_lite import read_move as yahtzee_move


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


# --- Yahtzee lite ----------------------------------------------------------------

def two_dice_problem() -> Problem:
    """Two dice, categories sixes and chance; turn 1 rolls 6 2, then rerolls show 6 6 / 3 3; turn 2 rolls 4 5."""
    data = {"dice": 2, "categories": ["sixes", "chance"], "best": 21, "baseline": 11,
            "rolls": [[[6, 2], [6, 6], [3, 3]], [[4, 5], [1, 1], [2, 2]]]}
    return Problem(env_id="games/yahtzee_lite", level=0, seed=0, data=data)


def test_yahtzee_lite_scores_the_categories() -> None:
    assert category_score("sixes", (2, 6, 6)) == 12 and category_score("fives", (5, 5, 1)) == 10
    assert category_score("chance", (1, 2, 6)) == 9 and category_score("all same", (4, 4, 4)) == 30
    assert category_score("straight", (2, 3, 4)) == 20 and category_score("straight", (2, 3, 5)) == 0
    assert category_score("three of a kind", (2, 2, 2, 5)) == 11 and category_score("three of a kind", (2, 2, 5)) == 0


def test_yahtzee_lite_rerolls_take_the_rows_dice_and_the_game_pays_regret() -> None:
    source = make_source("games/yahtzee_lite")
    problem = two_dice_problem()
    state = source.initial_state(problem)
    kept = source.play(problem, state, "keep 6")  # the one rerolled die shows the first face of row 2: 6
    assert not kept.done and kept.state["showing"] == [6, 6] and "1 rerolls left" in kept.observation
    sixes = source.play(problem, kept.state, "Score sixes.")
    assert not sixes.done and sixes.state["total"] == 12 and "dice show 4 5" in sixes.observation
    end = source.play(problem, sixes.state, "chance")
    assert end.done and end.state["total"] == 21 and end.verdict.reward == 0  # v2: 4 5 scored with rerolls left
    line = sixes.state
    for move in ("keep 5", "keep 5", "score chance"):  # the optimal line: 19 on these dice, no expected points given up
        outcome = source.play(problem, line, move)
        line = outcome.state
    assert outcome.done and line["total"] == 19 and outcome.verdict.reward == 1
    weak = source.play(problem, source.play(problem, state, "score chance").state, "score sixes")
    assert weak.done and weak.state["total"] == 8 and weak.verdict.reward == 0  # some simple rule gives up nothing here


def test_yahtzee_lite_refuses_missing_dice_used_categories_and_a_third_reroll() -> None:
    source = make_source("games/yahtzee_lite")
    problem = two_dice_problem()
    state = source.initial_state(problem)
    missing = source.play(problem, state, "keep 5")
    assert not missing.done and not missing.verdict.parsed and "showing" in missing.observation
    used = source.play(problem, source.play(problem, state, "score sixes").state, "score sixes")
    assert not used.done and "not an open category" in used.observation
    twice = source.play(problem, source.play(problem, state, "keep none").state, "keep none").state
    third = source.play(problem, twice, "keep 3")
    assert not third.done and "no rerolls are left" in third.observation
    assert yahtzee_move("keep 6, score sixes") is None and yahtzee_move("Answer: reroll all") == ("keep", ())


def test_yahtzee_lite_oracle_scores_one_and_the_replay_matches() -> None:
    for level in range(5):
        total, _, replies = oracle_episode("games/yahtzee_lite", level, 5)
        assert total == 1
        problem = make_source("games/yahtzee_lite").sample(level, 5)
        assert palaestra.score(problem, replies).reward == 1


def test_yahtzee_lite_random_legal_play_scores_little_at_the_top_level() -> None:
    source = make_source("games/yahtzee_lite")
    rewards = []
    for seed in range(8):
        problem = source.sample(4, seed)
        state, rng, reward = source.initial_state(problem), random.Random(seed), 0.0
        for _ in range(source.max_turns(problem)):
            outcome = source.play(problem, state, rng.choice(source.legal_moves(problem, state)))
            state, reward = outcome.state, reward + outcome.verdict.reward
            if outcome.done:
                break
        rewards.append(reward)
    assert sum(rewards) / len(rewards) < 0.25
