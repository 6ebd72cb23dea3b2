"""Answer a question about a generated causal DAG: d-separation or a backdoor adjustment set.

Two question kinds over a random DAG whose edges are listed in the prompt:

- "Are X and Y d-separated given Z?": ``yes`` or ``no`` (labels balanced; X and Y
  are never adjacent), checked against networkx's ``is_d_separator``.
- "Give a set satisfying the backdoor criterion for the effect of X on Y": any
  valid set is accepted (no descendant of X; it d-separates X and Y once the
  edges out of X are removed); the empty set is never valid for these problems.

Graph size and the size of the conditioning set grow with the level.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass

import networkx as nx

from palaestra.core import Problem, Task, Verdict, register
from palaestra.verifiers.structured import parse_tokens

_MAX_ANSWER = 2_000
_YES, _NO = frozenset({"yes", "true", "y"}), frozenset({"no", "false", "n"})
_EMPTY = frozenset({"none", "empty", "{}", "[]", "()", "∅", "the empty set", "empty set"})


@register
class GraphQuery(Task):
    id = "causal/graph_query"
    family = "causal"
    description = "Decide d-separation or find a backdoor adjustment set in a causal DAG."
    tags = ("causal", "graphs", "logic")

    @dataclass(frozen=True)
    class Config:
        nodes: int
        edge_probability: float  # chance of an edge between two variables, in topological order
        max_conditioning: int  # largest conditioning set in d-separation questions
        backdoor_share: float  # probability of a backdoor question instead of a d-separation one

    def config(self, level: int) -> Config:
        return [
            self.Config(nodes=5, edge_probability=0.45, max_conditioning=1, backdoor_share=0.3),
            self.Config(nodes=6, edge_probability=0.4, max_conditioning=2, backdoor_share=0.4),
            self.Config(nodes=8, edge_probability=0.35, max_conditioning=2, backdoor_share=0.5),
            self.Config(nodes=10, edge_probability=0.3, max_conditioning=3, backdoor_share=0.5),
            self.Config(nodes=13, edge_probability=0.28, max_conditioning=4, backdoor_share=0.5),
        ][level]

    def generate(self, rng: random.Random, config: Config) -> Problem:
        backdoor = rng.random() < config.backdoor_share
        want_separated = rng.random() < 0.5
        while True:
            graph = _random_dag(rng, config)
            if backdoor:
                question = _backdoor_question(rng, graph)
            else:
                question = _dsep_question(rng, graph, config, want_separated)
            if question is not None:
                break
        nodes = list(graph.nodes)
        edges = sorted([u, v] for u, v in graph.edges)
        description = (
            f"A causal model is a directed acyclic graph over the variables {', '.join(sorted(nodes))}.\n"
            "Its directed edges (cause -> effect) are:\n" + "\n".join(f"{u} -> {v}" for u, v in edges) + "\n\n"
        )
        text, answer = question.pop("text"), question.pop("answer")
        return Problem(prompt=description + text, answer=answer, data={"nodes": nodes, "edges": edges, **question})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if len(answer) > _MAX_ANSWER:
            return Verdict.unparsed("answer too long")
        if problem.data["kind"] == "dsep":
            word = answer.strip().strip(".!").strip().lower()
            if word not in _YES | _NO:
                return Verdict.unparsed("answer yes or no")
            return Verdict.judge((word in _YES) == problem.data["separated"], "wrong")
        return _verify_backdoor(problem, answer)

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        if problem.data["kind"] == "dsep":
            return ["no" if problem.data["separated"] else "yes"]
        graph = _graph(problem)
        child = rng.choice(sorted(graph.successors(problem.data["x"])))
        return ["none", ", ".join(sorted(set(_answer_set(problem.answer or "") or []) | {child}))]


def _random_dag(rng: random.Random, config: GraphQuery.Config) -> nx.DiGraph:
    """Random names in a random causal order; every variable touches at least one edge."""
    letters = rng.sample(string.ascii_uppercase, config.nodes)
    names = [f"{letter}{rng.randint(1, 9)}" for letter in letters]
    graph = nx.DiGraph()
    graph.add_nodes_from(names)
    for j in range(1, len(names)):
        for i in range(j):
            if rng.random() < config.edge_probability:
                graph.add_edge(names[i], names[j])
    for j, name in enumerate(names):
        if graph.degree(name) == 0:
            other = rng.choice([k for k in range(len(names)) if k != j])
            graph.add_edge(*((names[other], name) if other < j else (name, names[other])))
    return graph


def _dsep_question(rng: random.Random, graph: nx.DiGraph, config: GraphQuery.Config, want: bool) -> dict | None:
    """A non-adjacent pair and a conditioning set whose d-separation equals ``want``, or None."""
    nodes = list(graph.nodes)
    for _ in range(60):
        x, y = rng.sample(nodes, 2)
        if graph.has_edge(x, y) or graph.has_edge(y, x):
            continue
        others = [n for n in nodes if n not in (x, y)]
        z = sorted(rng.sample(others, rng.randint(0, min(config.max_conditioning, len(others)))))
        if nx.is_d_separator(graph, {x}, {y}, set(z)) != want:
            continue
        given = "{" + ", ".join(z) + "}" if z else "the empty set (no conditioning)"
        text = (
            f"Are {x} and {y} d-separated given {given}?\n"
            "Answer yes if every path between them is blocked by that set, no otherwise."
        )
        return {"kind": "dsep", "x": x, "y": y, "z": z, "separated": want, "text": text,
                "answer": "yes" if want else "no"}
    return None


def _backdoor_question(rng: random.Random, graph: nx.DiGraph) -> dict | None:
    """A cause X, an effect Y among its descendants with an open backdoor path, and a minimal valid set."""
    nodes = list(graph.nodes)
    for _ in range(30):
        x = rng.choice(nodes)
        descendants = nx.descendants(graph, x)
        if not descendants:
            continue
        y = rng.choice(sorted(descendants))
        cut = _without_out_edges(graph, x)
        if nx.is_d_separator(cut, {x}, {y}, set()):
            continue  # no open backdoor path: the empty set would do
        allowed = set(nodes) - descendants - {x}
        z = nx.find_minimal_d_separator(cut, {x}, {y}, restricted=allowed)
        if z is None:
            continue
        text = (
            f"We want to estimate the causal effect of {x} on {y} by adjustment. A set S of variables "
            f"satisfies the backdoor criterion relative to ({x}, {y}) when (1) no variable in S is a "
            f"descendant of {x}, and (2) S blocks every path between {x} and {y} that starts with an "
            f"arrow into {x}.\n"
            f"Give a set S satisfying the backdoor criterion relative to ({x}, {y}): the variable names "
            "separated by commas (any valid set is accepted)."
        )
        return {"kind": "backdoor", "x": x, "y": y, "text": text, "answer": ", ".join(sorted(z))}
    return None


def _verify_backdoor(problem: Problem, answer: str) -> Verdict:
    chosen = _answer_set(answer)
    if chosen is None:
        return Verdict.unparsed("expected variable names separated by commas")
    graph = _graph(problem)
    x, y = problem.data["x"], problem.data["y"]
    unknown = sorted(chosen - set(graph.nodes))
    if unknown:
        return Verdict.wrong(f"unknown variable {unknown[0][:20]!r}")
    if chosen & {x, y}:
        return Verdict.wrong(f"the set must not contain {x} or {y}")
    if chosen & nx.descendants(graph, x):
        return Verdict.wrong(f"the set contains a descendant of {x}")
    if not nx.is_d_separator(_without_out_edges(graph, x), {x}, {y}, chosen):
        return Verdict.wrong(f"the set leaves a backdoor path between {x} and {y} open")
    return Verdict.right()


def _answer_set(answer: str) -> set[str] | None:
    """Upper-cased variable names, an empty set for 'none', or None when unreadable."""
    text = answer.strip().strip(".").strip()
    if text.lower() in _EMPTY:
        return set()
    tokens = parse_tokens(text, max_items=100)
    if tokens is None:
        return None
    return {t.upper() for t in tokens}


def _graph(problem: Problem) -> nx.DiGraph:
    graph = nx.DiGraph()
    graph.add_nodes_from(problem.data["nodes"])
    graph.add_edges_from(problem.data["edges"])
    return graph


def _without_out_edges(graph: nx.DiGraph, x: str) -> nx.DiGraph:
    cut = graph.copy()
    cut.remove_edges_from(list(graph.out_edges(x)))
    return cut
