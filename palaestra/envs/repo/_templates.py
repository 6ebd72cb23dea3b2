"""The building blocks of the repo family's generated repositories: leaf functions, wrappers, and their meaning.

A *leaf* (:class:`Leaf`) is a small function template (source text with ``NAME`` for its name), a draw of
arguments for tests, names that describe it, a one-sentence description (for feature requests), and bugs: an
exact snippet of the source and what it becomes (an off-by-one, a wrong operator, a wrong field, swapped
arguments). A *wrapper* (:class:`Wrapper`) is a function that calls another one (``INNER``) with the same
parameters (``PARAMS``; ``FIRST`` is the first one), adding a step that keeps the inner result visible: a
validation, a copy, packing the result with a label. Chains of wrappers across modules put the failing test
several calls away from a bug.

The generator needs each function's behaviour (the expected values written into tests, and whether a bug
changes a test's result): :func:`behaviour` compiles a template's text, which is this module's own constant
code with a bug from the same fixed list applied (never text a model wrote), once per text, into a function.
Every template's loops are bounded by its input's length, with or without its bugs.
"""

from __future__ import annotations

import functools
import json
import random
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Leaf:
    key: str
    names: tuple[str, ...]  # names that say what it does
    params: str
    source: str  # the function's text, ``NAME`` for its name
    draw: Callable[[random.Random], list[Any]]
    bugs: tuple[tuple[str, str], ...]  # (exact snippet of source, the buggy replacement)
    doc: str  # what it returns, one sentence (feature requests state it)


@dataclass(frozen=True)
class Wrapper:
    key: str
    names: tuple[str, ...]
    source: str  # ``NAME``, ``INNER``, ``PARAMS``, ``FIRST``


def _ints(rng: random.Random, low: int, high: int, length: tuple[int, int]) -> list[int]:
    return [rng.randint(low, high) for _ in range(rng.randint(*length))]


def _words(rng: random.Random, count: tuple[int, int]) -> list[str]:
    return ["".join(rng.choice("abcdeklmnoprst") for _ in range(rng.randint(2, 5))) for _ in range(rng.randint(*count))]


def _pairs_text(rng: random.Random) -> list[Any]:
    keys = rng.sample(["alpha", "beta", "gamma", "delta", "omega", "kappa", "sigma"], rng.randint(2, 5))
    parts = [f"{' ' * rng.randint(0, 1)}{key}{' ' * rng.randint(0, 1)}={rng.randint(0, 99)}" for key in keys]
    return [";".join(parts) + (";" if rng.random() < 0.3 else "")]


