"""Write Prolog predicates over a relation of facts (family trees, directed graphs), judged by queries on hidden facts.

The problem names a fact relation (``parent(P, C)``, ``child(C, P)``, ``edge(A, B)``, ``road(B, A)``...: the
argument order is stated and varies) and asks for one predicate defined from it:

- **ancestor** / **sibling** / **cousin** / **descendant_at** (exactly N generations down) over a family
  forest of several generations, each child with one or two parents;
- **reachable** (by one or more edges) over a directed graph *with cycles*: the naive left- or
  right-recursive definition loops, so a correct answer tables the predicate or tracks the visited nodes;
- **within** (by a path of 1..K edges) over the same kind of graph.

How it is judged: the candidate's program is ``solution.pl`` next to our trusted driver (``main.pl``,
SWI-Prolog). For each of several hidden fact databases the driver retracts the previous facts (and every
table), asserts the new ones, and runs each query in both modes (``ancestor(ann, Y)`` and
``ancestor(X, bob)``) as ``findall`` of the free variable, printing the *sorted set* of answers (so the
order and repetitions of solutions do not matter, but every answer must be found and nothing else; a query
that raises prints ``error``). The expected lines come from a Python reference of each relation computed at
generation; expected answers never enter the sandbox. The example in the prompt uses its own small database,
never a hidden one. Hidden databases are redrawn until the relation's answers need more than one step of the
fact relation (so one clause of a recursive definition is not enough), the answers vary, and each of the
relation's *slips* (plausible wrong definitions: ``ancestor`` unrolled to two or three levels, full siblings
only, cousins without "share no parent", ``within`` missing the start node, ``reachable`` capped at 2..7
edges or with the start node never or always reached) misses an answer. Version 2: a family forest for
``ancestor`` spans 5 generations (it spanned 3 at levels 0-1 and 4 at level 2, where a non-recursive
parent-or-grandparent, or three-level, definition passed every problem). Version 3: ``reachable``'s graphs hold a
long path (a search capped at 6 edges passed 10 of 15 problems at level 2) and its slips are told apart.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from palaestra.core import Problem, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.code._polyglot import PolyglotTask, convention
from palaestra.envs.code.templates import ProgramTexts
from palaestra.verifiers import polyglot
from palaestra.verifiers.polyglot import Budget, Program, Report, fence

CODE = ProgramTexts("prolog_queries")
NAMES = ("ada", "ben", "cleo", "dan", "eve", "finn", "gus", "hana", "ivo", "jade", "kai", "lea", "max", "nia",
         "otto", "pia", "quin", "rosa", "sam", "tara", "uma", "vic", "wren", "xena", "yuri", "zoe", "abe", "bo",
         "cy", "dee", "eli", "fay", "gil", "hal", "ida", "jo", "kit", "liv", "mo", "ned", "ola", "pat", "ray",
         "sue", "ted", "val", "wes", "zed")
PLACES = ("ash", "birch", "cedar", "dune", "elm", "fern", "glen", "heath", "isle", "jetty", "knoll", "lake",
          "marsh", "nook", "oak", "pond", "quay", "reef", "shore", "tor", "vale", "weir", "yard", "zenith",
          "arch", "bay", "cove", "dell", "edge", "ford", "gate", "hill", "inlet", "junction", "keep", "lea",
          "mill", "ness", "orchard", "pass")
FAMILY_FACTS = (("parent", "forward", "parent(P, C): P is a parent of C"),
                ("parent_of", "forward", "parent_of(P, C): P is a parent of C"),
                ("child", "backward", "child(C, P): C is a child of P"),
                ("child_of", "backward", "child_of(C, P): C is a child of P"))
GRAPH_FACTS = (("edge", "forward", "edge(A, B): a directed edge from A to B"),
               ("road", "forward", "road(A, B): a one-way road from A to B"),
               ("arrow", "forward", "arrow(A, B): an arrow from A to B"),
               ("incoming", "backward", "incoming(B, A): an edge from A into B"))


class Relation:
    """One predicate to write: its statement, query modes and a trusted Python reference."""

    name: ClassVar[str]
    tier: ClassVar[int]
    graph: ClassVar[bool] = False
    arity: ClassVar[int] = 2
    recursive: ClassVar[bool] = True  # one step of the fact relation is not enough
    long_paths: ClassVar[bool] = False  # a graph's hidden databases hold long paths (see :func:`digraph`)

    def statement(self) -> str:
        raise NotImplementedError

    def answers(self, links: dict[str, set[str]], first: str | None, second: str | None, bound: int) -> set[str]:
        """The set of values of the free argument (``first`` or ``second`` is None)."""
        raise NotImplementedError

    def bound_values(self, rng: random.Random, size: int) -> int:
        return 0

    def slips(self) -> list[Callable[[dict[str, set[str]], str | None, str | None, int], set[str]]]:
        """The answers of plausible wrong definitions (a recursion unrolled to a fixed depth, full siblings only):
        every problem's hidden queries tell each of them apart from the relation."""
        return []

    def generations(self, people: int) -> int | None:
        """How many generations a hidden family forest of ``people`` spans (None: :func:`family`'s default)."""
        return None


