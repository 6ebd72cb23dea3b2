"""Write an awk program that turns delimited records into a grouped, formatted report, judged on hidden inputs.

The specification (drawn per problem): the field separator and the columns of the records (names, which are
text and which integers), whether the first line is a header to skip, a row filter on a numeric column, the
column to group by (groups in order of first appearance, the idiom of an ``order[++n] = key`` array, since awk's
``for (k in a)`` order is unspecified), one to three aggregates of a value column (count, sum, max, min, average
to two decimals) and the exact ``printf`` layout (key left-aligned in a width, values right-aligned in a width),
and at the higher levels a closing ``TOTAL`` line over every kept row.

How it is judged: the answer is an awk program; our driver (the sandbox's ``bash`` language, whose allow-list
holds awk) runs ``awk -f`` on it once per hidden input and prints its output followed by a marker line; the
trusted parent compares the lines with those of the Python reference of the specification (trailing whitespace
ignored). The example input in the prompt is not a hidden input, and hidden inputs are redrawn until their
reports differ, so printing the example's report fails, and until they tell apart the :func:`slips` (a filter
whose comparison is strict where the statement's is not, or the other way round; groups in sorted order): the
filter column takes the limit itself now and then (version 3: before, a program with the wrong boundary passed
50-80% of the problems with a filter).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.code._driven import DrivenTask, judge_each_input, other_params
from palaestra.envs.code.templates import ProgramTexts
from palaestra.verifiers.polyglot import Program, Report

CODE = ProgramTexts("awk_reports")
TEXT_COLUMNS = ("region", "team", "city", "product", "dept", "store", "channel", "site")
NUMBER_COLUMNS = ("qty", "score", "amount", "hours", "units", "points", "delta", "visits")
VALUES = ("north", "south", "east", "west", "alpha", "beta", "gamma", "delta", "red", "blue", "green", "oslo",
          "lima", "rome", "kyiv", "pune", "web", "shop", "mail", "app")
SEPARATORS = {",": "a comma", ";": "a semicolon", ":": "a colon", "|": "a vertical bar"}
AGGREGATES = {"count": "the number of its rows", "sum": "the sum of its values", "max": "its largest value",
              "min": "its smallest value", "avg": "the average of its values, with exactly two decimals"}
COMPARE = {">": "greater than", ">=": "at least", "<": "less than", "<=": "at most"}
MARKER = "@@palaestra-end-of-report"


def aggregate(kind: str, values: list[int]) -> int | float:
    if kind == "avg":
        return sum(values) / len(values)
    return len(values) if kind == "count" else sum(values) if kind == "sum" else max(values) if kind == "max" \
        else min(values)


def slips(p: dict[str, Any]) -> list[dict[str, Any]]:
    """Specifications of plausible wrong programs, which the hidden inputs must tell apart from ``p``: the filter's
    comparison strict where it is not or the other way round, and the groups in sorted order."""
    out = [{**p, "sorted": True}]
    if p["filter"] is not None:
        column, op, limit = p["filter"]
        out.append({**p, "filter": [column, {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}[op], limit]})
    return out


def report(text: str, p: dict[str, Any]) -> list[str]:
    """The trusted reference: the report's lines for one input."""
    groups: dict[str, list[int]] = {}
    lines = text.splitlines()[1:] if p["header"] else text.splitlines()
    kept: list[int] = []
    for line in lines:
        fields = line.split(p["sep"])
        if p["filter"] is not None:
            column, op, limit = p["filter"]
            number = int(fields[column - 1])
            if not {">": number > limit, ">=": number >= limit, "<": number < limit, "<=": number <= limit}[op]:
                continue
        value = int(fields[p["value"] - 1])
        groups.setdefault(fields[p["group"] - 1], []).append(value)
        kept.append(value)
    rows = sorted(groups.items()) if p.get("sorted") else list(groups.items())
    if p["total"] and kept:
        rows.append(("TOTAL", kept))
    out = []
    for key, values in rows:
        cells = [f"{aggregate(a, values):>{p['value_width']}.2f}" if a == "avg" else
                 f"{aggregate(a, values):>{p['value_width']}d}" for a in p["aggregates"]]
        out.append(f"{key:<{p['key_width']}}" + "".join(" " + c for c in cells))
    return out


