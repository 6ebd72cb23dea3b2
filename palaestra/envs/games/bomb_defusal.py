"""Cooperative bomb defusal: the model holds the manual, a scripted partner sees the device and answers questions.

In the spirit of "Keep Talking and Nobody Explodes". The device (hidden from the model) has edgework
-- a serial number, batteries, lit and unlit indicators -- and numbered modules of three kinds: wires
(cut the one right wire), a button (tap it, or hold it and release on a digit) and a keypad (press
its four symbols in the right order). The model holds the manual, drawn per problem by
:mod:`palaestra.generators.defusal` and printed in the prompt: per wire count a list of rules "if
<condition>: cut ...", the first rule that holds applies; a tap-or-hold rule list and a table from the
button's strip colour to the release digit; keypad columns of symbols (and, at depth two and more, a
condition that reverses the order). Conditions are conjunctions of up to ``depth`` atoms about the
module and the edgework, so the right action depends on hidden facts; at generation every section is
checked against twelve other drawn devices to give at least two different answers.

The partner is scripted and truthful. Each turn the model writes one question or one instruction
(stated in the prompt): ``ask: serial``, ``ask: batteries``, ``ask: indicators``, ``ask: module N``
(the partner describes the module's face: the wire colours from the top, the button's colour, label
and strip, or the keypad's symbols); ``cut wire W on module N``, ``tap the button on module N``,
``hold the button on module N and release at D``, ``press SYMBOL on module N``. The partner carries
instructions out. A right one disarms the module (or lights a keypad key); a wrong one is a strike,
and the feedback says only "strike" (a wrongly cut wire stays cut). At the level's strike limit the
device explodes (reward 0). Reward 1 when every module is disarmed within the turn budget. An
unreadable reply, two actions in one reply, an instruction that does not fit the module (no such
module, wire or key; the wrong kind; a module already disarmed) is refused and the turn is spent.

The edgework is drawn last, among the answers it can give: 32 edgeworks are drawn for the device's manual and
faces, each gives an answer (the right action of every module), and the device's edgework is one giving an answer
drawn uniformly among the distinct ones (at least eight, else the device is redrawn). A player who never asks about
the edgework -- one who ignores the conditions, follows one rule of each list, cuts a fixed wire, or assumes a serial
number and a battery count -- gives one of those answers whatever it does, so it wins at most one game in eight.

The honest player (:meth:`BombDefusal.honest_move`) reads only the prompt's manual (public) and the
partner's answers: for the first armed module it applies the manual with
:func:`palaestra.generators.defusal.decide`, asks the first fact the rules need, and instructs once the
rules decide. The turn budget is the honest player's questions and instructions plus ``SLIPS``. The
oracle reads the device and instructs without asking. Heuristics declared: never ask (cut the top wire, tap,
press the first column in order); ask each module only, then cut the last wire / tap / press top to bottom;
follow each list's "otherwise" rule whatever the conditions; follow each list's first rule (these three ask what
their rule needs); random legal replies. Version 1 drew the edgework freely, so most conditions came out false:
the "otherwise" rule won 0.40 / 0.33 / 0.20 / 0.20 / 0.20 of levels 0-4 and a player assuming one edgework
0.73-0.83 at level 0 and 0.30-0.40 at level 4; version 2 (40 games a level): at most 0.10 for the declared rules,
0.07-0.20 (0.12 on average, the bound being 1/8) for an assumed edgework, 0 for random play.

Levels grow the modules (four to six), the wires and colours, the rules per list and the atoms per condition
(two, then three); one wrong instruction explodes the device (version 1 allowed two at levels 0-2 with two or
three modules, too few answers to guess among). Past the presets one module and one atom more per level (at
most four atoms). The difficulty measure is the rule conditions the honest player reads plus the questions it
needs plus the instructions.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, View, register, retry
from palaestra.core.multiturn import MAX_MOVE_CHARS, History
from palaestra.core.task import Growth
from palaestra.generators.defusal import (
    FACTS,
    GUARANTEES,
    KINDS,
    SYMBOLS,
    decide,
    draw_edgework,
    draw_manual,
    draw_module,
    fact_text,
    manual_text,
    module_text,
    solution,
)
from palaestra.verifiers.moves import read_move_answer
from palaestra.verifiers.normalize import squeeze_spaces, unify

SLIPS = 2  # turns of slack beyond the honest player's need
EDGEWORK_DRAWS = 32  # edgeworks drawn per device: the device's own is drawn among the answers they give
MIN_ANSWERS = 8  # distinct answers (the right action per module) those draws must give, else the device is redrawn
_LEAD = r"(?:(?:action|instruction|question|reply|move)\s?:\s?)?"
_ON = r" (?:on|of|in|at|from) (?:the )?module (\d{1,2})"
_ASK = re.compile(
    rf"^{_LEAD}(?:ask(?: (?:my |the |your )?partner)?:? ?|question:? )?"
    r"(?:(?:what|which)(?:'s| is| are| does)? (?:the |on |on the )?|how many |describe (?:the )?|"
    r"tell me (?:about )?(?:the )?)?"
    r"(serial(?: number)?|batter(?:y|ies)(?: count)?|indicators?|module (\d{1,2}))"
    r"(?: (?:show|shows|look like|looks like|say|says|are there|has|have))?\??$")
_CUT = re.compile(rf"^{_LEAD}cut (?:the )?(?:wire (?:number |#)?(\d{{1,2}})|(\d{{1,2}})(?:st|nd|rd|th) wire){_ON}$")
_TAP = re.compile(rf"^{_LEAD}(?:tap|press|push|click) (?:the )?button{_ON}(?: and release it(?: at once| immediately)?)?$")
_HOLD = re.compile(rf"^{_LEAD}hold (?:down )?(?:the )?button{_ON},? (?:and |then )?release(?: it)? "
                   r"(?:at|on|when the timer shows)(?: an?)? (\d)$")
_PRESS = re.compile(rf"^{_LEAD}(?:press|push|tap) (?:the )?([a-z]+)(?: symbol| key)?{_ON}$")
_MODULE_FIRST = re.compile(r"^(?:on )?module (\d{1,2}) ?[:,-]? ((?:cut|tap|press|push|click|hold) .+)$")
# The partner's answers and the feedback, as the honest player reads them back.
_SAID_SERIAL = re.compile(r"The serial number is (\w+)\.")
_SAID_BATTERIES = re.compile(r"The device has (\d+) batter")
_SAID_INDICATORS = re.compile(r"The indicators are: ([^.]*)\.|The device has no indicators\.")
_SAID_WIRES = re.compile(r"Module (\d+) \(wires\) has \d+ wires, from the top: ([a-z, ]+)\.")
_SAID_BUTTON = re.compile(r"Module (\d+) \(button\) is a (\w+) button labelled (\w+), with a (\w+) strip")
_SAID_KEYPAD = re.compile(r"Module (\d+) \(keypad\) shows the symbols ([a-z, ]+)\.")
_SAID_DISARMED = re.compile(r"Module (\d+) is disarmed\.")
_SAID_LIT = re.compile(r"presses (\w+) on module (\d+): the key lights up")

Action = tuple[Any, ...]


@register
class BombDefusal(MultiTurnTask):
    id = "games/bomb_defusal"
    family = "games"
    description = "Cooperative bomb defusal: hold the manual, question a partner who sees the device, instruct it."
    tags = ("games", "multi-turn", "cooperative", "imperfect-information", "rules", "dialogue")
    one_move_per_turn = True
    hidden_information = True  # the device: edgework and every module's face
    public_keys = ("manual", "kinds", "strikes")  # the manual, the modules' kinds and the strike limit are printed
    version = 2  # v2: the edgework is drawn among the answers it can give; four to six modules, one strike

    @dataclass(frozen=True)
    class Config:
        modules: int
        wires: tuple[int, int]  # wire counts the manual covers (a wires module has one of them)
        colours: int  # wire colours in use
        rules: int  # conditional rules per list (an "otherwise" rule follows)
        depth: int  # most atoms in a condition
        columns: int  # keypad columns
        strikes: int  # the device explodes at this many strikes

    # Version 2: levels 0-2 had two or three modules, one-atom conditions (levels 0-1) and two strikes: too few
    # answers to draw the edgework's among, and a second strike would let a wrong guess be corrected.
    presets = (Config(4, (3, 4), 4, 2, 2, 3, 1), Config(5, (3, 5), 5, 2, 2, 4, 1), Config(5, (3, 6), 5, 3, 2, 4, 1),
               Config(6, (4, 6), 6, 3, 2, 5, 1), Config(6, (4, 7), 6, 4, 3, 5, 1))
    growth = Growth(steps={"modules": 1, "depth": 1}, limits={"depth": 4})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> dict[str, Any] | None:
            kinds = rng.sample(KINDS, min(config.modules, len(KINDS)))
            kinds += [rng.choice(KINDS) for _ in range(config.modules - len(kinds))]
            rng.shuffle(kinds)
            manual = draw_manual(rng, kinds, config.wires, config.colours, config.rules, config.depth, config.columns)
            modules = [draw_module(rng, kind, manual, config.colours) for kind in kinds]
            edgework = _edgework(rng, manual, modules)
            if edgework is None:
                return None
            device = {"edgework": edgework, "modules": modules}
            questions, instructions, read = _honest_work(manual, device)
            return {"kinds": kinds, "manual": manual, "device": device, "strikes": config.strikes,
                    "turns": questions + instructions + SLIPS, "work": read + questions + instructions}

        data = retry(draw, what="a device")
        modules = ", ".join(f"module {n} ({kind})" for n, kind in enumerate(data["kinds"], start=1))
        limit = data["strikes"]
        prompt = (
            "Let's defuse a bomb together, in the spirit of Keep Talking and Nobody Explodes. Your partner sees the "
            "device but not the manual; you hold the manual below but cannot see the device. "
            f"The device has {len(data['kinds'])} modules: {modules}. Every wrong instruction is a strike; the "
            f"device explodes at strike {limit}"
            + (" (the first wrong instruction)" if limit == 1 else "")
            + f". You win when every module is disarmed within {data['turns']} turns.\n"
            "Each turn write exactly one question or one instruction. Your partner answers questions truthfully:\n"
            "  ask: serial  |  ask: batteries  |  ask: indicators  |  ask: module N (what module N shows: its wire "
            "colours from the top, its button's colour, label and strip colour, or its keypad's symbols)\n"
            "and carries out instructions:\n"
            "  cut wire W on module N  |  tap the button on module N  |  hold the button on module N and release "
            "at D (D a digit the timer shows)  |  press SYMBOL on module N (one keypad key per instruction)\n"
            "A wrongly cut wire stays cut; a keypad key pressed in the right order lights up and stays lit.\n\n"
            "THE MANUAL\n"
            "The serial number's last character is a digit; the vowels are A, E, I, O and U.\n\n"
            f"{manual_text(data['manual'])}\n\n"
            "Write one move per turn, for example: ask: serial  or: cut wire 2 on module 1"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return int(problem.data["turns"])

    def difficulty(self, problem: Problem) -> float:
        return float(problem.data["work"])

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        modules = problem.data["device"]["modules"]
        return {"strikes": 0, "disarmed": [False] * len(modules), "cut": [[] for _ in modules],
                "lit": [[] for _ in modules]}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        action = read_move(move)
        if action is None:
            return Outcome.invalid(state, "write one question (ask: serial, ask: batteries, ask: indicators, ask: "
                                          "module N) or one instruction (cut wire W on module N, tap the button on "
                                          "module N, hold the button on module N and release at D, press SYMBOL on "
                                          "module N)")
        data = problem.data
        device = data["device"]
        why = _unfit(data, state, action)
        if why:
            return Outcome.invalid(state, why)
        if action[0] == "ask":
            topic = action[1]
            said = (module_text(topic, device["modules"][topic - 1]) if isinstance(topic, int)
                    else fact_text(topic, device["edgework"]))
            return Outcome.goes_on(state, f"Your partner: {said}")
        kind, number = action[0], action[1]
        index = number - 1
        right = solution(data["manual"], device["modules"][index], device["edgework"])
        after = {**state, "disarmed": list(state["disarmed"]), "cut": [list(c) for c in state["cut"]],
                 "lit": [list(lit) for lit in state["lit"]]}
        if kind == "cut":
            after["cut"][index].append(action[2])
            said, good = f"Your partner cuts wire {action[2]} on module {number}", action[2] == right
        elif kind == "tap":
            said, good = f"Your partner taps the button on module {number}", right == "tap"
        elif kind == "hold":
            said = f"Your partner holds the button on module {number} and releases it at {action[2]}"
            good = right == action[2]
        else:
            said = f"Your partner presses {action[2]} on module {number}"
            good = right[len(state["lit"][index])] == action[2]
            if good:
                after["lit"][index].append(action[2])
                said += ": the key lights up"
        if not good:
            after["strikes"] = state["strikes"] + 1
            if after["strikes"] >= data["strikes"]:
                return Outcome(after, Verdict.wrong("the device exploded"),
                               f"{said}. Strike {after['strikes']} of {data['strikes']}: the device explodes. "
                               "The game is over.", True)
            return Outcome.goes_on(after, f"{said}. Strike {after['strikes']} of {data['strikes']}!")
        if kind != "press" or len(after["lit"][index]) == len(right):
            after["disarmed"][index] = True
            said += f". Module {number} is disarmed"
        if all(after["disarmed"]):
            return Outcome(after, Verdict.right(), f"{said}. Every module is disarmed: the bomb is defused. You win!",
                           True)
        return Outcome.goes_on(after, f"{said}.")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        """Read the device: instruct the first armed module's right action without asking."""
        device = problem.data["device"]
        index = state["disarmed"].index(False)
        right = solution(problem.data["manual"], device["modules"][index], device["edgework"])
        return _instruction(device["modules"][index]["kind"], index + 1, right, state["lit"][index])

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        """Every question, and every instruction that fits an armed module (uncut wires, unlit keys)."""
        modules = problem.data["device"]["modules"]
        moves = [f"ask: {fact}" for fact in FACTS] + [f"ask: module {n}" for n in range(1, len(modules) + 1)]
        for index, module in enumerate(modules):
            if state["disarmed"][index]:
                continue
            number = index + 1
            if module["kind"] == "wires":
                moves += [f"cut wire {w} on module {number}" for w in range(1, len(module["wires"]) + 1)
                          if w not in state["cut"][index]]
            elif module["kind"] == "button":
                moves += [f"tap the button on module {number}"]
                moves += [f"hold the button on module {number} and release at {d}" for d in range(10)]
            else:
                moves += [f"press {s} on module {number}" for s in module["symbols"] if s not in state["lit"][index]]
        return moves

    def heuristics(self) -> dict[str, Policy]:
        def rule_player(simplify: Any) -> Policy:
            def policy(problem: Problem, state: Any, history: History, rng: random.Random) -> str:
                manual = simplify(problem.data["manual"])
                return _next_move(manual, problem.data["kinds"], _knowledge(history))
            return policy

        def blind(problem: Problem, state: Any, history: History, rng: random.Random) -> str:
            """Never ask: cut the top uncut wire, tap the button, press the first column's symbols in order."""
            index = state["disarmed"].index(False)
            kind, number = problem.data["kinds"][index], index + 1
            if kind == "wires":
                return f"cut wire {next(w for w in range(1, 9) if w not in state['cut'][index])} on module {number}"
            if kind == "button":
                return f"tap the button on module {number}"
            column = problem.data["manual"]["keypad"]["columns"][0]
            return f"press {next(s for s in column if s not in state['lit'][index])} on module {number}"

        def random_legal(problem: Problem, state: Any, history: History, rng: random.Random) -> str:
            return rng.choice(self.legal_moves(problem, state))

        return {"never ask: cut the top wire, tap, press the first column in order": blind,
                "ask each module only; cut the last wire, tap, press top to bottom": rule_player(_blunt),
                "ignore conditions: follow each list's otherwise rule": rule_player(lambda m: _one_rule(m, -1)),
                "ignore conditions: follow each list's first rule": rule_player(lambda m: _one_rule(m, 0)),
                "uniformly random legal question or instruction": random_legal}

    def honest_move(self, view: View) -> str:
        """Apply the printed manual to what the partner has said: for the first armed module, ask the first fact
        the rules need, else give the instruction they decide."""
        return _next_move(view.public["manual"], view.public["kinds"], _knowledge(view.history))


