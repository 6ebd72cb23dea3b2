"""Write unit tests for a given Python function; the reward is the share of hidden mutants they kill.

Each problem shows a small Python function (drawn from a catalogue, with generated constants)
and asks for at most N test cases, one per line, written ``name(arguments) == expected``
(``assert`` in front is fine; ``is None`` works for None). Hidden **mutants** of the function
(each a single generated change: a comparison, an arithmetic operator, a constant, a boolean
connective) are drawn per problem, every one proved different from the original on the
generator's input pool. Verification: every test must hold for the original function (else the
answer is wrong: a test that fails on correct code is a wrong test), then the reward is the
fraction of mutants for which some test fails (killed); it is 1 only when every mutant is
killed. The gold answer is a greedy cover of the mutants by pool inputs.

Nothing the model writes is executed: tests are read as literals by a bounded parser (ints,
strings, booleans, None, lists and tuples), arguments are checked against the function's
parameter kinds and size bounds, and the original and the mutants are this module's own code
(rebuilt from the catalogue, never from problem data), run in-process on bounded inputs with
``for`` loops only, so every call ends quickly.

Generation speed: about 1,000 problems/s at level 4 on this 2-core machine. Each new function with its
drawn constants is analysed once (then cached): its ~50 single-change mutants are compiled from the
changed syntax tree and each is run on the whole input pool (50-150 inputs), so that only mutants some
input kills are hidden and a reward of 1 means every one was told apart; the constants spread the draws
over hundreds of functions, so most problems pay for a fresh analysis (compiling the mutants is half of it).
"""

from __future__ import annotations

import ast
import builtins
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.code.common import compiled_function, show
from palaestra.envs.code.templates import ProgramTexts

MAX_TESTS_TEXT = 20_000
MAX_INT = 10_000
MAX_ITEMS = 30
MAX_TEXT = 40

# name: (parameter kinds, constant ranges); the source, with {A}, {B} for its constants, is the section
# of that name in templates/mutation_tests.txt
# kinds: "int", "ints" (list of ints), "sorted" (sorted list of ints), "text" (lowercase string)
CATALOGUE: dict[str, tuple[tuple[str, ...], tuple[tuple[int, int], ...]]] = {
    "count_between": (("ints", "int", "int"), ((2, 6),)),
    "second_largest": (("ints",), ((5, 60),)),
    "longest_run": (("ints",), ((0, 4),)),
    "find_index": (("sorted", "int"), ((1, 9),)),
    "grade": (("int",), ((80, 95), (60, 79))),
    "leap_year": (("int",), ((3, 7), (200, 500))),
    "triangle": (("int", "int", "int"), ((1, 3),)),
    "max_window_sum": (("ints", "int"), ((1, 9),)),
    "shift_letters": (("text", "int"), ((1, 5),)),
    "clamp_sum": (("ints",), ((3, 20), (3, 20))),
    "digit_sum": (("int",), ((2, 10),)),
    "common_count": (("sorted", "sorted"), ((1, 4),)),
}
CODE = ProgramTexts("mutation_tests")

Kills = frozenset[int]  # the pool inputs on which a mutant's result differs from the original's
SAFE_BUILTINS = ("len", "range", "abs", "chr", "ord", "min", "max")  # all the catalogue's code may call
COMPARISONS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq)
ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)


def source_of(name: str, constants: list[int]) -> str:
    return CODE(name, **dict(zip("AB", constants))).strip() + "\n"


