"""Write a JavaScript function that transforms JSON data: records, nested objects, keys, query strings.

The answer is JavaScript code defining the function (a ``function`` declaration, a ``const``
arrow function, or ``module.exports``). Our trusted driver (``main.js``) loads it with
``vm.runInThisContext``, calls it on each hidden test's arguments (parsed from JSON) and prints
``JSON.stringify`` of each result on its own line; the trusted parent parses every line and
compares it with the value from our Python reference (object keys in any order, arrays in order,
numbers by value, booleans never numbers).

Templates (parameters vary the field names, the rule and the aggregate):

- **group_records**: group an array of records by a field and aggregate another (count, sum,
  maximum, minimum, sorted list of names, average rounded down);
- **array_ops**: chunk an array, sum sliding windows, running totals, interleave, pairwise
  differences;
- **key_case**: rename every key of a nested structure between camelCase, snake_case and
  kebab-case;
- **flatten**: flatten a nested object into one level with joined keys (arrays as leaves or
  indexed), or rebuild the nested object;
- **query_string**: parse a query string into an object (repeated keys kept as lists or last
  wins, ``+`` and ``%XX`` decoded), or build one from an object with sorted keys;
- **deep_merge**: merge two nested objects with a generated conflict policy.
"""

from __future__ import annotations

import functools
import json
import math
import random
import re
from collections.abc import Callable
from typing import Any, ClassVar
from urllib.parse import quote

from palaestra.core import Problem, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.code._polyglot import SizedConfig, Template, TemplatedTask, convention, join_cases
from palaestra.envs.code.templates import ProgramTexts
from palaestra.verifiers import polyglot
from palaestra.verifiers.polyglot import Budget, Program, Report

WORDS = ("alpha", "bravo", "cedar", "delta", "ember", "fjord", "glade", "harbor", "iris", "juniper", "kelp",
         "lumen", "maple", "nova", "onyx", "pike", "quartz", "raven", "sable", "tundra", "umber", "vale")
FIELDS = ("team", "city", "group", "kind", "color", "region", "unit", "tier")
NUMBERS = ("score", "points", "amount", "weight", "hours", "cost", "size", "level")

CODE = ProgramTexts("js_functions")
TEST_DRAWS = 12  # draws of a problem's hidden tests before its template and parameters are drawn again
DRIVER = CODE("driver")



class JsTemplate(Template):
    """One kind of JavaScript function: statement, test arguments, trusted reference, JS reference."""

    ARGUMENTS: ClassVar[str]  # the function's parameters
    # The rule parameters a problem's statement fixes, with every value they can take: the hidden tests must tell
    # the stated rule from each other one (a function with the other merge policy, array rule... fails).
    rules: ClassVar[dict[str, tuple[Any, ...]]] = {}

    def signature(self, p: dict[str, Any]) -> str:
        return f"{p['function']}({self.ARGUMENTS})"

    def result(self, args: list[Any], p: dict[str, Any]) -> Any:
        raise NotImplementedError

    def ruled(self, p: dict[str, Any]) -> dict[str, tuple[Any, ...]]:
        """The rules that matter for ``p`` (by default all of ``rules``)."""
        return self.rules

    def slips(self, p: dict[str, Any]) -> list[Callable[[list[Any]], Any]]:
        """Near-miss functions (their result on a test's arguments) that the hidden tests must reject: the function
        of each other value of a rule parameter, and the template's own slips (:meth:`near_misses`)."""
        return [*(functools.partial(self.result, p={**p, key: value})
                  for key, values in self.ruled(p).items() for value in values if value != p[key]),
                *self.near_misses(p)]

    def near_misses(self, p: dict[str, Any]) -> list[Callable[[list[Any]], Any]]:
        """Functions with one detail of the statement wrong (a rounding, an order, an edge case)."""
        return []


def _call(function: str, args: list[Any]) -> str:
    return f"{function}({', '.join(json.dumps(a) for a in args)})"


# --- group records ----------------------------------------------------------------------------

