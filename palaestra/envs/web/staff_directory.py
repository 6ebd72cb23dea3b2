"""Find a staff member's phone extension by navigating an organisation's generated website.

The site (:mod:`palaestra.envs.web.common`) is an organisation's staff directory: the start page links to
divisions, a division page to its departments, and so on down 1 to 7 levels of units; the deepest unit on
the way lists its staff, each with a page giving their position, unit and phone extension. The prompt
names a person and the chain of units they work in (team, department, division); the extension is on the
person's page only, 2 to 8 clicks from the start page, and the pages are reachable only by following
links (paths are random tokens; there is no search).

Decoys make careless navigation fail: another branch, diverging at a random level, repeats the lower
unit names of the chain and ends at a person of the same name with another extension; the person's own
unit lists a colleague of the same first name; sibling units list other staff. The answer is the
extension (four digits, unique by construction: every extension on the site is distinct), read in any
casing after a label ("extension 4821", "ext. 4821"). The difficulty is the depth plus a tenth of the
links on the pages of the route.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.web.common import WebTask, judge_code, new_path, page, route_moves, site_records
from palaestra.generators.knowledge import NameForge

KINDS = ("Division", "Department", "Section", "Team", "Group", "Unit", "Desk")
ROLES = ("Analyst", "Coordinator", "Engineer", "Officer", "Manager", "Assistant", "Specialist", "Advisor")
EXAMPLE = "1234"


@register
class StaffDirectory(WebTask):
    id = "web/staff_directory"
    family = "web"
    description = "Find a staff member's phone extension by following the right links of a generated directory site."
    tags = ("web", "navigation", "multi-turn", "tools", "agentic")
    tool_names = ("open", "follow")

    @dataclass(frozen=True)
    class Config:
        depth: int  # clicks from the start page to the person's page
        branching: tuple[int, int]  # links per unit page (units or staff)
        slack: int  # tool calls beyond the shortest route

    presets = (
        Config(2, (2, 3), 4),
        Config(3, (2, 3), 5),
        Config(3, (3, 4), 6),
        Config(4, (3, 4), 7),
        Config(5, (3, 5), 8),
    )
    growth = Growth(limits={"depth": 8, "branching": 12, "slack": 16})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        forge = NameForge(rng)
        pages: dict[str, dict[str, Any]] = {}
        used = {int(EXAMPLE)}

        def fresh_extension() -> int:
            number = retry(lambda: (n if (n := rng.randrange(2000, 10_000)) not in used else None),
                           what="a fresh extension", attempts=200)  # 8,000 numbers, a few hundred staff
            used.add(number)
            return number

        org = forge.word(3)
        chain = [f"{forge.word(2)} {KINDS[level]}" for level in range(config.depth - 1)]
        first, last = forge.word(2), forge.word(2)
        target = f"{first} {last}"

        def person(name: str, unit: str, parent: str, extension: int | None = None) -> str:
            path = new_path(rng, "p", pages)
            number = extension if extension is not None else fresh_extension()
            pages[path] = page(name, [f"Position: {rng.choice(ROLES)}", f"Unit: {unit}", f"Phone extension: {number}"],
                               [["Up to the unit", parent], ["Home", "/"]])
            return path

        def unit(name: str, parent: str, below: list[str], level: int, lead: str | None) -> str:
            """A unit page; ``below`` the chain's lower unit names it repeats; ``lead`` a person it must list."""
            path = new_path(rng, "u", pages)
            pages[path] = page(name, [f"The {name} of {org}."])
            links: list[list[str]] = []
            if below:
                links.append([below[0], unit(below[0], path, below[1:], level + 1, lead)])
            elif lead is not None:
                links.append([lead, person(lead, name, path)])
            for _ in range(rng.randint(*config.branching) - len(links)):
                if below and level + 1 < config.depth - 1 and rng.random() < 0.5:  # off-chain units list staff
                    other = f"{forge.word(2)} {KINDS[level + 1]}"
                    links.append([other, unit(other, path, [], level + 1, f"{forge.word(2)} {forge.word(2)}")])
                else:
                    colleague = f"{forge.word(2)} {forge.word(2)}"
                    links.append([colleague, person(colleague, name, path)])
            rng.shuffle(links)
            pages[path]["links"] = [*links, ["Up", parent], ["Home", "/"]]
            return path

        pages["/"] = page(f"{org} staff directory", [f"Welcome to the staff directory of {org}."])
        diverge = rng.randrange(config.depth - 1)  # the level where the decoy branch leaves the chain
        route = ["/"]
        parent, links = "/", pages["/"]["links"]
        answer = fresh_extension()
        for level, name in enumerate(chain):
            path = new_path(rng, "u", pages)
            pages[path] = page(name, [f"The {name} of {org}."])
            links.append([name, path])
            if level == diverge:
                decoy = f"{forge.word(2)} {KINDS[level]}"
                links.append([decoy, unit(decoy, parent, chain[level + 1:], level, target)])
            route.append(path)
            parent, links = path, []
            if level == len(chain) - 1:
                links.append([target, person(target, name, path, answer)])
                links.append([f"{first} {forge.word(2)}", person(f"{first} {forge.word(2)}", name, path)])
            pages[path]["links"] = links
        route.append(pages[route[-1]]["links"][0][1])
        for level, path in enumerate(route[:-1]):  # fill every route page with other links, then shuffle them
            own = pages[path]["links"]
            for _ in range(max(rng.randint(*config.branching) - len(own), 0)):
                kind = KINDS[min(level, len(KINDS) - 1)]
                if level < config.depth - 1 and rng.random() < 0.6:
                    other = f"{forge.word(2)} {kind}"
                    own.append([other, unit(other, path, [], level, f"{forge.word(2)} {forge.word(2)}")])
                else:
                    colleague = f"{forge.word(2)} {forge.word(2)}"
                    own.append([colleague, person(colleague, pages[path]["title"], path)])
            rng.shuffle(own)
            if path != "/":
                own += [["Up", route[level - 1]], ["Home", "/"]]
        where = ", ".join(f"the {name}" for name in reversed(chain))
        prompt = (
            f"You are browsing the staff directory website of {org}; its start page is /. Find the phone "
            f"extension of {target}, who works in {where}. Use the tools to browse the site, then answer with the "
            f"extension, e.g. <answer>{EXAMPLE}</answer>.\n\n{self.tools_prompt(len(route) + config.slack)}"
        )
        data = {"records": site_records(pages), "route": route, "budget": len(route) + config.slack}
        return Problem(prompt=prompt, answer=str(answer), data=data)

    def difficulty(self, problem: Problem) -> float:
        route = problem.data["route"]
        pages = problem.data["records"]["site"]["pages"]
        return len(route) - 1 + sum(len(pages[path]["links"]) for path in route[:-1]) / 10

    def judge(self, problem: Problem, answer: str) -> Verdict:
        return judge_code(answer, problem.answer or "", "extension")

    def plan(self, problem: Problem) -> list[str]:
        return [*route_moves(problem.data["records"]["site"]["pages"], problem.data["route"]), problem.answer or ""]

    def spellings(self, problem: Problem) -> list[str]:
        answer = problem.answer or ""
        return [f"Extension {answer}", f"ext. {answer}", f"{answer}.", f"The extension is {answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        answer = problem.answer or ""
        others = [line.rsplit(" ", 1)[1] for record in problem.data["records"]["site"]["pages"].values()
                  for line in record["text"] if line.startswith("Phone extension:")]
        decoys = [other for other in others if other != answer]
        return [*rng.sample(decoys, min(3, len(decoys))), f"{answer} or {decoys[0]}", str(int(answer) + 1)[-4:]]
