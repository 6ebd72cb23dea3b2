"""games/bomb_defusal and its rules module: hand-checked manual rules, the partner, refused replies, replays,
the honest player, random play and the strike limit."""

from __future__ import annotations

import random
from typing import Any

import palaestra
from palaestra.core import Problem
from palaestra.core.registry import make_source
from palaestra.envs.games.bomb_defusal import read_move
from palaestra.generators.defusal import decide, draw_edgework, draw_manual, draw_module, manual_text, solution
from palaestra.kit.play import play_episode

ENV = "games/bomb_defusal"

# Four-wire list: (1) more than one red wire and an odd serial: cut the last red wire; (2) the last wire is yellow:
# cut the first wire; (3) otherwise the second. Button: blue with more than one battery: hold, else tap; release on
# 4 for a white strip, else 1. Keypad: one column, reversed when there is a lit indicator labelled FRK.
MANUAL: dict[str, Any] = {
    "wires": {"4": [[[["more_than_one", "red"], ["odd"]], ["last_of", "red"]],
                    [[["last_is", "yellow"]], ["wire", 1]],
                    [[], ["wire", 2]]]},
    "button": {"rules": [[[["button_is", "blue"], ["batteries_more", 1]], "hold"], [[], "tap"]],
               "release": [["white", 4]], "release_other": 1},
    "keypad": {"columns": [["omega", "psi", "star", "hook", "bell", "moon"]], "reverse_if": [["lit", "FRK"]]},
}
WIRES = {"kind": "wires", "wires": ["red", "blue", "red", "yellow"]}
BUTTON = {"kind": "button", "colour": "blue", "label": "HOLD", "strip": "white"}
KEYPAD = {"kind": "keypad", "symbols": ["bell", "omega", "hook", "psi"]}
EDGEWORK = {"serial": "AB3CD8", "batteries": 2, "indicators": [["FRK", True], ["CAR", False]]}


def hand_problem(strikes: int = 2, serial: str = "AB3CD8") -> Problem:
    data = {"kinds": ["wires", "button", "keypad"], "manual": MANUAL, "strikes": strikes, "turns": 12, "work": 1,
            "device": {"edgework": {**EDGEWORK, "serial": serial}, "modules": [WIRES, BUTTON, KEYPAD]}}
    return Problem(env_id=ENV, level=0, seed=0, prompt="", data=data, version=make_source(ENV).version)


def play(problem: Problem, moves: list[str]) -> tuple[Any, list[Any]]:
    source = make_source(ENV)
    state, outcomes = source.initial_state(problem), []
    for move in moves:
        outcome = source.advance(problem, state, f"<answer>{move}</answer>")
        state = outcome.state
        outcomes.append(outcome)
    return state, outcomes


def test_manual_rules_evaluate_as_checked_by_hand() -> None:
    # even serial: rule 1 fails on its second atom, rule 2 holds (the last wire is yellow): the first wire
    assert solution(MANUAL, WIRES, EDGEWORK) == 1
    # odd serial: rule 1 holds: the last red wire is wire 3
    assert solution(MANUAL, WIRES, {**EDGEWORK, "serial": "AB3CD7"}) == 3
    # what is unknown is asked for, in the order the rules read it
    assert decide(MANUAL, None, {}, "wires") == ("need", "module", 0)
    assert decide(MANUAL, WIRES, {}) == ("need", "serial", 1)
    assert decide(MANUAL, {**WIRES, "wires": ["blue", "blue", "white", "yellow"]}, {}) == ("act", 1, 2)
    # the button: blue and two batteries: hold, released on the white strip's 4; one battery: tap
    assert solution(MANUAL, BUTTON, EDGEWORK) == 4
    assert solution(MANUAL, BUTTON, {**EDGEWORK, "batteries": 1}) == "tap"
    assert decide(MANUAL, None, {"batteries": 1}, "button") == ("act", "tap", 2)  # decided without seeing it
    # the keypad: column order, reversed by the lit FRK
    assert solution(MANUAL, KEYPAD, EDGEWORK) == ["bell", "hook", "psi", "omega"]
    assert solution(MANUAL, KEYPAD, {**EDGEWORK, "indicators": [["FRK", False]]}) == ["omega", "psi", "hook", "bell"]
    text = manual_text(MANUAL)
    assert "If there is more than one red wire and the last digit of the serial number is odd: cut the last red " \
           "wire." in text
    assert "Otherwise, if the last wire is yellow: cut the first wire." in text
    assert "If the button is blue and there is more than one battery: hold the button." in text


