"""Write a Bash script (a pipeline of text tools) that turns stdin into the required stdout, judged on hidden inputs.

Kinds of transformation (their parameters vary the statement):

- **word_freq**: the K most frequent words with their counts, by count then alphabetically;
- **group_sum**: ``name,amount`` lines summed per name, names in byte order;
- **dedupe**: the lines at their first occurrence, or only the lines that occur exactly once, in input order;
- **columns**: two fields of each delimiter-separated line, in a stated order and joined by a stated separator;
- **dates**: every ``YYYY-MM-DD`` date rewritten as ``DD/MM/YYYY``, ``MM/DD/YYYY`` or ``YYYY.MM.DD``;
- **threshold**: the names of the rows whose numeric column compares to a limit as stated.

How it is judged: the candidate's script is ``solution.sh`` next to our trusted driver (``main.sh``) in the
sandbox's ``bash`` language (the shell and the allow-listed text tools: coreutils, grep, sed, awk...; nothing
else executes). The driver runs the script once per hidden input (given on its stdin), captures its stdout
(trailing newlines dropped, as ``$(...)`` does) and prints it followed by a marker line. Each test's expected
text comes from a Python reference of the transformation and never enters the sandbox; lines are compared
exactly up to trailing whitespace. The example input in the prompt is not one of the hidden inputs, so a script
that prints the example's output fails; hidden inputs are redrawn until their outputs differ and tell apart the
transformation's *slips* (version 2: a threshold compared with the wrong boundary, < for "at most", passed
60-90% of threshold problems, as the column rarely took the limit; it takes it now and then; version 3: a
dedupe script for another mode than the stated one, first for last occurrences mostly, passed 29% of the level-0
dedupe problems (0.065 of the level), 5% at level 1; now none).
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from palaestra.core import Problem, register
from palaestra.core.retry import GenerationError, retry
from palaestra.core.task import Growth
from palaestra.envs.code._driven import judge_each_input
from palaestra.envs.code._polyglot import PolyglotTask, convention
from palaestra.envs.code.templates import ProgramTexts
from palaestra.verifiers.polyglot import Program, Report, fence

CODE = ProgramTexts("bash_oneliners")
WORDS = ("apple", "brook", "cloud", "delta", "ember", "frost", "grove", "haze", "inlet", "jolt", "kite", "lumen",
         "moss", "nectar", "orbit", "pearl", "quill", "ridge", "spark", "thorn", "umber", "vivid", "whirl", "yarrow")
NAMES = ("ana", "bo", "cara", "dev", "eli", "fox", "gia", "hu", "ivy", "jun", "kim", "lou", "mia", "ned", "oz",
         "pia", "rex", "sol", "tia", "uma", "vic", "wyn", "xia", "zed", "anabel", "bob", "carl", "devon")
SEPARATORS = {":": "a colon (:)", ";": "a semicolon (;)", "|": "a vertical bar (|)", "\t": "a tab",
              ",": "a comma (,)", " ": "a single space"}
MARKER_PREFIX = "@@palaestra-end-of-test"


class Transform:
    """One kind of text transformation: statement, input drawing and a trusted Python reference."""

    name: ClassVar[str]
    tier: ClassVar[int] = 1

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {}

    def statement(self, p: dict[str, Any]) -> str:
        raise NotImplementedError

    def text(self, rng: random.Random, p: dict[str, Any], lines: int) -> str:
        raise NotImplementedError

    def output(self, text: str, p: dict[str, Any]) -> list[str]:
        raise NotImplementedError

    def reference(self, p: dict[str, Any]) -> str:
        return CODE(self.name, p=p).strip()

    def slips(self, p: dict[str, Any]) -> list[Callable[[str], list[str]]]:
        """The outputs of plausible wrong scripts (a comparison's boundary flipped, ties in the wrong order): every
        problem's hidden inputs tell each of them apart from the transformation."""
        return []


class WordFreq(Transform):
    name, tier = "word_freq", 2

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"k": rng.randint(2, 5)}

    def statement(self, p: dict[str, Any]) -> str:
        return (f"The input is lines of lowercase words separated by one or more spaces. Print the {p['k']} most "
                "frequent words (all of them if there are fewer), one per line as the count, a space and the word, "
                "by decreasing count; words with equal counts in alphabetical order.")

    def text(self, rng: random.Random, p: dict[str, Any], lines: int) -> str:
        vocabulary = rng.sample(WORDS, rng.randint(4, 9))
        weights = [rng.randint(1, 6) for _ in vocabulary]
        return "".join(" ".join(rng.choices(vocabulary, weights, k=rng.randint(1, 6))).replace(" ", " " * rng.choice(
            (1, 1, 2))) + "\n" for _ in range(lines))

    def output(self, text: str, p: dict[str, Any]) -> list[str]:
        counts = Counter(text.split())
        return [f"{c} {w}" for w, c in sorted(counts.items(), key=lambda item: (-item[1], item[0]))[: p["k"]]]

    def slips(self, p: dict[str, Any]) -> list[Callable[[str], list[str]]]:
        def ties_reversed(text: str) -> list[str]:  # equal counts in reverse alphabetical order (sort -rn alone)
            counts = sorted(Counter(text.split()).items(), key=lambda item: (item[1], item[0]), reverse=True)
            return [f"{c} {w}" for w, c in counts[: p["k"]]]

        return [ties_reversed]


