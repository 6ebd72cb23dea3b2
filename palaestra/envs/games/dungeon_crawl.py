"""Dungeon crawl: find the way out of a dungeon past locked doors and monsters, seeing one room at a time.

The dungeon is a grid of rooms joined by passages (a random spanning tree, so each passage is the only way
past it). Some passages are guarded: a locked door of a metal (``a locked bronze door``), opened by the key of
that metal, or a monster (``a troll blocks the way``), driven off by the one item it fears. Which item each
monster fears is drawn per problem and listed in the prompt's bestiary (which also names monsters the dungeon
may not hold, and the items those fear lie around as decoys, with spare keys and junk). Every item is used
up when it clears its passage. The exit is one of the rooms farthest from the start, with as many guards as can be on the way to it;
walking into it wins (reward 1).
The model sees only the room it stands in (its passages, what guards them, the items on the floor) and the
result of each command; where the exit lies is not said.

Commands (stated in the prompt): ``go north`` (or ``north``, ``n``; also east, south, west), ``take ITEM``,
``use ITEM on DIRECTION`` (also ``use ITEM on MONSTER``, ``unlock DIRECTION with ITEM``, ``attack DIRECTION
with ITEM``), ``look``, ``inventory``. One command per turn: a reply holding several is refused, and an item
no dungeon holds is unreadable. A command that cannot be done (no passage, a guarded passage, a key that does
not fit) costs a turn and says why. Using the wrong item on a monster costs one of the three health points,
and the third such blow loses the game, so guessing does not pay.

The oracle knows the map: it walks to the exit if it can; else it works out which guards stand between it and
the exit (and between it and the items those guards need, transitively), uses an item it holds on the
nearest such guard, or fetches the nearest item one of them needs. Each guard's item lies where the player
can reach it with the guards before it cleared, so the oracle always gets out. The honest player
(:meth:`DungeonCrawl.honest_move`) knows only the text: it takes every key and every item the bestiary
names, clears a guard whenever it holds the item that guard needs, walks through passages not yet tried and
otherwise heads for the nearest room where one of those is possible; it escapes within the budget at every
level. The budget is fixed by the level: three turns per room and two per guard (31, 42, 56, 70, 87 turns at
levels 0-4); the generator redraws the rare dungeon where the oracle's plan or the honest player's game is longer
(version 1's budget was the oracle's plan plus a turn per room, three per guard and two more: every "(N turns left)"
told the hidden plan length exactly). Uniformly random legal commands rarely escape (0.11 at level 0, 0.02 at level 1,
none above, over 150 games; measured in the tests). Levels grow the map, the guards and the decoys. The
difficulty measure is the oracle's plan length plus the guards.

Generation speed: about 80 problems/s at level 4 on this 2-core machine (version 1: 400). The oracle's whole game
(each command routes through the rooms to the next key, item or exit by shortest paths) and the honest player's are
played at generation, to check that the level's budget suffices for both. They are kept because the budget must be one
that is known to suffice.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, View, register, retry
from palaestra.core.task import Growth
from palaestra.envs.games._worlds import (
    DIRECTION_WORDS,
    DIRECTIONS,
    Links,
    direction,
    neighbours,
    reachable,
    route,
    tree_path,
)
from palaestra.generators.grids import random_maze
from palaestra.verifiers.moves import read_command

ADJECTIVES = ("damp", "mossy", "cold", "dusty", "silent", "narrow", "vaulted", "flooded", "crumbling", "smoky",
              "echoing", "gloomy")
CHAMBERS = ("crypt", "cell", "hall", "gallery", "shrine", "cistern", "armoury", "larder", "ossuary", "forge",
            "kennel", "library")
METALS = ("iron", "bronze", "copper", "silver", "gold", "bone")
MONSTERS = ("goblin", "troll", "giant spider", "skeleton", "ghost", "wolf", "slime", "basilisk")
BANES = ("torch", "silver dagger", "holy water", "war hammer", "mirror shield", "raw meat", "salt pouch", "iron net")
JUNK = ("old boot", "cracked pot", "rusty chain", "candle stub", "broken bow", "tattered cloak")
KEYS = tuple(f"{metal} key" for metal in METALS)
ITEM_NAMES = frozenset([*KEYS, *BANES, *JUNK])
HEALTH = 3
HELD, USED = -1, -2  # an item's place while carried, and once used up
ABSENT_MONSTERS = 2  # monsters the bestiary names beyond those in the dungeon (their banes are decoys)


def _budget(config: DungeonCrawl.Config) -> int:
    """The turn budget: three turns per room and two per guard, fixed by the level (version 1 added the oracle's
    plan length, which every "(N turns left)" then told exactly)."""
    return 3 * config.rows * config.cols + 2 * config.guards


@register
class DungeonCrawl(MultiTurnTask):
    id = "games/dungeon_crawl"
    version = 2
    family = "games"
    description = "Escape a dungeon seen one room at a time: keys for locked doors, the right item for each monster."
    tags = ("games", "multi-turn", "text-world", "exploration", "partial-observation", "planning")
    one_move_per_turn = True  # a reply holding several commands is refused (checked by the kit)
    hidden_information = True  # the map, the exit and where the items lie

    @dataclass(frozen=True)
    class Config:
        rows: int
        cols: int
        guards: int  # guarded passages (locked doors and monsters)
        decoys: int  # items that clear nothing (spare keys, banes of absent monsters, junk)

    presets = (Config(3, 3, 2, 1), Config(3, 4, 3, 2), Config(4, 4, 4, 3), Config(4, 5, 5, 4), Config(5, 5, 6, 5))
    growth = Growth(steps={"cols": 1, "guards": 1}, limits={"cols": 9, "guards": len(METALS) + len(MONSTERS) - 1})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> Problem | None:
            data = _dungeon(rng, config)
            data["plan"] = len(_oracle_game(data))
            data["budget"] = _budget(config)
            if data["plan"] > data["budget"]:
                return None
            prompt = self._prompt(data)
            problem = Problem(prompt=prompt, answer=None, data=data)
            return problem if self.honest_turns(problem, data["budget"]) is not None else None

        return retry(draw, attempts=200, what="a dungeon the oracle and the honest player escape in time")

    def _prompt(self, data: dict[str, Any]) -> str:
        bestiary = "; ".join(f"a {monster} flees from the {item}" for monster, item in data["bane"].items())
        prompt = (
            "You wake in a dungeon and must find its exit. You see only the room you stand in. Some passages are "
            "locked doors of a metal, opened by the key of that metal; others are blocked by a monster, which flees "
            f"from one item only. Bestiary: {bestiary}. An item is used up when it clears a passage. You have "
            f"{HEALTH} health points: using the wrong item on a monster costs one, and losing all of them ends the "
            "game. Walking into the exit room wins.\n\n"
            "Commands: go DIRECTION (north, east, south, west; or just n, e, s, w), take ITEM, use ITEM on DIRECTION "
            "(for example: use torch on east), look, inventory. Each command takes one turn, and so does one that "
            f"cannot be done. You have {data['budget']} turns.\n\n{_describe(data, _start(data))}\n\n"
            "Each turn, write one command, for example: go north"
        )
        return prompt

    def max_turns(self, problem: Problem) -> int:
        return problem.data["budget"]

    def difficulty(self, problem: Problem) -> float:
        return float(problem.data["plan"] + sum(1 for guard in problem.data["guards"] if guard))

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return _start(problem.data)

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        return _act(problem.data, state, move)

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return _next_command(problem.data, state)

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        """Walking through each open passage, taking each item here, using each held item on each guard here."""
        data, room = problem.data, state["room"]
        links = _links(data)
        moves = [f"go {d}" for d, (p, _) in links[room].items() if not _guarded(data, state, p)]
        moves += [f"take {item}" for item, at in sorted(state["items"].items()) if at == room]
        held = sorted(item for item, at in state["items"].items() if at == HELD)
        moves += [f"use {item} on {d}" for d, (p, _) in links[room].items() if _guarded(data, state, p) for item in held]
        return moves

    def honest_move(self, view: View) -> str:
        """Take keys and bestiary items, clear a guard whose item is held, try untried passages, else walk to the
        nearest known room where one of these can be done (see the module docstring)."""
        notes = _Notes(view)
        room = notes.room
        for item in notes.floor.get(room, []):
            if item in KEYS or item in notes.bane.values():
                return f"take {item}"
        for way, guard in notes.exits.get(room, {}).items():
            usable = notes.clears(guard)
            if usable:
                return f"use {usable} on {way}"
        untried = [way for way, guard in notes.exits.get(room, {}).items()
                   if not guard and way not in notes.edges.get(room, {})]
        if untried:
            return f"go {untried[0]}"

        def worth(place: str) -> bool:
            return any(item in KEYS or item in notes.bane.values() for item in notes.floor.get(place, [])) or any(
                notes.clears(guard) or not guard and way not in notes.edges.get(place, {})
                for way, guard in notes.exits.get(place, {}).items())

        first: dict[str, str] = {room: ""}
        frontier = [room]
        while frontier:  # breadth first over the passages walked, through open ones only
            following = []
            for place in frontier:
                if place != room and worth(place):
                    return f"go {first[place]}"
                for way, other in notes.edges.get(place, {}).items():
                    if other not in first and not notes.exits.get(place, {}).get(way):
                        first[other] = first[place] or way
                        following.append(other)
            frontier = following
        return "look"


def _dungeon(rng: random.Random, config: DungeonCrawl.Config) -> dict[str, Any]:
    count = config.rows * config.cols
    maze = random_maze(rng, config.rows, config.cols)
    passages = [list(p) for p in maze.passages]
    links = neighbours(config.rows, config.cols, maze.passages)
    start = rng.randrange(count)
    depth = reachable(links, start, set())
    # The exit is one of the farthest rooms, with guards on the way to it first (then on passages far from the start).
    far = max(depth.values())
    exit_room = rng.choice(sorted(room for room, d in depth.items() if d >= far - 1 and room != start))
    on_way = tree_path(links, start, exit_room)
    guarded = rng.sample(on_way, min(config.guards, len(on_way)))
    rest = sorted((p for p in range(len(passages)) if p not in guarded), key=lambda p: -max(depth[r] for r in passages[p]))
    guarded = sorted(guarded + rng.sample(rest[:max(config.guards, len(rest) // 2 + 1)], config.guards - len(guarded)))
    kinds = rng.sample(["door"] * min(config.guards, len(METALS)) + ["monster"] * min(config.guards, len(MONSTERS)),
                       config.guards)
    metals = rng.sample(METALS, kinds.count("door"))
    present = rng.sample(MONSTERS, kinds.count("monster"))
    guards: list[list[str] | None] = [None] * len(passages)
    for passage, kind in zip(guarded, kinds):
        guards[passage] = ["door", metals.pop()] if kind == "door" else ["monster", present.pop()]
    monsters = [guard[1] for guard in guards if guard and guard[0] == "monster"]
    absent = [m for m in MONSTERS if m not in monsters]
    listed = sorted(monsters + rng.sample(absent, min(ABSENT_MONSTERS, len(absent))))
    bane = dict(zip(listed, rng.sample(BANES, len(listed))))
    data: dict[str, Any] = {"rows": config.rows, "cols": config.cols, "passages": passages, "guards": guards,
                            "bane": bane, "start": start}
    # Each guard's item lies where the player can get with the guards before it cleared.
    items: dict[str, int] = {}
    closed = set(guarded)
    region = reachable(links, start, closed)
    for _ in guarded:
        boundary = [p for p in sorted(closed) if (passages[p][0] in region) != (passages[p][1] in region)]
        passage = rng.choice(boundary)
        items[_needs(data, passage)] = rng.choice(sorted(region))
        closed.discard(passage)
        region = reachable(links, start, closed)
    spare = [item for item in [*KEYS, *BANES, *JUNK] if item not in items and item not in
             [_needs(data, p) for p in guarded]]
    for item in rng.sample(spare, min(config.decoys, len(spare))):
        items[item] = rng.randrange(count)
    data["exit"] = exit_room
    data["items"] = dict(sorted(items.items()))
    names = [f"{a} {c}" for a in ADJECTIVES for c in CHAMBERS]
    data["rooms"] = rng.sample(names, count)
    return data


def _links(data: dict[str, Any]) -> Links:
    """The map's links (shared between calls: read them, never change them)."""
    return _map_links(data["rows"], data["cols"], tuple(map(tuple, data["passages"])))


