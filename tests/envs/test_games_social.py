"""Cooperative and social multi-turn games: hand-checked positions, refused moves, replays, the oracle and random play."""

from __future__ import annotations

import itertools
import random

import palaestra
from palaestra.core import Problem
from palaestra.core.registry import make_source
from palaestra.envs.games import hanabi
from palaestra.kit.play import play_episode


def oracle_episode(env_id: str, level: int, seed: int) -> tuple[float, list[str]]:
    """The oracle's total reward and its moves, played through ``advance`` as a model's full replies."""
    source = make_source(env_id)
    problem = source.sample(level, seed)
    state, total, moves = source.initial_state(problem), 0.0, []
    for _ in range(source.max_turns(problem)):
        moves.append(source.oracle(problem, state))
        outcome = source.advance(problem, state, source.format_answer(moves[-1]))
        state, total = outcome.state, total + outcome.verdict.reward
        if outcome.done:
            break
    return total, moves


def random_mean(env_id: str, level: int, seeds: int) -> float:
    source = make_source(env_id)
    total = 0.0
    for seed in range(seeds):
        problem, rng = source.sample(level, seed), random.Random(seed)
        total += play_episode(source, problem, lambda state, history, p=problem: rng.choice(source.legal_moves(p, state)))[0]
    return total / seeds


# --- Hanabi ------------------------------------------------------------------

def hanabi_problem(deck: list[list[int]]) -> Problem:
    """Two colours (red 0, green 1), ranks 1-3, hands of three: the model holds deck[0:3], the partner deck[3:6]."""
    data = {"colours": 2, "ranks": 3, "hand": 3, "tokens": 2, "deck": deck, "best": 6, "way": 0, "zero": 2,
            "random": 1.5, "rule": 2}
    return Problem(env_id="games/hanabi", level=0, seed=0, data=data)


DECK = [[0, 1], [1, 2], [1, 1], [1, 3], [0, 2], [0, 1], [1, 1], [0, 3], [0, 1], [1, 2], [1, 1], [0, 2]]


def test_hanabi_hint_marks_the_newest_card_and_the_partner_plays_it() -> None:
    source = make_source("games/hanabi")
    problem = hanabi_problem(DECK)
    state = source.initial_state(problem)
    # "hint 1" points out only the partner's slot 3 (red 1): it is marked, and the partner plays it at once.
    outcome = source.play(problem, state, "hint 1")
    assert outcome.verdict.parsed and not outcome.done
    assert "slot 3 is marked to play" in outcome.observation
    assert "Your partner played slot 3: red 1, which fits" in outcome.observation
    assert outcome.state["stacks"] == [1, 0] and outcome.state["tokens"] == 1
    # The partner drew green 1. The model discards its red 1 (dead now) and draws red 3: it holds green 2, green 1,
    # red 3. Neither side holds a marked card, so the partner marks the model's newest playable card: green 1 in
    # slot 2 is the newest green, so "green" (colour first) points out slots 1 and 2 and marks slot 2.
    state = outcome.state
    outcome = source.play(problem, state, "discard 1")
    assert "You discarded slot 1: red 1." in outcome.observation
    assert "Your partner hinted green: your slots 1, 2; slot 2 is marked to play." in outcome.observation
    assert "Your hand: 1 [green ?] | 2 [green ? marked] | 3 [? ?]" in outcome.observation
    assert "green 2" not in outcome.observation.split("Your hand:")[1]  # the model's own cards are never shown


def test_hanabi_misplay_is_a_strike_and_illegal_moves_are_refused() -> None:
    source = make_source("games/hanabi")
    problem = hanabi_problem(DECK)
    state = source.initial_state(problem)
    outcome = source.play(problem, state, "play 2")  # green 2 on an empty green firework
    assert "green 2, which does not fit: strike 1 of 3" in outcome.observation and outcome.state["strikes"] == 1
    no_twos = {**state, "hands": [state["hands"][0], [[1, 3], [1, 3], [0, 1]]]}
    assert "the hint 2 points out no card" in source.play(problem, no_twos, "hint 2").observation
    for move, why in (("play 4", "there is no slot 4"),
                      ("hint yellow", "write one move"), ("play 1 then play 2", "write one move")):
        refused = source.play(problem, state, move)
        assert not refused.verdict.parsed and why in refused.observation and refused.state == state
    no_tokens = {**state, "tokens": 0}
    assert "no hint token is left" in source.play(problem, no_tokens, "hint red").observation


