"""Answer a question about a generated causal DAG: d-separation or a backdoor adjustment set.

Two question kinds over a random DAG whose edges are listed in the prompt:

- "Are X and Y d-separated given Z?": ``yes`` (``true``, ``d-separated``), or ``no``
  followed by its certificate, a path between X and Y that Z leaves open (``no: X <- A1 ->
  Y``; arrows, when written, must match the graph; ``-`` or ``,`` between variables leaves
  the direction unsaid; either end may come first). The path must be simple, every
  non-collider on it outside Z, every collider in Z or an ancestor of a member of Z. A bare
  ``no`` is wrong, and ``yes`` next to a path is a hedge and is not read. ``yes`` has no
  short proof, so it is the certificate-free side: only 25% of these questions are
  separated (``SEPARATED_SHARE``; at 50% a constant ``yes`` scored 0.35-0.44 for no work).
  X and Y are never adjacent and Z is never empty. The questions come from matched pairs:
  for one graph, X, Y and size of Z, a yes-set and a no-set with the same cheap profile are
  found (how many parents, children, ancestors, descendants, confounders, colliders and
  mediators of X and Y Z holds, the edges in, out of and inside Z...; see
  ``_Bits.node_profiles``), and a biased coin picks which one is asked. So neither the
  graph nor those features of Z (:meth:`GraphQuery.surface_features`; "yes iff Z holds a
  parent of X or Y" scored 58-65% before) predict the answer. On levels 0-1's small graphs the
  path a blind ``no`` names was mostly open, so there (``past_guesses``) the pair is matched on X
  and Y and the size of Z only, and a connecting Z must block every shortest path between X and Y,
  every path of the next length and the shortest paths through a member of Z as a collider (and
  the longest paths where such a set exists): an open path must be looked for. Version 5 (levels
  0-1 on 7 variables, were 5 and 6): "no" with the shortest path, unchecked, 0.49/0.35 of all
  questions at levels 0-1 -> 0, and checking only that path (yes when it is blocked) 0.71/0.55 ->
  0.21/0.20, a constant ``yes``'s share; no other blind path does better than a random simple path
  plus 0.1 (the longest 0.17/0.10 against 0.11/0.08; 200 seeds).
- "Give a set satisfying the backdoor criterion for the effect of X on Y": any
  valid set is accepted (no descendant of X; it d-separates X and Y once the
  edges out of X are removed), written in any set notation the shared reader takes
  (``A3, H3``, ``S = {A3, H3}``, ``A3 and H3``, ``['A3', 'H3']``); the empty set is never
  valid for these problems. X's parents always form a valid set (the parent adjustment set), so
  up to version 3 naming them solved every backdoor question, and with ``yes`` on the d-separation
  ones that policy scored 0.59 at level 4. From level 2 (``hidden_causes``) X's parents are stated
  to be unmeasured and the set asked must be minimal (removing any one variable breaks it; the
  verifier checks both), and a question is redrawn while a cheap read of the graph is such a set
  (:func:`cheap_backdoor_sets`: Y's measured parents outside X's descendants, those of them that
  are ancestors of X, the measured common ancestors, the nearest measured ancestors of X).

Graph size and the size of the conditioning set grow with the level.

Generation speed: about 260 problems/s at level 4. A d-separation question needs a matched pair (a separated and an
open conditioning set with the same cheap profile), found by testing about 600 candidate sets for d-separation per
question (on bit masks, profiles packed into ints); the pairing is kept because without it the graph or surface features of Z predicted the answer.
From level 2 a backdoor question is also redrawn while a cheap set (:func:`cheap_backdoor_sets`) is a minimal valid
one, which raised level 2's generation time by about half (25 to 38 ms per problem on a busy machine).
Levels 0-1 take about 12 and 8 ms a problem: most graphs have no pair with a connecting set past the guesses.
"""

from __future__ import annotations

import itertools
import math
import random
import re
import string
from collections.abc import Callable
from dataclasses import dataclass

import networkx as nx

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.bits import set_bits
from palaestra.core.retry import retry
from palaestra.verifiers.choices import read_yes_no
from palaestra.verifiers.normalize import read_answer
from palaestra.verifiers.sets import read_set, read_token

