"""Give a maximum matching of a bipartite graph (workers and the tasks each can do).

The graph is planted so that cheap rules fail. Workers and tasks come in **blocks**, each with a
planted worker-task pairing and some extra edges inside it; **forward** edges join a block's
workers to later blocks' tasks. A forward edge is in no maximum matching: a worker sent forward
leaves its own and the earlier blocks with fewer workers than their tasks can use, and the task it
takes displaces a worker with nowhere else to go. **Traps** are workers whose only edge inside
their block is their planted task, plus a forward edge: rules that read degrees (fewest options
first, to the partner with the fewest or the most options) are drawn to them. Up to ``spare``
workers beyond the last block's tasks, and tasks beyond the first block's workers (drawn per
problem), keep the maximum's size from following from the side sizes. Labels are shuffled within
each side, so neither the numbering nor the order of the edges tells the blocks apart. At every
level (level 0 since version 3: fewest options first answered 0.97 of it, edges in order 0.50), graphs
are redrawn until each rule in :meth:`heuristics` (edges in sorted order; fewest options first, to the
least busy or the busiest partner) falls short of the maximum, so the answer needs augmenting paths. The verifier accepts **any** maximum matching: pairs that are edges, no
node used twice, as many pairs as the maximum (Hopcroft-Karp in networkx, at generation).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.graphs.common import edge_list, read_edges

_ROLE = re.compile(r"\b(?:worker|task)s? ?(?=\d)", re.IGNORECASE)  # "worker 0 - task 20" names the pair 0-20


@register
class BipartiteMatching(Task):
    id = "graphs/bipartite_matching"
    family = "graphs"
    description = "Give a maximum matching of a bipartite graph."
    tags = ("graphs", "matching", "optimization")
    version = 3  # v3: level 0 is redrawn against the rules too

    @dataclass(frozen=True)
    class Config:
        blocks: int  # chained blocks of workers and their planted tasks
        block_size: int  # planted worker-task pairs per block
        extra: int  # edges inside each block besides its planted pairs
        forward: int  # edges from a block's workers to later blocks' tasks (besides the traps')
        traps: int  # workers joined inside their block only to their planted task, and forward
        spare: int  # at most this many workers beyond the last block's tasks, and tasks beyond the first's workers
        min_options: int  # neighbours every node outside the traps gets at least (edges inside its block)

    presets = (
        Config(blocks=2, block_size=3, extra=2, forward=2, traps=0, spare=1, min_options=2),
        Config(blocks=2, block_size=4, extra=2, forward=2, traps=2, spare=1, min_options=3),
        Config(blocks=2, block_size=5, extra=3, forward=3, traps=2, spare=1, min_options=3),
        Config(blocks=3, block_size=5, extra=3, forward=5, traps=3, spare=1, min_options=3),
        Config(blocks=3, block_size=6, extra=4, forward=7, traps=4, spare=1, min_options=3),
    )
    growth = Growth(steps={"blocks": 1, "forward": 3, "traps": 1})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[int, int, list[list[int]], list[list[int]]] | None:
            workers, n, edges = _planted(rng, config)
            matching = _maximum_matching(workers, n, edges)
            if any(len(rule(n, edges)) >= len(matching) for rule in _RULES.values()):
                return None
            return workers, n, edges, matching

        workers, n, edges, matching = retry(draw, attempts=10_000, what="a graph on which every cheap rule misses the maximum")
        prompt = (
            f"Workers 0 to {workers - 1} are to be paired with tasks {workers} to {n - 1}. A worker can do only "
            f"the tasks it is joined to by these {len(edges)} edges:\n{edge_list(edges)}\n\n"
            "Each worker can take at most one task and each task at most one worker. Give a maximum matching: "
            "as many worker-task pairs as possible. Write each pair as worker-task, pairs separated by commas, "
            f"for example: 0-{workers + 2}, 3-{workers}, ..."
        )
        return Problem(prompt=prompt, answer=", ".join(f"{u}-{v}" for u, v in matching),
                       data={"left": workers, "n": n, "edges": edges, "size": len(matching)})

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def policy(rule: Callable[[int, list[list[int]]], list[tuple[int, int]]]) -> Callable[[Problem], str]:
            return lambda problem: ", ".join(f"{u}-{v}" for u, v in rule(problem.data["n"], problem.data["edges"]))

        return {name: policy(rule) for name, rule in _RULES.items()}

    def difficulty(self, problem: Problem) -> float:
        """Nodes plus edges plus the diameter (how long augmenting paths can get)."""
        from palaestra.envs.graphs._measures import size_and_reach

        data = problem.data
        return float(size_and_reach(data["n"], data["edges"]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        data = problem.data
        pairs = read_edges(answer, data["n"])
        if pairs is None and isinstance(answer, str) and len(answer) <= self.max_answer_chars:
            pairs = read_edges(_ROLE.sub("", answer), data["n"])
        if pairs is None:
            return Verdict.unparsed("expected pairs such as 0-7, 3-5")
        edges = {tuple(e) for e in data["edges"]}
        used: set[int] = set()
        for u, v in pairs:
            pair = (min(u, v), max(u, v))
            if pair not in edges:
                return Verdict.wrong(f"{u}-{v} is not an edge")
            if u in used or v in used:
                return Verdict.wrong(f"node {u if u in used else v} is used twice")
            used.update(pair)
        return Verdict.judge(len(pairs) == data["size"], f"{len(pairs)} pairs is not the maximum")

    def spellings(self, problem: Problem) -> list[str]:
        pairs = [p.split("-") for p in (problem.answer or "").split(", ")]
        return [*super().spellings(problem), ", ".join(f"({u}, {v})" for u, v in reversed(pairs)),
                ", ".join(f"worker {u} - task {v}" for u, v in pairs),
                "\n".join(f"{v} - {u}" for u, v in pairs)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        pairs = [tuple(map(int, p.split("-"))) for p in (problem.answer or "").split(", ")]
        wrong = [", ".join(f"{u}-{v}" for u, v in pairs[:-1])]
        u, v = pairs[0]
        clash = [e for e in problem.data["edges"] if (e[0] == u) != (e[1] == v) and (e[0] == u or e[1] == v)]
        if clash:  # another edge at one end of the first pair: a node used twice
            wrong.append(", ".join(f"{x}-{y}" for x, y in [*pairs, tuple(rng.choice(clash))]))
        edges = {tuple(e) for e in problem.data["edges"]}
        left, n = problem.data["left"], problem.data["n"]
        stranger = next(((x, y) for x in range(left) for y in range(left, n) if (x, y) not in edges), None)
        if stranger:
            wrong.append(", ".join(f"{x}-{y}" for x, y in [stranger, *pairs[1:]]))
        return wrong


def _planted(rng: random.Random, config: BipartiteMatching.Config) -> tuple[int, int, list[list[int]]]:
    """Workers, nodes and the sorted ``[worker, task]`` edges of a block-chained graph (module docstring),
    labels shuffled per side (workers first).

    Every node outside the traps gets at least ``min_options`` neighbours (3 from level 1: a trap's nodes
    have two, so the rules that read degrees start at a trap). Half the traps bait the least busy partner: worker
    ``u`` (its planted task and a forward task ``t``) where ``t`` has only its planted worker and ``u``.
    The others bait the busiest: ``u`` joined to a forward task and to its planted task ``a``, where ``a``
    has only ``u`` and one other worker of the block (that pair is in no maximum matching either).
    """
    size, blocks = config.block_size, config.blocks
    spare_workers, spare_tasks = rng.randint(0, config.spare), rng.randint(0, config.spare)
    workers = [[b * size + i for i in range(size)] for b in range(blocks)]
    workers[-1] += [blocks * size + i for i in range(spare_workers)]
    first_task = blocks * size + spare_workers
    tasks = [[first_task + b * size + i for i in range(size)] for b in range(blocks)]
    tasks[0] += [first_task + blocks * size + i for i in range(spare_tasks)]
    task_count = blocks * size + spare_tasks
    block_of = {v: b for b in range(blocks) for v in workers[b] + tasks[b]}
    planted = {w: tasks[b][i] for b in range(blocks) for i, w in enumerate(workers[b][:size])}
    edges: set[tuple[int, int]] = {(w, t) for w, t in planted.items()}
    closed: set[int] = set()  # trap nodes: no edge is added to them after their trap
    trappable = [w for b in range(blocks - 1) for w in workers[b][:size]]
    for index, worker in enumerate(rng.sample(trappable, min(config.traps, len(trappable)))):
        target = rng.choice([t for c in range(block_of[worker] + 1, blocks) for t in tasks[c] if t not in closed])
        edges.add((worker, target))
        closed.add(worker)
        if index % 2 == 0:  # bait the least busy partner: the target keeps only its planted worker and this one
            closed.add(target)
        else:  # bait the busiest: the planted task keeps only this worker and one other of the block
            task = planted[worker]
            others = [w for w in workers[block_of[worker]] if w not in closed]
            if others:
                edges.add((rng.choice(others), task))
            closed.add(task)
    for b in range(blocks):
        inside = [(w, t) for w in workers[b] for t in tasks[b] if (w, t) not in edges and not {w, t} & closed]
        edges.update(rng.sample(inside, min(config.extra, len(inside))))
    outward = [(w, t) for b in range(blocks - 1) for w in workers[b] for c in range(b + 1, blocks) for t in tasks[c]
               if (w, t) not in edges and not {w, t} & closed]
    edges.update(rng.sample(outward, min(config.forward, len(outward))))
    degree = dict.fromkeys(block_of, 0)
    for w, t in edges:
        degree[w] += 1
        degree[t] += 1
    for node in sorted(block_of):  # top up every open node to min_options neighbours inside its block
        if node in closed:
            continue
        side = tasks if node < first_task else workers
        partners = [v for v in side[block_of[node]] if v not in closed and (min(node, v), max(node, v)) not in edges]
        for v in rng.sample(partners, min(max(0, config.min_options - degree[node]), len(partners))):
            edges.add((min(node, v), max(node, v)))
            degree[node] += 1
            degree[v] += 1
    worker_labels = rng.sample(range(first_task), first_task)
    task_labels = rng.sample(range(first_task, first_task + task_count), task_count)
    return first_task, first_task + task_count, sorted([worker_labels[w], task_labels[t - first_task]] for w, t in edges)


def _maximum_matching(workers: int, n: int, edges: list[list[int]]) -> list[list[int]]:
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(map(tuple, edges))
    found = nx.bipartite.hopcroft_karp_matching(graph, top_nodes=range(workers))
    return sorted([u, found[u]] for u in range(workers) if u in found)


def _sorted_greedy(n: int, edges: list[list[int]]) -> list[tuple[int, int]]:
    """Each edge in sorted order whose ends are both free."""
    used: set[int] = set()
    pairs = []
    for u, v in edges:
        if u not in used and v not in used:
            used.update((u, v))
            pairs.append((u, v))
    return pairs


def _fewest_options(n: int, edges: list[list[int]], busiest_partner: bool) -> list[tuple[int, int]]:
    """The free node with the fewest free neighbours (lowest label on ties), matched to the free neighbour
    with the fewest (or, with ``busiest_partner``, the most) free neighbours, until no edge is left."""
    neighbours: dict[int, set[int]] = {v: set() for v in range(n)}
    for u, v in edges:
        neighbours[u].add(v)
        neighbours[v].add(u)
    pairs = []
    for _ in range(n // 2):  # a pair per round, at most n / 2 of them
        free = [v for v in neighbours if neighbours[v]]
        if not free:
            break
        node = min(free, key=lambda v: (len(neighbours[v]), v))
        sign = -1 if busiest_partner else 1
        partner = min(neighbours[node], key=lambda v: (sign * len(neighbours[v]), v))
        pairs.append((min(node, partner), max(node, partner)))
        for gone in (node, partner):
            for other in neighbours.pop(gone):
                neighbours[other].discard(gone)
    return pairs


_RULES: dict[str, Callable[[int, list[list[int]]], list[tuple[int, int]]]] = {
    "edges in sorted order": _sorted_greedy,
    "fewest options first, to the least busy partner": lambda n, edges: _fewest_options(n, edges, False),
    "fewest options first, to the busiest partner": lambda n, edges: _fewest_options(n, edges, True),
}
