"""Kinship inference: from parent and marriage facts about a family, name how one person is related
to another.

A family tree is generated over a few generations: a founding couple, their children, some of
whom marry people from outside the family and have children in turn. The facts shown are only
"X is the son/daughter of A and B" and "A is the husband/wife of B" (which also tell each
person's sex), shuffled. The relation asked for is drawn first, uniformly from the level's
vocabulary (so no term dominates), and then a pair of people with exactly that relation and no
other (spouses come from outside the family, so no pair is related in two ways) is chosen.
Relations are computed from the tree by their definitions (an aunt is a sister of a parent or
the wife of a parent's brother; in-laws go through a spouse; cousins share grandparents
through their parents).

The answer is one relation word such as ``aunt`` or ``father-in-law`` (``father in law`` and a
sentence such as ``Ada is Ben's aunt`` are read too).

Level 2 (v4) asks 15 words, the grandparents and grandchildren among them (v3: 11, one answering 1/11 of the level).
The top level (v3) asks three relations in one family, answered one a line in order: one word out of
its 13 was a guess a policy could learn from cheap cues (the asked person's sex, whether they appear
only as a parent), which picked the answer of 24% of v2's level-4 problems against 8% for a constant;
three answered together leave such a guess about 1%.

Version 5: levels 2-4 ask the words of the levels below as well (the top level all 27), and level 2 draws larger
families. Each level left out the blood words next to the ones it asked (sister beside cousin, father beside uncle
and father-in-law), so the commonest word per (sex of the asked person, generation gap, whether each of the two has
parents among the facts, whether the asked one is married), learned on other seeds, skipped the check that tells
them apart: it answered 0.99, 0.97 and 1.00 of levels 2-4 (all three at level 4); now 0.81, 0.77 and 0.54, as on
level 1 (0.80), which asks both kinds. What is left is structure a solver reads off the tree too (two generations
up is a grandparent; an outsider one generation down is a son- or daughter-in-law).

Generation speed: about 290 problems/s at level 4 (550 below it) on this 2-core machine. The time goes to
computing every pair's relations in the drawn family until each asked relation has a pair related in that way
and no other (a family is redrawn when one is missing), which is what makes every answer unique; it is kept.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.verifiers.blocks import read_block
from palaestra.verifiers.choices import read_option
from palaestra.verifiers.normalize import strip_wrappers, unify

# fmt: off
_MEN = ("Adam", "Boris", "Carl", "Daniel", "Edgar", "Frank", "George", "Henry", "Isaac", "Jack", "Kevin", "Louis",
        "Martin", "Nathan", "Oliver", "Peter", "Ralph", "Samuel", "Thomas", "Victor", "William", "Xavier")
_WOMEN = ("Alice", "Beatrice", "Clara", "Diana", "Emily", "Fiona", "Grace", "Helen", "Irene", "Julia", "Karen",
          "Laura", "Monica", "Nora", "Olivia", "Paula", "Rachel", "Sophie", "Tina", "Ursula", "Vera", "Wendy")
# fmt: on
_CORE = ("father", "mother", "son", "daughter", "brother", "sister", "husband", "wife", "grandfather", "grandmother",
         "grandson", "granddaughter")
_EXTENDED = ("uncle", "aunt", "nephew", "niece", "cousin")
_IN_LAW = ("father-in-law", "mother-in-law", "son-in-law", "daughter-in-law", "brother-in-law", "sister-in-law")
_GREAT = ("great-grandfather", "great-grandmother", "great-grandson", "great-granddaughter")
# "Ada is Ben's aunt", "Ada is the aunt of Ben", "Ben's aunt": the names must be the asked ones, in order.
_SENTENCES = (
    re.compile(r"^\s*(?P<x>[A-Za-z]+)\s+is\s+(?:the\s+)?(?P<y>[A-Za-z]+)['’]s?\s+(?P<r>.+?)\s*\.?\s*$"),
    re.compile(r"^\s*(?P<x>[A-Za-z]+)\s+is\s+(?:the|a|an)\s+(?P<r>.+?)\s+of\s+(?P<y>[A-Za-z]+)\s*\.?\s*$"),
    re.compile(r"^\s*(?P<y>[A-Za-z]+)['’]s?\s+(?P<r>.+?)\s*\.?\s*$"),
)


@register
class Kinship(Task):
    id = "deduction/kinship"
    # v4: level 2 asks 15 relation words (was 11). v3: the top level asks three relations at once (one word was a learnable guess)
    version = 5  # v5: levels 2-4 ask every word of the levels below too, so no cue tells a blood word from its neighbour
    family = "deduction"
    description = "Name how two people in a described family are related (aunt, cousin, father-in-law, ...)."
    tags = ("logic", "deduction", "kinship", "reasoning")

    @dataclass(frozen=True)
    class Config:
        generations: int
        children: tuple[int, int]  # children per couple, drawn from this range
        relations: tuple[str, ...]
        questions: int = 1  # pairs asked about in one family, answered together

    presets = (
        Config(generations=3, children=(1, 2), relations=_CORE),
        Config(generations=3, children=(2, 3), relations=_CORE + _EXTENDED),
        # v5: each level asks the words of the ones below too (v4 left the blood words out of levels 2-4, v3 also the
        # grandparents of level 2); larger families at level 2 keep the difficulty growing
        Config(generations=3, children=(2, 4), relations=_CORE + _EXTENDED + _IN_LAW),
        Config(generations=4, children=(2, 3), relations=_CORE + _EXTENDED + _IN_LAW + _GREAT),
        Config(generations=4, children=(2, 4), relations=_CORE + _EXTENDED + _IN_LAW + _GREAT, questions=3),
    )
    bounded = "its difficulty measure stops growing with larger sizes past the presets (level 7 to 8)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        if config.questions > 1:
            return self._several(rng, config)
        relation = rng.choice(config.relations)
        people, x, y = retry(lambda: _draw(rng, config, relation), what=f"a pair related as {relation}")
        facts = _facts(people)
        rng.shuffle(facts)
        names = [p["name"] for p in people]
        vocabulary = sorted(set(_CORE + _EXTENDED + _IN_LAW + _GREAT))
        prompt = (
            "Facts about a family:\n" + "\n".join(f"- {f}" for f in facts)
            + f"\n\nHow is {names[x]} related to {names[y]}? Complete the sentence \"{names[x]} is {names[y]}'s "
            "___\" with one word from this list: " + ", ".join(vocabulary)
            + ". Aunts and uncles include the spouses of a parent's siblings; in-laws are related through a "
            "spouse; cousins are children of a parent's siblings. Answer with the word only, for example: "
            + "nephew"  # a fixed placeholder: independent of the answer
        )
        data = {"people": people, "x": x, "y": y, "relation": relation}
        return Problem(prompt=prompt, answer=relation, data=data)

    def _several(self, rng: random.Random, config: Config) -> Problem:
        relations = [rng.choice(config.relations) for _ in range(config.questions)]
        people, pairs = retry(lambda: _draw_several(rng, config, relations), attempts=400,
                              what=f"pairs related as {', '.join(relations)}")
        facts = _facts(people)
        rng.shuffle(facts)
        names = [p["name"] for p in people]
        vocabulary = sorted(set(_CORE + _EXTENDED + _IN_LAW + _GREAT))
        asked = "\n".join(f"{i}. {names[x]} is {names[y]}'s ___" for i, (x, y) in enumerate(pairs, 1))
        prompt = (
            "Facts about a family:\n" + "\n".join(f"- {f}" for f in facts)
            + "\n\nHow are these people related? Complete each sentence with one word from this list: "
            + ", ".join(vocabulary)
            + ".\n" + asked + "\nAunts and uncles include the spouses of a parent's siblings; in-laws are related "
            "through a spouse; cousins are children of a parent's siblings. Answer with the words only, one a line "
            "in the order asked, for example:\n" + "\n".join(("nephew", "aunt", "cousin", "son")[: len(pairs)])
        )
        data = {"people": people, "x": pairs[0][0], "y": pairs[0][1], "relation": relations[0],
                "pairs": [list(pair) for pair in pairs], "relations": relations}
        return Problem(prompt=prompt, answer="\n".join(relations), data=data)

    def difficulty(self, problem: Problem) -> float:
        """People in the family plus three times the links between the two people (parent and marriage steps),
        summed over the pairs asked."""
        people = problem.data["people"]
        pairs = problem.data.get("pairs") or [[problem.data["x"], problem.data["y"]]]
        return float(sum(len(people) + 3 * _distance(people, x, y) for x, y in pairs))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        people = problem.data["people"]
        if len(problem.data.get("pairs") or []) > 1:
            return _verify_several(problem.data, answer)
        said = _read_relation(answer, people[problem.data["x"]]["name"], people[problem.data["y"]]["name"])
        if said is None:
            return Verdict.unparsed("expected one relation word, such as aunt")
        return Verdict.judge(said == problem.data["relation"], "wrong relation")

    def spellings(self, problem: Problem) -> list[str]:
        if len(problem.data.get("pairs") or []) > 1:
            relations, names = problem.data["relations"], [p["name"] for p in problem.data["people"]]
            pairs = problem.data["pairs"]
            return [*super().spellings(problem), "\n".join(f"{i}. {r}" for i, r in enumerate(relations, 1)),
                    ", ".join(relations), "\n".join(r.replace("-", " ") for r in relations),
                    "\n".join(f"{names[x]} is {names[y]}'s {r}." for (x, y), r in zip(pairs, relations)),
                    "\n".join(f"{i}) {r.upper()}" for i, r in enumerate(relations, 1)), "; ".join(relations) + "."]
        relation = problem.answer or ""
        people = problem.data["people"]
        x, y = people[problem.data["x"]]["name"], people[problem.data["y"]]["name"]
        return [*super().spellings(problem), relation.replace("-", " "), relation.upper(), f"{relation}.",
                f"{x} is {y}'s {relation}.", f"**{relation}**", f"{x} is the {relation} of {y}.",
                f"{y}'s {relation}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        if len(problem.data.get("pairs") or []) > 1:
            relations = problem.data["relations"]
            others = [r for r in (*_CORE, *_EXTENDED, *_IN_LAW, *_GREAT) if r != relations[-1]]
            wrong = ["\n".join(relations[:-1]), "\n".join([*relations[:-1], rng.choice(others)]),
                     "\n".join([*relations[:-1], f"{relations[-1]} or {rng.choice(others)}"]),
                     "\n".join([*relations, relations[0]]), relations[0]]
            if relations[0] != relations[1]:
                wrong.append("\n".join([relations[1], relations[0], *relations[2:]]))
            return [w for w in wrong if not self.verify(problem, w).correct]
        relation = problem.data["relation"]
        opposite = {"father": "mother", "mother": "father", "son": "daughter", "daughter": "son"}
        others = [r for r in (*_CORE, *_EXTENDED, *_IN_LAW, *_GREAT) if r != relation]
        people = problem.data["people"]
        x, y = people[problem.data["x"]]["name"], people[problem.data["y"]]["name"]
        wrong = [rng.choice(others), f"{relation} or {rng.choice(others)}", f"{y} is {x}'s {relation}.",
                 f"{relation}. No wait, {rng.choice(others)}."]
        if relation in opposite:
            wrong.append(opposite[relation])
        if "-in-law" in relation:
            wrong.append(relation.replace("-in-law", ""))
        if relation.startswith("great-"):
            wrong.append(relation[len("great-"):])
        return wrong


def _read_relation(answer: str, x: str, y: str) -> str | None:
    """The relation word of the answer, alone or in a sentence about ``x`` and ``y`` (in that order)."""
    if not isinstance(answer, str) or len(answer) > 300:
        return None
    text = answer.strip()
    for sentence in _SENTENCES:
        match = sentence.match(text)
        if match and match.group("y") == y and match.groupdict().get("x", x) == x:
            text = match.group("r")
            break
    options = {r: (r, r.replace("-", " "), r.replace("-", "")) for r in (*_CORE, *_EXTENDED, *_IN_LAW, *_GREAT)}
    return read_option(text, options)


def _verify_several(data: dict, answer: str) -> Verdict:
    """Every asked relation, one a line in order (``1. aunt`` numbering and sentences are read), or all on one
    line separated by commas or semicolons."""
    if not isinstance(answer, str) or len(answer) > 1_000:
        return Verdict.unparsed("answer too long")
    pairs, relations = data["pairs"], data["relations"]
    names = [p["name"] for p in data["people"]]
    block = read_block(strip_wrappers(unify(answer)), leading="strip")
    lines = [line.strip() for line in block or [] if line.strip()]
    if len(lines) == 1:
        lines = [part.strip() for part in re.split(r"[,;]", lines[0]) if part.strip()]
    if len(lines) != len(pairs):
        return Verdict.unparsed(f"expected {len(pairs)} relation words, one a line in the order asked")
    for i, (line, (x, y), relation) in enumerate(zip(lines, pairs, relations), 1):
        said = _read_relation(_NUMBERING.sub("", line, count=1), names[x], names[y])
        if said is None:
            return Verdict.unparsed(f"line {i}: expected one relation word, such as aunt")
        if said != relation:
            return Verdict.wrong(f"relation {i} is wrong")
    return Verdict.right()


_NUMBERING = re.compile(r"^\s*(?:[-*•]\s*)?\(?\d{1,2}[.):]\s*")


def _draw_several(rng: random.Random, config: Kinship.Config,
                  relations: list[str]) -> tuple[list[dict], list[tuple[int, int]]] | None:
    """A family with a distinct pair for each relation (each related in exactly that one way), or None."""
    people = _family(rng, config.generations, config.children)
    pairs = [(x, y) for x in range(len(people)) for y in range(len(people)) if x != y]
    rng.shuffle(pairs)
    links = _links(people)
    chosen: list[tuple[int, int]] = []
    for relation in relations:
        pair = next((p for p in pairs if p not in chosen and _relations(people, *p, links) == [relation]), None)
        if pair is None:
            return None
        chosen.append(pair)
    return people, chosen


def _draw(rng: random.Random, config: Kinship.Config, relation: str) -> tuple[list[dict], int, int] | None:
    people = _family(rng, config.generations, config.children)
    pairs = [(x, y) for x in range(len(people)) for y in range(len(people)) if x != y]
    rng.shuffle(pairs)
    links = _links(people)  # built once for the many pairs tried
    for x, y in pairs:
        found = _relations(people, x, y, links)
        if found == [relation]:
            return people, x, y
    return None


def _family(rng: random.Random, generations: int, children: tuple[int, int]) -> list[dict]:
    """People with name, sex ("m"/"f"), parents (indices) and spouse (index or None)."""
    men, women = list(_MEN), list(_WOMEN)
    rng.shuffle(men)
    rng.shuffle(women)

    def person(sex: str, parents: list[int]) -> dict:
        name = men.pop() if sex == "m" else women.pop()
        return {"name": name, "sex": sex, "parents": parents, "spouse": None}

    people = [person("m", []), person("f", [])]
    people[0]["spouse"], people[1]["spouse"] = 1, 0
    couples = [(0, 1)]
    for _ in range(generations - 1):
        next_couples = []
        for a, b in couples:
            for _ in range(rng.randint(*children)):
                if len(men) < 2 or len(women) < 2:
                    break
                child = len(people)
                people.append(person(rng.choice("mf"), [a, b]))
                if rng.random() < 0.6:  # marries someone from outside the family
                    spouse = len(people)
                    people.append(person("f" if people[child]["sex"] == "m" else "m", []))
                    people[child]["spouse"], people[spouse]["spouse"] = spouse, child
                    next_couples.append((child, spouse) if people[child]["sex"] == "m" else (spouse, child))
        couples = next_couples
    return people


def _facts(people: list[dict]) -> list[str]:
    facts = []
    for p in people:
        if p["parents"]:
            a, b = p["parents"]
            word = "son" if p["sex"] == "m" else "daughter"
            facts.append(f"{p['name']} is the {word} of {people[a]['name']} and {people[b]['name']}.")
        if p["spouse"] is not None and p["sex"] == "m":
            facts.append(f"{p['name']} is the husband of {people[p['spouse']]['name']}.")
    return facts


_Links = tuple[dict[int, set[int]], dict[int, Any], dict[int, set[int]]]


def _links(people: list[dict]) -> _Links:
    """Every person's parents, spouse and siblings (full siblings: the same two parents)."""
    parents = {i: set(p["parents"]) for i, p in enumerate(people)}
    spouse = {i: p["spouse"] for i, p in enumerate(people)}
    sibling_sets = {i: {j for j in parents if j != i and parents[i] and parents[j] == parents[i]} for i in parents}
    return parents, spouse, sibling_sets


