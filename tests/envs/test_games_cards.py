"""Card games (issue #27): hand-checked positions, refused moves and plans, replays, the oracle winning, random
legal play losing."""

from __future__ import annotations

import random

import pytest

import palaestra
from palaestra.core import Problem
from palaestra.core.registry import make_source
from palaestra.envs.games._cards import card, card_name, cards_text, parse_names, read_card_name


def names(text: str) -> list[int]:
    return parse_names(text)


def oracle_episode(env_id: str, level: int, seed: int) -> tuple[float, bool, list[str]]:
    """(total reward, won, replies) of the oracle's game through ``advance`` (full replies, as a model's)."""
    source = make_source(env_id)
    problem = source.sample(level, seed)
    state, total, replies = source.initial_state(problem), 0.0, []
    for _ in range(source.max_turns(problem)):
        replies.append(source.format_answer(source.oracle(problem, state)))
        outcome = source.advance(problem, state, replies[-1])
        state, total = outcome.state, total + outcome.verdict.reward
        if outcome.done:
            return total, bool(outcome.verdict.correct), replies
    return total, False, replies


def random_legal_wins(env_id: str, level: int, seeds: range) -> int:
    source = make_source(env_id)
    wins = 0
    for seed in seeds:
        problem, rng = source.sample(level, seed), random.Random(seed)
        state = source.initial_state(problem)
        for _ in range(source.max_turns(problem)):
            outcome = source.advance(problem, state, source.format_answer(rng.choice(source.legal_moves(problem, state))))
            state = outcome.state
            if outcome.done:
                wins += bool(outcome.verdict.correct)
                break
    return wins


# --- shared cards -------------------------------------------------------------

def test_card_names_read_in_every_careful_spelling() -> None:
    queen_of_spades = card(12, 3)
    for text in ("QS", "q s", "Queen of Spades", "Q♠", "queen spade"):
        assert read_card_name(text) == queen_of_spades, text
    assert read_card_name("10h") == read_card_name("T of hearts") == card(10, 2)
    assert read_card_name("QS KS") is None and read_card_name("11H") is None
    assert cards_text(names("KS AC 10H 2C")) == "AC 2C 10H KS" and card_name(card(1, 1)) == "AD"


# --- gin rummy ----------------------------------------------------------------

def gin_problem() -> Problem:
    """The model holds a club run and a pair of sevens; the 7S on the pile makes gin. The opponent's 9C 9H wait for
    the 9S, second in the stock."""
    data = {"mine": names("AC 2C 3C 7D 7H KS"), "theirs": names("9C 4D 5D 6D 9H QS"), "upcard": names("7S")[0],
            "stock": names("2H 9S 5C 5S 8C 8D"), "ranks": 13, "knock": 10, "opponent_knock": 2, "noise": 0.0,
            "rounds": 8, "tape": 1, "oracle_rounds": 1}
    return Problem(env_id="games/gin_rummy", level=0, seed=0, data=data)


def test_gin_rummy_deadwood_takes_the_best_melds() -> None:
    from palaestra.envs.games import gin_rummy

    def deadwood(text: str) -> int:
        return gin_rummy._deadwood(sum(1 << c for c in names(text)))

    assert deadwood("AC 2C 3C 4C 4D 4H") == 0  # the run A-3 and the set of fours, not the run A-4
    assert deadwood("AC 2C 3C 7D 7H KS") == 24  # 7 + 7 + 10
    assert deadwood("QH KH AC 2D") == 23  # no wrapping run, no meld: 10 + 10 + 1 + 2


def test_gin_rummy_taking_the_seven_makes_gin() -> None:
    source = make_source("games/gin_rummy")
    problem = gin_problem()
    state = source.initial_state(problem)
    taken = source.play(problem, state, "take 7S")
    assert not taken.done and "Your hand: AC 2C 3C 7D 7H 7S KS" in taken.observation
    won = source.play(problem, taken.state, "Knock with the king of spades.")
    assert won.done and won.verdict.correct and won.verdict.reward == 1
    assert "(deadwood 0)" in won.observation and "You win the hand!" in won.observation


def test_gin_rummy_opponent_follows_its_rule_and_knocks() -> None:
    source = make_source("games/gin_rummy")
    problem = gin_problem()
    state = source.play(problem, source.initial_state(problem), "draw").state  # the 2H
    outcome = source.play(problem, state, "discard KS")
    # KS does not lower the opponent's deadwood, so it draws the 9S, melds three nines and knocks with QS
    assert "The opponent draws from the stock and knocks, discarding QS." in outcome.observation
    assert outcome.done and not outcome.verdict.correct and outcome.verdict.reward == 0


