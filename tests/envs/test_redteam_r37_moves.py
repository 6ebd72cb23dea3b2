"""Red team r37 (moves): a move named in a sentence is read like the bare move, in every game's move reader.

Before, the shared cell reader (games/common.read_cell) read "I play k7." but few other move readers did: a probe over
the 83 games (the oracle's first move, bare and in sentences) found "I'll play X", "I will play X." and "My move is X"
refused in 69 games ("I play X." too in 64 of them; read_cell refused "I play **k7**."), so a right move in a careful
grader's spelling cost a turn. Only the 13 read_cell games and connect_four read them all. Now one grammar
(palaestra.verifiers.moves.sentence_move: a subject with an optional neutral choice verb, or "My move/guess/bid/...
is") serves read_command, read_cell, read_label, chess_moves.read_move and the readers of the games; the forms are
refused in 4 games only: breakthrough and liars_dice (their readers belong to other helpers), diplomacy_lite (a block
of orders, which now reads "My move: A Ost -> Ulm" on its first line) and nonogram (only where the row's last cell is
".", which a closing full stop would change). No hedge ("X or Y", "I play X, then Y", "My move is not X", "I won't
play X", "I play X? No, Y") was read as a move before or after.
"""

from __future__ import annotations

from typing import Any

import chess
import pytest

from palaestra.core.multiturn import snapshot
from palaestra.core.registry import make_source
from palaestra.verifiers.chess_moves import read_move, read_move_set
from palaestra.verifiers.moves import read_command, read_move_answer, sentence_move

SENTENCES = ("I play {x}.", "I'll play {x}", "I will play {x}.", "My move is {x}", "**I play {x}.**",
             "I play **{x}**.", "My move: `{x}`", "Move: {x}")
HEDGES = ("{x} or {y}", "I play {x} or {y}", "I'll play {x}, then {y}", "My move is not {x}", "I won't play {x}",
          "I play {x}? No, {y}", "I play {x}. Just kidding", "Let me not play {x}", "Maybe I play {x}")

# Per family of move reader, games whose oracle move is read in every sentence of SENTENCES.
FAMILIES = {
    "cells (common.read_cell)": ["games/othello", "games/gomoku", "games/hex", "games/lights_out"],
    "labels (common.read_label)": ["games/kalah", "games/hackenbush", "games/multi_armed_bandit",
                                   "games/contextual_bandit", "games/lights_out_graph", "games/maze_guards"],
    "commands (moves.read_command)": ["games/nim", "games/connect_four", "games/crafting", "games/ice_slide",
                                      "games/rush_hour", "games/video_poker", "games/nurikabe_conflicts",
                                      "interactive/text_adventure"],
    "tokens (moves.read_tokens)": ["games/eight_puzzle", "games/fog_maze", "games/frozen_lake", "games/game_2048",
                                   "games/sokoban", "games/mastermind"],
    "places (moves.read_place_moves)": ["games/train_shunting"],
    "chess (chess_moves.read_move)": ["games/chess_endgame"],
    "social (_social.read_command)": ["games/hanabi", "games/codenames", "games/resistance", "games/trading",
                                      "games/ultimatum", "games/werewolf"],
    "words (_words.read_word)": ["games/wordle", "games/absurdle", "games/jotto", "games/bulls_and_cows",
                                 "games/word_ladder", "games/hangman"],
    "cards": ["games/crazy_eights", "games/gin_rummy", "games/klondike", "games/golf_solitaire",
              "games/cribbage_pegging", "games/trick_taking", "games/blackjack", "games/kuhn_poker",
              "games/leduc_holdem", "games/set_game", "games/memory_pairs"],
    "numbers": ["games/guess_number", "games/gops", "games/sealed_bid_auction", "games/dynamic_pricing",
                "games/hidden_function", "games/treasure_hunt"],
    "boards": ["games/checkers", "games/clobber", "games/domineering", "games/dots_and_boxes", "games/fox_and_geese",
               "games/peg_solitaire", "games/go_endgame"],
    "own commands": ["games/black_box", "games/bomb_defusal", "games/farm_sim", "games/twenty_questions",
                     "games/yahtzee_lite", "games/nonogram"],
}
CASES = [(family, env_id) for family, ids in FAMILIES.items() for env_id in ids]


