"""What the generation speed-ups of tier-2 envs rely on: each fast path equals the slower computation it replaced."""

from __future__ import annotations

import copy
import random

import pytest

from palaestra.envs.code import mutation_tests as mt
from palaestra.envs.code.common import compiled_function

# --- code/mutation_tests ----------------------------------------------------------------------

SAMPLE_FUNCTIONS = [(name, tuple(lo for lo, _ in ranges)) for name, (_, ranges) in mt.CATALOGUE.items()] + [
    (name, tuple(hi for _, hi in ranges)) for name, (_, ranges) in mt.CATALOGUE.items()]


@pytest.mark.parametrize("name, constants", SAMPLE_FUNCTIONS)
def test_mutation_analysis_equals_running_the_written_mutants(name, constants):
    """Mutants compiled from the changed tree, run on the uncopied pool, kill exactly what the written-out
    mutants (compiled from their text, each call on a copy of its arguments) kill."""
    pool, wanted, kills = mt.analysis.__wrapped__(name, constants)
    expected = []
    for index, text in enumerate(mt.mutations(mt.source_of(name, list(constants)))):
        mutant = compiled_function(text, name, mt.SAFE_BUILTINS)
        killed = frozenset(i for i, args in enumerate(pool) if mt.differs(mt.call(mutant, args), wanted[i]))
        if killed:
            expected.append((index, killed))
    assert kills == expected


@pytest.mark.parametrize("name, constants", SAMPLE_FUNCTIONS)
def test_no_catalogue_function_or_mutant_changes_its_arguments(name, constants):
    """Why the analysis may call the mutants on the pool itself, without copying each input."""
    pool, _, _ = mt.analysis.__wrapped__(name, constants)
    before = copy.deepcopy(pool)
    for mutant in mt.mutant_functions(name, mt.source_of(name, list(constants))):
        for args in pool:
            try:
                mutant(*args)
            except Exception:
                pass
    assert pool == before


def test_mutation_cover_is_the_greedy_cover_of_the_first_best_inputs():
    """The counted cover picks, each round, the same input as the maximum over every pool input."""
    rng = random.Random(5)
    for _ in range(200):
        size = rng.randint(1, 30)
        by_index = {m: frozenset(rng.sample(range(size), rng.randint(1, size))) for m in range(rng.randint(1, 12))}
        alive = set(by_index)
        while alive:
            slow = max(range(size), key=lambda i: (sum(i in by_index[m] for m in alive), -i))
            counts: dict[int, int] = {}
            for m in alive:
                for i in by_index[m]:
                    counts[i] = counts.get(i, 0) + 1
            assert max(counts, key=lambda i: (counts[i], -i)) == slow
            alive = {m for m in alive if slow not in by_index[m]}


# --- games/room_grid --------------------------------------------------------------------------

def test_room_grid_honest_probes_read_the_drawn_boards():
    """The board kept up to date in _honest_probes is the one read back from each drawn board, and the honest
    choice on it (cached rooms ahead, rings, centrality) is the one the player makes from the prompt and
    observations."""
    from palaestra.envs.games import room_grid as rg
    task = rg.RoomGrid()
    for level in range(5):
        for seed in range(6):
            problem = task.sample(level=level, seed=seed)
            data = problem.data
            rows, cols = data["rows"], data["cols"]
            probed: list[int] = []
            found = 0
            while found < data["treasures"]:
                board = rg._read_board(rg._board(data, probed), rows, cols)
                r, c = rg._evidence_choice(board, rows, cols, data["treasures"])
                probed.append(r * cols + c)
                found += data["clues"][r * cols + c][0] == "treasure"
            assert len(probed) == data["honest"]


def test_room_grid_rooms_ahead_are_the_rooms_in_the_arrows_direction():
    from palaestra.envs.games import room_grid as rg
    for cell in [(0, 0), (3, 5), (17, 17), (9, 0)]:
        for step in rg.ARROWS:
            expected = {(r, c) for r in range(18) for c in range(18)
                        if (rg._sign(r - cell[0]), rg._sign(c - cell[1])) == step}
            assert set(rg._rooms_ahead(cell, step, 18, 18)) == expected


# --- planning/keys_doors ----------------------------------------------------------------------

def test_keys_doors_cut_squares_from_the_adjacency_lists_equal_those_of_the_grid_graph():
    import networkx as nx

    from palaestra.envs.planning.keys_doors import _adjacency, _cut_squares
    from palaestra.generators.grids import random_maze
    rng = random.Random(2)
    for _ in range(150):
        maze = random_maze(rng, rng.randint(1, 9), rng.randint(1, 9), rng.choice([0.0, 0.05, 0.3, 1.0]))
        rows = [list(row) for row in maze.draw()]
        graph = nx.Graph()
        for r, row in enumerate(rows):
            for c, square in enumerate(row):
                if square != "#":
                    graph.add_node((r, c))
                    graph.add_edges_from(((r, c), nxt) for nxt in ((r + 1, c), (r, c + 1)) if rows[nxt[0]][nxt[1]] != "#")
        assert _cut_squares(_adjacency(rows)) == set(nx.articulation_points(graph))