def test_hanabi_reads_moves_in_several_spellings() -> None:
    assert hanabi.read_move("\\boxed{discard slot 3}", 2, 3) == ("discard", 3)
    assert hanabi.read_move("Hint: green.", 2, 3) == ("colour", 1)
    assert hanabi.read_move("give a hint about rank 3", 2, 3) == ("rank", 3)
    assert hanabi.read_move("play 2 or discard 1", 2, 3) is None


def test_hanabi_oracle_scores_one_and_its_replay_matches() -> None:
    for level in range(5):
        total, moves = oracle_episode("games/hanabi", level, 11)
        assert abs(total - 1.0) < 1e-9
        problem = make_source("games/hanabi").sample(level, 11)
        assert abs(palaestra.score(problem.to_json(), [f"<answer>{m}</answer>" for m in moves]).reward - total) < 1e-9


def test_hanabi_random_legal_play_scores_about_zero_at_the_top_level() -> None:
    assert random_mean("games/hanabi", 4, 6) <= 0.15


# --- Codenames -----------------------------------------------------------------

def codenames_problem() -> Problem:
    """Board: 1 apple, 2 egg, 3 lemon (yours), 4 anchor, 5 bell (theirs), 6 cherry (neutral), 7 ship (assassin).
    "food": apple, egg, lemon, cherry; "sweet": apple, lemon, cherry; "white": egg; "old": anchor, bell, ship."""
    words = ["apple", "egg", "lemon", "anchor", "bell", "cherry", "ship"]
    roles = [0, 0, 0, 1, 1, 2, 3]
    data = {"words": words, "roles": roles, "clock": 2, "best": 2, "best_turns": 1, "zero": 0}
    return Problem(env_id="games/codenames", level=0, seed=0, data=data)


def test_codenames_guesser_follows_board_order_and_the_clock() -> None:
    source = make_source("games/codenames")
    problem = codenames_problem()
    state = source.initial_state(problem)
    best = source.play(problem, state, "food 3")  # apple, egg, lemon: all three in one clue
    assert best.done and best.verdict.reward == 1.0 and "you win" in best.observation
    # "sweet 9" reveals apple and lemon, then cherry (neutral) stops the guesser; the other team reveals anchor.
    slow = source.play(problem, state, "sweet 9")
    assert "the guesser reveals apple (yours), lemon (yours), cherry (neutral). The other team reveals anchor." \
        in slow.observation and not slow.done
    won = source.play(problem, slow.state, "white 1")  # egg: a win after 2 clues scores 2 + 1 - 2 = 1 of best 2
    assert won.done and abs(won.verdict.reward - 0.5) < 1e-9
    # "old 9" stops at anchor (theirs); the other team then reveals bell, its last word: the model loses.
    lost = source.play(problem, state, "old 9")
    assert lost.done and lost.verdict.reward == 0.0 and "All the other team's words are revealed" in lost.observation


def test_codenames_refuses_bad_clues() -> None:
    source = make_source("games/codenames")
    problem = codenames_problem()
    state = source.initial_state(problem)
    for move, why in (("purple 2", "not one of the attribute words"), ("food", "write one clue"),
                      ("food 2, sweet 1", "write one clue"), ("food 0", "write one clue")):
        refused = source.play(problem, state, move)
        assert not refused.verdict.parsed and why in refused.observation and refused.state == state


def test_codenames_reads_clues_in_several_spellings() -> None:
    from palaestra.envs.games.codenames import read_clue

    assert read_clue("My clue is: metal, 3.") == ("metal", 3)
    assert read_clue('"sky" for two') == ("sky", 2)
    assert read_clue("metal 3 or sky 2") is None


def test_codenames_oracle_scores_one_and_its_replay_matches() -> None:
    for level in range(5):
        total, moves = oracle_episode("games/codenames", level, 5)
        assert abs(total - 1.0) < 1e-9
        problem = make_source("games/codenames").sample(level, 5)
        assert abs(palaestra.score(problem.to_json(), [f"<answer>{m}</answer>" for m in moves]).reward - total) < 1e-9


def test_codenames_random_legal_clues_score_about_zero_at_the_top_level() -> None:
    assert random_mean("games/codenames", 4, 6) <= 0.1


# --- Werewolf ------------------------------------------------------------------

def werewolf_problem() -> Problem:
    """P2 and P5 are wolves among P1..P6; the morning's claims: P1 (villager) calls P2 a wolf, P2 (wolf) calls P5
    a villager, P3 (villager) calls P4 a villager."""
    roles = [0, 1, 0, 0, 1, 0]
    claims = [[0, 1, 1], [1, 4, 0], [2, 3, 0]]
    data = {"players": 6, "wolves": 2, "claims": claims, "roles": roles, "questions": 1, "candidates": 2}
    prompt = "This morning's claims:\nP1: P2 is a wolf.\nP2: P5 is a villager.\nP3: P4 is a villager.\n"
    return Problem(env_id="games/werewolf", level=0, seed=0, prompt=prompt, data=data)


