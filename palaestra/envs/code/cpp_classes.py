"""Write a C++ class with a given interface: a stateful data structure driven by hidden operation sequences.

The answer is C++ code defining the class (in a header-like block: it is saved as
``solution.hpp`` and included by our trusted driver, ``g++ -std=gnu++17 -O2``). Each hidden test
constructs one object and applies a sequence of operations; the driver prints, on one line per
test, what the querying operations return. Expected lines come from trusted Python simulations.

Templates (parameters vary the class and method names and the rules):

- **extreme_stack**: a stack that also answers its minimum (or maximum) in O(1);
- **ring_buffer**: a fixed-capacity queue that overwrites the oldest element or refuses when full,
  with its size and the sum of its elements;
- **cache**: a key-value cache of fixed capacity that evicts the least recently used (or the
  oldest inserted) key;
- **word_counter**: counts of words with removal and the most common word (ties broken
  alphabetically);
- **running_median**: the lower or upper median (or the k-th smallest) of the values added so far;
- **interval_cover**: integer intervals added one by one; how many integers they cover, and
  whether a point is covered.
"""

from __future__ import annotations

import bisect
import functools
import math
import random
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from palaestra.core import Problem, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.code._polyglot import Template, TemplatedTask, convention
from palaestra.envs.code.templates import ProgramTexts
from palaestra.verifiers.polyglot import Budget

WORDS = ("ash", "birch", "cedar", "elm", "fir", "hazel", "larch", "maple", "oak", "pine", "rowan", "yew")

CODE = ProgramTexts("cpp_classes")


class ClassTemplate(Template):
    """One kind of class: interface, rules, operation sequences, trusted simulation, C++ reference
    and the driver's dispatch."""

    CONSTRUCTOR: ClassVar[str] = ""  # the constructor's parameters (it is explicit when there are some)
    MEMBERS: ClassVar[tuple[str, ...]] = ()  # the public methods' declarations, with {p[...]} for drawn names

    def interface(self, p: dict[str, Any]) -> str:
        constructor = f"explicit {p['class']}({self.CONSTRUCTOR})" if self.CONSTRUCTOR else f"{p['class']}()"
        members = "".join(f"\n    {member.format(p=p)};" for member in self.MEMBERS)
        return f"class {p['class']} {{\npublic:\n    {constructor};{members}\n}};"

    def test(self, rng: random.Random, p: dict[str, Any], size: int) -> dict[str, Any]:
        """``{"init": [ints], "ops": [[op, *args]]}``: constructor arguments and operations."""
        raise NotImplementedError

    def run(self, test: dict[str, Any], p: dict[str, Any]) -> list[str]:
        """The trusted outputs of the querying operations."""
        raise NotImplementedError

    # The rule parameters a problem's statement fixes, with every value they can take: the hidden tests must tell
    # the stated rule from each other one (a class implementing the other eviction policy, tie rule... fails).
    rules: ClassVar[dict[str, tuple[Any, ...]]] = {}

    def slips(self, p: dict[str, Any]) -> list[Callable[[dict[str, Any]], list[str]]]:
        """Near-miss classes (their outputs on a test) that the hidden tests must reject: the class of each other
        value of a rule parameter."""
        return [functools.partial(self.run, p={**p, key: value})
                for key, values in self.rules.items() for value in values if value != p[key]]

    def dispatch(self, p: dict[str, Any], **fields: str) -> str:
        """C++ statements of the driver's loop over one test's operations (``op`` holds the name): by default
        the section ``<Template>.dispatch``, which reads an integer argument ``v`` with ``{arg_int_v}``."""
        reads = {f"arg_int_{v}": _arg_int(v) for v in ("x", "key", "value", "left", "right")}
        return CODE(f"{type(self).__name__}.dispatch", p=p, **reads, **fields)

    init_count: ClassVar[int] = 0  # constructor arguments a test gives (the driver reads them as init0, ...)

    def construct(self, p: dict[str, Any]) -> str:
        """C++ declaration of the object ``obj`` from the test's constructor arguments."""
        return f"{p['class']} obj((int)init0);" if self.init_count else f"{p['class']} obj;"

    def driver(self, p: dict[str, Any]) -> str:
        reads = "".join(f"        long long init{i};\n        if (scanf(\"%lld\", &init{i}) != 1) return 1;\n"
                        for i in range(self.init_count))
        return CODE("ClassTemplate.driver", reads=reads, construct=self.construct(p), dispatch=self.dispatch(p))

    def test_input(self, test: dict[str, Any]) -> str:
        head = "".join(f"{x}\n" for x in test["init"])
        return head + f"{len(test['ops'])}\n" + "".join(" ".join(map(str, op)) + "\n" for op in test["ops"])