MAX_PAIRS = 8  # pairs (X, Y) tried per graph
MAX_CANDIDATES = 200  # conditioning sets examined per pair (all of them when there are fewer)
COARSE_FEATURES = 2  # profile features compared in bins of two (see _matched_set)
PROFILE_FEATURES = 12  # the features of a node's profile (see _Bits.node_profiles)
_YES = ("yes", "true", "d-separated", "they are d-separated")
_NO = ("no", "false", "not d-separated", "d-connected", "they are d-connected", "they are not d-separated")
SEPARATED_SHARE = 0.25  # the certificate-free side (yes) is rare, so answering it blindly pays little
MAX_PATH_CHARS = 400
# "no", "No, they are d-connected", "no. An open path:" before the path that proves it (whitespace squeezed first)
_NO_HEAD = re.compile(
    r"(?:no|false|not d-separated|d-connected|they are d-connected|they are not d-separated)\b[ ,:;.!—–-]*"
    r"(?:(?:they are |they're )?(?:d-connected|not d-separated)\b[ ,:;.!—–-]*)?"
    r"(?:(?:via|through)\b ?|(?:an? |the |one )?(?:open |active |unblocked )?(?:path|trail)\b(?: is)? ?:? ?)?",
    re.IGNORECASE)
# "Open path: A1 <- B2 -> C3" without the verdict: a path named open is the no it proves
_OPEN_HEAD = re.compile(r"(?:an? |the |one )?(?:open|active|unblocked) (?:path|trail)\b(?: is)? ?:? ?", re.IGNORECASE)
_PATH = re.compile(r"[A-Za-z]\d(?: ?(?:<-|->|-|,) ?[A-Za-z]\d)+")
_PATH_TOKEN = re.compile(r"[A-Za-z]\d|<-|->|-|,")


