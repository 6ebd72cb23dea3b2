"""Translate a Python function into Go, judged on hidden tests: Python's floor division, ordered dicts and clamped
slices against Go's truncation, unordered maps and panicking slices.

Templates (constants drawn per problem), each needing a Go idiom to keep Python's behaviour:

- **ordered_counts**: counts of ``x % m`` in a dict, listed in first-seen order (Go's ``%`` truncates toward
  zero and a Go map iterates in random order: the keys need their own slice);
- **floor_mix**: a sum of ``x // d - (x % m) * w`` over the list (floor division and modulo on negatives);
- **window_best**: the largest sum of ``xs[i:i + k]`` over every start, the windows near the end shorter
  (Python clamps a slice; Go's ``xs[i:i+k]`` panics past the end);
- **stable_by_key**: ``sorted(xs, key=lambda x: x % m)``, possibly reversed (a stable sort on a floor modulo).

The answer is a Go file (package main, no ``main`` function) defining the function; our driver (``main.go``)
calls it on every hidden test and prints each result with ``fmt.Println`` (a recovered panic prints
``error``). Expected lines come from the Python shown, run in-process.
"""

from __future__ import annotations

import random
from typing import Any

from palaestra.core import register
from palaestra.envs.code._translation import Template, TranslationTask

NAMES = ("combine", "mix", "scan", "fold", "twist", "collect", "gather", "measure")


def _name(rng: random.Random) -> str:
    return rng.choice(NAMES) + rng.choice(("", "List", "Values", "Items"))


def _ints(rng: random.Random, size: int, low: int = -30, high: int = 30) -> list[Any]:
    return [[rng.randint(low, high) for _ in range(size)]]


def _floor_mod(expr: str, m: int) -> str:
    return f"(({expr})%{m} + {m}) % {m}"


def _truncated_mod(m: int) -> str:
    """A Python lambda body computing Go's ``x % m`` (truncating) for the naive translation's mirror."""
    return f"(x % {m} if x >= 0 else -((-x) % {m}))"


class OrderedCounts(Template):
    name, tier = "ordered_counts", 1

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"name": _name(rng), "m": rng.randint(3, 7)}

    def python(self, p: dict[str, Any], key: str = "") -> str:
        key = key or f"x % {p['m']}"
        return (f"def {p['name']}(xs):\n    counts = {{}}\n    for x in xs:\n        key = {key}\n"
                "        counts[key] = counts.get(key, 0) + 1\n    out = []\n    for key in counts:\n"
                "        out.append(key)\n        out.append(counts[key])\n    return out\n")

    def naive_python(self, p: dict[str, Any]) -> str:
        return self.python(p, key=_truncated_mod(p["m"]))

    def reference(self, p: dict[str, Any], key: str = "") -> str:
        key = key or _floor_mod("x", p["m"])
        return (f"func {p['name']}(xs []int) []int {{\n\tcounts := map[int]int{{}}\n\torder := []int{{}}\n"
                f"\tfor _, x := range xs {{\n\t\tkey := {key}\n\t\tif _, seen := counts[key]; !seen {{\n"
                "\t\t\torder = append(order, key)\n\t\t}\n\t\tcounts[key]++\n\t}\n\tout := []int{}\n"
                "\tfor _, key := range order {\n\t\tout = append(out, key, counts[key])\n\t}\n\treturn out\n}\n")

    def naive_target(self, p: dict[str, Any]) -> str:
        return self.reference(p, key=f"x % {p['m']}")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        return _ints(rng, size)


class FloorMix(Template):
    name, tier = "floor_mix", 1

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"name": _name(rng), "d": rng.randint(2, 5), "m": rng.randint(3, 7), "w": rng.randint(2, 4)}

    def python(self, p: dict[str, Any]) -> str:
        return (f"def {p['name']}(xs):\n    total = 0\n    for x in xs:\n"
                f"        total += x // {p['d']} - (x % {p['m']}) * {p['w']}\n    return total\n")

    def naive_python(self, p: dict[str, Any]) -> str:
        return (f"def {p['name']}(xs):\n    total = 0\n    for x in xs:\n"
                f"        q = x // {p['d']} if x >= 0 else -((-x) // {p['d']})\n"
                f"        total += q - {_truncated_mod(p['m'])} * {p['w']}\n    return total\n")

    def reference(self, p: dict[str, Any]) -> str:
        d = p["d"]
        return (f"func {p['name']}(xs []int) int {{\n\ttotal := 0\n\tfor _, x := range xs {{\n\t\tq := x / {d}\n"
                f"\t\tif x%{d} != 0 && x < 0 {{\n\t\t\tq--\n\t\t}}\n\t\tr := {_floor_mod('x', p['m'])}\n"
                f"\t\ttotal += q - r*{p['w']}\n\t}}\n\treturn total\n}}\n")

    def naive_target(self, p: dict[str, Any]) -> str:
        return (f"func {p['name']}(xs []int) int {{\n\ttotal := 0\n\tfor _, x := range xs {{\n"
                f"\t\ttotal += x/{p['d']} - (x%{p['m']})*{p['w']}\n\t}}\n\treturn total\n}}\n")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        return _ints(rng, size)


