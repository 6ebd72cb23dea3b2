"""Round 3's thirty-seventh session, the lead's own findings: right answers that were refused.

`data/log_windows` refused "Counts: 1, 0, 2" and `data/json_diff` "Differences: ~a, +b" (read_list and read_set take
no label but the generic ones); both now read a naming sentence about their own nouns, and still refuse a negated
name, a hedge after the list and a label naming something else. `chess/mate_in_one` refused a move named in a
sentence ("I play Qh7#."), which every game now reads (`palaestra.verifiers.moves.sentence_move`); the five-letter
word games refused a labelled word ("Next word: crane").
"""

from __future__ import annotations

import pytest

from palaestra.core.registry import make_source


@pytest.mark.parametrize(("env_id", "names"), [
    ("data/log_windows", ("Counts: {}", "**Counts:** {}", "The counts are {}", "Window counts: {}.")),
    ("data/json_diff", ("Differences: {}", "The differences are {}.", "**Changes:** {}")),
])
def test_a_list_named_by_the_envs_noun_is_read(env_id: str, names: tuple[str, ...]) -> None:
    source = make_source(env_id)
    for level in range(3):
        problem = source.sample(level, 7)
        for name in names:
            assert source.verify(problem, name.format(problem.answer)).correct, (level, name)


@pytest.mark.parametrize(("env_id", "names"), [
    ("data/log_windows", ("Not the counts: {}", "Counts: {}. Or 0", "Seconds: {}")),
    ("data/json_diff", ("The wrong differences are {}", "Differences: {}, or none", "Ports: {}")),
])
def test_a_negated_or_hedged_or_other_name_is_not_read(env_id: str, names: tuple[str, ...]) -> None:
    source = make_source(env_id)
    for level in range(3):
        problem = source.sample(level, 7)
        for name in names:
            assert not source.verify(problem, name.format(problem.answer)).correct, (level, name)


def test_mate_in_one_reads_a_move_named_in_a_sentence_and_refuses_hedges() -> None:
    """`chess/mate_in_one` refused "I play Qh7#." (its shape test took bare moves only), though the games read it."""
    source = make_source("chess/mate_in_one")
    for level in range(3):
        problem = source.sample(level, 1)
        for sentence in ("I play {}.", "My move is {}", "I'll play **{}**."):
            assert source.verify(problem, sentence.format(problem.answer)).correct, (level, sentence)
        for hedge in ("I play {} or Kh1", "I won't play {}", "I play {}. Or not."):
            assert not source.verify(problem, hedge.format(problem.answer)).correct, (level, hedge)


def test_the_word_games_read_a_word_named_by_a_label() -> None:
    """"Next word: crane" was refused by every five-letter word game (wordle, absurdle, jotto, word_ladder)."""
    from palaestra.envs.games._words import read_word

    for said in ("Next word: crane", "Word: crane", "The next word is **crane**.", "My guess: crane"):
        assert read_word(said) == "crane", said
    for hedge in ("Next word: crane, or crate", "Not the word: crane", "Word: crane. Actually crate"):
        assert read_word(hedge) is None, hedge


def test_breakthrough_reads_a_move_named_in_a_sentence() -> None:
    from palaestra.envs.games.breakthrough import _read_move

    for said in ("I play b2-c3.", "My move is b2xc3", "I'll move b2 to c3", "**b2-c3**"):
        assert _read_move(said, 5, 5) == (6, 12), said
    for hedge in ("b2-c3 or b2-b3", "I won't play b2-c3", "I play b2-c3. Or b2-b3."):
        assert _read_move(hedge, 5, 5) is None, hedge


def test_liars_dice_reads_a_bid_named_in_a_sentence() -> None:
    from palaestra.envs.games.liars_dice import read_move

    for said, move in (("I bid 3 fives.", (3, 5)), ("My bid is 3 fives", (3, 5)), ("I'll raise to 4 sixes", (4, 6)),
                       ("I call liar", "liar")):
        assert read_move(said) == move, said
    for hedge in ("3 fives or liar", "I won't bid 3 fives", "I bid 3 fives. Actually liar."):
        assert read_move(hedge) is None, hedge