def test_gin_rummy_refuses_illegal_moves_with_the_reason() -> None:
    source = make_source("games/gin_rummy")
    problem = gin_problem()
    state = source.initial_state(problem)
    assert "draw first" in source.play(problem, state, "discard KS").observation
    assert "not 9S" in source.play(problem, state, "take 9S").observation
    taken = source.play(problem, state, "take").state
    for move, reason in (("discard 7S", "the card you just took"), ("discard 5H", "5H is not in your hand"),
                         ("knock AC", "deadwood is 15, over the knock limit 10"), ("draw", "you have drawn")):
        outcome = source.play(problem, taken, move)
        assert not outcome.verdict.parsed and outcome.state == taken and reason in outcome.observation, move
    plan = source.advance(problem, state, source.format_answer("take, then knock KS"))
    assert not plan.verdict.parsed and "one move per turn" in plan.observation.lower()


def test_gin_rummy_oracle_wins_and_replays() -> None:
    for level in (0, 4):
        reward, won, replies = oracle_episode("games/gin_rummy", level, 5)
        assert won and reward == 1
        problem = make_source("games/gin_rummy").sample(level, 5)
        assert palaestra.score(problem.to_json(), replies).reward == reward


def test_gin_rummy_random_legal_play_loses_at_the_top_level() -> None:
    assert random_legal_wins("games/gin_rummy", 4, range(8)) <= 1


# --- klondike -----------------------------------------------------------------

def klondike_problem() -> Problem:
    """Ranks A and 2 only: 2S face up in column 1; AD face up over a face-down 2C in column 2; the stock AH AS AC 2D
    2H. Random play's baseline is 2 of the 8 cards."""
    data = {"ranks": 2, "columns": [names("2S"), names("2C AD")], "stock": names("AH AS AC 2D 2H"), "redeals": 1,
            "line": ["AD to foundation"], "budget": 30, "baseline": 2, "random": 1.0}
    return Problem(env_id="games/klondike", level=0, seed=0, data=data)


def test_klondike_pays_each_foundation_card_past_the_baseline() -> None:
    source = make_source("games/klondike")
    problem = klondike_problem()
    state, rewards = source.initial_state(problem), []
    for move in ("AD to foundation", "draw", "Move the ace of hearts to the foundation.", "draw", "AS to foundation",
                 "2S to foundation", "draw", "AC to foundation", "2C to foundation"):
        outcome = source.play(problem, state, move)
        assert outcome.verdict.parsed, (move, outcome.observation)
        state = outcome.state
        rewards.append(outcome.verdict.reward)
    assert "2C is turned up in column 2" in source.play(problem, source.initial_state(problem),
                                                        "AD to foundation").observation
    assert rewards == pytest.approx([0, 0, 0, 0, 1 / 6, 1 / 6, 0, 1 / 6, 1 / 6])  # counts 3..6 each pay 1/(8 - 2)
    assert not outcome.done and "Foundations: 2C, AD, AH, 2S." in outcome.observation


def test_klondike_refuses_illegal_moves_with_the_reason() -> None:
    source = make_source("games/klondike")
    problem = klondike_problem()
    state = source.initial_state(problem)
    for move, reason in (("2S to foundation", "does not continue its foundation"),
                         ("2H to column 1", "2H is not a face-up card you can move"),
                         ("2S to column 2", "does not fit on column 2"), ("AD to column 7", "there is no column 7")):
        outcome = source.play(problem, state, move)
        assert not outcome.verdict.parsed and outcome.state == state and reason in outcome.observation, move
    plan = source.advance(problem, state, source.format_answer("AD to foundation, then draw"))
    assert not plan.verdict.parsed and "one move per turn" in plan.observation.lower()


def test_klondike_oracle_clears_the_deal_and_replays() -> None:
    for level in (0, 4):
        reward, won, replies = oracle_episode("games/klondike", level, 2)
        assert won and abs(reward - 1) < 1e-9
        problem = make_source("games/klondike").sample(level, 2)
        assert abs(palaestra.score(problem.to_json(), replies).reward - reward) < 1e-9


def test_klondike_random_legal_play_scores_about_nothing_at_the_top_level() -> None:
    source = make_source("games/klondike")
    total = 0.0
    for seed in range(6):
        problem, rng = source.sample(4, seed), random.Random(seed)
        state = source.initial_state(problem)
        for _ in range(source.max_turns(problem)):
            outcome = source.advance(problem, state, source.format_answer(rng.choice(source.legal_moves(problem, state))))
            state, total = outcome.state, total + outcome.verdict.reward
            if outcome.done:
                break
    assert total / 6 <= 0.1


# --- liar's dice --------------------------------------------------------------

def test_liars_dice_reads_bids_and_calls() -> None:
    from palaestra.envs.games.liars_dice import read_move

    assert read_move("Bid 3 fives.") == read_move("3x5") == read_move("three 5s") == (3, 5)
    assert read_move("Liar!") == read_move("I call") == "liar"
    assert read_move("3 fives or liar") is None and read_move("0 fives") is None


def test_liars_dice_opponent_rule_counts_its_own_dice() -> None:
    from palaestra.envs.games.liars_dice import MODEL, _rule

    # two fives in hand: "1 five" is sure, so it raises; "2 fives" (sure) beats "1 six" (31% likely)
    assert _rule((5, 5), 2, ((1, 5),), MODEL) == (2, 5)
    # four threes cannot be true with no three in hand and two unseen dice (one of them taken as a three)
    assert _rule((1, 2), 2, ((4, 3),), MODEL) == "liar"


