"""Shared machinery of the compile-error repair envs (``code/go_compile_repair``, ``code/c_compile_repair``,
``code/cpp_compile_repair``): a generated program, errors injected at known places, repaired over turns.

The program
-----------
Every problem is one stdin/stdout program: the input holds ``T`` tests, each ``n k`` and ``n`` integers
``xs``; the program keeps some elements (a *filter* with a drawn constant), transforms the kept ones
with ``k`` (a *map*), and prints two statistics of the result (two *reducers*), one line per test. The
steps are drawn from the abstract kinds below (their Python semantics is the trusted reference and their
sentence the prompt's specification); each language module renders them as functions in its language
and declares, per function, the **sites** where an error of one of its classes can be injected.

A :class:`Site` edits one line (replaces it by zero, one or several lines) and names the compiler errors
the edit causes, each at a line it locates in the broken program. The prompt shows the broken program
and those errors in the compiler's own format (file, line, message, without the column); ``tests/envs``
compiles broken programs with the real toolchain and checks every error listed is among the compiler's.

Repair turns
------------
Each turn the model sends the whole program; the env compiles it and runs it once on every test in the
sandbox (:func:`palaestra.verifiers.polyglot.check_program`). The observation is the compiler's real
diagnostics when it does not compile, or how many tests passed (and the first failing *example* test,
which the prompt shows anyway) when it compiles: a hidden test's input or expected line is never shown.
Reward 1 when every test passes within the turn budget. Several sites are traps whose obvious fix
compiles but deletes what the specification asks for (an unused variable whose use was removed, a
shadowing ``:=``): such a fix fails the hidden tests.
The tests pin the described program down: every program one slip away from it (:func:`near_specs`: a
bound moved by one, a reducer replaced, ``k`` left out...) prints some test's line wrong (since version 2 of
the four envs; before, ``>=`` for ``>`` passed every test of a third of the level-0 problems): about one test value in
five sits at the filter's bound, and the tests are redrawn until they pin the program.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, retry
from palaestra.core.task import Growth
from palaestra.verifiers import polyglot
from palaestra.verifiers.polyglot import Budget, fence

EXAMPLES = 2  # tests shown in the prompt (the first ones); the rest are hidden
HERE = None  # a message reported at the edited place itself (the first line put there, or the line after a deletion)
TEST_DRAWS = 400  # draws of the hidden tests for one program (the least pinned spec at level 0 keeps ~1 in 8)
END = "<eof>"  # a message reported at the program's last line (a parser that reaches the end of the file)


@dataclass(frozen=True)
class Site:
    """One place an error can be injected: the clean line ``anchor`` (stripped, unique in the program) is
    replaced by ``replacement`` (indented like the anchor; empty: deleted), which makes the compiler report
    ``messages``: ``(where, text)``, ``where`` a stripped line of the broken program (unique) or :data:`HERE`.
    ``weight``: how hard the error is to repair (traps whose obvious fix is wrong weigh more)."""

    kind: str
    anchor: str
    replacement: tuple[str, ...]
    messages: tuple[tuple[str | None, str], ...]
    weight: float = 1.0
    touches: tuple[str, ...] = ()  # other clean lines whose message this site's error would change


@dataclass
class Unit:
    """A rendered function: its lines and its sites."""

    lines: list[str]
    sites: list[Site] = field(default_factory=list)


# --- the abstract program ------------------------------------------------------------------------

FILTERS = ("above", "below", "residue")
MAPS = ("affine", "indexed")
REDUCERS = ("total", "weighted", "best", "evens", "span")


def draw_spec(rng: random.Random) -> dict[str, Any]:
    """The abstract program: a filter, a map and two different reducers, with their constants."""
    kind = rng.choice(FILTERS)
    if kind == "residue":
        m = rng.randint(2, 4)
        flt = {"kind": kind, "m": m, "r": rng.randrange(m)}
    else:
        flt = {"kind": kind, "c": rng.randint(8, 30)}
    mp = {"kind": rng.choice(MAPS), "a": rng.randint(2, 5)}
    first, second = rng.sample(REDUCERS, 2)
    return {"filter": flt, "map": mp, "reducers": [first, second]}


def keeps(flt: dict[str, Any], x: int) -> bool:
    if flt["kind"] == "above":
        return x > flt["c"]
    if flt["kind"] == "below":
        return x < flt["c"]
    return x % flt["m"] == flt["r"]


def reduce(kind: str, ys: list[int]) -> int:
    if kind == "total":
        return sum(ys)
    if kind == "weighted":
        return sum((i + 1) * y for i, y in enumerate(ys))
    if kind == "best":
        return max(ys, default=0)
    if kind == "evens":
        return sum(1 for y in ys if y % 2 == 0)
    return max(ys) - min(ys) if ys else 0


def run_spec(spec: dict[str, Any], k: int, xs: list[int]) -> str:
    """The trusted output line of one test."""
    kept = [x for x in xs if keeps(spec["filter"], x)]
    a = spec["map"]["a"]
    ys = [a * y + k for y in kept] if spec["map"]["kind"] == "affine" else [y + a * k * i for i, y in enumerate(kept)]
    return " ".join(str(reduce(kind, ys)) for kind in spec["reducers"])


def near_specs(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """The programs one slip away from ``spec``, each wrong: the filter's bound moved by one (``>=`` for ``>``) or
    its residue or modulus changed, every element kept, the map's factor moved by one, ``k`` left out (the
    missing argument passed as 0), the other map, each reducer replaced by another, the two printed the other
    way round. Hidden tests on which one of them prints every line right cannot tell it from the program."""
    flt, mp = spec["filter"], spec["map"]
    filters: list[dict[str, Any]] = [{"kind": "above", "c": -1}]  # keeps everything: the values are >= 0
    if flt["kind"] == "residue":
        m, r = flt["m"], flt["r"]
        filters += [{"kind": "residue", "m": m, "r": (r + d) % m} for d in (-1, 1)]
        filters += [{"kind": "residue", "m": other, "r": r % other} for other in (m - 1, m + 1) if other >= 2]
    else:
        filters += [{**flt, "c": flt["c"] + d} for d in (-1, 1)]
    maps = [{**mp, "a": mp["a"] + d} for d in (-1, 1)] + [{"kind": "affine", "a": 1}, {"kind": "indexed", "a": 0}]
    maps.append({**mp, "kind": "indexed" if mp["kind"] == "affine" else "affine"})
    first, second = spec["reducers"]
    reducers = [[second, first]] + [[kind, second] for kind in REDUCERS if kind not in (first, second)] + \
        [[first, kind] for kind in REDUCERS if kind not in (first, second)]
    near = [{**spec, "filter": f} for f in filters if f != flt] + [{**spec, "map": m} for m in maps if m != mp]
    near += [{**spec, "reducers": pair} for pair in reducers]
    # the missing argument passed as 0: the map run with k = 0 (its "k" entry, read by pinned())
    return near + [{**spec, "map": {**mp, "k": 0}}]


def pinned(spec: dict[str, Any], tests: Sequence[tuple[int, list[int]]], expected: Sequence[str]) -> bool:
    """Whether every program of :func:`near_specs` prints a wrong line on some test."""
    for near in near_specs(spec):
        fixed_k = near["map"].get("k")
        if all(run_spec(near, k if fixed_k is None else fixed_k, xs) == line for (k, xs), line in zip(tests, expected)):
            return False
    return True


REDUCER_TEXT = {
    "total": "the sum of the elements (0 for an empty list)",
    "weighted": "the weighted sum 1*y1 + 2*y2 + ... + m*ym (0 for an empty list)",
    "best": "the largest element (0 for an empty list)",
    "evens": "how many elements are even",
    "span": "the largest element minus the smallest (0 for an empty list)",
}


def describe(spec: dict[str, Any]) -> str:
    flt, mp = spec["filter"], spec["map"]
    if flt["kind"] == "above":
        keep = f"keeps the elements greater than {flt['c']}"
    elif flt["kind"] == "below":
        keep = f"keeps the elements less than {flt['c']}"
    else:
        keep = f"keeps the elements x with x mod {flt['m']} = {flt['r']}"
    if mp["kind"] == "affine":
        change = f"replaces each kept element y by {mp['a']}*y + k"
    else:
        change = f"adds {mp['a']}*k*i to the kept element at 0-based position i"
    first, second = (REDUCER_TEXT[kind] for kind in spec["reducers"])
    return (f"For each test the program {keep} (in their order), {change}, and prints two numbers separated by "
            f"a space: {first}, then {second}, both of the transformed list.")


def draw_tests(rng: random.Random, count: int, max_len: int, near: Sequence[int] = ()) -> list[tuple[int, list[int]]]:
    """``count`` tests ``(k, xs)``, values 0-40; about one value in five drawn from ``near`` when given (the values
    at the filter's bound, which a bound moved by one keeps or drops the other way)."""
    def value() -> int:
        return rng.choice(near) if near and rng.random() < 0.2 else rng.randint(0, 40)

    return [(rng.randint(0, 9), [value() for _ in range(rng.randint(0 if i else 3, max_len))]) for i in range(count)]


def test_input(k: int, xs: list[int]) -> str:
    return f"{len(xs)} {k}\n{' '.join(map(str, xs))}\n"


def pinning_tests(rng: random.Random, spec: dict[str, Any], count: int,
                  max_len: int) -> tuple[list[tuple[int, list[int]]], list[str]] | None:
    """``count`` tests and their expected lines, varied (four different lines at least) and :func:`pinned`, or
    None. Only the tests are redrawn, never the program: redrawing the program made the filters with a bound,
    which few draws pin at level 0, rare."""
    flt = spec["filter"]
    near = [flt["c"] + d for d in (-1, 0, 1)] if flt["kind"] != "residue" else []
    tests = draw_tests(rng, count, max_len, near)
    expected = [run_spec(spec, k, xs) for k, xs in tests]
    if len(set(expected)) < min(4, len(expected)) or not pinned(spec, tests, expected):
        return None
    return tests, expected


def typo(name: str, taken: Sequence[str], rng: random.Random) -> str:
    """A misspelling of ``name`` (a letter dropped or two neighbours swapped) that names nothing else."""
    def draw() -> str | None:
        if len(name) > 3 and rng.random() < 0.5:
            i = rng.randrange(1, len(name))
            out = name[:i] + name[i + 1:]
        else:
            i = rng.randrange(len(name) - 1)
            out = name[:i] + name[i + 1] + name[i] + name[i + 2:]
        return out if out != name and out not in taken and out.isidentifier() else None

    return retry(draw, attempts=50, what="a typo that names nothing else")


def edit_line(line: str, old: str, new: str) -> str:
    """``line`` (stripped) with its only occurrence of ``old`` replaced by ``new``."""
    assert line.count(old) == 1, (line, old)
    return line.replace(old, new)


# --- injecting ----------------------------------------------------------------------------------

def inject(lines: list[str], sites: Sequence[Site], file_name: str, prefix: str = "") -> tuple[list[str], list[str]]:
    """The broken program's lines and the compiler messages (``file:line: text``) the chosen ``sites`` cause."""
    chosen = {site.anchor: site for site in sites}
    out: list[str] = []
    here: dict[str, int] = {}
    for line in lines:
        site = chosen.get(line.strip())
        if site is None:
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip())]
        here[site.anchor] = len(out) + 1
        out += [indent + text for text in site.replacement]
    messages: list[tuple[int, str]] = []
    stripped = [line.strip() for line in out]
    for site in sites:
        for where, text in site.messages:
            if where is HERE:
                number = here[site.anchor]
            elif where == END:
                number = len(out)
            else:
                assert stripped.count(where) == 1, (where, site)
                number = stripped.index(where) + 1
            messages.append((number, text))
    messages.sort()
    return out, [f"{file_name}:{number}: {prefix}{text}" for number, text in messages]


