"""Dynamic programming as stdin/stdout programs in Python, C, C++ or JavaScript.

Templates (parameters vary the rule, the costs and the modulus):

- **run_limited** (counting): strings of length n over an A-letter alphabet with no K equal letters
  in a row, modulo M;
- **spaced_pick** (selection): the largest sum of chosen array elements when chosen positions are
  at least G apart (and, in some variants, at most C are chosen);
- **decodings** (counting): ways to split a digit string into numbers from 1 to Z without leading
  zeros, modulo M;
- **alignment** (two sequences): edit distance with generated insert/delete/replace costs, longest
  common subsequence, shortest common supersequence, longest common substring;
- **palindrome_cuts** (partitions): the fewest cuts into palindromes (optionally of bounded length),
  or the number of partitions into palindromes modulo M;
- **pile_merging** (interval DP): the cheapest or dearest way to merge a row of piles into one when
  merging two adjacent piles costs their total plus a fee.

Multi-test (T cases in one input, one answer line each). Levels add templates and grow the
inputs. Expected answers come from the Python reference program, run in-process (templates/dp_programs.txt).

Generation speed: about 680 problems/s at level 4 on this 2-core machine. Each expected output is
computed by running the Python reference programme in-process on its test (8 tests of sizes up to 60,
where the dynamic programmes are quadratic or cubic); running the one reference keeps each algorithm
written once, and that run is nearly all the time.
"""

from __future__ import annotations

import math
import random
from typing import Any

from palaestra.core import Problem, register
from palaestra.core.task import Growth
from palaestra.envs.code._polyglot import (
    SizedConfig,
    StdioPolyglotTask,
    StdioTemplate,
    language_texts,
    random_word,
    stdio_sources,
)
from palaestra.envs.code.templates import ProgramTexts

PRIMES = (10007, 65537, 999983, 1000003, 998244353, 1000000007)

CODE = ProgramTexts("dp_programs")


# --- run-limited strings ----------------------------------------------------------------------

class RunLimited(StdioTemplate):
    name = "run_limited"
    modulus = "mod"
    tier = 1

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"letters": rng.randint(2, 4), "k": rng.randint(2, 4), "mod": rng.choice(PRIMES)}

    def statement(self, p: dict[str, Any]) -> str:
        return (f"Each test is one line with an integer n. For each test print the number of strings of length n "
                f"over an alphabet of {p['letters']} letters in which no letter appears {p['k']} or more times in a "
                f"row, modulo {p['mod']}.")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        return rng.randint(1, 3 * size)

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        a, k, mod = p["letters"], p["k"], p["mod"]
        return stdio_sources(CODE, "RunLimited", p, k=k, a=a, mod=mod, a_1=a - 1)


# --- spaced picks -----------------------------------------------------------------------------

class SpacedPick(StdioTemplate):
    name = "spaced_pick"
    pinned = ("gap", "cap")
    tier = 1

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"gap": rng.randint(2, 4), "cap": rng.choice([0, 0, 2, 3, 4, 5])}

    def statement(self, p: dict[str, Any]) -> str:
        cap = f", choosing at most {p['cap']} elements" if p["cap"] else ""
        return (f"Each test is a line with n and a line with n integers a1 ... an. Choose some of the positions "
                f"(possibly none) so that any two chosen positions i < j satisfy j - i >= {p['gap']}{cap}. For each "
                "test print the largest possible sum of the chosen elements (0 when nothing is chosen).")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        return [rng.randint(-20, 30) for _ in range(rng.randint(1, size))]

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        gap, cap = p["gap"], p["cap"]
        cap_py, cap_c = (str(cap), str(cap)) if cap else ("n", "n")
        return stdio_sources(CODE, "SpacedPick", p, cap_py=cap_py, gap=gap, cap_c=cap_c)


# --- decodings --------------------------------------------------------------------------------

class Decodings(StdioTemplate):
    name = "decodings"
    modulus = "mod"
    tier = 2
    LARGEST = (9, 26, 50, 99, 150, 255, 999)

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"largest": rng.choice(self.LARGEST), "mod": rng.choice(PRIMES)}

    def statement(self, p: dict[str, Any]) -> str:
        return (f"Each test is one line with a string of digits. For each test print the number of ways to split "
                f"it into consecutive pieces so that every piece is a number from 1 to {p['largest']} written "
                f"without leading zeros (so no piece starts with 0), modulo {p['mod']} (0 when there is no way).")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        return "".join(rng.choice("0123456789" if rng.random() < 0.15 else "123456789")
                       for _ in range(rng.randint(1, size)))

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        largest, mod = p["largest"], p["mod"]
        return stdio_sources(CODE, "Decodings", p, largest=largest, mod=mod)


