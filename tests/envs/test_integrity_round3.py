"""Reward integrity, round 3 (issue 21): one move per turn, negotiation's regret, far levels, inverses with domains.

Each test pins one fix: the multi-turn games that declare ``one_move_per_turn`` refuse a plan
(several moves in one reply) like an unreadable move and say why, yet read one move in the
grader's spellings; negotiation pays random play about 0 and its honest player most; unbounded
envs generate at levels 20 and 40; an inverse function may come with its (right) domain.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

import pytest

from palaestra.core import MultiTurnTask, Problem, Task, Verdict, make_source, register, registry
from palaestra.core.multiturn import ONE_MOVE_PER_TURN, plan_pieces, snapshot
from palaestra.core.task import Growth
from palaestra.envs.algebra.function_inverse import inverse_domain
from palaestra.envs.games import sealed_bid_auction
from palaestra.envs.interactive import negotiation
from palaestra.kit import Settings, levels, play, run_check, run_checks

ONE_MOVE_GAMES = [
    # read the first move of a plan, or one number of it, before round 3
    "games/absurdle", "games/battleship", "games/blackjack", "games/multi_armed_bandit", "games/contextual_bandit",
    "games/dynamic_pricing", "games/frozen_lake", "games/game_2048", "games/gops", "games/guess_number",
    "games/kalah", "games/kuhn_poker", "games/sealed_bid_auction", "games/word_ladder", "games/wordle",
    "interactive/text_adventure", "interactive/negotiation",
    # refused plans already and now declare it
    "games/connect_four", "games/eight_puzzle", "games/lights_out", "games/nim", "games/nonogram", "games/othello",
    "games/peg_solitaire", "games/tic_tac_toe",
]


def _first_moves(source: MultiTurnTask, problem, count: int = 3) -> list[str]:
    """The oracle's first moves (up to ``count``, fewer when the game ends)."""
    state, moves = source.initial_state(problem), []
    for _ in range(count):
        moves.append(source.oracle(problem, state))
        outcome = source.advance(problem, state, source.format_answer(moves[-1]))
        state = outcome.state
        if outcome.done:
            break
    return moves


@pytest.mark.parametrize("env_id", ONE_MOVE_GAMES)
def test_a_plan_in_one_reply_is_refused_and_one_move_is_read(env_id: str) -> None:
    source = make_source(env_id)
    assert isinstance(source, MultiTurnTask) and source.one_move_per_turn
    refused = 0
    for level in (0, source.levels() - 1):
        for seed in range(3):
            problem = source.sample(level, seed)
            start = source.initial_state(problem)
            moves = _first_moves(source, problem)
            one = source.advance(problem, start, source.format_answer(moves[0]))
            assert one.verdict.parsed, (level, seed, moves[0], one.observation)
            for spelling in (f"Answer: {moves[0]}", f"**{moves[0]}**", f"My move: {moves[0]}"):
                again = source.advance(problem, start, source.format_answer(spelling))
                assert again.verdict.parsed and snapshot(again.state) == snapshot(one.state), (spelling, again.observation)
            if len(moves) < 2:
                continue
            unreadable = snapshot(source.advance(problem, start, source.format_answer("??")).state)
            for plan in (", ".join(moves), ", then ".join(moves), "\n".join(f"{k}. {m}" for k, m in enumerate(moves, 1))):
                outcome = source.advance(problem, start, source.format_answer(plan))
                assert not outcome.verdict.parsed, (level, seed, plan, outcome.observation)
                assert snapshot(outcome.state) in (snapshot(start), unreadable), (plan, outcome.state)
                refused += 1
    assert refused > 0


def test_the_refusal_says_one_move_per_turn() -> None:
    source = make_source("games/multi_armed_bandit")
    problem = source.sample(0, 0)
    outcome = source.advance(problem, source.initial_state(problem), source.format_answer("A, then B"))
    assert not outcome.verdict.parsed and ONE_MOVE_PER_TURN in outcome.observation.lower()
    # a hedge is not a plan: refused with the game's own message
    hedge = source.advance(problem, source.initial_state(problem), source.format_answer("A or B"))
    assert not hedge.verdict.parsed and ONE_MOVE_PER_TURN not in hedge.observation.lower()


