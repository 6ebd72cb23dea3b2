"""Implement Go struct types satisfying stated interfaces (value and pointer receivers), exercised by a hidden driver.

Each problem states an interface with a cost and a label method, a second interface with a mutating ``Scale``
method, and 2-4 struct types (names and fields drawn) with each type's cost formula (linear, product, or a
ceiling division), label format and whether it is scalable; plus a function summing the costs of a slice of the
interface. Scaling must change the value the driver holds, which takes a pointer receiver: with a value receiver
the method still satisfies the interface but scales a copy.

How it is judged: the answer is Go code (package main, without ``main``) defining the interfaces, the types,
their methods and the function; our driver (``main.go``, compiled with it by Go 1.19) builds hidden slices of
``&Type{Field: v, ...}`` values, prints every label and cost and the total, scales the items that satisfy the
second interface (a type assertion), and prints their costs and the total again. The trusted parent compares each
line with the Python model of the specification; the hidden slices always hold a scalable item whose cost changes.

Version 2: the hidden items also tell a ceiling division from its slips (CEIL_SLIPS: plain division, and
``(v1 + d) / d``), drawing multiples of d more often. In version 1 ``(v1 + d) / d`` passed 0.08-0.36 of the
problems with a ceiling type (level 4 to 0) and plain division up to 0.14; now 0.00.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.code._driven import DrivenTask
from palaestra.envs.code._polyglot import convention
from palaestra.envs.code.templates import ProgramTexts

CODE = ProgramTexts("go_structs_interfaces")
TYPES = (("Book", "book", "Pages", "Copies"), ("Crate", "crate", "Weight", "Count"), ("Ticket", "ticket", "Zone",
         "Rides"), ("Lamp", "lamp", "Watts", "Hours"), ("Plank", "plank", "Length", "Width"),
         ("Parcel", "parcel", "Grams", "Stamps"), ("Rental", "rental", "Days", "Rate"))
NAMES = {"iface": ("Priced", "Item", "Asset", "Billable"), "cost": ("Cost", "Price", "Value"),
         "label": ("Label", "Name", "Describe"), "adjustable": ("Scalable", "Adjustable", "Resizable"),
         "scale": ("Scale", "Adjust", "Resize"), "total": ("Total", "SumCosts", "TotalCost")}
LABELS = ("{word}:%d", "{word}[%d/%d]", "%d-{word}s")  # the label of a value: its word and field values


def draw_type(rng: random.Random, spec: tuple[str, str, str, str]) -> dict[str, Any]:
    name, word, f1, f2 = spec
    return {"type": name, "word": word, "f1": f1, "f2": f2, "formula": rng.choice(("linear", "product", "ceil")),
            "a": rng.randint(1, 5), "b": rng.randint(0, 4), "c": rng.randint(0, 9), "d": rng.randint(2, 5),
            "label": rng.randrange(len(LABELS)), "scalable": False, "field": rng.choice((1, 2))}


def cost(t: dict[str, Any], v1: int, v2: int) -> int:
    if t["formula"] == "linear":
        return t["a"] * v1 + t["b"] * v2 + t["c"]
    if t["formula"] == "product":
        return v1 * v2 + t["c"]
    return (v1 + t["d"] - 1) // t["d"] * v2


# The ceiling division's plausible slips, which the hidden items must tell from it: plain division (rounding
# down), and (v1 + d) / d, one too many when d divides v1.
CEIL_SLIPS = (lambda v1, d: v1 // d, lambda v1, d: (v1 + d) // d)


def label(t: dict[str, Any], v1: int, v2: int) -> str:
    shape = LABELS[t["label"]].format(word=t["word"])
    values = (v1,) if t["label"] == 0 else (v1, v2) if t["label"] == 1 else (v2,)
    return shape % values


def describe(t: dict[str, Any], names: dict[str, str]) -> str:
    f1, f2 = t["f1"], t["f2"]
    formula = {"linear": f"{t['a']}*{f1} + {t['b']}*{f2} + {t['c']}", "product": f"{f1}*{f2} + {t['c']}",
               "ceil": f"{f1} divided by {t['d']} rounded up, times {f2}"}[t["formula"]]
    shown = label(t, 7, 3)
    scale = (f"{names['scale']}(percent) sets {t['f' + str(t['field'])]} to {t['f' + str(t['field'])]} * percent / "
             "100 (integer division)" if t["scalable"] else f"it does not implement {names['adjustable']}")
    return (f"- {t['type']} with int fields {f1} and {f2}: {names['cost']}() is {formula}; {names['label']}() is "
            f"like {shown} for {f1} = 7, {f2} = 3; {scale}.")


def run(types: dict[str, dict[str, Any]], test: dict[str, Any]) -> list[str]:
    """The driver's lines for one test, from the Python model."""
    items = [[name, v1, v2] for name, v1, v2 in test["items"]]
    out = [f"{label(types[n], v1, v2)} {cost(types[n], v1, v2)}" for n, v1, v2 in items]
    out.append(f"total {sum(cost(types[n], v1, v2) for n, v1, v2 in items)}")
    for item in items:
        t = types[item[0]]
        if t["scalable"]:
            item[t["field"]] = item[t["field"]] * test["percent"] // 100
            out.append(f"scaled {cost(t, item[1], item[2])}")
        else:
            out.append("fixed")
    out.append(f"total {sum(cost(types[n], v1, v2) for n, v1, v2 in items)}")
    return out