def read_move(move: str) -> Action | None:
    """One question or instruction: ``("ask", fact or module)``, ``("cut", module, wire)``, ``("tap", module)``,
    ``("hold", module, digit)`` or ``("press", module, symbol)``; None for anything else (two moves included).

    >>> read_move("Ask: serial?"), read_move("Module 2: cut wire 3."), read_move("hold the button on module 1, release at 4")
    (('ask', 'serial'), ('cut', 2, 3), ('hold', 1, 4))
    >>> read_move("press omega on module 3"), read_move("cut wire 1 on module 1 then cut wire 2 on module 1")
    (('press', 3, 'omega'), None)
    """
    if not isinstance(move, str) or len(move) > MAX_MOVE_CHARS:
        return None
    return read_move_answer(move, _read)


def _read(text: str) -> Action | None:
    flat = squeeze_spaces(unify(text)).strip().lower().replace("\u2019", "'")
    first = _MODULE_FIRST.match(flat)
    if first:
        flat = f"{first.group(2)} on module {first.group(1)}"
    if match := _ASK.match(flat):
        topic, number = match.groups()
        if number is not None:
            return "ask", int(number)
        return "ask", "serial" if topic.startswith("serial") else "batteries" if topic.startswith("batter") \
            else "indicators"
    if match := _CUT.match(flat):
        wire, ordinal, number = match.groups()
        return "cut", int(number), int(wire or ordinal)
    if match := _TAP.match(flat):
        return "tap", int(match.group(1))
    if match := _HOLD.match(flat):
        return "hold", int(match.group(1)), int(match.group(2))
    if (match := _PRESS.match(flat)) and match.group(1) in SYMBOLS:
        return "press", int(match.group(2)), match.group(1)
    return None


