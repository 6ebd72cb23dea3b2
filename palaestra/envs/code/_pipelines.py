"""Generated pipelines over integer lists and strings, shared by the code family's envs.

A pipeline is a list of steps (JSON dicts such as ``{"op": "keep_gt", "c": 3}``), optionally
followed by a final reduction to one value. Each step has two faces kept side by side in one
table: a sentence for the prompt and a line of Python for the reference source. That line is
also the trusted reference, compiled and run in-process (:func:`apply_pipeline`), so a step is
written once. ``tests/code`` runs the rendered source in the sandbox against it.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from palaestra.envs.code.common import compiled_function, dedupe_inputs, function_tests, rejects_near_misses

Step = dict[str, Any]


@dataclass(frozen=True)
class Op:
    """One pipeline step: how to draw its parameters, describe and render it (its rendered line is
    also how it is applied in-process)."""

    name: str
    group: str  # filter | map | window | order | reduce
    draw: Callable[[random.Random], dict[str, Any]]
    text: Callable[[Step], str]
    code: Callable[[Step], str]  # one statement assigning the variable (or a return expression)
    weight: float = 1.0  # how often it is drawn relative to the others (lower for steps with few variants)


@dataclass(frozen=True)
class Kind:
    """What a pipeline works on: its steps, its final reductions, the variable its code names (``xs`` or ``s``)
    and the description's last line when no reduction ends it."""

    ops: dict[str, Op]
    reducers: dict[str, Op]
    var: str
    final: str

    def op(self, step: Step) -> Op:
        return self.reducers[step["op"]] if step.get("reduce") else self.ops[step["op"]]


def _none(rng: random.Random) -> dict[str, Any]:
    return {}


def _with_remainder(key: str, low: int, high: int) -> Callable[[random.Random], dict[str, Any]]:
    """A step's draw of ``key`` (a modulus or a stride) from ``low`` to ``high`` and a remainder ``r`` below it."""
    def draw(rng: random.Random) -> dict[str, Any]:
        value = rng.randint(low, high)
        return {key: value, "r": rng.randrange(value)}

    return draw


# --- integer lists: the variable is `xs` --------------------------------------------------

ARRAY_OPS: dict[str, Op] = {}


def _array(op: Op) -> None:
    ARRAY_OPS[op.name] = op


_array(Op("keep_gt", "filter", lambda r: {"c": r.randint(-5, 8)},
          lambda s: f"Keep only the elements greater than {s['c']}.",
          lambda s: f"xs = [x for x in xs if x > {s['c']}]"))
_array(Op("keep_lt", "filter", lambda r: {"c": r.randint(-3, 10)},
          lambda s: f"Keep only the elements less than {s['c']}.",
          lambda s: f"xs = [x for x in xs if x < {s['c']}]"))
def _interval(rng: random.Random) -> dict[str, Any]:
    lo = rng.randint(-6, 3)
    return {"lo": lo, "hi": lo + rng.randint(3, 10)}


_array(Op("keep_mod", "filter", _with_remainder("m", 2, 5),
          lambda s: f"Keep only the elements x whose remainder x % {s['m']} is {s['r']} (Python's %, which is "
                    f"never negative for a positive divisor).",
          lambda s: f"xs = [x for x in xs if x % {s['m']} == {s['r']}]"))
_array(Op("drop_multiples", "filter", lambda r: {"m": r.randint(2, 5)},
          lambda s: f"Remove every element that is divisible by {s['m']} (0 is divisible by every number).",
          lambda s: f"xs = [x for x in xs if x % {s['m']} != 0]", weight=0.5))
_array(Op("stride", "filter", _with_remainder("k", 2, 3),
          lambda s: f"Keep only the elements at positions {s['r']}, {s['r'] + s['k']}, {s['r'] + 2 * s['k']}, ... "
                    f"(0-based: every {('second', 'third')[s['k'] - 2]} element, starting with the one at position "
                    f"{s['r']}).",
          lambda s: f"xs = xs[{s['r']}::{s['k']}]" if s["r"] else f"xs = xs[::{s['k']}]", weight=0.5))
