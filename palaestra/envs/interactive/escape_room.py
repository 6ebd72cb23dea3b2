"""Escape room: examine furniture for clues, open containers, unlock padlocks and combination locks, get out.

A locked room holds furniture and containers, and the exit door. A container or the door is open, or
locked by a padlock (one of the keys found in the room opens it; which one the model must find out),
or by a combination lock with coloured dials (``red, green, blue``): its code is the digits of those
colours in the dials' order, each written somewhere in the room (``a red 7 is painted under the
desk``); some digits are tiny marks readable only while holding the magnifying glass. Keys and the
magnifying glass lie inside containers. The model sees the room's objects and the result of each
command; what a container holds, which key fits and the digits are hidden until found. ``open door``
once the door is unlocked escapes (reward 1).

Commands (stated in the prompt): ``examine OBJECT``, ``open OBJECT``, ``take ITEM``, ``unlock OBJECT
with KEY``, ``enter CODE on OBJECT`` (``enter 472 on safe``), ``look``, ``inventory``. One command per
turn; a reply holding several is refused, and an object or item name no room holds is unreadable. A
command that cannot be done (a locked container, the wrong key, a wrong code) costs a turn and says so.

The locks form a chain: what opens each container or the door lies in containers earlier in the chain
(or on the furniture). The oracle knows everything and walks the chain: take what it needs, unlock or
enter the code, open. The honest player (:meth:`EscapeRoom.honest_move`) knows only the text: it
examines every object (again once it holds the magnifying glass if marks were too small), opens what
it can, takes every item, tries each key on each padlock and enters a code once all its digits are
known; it escapes within the budget at every level. The budget is the oracle's plan plus two turns
per object and two per lock. Levels lengthen the chain, add dials (3 from level 0, so that trying
codes in order within the budget escapes at most a few per cent: v1's 2 dials let it escape 10-15% at levels
0-1), tiny marks, furniture and spare keys. The difficulty measure is the oracle's plan length plus the digits to find.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, View, register
from palaestra.verifiers.moves import read_command

FURNITURE = ("desk", "clock", "painting", "bookshelf", "rug", "lamp", "vase", "mirror", "globe", "piano", "statue",
             "armchair", "fireplace", "window")
CONTAINERS = ("chest", "safe", "drawer", "cabinet", "box", "locker", "suitcase", "wardrobe")
KEYS = ("brass key", "iron key", "silver key", "copper key", "bone key", "glass key", "gold key", "steel key",
        "rusty key", "tiny key")
COLOURS = ("red", "green", "blue", "yellow", "white", "black")
PLACES = ("painted under", "scratched on the back of", "written in chalk on", "carved into the side of")
MAGNIFIER = "magnifying glass"
OBJECT_NAMES = frozenset([*FURNITURE, *CONTAINERS, "door"])
ITEM_NAMES = frozenset([*KEYS, MAGNIFIER])
HELD = "held"


@register
class EscapeRoom(MultiTurnTask):
    id = "interactive/escape_room"
    family = "interactive"
    description = "Escape a room by finding clues, keys and codes: padlocks and combination locks in a chain."
    tags = ("interactive", "multi-turn", "text-world", "deduction", "partial-observation")
    one_move_per_turn = True  # a reply holding several commands is refused (checked by the kit)
    hidden_information = True
    version = 2  # v2: combination locks have 3 dials at levels 0-1 (were 2: trying codes in order escaped)

    @dataclass(frozen=True)
    class Config:
        containers: int  # locks before the door's
        dials: int  # digits of each combination lock
        furniture: int
        spare_keys: int  # keys that fit nothing
        tiny: float  # share of digits readable only with the magnifying glass

    # Three dials from level 0: with two, entering 00, 01, 02... on the door within the budget escaped 10-15% at
    # levels 0-1 (v1); a thousand codes are far past any budget.
    presets = (Config(1, 3, 3, 0, 0.0), Config(2, 3, 4, 1, 0.0), Config(3, 3, 5, 1, 0.3), Config(4, 3, 6, 2, 0.4),
               Config(5, 4, 8, 2, 0.5))
    bounded = "growing its sizes past the presets exhausts a fixed pool the generator draws from (names, letters or tables)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        data = _room(rng, config)
        data["plan"] = len(_oracle_game(data))
        locks = sum(1 for lock in data["locks"].values() if lock)
        data["budget"] = data["plan"] + 2 * len(data["objects"]) + 2 * locks
        prompt = (
            "You are locked in a room and must get out through the door. Containers and the door may be locked by a "
            "padlock (one of the keys you find opens it) or by a combination lock with coloured dials: its code is "
            "the digits of those colours in the dials' order, each digit written somewhere in the room. Some marks "
            "are too small to read without a magnifying glass in your inventory.\n\n"
            "Commands: examine OBJECT, open OBJECT, take ITEM, unlock OBJECT with KEY, enter CODE on OBJECT (for "
            "example: enter 472 on safe), look, inventory. Each command takes one turn, and so does one that cannot "
            f"be done. You have {data['budget']} turns; only getting out scores.\n\n{_describe(data, _start(data))}\n\n"
            "Each turn, write one command, for example: examine desk"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["budget"]

    def difficulty(self, problem: Problem) -> float:
        return float(problem.data["plan"] + len(problem.data["digits"]))

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return _start(problem.data)

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        return _act(problem.data, state, move)

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return _next_command(problem.data, state)

    def honest_move(self, view: View) -> str:
        """Examine everything (again with the magnifying glass), open what can be opened, take every item, try
        each key on each padlock and enter each code once all its digits are known."""
        seen = _Notes(view)
        if "door" in seen.unlocked:
            return "open door"
        for item in seen.loose:
            if item not in seen.held:
                return f"take {item}"
        for thing in seen.objects:
            if thing not in seen.examined or (thing in seen.blurry and MAGNIFIER in seen.held):
                return f"examine {thing}"
        for thing in seen.objects:
            if thing in seen.unlocked and thing not in seen.opened and thing != "door":
                return f"open {thing}"
        for thing, dials in seen.dials.items():
            if thing not in seen.unlocked and all(colour in seen.digits for colour in dials):
                return f"enter {''.join(seen.digits[c] for c in dials)} on {thing}"
        for thing in seen.padlocked:
            if thing in seen.unlocked:
                continue
            for key in sorted(k for k in seen.held if k.endswith(" key")):
                if (thing, key) not in seen.tried:
                    return f"unlock {thing} with {key}"
        return "look"


def _room(rng: random.Random, config: EscapeRoom.Config) -> dict[str, Any]:
    containers = rng.sample(CONTAINERS, config.containers)
    furniture = rng.sample(FURNITURE, config.furniture)
    chain = [*containers, "door"]
    keys = rng.sample(KEYS, len(chain) + config.spare_keys)
    locks: dict[str, Any] = {}
    contents: dict[str, list[str]] = {c: [] for c in containers}
    digits: dict[str, list[Any]] = {}  # colour -> [digit, furniture, tiny]
    need_magnifier = False
    for index, thing in enumerate(chain):
        earlier = chain[:index]
        kind = rng.choice(("key", "code")) if earlier else "code"
        if index == 0 and rng.random() < 0.3:
            kind = ""
        if kind == "key":
            key = keys[index]
            contents[rng.choice(earlier)].append(key)
            locks[thing] = {"key": key}
        elif kind == "code":
            dials = rng.sample(COLOURS, config.dials)  # a colour on two locks is one digit, written once
            for colour in dials:
                if colour in digits:
                    continue
                tiny = index > 0 and rng.random() < config.tiny
                need_magnifier |= tiny
                digits[colour] = [rng.randrange(10), rng.choice(furniture), tiny]
            locks[thing] = {"dials": dials}
        else:
            locks[thing] = None
    spare_homes = containers or ["door"]
    for key in keys[len(chain):]:
        if containers:
            contents[rng.choice(spare_homes)].append(key)
    if need_magnifier:
        first_tiny = min(i for i, t in enumerate(chain) if locks[t] and "dials" in locks[t]
                         and any(digits[c][2] for c in locks[t]["dials"]))
        contents[rng.choice(chain[:first_tiny])].append(MAGNIFIER)
    for items in contents.values():
        items.sort()
    objects = sorted([*furniture, *containers]) + ["door"]
    return {"objects": objects, "containers": containers, "locks": locks, "contents": contents, "digits": digits,
            "order": chain}


def _start(data: dict[str, Any]) -> dict[str, Any]:
    unlocked = sorted(t for t, lock in data["locks"].items() if not lock)
    return {"unlocked": unlocked, "opened": [], "held": []}


def _code(data: dict[str, Any], thing: str) -> str:
    return "".join(str(data["digits"][c][0]) for c in data["locks"][thing]["dials"])


def _describe(data: dict[str, Any], state: dict[str, Any]) -> str:
    parts = []
    for thing in data["objects"]:
        if thing in state["opened"]:
            inside = [i for i in data["contents"].get(thing, []) if i not in state["held"]]
            parts.append(f"an open {thing}" + (f" (inside: {', '.join(inside)})" if inside else " (empty)"))
        else:
            parts.append("the door" if thing == "door" else f"a {thing}")
    return "The room holds: " + "; ".join(parts) + "."


def _parse(words: list[str]) -> tuple[str, ...] | None:
    words = [w for w in words if w not in ("the", "a", "an")]
    if words in (["look"], ["l"], ["look", "around"]):
        return ("look",)
    if words in (["inventory"], ["i"], ["inv"]):
        return ("inventory",)
    if len(words) < 2:
        return None
    verb, rest = words[0], words[1:]
    if verb in ("examine", "inspect", "x", "search") and " ".join(rest) in OBJECT_NAMES:
        return ("examine", " ".join(rest))
    if verb == "open" and " ".join(rest) in OBJECT_NAMES:
        return ("open", " ".join(rest))
    if verb in ("take", "get", "grab") and " ".join(rest) in ITEM_NAMES:
        return ("take", " ".join(rest))
    if verb == "unlock" and "with" in rest:
        cut = rest.index("with")
        thing, key = " ".join(rest[:cut]), " ".join(rest[cut + 1:])
        if thing in OBJECT_NAMES and key in ITEM_NAMES:
            return ("unlock", thing, key)
    if verb in ("enter", "dial", "type") and len(rest) >= 3 and rest[1] in ("on", "into", "in") and rest[0].isdigit() \
            and len(rest[0]) <= 6 and " ".join(rest[2:]) in OBJECT_NAMES:
        return ("enter", " ".join(rest[2:]), rest[0])
    return None


def _act(data: dict[str, Any], state: dict[str, Any], move: str) -> Outcome:
    command = read_command(move, _parse, articles=True)
    if command is None:
        why = ("write one command: examine OBJECT, open OBJECT, take ITEM, unlock OBJECT with KEY, enter CODE on "
               "OBJECT, look or inventory")
        return Outcome(state, Verdict.unparsed(why), f"I don't understand that. Commands: {why.split(': ')[1]}.")
    verb = command[0]
    if verb == "look":
        return _fail(state, _describe(data, state))
    if verb == "inventory":
        return _fail(state, f"You carry: {', '.join(state['held'])}." if state["held"] else "You carry nothing.")
    if verb == "take":
        item = command[1]
        if item in state["held"]:
            return _fail(state, f"You already carry the {item}.")
        if not any(item in data["contents"].get(c, []) for c in state["opened"]):
            return _fail(state, f"There is no {item} in sight.")
        return Outcome.goes_on({**state, "held": sorted([*state["held"], item])}, f"You take the {item}.", "taken")
    thing = command[1]
    if thing not in data["objects"]:
        return _fail(state, f"There is no {thing} here.")
    if verb == "examine":
        return Outcome.goes_on(state, _examine(data, state, thing), "examined")
    lock = data["locks"].get(thing)
    if verb == "open":
        if thing not in data["locks"]:
            return _fail(state, f"The {thing} does not open.")
        if thing not in state["unlocked"]:
            return _fail(state, f"The {thing} is locked.")
        if thing == "door":
            return Outcome(state, Verdict.right(), "You open the door and walk out. You escaped!", True)
        if thing in state["opened"]:
            return _fail(state, f"The {thing} is already open.")
        after = {**state, "opened": sorted([*state["opened"], thing])}
        inside = data["contents"][thing]
        return Outcome.goes_on(after, f"You open the {thing}. Inside: {', '.join(inside) if inside else 'nothing'}.",
                               "opened")
    if not lock or thing in state["unlocked"]:
        return _fail(state, f"The {thing} is not locked.")
    unlocked = {**state, "unlocked": sorted([*state["unlocked"], thing])}
    if verb == "unlock":
        key = command[2]
        if "key" not in lock:
            return _fail(state, f"The {thing} has a combination lock, not a padlock.")
        if key not in state["held"]:
            return _fail(state, f"You don't carry the {key}.")
        if key != lock["key"]:
            return _fail(state, f"The {key} does not fit the padlock on the {thing}.")
        return Outcome.goes_on(unlocked, f"The {key} turns: the {thing} is unlocked.", "unlocked")
    if "dials" not in lock:
        return _fail(state, f"The {thing} has a padlock, not a combination lock.")
    if command[2] != _code(data, thing):
        return _fail(state, f"You enter {command[2]} on the {thing}. Nothing happens.")
    return Outcome.goes_on(unlocked, f"You enter {command[2]} on the {thing}. Click: the {thing} is unlocked.",
                           "unlocked")


def _examine(data: dict[str, Any], state: dict[str, Any], thing: str) -> str:
    lines = []
    lock = data["locks"].get(thing)
    if lock and thing not in state["unlocked"]:
        if "key" in lock:
            lines.append(f"The {thing} is locked with a padlock.")
        else:
            lines.append(f"The {thing} has a combination lock with dials coloured {', '.join(lock['dials'])}.")
    elif thing in data["locks"]:
        lines.append(f"The {thing} is unlocked.")
    for colour, (digit, where, tiny) in sorted(data["digits"].items()):
        if where != thing:
            continue
        place = PLACES[(digit + len(colour)) % len(PLACES)]
        if tiny and MAGNIFIER not in state["held"]:
            lines.append(f"There are tiny marks on the {thing}, too small to read.")
        else:
            lines.append(f"A {colour} {digit} is {place} the {thing}.")
    return " ".join(lines) or f"Nothing special about the {thing}."


def _fail(state: dict[str, Any], message: str) -> Outcome:
    return Outcome(state, Verdict.wrong("no progress"), message)


def _next_command(data: dict[str, Any], state: dict[str, Any]) -> str:
    """Walk the chain: the first lock still closed is unlocked with what the earlier containers gave."""
    for thing in data["order"]:
        lock = data["locks"][thing]
        if thing not in state["unlocked"]:
            if "dials" in lock:
                return f"enter {_code(data, thing)} on {thing}"
            if lock["key"] in state["held"]:
                return f"unlock {thing} with {lock['key']}"
            return f"take {lock['key']}"  # it lies in an earlier container, opened by now
        if thing == "door":
            return "open door"
        if thing not in state["opened"]:
            return f"open {thing}"
    return "look"  # unreachable: the door ends the chain


def _oracle_game(data: dict[str, Any]) -> list[str]:
    state = _start(data)
    commands: list[str] = []
    for _ in range(4 * len(data["order"]) + 4):
        commands.append(_next_command(data, state))
        outcome = _act(data, state, commands[-1])
        if outcome.done:
            return commands
        state = outcome.state
    raise RuntimeError("the oracle did not escape")  # unreachable: each lock's means lie earlier in the chain


_HOLDS = re.compile(r"The room holds: (.+?)\.$", re.MULTILINE)
_OPENED = re.compile(r"You open the (.+?)\. Inside: (.+?)\.$")
_TAKEN = re.compile(r"You take the (.+?)\.$")
_PADLOCK = re.compile(r"The (.+?) is locked with a padlock\.")
_DIALS = re.compile(r"The (.+?) has a combination lock with dials coloured (.+?)\.")
_DIGIT = re.compile(r"A (\w+) (\d) is (?:painted under|scratched on the back of|written in chalk on|carved into the "
                    r"side of) the ")
_UNLOCKED = re.compile(r"(?:Click|turns): the ([\w ]+?) is unlocked\.|^The ([\w ]+?) is (?:not locked|unlocked)\.")


class _Notes:
    """What the text so far says: objects, what was examined (and what was too small), locks, digits, items."""

    def __init__(self, view: View) -> None:
        self.objects: list[str] = []
        self.examined: set[str] = set()
        self.blurry: set[str] = set()
        self.unlocked: set[str] = set()
        self.opened: set[str] = set()
        self.padlocked: list[str] = []
        self.dials: dict[str, list[str]] = {}
        self.digits: dict[str, str] = {}
        self.loose: list[str] = []
        self.held: set[str] = set()
        self.tried: set[tuple[str, str]] = set()
        holds = _HOLDS.search(view.prompt)
        if holds:
            self.objects = [part.split(" ", 1)[1].split(" (")[0].replace("open ", "") for part in holds.group(1).split("; ")]
        for move, text in view.history:
            self._read(move, text)

    def _read(self, move: str, text: str) -> None:
        words = move.split()
        if words[:1] == ["examine"]:
            thing = " ".join(words[1:])
            self.examined.add(thing)
            if "too small to read" in text:
                self.blurry.add(thing)
            else:
                self.blurry.discard(thing)
            if "is unlocked." in text and "combination" not in text and "padlock" not in text:
                self.unlocked.add(thing)
        if words[:1] == ["unlock"]:
            cut = words.index("with")
            self.tried.add((" ".join(words[1:cut]), " ".join(words[cut + 1:])))
        for match in _PADLOCK.finditer(text):
            if match.group(1) not in self.padlocked:
                self.padlocked.append(match.group(1))
        for match in _DIALS.finditer(text):
            self.dials[match.group(1)] = match.group(2).split(", ")
        for match in _DIGIT.finditer(text):
            self.digits[match.group(1)] = match.group(2)
        for match in _UNLOCKED.finditer(text):
            self.unlocked.add(next(g for g in match.groups() if g))
        opened = _OPENED.search(text)
        if opened:
            self.opened.add(opened.group(1))
            if opened.group(2) != "nothing":
                self.loose.extend(opened.group(2).split(", "))
        taken = _TAKEN.search(text)
        if taken:
            self.held.add(taken.group(1))
