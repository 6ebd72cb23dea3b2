"""Diplomacy-lite: as Blue, own enough supply centres on a small map against scripted powers.

The map is a grid of 9 to 20 provinces joined to their row and column neighbours and across some
squares' diagonals (so it is planar), with generated three-letter names; some provinces are supply
centres. Blue (the model) and one or two scripted powers start with 2-3 armies each, on their home
centres; a few centres are neutral. Each turn the model gives one order per army (hold, move to an
adjacent province, support an army's hold or move); the scripted powers order by rules printed in
the prompt (:data:`palaestra.generators.diplomacy.POLICIES`: ``defend`` holds and supports
threatened neighbours, ``advance`` steps toward the nearest centre it does not own), and all orders
are resolved at once by the simplified adjudication of :mod:`palaestra.generators.diplomacy`
(strength 1 + valid supports; a move must be strictly stronger than every rival and the defence;
supports cut by attacks from elsewhere; the dislodged are destroyed; no builds), written out in the
prompt. Everything is visible: the opponents' orders are a function of the position, so the model
can predict them.

A reply is one order per army, one per line (``A Bor -> Kel``, ``A Mun S A Bor -> Kel``, ``A Lop
H``; ``hold``, ``-``/``to``, ``support``, any capitalisation, any order of lines, ``;`` or ``,``
between orders). A missing, duplicate or illegal order, an order for an army Blue does not have, or
more orders than armies (a plan for several turns: one move per turn) is refused with the reason
and costs a reply, the position unchanged. Reward 1 when Blue owns the target number of centres
at the end of a turn within the turn limit (two spare replies for refused ones), else 0.

Positions come from a catalogue (``diplomacy_positions.txt``, 60 a level) built offline by
:func:`write_catalogue`, which keeps a drawn position only when (a) Blue's armies following the
``advance`` rule themselves, (b) the greedy one-turn lookahead (the joint orders owning most centres
after this turn, armies nearest the rest) and (c) forty uniformly random legal players all fail, and
(d) a depth-limited search over Blue's joint orders (:class:`~palaestra.generators.diplomacy.Search`:
holds, moves and supports of Blue's own armies, the scripted replies computed by their rules,
positions deduplicated, a budget of 150 expanded positions) wins within the turn limit; that search
costs a tenth to a third of a second a kept position, too slow to run per problem. Provinces are
numbered in name order there, and generation hands out fresh names in that same order, so every tie
the rules break by name breaks the same way and each position's tests hold under every renaming.
The oracle plays the catalogued plan and searches again (a smaller budget) from any position off it.
Levels grow the map (9 to 20 provinces), the armies (2 to 3 each), the scripted powers (one
``defend`` or ``advance`` power, then both), the centres to gain (1 to 4) and the turns (3 to 6).
Bounded: the search's joint orders grow exponentially with Blue's armies and turns. The difficulty
measure is the turns and supports the search's plan needs plus the armies on the board.
"""

from __future__ import annotations

import functools
import json
import random
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register, retry
from palaestra.core.multiturn import History, Policy
from palaestra.envs.games.common import write_catalogue_file
from palaestra.generators.diplomacy import (
    POLICIES,
    POWER_NAMES,
    Map,
    Order,
    Search,
    SearchExhausted,
    Units,
    adjudicate,
    illegal,
    order_text,
    owned,
    policy_orders,
    unit_orders,
    update_owners,
    useful_joint_orders,
)
from palaestra.verifiers.blocks import read_block

YOU = 0
SPARE_TURNS = 2
RANDOM_PLAYOUTS = 40  # random legal players that must all lose a catalogued position
SEARCH_BUDGET = 150  # positions the catalogue's search may expand
ORACLE_BUDGET = 40  # positions the oracle's search may expand off its plan
CATALOGUE = "diplomacy_positions.txt"
PER_LEVEL = 60  # catalogued positions per level
CONSONANTS, VOWELS = "bdfgklmnprstvz", "aeiou"
NAME_POOL = tuple(a.upper() + b + c for a in CONSONANTS for b in VOWELS for c in CONSONANTS)
EXAMPLE = "A Ost -> Ulm\nA Ark S A Ost -> Ulm\nA Eld H"  # placeholder names no map uses (they start with a vowel)

