"""Decide whether two graphs are isomorphic, with hard negatives; a yes comes with the renaming.

The first graph G is random and connected on nodes ``0..n-1``. Three times in four the second graph H
is G under a random relabelling onto letters; otherwise it is G after random degree-preserving double
edge swaps, then relabelled, and kept only if networkx proves it is not isomorphic to G. So both
graphs always have the same numbers of nodes and edges and the same degree sequence; from level 2
on the negatives also have the same number of triangles, and G is a random connected 3-regular graph
(every node of degree 3): the degrees of a node's neighbours, and colour refinement (Weisfeiler-Leman)
built on them, are then the same everywhere and decide nothing. Before version 2 (random graphs of
any degrees) comparing the multisets of neighbour degrees answered 0.99 of the problems at every
level.

The isomorphic side has a short certificate, so it must be shown: the answer is a renaming of H's
nodes onto ``0..n-1`` (``A = 3, B = 0, ...``; ``A: 3``, ``A -> 3``, after an optional ``yes``), and
**any** renaming that turns H's edges into exactly G's is accepted; a bare ``yes`` is not an answer.
The other side has no short certificate (the negatives share the cheap invariants), so ``no`` is
answered alone and is the answer of a quarter of the problems: a constant ``no`` scores 0.25 (the
kit's certificate-free bound). Version 2 took a bare yes or no on balanced problems, which a coin
paid half the time.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.graphs.common import edge_list
from palaestra.generators.graphs import letter_labels, random_connected
from palaestra.verifiers.choices import read_yes_no
from palaestra.verifiers.normalize import read_answer, strip_wrappers, unify

ISOMORPHIC_SHARE = 0.75  # the certificate-free "no" answers the rest: a constant "no" scores 0.25
# a letter may be quoted, as in a Python dict: {'A': 3, 'B': 0}
_PAIR = re.compile(r"(?P<quote>['\"]?)([A-Za-z]{1,2})(?P=quote)\s*(?:=|:|->|→|↦|maps to)\s*(\d{1,3})")
_SEPARATOR = re.compile(r"\s*[,;\n]?\s*")
_YES_LEAD = re.compile(r"^(?:\s*(?:yes|(?:they are |g and h are )?isomorphic|(?:the |a |one )?renaming(?: is)?)\b"
                       r"[\s,.:;!—-]*)+", re.IGNORECASE)
_NO_WORDS = ("no", "not isomorphic", "no, not isomorphic", "they are not isomorphic", "no, they are not isomorphic",
             "no, g and h are not isomorphic", "g and h are not isomorphic", "no, they are not")
_YES_WORDS = ("yes", "isomorphic", "they are isomorphic", "yes, they are isomorphic")


@register
class Isomorphism(Task):
    id = "graphs/isomorphism"
    family = "graphs"
    description = "Decide whether two graphs with the same degree sequence are isomorphic."
    tags = ("graphs", "isomorphism", "certificates")
    version = 3
    max_answer_chars = 600
    certificate_free = ("no",)
    bare_verdicts = ("yes",)

    @dataclass(frozen=True)
    class Config:
        nodes: int
        edges: int
        same_triangles: bool  # negatives also match in their number of triangles
        regular: bool  # G is 3-regular (edges = 3 * nodes / 2), so neighbour degrees say nothing

    presets = (
        Config(nodes=6, edges=7, same_triangles=False, regular=False),
        Config(nodes=8, edges=12, same_triangles=True, regular=True),
        Config(nodes=10, edges=15, same_triangles=True, regular=True),
        Config(nodes=12, edges=18, same_triangles=True, regular=True),
        Config(nodes=14, edges=21, same_triangles=True, regular=True),
    )
    # Capped where telling non-isomorphic regular graphs apart at generation stays well under a second.
    growth = Growth(limits={"nodes": 40, "edges": 60})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        import networkx as nx

        n, m = config.nodes, config.edges
        isomorphic = rng.random() < ISOMORPHIC_SHARE

        def draw() -> tuple[list[list[int]], list[list[int]]] | None:
            if config.regular:
                g = nx.random_regular_graph(3, n, seed=rng.randrange(2**32))
                if not nx.is_connected(g):
                    return None
                first = sorted(sorted(e) for e in g.edges)
            else:
                first = sorted([u, v] for u, v, _ in random_connected(rng, n, m).edges)
                g = nx.Graph(first)
            if isomorphic:
                return first, first
            h = g.copy()
            try:
                nx.double_edge_swap(h, nswap=rng.randint(1, 3), max_tries=200, seed=rng.randrange(2**32))
            except nx.NetworkXException:
                return None
            if not nx.is_connected(h):
                return None
            if config.same_triangles and sum(nx.triangles(g).values()) != sum(nx.triangles(h).values()):
                return None  # (checked before the isomorphism test: it is far cheaper and rejects most swaps)
            if _distance_profiles(g) == _distance_profiles(h) and nx.is_isomorphic(g, h):
                return None  # (different profiles already prove the graphs different, far faster than VF2)
            return first, sorted(sorted(e) for e in h.edges)

        first, second = retry(draw, what="a pair of graphs of the drawn kind")
        relabel = list(range(n))
        rng.shuffle(relabel)
        letters = letter_labels(n)
        renamed = sorted(sorted([letters[relabel[u]], letters[relabel[v]]]) for u, v in second)
        prompt = (
            f"Graph G has nodes 0 to {n - 1} and these {len(first)} edges:\n{edge_list(first)}\n\n"
            f"Graph H has nodes {letters[0]} to {letters[-1]} and these {len(renamed)} edges:\n"
            + ", ".join(f"{a}-{b}" for a, b in renamed)
            + "\n\nAre G and H isomorphic, that is, can the nodes of H be renamed as 0 to "
            f"{n - 1} so that it has exactly the edges of G? If they are, answer with such a renaming, one number "
            f"per letter, written like: {letters[0]} = 2, {letters[1]} = 0, ... If they are not, answer with the "
            "single word no."
        )
        renaming = ", ".join(f"{letters[relabel[u]]} = {u}" for u in sorted(range(n), key=lambda u: relabel[u]))
        return Problem(prompt=prompt, answer=f"yes: {renaming}" if isomorphic else "no",
                       data={"first": first, "second": renamed, "isomorphic": isomorphic})

    def difficulty(self, problem: Problem) -> float:
        """Nodes plus edges of one graph, plus the nodes that degrees alone do not tell apart, plus the
        diameter (how far a renaming's consequences reach)."""
        from palaestra.envs.graphs._measures import diameter

        nodes = {v for e in problem.data["first"] for v in e}
        degrees = [sum(v in e for e in problem.data["first"]) for v in nodes]
        alike = sum(degrees.count(d) > 1 for d in degrees)
        return float(len(nodes) + len(problem.data["first"])) + alike / 2 + diameter(len(nodes), problem.data["first"])

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if not isinstance(answer, str) or len(answer) > self.max_answer_chars:
            return Verdict.unparsed("answer too long")
        data = problem.data
        n = len({v for edge in data["first"] for v in edge})
        if not any(ch.isdigit() for ch in answer):
            said = read_yes_no(answer, yes=_YES_WORDS, no=_NO_WORDS)
            if said is False:
                return Verdict.judge(not data["isomorphic"], "the graphs are isomorphic: give a renaming")
            if said is True:
                return Verdict.wrong("a yes needs the renaming of H's nodes")
            return Verdict.unparsed("expected a renaming such as A = 2, B = 0, ... or no")
        renaming = read_answer(unify(answer), lambda text: _read_renaming(text, letter_labels(n)))
        if renaming is None:
            return Verdict.unparsed("expected a renaming of every letter to a number from 0, such as A = 2, B = 0")
        if sorted(renaming.values()) != list(range(n)):
            return Verdict.wrong("the renaming must use every number from 0 once")
        renamed = sorted(sorted([renaming[a], renaming[b]]) for a, b in data["second"])
        return Verdict.judge(renamed == data["first"], "that renaming does not turn H's edges into G's")

    def spellings(self, problem: Problem) -> list[str]:
        if problem.answer == "no":
            return [*super().spellings(problem), "No.", "**NO**", "no, they are not isomorphic"]
        pairs = _pairs(problem.answer)
        return [*super().spellings(problem), "Yes: " + ", ".join(f"{a}: {v}" for a, v in reversed(pairs)),
                "\n".join(f"{a} -> {v}" for a, v in pairs), "{" + ", ".join(f"{a}={v}" for a, v in pairs) + "}",
                "yes, " + "; ".join(f"{a.lower()} → {v}" for a, v in pairs)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        letters = letter_labels(len({v for edge in problem.data["first"] for v in edge}))
        identity = ", ".join(f"{letter} = {i}" for i, letter in enumerate(letters))
        if problem.answer == "no":
            return ["yes", identity if self.verify(problem, identity).reward == 0 else "yes.", "maybe"]
        pairs = _pairs(problem.answer)
        wrong = ["no", "yes", ", ".join(f"{a} = {v}" for a, v in pairs[:-1]),
                 ", ".join(f"{a} = {v}" for a, v in pairs) + ". No."]
        for i, j in ((a, b) for a in range(len(pairs)) for b in range(a + 1, len(pairs))):
            swapped = [list(pair) for pair in pairs]
            swapped[i][1], swapped[j][1] = swapped[j][1], swapped[i][1]
            text = ", ".join(f"{a} = {v}" for a, v in swapped)
            if self.verify(problem, text).reward == 0:  # two images swapped: not an automorphism's
                wrong.append(text)
                break
        return wrong


def _pairs(answer: str | None) -> list[list[str]]:
    """``[[letter, number], ...]`` of a reference answer ``yes: A = 2, B = 0, ...``."""
    return [pair.split(" = ") for pair in (answer or "").removeprefix("yes: ").split(", ")]


def _read_renaming(text: str, letters: list[str]) -> dict[str, int] | None:
    """``{letter: number}`` from ``A = 2, B = 0, ...`` (``:``, ``->``, ``→``; after an optional ``yes``; in
    braces); every letter once, nothing else. None if unreadable."""
    text = _YES_LEAD.sub("", strip_wrappers(text).strip(), count=1).strip().rstrip(".")
    if text[:1] in "{[(" and text[-1:] in "}])":
        text = text[1:-1].strip()
    renaming: dict[str, int] = {}
    position = 0
    for _ in range(len(letters) + 1):
        match = _PAIR.match(text, position)
        if match is None:
            break
        letter = match.group(2).upper()
        if letter not in letters or letter in renaming:
            return None
        renaming[letter] = int(match.group(3))
        position = _SEPARATOR.match(text, match.end()).end()  # type: ignore[union-attr]
    if position < len(text) or len(renaming) != len(letters):
        return None
    return renaming


def _distance_profiles(graph) -> list[tuple[int, ...]]:
    """Per node, its distances to every node, sorted; the list of them sorted: equal for isomorphic graphs."""
    import networkx as nx

    return sorted(tuple(sorted(nx.single_source_shortest_path_length(graph, v).values())) for v in graph)