AGGREGATES = {"sum": "the sum of its amounts", "count": "the number of its lines", "max": "its largest amount",
              "min": "its smallest amount"}


class GroupSum(Transform):
    name, tier = "group_sum", 1

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"aggregate": rng.choice(list(AGGREGATES)), "join": rng.choice((",", " ", ":"))}

    def statement(self, p: dict[str, Any]) -> str:
        return ("The input is lines name,amount: a lowercase name and an integer (possibly negative). Print each name "
                f"once, followed by {SEPARATORS[p['join']]} and {AGGREGATES[p['aggregate']]}, the names in "
                "alphabetical order.")

    def text(self, rng: random.Random, p: dict[str, Any], lines: int) -> str:
        names = rng.sample(NAMES, rng.randint(2, 6))
        return "".join(f"{rng.choice(names)},{rng.randint(-50, 200)}\n" for _ in range(lines))

    def output(self, text: str, p: dict[str, Any]) -> list[str]:
        amounts: dict[str, list[int]] = {}
        for line in text.splitlines():
            name, amount = line.split(",")
            amounts.setdefault(name, []).append(int(amount))
        folds: dict[str, Callable[[list[int]], int]] = {"sum": sum, "count": len, "max": max, "min": min}
        fold = folds[p["aggregate"]]
        return [f"{name}{p['join']}{fold(amounts[name])}" for name in sorted(amounts)]

    def reference(self, p: dict[str, Any]) -> str:
        return CODE(f"group_sum.{p['aggregate']}", join=p["join"]).strip()


DEDUPE = {"first": "every distinct line once, at its first occurrence",
          "last": "every distinct line once, at its last occurrence",
          "once": "only the lines that occur exactly once in the input",
          "repeated": "every line that occurs more than once, once, at its second occurrence"}