RULES = (
    "Rules (all orders of a turn are resolved at once):\n"
    "1. A support is cut when an army of another power is ordered to move into the supporter's province (even if "
    "that move fails), unless it comes from the province the supported move goes to. A support is void when the army it names does not do "
    "what it says (holds or supports, for a hold support; makes exactly that move, for a move support).\n"
    "2. A move's strength is 1 plus its supports that are neither cut nor void. An army that holds or supports "
    "defends its province with 1 plus such hold supports; an army whose move fails defends with 1.\n"
    "3. A move succeeds only if it is strictly stronger than every other move into the same province and than "
    "the province's defence: 0 if the province is empty or its army moves away; that army's defence if it stays; "
    "the strength of its move if the army there moves into the mover's own province (two armies cannot pass each "
    "other). Equal strengths: nobody enters (a standoff). A move never dislodges an army of its own power. "
    "Armies moving round a closed ring of three or more provinces all move when each is the strongest move "
    "into its province.\n"
    "4. An army that stays while another army enters its province is dislodged and destroyed (no retreats).\n"
    "5. After the moves, each army standing on a supply centre makes its power the centre's owner; an empty "
    "centre keeps its owner. There are no builds."
)


@register
class DiplomacyLite(MultiTurnTask):
    id = "games/diplomacy_lite"
    family = "games"
    description = "Diplomacy-lite: order your armies on a small map to own enough centres against scripted powers."
    tags = ("games", "multi-turn", "strategy", "simultaneous-moves", "planning", "social")
    one_move_per_turn = True
    multiline = True
    max_move_chars = 600
    bounded = ("positions come from a catalogue searched offline; the search over Blue's joint orders grows "
               "exponentially with its armies and turns")

    @dataclass(frozen=True)
    class Config:
        rows: int
        cols: int
        diagonals: float  # share of grid squares crossed by a diagonal border
        armies: int  # Blue's armies (and home centres)
        scripted: tuple[tuple[str, int], ...]  # (policy, armies) per scripted power
        neutral: int  # neutral supply centres
        gain: int  # centres Blue must add to its homes
        turns: int

    presets = (
        Config(3, 3, 0.5, 2, (("defend", 2),), 1, 1, 3),
        Config(3, 4, 0.4, 2, (("advance", 2),), 2, 2, 4),
        Config(4, 4, 0.3, 3, (("defend", 2), ("advance", 2)), 2, 2, 4),
        Config(4, 5, 0.3, 3, (("defend", 3), ("advance", 2)), 2, 3, 5),
        Config(4, 5, 0.3, 3, (("defend", 3), ("advance", 3)), 3, 4, 6),
    )

    def generate(self, rng: random.Random, config: Config) -> Problem:
        entry = rng.choice(_catalogue()[self.presets.index(config)])
        # Fresh names, handed out in the catalogue's order: every tie the rules break by name breaks the same way.
        names = sorted(rng.sample(NAME_POOL, len(entry["neighbours"])))
        data = {"names": names, **entry}
        return Problem(prompt=_prompt(data), answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"] + SPARE_TURNS

    def difficulty(self, problem: Problem) -> float:
        """The turns and the supports the search's plan needs, plus the armies on the board."""
        plan = problem.data["plan"]
        supports = sum(1 for joint in plan for _, order in joint if order[0] in ("SH", "SM"))
        return float(len(plan) + supports + len(problem.data["units"]))

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"units": problem.data["units"], "owners": problem.data["owners"], "turn": 0}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        board = _board(problem.data)
        units = _units(state)
        orders = read_orders(board, units, move)
        if isinstance(orders, str):
            return Outcome.invalid(state, orders, "orders")
        owners = tuple(state["owners"])
        scripted = _scripted(problem.data)
        every = {**_scripted_orders(board, scripted, units, owners), **orders}
        after, report = adjudicate(board, units, every)
        after_owners = update_owners(board, owners, after)
        turn = state["turn"] + 1
        new_state = {"units": sorted([p, power] for p, power in after.items()), "owners": list(after_owners),
                     "turn": turn}
        text = _turn_report(board, units, every, report, after, after_owners, turn, len(scripted) + 1)
        mine, target, turns = owned(after_owners, YOU), problem.data["target"], problem.data["turns"]
        if mine >= target:
            return Outcome(new_state, Verdict.right(), f"{text}\nYou own {mine} centres, the target of {target}: "
                                                       "you win!", True)
        if turn >= turns or not any(power == YOU for power in after.values()):
            return Outcome(new_state, Verdict.wrong("lost"), f"{text}\nYou own {mine} centres, short of the target "
                                                             f"of {target}, and the game is over: you lose.", True)
        return Outcome.goes_on(new_state, f"{text}\nYou own {mine} of the {target} centres you need. Turn {turn + 1} "
                                          f"of {turns}: give one order per army.")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        board, units, owners = _board(problem.data), _units(state), tuple(state["owners"])
        joint = _planned(problem, state)
        if joint is None:  # off the plan: search again from here
            search = Search(board, _scripted(problem.data), YOU, problem.data["target"], ORACLE_BUDGET)
            try:
                plan = search.solve(units, owners, problem.data["turns"] - state["turn"])
            except SearchExhausted:
                plan = None
            joint = plan[0] if plan else {p: ("H",) for p, power in units.items() if power == YOU}
        return "\n".join(order_text(board, units, p, joint[p]) for p in sorted(joint))

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        """Every joint order of Blue's armies (each army's hold, moves and supports, of any power's army)."""
        board, units = _board(problem.data), _units(state)
        joints = [""]
        for p in sorted(p for p, power in units.items() if power == YOU):
            texts = [order_text(board, units, p, order) for order in unit_orders(board, units, p)]
            joints = [f"{joint}\n{text}" if joint else text for joint in joints for text in texts]
        return joints

    def heuristics(self) -> dict[str, Policy]:
        def rule(make: Any) -> Policy:
            def policy(problem: Problem, state: dict[str, Any], history: History, rng: random.Random) -> str:
                board, units, owners = _board(problem.data), _units(state), tuple(state["owners"])
                choose = make(problem, board, rng)
                joint = choose(units, owners)
                return "\n".join(order_text(board, units, p, joint[p]) for p in sorted(joint))
            return policy

        return {
            "every army advances to its nearest centre not yours": rule(lambda p, board, rng: _advance_rule(board)),
            "every army holds": rule(lambda p, board, rng: lambda units, owners: {
                q: ("H",) for q, power in units.items() if power == YOU}),
            "greedy one-turn lookahead": rule(lambda p, board, rng: _greedy_rule(board, _scripted(p.data),
                                                                                 p.data["target"])),
            "uniformly random legal orders": rule(lambda p, board, rng: _random_rule(board, rng)),
        }