LEAVES: tuple[Leaf, ...] = (
    Leaf("window_sums", ("window_sums", "rolling_totals", "sliding_sums"), "values, size",
         "def NAME(values, size):\n"
         "    sums = []\n"
         "    for start in range(len(values) - size + 1):\n"
         "        sums.append(sum(values[start:start + size]))\n"
         "    return sums\n",
         lambda rng: [_ints(rng, -9, 20, (3, 8)), rng.randint(1, 3)],
         (("range(len(values) - size + 1)", "range(len(values) - size)"),
          ("values[start:start + size]", "values[start:start + size - 1]")),
         "the sums of every run of `size` consecutive values, in order (an empty list when there are fewer values)"),
    Leaf("count_above", ("count_above", "tally_over", "number_exceeding"), "values, limit",
         "def NAME(values, limit):\n"
         "    count = 0\n"
         "    for value in values:\n"
         "        if value > limit:\n"
         "            count += 1\n"
         "    return count\n",
         lambda rng: [_ints(rng, 0, 9, (3, 9)), rng.randint(2, 7)],
         (("if value > limit:", "if value >= limit:"), ("count += 1", "count += value")),
         "how many values are strictly greater than `limit`"),
    Leaf("running_max", ("running_max", "peak_so_far", "record_highs"), "values",
         "def NAME(values):\n"
         "    best = None\n"
         "    peaks = []\n"
         "    for value in values:\n"
         "        if best is None or value > best:\n"
         "            best = value\n"
         "        peaks.append(best)\n"
         "    return peaks\n",
         lambda rng: [_ints(rng, -5, 30, (3, 8))],
         (("value > best:", "value < best:"), ("peaks.append(best)", "peaks.append(value)")),
         "the list whose i-th item is the largest of the first i + 1 values"),
    Leaf("dedupe", ("unique_in_order", "dedupe", "first_occurrences"), "items",
         "def NAME(items):\n"
         "    seen = set()\n"
         "    kept = []\n"
         "    for item in items:\n"
         "        if item not in seen:\n"
         "            seen.add(item)\n"
         "            kept.append(item)\n"
         "    return kept\n",
         lambda rng: [_ints(rng, 0, 6, (4, 9))],
         (("kept.append(item)", "kept.insert(0, item)"), ("if item not in seen:", "if item not in kept[1:]:")),
         "the items without repeats, each kept at its first occurrence, in order"),
    Leaf("clamp", ("clamp_all", "bounded", "limit_range"), "values, low, high",
         "def NAME(values, low, high):\n"
         "    return [min(max(value, low), high) for value in values]\n",
         lambda rng: [_ints(rng, -10, 20, (3, 8)), rng.randint(-3, 3), rng.randint(6, 12)],
         (("min(max(value, low), high)", "max(min(value, low), high)"),
          ("min(max(value, low), high)", "min(max(value, high), low)")),
         "each value moved into the range [low, high]: below `low` becomes `low`, above `high` becomes `high`"),
    Leaf("weighted_total", ("weighted_total", "order_value", "dot_total"), "prices, counts",
         "def NAME(prices, counts):\n"
         "    total = 0\n"
         "    for index in range(len(prices)):\n"
         "        total += prices[index] * counts[index]\n"
         "    return total\n",
         lambda rng: (lambda n: [_ints(rng, 1, 20, (n, n)), _ints(rng, 0, 5, (n, n))])(rng.randint(2, 6)),
         (("prices[index] * counts[index]", "prices[index] + counts[index]"),
          ("range(len(prices))", "range(1, len(prices))")),
         "the sum of prices[i] * counts[i] over all positions i (both lists have the same length)"),
    Leaf("chunks", ("chunked", "batches", "split_every"), "values, size",
         "def NAME(values, size):\n"
         "    chunks = []\n"
         "    for start in range(0, len(values), size):\n"
         "        chunks.append(values[start:start + size])\n"
         "    return chunks\n",
         lambda rng: [_ints(rng, 0, 50, (4, 9)), rng.randint(2, 3)],
         (("values[start:start + size]", "values[start:start + size - 1]"),
          ("range(0, len(values), size)", "range(0, len(values) - size, size)")),
         "the values cut into consecutive lists of `size` items (the last one may be shorter)"),
    Leaf("initials", ("count_initials", "by_first_letter", "letter_histogram"), "words",
         "def NAME(words):\n"
         "    counts = {}\n"
         "    for word in words:\n"
         "        key = word[0]\n"
         "        counts[key] = counts.get(key, 0) + 1\n"
         "    return counts\n",
         lambda rng: [_words(rng, (3, 7))],
         (("key = word[0]", "key = word[-1]"), ("counts.get(key, 0) + 1", "counts.get(key, 1) + 1")),
         "a dict mapping each first letter of the words to how many words start with it"),
    Leaf("parse_pairs", ("parse_settings", "read_pairs", "settings_from_text"), "text",
         "def NAME(text):\n"
         "    result = {}\n"
         "    for part in text.split(\";\"):\n"
         "        if not part:\n"
         "            continue\n"
         "        key, _, value = part.partition(\"=\")\n"
         "        result[key.strip()] = int(value)\n"
         "    return result\n",
         _pairs_text,
         (("result[key.strip()]", "result[key]"), ("int(value)", "int(value) + 1")),
         "the text `k1=v1;k2=v2;...` read into a dict of stripped keys to int values (empty parts skipped)"),
    Leaf("merge", ("merge_sorted", "combine_ordered", "interleave_sorted"), "left, right",
         "def NAME(left, right):\n"
         "    merged = []\n"
         "    i = j = 0\n"
         "    while i < len(left) and j < len(right):\n"
         "        if left[i] <= right[j]:\n"
         "            merged.append(left[i])\n"
         "            i += 1\n"
         "        else:\n"
         "            merged.append(right[j])\n"
         "            j += 1\n"
         "    merged.extend(left[i:])\n"
         "    merged.extend(right[j:])\n"
         "    return merged\n",
         lambda rng: [sorted(_ints(rng, 0, 30, (2, 5))), sorted(_ints(rng, 0, 30, (2, 5)))],
         (("merged.extend(right[j:])", "merged.extend(right[j + 1:])"),
          ("if left[i] <= right[j]:", "if left[i] >= right[j]:")),
         "the two sorted lists merged into one sorted list (all items of both kept)"),
    Leaf("spread", ("value_spread", "range_width", "span_of"), "values",
         "def NAME(values):\n"
         "    if not values:\n"
         "        return 0\n"
         "    return max(values) - min(values)\n",
         lambda rng: [_ints(rng, -20, 40, (2, 7))],
         (("max(values) - min(values)", "max(values) - values[0]"),
          ("max(values) - min(values)", "max(values) + min(values)")),
         "the largest value minus the smallest (0 for an empty list)"),
)

