"""Extract values from a JSON document by a JSONPath expression, as a list in document order.

A generated store catalogue (a featured item, departments on floors, items with sku, name, price, stock
and tags) and a JSONPath expression are given; the expression uses the common subset: ``$`` the root,
``.key`` a member, ``[n]`` an index (negative from the end), ``[a:b]`` a slice (end excluded), ``[*]``
every element, ``..key`` every ``key`` member at any depth, and filters ``[?(@.price < 20)]`` with
``&&`` / ``||`` over numeric comparisons. The answer is the list of extracted values in the order they
appear in the document (which is the order every step above keeps); duplicates stay. The verifier
reads a list (brackets and quotes optional) and compares it item by item with the reference, numbers
exactly; it names the first position that differs. Problems are redrawn until the result is non-empty
and, for every filter, index and slice, differs from the selection without that step (v1 checked filters only:
a slice or an index that kept every element let a reader who ignored it score 49% of level 0).

Difficulty: the items in the document, plus the path's steps, plus twice its selecting steps, plus the values
extracted. Results have at least two values (a lone tag would be easy to guess).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.data.common import WORDS, exact_text
from palaestra.verifiers.normalize import markup_spellings
from palaestra.verifiers.numeric import read_exact
from palaestra.verifiers.sets import read_list, read_token

EXAMPLE = '["XX-000", "YY-111"]'  # a fixed placeholder: never derived from the answer
TAGS = ("sale", "new", "eco", "fragile", "bulk", "gift")
NUMERIC = ("price", "stock")
OPERATORS = ("<", "<=", ">", ">=", "==")


def _compare(left: Fraction, op: str, right: Fraction) -> bool:
    return {"<": left < right, "<=": left <= right, ">": left > right, ">=": left >= right, "==": left == right}[op]


def _value(node: Any, key: str) -> Fraction | None:
    if not isinstance(node, dict) or key not in node:
        return None
    return Fraction(node[key], 100) if key == "price" else Fraction(node[key])


def _matches(node: Any, step: list) -> bool:
    results = []
    for key, op, number in step[1]:
        value = _value(node, key)
        bound = Fraction(number, 100 if key == "price" else 1)  # prices are kept in cents
        results.append(value is not None and _compare(value, op, bound))
    return all(results) if step[2] == "&&" else any(results)


def _descendants(node: Any, key: str) -> list[Any]:
    """Every ``key`` member at any depth, in document (pre-)order."""
    found = []
    if isinstance(node, dict):
        for name, child in node.items():
            if name == key:
                found.append(child)
            found.extend(_descendants(child, key))
    elif isinstance(node, list):
        for child in node:
            found.extend(_descendants(child, key))
    return found


def select(document: Any, path: list[list]) -> list[Any]:
    """The nodes ``path`` selects, in document order."""
    nodes = [document]
    for step in path:
        kind, following = step[0], []
        for node in nodes:
            if kind == "key" and isinstance(node, dict) and step[1] in node:
                following.append(node[step[1]])
            elif kind == "descend":
                following.extend(_descendants(node, step[1]))
            elif isinstance(node, list):
                if kind == "wild":
                    following.extend(node)
                elif kind == "index" and -len(node) <= step[1] < len(node):
                    following.append(node[step[1]])
                elif kind == "slice":
                    following.extend(node[step[1] : step[2]])
                elif kind == "filter":
                    following.extend(child for child in node if _matches(child, step))
        nodes = following
    return nodes


def path_text(path: list[list]) -> str:
    out = "$"
    for step in path:
        kind = step[0]
        if kind == "key":
            out += f".{step[1]}"
        elif kind == "descend":
            out += f"..{step[1]}"
        elif kind == "wild":
            out += "[*]"
        elif kind == "index":
            out += f"[{step[1]}]"
        elif kind == "slice":
            out += f"[{step[1]}:{step[2]}]"
        else:
            joiner = f" {step[2]} "
            out += "[?(" + joiner.join(f"@.{key} {op} {_number_text(key, n)}" for key, op, n in step[1]) + ")]"
    return out


def _number_text(key: str, number: int) -> str:
    return exact_text(Fraction(number, 100 if key == "price" else 1))  # prices are kept in cents


def _render(value: Any, key: str = "") -> str:
    """The document's JSON text: prices (kept in cents) as decimals, each item on one line."""
    if key == "price":
        return exact_text(Fraction(value, 100))
    if isinstance(value, dict):
        return "{" + ", ".join(f'"{k}": {_render(v, k)}' for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_render(v) for v in value) + "]"
    return json.dumps(value)


