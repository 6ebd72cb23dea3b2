"""Efficient string algorithms: hidden large tests where the naive quadratic scan runs out of time.

Afterburner-style, like :mod:`palaestra.envs.code.efficient_arrays`: each test is a short line
(``n``, a seed ``s``, a mutation rate ``v`` and a parameter ``k``) and the string is generated:
a short generated word repeated, with rare letters ``z`` at positions picked by a generated
linear congruential formula. Such nearly periodic strings hold long matches everywhere, which
is what makes naive matching, border and palindrome scans quadratic. The whole run has a CPU
budget per language, calibrated against the reference programs.

Templates (parameters vary what is asked; the word and generator are drawn per problem):

- **letter_balance** (prefix differences and counting): blocks with as many a's as b's, or with
  exactly k more a's than b's;
- **prefix_matches** (Z-function): positions where the prefix of length k occurs, or the sum of
  the Z-function;
- **borders** (prefix function): the longest proper border, the number of proper borders, the
  shortest period;
- **palindromes** (Manacher): the longest palindromic block, or the number of palindromic blocks.

Expected answers come from the Python reference program, run in-process (templates/efficient_strings.txt).

Generation speed: about 780 problems/s at level 4 on this 2-core machine. Each expected output is
computed by running the compiled Python reference programme in-process on its test, including the large
tests of 200,000-300,000 characters that separate linear solutions from quadratic ones; those runs are
nearly all the time.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar

from palaestra.core import Problem, register
from palaestra.core.retry import retry
from palaestra.envs.code._polyglot import (
    EfficiencyTask,
    StdioTemplate,
    efficiency_problem,
    generated,
    generator_params,
    language_texts,
    stdio_sources,
)
from palaestra.envs.code.templates import ProgramTexts

MAX_N = 300_000

CODE = ProgramTexts("efficient_strings")


def periodic_string(n: int, seed: int, rarity: int, g: dict[str, Any]) -> str:
    """The trusted string of a test: the word repeated, with ``z`` where ``a_i mod rarity = 0`` (``a_i``: the
    shared generator's states, ``seed`` < M)."""
    word = g["word"]
    states = generated(n, seed, {**g, "v": g["m"], "low": 0})
    return "".join("z" if a % rarity == 0 else word[i % len(word)] for i, a in enumerate(states))


class GeneratedString(StdioTemplate):
    """A template whose test is ``n s v k``: the string comes from the problem's word and generator."""

    MEASURES: ClassVar[tuple[str, ...]]  # what a problem of the template may ask (its params["measure"])

    def params(self, rng: random.Random) -> dict[str, Any]:
        g = generator_params(rng, 0, 1)
        if g is not None:
            g = {**g, "word": self.word(rng)}
        return {"measure": rng.choice(self.MEASURES), "generator": g}

    def word(self, rng: random.Random) -> str:
        """The repeated word: 1 to 3 letters a and b."""
        return "".join(rng.choice("ab") for _ in range(rng.randint(1, 3)))

    def draw_k(self, rng: random.Random, p: dict[str, Any], n: int) -> int:
        return 0

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        rarity = rng.randint(2, 6) if size < 100 else rng.randint(size // 8, size // 2)
        return {"n": size, "s": rng.randrange(1, p["generator"]["m"]), "v": rarity, "k": self.draw_k(rng, p, size)}

    def case_input(self, case: Any, p: dict[str, Any]) -> str:
        return f"{case['n']} {case['s']} {case['v']} {case['k']}\n"

    def text(self, case: Any, p: dict[str, Any]) -> str:
        return periodic_string(case["n"], case["s"], case["v"], p["generator"])

    def intro(self, p: dict[str, Any]) -> str:
        g = p["generator"]
        return (f"Each test is one line with n, s, v and k. The test's string t_1 ... t_n is generated from s and v: "
                f"a_1 = s, a_(i+1) = (a_i * {g['a']} + {g['b']}) mod {g['m']}, and t_i is the letter z when a_i mod v "
                f"= 0, otherwise the ((i - 1) mod {len(g['word'])} + 1)-th letter of the word {g['word']} (every "
                "intermediate value fits in 64-bit integers and, below 2^53, in JavaScript numbers).")

    def programs(self, p: dict[str, Any], python: str, c: str, javascript: str) -> dict[str, str]:
        """The reference programs: each body runs after the string ``t`` (0-based) is built."""
        g = p["generator"]
        generator = {"word": g["word"], "len_word": len(g["word"]), "a": g["a"], "b": g["b"], "m": g["m"]}
        c = c.replace("/*GENERATE*/", CODE("GeneratedString.c.generate", **generator))  # where C builds t
        return stdio_sources(CODE, "GeneratedString", p, python=python, c=c, javascript=javascript, size=MAX_N + 5,
                             **generator)


# --- letter balance ---------------------------------------------------------------------------

class LetterBalance(GeneratedString):
    name = "letter_balance"
    tier = 1
    MEASURES = ("equal", "more")

    def word(self, rng: random.Random) -> str:
        """2 to 4 letters holding both a and b."""
        return retry(lambda: "".join(rng.choice("ab") for _ in range(rng.randint(2, 4))), lambda w: len(set(w)) == 2,
                     attempts=100, what="a word with both letters")

    def draw_k(self, rng: random.Random, p: dict[str, Any], n: int) -> int:
        return 0 if p["measure"] == "equal" else rng.randint(1, 4)

    def statement(self, p: dict[str, Any]) -> str:
        asked = ("the letter a occurs as many times as the letter b (k is 0 and unused)" if p["measure"] == "equal"
                 else "the letter a occurs exactly k more times than the letter b")
        return (f"{self.intro(p)} For each test print the number of blocks t_i ... t_j (1 <= i <= j <= n) in which "
                f"{asked}.")

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        return self.programs(p, *language_texts(CODE, "LetterBalance", n2_max_n_3=2 * MAX_N + 3, max_n_1=MAX_N + 1))


# --- prefix matches (Z-function) --------------------------------------------------------------

class PrefixMatches(GeneratedString):
    name = "prefix_matches"
    tier = 2
    MEASURES = ("occurrences", "z_sum")

    def draw_k(self, rng: random.Random, p: dict[str, Any], n: int) -> int:
        return 0 if p["measure"] == "z_sum" else rng.randint(1, max(1, n // 3))

    def statement(self, p: dict[str, Any]) -> str:
        if p["measure"] == "occurrences":
            asked = ("the number of positions i (1 <= i <= n - k + 1) where t_i ... t_(i+k-1) equals the first k "
                     "letters t_1 ... t_k (position 1 included)")
        else:
            asked = ("the sum over i = 1..n of the length of the longest common prefix of t and the suffix "
                     "t_i ... t_n (k is 0 and unused)")
        return f"{self.intro(p)} For each test print {asked}."

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        occurrences = p["measure"] == "occurrences"
        py_result = "sum(1 for value in z if value >= k)" if occurrences else "sum(z)"
        c_add = "answer += z[i] >= k;" if occurrences else "answer += z[i];"
        js_result = "z.filter((value) => value >= k).length" if occurrences else "z.reduce((x, y) => x + y, 0)"
        return self.programs(p, *language_texts(CODE, "PrefixMatches", py_result=py_result, c_add=c_add,
                                                js_result=js_result, size=MAX_N + 5))


# --- borders (prefix function) ----------------------------------------------------------------

class Borders(GeneratedString):
    name = "borders"
    tier = 2
    MEASURES = ("longest", "count", "period")

    def statement(self, p: dict[str, Any]) -> str:
        asked = {
            "longest": "the length of the longest border of t (0 if t has none)",
            "count": "the number of borders of t",
            "period": "the smallest period of t: the smallest q >= 1 such that t_i = t_(i+q) for every i <= n - q",
        }[p["measure"]]
        return (f"{self.intro(p)} A border of t is a non-empty string shorter than t that is both a prefix and a "
                f"suffix of t. For each test print {asked} (k is 0 and unused).")

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        measure = p["measure"]
        py_result = {"longest": "pi[n - 1]", "period": "n - pi[n - 1]",
                     "count": "count_borders(pi, n)"}[measure]
        c_result = {"longest": "pi[n - 1]", "period": "n - pi[n - 1]", "count": "count"}[measure]
        js_result = {"longest": "pi[n - 1]", "period": "n - pi[n - 1]", "count": "count"}[measure]
        programs = self.programs(p, *language_texts(CODE, "Borders", py_result=py_result, c_result=c_result,
                                                    js_result=js_result, size=MAX_N + 5))
        if measure == "count":
            programs["python"] = programs["python"].replace("def solve():", CODE("Borders.python.helper"), 1)
        return programs


# --- palindromes (Manacher) -------------------------------------------------------------------

class Palindromes(GeneratedString):
    name = "palindromes"
    tier = 4
    MEASURES = ("longest", "count")

    word = LetterBalance.word  # both letters: a single repeated letter is one big palindrome

    def statement(self, p: dict[str, Any]) -> str:
        asked = ("the length of the longest block t_i ... t_j that is a palindrome" if p["measure"] == "longest"
                 else "the number of blocks t_i ... t_j (1 <= i <= j <= n) that are palindromes")
        return (f"{self.intro(p)} A palindrome reads the same forwards and backwards. For each test print {asked} "
                "(k is "
                "0 and unused).")

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        count = p["measure"] == "count"
        py_result = "sum(odd) + sum(even)" if count else "max(max(2 * r - 1 for r in odd), max(2 * r for r in even))"
        c_fold = ("answer += odd[i] + even[i];" if count else
                  "if (2 * odd[i] - 1 > answer) answer = 2 * odd[i] - 1;\n        "
                  "if (2 * even[i] > answer) answer = 2 * even[i];")
        js_fold = ("answer += odd[i] + even[i];" if count else
                   "answer = Math.max(answer, 2 * odd[i] - 1, 2 * even[i]);")
        return self.programs(p, *language_texts(CODE, "Palindromes", py_result=py_result, c_fold=c_fold,
                                                js_fold=js_fold, size=MAX_N + 5))


TEMPLATES = {t.name: t for t in (LetterBalance(), PrefixMatches(), Borders(), Palindromes())}

# CPU seconds for the whole run, per language (see efficient_arrays.BUDGETS).
BUDGETS = {"python": 8.0, "javascript": 2.0, "c": 0.5, "cpp": 0.5}


@register
class EfficientStrings(EfficiencyTask):
    id = "code/efficient_strings"
    description = ("Write an efficient program (Python, C, C++ or JavaScript) for a generated string problem: hidden "
                   "large, nearly periodic tests under a CPU budget.")
    tags = ("code", "programming", "stdio", "efficiency", "strings", "multi-language")
    templates = TEMPLATES

    @dataclass(frozen=True)
    class Config:
        templates: tuple[str, ...]
        large: tuple[int, ...]

    presets = (
        Config(("letter_balance", "prefix_matches"), large=(200_000,)),
        Config(("letter_balance", "prefix_matches", "borders"), large=(250_000,)),
        Config(("prefix_matches", "borders", "palindromes"), large=(200_000, 200_000)),
        Config(("borders", "palindromes"), large=(250_000, 250_000)),
        Config(("palindromes",), large=(300_000, 300_000)),
    )
    bounded = "its levels are kinds of problem (the `templates` field), not a size a rule can grow"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> Problem | None:
            template = TEMPLATES[rng.choice(config.templates)]
            small = [rng.randint(3, 8), rng.randint(4, 10), rng.randint(6, 14), rng.randint(20, 60), 1000]
            return efficiency_problem(rng, template, small, list(config.large), BUDGETS,
                                      limits_text=f"Limits: T <= {len(small) + len(config.large)}, 1 <= n <= {MAX_N}, "
                                                  "v >= 2, k <= n.")

        return retry(draw, attempts=50, what="a string problem with varied answers")
