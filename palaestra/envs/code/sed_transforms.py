"""Write a sed script (``sed -E -f``) for a stated line-oriented edit, judged on hidden inputs.

Edits (parameters vary the words, markers and details), each the idiom of one sed feature:

- **ini_set**: in an INI-style file, set a key's value inside one section only (an address range from the
  section's header to the next header, then a substitution);
- **join_lines**: join every line ending with a continuation character to the next one (a loop of ``N`` and
  ``b`` with a label), the last line left as it is;
- **delete_blocks**: delete the blocks between a start and a stop marker line, the marker lines deleted too
  or kept (a ``/start/,/stop/`` range);
- **nth_occurrence**: replace only the N-th occurrence of a word on every line, or every occurrence from the
  N-th on (the numeric flags of ``s``).

How it is judged: the answer is a sed script; our driver (the sandbox's ``bash`` language, whose allow-list
holds sed) runs ``sed -E -f`` on it once per hidden input and prints its output followed by a marker line; the
trusted parent compares the lines with those of the edit's Python reference (trailing whitespace ignored). The
example input in the prompt is not a hidden input, and hidden inputs are redrawn until their outputs differ,
each shows the edit at work, and they tell apart each of the edit's *slips* (plausible wrong scripts: the key
matched without its ``=`` or not anchored, the section range run to the end or ignored, the markers matched as
prefixes, stray markers deleted, one join instead of a loop, the numeric flag's ``g`` flipped, whole words
only, the stop marker ignored). Version 2: before, a script matching the key without its ``=`` passed 84% of
level-0 ini_set problems, and one matching the block markers as prefixes 70% of level-0 delete_blocks problems.
Version 3: a script ignoring the stop marker (deleting from the first start marker to the end of the input)
passed 41% of level-0 and 34% of level-1 delete_blocks problems (0.205 and 0.10 of those levels); now none.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from palaestra.core import Problem, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.code._driven import DrivenTask, judge_each_input, other_params
from palaestra.envs.code.templates import ProgramTexts
from palaestra.verifiers.polyglot import Program, Report

CODE = ProgramTexts("sed_transforms")
MARKER = "@@palaestra-end-of-output"
WORDS = ("alpha", "beta", "node", "disk", "cache", "path", "user", "mode", "level", "color", "port", "host",
         "name", "size", "limit", "delay", "value", "token")
SECTIONS = ("server", "client", "database", "cache", "log", "auth", "paths", "proxy", "mail", "ui")
BLOCK_MARKERS = (("BEGIN", "END"), ("start-skip", "end-skip"), (">>>", "<<<"), ("#if 0", "#endif"),
                 ("@private", "@public"), ("-- cut --", "-- paste --"))
CONTINUATION = {"\\": "\\\\", "&": "&", "+": "\\+", "~": "~"}  # character: its ERE spelling in the script
ORDINALS = {2: "second", 3: "third", 4: "fourth"}


class Edit:
    name: ClassVar[str]
    tier: ClassVar[int] = 1

    def params(self, rng: random.Random) -> dict[str, Any]:
        raise NotImplementedError

    def statement(self, p: dict[str, Any]) -> str:
        raise NotImplementedError

    def text(self, rng: random.Random, p: dict[str, Any], lines: int) -> str:
        raise NotImplementedError

    def output(self, text: str, p: dict[str, Any]) -> list[str]:
        raise NotImplementedError

    def script(self, p: dict[str, Any]) -> str:
        raise NotImplementedError

    def slips(self, p: dict[str, Any]) -> list[Callable[[str], list[str]]]:
        """The outputs of plausible wrong scripts (a match not anchored, a range that runs to the end, a flag
        left out ...): every problem's hidden inputs tell each of them apart from the edit."""
        return []