_array(Op("affine", "map", lambda r: {"a": r.choice([-3, -2, 2, 3]), "b": r.randint(-5, 5)},
          lambda s: f"Replace each element x by {s['a']} * x + {s['b']}." if s["b"] >= 0
          else f"Replace each element x by {s['a']} * x - {-s['b']}.",
          lambda s: f"xs = [{s['a']} * x + {s['b']} for x in xs]" if s["b"] >= 0
          else f"xs = [{s['a']} * x - {-s['b']} for x in xs]"))
_array(Op("distance", "map", lambda r: {"c": r.randint(-5, 5)},
          lambda s: "Replace each element by its absolute value." if s["c"] == 0
          else f"Replace each element x by its distance to {s['c']}, that is |x - ({s['c']})|.",
          lambda s: "xs = [abs(x) for x in xs]" if s["c"] == 0
          else f"xs = [abs(x - {s['c']}) for x in xs]" if s["c"] > 0 else f"xs = [abs(x + {-s['c']}) for x in xs]"))
_array(Op("mod", "map", lambda r: {"m": r.randint(3, 9)},
          lambda s: f"Replace each element x by x % {s['m']} (Python's %, between 0 and {s['m'] - 1}).",
          lambda s: f"xs = [x % {s['m']} for x in xs]"))
_array(Op("floordiv", "map", lambda r: {"d": r.randint(2, 4)},
          lambda s: f"Replace each element x by x // {s['d']} (floor division: rounds down, so -3 // 2 is -2).",
          lambda s: f"xs = [x // {s['d']} for x in xs]", weight=0.5))
_array(Op("clamp", "map", _interval,
          lambda s: f"Clamp each element to the range [{s['lo']}, {s['hi']}] (smaller values become {s['lo']}, "
                    f"larger ones {s['hi']}).",
          lambda s: f"xs = [min(max(x, {s['lo']}), {s['hi']}) for x in xs]"))
_array(Op("add_index", "map", lambda r: {"k": r.choice([-2, -1, 1, 2, 3])},
          lambda s: "Add to each element its 0-based position in the list." if s["k"] == 1
          else f"Add to each element {s['k']} times its 0-based position in the list.",
          lambda s: "xs = [x + i for i, x in enumerate(xs)]" if s["k"] == 1
          else f"xs = [x + {s['k']} * i for i, x in enumerate(xs)]", weight=0.5))
_array(Op("window_sum", "window", lambda r: {"k": r.randint(2, 4)},
          lambda s: f"Replace the list by the sums of every {s['k']} consecutive elements, in order (a list "
                    f"{s['k'] - 1} shorter; empty if there are fewer than {s['k']} elements).",
          lambda s: f"xs = [sum(xs[i:i + {s['k']}]) for i in range(len(xs) - {s['k'] - 1})]"))
_array(Op("window_max", "window", lambda r: {"k": r.randint(2, 3)},
          lambda s: f"Replace the list by the maximum of every {s['k']} consecutive elements, in order (a list "
                    f"{s['k'] - 1} shorter; empty if there are fewer than {s['k']} elements).",
          lambda s: f"xs = [max(xs[i:i + {s['k']}]) for i in range(len(xs) - {s['k'] - 1})]"))
_array(Op("differences", "window", _none,
          lambda s: "Replace the list by the differences of neighbours: each element minus the one before it "
                    "(a list one shorter).",
          lambda s: "xs = [xs[i + 1] - xs[i] for i in range(len(xs) - 1)]", weight=0.5))
_array(Op("prefix_sums", "window", _none,
          lambda s: "Replace each element by the sum of itself and all elements before it (running totals).",
          lambda s: "xs = [sum(xs[:i + 1]) for i in range(len(xs))]", weight=0.5))
_array(Op("running_max", "window", _none,
          lambda s: "Replace each element by the largest element up to and including it (running maximum).",
          lambda s: "xs = [max(xs[:i + 1]) for i in range(len(xs))]", weight=0.5))
_array(Op("reverse", "order", _none,
          lambda s: "Reverse the list.",
          lambda s: "xs = xs[::-1]", weight=0.5))
_array(Op("sort", "order", lambda r: {"desc": r.random() < 0.5},
          lambda s: "Sort the list in decreasing order." if s["desc"] else "Sort the list in increasing order.",
          lambda s: "xs = sorted(xs, reverse=True)" if s["desc"] else "xs = sorted(xs)", weight=0.5))