# --- reading orders --------------------------------------------------------------------------------------------

_SEPARATORS = re.compile(r"[;,\n]")
_BULLET = re.compile(r"^(?:[-*•]|\d{1,2}[.)])\s+")
_ARROW = re.compile(r"->|→|=>|-")
_HOLD = ("h", "hold", "holds")
_MOVE = ("->", "to", "moves to", "move to", "m")
_SUPPORT = ("s", "support", "supports")
_ARMY = ("a", "army")
_LABEL = re.compile(r"^[a-z ]{1,30}:\s*", re.IGNORECASE)  # "Orders:", "My move:" on its own line or before an order


def read_orders(board: Map, units: Units, text: str) -> dict[int, Order] | str:
    """Blue's orders read from ``text`` (one per army), or why they cannot be played."""
    lines = read_block(text)
    if lines is None:
        return "write one order per army, one per line, and nothing else"
    pieces = [piece.strip() for line in lines for piece in _SEPARATORS.split(line)]
    pieces = [piece for piece in pieces if piece]
    label = _LABEL.match(pieces[0]) if pieces else None
    if label:  # "Orders:" alone, or "My move: A Ost -> Ulm"
        rest = pieces[0][label.end():]
        pieces = ([rest] if rest else []) + pieces[1:]
    mine = sorted(p for p, power in units.items() if power == YOU)
    if not pieces:
        return "write one order per army, e.g. A Ost -> Ulm"
    if len(pieces) > len(mine):
        return (f"one move per turn: {len(pieces)} orders for your {len(mine)} armies; give exactly one order per "
                "army, for this turn only")
    lookup = {name.lower(): index for index, name in enumerate(board.names)}
    orders: dict[int, Order] = {}
    for piece in pieces:
        parsed = _read_order(piece, lookup)
        if isinstance(parsed, str):
            return parsed
        where, order = parsed
        name = board.names[where]
        if units.get(where) != YOU:
            return f"you have no army in {name}"
        if where in orders:
            return f"two orders for the army in {name}"
        why = illegal(board, units, where, order)
        if why is not None:
            return f"{order_text(board, units, where, order)} is illegal: {why}"
        orders[where] = order
    missing = [board.names[p] for p in mine if p not in orders]
    if missing:
        return "no order for your army in " + " and ".join(missing) + " (give one order per army)"
    return orders