def _line(outputs: list[str]) -> str:
    return " ".join(outputs) if outputs else "-"


def _arg_int(name: str) -> str:
    return f"long long {name}; if (std::scanf(\"%lld\", &{name}) != 1) return 1;"


# --- extreme stack ----------------------------------------------------------------------------

class ExtremeStack(ClassTemplate):
    name = "extreme_stack"
    rules = {"extreme": ("min", "max")}
    tier = 1

    def params(self, rng: random.Random) -> dict[str, Any]:
        extreme = rng.choice(["min", "max"])
        return {"extreme": extreme, "class": rng.choice(["TrackedStack", "ExtremeStack", "PeakStack", "Pile"]),
                "query": rng.choice(["getMin", "lowest", "smallest"] if extreme == "min"
                                    else ["getMax", "highest", "largest"]),
                "count": rng.random() < 0.4}

    def interface(self, p: dict[str, Any]) -> str:
        count = f"\n    int {p['query']}Count();  // how many elements equal the current {p['extreme']}imum" \
            if p["count"] else ""
        return (f"class {p['class']} {{\npublic:\n    {p['class']}();\n    void push(int x);\n    void pop();\n"
                f"    int top();\n    int {p['query']}();{count}\n}};")

    def statement(self, p: dict[str, Any]) -> str:
        count = (f" {p['query']}Count returns how many elements of the stack are equal to that "
                 f"{p['extreme']}imum." if p["count"] else "")
        return (f"Implement the C++ class\n\n{self.interface(p)}\n\na stack of integers: push adds x on top, pop "
                "removes "
                f"the top element, top returns it, and {p['query']} returns the {p['extreme']}imum of the elements in "
                f"the stack.{count} pop, top and {p['query']} are never called on an empty stack. Every operation "
                "must take O(1) time (the hidden tests hold long sequences).")

    def test(self, rng: random.Random, p: dict[str, Any], size: int) -> dict[str, Any]:
        ops, depth = [], 0
        for _ in range(size):
            roll = rng.random()
            if depth == 0 or roll < 0.4:
                ops.append(["push", rng.randint(-20, 20)])
                depth += 1
            elif roll < 0.6:
                ops.append(["pop"])
                depth -= 1
            else:
                ops.append([rng.choice(["top", p["query"], p["query"] + "Count" if p["count"] else p["query"]])])
        return {"init": [], "ops": ops}

    def slips(self, p: dict[str, Any]) -> list[Callable[[dict[str, Any]], list[str]]]:
        """The other extreme, and (with the count query) a count query that always answers 1."""
        def count_one(test: dict[str, Any]) -> list[str]:
            queries = [op for op, *_ in test["ops"] if op not in ("push", "pop")]
            return ["1" if op == p["query"] + "Count" else got for op, got in zip(queries, self.run(test, p))]

        return [*super().slips(p), *([count_one] if p["count"] else [])]

    def run(self, test: dict[str, Any], p: dict[str, Any]) -> list[str]:
        stack: list[int] = []
        out = []
        pick = min if p["extreme"] == "min" else max
        for op, *args in test["ops"]:
            if op == "push":
                stack.append(args[0])
            elif op == "pop":
                stack.pop()
            elif op == "top":
                out.append(str(stack[-1]))
            elif op == p["query"]:
                out.append(str(pick(stack)))
            else:
                out.append(str(stack.count(pick(stack))))
        return out

    def reference(self, p: dict[str, Any]) -> str:
        better = "<" if p["extreme"] == "min" else ">"
        count = (f"\n    int {p['query']}Count() {{ return extremes.back().second; }}" if p["count"] else "")
        return CODE("ExtremeStack.reference", p=p, better=better, count=count)

    def dispatch(self, p: dict[str, Any], **fields: str) -> str:
        count = (f"            else if (op == \"{p['query']}Count\")\n"
                 f"                emit(&first, std::to_string(obj.{p['query']}Count()));\n"
                 if p["count"] else "")
        return super().dispatch(p, count=count)