_array(Op("take", "order", lambda r: {"k": r.randint(2, 6)},
          lambda s: f"Keep only the first {s['k']} elements (all of them if there are fewer).",
          lambda s: f"xs = xs[:{s['k']}]"))
_array(Op("drop", "order", lambda r: {"k": r.randint(1, 3)},
          lambda s: "Remove the first element (if any)." if s["k"] == 1
          else f"Remove the first {s['k']} elements (all of them if there are fewer).",
          lambda s: f"xs = xs[{s['k']}:]"))
_array(Op("dedupe", "order", _none,
          lambda s: "Remove repeated values, keeping only the first occurrence of each value.",
          lambda s: "xs = list(dict.fromkeys(xs))", weight=0.5))
_array(Op("rotate", "order", lambda r: {"k": r.randint(1, 4)},
          lambda s: f"Rotate the list left by {s['k']} positions: the first {s['k']} elements (taking {s['k']} "
                    "modulo the length) move to the end in order; an empty list stays empty.",
          lambda s: f"xs = xs[{s['k']} % len(xs):] + xs[:{s['k']} % len(xs)] if xs else xs"))

ARRAY_REDUCERS: dict[str, Op] = {
    "sum": Op("sum", "reduce", _none, lambda s: "Return the sum of the elements (0 for an empty list).",
              lambda s: "return sum(xs)"),
    "count": Op("count", "reduce", _none, lambda s: "Return the number of elements.",
                lambda s: "return len(xs)"),
    "max": Op("max", "reduce", _none, lambda s: "Return the largest element, or 0 if the list is empty.",
              lambda s: "return max(xs) if xs else 0"),
    "min": Op("min", "reduce", _none, lambda s: "Return the smallest element, or 0 if the list is empty.",
              lambda s: "return min(xs) if xs else 0"),
    "alternating": Op("alternating", "reduce", _none,
                      lambda s: "Return the alternating sum x0 - x1 + x2 - x3 + ... (0 for an empty list).",
                      lambda s: "return sum(x if i % 2 == 0 else -x for i, x in enumerate(xs))"),
    "distinct": Op("distinct", "reduce", _none, lambda s: "Return the number of distinct values.",
                   lambda s: "return len(set(xs))"),
    "product_mod": Op("product_mod", "reduce", lambda r: {"m": r.choice([97, 101, 997, 1009])},
                      lambda s: f"Return the product of the elements modulo {s['m']} (Python's %, so between 0 "
                                f"and {s['m'] - 1}; the product of an empty list is 1).",
                      lambda s: f"return math.prod(xs) % {s['m']}"),
}
ARRAYS = Kind(ARRAY_OPS, ARRAY_REDUCERS, "xs", "Return the resulting list.")


# --- strings: the variable is `s` ----------------------------------------------------------

STRING_OPS: dict[str, Op] = {}


def _string(op: Op) -> None:
    STRING_OPS[op.name] = op


_LETTERS = "abcdefghij"
_string(Op("reverse", "order", lambda r: {"k": r.choice([0, 2, 3, 4])},
           lambda s: "Reverse the string." if not s["k"] else
                     f"Cut the string into consecutive blocks of {s['k']} characters (the last block may be "
                     "shorter) and reverse each block in place.",
           lambda s: "s = s[::-1]" if not s["k"] else
                     f"s = ''.join(s[i:i + {s['k']}][::-1] for i in range(0, len(s), {s['k']}))", weight=0.5))
_string(Op("replace", "map", lambda r: dict(zip("ab", r.sample(_LETTERS, 2))),
           lambda s: f"Replace every '{s['a']}' by '{s['b']}'.",
           lambda s: f"s = s.replace({s['a']!r}, {s['b']!r})"))
_string(Op("remove", "filter", lambda r: {"c": r.choice(_LETTERS + " ")},
           lambda s: "Remove every space." if s["c"] == " " else f"Remove every '{s['c']}'.",
           lambda s: f"s = s.replace({s['c']!r}, '')"))
_string(Op("keep_only", "filter", lambda r: {"cs": "".join(sorted(r.sample(_LETTERS, r.randint(3, 6))))},
           lambda s: f"Keep only the characters {', '.join(repr(c) for c in s['cs'])} (remove every other "
                     "character).",
           lambda s: f"s = ''.join(c for c in s if c in {s['cs']!r})"))