@register
class AwkReports(DrivenTask):
    id = "code/awk_reports"
    description = "Write an awk program turning delimited records into a grouped printf report, on hidden inputs."
    tags = ("code", "programming", "awk", "shell", "text-processing")
    languages = ("bash",)
    toolchains = languages
    version = 3  # 2: rows grow by 40% a level past the presets; 3: hidden inputs tell the filter's boundary

    @dataclass(frozen=True)
    class Config:
        rows: int  # most rows per hidden input
        tests: int
        aggregates: int  # most aggregates
        features: int  # 0: plain; 1: + filter; 2: + header, TOTAL line

    presets = (Config(rows=5, tests=3, aggregates=1, features=0), Config(rows=8, tests=3, aggregates=2, features=1),
               Config(rows=12, tests=4, aggregates=2, features=2), Config(rows=18, tests=4, aggregates=3, features=2),
               Config(rows=26, tests=5, aggregates=3, features=2))
    # rows grow by 40% a level past the presets (by 8 rows, the growth in size was under the spread of the parts drawn)
    growth = Growth(factors={"rows": 1.4}, limits={"tests": 8, "rows": 2000, "aggregates": len(AGGREGATES),
                                                  "features": 2})

    def _params(self, rng: random.Random, config: Config) -> dict[str, Any]:
        width = rng.randint(4, 6)
        names = rng.sample(TEXT_COLUMNS, 2) + rng.sample(NUMBER_COLUMNS, width - 2)
        rng.shuffle(names)
        text_columns = [i + 1 for i, n in enumerate(names) if n in TEXT_COLUMNS]
        number_columns = [i + 1 for i, n in enumerate(names) if n in NUMBER_COLUMNS]
        value = rng.choice(number_columns)
        use_filter = config.features >= 1 and rng.random() < 0.7
        return {
            "names": names, "sep": rng.choice(list(SEPARATORS)), "group": rng.choice(text_columns), "value": value,
            "aggregates": rng.sample(list(AGGREGATES), rng.randint(1, config.aggregates)),
            "filter": [rng.choice(number_columns), rng.choice(list(COMPARE)), rng.randint(10, 90)] if use_filter
            else None,
            "header": config.features >= 2 and rng.random() < 0.5, "total": config.features >= 2 and rng.random() < 0.6,
            "key_width": rng.randint(6, 12), "value_width": rng.randint(5, 9),
        }

    def _input(self, rng: random.Random, p: dict[str, Any], rows: int) -> str:
        keys = rng.sample(VALUES, rng.randint(2, 5))
        lines = [p["sep"].join(p["names"])] if p["header"] else []
        limit_column, limit = (p["filter"][0], p["filter"][2]) if p["filter"] is not None else (0, 0)

        def number(column: int) -> str:  # the filter's limit itself now and then: the boundary must be right
            return str(limit if column == limit_column and rng.random() < 0.15 else rng.randint(-20, 120))

        for _ in range(rows):
            lines.append(p["sep"].join(rng.choice(keys) if n in TEXT_COLUMNS else number(i)
                                       for i, n in enumerate(p["names"], 1)))
        return "\n".join(lines) + "\n"

    def statement(self, p: dict[str, Any]) -> str:
        columns = ", ".join(f"{n} ({'text' if n in TEXT_COLUMNS else 'integer'})" for n in p["names"])
        group, value = p["names"][p["group"] - 1], p["names"][p["value"] - 1]
        parts = [f"The input is records, one per line, whose fields are separated by {SEPARATORS[p['sep']]} "
                 f"({p['sep']}); the columns are, in order: {columns}. Fields never contain the separator."]
        if p["header"]:
            parts.append("The first line is a header (the column names) and is not a record.")
        if p["filter"] is not None:
            column, op, limit = p["filter"]
            parts.append(f"Only the records whose {p['names'][column - 1]} is {COMPARE[op]} {limit} count; "
                         "ignore the others.")
        aggregates = "; then ".join(AGGREGATES[a] for a in p["aggregates"])
        parts.append(f"Group the records by {group}. For each group, in order of the first appearance of its {group} "
                     f"in the input, print one line: the {group} left-aligned in a field of width {p['key_width']} "
                     f"(printf %-{p['key_width']}s), then, each after a single space and right-aligned in a field of "
                     f"width {p['value_width']}, {aggregates} (the values are the {value} column).")
        if p["total"]:
            parts.append("After the groups, print one more line in the same layout for all the counted records "
                         "together, with the word TOTAL in place of the group (the inputs always count at least one "
                         "record).")
        return " ".join(parts)

    def generate(self, rng: random.Random, config: Config) -> Problem:
        p = self._params(rng, config)

        def draw() -> tuple[str, list[str], list[list[str]]] | None:
            example = self._input(rng, p, max(4, config.rows // 2))
            inputs = [self._input(rng, p, rng.randint(max(3, config.rows // 2), config.rows))
                      for _ in range(config.tests)]
            outputs = [report(text, p) for text in inputs]
            distinct = {tuple(o) for o in outputs}
            shown = report(example, p)
            if len(distinct) < config.tests or tuple(shown) in distinct or not all(outputs) or not shown:
                return None
            if not all(any(report(text, q) != o for text, o in zip(inputs, outputs)) for q in slips(p)):
                return None  # a filter with the wrong boundary, or the groups sorted, would pass every input
            return example, inputs, outputs

        # 300: a strict filter near the top of the values (amount > 90) with its boundary to be told apart succeeds in
        # about 1 draw in 15, so 60 attempts failed 1.7% of such problems
        example, inputs, outputs = retry(draw, attempts=300, what="hidden inputs with distinct, non-empty reports")
        shown = "\n".join(report(example, p))
        prompt = (
            f"Write an awk program. {self.statement(p)}\n\nExample input:\n```\n{example.rstrip()}\n```\nExample "
            f"output:\n```\n{shown}\n```\n\nYour program is run as awk -f program.awk (no other options, so set the "
            "field separator in the program itself) once per hidden input, reading it on stdin; its output is "
            "compared line by line with the expected report (trailing whitespace ignored). Use POSIX awk only "
            "(the awk may be mawk: no gawk extensions such as asort or PROCINFO). Answer with the whole awk program "
            "in one fenced code block labelled awk inside the answer tags, for example (the shape only):\n<answer>\n"
            "```awk\nBEGIN { ... }\n{ ... }\nEND { ... }\n```\n</answer>"
        )
        data = {"params": p, "inputs": inputs, "expected": outputs, "example_output": shown,
                "languages": list(self.languages), "gold": "bash"}
        return Problem(prompt=prompt, answer=f"```awk\n{self.reference(data)}\n```", data=data)

    @staticmethod
    def program(p: dict[str, Any]) -> str:
        skip = "NR == 1 { next }\n" if p["header"] else ""
        if p["filter"] is not None:
            column, op, limit = p["filter"]
            skip += f"!(${column} {op} {limit}) {{ next }}\n"
        layout = f"%-{p['key_width']}s" + "".join(f" %{p['value_width']}{'.2f' if a == 'avg' else 'd'}"
                                                 for a in p["aggregates"]) + "\\n"
        group = {"count": "count[key]", "sum": "sum[key]", "max": "max[key]", "min": "min[key]",
                 "avg": "sum[key] / count[key]"}
        whole = {"count": "rows", "sum": "total_sum", "max": "total_max", "min": "total_min",
                 "avg": "total_sum / rows"}
        total = (f"    if (rows > 0) printf \"{layout}\", \"TOTAL\", {', '.join(whole[a] for a in p['aggregates'])}\n"
                 if p["total"] else "")
        return CODE("reference", sep=p["sep"], skip=skip, group=p["group"], value=p["value"], format=layout,
                    group_values=", ".join(group[a] for a in p["aggregates"]), total=total).strip()

    def reference(self, data: dict[str, Any]) -> str:
        return self.program(data["params"])

    def spellings(self, problem: Problem) -> list[str]:
        code = self.reference(problem.data)
        return [f"Here is the program.\n\n```awk\n{code}\n```", f"```\n{code}\n```"]

    def judge(self, problem: Problem, program: Program) -> Report:
        return judge_each_input(program, CODE, problem.data["inputs"], problem.data["expected"], MARKER,
                                self.cpu_seconds)

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        """The example's report printed as is (never a hidden input's), the program cut short, and the reference
        for other parameters of the specification where that changes some hidden report."""
        data = problem.data
        lines = self.reference(data).splitlines()
        out = [f"```awk\nEND {{ printf \"%s\\n\", {self._awk_string(data['example_output'])} }}\n```",
               "```awk\n" + "\n".join(lines[: len(lines) // 2]) + "\n```"]
        changed = other_params(rng, data["params"], lambda r: self._params(r, ALL_FEATURES),
                               lambda q: [report(text, q) for text in data["inputs"]], data["expected"])
        if changed is not None:
            out.append(f"```awk\n{self.program(changed)}\n```")
        return out

    @staticmethod
    def _awk_string(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'

    def difficulty(self, problem: Problem) -> float:
        """The specification's parts (aggregates, filter, header, TOTAL) plus twice log2 of the inputs' lines."""
        p = problem.data["params"]
        parts = len(p["aggregates"]) + (p["filter"] is not None) + p["header"] + p["total"]
        return parts + 2 * math.log2(1 + sum(text.count("\n") for text in problem.data["inputs"]))


ALL_FEATURES = AwkReports.Config(rows=8, tests=3, aggregates=3, features=2)  # any parameter may be redrawn
