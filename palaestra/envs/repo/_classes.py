"""Class templates for the repo family: small data structures with bugs, and scenarios of method calls.

A :class:`ClassTemplate` is a class's source (``NAME`` for its name) with two bugs (an exact snippet and what it
becomes), its constructor's arguments and a draw of scenarios (a list of ``[method, args]`` calls). The
generator compiles the class's text (this module's own constant code, a bug from the same fixed list applied:
never text a model wrote) to run scenarios for expected values. A hidden test or a visible one runs a scenario
on a fresh object and compares the list of the calls' results.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from palaestra.envs.repo._templates import compiled

Scenario = dict[str, Any]  # {"init": [...], "__ops__": [[method, [args...]], ...]}


@dataclass(frozen=True)
class ClassTemplate:
    key: str
    names: tuple[str, ...]
    source: str
    bugs: tuple[tuple[str, str], ...]
    draw: Callable[[random.Random], Scenario]


def _ops(rng: random.Random, count: int, choices: list[tuple[float, Callable[[], list[Any]]]]) -> list[list[Any]]:
    total = sum(weight for weight, _ in choices)
    calls = []
    for _ in range(count):
        pick = rng.random() * total
        for weight, make in choices:
            pick -= weight
            if pick <= 0:
                calls.append(make())
                break
        else:
            calls.append(choices[-1][1]())
    return calls


def _stack(rng: random.Random) -> Scenario:
    return {"init": [rng.randint(2, 4)], "__ops__": _ops(rng, rng.randint(5, 10), [
        (3, lambda: ["push", [rng.randint(1, 50)]]), (2, lambda: ["pop", []]), (1, lambda: ["peek", []]),
        (1, lambda: ["size", []])])}


def _queue(rng: random.Random) -> Scenario:
    return {"init": [rng.randint(2, 4)], "__ops__": _ops(rng, rng.randint(5, 10), [
        (3, lambda: ["put", [rng.randint(1, 50)]]), (2, lambda: ["get", []]), (1, lambda: ["size", []])])}


def _cache(rng: random.Random) -> Scenario:
    keys = ["a", "b", "c", "d", "e"]
    return {"init": [rng.randint(2, 3)], "__ops__": _ops(rng, rng.randint(6, 12), [
        (3, lambda: ["put", [rng.choice(keys), rng.randint(1, 99)]]), (3, lambda: ["get", [rng.choice(keys)]]),
        (1, lambda: ["keys", []])])}


def _counter(rng: random.Random) -> Scenario:
    items = ["x", "y", "z", "w"]
    return {"init": [], "__ops__": _ops(rng, rng.randint(5, 10), [
        (3, lambda: ["add", [rng.choice(items), rng.randint(1, 3)]]), (2, lambda: ["remove", [rng.choice(items)]]),
        (1, lambda: ["count", [rng.choice(items)]]), (1, lambda: ["most_common", []])])}


def _tracker(rng: random.Random) -> Scenario:
    return {"init": [], "__ops__": _ops(rng, rng.randint(4, 9), [
        (3, lambda: ["add", [rng.randint(-20, 40)]]), (1, lambda: ["summary", []])]) + [["summary", []]]}


CLASSES: tuple[ClassTemplate, ...] = (
    ClassTemplate("stack", ("BoundedStack", "LimitedStack", "Pile"),
                  "class NAME:\n"
                  "    def __init__(self, capacity):\n"
                  "        self.capacity = capacity\n"
                  "        self.items = []\n"
                  "\n"
                  "    def push(self, item):\n"
                  "        if len(self.items) >= self.capacity:\n"
                  "            return False\n"
                  "        self.items.append(item)\n"
                  "        return True\n"
                  "\n"
                  "    def pop(self):\n"
                  "        if not self.items:\n"
                  "            return None\n"
                  "        return self.items.pop()\n"
                  "\n"
                  "    def peek(self):\n"
                  "        return self.items[-1] if self.items else None\n"
                  "\n"
                  "    def size(self):\n"
                  "        return len(self.items)\n",
                  (("len(self.items) >= self.capacity", "len(self.items) > self.capacity"),
                   ("return self.items.pop()", "return self.items.pop(0)")),
                  _stack),
    ClassTemplate("queue", ("DropQueue", "RecentBuffer", "SlidingQueue"),
                  "class NAME:\n"
                  "    def __init__(self, capacity):\n"
                  "        self.capacity = capacity\n"
                  "        self.items = []\n"
                  "\n"
                  "    def put(self, item):\n"
                  "        self.items.append(item)\n"
                  "        if len(self.items) > self.capacity:\n"
                  "            self.items.pop(0)\n"
                  "\n"
                  "    def get(self):\n"
                  "        if not self.items:\n"
                  "            return None\n"
                  "        return self.items.pop(0)\n"
                  "\n"
                  "    def size(self):\n"
                  "        return len(self.items)\n",
                  (("if len(self.items) > self.capacity:", "if len(self.items) >= self.capacity:"),
                   ("return self.items.pop(0)", "return self.items.pop()")),
                  _queue),
    ClassTemplate("cache", ("LruCache", "RecentCache", "EvictingStore"),
                  "class NAME:\n"
                  "    def __init__(self, capacity):\n"
                  "        self.capacity = capacity\n"
                  "        self.entries = {}\n"
                  "\n"
                  "    def get(self, key):\n"
                  "        if key not in self.entries:\n"
                  "            return None\n"
                  "        value = self.entries.pop(key)\n"
                  "        self.entries[key] = value\n"
                  "        return value\n"
                  "\n"
                  "    def put(self, key, value):\n"
                  "        if key in self.entries:\n"
                  "            self.entries.pop(key)\n"
                  "        elif len(self.entries) >= self.capacity:\n"
                  "            oldest = next(iter(self.entries))\n"
                  "            self.entries.pop(oldest)\n"
                  "        self.entries[key] = value\n"
                  "\n"
                  "    def keys(self):\n"
                  "        return list(self.entries)\n",
                  (("        value = self.entries.pop(key)\n        self.entries[key] = value\n",
                    "        value = self.entries[key]\n"),
                   ("elif len(self.entries) >= self.capacity:", "elif len(self.entries) > self.capacity:")),
                  _cache),
    ClassTemplate("counter", ("Tally", "MultiCounter", "BagCounter"),
                  "class NAME:\n"
                  "    def __init__(self):\n"
                  "        self.counts = {}\n"
                  "\n"
                  "    def add(self, item, times):\n"
                  "        self.counts[item] = self.counts.get(item, 0) + times\n"
                  "\n"
                  "    def remove(self, item):\n"
                  "        if self.counts.get(item, 0) > 0:\n"
                  "            self.counts[item] -= 1\n"
                  "            if self.counts[item] == 0:\n"
                  "                del self.counts[item]\n"
                  "\n"
                  "    def count(self, item):\n"
                  "        return self.counts.get(item, 0)\n"
                  "\n"
                  "    def most_common(self):\n"
                  "        if not self.counts:\n"
                  "            return None\n"
                  "        return max(sorted(self.counts), key=lambda item: self.counts[item])\n",
                  (("self.counts.get(item, 0) + times", "self.counts.get(item, 0) + 1"),
                   ("max(sorted(self.counts), key", "min(sorted(self.counts), key")),
                  _counter),
    ClassTemplate("tracker", ("RangeTracker", "StatsKeeper", "Extremes"),
                  "class NAME:\n"
                  "    def __init__(self):\n"
                  "        self.low = None\n"
                  "        self.high = None\n"
                  "        self.total = 0\n"
                  "        self.count = 0\n"
                  "\n"
                  "    def add(self, value):\n"
                  "        if self.low is None or value < self.low:\n"
                  "            self.low = value\n"
                  "        if self.high is None or value > self.high:\n"
                  "            self.high = value\n"
                  "        self.total += value\n"
                  "        self.count += 1\n"
                  "\n"
                  "    def summary(self):\n"
                  "        if self.count == 0:\n"
                  "            return None\n"
                  "        return [self.low, self.high, self.total // self.count]\n",
                  (("value > self.high:", "value > self.low:"),
                   ("self.total // self.count", "self.total // (self.count + 1)")),
                  _tracker),
)

CLASS_BY_KEY = {template.key: template for template in CLASSES}


def class_text(template: ClassTemplate, name: str, bug: int | None = None) -> str:
    source = template.source
    if bug is not None:
        old, new = template.bugs[bug]
        source = source.replace(old, new, 1)
    return source.replace("NAME", name)


def run_scenario(template: ClassTemplate, scenario: Scenario, bug: int | None = None) -> list[Any]:
    """The results of the scenario's calls on a fresh object of the class (with bug ``bug``)."""
    cls = compiled(class_text(template, "Subject", bug), "Subject")
    subject = cls(*scenario["init"])
    return [getattr(subject, method)(*args) for method, args in scenario["__ops__"]]