_string(Op("caesar", "map", lambda r: {"k": r.randint(1, 25)},
           lambda s: f"Shift every lowercase letter {s['k']} places forward in the alphabet, wrapping around "
                     "from z to a; leave other characters unchanged.",
           lambda s: f"s = ''.join(chr((ord(c) - 97 + {s['k']}) % 26 + 97) if 'a' <= c <= 'z' else c for c in s)"))
_string(Op("upper_set", "map", lambda r: {"cs": "".join(sorted(r.sample(_LETTERS, 3)))},
           lambda s: f"Make the letters {', '.join(s['cs'])} uppercase wherever they occur.",
           lambda s: f"s = ''.join(c.upper() if c in {s['cs']!r} else c for c in s)"))
_string(Op("repeat", "map", lambda r: {"k": r.randint(2, 4)},
           lambda s: f"Write every character {('twice', 'three times', 'four times')[s['k'] - 2]} ('ab' becomes "
                     f"'{'a' * s['k'] + 'b' * s['k']}').",
           lambda s: f"s = ''.join(c * {s['k']} for c in s)",
           weight=0.5))
_string(Op("squeeze", "filter", lambda r: {"k": r.randint(2, 3)},
           lambda s: "Replace every run of identical consecutive characters by a single one ('aabccc' becomes "
                     "'abc')." if s["k"] == 2 else
                     f"Replace every run of {s['k']} or more identical consecutive characters by a single one "
                     "(shorter runs stay: 'aabccc' becomes 'aabc').",
           lambda s: "s = ''.join(c for i, c in enumerate(s) if i == 0 or s[i - 1] != c)" if s["k"] == 2 else
                     f"s = ''.join(k if len(g) >= {s['k']} else g for k, g in ((k, ''.join(g)) for k, g in "
                     "itertools.groupby(s)))", weight=0.5))
_string(Op("stride", "filter", _with_remainder("k", 2, 4),
           lambda s: f"Keep only the characters at positions {s['r']}, {s['r'] + s['k']}, {s['r'] + 2 * s['k']}, ... "
                     "(0-based).",
           lambda s: f"s = s[{s['r']}::{s['k']}]" if s["r"] else f"s = s[::{s['k']}]"))
_string(Op("rotate", "order", lambda r: {"k": r.randint(1, 9)},
           lambda s: f"Rotate the string left by {s['k']} characters (the first {s['k']} characters, taking "
                     f"{s['k']} modulo the length, move to the end); an empty string stays empty.",
           lambda s: f"s = s[{s['k']} % len(s):] + s[:{s['k']} % len(s)] if s else s"))
_string(Op("sort", "order", lambda r: {"desc": r.random() < 0.5},
           lambda s: f"Sort the characters in {'decreasing' if s['desc'] else 'increasing'} order of Unicode code "
                     "point, as Python's sorted does (e.g. ' ' < '*' < '-' < '1' < 'A' < '_' < 'a').",
           lambda s: "s = ''.join(sorted(s, reverse=True))" if s["desc"] else "s = ''.join(sorted(s))", weight=0.5))
_string(Op("reverse_words", "words", _none,
           lambda s: "Reverse the order of the words (words are separated by single spaces).",
           lambda s: "s = ' '.join(s.split(' ')[::-1])"))
_string(Op("reverse_each_word", "words", _none,
           lambda s: "Reverse each word in place (words are separated by single spaces).",
           lambda s: "s = ' '.join(w[::-1] for w in s.split(' '))"))
_string(Op("capitalize_words", "words", _none,
           lambda s: "Make the first character of each word uppercase (words are separated by single spaces).",
           lambda s: "s = ' '.join(w[:1].upper() + w[1:] for w in s.split(' '))"))
_string(Op("run_length", "map", lambda r: {"count_first": r.random() < 0.5},
           lambda s: "Replace every run of identical consecutive characters by the run's length followed by the "
                     "character ('aaab' becomes '3a1b')." if s["count_first"] else
                     "Replace every run of identical consecutive characters by the character followed by the "
                     "run's length ('aaab' becomes 'a3b1').",
           lambda s: "s = ''.join(f'{len(list(g))}{k}' for k, g in itertools.groupby(s))" if s["count_first"]
           else "s = ''.join(f'{k}{len(list(g))}' for k, g in itertools.groupby(s))", weight=0.5))