class IniSet(Edit):
    name, tier = "ini_set", 1

    def params(self, rng: random.Random) -> dict[str, Any]:
        sections = rng.sample(SECTIONS, 4)
        keys = rng.sample(WORDS, 5)
        return {"sections": sections, "keys": keys, "section": sections[0], "key": keys[0],
                "value": rng.choice(WORDS) + str(rng.randint(1, 99))}

    def statement(self, p: dict[str, Any]) -> str:
        return (f"The input is an INI-style file: section header lines [name], lines key=value (no spaces around "
                f"=) and comment lines starting with ; (no other line starts with [). Set the value of the key "
                f"{p['key']} to {p['value']} in the section [{p['section']}] only (each section occurs at most once): every line of that section (from "
                f"its header to the next header or the end) that starts with {p['key']}= becomes "
                f"{p['key']}={p['value']}. Every other line, including {p['key']}= lines in other sections and "
                "lines before the first header, is printed unchanged.")

    def text(self, rng: random.Random, p: dict[str, Any], lines: int) -> str:
        """Each section once (the target always), in any order, after an optional preamble of keys."""
        def entry() -> str:
            if rng.random() < 0.15:
                return f"; {rng.choice(WORDS)} {p['key']}="
            key = p["key"] if rng.random() < 0.4 else rng.choice(p["keys"]) + rng.choice(("", "", "2"))
            return f"{key}={rng.choice(WORDS)}{rng.randint(0, 9)}"

        sections = rng.sample(p["sections"], rng.randint(1, len(p["sections"])))
        if p["section"] not in sections:
            sections[rng.randrange(len(sections))] = p["section"]
        out = [entry() for _ in range(rng.choice((0, 0, 1)))]
        per_section = max(1, lines // len(sections))
        for section in sections:
            out.append(f"[{section}]")
            header = len(out)
            out += [entry() for _ in range(rng.randint(1, per_section))]
            if section == p["section"]:
                out.insert(rng.randint(header, len(out)), f"{p['key']}={rng.choice(WORDS)}")
                if rng.random() < 0.6:  # a longer key that starts with the key's name
                    longer = f"{p['key']}{rng.choice(('2', 's', '_old'))}={rng.choice(WORDS)}"
                    out.insert(rng.randint(header, len(out)), longer)
                if rng.random() < 0.4:  # a comment holding key=
                    out.insert(rng.randint(header, len(out)), f"; {rng.choice(WORDS)} {p['key']}={rng.choice(WORDS)}")
        return "\n".join(out) + "\n"

    def output(self, text: str, p: dict[str, Any]) -> list[str]:
        section, out = None, []
        for line in text.splitlines():
            if line.startswith("["):
                section = line[1:-1]
            elif section == p["section"] and line.startswith(p["key"] + "="):
                line = f"{p['key']}={p['value']}"
            out.append(line)
        return out

    def script(self, p: dict[str, Any]) -> str:
        return CODE("ini_set", section=p["section"], key=p["key"], value=p["value"])

    def slips(self, p: dict[str, Any]) -> list[Callable[[str], list[str]]]:
        key, new = p["key"], f"{p['key']}={p['value']}"

        def edited(text: str, hit: Callable[[str], bool], stop_at_header: bool = True) -> list[str]:
            section, out = None, []
            for line in text.splitlines():
                if line.startswith("[") and (stop_at_header or section != p["section"]):
                    section = line[1:-1]
                elif section == p["section"] and hit(line):
                    line = line[: line.index(key)] + new if key in line else line
                out.append(line)
            return out

        return [
            lambda text: [new if line.startswith(key + "=") else line for line in text.splitlines()],  # any section
            lambda text: edited(text, lambda line: line.startswith(key + "="), stop_at_header=False),  # to the end
            lambda text: edited(text, lambda line: line.startswith(key)),  # "=" left out: longer keys too
            lambda text: edited(text, lambda line: key + "=" in line),  # not anchored: comments too
        ]


class JoinLines(Edit):
    name, tier = "join_lines", 2

    def params(self, rng: random.Random) -> dict[str, Any]:
        return {"char": rng.choice(list(CONTINUATION)), "sep": rng.choice((" ", ""))}

    def statement(self, p: dict[str, Any]) -> str:
        sep = "a single space" if p["sep"] == " " else "nothing (the two lines are glued)"
        return (f"The input is lines of text. A line ending with the character {p['char']} continues on the next "
                f"line: remove that final {p['char']} and join the next line to it, separated by {sep}; repeat "
                f"while the joined line still ends with {p['char']}. The last line of the input is never joined "
                f"(it keeps a final {p['char']}). Other lines are printed unchanged.")

    def text(self, rng: random.Random, p: dict[str, Any], lines: int) -> str:
        out = []
        for _ in range(lines):
            words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3)))
            tail = p["char"] if rng.random() < 0.45 else rng.choice(("", "", "."))
            middle = p["char"] if rng.random() < 0.15 else ""
            out.append(words + middle + " " + rng.choice(WORDS) + tail)
        return "\n".join(out) + "\n"

    def output(self, text: str, p: dict[str, Any]) -> list[str]:
        lines, out = text.splitlines(), []
        current: str | None = None
        for i, line in enumerate(lines):
            current = line if current is None else current + line
            if current.endswith(p["char"]) and i < len(lines) - 1:
                current = current[:-1] + p["sep"]
                continue
            out.append(current)
            current = None
        return out

    def script(self, p: dict[str, Any]) -> str:
        return CODE("join_lines", char=CONTINUATION[p["char"]], sep=p["sep"])

    def slips(self, p: dict[str, Any]) -> list[Callable[[str], list[str]]]:
        def once(text: str) -> list[str]:  # no loop: two lines joined at most
            lines, out, i = text.splitlines(), [], 0
            while i < len(lines):
                if lines[i].endswith(p["char"]) and i < len(lines) - 1:
                    out.append(lines[i][:-1] + p["sep"] + lines[i + 1])
                    i += 2
                else:
                    out.append(lines[i])
                    i += 1
            return out

        def last_cut(text: str) -> list[str]:  # the last line's final character removed too
            out = self.output(text, p)
            return out[:-1] + [out[-1][:-1]] if out and out[-1].endswith(p["char"]) else out

        return [once, last_cut]


