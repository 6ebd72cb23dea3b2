"""Mazes, obstacle grids and region partitions, and the breadth-first helpers on character grids."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from palaestra.generators import grids


def all_shortest_routes(grid: list[str], start, goal) -> int:
    """Brute force: every move string of the shortest length that walks from start to goal on open squares."""
    length = grids.shortest_distance(grid, start, goal)
    if length is None:
        return 0
    count = 0
    for moves in itertools.product("UDLR", repeat=length):
        r, c = start
        for move in moves:
            dr, dc = grids.MOVES[move]
            r, c = r + dr, c + dc
            if not (0 <= r < len(grid) and 0 <= c < len(grid[0])) or grid[r][c] == "#":
                break
        else:
            count += (r, c) == goal
    return count


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (1, 5), (4, 4), (6, 9)])
def test_perfect_mazes_are_spanning_trees_of_the_cells(rows, cols):
    for seed in range(20):
        maze = grids.random_maze(random.Random(seed), rows, cols)
        drawing = maze.draw()
        assert len(drawing) == 2 * rows + 1 and {len(line) for line in drawing} == {2 * cols + 1}
        assert set(drawing[0]) == set(drawing[-1]) == {"#"} and all(line[0] == line[-1] == "#" for line in drawing)
        assert len(maze.passages) == rows * cols - 1
        root = maze.square(maze.root)
        reach = grids.distances(drawing, root)
        for cell in range(rows * cols):
            # every cell is reachable, and the carving tree's depth is the route length (in cell steps)
            assert reach[maze.square(cell)] == 2 * maze.depth[cell]
            assert (maze.parent[cell] == -1) == (cell == maze.root)
        open_squares = sum(line.count(".") for line in drawing)
        assert open_squares == 2 * rows * cols - 1  # cells plus one opening per passage: no extra loops


def test_loops_knock_out_the_requested_share_of_walls():
    rows, cols, loops = 6, 7, 0.25
    inner_walls = rows * (cols - 1) + cols * (rows - 1) - (rows * cols - 1)
    for seed in range(10):
        maze = grids.random_maze(random.Random(seed), rows, cols, loops)
        assert len(maze.passages) == rows * cols - 1 + round(loops * inner_walls)
        assert len(set(map(frozenset, maze.passages))) == len(maze.passages)
        assert all(abs(i - j) in (1, cols) for i, j in maze.passages)


def test_maze_drawing_marks_and_determinism():
    maze = grids.random_maze(random.Random(5), 3, 3)
    marked = maze.draw({0: "S", 8: "G"})
    assert marked[1][1] == "S" and marked[5][5] == "G"
    assert maze.text({0: "S", 8: "G"}) == "\n".join(marked)
    again = grids.random_maze(random.Random(5), 3, 3)
    assert again.passages == maze.passages and again.draw() == maze.draw()
    distance, parent = grids.cell_distances(maze.links(), 0)
    assert distance[8] * 2 == grids.shortest_distance(maze.draw(), (1, 1), (5, 5))
    assert parent[0] == -1 and distance[0] == 0


def test_obstacle_grids_always_keep_a_path():
    for seed in range(60):
        rng = random.Random(seed)
        rows, cols = rng.randint(3, 9), rng.randint(3, 9)
        start, goal = (rng.randrange(rows), rng.randrange(cols)), (rng.randrange(rows), rng.randrange(cols))
        grid = grids.random_obstacles(rng, rows, cols, 0.6, start, goal)
        assert len(grid) == rows and {len(line) for line in grid} == {cols}
        distance = grids.shortest_distance(grid, start, goal)
        assert distance is not None and distance >= abs(start[0] - goal[0]) + abs(start[1] - goal[1])
    dense = grids.random_obstacles(random.Random(1), 30, 30, 0.5, (0, 0), (29, 29))
    walls = sum(line.count("#") for line in dense) / 900
    assert 0.3 < walls < 0.5  # about half of the squares off the kept path


@pytest.mark.parametrize(("rows", "cols", "sizes"), [
    (4, 4, [4, 4, 4, 4]), (9, 9, [9] * 9), (6, 6, [6] * 6), (5, 7, [1, 2, 3, 4, 5, 6, 7, 7]), (3, 3, [9]),
])
def test_regions_are_connected_cover_the_grid_and_have_the_given_sizes(rows, cols, sizes):
    for seed in range(6):
        region = grids.random_regions(random.Random(seed), rows, cols, sizes, mixing=10)
        assert len(region) == rows and {len(line) for line in region} == {cols}
        cells = {k: [(r, c) for r in range(rows) for c in range(cols) if region[r][c] == k] for k in range(len(sizes))}
        assert sorted(len(v) for v in cells.values()) == sorted(sizes)
        for members in cells.values():
            as_grid = ["".join("." if (r, c) in members else "#" for c in range(cols)) for r in range(rows)]
            assert len(grids.distances(as_grid, members[0])) == len(members)  # one connected piece


def test_regions_get_mixed_away_from_the_starting_snake():
    region = grids.random_regions(random.Random(3), 6, 6, [6] * 6)
    snake_rows = [[r] * 6 for r in range(6)]  # the snake start puts each region in one row
    assert region != snake_rows
    with pytest.raises(ValueError):
        grids.random_regions(random.Random(0), 3, 3, [4, 4])


def test_counting_and_finding_shortest_routes():
    open_room = ["....", "....", "...."]
    assert grids.count_shortest_paths(open_room, (0, 0), (2, 3)) == math.comb(5, 2)
    walled = [".#..", "....", "..#."]
    assert grids.count_shortest_paths(walled, (0, 0), (2, 3)) == all_shortest_routes(walled, (0, 0), (2, 3))
    assert grids.count_shortest_paths([".#."], (0, 0), (0, 2)) == 0
    assert grids.shortest_route([".#."], (0, 0), (0, 2)) is None
    for seed in range(30):
        grid = grids.random_obstacles(random.Random(seed), 4, 5, 0.35, (0, 0), (3, 4))
        assert grids.count_shortest_paths(grid, (0, 0), (3, 4)) == all_shortest_routes(grid, (0, 0), (3, 4))
        route = grids.shortest_route(grid, (0, 0), (3, 4))
        assert len(route) == grids.shortest_distance(grid, (0, 0), (3, 4))
        r, c = 0, 0
        for move in route:
            dr, dc = grids.MOVES[move]
            r, c = r + dr, c + dc
            assert grid[r][c] != "#"
        assert (r, c) == (3, 4)