WRAPPERS: tuple[Wrapper, ...] = (
    Wrapper("validate", ("checked", "validated", "safe"),
            "def NAME(PARAMS):\n"
            "    if len(FIRST) > 10000:\n"
            "        raise ValueError(\"input too large\")\n"
            "    return INNER(PARAMS)\n"),
    Wrapper("copy", ("copied", "detached", "isolated"),
            "def NAME(PARAMS):\n"
            "    FIRST = FIRST[:]\n"
            "    result = INNER(PARAMS)\n"
            "    return result\n"),
    Wrapper("label", ("labelled", "reported", "described"),
            "def NAME(PARAMS):\n"
            "    return {\"result\": INNER(PARAMS), \"size\": len(FIRST)}\n"),
    Wrapper("listed", ("as_list", "boxed", "wrapped"),
            "def NAME(PARAMS):\n"
            "    outcome = INNER(PARAMS)\n"
            "    return [outcome]\n"),
)

# Correct implementations of the leaves written differently from their templates: written tests must accept them
# (a test that pins the source text, not the behaviour, fails on them).
ALTERNATIVES = {
    "window_sums": "def NAME(values, size):\n    return [sum(values[i:i + size]) for i in range(max(len(values) - size + 1, 0))]\n",
    "count_above": "def NAME(values, limit):\n    return len([v for v in values if v > limit])\n",
    "running_max": "def NAME(values):\n    out = []\n    for v in values:\n        out.append(v if not out else max(out[-1], v))\n    return out\n",
    "dedupe": "def NAME(items):\n    return list(dict.fromkeys(items))\n",
    "clamp": "def NAME(values, low, high):\n    return [low if v < low else high if v > high else v for v in values]\n",
    "weighted_total": "def NAME(prices, counts):\n    return sum(p * c for p, c in zip(prices, counts))\n",
    "chunks": "def NAME(values, size):\n    return [values[i:i + size] for i in range(0, len(values), size)]\n",
    "initials": "def NAME(words):\n    out = {}\n    for w in words:\n        out[w[:1]] = out.get(w[:1], 0) + 1\n    return out\n",
    "parse_pairs": ("def NAME(text):\n    pairs = [p.split('=') for p in text.split(';') if p]\n"
                    "    return {k.strip(): int(v) for k, v in pairs}\n"),
    "merge": "def NAME(left, right):\n    return sorted(left + right)\n",
    "spread": "def NAME(values):\n    return max(values) - min(values) if values else 0\n",
}

