"""games/diplomacy_lite (issue #27): hand-checked adjudication and policies, refusals, spellings, a replay,
the oracle winning at every level, random legal play losing at the top level."""

from __future__ import annotations

import dataclasses
import random

import palaestra
from palaestra.core.problem import Problem
from palaestra.core.registry import make_source
from palaestra.envs.games import diplomacy_lite
from palaestra.generators.diplomacy import Map, adjudicate, policy_orders
from palaestra.kit.play import play_episode

DIPLOMACY = "games/diplomacy_lite"
BLUE, RED = 0, 1

# Att(0) - Tgt(2), Sup(1) - Tgt(2), Att(0) - Sup(1), Cut(3) - Sup(1)
KITE = Map(("Att", "Sup", "Tgt", "Cut"), ((1, 2), (0, 2, 3), (0, 1), (1,)), (2,))
ATT, SUP, TGT, CUT = range(4)


def test_a_supported_attack_dislodges_a_lone_defender() -> None:
    units = {ATT: BLUE, SUP: BLUE, TGT: RED}
    after, report = adjudicate(KITE, units, {ATT: ("M", TGT), SUP: ("SM", ATT, TGT), TGT: ("H",)})
    assert after == {TGT: BLUE, SUP: BLUE}
    assert report == {ATT: "moved", SUP: "support given", TGT: "dislodged and destroyed"}


def test_a_cut_support_makes_the_attack_bounce() -> None:
    units = {ATT: BLUE, SUP: BLUE, TGT: RED, CUT: RED}
    orders = {ATT: ("M", TGT), SUP: ("SM", ATT, TGT), TGT: ("H",), CUT: ("M", SUP)}
    after, report = adjudicate(KITE, units, orders)
    assert after == units  # 1 against 1 at Tgt, 1 against 1 at Sup: nobody moves
    assert report == {ATT: "bounced", SUP: "support cut", TGT: "held", CUT: "bounced"}


def test_an_attack_from_the_target_does_not_cut_the_support() -> None:
    units = {ATT: BLUE, SUP: BLUE, TGT: RED}
    after, report = adjudicate(KITE, units, {ATT: ("M", TGT), SUP: ("SM", ATT, TGT), TGT: ("M", SUP)})
    assert report[SUP] == "support given" and report[TGT] == "dislodged and destroyed"
    assert after == {TGT: BLUE, SUP: BLUE}


def test_a_standoff_leaves_the_province_empty_and_a_void_support_adds_nothing() -> None:
    units = {ATT: BLUE, SUP: RED}
    after, report = adjudicate(KITE, units, {ATT: ("M", TGT), SUP: ("M", TGT)})
    assert after == units and report == {ATT: "bounced", SUP: "bounced"}
    units = {ATT: BLUE, SUP: RED, CUT: RED}  # Cut's support names a move Sup does not make
    after, report = adjudicate(KITE, units, {ATT: ("M", TGT), SUP: ("M", TGT), CUT: ("SM", SUP, ATT)})
    assert after == units and report[CUT] == "support void"


def test_head_on_moves_bounce_and_a_ring_rotates() -> None:
    triangle = Map(("One", "Two", "Thr"), ((1, 2), (0, 2), (0, 1)), ())
    units = {0: BLUE, 1: RED}
    assert adjudicate(triangle, units, {0: ("M", 1), 1: ("M", 0)})[0] == units
    units = {0: BLUE, 1: RED, 2: RED}
    assert adjudicate(triangle, units, {0: ("M", 1), 1: ("M", 2), 2: ("M", 0)})[0] == {1: BLUE, 2: RED, 0: RED}
    # a move never dislodges its own power's army
    assert adjudicate(triangle, {0: RED, 1: RED, 2: BLUE}, {0: ("M", 1), 2: ("SM", 0, 1)})[0] == {0: RED, 1: RED,
                                                                                                  2: BLUE}


def test_the_scripted_policies_as_stated() -> None:
    # advance: the Red army in Sup heads for the nearest centre not Red's (Tgt, one step), Cut's way is blocked by Sup
    assert policy_orders(KITE, {SUP: RED, CUT: RED}, (-1,), RED, "advance") == {SUP: ("M", TGT), CUT: ("H",)}
    # defend: Sup has a Blue neighbour (Att), so Tgt and Cut support its hold; Sup supports Tgt (threatened too)
    orders = policy_orders(KITE, {ATT: BLUE, SUP: RED, TGT: RED, CUT: RED}, (RED,), RED, "defend")
    assert orders == {SUP: ("SH", TGT), TGT: ("SH", SUP), CUT: ("SH", SUP)}


def _problem(level: int = 2, seed: int = 0) -> Problem:
    return make_source(DIPLOMACY).sample(level, seed)


