"""Round-3 multi-turn games: hand-checked positions, refused moves and plans, the oracles winning."""

from __future__ import annotations

import random

import numpy as np
import pytest

from palaestra.core import Problem
from palaestra.core.registry import make_source
from palaestra.envs.games import bulls_and_cows, gomoku, leduc_holdem, rush_hour, trick_taking
from palaestra.envs.games import hex as hex_game
from palaestra.kit.play import play_episode


def oracle_episode(env_id: str, level: int, seed: int) -> tuple[float, bool, int]:
    """(total reward, won, turns) of the oracle's game through ``advance`` (full replies, as a model's)."""
    source = make_source(env_id)
    problem = source.sample(level, seed)
    state, total = source.initial_state(problem), 0.0
    for turn in range(1, source.max_turns(problem) + 1):
        outcome = source.advance(problem, state, source.format_answer(source.oracle(problem, state)))
        state, total = outcome.state, total + outcome.verdict.reward
        if outcome.done:
            return total, bool(outcome.verdict.correct), turn
    return total, False, source.max_turns(problem)


def hex_problem(board: list[str]) -> Problem:
    return Problem(env_id="games/hex", level=0, seed=0,
                   data={"size": len(board), "board": "".join(board), "turns": 20, "winning": 1, "rules_lose": False})


# --- Hex ---------------------------------------------------------------------

def test_hex_hand_checked_win_and_opponent_block() -> None:
    source = make_source("games/hex")
    # 3 x 3 board, X on a1 and a2: c2 is refused as taken; a3 (below a2) joins the rows.
    problem = hex_problem(["X..", "X.O", ".O."])
    state = {"board": problem.data["board"]}
    outcome = source.play(problem, state, "c2")
    assert outcome.verdict.parsed and not outcome.done and outcome.state == state
    outcome = source.play(problem, state, "a3")
    assert outcome.done and outcome.verdict.correct and "you win" in outcome.observation
    # O on a2 and b2, to move: the perfect opponent completes its chain at c2 at once.
    problem = hex_problem(["..X", "OO.", "X.."])
    assert hex_game._reply(problem, problem.data["board"]) == 5


def test_hex_refuses_bad_moves_and_plans() -> None:
    source = make_source("games/hex")
    problem = source.sample(1, 3)
    state = source.initial_state(problem)
    for bad in ("z9", "c", "c2 d3", "c2, d3", "c2 then d3"):
        outcome = source.advance(problem, state, source.format_answer(bad))
        assert not outcome.verdict.parsed and outcome.state == state
        assert "column letter then a row number" in outcome.observation
    taken = next(i for i, c in enumerate(problem.data["board"]) if c != ".")
    name = hex_game.cell_name(*divmod(taken, problem.data["size"]))
    outcome = source.advance(problem, state, source.format_answer(name))
    assert outcome.state == state and "is taken" in outcome.observation


@pytest.mark.parametrize("level", [0, 2, 4])
def test_hex_oracle_wins(level: int) -> None:
    for seed in range(3):
        total, won, _ = oracle_episode("games/hex", level, seed)
        assert won and total == 1.0


def test_hex_random_play_loses_at_the_top_level() -> None:
    source = make_source("games/hex")
    wins = 0
    for seed in range(6):
        problem, rng = source.sample(4, seed), random.Random(seed)
        state, n = source.initial_state(problem), problem.data["size"]
        for _ in range(source.max_turns(problem)):
            cell = rng.choice([i for i, c in enumerate(state["board"]) if c == "."])
            outcome = source.play(problem, state, hex_game.cell_name(*divmod(cell, n)))
            state = outcome.state
            if outcome.done:
                wins += outcome.verdict.correct
                break
    assert wins <= 1


# --- Bulls and Cows ----------------------------------------------------------

@pytest.mark.parametrize("guess, secret, expected", [
    ("crane", "nacre", (1, 4)),  # e in place; c, r, a, n elsewhere
    ("llama", "plane", (2, 0)),  # l and a in place; the second l and a count nothing more
    ("tough", "crane", (0, 0)),
    ("stare", "rates", (0, 5)),
])
def test_bulls_and_cows_score(guess: str, secret: str, expected: tuple[int, int]) -> None:
    assert bulls_and_cows.score(guess, secret) == expected