# --- ring buffer ------------------------------------------------------------------------------

class RingBuffer(ClassTemplate):
    name = "ring_buffer"
    rules = {"policy": ("overwrite", "refuse")}
    tier = 1

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"policy": rng.choice(["overwrite", "refuse"]), "class": rng.choice(["RingBuffer", "Circular", "Loop"])}

    init_count = 1
    CONSTRUCTOR = "int capacity"
    MEMBERS = ("bool push(int x)", "int pop()", "int size()", "long long sum()")

    def statement(self, p: dict[str, Any]) -> str:
        full = ("When the queue is full, push removes the oldest element to make room, and returns false (it returns "
                "true when nothing was removed)." if p["policy"] == "overwrite" else
                "When the queue is full, push does nothing and returns false; otherwise it adds x and returns true.")
        return (f"Implement the C++ class\n\n{self.interface(p)}\n\na first-in first-out queue of at most capacity "
                f"(>= 1) integers. push adds x at the back. {full} pop removes the oldest element and returns it (it "
                "is never called on an empty queue); size returns the number of elements and sum their sum.")

    def test(self, rng: random.Random, p: dict[str, Any], size: int) -> dict[str, Any]:
        capacity, ops, length = rng.randint(1, 5), [], 0
        for _ in range(size):
            roll = rng.random()
            if length == 0 or roll < 0.5:
                ops.append(["push", rng.randint(-50, 50)])
                length = min(capacity, length + 1)
            elif roll < 0.7:
                ops.append(["pop"])
                length -= 1
            else:
                ops.append([rng.choice(["size", "sum"])])
        return {"init": [capacity], "ops": ops}

    def run(self, test: dict[str, Any], p: dict[str, Any]) -> list[str]:
        capacity, queue, out = test["init"][0], [], []
        for op, *args in test["ops"]:
            if op == "push":
                if len(queue) < capacity:
                    queue.append(args[0])
                    out.append("true")
                else:
                    if p["policy"] == "overwrite":
                        queue.pop(0)
                        queue.append(args[0])
                    out.append("false")
            elif op == "pop":
                out.append(str(queue.pop(0)))
            elif op == "size":
                out.append(str(len(queue)))
            else:
                out.append(str(sum(queue)))
        return out

    def reference(self, p: dict[str, Any]) -> str:
        full = ("if (count == (int)slots.size()) {\n            total -= slots[head];\n            "
                "head = (head + 1) % slots.size();\n            count--;\n            added = false;\n        }"
                if p["policy"] == "overwrite" else "if (count == (int)slots.size()) return false;")
        return CODE("RingBuffer.reference", p=p, full=full)


# --- cache ------------------------------------------------------------------------------------