def _unfit(data: dict[str, Any], state: dict[str, Any], action: Action) -> str:
    """Why an action does not fit the device (the partner says so and the turn is spent), or ""."""
    modules = data["device"]["modules"]
    number = action[1]
    if isinstance(number, int) and not 1 <= number <= len(modules):
        return f"there is no module {number}; the modules are 1 to {len(modules)}"
    if action[0] == "ask":
        return ""
    kind = modules[number - 1]["kind"]
    wanted = {"cut": "wires", "tap": "button", "hold": "button", "press": "keypad"}[action[0]]
    if kind != wanted:
        return f"module {number} is a {kind} module, not a {wanted} module"
    if state["disarmed"][number - 1]:
        return f"module {number} is already disarmed"
    module = modules[number - 1]
    if action[0] == "cut":
        if not 1 <= action[2] <= len(module["wires"]):
            return f"module {number} has no wire {action[2]}"
        if action[2] in state["cut"][number - 1]:
            return f"wire {action[2]} on module {number} is already cut"
    if action[0] == "press":
        if action[2] not in module["symbols"]:
            return f"the keypad on module {number} has no {action[2]} key"
        if action[2] in state["lit"][number - 1]:
            return f"the {action[2]} key on module {number} is already lit"
    return ""


def _instruction(kind: str, number: int, right: Any, lit: list[str]) -> str:
    if kind == "wires":
        return f"cut wire {right} on module {number}"
    if kind == "button":
        return f"tap the button on module {number}" if right == "tap" else \
            f"hold the button on module {number} and release at {right}"
    return f"press {right[len(lit)]} on module {number}"


