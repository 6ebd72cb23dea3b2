"""What the generation speed-ups of farm_sim, miconic, warehouse_orders, logic_grid_questions, wordle,
graph_query, black_box and yahtzee_lite rely on: each fast path equals the plain rules it replaces."""

from __future__ import annotations

import functools
import os
import random
import subprocess
import sys
from fractions import Fraction
from typing import Any

import pytest

from palaestra.core.registry import make_source
from palaestra.envs.games import farm_sim
from palaestra.envs.planning import miconic


def _farm_game(level: int, seed: int) -> tuple[farm_sim.Game, farm_sim.State]:
    data = make_source("games/farm_sim").sample(level=level, seed=seed).data
    return farm_sim._game(data), farm_sim._start(data)


@pytest.mark.parametrize("level, seed", [(0, 1), (2, 3), (4, 5)])
def test_farm_playouts_draw_what_the_legal_move_loop_drew(level: int, seed: int) -> None:
    game, start = _farm_game(level, seed)
    fast_rng, plain_rng = random.Random(seed), random.Random(seed)
    plain = [farm_sim._final(game, start, lambda g, s: plain_rng.choice(farm_sim._legal(g, s)))
             for _ in range(farm_sim.PLAYOUTS)]
    assert farm_sim._random_profits(game, start, fast_rng) == plain
    assert fast_rng.random() == plain_rng.random()  # the same draws were used up


@pytest.mark.parametrize("level, seed", [(1, 0), (3, 2)])
def test_farm_packed_search_equals_the_search_over_the_rules(level: int, seed: int) -> None:
    game, start = _farm_game(level, seed)

    @functools.lru_cache(maxsize=None)
    def most(state: farm_sim.State) -> int:
        if state[0] >= game[2]:
            return state[3]
        return max(most(farm_sim._apply(game, state, action)) for action in farm_sim._legal(game, state))

    state: Any = start
    for action in ("plant 0", farm_sim.WATER, farm_sim.WAIT):  # a few states off the start as well
        assert farm_sim._best(game, state) == most(state)
        state = farm_sim._apply(game, state, action)


def _fraction_greedy_visits(lift: int, trips: list[tuple[int, int]]) -> dict[int, Fraction]:
    """The greedy's tie tree with fractions, as :func:`miconic.greedy_visits` computed it before."""

    @functools.cache
    def visits(floor: int, status: tuple[int, ...]) -> tuple[tuple[int, Fraction], ...]:
        status = tuple(miconic.SERVED if now == miconic.ABOARD and destination == floor else now
                       for (_, destination), now in zip(trips, status))
        status = tuple(miconic.ABOARD if now == miconic.WAITING and origin == floor else now
                       for (origin, _), now in zip(trips, status))
        if all(now == miconic.SERVED for now in status):
            return ((0, Fraction(1)),)
        pending: dict[int, int] = {}
        for (origin, destination), now in zip(trips, status):
            if now != miconic.SERVED:
                stop = origin if now == miconic.WAITING else destination
                pending[stop] = pending.get(stop, 0) + 1
        choices = [f for f, count in pending.items() if count == max(pending.values())]
        total: dict[int, Fraction] = {}
        for choice in choices:
            for count, chance in visits(choice, status):
                total[count + 1] = total.get(count + 1, Fraction(0)) + chance / len(choices)
        return tuple(total.items())

    return dict(visits(lift, (miconic.WAITING,) * len(trips)))


def _elevator_draws(count: int) -> list[tuple[int, list[tuple[int, int]]]]:
    rng = random.Random(7)
    draws = []
    for _ in range(count):
        floors, people = rng.randint(3, 9), rng.randint(1, 7)
        draws.append((rng.randrange(floors), [tuple(rng.sample(range(floors), 2)) for _ in range(people)]))
    return draws  # type: ignore[return-value]


def test_miconic_greedy_chances_equal_the_fraction_computation() -> None:
    for lift, trips in _elevator_draws(60):
        assert miconic.greedy_visits(lift, trips) == _fraction_greedy_visits(lift, trips)


def test_warehouse_distances_shared_by_a_level_equal_a_breadth_first_search_of_each_hall() -> None:
    from collections import deque

    from palaestra.envs.games import warehouse_orders

    env = make_source("games/warehouse_orders")
    for level, seed in ((0, 0), (4, 1)):
        data = env.sample(level=level, seed=seed).data
        layout = warehouse_orders._layout(data)
        planner = warehouse_orders._Planner(layout)
        for source in [(r, c) for r in range(layout.rows) for c in range(layout.cols) if layout.floor((r, c))]:
            seen = {source: 0}
            queue = deque([source])
            while queue:
                cell = queue.popleft()
                for nxt in planner._around(cell):
                    if nxt not in seen and layout.floor(nxt):
                        seen[nxt] = seen[cell] + 1
                        queue.append(nxt)
            assert planner.distances(source) == seen
        before = dict(planner.distances(layout.dock))
        env.sample(level=level, seed=seed + 1)  # another hall of the same shape leaves the shared distances alone
        assert planner.distances(layout.dock) == before