class Cache(ClassTemplate):
    name = "cache"
    rules = {"policy": ("lru", "fifo"), "missing": (-1, 0, -999)}
    tier = 2

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"policy": rng.choice(["lru", "fifo"]), "missing": rng.choice([-1, 0, -999]),
                "class": rng.choice(["Cache", "KeyStore", "Memo", "LruCache"])}

    init_count = 1
    CONSTRUCTOR = "int capacity"
    MEMBERS = ("int get(int key)", "void put(int key, int value)")

    def statement(self, p: dict[str, Any]) -> str:
        evict = ("the least recently used key (a key is used by get when present, and by put)" if p["policy"] == "lru"
                 else "the key inserted earliest (get does not change the order, and put on a present key only "
                      "changes its value, not its age)")
        return (f"Implement the C++ class\n\n{self.interface(p)}\n\na cache of at most capacity (>= 1) key-value "
                f"pairs. get returns the value of key, or {p['missing']} if key is absent. put sets the value of key; "
                "when key "
                f"is absent and the cache is full, it first evicts {evict}. Operations should take O(1) or O(log n).")

    def test(self, rng: random.Random, p: dict[str, Any], size: int) -> dict[str, Any]:
        capacity = rng.randint(1, 4)
        keys = list(range(1, capacity + 4))
        ops = [["put", rng.choice(keys), rng.randint(1, 99)] if rng.random() < 0.5 else ["get", rng.choice(keys)]
               for _ in range(size)]
        return {"init": [capacity], "ops": ops}

    def run(self, test: dict[str, Any], p: dict[str, Any]) -> list[str]:
        capacity, store, out = test["init"][0], OrderedDict(), []
        for op, *args in test["ops"]:
            key = args[0]
            if op == "get":
                if key in store:
                    if p["policy"] == "lru":
                        store.move_to_end(key)
                    out.append(str(store[key]))
                else:
                    out.append(str(p["missing"]))
            else:
                if key in store:
                    store[key] = args[1]
                    if p["policy"] == "lru":
                        store.move_to_end(key)
                else:
                    if len(store) == capacity:
                        store.popitem(last=False)
                    store[key] = args[1]
        return out

    def reference(self, p: dict[str, Any]) -> str:
        touch = "order.splice(order.begin(), order, found->second.second);" if p["policy"] == "lru" else ""
        return CODE("Cache.reference", p=p, touch=touch)


# --- word counter -----------------------------------------------------------------------------

class WordCounter(ClassTemplate):
    name = "word_counter"
    rules = {"tie": ("smallest", "largest")}
    tier = 2
    MEMBERS = ("void add(const std::string &word)", "void remove(const std::string &word)",
               "int count(const std::string &word)", "std::string {p[top]}()")

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"tie": rng.choice(["smallest", "largest"]), "class": rng.choice(["WordCounter", "Tally", "Histogram"]),
                "top": rng.choice(["mostCommon", "leader", "favourite"])}

    def statement(self, p: dict[str, Any]) -> str:
        tie = "alphabetically smallest" if p["tie"] == "smallest" else "alphabetically largest"
        return (f"Implement the C++ class (include <string>)\n\n{self.interface(p)}\n\nthat counts words: add "
                "counts one "
                "more occurrence of word, remove one less (it does nothing when the count is already 0), count "
                f"returns the current count. {p['top']} returns the word with the largest positive count, the {tie} "
                "one among ties, or \"none\" when every count is 0.")

    def test(self, rng: random.Random, p: dict[str, Any], size: int) -> dict[str, Any]:
        words = rng.sample(WORDS, rng.randint(2, 5))
        ops = []
        for _ in range(size):
            roll = rng.random()
            op = "add" if roll < 0.45 else "remove" if roll < 0.6 else "count" if roll < 0.8 else p["top"]
            ops.append([op] if op == p["top"] else [op, rng.choice(words)])
        return {"init": [], "ops": ops}

    def run(self, test: dict[str, Any], p: dict[str, Any]) -> list[str]:
        counts: dict[str, int] = {}
        out = []
        for op, *args in test["ops"]:
            if op == "add":
                counts[args[0]] = counts.get(args[0], 0) + 1
            elif op == "remove":
                counts[args[0]] = max(0, counts.get(args[0], 0) - 1)
            elif op == "count":
                out.append(str(counts.get(args[0], 0)))
            else:
                live = [(c, w) for w, c in counts.items() if c > 0]
                if not live:
                    out.append("none")
                else:
                    best = max(c for c, _ in live)
                    tied = sorted(w for c, w in live if c == best)
                    out.append(tied[0] if p["tie"] == "smallest" else tied[-1])
        return out

    def reference(self, p: dict[str, Any]) -> str:
        better = "<" if p["tie"] == "smallest" else ">"
        return CODE("WordCounter.reference", p=p, better=better)

    def dispatch(self, p: dict[str, Any], **fields: str) -> str:
        return super().dispatch(p, read="if (std::scanf(\"%63s\", WORD) != 1) return 1;")