def _read_order(piece: str, lookup: dict[str, int]) -> tuple[int, Order] | str:
    shown = piece if len(piece) <= 60 else piece[:57] + "..."
    text = _BULLET.sub("", piece.replace("**", "").replace("`", "")).rstrip(".").lower()  # bold, backticks
    tokens = _ARROW.sub(" -> ", text).split()
    unreadable = f"cannot read the order {shown!r} (write e.g. A Ost -> Ulm, A Ark S A Ost -> Ulm or A Eld H)"

    def army(at: int) -> tuple[int, int] | None:  # (province, next token)
        if at < len(tokens) and tokens[at] in _ARMY:
            at += 1
        if at < len(tokens) and tokens[at] in lookup:
            return lookup[tokens[at]], at + 1
        return None

    def keyword(at: int, words: tuple[str, ...]) -> int | None:  # the token after the (one- or two-word) keyword
        for word in words:
            parts = word.split()
            if tokens[at:at + len(parts)] == parts:
                return at + len(parts)
        return None

    def action(at: int) -> tuple[str, int | None] | None:  # ("H" | "M", destination) ending the order
        if at == len(tokens):
            return None
        after = keyword(at, _HOLD)
        if after == len(tokens):
            return "H", None
        after = keyword(at, _MOVE)
        if after is not None and after + 1 == len(tokens) and tokens[after] in lookup:
            return "M", lookup[tokens[after]]
        return None

    first = army(0)
    if first is None:
        name = next((t for t in tokens if t not in _ARMY), "")
        return f"unknown province {name!r} in {shown!r}" if name.isalpha() and len(name) == 3 else unreadable
    where, at = first
    own = action(at)
    if own is not None:
        return (where, ("H",)) if own[0] == "H" else (where, ("M", own[1]))
    after = keyword(at, _SUPPORT)
    if after is None:
        return unreadable
    other = army(after)
    if other is None:
        return unreadable
    supported, at = other
    if at == len(tokens):
        return where, ("SH", supported)
    theirs = action(at)
    if theirs is None:
        return unreadable
    return (where, ("SH", supported)) if theirs[0] == "H" else (where, ("SM", supported, theirs[1]))


# --- the position ---------------------------------------------------------------------------------------------