# --- alignment --------------------------------------------------------------------------------

class Alignment(StdioTemplate):
    name = "alignment"
    tier = 2

    def params(self, rng: random.Random) -> dict[str, Any]:
        measure = rng.choice(["edit", "edit", "edit", "lcs", "scs", "substring"])
        costs = [rng.randint(1, 3) for _ in range(3)] if measure == "edit" else [0, 0, 0]
        return {"measure": measure, "costs": costs, "letters": rng.randint(2, 4)}

    def statement(self, p: dict[str, Any]) -> str:
        insert, delete, replace = p["costs"]
        asked = {
            "edit": f"the cheapest cost of turning the first word into the second, where inserting a letter costs "
                    f"{insert}, deleting a letter costs {delete} and replacing a letter by another costs {replace}",
            "lcs": "the length of the longest common subsequence of the two words",
            "scs": "the length of the shortest string that has both words as subsequences",
            "substring": "the length of the longest string that appears as a contiguous block in both words (0 "
                         "if they share no letter)",
        }[p["measure"]]
        return f"Each test is one line with two words of lowercase letters. For each test print {asked}."

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        letters = "abcd"[: p["letters"]]
        return [random_word(rng, rng.randint(1, size), letters), random_word(rng, rng.randint(1, size), letters)]

    def case_input(self, case: Any, p: dict[str, Any]) -> str:
        return f"{case[0]} {case[1]}\n"

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        insert, delete, replace = p["costs"]
        measure = p["measure"]
        if measure == "edit":
            py_core = CODE("Alignment.py_core", insert=insert, delete=delete, replace=replace)
            c_init, c_first = f"row[j] = j * {insert};", f"next[0] = i * {delete};"
            c_cell = CODE("Alignment.c_cell", replace=replace, delete=delete, insert=insert)
            c_answer = "row[lb]"
            js_init, js_first = f"j * {insert}", f"i * {delete}"
            js_cell = (f"next[j] = Math.min(row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : {replace}), "
                       f"row[j] + {delete}, next[j - 1] + {insert});")
            js_answer = "row[b.length]"
        elif measure == "substring":
            py_core = CODE("Alignment.py_core.2")
            c_init, c_first = "row[j] = 0;", "next[0] = 0;"
            c_cell = """next[j] = a[i - 1] == b[j - 1] ? row[j - 1] + 1 : 0;
            if (next[j] > answer) answer = next[j];"""
            c_answer = "answer"
            js_init, js_first = "0", "0"
            js_cell = """next[j] = a[i - 1] === b[j - 1] ? row[j - 1] + 1 : 0;
            answer = Math.max(answer, next[j]);"""
            js_answer = "answer"
        else:
            final_py = "row[len(b)]" if measure == "lcs" else "len(a) + len(b) - row[len(b)]"
            py_core = CODE("Alignment.py_core.3", final_py=final_py)
            c_init, c_first = "row[j] = 0;", "next[0] = 0;"
            c_cell = """if (a[i - 1] == b[j - 1]) next[j] = row[j - 1] + 1;
            else next[j] = row[j] > next[j - 1] ? row[j] : next[j - 1];"""
            c_answer = "row[lb]" if measure == "lcs" else "la + lb - row[lb]"
            js_init, js_first = "0", "0"
            js_cell = "next[j] = a[i - 1] === b[j - 1] ? row[j - 1] + 1 : Math.max(row[j], next[j - 1]);"
            js_answer = "row[b.length]" if measure == "lcs" else "a.length + b.length - row[b.length]"
        return stdio_sources(CODE, "Alignment", p,
                             py_core=py_core, c_init=c_init, c_first=c_first, c_cell=c_cell, c_answer=c_answer,
                             js_init=js_init, js_first=js_first, js_cell=js_cell, js_answer=js_answer)


# --- palindrome partitions --------------------------------------------------------------------

