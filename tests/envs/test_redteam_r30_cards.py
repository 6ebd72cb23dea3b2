"""Red team, session 30 (card games): right moves in a grader's spelling that were refused or read as another move.

Measured and left as they are (see the session report): the per-hand "decisions right" tally of blackjack and
kuhn poker (a learner replaying the tally scores 0.15/0.01 and 0.10/0.01 at levels 0/4), leduc hold'em rules that
react to the opponent's bets (at most 0.05 on average), no hidden card in any refusal of golf solitaire, klondike
or gin rummy.
"""

from __future__ import annotations

import palaestra
from palaestra.envs.games import gin_rummy, kuhn_poker, leduc_holdem, video_poker


def _task(env_id: str, level: int = 0):
    return palaestra.make(env_id, level=level).unwrapped.task


def test_video_poker_reads_ten_written_10_and_suit_symbols() -> None:
    """Version 2 refused ``hold 10h`` and ``hold T♥`` for the card shown as Th (and a refusal spends the hand's
    only turn, so the game could not finish)."""
    task = _task("games/video_poker")
    for seed in range(40):
        problem = task.sample(0, seed)
        cards = problem.data["hands"][0]["cards"]
        tens = [i for i, c in enumerate(cards) if c[0] == "T"]
        if tens:
            break
    else:
        raise AssertionError("no ten in 40 first hands")
    i = tens[0]
    suit = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}[cards[i][1]]
    state = task.initial_state(problem)
    expected = task.play(problem, state, f"hold {i + 1}")
    for spelling in (f"hold 10{cards[i][1]}", f"hold 10{cards[i][1].upper()}", f"hold T{suit}", f"hold 10{suit}"):
        outcome = task.play(problem, state, spelling)
        assert outcome.verdict.parsed, spelling
        assert outcome.state == expected.state, spelling
    assert video_poker.read_command("hold 10x", lambda w: video_poker._parse(w, cards)) is None


def _facing_a_bet(task, level: int = 0):
    """A problem and a state where the model faces a bet (the second seat after the opponent bets, or after its own
    check and the opponent's bet)."""
    for seed in range(30):
        problem = task.sample(level, seed)
        state = task.initial_state(problem)
        for _ in range(task.max_turns(problem)):
            allowed = task.legal_moves(problem, state)
            if "fold" in allowed:
                return problem, state
            outcome = task.play(problem, state, "check" if "check" in allowed else allowed[0])
            if outcome.done:
                break
            state = outcome.state
    raise AssertionError("no bet faced")


def test_kuhn_pass_facing_a_bet_is_the_fold() -> None:
    """Kuhn's own word: after a bet, pass gives the pot up. Version 3 read it as check, refused it and charged the
    worst decision."""
    task = _task("games/kuhn_poker")
    problem, state = _facing_a_bet(task)
    passed, folded = task.play(problem, state, "pass"), task.play(problem, state, "fold")
    assert passed.verdict.parsed and passed.state == folded.state and passed.observation == folded.observation
    opening = task.initial_state(problem)
    if "check" in task.legal_moves(problem, opening):
        assert task.play(problem, opening, "pass").state == task.play(problem, opening, "check").state
    assert kuhn_poker._resolve("pass", ["call", "fold"]) == "fold"


def test_leduc_pass_facing_a_bet_is_the_fold() -> None:
    task = _task("games/leduc_holdem")
    problem, state = _facing_a_bet(task)
    passed, folded = task.play(problem, state, "pass"), task.play(problem, state, "fold")
    assert passed.verdict.parsed and passed.state == folded.state and passed.observation == folded.observation
    assert leduc_holdem._resolve("pass", ["check", "bet"]) == "check"


def test_gin_rummy_draw_from_the_discard_pile_takes_it() -> None:
    """Version 2 refused "draw from the discard pile" (a slip of the four allowed) instead of taking the pile's card."""
    for move in ("draw from the discard pile", "Draw from discard.", "draw the upcard",
                 "draw the top card from the discard pile"):
        assert gin_rummy.read_move(move) == ("take", None), move
    assert gin_rummy.read_move("draw from the stock") == ("draw", None)
    task = _task("games/gin_rummy")
    problem = task.sample(0, 0)
    state = task.initial_state(problem)
    assert task.play(problem, state, "draw from the discard pile").state == task.play(problem, state, "take").state