def _reach(links: dict[str, set[str]], start: str, steps: int | None = None) -> set[str]:
    """Nodes reached from ``start`` by 1..steps links (any number when None)."""
    seen: set[str] = set()
    frontier = set(links.get(start, ()))
    depth = 1
    while frontier and (steps is None or depth <= steps):
        new = frontier - seen
        seen |= new
        frontier = {b for a in new for b in links.get(a, ())} if steps is None else \
            {b for a in frontier for b in links.get(a, ())}
        depth += 1
    return seen


def _inverse(links: dict[str, set[str]]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for a, bs in links.items():
        for b in bs:
            out.setdefault(b, set()).add(a)
    return out


class Ancestor(Relation):
    name, tier = "ancestor", 1

    def statement(self) -> str:
        return "ancestor(X, Y): X is an ancestor of Y (a parent of Y, or a parent of an ancestor of Y)."

    def answers(self, links, first, second, bound):  # type: ignore[no-untyped-def]
        if first is not None:
            return _reach(links, first)
        return _reach(_inverse(links), second)  # type: ignore[arg-type]

    def slips(self):  # type: ignore[no-untyped-def]
        def unrolled(depth: int):  # type: ignore[no-untyped-def]
            return lambda links, first, second, bound: (
                _reach(links, first, depth) if first is not None else _reach(_inverse(links), second, depth)
            )

        return [unrolled(2), unrolled(3)]  # a parent or a grandparent (or a great-grandparent) only

    def generations(self, people: int) -> int:
        return 5  # deep enough that a recursion unrolled to three levels misses an answer


class Sibling(Relation):
    name, tier, recursive = "sibling", 1, False

    def statement(self) -> str:
        return "sibling(X, Y): X and Y are different people who share at least one parent."

    def answers(self, links, first, second, bound):  # type: ignore[no-untyped-def]
        person = first if first is not None else second
        parents = _inverse(links).get(person, set())  # type: ignore[arg-type]
        return {c for p in parents for c in links.get(p, ())} - {person}

    def slips(self):  # type: ignore[no-untyped-def]
        def full_only(links, first, second, bound):  # type: ignore[no-untyped-def]
            up = _inverse(links)
            person = first if first is not None else second
            return {c for c in self.answers(links, first, second, bound) if up.get(c) == up.get(person)}

        return [full_only]


class Cousin(Relation):
    name, tier, recursive = "cousin", 2, False

    def statement(self) -> str:
        return ("cousin(X, Y): X and Y are first cousins: a parent of X and a parent of Y are two different people "
                "who share at least one parent, and X and Y themselves share no parent.")

    def answers(self, links, first, second, bound):  # type: ignore[no-untyped-def]
        person = first if first is not None else second
        up = _inverse(links)
        mine = up.get(person, set())  # type: ignore[arg-type]
        out = set()
        for p in mine:
            for g in up.get(p, ()):
                for uncle in links.get(g, ()):
                    if uncle != p:
                        out |= {c for c in links.get(uncle, ()) if not (up.get(c, set()) & mine)}
        return out - {person}

    def slips(self):  # type: ignore[no-untyped-def]
        def siblings_kept(links, first, second, bound):  # type: ignore[no-untyped-def]
            person = first if first is not None else second
            up = _inverse(links)
            return {c for p in up.get(person, ()) for g in up.get(p, ()) for u in links.get(g, ()) if u != p
                    for c in links.get(u, ())} - {person}  # "X and Y share no parent" left out

        return [siblings_kept]


class DescendantAt(Relation):
    name, tier, arity = "descendant_at", 2, 3

    def statement(self) -> str:
        return ("descendant_at(X, Y, N): Y is a descendant of X exactly N generations down (N >= 1: a child of X for "
                "N = 1, a child of a child for N = 2, ...). Queries always give N as an integer.")

    def bound_values(self, rng: random.Random, size: int) -> int:
        return rng.choice((2, 2, 3))

    def answers(self, links, first, second, bound):  # type: ignore[no-untyped-def]
        graph, start = (links, first) if first is not None else (_inverse(links), second)
        level = {start}
        for _ in range(bound):
            level = {b for a in level for b in graph.get(a, ())}
        return level


class Reachable(Relation):
    name, tier, graph, long_paths = "reachable", 3, True, True

    def statement(self) -> str:
        return ("reachable(X, Y): Y can be reached from X by following one or more edges. The graph may have "
                "cycles (X itself is reachable from X only through a cycle); every query must terminate.")

    def answers(self, links, first, second, bound):  # type: ignore[no-untyped-def]
        if first is not None:
            return _reach(links, first)
        return _reach(_inverse(links), second)  # type: ignore[arg-type]

    def slips(self):  # type: ignore[no-untyped-def]
        def capped(depth: int):  # type: ignore[no-untyped-def]
            return lambda links, first, second, bound: (
                _reach(links, first, depth) if first is not None else _reach(_inverse(links), second, depth)
            )

        def start_left_out(links, first, second, bound):  # type: ignore[no-untyped-def]
            return self.answers(links, first, second, bound) - {first if first is not None else second}

        def start_added(links, first, second, bound):  # type: ignore[no-untyped-def]
            return self.answers(links, first, second, bound) | {first if first is not None else second}

        # a search capped at 2..CAP edges; the start node never (a visited set that holds it from the outset) or
        # always reached
        return [*(capped(depth) for depth in range(2, self.CAP + 1)), start_left_out, start_added]

    CAP = 7


class Within(Relation):
    name, tier, graph, arity = "within", 2, True, 3

    def statement(self) -> str:
        return ("within(X, Y, K): Y can be reached from X by a path of at least 1 and at most K edges (a path may "
                "repeat nodes; the graph may have cycles). Queries always give K as an integer.")

    def bound_values(self, rng: random.Random, size: int) -> int:
        return rng.choice((2, 3, 3))

    def answers(self, links, first, second, bound):  # type: ignore[no-untyped-def]
        if first is not None:
            return _reach(links, first, bound)
        return _reach(_inverse(links), second, bound)  # type: ignore[arg-type]

    def slips(self):  # type: ignore[no-untyped-def]
        def start_left_out(links, first, second, bound):  # type: ignore[no-untyped-def]
            return self.answers(links, first, second, bound) - {first if first is not None else second}

        return [start_left_out]


RELATIONS: dict[str, Relation] = {r.name: r for r in (Ancestor(), Sibling(), Cousin(), DescendantAt(), Reachable(),
                                                      Within())}


def family(rng: random.Random, people: int, generations: int | None = None) -> dict[str, set[str]]:
    """A forest of ``generations`` (3-5; by default 3 + people // 12, at most 5) generations: each person past the
    first generation has one or two parents in the one above."""
    names = rng.sample(NAMES, people)
    generations = min(5, 3 + people // 12) if generations is None else generations
    cut = sorted(rng.sample(range(1, people), generations - 1))
    layers = [names[a:b] for a, b in zip([0, *cut], [*cut, people])]
    links: dict[str, set[str]] = {}
    for above, layer in zip(layers, layers[1:]):
        for child in layer:
            for parent in rng.sample(above, min(len(above), rng.choice((1, 2, 2)))):
                links.setdefault(parent, set()).add(child)
    return links


def digraph(rng: random.Random, nodes: int, chain: bool = False) -> dict[str, set[str]]:
    """A sparse directed graph with at least one cycle. With ``chain``: a path through two thirds of the nodes
    first, and the random edges between two of its nodes point back along it (cycles, no shortcut), so that some
    nodes are reached only by long paths."""
    names = rng.sample(PLACES, nodes)
    links: dict[str, set[str]] = {}
    spine = names[: 2 * nodes // 3] if chain else []
    for a, b in zip(spine, spine[1:]):
        links.setdefault(a, set()).add(b)
    place = {name: i for i, name in enumerate(spine)}
    for _ in range(round(nodes * (0.7 if chain else 1.3))):
        a, b = rng.sample(names, 2)
        if a in place and b in place and place[a] < place[b]:
            a, b = b, a
        links.setdefault(a, set()).add(b)
    ring = rng.sample(names, 3)
    for a, b in zip(ring, ring[1:] + ring[:1]):
        links.setdefault(a, set()).add(b)
    return links


def fact_terms(links: dict[str, set[str]], fact: str, order: str) -> list[str]:
    pairs = sorted((a, b) for a, bs in links.items() for b in bs)
    return [f"{fact}({a}, {b})" if order == "forward" else f"{fact}({b}, {a})" for a, b in pairs]


def query_text(relation: Relation, first: str | None, second: str | None, bound: int) -> tuple[str, str]:
    """(the free variable, the goal) of one query."""
    x, y = first or "X", second or "Y"
    extra = f", {bound}" if relation.arity == 3 else ""
    return ("X" if first is None else "Y"), f"{relation.name}({x}, {y}{extra})"


@register
class PrologQueries(PolyglotTask):
    id = "code/prolog_queries"
    description = "Write a Prolog predicate (ancestor, cousin, reachable...) over fact relations, judged on hidden facts."
    tags = ("code", "programming", "prolog", "logic-programming")
    languages = ("prolog",)
    toolchains = languages
    version = 3

    @dataclass(frozen=True)
    class Config:
        relations: tuple[str, ...]
        size: int  # people or places per database
        databases: int
        queries: int  # per database

    presets = (
        Config(("ancestor", "sibling"), size=8, databases=2, queries=4),
        Config(("ancestor", "sibling", "descendant_at", "within"), size=11, databases=3, queries=4),
        Config(("ancestor", "cousin", "descendant_at", "within", "reachable"), size=15, databases=3, queries=5),
        Config(("cousin", "descendant_at", "within", "reachable"), size=20, databases=4, queries=6),
        Config(("cousin", "reachable", "within"), size=26, databases=4, queries=8),
    )
    growth = Growth(limits={"size": 40})

    def _database(self, rng: random.Random, relation: Relation, size: int, queries: int) -> dict[str, Any]:
        links = (digraph(rng, size, relation.long_paths) if relation.graph else
                 family(rng, size, relation.generations(size)))
        people = sorted({a for a in links} | {b for bs in links.values() for b in bs})
        out = []
        for _ in range(queries):
            bound = relation.bound_values(rng, size)
            who = rng.choice(people)
            first, second = (who, None) if rng.random() < 0.5 else (None, who)
            free, goal = query_text(relation, first, second, bound)
            out.append({"free": free, "goal": goal, "answers": sorted(relation.answers(links, first, second, bound)),
                        "args": (first, second, bound),
                        "direct": sorted(links.get(who, ())) if first else sorted(_inverse(links).get(who, ()))})
        return {"links": {a: sorted(bs) for a, bs in sorted(links.items())}, "queries": out, "links_sets": links}

    def generate(self, rng: random.Random, config: Config) -> Problem:
        relation = RELATIONS[rng.choice(config.relations)]
        fact, order, meaning = rng.choice(GRAPH_FACTS if relation.graph else FAMILY_FACTS)
        link = "arc" if relation.graph else "parent_child"

        def draw() -> list[dict[str, Any]] | None:
            bases = [self._database(rng, relation, config.size, config.queries) for _ in range(config.databases)]
            lines = [q["answers"] for b in bases for q in b["queries"]]
            varied = len({tuple(a) for a in lines}) >= 3 and any(len(a) >= 2 for a in lines)
            deep = not relation.recursive or any(q["answers"] != q["direct"] for b in bases for q in b["queries"])
            told = all(any(sorted(slip(b["links_sets"], *q["args"])) != q["answers"] for b in bases for q in b["queries"])
                       for slip in relation.slips())
            return bases if varied and deep and told else None

        bases = retry(draw, attempts=60, what="hidden databases whose answers vary and need recursion")
        example = self._database(rng, relation, max(6, config.size // 2), 3)
        shown = "\n".join(f"{t}." for t in fact_terms({a: set(bs) for a, bs in example["links"].items()}, fact, order))
        answers = "\n".join(f"- findall({q['free']}, {q['goal']}, L), sort(L, S) gives S = [{','.join(q['answers'])}]"
                            for q in example["queries"])
        prompt = (
            f"A Prolog database holds facts {meaning} (atoms). Write the predicate {relation.statement()}\n\n"
            f"Example database:\n```prolog\n{shown}\n```\nOn it:\n{answers}\n\n"
            f"Your program is loaded by a test driver (SWI-Prolog) that asserts several hidden databases of {fact}/2 "
            f"facts in turn and runs queries with either argument bound, collecting every solution with findall and "
            "comparing the sorted set of answers with the expected one (the order and repetition of solutions do not "
            f"matter; a missing or extra answer, an error or a query that does not terminate fails). Do not define "
            f"{fact}/2 facts or read input; helper predicates are allowed. "
            + convention(self.languages, shape=f"{relation.name}({'X, Y, N' if relation.arity == 3 else 'X, Y'}) :-\n    ...")
        )
        data = {"relation": relation.name, "fact": fact, "order": order, "link": link,
                "databases": [{"facts": fact_terms({a: set(bs) for a, bs in b["links"].items()}, fact, order),
                               "queries": [[q["free"], q["goal"]] for q in b["queries"]]} for b in bases],
                "expected": ["[" + ",".join(q["answers"]) + "]" for b in bases for q in b["queries"]],
                "languages": list(self.languages), "gold": "prolog"}
        return Problem(prompt=prompt, answer=fence(("prolog", self._reference(data))), data=data)

    @staticmethod
    def _reference(data: dict[str, Any]) -> str:
        link_name = data["link"]
        link = CODE(f"link.{data['order']}", link=link_name, fact=data["fact"]).strip()
        return CODE(data["relation"], link=link, link_name=link_name, name=data["relation"]).strip()

    def sources(self, problem: Problem) -> dict[str, str]:
        return {"prolog": self._reference(problem.data)}

    def required_name(self, problem: Problem) -> str | None:
        return problem.data["relation"]

    def judge(self, problem: Problem, program: Program) -> Report:
        data = problem.data
        bases = "\n".join(
            f"pq_database([{', '.join(b['facts'])}],\n    [{', '.join(f'q({free}, {goal})' for free, goal in b['queries'])}])."
            for b in data["databases"])
        driver = CODE("driver", fact=data["fact"], databases=bases)
        return polyglot.check_program(program, "", data["expected"], driver=driver, budget=Budget(cpu_seconds=2.0))

    def difficulty(self, problem: Problem) -> float:
        """The relation's tier plus log2 of the hidden facts and queries."""
        data = problem.data
        facts = sum(len(b["facts"]) for b in data["databases"])
        return RELATIONS[data["relation"]].tier + math.log2(1 + facts + len(data["expected"]))
