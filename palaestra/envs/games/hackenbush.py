"""Red-Blue Hackenbush on a small graph rooted at the ground: win against its exact solver.

A drawing of edges hangs from the ground; each edge is blue or red and joins two points (the
ground, or numbered points). The model cuts blue edges, the opponent red ones, one edge a turn;
after a cut every edge no longer connected to the ground (through the remaining edges) falls
and is gone. A player who has no edge of their colour left on their turn loses (the normal play
rule: there are no draws).

Every position dealt is a win for the model, who moves first, under perfect play -- proved by an
exact memoised solver over the set of remaining edges
(:class:`palaestra.envs.games._boards.NormalPlaySolver`) -- with at least three first moves of
which at most half keep the win, and none of the first moves the two counting rules of
:meth:`Hackenbush.heuristics` could pick (most own edges over the opponent's left, fewest edges
left to the opponent). The opponent plays the same solver: it wins at once if the model's cut let
it, and otherwise plays the *stubborn* reply, the one leaving the model the fewest winning
answers. A drawing is kept only where a uniformly random player wins at most 5% of games against
that opponent (exactly, by :func:`~palaestra.envs.games._boards.random_win_chance`). Finding
such drawings costs up to a second each for the larger ones, so they come from a catalogue
searched offline by :func:`write_catalogue` (``hackenbush_positions.txt``); generation renames
the points and relabels the edges at random, while the solver and the opponent's tie-breaks work
on the catalogue's edge order, so the exact random-play bound holds for every relabelling. The
oracle cuts a winning edge each turn and wins every game.

Each turn the model names one blue edge by its label (``C``, ``cut C``, ``edge C``). An
unreadable move, a label not on the drawing, an edge already gone or a red edge costs a turn and
leaves the drawing. Reward 1 for a win, 0 for a loss or for running out of turns (the blue edges
plus two).

Levels grow the drawing (8-9 edges on 6 points to 12-13 edges on 8 points in the presets).
Bounded: the catalogue search costs seconds a drawing beyond about 14 edges. The difficulty
measure is the number of edges plus a tenth of the model's first moves.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, register
from palaestra.core.multiturn import History, Policy
from palaestra.envs.games._boards import NormalPlaySolver, blocking_rule, margin_rule, random_win_chance
from palaestra.envs.games.common import read_label, write_catalogue_file

MODEL, OPPONENT = 0, 1  # the solver's player numbers and the edge colours: the model cuts blue edges
COLOURS = ("blue", "red")
GROUND = 0
SPARE_TURNS = 2
CATALOGUE = "hackenbush_positions.txt"
PER_LEVEL = 40  # catalogue drawings per level
MAX_RANDOM_WIN = 0.05  # the most a uniformly random player may win from a catalogue drawing (exact)
EXAMPLE_MOVE = "cut F"

Graph = tuple[tuple[int, int, int], ...]  # (point, point, colour) per edge; point 0 is the ground


@register
class Hackenbush(MultiTurnTask):
    id = "games/hackenbush"
    family = "games"
    description = "Win Red-Blue Hackenbush (cut blue edges; cut-off edges fall) from a won drawing against its solver."
    tags = ("games", "multi-turn", "two-player", "adversarial", "combinatorial-game", "graphs")
    version = 1
    one_move_per_turn = True
    bounded = "finding fair drawings by exact solving costs seconds each beyond about 14 edges"

    @dataclass(frozen=True)
    class Config:
        points: int  # points besides the ground
        edges: tuple[int, int]  # (fewest, most) edges

    presets = (
        Config(6, (8, 9)),
        Config(6, (9, 10)),
        Config(7, (10, 11)),
        Config(7, (11, 12)),
        Config(8, (12, 13)),
    )

    def generate(self, rng: random.Random, config: Config) -> Problem:
        graph = rng.choice(catalogue()[(config.points, *config.edges)])
        order = list(range(len(graph)))
        rng.shuffle(order)
        labels = [""] * len(graph)
        for position, edge in enumerate(order):
            labels[edge] = chr(ord("A") + position)
        names = list(range(1, config.points + 1))
        rng.shuffle(names)
        point_names = ["ground", *map(str, names)]
        blue = sum(colour == MODEL for _, _, colour in graph)
        turns = blue + SPARE_TURNS
        data = {"graph": [list(edge) for edge in graph], "labels": labels, "points": point_names, "turns": turns,
                "first_moves": blue}
        full = (1 << len(graph)) - 1
        prompt = (
            "Let's play Red-Blue Hackenbush. A drawing of edges hangs from the ground; each edge joins two points "
            "(the ground or a numbered point) and is blue or red. You cut blue edges, the opponent cuts red edges, "
            "one edge a turn, taking turns. After each cut, every edge that is no longer connected to the ground "
            "through the remaining edges falls and is gone. A player with no edge of their colour left on their "
            "turn loses; there are no draws.\n\n"
            f"You move first. The edges:\n{_edge_list(data, full)}\n\n"
            f"You have {turns} turns; only a win scores. Each turn, name one blue edge to cut by its label, for "
            f"example: {EXAMPLE_MOVE}"
        )
        return Problem(prompt=prompt, answer=None, data=data)

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def difficulty(self, problem: Problem) -> float:
        """Edges at the start, plus a tenth of the model's first moves (the choices to sift)."""
        return float(len(problem.data["graph"])) + problem.data["first_moves"] / 10

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"edges": (1 << len(problem.data["graph"])) - 1}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        data = problem.data
        labels = data["labels"]
        label = read_label(move, labels, nouns=("edge",), verbs=("cut",))
        if label is None:
            return Outcome.invalid(state, f"name one blue edge by its label, such as {EXAMPLE_MOVE}")
        edge = labels.index(label)
        edges = state["edges"]
        if not edges >> edge & 1:
            return Outcome.invalid(state, f"edge {label} is already gone")
        if data["graph"][edge][2] != MODEL:
            return Outcome.invalid(state, f"edge {label} is red: you cut only blue edges")
        solver = _solver(_graph(data))
        after = _prune(_graph(data), edges & ~(1 << edge))
        said = f"You cut {label}." + _fallen(labels, edges & ~(1 << edge) & ~after)
        if not solver.moves(after, OPPONENT):
            return Outcome({"edges": after}, Verdict.right(), f"{said} The opponent has no red edge left: you win!",
                           True)
        reply = solver.stubborn_move(after, OPPONENT)
        left = _prune(_graph(data), after & ~(1 << reply))
        said += f" The opponent cuts {labels[reply]}." + _fallen(labels, after & ~(1 << reply) & ~left)
        if not solver.moves(left, MODEL):
            return Outcome({"edges": left}, Verdict.wrong("lost"), f"{said} You have no blue edge left: you lose.",
                           True)
        return Outcome.goes_on({"edges": left}, f"{said} The edges left:\n{_edge_list(data, left)}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        solver = _solver(_graph(problem.data))
        winning = solver.winning_moves(state["edges"], MODEL)
        edge = winning[0] if winning else solver.moves(state["edges"], MODEL)[0][0]
        return f"cut {problem.data['labels'][edge]}"

    def legal_moves(self, problem: Problem, state: dict[str, Any]) -> list[str]:
        labels = problem.data["labels"]
        return [labels[edge] for edge, _ in _solver(_graph(problem.data)).moves(state["edges"], MODEL)]

    def heuristics(self) -> dict[str, Policy]:
        def rule(pick: Callable[..., int]) -> Policy:
            def policy(problem: Problem, state: dict[str, Any], history: History, rng: random.Random) -> str:
                solver = _solver(_graph(problem.data))
                return problem.data["labels"][pick(solver, state["edges"], MODEL, rng.random)]

            return policy

        return {"most own edges over the opponent's": rule(margin_rule),
                "fewest edges left to the opponent": rule(blocking_rule)}


def _graph(data: dict[str, Any]) -> Graph:
    return tuple((u, w, colour) for u, w, colour in data["graph"])


def _edge_list(data: dict[str, Any], edges: int) -> str:
    """The remaining edges in label order: ``A: ground - 3, blue``."""
    points, labels = data["points"], data["labels"]
    lines = sorted(f"{labels[k]}: {points[u]} - {points[w]}, {COLOURS[colour]}"
                   for k, (u, w, colour) in enumerate(data["graph"]) if edges >> k & 1)
    return "\n".join(lines)


def _fallen(labels: list[str], fallen: int) -> str:
    names = sorted(labels[k] for k in range(len(labels)) if fallen >> k & 1)
    if not names:
        return ""
    return f" {'Edge' if len(names) == 1 else 'Edges'} {', '.join(names)} {'falls' if len(names) == 1 else 'fall'}."


@functools.lru_cache(maxsize=256)
def _adjacency(graph: Graph) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per point, its ``(edge, other point)`` pairs."""
    points = 1 + max(max(u, w) for u, w, _ in graph)
    adjacent: list[list[tuple[int, int]]] = [[] for _ in range(points)]
    for edge, (u, w, _) in enumerate(graph):
        adjacent[u].append((edge, w))
        adjacent[w].append((edge, u))
    return tuple(map(tuple, adjacent))


def _prune(graph: Graph, edges: int) -> int:
    """The edges of the mask ``edges`` still connected to the ground through edges of the mask."""
    adjacent = _adjacency(graph)
    reached, stack, kept = 1 << GROUND, [GROUND], 0
    while stack:
        point = stack.pop()
        for edge, other in adjacent[point]:
            if edges >> edge & 1:
                kept |= 1 << edge
                if not reached >> other & 1:
                    reached |= 1 << other
                    stack.append(other)
    return kept


@functools.lru_cache(maxsize=256)
def _solver(graph: Graph) -> NormalPlaySolver:
    """The memoised solver for one drawing: positions are masks of remaining edges, moves edge numbers."""
    colours = tuple(colour for _, _, colour in graph)

    def moves(edges: int, player: int) -> list[tuple[int, int]]:
        return [(edge, _prune(graph, edges & ~(1 << edge))) for edge in range(len(graph))
                if edges >> edge & 1 and colours[edge] == player]

    return NormalPlaySolver(moves)


def _draw(rng: random.Random, points: int, edge_count: int) -> Graph:
    """A connected drawing: point i hangs from an earlier point (or the ground), then extra edges close cycles."""
    edges = [(rng.randrange(point), point) for point in range(1, points + 1)]
    spare = [(u, w) for w in range(1, points + 1) for u in range(w) if (u, w) not in edges]
    edges += rng.sample(spare, edge_count - points)
    return tuple((u, w, rng.randrange(2)) for u, w in edges)


def worth_dealing(graph: Graph) -> bool:
    """Whether a drawing makes a fair puzzle: see the module docstring (the solver, the rules, random play)."""
    solver = _solver(graph)
    full = (1 << len(graph)) - 1
    options = solver.moves(full, MODEL)
    if len(options) < 3 or not solver.moves(full, OPPONENT) or not solver.wins(full, MODEL):
        return False
    if 2 * len(solver.winning_moves(full, MODEL)) > len(options):
        return False
    own = {move: len(solver.moves(child, MODEL)) - len(solver.moves(child, OPPONENT)) for move, child in options}
    theirs = {move: len(solver.moves(child, OPPONENT)) for move, child in options}
    children = dict(options)
    for ties in ({move for move in own if own[move] == max(own.values())},
                 {move for move in theirs if theirs[move] == min(theirs.values())}):
        if 3 * sum(not solver.wins(children[move], OPPONENT) for move in ties) > len(ties):
            return False
    return random_win_chance(solver, full, MODEL) <= MAX_RANDOM_WIN


def search(points: int, edge_range: tuple[int, int], count: int, seed: int) -> list[Graph]:
    """``count`` distinct drawings :func:`worth_dealing` accepts. Offline: seconds to minutes."""
    rng = random.Random(seed)
    found: dict[Graph, None] = {}
    while len(found) < count:
        graph = _draw(rng, points, rng.randint(*edge_range))
        if graph not in found and worth_dealing(graph):
            found[graph] = None
        _solver.cache_clear()
    return list(found)


@functools.cache
def catalogue() -> dict[tuple[int, int, int], list[Graph]]:
    """The shipped drawings, ``(points, fewest, most edges) -> [graph, ...]``; an edge is written ``u-w`` + b/r."""
    table: dict[tuple[int, int, int], list[Graph]] = {}
    for line in resources.files("palaestra.envs.games").joinpath(CATALOGUE).read_text().splitlines():
        if line and not line.startswith("#"):
            points, low, high, *graphs = line.split()
            table[(int(points), int(low), int(high))] = [_parse(graph) for graph in graphs]
    return table


def _parse(text: str) -> Graph:
    edges = []
    for edge in text.split(","):
        u, w = edge[:-1].split("-")
        edges.append((int(u), int(w), "br".index(edge[-1])))
    return tuple(edges)


def _format(graph: Graph) -> str:
    return ",".join(f"{u}-{w}{'br'[colour]}" for u, w, colour in graph)


def catalogue_line(level: int, per_level: int = PER_LEVEL) -> str:
    """The catalogue's line for preset ``level``: the points, the edge range, then the drawings."""
    config = Hackenbush.presets[level]
    graphs = search(config.points, config.edges, per_level, seed=level)
    return f"{config.points} {config.edges[0]} {config.edges[1]} " + " ".join(map(_format, graphs))


def write_catalogue(path: str | None = None) -> None:
    """Rebuild the shipped catalogue for the presets (a few minutes of CPU)."""
    write_catalogue_file(__file__, CATALOGUE, path,
        "Red-Blue Hackenbush drawings the first (blue) player wins; built by "
        "palaestra.envs.games.hackenbush.write_catalogue",
        (catalogue_line(level) for level in range(len(Hackenbush.presets))))
