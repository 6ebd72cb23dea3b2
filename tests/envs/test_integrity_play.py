"""Reward integrity of the multi-turn games (issue 21, items 7 and 8): no reward without playing well.

Each test pins one fix: score-based games are normalised to regret (random play about 0, simple
rules poor at the top level), dots and boxes positions defeat box-taking rules, and games that
claim one move per turn refuse a whole plan.
"""

from __future__ import annotations

import random
import re

import pytest

from palaestra.core import MultiTurnTask, make_source
from palaestra.envs.code import test_feedback
from palaestra.envs.games import blackjack, dots_and_boxes, kuhn_poker, multi_armed_bandit, sealed_bid_auction
from palaestra.envs.games._words import words
from palaestra.envs.interactive import equation_steps


def play(source: MultiTurnTask, problem, choose) -> tuple[float, list]:
    """(total reward, outcomes) of ``choose(state) -> bare move`` played to the end or the turn budget."""
    state, total, outcomes = source.initial_state(problem), 0.0, []
    for _ in range(source.max_turns(problem)):
        outcome = source.play(problem, state, choose(state))
        outcomes.append(outcome)
        total += outcome.verdict.reward
        state = outcome.state
        if outcome.done:
            break
    return total, outcomes


def rule_score(env_id: str, name: str, level: int, seed: int) -> float:
    source = make_source(env_id)
    problem = source.sample(level, seed)
    rule = source.heuristics()[name]
    rng = random.Random(seed)
    history: list[tuple[str, str]] = []

    def choose(state):
        return rule(problem, state, tuple(history), rng)

    state, total = source.initial_state(problem), 0.0
    for _ in range(source.max_turns(problem)):
        move = choose(state)
        outcome = source.play(problem, state, move)
        history.append((move, outcome.observation))
        total += outcome.verdict.reward
        state = outcome.state
        if outcome.done:
            break
    return total


# --- item 7: scored games normalised to regret ----------------------------------------------------

def test_bandit_round_robin_scores_zero_and_the_best_arm_one():
    source = make_source("games/multi_armed_bandit")
    for seed in range(3):
        problem = source.sample(1, seed)
        labels, horizon = problem.data["labels"], problem.data["horizon"]
        assert horizon % len(labels) == 0
        cycled, _ = play(source, problem, lambda state: labels[state["turn"] % len(labels)])
        assert cycled == pytest.approx(0.0, abs=1e-9)  # pulling every machine equally is random play's mean
        best, outcomes = play(source, problem, lambda state: problem.answer)
        assert best == pytest.approx(1.0) and sum(o.verdict.reward > 0 for o in outcomes) == 1  # paid at the end


def test_bandit_commit_after_one_pull_is_poor_at_the_top_level():
    scores = [rule_score("games/multi_armed_bandit", "explore then commit, 1 pull each", 4, s) for s in range(16)]
    assert sum(scores) / len(scores) < 0.5


@pytest.mark.parametrize("rule", ["bid half", "bid n/(n+1) of the value"])
def test_auction_simple_rules_earn_at_most_the_level_share(rule):
    for seed in range(5):
        assert rule_score("games/sealed_bid_auction", rule, 4, seed) <= 0.3 + 1e-9


def test_auction_random_bid_mean_is_the_zero_point():
    """A bid drawn uniformly from 0..value has exactly the mean surplus the score subtracts."""
    caps, value = [[20, 90], [40, 120]], 150
    mean = sum(sealed_bid_auction._surplus(b, value, caps) for b in range(value + 1)) / (value + 1)
    best = sealed_bid_auction._surplus(sealed_bid_auction._best_bid(value, caps), value, caps)
    assert 0 < mean < best


@pytest.mark.parametrize("rule", ["hit below 17", "stand on 12 or more"])
def test_blackjack_simple_rules_earn_little_at_the_top_level(rule):
    for seed in range(4):
        assert rule_score("games/blackjack", rule, 4, seed) <= 0.4 + 1e-9


@pytest.mark.parametrize("reply", ["double", "hit", "stand"])
def test_blackjack_one_reply_repeated_earns_little(reply):
    """Version 2 chose hands against hitting and standing alone, which left mostly hands for doubling:
    "double" every turn scored 0.8 at the top level. Doubling is now a rule the hands are drawn against."""
    source = make_source("games/blackjack")
    for level in (2, 4):
        scores = []
        for seed in range(6):
            problem = source.sample(level, seed)
            total, _ = play(source, problem, lambda state: reply)
            scores.append(total)
        assert sum(scores) / len(scores) <= 0.2, (level, scores)


