"""Give a shortest click route from a generated wiki's start page to an article: BFS over the link graph.

The site (:mod:`palaestra.envs.web.common`) is a wiki whose link graph is a random tree from the start
page plus random cross links (every page reachable; pages show their links' targets). The prompt names an
article 2 or more clicks from the start page and asks for a route of fewest clicks, as the titles of the
pages on it from "Main Page" to the article ("Main Page > A > B > Article").

Verified, not compared (several shortest routes may exist): every step must be a link of the site, the
route must start at the start page and end at the article, and its clicks must be as few as the BFS
distance computed at generation. Near misses: cross links make short cuts, so a depth-first walk finds
a route but not a shortest one in about half the draws; an article of a similar title (the same first
word) lies elsewhere. The difficulty is the distance plus an eighth of the pages.
"""

from __future__ import annotations

import random
import re
from collections import deque
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.web.common import WebTask, new_path, page, route_moves, site_records
from palaestra.generators.knowledge import NameForge
from palaestra.verifiers.normalize import read_answer

NOUNS = ("Bridge", "Abbey", "Festival", "Library", "Market", "Tower", "Garden", "Harbour", "Mill", "Theatre",
         "Lighthouse", "Canal", "Museum", "Chapel", "Square")
START = "Main Page"
SEPARATORS = ("->", "=>", "⇒", "→", "»", ">")  # "=>" before ">", which it holds
LEAD_IN = re.compile(r"(?:the )?(?:shortest )?(?:route|path)(?: of fewest clicks)?(?: is ?:?| ?:) *", re.IGNORECASE)
BULLET = re.compile(r"(?:[-*•]|\d{1,3}[.)]) +")
MAX_STEPS = 60


def _distances(links: dict[int, list[int]]) -> dict[int, int]:
    distance = {0: 0}
    queue = deque([0])
    while queue:
        node = queue.popleft()
        for other in links[node]:
            if other not in distance:
                distance[other] = distance[node] + 1
                queue.append(other)
    return distance


def _split_route(text: str) -> list[str] | None:
    """The titles of a route as written: joined by an arrow (``>``, ``->``, ``→``, ``=>``...), one per line (bullets
    or numbers allowed) or by commas (no title holds one), after a lead-in ("Route:", "The shortest route is")."""
    lead_in = LEAD_IN.match(text)
    if lead_in:
        text = text[lead_in.end():].strip()
    for separator in SEPARATORS:
        if separator in text:
            parts = [" ".join(part.split()) for part in text.split(separator, MAX_STEPS)]
            return parts if all(parts) else None
    lines = [line.strip() for line in text.split("\n", MAX_STEPS) if line.strip()]
    if len(lines) > 1:
        parts = [line[bullet.end():] if (bullet := BULLET.match(line)) else line for line in lines]
    else:
        parts = text.split(",", MAX_STEPS)
    parts = [" ".join(part.split()) for part in parts]
    return parts if len(parts) > 1 and all(parts) else None