def _document_text(document: dict) -> str:
    lines = ["{", f'  "store": {_render(document["store"])},', f'  "featured": {_render(document["featured"])},',
             '  "departments": [']
    for d, department in enumerate(document["departments"]):
        head = ", ".join(f'"{k}": {_render(v, k)}' for k, v in department.items() if k != "items")
        lines.append(f"    {{{head}, \"items\": [")
        items = department["items"]
        lines.extend(f"      {_render(item)}{',' if i < len(items) - 1 else ''}" for i, item in enumerate(items))
        lines.append("    ]}" + ("," if d < len(document["departments"]) - 1 else ""))
    lines += ["  ]", "}"]
    return "\n".join(lines)


def _item_text(value: Any, key: str) -> str:
    return exact_text(Fraction(value, 100)) if key == "price" else str(value)


@register
class JsonPath(Task):
    id = "data/json_path"
    family = "data"
    description = "Extract the values a JSONPath expression selects from a JSON document, as a list in order."
    tags = ("data", "json", "extraction")
    version = 2  # v2: an index or slice that kept every element is redrawn (ignoring a slice paid 49% at level 0)

    @dataclass(frozen=True)
    class Config:
        departments: int
        items: int  # the most items per department
        selectors: int  # how many of the path's steps select among elements (index, slice, filter, descent)
        conditions: int  # the most comparisons in one filter

    presets = (Config(2, 3, 1, 1), Config(3, 3, 1, 1), Config(3, 4, 2, 1), Config(4, 5, 2, 2), Config(5, 6, 2, 2))
    growth = Growth(steps={"departments": 1, "items": 1}, limits={"departments": 12, "items": 12})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[dict, list[list], str, list[Any]] | None:
            document = _catalogue(rng, config)
            path, field = _path(rng, config)
            nodes = select(document, path)
            values = [node for node in nodes if not isinstance(node, (dict, list))]
            if len(values) < 2 or len(values) != len(nodes):  # one value (a lone tag) is too easy to guess
                return None
            for at, step in enumerate(path):  # every selecting step selects: without it the result differs
                if step[0] in ("filter", "index", "slice") and \
                        select(document, [*path[:at], ["wild"], *path[at + 1:]]) == nodes:
                    return None
            return document, path, field, values

        document, path, field, values = retry(draw, attempts=300, what="a path with a non-trivial result")
        items = [_item_text(v, field) for v in values]
        prompt = (
            f"Here is a JSON document:\n\n{_document_text(document)}\n\nEvaluate the JSONPath expression\n\n"
            f"    {path_text(path)}\n\n"
            "($ is the root, .key a member, [n] an index counted from 0 (negative from the end), [a:b] a slice "
            "without its end, [*] every element, ..key every key member at any depth, [?(...)] the elements "
            "for which the condition holds; && is and, || is or.)\n\n"
            "List the values it selects in the order they appear in the document, keeping repeats, as a JSON "
            f"array, for example: {EXAMPLE}"
        )
        data = {"path": path, "field": field, "values": items, "numeric": field in NUMERIC,
                "items": sum(len(d["items"]) for d in document["departments"])}
        return Problem(prompt=prompt, answer=json.dumps(items if field not in NUMERIC else values_json(items)),
                       data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        numeric = problem.data["numeric"]
        truth = problem.data["values"]
        given = read_list(answer, read_exact if numeric else read_token, max_items=500)
        if given is None:
            return Verdict.unparsed(f"expected a JSON array of values such as {EXAMPLE}")
        expected = [Fraction(v) for v in truth] if numeric else truth
        for position, (mine, theirs) in enumerate(zip(given, expected, strict=False)):
            if mine != theirs:
                return Verdict.wrong(f"item {position + 1} is wrong")
        if len(given) != len(expected):
            return Verdict.wrong(f"the path selects {'more' if len(given) < len(expected) else 'fewer'} values")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Items in the document + path steps + twice the selecting steps + values extracted."""
        data = problem.data
        selecting = sum(step[0] in ("index", "slice", "filter", "descend") for step in data["path"])
        return float(data["items"] + len(data["path"]) + 2 * selecting + len(data["values"]))

    def spellings(self, problem: Problem) -> list[str]:
        values = problem.data["values"]
        return [*markup_spellings(problem.answer or ""), ", ".join(values), "\n".join(values),
                "[" + ", ".join(f"'{v}'" for v in values) + "]"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        values = problem.data["values"]
        wrong = [json.dumps(values[:-1]) if len(values) > 1 else '["none"]', json.dumps(values + values[:1])]
        if len(set(values)) > 1:
            wrong.append(json.dumps(list(reversed(values))))
        return wrong


def values_json(items: list[str]) -> list[Any]:
    """Numbers as JSON numbers (an exact decimal's text is a valid JSON number)."""
    return [json.loads(item) if "/" not in item else item for item in items]


def _sku(rng: random.Random, category: str) -> str:
    return f"{category[:2].upper()}-{rng.randrange(100, 1000)}"


def _catalogue(rng: random.Random, config: Any) -> dict:
    categories = rng.sample(WORDS["categories"], config.departments)
    departments = []
    for category in categories:
        items = []
        for product in rng.sample(WORDS["products"], rng.randint(max(1, config.items - 2), config.items)):
            items.append({"sku": _sku(rng, category), "name": product, "price": rng.randrange(150, 6000, 25),
                          "stock": rng.choice((0, 0, *range(1, 40))), "tags": sorted(rng.sample(TAGS, rng.randint(0, 2)))})
        manager = rng.choice(WORDS["first_names"])
        departments.append({"name": category, "floor": rng.randint(0, 3), "manager": {"name": manager}, "items": items})
    featured_category = rng.choice(categories)
    featured = {"sku": _sku(rng, featured_category), "name": rng.choice(WORDS["products"]),
                "price": rng.randrange(150, 6000, 25)}
    return {"store": {"city": rng.choice(WORDS["cities"])}, "featured": featured,
            "departments": departments}


def _filter(rng: random.Random, keys: tuple[str, ...], conditions: int) -> list:
    comparisons = []
    for _ in range(rng.randint(1, conditions)):
        key = rng.choice(keys)
        if key == "price":
            number = rng.randrange(500, 5000, 250)
        elif key == "stock":
            number = rng.choice((0, 5, 10, 20))
        else:
            number = rng.randint(0, 3)
        comparisons.append([key, rng.choice(OPERATORS if key != "price" else OPERATORS[:4]), number])
    return ["filter", comparisons, rng.choice(("&&", "||"))]


def _path(rng: random.Random, config: Any) -> tuple[list[list], str]:
    """A path through departments and items to a scalar field, with ``config.selectors`` selecting steps."""
    field = rng.choice(("sku", "name", "price", "stock", "tags"))
    if config.selectors >= 2 and rng.random() < 0.25:
        descended = rng.choice(("sku", "price", "name"))
        return [["descend", descended]], descended

    def selector(keys: tuple[str, ...], size: int) -> list:
        options = ["index", "slice", "filter"]
        kind = rng.choice(options)
        if kind == "index":
            return ["index", rng.choice((0, 1, -1))]
        if kind == "slice":
            start = rng.randint(0, max(0, size - 2))
            return ["slice", start, start + rng.randint(1, 3)]
        return _filter(rng, keys, config.conditions)

    selecting = rng.sample((0, 1), config.selectors) if config.selectors < 2 else [0, 1]
    department_step = selector(("floor",), config.departments) if 0 in selecting else ["wild"]
    item_step = selector(NUMERIC, config.items) if 1 in selecting else ["wild"]
    path = [["key", "departments"], department_step, ["key", "items"], item_step]
    if field == "tags":
        path += [["key", "tags"], rng.choice((["wild"], ["index", 0]))]
    else:
        path.append(["key", field])
    return path, field