def test_blackjack_doubling_rule_earns_little_at_the_top_level():
    for seed in range(4):
        assert rule_score("games/blackjack", "double when allowed", 4, seed) <= 0.4 + 1e-9


def test_blackjack_random_value_matches_a_simulation():
    """The exact value of random decisions (the zero point) against a Monte Carlo estimate."""
    rng = random.Random(3)
    total, up, hits = 0.0, 10, 20_000
    for _ in range(hits):
        cards = [12, False]
        while True:
            if cards[0] >= 21 or rng.random() < 0.5:
                total += blackjack._stand_value(cards[0], up, False) if cards[0] <= 21 else -1.0
                break
            value = rng.choice([2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11])
            cards = list(blackjack._add(cards[0], cards[1], value))
    assert total / hits == pytest.approx(blackjack._random_value(12, False, up, False, False), abs=0.03)


@pytest.mark.parametrize("rule", ["bet and call with the top half of the deck", "always check or call"])
def test_kuhn_simple_rules_earn_at_most_the_level_share(rule):
    for seed in range(4):
        assert rule_score("games/kuhn_poker", rule, 4, seed) <= 0.4 + 1e-9


def test_kuhn_honest_player_learns_without_the_strategy():
    source = make_source("games/kuhn_poker")
    scores = []
    for seed in range(6):
        problem = source.sample(4, seed)
        history: list[tuple[str, str]] = []
        state, total = source.initial_state(problem), 0.0
        for _ in range(source.max_turns(problem)):
            move = source.honest_move(source.view(problem, tuple(history)))
            outcome = source.play(problem, state, move)
            history.append((move, outcome.observation))
            total, state = total + outcome.verdict.reward, outcome.state
            if outcome.done:
                break
        scores.append(total)
    assert "strategy" not in source.view(problem).public and sum(scores) / len(scores) > 0.5


def test_pricing_fixed_markups_are_poor():
    for rule in ("twice the cost", "cost plus $30", "cost plus $100"):
        scores = [rule_score("games/dynamic_pricing", rule, 4, s) for s in range(10)]
        assert sum(scores) / len(scores) < 0.5, rule


def test_dots_and_boxes_rules_mostly_lose_and_less_with_the_level():
    source = make_source("games/dots_and_boxes")
    for level, cap in ((0, 0.6), (4, 0.3)):
        for seed in range(3):
            data = source.sample(level, seed).data
            for rule in (dots_and_boxes._any_line, dots_and_boxes._safe_line):
                chance = dots_and_boxes._rule_win_chance(data["rows"], data["cols"], rule, data["drawn"],
                                                         data["mine"] - data["theirs"])
                assert chance <= cap + 1e-9


def test_multi_armed_bandit_honest_player_reads_only_payouts():
    source = make_source("games/multi_armed_bandit")
    problem = source.sample(0, 0)
    view = source.view(problem)
    assert set(view.public) == {"labels", "horizon", "gaussian", "noise"}
    assert multi_armed_bandit._payouts((("A", "Machine A paid 1."), ("B", "Machine B paid -0.4."))) == \
        {"A": [1.0], "B": [-0.4]}


# --- item 8: multi-turn that is multi-turn --------------------------------------------------------

def test_equation_steps_refuses_the_answer_on_turn_one():
    source = make_source("interactive/equation_steps")
    for level in range(5):
        for seed in range(3):
            problem = source.sample(level, seed)
            start = source.initial_state(problem)
            jump = source.play(problem, start, problem.answer)
            assert jump.verdict.reward == 0.0 and not jump.done and "one step" in jump.observation
            assert jump.state["equation"] == start["equation"] and jump.state["mistakes"] == 1


def test_equation_steps_single_steps():
    F = equation_steps.Fraction
    before = ((F(5), F(3)), (F(2), F(9)))  # 5x + 3 = 2x + 9
    assert equation_steps.single_step(before, ((F(3), F(0)), (F(0), F(6))))  # subtract 2x + 3
    assert equation_steps.single_step(before, ((F(2), F(9)), (F(5), F(3))))  # swap the sides
    assert equation_steps.single_step(before, ((F(10), F(6)), (F(4), F(18))))  # double both sides
    assert not equation_steps.single_step(before, ((F(1), F(0)), (F(0), F(2))))  # x = 2: two steps