def test_werewolf_answers_follow_the_rules_and_votes_reveal_roles() -> None:
    source = make_source("games/werewolf")
    problem = werewolf_problem()
    state = source.initial_state(problem)
    truthful = source.play(problem, state, "ask P3 about P5")  # a villager tells the truth
    assert "P3: P5 is a wolf. Questions left: 0." in truthful.observation
    lying = source.play(problem, state, "ask P5 about P6")  # a wolf calls a villager a wolf
    assert "P5: P6 is a wolf." in lying.observation
    first = source.play(problem, state, "vote P2")
    assert "P2 was a wolf. Wolves left: 1." in first.observation and not first.done
    won = source.play(problem, first.state, "vote P5")
    assert won.done and won.verdict.correct and "the village wins" in won.observation
    lost = source.play(problem, state, "vote P1")
    assert lost.done and not lost.verdict.correct and lost.verdict.reward == 0.0


def test_werewolf_refuses_bad_moves() -> None:
    source = make_source("games/werewolf")
    problem = werewolf_problem()
    state = source.initial_state(problem)
    spent = {**state, "asked": 1}
    for move, at, why in (("ask P3 about P3", state, "about another player"), ("vote P9", state, "no player P9"),
                          ("ask P1 about P4", spent, "no questions are left"),
                          ("vote P2 then vote P5", state, "write one move")):
        refused = source.play(problem, at, move)
        assert not refused.verdict.parsed and why in refused.observation and refused.state == at


def test_werewolf_honest_player_deduces_from_the_claims_and_answers() -> None:
    """The claims link P1-P2-P5 (P1 and P2 differ, P2 and P5 alike) and P3-P4 (alike); P6 stands alone. With two
    wolves the pair P3-P4 must be villagers, and the wolves are {P2, P5} or {P1, P6}: the honest player asks P1
    about a certain villager (P3), whose answer settles P1's side."""
    source = make_source("games/werewolf")
    problem = werewolf_problem()
    move = source.honest_move(source.view(problem, ()))
    assert move == "ask P1 about P3"
    answer = source.play(problem, source.initial_state(problem), move)
    assert "P1: P3 is a villager." in answer.observation
    assert source.honest_move(source.view(problem, ((move, answer.observation),))) == "vote P2"


def test_werewolf_oracle_wins_and_its_replay_matches() -> None:
    for level in range(5):
        total, moves = oracle_episode("games/werewolf", level, 2)
        assert total == 1.0
        problem = make_source("games/werewolf").sample(level, 2)
        assert palaestra.score(problem.to_json(), [f"<answer>{m}</answer>" for m in moves]).reward == 1.0


def test_werewolf_random_legal_play_rarely_wins() -> None:
    assert random_mean("games/werewolf", 4, 8) <= 0.125


# --- Trading -------------------------------------------------------------------

def trading_problem() -> Problem:
    """Goods wheat (2 points a unit) and wool (3); 6 of each; target 2 ore. Trader A holds 1 ore and values
    wheat 2, wool 6, ore 5; trader B holds 2 ore and values wheat 4, wool 1, ore 3."""
    data = {"goods": ["wheat", "wool"], "points": [2, 3], "holding": [6, 6], "target": 2, "stocks": [1, 2],
            "turns": 8, "values": [[2, 6], [4, 1]], "ore_values": [5, 3], "best": 26, "zero": 20}
    return Problem(env_id="games/trading", level=0, seed=0, data=data)


def test_trading_traders_accept_by_their_private_values() -> None:
    source = make_source("games/trading")
    problem = trading_problem()
    state = source.initial_state(problem)
    refused = source.play(problem, state, "offer A 2 wheat for 1 ore")  # 2 * 2 < 5
    assert "Trader A refuses 2 wheat for 1 ore." in refused.observation and refused.state == state
    accepted = source.play(problem, state, "offer A 1 wool for 1 ore")  # 6 >= 5
    assert "Trader A accepts" in accepted.observation and accepted.state["holding"] == [6, 5]
    # The goods start at 30 points. 1 wool to A, then 1 wheat to B (4 >= 3): 5 points paid, 25 left, while the
    # best (2 wheat to B for 2 ore) leaves 26: the reward is (25 - 20) / (26 - 20).
    assert source.oracle(problem, state) == "offer B 2 wheat for 2 ore"
    done = source.play(problem, accepted.state, "offer B 1 wheat for 1 ore")
    assert done.done and "25 points of goods left" in done.observation
    assert abs(done.verdict.reward - 5 / 6) < 1e-9 and not done.verdict.correct


