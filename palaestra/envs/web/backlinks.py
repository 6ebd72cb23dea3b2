"""Find the one page of a generated wiki that links to a given article: a crawl of the site's link graph.

The site (:mod:`palaestra.envs.web.common`) is a small wiki: every article has a line of text and links to
other articles (the link graph is a random tree from the start page plus random cross links, so every
page is reachable). The prompt names an article that exactly one page links to, and asks which; pages do
not list what links to them, and the site search (over titles) finds the article itself, which does not
help: the agent crawls pages (each shows its links' targets) until it finds the link.

The answer (the linking page's title, in any casing) is unique by construction: the article's only
incoming link is its tree parent, never the start page. Near misses: an article of the same first word
with several incoming links, and a page whose text names the article without linking to it; the linking
page is never the start page. The difficulty is the number of pages plus the linking page's depth.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.service.common import call
from palaestra.envs.web.common import WebTask, new_path, page, site_records
from palaestra.generators.knowledge import NameForge
from palaestra.verifiers.normalize import read_answer

NOUNS = ("Bridge", "Abbey", "Festival", "Library", "Market", "Tower", "Garden", "Harbour", "Mill", "Theatre",
         "Lighthouse", "Canal", "Museum", "Chapel", "Square")
EXAMPLE = "Main Page"


@register
class Backlinks(WebTask):
    id = "web/backlinks"
    family = "web"
    description = "Crawl a generated wiki's link graph to find the one page that links to a given article."
    tags = ("web", "navigation", "graphs", "multi-turn", "tools", "agentic")
    tool_names = ("open", "follow", "search")

    @dataclass(frozen=True)
    class Config:
        pages: int
        cross_links: int  # extra links per page, at most
        slack: int

    presets = (
        Config(8, 1, 4),
        Config(12, 1, 5),
        Config(16, 2, 6),
        Config(24, 2, 7),
        Config(32, 3, 8),
    )
    growth = Growth(limits={"cross_links": 6, "slack": 20})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        forge = NameForge(rng)
        count = config.pages + rng.randint(0, config.pages // 4)
        titles = ["Main Page"] + [f"{forge.word(2)} {rng.choice(NOUNS)}" for _ in range(count - 1)]
        target = rng.randrange(3, count)
        sibling = rng.randrange(3, count - 1)  # the near miss: same first word, another noun
        sibling += sibling >= target
        first, noun = titles[target].split(" ", 1)
        titles[sibling] = f"{first} {rng.choice([n for n in NOUNS if n != noun])}"
        # a tree from the start page: the target's parent is neither the start page nor the target's sibling
        parent = {i: rng.randrange(i) for i in range(1, count)}
        parent[target] = rng.randrange(1, target)
        depth = {0: 0}
        for node in range(1, count):
            depth[node] = depth[parent[node]] + 1
        out: dict[int, list[int]] = {node: [] for node in range(count)}
        for node in range(1, count):
            out[parent[node]].append(node)
        for node in range(count):
            for _ in range(rng.randint(0, config.cross_links)):
                other = rng.randrange(1, count)
                if other not in (node, target) and other not in out[node]:
                    out[node].append(other)
        linkers = [node for node in range(count) if node not in (parent[target], sibling) and sibling not in out[node]]
        out[rng.choice(linkers)].append(sibling)  # the sibling has at least two incoming links
        mention = rng.choice([node for node in range(1, count) if node not in (parent[target], target)])
        paths = ["/"]
        pages: dict[str, dict[str, Any]] = {}
        for _ in range(1, count):
            paths.append(new_path(rng, "w", set(paths)))
        for node in range(count):
            text = [f"{titles[node]} is an article of this wiki."]
            if node == mention:
                text.append(f"It is often compared with the {titles[target]}.")
            rng.shuffle(out[node])
            links = [[titles[other], paths[other]] for other in out[node]]
            pages[paths[node]] = page(titles[node], text, links + ([["Main Page", "/"]] if node else []))
        linker = parent[target]
        prompt = (
            f"You are browsing a wiki whose start page is /. Exactly one page of the wiki links to the article "
            f"titled \"{titles[target]}\". Which page is it? Use the tools to browse the wiki, then answer with "
            f"that page's title, e.g. <answer>{EXAMPLE}</answer>.\n\n{self.tools_prompt(count + config.slack)}"
        )
        data = {"records": site_records(pages), "linker": paths[linker], "target": paths[target],
                "depth": depth[linker], "budget": count + config.slack}
        return Problem(prompt=prompt, answer=titles[linker], data=data)

    def difficulty(self, problem: Problem) -> float:
        return len(problem.data["records"]["site"]["pages"]) / 4 + problem.data["depth"]

    def judge(self, problem: Problem, answer: str) -> Verdict:
        key = " ".join((problem.answer or "").casefold().split())
        titles = {" ".join(r["title"].casefold().split()) for r in problem.data["records"]["site"]["pages"].values()}

        pages = problem.data["records"]["site"]["pages"]

        def read(text: str) -> bool | None:
            said = " ".join(text.casefold().strip("\"'").split())
            body, mark, path = said.removesuffix(")").rpartition(" (")
            if not (mark and said.endswith(")")):
                body, path = said, ""
            said = body.strip("\"'`")  # "Title (/w/x1y2z3)": the page's path too, as the browser heads it
            for lead in ("the page that links to it is ", "the linking page is ", "the page is ", "the page ", "page ",
                         "the article ", "it is ", "the "):
                if said.startswith(lead) and said[len(lead):].strip("\"'`") in titles:
                    said = said[len(lead):].strip("\"'`")
            if said not in titles:
                return None
            if path:  # the path must be that page's
                record = pages.get(path.strip().strip("`"))
                if record is None or " ".join(record["title"].casefold().split()) != said:
                    return None
            return said == key

        said = read_answer(answer, read)
        if said is None:
            return Verdict.unparsed("could not read a page title of the wiki in the answer")
        return Verdict.right() if said else Verdict.wrong("that page does not link to the article")

    def plan(self, problem: Problem) -> list[str]:
        return [call("open", url=problem.data["linker"]), problem.answer or ""]

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer or ""
        return [answer.upper(), f"\"{answer}\"", f"The page {answer}.", f"{answer}.", f"{answer} ({problem.data['linker']})"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        answer = problem.answer or ""
        pages = problem.data["records"]["site"]["pages"]
        others = [r["title"] for path, r in pages.items() if path != problem.data["linker"]]
        mention = next(r["title"] for r in pages.values() if len(r["text"]) > 1)
        return [mention, pages[problem.data["target"]]["title"], *rng.sample(others, 2), f"{answer} or {others[0]}"]
