"""Behaviour of the multi-turn games: feedback rules, invalid moves, the oracles, no leaks."""

from __future__ import annotations

import random
import re

import pytest

import palaestra
from palaestra.core.registry import make_source
from palaestra.envs.games import wordle
from palaestra.envs.games.mastermind import consistent_code
from palaestra.generators.mastermind import score as pegs

GAMES = ["games/mastermind", "games/wordle", "games/guess_number"]


def play_oracle(env, level: int, seed: int) -> tuple[int, float, float, bool]:
    """(turns used, final reward, total reward, terminated) of the oracle's game."""
    env.reset(seed=seed, options={"level": level})
    turns, total = 0, 0.0
    while True:
        _, reward, terminated, truncated, _ = env.step(env.oracle_action())
        turns, total = turns + 1, total + reward
        if terminated or truncated:
            return turns, reward, total, terminated


# --- feedback rules on hand-made cases ----------------------------------------

@pytest.mark.parametrize(
    "guess, secret, marks",
    [
        ("speed", "abide", "XXYXY"),  # the second e has no unmatched copy left
        ("eerie", "there", "YXYXG"),  # the green e is matched first, leaving one e for a yellow
        ("lolly", "hello", "XYGGX"),  # two greens use both l's: the first l is grey
        ("geese", "eagle", "YYXXG"),
        ("mamma", "maxim", "GGYXX"),  # one spare m for three guessed m's
        ("crane", "crane", "GGGGG"),
    ],
)
def test_wordle_feedback_with_repeated_letters(guess: str, secret: str, marks: str) -> None:
    assert wordle.marks(guess, secret) == marks


def test_wordle_oracle_table_matches_feedback() -> None:
    words, table, rng = wordle.words(), wordle.mark_table(), random.Random(3)
    for _ in range(3000):
        g, s = rng.randrange(len(words)), rng.randrange(len(words))
        assert table[g, s] == wordle.code(wordle.marks(words[g], words[s]))


def test_word_list_is_clean() -> None:
    words = wordle.words()
    assert len(words) >= 2500
    assert all(len(w) == 5 and w.isascii() and w.isalpha() and w.islower() for w in words)
    assert {"house", "crane", "world"} <= set(words)


@pytest.mark.parametrize(
    "guess, secret, expected",
    [("AABB", "ABAB", (2, 2)), ("AAAA", "ABCD", (1, 0)), ("ABCD", "DCBA", (0, 4)), ("AABC", "CAAA", (1, 2))],
)
def test_mastermind_pegs(guess: str, secret: str, expected: tuple[int, int]) -> None:
    assert pegs(guess, secret) == expected


def test_mastermind_consistent_code_fits_every_answer() -> None:
    rng = random.Random(0)
    secret = "CAFEB"
    history = [[g, *pegs(g, secret)] for g in ("AAAAA", "ABCDE", "FFBBC")]
    for _ in range(20):
        code = consistent_code(history, "ABCDEFG", 5, rng)
        assert code is not None and all(pegs(g, code) == (b, w) for g, b, w in history)
    assert consistent_code([["AB", 2, 0], ["AB", 0, 2]], "AB", 2, rng) is None


# --- moves, turns and rewards -------------------------------------------------

@pytest.mark.parametrize("env_id", GAMES)
def test_invalid_moves_count_as_turns_and_end_the_game(env_id: str) -> None:
    env = palaestra.make(env_id, level=4)
    env.reset(seed=5)
    limit = env.task.max_turns(env.problem)
    moves = ["no tags at all", "<answer></answer>", "<answer>" + "Z" * 10_000 + "</answer>", "<answer>#?!</answer>"]
    for turn in range(1, limit + 1):
        obs, reward, terminated, truncated, info = env.step(moves[turn % len(moves)])
        assert reward == 0.0 and not terminated and info["turn"] == turn and not info["parsed"]
        assert "nvalid" in obs
        assert truncated == (turn == limit)


def test_wordle_unknown_word_costs_a_turn() -> None:
    env = palaestra.make("games/wordle", level=2)
    env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step("<answer>qxzvj</answer>")
    assert "not in the word list" in obs and reward == 0.0 and not terminated and info["turn"] == 1
    assert obs.endswith("(4 turns left)")