def pick_sites(rng: random.Random, sites: Sequence[Site], count: int) -> list[Site] | None:
    """``count`` sites of pairwise different kinds where possible, no two touching the same line."""
    order = list(sites)
    rng.shuffle(order)
    chosen: list[Site] = []
    used: set[str] = set()
    for prefer_new_kind in (True, False):
        for site in order:
            if len(chosen) == count:
                break
            lines = {site.anchor, *site.touches, *(where for where, _ in site.messages if where is not HERE)}
            if site in chosen or lines & used:
                continue
            if prefer_new_kind and site.kind in {c.kind for c in chosen}:
                continue
            chosen.append(site)
            used |= lines
    return chosen if len(chosen) == count else None


# --- levels -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class RepairConfig:
    """A level of a repair env: the errors injected, the turns to repair them in, and the tests every
    submission runs on (how many, and the longest list in one)."""

    errors: int
    attempts: int
    tests: int
    max_len: int


# The named levels of the compiled languages' envs (C, C++, Go): one more error per level, a turn fewer from 3 errors.
COMPILER_PRESETS = (
    RepairConfig(errors=1, attempts=4, tests=8, max_len=6),
    RepairConfig(errors=2, attempts=4, tests=10, max_len=8),
    RepairConfig(errors=3, attempts=3, tests=12, max_len=10),
    RepairConfig(errors=4, attempts=3, tests=14, max_len=12),
    RepairConfig(errors=5, attempts=3, tests=16, max_len=14),
)