def _knowledge(history: History) -> dict[str, Any]:
    """What the partner has said so far: the edgework facts, the modules' faces, disarmed modules and lit keys."""
    text = "\n".join(observation for _, observation in history)
    edgework: dict[str, Any] = {}
    if found := _SAID_SERIAL.findall(text):
        edgework["serial"] = found[-1]
    if found := _SAID_BATTERIES.findall(text):
        edgework["batteries"] = int(found[-1])
    if found := _SAID_INDICATORS.findall(text):
        edgework["indicators"] = [[part.split()[1], part.split()[0] == "lit"]
                                  for part in found[-1].split(", ") if part]
    faces: dict[int, dict[str, Any]] = {}
    for number, wires in _SAID_WIRES.findall(text):
        faces[int(number)] = {"kind": "wires", "wires": wires.split(", ")}
    for number, colour, label, strip in _SAID_BUTTON.findall(text):
        faces[int(number)] = {"kind": "button", "colour": colour, "label": label, "strip": strip}
    for number, symbols in _SAID_KEYPAD.findall(text):
        faces[int(number)] = {"kind": "keypad", "symbols": symbols.split(", ")}
    lit: dict[int, list[str]] = {}
    for symbol, number in _SAID_LIT.findall(text):
        lit.setdefault(int(number), []).append(symbol)
    return {"edgework": edgework, "faces": faces, "disarmed": {int(n) for n in _SAID_DISARMED.findall(text)},
            "lit": lit}


