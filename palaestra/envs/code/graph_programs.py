"""Graph algorithms as stdin/stdout programs in Python, C, C++ or JavaScript.

Templates (parameters vary the measure asked, the node numbering and the edge costs):

- **components** (union-find): number of connected components, the largest or smallest one, how
  many have at least / exactly K nodes;
- **reachability** (BFS): shortest number of edges from s to t, how many nodes lie within D
  steps of s, the farthest reachable distance, in a directed or undirected graph;
- **bipartite** (2-colouring): whether the graph's nodes split into two sides with every edge
  between the sides, answered with a generated pair of words;
- **shortest_paths** (Dijkstra): weighted directed distances with a toll per edge: the distance
  from the first to the last node, the sum of all distances from the first node, how many nodes
  are within a budget L;
- **spanning_tree** (Kruskal): minimum or maximum spanning tree weight, the bottleneck edge, the
  K heaviest edges of the minimum spanning tree;
- **dag_paths** (topological order): the longest path, the longest path from the first node, the
  number of paths from the first to the last node modulo M.

Each problem is multi-test (T graphs in one input, one answer line each). In a bipartite problem the tests
beyond the example hold both words: a program printing the example's answers on its tests and the yes-word on
every other test passed 0.115 of level 0 and 0.09 of level 1 (35-49% of the bipartite problems), now none. Levels
add templates, grow the graphs and the number of tests. The reference programs (every language) are rendered
from the same parameters (templates/graph_programs.txt); expected answers come from the Python one,
run in-process.

Generation speed: about 500 problems/s at level 4 on this 2-core machine. Each problem draws 8 test
graphs of up to 80 nodes, formats them as the program's input, and computes every expected output by
running the Python reference program in-process on each test; the large tests are what separate efficient
solutions, and running the one reference keeps the algorithm written once.
"""

from __future__ import annotations

import dataclasses
import random
import re
from typing import Any

from palaestra.core import Problem, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.code._polyglot import (
    SizedConfig,
    StdioPolyglotTask,
    StdioTemplate,
    _example_indices,
    language_texts,
    stdio_sources,
)
from palaestra.envs.code.templates import ProgramTexts

PRIMES = (10007, 65537, 999983, 1000003, 998244353, 1000000007)

CODE = ProgramTexts("graph_programs")


def _numbering(base: int) -> str:
    return f"Nodes are numbered {base} to n{'' if base == 1 else ' - 1'}."


def _edges(rng: random.Random, n: int, m: int, directed: bool) -> list[list[int]]:
    """``m`` distinct edges (no self-loops) between nodes 0..n-1."""
    seen: set[tuple[int, int]] = set()
    edges = []
    for _ in range(m * 4):
        if len(edges) == m:
            break
        u, v = rng.randrange(n), rng.randrange(n)
        key = (u, v) if directed else (min(u, v), max(u, v))
        if u != v and key not in seen:
            seen.add(key)
            edges.append([u, v])
    return edges


def _graph_lines(n: int, edges: list[list[int]], base: int, head: list[int] | None = None) -> str:
    first = " ".join(map(str, [n, len(edges), *(head or [])]))
    return first + "\n" + "".join(" ".join(str(x + base) if i < 2 else str(x) for i, x in enumerate(e)) + "\n"
                                  for e in edges)


class GraphTemplate(StdioTemplate):
    """A graph problem: by default a test is its graph's lines (see :func:`_graph_lines`)."""

    def case_input(self, case: Any, p: dict[str, Any]) -> str:
        return _graph_lines(case["n"], case["edges"], p["base"])


# --- components -------------------------------------------------------------------------------