@pytest.mark.parametrize(
    "guess, history, broken",
    [
        ("crane", [["slate", "XXGXG"]], ""),  # keeps A in place and E at the end
        ("crony", [["slate", "XXGXG"]], "letter 3 must be A"),
        ("caret", [["slate", "XXYXY"]], ""),  # yellow A and E used elsewhere
        ("cairn", [["slate", "XXYXY"]], "the guess must contain E"),
        ("eerie", [["speed", "XXYYX"]], ""),  # two e's marked: two needed
        ("theme", [["speed", "XXYYX"]], ""),
        ("tenor", [["speed", "XXYYX"]], "the guess must contain E 2 times"),
    ],
)
def test_wordle_hard_mode_rule(guess: str, history: list, broken: str) -> None:
    assert wordle.hard_mode_violation(guess, history) == broken


def test_wordle_hard_mode_guess_that_ignores_a_hint_costs_a_turn() -> None:
    env = palaestra.make("games/wordle", level=3)
    env.reset(seed=0)
    secret = env.problem.data["secret"]
    env.step(env.oracle_action())
    guess, marks = env.state["history"][-1]
    i = marks.index("G")  # seed 0: the oracle's opening finds a green letter
    breaking = next(w for w in wordle.words() if w[i] != guess[i] and w != secret)
    obs, reward, terminated, _, info = env.step(f"<answer>{breaking}</answer>")
    assert "breaks hard mode" in obs and reward == 0.0 and info["parsed"] and not terminated
    assert len(env.state["history"]) == 1 and info["turn"] == 2
    env = palaestra.make("games/wordle", level=2)  # normal mode: the same word is a guess like any other
    env.reset(seed=0)
    obs, *_ = env.step(f"<answer>{breaking}</answer>")
    assert "hard mode" not in obs and len(env.state["history"]) == 1


def test_wordle_levels_take_away_help_one_step_at_a_time() -> None:
    task = make_source("games/wordle")
    configs = [task.config(level) for level in range(5)]
    for easier, harder in zip(configs, configs[1:]):  # each level keeps every restriction and adds one
        assert harder.turns <= easier.turns and harder.opening <= easier.opening and harder.hard >= easier.hard
        assert harder != easier
    assert not configs[-1].opening and configs[-1].hard and configs[-1].turns == 4


def test_wordle_oracle_game_is_checked_at_generation() -> None:
    task = make_source("games/wordle")
    for level in (2, 4):
        for seed in range(15):
            p = task.sample(level, seed)
            data = p.data
            history = [[data["opening"], wordle.marks(data["opening"], data["secret"])]] if data["opening"] else []
            game = wordle.oracle_game(data["secret"], history, data["hard"], data["turns"])
            assert game is not None and game[-1] == p.answer and len(game) == data["oracle_guesses"] <= data["turns"]
            if data["hard"]:
                for i in range(1, len(game)):  # the oracle obeys hard mode itself
                    earlier = history + [[g, wordle.marks(g, data["secret"])] for g in game[:i]]
                    assert wordle.hard_mode_violation(game[i], earlier) == ""


def test_wordle_accepts_any_case_and_reports_marks() -> None:
    env = palaestra.make("games/wordle", level=0)
    env.reset(seed=2)
    secret = env.problem.data["secret"]
    guess = "house" if secret != "house" else "crane"
    obs, *_ = env.step(f"<answer> {guess.upper()} </answer>")
    assert obs.startswith(f"{guess} -> {wordle.marks(guess, secret)}")
    _, reward, terminated, _, info = env.step(f"<answer>{secret}</answer>")
    assert reward == 1.0 and terminated and info["correct"]


def test_mastermind_lenient_format_and_win() -> None:
    env = palaestra.make("games/mastermind", level=2)
    env.reset(seed=4)
    secret = env.problem.data["secret"]
    _, reward, terminated, _, info = env.step(f"<answer>{', '.join(secret.lower())}</answer>")
    assert reward == 1.0 and terminated and info["correct"]