def test_bulls_and_cows_reply_table_matches_score() -> None:
    index, rng = bulls_and_cows.word_index(), random.Random(5)
    guesses = rng.sample(bulls_and_cows.words(), 40)
    secrets = rng.sample(bulls_and_cows.isograms(), 40)
    table = bulls_and_cows._reply_codes(np.array([index[g] for g in guesses]), np.array([index[s] for s in secrets]))
    for i, g in enumerate(guesses):
        for j, s in enumerate(secrets):
            bulls, cows = bulls_and_cows.score(g, s)
            assert table[i, j] == bulls * 6 + cows


def test_bulls_and_cows_refuses_bad_moves_and_plans() -> None:
    source = make_source("games/bulls_and_cows")
    problem = source.sample(1, 2)
    state = source.initial_state(problem)
    outcome = source.advance(problem, state, source.format_answer("zzzzq"))
    assert outcome.verdict.parsed and not outcome.verdict.correct and "not in the word list" in outcome.observation
    for bad in ("crane stare", "crane, stare", "cranes", "crane then stare"):
        outcome = source.advance(problem, state, source.format_answer(bad))
        assert not outcome.verdict.parsed and outcome.state == state and "five-letter word" in outcome.observation


def test_bulls_and_cows_feedback_leaks_only_counts() -> None:
    source = make_source("games/bulls_and_cows")
    problem = source.sample(0, 1)
    secret = problem.data["secret"]
    guess = next(w for w in bulls_and_cows.words() if w != secret and set(w) & set(secret))
    outcome = source.play(problem, source.initial_state(problem), guess)
    bulls, cows = bulls_and_cows.score(guess, secret)
    assert outcome.observation.startswith(f"{guess.upper()}: {bulls} bull")
    assert secret not in outcome.observation.lower()


@pytest.mark.parametrize("level", [0, 4])
def test_bulls_and_cows_honest_player_and_oracle_win(level: int) -> None:
    source = make_source("games/bulls_and_cows")
    for seed in range(3):
        problem = source.sample(level, seed)
        won = play_episode(source, problem, lambda state, history, p=problem: source.honest_move(source.view(p, history)))[1]
        assert won
        total, won, _ = oracle_episode("games/bulls_and_cows", level, seed)
        assert won and total == 1.0


# --- Rush Hour ---------------------------------------------------------------

RUSH_BOARD = (  # car A needs B (vertical, column 5) out of row 3: B down 2 frees it, then A right 4
    "......"
    "....B."
    "AA..B."
    "......"
    "CC...."
    "......"
)


def rush_problem(board: str = RUSH_BOARD) -> Problem:
    return Problem(env_id="games/rush_hour", level=0, seed=0, data={"board": board, "distance": 2, "turns": 5})


def test_rush_hour_hand_checked_solution() -> None:
    source = make_source("games/rush_hour")
    problem = rush_problem()
    layout, start = rush_hour._parse(RUSH_BOARD)
    assert rush_hour._solution_distances(layout, start)[start] == 2  # B out of the way, then A out
    state = source.initial_state(problem)
    outcome = source.play(problem, state, "A right 3")  # B is in the way
    assert outcome.state == state and "run into another car" in outcome.observation
    outcome = source.play(problem, state, "B left 1")
    assert outcome.state == state and "vertical and cannot move left" in outcome.observation
    outcome = source.play(problem, state, "b down 2")
    assert outcome.verdict.parsed and not outcome.done
    outcome = source.play(problem, outcome.state, "move car A right 4")
    assert outcome.done and outcome.verdict.correct


def test_rush_hour_refuses_unreadable_moves_and_plans() -> None:
    source = make_source("games/rush_hour")
    problem = rush_problem()
    state = source.initial_state(problem)
    for bad in ("B down 1, A right 4", "B down 1 then A right 4", "B sideways", "down 2", "B down 9"):
        outcome = source.advance(problem, state, source.format_answer(bad))
        assert not outcome.verdict.parsed and outcome.state == state and "B down 2" in outcome.observation
    outcome = source.play(problem, state, "Z up 1")
    assert outcome.state == state and "no car Z" in outcome.observation


