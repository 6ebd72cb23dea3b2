"""Red team, session 24: spatial/map_colouring_ascii.

v1 asked for a colouring with the fewest colours, and DSATUR with unit propagation coloured 96-100% of its
maps. v2 asks to repair a clashing painting by repainting at most the fewest regions needed; the textbook
rules (here written independently of the env) miss, any repair within the budget is right, and a proper
colouring that repaints one region too many is wrong.
"""

from __future__ import annotations

from palaestra.core.registry import make_source

ENV = "spatial/map_colouring_ascii"


def _adjacent(problem) -> list[set[int]]:
    adjacent: list[set[int]] = [set() for _ in problem.data["letters"]]
    for a, b in problem.data["edges"]:
        adjacent[a].add(b)
        adjacent[b].add(a)
    return adjacent


def _written(problem, colouring: list[int]) -> str:
    return (
        "<answer>"
        + ", ".join(f"{x} = {c}" for x, c in zip(problem.data["letters"], colouring, strict=True))
        + "</answer>"
    )


def _dsatur(adjacent: list[set[int]], colours: int, preferred: list[int] | None) -> list[int]:
    """DSATUR with unit propagation, never backtracking: a region with one free colour first, then the most
    distinct neighbouring colours (ties by degree, then letter); the preferred colour when free, else the
    smallest. At a dead end the region takes colour 1 (a clash)."""
    chosen = [0] * len(adjacent)
    while 0 in chosen:

        def key(region: int) -> tuple[bool, int, int, int]:
            used = {chosen[o] for o in adjacent[region]} - {0}
            return (len(used) < colours - 1, -len(used), -len(adjacent[region]), region)

        region = min((r for r in range(len(adjacent)) if not chosen[r]), key=key)
        free = [c for c in range(1, colours + 1) if all(chosen[o] != c for o in adjacent[region])]
        if preferred is not None and preferred[region] in free:
            chosen[region] = preferred[region]
        else:
            chosen[region] = free[0] if free else 1
    return chosen


def _repairs(adjacent: list[set[int]], colours: int, painted: list[int], budget: int, limit: int) -> list[list[int]]:
    """Up to ``limit`` proper colourings repainting at most ``budget`` regions (plain depth-first search)."""
    found: list[list[int]] = []
    chosen = [0] * len(adjacent)

    def place(region: int, cost: int) -> None:
        if len(found) >= limit or cost > budget:
            return
        if region == len(adjacent):
            found.append(chosen[:])
            return
        for colour in sorted(range(1, colours + 1), key=lambda c: c != painted[region]):
            if all(chosen[o] != colour for o in adjacent[region] if o < region):
                chosen[region] = colour
                place(region + 1, cost + (colour != painted[region]))
        chosen[region] = 0

    place(0, 0)
    return found


def test_dsatur_with_propagation_scores_at_most_a_tenth_at_the_top_level() -> None:
    task = make_source(ENV)
    top = task.levels() - 1
    problems = [task.sample(top, seed) for seed in range(20)]
    for preferring_paint in (False, True):
        solved = 0
        for problem in problems:
            data = problem.data
            preferred = data.get("painted") if preferring_paint else None
            solved += task.check(
                problem, _written(problem, _dsatur(_adjacent(problem), data["colours"], preferred))
            ).correct
        assert solved <= 2, (preferring_paint, solved)  # v1: 19 of 20


def test_any_repair_within_the_budget_is_accepted() -> None:
    task = make_source(ENV)
    alternatives = 0
    for seed in range(8):
        problem = task.sample(1, seed)
        data = problem.data
        assert f"Repaint at most {data['budget']} regions" in problem.prompt
        for repair in _repairs(_adjacent(problem), data["colours"], data["painted"], data["budget"], limit=4):
            assert task.check(problem, _written(problem, repair)).correct, (seed, repair)
            alternatives += _written(problem, repair) != task.format_answer(problem.answer)
    assert alternatives >= 4  # repairs other than the reference were tried


def test_a_proper_colouring_repainting_too_many_regions_is_rejected() -> None:
    task = make_source(ENV)
    rejected = 0
    for seed in range(10):
        problem = task.sample(2, seed)
        data, adjacent = problem.data, _adjacent(problem)
        reference = [int(pair.split(" = ")[1]) for pair in (problem.answer or "").split(", ")]
        # one region that kept its paint is repainted with a colour no neighbour has: proper, one repaint too many
        for region, colour in enumerate(reference):
            free = [
                c
                for c in range(1, data["colours"] + 1)
                if c != colour and all(reference[o] != c for o in adjacent[region])
            ]
            if colour == data["painted"][region] and free:
                over = reference[:region] + [free[0]] + reference[region + 1 :]
                verdict = task.check(problem, _written(problem, over))
                assert not verdict.correct and "repainted" in verdict.feedback, (seed, verdict)
                rejected += 1
                break
        # the painting as given clashes
        assert not task.check(problem, _written(problem, data["painted"])).correct
    assert rejected >= 8