# --- running median ---------------------------------------------------------------------------

class RunningMedian(ClassTemplate):
    name = "running_median"
    rules = {"which": ("lower", "upper", "kth")}
    tier = 3

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"which": rng.choice(["lower", "upper", "kth"]),
                "class": rng.choice(["MedianKeeper", "Stream", "Tracker"])}

    init_count = 1
    CONSTRUCTOR = "int k"
    MEMBERS = ("void add(int x)", "int query()")

    def statement(self, p: dict[str, Any]) -> str:
        asked = {
            "lower": "the lower median of the values added so far: the (floor((n + 1) / 2))-th smallest of the n "
                     "values (k is unused)",
            "upper": "the upper median of the values added so far: the (floor(n / 2) + 1)-th smallest of the n values "
                     "(k is unused)",
            "kth": "the k-th smallest of the values added so far (k >= 1; query is only called once at least k values "
                   "were added)",
        }[p["which"]]
        return (f"Implement the C++ class\n\n{self.interface(p)}\n\nadd adds the value x (values may repeat); query "
                f"returns {asked}. query is never called before the first add. Each operation should take O(log n) "
                "time.")

    def test(self, rng: random.Random, p: dict[str, Any], size: int) -> dict[str, Any]:
        k = rng.randint(1, 3) if p["which"] == "kth" else 1
        ops, added = [], 0
        for _ in range(size):
            if added < k or rng.random() < 0.6:
                ops.append(["add", rng.randint(-30, 30)])
                added += 1
            else:
                ops.append(["query"])
        return {"init": [k], "ops": ops}

    def run(self, test: dict[str, Any], p: dict[str, Any]) -> list[str]:
        k, values, out = test["init"][0], [], []
        for op, *args in test["ops"]:
            if op == "add":
                bisect.insort(values, args[0])
            else:
                n = len(values)
                index = {"lower": (n + 1) // 2, "upper": n // 2 + 1, "kth": k}[p["which"]] - 1
                out.append(str(values[index]))
        return out

    def reference(self, p: dict[str, Any]) -> str:
        rank = {"lower": "(n + 1) / 2", "upper": "n / 2 + 1", "kth": "k"}[p["which"]]
        return CODE("RunningMedian.reference", p=p, rank=rank)


# --- interval cover ---------------------------------------------------------------------------

class IntervalCover(ClassTemplate):
    name = "interval_cover"
    rules = {"closed": (True, False)}
    tier = 3
    MEMBERS = ("void add(int left, int right)", "long long {p[total]}()", "bool contains(int x)")

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"closed": rng.random() < 0.5, "class": rng.choice(["IntervalSet", "Coverage", "Ranges"]),
                "total": rng.choice(["covered", "total", "measure"])}

    def statement(self, p: dict[str, Any]) -> str:
        span = ("the integers left, left + 1, ..., right (both ends included; left <= right)" if p["closed"] else
                "the integers left, left + 1, ..., right - 1 (right excluded; left < right)")
        return (f"Implement the C++ class\n\n{self.interface(p)}\n\nadd(left, right) marks {span} as covered "
                "(intervals "
                f"may overlap). {p['total']} returns how many distinct integers are covered; contains(x) whether x is "
                "covered. Operations should take O(log n) amortised time.")

    def test(self, rng: random.Random, p: dict[str, Any], size: int) -> dict[str, Any]:
        ops = []
        for _ in range(size):
            roll = rng.random()
            if roll < 0.45:
                left = rng.randint(-20, 40)
                ops.append(["add", left, left + rng.randint(0 if p["closed"] else 1, 8)])
            elif roll < 0.7:
                ops.append([p["total"]])
            else:
                ops.append(["contains", rng.randint(-22, 50)])
        return {"init": [], "ops": ops}

    def run(self, test: dict[str, Any], p: dict[str, Any]) -> list[str]:
        covered: set[int] = set()
        out = []
        for op, *args in test["ops"]:
            if op == "add":
                covered.update(range(args[0], args[1] + 1 if p["closed"] else args[1]))
            elif op == "contains":
                out.append("true" if args[0] in covered else "false")
            else:
                out.append(str(len(covered)))
        return out

    def reference(self, p: dict[str, Any]) -> str:
        end = "(long long)right + 1" if p["closed"] else "(long long)right"
        return CODE("IntervalCover.reference", p=p, end=end)