@lru_cache(maxsize=64)
def _map_links(rows: int, cols: int, passages: tuple[tuple[int, int], ...]) -> Links:
    """Cached per map: every command of the oracle's game at generation (and of a played game) looks them up
    several times, and building them was a third of the generation time."""
    return neighbours(rows, cols, passages)


@lru_cache(maxsize=4096)
def _map_tree_path(rows: int, cols: int, passages: tuple[tuple[int, int], ...], start: int, goal: int) -> tuple[int, ...]:
    """``tree_path`` on the map, cached: the oracle's game asks for the way to the exit and to the items needed
    from every room it stands in, turn after turn."""
    return tuple(tree_path(_map_links(rows, cols, passages), start, goal))


def _start(data: dict[str, Any]) -> dict[str, Any]:
    return {"room": data["start"], "items": dict(data["items"]), "cleared": [], "health": HEALTH}


def _needs(data: dict[str, Any], passage: int) -> str:
    """The item that clears a guarded passage."""
    kind, name = data["guards"][passage]
    return f"{name} key" if kind == "door" else data["bane"][name]


def _guarded(data: dict[str, Any], state: dict[str, Any], passage: int) -> bool:
    return bool(data["guards"][passage]) and passage not in state["cleared"]


def _closed(data: dict[str, Any], state: dict[str, Any]) -> set[int]:
    return {p for p in range(len(data["passages"])) if _guarded(data, state, p)}