class DeleteBlocks(Edit):
    name, tier = "delete_blocks", 1

    def params(self, rng: random.Random) -> dict[str, Any]:
        start, stop = rng.choice(BLOCK_MARKERS)
        return {"start": start, "stop": stop, "inclusive": rng.random() < 0.5}

    def statement(self, p: dict[str, Any]) -> str:
        markers = ("the marker lines that open and close a block are deleted too" if p["inclusive"] else
                   f"every line that is exactly {p['start']} or exactly {p['stop']} is kept")
        return (f"The input is lines of text. A block starts at a line that is exactly {p['start']} and ends at the "
                f"next line after it that is exactly {p['stop']} (or at the end of the input when there is none). "
                f"Delete the lines of every block; {markers}. A {p['stop']} line outside any block is kept; "
                "every line outside the blocks is printed unchanged.")

    def text(self, rng: random.Random, p: dict[str, Any], lines: int) -> str:
        out = []
        for _ in range(lines):
            roll = rng.random()
            if roll < 0.15:
                out.append(p["start"])
            elif roll < 0.3:
                out.append(p["stop"])
            elif roll < 0.37:
                out.append(p["start"] + " " + rng.choice(WORDS))  # not exactly the marker
            elif roll < 0.42:
                out.append(p["stop"] + " " + rng.choice(WORDS))
            else:
                out.append(f"{rng.choice(WORDS)} {rng.randint(0, 99)}")
        at = rng.randint(0, len(out))  # at least one block
        out[at:at] = [p["start"], f"{rng.choice(WORDS)} {rng.randint(0, 99)}"]
        return "\n".join(out) + "\n"

    def output(self, text: str, p: dict[str, Any]) -> list[str]:
        def marker(line: str, which: str) -> bool:
            return line.startswith(p[which]) if p.get("start_prefix") else line == p[which]

        inside, out = False, []
        for line in text.splitlines():
            if not inside:
                if marker(line, "start"):
                    inside = True
                    if not p["inclusive"]:
                        out.append(line)
                    continue
                out.append(line)
            else:
                if marker(line, "stop"):
                    inside = False
                if not p["inclusive"] and (marker(line, "start") or marker(line, "stop")):
                    out.append(line)
        return out

    def slips(self, p: dict[str, Any]) -> list[Callable[[str], list[str]]]:
        def prefixes(text: str) -> list[str]:  # markers matched as prefixes (a regex not anchored at the end)
            return self.output(text, {**p, "start_prefix": True})

        def strays_deleted(text: str) -> list[str]:  # every marker line deleted, inside a block or not
            return [line for line in self.output(text, p) if line not in (p["start"], p["stop"])]

        def flipped(text: str) -> list[str]:  # the markers kept where deleted, and deleted where kept
            return self.output(text, {**p, "inclusive": not p["inclusive"]})

        def unclosed(text: str) -> list[str]:  # the stop marker never matched: the first block runs to the end
            return self.output(text, {**p, "stop": "\n"})  # no line holds a newline

        return [flipped, prefixes, unclosed, *([strays_deleted] if p["inclusive"] else [])]

    def script(self, p: dict[str, Any]) -> str:
        kind = "inclusive" if p["inclusive"] else "exclusive"
        return CODE(f"delete_blocks.{kind}", start=p["start"], stop=p["stop"])