# Faults of the alternatives (exact snippet of ALTERNATIVES[key], its faulty replacement): repo/write_tests adds
# them to its mutants, so a test that pins the source up to a rewrite (the text as it is, or changed in more lines
# than a one-point fault changes) fails on a rewritten faulty version.
ALTERNATIVE_BUGS = {
    "window_sums": (("len(values) - size + 1", "len(values) - size"), ("values[i:i + size]", "values[i:i + size - 1]")),
    "count_above": (("v > limit", "v >= limit"), ("len([v for", "sum([v for")),
    "running_max": (("max(out[-1], v)", "min(out[-1], v)"), ("v if not out", "0 if not out")),
    "dedupe": (("list(dict.fromkeys(items))", "sorted(set(items), key=items.index)[1:]"),
               ("list(dict.fromkeys(items))", "list(dict.fromkeys(items[:-1]))")),
    "clamp": (("low if v < low", "v if v < low"), ("high if v > high", "v if v > high")),
    "weighted_total": (("p * c", "p + c"), ("zip(prices, counts)", "zip(prices, counts[1:])")),
    "chunks": (("range(0, len(values), size)", "range(0, len(values) - 1, size)"),
               ("values[i:i + size]", "values[i:i + size - 1]")),
    "initials": (("out[w[:1]]", "out[w[-1:]]"), ("out.get(w[:1], 0) + 1", "out.get(w[:1], 0) + len(w)")),
    "parse_pairs": (("int(v)", "int(v) + 1"), ("if p]", "if p][:-1]")),
    "merge": (("sorted(left + right)", "sorted(left) + sorted(right)"), ("sorted(left + right)", "sorted(set(left + right))")),
    "spread": (("max(values) - min(values)", "max(values) - values[0]"), ("max(values) - min(values)", "max(values)")),
}

LEAF_BY_KEY = {leaf.key: leaf for leaf in LEAVES}
WRAPPER_BY_KEY = {wrapper.key: wrapper for wrapper in WRAPPERS}


def leaf_text(leaf: Leaf, name: str, bug: int | None = None) -> str:
    """The leaf's source with its name (and bug ``bug`` applied)."""
    source = leaf.source
    if bug is not None:
        old, new = leaf.bugs[bug]
        source = source.replace(old, new, 1)
    return source.replace("NAME", name)


def wrapper_text(wrapper: Wrapper, name: str, inner: str, params: str, call_args: str | None = None) -> str:
    """The wrapper's source; ``call_args``: the arguments of its call of ``inner`` when they are not ``params``."""
    first = params.split(",")[0].strip()
    source = wrapper.source.replace("INNER(PARAMS)", f"INNER({call_args})") if call_args is not None else wrapper.source
    return (source.replace("NAME", name).replace("INNER", inner).replace("PARAMS", params)
            .replace("FIRST", first))


@functools.lru_cache(maxsize=512)
def compiled(text: str, name: str) -> Callable[..., Any]:
    namespace: dict[str, Any] = {}
    exec(compile(text, f"<template {name}>", "exec"), namespace)  # our own template text (see the docstring)
    return namespace[name]


def behaviour(chain: list[tuple[str, str, int | None]], params: str) -> Callable[..., Any]:
    """The function a chain computes: ``chain`` lists ``(kind, key, bug)`` from the leaf (``kind`` "leaf") outwards
    (``kind`` "wrapper"); each wrapper calls the previous function."""
    function: Callable[..., Any] | None = None
    for kind, key, bug in chain:
        if kind == "leaf":
            function = compiled(leaf_text(LEAF_BY_KEY[key], "fn", bug), "fn")
        else:
            template = compiled(wrapper_text(WRAPPER_BY_KEY[key], "fn", "inner", params), "fn")
            function = bind(template, "inner", function)
    assert function is not None
    return function


def copied(args: list[Any]) -> list[Any]:
    """A deep copy of JSON-native arguments (a function under test may change its input)."""
    return json.loads(json.dumps(args))


def bind(template: Callable[..., Any], name: str, inner: Callable[..., Any] | None) -> Callable[..., Any]:
    """``template`` with the global ``name`` (the function it calls) bound to ``inner``."""
    return types.FunctionType(template.__code__, {**template.__globals__, name: inner}, template.__name__,
                              template.__defaults__)