def _guard_text(guard: list[str]) -> str:
    return f"a locked {guard[1]} door" if guard[0] == "door" else f"a {guard[1]} blocks the way"


def _describe(data: dict[str, Any], state: dict[str, Any]) -> str:
    room = state["room"]
    ways = [f"{way} ({_guard_text(data['guards'][p])})" if _guarded(data, state, p) else way
            for way, (p, _) in _links(data)[room].items()]
    floor = [item for item, at in sorted(state["items"].items()) if at == room]
    seen = f"On the floor: {', '.join(floor)}." if floor else "The floor is bare."
    return f"You are in the {data['rooms'][room]}. Passages lead {', '.join(ways)}. {seen}"


def _parse(words: list[str]) -> tuple[str, ...] | None:
    if words in (["look"], ["l"], ["look", "around"]):
        return ("look",)
    if words in (["inventory"], ["i"], ["inv"]):
        return ("inventory",)
    if len(words) == 1 and words[0] in DIRECTION_WORDS:
        return ("go", DIRECTION_WORDS[words[0]])
    if len(words) == 2 and words[0] in ("go", "walk", "move", "head") and words[1] in DIRECTION_WORDS:
        return ("go", DIRECTION_WORDS[words[1]])
    if len(words) > 1 and words[0] in ("take", "get", "grab"):
        return ("take", " ".join(words[1:])) if " ".join(words[1:]) in ITEM_NAMES else None
    if words[:2] == ["pick", "up"] and " ".join(words[2:]) in ITEM_NAMES:
        return ("take", " ".join(words[2:]))
    if words[:1] == ["use"] and ("on" in words or "against" in words):
        cut = max(i for i, w in enumerate(words) if w in ("on", "against"))
        item, target = " ".join(words[1:cut]), " ".join(w for w in words[cut + 1:] if w not in ("door", "passage"))
        return _use(item, target)
    if words[:1] in (["unlock"], ["attack"], ["fight"]) and "with" in words:
        cut = words.index("with")
        target = " ".join(w for w in words[1:cut] if w not in ("door", "passage"))
        return _use(" ".join(words[cut + 1:]), target)
    return None