@pytest.mark.parametrize("text, pieces", [
    ("e2e4, then d2d4", ["e2e4", "d2d4"]), ("L R U", ["L", "R"]), ("1. b4\n2. c4", ["1. b4", "2. c4"]),
    ("take 1 from heap A and split it, take 2 from heap B", ["take 1 from heap A and split it", "take 2 from heap B"]),
    ("go north then take red key", ["go north", "take red key"]), ("B", []), ("a" + " " * 50_000 + "b", []),
])
def test_plan_pieces(text: str, pieces: list[str]) -> None:
    assert plan_pieces(text) == pieces


def test_guess_number_reads_spaced_digits_as_several_guesses() -> None:
    source = make_source("games/guess_number")
    problem = source.sample(3, 0)
    start = source.initial_state(problem)
    low = problem.data["low"]
    assert not source.advance(problem, start, source.format_answer(f"{low} {low + 1}")).verdict.parsed
    assert source.advance(problem, start, source.format_answer(f"{low:,}")).verdict.parsed


def test_text_adventure_reads_only_items_a_world_can_hold() -> None:
    source = make_source("interactive/text_adventure")
    problem = source.sample(0, 0)
    start = source.initial_state(problem)
    assert not source.advance(problem, start, source.format_answer("take red key go south")).verdict.parsed
    assert source.advance(problem, start, source.format_answer("take the old boot")).verdict.parsed


def test_2048_takes_one_move_per_turn() -> None:
    source = make_source("games/game_2048")
    problem = source.sample(0, 0)
    start = source.initial_state(problem)
    assert "one move" in problem.prompt
    assert not source.advance(problem, start, source.format_answer("LLD")).verdict.parsed
    assert source.advance(problem, start, source.format_answer("left")).verdict.parsed


@pytest.mark.parametrize("env_id", ["games/game_2048", "games/guess_number", "interactive/text_adventure",
                                    "games/nim", "games/kuhn_poker"])
def test_kit_protocol_passes(env_id: str) -> None:
    (result,) = run_checks(env_id, Settings.ci(), checks=["protocol"])
    assert result.ok, result.detail


# --- negotiation: regret-normalised, with an honest player -----------------------------------------

def test_negotiation_random_play_scores_about_zero_and_the_honest_player_most() -> None:
    source = make_source("interactive/negotiation")
    random_policy = play._random_legal(source)
    for level in (0, 4):
        random_total = honest_total = 0.0
        episodes = 60
        for seed in range(episodes):
            problem = source.sample(level, seed)
            rng = random.Random(seed)
            random_total += play.play_episode(source, problem, lambda s, h, p=problem: random_policy(p, s, h, rng))[0]
            honest_total += play.play_episode(source, problem,
                                              lambda s, h, p=problem: source.honest_move(source.view(p, h)))[0]
        assert random_total / episodes < 0.12, level
        assert honest_total / episodes > (0.9 if level == 0 else 0.45), level


def test_negotiation_random_share_is_the_mean_of_random_play() -> None:
    source = make_source("interactive/negotiation")
    problem = source.sample(2, 3)
    data = problem.data
    rng = random.Random(7)
    shares = []
    for _ in range(4000):
        state = source.initial_state(problem)
        share = 0.0
        for _ in range(source.max_turns(problem)):
            move = rng.choice(source.legal_moves(problem, state))
            outcome = source.play(problem, state, move)
            state = outcome.state
            if outcome.done:
                price = int(outcome.verdict.feedback.split()[-1]) if outcome.verdict.feedback.startswith("deal") else None
                share = 0.0 if price is None else negotiation._share(data, price)
                break
        shares.append(share)
    assert abs(sum(shares) / len(shares) - negotiation._random_share(data)) < 0.02


def test_negotiation_limit_sells_for_one_and_the_honest_offer_is_always_accepted() -> None:
    source = make_source("interactive/negotiation")
    for level in range(5):
        for seed in range(20):
            problem = source.sample(level, seed)
            total, won = play.play_episode(source, problem, lambda s, h, p=problem: source.oracle(p, s))
            assert total == 1.0 and won
            moves: list[tuple[str, str]] = []
            state = source.initial_state(problem)
            for _ in range(source.max_turns(problem)):
                move = source.honest_move(source.view(problem, tuple(moves)))
                outcome = source.play(problem, state, move)
                moves.append((move, outcome.observation))
                state = outcome.state
                if outcome.done:
                    break
            assert "deal at" in moves[-1][1], (level, seed, moves)  # the last offer never exceeds the limit


