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

    def sources(self, params: dict[str, Any]) -> dict[str, str]:
        fields = self.fields(params)
        return {"python": python_program(CODE(f"{self.section}.python", **fields), params),
                "go": go_program(CODE(f"{self.section}.go", **fields), params)}


class Brackets(GoTemplate):
    name, section, tier = "brackets", "Brackets", 1
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
        opens, closes = "([{", ")]}"
        out: list[str] = []
        stack: list[int] = []
        for _ in range(rng.randint(2, 2 * size + 2)):
            if stack and rng.random() < 0.5:
                kind = stack.pop()
                out.append(closes[kind] if rng.random() > 0.05 else closes[(kind + 1) % 3])
            else:
                kind = rng.randrange(3)
                stack.append(kind)
                out.append(opens[kind])
        if rng.random() < 0.6:
            out += [closes[k] for k in reversed(stack)]
        return "".join(out)

    def case_input(self, case: Any, params: dict[str, Any]) -> str:
        return case + "\n"

    def work(self, text: str) -> int:
        return len(text.strip())


class Spiral(GoTemplate):
    name, section, tier = "spiral", "Spiral", 1

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
        return [[rng.randint(-9, 99) for _ in range(cols)] for _ in range(rows)]

    def case_input(self, case: Any, params: dict[str, Any]) -> str:
        return f"{len(case)} {len(case[0])}\n" + "".join(" ".join(map(str, row)) + "\n" for row in case)

    def work(self, text: str) -> int:
        rows, cols = text.split("\n", 1)[0].split()
        return int(rows) * int(cols)


class Cache(GoTemplate):
    name, section, tier = "cache", "Cache", 2

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
        return [rng.randint(2, high), high]

    def case_input(self, case: Any, params: dict[str, Any]) -> str:
        return f"{case[0]} {case[1]}\n"

    def work(self, text: str) -> int:
        low, high = map(int, text.split())
        return (high - low) // 16 + 1  # sieving a range costs far less per number than reading one


TEMPLATES: dict[str, GoTemplate] = {t.name: t for t in (Brackets(), Spiral(), Cache(), Primes())}


@register
class GoPrograms(StdioPolyglotTask):
    id = "code/go_programs"
    description = "Write a Go program for multi-test stdin/stdout tasks (brackets, spiral order, cache misses, primes)."
    tags = ("code", "programming", "stdio", "go")
    languages = LANGUAGES
    toolchains = LANGUAGES
    templates = TEMPLATES  # type: ignore[assignment]
    version = 2  # v2: no repeated hidden test (a repeat could leave only the example's tests)

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
            return stdio_problem(rng, template, sizes, languages=LANGUAGES)

        return retry(draw, attempts=50, what="a Go program problem with varied answers")

    def sources(self, problem: Problem) -> dict[str, str]:
        return {"go": self.template(problem).sources(problem.data["params"])["go"]}

    def difficulty(self, problem: Problem) -> float:
        """The template's tier plus log2 of the tests' total work (brackets read, cells walked, requests
        simulated, sixteenths of the ranges sieved)."""
        template = TEMPLATES[problem.data["template"]]
        return template.tier + math.log2(1 + sum(template.work(text) for text in problem.data["inputs"]))