def test_liars_dice_a_called_lie_costs_the_bidder_a_die() -> None:
    from palaestra.envs.games import liars_dice

    data = {"dice": 2, "opponent_dice": 2, "tape": 11, "oracle_turns": 1}
    mine, theirs = liars_dice._roll(data, 0, 2, 2)
    face = mine[0]
    shown = mine.count(face) + theirs.count(face)
    state = {**liars_dice._start(data), "bids": [[shown + 1, face]]}  # the model's false bid, called
    after, said = liars_dice._settle(data, state, liars_dice.OPPONENT)
    assert after["mine"] == 1 and after["theirs"] == 2 and after["starter"] == liars_dice.MODEL
    assert "You lose a die." in said


def test_liars_dice_refuses_bids_that_do_not_raise() -> None:
    source = make_source("games/liars_dice")
    problem = source.sample(4, 0)
    state = source.initial_state(problem)
    assert "no bid to call" in source.play(problem, state, "liar").observation
    assert "only 12 dice" in source.play(problem, state, "13 sixes").observation
    opened = source.play(problem, state, "3 fours")
    if not opened.done and opened.state["bids"]:
        count, face = opened.state["bids"][-1]
        lower = source.play(problem, opened.state, f"{count} ones")
        assert not lower.verdict.parsed and "does not raise" in lower.observation
    plan = source.advance(problem, state, source.format_answer("2 fours, then liar"))
    assert not plan.verdict.parsed and "one move per turn" in plan.observation.lower()


def test_liars_dice_oracle_wins_and_random_legal_play_loses() -> None:
    for level in (0, 4):
        reward, won, replies = oracle_episode("games/liars_dice", level, 3)
        assert won and reward == 1
        problem = make_source("games/liars_dice").sample(level, 3)
        assert palaestra.score(problem.to_json(), replies).reward == 1
    assert random_legal_wins("games/liars_dice", 4, range(8)) <= 1


# --- crazy eights -------------------------------------------------------------

def eights_problem() -> Problem:
    """The pile shows 5H; the model holds 9H and 8C; the opponent holds 2C and KS and follows its stated rule."""
    data = {"mine": names("9H 8C"), "theirs": names("2C KS"), "stock": names("5H 3D 4D 6D 7D"), "ranks": 13,
            "noise": 0.0, "tape": 1, "limit": 12, "line": ["9H", "8C spades"]}
    return Problem(env_id="games/crazy_eights", level=0, seed=0, data=data)


def test_crazy_eights_an_eight_names_the_suit_and_wins() -> None:
    source = make_source("games/crazy_eights")
    problem = eights_problem()
    state = source.initial_state(problem)
    first = source.play(problem, state, "9H")
    # the opponent cannot follow hearts (no 9, no heart) and holds no eight: it draws
    assert "You play 9H. The opponent draws a card." in first.observation and not first.done
    won = source.play(problem, first.state, "Play the 8 of clubs, calling spades.")
    assert won.done and won.verdict.correct and won.verdict.reward == 1


def test_crazy_eights_refuses_cards_that_do_not_fit() -> None:
    source = make_source("games/crazy_eights")
    problem = eights_problem()
    state = source.initial_state(problem)
    for move, reason in (("2C", "2C is not in your hand"), ("8C", "write a card"),
                         ("9H spades", "write a card")):
        outcome = source.play(problem, state, move)
        assert not outcome.verdict.parsed and outcome.state == state and reason in outcome.observation, move
    taken = source.play(problem, state, "draw").state  # draws 3D; the opponent plays nothing on 5H and draws
    assert "matches neither" in source.play(problem, {**taken, "mine": [*taken["mine"], names("KC")[0]]},
                                            "KC").observation
    plan = source.advance(problem, state, source.format_answer("9H, then 8C spades"))
    assert not plan.verdict.parsed and "one move per turn" in plan.observation.lower()


def test_crazy_eights_oracle_wins_and_random_legal_play_loses() -> None:
    for level in (0, 4):
        reward, won, replies = oracle_episode("games/crazy_eights", level, 1)
        assert won and reward == 1
        problem = make_source("games/crazy_eights").sample(level, 1)
        assert palaestra.score(problem.to_json(), replies).reward == 1
    assert random_legal_wins("games/crazy_eights", 4, range(8)) <= 1


def test_trick_taking_reads_cards_through_the_shared_reader() -> None:
    from palaestra.envs.games.trick_taking import read_card

    # trick_taking numbers cards ace high (2 = 0 .. A = 12); the shared reader's ace-low card is mapped
    assert read_card("Q♠") == 49 and read_card("play the ten of hearts.") == 34 and read_card("AC") == 12
    assert read_card("QS KS") is None and read_card("1C") is None
