"""Write a Go program for a multi-test stdin/stdout task: bracket checking, spiral traversal, cache simulation, primes.

Templates (parameters vary the output words, the traversal's stride, the eviction policy, the residue class):

- **brackets**: the deepest nesting of a balanced string of ``()[]{}``, or the 1-based position where it first
  goes wrong (a closing bracket that matches nothing open, or the length plus one when brackets stay open);
- **spiral**: the elements of a matrix in clockwise spiral order from the top-left corner, every k-th from a
  stated offset;
- **cache**: the number of misses of a cache of given capacity on a sequence of keys, evicting the least
  recently used key or the oldest inserted one (FIFO);
- **primes**: how many primes in ``[low, high]`` lie in a residue class, and the smallest or largest of them.

The answer is a whole Go program (package main) compiled by the sandbox's Go toolchain (Go 1.19, standard
library only) and run once on every hidden test: the input starts with the number of tests T, and the
program prints one line per test. The expected lines come from each template's Python program run in-process
(:func:`palaestra.envs.code._polyglot.run_reference`); the Go reference is the gold answer. Lines are compared
exactly up to trailing whitespace.

Version 3 (red team, round 3): the hidden tests now fail the plausible slips of each template (each template's
``slips``, redrawn until every one fails some test). Before, a closing bracket with none open never occurred (a
program skipping it passed 1.00 of the bracket problems), ignoring the kinds of brackets passed 0.22-0.68, FIFO for
LRU (or back) 0.16-0.68, a strict bound on the primes' range 0.34-0.55, a spiral walking a last single line twice
0.09-0.40; now 0.00 each.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, ClassVar

from palaestra.core import Problem, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.code._polyglot import StdioPolyglotTask, StdioTemplate, python_program, stdio_problem
from palaestra.envs.code.templates import ProgramTexts

CODE = ProgramTexts("go_programs")
LANGUAGES = ("go",)


def go_program(body: str, params: dict[str, Any]) -> str:
    """A Go program: ``nextInt()``/``nextWord()`` readers, ``body`` defining ``solve() string``, and the loop
    printing it for each of the T tests (after ``Case #i: `` when ``params["labelled"]``)."""
    label = 'fmt.Fprintf(writer, "Case #%d: ", i)\n\t\t' if params.get("labelled") else ""
    return CODE("main.go", body=body.strip("\n"), label=label)


class GoTemplate(StdioTemplate):
    """A template with a Python program (the trusted reference) and a Go program (the gold answer)."""

    section: ClassVar[str]

    def work(self, text: str) -> int:
        """The size of one test's task, read from its input."""
        raise NotImplementedError

    def fields(self, p: dict[str, Any]) -> dict[str, Any]:
        return {}

    def tells_slips_apart(self, inputs: list[str], params: dict[str, Any]) -> bool:
        """Whether the tests fail the slips that :attr:`slips` does not name (checked on the inputs alone)."""
        return True

    def sources(self, params: dict[str, Any]) -> dict[str, str]:
        fields = self.fields(params)
        return {"python": python_program(CODE(f"{self.section}.python", **fields), params),
                "go": go_program(CODE(f"{self.section}.go", **fields), params)}


class Brackets(GoTemplate):
    name, section, tier = "brackets", "Brackets", 1
    # a closing bracket with none open skipped, the kinds of brackets not compared, the length (not the length
    # plus one) for brackets left open
    slips = ("stray_skipped", "kinds_ignored", "open_at_length")
    VERDICTS = (("ok", "bad"), ("balanced", "broken"), ("YES", "NO"), ("valid", "invalid"))

    def params(self, rng: random.Random) -> dict[str, Any]:
        right, wrong = rng.choice(self.VERDICTS)
        return {"right": right, "wrong": wrong}

    def fields(self, p: dict[str, Any]) -> dict[str, Any]:
        return {"right": p["right"], "wrong": p["wrong"]}

    def statement(self, p: dict[str, Any]) -> str:
        return ("Each test is one line: a non-empty string of the characters ()[]{}. If every bracket is closed by "
                f"the matching kind in the right order, print {p['right']} and the deepest nesting (the most "
                f"brackets open at once), separated by a space. Otherwise print {p['wrong']} and the 1-based position "
                "of the first closing bracket that does not match the innermost open one (or that comes when none "
                "is open); when no closing bracket is wrong but some stay open at the end, the position is the "
                "length of the string plus one.")

    def case(self, rng: random.Random, params: dict[str, Any], size: int) -> Any:
        out: list[str] = []
        stack: list[int] = []
        for _ in range(rng.randint(2, 2 * size + 2)):
            if stack and rng.random() < 0.5:
                out.append(CLOSES[stack.pop()])
            else:
                kind = rng.randrange(3)
                stack.append(kind)
                out.append(OPENS[kind])
        if rng.random() < 0.6:
            out += [CLOSES[k] for k in reversed(stack)]
        # Each kind of fault in about a quarter of the tests, so that a program mishandling one of them fails.
        fault = rng.choice(("none", "none", "stray", "mismatch"))
        closing = [i for i, c in enumerate(out) if c in CLOSES]
        if fault == "stray":  # a closing bracket where none is open
            balanced = [i for i in range(len(out) + 1) if _depth(out[:i]) == 0]
            out.insert(rng.choice(balanced), rng.choice(CLOSES))
        elif fault == "mismatch" and closing:
            at = rng.choice(closing)
            out[at] = rng.choice([c for c in CLOSES if c != out[at]])
        return "".join(out)

    def slip_answer(self, slip: str, case: Any, params: dict[str, Any]) -> str | None:
        return _bracket_verdict(case, params, slip)

    def case_input(self, case: Any, params: dict[str, Any]) -> str:
        return case + "\n"

    def work(self, text: str) -> int:
        return len(text.strip())


OPENS, CLOSES = "([{", ")]}"


def _depth(text: list[str]) -> int:
    return sum(1 if c in OPENS else -1 for c in text)


def _bracket_verdict(text: str, params: dict[str, Any], slip: str = "") -> str:
    """The verdict line for one test (the reference with no ``slip``; else the program with that slip)."""
    stack: list[int] = []
    deepest = 0
    for position, c in enumerate(text, 1):
        if c in OPENS:
            stack.append(OPENS.index(c))
            deepest = max(deepest, len(stack))
        elif not stack:
            if slip != "stray_skipped":
                return f"{params['wrong']} {position}"
        elif stack.pop() != CLOSES.index(c) and slip != "kinds_ignored":
            return f"{params['wrong']} {position}"
    if stack:
        return f"{params['wrong']} {len(text) + (0 if slip == 'open_at_length' else 1)}"
    return f"{params['right']} {deepest}"


class Spiral(GoTemplate):
    name, section, tier = "spiral", "Spiral", 1
    slips = ("unguarded",)  # the inner row or column of one line walked back a second time

    def params(self, rng: random.Random) -> dict[str, Any]:
        step = rng.choice((1, 2, 3))
        return {"step": step, "skip": rng.randrange(step)}

    def fields(self, p: dict[str, Any]) -> dict[str, Any]:
        return {"step": p["step"], "skip": p["skip"]}

    def statement(self, p: dict[str, Any]) -> str:
        which = ("all of them" if p["step"] == 1 else
                 f"only every {p['step']}-th one, starting with element number {p['skip'] + 1} of the spiral "
                 f"(numbers {p['skip'] + 1}, {p['skip'] + 1 + p['step']}, {p['skip'] + 1 + 2 * p['step']}, ...)")
        return ("Each test starts with a line R C, then R lines of C integers: a matrix. Walk it in clockwise "
                "spiral order: the top row left to right, the right column downwards, the bottom row right to left, "
                "the left column upwards, then the same on the inner matrix, until every element is visited once. "
                f"Print the visited elements, {which}, on one line separated by spaces.")

    def case(self, rng: random.Random, params: dict[str, Any], size: int) -> Any:
        rows, cols = rng.randint(1, 1 + size), rng.randint(1, 1 + size)
        if rows * cols <= params["skip"]:  # at least one element printed: an empty last line is no line at all
            cols = params["skip"] + 1
        return [[rng.randint(-9, 99) for _ in range(cols)] for _ in range(rows)]

    def slip_answer(self, slip: str, case: Any, params: dict[str, Any]) -> str | None:
        out: list[int] = []
        top, bottom, left, right = 0, len(case) - 1, 0, len(case[0]) - 1
        while top <= bottom and left <= right:  # the reference's walk without its two checks for a last line
            out += case[top][left:right + 1]
            out += [case[r][right] for r in range(top + 1, bottom + 1)]
            out += case[bottom][left:right][::-1]
            out += [case[r][left] for r in range(bottom - 1, top, -1)]
            top, bottom, left, right = top + 1, bottom - 1, left + 1, right - 1
        return " ".join(map(str, out[params["skip"]::params["step"]]))

    def case_input(self, case: Any, params: dict[str, Any]) -> str:
        return f"{len(case)} {len(case[0])}\n" + "".join(" ".join(map(str, row)) + "\n" for row in case)

    def work(self, text: str) -> int:
        rows, cols = text.split("\n", 1)[0].split()
        return int(rows) * int(cols)


class Cache(GoTemplate):
    name, section, tier = "cache", "Cache", 2
    slips = ("other_policy",)  # LRU for FIFO or FIFO for LRU

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"policy": rng.choice(("lru", "fifo"))}

    def fields(self, p: dict[str, Any]) -> dict[str, Any]:
        lru = p["policy"] == "lru"
        return {"hit_python": "cache[key] = clock" if lru else "pass", "hit_go": "cache[key] = clock" if lru else ""}

    def statement(self, p: dict[str, Any]) -> str:
        policy = ("the least recently used key (the one whose last request is the oldest)" if p["policy"] == "lru"
                  else "the key that entered the cache first (a request that hits does not change the order)")
        return ("Each test is a line C N, then a line of N integer keys: requests to a cache holding at most C keys, "
                "initially empty. A request for a key in the cache is a hit; otherwise it is a miss and the key is "
                f"added, first evicting, when the cache is full, {policy}. Print the number of misses.")

    def case(self, rng: random.Random, params: dict[str, Any], size: int) -> Any:
        n = rng.randint(3, 4 * size + 4)
        universe = rng.randint(2, 2 + size)
        return {"capacity": rng.randint(1, max(1, universe - 1)), "keys": [rng.randint(1, universe) for _ in range(n)]}

    def slip_answer(self, slip: str, case: Any, params: dict[str, Any]) -> str | None:
        other = "fifo" if params["policy"] == "lru" else "lru"
        cache: dict[int, int] = {}  # key -> its time stamp (last request for LRU, entry for FIFO)
        misses = 0
        for clock, key in enumerate(case["keys"]):
            if key in cache:
                if other == "lru":
                    cache[key] = clock
                continue
            misses += 1
            if len(cache) == case["capacity"]:
                del cache[min(cache, key=cache.__getitem__)]
            cache[key] = clock
        return str(misses)

    def case_input(self, case: Any, params: dict[str, Any]) -> str:
        return f"{case['capacity']} {len(case['keys'])}\n{' '.join(map(str, case['keys']))}\n"

    def work(self, text: str) -> int:
        return int(text.split()[1])