def mutated_trees(source: str) -> Iterator[ast.Module]:
    """The tree of ``source`` (our catalogue code) once per single-change mutant, in a fixed order: each
    comparison operator replaced by each other one, each arithmetic operator by each other one, each
    integer constant moved by one, each ``and``/``or`` swapped. It is the same tree each time, changed
    in place before it is yielded and restored after: use it before asking for the next one."""
    def sites(tree: ast.AST) -> list[ast.AST]:  # what a mutation changes, in walk order
        return [node for node in ast.walk(tree) if isinstance(node, (ast.Compare, ast.BinOp, ast.AugAssign, ast.BoolOp))
                or (isinstance(node, ast.Constant) and type(node.value) is int)]

    tree = ast.parse(source)
    for node in sites(tree):
        options: list[Callable[[ast.AST], None]] = []
        if isinstance(node, ast.Compare) and type(node.ops[0]) in COMPARISONS:
            options = [lambda n, op=op: n.ops.__setitem__(0, op()) for op in COMPARISONS if op is not type(node.ops[0])]
        elif isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in ARITHMETIC:
            options = [lambda n, op=op: setattr(n, "op", op()) for op in ARITHMETIC if op is not type(node.op)]
        elif isinstance(node, ast.BoolOp):
            options = [lambda n: setattr(n, "op", ast.Or() if isinstance(n.op, ast.And) else ast.And())]
        elif isinstance(node, ast.Constant):
            options = [lambda n, d=d: setattr(n, "value", n.value + d) for d in (-1, 1)]
        # Each change is made in place, used, then undone (the node's fields restored, lists copied),
        # so one tree serves every mutant: copying or re-parsing the tree per mutant cost most of the time.
        saved = {field: list(value) if isinstance(value, list) else value for field, value in vars(node).items()}
        for change in options:
            change(node)
            yield tree
            for field, value in saved.items():
                setattr(node, field, list(value) if isinstance(value, list) else value)


def mutations(source: str) -> list[str]:
    """Every single-change mutant of ``source``, written out, in the order of :func:`mutated_trees`."""
    return [ast.unparse(tree) + "\n" for tree in mutated_trees(source)]


def mutant_functions(name: str, source: str) -> Iterator[Callable[..., Any]]:
    """The mutants of :func:`mutations` as functions, in the same order, compiled from the changed tree
    itself: writing each mutant out and parsing it again took most of an analysis."""
    for tree in mutated_trees(source):
        namespace: dict[str, Any] = {"__builtins__": {b: getattr(builtins, b) for b in SAFE_BUILTINS}}
        exec(compile(tree, f"{name}.py", "exec"), namespace)  # noqa: S102 - our catalogue code, never model text
        yield namespace[name]