@register
class GraphQuery(Task):
    id = "causal/graph_query"
    family = "causal"
    description = "Decide d-separation or find a backdoor adjustment set in a causal DAG."
    tags = ("causal", "graphs", "logic")
    max_answer_chars = 2_000
    version = 5  # v5: levels 0-1 on 7 variables, a connecting set blocks the paths a blind "no" names
    certificate_free = ("yes",)
    bare_verdicts = ("no",)

    @dataclass(frozen=True)
    class Config:
        nodes: int
        edge_probability: float  # chance of an edge between two variables, in topological order
        max_conditioning: int  # largest conditioning set in d-separation questions
        backdoor_share: float  # probability of a backdoor question instead of a d-separation one
        hidden_causes: bool = False  # backdoor questions: X's direct causes unmeasured, a minimal set asked
        # d-separation questions: a connecting Z blocks every path a blind "no" names (see _past_guesses_set)
        past_guesses: bool = False

    presets = (
        Config(nodes=7, edge_probability=0.3, max_conditioning=2, backdoor_share=0.3, past_guesses=True),
        Config(nodes=7, edge_probability=0.4, max_conditioning=2, backdoor_share=0.4, past_guesses=True),
        Config(nodes=8, edge_probability=0.35, max_conditioning=2, backdoor_share=0.5, hidden_causes=True),
        Config(nodes=10, edge_probability=0.3, max_conditioning=3, backdoor_share=0.5, hidden_causes=True),
        Config(nodes=13, edge_probability=0.28, max_conditioning=4, backdoor_share=0.5, hidden_causes=True),
    )
    bounded = "past the presets its generation nears the 1 s CPU bound (928 ms at level 9 with one node per level)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        backdoor = rng.random() < config.backdoor_share
        want_separated = rng.random() < SEPARATED_SHARE

        def draw() -> tuple[nx.DiGraph, dict] | None:
            graph = _random_dag(rng, config)
            if backdoor:
                question = _backdoor_question(rng, graph, config.hidden_causes)
            else:
                question = _dsep_question(rng, graph, config, want_separated)
            return None if question is None else (graph, question)

        graph, question = retry(draw, what="a graph with a question of the asked kind")
        nodes = list(graph.nodes)
        edges = sorted([u, v] for u, v in graph.edges)
        description = (
            f"A causal model is a directed acyclic graph over the variables {', '.join(sorted(nodes))}.\n"
            "Its directed edges (cause -> effect) are:\n" + "\n".join(f"{u} -> {v}" for u, v in edges) + "\n\n"
        )
        text, answer = question.pop("text"), question.pop("answer")
        return Problem(prompt=description + text, answer=answer, data={"nodes": nodes, "edges": edges, **question})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if len(answer) > self.max_answer_chars:
            return Verdict.unparsed("answer too long")
        if problem.data["kind"] == "dsep":
            return _verify_dsep(problem, answer)
        return _verify_backdoor(problem, answer)

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def parents_or_yes(problem: Problem) -> str:
            if problem.data["kind"] == "dsep":
                return "yes"
            return ", ".join(sorted(u for u, v in problem.data["edges"] if v == problem.data["x"])) or "none"

        return {"yes, or the parents of X (the parent adjustment set)": parents_or_yes}

    def difficulty(self, problem: Problem) -> float:
        """The graph a solver searches (variables plus edges) plus the conditioning set it tracks."""
        return float(len(problem.data["nodes"]) + len(problem.data["edges"]) + len(problem.data.get("z", [])))

    def spellings(self, problem: Problem) -> list[str]:
        if problem.data["kind"] == "dsep":
            if problem.data["separated"]:
                return [*super().spellings(problem), "Yes", "YES.", "true", r"\boxed{yes}", "**Yes**",
                        "Yes.", "d-separated"]
            path = _path_of(problem.answer or "")
            return [*super().spellings(problem), "No: " + " - ".join(path), "no: " + " - ".join(reversed(path)),
                    "No, they are d-connected: " + ", ".join(path), "No. Open path: " + " - ".join(path) + ".",
                    "**no**: " + " - ".join(n.lower() for n in path), r"\boxed{no: " + " - ".join(path) + "}"]
        names = (problem.answer or "").split(", ")
        return [*super().spellings(problem), "S = {" + ", ".join(names) + "}", " and ".join(names),
                "{" + ", ".join(reversed(names)) + "}", "[" + ", ".join(f"'{n}'" for n in names) + "]",
                ", ".join(n.lower() for n in names), r"\{" + ", ".join(names) + r"\}",
                ", ".join(names) + "."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        if problem.data["kind"] == "dsep":
            graph = _graph(problem)
            x, y = problem.data["x"], problem.data["y"]
            some_path = next(nx.all_simple_paths(graph.to_undirected(as_view=True), x, y), [x, y])
            if problem.data["separated"]:
                return ["no", "No.", "no: " + " - ".join(some_path), "yes or no", "maybe", "yes, no wait, no"]
            path = _path_of(problem.answer or "")
            wrong = ["yes", "Yes.", "no", "No.", "yes or no", f"yes: {' - '.join(path)}",
                     f"{problem.answer}. Or yes.", f"{problem.answer}, no wait, yes", "no: " + " - ".join(path[:-1])]
            if len(path) > 2:
                wrong.append("no: " + " - ".join([path[0], *path[2:]]))  # skips a variable: not a path
            return wrong
        graph = _graph(problem)
        x, y = problem.data["x"], problem.data["y"]
        child = rng.choice(sorted(graph.successors(x)))
        gold = sorted(_answer_set(problem.answer or "", graph) or [])
        wrong = ["none", "∅", ", ".join(sorted(set(gold) | {child})), ", ".join(sorted(set(gold) | {x})),
                 ", ".join(gold) + " or " + y, f"S = {{{', '.join(gold)}, {y}}}"]
        hidden = set(problem.data.get("hidden", ()))
        if hidden:
            wrong.append(", ".join(sorted(hidden)))  # X's parents: a valid set, but unmeasured
            spare = sorted(set(graph.nodes) - nx.descendants(graph, x) - hidden - {x, y} - set(gold))
            if spare:
                wrong.append(", ".join(sorted({*gold, spare[0]})))  # still valid, not minimal
        return wrong

    def surface_features(self, problem: Problem) -> dict[str, float]:
        """Cheap cues a lazy policy could read off a d-separation question without tracing paths
        (issue #9: "yes iff Z holds a parent of X or Y" scored 58-65%). Backdoor questions have none."""
        if problem.data["kind"] != "dsep":
            return {}
        graph = _graph(problem)
        x, y, z = problem.data["x"], problem.data["y"], set(problem.data["z"])
        parents = set(graph.predecessors(x)) | set(graph.predecessors(y))
        children = set(graph.successors(x)) | set(graph.successors(y))
        ancestors_x, ancestors_y = nx.ancestors(graph, x), nx.ancestors(graph, y)
        descendants_x, descendants_y = nx.descendants(graph, x), nx.descendants(graph, y)
        mediators = (descendants_x & ancestors_y) | (descendants_y & ancestors_x)
        return {
            "Z holds a parent of X or Y": float(bool(z & parents)),
            "parents of X or Y in Z": float(len(z & parents)),
            "children of X or Y in Z": float(len(z & children)),
            "confounders (common ancestors) in Z": float(len(z & ancestors_x & ancestors_y)),
            "colliders (common descendants) in Z": float(len(z & descendants_x & descendants_y)),
            "mediators in Z": float(len(z & mediators)),
            "size of Z": float(len(z)),
            "edges into Z": float(sum(graph.in_degree(n) for n in z)),
            "edges out of Z": float(sum(graph.out_degree(n) for n in z)),
            "edges between Z and X or Y": float(sum(graph.has_edge(n, m) + graph.has_edge(m, n)
                                                    for n in z for m in (x, y))),
            "edges inside Z": float(sum(graph.has_edge(n, m) for n in z for m in z)),
            "a directed path joins X and Y": float(y in descendants_x or x in descendants_y),
            "X and Y share an ancestor": float(bool(ancestors_x & ancestors_y)),
            "degree of X plus Y": float(graph.degree(x) + graph.degree(y)),
            "edges": float(graph.number_of_edges()),
        }


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
    """A non-adjacent pair X, Y and a non-empty conditioning set Z whose d-separation equals ``want``, or None.

    The question is drawn from a matched pair: for one pair X, Y and one size of Z, only
    a profile of Z (:meth:`_Bits.node_profiles`) that holds both a separating and a connecting
    set is used, and a coin picks the side. So the graph, X, Y, the size of Z and every
    feature in the profile carry no information about the answer. With ``past_guesses`` the
    pair is matched by :func:`_past_guesses_set` instead.
    """
    bits = _Bits(graph)
    n = len(bits.names)
    pairs = [(a, b) for a, b in itertools.combinations(range(n), 2) if not bits.adjacent(a, b)]
    rng.shuffle(pairs)
    size = rng.randint(1, min(config.max_conditioning, n - 2))
    for a, b in pairs[:MAX_PAIRS]:
        z_indices = (_past_guesses_set(rng, bits, a, b, size, want) if config.past_guesses
                     else _matched_set(rng, bits, a, b, size, want))
        if z_indices is not None:
            break
    else:
        return None
    x, y = (bits.names[a], bits.names[b]) if rng.random() < 0.5 else (bits.names[b], bits.names[a])
    z = sorted(bits.names[i] for i in z_indices)
    text = (
        f"Are {x} and {y} d-separated given {{{', '.join(z)}}}?\n"
        "Answer yes if every path between them is blocked by that set. Otherwise answer no followed by one path "
        "between them that the set leaves open, from one to the other, with arrows as in the graph, written like: "
        f"no: {x} <- V1 -> W2 -> {y}"
    )
    answer = "yes" if want else "no: " + _path_text(graph, _open_path(graph, x, y, set(z)))
    return {"kind": "dsep", "x": x, "y": y, "z": z, "separated": want, "text": text, "answer": answer}


def _matched_set(rng: random.Random, bits: _Bits, a: int, b: int, size: int, want: bool) -> tuple[int, ...] | None:
    """A conditioning set for the pair (a, b) whose d-separation is ``want``, taken from the first
    profile (in a random order of candidates) that holds both a separating and a connecting set.

    A set's profile: the sum of its members' :meth:`_Bits.node_profiles` and the edges inside it.
    """
    others = [i for i in range(len(bits.names)) if i not in (a, b)]
    if math.comb(len(others), size) <= MAX_CANDIDATES:
        candidates = list(itertools.combinations(others, size))
        rng.shuffle(candidates)
    else:
        candidates = [tuple(sorted(rng.sample(others, size))) for _ in range(MAX_CANDIDATES)]
    packed = bits.node_profiles(a, b)
    exact = PROFILE_FEATURES - COARSE_FEATURES  # the profile keeps these sums exact, the coarse ones in bins of two
    exact_part = (1 << 8 * exact) - 1
    children, ancestors = bits.children, bits.ancestors
    by_profile: dict[tuple[int, ...], dict[bool, list[tuple[int, ...]]]] = {}
    for z in candidates:
        mask = total = closure = 0
        for i in z:
            mask |= 1 << i
            total += packed[i]
            closure |= ancestors[i]
        inside = sum((children[i] & mask).bit_count() for i in z)  # edges inside Z
        # the last two (how many ancestors and descendants the members have) in bins of two:
        # exact equality of these sums would make matched pairs rare on big graphs
        profile = (total & exact_part, *((total >> 8 * k & 255) // 2 for k in range(exact, PROFILE_FEATURES)), inside)
        sides = by_profile.setdefault(profile, {True: [], False: []})
        sides[bits.separated(a, b, mask, closure | mask)].append(z)
        if sides[True] and sides[False]:
            return rng.choice(sides[want])
    return None


def _past_guesses_set(rng: random.Random, bits: _Bits, a: int, b: int, size: int, want: bool) -> tuple[int, ...] | None:
    """A conditioning set for the pair (a, b) whose d-separation is ``want``, when the pair has a separating set and
    a connecting one that blocks every path a blind ``no`` would name (:func:`_guesses`), so the pair tells nothing.
    A connecting set is one of the latter."""
    others = [i for i in range(len(bits.names)) if i not in (a, b)]
    sides: dict[bool, list[tuple[int, ...]]] = {True: [], False: []}
    for z in itertools.combinations(others, size):
        sides[bits.separated(a, b, sum(1 << i for i in z))].append(z)
    if not sides[True] or not sides[False]:
        return None
    paths = sorted(_simple_paths(bits, a, b), key=len)
    unguessed = [z for z in sides[False] if all(_blocks(bits, path, z) for path in _guesses(bits, paths, z))]
    if not unguessed:
        return None
    if want:
        return rng.choice(sides[True])
    # the longest paths too where the pair allows it (required, they would leave too few seven-variable graphs)
    longest = [z for z in unguessed if all(_blocks(bits, path, z) for path in paths if len(path) == len(paths[-1]))]
    return rng.choice(longest or unguessed)


def _simple_paths(bits: _Bits, a: int, b: int) -> list[tuple[int, ...]]:
    """Every simple path between nodes a and b of the graph's skeleton."""
    neighbours = [p | c for p, c in zip(bits.parents, bits.children)]
    found: list[tuple[int, ...]] = []
    stack: list[tuple[int, ...]] = [(a,)]
    while stack:
        path = stack.pop()
        for node in set_bits(neighbours[path[-1]]):
            if node == b:
                found.append((*path, b))
            elif node not in path:
                stack.append((*path, node))
    return found


def _blocks(bits: _Bits, path: tuple[int, ...], z: tuple[int, ...]) -> bool:
    """Whether the set ``z`` blocks ``path`` (node indices): a non-collider in it, or a collider with neither
    itself nor a descendant in it."""
    mask = sum(1 << i for i in z)
    for before, node, after in zip(path, path[1:], path[2:]):
        collider = bits.parents[node] >> before & 1 and bits.parents[node] >> after & 1
        if collider and not (1 << node | bits.descendants[node]) & mask or not collider and mask >> node & 1:
            return True
    return False


def _guesses(bits: _Bits, paths: list[tuple[int, ...]], z: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The paths (``paths``: all simple paths between X and Y, shortest first) a blind ``no`` names for the set
    ``z``, whichever of equal length it picks: the shortest, the next shortest, the longest, and the shortest that
    pass through a member of Z as a collider (a conditioned collider opens a path)."""
    lengths = sorted({len(path) for path in paths})[:2]
    through = [path for path in paths if any(node in z and bits.parents[node] >> before & 1
                                             and bits.parents[node] >> after & 1
                                             for before, node, after in zip(path, path[1:], path[2:]))]
    return [path for path in paths if len(path) in lengths] + [path for path in through if len(path) == len(through[0])]


class _Bits:
    """A DAG as bit masks, for many d-separation questions on one graph.

    d-separation: X and Y are d-separated by Z exactly when they are disconnected in the
    moral graph of the ancestral set of {X, Y} and Z once Z is removed (Lauritzen's criterion).
    """

    def __init__(self, graph: nx.DiGraph) -> None:
        self.names = list(graph.nodes)
        index = {name: i for i, name in enumerate(self.names)}
        self.parents = [sum(1 << index[p] for p in graph.predecessors(name)) for name in self.names]
        self.children = [sum(1 << index[c] for c in graph.successors(name)) for name in self.names]
        self.ancestors = _closure(self.parents)  # bit by bit: networkx's searches per node cost more
        self.descendants = _closure(self.children)
        self.in_degree = [m.bit_count() for m in self.parents]
        self.out_degree = [m.bit_count() for m in self.children]
        # per node, the profile's features that do not depend on X and Y (bytes 8-11, see node_profiles)
        self.counts = [self.in_degree[i] << 64 | self.out_degree[i] << 72 | self.ancestors[i].bit_count() << 80
                       | self.descendants[i].bit_count() << 88 for i in range(len(self.names))]
        # per node, (child's bit, the child's parents): the moral graph's marriages, read without bit scans
        self.married = [tuple((1 << c, self.parents[c]) for c in set_bits(m)) for m in self.children]

    def adjacent(self, a: int, b: int) -> bool:
        return bool((self.parents[a] | self.children[a]) >> b & 1)

    def separated(self, a: int, b: int, z: int, z_ancestral: int | None = None) -> bool:
        """Whether Z (a mask) d-separates nodes a and b: a search of the moral graph, built only where it reaches.
        ``z_ancestral``, when the caller has it, is Z with its members' ancestors."""
        if z_ancestral is None:
            z_ancestral = z
            for i in set_bits(z):
                z_ancestral |= self.ancestors[i]
        keep = self.ancestors[a] | self.ancestors[b] | 1 << a | 1 << b | z_ancestral
        parents, children, married = self.parents, self.children, self.married
        allowed, reached, waiting = keep & ~z, 1 << a, 1 << a
        while waiting:
            low = waiting & -waiting
            waiting ^= low
            node = low.bit_length() - 1
            neighbours = parents[node] | children[node] & keep  # parents are kept: the set is ancestral
            for child, its_parents in married[node]:
                if keep & child:
                    neighbours |= its_parents  # married parents of a kept child
            new = neighbours & allowed & ~reached
            if new >> b & 1:
                return False
            reached |= new
            waiting |= new
        return True

    def node_profiles(self, a: int, b: int) -> list[int]:
        """Per node, what a lazy policy could count without tracing paths when the node is in Z
        (a set's profile is the sum over its members): whether it is a parent, child, ancestor
        or descendant of X or Y, a common ancestor (confounder), a common descendant (collider)
        or on a directed path between them (mediator); its edges to X or Y, in and out; how many
        ancestors and descendants it has. Packed into one int, feature k in byte k (:data:`PROFILE_FEATURES`
        of them), so a set's sums are one addition (a sum over Z stays under 256: at most nodes x nodes)."""
        ancestors, descendants = self.ancestors[a] | self.ancestors[b], self.descendants[a] | self.descendants[b]
        mediators = (self.descendants[a] & self.ancestors[b]) | (self.descendants[b] & self.ancestors[a])
        features = (self.parents[a] | self.parents[b], self.children[a] | self.children[b], ancestors, descendants,
                    self.ancestors[a] & self.ancestors[b], self.descendants[a] & self.descendants[b], mediators,
                    self.parents[a] | self.children[a], self.parents[b] | self.children[b])  # the last two: edges
        profiles = list(self.counts)
        for k, mask in enumerate(features):
            for i in set_bits(mask):
                profiles[i] += 1 << 8 * min(k, 7)  # an edge to X and one to Y both count in byte 7
        return profiles


def _closure(steps: list[int]) -> list[int]:
    """Per node, the nodes reached by one or more ``steps`` (bit masks of a DAG's parents or children)."""
    reached = list(steps)
    changed = True
    while changed:
        changed = False
        for node, mask in enumerate(reached):
            grown = mask
            for other in set_bits(mask):
                grown |= reached[other]
            if grown != mask:
                reached[node], changed = grown, True
    return reached


def _backdoor_question(rng: random.Random, graph: nx.DiGraph, hidden_causes: bool = False) -> dict | None:
    """A cause X, an effect Y among its descendants with an open backdoor path, and a minimal valid set.

    With ``hidden_causes`` X's parents are unmeasured (no set may hold them) and the set asked must be minimal;
    a question is skipped when a cheap read of the graph (Y's measured parents, the measured common ancestors,
    the nearest measured ancestors of X...) is already a minimal valid set, see :func:`cheap_backdoor_sets`."""
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
        hidden = set(graph.predecessors(x)) if hidden_causes else set()
        allowed = set(nodes) - descendants - {x} - hidden
        z = nx.find_minimal_d_separator(cut, {x}, {y}, restricted=allowed)
        if z is None:
            continue
        if hidden and any(_minimal_backdoor(cut, x, y, cheap) for cheap in cheap_backdoor_sets(graph, x, y, hidden)):
            continue
        text = (
            f"We want to estimate the causal effect of {x} on {y} by adjustment. A set S of variables "
            f"satisfies the backdoor criterion relative to ({x}, {y}) when (1) no variable in S is a "
            f"descendant of {x}, and (2) S blocks every path between {x} and {y} that starts with an "
            f"arrow into {x}.\n"
        )
        if hidden:
            text += (
                f"The variables {', '.join(sorted(hidden))} were not measured, so S may not contain them.\n"
                f"Give a minimal set S of measured variables satisfying the backdoor criterion relative to ({x}, "
                f"{y}): it satisfies the criterion and no smaller part of it does (removing any one variable breaks "
                "it). Write the variable names separated by commas, e.g. Q0, R0 (any such set is accepted)."
            )
        else:
            text += (
                f"Give a set S satisfying the backdoor criterion relative to ({x}, {y}): the variable names "
                "separated by commas, e.g. Q0, R0 (any valid set is accepted)."
            )
        question = {"kind": "backdoor", "x": x, "y": y, "text": text, "answer": ", ".join(sorted(z))}
        if hidden:
            question["hidden"] = sorted(hidden)
        return question
    return None


def cheap_backdoor_sets(graph: nx.DiGraph, x: str, y: str, hidden: set[str]) -> list[set[str]]:
    """Sets read off the graph without tracing paths, none of them X's parents (unmeasured): Y's measured parents
    that are not descendants of X, those of them that are ancestors of X, the measured common ancestors of X and
    Y, and the nearest measured ancestors of X (the parents of its unmeasured parents, and so on up)."""
    banned = nx.descendants(graph, x) | {x, y} | hidden
    parents_y = set(graph.predecessors(y)) - banned
    nearest: set[str] = set()
    stack, seen = sorted(hidden), set()
    while stack:
        node = stack.pop()
        if node not in seen:
            seen.add(node)
            for parent in graph.predecessors(node):
                (stack.append(parent) if parent in hidden else nearest.add(parent))
    return [parents_y, parents_y & nx.ancestors(graph, x), (nx.ancestors(graph, x) & nx.ancestors(graph, y)) - banned,
            nearest - banned]


def _minimal_backdoor(cut: nx.DiGraph, x: str, y: str, chosen: set[str]) -> bool:
    """Whether ``chosen`` (non-empty, outside X's descendants) blocks every backdoor path and no member can go."""
    return bool(chosen) and nx.is_d_separator(cut, {x}, {y}, chosen) and not any(
        nx.is_d_separator(cut, {x}, {y}, chosen - {v}) for v in chosen)


def _read_no_path(text: str) -> list[tuple[str, str]] | None:
    """``no`` and a path after it, as (separator before, variable) pairs; None when the text is not that."""
    flat = " ".join(text.replace("**", "").split())  # "**No**: ..." is bold markup on the verdict
    head = _NO_HEAD.match(flat) or _OPEN_HEAD.match(flat)
    if head is None or len(flat) > MAX_PATH_CHARS:
        return None
    rest = flat[head.end():].replace("→", "->").replace("←", "<-").replace("—", "-").replace("–", "-")
    if not _PATH.fullmatch(rest):
        return None
    tokens = _PATH_TOKEN.findall(rest)
    return [("", tokens[0].upper())] + [(tokens[i], tokens[i + 1].upper()) for i in range(1, len(tokens), 2)]


def _verify_dsep(problem: Problem, answer: str) -> Verdict:
    data = problem.data
    said = read_yes_no(answer, yes=_YES, no=_NO)
    if said is True:
        return Verdict.judge(data["separated"], "they are not d-separated")
    if said is False:
        return Verdict.wrong("a 'no' needs its proof: a path between them that the set leaves open")
    steps = read_answer(answer, _read_no_path)
    if steps is None:
        return Verdict.unparsed("answer yes, or no followed by a path the set leaves open, e.g. no: A1 <- B2 -> C3")
    graph = _graph(problem)
    path = [name for _, name in steps]
    unknown = [name for name in path if name not in graph]
    if unknown:
        return Verdict.wrong(f"{unknown[0]} is not a variable of the graph")
    if {path[0], path[-1]} != {data["x"], data["y"]}:
        return Verdict.wrong(f"the path must join {data['x']} and {data['y']}")
    if len(set(path)) != len(path):
        return Verdict.wrong("the path repeats a variable")
    for (separator, name), previous in zip(steps[1:], path):
        if separator == "->" and not graph.has_edge(previous, name) or \
                separator == "<-" and not graph.has_edge(name, previous) or \
                not (graph.has_edge(previous, name) or graph.has_edge(name, previous)):
            return Verdict.wrong(f"there is no edge {previous} {separator if separator in ('->', '<-') else '-'} {name}")
    blocked = _blocking(graph, path, set(data["z"]))
    return Verdict.judge(blocked is None, f"the set blocks that path at {blocked}")


def _blocking(graph: nx.DiGraph, path: list[str], z: set[str]) -> str | None:
    """The first variable at which ``z`` blocks ``path`` (a non-collider in z, or a collider with neither itself nor
    a descendant in z), or None when the path is open."""
    for before, node, after in zip(path, path[1:], path[2:]):
        collider = graph.has_edge(before, node) and graph.has_edge(after, node)
        if collider and not ({node} | nx.descendants(graph, node)) & z or not collider and node in z:
            return node
    return None


def _open_path(graph: nx.DiGraph, x: str, y: str, z: set[str]) -> list[str]:
    """A shortest path between x and y that z leaves open (there is one: they are d-connected given z)."""
    for path in nx.shortest_simple_paths(graph.to_undirected(), x, y):
        if _blocking(graph, path, z) is None:
            return path
    raise AssertionError("d-connected variables have an open path")


def _path_text(graph: nx.DiGraph, path: list[str]) -> str:
    return path[0] + "".join(f" {'->' if graph.has_edge(a, b) else '<-'} {b}" for a, b in zip(path, path[1:]))


def _path_of(answer: str) -> list[str]:
    """The variables of a reference ``no: A1 <- B2 -> C3``."""
    return [token for token in answer.removeprefix("no: ").split() if token not in ("->", "<-")]


def _verify_backdoor(problem: Problem, answer: str) -> Verdict:
    graph = _graph(problem)
    chosen = _answer_set(answer, graph)
    if chosen is None:
        return Verdict.unparsed("expected variable names separated by commas, e.g. A1, B2")
    x, y = problem.data["x"], problem.data["y"]
    unknown = sorted(chosen - set(graph.nodes))
    if unknown:
        return Verdict.wrong(f"unknown variable {unknown[0][:20]!r}")
    if chosen & {x, y}:
        return Verdict.wrong(f"the set must not contain {x} or {y}")
    if chosen & nx.descendants(graph, x):
        return Verdict.wrong(f"the set contains a descendant of {x}")
    hidden = set(problem.data.get("hidden", ()))
    if chosen & hidden:
        return Verdict.wrong(f"{sorted(chosen & hidden)[0]} was not measured")
    cut = _without_out_edges(graph, x)
    if not nx.is_d_separator(cut, {x}, {y}, chosen):
        return Verdict.wrong(f"the set leaves a backdoor path between {x} and {y} open")
    if hidden:
        needless = sorted(v for v in chosen if nx.is_d_separator(cut, {x}, {y}, chosen - {v}))
        if needless:
            return Verdict.wrong(f"the set is not minimal: it still blocks every backdoor path without {needless[0]}")
    return Verdict.right()


def _answer_set(answer: str, graph: nx.DiGraph) -> set[str] | None:
    """The variables named (spelled as in the graph when they are its variables; any case), an empty set
    for 'none', or None when unreadable."""
    canonical = {n.lower(): n for n in graph.nodes}

    def read_name(text: str) -> str | None:
        token = read_token(text.strip("'\"`"))
        return None if token is None else canonical.get(token.lower(), token)

    chosen = read_set(answer, read_name, allow_empty=True, duplicates="merge", space_separated=True, max_items=100)
    return None if chosen is None else set(chosen)


def _graph(problem: Problem) -> nx.DiGraph:
    graph = nx.DiGraph()
    graph.add_nodes_from(problem.data["nodes"])
    graph.add_edges_from(problem.data["edges"])
    return graph


def _without_out_edges(graph: nx.DiGraph, x: str) -> nx.DiGraph:
    cut = graph.copy()
    cut.remove_edges_from(list(graph.out_edges(x)))
    return cut