def growth_up_to(errors: int) -> Growth:
    """The levels past the presets: one more error each, up to ``errors`` (each env says why its cap), and 8
    more hidden tests of lists up to 6 longer (at most 80 tests of 60)."""
    return Growth(steps={"errors": 1, "tests": 8, "max_len": 6}, limits={"errors": errors, "tests": 80, "max_len": 60})


# --- the task -----------------------------------------------------------------------------------

class CompileRepairTask(MultiTurnTask):
    """A repair game over a program built by :meth:`build`; see the module docstring."""

    family = "code"
    Config = RepairConfig
    multiline = True
    language: ClassVar[str]
    toolchains: ClassVar[tuple[str, ...]] = ()  # the sandbox language (the kit's tests skip without it)
    file_name: ClassVar[str]
    compiler: ClassVar[str]  # how the prompt names the toolchain
    message_prefix: ClassVar[str] = ""  # before each message's text, as the compiler writes it ("error: ")
    max_messages: ClassVar[int] = 10  # compilers stop listing errors after about this many
    first_error_only: ClassVar[bool] = False  # the toolchain stops at its first error (an interpreter's parser)

    def build(self, rng: random.Random, spec: dict[str, Any]) -> tuple[list[str], list[Site]]:
        """The clean program's lines for ``spec`` and every site where an error can be injected."""
        raise NotImplementedError

    def format_instruction(self) -> str:
        if self.answer_format == "tag":
            return (f"Put each submission (the complete program in one ```{self.language} code block) inside "
                    "<answer></answer> tags.")
        return super().format_instruction()

    def generate(self, rng: random.Random, config: Any) -> Problem:
        def draw() -> Problem | None:
            spec = draw_spec(rng)
            clean, sites = self.build(rng, spec)
            anchors = [line.strip() for line in clean]
            if any(anchors.count(site.anchor) != 1 for site in sites):
                return None
            chosen = pick_sites(rng, sites, config.errors)
            if chosen is None:
                return None
            broken, messages = inject(clean, chosen, self.file_name, self.message_prefix)
            if len(messages) > self.max_messages:
                return None
            if self.first_error_only:
                messages = messages[:1]
            tests, expected = retry(lambda: pinning_tests(rng, spec, config.tests, config.max_len),
                                    attempts=TEST_DRAWS, what="hidden tests that tell the program from every near one")
            examples = "\n\n".join(f"Input:\n```\n1\n{test_input(k, xs).rstrip()}\n```\nOutput:\n```\n{line}\n```"
                                   for (k, xs), line in zip(tests[:EXAMPLES], expected[:EXAMPLES]))
            prompt = (
                f"This {polyglot.LANGUAGE_NAMES[self.language]} program does not compile. {describe(spec)} The "
                "input starts with T, the number of tests; each test is a line `n k` and a line of n integers.\n\n"
                f"```{self.language}\n" + "\n".join(broken) + "\n```\n\n"
                f"{self.compiler} reports:\n```\n" + "\n".join(messages) + "\n```\n\n"
                f"Examples (one test each):\n\n{examples}\n\n"
                f"Repair the program so that it compiles and does what is described. Each turn, send the whole "
                f"program in one ```{self.language} code block; it is compiled and run on {len(tests)} tests "
                f"(the examples and hidden ones), and you see the compiler's errors, or how many tests passed. You "
                f"have {config.attempts} attempts."
            )
            data = {"spec": spec, "inputs": [test_input(k, xs) for k, xs in tests], "expected": expected,
                    "attempts": config.attempts, "errors": [site.kind for site in chosen],
                    "weights": [site.weight for site in chosen], "lines": len(clean)}
            return Problem(prompt=prompt, answer=fence((self.language, "\n".join(clean))), data=data)

        return retry(draw, attempts=100, what="a program with the errors drawn and varied test outputs")

    def max_turns(self, problem: Problem) -> int:
        return problem.data["attempts"]

    def difficulty(self, problem: Problem) -> float:
        """The injected errors' weights (traps weigh more) times log2 of the program's lines, per attempt, plus
        log2 of the numbers in all tests (more and longer hidden tests leave fewer near-right repairs passing)."""
        numbers = sum(len(text.split()) for text in problem.data["inputs"])
        return (sum(problem.data["weights"]) * math.log2(problem.data["lines"]) / problem.data["attempts"]
                + 2 * math.log2(1 + numbers))

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {"submitted": 0}

    def play(self, problem: Problem, state: dict[str, Any], move: str) -> Outcome:
        program = polyglot.read_program(move, (self.language,))
        if isinstance(program, str):
            return Outcome.invalid(state, program, what="submission")
        data = problem.data
        total = len(data["expected"])
        names = [f"example {i + 1}" if i < EXAMPLES else f"hidden test {i + 1 - EXAMPLES}" for i in range(total)]
        report = polyglot.check_program(program, f"{total}\n" + "".join(data["inputs"]), data["expected"],
                                        budget=Budget(cpu_seconds=1.0), names=names)
        if report.error is not None:
            return Outcome(state, Verdict.failed(report.error),
                           f"The submission could not be run (infrastructure error: {report.error}).", True)
        submitted = state["submitted"] + 1
        if report.all_passed:
            return Outcome({"submitted": submitted}, Verdict(1.0, True, True, f"all {total} tests passed"),
                           f"It compiles and all {total} tests passed. Repaired!", True)
        said = feedback(report, total)  # the verdict's feedback too: it must not carry a hidden test's line either
        return Outcome({"submitted": submitted}, Verdict.wrong(said), f"Attempt {submitted} failed: {said}")

    def oracle(self, problem: Problem, state: dict[str, Any]) -> str:
        return problem.answer or ""


def feedback(report: polyglot.Report, total: int) -> str:
    """The compiler's errors or the run's failure, the count of tests passed, and the first failing test only
    when it is an example (a hidden test's input and expected line are never shown)."""
    if report.failure is not None and report.failure.startswith("compilation"):
        return report.failure
    parts = [f"{report.passed}/{total} tests passed"]
    if report.failure is not None:
        parts.append(report.failure)
    if report.wrong is not None and report.wrong.startswith("hidden"):
        parts.append("the examples pass; a hidden test fails")
    elif report.wrong is not None:  # an example's line (the prompt shows it) or how many lines came out
        parts.append(report.wrong)
    return "; ".join(parts)