def _draw_position(rng: random.Random, config: DiplomacyLite.Config) -> tuple[Map, Units, tuple[int, ...]]:
    """A grid map with random diagonals and names; each power's armies on a cluster of home centres."""
    rows, cols = config.rows, config.cols
    count = rows * cols
    names = tuple(rng.sample(NAME_POOL, count))
    neighbours: list[set[int]] = [set() for _ in range(count)]

    def join(a: int, b: int) -> None:
        neighbours[a].add(b)
        neighbours[b].add(a)

    for r in range(rows):
        for c in range(cols):
            here = r * cols + c
            if c + 1 < cols:
                join(here, here + 1)
            if r + 1 < rows:
                join(here, here + cols)
            if r + 1 < rows and c + 1 < cols and rng.random() < config.diagonals:
                if rng.random() < 0.5:
                    join(here, here + cols + 1)
                else:
                    join(here + 1, here + cols)
    grid = Map(names, tuple(tuple(sorted(n)) for n in neighbours), ())
    free = set(range(count))
    units: Units = {}
    for power, armies in enumerate((config.armies, *(armies for _, armies in config.scripted))):
        seed = rng.choice(sorted(free))
        cluster = sorted(free, key=lambda p: (grid.distances[seed][p], rng.random()))[:armies]
        for p in cluster:
            units[p] = power
            free.discard(p)
    neutral = rng.sample(sorted(free), config.neutral)
    board = Map(names, grid.neighbours, tuple(sorted([*units, *neutral])))
    owners = tuple(units.get(c, -1) for c in board.centres)
    return board, units, owners


def _board(data: dict[str, Any]) -> Map:
    return _cached_board(tuple(data["names"]), tuple(tuple(n) for n in data["neighbours"]), tuple(data["centres"]))


@functools.lru_cache(maxsize=256)
def _cached_board(names: tuple[str, ...], neighbours: tuple[tuple[int, ...], ...], centres: tuple[int, ...]) -> Map:
    return Map(names, neighbours, centres)  # one per map per process: its distances are computed once


def _units(state: dict[str, Any]) -> Units:
    return {p: power for p, power in state["units"]}


def _scripted(data: dict[str, Any]) -> tuple[tuple[int, str], ...]:
    return tuple((power, policy) for power, policy in data["scripted"])


def _scripted_orders(board: Map, scripted: tuple[tuple[int, str], ...], units: Units,
                     owners: tuple[int, ...]) -> dict[int, Order]:
    orders: dict[int, Order] = {}
    for power, policy in scripted:
        orders.update(policy_orders(board, units, owners, power, policy))
    return orders


def _orders_json(joint: dict[int, Order]) -> list[list[Any]]:
    return [[p, list(order)] for p, order in sorted(joint.items())]


def _planned(problem: Problem, state: dict[str, Any]) -> dict[int, Order] | None:
    """The plan's orders for this turn, when ``state`` is where the plan has led (else None)."""
    data = problem.data
    plan = data["plan"]
    if state["turn"] >= len(plan):
        return None
    board, scripted = _board(data), _scripted(data)
    units, owners = _units(data), tuple(data["owners"])
    for joint in plan[:state["turn"]]:
        orders = {p: tuple(order) for p, order in joint}
        units, _ = adjudicate(board, units, {**_scripted_orders(board, scripted, units, owners), **orders})
        owners = update_owners(board, owners, units)
    if units != _units(state) or owners != tuple(state["owners"]):
        return None
    return {p: tuple(order) for p, order in plan[state["turn"]]}


# --- the catalogue ---------------------------------------------------------------------------------------------