# --- far levels of unbounded envs ---------------------------------------------------------------------

@dataclass(frozen=True)
class Sizes:
    count: int
    spread: tuple[int, int]
    fixed: tuple[int, int]


def test_growth_limits_cap_growing_values_only_and_ranges_end_by_end() -> None:
    presets = (Sizes(2, (1, 4), (0, 1)), Sizes(3, (2, 6), (0, 2)))
    rule = Growth(limits={"count": 5, "spread": (4, 9), "fixed": 3})  # fixed: the low end 0 does not grow
    assert [rule.beyond(presets, past) for past in (1, 4)] == [Sizes(4, (3, 8), (0, 3)), Sizes(5, (4, 9), (0, 3))]


class Triple(Task):
    id = "integrity3/triple"
    family = "integrity3"
    description = "Triple a number."
    Config = Sizes
    presets = tuple(Sizes(d, (d, d), (0, d)) for d in (1, 2, 3, 4, 5))
    growth = Growth()

    def generate(self, rng: random.Random, config: Sizes) -> Problem:
        n = rng.randrange(10 ** (config.count - 1), 10 ** config.count)
        return Problem(prompt=f"Triple {n}.", answer=str(3 * n), data={"n": n})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        return Verdict.judge(answer.strip() == str(3 * problem.data["n"]))

    def difficulty(self, problem: Problem) -> float:
        return len(str(problem.data["n"]))


class RaisesFar(Triple):
    id = "integrity3/raises_far"

    def generate(self, rng: random.Random, config: Sizes) -> Problem:
        names = ["n"] * 12  # a pool that runs out past level 10
        rng.sample(names, config.count)
        return super().generate(rng, config)


class StallsFar(Triple):
    id = "integrity3/stalls_far"

    def generate(self, rng: random.Random, config: Sizes) -> Problem:
        if config.count > 15:
            deadline = time.process_time() + 10 * STALL_BOUND  # CPU burnt far past the (lowered) bound
            while time.process_time() < deadline:
                pass
        return super().generate(rng, config)


STALL_BOUND = 0.05