class WindowBest(Template):
    name, tier = "window_best", 2

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"name": _name(rng), "k": rng.randint(2, 4), "start": rng.choice((0, -100))}

    def python(self, p: dict[str, Any], clamp: bool = True) -> str:
        guard = "" if clamp else f"        if i + {p['k']} > len(xs):\n            raise IndexError\n"
        return (f"def {p['name']}(xs):\n    best = {p['start']}\n    for i in range(len(xs)):\n{guard}"
                f"        best = max(best, sum(xs[i:i + {p['k']}]))\n    return best\n")

    def naive_python(self, p: dict[str, Any]) -> str:
        return self.python(p, clamp=False)

    def reference(self, p: dict[str, Any], clamp: bool = True) -> str:
        k = p["k"]
        end = (f"\t\tend := i + {k}\n\t\tif end > len(xs) {{\n\t\t\tend = len(xs)\n\t\t}}\n" if clamp
               else f"\t\tend := i + {k}\n")
        return (f"func {p['name']}(xs []int) int {{\n\tbest := {p['start']}\n\tfor i := range xs {{\n{end}"
                "\t\tsum := 0\n\t\tfor _, x := range xs[i:end] {\n\t\t\tsum += x\n\t\t}\n"
                "\t\tif sum > best {\n\t\t\tbest = sum\n\t\t}\n\t}\n\treturn best\n}\n")

    def naive_target(self, p: dict[str, Any]) -> str:
        return self.reference(p, clamp=False)

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        return _ints(rng, size, -20, 12)


class StableByKey(Template):
    name, tier = "stable_by_key", 2

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"name": _name(rng), "m": rng.randint(3, 6), "reverse": rng.random() < 0.5}

    def python(self, p: dict[str, Any], key: str = "") -> str:
        key = key or f"x % {p['m']}"
        reverse = ", reverse=True" if p["reverse"] else ""
        return f"def {p['name']}(xs):\n    return sorted(xs, key=lambda x: {key}{reverse})\n"

    def naive_python(self, p: dict[str, Any]) -> str:
        return self.python(p, key=_truncated_mod(p["m"]))

    def reference(self, p: dict[str, Any], floor: bool = True) -> str:
        m = p["m"]
        key_a, key_b = ((_floor_mod("out[a]", m), _floor_mod("out[b]", m)) if floor
                        else (f"out[a]%{m}", f"out[b]%{m}"))
        order = ">" if p["reverse"] else "<"
        return (f"import \"sort\"\n\nfunc {p['name']}(xs []int) []int {{\n\tout := append([]int{{}}, xs...)\n"
                f"\tsort.SliceStable(out, func(a, b int) bool {{\n\t\treturn {key_a} {order} {key_b}\n\t}})\n"
                "\treturn out\n}\n")

    def naive_target(self, p: dict[str, Any]) -> str:
        return self.reference(p, floor=False)

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        return _ints(rng, size)


TEMPLATES: dict[str, Template] = {t.name: t for t in (OrderedCounts(), FloorMix(), WindowBest(), StableByKey())}

DRIVER = """package main

import "fmt"

func translationDriverRun(call func() interface{}) {
\tdefer func() {
\t\tif recover() != nil {
\t\t\tfmt.Println("error")
\t\t}
\t}()
\tfmt.Println(call())
}

func main() {
CALLS}
"""


@register
class PythonToGo(TranslationTask):
    id = "code/python_to_go"
    description = "Translate a Python function into Go (floor division, ordered dicts, clamped slices) on hidden tests."
    tags = ("code", "translation", "go", "python")
    version = 2
    target = "go"
    toolchains = ("go",)
    templates = TEMPLATES
    signature_hint = ("Write it as a Go function `{name}` in package main taking `xs []int` (and returning `int` or "
                      "`[]int` as the Python returns a number or a list); imports go in your file.")

    def render(self, value: Any) -> str:
        if isinstance(value, list):
            return "[" + " ".join(str(v) for v in value) + "]"
        return str(value)

    def driver(self, name: str, tests: list[list[Any]]) -> str:
        calls = "".join(f"\ttranslationDriverRun(func() interface{{}} {{ return {name}([]int{{"
                        f"{', '.join(map(str, args[0]))}}}) }})\n" for args in tests)
        return DRIVER.replace("CALLS", calls)

    def file(self, code: str) -> str:
        return f"package main\n\n{code}"

    def shape(self, name: str) -> str:
        return f"package main\n\nfunc {name}(xs []int) int {{\n\t// ...\n}}"
