"""Crafting: reach a target item through a generated recipe tree, one gather or craft per turn.

A Minecraft-like world: raw materials are gathered one unit per turn (``gather wood``), some only
while holding a tool (``iron ore`` needs a pickaxe); every other item is crafted from a recipe that
consumes inputs and makes a batch (``plank (makes 4): 1 wood``), some only while holding a station
(a workbench, a furnace), which is not consumed. Some items have two recipes, and the cheaper one
depends on what else the plan needs. The prompt lists every raw material and recipe (with items the
target does not need) and the turn budget; the model writes one command per turn (``gather ITEM``,
``craft ITEM``, ``craft ITEM using recipe 2``, ``inventory``); a command that cannot be done (missing
inputs, a missing tool, an unknown item) costs the turn and says why. Reward 1 when the target item
is crafted within the budget.

The reference plan fixes a recipe per item (the cheapest combination, found by trying every choice
of the items with two recipes) and computes the batches each item needs top-down from the target,
netting out what the inventory holds, so its length is the fewest gathers and crafts for that choice.
The budget is that length plus a few spare turns (fewer at higher levels); crafting by the wrong recipe
or overproducing runs out of turns. The oracle replans from any inventory the same way. Levels deepen
the tree, widen it and add items with two recipes. The difficulty measure is the reference plan's length.

Version 3: where items have two recipes, a world in which every choice fits the budget is redrawn, and so is one
in which a fixed rule's choice fits (the recipe with the fewest input units per item made; with two or more such
items also recipe 1 everywhere, recipe 2 everywhere); the rules are declared heuristics, played by a perfect planner.
An item's two recipes are listed in a drawn order, so their numbers say nothing. With one such item (level 1) the
choice is binary, and filtering out the worlds a rule wins makes its opposite win them all (the dearer recipe per item
made won 0.90 there when tried): there the cheapest recipe is the right one at even odds instead. Every declared rule
wins 0.45-0.52 of level 1 and none of levels 2-4; undeclared picks (fewest kinds of input, no station, fewest units)
0.07-0.40 of levels 2-4, near a random choice's 0.25 / 0.22 / 0.20 (60 seeds, r3s33). Version 2 kept a world where a
rule fits with chance 0.4 per such rule and always listed the drawn alternative second: "always recipe 2" won 0.62 /
0.40 / 0.45 / 0.37 of levels 1-4, the fewest units per item made 0.57 / 0.52 / 0.37 / 0.30.
Version 1 let such a planner win up to 0.41-0.93 of the games per level, 0.68 at the top level.

Generation speed: a mean of 1-3 ms at levels 0-1 and 11-24 ms at levels 2-4 (CPU, 60 seeds, r3s33). Worlds are
drawn until one fits: each is solved for its shortest plan (`_best_choice`, over every recipe choice) and redrawn if
that length is outside the level's range or a rule's choice fits. That length sets the turn budget, so the solve is
kept.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Policy, Problem, Verdict, register, retry
from palaestra.verifiers.moves import read_command

RAWS = ("wood", "stone", "sand", "clay", "coal", "iron ore", "copper ore", "flint", "wool", "reed", "resin", "salt",
        "bone", "hide", "gold ore", "quartz")
TOOL_RAWS = {"iron ore": "pickaxe", "copper ore": "pickaxe", "gold ore": "pickaxe", "quartz": "pickaxe",
             "hide": "spear"}
CRAFTED = ("plank", "stick", "brick", "glass", "iron ingot", "copper wire", "rope", "nail", "gear", "cloth", "lens",
           "hinge", "glue", "torch", "bucket", "chain", "lantern", "barrel", "frame", "spring", "panel", "bolt",
           "wheel", "axle", "cart", "compass", "clock", "saddle", "bellows", "kiln", "loom part", "pulley", "crank",
           "shield", "helmet", "anvil block", "telescope", "music box", "lock", "door", "ladder", "bridge kit",
           "sail", "boat", "mill", "pump", "furnace core", "engine")
STATIONS = ("workbench", "furnace", "anvil")
TOOLS = ("pickaxe", "spear")
ITEM_NAMES = frozenset([*RAWS, *CRAFTED, *STATIONS, *TOOLS])
GATHER_VERBS = ("gather", "mine", "collect", "chop", "get", "harvest")
CRAFT_VERBS = ("craft", "make", "build")
DRAWS = 5_000  # recipe worlds drawn per problem at most (see generate)
ORDINALS = {"1": 0, "2": 1, "one": 0, "two": 1, "first": 0, "second": 1}


@register
class Crafting(MultiTurnTask):
    id = "games/crafting"
    family = "games"
    description = "Reach a target item through a generated recipe tree by gathering and crafting, one command a turn."
    tags = ("games", "multi-turn", "planning", "crafting", "inventory")
    one_move_per_turn = True  # a reply holding several commands is refused (checked by the kit)
    version = 3

    @dataclass(frozen=True)
    class Config:
        depth: int  # tiers of crafted items below the target
        width: int  # crafted items per tier
        raws: int  # raw materials in the world
        doubles: int  # items with a second recipe
        spare: int  # turns beyond the reference plan
        plan: tuple[int, int]  # the reference plan's length lies in this range

    presets = (Config(2, 2, 4, 0, 3, (8, 16)), Config(2, 3, 5, 1, 2, (14, 24)), Config(3, 3, 6, 2, 2, (20, 32)),
               Config(3, 4, 7, 3, 1, (26, 40)), Config(4, 4, 8, 4, 1, (32, 50)))
    bounded = "growing its sizes past the presets exhausts a fixed pool the generator draws from (names, letters or tables)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        cheapest_right = rng.random() < 0.5  # where one item has two recipes (see _choice_matters)

        def draw() -> dict[str, Any] | None:
            world = _world(rng, config)
            choice, length = _best_choice(world)
            if not config.plan[0] <= length <= config.plan[1]:
                return None
            budget = length + config.spare
            if config.doubles and not (_renumbered(world, budget, rng) and _choice_matters(world, budget, cheapest_right)):
                return None
            world["choice"], world["plan"] = _best_choice(world)  # the recipes may be numbered anew
            return world

        # Level 2 (two two-recipe items, two spare turns) keeps about one world in 80 (the most seen: 787 draws in
        # 1,000 seeds, 0.2 ms a draw), so the bound on draws is above retry's default.
        data = retry(draw, attempts=DRAWS,
                     what=f"a recipe tree with a plan of {config.plan[0]} to {config.plan[1]} commands")
        budget = data["plan"] + config.spare
        data["budget"] = budget
        prompt = (
            "You are crafting in a sandbox world. Your inventory is empty. Your goal is to craft one "
            f"{data['target']}.\n\nRaw materials (gather one unit per turn):\n{_raw_lines(data)}\n\n"
            f"Recipes (each craft consumes the inputs and makes the batch shown; a station or tool named after "
            f"'at' must be in your inventory and is not consumed):\n{_recipe_lines(data)}\n\n"
            "Commands: gather ITEM, craft ITEM (for an item with two recipes: craft ITEM using recipe 2), "
            f"inventory. You have {budget} turns; a command that cannot be done also takes a turn, and only "
            f"crafting the {data['target']} scores.\nEach turn, write one command, for example: gather wood"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["budget"]

    def difficulty(self, problem: Problem) -> float:
        return float(problem.data["plan"])

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"inventory": {}}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        command = read_command(move, _parse)
        if command is None:
            return Outcome.invalid(state, "write one command: gather ITEM, craft ITEM, craft ITEM using recipe N "
                                          "or inventory (items as the recipes name them)")
        inventory = state["inventory"]
        if command[0] == "inventory":
            return Outcome(state, Verdict.wrong("no progress"), f"You carry: {_listing(inventory)}.")
        verb, item = command[0], command[1]
        if verb == "gather":
            if item not in data["raws"]:
                return _fail(state, f"{item} is not a raw material here; it cannot be gathered")
            tool = data["raws"][item]
            if tool and not inventory.get(tool):
                return _fail(state, f"gathering {item} needs {_article(tool)} {tool} in your inventory")
            after = {**inventory, item: inventory.get(item, 0) + 1}
            return Outcome.goes_on({"inventory": after}, f"You gather 1 {item}. You carry: {_listing(after)}.")
        recipes = data["recipes"].get(item)
        if recipes is None:
            return _fail(state, f"there is no recipe for {item}")
        index = command[2]
        if index is None and len(recipes) > 1:
            return _fail(state, f"{item} has two recipes: say which (craft {item} using recipe 1 or 2)")
        index = index or 0
        if index >= len(recipes):
            return _fail(state, f"{item} has only one recipe")
        recipe = recipes[index]
        missing = [f"{count - inventory.get(name, 0)} {name}" for name, count in sorted(recipe["inputs"].items())
                   if inventory.get(name, 0) < count]
        if recipe["at"] and not inventory.get(recipe["at"]):
            missing.append(f"{_article(recipe['at'])} {recipe['at']} (station)")
        if missing:
            return _fail(state, f"crafting {item} needs {', '.join(missing)} more")
        after = dict(inventory)
        for name, count in recipe["inputs"].items():
            after[name] -= count
            if not after[name]:
                del after[name]
        after[item] = after.get(item, 0) + recipe["makes"]
        said = f"You craft {recipe['makes']} {item}."
        if item == data["target"]:
            return Outcome({"inventory": after}, Verdict.right(), f"{said} Goal reached!", True)
        return Outcome.goes_on({"inventory": after}, f"{said} You carry: {_listing(after)}.")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return _next_command(problem.data, problem.data["choice"], state["inventory"])

    def heuristics(self) -> dict[str, Policy]:
        """Perfect planners whose only shortcut is the recipe choice: a fixed rule per two-recipe item."""
        def planner(rule: Any) -> Policy:
            def policy(problem: Problem, state: Any, history: Any, rng: random.Random) -> str:
                return _next_command(problem.data, rule(problem.data), state["inventory"])
            return policy

        return {name: planner(rule) for name, rule in CHOICE_RULES.items()}


def _fail(state: dict[str, Any], why: str) -> Outcome:
    return Outcome(state, Verdict.wrong("no progress"), f"Cannot do that: {why}.")


def _listing(inventory: dict[str, int]) -> str:
    return ", ".join(f"{count} {name}" for name, count in sorted(inventory.items())) or "nothing"


def _parse(words: list[str]) -> tuple[Any, ...] | None:
    if words in (["inventory"], ["i"], ["inv"], ["check", "inventory"]):
        return ("inventory",)
    if len(words) < 2:
        return None
    if words[0] in GATHER_VERBS:
        name = " ".join(words[1:])
        return ("gather", name) if name in ITEM_NAMES else None
    if words[0] not in CRAFT_VERBS:
        return None
    rest, index = words[1:], None
    for lead in (("using", "recipe"), ("with", "recipe"), ("by", "recipe"), ("recipe",)):
        cut = len(lead) + 1
        if len(rest) > cut and tuple(rest[-cut:-1]) == lead and rest[-1] in ORDINALS:
            rest, index = rest[:-cut], ORDINALS[rest[-1]]
            break
    name = " ".join(rest)
    return ("craft", name, index) if name in ITEM_NAMES else None


def _world(rng: random.Random, config: Crafting.Config) -> dict[str, Any]:
    """Raw materials (name -> tool or ""), recipes (name -> list of recipes) and the target, tiers bottom-up."""
    raws = rng.sample(RAWS, config.raws)
    for _ in range(len(raws)):  # stations and tools need two hand-gathered raws: one swapped in a pass
        if sum(not TOOL_RAWS.get(r) for r in raws) >= 2:
            break
        raws[next(i for i, r in enumerate(raws) if TOOL_RAWS.get(r))] = rng.choice(
            [r for r in RAWS if r not in TOOL_RAWS and r not in raws])
    names = rng.sample(CRAFTED, config.depth * config.width + 1)
    tiers: list[list[str]] = [raws]
    for level in range(config.depth):
        tiers.append(names[level * config.width:(level + 1) * config.width])
    target = names[-1]
    tiers.append([target])
    stations = rng.sample(STATIONS, min(len(STATIONS), max(1, config.depth - 1)))
    recipes: dict[str, list[dict[str, Any]]] = {}
    # A station or tool is made of raw materials gathered by hand, so it never depends on what needs it.
    plain = [r for r in raws if not TOOL_RAWS.get(r)]
    for gear in [*stations, *TOOLS]:
        inputs = {name: rng.randint(1, 3) for name in rng.sample(plain, min(2, len(plain)))}
        recipes[gear] = [{"inputs": inputs, "makes": 1, "at": ""}]
    for level in range(1, len(tiers)):
        below = [name for tier in tiers[:level] for name in tier]
        for item in tiers[level]:
            count = rng.randint(1, min(3, len(below)))
            picks = [rng.choice(tiers[level - 1])]
            picks += [n for n in rng.sample(below, count) if n not in picks][:count - 1]
            inputs = {name: rng.randint(1, 3) for name in picks}
            makes = 1 if item == target else rng.choice((1, 1, 2, 3, 4))
            at = rng.choice(stations) if level >= 2 and rng.random() < 0.5 else ""
            recipes[item] = [{"inputs": inputs, "makes": makes, "at": at}]
    doubled = rng.sample([n for tier in tiers[1:-1] for n in tier], min(config.doubles, config.depth * config.width))
    for item in doubled:
        level = next(i for i, tier in enumerate(tiers) if item in tier)
        below = [name for tier in tiers[:level] for name in tier]
        picks = rng.sample(below, min(2, len(below)))
        recipes[item].append({"inputs": {name: rng.randint(1, 3) for name in picks},
                              "makes": rng.choice((1, 2, 3)), "at": rng.choice(["", *stations])})
        rng.shuffle(recipes[item])  # the drawn alternative is not always recipe 2 (see also _renumbered)
    used_tools = {TOOL_RAWS[r] for r in raws if TOOL_RAWS.get(r)}
    for tool in TOOLS:
        if tool not in used_tools:
            del recipes[tool]
    order = [*stations, *[t for t in TOOLS if t in recipes], *[n for tier in tiers[1:] for n in tier]]
    return {"raws": {r: TOOL_RAWS.get(r, "") for r in raws}, "recipes": recipes, "target": target, "order": order}


def _needs(data: dict[str, Any], choice: dict[str, int], inventory: dict[str, int]) -> tuple[dict[str, int],
                                                                                                dict[str, int]]:
    """(batches to craft per item, units to gather per raw) to make the target from ``inventory``.

    Items are visited from the target down (``order`` reversed: the tiers from the top, then the tools,
    then the stations, each after every item that uses it), each item's demand netted against the
    inventory; a station or tool is needed once, not per use, and a gathering tool only while some raw
    it gathers is still wanted.
    """
    demand: dict[str, int] = {data["target"]: 1}
    batches: dict[str, int] = {}
    for item in reversed(data["order"]):
        if item in TOOLS and any(demand.get(raw, 0) > inventory.get(raw, 0)
                                 for raw, tool in data["raws"].items() if tool == item):
            demand[item] = 1
        net = max(0, demand.get(item, 0) - inventory.get(item, 0))
        if not net:
            continue
        recipe = data["recipes"][item][choice.get(item, 0)]
        batches[item] = math.ceil(net / recipe["makes"])
        for name, count in recipe["inputs"].items():
            demand[name] = demand.get(name, 0) + count * batches[item]
        if recipe["at"]:
            demand[recipe["at"]] = max(demand.get(recipe["at"], 0), 1)
    gathers = {raw: demand[raw] - inventory.get(raw, 0) for raw in data["raws"]
               if demand.get(raw, 0) > inventory.get(raw, 0)}
    return batches, gathers


def _best_choice(data: dict[str, Any]) -> tuple[dict[str, int], int]:
    """The recipe per two-recipe item that makes the shortest plan from nothing, and that plan's length."""
    doubled = sorted(item for item, options in data["recipes"].items() if len(options) > 1)
    best: tuple[int, dict[str, int]] | None = None
    for picks in itertools.product((0, 1), repeat=len(doubled)):
        choice = dict(zip(doubled, picks))
        batches, gathers = _needs(data, choice, {})
        length = sum(batches.values()) + sum(gathers.values())
        if best is None or length < best[0]:
            best = (length, choice)
    assert best is not None
    return best[1], best[0]