def _use(item: str, target: str) -> tuple[str, ...] | None:
    if item not in ITEM_NAMES:
        return None
    if target in DIRECTION_WORDS:
        return ("use", item, DIRECTION_WORDS[target])
    return ("use", item, target) if target in MONSTERS else None


def _act(data: dict[str, Any], state: dict[str, Any], move: str) -> Outcome:
    command = read_command(move, _parse)
    if command is None:
        why = ("write one command: go DIRECTION, take ITEM, use ITEM on DIRECTION, look or inventory (for example: "
               "use torch on east)")
        return Outcome(state, Verdict.unparsed(why), f"I don't understand that. Commands: {why.split(': ', 1)[1]}.")
    room, items = state["room"], state["items"]
    links = _links(data)
    verb = command[0]
    if verb == "look":
        return _fail(state, _describe(data, state))
    if verb == "inventory":
        held = [item for item, at in sorted(items.items()) if at == HELD]
        return _fail(state, f"You carry: {', '.join(held)}." if held else "You carry nothing.")
    if verb == "take":
        item = command[1]
        if items.get(item) != room:
            return _fail(state, f"You already carry the {item}." if items.get(item) == HELD else
                         f"There is no {item} here.")
        return Outcome.goes_on({**state, "items": {**items, item: HELD}}, f"You take the {item}.", "taken")
    if verb == "go":
        way = command[1]
        if way not in links[room]:
            return _fail(state, f"There is no passage {way} from here.")
        passage, other = links[room][way]
        if _guarded(data, state, passage):
            return _fail(state, f"You cannot pass: {_guard_text(data['guards'][passage])}.")
        after = {**state, "room": other}
        if other == data["exit"]:
            return Outcome(after, Verdict.right(), f"You walk into the {data['rooms'][other]} and see daylight: "
                                                   "this is the exit. You escaped the dungeon!", True)
        return Outcome.goes_on(after, _describe(data, after), "moved")
    item, target = command[1], command[2]
    facing: str | None = target if target in DIRECTIONS else next(
        (w for w, (p, _) in links[room].items() if _guarded(data, state, p) and data["guards"][p][1] == target), None)
    if facing is None:
        return _fail(state, f"There is no {target} here.")
    way = facing
    if way not in links[room] or not _guarded(data, state, links[room][way][0]):
        return _fail(state, f"Nothing guards the way {way}.")
    if items.get(item) != HELD:
        return _fail(state, f"You don't carry the {item}.")
    passage = links[room][way][0]
    kind, name = data["guards"][passage]
    if item != _needs(data, passage):
        if kind == "door":
            return _fail(state, f"The {item} does not open the {name} door.")
        health = state["health"] - 1
        hurt = {**state, "health": health}
        if health <= 0:
            return Outcome(hurt, Verdict.wrong("killed"), f"The {name} does not fear the {item}. It strikes you "
                                                          "down: you have no health left. Game over.", True)
        return Outcome(hurt, Verdict.wrong("hurt"), f"The {name} does not fear the {item} and strikes you: "
                                                    f"{health} health left.")
    after = {**state, "items": {**items, item: USED}, "cleared": sorted([*state["cleared"], passage])}
    said = (f"The {item} turns in the lock: the {name} door to the {way} opens." if kind == "door" else
            f"The {name} flees from the {item}: the way {way} is clear.")
    return Outcome.goes_on(after, f"{said} The {item} is used up.", "cleared")