def _start(env_id: str) -> tuple[Any, Any, Any, str, str]:
    """The task, a level-1 problem, its first state, the oracle's move and another move the game reads."""
    task = make_source(env_id)
    problem = task.sample(1, 0)
    state = task.initial_state(problem)
    move = task.oracle(problem, state)
    if env_id == "games/nonogram":  # a row ending in "." would change under a closing full stop: take another row
        seed = next(s for s in range(1, 50) if not task.oracle(p := task.sample(1, s), task.initial_state(p))
                    .endswith("."))
        problem = task.sample(1, seed)
        state = task.initial_state(problem)
        move = task.oracle(problem, state)
    try:
        others = [m for m in task.legal_moves(problem, state) if m != move]
    except NotImplementedError:
        others = []
    return task, problem, state, move, others[0] if others else move


def _effect(task: Any, problem: Any, state: Any, reply: str) -> tuple[bool, str, float, bool]:
    outcome = task.advance(problem, state, task.format_answer(reply))
    return outcome.verdict.parsed, snapshot(outcome.state), outcome.verdict.reward, outcome.done


@pytest.mark.parametrize(("family", "env_id"), CASES)
def test_a_move_named_in_a_sentence_is_read_like_the_bare_move(family: str, env_id: str) -> None:
    task, problem, state, move, _ = _start(env_id)
    bare = _effect(task, problem, state, move)
    assert bare[0], (env_id, move)
    for sentence in SENTENCES:
        reply = sentence.format(x=move)
        assert _effect(task, problem, state, reply) == bare, (family, env_id, reply)


@pytest.mark.parametrize(("family", "env_id"), CASES)
def test_a_hedge_a_second_move_or_a_negation_in_a_sentence_stays_unreadable(family: str, env_id: str) -> None:
    task, problem, state, move, other = _start(env_id)
    garbage = _effect(task, problem, state, "qqq zzz")
    for hedge in HEDGES:
        reply = hedge.format(x=move, y=other)
        parsed, after, _, _ = _effect(task, problem, state, reply)
        assert not parsed and after == garbage[1], (family, env_id, reply)


@pytest.mark.parametrize("env_id", ["games/nim", "games/blackjack", "games/kuhn_poker", "games/hanabi",
                                    "games/bomb_defusal", "games/fog_maze", "interactive/text_adventure"])
def test_a_command_after_its_subject_is_read(env_id: str) -> None:
    """A command that starts with the game's own verb reads after "I" / "I'll" / "Let me" ("I take 2 from heap A")."""
    task, problem, state, move, _ = _start(env_id)
    bare = _effect(task, problem, state, move)
    for subject in ("I", "I'll", "I will", "Let me", "I'm going to"):
        assert _effect(task, problem, state, f"{subject} {move}.") == bare, (env_id, subject)


