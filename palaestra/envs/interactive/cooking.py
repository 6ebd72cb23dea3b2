"""Cooking: find the cookbook in a house, then gather, cut and cook what its recipe asks, by text commands.

A TextWorld-style cooking game. The house is a grid of rooms joined by passages (a random spanning
tree); the kitchen has a stove (fry) and an oven (roast), the backyard a barbecue (grill). The
cookbook lies in some room, the knife in another, and ingredients (those of the recipe and others)
lie around. The model sees only the room it is in (exits, appliances, items) and the result of each
command; the recipe is known only once the cookbook is read. Each recipe ingredient must end up
exactly as the recipe says: cut or not (``sliced``, ``diced``, ``chopped``: needs the knife held), and
cooked or not (``fried``, ``roasted``, ``grilled``: at the appliance's room), in any order. Cutting or
cooking a recipe ingredient in a way the recipe does not ask (or twice) ruins it and loses the game.
``prepare meal`` in the kitchen, holding every recipe ingredient prepared as asked, wins (reward 1).

Commands (stated in the prompt): ``go north`` (or ``north``, ``n``; also south, east, west),
``take ITEM``, ``drop ITEM``, ``read cookbook``, ``slice ITEM``/``dice ITEM``/``chop ITEM``,
``fry ITEM``/``roast ITEM``/``grill ITEM``, ``prepare meal``, ``look``, ``inventory``. One command per
turn; a reply holding several is refused, and an item name no world holds is unreadable. A command
that cannot be done costs a turn and says why.

The oracle knows the house: it walks (shortest routes) to the nearest room it still needs (an
ingredient, the knife while a cut is pending, an appliance for a pending cook, the kitchen at the
end), taking, cutting and cooking on the way. The honest player (:meth:`Cooking.honest_move`) knows
only the text: it explores exits not yet tried until it has read the cookbook, then works through the
recipe with the rooms it has seen; it wins within the budget at every level. The budget is fixed by the level:
five turns per room, four per recipe ingredient and four more (28, 42, 57, 61, 80 turns at levels 0-4); the generator
redraws the rare house where the oracle's plan or the honest player's game is longer (version 1's budget was the
oracle's plan plus four turns per room: the prompt's "You have N turns" and every "(N turns left)" told the hidden plan
length exactly). Levels grow the house, the recipe and the distractors. The difficulty measure is the length of the
oracle's plan.

Generation speed: the oracle's and the honest player's whole games are played at generation, to check that the level's
budget suffices for both (about 115 problems/s at level 4 on this 2-core machine).
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

ROOMS = ("pantry", "living room", "bedroom", "bathroom", "corridor", "garden", "garage", "shed", "cellar", "study",
         "attic", "porch", "laundry", "hall", "dining room", "nursery")
INGREDIENTS = ("red potato", "yellow potato", "carrot", "red onion", "white onion", "garlic", "red bell pepper",
               "green bell pepper", "tomato", "cucumber", "chicken breast", "chicken wing", "pork chop",
               "salmon fillet", "tuna steak", "mushroom", "zucchini", "eggplant", "tofu", "corn", "lettuce", "apple")
CUTS = {"slice": "sliced", "dice": "diced", "chop": "chopped"}
COOKS = {"fry": "fried", "roast": "roasted", "grill": "grilled"}
APPLIANCE = {"fried": "stove", "roasted": "oven", "grilled": "barbecue"}
DIRECTIONS = {"north": "north", "n": "north", "south": "south", "s": "south", "east": "east", "e": "east",
              "west": "west", "w": "west"}
BACK = {"north": "south", "south": "north", "east": "west", "west": "east"}
ITEM_NAMES = frozenset([*INGREDIENTS, "knife", "cookbook"])
HELD = -1


def _budget(config: Cooking.Config) -> int:
    """The turn budget: five turns per room, four per recipe ingredient and four more, fixed by the level (version 1's
    was the oracle's plan plus four turns per room, which every "(N turns left)" then told exactly)."""
    return 5 * config.rows * config.cols + 4 * config.ingredients + 4


@register
class Cooking(MultiTurnTask):
    id = "interactive/cooking"
    version = 2  # v2: the turn budget is fixed by the level instead of told by the oracle's plan length
    family = "interactive"
    description = "Find the cookbook in a house, then gather, cut and cook its recipe's ingredients, by text commands."
    tags = ("interactive", "multi-turn", "text-world", "planning", "partial-observation")
    one_move_per_turn = True  # a reply holding several commands is refused (checked by the kit)
    hidden_information = True

    @dataclass(frozen=True)
    class Config:
        rows: int
        cols: int
        ingredients: int  # in the recipe
        distractors: int  # ingredients the recipe does not use

    presets = (Config(2, 2, 1, 1), Config(2, 3, 2, 2), Config(3, 3, 2, 3), Config(3, 3, 3, 4), Config(3, 4, 4, 5))
    bounded = "growing its sizes past the presets exhausts a fixed pool the generator draws from (names, letters or tables)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> Problem | None:
            problem = self._draw(rng, config)
            if problem.data["plan"] > problem.data["budget"]:
                return None
            return problem if self.honest_turns(problem, problem.data["budget"]) is not None else None

        return retry(draw, attempts=200, what="a house the oracle and the honest player cook in within the budget")

    def _draw(self, rng: random.Random, config: Config) -> Problem:
        count = config.rows * config.cols
        maze = random_maze(rng, config.rows, config.cols)
        kitchen, backyard = rng.sample(range(count), 2)
        names = rng.sample(ROOMS, count)
        names[kitchen], names[backyard] = "kitchen", "backyard"
        chosen = rng.sample(INGREDIENTS, config.ingredients + config.distractors)
        recipe = []
        for name in chosen[:config.ingredients]:
            cut, cook = rng.choice(["", *CUTS.values()]), rng.choice(["", *COOKS.values()])
            if not cut and not cook:
                cook = rng.choice(list(COOKS.values()))
            recipe.append([name, cut, cook])
        items = {name: rng.randrange(count) for name in chosen}
        items["cookbook"] = rng.randrange(count)
        items["knife"] = rng.randrange(count)
        start = rng.randrange(count)
        data: dict[str, Any] = {"rooms": names, "cols": config.cols, "passages": [list(p) for p in maze.passages], "kitchen": kitchen,
                "backyard": backyard, "items": items, "recipe": recipe, "start": start}
        data["plan"] = len(_oracle_game(data))
        data["budget"] = _budget(config)
        prompt = (
            "You are in a house and want to cook a meal. Somewhere in the house lies a cookbook with the recipe: "
            "read it, gather the ingredients it lists, prepare each exactly as it says, then prepare the meal in "
            "the kitchen. The kitchen has a stove (for frying) and an oven (for roasting); the backyard has a "
            "barbecue (for grilling). Cutting (slicing, dicing, chopping) needs the knife in your inventory. "
            "Cutting or cooking a recipe ingredient in a way the recipe does not ask (or twice) ruins it and the "
            "game is lost.\n\n"
            "Commands: go north (or just north, or n; likewise south, east, west), take ITEM, drop ITEM, read "
            "cookbook, slice ITEM, dice ITEM, chop ITEM, fry ITEM, roast ITEM, grill ITEM, prepare meal, look, "
            "inventory. You can carry any number of items; an ingredient must be in your inventory to cut or cook "
            f"it. Each command takes one turn, and so does one that cannot be done. You have {data['budget']} "
            "turns; only preparing the meal scores.\n\n"
            f"{_describe(data, _start_state(data))}\n\n"
            "Each turn, write one command, for example: go north"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["budget"]

    def difficulty(self, problem: Problem) -> float:
        return float(problem.data["plan"])

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return _start_state(problem.data)

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        return _act(problem.data, state, move)

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return _next_command(problem.data, state)

    def honest_move(self, view: View) -> str:
        """Explore from what the text said until the cookbook is read, then gather, cut and cook what it lists
        (taking the knife when seen), walking known passages to the nearest room still needed."""
        memory = _Memory(view)
        room, held = memory.room, memory.held
        here = memory.items.get(room, [])
        if "cookbook" in here and memory.recipe is None:
            return "read cookbook"
        if "knife" in here:
            return "take knife"
        recipe = memory.recipe or {}
        for name in here:
            if name in recipe:
                return f"take {name}"
        pending_cook: set[str] = set()
        for name, (cut, cook) in recipe.items():
            if name not in held:
                continue
            done = memory.done.get(name, set())
            if cut and cut not in done and "knife" in held:
                return f"{_verb(cut)} {name}"
            if cook and cook not in done:
                if APPLIANCE[cook] in memory.appliances.get(room, set()):
                    return f"{_verb(cook)} {name}"
                pending_cook.add(APPLIANCE[cook])
        ready = memory.recipe is not None and all(
            name in held and {c for c in (cut, cook) if c} <= memory.done.get(name, set())
            for name, (cut, cook) in recipe.items())
        if ready and room == "kitchen":
            return "prepare meal"

        def wanted(place: str) -> bool:
            if ready:
                return place == "kitchen"
            if memory.appliances.get(place, set()) & pending_cook:
                return True
            things = memory.items.get(place, [])
            return "knife" in things or any(t in recipe for t in things) or (
                memory.recipe is None and "cookbook" in things)

        return memory.route(wanted) or memory.route(lambda place: bool(memory.untried(place)), explore=True) or "look"


def _start_state(data: dict[str, Any]) -> dict[str, Any]:
    return {"room": data["start"], "items": dict(data["items"]), "done": {}, "lost": False}


def _verb(participle: str) -> str:
    return next(v for v, p in [*CUTS.items(), *COOKS.items()] if p == participle)


def _exits(data: dict[str, Any], room: int) -> dict[str, int]:
    cols = data["cols"]
    out = {}
    for a, b in data["passages"]:
        if room in (a, b):
            other = b if a == room else a
            out[{-cols: "north", cols: "south", -1: "west", 1: "east"}[other - room]] = other
    return out


def _appliance(data: dict[str, Any], room: int) -> str:
    if room == data["kitchen"]:
        return "There is a stove and an oven here."
    if room == data["backyard"]:
        return "There is a barbecue here."
    return ""


def _describe(data: dict[str, Any], state: dict[str, Any]) -> str:
    room = state["room"]
    exits = ", ".join(d for d in ("north", "south", "east", "west") if d in _exits(data, room))
    here = [name for name, at in sorted(state["items"].items()) if at == room]
    seen = f" You see: {', '.join(here)}." if here else " There is nothing here."
    appliance = _appliance(data, room)
    return f"You are in the {data['rooms'][room]}. Exits: {exits}.{' ' + appliance if appliance else ''}{seen}"


def _recipe_text(data: dict[str, Any]) -> str:
    parts = []
    for name, cut, cook in data["recipe"]:
        how = ", ".join(x for x in (cut, cook) if x)
        parts.append(f"{name} ({how})")
    return "The cookbook says: Ingredients: " + "; ".join(parts) + ". Then prepare the meal in the kitchen."


def _parse(words: list[str]) -> tuple[str, ...] | None:
    if not words:
        return None
    if words in (["look"], ["l"], ["look", "around"]):
        return ("look",)
    if words in (["inventory"], ["i"], ["inv"], ["check", "inventory"]):
        return ("inventory",)
    if words in (["prepare", "meal"], ["prepare", "the", "meal"], ["cook", "meal"], ["make", "meal"]):
        return ("prepare",)
    if words in (["read", "cookbook"], ["read", "the", "cookbook"], ["read", "recipe"]):
        return ("read",)
    if len(words) == 1 and words[0] in DIRECTIONS:
        return ("go", DIRECTIONS[words[0]])
    if len(words) == 2 and words[0] in ("go", "walk", "move", "head") and words[1] in DIRECTIONS:
        return ("go", DIRECTIONS[words[1]])
    rest = [w for w in words[1:] if w not in ("the", "a", "an")]
    name = " ".join(rest)
    if name not in ITEM_NAMES:
        return None
    if words[0] in ("take", "get", "grab"):
        return ("take", name)
    if words[0] == "drop":
        return ("drop", name)
    if words[0] in CUTS:
        return ("cut", name, CUTS[words[0]])
    if words[0] in COOKS:
        return ("cook", name, COOKS[words[0]])
    return None


def _act(data: dict[str, Any], state: dict[str, Any], move: str) -> Outcome:
    command = read_command(move, _parse, articles=True)
    if command is None:
        why = ("write one command: go DIRECTION, take ITEM, drop ITEM, read cookbook, slice/dice/chop ITEM, "
               "fry/roast/grill ITEM, prepare meal, look or inventory")
        return Outcome(state, Verdict.unparsed(why), f"I don't understand that. Commands: {why.split(': ')[1]}.")
    room, items = state["room"], state["items"]
    verb = command[0]
    recipe = {name: (cut, cook) for name, cut, cook in data["recipe"]}
    if verb == "look":
        return _fail(state, _describe(data, state))
    if verb == "inventory":
        held = [f"{n} ({', '.join(state['done'][n])})" if state["done"].get(n) else n
                for n, at in sorted(items.items()) if at == HELD]
        return _fail(state, f"You carry: {', '.join(held)}." if held else "You carry nothing.")
    if verb == "go":
        exits = _exits(data, room)
        if command[1] not in exits:
            return _fail(state, f"You can't go {command[1]} from here.")
        state = {**state, "room": exits[command[1]]}
        return Outcome.goes_on(state, _describe(data, state), "moved")
    if verb == "read":
        if items["cookbook"] not in (room, HELD):
            return _fail(state, "There is no cookbook here.")
        return Outcome.goes_on(state, _recipe_text(data), "read")
    if verb == "prepare":
        if room != data["kitchen"]:
            return _fail(state, "You can only prepare the meal in the kitchen.")
        for name, (cut, cook) in recipe.items():
            if items[name] != HELD or sorted(state["done"].get(name, [])) != sorted(x for x in (cut, cook) if x):
                return _fail(state, "Something is missing or not prepared yet: the meal does not come together.")
        return Outcome(state, Verdict.right(), "You prepare the meal. It is delicious. You win!", True)
    name = command[1]
    if verb == "take":
        if items.get(name) != room:
            return _fail(state, f"You already carry the {name}." if items.get(name) == HELD else
                         f"There is no {name} here.")
        return Outcome.goes_on({**state, "items": {**items, name: HELD}}, f"You take the {name}.", "taken")
    if verb == "drop":
        if items.get(name) != HELD:
            return _fail(state, f"You don't carry the {name}.")
        return Outcome.goes_on({**state, "items": {**items, name: room}}, f"You drop the {name}.", "dropped")
    if name not in INGREDIENTS or items.get(name) != HELD:
        return _fail(state, f"You need to carry the {name} (an ingredient) first.")
    done = state["done"].get(name, [])
    if verb == "cut":
        if items["knife"] != HELD:
            return _fail(state, "You need the knife in your inventory to cut.")
        kind = "cut"
    else:
        appliance = APPLIANCE[command[2]]
        if _appliance(data, room).find(appliance) < 0:
            return _fail(state, f"There is no {appliance} here.")
        kind = "cook"
    already = [d for d in done if (d in CUTS.values()) == (kind == "cut")]
    state = {**state, "done": {**state["done"], name: [*done, command[2]]}}
    said = f"You {_verb(command[2])} the {name}."
    if name in recipe and (already or command[2] not in recipe[name]):
        return Outcome({**state, "lost": True}, Verdict.wrong("ruined"),
                       f"{said} The recipe did not ask for that: the {name} is ruined and the meal cannot be made. "
                       "You lose.", True)
    return Outcome.goes_on(state, f"{said} The {name} is now {', '.join(state['done'][name])}.", "prepared")


def _fail(state: dict[str, Any], message: str) -> Outcome:
    return Outcome(state, Verdict.wrong("no progress"), message)


def _route(data: dict[str, Any], start: int, goals: set[int]) -> str | None:
    """The first direction of a shortest walk from ``start`` to the nearest of ``goals`` (None if already there)."""
    first: dict[int, str] = {start: ""}
    queue = deque([start])
    while queue:
        room = queue.popleft()
        if room in goals:
            return first[room] or None
        for direction, other in sorted(_exits(data, room).items()):
            if other not in first:
                first[other] = first[room] or direction
                queue.append(other)
    return None


def _next_command(data: dict[str, Any], state: dict[str, Any]) -> str:
    room, items, done = state["room"], state["items"], state["done"]
    recipe = {name: (cut, cook) for name, cut, cook in data["recipe"]}
    goals: set[int] = set()
    cuts_pending = any(cut and cut not in done.get(n, []) for n, (cut, _) in recipe.items())
    for name, (cut, cook) in recipe.items():
        if items[name] != HELD:
            if items[name] == room:
                return f"take {name}"
            goals.add(items[name])
            continue
        if cut and cut not in done.get(name, []) and items["knife"] == HELD:
            return f"{_verb(cut)} {name}"
        if cook and cook not in done.get(name, []):
            where = data["kitchen"] if cook != "grilled" else data["backyard"]
            if where == room:
                return f"{_verb(cook)} {name}"
            goals.add(where)
    if cuts_pending and items["knife"] != HELD:
        if items["knife"] == room:
            return "take knife"
        goals.add(items["knife"])
    if not goals:
        if room == data["kitchen"]:
            return "prepare meal"
        goals = {data["kitchen"]}
    direction = _route(data, room, goals)
    return f"go {direction}" if direction else "look"


def _oracle_game(data: dict[str, Any]) -> list[str]:
    """The oracle's commands from the start until it wins (each step gets nearer a goal or completes one)."""
    state = _start_state(data)
    commands: list[str] = []
    for _ in range(12 * len(data["rooms"]) * (len(data["recipe"]) + 2)):
        commands.append(_next_command(data, state))
        outcome = _act(data, state, commands[-1])
        if outcome.done:
            return commands
        state = outcome.state
    raise RuntimeError("the oracle did not finish the meal")  # unreachable: every room is reachable


_ROOM = re.compile(r"You are in the (.+?)\. Exits: (.*?)\.(?: There is (?:a stove and an oven|a barbecue) here\.)?"
                   r"(?: You see: (.+?)\.| There is nothing here\.)")
_RECIPE = re.compile(r"Ingredients: (.+?)\. Then prepare")
_TAKEN = re.compile(r"You take the (.+?)\.$")
_DROPPED = re.compile(r"You drop the (.+?)\.$")
_PREPARED = re.compile(r"The (.+?) is now (.+?)\.$")


class _Memory:
    """What the text so far says: the room, walked passages, exits and items per room, the recipe, what is held."""

    def __init__(self, view: View) -> None:
        self.room = ""
        self.edges: dict[str, dict[str, str]] = {}
        self.exits: dict[str, list[str]] = {}
        self.items: dict[str, list[str]] = {}
        self.appliances: dict[str, set[str]] = {}
        self.held: set[str] = set()
        self.done: dict[str, set[str]] = {}
        self.recipe: dict[str, tuple[str, str]] | None = None
        for move, text in [("", view.prompt), *view.history]:
            self._read(move, text)

    def _read(self, move: str, text: str) -> None:
        here = _ROOM.search(text)
        if here:
            came, self.room = self.room, here.group(1)
            self.exits[self.room] = here.group(2).split(", ") if here.group(2) else []
            self.items[self.room] = here.group(3).split(", ") if here.group(3) else []
            if "stove" in here.group(0):
                self.appliances[self.room] = {"stove", "oven"}
            elif "barbecue" in here.group(0):
                self.appliances[self.room] = {"barbecue"}
            step = move.split()[-1] if move else ""
            if came and came != self.room and step in BACK:
                self.edges.setdefault(came, {})[step] = self.room
                self.edges.setdefault(self.room, {})[BACK[step]] = came
        recipe = _RECIPE.search(text)
        if recipe:
            self.recipe = {}
            for part in recipe.group(1).split("; "):
                name, how = part[:-1].split(" (")
                steps = how.split(", ")
                cut = next((s for s in steps if s in CUTS.values()), "")
                cook = next((s for s in steps if s in COOKS.values()), "")
                self.recipe[name] = (cut, cook)
        taken = _TAKEN.search(text)
        if taken:
            self.held.add(taken.group(1))
            self.items[self.room] = [i for i in self.items.get(self.room, []) if i != taken.group(1)]
        prepared = _PREPARED.search(text)
        if prepared:
            self.done[prepared.group(1)] = set(prepared.group(2).split(", "))

    def untried(self, place: str) -> list[str]:
        return [d for d in self.exits.get(place, []) if d not in self.edges.get(place, {})]

    def route(self, wanted: Any, explore: bool = False) -> str | None:
        """The first command toward the nearest other known room ``wanted`` accepts, walking known passages;
        exploring, an untried exit of this room comes first."""
        if explore and self.untried(self.room):
            return f"go {self.untried(self.room)[0]}"
        first: dict[str, str] = {self.room: ""}
        queue = deque([self.room])
        while queue:
            place = queue.popleft()
            if place != self.room and wanted(place):
                return f"go {first[place]}"
            for direction, other in sorted(self.edges.get(place, {}).items()):
                if other not in first:
                    first[other] = first[place] or direction
                    queue.append(other)
        return None