@register
class ShortestRoute(WebTask):
    id = "web/shortest_route"
    family = "web"
    description = "Give a route of fewest clicks from a generated wiki's start page to an article (verified by BFS)."
    tags = ("web", "navigation", "graphs", "shortest-path", "multi-turn", "tools", "agentic")
    tool_names = ("open", "follow")

    @dataclass(frozen=True)
    class Config:
        pages: int
        cross_links: int  # extra links per page, at most
        slack: int

    presets = (
        Config(8, 1, 4),
        Config(12, 1, 5),
        Config(18, 2, 6),
        Config(26, 2, 7),
        Config(36, 2, 8),
    )
    growth = Growth(limits={"cross_links": 4, "slack": 20})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        return retry(lambda: self._draw(rng, config), what="an article 2 or more clicks away", attempts=50)

    def _draw(self, rng: random.Random, config: Config) -> Problem | None:
        forge = NameForge(rng)
        count = config.pages + rng.randint(0, config.pages // 4)
        titles = [START] + [f"{forge.word(2)} {rng.choice(NOUNS)}" for _ in range(count - 1)]
        links: dict[int, list[int]] = {node: [] for node in range(count)}
        for node in range(1, count):  # a tree that tends deep: parents among the last few nodes
            links[rng.randrange(max(0, node - 4), node)].append(node)
        for node in range(count):
            for _ in range(rng.randint(0, config.cross_links)):
                other = rng.randrange(1, count)
                if other != node and other not in links[node]:
                    links[node].append(other)
        distance = _distances(links)
        far = [node for node in range(count) if distance[node] >= 2]
        if not far:
            return None
        target = max(far, key=lambda node: (distance[node], rng.random())) if rng.random() < 0.5 else rng.choice(far)
        near = rng.choice([node for node in range(1, count) if node != target])
        titles[near] = f"{titles[target].split()[0]} {rng.choice([n for n in NOUNS if n != titles[target].split()[1]])}"
        route = [target]
        while route[-1] != 0:  # one shortest route back, for the oracle
            route.append(next(n for n in range(count) if route[-1] in links[n] and distance[n] == distance[route[-1]] - 1))
        paths = ["/"]
        for _ in range(1, count):
            paths.append(new_path(rng, "w", set(paths)))
        pages: dict[str, dict[str, Any]] = {}
        for node in range(count):
            rng.shuffle(links[node])
            pages[paths[node]] = page(titles[node], [f"{titles[node]} is an article of this wiki."],
                                      [[titles[other], paths[other]] for other in links[node]])
        budget = count + config.slack
        prompt = (
            f"You are browsing a wiki whose start page is / (titled \"{START}\"). Find a route of fewest clicks from "
            f"the start page to the article titled \"{titles[target]}\". Use the tools to browse the wiki, then "
            f"answer with the titles of the pages on the route, in order, separated by \" > \", e.g. "
            f"<answer>{START} > First Page > Second Page</answer>.\n\n{self.tools_prompt(budget)}"
        )
        data = {"records": site_records(pages), "target": paths[target], "distance": distance[target],
                "route": [paths[node] for node in reversed(route)], "budget": budget}
        return Problem(prompt=prompt, answer=" > ".join(titles[node] for node in reversed(route)), data=data)

    def difficulty(self, problem: Problem) -> float:
        return problem.data["distance"] + len(problem.data["records"]["site"]["pages"]) / 8

    def judge(self, problem: Problem, answer: str) -> Verdict:
        pages = problem.data["records"]["site"]["pages"]
        by_title = {" ".join(r["title"].casefold().split()): path for path, r in pages.items()}

        def read(text: str) -> list[str] | None:
            parts = _split_route(text.strip())
            if parts is None:
                return None
            found = [by_title.get(part.casefold().strip("\"'")) for part in parts]
            return None if any(path is None for path in found) else [path for path in found if path is not None]

        route = read_answer(answer, read)
        if route is None:
            return Verdict.unparsed("could not read a route of page titles separated by '>'")
        if route[0] != "/" or route[-1] != problem.data["target"]:
            return Verdict.wrong("the route must run from the start page to the article")
        for here, there in zip(route, route[1:]):
            if not any(target == there for _, target in pages[here]["links"]):
                return Verdict.wrong(f"{pages[here]['title']!r} has no link to {pages[there]['title']!r}")
        if len(route) - 1 > problem.data["distance"]:
            return Verdict.wrong("a route of fewer clicks exists")
        return Verdict.right()

    def plan(self, problem: Problem) -> list[str]:
        return [*route_moves(problem.data["records"]["site"]["pages"], problem.data["route"]), problem.answer or ""]

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer or ""
        titles = answer.split(" > ")
        return [answer.replace(" > ", " -> "), answer.replace(" > ", " → "), answer.lower(), f"{answer}.",
                answer.replace(" > ", " => "), "\n".join(f"{n}. {title}" for n, title in enumerate(titles, 1)),
                ", ".join(titles), f"Route: {answer}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        answer = problem.answer or ""
        titles = answer.split(" > ")
        skipped = " > ".join([titles[0], *titles[2:]])  # a click left out: no such link
        reversed_route = " > ".join(reversed(titles))
        return [skipped, reversed_route, " > ".join(titles[:-1]), f"{answer} or {skipped}"]