class Primes(GoTemplate):
    name, section, tier = "primes", "Primes", 2
    CLASSES = ((1, 0), (4, 1), (4, 3), (6, 1), (6, 5))

    def params(self, rng: random.Random) -> dict[str, Any]:
        modulus, residue = rng.choice(self.CLASSES)
        return {"modulus": modulus, "residue": residue, "extreme": rng.choice(("smallest", "largest"))}

    def fields(self, p: dict[str, Any]) -> dict[str, Any]:
        largest = p["extreme"] == "largest"
        return {"modulus": p["modulus"], "residue": p["residue"],
                "last_python": '" " + str(found[-1])' if largest else '" " + str(found[0])',
                "prefer_go": "true" if largest else "false"}

    def statement(self, p: dict[str, Any]) -> str:
        which = "all primes" if p["modulus"] == 1 else f"the primes p with p mod {p['modulus']} = {p['residue']}"
        return (f"Each test is a line low high (2 <= low <= high). Among {which} with low <= p <= high, print how "
                f"many there are and, when there is at least one, the {p['extreme']} of them, separated by a space "
                "(just 0 when there is none).")

    def case(self, rng: random.Random, params: dict[str, Any], size: int) -> Any:
        high = rng.randint(2, 40 * size * size + 10)
        low = rng.randint(2, high)
        # An end of the range often one of the primes asked for, so that reading "low <= p <= high" as a strict
        # bound fails (see :meth:`tells_slips_apart`).
        if rng.random() < 0.4:
            low = next((q for q in range(low, min(high, low + 200) + 1) if _in_class(q, params)), low)
        if rng.random() < 0.4:
            high = next((q for q in range(high, max(low, high - 200) - 1, -1) if _in_class(q, params)), high)
        return [low, high]

    def tells_slips_apart(self, inputs: list[str], params: dict[str, Any]) -> bool:
        ranges = [list(map(int, text.split())) for text in inputs]
        return all(any(_in_class(bounds[end], params) for bounds in ranges) for end in (0, 1))

    def case_input(self, case: Any, params: dict[str, Any]) -> str:
        return f"{case[0]} {case[1]}\n"

    def work(self, text: str) -> int:
        low, high = map(int, text.split())
        return (high - low) // 16 + 1  # sieving a range costs far less per number than reading one