class PalindromeCuts(StdioTemplate):
    name = "palindrome_cuts"
    modulus = "mod"
    tier = 3

    def params(self, rng: random.Random) -> dict[str, Any]:
        measure = rng.choice(["cuts", "cuts", "count"])
        return {"measure": measure, "longest": rng.choice([0, 2, 3, 4, 5, 6]) if measure == "cuts" else 0,
                "mod": rng.choice(PRIMES) if measure == "count" else 0, "letters": rng.randint(2, 3)}

    def statement(self, p: dict[str, Any]) -> str:
        bound = f" of length at most {p['longest']}" if p["longest"] else ""
        asked = (f"the smallest number of cuts that split the word into pieces that are all palindromes{bound}"
                 if p["measure"] == "cuts" else
                 f"the number of ways to split the word into pieces that are all palindromes, modulo {p['mod']}")
        return (f"Each test is one line with a word of lowercase letters. A palindrome reads the same forwards and "
                f"backwards; a cut splits the word between two letters. For each test print {asked}.")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        return random_word(rng, rng.randint(1, size), "abc"[: p["letters"]])

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        longest, mod, measure = p["longest"], p["mod"], p["measure"]
        bound_py = f"i - j <= {longest} and " if longest else ""
        bound_c = f"i - j <= {longest} && " if longest else ""
        py_body, c_body, js_body = language_texts(CODE, "PalindromeCuts.body", "" if measure == "count" else ".2",
                                                  mod=mod, bound_py=bound_py, bound_c=bound_c)
        return stdio_sources(CODE, "PalindromeCuts", p, py_body=py_body, c_body=c_body, js_body=js_body)


# --- pile merging -----------------------------------------------------------------------------

class PileMerging(StdioTemplate):
    name = "pile_merging"
    tier = 4

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"goal": rng.choice(["min", "max"]), "fee": rng.randint(0, 5)}

    def statement(self, p: dict[str, Any]) -> str:
        fee = f" plus a fee of {p['fee']}" if p["fee"] else ""
        word = "smallest" if p["goal"] == "min" else "largest"
        return (f"Each test is a line with n and a line with n positive integers: the sizes of n piles in a row. "
                f"Repeatedly merge two adjacent piles into one pile (its size is their total); a merge costs the "
                f"new pile's size{fee}. For each test print the {word} possible total cost of merging all piles "
                f"into one (0 for a single pile).")

    def case(self, rng: random.Random, p: dict[str, Any], size: int) -> Any:
        return [rng.randint(1, 20) for _ in range(rng.randint(1, size))]

    def sources(self, p: dict[str, Any]) -> dict[str, str]:
        fee, goal = p["fee"], p["goal"]
        better = "<" if goal == "min" else ">"
        return stdio_sources(CODE, "PileMerging", p, goal=goal, fee=fee, better=better)


TEMPLATES = {t.name: t for t in (RunLimited(), SpacedPick(), Decodings(), Alignment(), PalindromeCuts(), PileMerging())}


@register
class DpPrograms(StdioPolyglotTask):
    id = "code/dp_programs"
    description = ("Write a stdin/stdout program (Python, C, C++ or JavaScript) for a generated dynamic-programming "
                   "problem.")
    tags = ("code", "programming", "stdio", "dynamic-programming", "multi-language")
    # 2: the tests' sizes in the data (the difficulty measure); 3: StdioTemplate.pinned constants; 4: a stated modulus
    # is one that some test's count reaches (StdioTemplate.modulus): leaving the modulus out passed 65-100% of the
    # run_limited, decodings and palindrome_cuts problems at levels 0-2
    version = 5  # v5: no repeated hidden test (a repeat could leave only the example's tests)
    templates = TEMPLATES
    Config = SizedConfig
    example_size = 5
    sizes_in_data = True
    what = "a dynamic-programming problem with varied answers"

    def config(self, level: int) -> SizedConfig:
        easy = ("run_limited", "spaced_pick", "decodings")
        return [
            self.Config(easy, max_size=6, tests=4),
            self.Config((*easy, "alignment"), max_size=10, tests=5),
            self.Config(("spaced_pick", "decodings", "alignment", "palindrome_cuts"), max_size=20, tests=6),
            self.Config(("alignment", "palindrome_cuts", "pile_merging", "decodings"), max_size=35, tests=7),
            self.Config(("alignment", "palindrome_cuts", "pile_merging"), max_size=60, tests=8),
        ][level]
    # Capped at level 9's size: generation takes up to 2-3 s of CPU from size 410 (level 11) on, and at size 1860
    # the reference program overflows the sandbox's stack (difficulty saturates).
    growth = Growth(steps={"max_size": 50}, limits={"max_size": 310})

    def limits(self, config: SizedConfig) -> str:
        return (f"Limits: T <= {config.tests}; every number, word or list in a test has at most "
                f"{3 * config.max_size} digits, letters or elements; array values are between -20 and 30.")

    def difficulty(self, problem: Problem) -> float:
        """The template's algorithmic tier plus twice log2 of the tests' drawn sizes: dynamic programs' work grows
        with the square of the size (the input's characters, the shared measure, differ by template, and the mix
        of templates drawn, not the level, decided the mean past the presets)."""
        sizes = problem.data.get("sizes")
        if sizes is None:  # a problem made before version 2
            return super().difficulty(problem)
        return self.template(problem).tier + 2 * math.log2(1 + sum(sizes))
