"""Apply an edit script (insert, delete, replace operations in a stated grammar) to a string.

The script's positions count from 0 in the string as it is when each operation runs, so every insertion
and deletion shifts the positions of the later ones: the result is a function of the string and the
script, unique. The verifier reads one word and compares it with the result computed at generation,
naming the first wrong position or a wrong length.

Version 2: a script is redrawn until reading its positions in the original string gives another result
(that reading answered 0.60 of level 0, 0.51 of level 1 and 0.22 of level 2).

Difficulty: the operations, plus the letters the positional bookkeeping has to track (for every insertion
or deletion, the operations after it), plus the string's length, on the drawn script.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.strings.common import (
    EDIT_GRAMMAR,
    Operation,
    apply_script,
    read_word,
    word_spellings,
    written_script,
)

EXAMPLE = "pqqrp"  # a fixed placeholder of the right shape: never derived from the answer


def random_script(rng: random.Random, text: str, count: int, letters: str) -> list[Operation]:
    """``count`` random operations, each in range for the string as it is when it runs."""
    script: list[Operation] = []
    length = len(text)
    for _ in range(count):
        kind = rng.choice(("insert", "delete", "replace") if length > 1 else ("insert", "replace"))
        if kind == "insert":
            script.append(("insert", rng.randint(0, length), rng.choice(letters)))
            length += 1
        elif kind == "delete":
            script.append(("delete", rng.randrange(length), ""))
            length -= 1
        else:
            script.append(("replace", rng.randrange(length), rng.choice(letters)))
    return script


def original_positions(text: str, script: list) -> str:
    """The script applied with every position read in the original string (the misreading the prompt rules
    out): letters inserted before position P, the letter at P deleted or replaced (the last replacement wins)."""
    inserted: dict[int, str] = {}
    deleted: set[int] = set()
    replaced: dict[int, str] = {}
    for kind, position, letter in script:
        if kind == "insert":
            inserted[position] = inserted.get(position, "") + letter
        elif kind == "delete":
            deleted.add(position)
        else:
            replaced[position] = letter
    return "".join(inserted.get(i, "") + ("" if i in deleted or i == len(text) else replaced.get(i, text[i]))
                   for i in range(len(text) + 1))


@register
class ApplyEditScript(Task):
    id = "strings/apply_edit_script"
    family = "strings"
    description = "Apply an insert/delete/replace edit script (positions shift as it runs) to a string."
    tags = ("strings", "algorithmic")
    version = 2
    distinct_from = {  # the near_duplicates kit check: why this is another skill than a similar env
        "strings/edit_script": ("running a given script, tracking how positions shift; "
                                "the other asks for a shortest script between two strings (the edit table)"),
    }

    @dataclass(frozen=True)
    class Config:
        length: int  # letters in the starting string (drawn up to 2 either side)
        operations: int  # the most operations in the script
        alphabet: int  # distinct letters

    presets = (Config(6, 3, 3), Config(8, 4, 3), Config(10, 6, 4), Config(13, 8, 4), Config(16, 10, 4))
    growth = Growth(steps={"length": 3, "operations": 2})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        letters = string.ascii_lowercase[: config.alphabet]
        def draw() -> tuple[str, list]:
            text = "".join(rng.choice(letters) for _ in range(config.length + rng.randint(-2, 2)))
            count = rng.randint(max(2, config.operations // 2), config.operations)
            return text, random_script(rng, text, count, letters)

        # the shifting must matter: reading every position in the original string answered 0.60 of level 0
        text, script = retry(draw, lambda drawn: apply_script(*drawn)[0] != original_positions(*drawn),
                             what="an edit script whose positions shift")
        result, _ = apply_script(text, script)
        prompt = (
            f"Apply this edit script to the string {text}:\n\n{written_script(script)}\n\n"
            f"Operations: {EDIT_GRAMMAR}.\n\n"
            f"Answer with the resulting string, for example: {EXAMPLE}"
        )
        shifting = sum(len(script) - n - 1 for n, (kind, _, _) in enumerate(script) if kind != "replace")
        return Problem(prompt=prompt, answer=result,
                       data={"text": text, "script": [list(op) for op in script], "result": result,
                             "shifting": shifting})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        written = read_word(answer, string.ascii_lowercase, "string|result|word")
        if written is None:
            return Verdict.unparsed("expected one string of letters, such as abcab")
        written, result = written.lower(), problem.data["result"]
        if len(written) != len(result):
            return Verdict.wrong(f"the result has {len(result)} letters, not {len(written)}")
        wrong = next((i for i, (w, r) in enumerate(zip(written, result, strict=True)) if w != r), None)
        if wrong is not None:
            return Verdict.wrong(f"the letter at position {wrong} (from 0) is wrong")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Operations, the later operations each insertion or deletion shifts, and the string's length."""
        return float(len(problem.data["script"]) + problem.data["shifting"] + len(problem.data["text"]))

    def spellings(self, problem: Problem) -> list[str]:
        result = problem.data["result"]
        return [*super().spellings(problem), *word_spellings(result), result.upper()]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        text, result = problem.data["text"], problem.data["result"]
        script: list[Operation] = [(op[0], op[1], op[2]) for op in problem.data["script"]]
        # a near miss: every position read in the original string instead of the current one
        unshifted = list(text)
        for kind, position, letter in sorted(script, key=lambda op: -op[1]):
            if kind == "insert":
                unshifted.insert(min(position, len(unshifted)), letter)
            elif unshifted and kind == "delete":
                del unshifted[min(position, len(unshifted) - 1)]
            elif unshifted:
                unshifted[min(position, len(unshifted) - 1)] = letter
        wrong = ["".join(unshifted), apply_script(text, script[:-1])[0] or text, text, result[:-1] or result + "a"]
        swaps = [i for i in range(len(result) - 1) if result[i] != result[i + 1]]
        if swaps:
            i = rng.choice(swaps)
            wrong.append(result[:i] + result[i + 1] + result[i] + result[i + 2:])
        return [w for w in dict.fromkeys(wrong) if w != result] + [f"{result} or {text}"]