@register
class GoStructsInterfaces(DrivenTask):
    id = "code/go_structs_interfaces"
    description = "Implement Go struct types satisfying stated interfaces (pointer receivers), run by a hidden driver."
    tags = ("code", "programming", "go", "object-oriented")
    languages = ("go",)
    toolchains = languages
    version = 2

    @dataclass(frozen=True)
    class Config:
        types: int
        items: int  # most items per hidden slice
        tests: int

    presets = (Config(types=2, items=3, tests=2), Config(types=2, items=4, tests=3), Config(types=3, items=5, tests=3),
               Config(types=3, items=7, tests=4), Config(types=4, items=9, tests=5))
    growth = Growth(limits={"types": len(TYPES), "items": 400, "tests": 10}, factors={"items": 1.4})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        names = {role: rng.choice(options) for role, options in NAMES.items()}
        specs = rng.sample(TYPES, config.types)

        def first_value(t: dict[str, Any]) -> int:
            if t["formula"] == "ceil" and rng.random() < 0.4:  # a multiple of d, where (v1 + d) / d is one too many
                return rng.randint(0, 40 // t["d"]) * t["d"]
            return rng.randint(0, 40)

        def draw_tests(types: dict[str, dict[str, Any]]) -> list[dict[str, Any]] | None:
            tests: list[dict[str, Any]] = []
            for _ in range(config.tests):
                names = [rng.choice(sorted(types)) for _ in range(rng.randint(1, config.items))]
                tests.append({"items": [[n, first_value(types[n]), rng.randint(0, 12)] for n in names],
                              "percent": rng.choice((50, 150, 200, 25, 75, 120))})
            scaled = any(types[n]["scalable"] and cost(types[n], v1, v2) != cost(
                types[n], *self._scaled(types[n], v1, v2, t["percent"])) for t in tests for n, v1, v2 in t["items"])
            return tests if scaled and self._tells_ceil_slips(types, tests) else None

        def draw() -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]] | None:
            types = {spec[0]: draw_type(rng, spec) for spec in specs}
            for name in rng.sample(sorted(types), rng.randint(1, config.types - 1)):
                types[name]["scalable"] = True
            for _ in range(8):  # several test draws per set of types: one that is hard to pin would get rarer
                tests = draw_tests(types)
                if tests is not None:
                    return types, tests
            return None

        types, tests = retry(draw, attempts=50, what="hidden slices where scaling changes a cost")
        data = {"names": names, "types": types, "tests": tests,
                "expected": [line for t in tests for line in run(types, t)], "languages": list(self.languages),
                "gold": "go"}
        n = names
        prompt = (
            f"Write Go types for a test driver. Define the interfaces\n\n    type {n['iface']} interface {{ "
            f"{n['cost']}() int; {n['label']}() string }}\n    type {n['adjustable']} interface {{ "
            f"{n['scale']}(percent int) }}\n\nand these struct types (exactly these type and field names; all "
            f"arithmetic on ints):\n" + "\n".join(describe(t, n) for t in types.values())
            + f"\n\nAlso define func {n['total']}(items []{n['iface']}) int, the sum of the items' {n['cost']}().\n\n"
            f"The driver (package main, Go 1.19, standard library only) builds hidden slices of {n['iface']} holding "
            f"pointers such as &{specs[0][0]}{{{specs[0][2]}: 7, {specs[0][3]}: 3}}, prints every item's "
            f"{n['label']}() and {n['cost']}() and the {n['total']}, then calls {n['scale']} on every item that "
            f"implements {n['adjustable']} (a type assertion) and prints the new costs and {n['total']}: scaling must "
            f"change the item the slice holds. Do not define main. "
            + convention(self.languages, shape=f"package main\n\nimport \"fmt\"\n\ntype {n['iface']} interface {{\n"
                                               "\t// ...\n}\n\n// the types and their methods")
        )
        return Problem(prompt=prompt, answer=f"```go\n{self.reference(data)}\n```", data=data)

    @staticmethod
    def _tells_ceil_slips(types: dict[str, dict[str, Any]], tests: list[dict[str, Any]]) -> bool:
        """Whether, for each type with a ceiling division, each slip of CEIL_SLIPS misprices some hidden item (before
        or after scaling; a cost with the field it multiplies at 0 hides it)."""
        def values(name: str) -> list[tuple[int, int]]:
            t = types[name]
            return [pair for test in tests for n, v1, v2 in test["items"] if n == name for pair in
                    ((v1, v2), GoStructsInterfaces._scaled(t, v1, v2, test["percent"]) if t["scalable"] else (v1, v2))]

        return all(any(slip(v1, t["d"]) * v2 != cost(t, v1, v2) for v1, v2 in values(name))
                   for name, t in types.items() if t["formula"] == "ceil" for slip in CEIL_SLIPS)

    @staticmethod
    def _scaled(t: dict[str, Any], v1: int, v2: int, percent: int) -> tuple[int, int]:
        return (v1 * percent // 100, v2) if t["field"] == 1 else (v1, v2 * percent // 100)

    def reference(self, data: dict[str, Any], value_scale: bool = False) -> str:
        """The gold program (``value_scale``: the scaling method on a value receiver, a near miss)."""
        n = data["names"]
        blocks = []
        for t in data["types"].values():
            r = t["type"][0].lower()
            formula = {"linear": f"{t['a']}*{r}.{t['f1']} + {t['b']}*{r}.{t['f2']} + {t['c']}",
                       "product": f"{r}.{t['f1']}*{r}.{t['f2']} + {t['c']}",
                       "ceil": f"({r}.{t['f1']} + {t['d'] - 1}) / {t['d']} * {r}.{t['f2']}"}[t["formula"]]
            shape = LABELS[t["label"]].format(word=t["word"])
            args = {0: f"{r}.{t['f1']}", 1: f"{r}.{t['f1']}, {r}.{t['f2']}", 2: f"{r}.{t['f2']}"}[t["label"]]
            block = CODE("type", type=t["type"], f1=t["f1"], f2=t["f2"], receiver=r, pointer="", cost=n["cost"],
                         formula=formula, label=n["label"], label_format=shape, label_args=args)
            if t["scalable"]:
                scale = CODE("scale", receiver=r, type=t["type"], scale=n["scale"], field=t[f"f{t['field']}"])
                block += "\n" + (scale.replace(f"({r} *{t['type']})", f"({r} {t['type']})") if value_scale else scale)
            blocks.append(block)
        return CODE("reference", types="\n".join(blocks), **n).strip()

    def driver(self, data: dict[str, Any]) -> str:
        types = data["types"]

        def item(name: str, v1: int, v2: int) -> str:
            return f"&{name}{{{types[name]['f1']}: {v1}, {types[name]['f2']}: {v2}}}"

        tests = "\n".join(f"\t\t{{[]{data['names']['iface']}{{{', '.join(item(*i) for i in t['items'])}}}, "
                          f"{t['percent']}}}," for t in data["tests"])
        return CODE("driver", tests=tests, **data["names"])

    def required_name(self, problem: Problem) -> str | None:
        return problem.data["names"]["total"]

    def mutants(self, problem: Problem, rng: random.Random) -> list[str]:
        """The scaling method on a value receiver (it scales a copy): a scalable item's cost always changes."""
        return [self.reference(problem.data, value_scale=True)]

    def difficulty(self, problem: Problem) -> float:
        """The number of types plus log2 of the hidden items."""
        data = problem.data
        return len(data["types"]) + math.log2(1 + sum(len(t["items"]) for t in data["tests"]))