class Dedupe(Transform):
    name, tier = "dedupe", 1

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"mode": rng.choice(list(DEDUPE))}

    def statement(self, p: dict[str, Any]) -> str:
        return f"The input is lines of text. Print {DEDUPE[p['mode']]}, keeping the input order."

    def text(self, rng: random.Random, p: dict[str, Any], lines: int) -> str:
        pool = [f"{rng.choice(WORDS)} {rng.randint(1, 9)}" for _ in range(max(2, lines // 2))]
        return "".join(rng.choice(pool) + "\n" for _ in range(lines))

    def output(self, text: str, p: dict[str, Any]) -> list[str]:
        lines = text.splitlines()
        if p["mode"] == "first":
            return list(dict.fromkeys(lines))
        if p["mode"] == "last":
            last = {line: i for i, line in enumerate(lines)}
            return [line for i, line in enumerate(lines) if last[line] == i]
        if p["mode"] == "repeated":
            seen: Counter[str] = Counter()
            out = []
            for line in lines:
                seen[line] += 1
                if seen[line] == 2:
                    out.append(line)
            return out
        counts = Counter(lines)
        return [line for line in lines if counts[line] == 1]

    def reference(self, p: dict[str, Any]) -> str:
        return CODE(f"dedupe.{p['mode']}").strip()

    def slips(self, p: dict[str, Any]) -> list[Callable[[str], list[str]]]:
        """Another mode read for the stated one (first for last occurrences ...), and the input left as it is."""
        others = [lambda text, mode=mode: self.output(text, {"mode": mode}) for mode in DEDUPE if mode != p["mode"]]
        return [*others, str.splitlines]


class Columns(Transform):
    name, tier = "columns", 1

    def params(self, rng: random.Random) -> dict[str, Any]:
        fields = rng.randint(3, 6)
        first, second = rng.sample(range(1, fields + 1), 2)
        split = rng.choice([":", ";", "|", "\t"])
        join = rng.choice([s for s in (",", " ", ":", ";") if s != split])
        return {"fields": fields, "first": first, "second": second, "split": split, "join": join}

    def statement(self, p: dict[str, Any]) -> str:
        return (f"The input is lines of {p['fields']} fields separated by {SEPARATORS[p['split']]} (fields never "
                f"contain it, and are never empty). For each line print field {p['first']} then field {p['second']} "
                f"(fields numbered from 1), separated by {SEPARATORS[p['join']]}.")

    def text(self, rng: random.Random, p: dict[str, Any], lines: int) -> str:
        def field() -> str:
            return rng.choice((rng.choice(WORDS), str(rng.randint(0, 999)), rng.choice(NAMES)))

        return "".join(p["split"].join(field() for _ in range(p["fields"])) + "\n" for _ in range(lines))

    def output(self, text: str, p: dict[str, Any]) -> list[str]:
        out = []
        for line in text.splitlines():
            fields = line.split(p["split"])
            out.append(f"{fields[p['first'] - 1]}{p['join']}{fields[p['second'] - 1]}")
        return out

    def reference(self, p: dict[str, Any]) -> str:
        return CODE("columns", p=p, split="\\t" if p["split"] == "\t" else p["split"], join=p["join"]).strip()


DATE_STYLES = {"dmy": ("DD/MM/YYYY", r"\3\/\2\/\1"), "mdy": ("MM/DD/YYYY", r"\2\/\3\/\1"),
               "dots": ("YYYY.MM.DD", r"\1.\2.\3"), "slashes": ("YYYY/MM/DD", r"\1\/\2\/\3"),
               "german": ("DD.MM.YYYY", r"\3.\2.\1")}
DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")  # our own generated text only


class Dates(Transform):
    name, tier = "dates", 2

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"style": rng.choice(list(DATE_STYLES))}

    def statement(self, p: dict[str, Any]) -> str:
        return ("The input is lines of words, numbers and dates written YYYY-MM-DD (four-digit year, two-digit month "
                f"and day). Print every line with each such date rewritten as {DATE_STYLES[p['style']][0]}, everything "
                "else unchanged.")

    def text(self, rng: random.Random, p: dict[str, Any], lines: int) -> str:
        def token() -> str:
            roll = rng.random()
            if roll < 0.35:
                return f"{rng.randint(1990, 2030)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
            return rng.choice(WORDS) if roll < 0.8 else str(rng.randint(0, 99))

        return "".join(" ".join(token() for _ in range(rng.randint(1, 5))) + "\n" for _ in range(lines))

    def output(self, text: str, p: dict[str, Any]) -> list[str]:
        order = {"dmy": "{2}/{1}/{0}", "mdy": "{1}/{2}/{0}", "dots": "{0}.{1}.{2}", "slashes": "{0}/{1}/{2}",
                 "german": "{2}.{1}.{0}"}[p["style"]]
        return [DATE.sub(lambda m: order.format(*m.groups()), line) for line in text.splitlines()]

    def reference(self, p: dict[str, Any]) -> str:
        return CODE("dates", replacement=DATE_STYLES[p["style"]][1]).strip()


COMPARE = {">": "greater than", "<": "less than", ">=": "at least", "<=": "at most"}


class Threshold(Transform):
    name, tier = "threshold", 1

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"column": rng.randint(2, 4), "compare": rng.choice(list(COMPARE)), "limit": rng.randint(20, 80)}

    def statement(self, p: dict[str, Any]) -> str:
        return (f"The input is lines of four fields separated by single spaces: a name, then three integers. Print, "
                f"in input order, the name of every line whose field {p['column']} (fields numbered from 1) is "
                f"{COMPARE[p['compare']]} {p['limit']}.")

    def text(self, rng: random.Random, p: dict[str, Any], lines: int) -> str:
        def field(column: int) -> int:  # the limit itself now and then: the boundary must be right
            return p["limit"] if column == p["column"] and rng.random() < 0.15 else rng.randint(0, 99)

        return "".join(f"{rng.choice(NAMES)} {field(2)} {field(3)} {field(4)}\n" for _ in range(lines))

    def slips(self, p: dict[str, Any]) -> list[Callable[[str], list[str]]]:
        flipped = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}[p["compare"]]
        return [lambda text: self.output(text, {**p, "compare": flipped})]

    def output(self, text: str, p: dict[str, Any]) -> list[str]:
        test = {">": int.__gt__, "<": int.__lt__, ">=": int.__ge__, "<=": int.__le__}[p["compare"]]
        return [line.split()[0] for line in text.splitlines() if test(int(line.split()[p["column"] - 1]), p["limit"])]


TRANSFORMS: dict[str, Transform] = {t.name: t for t in (WordFreq(), GroupSum(), Dedupe(), Columns(), Dates(),
                                                        Threshold())}