def test_partner_answers_truthfully_and_a_whole_game_is_won() -> None:
    problem = hand_problem()
    state, outcomes = play(problem, ["ask: module 1", "ask: serial", "cut wire 1 on module 1",
                                     "ask: module 2", "ask: batteries", "hold the button on module 2 and release at 4",
                                     "ask: module 3", "ask: indicators", "press bell on module 3",
                                     "press hook on module 3", "press psi on module 3", "press omega on module 3"])
    said = [outcome.observation for outcome in outcomes]
    assert said[0] == "Your partner: Module 1 (wires) has 4 wires, from the top: red, blue, red, yellow."
    assert said[1] == "Your partner: The serial number is AB3CD8."
    assert said[2] == "Your partner cuts wire 1 on module 1. Module 1 is disarmed."
    assert said[3] == ("Your partner: Module 2 (button) is a blue button labelled HOLD, with a white strip "
                       "beside it.")
    assert said[7] == "Your partner: The indicators are: lit FRK, unlit CAR."
    assert said[8] == "Your partner presses bell on module 3: the key lights up."
    assert outcomes[-1].done and outcomes[-1].verdict.reward == 1.0
    assert not any(outcome.done for outcome in outcomes[:-1])


def test_a_wrong_instruction_is_a_bare_strike_and_the_strike_limit_explodes_the_device() -> None:
    _, outcomes = play(hand_problem(strikes=2), ["cut wire 2 on module 1", "cut wire 2 on module 1",
                                                 "tap the button on module 2"])
    assert outcomes[0].observation == "Your partner cuts wire 2 on module 1. Strike 1 of 2!"  # nothing else told
    assert not outcomes[0].done and outcomes[0].verdict.parsed
    assert "already cut" in outcomes[1].observation and not outcomes[1].verdict.parsed
    assert outcomes[2].done and outcomes[2].verdict.reward == 0.0 and "explodes" in outcomes[2].observation
    _, outcomes = play(hand_problem(strikes=1), ["press omega on module 3"])  # a wrong key at a limit of one strike
    assert outcomes[0].done and outcomes[0].verdict.reward == 0.0
    replies = ["<answer>cut wire 4 on module 1</answer>", "<answer>cut wire 1 on module 1</answer>"]
    verdict = palaestra.score(hand_problem(strikes=1).to_json(), replies)
    assert verdict.reward == 0.0 and not verdict.correct and "exploded" in verdict.feedback
    episode = make_source(ENV).replay(hand_problem(strikes=1), replies)
    assert episode.done and len(episode.verdicts) == 1  # the right cut after the explosion is never played


def test_unreadable_unfit_and_two_move_replies_are_refused_with_a_useful_message() -> None:
    problem = hand_problem()
    start = make_source(ENV).initial_state(problem)
    state, outcomes = play(problem, ["defuse it", "press omega on module 1", "ask: module 9",
                                     "cut wire 7 on module 1", "press moon on module 3",
                                     "cut wire 1 on module 1, then tap the button on module 2"])
    assert state == start
    assert all(not outcome.verdict.parsed and not outcome.done for outcome in outcomes)
    said = [outcome.observation for outcome in outcomes]
    assert "ask: serial" in said[0] and "cut wire W on module N" in said[0]
    assert "module 1 is a wires module, not a keypad module" in said[1]
    assert "there is no module 9" in said[2]
    assert "module 1 has no wire 7" in said[3]
    assert "has no moon key" in said[4]
    assert "one move per turn" in said[5].lower()