class NthOccurrence(Edit):
    name, tier = "nth_occurrence", 2

    def params(self, rng: random.Random) -> dict[str, Any]:
        word, replacement = rng.sample(WORDS, 2)
        return {"word": word, "replacement": replacement.upper(), "n": rng.randint(2, 4),
                "onward": rng.random() < 0.5}

    def statement(self, p: dict[str, Any]) -> str:
        which = (f"the {ORDINALS[p['n']]} and every later occurrence" if p["onward"] else
                 f"only the {ORDINALS[p['n']]} occurrence")
        return (f"The input is lines of text. On every line, replace {which} of the string {p['word']} by "
                f"{p['replacement']}; occurrences are counted from the left, without overlapping, anywhere in the "
                "line (also inside longer words). Lines with fewer occurrences are printed unchanged.")

    def text(self, rng: random.Random, p: dict[str, Any], lines: int) -> str:
        out = []
        for _ in range(lines):
            pieces = [p["word"] + rng.choice(("", "", "s", "x")) if rng.random() < 0.45 else rng.choice(WORDS)
                      for _ in range(rng.randint(1, 7))]
            out.append(" ".join(pieces))
        return "\n".join(out) + "\n"

    def output(self, text: str, p: dict[str, Any]) -> list[str]:
        out = []
        for line in text.splitlines():
            pieces, count, start = [], 0, 0
            at = line.find(p["word"])
            while at >= 0:
                count += 1
                pieces.append(line[start:at])
                hit = count == p["n"] or (p["onward"] and count > p["n"])
                pieces.append(p["replacement"] if hit else p["word"])
                start = at + len(p["word"])
                at = line.find(p["word"], start)
            out.append("".join(pieces) + line[start:])
        return out

    def slips(self, p: dict[str, Any]) -> list[Callable[[str], list[str]]]:
        def whole_words(text: str) -> list[str]:  # only occurrences that are whole words counted
            out = []
            for line in text.splitlines():
                words, count = line.split(" "), 0
                for i, word in enumerate(words):
                    if word == p["word"]:
                        count += 1
                        if count == p["n"] or (p["onward"] and count > p["n"]):
                            words[i] = p["replacement"]
                out.append(" ".join(words))
            return out

        return [lambda text: self.output(text, {**p, "onward": not p["onward"]}), whole_words]

    def script(self, p: dict[str, Any]) -> str:
        return CODE("nth_occurrence", word=p["word"], replacement=p["replacement"],
                    flags=f"{p['n']}g" if p["onward"] else str(p["n"]))


EDITS: dict[str, Edit] = {e.name: e for e in (IniSet(), JoinLines(), DeleteBlocks(), NthOccurrence())}