def test_guess_number_feedback_and_range() -> None:
    env = palaestra.make("games/guess_number", level=1)
    env.reset(seed=9)
    data = env.problem.data
    low, high, secret = data["low"], data["high"], data["secret"]
    obs, *_ = env.step(f"<answer>{high + 1}</answer>")
    assert "outside the range" in obs
    probe = low if secret != low else high
    obs, *_ = env.step(f"<answer>{probe:,}</answer>")
    assert ("higher" if probe < secret else "lower") in obs
    _, reward, terminated, _, info = env.step(f"<answer>{secret}</answer>")
    assert reward == 1.0 and terminated and info["turn"] == 3


@pytest.mark.parametrize("env_id", ["games/hex", "games/hidden_function", "games/guess_number", "games/nim",
                                    "games/peg_solitaire", "games/treasure_hunt"])
def test_the_oracle_wins_at_far_levels(env_id: str) -> None:
    # Before their caps: hex's columns ran past the letters a-z (level 40 raised), hidden_function's degree past
    # what its answer reader reads (level 12 on), guess_number's numbers past its 30 digits (level ~28 on), nim's
    # Grundy games past 702 heaps, where its labels (A-ZZ) ended (level 17 on).
    # peg_solitaire's oracle searched from scratch and ran out of its budget from 16 pegs (20 s, then a losing jump).
    # treasure_hunt read at most three digits per coordinate: cells past 999 (fields from level 15) went unread.
    env = palaestra.make(env_id, level=40)
    env.reset(seed=1)
    total, done = 0.0, False
    for _ in range(500):
        _, reward, terminated, truncated, _ = env.step(env.oracle_action())
        total += float(reward)
        done = terminated or truncated
        if done:
            break
    assert done and total == 1.0


def test_nim_labels_go_on_past_zz() -> None:
    from palaestra.envs.games.nim import label

    assert [label(i) for i in (0, 25, 26, 27, 701, 702, 703)] == ["A", "Z", "AA", "AB", "ZZ", "AAA", "AAB"]


def test_guess_number_far_levels_stay_readable_and_winnable() -> None:
    # Version 3's ranges grew past the guess reader's 30 digits: from level ~28 every guess went unread.
    for level in (30, 40):
        env = palaestra.make("games/guess_number", level=level)
        env.reset(seed=0)
        data = env.problem.data
        assert len(str(data["high"])) <= 26
        _, reward, terminated, _, _ = env.step(f"<answer>{data['secret']}</answer>")
        assert reward == 1.0 and terminated


# --- oracles and leaks --------------------------------------------------------

@pytest.mark.parametrize("env_id, seeds", [("games/mastermind", 60), ("games/wordle", 25), ("games/guess_number", 60)])
def test_oracle_wins_every_level(env_id: str, seeds: int) -> None:
    env = palaestra.make(env_id)
    for level in range(5):
        for seed in range(seeds):
            turns, reward, total, terminated = play_oracle(env, level, 1000 + seed)
            assert terminated and reward == 1.0 and total == 1.0, (level, seed)
            assert turns <= env.task.max_turns(env.problem)


def test_guess_number_oracle_needs_exact_bisection_at_the_top_level() -> None:
    env = palaestra.make("games/guess_number", level=4)
    env.reset(seed=0)
    assert env.task.max_turns(env.problem) == (10**6).bit_length()


@pytest.mark.parametrize("env_id", ["games/mastermind", "games/wordle"])
def test_secret_never_shown_before_it_is_guessed(env_id: str) -> None:
    env = palaestra.make(env_id, level=1)
    env.action_space.seed(0)
    for seed in range(20):
        prompt, info = env.reset(seed=seed)
        shown = re.compile(rf"\b{info['problem'].answer}\b")
        assert not shown.search(prompt)
        for move in (env.action_space.sample, env.oracle_action):  # random play, then the oracle's
            env.reset(seed=seed)
            terminated = truncated = False
            while not (terminated or truncated):
                obs, _, terminated, truncated, _ = env.step(move())
                assert terminated or not shown.search(obs)