_string(Op("join", "map", lambda r: {"sep": r.choice("-+*._:/")},
           lambda s: f"Put a '{s['sep']}' between every two adjacent characters.",
           lambda s: f"s = {s['sep']!r}.join(s)"))
def _affixes(rng: random.Random) -> dict[str, Any]:
    prefix, suffix = rng.choice([("", rng.choice(_MARKS)), (rng.choice(_MARKS), ""),
                                 (rng.choice(_MARKS), rng.choice(_MARKS))])
    return {"prefix": prefix, "suffix": suffix}


def _affix_text(s: Step) -> str:
    parts = ([f"'{s['prefix']}' at the start"] if s["prefix"] else []) + (
        [f"'{s['suffix']}' at the end"] if s["suffix"] else [])
    return f"Add {' and '.join(parts)}."


_MARKS = ("<", ">", "#", "!", "?", "xy", "zz")
_string(Op("affix", "map", _affixes, _affix_text,
           lambda s: f"s = {s['prefix']!r} + s + {s['suffix']!r}"))
_string(Op("take", "order", lambda r: {"k": r.randint(2, 9)},
           lambda s: f"Keep only the first {s['k']} characters (all of them if there are fewer).",
           lambda s: f"s = s[:{s['k']}]"))

STRING_REDUCERS: dict[str, Op] = {
    "count_char": Op("count_char", "reduce", lambda r: {"c": r.choice(_LETTERS)},
                     lambda s: f"Return the number of times '{s['c']}' occurs.",
                     lambda s: f"return s.count({s['c']!r})"),
    "distinct": Op("distinct", "reduce", _none, lambda s: "Return the number of distinct characters.",
                   lambda s: "return len(set(s))"),
    "length": Op("length", "reduce", _none, lambda s: "Return the length of the string.",
                 lambda s: "return len(s)"),
    "find": Op("find", "reduce", lambda r: {"c": r.choice(_LETTERS)},
               lambda s: f"Return the 0-based position of the first '{s['c']}', or -1 if there is none.",
               lambda s: f"return s.find({s['c']!r})"),
}
STRINGS = Kind(STRING_OPS, STRING_REDUCERS, "s", "Return the resulting string.")


# --- drawing, rendering, applying ------------------------------------------------------------

# Adjacent steps that amount to one step of another kind (a sort then a reversal is the opposite sort).
COLLAPSING = {("sort", "reverse"), ("reverse", "sort")}


def draw_pipeline(rng: random.Random, kind: Kind, steps: int, groups: tuple[str, ...], reduce_chance: float) -> list[Step]:
    """``steps`` steps from the allowed groups (no op twice in a row), maybe a final reducer."""
    names = [n for n, op in kind.ops.items() if op.group in groups]
    pipeline: list[Step] = []
    for _ in range(steps):
        previous = pipeline[-1]["op"] if pipeline else None
        allowed = [n for n in names if n != previous and (previous, n) not in COLLAPSING]
        name = rng.choices(allowed, weights=[kind.ops[n].weight for n in allowed])[0]
        pipeline.append({"op": name, **kind.ops[name].draw(rng)})
    if rng.random() < reduce_chance:
        name = rng.choice(sorted(kind.reducers))
        pipeline.append({"op": name, "reduce": True, **kind.reducers[name].draw(rng)})
    return pipeline


@functools.lru_cache(maxsize=4096)
def _step_function(line: str, var: str) -> Callable[[Any], Any]:
    """One rendered step (our own line of Python) as a function of the variable, compiled once per line."""
    body = line if line.startswith("return ") else f"{line}\n    return {var}"
    return compiled_function(f"import itertools\nimport math\n\n\ndef step({var}):\n    {body}\n", "step")


def apply_pipeline(pipeline: list[Step], value: Any, kind: Kind) -> Any:
    """The trusted result: each step's rendered line (the reference source's own lines) run in-process."""
    for step in pipeline:
        value = _step_function(kind.op(step).code(step), kind.var)(value)
    return value


def _tells_apart(pipeline: list[Step], variants: list[list[Step]], inputs: list[Any], kind: Kind) -> bool:
    """Whether each variant of the pipeline gives another result on some input (or fails where it does not)."""
    tests = [{"args": [x], "expected": apply_pipeline(pipeline, x, kind)} for x in inputs]
    return rejects_near_misses((lambda x, v=variant: apply_pipeline(v, x, kind) for variant in variants), tests)