class Components(GraphTemplate):
    name = "components"
    tier = 1
    MEASURES = {
        "count": "the number of connected components",
        "largest": "the number of nodes in the largest connected component",
        "smallest": "the number of nodes in the smallest connected component",
        "at_least": "how many connected components have at least {k} nodes",
        "exactly": "how many connected components have exactly {k} nodes",
    }

    def params(self, rng: random.Random) -> dict[str, Any]:
        measure = rng.choice(list(self.MEASURES))
        k = rng.randint(2, 6) if measure == "at_least" else rng.randint(1, 4) if measure == "exactly" else 0
        return {"measure": measure, "k": k, "base": rng.randint(0, 1)}

    def statement(self, p: dict[str, Any]) -> str:
        return (
            "Each test is an undirected graph: a line with n (nodes) and m (edges), then m lines \"u v\", one "
            f"edge each. {_numbering(p['base'])} For each test print "
            f"{self.MEASURES[p['measure']].format(k=p['k'])} (an isolated node is a component of 1 node)."
        )

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        n = rng.randint(max(2, size // 2), size)
        return {"n": n, "edges": _edges(rng, n, rng.randint(0, n), False)}

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        base, k, measure = p["base"], p["k"], p["measure"]
        py_fold = {"count": "ans += 1", "largest": "ans = max(ans, s)", "smallest": "ans = min(ans, s)",
                   "at_least": f"ans += s >= {k}", "exactly": f"ans += s == {k}"}[measure]
        c_fold = {"count": "ans += 1;", "largest": "if (s > ans) ans = s;", "smallest": "if (s < ans) ans = s;",
                  "at_least": f"ans += s >= {k};", "exactly": f"ans += s == {k};"}[measure]
        js_fold = {"count": "ans += 1;", "largest": "ans = Math.max(ans, s);", "smallest": "ans = Math.min(ans, s);",
                   "at_least": f"ans += s >= {k} ? 1 : 0;", "exactly": f"ans += s === {k} ? 1 : 0;"}[measure]
        init = "n + 1" if measure == "smallest" else "0"
        return stdio_sources(CODE, "Components", p,
                             base=base, init=init, py_fold=py_fold, c_fold=c_fold, js_fold=js_fold)


# --- reachability (BFS) -----------------------------------------------------------------------

class Reachability(GraphTemplate):
    name = "reachability"
    pinned = ("d",)
    tier = 2

    def params(self, rng: random.Random) -> dict[str, Any]:
        measure = rng.choice(["distance", "within", "farthest"])
        return {"measure": measure, "d": rng.randint(1, 4) if measure == "within" else 0,
                "directed": rng.random() < 0.5, "base": rng.randint(0, 1)}

    def statement(self, p: dict[str, Any]) -> str:
        kind = "a directed graph (edge \"u v\" goes from u to v)" if p["directed"] else "an undirected graph"
        head = "n, m, s and t" if p["measure"] == "distance" else "n, m and s"
        asked = {
            "distance": "the smallest number of edges on a path from s to t (0 when s = t), or -1 if t cannot "
                        "be reached from s",
            "within": f"how many nodes can be reached from s using at most {p['d']} edges (s itself included)",
            "farthest": "the largest, over all nodes reachable from s, of the smallest number of edges needed to "
                        "reach them (0 when s reaches no other node)",
        }[p["measure"]]
        return (f"Each test is {kind}: a line with {head} (n nodes, m edges), then m lines \"u v\", one edge "
                f"each. {_numbering(p['base'])} For each test print {asked}.")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        n = rng.randint(max(2, size // 2), size)
        m = rng.randint(n // 2, n + n // 2)
        return {"n": n, "edges": _edges(rng, n, m, p["directed"]), "s": rng.randrange(n), "t": rng.randrange(n)}

    def case_input(self, case: Any, p: dict[str, Any]) -> str:
        head = [case["s"] + p["base"]] + ([case["t"] + p["base"]] if p["measure"] == "distance" else [])
        return _graph_lines(case["n"], case["edges"], p["base"], head)

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        base, d, measure = p["base"], p["d"], p["measure"]
        reverse_py = "" if p["directed"] else "\n        adjacency[v].append(u)"
        reverse_c = "" if p["directed"] else " add_edge(v, u);"
        reverse_js = "" if p["directed"] else " adjacency[v].push(u);"
        read_t = {"python": f"t = next_int() - {base}", "c": f"int t = (int)next_int() - {base};",
                  "javascript": f"const t = nextInt() - {base};"}
        if measure != "distance":
            read_t = {k: "" for k in read_t}
        py_ans = {"distance": "dist[t]", "within": f"sum(1 for x in dist if 0 <= x <= {d})",
                  "farthest": "max(dist)"}[measure]
        c_ans = {"distance": "ans = dist[t];",
                 "within": f"for (int x = 0; x < n; x++) ans += dist[x] >= 0 && dist[x] <= {d};",
                 "farthest": "for (int x = 0; x < n; x++) if (dist[x] > ans) ans = dist[x];"}[measure]
        js_ans = {"distance": "dist[t]", "within": f"dist.filter((x) => x >= 0 && x <= {d}).length",
                  "farthest": "Math.max(...dist)"}[measure]
        return stdio_sources(CODE, "Reachability", p, imports="from collections import deque",
                             base=base, read_t=read_t, reverse_py=reverse_py, py_ans=py_ans, reverse_c=reverse_c,
                             c_ans=c_ans, reverse_js=reverse_js, js_ans=js_ans)


# --- bipartite --------------------------------------------------------------------------------

class Bipartite(GraphTemplate):
    name = "bipartite"
    tier = 2
    WORDS = (("YES", "NO"), ("BIPARTITE", "NOT_BIPARTITE"), ("POSSIBLE", "IMPOSSIBLE"), ("TWO", "MORE"),
             ("SPLIT", "CLASH"), ("OK", "ODD"), ("Yes", "No"), ("TRUE", "FALSE"), ("EVEN", "ODD_CYCLE"),
             ("1", "0"), ("GOOD", "BAD"), ("PASS", "FAIL"))

    def params(self, rng: random.Random) -> dict[str, Any]:
        yes, no = rng.choice(self.WORDS)
        return {"yes": yes, "no": no, "base": rng.randint(0, 1)}

    def statement(self, p: dict[str, Any]) -> str:
        return (
            "Each test is an undirected graph: a line with n (nodes) and m (edges), then m lines \"u v\", one "
            f"edge each. {_numbering(p['base'])} For each test print {p['yes']} if the nodes can be split into "
            f"two groups so that every edge joins nodes of different groups, and {p['no']} otherwise."
        )

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        n = rng.randint(max(3, size // 2), max(3, size))
        side = [rng.randint(0, 1) for _ in range(n)]
        edges = [e for e in _edges(rng, n, rng.randint(n // 2, n + 2), False) if side[e[0]] != side[e[1]]]
        if rng.random() < 0.5:  # one edge inside a side: usually an odd cycle, decided by the reference
            same = [(u, v) for u in range(n) for v in range(u + 1, n) if side[u] == side[v]]
            if same:
                edges.append(list(rng.choice(same)))
        rng.shuffle(edges)
        return {"n": n, "edges": edges}

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        base, yes, no = p["base"], p["yes"], p["no"]
        return stdio_sources(CODE, "Bipartite", p, base=base, yes=yes, no=no)


# --- shortest paths (Dijkstra) ----------------------------------------------------------------

class ShortestPaths(GraphTemplate):
    name = "shortest_paths"
    pinned = ("toll",)
    tier = 3

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"measure": rng.choice(["distance", "total", "budget"]), "toll": rng.randint(0, 3),
                "base": rng.randint(0, 1)}

    def statement(self, p: dict[str, Any]) -> str:
        head = "n, m and L" if p["measure"] == "budget" else "n and m"
        toll = (f" Using an edge costs its weight plus a toll of {p['toll']}." if p["toll"]
                else " Using an edge costs its weight.")
        first, last = p["base"], "n" if p["base"] else "n - 1"
        asked = {
            "distance": f"the cheapest cost of a path from node {first} to node {last}, or -1 if there is none",
            "total": f"the sum, over every other node reachable from node {first}, of the cheapest cost of "
                     "reaching it",
            "budget": f"how many nodes (node {first} included) can be reached from node {first} at a cost of at "
                      "most L",
        }[p["measure"]]
        return (f"Each test is a directed graph with positive edge weights: a line with {head} (n nodes, m "
                f"edges), then m lines \"u v w\": an edge from u to v of weight w. {_numbering(p['base'])}{toll} "
                f"For each test print {asked}.")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        n = rng.randint(max(2, size // 2), size)
        edges = [[u, v, rng.randint(1, 20)] for u, v in _edges(rng, n, rng.randint(n, 3 * n), True)]
        return {"n": n, "edges": edges, "limit": rng.randint(5, 20 + 2 * n)}

    def case_input(self, case: Any, p: dict[str, Any]) -> str:
        return _graph_lines(case["n"], case["edges"], p["base"], [case["limit"]] if p["measure"] == "budget" else [])

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        base, toll, measure = p["base"], p["toll"], p["measure"]
        read_limit = {"python": "limit = next_int()", "c": "long long limit = next_int();",
                      "javascript": "const limit = nextInt();"}
        if measure != "budget":
            read_limit = {k: "" for k in read_limit}
        py_ans = {"distance": "dist[n - 1]", "total": "sum(d for d in dist if d > 0)",
                  "budget": "sum(1 for d in dist if 0 <= d <= limit)"}[measure]
        c_ans = {"distance": "ans = dist[n - 1];",
                 "total": "for (int x = 0; x < n; x++) if (dist[x] > 0) ans += dist[x];",
                 "budget": "for (int x = 0; x < n; x++) ans += dist[x] >= 0 && dist[x] <= limit;"}[measure]
        js_ans = {"distance": "dist[n - 1]", "total": "dist.filter((d) => d > 0).reduce((a, b) => a + b, 0)",
                  "budget": "dist.filter((d) => d >= 0 && d <= limit).length"}[measure]
        return stdio_sources(CODE, "ShortestPaths", p, imports="import heapq",
                             read_limit=read_limit, base=base, toll=toll, py_ans=py_ans, c_ans=c_ans, js_ans=js_ans)


# --- spanning trees (Kruskal) -----------------------------------------------------------------

class SpanningTree(GraphTemplate):
    name = "spanning_tree"
    tier = 3

    def params(self, rng: random.Random) -> dict[str, Any]:
        measure = rng.choice(["minimum", "maximum", "bottleneck", "heaviest"])
        return {"measure": measure, "k": rng.randint(2, 4) if measure == "heaviest" else 0, "base": rng.randint(0, 1),
                "extra": rng.randint(0, 3)}

    def statement(self, p: dict[str, Any]) -> str:
        asked = {
            "minimum": "the total weight of a minimum spanning tree",
            "maximum": "the total weight of a maximum spanning tree (a spanning tree of the largest total weight)",
            "bottleneck": "the weight of the heaviest edge of a minimum spanning tree",
            "heaviest": f"the sum of the {p['k']} largest edge weights of a minimum spanning tree (all of its "
                        f"weights if it has fewer than {p['k']} edges)",
        }[p["measure"]]
        return (
            "Each test is a connected undirected graph with edge weights: a line with n (nodes) and m (edges), then "
            f"m lines \"u v w\": an edge between u and v of weight w. {_numbering(p['base'])} For each test print "
            f"{asked}."
        )

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        n = rng.randint(max(2, size // 2), size)
        order = list(range(n))
        rng.shuffle(order)
        tree = [[order[i], order[rng.randrange(i)]] for i in range(1, n)]
        pairs = {(min(u, v), max(u, v)) for u, v in tree}
        extra = [e for e in _edges(rng, n, rng.randint(0, n), False) if (min(e), max(e)) not in pairs]
        edges = [[u, v, rng.randint(1, 30)] for u, v in tree + extra]
        rng.shuffle(edges)
        return {"n": n, "edges": edges}

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        base, k, measure, extra = p["base"], p["k"], p["measure"], p["extra"]
        descending = measure == "maximum"
        py_ans = {"minimum": "sum(chosen)", "maximum": "sum(chosen)", "bottleneck": "max(chosen)",
                  "heaviest": f"sum(sorted(chosen, reverse=True)[:{k}])"}[measure]
        c_ans = {"minimum": "for (int i = 0; i < used; i++) ans += chosen[i];",
                 "maximum": "for (int i = 0; i < used; i++) ans += chosen[i];",
                 "bottleneck": "for (int i = 0; i < used; i++) if (chosen[i] > ans) ans = chosen[i];",
                 "heaviest": f"for (int i = used - 1; i >= 0 && i >= used - {k}; i--) ans += chosen[i];"}[measure]
        js_ans = {"minimum": "chosen.reduce((a, b) => a + b, 0)", "maximum": "chosen.reduce((a, b) => a + b, 0)",
                  "bottleneck": "Math.max(...chosen)",
                  "heaviest": f"chosen.slice().sort((a, b) => b - a).slice(0, {k}).reduce((a, b) => a + b, 0)"}[measure]
        order = "b->w - a->w" if descending else "a->w - b->w"
        js_order = "b[0] - a[0]" if descending else "a[0] - b[0]"
        return stdio_sources(CODE, "SpanningTree", p,
                             base=base, extra=extra, descending=descending, py_ans=py_ans, order=order, c_ans=c_ans,
                             js_order=js_order, js_ans=js_ans)


# --- DAG paths --------------------------------------------------------------------------------

class DagPaths(GraphTemplate):
    name = "dag_paths"
    modulus = "mod"
    tier = 4

    def params(self, rng: random.Random) -> dict[str, Any]:
        measure = rng.choice(["longest", "longest_nodes", "longest_from_first", "count", "count"])
        return {"measure": measure, "mod": rng.choice(PRIMES) if measure == "count" else 0, "base": rng.randint(0, 1)}

    def statement(self, p: dict[str, Any]) -> str:
        first, last = p["base"], "n" if p["base"] else "n - 1"
        asked = {
            "longest": "the largest number of edges on a path of the graph",
            "longest_nodes": "the largest number of nodes on a path of the graph (a single node is a path)",
            "longest_from_first": f"the largest number of edges on a path that starts at node {first}",
            "count": f"the number of different paths from node {first} to node {last}, modulo {p['mod']}",
        }[p["measure"]]
        return (
            "Each test is a directed graph without cycles: a line with n (nodes) and m (edges), then m lines "
            f"\"u v\": an edge from u to v. {_numbering(p['base'])} For each test print {asked}."
        )

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        n = rng.randint(max(3, size // 2), max(3, size))
        rank = list(range(n))
        rng.shuffle(rank)
        if p["measure"] == "count":  # the first node early and the last node late, so paths exist
            rank.remove(0)
            rank.remove(n - 1)
            rank = [0, *rank, n - 1]
        edges: list[list[int]] = []
        if p["measure"] == "count":  # edges mostly between near ranks, nearly all ranks left: the counts grow past
            m, seen = rng.randint(n, 2 * n + 2), set()  # the modulus (and some tests still have no path)
            froms = [i for i in range(n - 1) if rng.random() < 0.95]
            for k in range(m * 4):
                i = froms[k] if k < len(froms) else rng.randrange(n - 1)
                j = i + rng.randint(1, 3) if rng.random() < 0.85 else rng.randrange(i + 1, n)
                edge = (rank[i], rank[min(j, n - 1)])
                if len(edges) < m and edge not in seen:
                    seen.add(edge)
                    edges.append(list(edge))
            return {"n": n, "edges": edges}
        for u, v in _edges(rng, n, rng.randint(n, 2 * n + 2), False):
            edges.append([u, v] if rank.index(u) < rank.index(v) else [v, u])
        return {"n": n, "edges": edges}

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        base, mod, measure = p["base"], p["mod"], p["measure"]
        plus = " + 1" if measure == "longest_nodes" else ""
        init = "-1" if measure == "longest_from_first" else "0"
        python_dp, c_dp, js_dp = language_texts(CODE, "DagPaths", ".count" if measure == "count" else ".longest",
                                                mod=mod, init=init, plus=plus)
        return stdio_sources(CODE, "DagPaths", p, base=base, python_dp=python_dp, c_dp=c_dp, js_dp=js_dp)


TEMPLATES = {t.name: t for t in (Components(), Reachability(), Bipartite(), ShortestPaths(), SpanningTree(),
                                 DagPaths())}


@register
class GraphPrograms(StdioPolyglotTask):
    id = "code/graph_programs"
    description = "Write a stdin/stdout program (Python, C, C++ or JavaScript) for a generated graph problem."
    tags = ("code", "programming", "stdio", "graphs", "multi-language")
    templates = TEMPLATES
    Config = SizedConfig  # max_size: the most nodes
    smallest = 3
    example_size = 6
    what = "a graph problem with varied answers"
    # 2: the tests pin reachability's distance d (StdioTemplate.pinned): d off by one passed ~70% at L0; 3: dag_paths's
    # stated modulus is one that some test's count reaches (StdioTemplate.modulus): leaving it out passed every problem
    # 4: no repeated hidden test (a repeat could leave only the example's tests)
    version = 5  # v5: a bipartite problem's words each answer two tests or more (see generate)

    def config(self, level: int) -> SizedConfig:
        easy = ("components", "reachability", "bipartite")
        return [
            self.Config(easy, max_size=6, tests=4),
            self.Config((*easy, "shortest_paths"), max_size=10, tests=5),
            self.Config((*easy, "shortest_paths", "spanning_tree"), max_size=20, tests=6),
            self.Config(("reachability", "shortest_paths", "spanning_tree", "dag_paths"), max_size=40, tests=7),
            self.Config(("shortest_paths", "spanning_tree", "dag_paths"), max_size=80, tests=8),
        ][level]
    growth = Growth()

    def limits(self, config: SizedConfig) -> str:
        return (f"Limits: T <= {config.tests}, 2 <= n <= {config.max_size}, m <= 3n, no edge is listed twice, "
                "no edge joins a node to itself, edge weights (where given) are between 1 and 30.")

    def distinct_answers(self, template: StdioTemplate) -> int:
        return 2 if template.name == "bipartite" else 3  # a yes/no answer takes two values at most

    def generate(self, rng: random.Random, config: SizedConfig) -> Problem:
        """A problem of a drawn template; a bipartite one is drawn again (as a bipartite one, so the mix of templates
        stays) until its tests beyond the example hold both words, so that printing the example's answers on its
        tests and one fixed word on every other test (which passed about 35-49% of bipartite problems at levels
        0-2) never passes."""
        problem = super().generate(rng, config)
        if problem.data["template"] != "bipartite" or _both_words_hidden(problem):
            return problem
        only = dataclasses.replace(config, templates=("bipartite",))
        return retry(lambda: super(GraphPrograms, self).generate(rng, only), accept=_both_words_hidden, attempts=60,
                     what=self.what)


def _both_words_hidden(problem: Problem) -> bool:
    """Whether the tests the example does not show answer with both words (the example may show two tests of
    one word: its labelled lines differ even where the answers do not)."""
    expected = problem.data["expected"]
    shown = _example_indices(problem.data["inputs"], expected, count=2)
    return len({re.sub(r"^Case #\d+: ", "", line) for i, line in enumerate(expected) if i not in shown}) == 2