@register
class BashOneliners(PolyglotTask):
    id = "code/bash_oneliners"
    description = "Write a Bash pipeline turning stdin into the required stdout, judged on hidden inputs."
    tags = ("code", "programming", "bash", "shell", "text-processing")
    languages = ("bash",)
    toolchains = languages
    # 2: a threshold's boundary slip is told apart
    version = 3  # v3: a dedupe problem's hidden inputs tell every other mode (and the unchanged input) apart

    @dataclass(frozen=True)
    class Config:
        transforms: tuple[str, ...]
        lines: int  # most lines per hidden input
        tests: int

    presets = (
        Config(("group_sum", "dedupe", "columns", "threshold"), lines=5, tests=3),
        Config(("group_sum", "dedupe", "columns", "threshold", "dates"), lines=8, tests=3),
        Config(("group_sum", "dedupe", "columns", "dates", "word_freq"), lines=12, tests=4),
        Config(("dedupe", "columns", "dates", "word_freq", "threshold"), lines=18, tests=4),
        Config(("group_sum", "dates", "word_freq", "dedupe"), lines=26, tests=5),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        transform = TRANSFORMS[rng.choice(config.transforms)]

        def draw(p: dict[str, Any]) -> tuple[str, list[str], list[list[str]]] | None:
            example = transform.text(rng, p, max(3, config.lines // 2))
            inputs = [transform.text(rng, p, rng.randint(max(2, config.lines // 2), config.lines))
                      for _ in range(config.tests)]
            outputs = [transform.output(text, p) for text in inputs]
            shown = transform.output(example, p)
            distinct = {tuple(o) for o in outputs}
            if len(distinct) < config.tests or tuple(shown) in distinct or not all(outputs) or not shown:
                return None
            if not all(any(slip(text) != o for text, o in zip(inputs, outputs)) for slip in transform.slips(p)):
                return None  # a script with the wrong boundary, or ties in the wrong order, would pass
            return example, inputs, outputs

        def attempt() -> tuple[dict[str, Any], tuple[str, list[str], list[list[str]]]] | None:
            # Parameters under which inputs rarely give distinct outputs are drawn again (such a seed failed).
            p = transform.params(rng)
            try:
                return p, retry(lambda: draw(p), attempts=60, what="hidden inputs with distinct, non-empty outputs")
            except GenerationError:
                return None

        p, (example, inputs, outputs) = retry(attempt, attempts=5, what="parameters with distinct, non-empty outputs")
        shown = "\n".join(transform.output(example, p))
        prompt = (
            f"{transform.statement(p)}\n\nExample input:\n```\n{example.rstrip()}\n```\nExample output:\n```\n{shown}\n"
            "```\n\nYour script runs with bash (LC_ALL=C) once per hidden input, reading it on stdin; its stdout is "
            "compared line by line with the expected output (trailing whitespace ignored). It may use the usual text "
            "tools (coreutils such as sort, uniq, tr, cut, head; grep, sed, awk); nothing else can be executed. "
            + convention(self.languages, shape="tr ... | sort | ...")
        )
        data = {"transform": transform.name, "params": p, "inputs": inputs, "expected": outputs, "example_output": shown,
                "marker": f"{MARKER_PREFIX}-{rng.getrandbits(32):08x}", "languages": list(self.languages),
                "gold": "bash"}
        return Problem(prompt=prompt, answer=fence(("bash", transform.reference(p))), data=data)

    def sources(self, problem: Problem) -> dict[str, str]:
        return {"bash": TRANSFORMS[problem.data["transform"]].reference(problem.data["params"])}

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        """A script printing the example's output (never a hidden input's), and the reference for other
        parameters of the same transformation where that changes some hidden output."""
        data = problem.data
        out = [fence(("bash", f"cat <<'END_OF_OUTPUT'\n{data['example_output']}\nEND_OF_OUTPUT"))]
        transform = TRANSFORMS[data["transform"]]
        params = data["params"]
        for _ in range(20 if params else 0):
            fresh = transform.params(rng)
            key = rng.choice(sorted(params))
            other = {**params, key: fresh[key]}
            try:
                changed = any(transform.output(text, other) != expected
                              for text, expected in zip(data["inputs"], data["expected"]))
            except IndexError:  # a field the hidden lines do not have: no certain outcome to compare
                continue
            if changed:
                out.append(fence(("bash", transform.reference(other))))
                break
        return out

    def judge(self, problem: Problem, program: Program) -> Report:
        data = problem.data
        return judge_each_input(program, CODE, data["inputs"], data["expected"], data["marker"], cpu_seconds=2.0)

    def difficulty(self, problem: Problem) -> float:
        """The transformation's tier plus twice log2 of the hidden inputs' lines (lines, not characters: the
        transformations' lines differ in length, which made the mix of transformations drawn, not the level,
        decide the mean past the presets)."""
        lines = sum(text.count("\n") for text in problem.data["inputs"])
        return TRANSFORMS[problem.data["transform"]].tier + 2 * math.log2(1 + lines)