def test_trading_best_plan_is_the_cheapest_pair_of_swaps() -> None:
    from palaestra.envs.games import trading

    data = trading_problem().data
    plan = trading._best_plan(trading._market(data), (6, 6), 2, (1, 2))
    paid = sum(data["points"][good] * units for _, good, units, _ in plan)
    assert paid == 4  # 2 wheat to B for 2 ore (8 >= 6): 4 points, cheaper than 1 wool + 1 wheat (5 points)
    assert trading._best_left(trading._market(data), (6, 6), 2, (1, 2)) == 26


def test_trading_refuses_illegal_offers() -> None:
    source = make_source("games/trading")
    problem = trading_problem()
    state = source.initial_state(problem)
    for move, why in (("offer A 1 wool for 2 ore", "holds only 1 ore"), ("offer B 7 wheat for 1 ore", "only 6 wheat"),
                      ("offer C 1 wool for 1 ore", "write one offer"), ("offer A 1 wool for 1 ore, offer B 1 wheat "
                                                                         "for 1 ore", "write one offer")):
        refused = source.play(problem, state, move)
        assert not refused.verdict.parsed and why in refused.observation and refused.state == state


def test_trading_oracle_scores_one_and_its_replay_matches() -> None:
    for level in range(5):
        total, moves = oracle_episode("games/trading", level, 4)
        assert abs(total - 1.0) < 1e-9
        problem = make_source("games/trading").sample(level, 4)
        assert abs(palaestra.score(problem.to_json(), [f"<answer>{m}</answer>" for m in moves]).reward - total) < 1e-9


def test_trading_random_legal_offers_score_about_zero_at_the_top_level() -> None:
    assert random_mean("games/trading", 4, 6) <= 0.15


# --- Resistance ----------------------------------------------------------------

def resistance_problem() -> Problem:
    """P2 and P5 are spies among P1..P6; teams of 3; 2 successes win, 2 failures lose. One earlier mission:
    P1, P2, P3 with 1 sabotage card."""
    data = {"players": 6, "spies": [1, 4], "spy_count": 2, "team": 3, "successes": 2, "failures": 2,
            "earlier": [[[0, 1, 2], 1]], "open": 6}
    prompt = "Earlier missions, led by others:\nMission with P1, P2, P3: 1 sabotage card.\n"
    return Problem(env_id="games/resistance", level=0, seed=0, prompt=prompt, data=data)


def test_resistance_counts_sabotage_and_ends_on_the_stated_totals() -> None:
    source = make_source("games/resistance")
    problem = resistance_problem()
    state = source.initial_state(problem)
    failed = source.play(problem, state, "propose P2, P5, P6")
    assert "Mission 1 with P2, P5, P6: 2 sabotage cards: failure." in failed.observation and not failed.done
    lost = source.play(problem, failed.state, "propose P1 P2 P3")
    assert lost.done and not lost.verdict.correct and "The spies win." in lost.observation
    first = source.play(problem, state, "team: P1, P3 and P4")
    won = source.play(problem, first.state, "propose P4 P3 P1")
    assert won.done and won.verdict.correct and "You win." in won.observation


def test_resistance_refuses_bad_teams() -> None:
    source = make_source("games/resistance")
    problem = resistance_problem()
    state = source.initial_state(problem)
    for move, why in (("propose P1 P1 P3", "3 different players"), ("propose P1 P3", "3 different players"),
                      ("propose P1 P3 P9", "p1 to p6"), ("propose P1 P3 P4 then propose P1 P3 P6", "one move per turn")):
        refused = source.advance(problem, state, f"<answer>{move}</answer>")
        assert not refused.verdict.parsed and why in refused.observation.lower() and refused.state == state


def test_resistance_honest_player_uses_the_earlier_missions() -> None:
    """One of P1-P3 is a spy, so the other spy is among P4-P6: of the 15 spy sets 9 remain, and P4, P5, P6 holds a
    spy in all of them; the team spy-free under the most sets is found by counting."""
    from palaestra.envs.games import resistance

    consistent = resistance._consistent(6, 2, ((((0, 1, 2)), 1),))
    assert len(consistent) == 9
    team = resistance._likeliest_team(6, 2, 3, ((((0, 1, 2)), 1),))
    free = sum(1 for spies in consistent if not spies.intersection(team))
    assert free == max(sum(1 for spies in consistent if not spies.intersection(other))
                       for other in itertools.combinations(range(6), 3))
    source = make_source("games/resistance")
    assert source.honest_move(source.view(resistance_problem(), ())) == resistance._spell(team)