def _search_position(rng: random.Random, config: DiplomacyLite.Config) -> dict[str, Any] | None:
    """A drawn position the search wins while the rules and random play lose, provinces numbered in name order;
    None when the draw fails a test."""
    drawn, units, owners = _draw_position(rng, config)
    rank = {p: r for r, p in enumerate(drawn.by_name)}
    neighbours: list[tuple[int, ...]] = [()] * len(rank)
    for p, near in enumerate(drawn.neighbours):
        neighbours[rank[p]] = tuple(sorted(rank[q] for q in near))
    owner_of = {rank[c]: owner for c, owner in zip(drawn.centres, owners, strict=True)}
    board = Map(tuple(sorted(drawn.names)), tuple(neighbours), tuple(sorted(owner_of)))
    owners = tuple(owner_of[c] for c in board.centres)
    units = {rank[p]: power for p, power in units.items()}
    scripted = tuple((power, policy) for power, (policy, _) in enumerate(config.scripted, start=1))
    target = config.armies + config.gain
    if _plays_out(board, scripted, units, owners, target, config.turns, _advance_rule(board)):
        return None
    for _ in range(RANDOM_PLAYOUTS):
        if _plays_out(board, scripted, units, owners, target, config.turns, _random_rule(board, rng)):
            return None
    if _plays_out(board, scripted, units, owners, target, config.turns, _greedy_rule(board, scripted, target)):
        return None
    search = Search(board, scripted, YOU, target, SEARCH_BUDGET)
    try:
        plan = search.solve(units, owners, config.turns)
    except SearchExhausted:
        return None
    if plan is None:
        return None
    return {"neighbours": [list(n) for n in board.neighbours], "centres": list(board.centres), "owners": list(owners),
            "units": sorted([p, power] for p, power in units.items()),
            "scripted": [[power, policy] for power, policy in scripted], "target": target, "turns": config.turns,
            "plan": [_orders_json(joint) for joint in plan], "nodes": search.nodes}


@functools.cache
def _catalogue() -> dict[int, list[dict[str, Any]]]:
    table: dict[int, list[dict[str, Any]]] = {}
    for line in resources.files("palaestra.envs.games").joinpath(CATALOGUE).read_text().splitlines():
        if line and not line.startswith("#"):
            level, entry = line.split(" ", 1)
            table.setdefault(int(level), []).append(json.loads(entry))
    return table


def catalogue_entries(level: int, count: int) -> list[dict[str, Any]]:
    """The first ``count`` catalogue positions of preset ``level`` (the catalogue's rng is seeded by the level)."""
    config = DiplomacyLite.presets[level]
    rng = random.Random(f"diplomacy-lite catalogue {level}")
    return [retry(functools.partial(_search_position, rng, config), attempts=2_000, what="a catalogue position")
            for _ in range(count)]


def write_catalogue(path: str | None = None, per_level: int = PER_LEVEL) -> None:
    """Rebuild the shipped catalogue for the presets (a few minutes of CPU)."""
    write_catalogue_file(__file__, CATALOGUE, path,
        "Diplomacy-lite positions the search wins and simple play loses, provinces numbered in name "
        "order; built by palaestra.envs.games.diplomacy_lite.write_catalogue",
        (f"{level} {json.dumps(entry, separators=(',', ':'))}"
         for level in range(len(DiplomacyLite.presets)) for entry in catalogue_entries(level, per_level)))


# --- the players the generation plays against, and the heuristics ------------------------------------------------

Rule = Any  # (units, owners) -> Blue's joint orders


def _plays_out(board: Map, scripted: tuple[tuple[int, str], ...], units: Units, owners: tuple[int, ...],
               target: int, turns: int, rule: Rule) -> bool:
    """Whether Blue, ordering by ``rule``, reaches ``target`` centres within ``turns``."""
    for _ in range(turns):
        orders = {**_scripted_orders(board, scripted, units, owners), **rule(units, owners)}
        units, _ = adjudicate(board, units, orders)
        owners = update_owners(board, owners, units)
        if owned(owners, YOU) >= target:
            return True
    return False


def _advance_rule(board: Map) -> Rule:
    return lambda units, owners: policy_orders(board, units, owners, YOU, "advance")


def _random_rule(board: Map, rng: random.Random) -> Rule:
    """Uniformly random legal orders (each army's order uniform among its legal ones, as over every joint order)."""
    return lambda units, owners: {p: rng.choice(unit_orders(board, units, p))
                                  for p in sorted(units) if units[p] == YOU}


