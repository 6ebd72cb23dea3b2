"""Round-3d card games: hand-checked instances beyond the contract kit."""

from __future__ import annotations

import palaestra
from palaestra.core import Problem
from palaestra.envs.games import cribbage_pegging as pegging
from palaestra.envs.games import golf_solitaire as golf


def _pegging_problem(mine: list[int], theirs: list[int], style: str = "greedy") -> Problem:
    data = {"mine": mine, "theirs": theirs, "style": style, "tape": 1}
    start = pegging._start(data)
    best = pegging._best(pegging._key(data), start)
    baseline, mean = pegging.baseline_margin(pegging._key(data), start, best)
    data.update(best=best, baseline=baseline, random=mean, greedy=pegging._greedy_margin(data))
    return Problem(prompt="", answer=None, data=data)


def test_pegging_scores_fifteens_pairs_runs_and_31():
    assert pegging.score_card((5, 10), 15) == 2
    assert pegging.score_card((10, 5, 5), 20) == 2  # a pair
    assert pegging.score_card((4, 4, 4), 12) == 6  # three of a rank
    assert pegging.score_card((6, 4, 5), 15) == 2 + 3  # fifteen and a run of three in any order
    assert pegging.score_card((3, 4, 2, 5), 14) == 4  # a run of four
    assert pegging.score_card((11, 13, 12), 30) == 3  # J K Q: a run in any order
    assert pegging.score_card((1, 10, 10, 10), 31) == 2 + 6  # 31 and three tens
    assert pegging.score_card((9, 11, 12), 29) == 0  # 9 J Q: not consecutive


def test_pegging_hand_checked_deal():
    # You hold 5 and 10, the greedy opponent 10 and 5. Leading 5: it answers 10 (15 for 2; ties go to the
    # higher-counting card), your 10 pairs (2), its 5 ends at 30 with the last card (1): margin 2 - 3 = -1.
    # Leading 10: it pairs with 10 (2), your 5 makes 25, its 5 pairs (2) and takes the last card (1): -5.
    problem = _pegging_problem([5, 10], [5, 10])
    assert problem.data["best"] == -1
    assert problem.data["random"] == -3
    task = pegging.CribbagePegging()
    state = task.initial_state(problem)
    assert task.oracle(problem, state) == "5"
    outcome = task.play(problem, state, "play the five")
    assert "The opponent plays 10 (count 15) and scores 2." in outcome.observation
    end = task.play(problem, outcome.state, "10")
    assert end.done and end.verdict.reward == 1.0 and end.state["points"] == [2, 3]


def test_pegging_refuses_cards_not_held_or_past_31_and_plans():
    task = pegging.CribbagePegging()
    problem = task.sample(2, 3)
    state = task.initial_state(problem)
    missing = next(r for r in range(1, 14) if r not in state["mine"])
    refused = task.play(problem, state, pegging.RANK_NAMES[missing - 1])
    assert not refused.verdict.correct and refused.state == state and "You hold no" in refused.observation
    crowded = {**state, "count": 30}
    high = max(state["mine"])
    if high > 1:
        assert "past 31" in task.play(problem, crowded, pegging.RANK_NAMES[high - 1]).observation
    plan = " ".join(pegging.RANK_NAMES[r - 1] for r in state["mine"][:2])
    outcome = task.advance(problem, state, task.format_answer(plan))
    assert not outcome.verdict.parsed and "one move per turn" in outcome.observation.lower()


def test_pegging_reads_rank_spellings():
    assert pegging.read_rank("K") == pegging.read_rank("king") == pegging.read_rank("Play the King.") == 13
    assert pegging.read_rank("\\boxed{10}") == 10 and pegging.read_rank("Q♠") == 12
    assert pegging.read_rank("A 2") is None and pegging.read_rank("ace") == 1
    assert pegging.read_rank("7 or 8") is None and pegging.read_rank("1") is None and pegging.read_rank("7. No, 8") is None


def test_pegging_oracle_scores_one_and_replays():
    task = pegging.CribbagePegging()
    for level in (0, 4):
        problem = task.sample(level, 11)
        state, replies, total = task.initial_state(problem), [], 0.0
        for _ in range(task.max_turns(problem)):
            reply = task.format_answer(task.oracle(problem, state))
            outcome = task.advance(problem, state, reply)
            replies.append(reply)
            total += outcome.verdict.reward
            state = outcome.state
            if outcome.done:
                break
        assert total == 1.0
        assert task.replay(problem, replies).reward == 1.0
        assert palaestra.score(problem, replies).reward == 1.0


def _golf_problem(columns: list[list[int]], waste: int, stock: list[int]) -> Problem:
    data = {"columns": columns, "waste": waste, "stock": stock}
    game, start = golf._game(data), golf._start(data)
    best = golf._best(game, start)
    spread = golf._spread(game, start)
    mean = sum(cleared * chance for cleared, chance in spread)
    data.update(best=best, baseline=golf._baseline(spread, mean, best), random=mean,
                greedy=golf._greedy_cleared(data))
    return Problem(prompt="", answer=None, data=data)


def test_golf_hand_checked_deal():
    # Columns 5 6 | 9 on a waste 7, stock 8 then 2: play 6, play 5, draw 8, play 9 clears all three cards.
    problem = _golf_problem([[5, 6], [9]], 7, [8, 2])
    assert problem.data["best"] == 3
    task = golf.GolfSolitaire()
    state = task.initial_state(problem)
    assert task.legal_moves(problem, state) == ["1", "draw"]
    assert task.oracle(problem, state) == "1"
    refused = task.play(problem, state, "column 2")
    assert not refused.verdict.correct and refused.state == state and "does not fit" in refused.observation
    for move in ("play column 1", "1", "draw"):
        outcome = task.play(problem, state, move)
        state = outcome.state
    assert "Waste: 8. Stock: 1 cards left." in outcome.observation
    end = task.play(problem, state, "2")
    assert end.done and end.state["cleared"] == 3 and end.verdict.reward == 1.0


def test_golf_observations_hide_the_stock_order():
    task = golf.GolfSolitaire()
    problem = task.sample(3, 5)
    stock_text = " ".join(golf.RANK_NAMES[r - 1] for r in problem.data["stock"])
    assert stock_text not in problem.prompt and "cards left" in problem.prompt
    state = task.initial_state(problem)
    outcome = task.advance(problem, state, task.format_answer(task.oracle(problem, state)))
    assert stock_text not in outcome.observation


def test_golf_reads_moves_and_refuses_plans():
    assert golf.read_move("Column 3.") == "3" and golf.read_move("\\boxed{draw}") == "draw"
    assert golf.read_move("draw a card") == "draw" and golf.read_move("2 or 3") is None
    task = golf.GolfSolitaire()
    problem = _golf_problem([[5, 6], [9]], 7, [8, 2])
    outcome = task.advance(problem, task.initial_state(problem), task.format_answer("1, draw"))
    assert not outcome.verdict.parsed and "one move per turn" in outcome.observation.lower()


def test_golf_oracle_scores_one_through_score():
    task = golf.GolfSolitaire()
    problem = task.sample(4, 2)
    state, replies = task.initial_state(problem), []
    for _ in range(task.max_turns(problem)):
        replies.append(task.format_answer(task.oracle(problem, state)))
        outcome = task.advance(problem, state, replies[-1])
        state = outcome.state
        if outcome.done:
            break
    assert palaestra.score(problem, replies).reward == 1.0
