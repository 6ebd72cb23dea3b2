"""Red-team regressions (round 3, session 19) for the physics, chemistry, biology, economics and causal families:
shortcuts that earned reward without solving, and right answers that were rejected, each pinned by a test that
fails on the code before the fix."""

from __future__ import annotations

import palaestra
from palaestra.kit.base import sample


def _reward(problem, reply: str) -> float:
    return palaestra.score(problem, f"<answer>{reply}</answer>").reward


# --- economics/fair_division: a round-robin draft in another fixed turn order ----------------------------------


def _draft(problem, order: list[int]) -> str:
    values = problem.data["values"]
    owners = [-1] * len(values[0])
    for turn in range(len(owners)):
        agent = order[turn % len(order)]
        item = max((k for k in range(len(owners)) if owners[k] < 0), key=lambda k: values[agent][k])
        owners[item] = agent
    names = ("Ann", "Bob", "Cy", "Dee", "Eli", "Flo")
    return ", ".join(f"{chr(ord('A') + k)}: {names[o]}" for k, o in enumerate(owners))


def test_fair_division_reverse_order_draft_earns_nothing_on_envy_free_levels():
    # v1 redrew only the draft in name order; the draft in reverse name order met the criterion in 50% of
    # level 2 and 25% of level 4 (and the best fixed order 30% of level 4)
    for level in (1, 3, 4):
        total = 0.0
        for seed in range(25):
            problem = sample("economics/fair_division", level, seed)
            agents = len(problem.data["values"])
            total += _reward(problem, _draft(problem, list(reversed(range(agents)))))
            total += _reward(problem, _draft(problem, [agents - 1, *range(agents - 1)]))  # the last agent first
        assert total == 0, (level, total)


def test_fair_division_reverse_order_draft_rare_on_proportional_levels():
    for level in (0, 2):
        hits = sum(
            _reward(problem, _draft(problem, list(reversed(range(len(problem.data["values"]))))))
            for problem in (sample("economics/fair_division", level, seed) for seed in range(40))
        )
        assert hits == 0, (level, hits)


# --- biology/population_growth: the asked quantity named before the value ---------------------------------------


def test_population_growth_reads_the_asked_quantity_named():
    for level, seed in ((0, 1), (4, 1), (3, 5)):
        problem = sample("biology/population_growth", level, seed)
        name = f"{'P' if problem.data['kind'] == 'predator_prey' else 'N'}({problem.data['steps']})"
        gold = problem.answer
        for reply in (f"{name} = {gold}", f"\\boxed{{{name} = {gold}}}", f"Answer: {name}={gold}."):
            assert _reward(problem, reply) == 1.0, reply
        wrong = str(int(gold) + 1)
        for reply in (
            f"{name} = {wrong}",
            f"{name} = {gold} or {name} = {wrong}",
            f"{name} = {gold}. {name} = {wrong}",
            f"N(99) = {gold}" if name != "N(99)" else f"P(1) = {gold}",
        ):
            assert _reward(problem, reply) == 0.0, reply


# --- causal/graph_query: the parents of X always satisfy the backdoor criterion ---------------------------------


def _parents_of_x(problem) -> str:
    return ", ".join(sorted(u for u, v in problem.data["edges"] if v == problem.data["x"]))


def test_graph_query_parent_adjustment_set_no_longer_solves_backdoor_questions():
    # v3: naming X's parents solved every backdoor question (with "yes" on d-separation: 0.59 at level 4)
    asked = 0
    for level in (2, 4):
        for seed in range(20):
            problem = sample("causal/graph_query", level, seed)
            if problem.data["kind"] != "backdoor":
                continue
            asked += 1
            assert _reward(problem, _parents_of_x(problem)) == 0.0, (level, seed)
            assert _reward(problem, problem.answer) == 1.0
    assert asked >= 10


def test_graph_query_backdoor_set_must_be_minimal_from_level_two():
    import networkx as nx

    checked = 0
    for seed in range(30):
        problem = sample("causal/graph_query", 3, seed)
        if problem.data["kind"] != "backdoor":
            continue
        graph = nx.DiGraph(problem.data["edges"])
        graph.add_nodes_from(problem.data["nodes"])
        x, y, gold = problem.data["x"], problem.data["y"], set(problem.answer.split(", "))
        spare = sorted(set(graph.nodes) - nx.descendants(graph, x) - set(problem.data["hidden"]) - {x, y} - gold)
        if spare:
            checked += 1
            assert _reward(problem, ", ".join(sorted({*gold, spare[0]}))) == 0.0, seed
    assert checked >= 3


# --- economics/voting_rules: one name among six at the top level was a 1/6 guess ------------------------------


def test_voting_rules_top_level_asks_two_judgements():
    for seed in range(25):
        problem = sample("economics/voting_rules", 4, seed)
        names = problem.data["names"]
        # v2: the winner's name alone was the answer, so a uniform guess paid 1/6
        assert all(_reward(problem, name) == 0.0 for name in names)
        first, second = problem.answer.split(", ")
        assert _reward(problem, f"{first}, {second}") == 1.0
        assert _reward(problem, f"{second}, {first}") == 0.0
        assert (
            _reward(problem, f"{first}, {second} or {names[0] if names[0] not in (first, second) else names[-1]}") == 0
        )


# --- economics/dominance: the survivors written per player ------------------------------------------------------


def test_dominance_reads_survivors_written_per_player():
    problem = sample("economics/dominance", 4, 1)
    survivors = problem.data["survivors"]
    rows = ", ".join(s for s in survivors if s.isalpha())
    columns = ", ".join(s for s in survivors if not s.isalpha())
    for reply in (
        f"rows {rows}; columns {columns}",
        f"Row player: {rows}\nColumn player: {columns}",
        f"columns {columns}; rows {rows}.",
    ):
        assert _reward(problem, reply) == 1.0, reply
    dropped = ", ".join(s for s in survivors if s.isalpha())[:-3]  # one row fewer
    for reply in (
        f"rows {dropped}; columns {columns}",
        f"rows {rows}; rows {columns}",
        f"rows {rows}; columns {columns}. Just kidding.",
    ):
        assert _reward(problem, reply) == 0.0, reply