def _next_move(manual: dict[str, Any], kinds: list[str], known: dict[str, Any]) -> str:
    """For the first armed module: the question the manual's rules need next, or the instruction they decide."""
    number = next((n for n in range(1, len(kinds) + 1) if n not in known["disarmed"]), 1)
    what, value, _ = decide(manual, known["faces"].get(number), known["edgework"], kinds[number - 1])
    if what == "need":
        return f"ask: module {number}" if value == "module" else f"ask: {value}"
    return _instruction(kinds[number - 1], number, value, known["lit"].get(number, []))


def _honest_work(manual: dict[str, Any], device: dict[str, Any]) -> tuple[int, int, int]:
    """The honest player's questions, instructions and rule conditions read on ``device`` (all answers truthful)."""
    asked: set[Any] = set()
    instructions = read = 0
    for number, module in enumerate(device["modules"], start=1):
        for _ in range(len(FACTS) + 2):  # each pass learns one fact; the last decides
            known_edgework = {fact: device["edgework"][fact] for fact in FACTS if fact in asked}
            what, value, conditions = decide(manual, module if number in asked else None, known_edgework,
                                             module["kind"])
            if what == "act":
                read += conditions
                instructions += len(value) if module["kind"] == "keypad" else 1
                break
            asked.add(number if value == "module" else value)
    return len(asked), instructions, read