@register
class SedTransforms(DrivenTask):
    id = "code/sed_transforms"
    description = "Write a sed script (ranges, hold/loop commands, numbered substitutions) for a stated line edit."
    tags = ("code", "programming", "sed", "shell", "text-processing")
    languages = ("bash",)
    toolchains = languages
    version = 3  # v3: delete_blocks's hidden inputs close a block (a script ignoring the stop marker passed)

    @dataclass(frozen=True)
    class Config:
        edits: tuple[str, ...]
        lines: int
        tests: int

    presets = (
        Config(("ini_set", "delete_blocks"), lines=6, tests=3),
        Config(("ini_set", "delete_blocks", "nth_occurrence"), lines=9, tests=3),
        Config(("ini_set", "delete_blocks", "nth_occurrence", "join_lines"), lines=12, tests=4),
        Config(("delete_blocks", "nth_occurrence", "join_lines"), lines=16, tests=4),
        Config(("ini_set", "nth_occurrence", "join_lines"), lines=22, tests=5),
    )
    growth = Growth(limits={"tests": 8, "lines": 3000}, factors={"lines": 1.4})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        edit = EDITS[rng.choice(config.edits)]
        p = edit.params(rng)

        def draw() -> tuple[str, list[str], list[list[str]]] | None:
            example = edit.text(rng, p, max(4, config.lines // 2))
            inputs = [edit.text(rng, p, rng.randint(max(3, config.lines // 2), config.lines))
                      for _ in range(config.tests)]
            outputs = [edit.output(text, p) for text in inputs]
            at_work = all(o != text.splitlines() for o, text in zip(outputs, inputs))
            shown = edit.output(example, p)
            if len({tuple(o) for o in outputs}) < config.tests or tuple(shown) in map(tuple, outputs) or not at_work \
                    or shown == example.splitlines():
                return None
            trimmed = [[line.rstrip() for line in o] for o in outputs]
            if not all(any([line.rstrip() for line in slip(text)] != o for text, o in zip(inputs, trimmed))
                       for slip in edit.slips(p)):
                return None  # some plausible wrong script would pass every hidden input
            return example, inputs, outputs

        example, inputs, outputs = retry(draw, attempts=200, what="hidden inputs the edit changes, all different")
        shown = "\n".join(edit.output(example, p))
        prompt = (
            f"Write a sed script. {edit.statement(p)}\n\nExample input:\n```\n{example.rstrip()}\n```\nExample "
            f"output:\n```\n{shown}\n```\n\nYour script is run as sed -E -f script.sed (GNU sed, extended regular "
            "expressions, LC_ALL=C) once per hidden input, reading it on stdin; its output is compared line by line "
            "with the expected output (trailing whitespace ignored). Answer with the whole sed script in one fenced "
            "code block labelled sed inside the answer tags, for example (the shape only):\n<answer>\n```sed\n"
            "/pattern/ s/old/new/\n```\n</answer>"
        )
        data = {"edit": edit.name, "params": p, "inputs": inputs, "expected": outputs, "example_output": shown,
                "languages": list(self.languages), "gold": "bash"}
        return Problem(prompt=prompt, answer=f"```sed\n{self.reference(data)}\n```", data=data)

    def reference(self, data: dict[str, Any]) -> str:
        return EDITS[data["edit"]].script(data["params"]).strip()

    def spellings(self, problem: Problem) -> list[str]:
        code = self.reference(problem.data)
        return [f"Here is the script.\n\n```sed\n{code}\n```", f"```\n{code}\n```"]

    def judge(self, problem: Problem, program: Program) -> Report:
        return judge_each_input(program, CODE, problem.data["inputs"], problem.data["expected"], MARKER,
                                self.cpu_seconds)

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        """A script that prints the example's output for any input, and the reference for other parameters of
        the edit where that changes some hidden output."""
        data = problem.data
        example = "\\\n".join(re.sub(r"([\\])", r"\\\1", line) for line in data["example_output"].splitlines())
        out = [f"```sed\n$!d\nc\\\n{example}\n```"]
        edit = EDITS[data["edit"]]
        changed = other_params(rng, data["params"], edit.params,
                               lambda q: [edit.output(text, q) for text in data["inputs"]], data["expected"])
        if changed is not None:
            out.append(f"```sed\n{edit.script(changed).strip()}\n```")
        return out

    def difficulty(self, problem: Problem) -> float:
        """The edit's tier plus log2 of the hidden inputs' length in characters."""
        return EDITS[problem.data["edit"]].tier + math.log2(1 + sum(map(len, problem.data["inputs"])))