def test_logic_grid_bit_sets_equal_testing_every_assignment() -> None:
    from palaestra.envs.games import logic_grid_questions as lgq

    for people in (3, 4, 5):
        everything = lgq._everything(people, 2)
        masks = lgq._yes_masks(people, 2)
        for a, b in lgq._questions(people, 2)[::7]:
            assert masks[a, b] == sum(1 << i for i, s in enumerate(everything) if lgq._linked(s, a, b))
    data = make_source("games/logic_grid_questions").sample(level=4, seed=3).data
    clues = lgq._frozen_clues(data["clues"])
    plain = tuple(s for s in lgq._everything(5, 2) if all(lgq._linked(s, a, b) == yes for yes, a, b in clues))
    assert lgq._possible(5, 2, clues) == plain and len(plain) == data["left"]


def test_logic_grid_balanced_question_is_the_first_most_even() -> None:
    from palaestra.envs.games import logic_grid_questions as lgq

    rng = random.Random(5)
    for _ in range(200):
        masks = tuple(rng.getrandbits(12) for _ in range(rng.randint(1, 20)))
        remaining = rng.getrandbits(12)
        total = remaining.bit_count()
        assert lgq._balanced(remaining, masks) == min(
            range(len(masks)), key=lambda q: abs(2 * (remaining & masks[q]).bit_count() - total))


def test_wordle_guess_counted_on_the_transposed_table_is_the_one_counted_per_guess_row() -> None:
    import numpy as np

    from palaestra.envs.games import wordle

    table = wordle.mark_table()
    rng = np.random.default_rng(4)
    for size in (3, 40, 400):
        candidates = np.sort(rng.choice(len(table), size, replace=False))
        pool = np.sort(rng.choice(len(table), 900, replace=False))
        by_row = table[np.ix_(pool, candidates)].astype(np.int64) + 243 * np.arange(len(pool))[:, None]
        sizes = np.bincount(by_row.ravel(), minlength=243 * len(pool)).reshape(len(pool), 243)
        left = (sizes ** 2).sum(axis=1)
        left[np.isin(pool, candidates)] -= 1
        outcomes = wordle._marks_by_secret()[np.ix_(candidates, pool)]
        assert wordle._fewest_left(outcomes, candidates, pool) == int(np.argmin(left))


def _graph_query_dags(count: int) -> list[Any]:
    from palaestra.envs.causal import graph_query

    source = make_source("causal/graph_query")
    rng = random.Random(11)
    return [graph_query._random_dag(rng, source.level_config(level)) for level in (0, 2, 4) for _ in range(count)]


def test_graph_query_bit_closures_and_d_separation_equal_networkx() -> None:
    import networkx as nx

    from palaestra.envs.causal import graph_query

    rng = random.Random(2)
    for graph in _graph_query_dags(6):
        bits = graph_query._Bits(graph)
        index = {name: i for i, name in enumerate(bits.names)}
        for name in bits.names:
            assert bits.ancestors[index[name]] == sum(1 << index[a] for a in nx.ancestors(graph, name))
            assert bits.descendants[index[name]] == sum(1 << index[d] for d in nx.descendants(graph, name))
        for _ in range(30):
            a, b, *z = rng.sample(range(len(bits.names)), rng.randint(2, min(6, len(bits.names))))
            mask = sum(1 << i for i in z)
            expected = nx.is_d_separator(graph, {bits.names[a]}, {bits.names[b]}, {bits.names[i] for i in z})
            assert bits.separated(a, b, mask) == expected