def test_rush_hour_catalogue_records_its_longest_solutions() -> None:
    for board, farthest in rush_hour.catalogue()[:12]:
        assert max(rush_hour._solution_distances(*rush_hour._parse(board)).values()) == farthest >= 12
    built = rush_hour.build_catalogue(random.Random(0), 2, 3, max_positions=200)
    for board, farthest in built:
        assert farthest >= 3 and rush_hour._reachable_count(board, 200) <= 200


@pytest.mark.parametrize("level", [0, 4])
def test_rush_hour_oracle_solves_in_the_shortest_number_of_slides(level: int) -> None:
    source = make_source("games/rush_hour")
    for seed in range(3):
        total, won, turns = oracle_episode("games/rush_hour", level, seed)
        assert won and total == 1.0 and turns == source.sample(level, seed).data["distance"]


# --- Leduc hold'em -----------------------------------------------------------

def leduc_data(open_rate: float, raise_rate: float, call_rate: float, ranks: int = 3) -> dict:
    """A problem's data with one fixed rate per tendency (every round, every hand strength)."""
    rates = {"open": open_rate, "raise": raise_rate, "call": call_rate}
    return {"ranks": ranks, "hands": 2, "tape": 7,
            "strategy": {kind: [[rate] * (ranks + 1) for _ in range(2)] for kind, rate in rates.items()}}


def test_leduc_contributions_and_payoff_hand_checked() -> None:
    # Round 1: bet 2, raise to 5, call; round 2: check, bet 4 (second player at 9), the first player folds.
    history = [["bet", "raise", "call"], ["check", "bet", "fold"]]
    assert leduc_holdem._contributions(history) == (5, 9)
    assert leduc_holdem._payoff(history, True, 3, 1, 2) == -5  # the model was first and folded
    assert leduc_holdem._payoff(history, False, 3, 1, 2) == 5
    showdown = [["check", "check"], ["bet", "call"]]
    assert leduc_holdem._payoff(showdown, True, 1, 3, 1) == 5  # a pair with the public card beats a higher rank
    assert leduc_holdem._payoff(showdown, True, 2, 3, 1) == -5
    assert leduc_holdem._payoff(showdown, True, 3, 3, 1) == 0  # equal ranks split


def test_leduc_values_against_simple_opponents() -> None:
    folder = leduc_data(open_rate=0.0, raise_rate=0.0, call_rate=0.0)  # never bets, folds to any bet
    for action in ("bet", "check"):  # betting now or in the second round takes the antes either way
        assert leduc_holdem._decision_value(folder, 0, [[]], action, mine=1) == pytest.approx(1.0)
    caller = leduc_data(open_rate=0.0, raise_rate=0.0, call_rate=1.0)  # never bets, calls everything
    # The model's 1 against a caller: the opponent holds 1 (1/5: a split), 2 or 3 (2/5 each). Against a 2 the
    # public card pairs the model a quarter of the time (then it bets 4 and is called: +5, or +7 after betting now),
    # else the model checks down and loses its stake (1, or 3 after betting now). Check: 2 * 2/5 * (5 - 3) / 4.
    assert leduc_holdem._decision_value(caller, 0, [[]], "check", mine=1) == pytest.approx(0.4)
    assert leduc_holdem._decision_value(caller, 0, [[]], "bet", mine=1) == pytest.approx(2 * 0.4 * (7 - 9) / 4)


def test_leduc_refuses_plans_and_charges_disallowed_actions() -> None:
    source = make_source("games/leduc_holdem")
    problem = source.sample(0, 0)
    state = source.initial_state(problem)
    for plan in ("check call", "check, call", "bet then raise"):
        outcome = source.advance(problem, state, source.format_answer(plan))
        assert not outcome.verdict.parsed and outcome.state == state and "write one action" in outcome.observation
    disallowed = "call" if "call" not in source.legal_moves(problem, state) else "check"
    outcome = source.advance(problem, state, source.format_answer(disallowed))
    assert f"{disallowed} is not allowed now" in outcome.observation and outcome.state["made"] == 1
    assert outcome.state["values"][0] <= state["values"][0]


def test_leduc_oracle_scores_one_and_random_play_near_zero() -> None:
    source = make_source("games/leduc_holdem")
    for seed in range(2):
        total, won, _ = oracle_episode("games/leduc_holdem", 1, seed)
        assert won and total == pytest.approx(1.0)
    scores = []
    for seed in range(6):
        problem, rng = source.sample(1, seed), random.Random(seed)
        scores.append(play_episode(source, problem, lambda state, history, p=problem: rng.choice(
            source.legal_moves(p, state)))[0])
    assert sum(scores) / len(scores) < 0.25