def _fail(state: dict[str, Any], message: str) -> Outcome:
    return Outcome(state, Verdict.wrong("no progress"), message)


def _needed(data: dict[str, Any], state: dict[str, Any]) -> set[int]:
    """The guarded passages that must be cleared to reach the exit: those on the way to it, and, transitively,
    those on the way to the items they need."""
    needed: set[int] = set()
    goals = [data["exit"]]
    passages = tuple(map(tuple, data["passages"]))
    while goals:
        for passage in _map_tree_path(data["rows"], data["cols"], passages, state["room"], goals.pop()):
            if _guarded(data, state, passage) and passage not in needed:
                needed.add(passage)
                at = state["items"][_needs(data, passage)]
                if at >= 0:
                    goals.append(at)
    return needed


def _next_command(data: dict[str, Any], state: dict[str, Any]) -> str:
    links, room = _links(data), state["room"]
    closed = _closed(data, state)

    def toward(goals: set[int]) -> list[int] | None:
        return route(links, room, goals, closed)

    walk = toward({data["exit"]})
    if walk:
        return f"go {direction(data['cols'], room, walk[0])}"
    needed = _needed(data, state)
    usable = [(len(walk), passage, walk) for passage in sorted(needed) if state["items"][_needs(data, passage)] == HELD
              for walk in [toward(set(data["passages"][passage]))] if walk is not None]
    for _, passage, walk in sorted(usable)[:1]:
        item = _needs(data, passage)
        if walk:
            return f"go {direction(data['cols'], room, walk[0])}"
        a, b = data["passages"][passage]
        return f"use {item} on {direction(data['cols'], room, b if a == room else a)}"
    wanted = {state["items"][_needs(data, p)]: _needs(data, p) for p in needed if state["items"][_needs(data, p)] >= 0}
    walk = toward(set(wanted))
    if walk is None:
        return "look"  # unreachable: each guard's item lies where the guards before it let the player go
    return f"take {wanted[room]}" if not walk else f"go {direction(data['cols'], room, walk[0])}"