def test_sokoban_refuses_a_plan_in_one_reply():
    source = make_source("games/sokoban")
    problem = source.sample(2, 0)
    start = source.initial_state(problem)
    plan = "".join(problem.data["solution"])
    for reply in (plan, " ".join(plan), ", ".join(plan[:3])):
        outcome = source.play(problem, start, reply)
        assert not outcome.verdict.parsed and outcome.state == start and "one move per turn" in outcome.observation
    total, _ = play(source, problem, lambda state: source.oracle(problem, state))
    assert total == 1.0


def test_test_feedback_never_echoes_hidden_tests():
    source = make_source("code/test_feedback")
    for seed in range(3):
        problem = source.sample(0, seed)
        tests, visible = problem.data["tests"], problem.data["visible"]
        hidden = tests[visible:]
        # The exploit of the issue: a function answering every echoed input with its echoed expected value.
        table: dict[str, str] = {}  # the echoed call's argument text -> the echoed expected value's text
        state, observations = source.initial_state(problem), []
        for _ in range(source.max_turns(problem)):
            lookup = "".join(f"    if repr(args) == {'(' + call + ',)'!r}:\n        return {expected}\n"
                             for call, expected in table.items())
            outcome = source.play(problem, state, f"def solve(*args):\n{lookup}    return None\n")
            state = outcome.state
            observations.append(outcome.observation)
            table.update(re.findall(r"- solve\((.*)\) returned .*, expected (.*)", outcome.observation))
            if outcome.done:
                break
        assert not outcome.verdict.correct
        text = "\n".join(observations)
        for test in hidden:
            assert repr(test["expected"]) not in text or test["expected"] in [t["expected"] for t in tests[:visible]]
        assert all("hidden tests:" in o for o in observations)
    assert test_feedback.TestFeedback.version >= 3


def test_word_games_name_their_public_list():
    for env_id in ("games/wordle", "games/absurdle", "games/hangman"):
        problem = make_source(env_id).sample(1, 0)
        assert "palaestra/envs/games/words.txt" in problem.prompt and f"{len(words()):,}" in problem.prompt


def test_word_ladder_shows_its_allowed_words_and_refuses_others():
    source = make_source("games/word_ladder")
    problem = source.sample(2, 1)
    allowed = problem.data["allowed"]
    assert " ".join(allowed) in problem.prompt
    start = source.initial_state(problem)
    outsider = next(w for w in words() if w not in allowed)
    refused = source.play(problem, start, outsider)
    assert refused.state == start and not refused.verdict.correct and "not an allowed word" in refused.observation
    total, _ = play(source, problem, lambda state: source.oracle(problem, state))
    assert total == 1.0 and kuhn_poker.KuhnPoker.version >= 2


@pytest.mark.parametrize("env_id", ["games/multi_armed_bandit", "games/contextual_bandit", "games/dynamic_pricing",
                                    "games/sealed_bid_auction"])
def test_an_unreadable_last_move_ends_a_score_game_judged_not_errored(env_id: str) -> None:
    """The final turn's regret-normalised reward is paid even when that turn's move is unreadable."""
    import palaestra

    env = palaestra.make(env_id, level=1)
    env.reset(seed=3)
    for _ in range(500):
        obs, reward, terminated, truncated, info = env.step(env.oracle_action())
        if terminated or truncated:
            break
        if env.turn + 1 >= env.source.max_turns(env.problem):  # the last turn: an unreadable move
            obs, reward, terminated, truncated, info = env.step("<answer>???</answer>")
            break
    assert "error" not in info, info.get("error")
    assert terminated or truncated


@pytest.mark.parametrize(("env_id", "plans"), [
    ("games/kuhn_poker", ("bet, call", "check then fold", "bet\ncall")),
    ("games/blackjack", ("hit, stand", "hit then double", "stand\nhit")),
])
def test_card_games_name_a_plan_whose_later_moves_are_illegal_now(env_id: str, plans: tuple[str, ...]) -> None:
    # each plan's second action is not allowed until the first is answered: still a plan, said as such
    source = make_source(env_id)
    problem = source.sample(1, 0)
    state = source.initial_state(problem)
    for plan in plans:
        outcome = source.advance(problem, state, source.format_answer(plan))
        assert not outcome.verdict.parsed and "One move per turn" in outcome.observation, (plan, outcome.observation)
    single = source.advance(problem, state, source.format_answer(source.oracle(problem, state)))
    assert single.verdict.parsed and "one move per turn" not in single.observation.lower()