def _in_class(n: int, params: dict[str, Any]) -> bool:
    """Whether ``n`` is one of the primes a Primes problem asks about."""
    return n % params["modulus"] == params["residue"] and n > 1 and all(n % k for k in range(2, math.isqrt(n) + 1))


TEMPLATES: dict[str, GoTemplate] = {t.name: t for t in (Brackets(), Spiral(), Cache(), Primes())}


@register
class GoPrograms(StdioPolyglotTask):
    id = "code/go_programs"
    description = "Write a Go program for multi-test stdin/stdout tasks (brackets, spiral order, cache misses, primes)."
    tags = ("code", "programming", "stdio", "go")
    languages = LANGUAGES
    toolchains = LANGUAGES
    templates = TEMPLATES  # type: ignore[assignment]
    version = 3  # v3: hidden tests drawn until they fail every named slip (v2: no repeated hidden test)

    @dataclass(frozen=True)
    class Config:
        templates: tuple[str, ...]
        tests: int
        max_size: int

    presets = (
        Config(("brackets", "spiral", "cache"), tests=4, max_size=4),
        Config(("brackets", "spiral", "cache", "primes"), tests=5, max_size=5),
        Config(("brackets", "spiral", "cache", "primes"), tests=6, max_size=7),
        Config(("spiral", "cache", "primes"), tests=7, max_size=9),
        Config(("brackets", "cache", "primes"), tests=8, max_size=12),
    )
    # capped where generation stops scaling (kit check far_levels)
    growth = Growth(limits={"tests": 19, "max_size": 486}, factors={"max_size": 1.4})  # geometric sizes: the log-work measure keeps rising

    def generate(self, rng: random.Random, config: Config) -> Problem:
        sizes = [max(1, config.max_size * (i + 1) // config.tests) for i in range(config.tests)]

        def draw() -> Problem | None:
            template = TEMPLATES[rng.choice(config.templates)]
            # The tests are drawn again for the same template (the mix of templates stays as drawn) until they
            # tell every slip apart.
            for _ in range(40):
                made = stdio_problem(rng, template, sizes, languages=LANGUAGES)
                if made is not None and template.tells_slips_apart(made.data["inputs"], made.data["params"]):
                    return made
            return None

        return retry(draw, attempts=50, what="a Go program problem with varied answers")

    def sources(self, problem: Problem) -> dict[str, str]:
        return {"go": self.template(problem).sources(problem.data["params"])["go"]}

    def difficulty(self, problem: Problem) -> float:
        """The template's tier plus log2 of the tests' total work (brackets read, cells walked, requests
        simulated, sixteenths of the ranges sieved)."""
        template = TEMPLATES[problem.data["template"]]
        return template.tier + math.log2(1 + sum(template.work(text) for text in problem.data["inputs"]))