def _fixed_choice(which: int) -> Any:
    return lambda data: {item: which for item, options in data["recipes"].items() if len(options) > 1}


def _cheapest_choice(data: dict[str, Any]) -> dict[str, int]:
    """Per two-recipe item, the recipe with the fewest input units per item made (recipe 1 on a tie)."""
    def units(recipe: dict[str, Any]) -> float:
        return sum(recipe["inputs"].values()) / recipe["makes"]

    return {item: min((0, 1), key=lambda k: (units(options[k]), k))
            for item, options in data["recipes"].items() if len(options) > 1}


# Recipe choices a planner can make without weighing what else the plan needs (declared as heuristics).
CHOICE_RULES = {"always recipe 1": _fixed_choice(0), "always recipe 2": _fixed_choice(1),
                "the recipe with the fewest input units per item made": _cheapest_choice}


def _plan_length(data: dict[str, Any], choice: dict[str, int]) -> int:
    batches, gathers = _needs(data, choice, {})
    return sum(batches.values()) + sum(gathers.values())


def _renumbered(data: dict[str, Any], budget: int, rng: random.Random) -> bool:
    """Number the recipes of the two-recipe items (two or more of them) so that neither recipe 1 everywhere nor
    recipe 2 everywhere fits ``budget``: a drawn order of the items' swaps, the first that does (True), or False when
    none does. Which recipe is listed first is the prompt's choice, so this builds what redraws would find rarely."""
    doubled = sorted(item for item, options in data["recipes"].items() if len(options) > 1)
    if len(doubled) < 2:
        return True
    swaps = list(itertools.product((0, 1), repeat=len(doubled)))
    rng.shuffle(swaps)
    for swap in swaps:  # after swapping these items' recipes, "recipe 1 everywhere" is the old choice ``swap``
        if (_plan_length(data, dict(zip(doubled, swap))) > budget
                and _plan_length(data, {item: 1 - pick for item, pick in zip(doubled, swap)}) > budget):
            for item, pick in zip(doubled, swap):
                if pick:
                    data["recipes"][item].reverse()
            return True
    return False