@pytest.fixture()
def toy_envs(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(levels, "GENERATE_CPU_SECONDS", STALL_BOUND)
    for cls in (Triple, RaisesFar, StallsFar):
        register(cls)
    yield
    for cls in (Triple, RaisesFar, StallsFar):
        registry.remove(cls.id)


def test_far_levels_check_fails_an_env_that_raises_or_stalls_far_out(toy_envs: None) -> None:
    assert run_check(Triple.id, "far_levels", Settings.ci()).ok
    raised = run_check(RaisesFar.id, "far_levels", Settings.ci())
    assert not raised.ok and "ValueError" in raised.detail
    started = time.process_time()
    stalled = run_check(StallsFar.id, "far_levels", Settings.ci())
    assert not stalled.ok and "CPU" in stalled.detail
    assert time.process_time() - started < 5 * STALL_BOUND  # stopped by the timer, not run to its end


@pytest.mark.parametrize("env_id", ["algebra/polynomial_factorization", "algorithms/multi_key_sort", "algorithms/tsp",
                                    "games/contextual_bandit", "graphs/count_shortest_paths", "economics/fair_division"])
def test_far_levels_generate(env_id: str) -> None:
    result = run_check(env_id, "far_levels", Settings.ci())
    assert result.ok, result.detail


# --- function inverse: a domain statement ----------------------------------------------------------------

def _inverse_problem(level: int, want: str):
    source = make_source("algebra/function_inverse")
    for seed in range(200):
        problem = source.sample(level, seed)
        if inverse_domain(problem.data)[0] == want:
            return source, problem
    raise AssertionError(f"no {want} domain at level {level}")


@pytest.mark.parametrize("level, want, right, wrong", [
    (2, "all", ["{a} for all x", "f^{{-1}}(x) = {a}, x ∈ ℝ", "{a} for all real x."], ["{a} for x > 0", "{a}, x ≥ 1"]),
    (3, "ne", ["{a}, x ≠ {c}", "{a} (x != {c})", "{a} for x ≠ {c}"], ["{a} for all x", "{a}, x ≠ {d}"]),
    (4, "gt", ["{a} for x > {c}", "{a} on ({c}, ∞)", "f^{{-1}}(x) = {a}, x > {c}", "{a} for x in ({c}, inf)"],
     ["{a} for x ≥ {c}", "{a} for all x", "{a} for x > {d}"]),
    (4, "ge", ["{a} for x ≥ {c}", "{a} on [{c}, \\infty)", "$f^{{-1}}(x) = {a}, \\quad x \\geq {c}$", "{a} (x >= {c})."],
     ["{a} for x > {c}", "{a} on ({c}, ∞)", "{a} for all x"]),
])
def test_function_inverse_reads_a_stated_domain(level: int, want: str, right: list[str], wrong: list[str]) -> None:
    source, problem = _inverse_problem(level, want)
    domain = inverse_domain(problem.data)
    bound = domain[1] if len(domain) > 1 else Fraction(0)
    values = {"a": problem.answer, "c": bound, "d": bound + 1}
    for spelling in right:
        verdict = source.verify(problem, spelling.format(**values))
        assert verdict.correct, (spelling.format(**values), verdict.feedback)
    for spelling in wrong:
        verdict = source.verify(problem, spelling.format(**values))
        assert not verdict.correct, spelling.format(**values)
    # a domain clause does not make a wrong formula right, nor read past a retraction
    assert not source.verify(problem, f"({problem.answer}) + 1 for all x").correct
    assert not source.verify(problem, f"{problem.answer} for x > {bound}. Just kidding").correct


# --- item 5: the full-size kit on the multi-turn envs ----------------------------------------------------

def test_auction_random_bids_score_about_zero_at_every_level() -> None:
    """The zero point is the random bids' mean plus one standard deviation: the clip at 0 no longer pays them."""
    source = make_source("games/sealed_bid_auction")
    for level in (0, 1):  # the levels where the mean alone paid random bids most
        total = 0.0
        for seed in range(80):
            problem = source.sample(level, seed)
            caps, values = problem.data["caps"], problem.data["values"]
            rng = random.Random(seed)
            achieved = sum(sealed_bid_auction._units(rng.randint(0, value), value, caps) for value in values)
            total += source._reward(problem, achieved, True)
        assert total / 80 < 0.13, level  # 0.03-0.08 over 300 seeds (0.16-0.18 before)
    problem = source.sample(0, 0)
    best = [str(sealed_bid_auction._best_bid(value, problem.data["caps"])) for value in problem.data["values"]]
    assert play.play_episode(source, problem, lambda s, h: best[s["round"]])[0] == pytest.approx(1.0)


def test_npv_irr_references_hold_where_v1_scaled_some_flows_only() -> None:
    """v1 scaled small cash flows by 100 and large ones not, so the stated IRR was not the flows' (found by
    `palaestra stats`: 2 of 10 problems at levels 2-3); every reference is accepted now."""
    from palaestra.core.registry import make_source as source_of

    task = source_of("economics/npv_irr")
    for level, seed in ((2, 70009), (3, 70006)):
        problem = task.sample(level, seed)
        assert task.verify(problem, problem.answer or "").correct, problem.data


def test_stdio_lines_ignore_trailing_white_space() -> None:
    """A Go program printing `Case #3:` where the reference printed `Case #3: ` (an empty answer) passes."""
    from palaestra.verifiers.polyglot import judge_lines

    assert judge_lines(["Case #1: 2", "Case #2:"], ["Case #1: 2", "Case #2: "]) == (2, None)
    assert judge_lines(["Case #1: 3"], ["Case #1: 2"])[0] == 0


def test_a_plan_whose_last_move_holds_semicolons_is_still_a_plan() -> None:
    """Found by the full kit: questions joined by commas, then a solution written with ';', were cut at the ';'
    only (the strongest cut present), so neither piece read as a move and the refusal did not name the protocol."""
    source = make_source("games/logic_grid_questions")
    problem = source.sample(0, 7)
    people, values = problem.data["people"], problem.data["values"]
    solution = "; ".join(f"{person} {values[0][i]} {values[1][i]}" for i, person in enumerate(people))
    plan = (f"Is {people[0]} the owner of the {values[0][0]} house?, Is {people[1]} the owner of the {values[0][1]} "
            f"house?, solution: {solution}")
    outcome = source.advance(problem, source.initial_state(problem), source.format_answer(plan))
    assert not outcome.verdict.parsed and ONE_MOVE_PER_TURN in outcome.observation.lower(), outcome.observation