def every_step_matters(pipeline: list[Step], inputs: list[Any], kind: Kind) -> bool:
    """Whether leaving out any one step changes the result on some input: no step is a no-op
    (``keep > -20`` on small numbers, ``remove 'a'`` after every 'a' became 'b'), so the number of
    steps, the difficulty knob, counts real work."""
    return _tells_apart(pipeline, [pipeline[:k] + pipeline[k + 1:] for k in range(len(pipeline))], inputs, kind)


def constant_mutants(pipeline: list[Step]) -> list[list[Step]]:
    """The pipeline with one integer constant of one step moved by one (an off-by-one solution)."""
    out = []
    for k, step in enumerate(pipeline):
        for key, value in step.items():
            if type(value) is int:
                for delta in (-1, 1):
                    out.append(pipeline[:k] + [{**step, key: value + delta}] + pipeline[k + 1:])
    return out


def every_constant_matters(pipeline: list[Step], inputs: list[Any], kind: Kind) -> bool:
    """Whether the inputs tell the pipeline apart from each off-by-one variant of its constants
    (``keep > 3`` from ``keep > 4``), so the hidden tests reject those near misses."""
    return _tells_apart(pipeline, constant_mutants(pipeline), inputs, kind)


def pinned_down(pipeline: list[Step], inputs: list[Any], kind: Kind) -> bool:
    """Every step does real work and the inputs reject every off-by-one variant of its constants."""
    return every_step_matters(pipeline, inputs, kind) and every_constant_matters(pipeline, inputs, kind)


def pinned_pipeline(
    rng: random.Random, kind: Kind, steps: int, groups: tuple[str, ...], reduce_chance: float,
    inputs: Callable[[], list[list[Any]]], useful: Callable[[list[dict[str, Any]]], bool],
) -> tuple[list[Step], list[dict[str, Any]]] | None:
    """One draw of a pipeline and its function tests on ``inputs()`` (expected values from the pipeline run
    in-process), or None unless ``useful(tests)`` and the inputs pin the pipeline down."""
    pipeline = draw_pipeline(rng, kind, steps, groups, reduce_chance)
    args = inputs()
    tests = function_tests(lambda x: apply_pipeline(pipeline, x, kind), args)
    return (pipeline, tests) if useful(tests) and pinned_down(pipeline, [a[0] for a in args], kind) else None


def describe_pipeline(pipeline: list[Step], kind: Kind) -> str:
    lines = [f"{i}. {kind.op(step).text(step)}" for i, step in enumerate(pipeline, 1)]
    if not pipeline or not pipeline[-1].get("reduce"):
        lines.append(f"{len(pipeline) + 1}. {kind.final}")
    return "\n".join(lines)


def render_pipeline(pipeline: list[Step], kind: Kind, function: str = "solve") -> str:
    body = [kind.op(step).code(step) for step in pipeline]
    if not pipeline or not pipeline[-1].get("reduce"):
        body.append(f"return {kind.var}")
    imports = sorted({m for m in ("math", "itertools") if any(f"{m}." in line for line in body)})
    head = "".join(f"import {m}\n" for m in imports) + ("\n" if imports else "")
    return head + f"def {function}({kind.var}):\n" + "".join(f"    {line}\n" for line in body)


def random_string(rng: random.Random, length: int, words: bool, alphabet: str = _LETTERS) -> str:
    """Lowercase letters from ``alphabet``; with ``words``, single spaces between short words."""
    if not words:
        return "".join(rng.choice(alphabet) for _ in range(length))
    out: list[str] = []
    while sum(len(w) for w in out) + len(out) < length:
        out.append("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 5))))
    return " ".join(out)[: max(length, 0)].strip(" ").replace("  ", " ")


def string_inputs(rng: random.Random, count: int, max_len: int, words: bool) -> list[list[Any]]:
    inputs: list[list[Any]] = [[""], [rng.choice(_LETTERS)], ["aaabba"], [_LETTERS[: max(3, min(10, max_len))]]]
    if words:
        inputs.append(["ab cd e"])
    while len(inputs) < count:
        inputs.append([random_string(rng, rng.randint(2, max_len), words)])
    return dedupe_inputs(inputs)