def _choice_matters(data: dict[str, Any], budget: int, cheapest_right: bool) -> bool:
    """Whether the world keeps its recipe choice: some choice overruns ``budget``, and so does the choice of every
    rule of :data:`CHOICE_RULES` (with one two-recipe item: the cheapest rule's fits if and only if
    ``cheapest_right``, drawn once a problem at even odds)."""
    doubled = sorted(item for item, options in data["recipes"].items() if len(options) > 1)
    if all(_plan_length(data, dict(zip(doubled, picks))) <= budget
           for picks in itertools.product((0, 1), repeat=len(doubled))):
        return False  # any choice does: nothing to weigh
    if len(doubled) == 1:
        # One binary choice: filtering out the worlds a rule wins would make its opposite win them all, so the
        # cheapest recipe is the right one at even odds (and recipe 1 or 2 is, by the drawn order).
        return (_plan_length(data, _cheapest_choice(data)) <= budget) == cheapest_right
    return all(_plan_length(data, rule(data)) > budget for rule in CHOICE_RULES.values())


def _next_command(data: dict[str, Any], choice: dict[str, int], inventory: dict[str, int]) -> str:
    batches, gathers = _needs(data, choice, inventory)
    for raw in data["raws"]:  # gatherable now: no tool needed, or the tool is held
        tool = data["raws"][raw]
        if gathers.get(raw) and (not tool or inventory.get(tool)):
            return f"gather {raw}"
    for item in data["order"]:  # bottom-up: the first batch whose inputs are all held
        if not batches.get(item):
            continue
        index = choice.get(item, 0)
        recipe = data["recipes"][item][index]
        if all(inventory.get(n, 0) >= c for n, c in recipe["inputs"].items()) and (
                not recipe["at"] or inventory.get(recipe["at"])):
            return f"craft {item} using recipe {index + 1}" if len(data["recipes"][item]) > 1 else f"craft {item}"
    return "inventory"  # unreachable on the reference line: some batch or gather is always possible


def _raw_lines(data: dict[str, Any]) -> str:
    return "\n".join(f"- {raw}" + (f" (needs {_article(tool)} {tool})" if tool else "") for raw, tool in data["raws"].items())


def _recipe_lines(data: dict[str, Any]) -> str:
    lines = []
    for item in data["order"]:
        options = data["recipes"][item]
        for number, recipe in enumerate(options, start=1):
            label = f"{item} recipe {number}" if len(options) > 1 else item
            inputs = " + ".join(f"{count} {name}" for name, count in sorted(recipe["inputs"].items()))
            at = f", at {_article(recipe['at'])} {recipe['at']}" if recipe["at"] else ""
            lines.append(f"- {label} (makes {recipe['makes']}): {inputs}{at}")
    return "\n".join(lines)


def _article(name: str) -> str:
    return "an" if name[0] in "aeiou" else "a"
