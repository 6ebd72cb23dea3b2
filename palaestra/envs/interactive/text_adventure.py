"""Text adventure: explore generated rooms, collect keys, unlock doors and deliver a treasure.

The world is a grid of rooms joined by passages (a random spanning tree, so every door is the
only way past it); some passages are locked doors of a colour, opened by the key of that
colour, and every key lies somewhere the player can reach before it is needed. A treasure
lies behind the locks; the task is to bring it to a named room and drop it there. Distractor
items lie around. The model sees only the room it is in (its exits, with the colour of any
locked door, and the items on the floor) and the result of each command.

Commands (stated in the prompt): ``go north`` (or ``north``, ``n``; also south, east, west),
``take ITEM``, ``drop ITEM``, ``unlock DIRECTION with ITEM``, ``look``, ``inventory``.
Articles are ignored. One command per turn: a reply holding several (``take red key, go
south``) is refused, and an item name no world holds is unreadable. A command that cannot be
read costs a turn; one that cannot be done (no exit that way, a locked door, no such item here, the wrong key)
costs a turn and says why. Reward 1 when the treasure is dropped in the target room.

The oracle plans from the current state: carry the treasure to the target if it holds it;
else fetch it if it is reachable; else unlock a reachable locked door whose key it holds;
else fetch a reachable key. The honest player (:meth:`TextAdventure.honest_move`), which knows only
what the text said, explores exits not yet tried, takes keys and the treasure, unlocks doors it
holds the key to and delivers the treasure; it finishes within the budget. Levels grow the map, the number of locked doors and the
distractors. The turn budget is fixed by the level: five turns per room and four per locked door (24, 34, 53, 72, 96
turns at levels 0-4); the generator redraws the rare house where the oracle's plan or the honest player's game is
longer (version 1's budget was twice the oracle's plan plus two turns per room: every "(N turns left)" told the hidden
plan length exactly). The difficulty measure is the length of the oracle's plan.

Generation speed: about 100 problems/s at level 4 on this 2-core machine (version 1: 380). The oracle's whole game
(each command routes through the rooms by shortest paths to the next key, door or the treasure) and the honest
player's are played at generation, to check that the level's budget suffices for both. They are kept because the
budget must be one that is known to suffice.
"""

from __future__ import annotations

import random
import re
from collections import deque
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, View, register, retry
from palaestra.generators.grids import random_maze
from palaestra.verifiers.moves import read_command

ROOMS = ("kitchen", "library", "cellar", "hall", "study", "pantry", "garden", "attic", "chapel", "armoury", "gallery",
         "workshop", "bedroom", "vault", "observatory", "conservatory", "ballroom", "laundry", "nursery", "greenhouse",
         "dungeon", "courtyard", "smithy", "scullery")
COLOURS = ("red", "blue", "green", "brass", "iron", "silver", "black", "white")
TREASURES = ("golden idol", "jade statue", "silver chalice", "ruby crown", "ancient map", "crystal skull",
             "emerald ring", "ivory horn")
DISTRACTORS = ("old boot", "candle", "rope", "lantern", "dusty book", "umbrella", "apple", "teapot", "feather",
               "tin cup", "broken clock", "wooden spoon")
DIRECTIONS = {"north": "north", "n": "north", "south": "south", "s": "south", "east": "east", "e": "east",
              "west": "west", "w": "west"}
HELD = -1  # an item's location while the player carries it
# Every item a world can hold: a command naming anything else is unreadable, so "take red key, go south" (a plan)
# is not read as taking an item called "red key go south".
ITEM_NAMES = frozenset([*(f"{colour} key" for colour in COLOURS), *TREASURES, *DISTRACTORS])


def _budget(config: TextAdventure.Config) -> int:
    """The turn budget: five turns per room and four per locked door, fixed by the level (version 1's was twice the
    oracle's plan plus two turns per room, which every "(N turns left)" then told exactly)."""
    return 5 * config.rows * config.cols + 4 * config.locks