def _greedy_rule(board: Map, scripted: tuple[tuple[int, str], ...], target: int) -> Rule:
    """The joint orders after which Blue owns most centres, its armies nearest the centres still to take."""
    search = Search(board, scripted, YOU, target)

    def choose(units: Units, owners: tuple[int, ...]) -> dict[int, Order]:
        replies = search.scripted_orders(units, owners)
        best: tuple[tuple[int, int], dict[int, Order]] | None = None
        for joint in useful_joint_orders(board, units, YOU):
            after, _ = adjudicate(board, units, {**replies, **joint})
            promise = search.promise(after, update_owners(board, owners, after))
            if best is None or promise > best[0]:
                best = (promise, joint)
        return best[1] if best else {}

    return choose


# --- text ---------------------------------------------------------------------------------------------------------

def _armies_text(board: Map, units: Units, powers: int) -> str:
    lines = []
    for power in range(powers):
        armies = sorted(board.names[p] for p, owner in units.items() if owner == power)
        lines.append(f"{POWER_NAMES[power]}: " + (", ".join(f"A {name}" for name in armies) or "no armies"))
    return "\n".join(lines)


def _centres_text(board: Map, owners: tuple[int, ...], powers: int) -> str:
    lines = []
    for power in [*range(powers), -1]:
        held = sorted(board.names[c] for c, owner in zip(board.centres, owners, strict=True) if owner == power)
        label = POWER_NAMES[power] if power >= 0 else "Nobody"
        lines.append(f"{label} ({len(held)}): " + (", ".join(held) or "none"))
    return "\n".join(lines)


def _prompt(data: dict[str, Any]) -> str:
    board = _board(data)
    units = _units(data)
    owners = tuple(data["owners"])
    powers = len(data["scripted"]) + 1
    centres = set(board.centres)
    map_lines = "\n".join(
        f"{board.names[p]}{'*' if p in centres else ''}: " + ", ".join(sorted(board.names[q] for q in board.neighbours[p]))
        for p in board.by_name)
    others = ", ".join(POWER_NAMES[power] for power, _ in data["scripted"])
    policies = "\n".join(f"- {POWER_NAMES[power]} ({policy}): {POLICIES[policy]}." for power, policy in data["scripted"])
    return (
        f"Let's play Diplomacy-lite. You are Blue; the other power{'s are' if powers > 2 else ' is'} {others}. "
        f"Every unit is an army (A). You win if, at the end of a turn, you own at least {data['target']} supply "
        f"centres; you have {data['turns']} turns.\n\n"
        f"The map (each province with its neighbours; * marks a supply centre):\n{map_lines}\n\n"
        f"Supply centres by owner:\n{_centres_text(board, owners, powers)}\n\n"
        f"Armies:\n{_armies_text(board, units, powers)}\n\n"
        f"The other powers order by fixed rules, every turn, from the position at the start of the turn:\n"
        f"{policies}\n\n{RULES}\n\n"
        "Each turn, give exactly one order for each of your armies, one per line, in any order:\n"
        "A <province> H  (hold)\n"
        "A <province> -> <adjacent province>  (move)\n"
        "A <province> S A <province>  (support that army's hold; it must be adjacent to you)\n"
        "A <province> S A <province> -> <province>  (support that army's move; its destination must be adjacent "
        "to you)\n"
        "Any power's army may be supported; 'hold', '-' or 'to' for '->', 'support' for 'S' and any capitalisation "
        "are accepted. A missing, duplicate or illegal order is refused and costs a reply. "
        f"For example (placeholder names):\n{EXAMPLE}"
    )


def _turn_report(board: Map, units: Units, orders: dict[int, Order], report: dict[int, str], after: Units,
                 owners: tuple[int, ...], turn: int, powers: int) -> str:
    lines = [f"Turn {turn} orders and results:"]
    for power in range(powers):
        mine = sorted((p for p, owner in units.items() if owner == power), key=lambda p: board.names[p])
        if mine:
            lines.append(f"{POWER_NAMES[power]}: " + "; ".join(
                f"{order_text(board, units, p, orders.get(p, ('H',)))} ({report[p]})" for p in mine))
    return "\n".join([*lines, "Centres by owner:", _centres_text(board, owners, powers), "Armies now:",
                      _armies_text(board, after, powers)])