class GroupRecords(JsTemplate):
    name = "group_records"
    tier = 1
    ARGUMENTS = "records"
    AGGREGATES = {
        "count": "the number of records in the group",
        "sum": "the sum of their {value} values",
        "max": "the largest of their {value} values",
        "min": "the smallest of their {value} values",
        "names": "the list of their name values, sorted alphabetically (repeats kept)",
        "mean": "the average of their {value} values, rounded down to an integer",
    }

    rules = {"aggregate": tuple(AGGREGATES)}

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"key": rng.choice(FIELDS), "value": rng.choice(NUMBERS), "aggregate": rng.choice(list(self.AGGREGATES)),
                "function": rng.choice(["summarize", "groupTotals", "rollUp", "tally"])}

    def statement(self, p: dict[str, Any]) -> str:
        what = self.AGGREGATES[p["aggregate"]].format(value=p["value"])
        return (f"Write the JavaScript function {self.signature(p)}. records is an array of objects, each with a "
                "string "
                f"field name, a string field {p['key']} and an integer field {p['value']}. Group the records by their "
                f"{p['key']} and return an object that maps each {p['key']} value present to {what}.")

    def args(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        groups = rng.sample(WORDS, rng.randint(1, 4))
        records = [{"name": rng.choice(WORDS).capitalize(), p["key"]: rng.choice(groups),
                    p["value"]: rng.randint(-20, 100)} for _ in range(rng.randint(1, size))]
        return [records]

    def result(self, args: list[Any], p: dict[str, Any]) -> Any:
        groups: dict[str, list[dict[str, Any]]] = {}
        for record in args[0]:
            groups.setdefault(record[p["key"]], []).append(record)
        out = {}
        for key, members in groups.items():
            values = [m[p["value"]] for m in members]
            out[key] = {"count": len(values), "sum": sum(values), "max": max(values), "min": min(values),
                        "names": sorted(m["name"] for m in members),
                        "mean": math.floor(sum(values) / len(values)),
                        # near misses: the average truncated toward zero or rounded; the names unsorted
                        "mean_trunc": math.trunc(sum(values) / len(values)),
                        "mean_round": math.floor(sum(values) / len(values) + 0.5),
                        "names_unsorted": [m["name"] for m in members]}[p["aggregate"]]
        return out

    def near_misses(self, p: dict[str, Any]) -> list[Callable[[list[Any]], Any]]:
        wrong = {"mean": ("mean_trunc", "mean_round"), "names": ("names_unsorted",)}.get(p["aggregate"], ())
        return [functools.partial(self.result, p={**p, "aggregate": other}) for other in wrong]

    def reference(self, p: dict[str, Any]) -> str:
        key, value = json.dumps(p["key"]), json.dumps(p["value"])
        fold = {
            "count": "members.length",
            "sum": f"members.reduce((total, m) => total + m[{value}], 0)",
            "max": f"Math.max(...members.map((m) => m[{value}]))",
            "min": f"Math.min(...members.map((m) => m[{value}]))",
            "names": "members.map((m) => m.name).sort()",
            "mean": f"Math.floor(members.reduce((total, m) => total + m[{value}], 0) / members.length)",
        }[p["aggregate"]]
        return CODE("GroupRecords.reference", p=p, key=key, fold=fold)


# --- array operations -------------------------------------------------------------------------

class ArrayOps(JsTemplate):
    name = "array_ops"
    tier = 1
    ARGUMENTS = "xs, k"
    KINDS = {
        "chunk": "splits xs into consecutive chunks of k elements (the last chunk may be shorter) and returns the "
                 "array of chunks",
        "window_sums": "returns the sums of all windows of k consecutive elements, in order (an empty array when xs "
                       "has fewer than k elements)",
        "running": "returns the running totals of xs restarted every k elements: element i is the sum of the "
                   "elements from the start of its block of k (indices k*floor(i/k) .. i)",
        "interleave": "returns the elements of xs taken alternately from the front and from the back, starting "
                      "from the front (k is ignored)",
        "differences": "returns the differences xs[i + k] - xs[i] for every i with i + k < xs.length",
    }

    rules = {"kind": tuple(KINDS)}
    SLIPS = {"chunk": ("chunk_whole",), "window_sums": ("window_short",), "running": ("running_plain",),
             "interleave": ("interleave_back",), "differences": ("differences_negated",)}

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"kind": rng.choice(list(self.KINDS)),
                "function": rng.choice(["transform", "reshape", "rework", "scan"])}

    def statement(self, p: dict[str, Any]) -> str:
        return (f"Write the JavaScript function {self.signature(p)}: xs is an array of integers and k >= 1 an integer. "
                f"It {self.KINDS[p['kind']]}. It must not change xs.")

    def args(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        return [[rng.randint(-9, 30) for _ in range(rng.randint(0, size))], rng.randint(1, 4)]

    def result(self, args: list[Any], p: dict[str, Any]) -> Any:
        xs, k = args
        kind = p["kind"]
        if kind == "chunk":
            return [xs[i:i + k] for i in range(0, len(xs), k)]
        if kind == "window_sums":
            return [sum(xs[i:i + k]) for i in range(len(xs) - k + 1)]
        if kind == "running":
            return [sum(xs[k * (i // k): i + 1]) for i in range(len(xs))]
        if kind == "interleave":
            out, lo, hi = [], 0, len(xs) - 1
            while lo <= hi:
                out.append(xs[lo])
                if lo != hi:
                    out.append(xs[hi])
                lo, hi = lo + 1, hi - 1
            return out
        if kind == "differences":
            return [xs[i + k] - xs[i] for i in range(len(xs) - k)]
        # near misses: a shorter last chunk dropped, the last window missed, totals never restarted, interleaving
        # from the back, the differences negated
        if kind == "chunk_whole":
            return [xs[i:i + k] for i in range(0, len(xs) - k + 1, k)]
        if kind == "window_short":
            return [sum(xs[i:i + k]) for i in range(len(xs) - k)]
        if kind == "running_plain":
            return [sum(xs[:i + 1]) for i in range(len(xs))]
        if kind == "interleave_back":
            return self.result([xs[::-1], k], {**p, "kind": "interleave"})
        return [xs[i] - xs[i + k] for i in range(len(xs) - k)]

    def near_misses(self, p: dict[str, Any]) -> list[Callable[[list[Any]], Any]]:
        return [functools.partial(self.result, p={**p, "kind": other}) for other in self.SLIPS[p["kind"]]]

    def reference(self, p: dict[str, Any]) -> str:
        body = CODE(f"ArrayOps.{p['kind']}")
        return f"function {p['function']}(xs, k) {{\n{body}\n}}\n"


# --- key case ---------------------------------------------------------------------------------

def _words_of(key: str, style: str) -> list[str]:
    if style == "camel":
        return [w.lower() for w in re.findall(r"[A-Z]?[a-z0-9]+", key)]
    return key.split("_" if style == "snake" else "-")


def _join(words: list[str], style: str) -> str:
    if style == "camel":
        return words[0] + "".join(w.capitalize() for w in words[1:])
    return ("_" if style == "snake" else "-").join(words)


class KeyCase(JsTemplate):
    name = "key_case"
    tier = 2
    ARGUMENTS = "value"
    STYLES = {"camel": "camelCase (likeThis)", "snake": "snake_case (like_this)", "kebab": "kebab-case (like-this)"}

    def params(self, rng: random.Random) -> dict[str, Any]:
        source, target = rng.sample(list(self.STYLES), 2)
        return {"source": source, "target": target, "function": rng.choice(["renameKeys", "convertKeys", "rekey"])}

    def statement(self, p: dict[str, Any]) -> str:
        return (f"Write the JavaScript function {self.signature(p)}. value is a JSON value: objects, arrays, strings, "
                f"numbers, booleans or null, nested to any depth. Every object key is written in "
                f"{self.STYLES[p['source']]}, made of lowercase words (letters and digits, each word starting with a "
                f"letter). Return a copy of value in which every key of every object, at any depth, is rewritten in "
                f"{self.STYLES[p['target']]}; values that are not objects or arrays stay as they are (strings are not "
                "rewritten).")

    def _key(self, rng: random.Random, style: str) -> str:
        words = [rng.choice(WORDS) for _ in range(rng.randint(1, 3))]
        return _join(words, style)

    def _value(self, rng: random.Random, style: str, depth: int) -> Any:
        roll = rng.random()
        if depth > 0 and roll < 0.35:
            return {self._key(rng, style): self._value(rng, style, depth - 1) for _ in range(rng.randint(1, 3))}
        if depth > 0 and roll < 0.5:
            return [self._value(rng, style, depth - 1) for _ in range(rng.randint(0, 2))]
        return rng.choice([rng.randint(0, 9), self._key(rng, style), True, None])

    def args(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        depth = 1 + size // 4
        return [{self._key(rng, p["source"]): self._value(rng, p["source"], depth) for _ in range(rng.randint(1, 3))}]

    def convert(self, value: Any, p: dict[str, Any], depth: int = -1, arrays: bool = True) -> Any:
        """``value`` with its keys rewritten (``depth`` levels of objects deep when not negative; into arrays when
        ``arrays``: the near misses stop early)."""
        if isinstance(value, dict) and depth != 0:
            return {_join(_words_of(k, p["source"]), p["target"]): self.convert(v, p, depth - 1, arrays)
                    for k, v in value.items()}
        if isinstance(value, list) and arrays:
            return [self.convert(v, p, depth, arrays) for v in value]
        return value

    def near_misses(self, p: dict[str, Any]) -> list[Callable[[list[Any]], Any]]:
        """The top level's keys only; every object's but those inside arrays."""
        return [lambda args: self.convert(args[0], p, depth=1), lambda args: self.convert(args[0], p, arrays=False)]

    def result(self, args: list[Any], p: dict[str, Any]) -> Any:
        return self.convert(args[0], p)

    def reference(self, p: dict[str, Any]) -> str:
        split = {"camel": "key.match(/[A-Z]?[a-z0-9]+/g).map((w) => w.toLowerCase())",
                 "snake": 'key.split("_")', "kebab": 'key.split("-")'}[p["source"]]
        join = {"camel": 'words[0] + words.slice(1).map((w) => w[0].toUpperCase() + w.slice(1)).join("")',
                "snake": 'words.join("_")', "kebab": 'words.join("-")'}[p["target"]]
        return CODE("KeyCase.reference", p=p, split=split, join=join)


# --- flatten ----------------------------------------------------------------------------------

class Flatten(JsTemplate):
    name = "flatten"
    tier = 2
    ARGUMENTS = "value"

    rules = {"arrays": ("leaves", "indexed")}

    def ruled(self, p: dict[str, Any]) -> dict[str, tuple[Any, ...]]:
        return self.rules if p["direction"] == "flatten" else {}

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"separator": rng.choice([".", "/", "_", ":", "__"]), "arrays": rng.choice(["leaves", "indexed"]),
                "direction": rng.choice(["flatten", "flatten", "unflatten"]),
                "function": rng.choice(["flatten", "collapse", "toPaths", "squash"])}

    def statement(self, p: dict[str, Any]) -> str:
        sep = p["separator"]
        arrays = ("Arrays are leaves: they are kept whole as values." if p["arrays"] == "leaves" else
                  "Arrays are flattened too, their indices (0, 1, ...) serving as keys (an empty array is a leaf).")
        if p["direction"] == "flatten":
            return (f"Write the JavaScript function {self.signature(p)}. value is an object whose values are numbers, "
                    f"strings, booleans, null, arrays or objects, nested to any depth (keys never contain "
                    f"\"{sep}\"). Return a flat object: for every leaf (a value that is not a non-empty object"
                    f"{' or array' if p['arrays'] == 'indexed' else ''}), its key is the keys on the path from the "
                    "top, "
                    f"joined with \"{sep}\". An empty object is a leaf. {arrays}")
        return (f"Write the JavaScript function {self.signature(p)}. value is a flat object whose keys are paths: "
                f"words joined with \"{sep}\" (no path is a prefix of another, and words never contain \"{sep}\"). "
                f"Return the nested object it describes: the key a{sep}b{sep}c with value v becomes "
                f"{{\"a\": {{\"b\": {{\"c\": v}}}}}}. Every level is an object (even when its keys look like "
                "numbers).")

    def _nested(self, rng: random.Random, p: dict[str, Any], depth: int) -> Any:
        out = {}
        for _ in range(rng.randint(1, 3)):
            roll = rng.random()
            key = rng.choice(WORDS) if p["direction"] == "flatten" or rng.random() < 0.8 else str(rng.randint(0, 9))
            if depth > 0 and roll < 0.4:
                out[key] = self._nested(rng, p, depth - 1)
            elif depth > 0 and roll < 0.55 and p["direction"] == "flatten":
                out[key] = [rng.randint(0, 9) for _ in range(rng.randint(0, 3))]
            else:
                out[key] = rng.choice([rng.randint(0, 99), rng.choice(WORDS), False, None, {}])
        return out

    def flatten(self, value: Any, p: dict[str, Any], empty: bool = True) -> dict[str, Any]:
        """The flat object of ``value`` (without its empty objects and arrays when not ``empty``: a near miss)."""
        out: dict[str, Any] = {}

        def walk(prefix: str, item: Any) -> None:
            if isinstance(item, dict) and item:
                children = item.items()
            elif isinstance(item, list) and item and p["arrays"] == "indexed":
                children = ((str(i), v) for i, v in enumerate(item))
            elif empty or item not in ({}, []):
                out[prefix] = item
                return
            else:
                return
            for key, child in children:
                walk(f"{prefix}{p['separator']}{key}" if prefix else key, child)

        for key, child in value.items():
            walk(key, child)
        return out

    def args(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        nested = self._nested(rng, p, 1 + size // 4)
        if p["direction"] == "flatten":
            return [nested]
        leaves = {k: ([] if v == {} else v) for k, v in self.flatten(nested, {**p, "arrays": "leaves"}).items()}
        return [leaves]

    def result(self, args: list[Any], p: dict[str, Any]) -> Any:
        if p["direction"] == "flatten":
            return self.flatten(args[0], p)
        out: dict[str, Any] = {}
        for path, leaf in args[0].items():
            node = out
            *parents, last = path.split(p["separator"])
            for key in parents:
                node = node.setdefault(key, {})
            node[last] = leaf
        return out

    def near_misses(self, p: dict[str, Any]) -> list[Callable[[list[Any]], Any]]:
        """Flattening: empty objects (and arrays) dropped. Rebuilding: a level whose keys all look like numbers made
        an array (holes null), as lodash's set does."""
        if p["direction"] == "flatten":
            return [lambda args: self.flatten(args[0], p, empty=False)]

        def arrays(node: Any) -> Any:
            if not isinstance(node, dict):
                return node
            if node and all(key.isdigit() for key in node):
                out = [None] * (1 + max(int(key) for key in node))
                for key, child in node.items():
                    out[int(key)] = arrays(child)
                return out
            return {key: arrays(child) for key, child in node.items()}

        return [lambda args: arrays(self.result(args, p))]

    def reference(self, p: dict[str, Any]) -> str:
        sep = json.dumps(p["separator"])
        if p["direction"] == "unflatten":
            return CODE("Flatten.reference.2", p=p, sep=sep)
        indexed = p["arrays"] == "indexed"
        test = ('(Array.isArray(item) ? item.length > 0 : item !== null && typeof item === "object" && '
                'Object.keys(item).length > 0)') if indexed else \
            '(item !== null && typeof item === "object" && !Array.isArray(item) && Object.keys(item).length > 0)'
        return CODE("Flatten.reference", p=p, test=test, sep=sep)


# --- query strings ----------------------------------------------------------------------------

class QueryString(JsTemplate):
    name = "query_string"
    tier = 2

    rules = {"repeats": ("list", "last", "first")}

    def ruled(self, p: dict[str, Any]) -> dict[str, tuple[Any, ...]]:
        return self.rules if p["direction"] == "parse" else {}

    def near_misses(self, p: dict[str, Any]) -> list[Callable[[list[Any]], Any]]:
        """Parsing: + left as it is; (with lists) every value a list. Building: keys in their given order; an empty
        array giving the pair key=."""
        if p["direction"] == "parse":
            def plus_kept(args: list[Any]) -> Any:
                return self.result([args[0].replace("+", "%2B")], p)

            def always_lists(args: list[Any]) -> Any:
                return {key: value if isinstance(value, list) else [value]
                        for key, value in self.result(args, p).items()}

            return [plus_kept, *([always_lists] if p["repeats"] == "list" else [])]

        def unsorted(args: list[Any]) -> Any:
            return "&".join(f"{_uri(key)}={_uri(v)}" for key, value in args[0].items()
                            for v in (value if isinstance(value, list) else [value]))

        def empty_pair(args: list[Any]) -> Any:
            return self.result([{key: value or "" for key, value in args[0].items()}], p)

        return [unsorted, empty_pair]

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"direction": rng.choice(["parse", "parse", "build"]), "repeats": rng.choice(["list", "last", "first"]),
                "function": rng.choice(["parseQuery", "readQuery", "decodeQuery", "queryToObject"])}

    def signature(self, p: dict[str, Any]) -> str:
        return f"{p['function']}({'text' if p['direction'] == 'parse' else 'params'})"

    def statement(self, p: dict[str, Any]) -> str:
        if p["direction"] == "build":
            return (f"Write the JavaScript function {self.signature(p)}. params is an object whose values are strings "
                    "or arrays of strings. Return the query string: one key=value pair per value (an array gives one "
                    "pair per element, in order), the pairs joined with &, keys in alphabetical order; keys and values "
                    "are percent-encoded as encodeURIComponent does. An empty object gives the empty string; an "
                    "empty array gives no pair.")
        repeats = {"list": "a key that appears more than once maps to the array of its values, in order (a key that "
                           "appears once maps to its value alone)",
                   "last": "a key that appears more than once keeps its last value",
                   "first": "a key that appears more than once keeps its first value"}[p["repeats"]]
        return (f"Write the JavaScript function {self.signature(p)}. text is a query string such as a=1&b=x%20y (no "
                "leading ?): pairs key=value joined with &; a pair without = has the empty string as value; empty "
                "pieces between && are skipped. Decode keys and values: + means a space, then %XX escapes are "
                "decoded (as decodeURIComponent does). Return an object mapping keys to string values, where "
                f"{repeats}.")

    def _text(self, rng: random.Random) -> str:
        return rng.choice([rng.choice(WORDS), f"{rng.choice(WORDS)} {rng.choice(WORDS)}", str(rng.randint(0, 99)),
                           f"{rng.choice(WORDS)}&{rng.randint(0, 9)}", "a+b=c", "50% off", ""])

    def args(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        keys = rng.sample(WORDS, rng.randint(1, 4))
        if p["direction"] == "build":
            params = {}
            for key in keys:
                params[key] = ([self._text(rng) for _ in range(rng.randint(0, 3))] if rng.random() < 0.4
                               else self._text(rng))
            return [params]
        pieces = []
        for _ in range(rng.randint(0, size)):
            key, value = rng.choice(keys), self._text(rng)
            encoded = quote(value, safe="").replace("%20", "+") if rng.random() < 0.5 else quote(value, safe="")
            pieces.append(key if rng.random() < 0.1 else f"{key}={encoded}")
            if rng.random() < 0.1:
                pieces.append("")
        return ["&".join(pieces)]

    def result(self, args: list[Any], p: dict[str, Any]) -> Any:
        from urllib.parse import unquote

        if p["direction"] == "build":
            pairs = []
            for key in sorted(args[0]):
                values = args[0][key] if isinstance(args[0][key], list) else [args[0][key]]
                pairs += [f"{_uri(key)}={_uri(v)}" for v in values]
            return "&".join(pairs)
        out: dict[str, Any] = {}
        for piece in args[0].split("&"):
            if not piece:
                continue
            key, _, value = piece.partition("=")
            key, value = unquote(key.replace("+", " ")), unquote(value.replace("+", " "))
            if key not in out:
                out[key] = value
            elif p["repeats"] == "last":
                out[key] = value
            elif p["repeats"] == "list":
                out[key] = (out[key] if isinstance(out[key], list) else [out[key]]) + [value]
        return out

    def reference(self, p: dict[str, Any]) -> str:
        if p["direction"] == "build":
            return CODE("QueryString.reference.2", p=p)
        repeat = {"last": "out[key] = value;", "first": "",
                  "list": "out[key] = (Array.isArray(out[key]) ? out[key] : [out[key]]).concat([value]);"}[p["repeats"]]
        return CODE("QueryString.reference", p=p, repeat=repeat)


def _uri(text: str) -> str:
    """``encodeURIComponent``: everything but letters, digits and ``-_.!~*'()`` percent-encoded (UTF-8)."""
    return quote(text, safe="-_.!~*'()")


# --- deep merge -------------------------------------------------------------------------------

class DeepMerge(JsTemplate):
    name = "deep_merge"
    tier = 3
    ARGUMENTS = "a, b"
    POLICIES = {
        "second": "the value from b wins",
        "first": "the value from a wins",
        "sum": "when both are numbers their sum is kept, otherwise the value from b wins",
    }

    rules = {"policy": tuple(POLICIES), "arrays": ("concat", "replace")}

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"policy": rng.choice(list(self.POLICIES)), "arrays": rng.choice(["concat", "replace"]),
                "function": rng.choice(["merge", "deepMerge", "combine", "overlay"])}

    def statement(self, p: dict[str, Any]) -> str:
        arrays = ("when both are arrays, the result is the elements of a followed by those of b"
                  if p["arrays"] == "concat" else "arrays are values like any other")
        return (f"Write the JavaScript function {self.signature(p)}. a and b are objects whose values are numbers, "
                f"strings, booleans, null, arrays or objects, nested to any depth. Return a new object (a and b must "
                f"not change) with every key of a and of b. A key in only one of them keeps its value. For a key in "
                f"both: when both values are objects (not arrays, not null), the result is their merge by the same "
                f"rules; otherwise, {arrays}; otherwise, {self.POLICIES[p['policy']]}. Keys of a come first, then new "
                "keys of b (order is not checked).")

    def _object(self, rng: random.Random, keys: list[str], depth: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key in rng.sample(keys, rng.randint(1, len(keys))):
            roll = rng.random()
            if depth > 0 and roll < 0.35:
                out[key] = self._object(rng, keys, depth - 1)
            elif roll < 0.5:
                out[key] = [rng.randint(0, 9) for _ in range(rng.randint(0, 3))]
            else:
                out[key] = rng.choice([rng.randint(0, 99), rng.choice(WORDS), True, None])
        return out

    def args(self, rng: random.Random, p: dict[str, Any], size: int) -> list[Any]:
        keys = rng.sample(WORDS, 4)
        depth = 1 + size // 5
        return [self._object(rng, keys, depth), self._object(rng, keys, depth)]

    def merge(self, a: Any, b: Any, p: dict[str, Any], deep: bool = True) -> Any:
        """The merge of ``a`` and ``b`` (objects in both merged only when ``deep``: a near miss)."""
        out = dict(a)
        for key, value in b.items():
            if key not in out:
                out[key] = value
                continue
            old = out[key]
            if isinstance(old, dict) and isinstance(value, dict) and deep:
                out[key] = self.merge(old, value, p)
            elif isinstance(old, list) and isinstance(value, list) and p["arrays"] == "concat":
                out[key] = old + value
            elif p["policy"] == "first":
                out[key] = old
            elif (p["policy"] == "sum" and type(old) in (int, float) and type(value) in (int, float)):
                out[key] = old + value
            else:
                out[key] = value
        return out

    def result(self, args: list[Any], p: dict[str, Any]) -> Any:
        return self.merge(args[0], args[1], p)

    def near_misses(self, p: dict[str, Any]) -> list[Callable[[list[Any]], Any]]:
        """A shallow merge: objects in both settled by the policy."""
        return [lambda args: self.merge(args[0], args[1], p, deep=False)]

    def reference(self, p: dict[str, Any]) -> str:
        arrays = ('if (Array.isArray(old) && Array.isArray(value)) { out[key] = old.concat(value); continue; }'
                  if p["arrays"] == "concat" else "")
        policy = {"second": "out[key] = value;", "first": "out[key] = old;",
                  "sum": 'out[key] = typeof old === "number" && typeof value === "number" ? old + value : value;'}[
            p["policy"]]
        return CODE("DeepMerge.reference", p=p, arrays=arrays, policy=policy)


TEMPLATES: dict[str, JsTemplate] = {t.name: t for t in (GroupRecords(), ArrayOps(), KeyCase(), Flatten(), QueryString(),
                                                        DeepMerge())}


@register
class JsFunctions(TemplatedTask):
    id = "code/js_functions"
    description = "Write a JavaScript function transforming JSON data (records, nested objects, keys, query strings)."
    tags = ("code", "programming", "javascript", "json")
    languages = ("javascript",)
    toolchains = languages
    templates = TEMPLATES
    version = 3  # v2: the tests' drawn sizes kept in data (the difficulty sums them); v3: the hidden tests tell the
    # stated rule (merge policy, array rule, repeats, rounding, depth) from each near miss (JsTemplate.slips)

    Config = SizedConfig

    presets = (
        Config(("group_records", "array_ops", "key_case"), max_size=4, tests=5),
        Config(("group_records", "array_ops", "key_case", "flatten"), max_size=6, tests=6),
        Config(("group_records", "key_case", "flatten", "query_string"), max_size=9, tests=7),
        Config(("key_case", "flatten", "query_string", "deep_merge"), max_size=12, tests=8),
        Config(("flatten", "query_string", "deep_merge"), max_size=16, tests=10),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: SizedConfig) -> Problem:
        def draw() -> Problem | None:
            template = TEMPLATES[rng.choice(config.templates)]
            p = template.params(rng)
            slips = template.slips(p)
            for _ in range(TEST_DRAWS):
                sizes: list[int] = []
                tests = []
                for _ in range(config.tests):
                    sizes.append(rng.randint(2, config.max_size))
                    tests.append(template.args(rng, p, sizes[-1]))
                results = [template.result(args, p) for args in tests]
                texts = [json.dumps(r, sort_keys=True) for r in results]
                # varied results, and the hidden tests pin the stated rule down: every slip fails some test
                if len(set(texts)) >= min(3, len(texts)) and not any(
                        [json.dumps(slip(args), sort_keys=True) for args in tests] == texts for slip in slips):
                    break
            else:
                return None
            shown = sorted(range(len(tests)), key=lambda i: (len(json.dumps(tests[i])), i))[:2]
            function = template.signature(p).split("(")[0]
            examples = "\n".join(f"- {_call(function, tests[i])} returns {texts[i]}" for i in sorted(shown))
            prompt = (
                f"{template.statement(p)}\n\nExamples (results written as JSON; object keys may come in any order):\n"
                f"{examples}\n\nYour code runs in Node.js: a test driver loads it, calls {function} on hidden tests "
                "(arguments and results are JSON values) and compares each result with the expected one. Do not read "
                "input or print. "
                + convention(self.languages, shape=f"function {template.signature(p)} {{\n    // ...\n}}")
            )
            return self.templated_problem(template, p, prompt, function=function, tests=tests, results=results,
                                          sizes=sizes)

        return retry(draw, attempts=50, what="a JavaScript function problem with varied results")

    def required_name(self, problem: Problem) -> str | None:
        return problem.data["function"]

    def judge(self, problem: Problem, program: Program) -> Report:
        data = problem.data
        stdin = join_cases([json.dumps(args) + "\n" for args in data["tests"]])
        driver = DRIVER.replace("NAME", data["function"])
        return polyglot.check_program(program, stdin, data["results"], driver=driver, compare="json",
                                      budget=Budget(cpu_seconds=2.0))

    def difficulty(self, problem: Problem) -> float:
        """The template's tier plus a tenth of the hidden tests' drawn sizes, summed (elements, keys or pairs).

        Sizes, not JSON characters: a template's characters per element differ up to threefold, so a level's
        mean would move with its template mix.
        """
        return self.template(problem).tier + sum(problem.data["sizes"]) / 10