def test_leduc_honest_player_reads_only_the_view() -> None:
    source = make_source("games/leduc_holdem")
    problem = source.sample(0, 3)
    score = play_episode(source, problem, lambda state, history: source.honest_move(source.view(problem, history)))[0]
    assert score >= 0.5
    assert set(source.view(problem).public) == {"ranks", "hands"}


# --- two-handed trick taking -------------------------------------------------

def brute_tricks(mine: tuple, theirs: tuple, model_leads: bool, trump: int) -> int:
    """Best-play tricks for the model by plain minimax over the real cards (no reduction)."""
    if not mine:
        return 0
    leader, other = (mine, theirs) if model_leads else (theirs, mine)
    results = []
    for lead in leader:
        replies = [c for c in other if c // 13 == lead // 13] or list(other)
        outcomes = []
        for reply in replies:
            second_wins = trick_taking._beats(reply, lead, trump)
            model_won = second_wins != model_leads
            model_card, their_card = (lead, reply) if model_leads else (reply, lead)
            rest = brute_tricks(tuple(c for c in mine if c != model_card), tuple(c for c in theirs if c != their_card),
                                model_won, trump)
            outcomes.append(model_won + rest)
        results.append(min(outcomes) if model_leads else max(outcomes))
    return max(results) if model_leads else min(results)


def test_trick_taking_reduced_search_matches_plain_minimax() -> None:
    rng = random.Random(11)
    for _ in range(40):
        cards = rng.randint(2, 4)
        deck = rng.sample(range(52), 2 * cards)
        mine, theirs = tuple(sorted(deck[:cards])), tuple(sorted(deck[cards:]))
        trump, model_leads = rng.choice([-1, 0, 1, 2, 3]), rng.random() < 0.5
        assert trick_taking._best(mine, theirs, model_leads, trump) == brute_tricks(mine, theirs, model_leads, trump)


def test_trick_taking_hand_checked_deal() -> None:
    # You: A and 2 of spades; opponent: K of spades and 3 of hearts; no trumps; you lead.
    # Leading the ace wins a trick and then the 2 loses to nothing (the opponent must discard the 3 of hearts):
    # both tricks. Leading the 2 loses to the king, then the opponent leads hearts and wins again: none.
    mine, theirs = (trick_taking.read_card("AS"), trick_taking.read_card("2S")), (trick_taking.read_card("KS"),
                                                                                 trick_taking.read_card("3H"))
    assert trick_taking._best(tuple(sorted(mine)), tuple(sorted(theirs)), True, -1) == 2
    problem = Problem(env_id="games/trick_taking", level=0, seed=0,
                      data={"mine": sorted(mine), "theirs": sorted(theirs), "trump": -1, "model_leads": True,
                            "contract": 2, "noise": 0.0, "random_chance": 0.5})
    source = make_source("games/trick_taking")
    state = source.initial_state(problem)
    assert source.oracle(problem, state) == "AS"
    outcome = source.play(problem, state, "2S")
    assert outcome.done and not outcome.verdict.correct and "contract lost" in outcome.observation


@pytest.mark.parametrize("text, card", [("QS", 49), ("q s", 49), ("10h", 34), ("Th", 34), ("ten of hearts", 34),
                                        ("Q♠", 49), ("play the ace of clubs.", 12), ("2d", 13)])
def test_trick_taking_reads_card_spellings(text: str, card: int) -> None:
    assert trick_taking.read_card(text) == card


def test_trick_taking_refuses_bad_cards_and_plans() -> None:
    source = make_source("games/trick_taking")
    problem = source.sample(2, 1)
    state = source.initial_state(problem)
    missing = next(c for c in range(52) if c not in state["mine"] and c not in problem.data["theirs"])
    outcome = source.play(problem, state, trick_taking.card_name(missing))
    assert outcome.state == state and "You do not hold" in outcome.observation
    for plan in ("AS KS", "AS, KS", "AS then KS", "QX"):
        outcome = source.advance(problem, state, source.format_answer(plan))
        assert not outcome.verdict.parsed and outcome.state == state and "rank then suit" in outcome.observation
    # Facing a lead, a card of another suit is refused while the model holds the led suit.
    for seed in range(40):
        problem = source.sample(3, seed)
        state = source.initial_state(problem)
        led = state["led"]
        if led is None:
            continue
        same = [c for c in state["mine"] if c // 13 == led // 13]
        other = [c for c in state["mine"] if c // 13 != led // 13]
        if same and other:
            outcome = source.play(problem, state, trick_taking.card_name(other[0]))
            assert outcome.state == state and "must follow suit" in outcome.observation
            return
    raise AssertionError("no deal with a follow-suit choice among 40 seeds")


@pytest.mark.parametrize("level", [0, 4])
def test_trick_taking_oracle_makes_the_contract(level: int) -> None:
    for seed in range(4):
        total, won, _ = oracle_episode("games/trick_taking", level, seed)
        assert won and total == 1.0


def test_trick_taking_random_chance_matches_simulated_random_play() -> None:
    """The exact chance of random cards making the contract (a generation filter) agrees with simulation (roughly:
    the opponent's random draws are fixed per position, so simulation samples one realisation of them)."""
    source = make_source("games/trick_taking")
    problem = source.sample(0, 5)
    rng, wins, episodes = random.Random(3), 0, 600
    for _ in range(episodes):
        wins += play_episode(source, problem, lambda state, history: trick_taking.card_name(
            rng.choice(trick_taking._legal(tuple(state["mine"]), state["led"]))))[1]
    assert abs(wins / episodes - problem.data["random_chance"]) < 0.06


# --- Gomoku ------------------------------------------------------------------

def gomoku_cells(*names: str, size: int = 11) -> frozenset:
    cells = [hex_game.read_cell(name, size, size) for name in names]
    return frozenset(r * size + c for r, c in cells)


def test_gomoku_hand_checked_fours() -> None:
    # X on b2, d2, f2 (row 2: X . X . X) and d4, d6 (column d: d2 . d4 . d6). d3 makes four in d2-d6 (open d5).
    mine = gomoku_cells("b2", "d2", "f2", "d4", "d6")
    theirs = gomoku_cells("k11")
    assert gomoku._completions(11, mine | gomoku_cells("d3"), theirs) == set(gomoku_cells("d5"))
    assert gomoku._shortest(11, mine, theirs, 4) == 0  # each four is blocked with no follow-up four
    # Row 2 b2 c2 . . f2 and column d d1 . d3 . d5 share the empty d2: d2 makes two fours at once (open e2, d4).
    mine = gomoku_cells("b2", "f2", "c2", "d1", "d3", "d5")
    assert gomoku._shortest(11, mine, theirs, 4) == 2
    assert gomoku._winning_move(11, mine, theirs, 4) == next(iter(gomoku_cells("d2")))


def test_gomoku_refuses_bad_moves_and_plans() -> None:
    source = make_source("games/gomoku")
    problem = source.sample(1, 0)
    state = source.initial_state(problem)
    taken, size = problem.data["mine"][0], problem.data["size"]
    outcome = source.play(problem, state, hex_game.cell_name(taken // size, taken % size))
    assert outcome.state == state and "is taken" in outcome.observation
    for bad in ("e5 f6", "e5, f6", "e5 then f6", "z3", f"e{size + 1}"):  # the last: a row past the board
        outcome = source.advance(problem, state, source.format_answer(bad))
        assert not outcome.verdict.parsed and outcome.state == state and "such as e5" in outcome.observation


def test_gomoku_defender_blocks_an_open_four() -> None:
    source = make_source("games/gomoku")
    problem = source.sample(2, 4)
    state = source.initial_state(problem)
    move = source.oracle(problem, state)
    outcome = source.play(problem, state, move)
    mine, theirs = frozenset(outcome.state["mine"]), frozenset(outcome.state["theirs"])
    if not outcome.done:  # the forcing move's single open cell is now the defender's
        assert not gomoku._completions(13, mine, theirs)


@pytest.mark.parametrize("level", [0, 4])
def test_gomoku_oracle_wins_in_the_stated_moves(level: int) -> None:
    source = make_source("games/gomoku")
    for seed in range(3):
        total, won, turns = oracle_episode("games/gomoku", level, seed)
        assert won and total == 1.0 and turns == source.sample(level, seed).data["moves"]