def test_game_wordings_of_a_move_in_a_sentence() -> None:
    def same(env_id: str, spell: Any) -> None:
        task, problem, state, move, _ = _start(env_id)
        bare = _effect(task, problem, state, move)
        for reply in spell(move):
            assert _effect(task, problem, state, reply) == bare, (env_id, reply)

    same("games/nim", lambda m: [m.replace("take ", "I take ").replace(" from", " stones from"),
                                 m.replace("take ", "I'll take ")])
    same("games/connect_four", lambda m: [f"My move is column {m}", f"I'll play column {m}."])
    same("games/dots_and_boxes", lambda m: [f"I draw {m}", f"I'll draw the line {m}."])
    same("games/fog_maze", lambda m: [f"I go {m}.", f"I move {m}"])
    same("games/trick_taking", lambda m: [f"I lead {m}.", f"I play the {m}"])
    same("games/dynamic_pricing", lambda m: [f"My price is {m}", f"I'll set the price to ${m}."])
    same("games/sealed_bid_auction", lambda m: [f"I bid ${m}.", f"My bid is {m}"])
    same("games/wordle", lambda m: [f"My guess is {m}", f"I guess {m}.", f"I'll try {m}"])
    same("games/word_ladder", lambda m: [f"My next word is {m}.", f"I play {m}"])
    same("games/chess_endgame", lambda m: [f"I'll move {m}.", f"I play {m}!"])
    same("games/gomoku", lambda m: [f"I place a stone at {m}.", f"I'll put my stone on {m}"])
    same("games/diplomacy_lite", lambda m: [f"My move: {m}", f"Orders: {m}"])


def test_a_game_verb_of_another_meaning_is_not_read_past() -> None:
    """Only verbs that say "this is my move" are read past: "I draw 5D" is no play of 5D in Crazy Eights."""
    task, problem, state, move, _ = _start("games/crazy_eights")
    card = move if move != "draw" else "5D"
    for reply in (f"I draw {card}", f"I call {card}", f"I discard {card}"):
        assert not _effect(task, problem, state, reply)[0], reply
    assert _effect(task, problem, state, "I draw.")[0]


def test_the_shared_sentence_grammar() -> None:
    read = sentence_move(lambda s: s if s in ("e4", "take 2") else None)
    for text in ("I play e4", "I'll play e4", "I will play e4", "I'd like to play e4", "I'm going to play e4",
                 "I choose e4", "I'll go with e4", "My move is e4", "My next move is e4", "My choice: e4",
                 "I’ll play e4", "i play e4"):
        assert read(text) == "e4", text
    assert read("I take 2") == read("I'll take 2") == read("Let me take 2") == "take 2"
    for text in ("I play e4 or d4", "I won't play e4", "I would not play e4", "I don't play e4", "I think I play e4",
                 "I'd play e4", "Maybe I play e4", "My move is not e4", "I play e4, d4", "I play e4. No.",
                 "You play e4", "I play", "I play I", "I e4", "I E4"):
        assert read(text) is None, text
    assert read_move_answer("**I play e4.**", lambda s: s if s == "e4" else None) == "e4"
    assert read_move_answer("I play e4" + " " * 400, lambda s: s if s == "e4" else None) is None  # over the cap
    def take(words: list[str]) -> list[str] | None:
        return words if words[:1] == ["take"] and len(words) == 3 else None

    mastermind = make_source("games/mastermind")
    problem = mastermind.sample(5, 0)  # colours A to I: "I" is a colour, so "I ABCDEF" is seven colours, no code of six
    code, state = problem.data["alphabet"][:len(problem.data["opening"])], mastermind.initial_state(problem)
    assert "I" in problem.data["alphabet"] and _effect(mastermind, problem, state, code)[0]
    assert not _effect(mastermind, problem, state, f"I {code}")[0]
    assert _effect(mastermind, problem, state, f"I guess {code}.") == _effect(mastermind, problem, state, code)
    assert read_command("I take the red key.", take) == read_command("take the red key", take) == ["take", "red", "key"]
    assert read_command("I take the red key or the blue one", take) is None


def test_chess_reads_one_move_in_a_sentence_but_a_list_item_stays_bare() -> None:
    board = chess.Board()
    e4 = chess.Move.from_uci("e2e4")
    assert read_move(board, "I play e4.") == read_move(board, "I'll move e2-e4") == read_move(board, "My move is E2E4") == e4
    assert read_move(board, "I play e4 or d4") is None and read_move(board, "I won't play e4") is None
    assert read_move_set(board, "I play e4, I play d4") is None