def test_moves_are_read_in_a_careful_graders_spellings() -> None:
    assert read_move("Move: Module 1: cut wire 3.") == ("cut", 1, 3)
    assert read_move("Action: ask: serial") == ("ask", "serial")
    assert read_move("**ASK: BATTERIES**") == ("ask", "batteries")
    assert read_move("What is the serial number?") == ("ask", "serial")
    assert read_move("how many batteries?") == ("ask", "batteries")
    assert read_move("What does module 2 show?") == ("ask", 2)
    assert read_move("cut the 3rd wire on module 1") == ("cut", 1, 3)
    assert read_move("Hold the button on module 2, release at 4.") == ("hold", 2, 4)
    assert read_move("hold the button on module 2 and release when the timer shows a 4") == ("hold", 2, 4)
    assert read_move("press the button on module 2") == ("tap", 2)
    assert read_move("\\boxed{press omega on module 3}") == ("press", 3, "omega")
    for bad in ("cut wire 3", "press sword on module 1", "ask: serial and batteries", "cut wire 3 on module 1. "
                "No, wait: cut wire 2 on module 1", "x" * 400):
        assert read_move(bad) is None, bad


def test_honest_player_wins_every_level_and_its_replay_matches() -> None:
    source = make_source(ENV)
    for level in range(6):
        for seed in range(3):
            problem = source.sample(level, seed)
            moves: list[str] = []

            def honest(state: Any, history: Any, p: Problem = problem) -> str:
                moves.append(source.honest_move(source.view(p, history)))
                return moves[-1]

            total, won = play_episode(source, problem, honest)
            assert won and total == 1.0, (level, seed)
            assert len(moves) <= source.max_turns(problem)
            assert palaestra.score(problem.to_json(), [f"<answer>{m}</answer>" for m in moves]).reward == total


def test_random_legal_play_and_the_blunt_rules_lose_at_the_top_level() -> None:
    source = make_source(ENV)
    policies = source.heuristics()
    for name in ("uniformly random legal question or instruction",
                 "never ask: cut the top wire, tap, press the first column in order",
                 "ask each module only; cut the last wire, tap, press top to bottom"):
        wins = 0.0
        for seed in range(8):
            problem, rng = source.sample(4, seed), random.Random(seed)
            wins += play_episode(source, problem, lambda state, history, p=problem: policies[name](p, state,
                                                                                                  history, rng))[0]
        assert wins <= 1, name


def test_right_action_depends_on_hidden_facts_and_varies_across_seeds() -> None:
    source = make_source(ENV)
    cuts = set()
    for seed in range(40):
        problem = source.sample(2, seed)
        device = problem.data["device"]
        for module in device["modules"]:
            if module["kind"] == "wires":
                cuts.add((len(module["wires"]), solution(problem.data["manual"], module, device["edgework"])))
        # the manual alone decides nothing: each module needs a question first
        for kind in problem.data["kinds"]:
            assert decide(problem.data["manual"], None, {}, kind)[0] == "need"
    assert len({wire for _, wire in cuts}) >= 5 and len({wire for count, wire in cuts if count == 6}) >= 3


def test_every_manual_section_gives_different_answers_on_different_devices() -> None:
    rng = random.Random(7)
    for seed in range(10):
        manual = draw_manual(random.Random(seed), ["wires", "button", "keypad"], (3, 6), 5, 3, 2, 4)
        for kind in ("wires", "button", "keypad"):
            answers = set()
            for _ in range(40):
                module = draw_module(rng, kind, manual, 5)
                answers.add(repr(solution(manual, module, draw_edgework(rng))))
            assert len(answers) >= 2, (seed, kind)
        # no rule repeats all the atoms of an earlier rule of its list (it could never apply)
        for rules in [*manual["wires"].values(), manual["button"]["rules"]]:
            conditions = [{tuple(atom) for atom in condition} for condition, _ in rules[:-1]]
            for later, condition in enumerate(conditions):
                assert not any(before <= condition for before in conditions[:later]), (seed, rules)