def test_graph_query_packed_profiles_hold_each_feature_in_its_byte() -> None:
    from palaestra.envs.causal import graph_query

    for graph in _graph_query_dags(3):
        bits = graph_query._Bits(graph)
        n = len(bits.names)
        for a, b in [(0, n - 1), (1, n // 2)]:
            ancestors, descendants = bits.ancestors[a] | bits.ancestors[b], bits.descendants[a] | bits.descendants[b]
            mediators = (bits.descendants[a] & bits.ancestors[b]) | (bits.descendants[b] & bits.ancestors[a])
            features = (bits.parents[a] | bits.parents[b], bits.children[a] | bits.children[b], ancestors,
                        descendants, bits.ancestors[a] & bits.ancestors[b], bits.descendants[a] & bits.descendants[b],
                        mediators)
            for i, packed in enumerate(bits.node_profiles(a, b)):
                neighbours = bits.parents[i] | bits.children[i]
                vector = (*(mask >> i & 1 for mask in features), (neighbours >> a & 1) + (neighbours >> b & 1),
                          bits.parents[i].bit_count(), bits.children[i].bit_count(), bits.ancestors[i].bit_count(),
                          bits.descendants[i].bit_count())
                assert len(vector) == graph_query.PROFILE_FEATURES
                assert [packed >> 8 * k & 255 for k in range(len(vector))] == list(vector)
                assert packed >> 8 * len(vector) == 0



def _black_box_trace_on_rows_and_columns(size: int, atoms: frozenset[int], port: int) -> str | int:
    """A ray traced on (row, column) pairs, as black_box did before the padded bit set."""
    from palaestra.envs.games import black_box

    def atom(row: int, column: int) -> bool:
        return 0 <= row < size and 0 <= column < size and row * size + column in atoms

    row, column, side = black_box._port_start(size, port)
    d_row, d_column = black_box._DIRECTIONS[side]
    ahead = (row + d_row, column + d_column)
    if atom(*ahead):
        return black_box.ABSORBED
    if atom(ahead[0] + d_column, ahead[1] + d_row) or atom(ahead[0] - d_column, ahead[1] - d_row):
        return black_box.REFLECTED
    for _ in range(8 * size * size + 8):
        ahead = (row + d_row, column + d_column)
        if atom(*ahead):
            return black_box.ABSORBED
        left = atom(ahead[0] + d_column, ahead[1] + d_row)
        right = atom(ahead[0] - d_column, ahead[1] - d_row)
        if left and right:
            d_row, d_column = -d_row, -d_column
        elif left:
            d_row, d_column = -d_column, -d_row
        elif right:
            d_row, d_column = d_column, d_row
        else:
            row, column = ahead
            if not (0 <= row < size and 0 <= column < size):
                exit_port = black_box._port_at(size, row, column)
                return black_box.REFLECTED if exit_port == port else exit_port
    return black_box.ABSORBED


@pytest.mark.parametrize("size, atoms", [(4, 1), (4, 3), (5, 2), (7, 1)])
def test_black_box_padded_rays_equal_rays_on_rows_and_columns(size: int, atoms: int) -> None:
    import itertools

    from palaestra.envs.games import black_box

    for placement in itertools.combinations(range(size * size), atoms):
        for port in range(4 * size):
            expected = _black_box_trace_on_rows_and_columns(size, frozenset(placement), port)
            assert black_box._trace(size, frozenset(placement), port) == expected


def test_yahtzee_tables_shared_and_memoised_equal_the_sums_they_replace() -> None:
    from palaestra.envs.games import yahtzee_lite

    for dice in (2, 3):
        for kept in ((), (6,), (2, 2)):
            landings = [(tuple(sorted(kept + thrown)), chance) for thrown, chance in yahtzee_lite._outcomes(dice - len(kept))]
            assert list(yahtzee_lite._landings(dice, kept)) == landings
    tables = yahtzee_lite._tables(3, tuple(yahtzee_lite.CATEGORIES[:4]))
    open_ = frozenset(yahtzee_lite.CATEGORIES[1:3])
    for showing in ((1, 1, 1), (2, 5, 6)):
        plain = max(max(yahtzee_lite.category_score(c, showing) + tables.after_throw(open_ - {c}, (), 2)
                        for c in open_),
                    *(sum(chance * tables.value(open_, tuple(sorted(kept + thrown)), 1)
                          for thrown, chance in yahtzee_lite._outcomes(3 - len(kept)))
                      for kept in set(yahtzee_lite._keeps(showing))))
        assert tables.value(open_, showing, 2) == plain


def test_yahtzee_optimal_mean_does_not_follow_string_hashing() -> None:
    """The optimal mean, stored in the data, is a float computed over sets of open categories: it is the same to the
    last bit whatever ``PYTHONHASHSEED`` is (random play's mean, stored before v3, once moved with the set order)."""
    code = ("from palaestra.envs.games import yahtzee_lite as y\n"
            "print([y._tables(d, y.CATEGORIES[:c]).optimal_mean.hex() for d, c in ((2, 4), (3, 5), (3, 6))])")
    outputs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout for seed in range(4)}
    assert len(outputs) == 1