@lru_cache(maxsize=128)
def catalogue_mutants(name: str, constants: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(mutations(source_of(name, list(constants))))


def fresh(value: Any) -> Any:
    """A copy of a literal argument (ints, strings, booleans, None, lists and tuples of them) that
    shares no list with it, so a function mutating its argument cannot change the caller's; cheaper
    than ``copy.deepcopy``, which matters because every mutant runs on every pool input."""
    if isinstance(value, list):
        return [fresh(item) for item in value]
    if isinstance(value, tuple):
        return tuple(fresh(item) for item in value)
    return value


def call(function: Callable[..., Any], args: list[Any]) -> tuple[str, Any]:
    """``("value", v)`` or ``("raised", exception name)``: one bounded call on a copy of the arguments."""
    try:
        return "value", function(*fresh(args))
    except Exception as exc:  # a mutant indexing past the end, dividing by zero ...
        return "raised", type(exc).__name__


def differs(got: tuple[str, Any], expected: Any) -> bool:
    """Whether a call's outcome fails a test expecting ``expected`` (an exception always does)."""
    return got[0] != "value" or not same(got[1], expected)


def same(a: Any, b: Any) -> bool:
    """Equality that tells ``True`` from ``1`` and a tuple from a list."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


# --- inputs -----------------------------------------------------------------------------------

def draw_arg(rng: random.Random, kind: str, scale: int) -> Any:
    if kind == "int":
        return rng.choice([rng.randint(-scale, scale), rng.randint(-3, 3), rng.randint(0, 10 * scale)])
    if kind == "text":
        return "".join(rng.choice("abcxyz .!") for _ in range(rng.randint(0, 8)))
    values = [rng.randint(-scale, scale) for _ in range(rng.randint(0, 8))]
    if rng.random() < 0.3 and values:
        values += [rng.choice(values)] * rng.randint(1, 3)
    return sorted(values) if kind == "sorted" else values


@lru_cache(maxsize=256)
def analysis(name: str, constants: tuple[int, ...]) -> tuple[list[list[Any]], list[Any], list[tuple[int, Kills]]]:
    """``(pool, expected outputs, [(mutant index, pool inputs killing it)])`` for one function: its
    input pool is seeded by the function and its constants alone, so the analysis is computed once."""
    original = compiled_function(source_of(name, list(constants)), name, SAFE_BUILTINS)
    pool, wanted = [], []
    for args in input_pool(random.Random(f"{name}:{constants}"), name, 10):
        got = call(original, args)
        if got[0] == "value":
            pool.append(args)
            wanted.append(got[1])
    kills = []
    cases = list(enumerate(zip(pool, wanted)))
    for index, mutant in enumerate(mutant_functions(name, source_of(name, list(constants)))):
        killed = []
        for i, (args, expected) in cases:
            # differs(call(mutant, args), expected), inlined, without copying the arguments: no catalogue
            # function or mutant of one changes its arguments (they only read them and assign local names),
            # and this loop runs for every mutant on every pool input
            try:
                got = mutant(*args)
            except Exception:  # a mutant indexing past the end, dividing by zero ...
                killed.append(i)
                continue
            if type(got) is not type(expected) or not (same(got, expected) if type(got) in (list, tuple)
                                                       else got == expected):
                killed.append(i)
        if killed:
            kills.append((index, frozenset(killed)))
    return pool, wanted, kills


def input_pool(rng: random.Random, name: str, size: int) -> list[list[Any]]:
    kinds = CATALOGUE[name][0]
    pool = [[draw_arg(rng, kind, scale) for kind in kinds] for scale in (3, 10, 100, 400, 1000) for _ in range(size)]
    if name == "grade":
        pool += [[v] for v in range(-2, 103)]
    if name == "leap_year":
        pool += [[y] for y in (1900, 2000, 2004, 2100, 2400, 1996, 2001, 0, 400, 100)]
    if name == "triangle":
        pool += [[a, b, c] for a in range(0, 5) for b in range(0, 5) for c in range(0, 5)]
    return pool


# --- reading the answer -----------------------------------------------------------------------

class Unreadable(ValueError):
    pass


class LiteralReader:
    """A bounded recursive-descent reader of Python literals: ints, strings, True/False/None,
    lists and tuples (no expressions)."""

    def __init__(self, text: str) -> None:
        self.text, self.pos = text, 0

    def skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in " \t":
            self.pos += 1

    def peek(self) -> str:
        self.skip()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def expect(self, char: str) -> None:
        if self.peek() != char:
            raise Unreadable(f"expected {char!r}")
        self.pos += 1

    def value(self, depth: int = 0) -> Any:
        if depth > 3:
            raise Unreadable("nested too deeply")
        char = self.peek()
        if char in "[(":
            close = "]" if char == "[" else ")"
            self.pos += 1
            items = []
            while self.peek() != close:
                if len(items) >= MAX_ITEMS:
                    raise Unreadable("too many items")
                items.append(self.value(depth + 1))
                if self.peek() == ",":
                    self.pos += 1
                elif self.peek() != close:
                    raise Unreadable(f"expected ',' or {close!r}")
            self.pos += 1
            return items if char == "[" else tuple(items)
        if char in "'\"":
            end = self.text.find(char, self.pos + 1)
            if end < 0 or end - self.pos > MAX_TEXT + 1 or "\\" in self.text[self.pos:end]:
                raise Unreadable("unreadable string")
            word, self.pos = self.text[self.pos + 1:end], end + 1
            return word
        match = NUMBER_OR_NAME.match(self.text, self.pos)
        if not match:
            raise Unreadable("not a literal")
        self.pos = match.end()
        word = match.group()
        return CONSTANTS[word] if word in CONSTANTS else int(word)


NUMBER_OR_NAME = re.compile(r"-?\d{1,6}(?![\d.])|True\b|False\b|None\b")
CONSTANTS = {"True": True, "False": False, "None": None}
LINE = re.compile(r"^\s*(?:assert\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*\(")


def read_tests(text: str, name: str, arity: int, limit: int) -> list[tuple[list[Any], Any]] | str:
    """The tests of an answer, or why they cannot be read."""
    if len(text) > MAX_TESTS_TEXT:
        return "the answer is too long"
    body = text.strip()
    fence = re.match(r"^```[^\n]*\n(.*?)\n?```\s*$", body, re.DOTALL)
    if fence:
        body = fence.group(1)
    tests = []
    for number, raw in enumerate(body.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        match = LINE.match(line)
        if not match or match.group(1) != name:
            return f"line {number} is not a test of {name}: write {name}(arguments) == expected"
        reader = LiteralReader(line)
        reader.pos = match.end() - 1
        try:
            args = reader.value()
            rest = line[reader.pos:].strip()
            if rest.startswith("=="):
                reader.pos = line.index("==", reader.pos) + 2
                expected = reader.value()
            elif re.match(r"^is\s+None\b", rest):
                reader.pos = line.index("None", reader.pos) + 4
                expected = None
            else:
                raise Unreadable("expected == after the call")
            tail = line[reader.pos:].strip()
            if tail and not tail.startswith("#"):
                raise Unreadable("text after the expected value")
        except Unreadable as exc:
            return f"line {number}: {exc}"
        args = list(args) if isinstance(args, tuple) else [args]
        if len(args) != arity:
            return f"line {number}: {name} takes {arity} argument{'s' if arity > 1 else ''}"
        tests.append((args, expected))
        if len(tests) > limit:
            return f"more than {limit} tests"
    if not tests:
        return f"no test found: write lines such as {name}(...) == ..."
    return tests


def valid_args(args: list[Any], kinds: tuple[str, ...]) -> str | None:
    for arg, kind in zip(args, kinds):
        if kind == "int" and not (type(arg) is int and abs(arg) <= MAX_INT):
            return f"{arg!r} is not an integer between -{MAX_INT} and {MAX_INT}"
        if kind in ("ints", "sorted"):
            small = all(type(v) is int and abs(v) <= MAX_INT for v in arg) if type(arg) is list else False
            if not (type(arg) is list and len(arg) <= MAX_ITEMS and small):
                return f"{arg!r} is not a list of at most {MAX_ITEMS} integers between -{MAX_INT} and {MAX_INT}"
            if kind == "sorted" and arg != sorted(arg):
                return f"{arg!r} is not sorted"
        if kind == "text" and not (type(arg) is str and len(arg) <= MAX_TEXT):
            return f"{arg!r} is not a string of at most {MAX_TEXT} characters"
    return None


@dataclass(frozen=True)
class Config:
    names: tuple[str, ...]
    mutants: int
    hardness: float  # share of mutants drawn among the hardest to kill
    slack: int  # tests allowed beyond the gold answer's


@register
class MutationTests(Task):
    id = "code/mutation_tests"
    family = "code"
    description = "Write unit tests (as literal cases) for a given Python function; reward = hidden mutants killed."
    tags = ("code", "testing", "mutation-testing")
    multiline = True
    verbatim = True  # each line is a test to run, read as written
    version = 2  # v2: the prompt's shape example kills the fewest hidden mutants (copied, it solved 23% at level 0)
    toolchains: tuple[str, ...] = ()  # nothing runs in the sandbox: the tests are read as literals
    Config = Config

    def config(self, level: int) -> Config:
        easy = ("count_between", "grade", "leap_year", "digit_sum", "clamp_sum", "shift_letters")
        every = tuple(CATALOGUE)
        return [
            Config(easy, mutants=3, hardness=0.0, slack=3),
            Config(easy + ("longest_run", "triangle"), mutants=5, hardness=0.2, slack=3),
            Config(every, mutants=7, hardness=0.4, slack=2),
            Config(every, mutants=9, hardness=0.6, slack=2),
            Config(("second_largest", "find_index", "triangle", "max_window_sum", "common_count", "longest_run",
                    "clamp_sum"), mutants=12, hardness=0.8, slack=1),
        ][level]
    # Capped at level 24's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"mutants": 72})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> Problem | None:
            name = rng.choice(config.names)
            constants = [rng.randint(lo, hi) for lo, hi in CATALOGUE[name][1]]
            pool, wanted, analysed = analysis(name, tuple(constants))
            if len(analysed) < config.mutants:
                return None
            kills = sorted(analysed, key=lambda item: (len(item[1]), item[0]))  # hardest (fewest killing inputs) first
            hard = round(config.mutants * config.hardness)
            chosen = kills[:max(hard, 0)] if hard else []
            rest = [k for k in kills if k not in chosen]
            chosen += rng.sample(rest, config.mutants - len(chosen))
            alive = {index for index, _ in chosen}
            by_index = dict(chosen)
            cover: list[int] = []
            while alive:  # greedy: the pool input that kills most of the mutants still alive (the first on ties)
                counts = Counter(i for m in alive for i in by_index[m])
                best = max(counts, key=lambda i: (counts[i], -i))
                cover.append(best)
                alive = {m for m in alive if best not in by_index[m]}
            limit = len(cover) + config.slack
            lines = [f"{name}({', '.join(show(a) for a in pool[i])}) == {show(wanted[i])}" for i in cover]
            rates = [len(k) / len(pool) for _, k in chosen]
            source = source_of(name, constants)
            # the shape example is an input that kills the fewest hidden mutants: copied, it earns (almost) nothing
            killed = [sum(i in by_index[m] for m in by_index) for i in range(len(pool))]
            weakest = [i for i in range(len(pool)) if killed[i] == min(killed)]
            example_call = ", ".join(show(a) for a in pool[rng.choice(weakest)])
            sorted_note = ", sorted where the function expects sorted lists" if "sorted" in CATALOGUE[name][0] else ""
            prompt = (
                f"Here is a Python function:\n\n```python\n{source}```\n\nWrite at most {limit} test cases for it, one "
                f"per line, each of the form {name}(arguments) == expected_result, with literal values only "
                f"(integers between -{MAX_INT} and {MAX_INT}, strings, True/False/None, lists of at most {MAX_ITEMS} "
                f"items{sorted_note}). "
                "Every test must hold for the function as written. Hidden mutants of the function (each with one small "
                f"change to an operator or a constant) are run on your tests: your reward is the share of mutants for "
                "which at least one of your tests fails, so choose inputs that tell the function apart from almost-"
                f"identical ones. For example, a test line looks like:\n{name}({example_call})"
                " == ...\n(with the true result in place of the dots)."
            )
            data = {"name": name, "constants": constants, "mutants": sorted(by_index), "limit": limit,
                    "kill_rates": rates}
            return Problem(prompt=prompt, answer="\n".join(lines), data=data)

        return retry(draw, attempts=50, what="a function with enough killable mutants")

    def verify(self, problem: Problem, answer: str) -> Verdict:
        data = problem.data
        name = data["name"]
        if name not in CATALOGUE or not all(type(c) is int for c in data["constants"]):
            return Verdict.failed("unknown function in the problem data")
        kinds = CATALOGUE[name][0]
        tests = read_tests(answer, name, len(kinds), int(data["limit"]))
        if isinstance(tests, str):
            return Verdict.unparsed(tests)
        for number, (args, _) in enumerate(tests, 1):
            problem_with_args = valid_args(args, kinds)
            if problem_with_args is not None:
                return Verdict.wrong(f"test {number}: {problem_with_args}")
        original = compiled_function(source_of(name, data["constants"]), name, SAFE_BUILTINS)
        for number, (args, expected) in enumerate(tests, 1):
            got = call(original, args)
            if differs(got, expected):
                shown = got[1] if got[0] == "value" else f"an exception ({got[1]})"
                return Verdict.wrong(f"test {number} fails on the given function: it returns {shown!r}")
        sources = catalogue_mutants(name, tuple(data["constants"]))
        killed = 0
        for index in data["mutants"]:
            if not (type(index) is int and 0 <= index < len(sources)):
                return Verdict.failed("a mutant index in the problem data is out of range")
            mutant = compiled_function(sources[index], name, SAFE_BUILTINS)
            killed += any(differs(call(mutant, args), expected) for args, expected in tests)
        total = len(data["mutants"])
        if killed == total:
            return Verdict.right(f"all {total} mutants killed")
        return Verdict.wrong(f"{killed} of {total} mutants killed", reward=killed / total)

    def difficulty(self, problem: Problem) -> float:
        """The number of mutants plus how hard they are to kill (sum of 1 - the share of pool inputs killing each)."""
        rates = problem.data["kill_rates"]
        return len(rates) + sum(1 - r for r in rates)

    def spellings(self, problem: Problem) -> list[str]:
        """With ``assert``, in a fenced block in another order, with comments and blank lines, and
        ``is None`` for None results."""
        gold = (problem.answer or "").splitlines()
        return [
            "\n".join(f"assert {line}" for line in gold),
            "```python\n" + "\n".join(reversed(gold)) + "\n```",
            "# boundary cases\n" + "\n\n".join(f"{line}  # case {i}" for i, line in enumerate(gold, 1)),
            "\n".join(line[: -len(" == None")] + " is None" if line.endswith(" == None") else line for line in gold),
        ]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        """A gold test with a wrong expected value (it fails on the original), and the gold answer
        without its last test (the last test the greedy cover chose kills a mutant no earlier one
        kills, so that mutant survives)."""
        gold = (problem.answer or "").splitlines()
        call_text, expected = gold[0].rsplit(" == ", 1)
        wrong_value = "None" if expected != "None" else "0"
        out = ["\n".join([f"{call_text} == {wrong_value}", *gold[1:]])]
        if len(gold) > 1:
            out.append("\n".join(gold[:-1]))
        return out