def test_resistance_oracle_wins_and_its_replay_matches() -> None:
    for level in range(5):
        total, moves = oracle_episode("games/resistance", level, 3)
        assert total == 1.0
        problem = make_source("games/resistance").sample(level, 3)
        assert palaestra.score(problem.to_json(), [f"<answer>{m}</answer>" for m in moves]).reward == 1.0


def test_resistance_random_legal_teams_rarely_win() -> None:
    assert random_mean("games/resistance", 4, 8) <= 0.125


# --- Ultimatum -----------------------------------------------------------------

def ultimatum_problem() -> Problem:
    """R1 steady with threshold 3, R2 resentful with threshold 4; four rounds (R1, R2, R1, R2). The best keeps
    (10 - 3) + (10 - 4) twice: 26."""
    data = {"kinds": [0, 1], "thresholds": [3, 4], "responders": 2, "rounds": 4, "best": 26, "zero": 10}
    return Problem(env_id="games/ultimatum", level=0, seed=0, prompt="Round 1: R1. Write your offer.", data=data)


def test_ultimatum_thresholds_and_resentment() -> None:
    source = make_source("games/ultimatum")
    problem = ultimatum_problem()
    state = source.initial_state(problem)
    first = source.play(problem, state, "offer 2")  # R1 steady 3: refused, stays 3
    assert "Round 1: you offered R1 2 coins: refused." in first.observation and "Round 2: R2." in first.observation
    second = source.play(problem, first.state, "offer 3")  # R2 resentful 4: refused, rises to 5
    assert "refused" in second.observation
    third = source.play(problem, second.state, "offer 3")  # R1 accepts 3: keeps 7
    assert "accepted. You have kept 7 coins." in third.observation
    fourth = source.play(problem, third.state, "offer 4")  # R2 is at 5 now: 4 is refused
    assert fourth.done and "R2 4 coins: refused" in fourth.observation
    assert abs(fourth.verdict.reward - 0.0) < 1e-9  # kept 7, below the zero of 10
    best = state
    for offer in (3, 4, 3, 4):
        outcome = source.play(problem, best, f"offer {offer}")
        best = outcome.state
    assert outcome.done and outcome.verdict.reward == 1.0 and best["kept"] == 26


def test_ultimatum_refuses_bad_offers() -> None:
    source = make_source("games/ultimatum")
    problem = ultimatum_problem()
    state = source.initial_state(problem)
    for move in ("offer 11", "offer six", "offer 5 then 4", "offer -1"):
        refused = source.play(problem, state, move)
        assert not refused.verdict.parsed and "offer of 0 to 10 coins" in refused.observation and refused.state == state


def test_ultimatum_honest_player_probes_per_responder() -> None:
    source = make_source("games/ultimatum")
    problem = ultimatum_problem()
    problem.data["rounds"] = 12  # six rounds each: room to probe
    history: tuple[tuple[str, str], ...] = ()
    state = source.initial_state(problem)
    moves = []
    for _ in range(12):
        moves.append(int(source.honest_move(source.view(problem, history)).split()[1]))
        outcome = source.play(problem, state, f"offer {moves[-1]}")
        state, history = outcome.state, (*history, (f"offer {moves[-1]}", outcome.observation))
    to_r1, to_r2 = moves[0::2], moves[1::2]
    assert to_r1[0] > 3 and to_r1[-3:] == [3, 3, 3]  # probes down from a safe opening, then keeps the steady threshold
    refused = next(i for i, offer in enumerate(to_r2) if offer < 4)  # R2 (resentful, 4) refuses a probe below 4 ...
    assert all(offer >= 5 for offer in to_r2[refused + 1:])  # ... and is offered its raised threshold afterwards
    assert state["kept"] > 12 * 5  # more than the best constant offer (5 to both) keeps


def test_ultimatum_oracle_scores_one_and_its_replay_matches() -> None:
    for level in range(5):
        total, moves = oracle_episode("games/ultimatum", level, 6)
        assert abs(total - 1.0) < 1e-9
        problem = make_source("games/ultimatum").sample(level, 6)
        assert abs(palaestra.score(problem.to_json(), [f"<answer>{m}</answer>" for m in moves]).reward - total) < 1e-9


def test_ultimatum_random_offers_score_about_zero_at_the_top_level() -> None:
    assert random_mean("games/ultimatum", 4, 6) <= 0.15