@register
class TextAdventure(MultiTurnTask):
    id = "interactive/text_adventure"
    version = 2  # v2: the turn budget is fixed by the level instead of told by the oracle's plan length
    family = "interactive"
    description = "Explore rooms, collect keys, unlock doors and deliver a treasure, by text commands."
    tags = ("interactive", "multi-turn", "text-world", "planning")
    one_move_per_turn = True  # a reply holding several commands is refused (checked by the kit)
    hidden_information = True

    @dataclass(frozen=True)
    class Config:
        rows: int  # the map is rows x cols rooms
        cols: int
        locks: int  # locked doors
        distractors: int  # items that serve no purpose

    presets = (Config(2, 2, 1, 0), Config(2, 3, 1, 2), Config(3, 3, 2, 3), Config(3, 4, 3, 4), Config(4, 4, 4, 5))
    bounded = "growing its sizes past the presets exhausts a fixed pool the generator draws from (names, letters or tables)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> Problem | None:
            problem = self._draw(rng, config)
            if problem.data["plan"] > problem.data["budget"]:
                return None
            return problem if self.honest_turns(problem, problem.data["budget"]) is not None else None

        return retry(draw, attempts=200, what="a house the oracle and the honest player finish in time")

    def _draw(self, rng: random.Random, config: Config) -> Problem:
        count = config.rows * config.cols
        maze = random_maze(rng, config.rows, config.cols)
        names = rng.sample(ROOMS, count)
        start = rng.randrange(count)
        links = _links(count, maze.passages)
        distance = _distances(links, start, set())
        # Lock passages, then give each lock a key lying where the player can get before it.
        order = sorted(range(len(maze.passages)), key=lambda d: -min(distance[r] for r in maze.passages[d]))
        locked = sorted(rng.sample(order[: max(config.locks, len(order) // 2 + 1)], config.locks))
        colours = rng.sample(COLOURS, config.locks)
        doors = [[a, b, None] for a, b in maze.passages]
        items: dict[str, int] = {}
        closed = set(locked)
        for colour, door in zip(colours, locked):
            doors[door][2] = colour
        region = set(_distances(links, start, closed))
        for _ in range(config.locks):
            boundary = [d for d in sorted(closed) if (doors[d][0] in region) != (doors[d][1] in region)]
            door = rng.choice(boundary)
            items[f"{doors[door][2]} key"] = rng.choice(sorted(region))
            closed.discard(door)
            region = set(_distances(links, start, closed))
        blocked = _locks_crossed(links, start, set(locked))
        deepest = max(blocked.values())
        treasure = rng.choice(TREASURES)
        items[treasure] = rng.choice(sorted(r for r, locks in blocked.items() if locks == deepest and r != start)
                                     or sorted(set(range(count)) - {start}))
        for name in rng.sample(DISTRACTORS, config.distractors):
            items[name] = rng.randrange(count)
        target = rng.choice(sorted(r for r, locks in blocked.items() if locks == 0))
        data = {"rooms": names, "cols": config.cols, "doors": doors, "items": items, "start": start,
                "treasure": treasure, "target": target}
        data["plan"] = len(self._oracle_game(data))
        data["budget"] = _budget(config)
        prompt = (
            "You are in a house of rooms joined by passages; some passages are locked doors of a colour, which the "
            f"key of that colour opens. Find the {treasure} and drop it in the {names[target]}.\n\n"
            "Commands: go north (or just north, or n; likewise south, east, west), take ITEM, drop ITEM, "
            "unlock DIRECTION with ITEM (for example: unlock east with red key), look, inventory. You can carry any "
            "number of items. Each command takes one turn; a command that cannot be done also takes a turn.\n\n"
            f"{_describe(data, {'room': start, 'items': items, 'unlocked': []})}\n\n"
            "Each turn, write one command, for example: go north"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["budget"]

    def difficulty(self, problem: Problem) -> float:
        return float(problem.data["plan"])

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"room": problem.data["start"], "items": dict(problem.data["items"]), "unlocked": []}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        return _act(problem.data, state, move)

    def honest_move(self, view: View) -> str:
        """Explore from what the text said: take every key and the treasure, unlock doors whose key is held,
        walk to the nearest room with an exit not yet tried, and deliver the treasure once it is held."""
        task = _TASK.search(view.prompt)
        treasure, target = task.group(1), task.group(2)  # type: ignore[union-attr]
        room = ""
        edges: dict[str, dict[str, str]] = {}  # room -> direction -> room, for passages walked
        exits: dict[str, dict[str, str]] = {}  # room -> direction -> "" (open) or the colour of its locked door
        items: dict[str, list[str]] = {}
        held: set[str] = set()
        for move, text in [("", view.prompt), *view.history]:
            here = _ROOM.search(text)
            if here:
                came = room
                room = here.group(1)
                exits[room] = {m.group(1): m.group(3) or "" for m in _EXIT.finditer(here.group(2))}
                seen = _SEEN.search(text)
                items[room] = seen.group(1).split(", ") if seen else []
                step = move.split()[-1] if move else ""
                if came and came != room and step in _BACK:
                    edges.setdefault(came, {})[step] = room
                    edges.setdefault(room, {})[_BACK[step]] = came
            taken = _TAKEN.match(text)
            if taken:
                held.add(taken.group(1))
                items[room] = [i for i in items.get(room, []) if i != taken.group(1)]
            unlocked = _UNLOCKED.match(text)
            if unlocked:
                exits[room][unlocked.group(2)] = ""
        if treasure in held and room == target:
            return f"drop {treasure}"
        for item in items.get(room, []):
            if item == treasure or item.endswith(" key"):
                return f"take {item}"
        for direction, colour in exits.get(room, {}).items():
            if colour and f"{colour} key" in held:
                return f"unlock {direction} with {colour} key"

        untried = [d for d, colour in exits.get(room, {}).items() if not colour and d not in edges.get(room, {})]
        known_target = target in exits
        if untried and not (treasure in held and known_target):
            return f"go {untried[0]}"

        def wanted(place: str) -> bool:
            if treasure in held and known_target:
                return place == target
            if treasure in items.get(place, []) or any(i.endswith(" key") for i in items.get(place, [])):
                return True
            return any(not colour and d not in edges.get(place, {}) or colour and f"{colour} key" in held
                       for d, colour in exits.get(place, {}).items())

        # Breadth-first over walked passages to the nearest room worth going to.
        first: dict[str, str] = {room: ""}
        queue = deque([room])
        while queue:
            place = queue.popleft()
            if wanted(place) and place != room:
                return f"go {first[place]}"
            for direction, other in edges.get(place, {}).items():
                if other not in first and not exits.get(place, {}).get(direction):
                    first[other] = first[place] or direction
                    queue.append(other)
        return f"go {untried[0]}" if untried else "look"

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return _next_command(problem.data, state)

    def _oracle_game(self, data: dict[str, Any]) -> list[str]:
        """The oracle's commands from the start until it wins (bounded by twice the map's size per lock)."""
        state: dict[str, Any] = {"room": data["start"], "items": dict(data["items"]), "unlocked": []}
        commands: list[str] = []
        for _ in range(8 * len(data["rooms"]) * (len(data["doors"]) + 2)):
            commands.append(_next_command(data, state))
            outcome = _act(data, state, commands[-1])
            if outcome.done:
                return commands
            state = outcome.state
        raise RuntimeError("the oracle did not finish the adventure")  # unreachable: every key is reachable in time


def _links(count: int, passages: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """Per room, ``(door index, neighbour)`` pairs."""
    links: list[list[tuple[int, int]]] = [[] for _ in range(count)]
    for door, (a, b) in enumerate(passages):
        links[a].append((door, b))
        links[b].append((door, a))
    return links


def _distances(links: list[list[tuple[int, int]]], start: int, closed: set[int]) -> dict[int, int]:
    """Steps from ``start`` to every room it reaches without crossing a ``closed`` door."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        room = queue.popleft()
        for door, nxt in links[room]:
            if nxt not in seen and door not in closed:
                seen[nxt] = seen[room] + 1
                queue.append(nxt)
    return seen


def _locks_crossed(links: list[list[tuple[int, int]]], start: int, locked: set[int]) -> dict[int, int]:
    """Per room, the locked doors on the (only) way from ``start`` to it."""
    crossed = {start: 0}
    queue = deque([start])
    while queue:
        room = queue.popleft()
        for door, nxt in links[room]:
            if nxt not in crossed:
                crossed[nxt] = crossed[room] + (door in locked)
                queue.append(nxt)
    return crossed


def _direction(data: dict[str, Any], room: int, other: int) -> str:
    cols = data["cols"]
    return {-cols: "north", cols: "south", -1: "west", 1: "east"}[other - room]


def _exits(data: dict[str, Any], room: int) -> dict[str, tuple[int, int]]:
    """Direction -> (door index, room it leads to)."""
    out = {}
    for door, (a, b, _) in enumerate(data["doors"]):
        if room in (a, b):
            other = b if a == room else a
            out[_direction(data, room, other)] = (door, other)
    return out


def _locked(data: dict[str, Any], state: dict[str, Any], door: int) -> bool:
    return data["doors"][door][2] is not None and door not in state["unlocked"]


_TASK = re.compile(r"Find the (.+?) and drop it in the (.+?)\.\n")
_ROOM = re.compile(r"You are in the (.+?)\. Exits: (.*?)\.(?: You see| There is nothing)")
_EXIT = re.compile(r"(north|south|east|west)( \(a locked (\w+) door\))?")
_SEEN = re.compile(r"You see: (.+?)\.$", re.MULTILINE)
_TAKEN = re.compile(r"You take the (.+)\.$")
_UNLOCKED = re.compile(r"You unlock the (\w+) door to the (north|south|east|west)\.")
_BACK = {"north": "south", "south": "north", "east": "west", "west": "east"}


def _describe(data: dict[str, Any], state: dict[str, Any]) -> str:
    room = state["room"]
    exits = []
    for direction in ("north", "south", "east", "west"):
        if direction in _exits(data, room):
            door, _ = _exits(data, room)[direction]
            colour = data["doors"][door][2]
            exits.append(f"{direction} (a locked {colour} door)" if _locked(data, state, door) else direction)
    here = [name for name, at in sorted(state["items"].items()) if at == room]
    seen = f" You see: {', '.join(here)}." if here else " There is nothing here."
    return f"You are in the {data['rooms'][room]}. Exits: {', '.join(exits)}.{seen}"


def _parse(words: list[str]) -> tuple[str, ...] | None:
    if not words:
        return None
    if words in (["look"], ["l"], ["look", "around"]):
        return ("look",)
    if words in (["inventory"], ["i"], ["inv"], ["check", "inventory"]):
        return ("inventory",)
    if len(words) == 1 and words[0] in DIRECTIONS:
        return ("go", DIRECTIONS[words[0]])
    if len(words) == 2 and words[0] in ("go", "walk", "move", "head") and words[1] in DIRECTIONS:
        return ("go", DIRECTIONS[words[1]])
    if words[0] in ("take", "get", "grab") and len(words) > 1:
        return _item_command("take", words[1:])
    if words[:2] == ["pick", "up"] and len(words) > 2:
        return _item_command("take", words[2:])
    if words[0] == "drop" and len(words) > 1:
        return _item_command("drop", words[1:])
    if words[:2] == ["put", "down"] and len(words) > 2:
        return _item_command("drop", words[2:])
    if words[0] in ("unlock", "open"):
        rest = [w for w in words[1:] if w != "door"]
        if rest and rest[0] in DIRECTIONS:
            key = rest[2:] if len(rest) > 2 and rest[1] in ("with", "using") else None
            if key is None and len(rest) != 1 or key is not None and " ".join(key) not in ITEM_NAMES:
                return None
            return ("unlock", DIRECTIONS[rest[0]], " ".join(key) if key else "")
    return None


def _item_command(verb: str, words: list[str]) -> tuple[str, str] | None:
    """``(verb, item)`` when ``words`` name an item some world holds, else None (not one command)."""
    name = " ".join(words)
    return (verb, name) if name in ITEM_NAMES else None


def _act(data: dict[str, Any], state: dict[str, Any], move: str) -> Outcome:
    command = read_command(move, _parse)
    if command is None:
        why = "write one command: go DIRECTION, take ITEM, drop ITEM, unlock DIRECTION with ITEM, look or inventory"
        return Outcome(state, Verdict.unparsed(why), f"I don't understand that. Commands: {why.split(': ')[1]}.")
    room, items = state["room"], state["items"]
    held = sorted(name for name, at in items.items() if at == HELD)
    verb = command[0]
    if verb == "look":
        return _fail(state, _describe(data, state))
    if verb == "inventory":
        return _fail(state, f"You carry: {', '.join(held)}." if held else "You carry nothing.")
    if verb == "go":
        exits = _exits(data, room)
        if command[1] not in exits:
            return _fail(state, f"You can't go {command[1]} from here.")
        door, other = exits[command[1]]
        if _locked(data, state, door):
            return _fail(state, f"The {data['doors'][door][2]} door to the {command[1]} is locked.")
        state = {**state, "room": other}
        return Outcome(state, Verdict.wrong("moved"), _describe(data, state))
    if verb == "take":
        name = command[1]
        if items.get(name) != room:
            return _fail(state, f"You already carry the {name}." if items.get(name) == HELD else
                         f"There is no {name} here.")
        return Outcome({**state, "items": {**items, name: HELD}}, Verdict.wrong("taken"), f"You take the {name}.")
    if verb == "drop":
        name = command[1]
        if items.get(name) != HELD:
            return _fail(state, f"You don't carry the {name}.")
        state = {**state, "items": {**items, name: room}}
        if name == data["treasure"] and room == data["target"]:
            return Outcome(state, Verdict.right(), f"You drop the {name} in the {data['rooms'][room]}. "
                                                   "Task complete!", True)
        return Outcome(state, Verdict.wrong("dropped"), f"You drop the {name}.")
    direction, key = command[1], command[2]
    exits = _exits(data, room)
    if direction not in exits or data["doors"][exits[direction][0]][2] is None:
        return _fail(state, f"There is no door to the {direction}.")
    door = exits[direction][0]
    if not _locked(data, state, door):
        return _fail(state, f"The door to the {direction} is already unlocked.")
    colour = data["doors"][door][2]
    key = key or (f"{colour} key" if f"{colour} key" in held else "")
    if not key:
        return _fail(state, f"Unlock it with what? You carry no {colour} key.")
    if items.get(key) != HELD:
        return _fail(state, f"You don't carry the {key}.")
    if key != f"{colour} key":
        return _fail(state, f"The {key} does not fit the {colour} door.")
    state = {**state, "unlocked": sorted([*state["unlocked"], door])}
    return Outcome(state, Verdict.wrong("unlocked"), f"You unlock the {colour} door to the {direction}.")


def _fail(state: dict[str, Any], message: str) -> Outcome:
    return Outcome(state, Verdict.wrong("no progress"), message)


def _path(data: dict[str, Any], state: dict[str, Any], start: int, goals: set[int]) -> list[int] | None:
    """Rooms from ``start`` to the nearest of ``goals`` through open doors (without ``start``), or None."""
    parent = {start: start}
    queue = deque([start])
    while queue:
        room = queue.popleft()
        if room in goals:
            path = []
            while room != start:
                path.append(room)
                room = parent[room]
            return path[::-1]
        for direction, (door, nxt) in sorted(_exits(data, room).items()):
            if nxt not in parent and not _locked(data, state, door):
                parent[nxt] = room
                queue.append(nxt)
    return None


def _next_command(data: dict[str, Any], state: dict[str, Any]) -> str:
    room, items = state["room"], state["items"]
    treasure = data["treasure"]

    def toward(goals: set[int], then: str) -> str | None:
        path = _path(data, state, room, goals)
        if path is None:
            return None
        return then if not path else f"go {_direction(data, room, path[0])}"

    if items[treasure] == HELD:
        return toward({data["target"]}, f"drop {treasure}") or "look"
    step = toward({items[treasure]}, f"take {treasure}")
    if step:
        return step
    for door, (a, b, colour) in enumerate(data["doors"]):
        if _locked(data, state, door) and items.get(f"{colour} key") == HELD:
            for side, other in ((a, b), (b, a)):
                step = toward({side}, f"unlock {_direction(data, side, other)} with {colour} key")
                if step:
                    return step
    needed = {items[f"{colour} key"] for door, (_, _, colour) in enumerate(data["doors"])
              if _locked(data, state, door) and items.get(f"{colour} key", HELD) != HELD}
    for key_room in sorted(needed):
        name = next(f"{colour} key" for door, (_, _, colour) in enumerate(data["doors"])
                    if _locked(data, state, door) and items.get(f"{colour} key") == key_room)
        step = toward({key_room}, f"take {name}")
        if step:
            return step
    return "look"