TEMPLATES: dict[str, ClassTemplate] = {t.name: t for t in (ExtremeStack(), RingBuffer(), Cache(), WordCounter(),
                                                           RunningMedian(), IntervalCover())}


@register
class CppClasses(TemplatedTask):
    id = "code/cpp_classes"
    version = 2  # 2: the hidden tests tell the stated rule (policy, tie, extreme, median, ends) from the others
    description = "Write a C++ class (a data structure with a given interface) checked by hidden operation sequences."
    tags = ("code", "programming", "cpp", "data-structures")
    languages = ("cpp",)
    toolchains = languages
    budget = Budget(cpu_seconds=1.0, compile_seconds=20.0)
    templates = TEMPLATES

    @dataclass(frozen=True)
    class Config:
        templates: tuple[str, ...]
        ops: int
        tests: int

    presets = (
        Config(("extreme_stack", "ring_buffer", "word_counter"), ops=8, tests=4),
        Config(("extreme_stack", "ring_buffer", "cache", "word_counter"), ops=12, tests=5),
        Config(("ring_buffer", "cache", "word_counter", "running_median"), ops=18, tests=6),
        Config(("cache", "word_counter", "running_median", "interval_cover"), ops=26, tests=7),
        Config(("cache", "running_median", "interval_cover"), ops=36, tests=8),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> Problem | None:
            template = TEMPLATES[rng.choice(config.templates)]
            p = template.params(rng)
            lengths = [rng.randint(max(3, config.ops // 2), config.ops) for _ in range(config.tests)]
            tests = [template.test(rng, p, length) for length in lengths]
            expected = [_line(template.run(test, p)) for test in tests]
            if len(set(expected)) < min(3, len(expected)) or "-" in expected[:1]:
                return None
            if any([_line(slip(test)) for test in tests] == expected for slip in template.slips(p)):
                return None  # the hidden tests do not pin the stated rule down
            example = tests[0]
            init = f" with constructor arguments ({', '.join(map(str, example['init']))})" if example["init"] else ""
            calls = "; ".join(" ".join(map(str, op)) for op in example["ops"])
            prompt = (
                f"{template.statement(p)}\n\nExample: an object built{init}, then the operations {calls}: the "
                f"querying operations return, in order: {expected[0]} (true/false for bool).\n\n"
                "Your code is saved as a header and included by a test driver (g++ -std=gnu++17 -O2) that builds "
                "objects and applies hidden sequences of operations; do not write a main function. Include the "
                "headers your code needs. "
                + convention(self.languages, shape=f"#include <vector>\n\n{template.interface(p).split(chr(10))[0]}\n"
                                                   "    // ...\n};")
            )
            return self.templated_problem(template, p, prompt, tests=tests, expected=expected,
                                          inputs=[template.test_input(test) for test in tests])

        return retry(draw, attempts=50, what="a C++ class problem with varied results")

    def required_name(self, problem: Problem) -> str | None:
        return problem.data["params"]["class"]

    def difficulty(self, problem: Problem) -> float:
        """The template's tier plus log2 of the total number of operations over the hidden tests."""
        ops = sum(len(test["ops"]) for test in problem.data["tests"])
        return self.template(problem).tier + math.log2(1 + ops)