def test_illegal_missing_and_foreign_orders_are_refused_with_the_reason() -> None:
    source = make_source(DIPLOMACY)
    problem = _problem()
    state = source.initial_state(problem)
    names = problem.data["names"]
    mine = [p for p, power in state["units"] if power == BLUE]
    far = next(q for q in range(len(names)) if q != mine[0] and q not in problem.data["neighbours"][mine[0]])
    lines = [f"A {names[p]} H" for p in mine]
    outcome = source.play(problem, state, "\n".join([f"A {names[mine[0]]} -> {names[far]}", *lines[1:]]))
    assert not outcome.verdict.parsed and outcome.state == state
    assert f"{names[mine[0]]} is not adjacent to {names[far]}" in outcome.observation
    outcome = source.play(problem, state, lines[0])
    assert "no order for your army in" in outcome.observation and not outcome.verdict.parsed
    foreign = next(p for p, power in state["units"] if power != BLUE)
    outcome = source.play(problem, state, "\n".join([f"A {names[foreign]} H", *lines[1:]]))
    assert f"you have no army in {names[foreign]}" in outcome.observation
    outcome = source.play(problem, state, "\n".join([*lines, lines[0]]))
    assert "one move per turn" in outcome.observation and outcome.state == state


def test_other_spellings_play_the_same_orders() -> None:
    source = make_source(DIPLOMACY)
    problem = _problem()
    state = source.initial_state(problem)
    move = source.oracle(problem, state)
    expected = source.play(problem, state, move).state
    lines = move.splitlines()
    variants = [
        "\n".join(reversed(lines)),
        "; ".join(lines),
        move.lower().replace("->", "to").replace(" h\n", " hold\n"),
        "\n".join(line.replace("A ", "", 1).replace(" S A ", " supports ").replace("->", "-") for line in lines),
        "Orders:\n" + "\n".join(f"- {line}." for line in lines),
        f"```\n{move}\n```",
        "\n".join(f"**{line}**" for line in lines),
    ]
    for text in variants:
        outcome = source.play(problem, state, text)
        assert outcome.verdict.parsed and outcome.state == expected, text
    outcome = source.play(problem, state, move + "\nJust kidding, I do not know.")
    assert not outcome.verdict.parsed


def test_the_oracle_wins_every_level_and_the_replay_matches() -> None:
    source = make_source(DIPLOMACY)
    for level in range(5):
        for seed in range(2):
            problem = source.sample(level, seed)
            moves: list[str] = []

            def choose(state, history, problem=problem):
                moves.append(source.oracle(problem, state))
                return moves[-1]

            total, won = play_episode(source, problem, choose)
            assert won and total == 1.0, (level, seed)
            assert palaestra.score(problem, [source.format_answer(m) for m in moves]).reward == total


def test_a_plan_for_two_turns_in_one_reply_is_refused() -> None:
    source = make_source(DIPLOMACY)
    problem = _problem(3, 1)
    state = source.initial_state(problem)
    first = source.oracle(problem, state)
    second = source.oracle(problem, source.play(problem, state, first).state)
    outcome = source.advance(problem, state, source.format_answer(f"{first}\n{second}"))
    assert not outcome.verdict.parsed and outcome.state == state and "one move per turn" in outcome.observation


def test_random_legal_play_loses_at_the_top_level() -> None:
    source = make_source(DIPLOMACY)
    rng = random.Random(0)
    wins = 0
    for seed in range(20):
        problem = source.sample(4, seed)
        wins += play_episode(source, problem, lambda state, history: rng.choice(source.legal_moves(problem, state)))[1]
    assert wins <= 2


def test_every_catalogued_plan_wins_under_a_renaming() -> None:
    source = make_source(DIPLOMACY)
    table = diplomacy_lite._catalogue()
    assert sorted(table) == [0, 1, 2, 3, 4]
    rng = random.Random(1)
    for level, entries in table.items():
        assert len(entries) == diplomacy_lite.PER_LEVEL
        base = source.sample(level, 0)
        for entry in entries:
            names = sorted(rng.sample(diplomacy_lite.NAME_POOL, len(entry["neighbours"])))
            problem = dataclasses.replace(base, data={"names": names, **entry})
            total, won = play_episode(source, problem, lambda state, history, p=problem: source.oracle(p, state))
            assert won and len(entry["plan"]) <= entry["turns"], (level, entry)


def test_off_its_plan_the_oracle_searches_and_gives_legal_orders() -> None:
    source = make_source(DIPLOMACY)
    problem = _problem(2, 3)
    state = source.initial_state(problem)
    names = problem.data["names"]
    holds = "\n".join(f"A {names[p]} H" for p, power in state["units"] if power == BLUE)
    after = source.play(problem, state, holds).state
    assert diplomacy_lite._planned(problem, after) is None or after == state
    assert source.play(problem, after, source.oracle(problem, after)).verdict.parsed


def test_the_catalogue_is_what_its_builder_writes() -> None:
    assert diplomacy_lite.catalogue_entries(0, 3) == diplomacy_lite._catalogue()[0][:3]