def _relations(people: list[dict], x: int, y: int, links: _Links | None = None) -> list[str]:
    """Every relation term that makes "x is y's <term>" true (``links``: :func:`_links` of ``people``, when the
    caller already has it)."""
    parents, spouse, sibling_sets = links or _links(people)
    male = people[x]["sex"] == "m"

    def word(man: str, woman: str) -> str:
        return man if male else woman

    def grand(i: int) -> set[int]:
        return {g for p in parents[i] for g in parents[p]}

    def siblings(i: int) -> set[int]:
        return sibling_sets[i]

    def in_law_siblings(i: int) -> set[int]:
        via_spouse = siblings(spouse[i]) if spouse[i] is not None else set()
        married_to_siblings = {spouse[s] for s in siblings(i) if spouse[s] is not None}
        return via_spouse | married_to_siblings

    out = []
    if x in parents[y]:
        out.append(word("father", "mother"))
    if y in parents[x]:
        out.append(word("son", "daughter"))
    if x in siblings(y):
        out.append(word("brother", "sister"))
    if spouse[y] == x:
        out.append(word("husband", "wife"))
    if x in grand(y):
        out.append(word("grandfather", "grandmother"))
    if y in grand(x):
        out.append(word("grandson", "granddaughter"))
    if x in {g for p in parents[y] for g in grand(p)}:
        out.append(word("great-grandfather", "great-grandmother"))
    if y in {g for p in parents[x] for g in grand(p)}:
        out.append(word("great-grandson", "great-granddaughter"))
    aunts = {s for p in parents[y] for s in siblings(p)}
    aunts |= {spouse[s] for s in aunts if spouse[s] is not None}
    if x in aunts:
        out.append(word("uncle", "aunt"))
    nieces = {s for p in parents[x] for s in siblings(p)}
    nieces |= {spouse[s] for s in nieces if spouse[s] is not None}
    if y in nieces:
        out.append(word("nephew", "niece"))
    if any(px in siblings(py) for px in parents[x] for py in parents[y]):
        out.append("cousin")
    if spouse[y] is not None and x in parents[spouse[y]]:
        out.append(word("father-in-law", "mother-in-law"))
    if spouse[x] is not None and y in parents[spouse[x]]:
        out.append(word("son-in-law", "daughter-in-law"))
    if x in in_law_siblings(y):
        out.append(word("brother-in-law", "sister-in-law"))
    return out


def _distance(people: list[dict], x: int, y: int) -> int:
    """Parent, child and marriage links on a shortest path from x to y."""
    links: dict[int, set[int]] = {i: set() for i in range(len(people))}
    for i, p in enumerate(people):
        for parent in p["parents"]:
            links[i].add(parent)
            links[parent].add(i)
        if p["spouse"] is not None:
            links[i].add(p["spouse"])
    distance = {x: 0}
    queue = [x]
    for node in queue:
        for nxt in links[node]:
            if nxt not in distance:
                distance[nxt] = distance[node] + 1
                queue.append(nxt)
    return distance.get(y, len(people))
