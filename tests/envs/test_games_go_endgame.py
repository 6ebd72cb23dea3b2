"""games/go_endgame (issue #27): hand-checked area counts, captures, ko, refusals, replay, oracle and random play."""

from __future__ import annotations

import dataclasses
import random

import palaestra
from palaestra.core.problem import Problem
from palaestra.core.registry import make_source
from palaestra.envs.games import go_endgame
from palaestra.generators.go import BLACK, PASS, RULES, WHITE, Solver, go_of, start_state, win_chance
from palaestra.kit.play import play_episode

GO_ENDGAME = "games/go_endgame"
GO = go_of(5)

# White's a3 stone has one liberty, a4; Black's a4 captures it. Columns c (White) and b (Black) are walls.
CAPTURE = GO.board("""
.XO..
XXO..
OXO..
.XO..
XXO..
""")

# White's b2 captures Black's c2 and makes a ko: Black may not retake at c2 at once.
KO = GO.board("""
.XO..
X.XO.
.XO..
.....
.....
""")


def hand_problem(board, player: int, komi: float, turns: int = 3, look: int = 0) -> Problem:
    base = make_source(GO_ENDGAME).sample(0, 0)
    data = {**base.data, "size": 5, "board": list(board), "player": player, "komi": komi, "look": look,
            "turns": turns, "empties": len(GO.empties(board))}
    return dataclasses.replace(base, data=data)


def test_area_count_after_a_capture_by_hand() -> None:
    after = GO.play(CAPTURE, GO.point("a4"), BLACK)
    assert after is not None and not after[WHITE] >> GO.point("a3") & 1  # a3 lifted
    # Black: 8 stones + a1 + a3 = 10; White: 5 stones (column c) + 10 empty points of columns d and e = 15.
    assert GO.area(after) == (10, 15)
    assert GO.area(CAPTURE) == (7 + 1, 6 + 10)  # before: a1 is Black's, a4 touches both colours


def test_capture_then_two_passes_ends_the_game_with_the_count() -> None:
    # Black (the model) needs a4 to win with komi -5.5 (Black adds 5.5): 10 + 5.5 > 15; without it 8 + 5.5 < 16.
    # Filling its own eye at a1 instead loses the whole Black group to White's a4.
    source = make_source(GO_ENDGAME)
    problem = hand_problem(CAPTURE, BLACK, -5.5)
    state = source.initial_state(problem)
    winning = Solver(5, BLACK, -5.5).winning_moves(tuple(state["state"]))
    assert GO.point("a4") in winning and GO.point("a1") not in winning and PASS not in winning
    outcome = source.play(problem, state, "Move: A4.")
    assert "You play a4, capturing 1 stone." in outcome.observation
    if not outcome.done:
        outcome = source.play(problem, outcome.state, "pass")
    assert outcome.done and outcome.verdict.correct
    assert "Black 10 + 5.5 = 15.5, White 15" in outcome.observation
    # Passing at once loses: White passes too (or plays on), and Black's 8 + 5.5 falls short.
    lost = source.play(problem, state, "pass")
    while not lost.done:
        lost = source.play(problem, lost.state, "pass")
    assert not lost.verdict.correct and "You lose" in lost.observation


def test_ko_is_made_and_refused() -> None:
    after, captured, ko = GO.play_with_ko(KO, GO.point("b2"), WHITE)
    assert after is not None and captured == 1 and ko == GO.point("c2")
    source = make_source(GO_ENDGAME)
    problem = hand_problem(after, BLACK, 0.5)
    state = {"state": [after[0], after[1], BLACK, ko, 0, 6]}
    refused = source.play(problem, state, "c2")
    assert not refused.verdict.parsed and "ko" in refused.observation and refused.state == state
    assert "c2" not in source.legal_moves(problem, state) and "pass" in source.legal_moves(problem, state)
    # After a move elsewhere the ban is gone for the next turn (the solver's move list shows it).
    solver = Solver(5, BLACK, 0.5)
    child = dict(solver.moves(tuple(state["state"])))[GO.point("e5")]
    assert child is not None and child[3] == -1


def test_illegal_and_unreadable_moves_are_refused_with_the_reason() -> None:
    source = make_source(GO_ENDGAME)
    problem = hand_problem(GO.board("...O. ....O X.... ..... ....."), BLACK, 0.5)
    state = source.initial_state(problem)
    assert "occupied" in source.play(problem, state, "d1").observation
    suicide = source.play(problem, state, "e1")
    assert not suicide.verdict.parsed and "suicide" in suicide.observation
    for unreadable in ("c3 d4", "c3, d4", "f1", "c3 or pass", "pass c3", "z9", ""):
        outcome = source.play(problem, state, unreadable)
        assert not outcome.verdict.parsed and outcome.state == state, unreadable
    assert "one move per turn" in source.advance(problem, state, source.format_answer("c3 d4")).observation.lower()
    for readable in ("c3", "C3", "play c3", "Move: c3.", r"\boxed{c3}", "Pass", "pass."):
        assert source.play(problem, state, readable).verdict.parsed, readable


def test_looks_rename_points_consistently() -> None:
    source = make_source(GO_ENDGAME)
    for look in range(8):
        problem = hand_problem(CAPTURE, BLACK, -5.5, look=look)
        state = source.initial_state(problem)
        move = go_endgame._name(problem.data, GO.point("a4"))  # where a4 is drawn in this look
        assert move in source.legal_moves(problem, state) and source.oracle(problem, state) in source.legal_moves(problem, state)
        assert f"You play {move}, capturing 1 stone." in source.play(problem, state, move).observation


def oracle_episode(source, problem: Problem) -> tuple[list[str], float]:
    moves: list[str] = []

    def choose(state, history):
        moves.append(source.oracle(problem, state))
        return moves[-1]

    return moves, play_episode(source, problem, choose)[0]


def test_oracle_wins_and_replay_matches() -> None:
    source = make_source(GO_ENDGAME)
    for level in range(5):
        problem = source.sample(level, 3)
        moves, total = oracle_episode(source, problem)
        assert total == 1.0
        assert palaestra.score(problem, [source.format_answer(m) for m in moves]).reward == total


def test_random_legal_and_cheap_rules_lose_on_the_catalogue() -> None:
    """Re-prove the catalogue's bounds on a sample: random legal play wins <= 5%, each rule <= 25% (exact)."""
    catalogue = go_endgame.catalogue()
    for level in (0, 4):
        config = make_source(GO_ENDGAME).presets[level]
        for board, player, komi in random.Random(level).sample(catalogue[level], 3):
            solver = Solver(config.size, player, komi)
            state = start_state(board, player, 2 * config.turns)
            assert solver.wins(state)
            assert 2 * len(solver.winning_moves(state)) <= len(solver.moves(state))
            assert win_chance(solver, state, None, {}) <= 0.05
            assert all(win_chance(solver, state, rule, {}) <= 0.25 for rule in RULES.values())


def test_random_legal_loses_at_the_top_level() -> None:
    source = make_source(GO_ENDGAME)
    wins = 0
    for seed in range(6):
        problem = source.sample(4, seed)
        rng = random.Random(seed)
        wins += play_episode(source, problem, lambda state, history: rng.choice(source.legal_moves(problem, state)))[0]
    assert wins <= 1


def test_pass_is_named_pass() -> None:
    assert go_endgame._name({"size": 5, "look": 0}, PASS) == "pass"