def _oracle_game(data: dict[str, Any]) -> list[str]:
    state = _start(data)
    commands: list[str] = []
    for _ in range(4 * len(data["rooms"]) * (len(data["passages"]) + 2)):
        commands.append(_next_command(data, state))
        outcome = _act(data, state, commands[-1])
        if outcome.done:
            return commands
        state = outcome.state
    raise RuntimeError("the oracle did not escape")  # unreachable: see _next_command


_BESTIARY = re.compile(r"a ([a-z ]+?) flees from the ([a-z ]+?)(?:;|\.)")
_ROOM = re.compile(r"You are in the (.+?)\. Passages lead (.*?)\. (?:On the floor: (.+?)\.|The floor is bare\.)")
_WAY = re.compile(r"(north|east|south|west)(?: \((a locked \w+ door|a [a-z ]+? blocks the way)\))?")
_TAKEN = re.compile(r"^You take the (.+)\.$")
_CLEARED = re.compile(r"the way (\w+) is clear\.|door to the (\w+) opens\.")


class _Notes:
    """What the text so far says: the bestiary, the rooms seen (passages, guards, floor), walked passages, items."""

    def __init__(self, view: View) -> None:
        self.bane = dict(_BESTIARY.findall(view.prompt.split("Bestiary: ", 1)[1].split(". An item", 1)[0] + "."))
        self.room = ""
        self.exits: dict[str, dict[str, str]] = {}  # room -> direction -> "" or the guard's text
        self.edges: dict[str, dict[str, str]] = {}  # room -> direction -> room, for passages walked
        self.floor: dict[str, list[str]] = {}
        self.held: set[str] = set()
        for move, text in [("", view.prompt), *view.history]:
            self._read(move, text)

    def _read(self, move: str, text: str) -> None:
        here = _ROOM.search(text)
        if here:
            came, self.room = self.room, here.group(1)
            self.exits[self.room] = {m.group(1): m.group(2) or "" for m in _WAY.finditer(here.group(2))}
            self.floor[self.room] = here.group(3).split(", ") if here.group(3) else []
            way = move.split()[-1] if move else ""
            back = {"north": "south", "south": "north", "east": "west", "west": "east"}
            if came and came != self.room and way in back:
                self.edges.setdefault(came, {})[way] = self.room
                self.edges.setdefault(self.room, {})[back[way]] = came
        taken = _TAKEN.match(text)
        if taken:
            self.held.add(taken.group(1))
            self.floor[self.room] = [i for i in self.floor.get(self.room, []) if i != taken.group(1)]
        cleared = _CLEARED.search(text)
        if cleared:
            self.exits[self.room][cleared.group(1) or cleared.group(2)] = ""
            self.held.discard(move.split(" on ")[0].removeprefix("use "))

    def clears(self, guard: str) -> str | None:
        """The held item that clears a guard's text (``a locked iron door``, ``a troll blocks the way``), if any."""
        if not guard:
            return None
        if guard.startswith("a locked "):
            key = guard.removeprefix("a locked ").removesuffix(" door") + " key"
            return key if key in self.held else None
        item = self.bane.get(guard.removeprefix("a ").removesuffix(" blocks the way"))
        return item if item in self.held else None