def _edgework(rng: random.Random, manual: dict[str, Any], modules: list[dict[str, Any]]) -> dict[str, Any] | None:
    """An edgework whose answer (the right action of every module) is drawn uniformly among the distinct answers of
    ``EDGEWORK_DRAWS`` drawn edgeworks, or None when they give fewer than ``MIN_ANSWERS``.

    The faces and the manual are fixed before the answer is drawn, so whatever a player does without asking
    about the edgework (ignore the conditions, assume a battery count, guess) gives one of those answers: it wins
    at most one game in ``MIN_ANSWERS``. Edgeworks drawn freely mostly leave the conditions false, so the
    otherwise rules alone, or an assumed edgework, won most games (version 1).
    """
    by_answer: dict[str, dict[str, Any]] = {}
    for _ in range(EDGEWORK_DRAWS):
        edgework = draw_edgework(rng)
        by_answer.setdefault(repr([solution(manual, module, edgework) for module in modules]), edgework)
    return rng.choice(list(by_answer.values())) if len(by_answer) >= MIN_ANSWERS else None


def _one_rule(manual: dict[str, Any], which: int) -> dict[str, Any]:
    """The manual with one rule per list kept (its condition dropped) and keypads pressed top to bottom."""
    simple = dict(manual)
    if "wires" in manual:
        simple["wires"] = {count: _one_wire_rule(rules, which) for count, rules in manual["wires"].items()}
    if "button" in manual:
        simple["button"] = {**manual["button"], "rules": [[[], manual["button"]["rules"][which][1]]]}
    if "keypad" in manual:
        simple["keypad"] = {**manual["keypad"], "reverse_if": []}
    return simple


def _one_wire_rule(rules: list[Any], which: int) -> list[Any]:
    """Rule ``which`` of a wire list without its condition; a colour action keeps the atoms that guarantee its
    colour, falling back to the list's otherwise rule when that colour is missing."""
    condition, action = rules[which]
    guard = [atom for atom in condition if atom[0] in GUARANTEES and action[0] in ("first_of", "last_of")
             and atom[1] == action[1]]
    return [[guard, action], rules[-1]] if guard else [[[], action]]


def _blunt(manual: dict[str, Any]) -> dict[str, Any]:
    """The manual replaced by 'cut the last wire, tap the button, press top to bottom'."""
    simple = _one_rule(manual, -1)
    if "wires" in manual:
        simple["wires"] = {count: [[[], ["last_wire"]]] for count in manual["wires"]}
    if "button" in manual:
        simple["button"] = {**manual["button"], "rules": [[[], "tap"]]}
    return simple