def test_keys_doors_cell_distances_are_half_the_drawing_distances():
    """Why S and G may be ranked by the cell graph's distances instead of the drawing's."""
    from palaestra.generators.grids import cell_distances, distances, random_maze
    rng = random.Random(4)
    for _ in range(60):
        maze = random_maze(rng, rng.randint(1, 8), rng.randint(1, 8), rng.choice([0.0, 0.1, 0.5]))
        root = maze.root
        drawn = distances(maze.draw(), maze.square(root))
        cells = cell_distances(maze.links(), root)[0]
        assert [drawn[maze.square(cell)] for cell in range(len(cells))] == [2 * d for d in cells]


# --- games/ice_slide --------------------------------------------------------------------------

def test_ice_slide_search_on_rays_equals_the_search_by_slides():
    """The search reading slides off each square's rays returns the route the breadth-first search calling
    ``_slide`` for every move returns (the same first route found, not only the same length)."""
    from palaestra.envs.games import ice_slide as ice

    def by_slides(grid, start, target, movers=None, limit=14):
        count = len(start) if movers is None else movers
        parent = {start: None}
        frontier = [start]
        for _ in range(limit):
            following = []
            for tokens in frontier:
                for index in range(count):
                    for direction in ice.STEPS:
                        after = ice._slide(grid, tokens, index, direction)
                        if after in parent:
                            continue
                        parent[after] = (tokens, (index, direction))
                        if after[0] == target:
                            route, node = [], parent[after]
                            while node is not None:
                                route.append(node[1])
                                node = parent[node[0]]
                            return route[::-1]
                        following.append(after)
            frontier = following
        return None

    rng = random.Random(8)
    found = 0
    for _ in range(300):
        size = rng.randint(3, 8)
        grid = ["".join("#" if rng.random() < 0.15 else "." for _ in range(size)) for _ in range(size)]
        free = [(r, c) for r in range(size) for c in range(size) if grid[r][c] == "."]
        helpers = rng.randint(0, 2)
        if len(free) < helpers + 2:
            continue
        picks = rng.sample(free, helpers + 2)
        target, tokens = picks[0], tuple(picks[1:])
        for movers in (None, 1):
            for limit in (3, 8):
                route = ice._search(grid, tokens, target, movers=movers, limit=limit)
                assert route == by_slides(grid, tokens, target, movers=movers, limit=limit)
                found += route is not None
    assert found > 50


# --- languages/cfg_membership -----------------------------------------------------------------

def test_cfg_membership_fits_equals_the_letter_by_letter_check():
    from palaestra.envs.languages.cfg_membership import _first_nonterminal, _fits

    def slow(form, string, both_ends):
        if len(form) > len(string):
            return False
        head = _first_nonterminal(form)
        if head == len(form):
            return form == string
        if not string.startswith(form[:head]):
            return False
        tail = len(form) - 1 - max(form.rfind(ch) for ch in set(form[head:]) if ch.isupper())
        return not both_ends or string.endswith(form[len(form) - tail:])

    rng = random.Random(6)
    agreed = set()
    for _ in range(20000):
        string = "".join(rng.choice("abc") for _ in range(rng.randint(0, 8)))
        form = "".join(rng.choice("abcSABC" if rng.random() < 0.5 else "ab") for _ in range(rng.randint(0, 9)))
        if rng.random() < 0.3 and string:  # forms sharing the string's ends
            cut = rng.randint(0, len(string))
            form = string[:cut] + rng.choice("SAB") + string[cut:][rng.randint(0, len(string) - cut):]
        for both_ends in (True, False):
            assert _fits(form, string, both_ends) == slow(form, string, both_ends)
            agreed.add(slow(form, string, both_ends))
    assert agreed == {True, False}


# --- games/dungeon_crawl ----------------------------------------------------------------------

def test_dungeon_crawl_cached_links_stay_the_maps_links_through_a_game():
    """The links are cached per map and shared: playing the oracle's game (as generation does) leaves them equal
    to the links built afresh, and each map gets its own."""
    from palaestra.envs.games import dungeon_crawl as dc
    from palaestra.envs.games._worlds import neighbours
    task = dc.DungeonCrawl()
    for level in range(5):
        for seed in range(4):
            data = task.sample(level=level, seed=seed).data
            fresh = neighbours(data["rows"], data["cols"], [tuple(p) for p in data["passages"]])
            dc._oracle_game(data)
            assert dc._links(data) == fresh


def test_dungeon_crawl_cached_tree_paths_equal_tree_path():
    from palaestra.envs.games import dungeon_crawl as dc
    from palaestra.envs.games._worlds import tree_path
    task = dc.DungeonCrawl()
    for level in range(5):
        data = task.sample(level=level, seed=level).data
        passages = tuple(map(tuple, data["passages"]))
        links = dc._links(data)
        for start in range(len(data["rooms"])):
            for goal in range(0, len(data["rooms"]), 3):
                assert list(dc._map_tree_path(data["rows"], data["cols"], passages, start, goal)) == \
                    tree_path(links, start, goal)
