"""Produce a shortest edit script (insert, delete, replace operations in a stated grammar) turning A into B.

Many shortest scripts exist, so the verifier does not compare with one: it applies the answer to A (an
operation out of range is named), checks the result is B, and checks the script has exactly as many
operations as the edit distance (Levenshtein: insertions, deletions and substitutions of one letter),
computed by the textbook table at generation. A script that works but is longer is told so.

B is A with a few random edits, so the distance is small next to the lengths and the answer is a short
script, not a rewrite of the whole string.

Version 2: from level 2 up the pair is redrawn until no greedy scan gives a shortest script. In version 1 a
left-to-right scan (keep a matching letter; else insert or delete where one letter of look-ahead finds a match;
else replace) scored 0.67 at the top level, and the shortest of a dozen such scans 0.97, with no table filled.
The scans (left to right and right to left, look-ahead 1 to 3, with or without a check of the remaining lengths)
and the rewrite that replaces letter by letter then inserts or deletes at the end are declared as heuristics.

Generation speed: from level 2 about one draw in 30 qualifies (each is checked by the table and the scans), so a
problem takes about 10 ms at level 2 and 4 ms at level 4; kept because the greedy scans must not be paid.

Difficulty: the table cells the textbook algorithm fills, (|A| + 1)(|B| + 1), plus the distance, on the
drawn pair.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.strings.common import EDIT_GRAMMAR, Operation, apply_script, read_script, written_script
from palaestra.solvers.greedy_alignment import SCANS, greedy_scans

EXAMPLE = "replace 2 x\ninsert 0 y\ndelete 4"  # a fixed placeholder of the right shape: never derived from the answer


def edit_table(source: str, target: str) -> list[list[int]]:
    """The Levenshtein table: cell (i, j) is the distance between the first i letters of A and j of B."""
    table = [[i + j if i == 0 or j == 0 else 0 for j in range(len(target) + 1)] for i in range(len(source) + 1)]
    for i in range(1, len(source) + 1):
        for j in range(1, len(target) + 1):
            table[i][j] = min(
                table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + (source[i - 1] != target[j - 1])
            )
    return table


def shortest_script(source: str, target: str) -> list[Operation]:
    """A shortest script, traced back from the end of the table, so each operation's position is still the
    letter's index in A when it runs (everything it shifts lies to its right, already edited)."""
    table = edit_table(source, target)
    script: list[Operation] = []
    i, j = len(source), len(target)
    while i or j:
        if i and j and source[i - 1] == target[j - 1] and table[i][j] == table[i - 1][j - 1]:
            i, j = i - 1, j - 1
        elif i and j and table[i][j] == table[i - 1][j - 1] + 1:
            script.append(("replace", i - 1, target[j - 1]))
            i, j = i - 1, j - 1
        elif i and table[i][j] == table[i - 1][j] + 1:
            script.append(("delete", i - 1, ""))
            i -= 1
        else:
            script.append(("insert", i, target[j - 1]))
            j -= 1
    return script


def script_of(columns: list[tuple[str, str]]) -> list[Operation]:
    """The script that performs an alignment's columns left to right (positions in the string as it then is)."""
    script: list[Operation] = []
    position = 0
    for mine, theirs in columns:
        if not theirs:
            script.append(("delete", position, ""))
            continue
        if not mine:
            script.append(("insert", position, theirs))
        elif mine != theirs:
            script.append(("replace", position, theirs))
        position += 1
    return script


def iter_greedy_scripts(source: str, target: str) -> Iterator[list[Operation]]:
    """The greedy scans both ways and the letter-by-letter rewrite (cheap rules a policy could use instead of the
    table), one at a time: the commonest winner first, so a check that stops at the first short one is quick."""
    for columns in greedy_scans(source, target):
        yield script_of(columns)
    width = max(len(source), len(target))
    yield script_of(
        [(source[k] if k < len(source) else "", target[k] if k < len(target) else "") for k in range(width)]
    )


def greedy_scripts(source: str, target: str) -> list[list[Operation]]:
    return list(iter_greedy_scripts(source, target))


def random_edits(rng: random.Random, text: str, count: int, letters: str) -> str:
    """``text`` with ``count`` random single-letter insertions, deletions and substitutions."""
    result = list(text)
    for _ in range(count):
        kind = rng.choice(("insert", "delete", "replace") if len(result) > 1 else ("insert", "replace"))
        if kind == "insert":
            result.insert(rng.randint(0, len(result)), rng.choice(letters))
        elif kind == "delete":
            del result[rng.randrange(len(result))]
        else:
            result[rng.randrange(len(result))] = rng.choice(letters)
    return "".join(result)


@register
class EditScript(Task):
    id = "strings/edit_script"
    family = "strings"
    description = "Produce a shortest insert/delete/replace script turning one string into another."
    tags = ("strings", "algorithmic")
    version = 2
    distinct_from = {  # the near_duplicates kit check: why this is another skill than a similar env
        "strings/apply_edit_script": (
            "finding a shortest script between two strings (the edit table); "
            "the other runs a given script, tracking how positions shift"
        ),
    }

    @dataclass(frozen=True)
    class Config:
        length: int  # letters in A
        edits: int  # random edits that make B from A (the distance is at most this)
        alphabet: int  # distinct letters

    presets = (Config(6, 2, 3), Config(8, 3, 3), Config(10, 4, 4), Config(13, 5, 4), Config(16, 6, 4))
    growth = Growth(steps={"length": 3, "edits": 1})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        letters = string.ascii_lowercase[: config.alphabet]

        def draw() -> tuple[str, str]:
            source = "".join(rng.choice(letters) for _ in range(config.length))
            target = retry(
                lambda: random_edits(rng, source, rng.randint(1, config.edits), letters),
                lambda t: t != source,
                what="a different string",
            )
            return source, target

        def beats_greedy(pair: tuple[str, str]) -> bool:
            distance = edit_table(*pair)[-1][-1]
            return all(len(script) > distance for script in iter_greedy_scripts(*pair))

        # from level 2 no greedy scan gives a shortest script (about one draw in 30 qualifies)
        source, target = (
            draw()
            if config.length < 10
            else retry(draw, beats_greedy, attempts=3000, what="a pair on which every greedy scan is too long")
        )
        distance = edit_table(source, target)[-1][-1]
        prompt = (
            f"Turn the string A into the string B with as few operations as possible.\n\n"
            f"A = {source}\nB = {target}\n\n"
            f"Operations: {EDIT_GRAMMAR}.\n\n"
            f"Answer with the operations in the order they are applied, one per line, for example:\n{EXAMPLE}"
        )
        return Problem(
            prompt=prompt,
            answer=written_script(shortest_script(source, target)),
            data={"source": source, "target": target, "distance": distance},
        )

    def verify(self, problem: Problem, answer: str) -> Verdict:
        script = read_script(answer)
        if script is None:
            return Verdict.unparsed("expected operations such as insert 2 a, delete 0, replace 3 b, one per line")
        result, why = apply_script(problem.data["source"], script)
        if result is None:
            return Verdict.wrong(why)
        if result != problem.data["target"]:
            return Verdict.wrong(f"the script turns A into {result[:60]}, not B")
        if len(script) > problem.data["distance"]:
            return Verdict.wrong(f"the script works, but it has {len(script)} operations and a shorter one exists")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Cells of the edit-distance table for the drawn pair, plus the distance."""
        source, target = problem.data["source"], problem.data["target"]
        return float((len(source) + 1) * (len(target) + 1) + problem.data["distance"])

    def spellings(self, problem: Problem) -> list[str]:
        script = shortest_script(problem.data["source"], problem.data["target"])
        numbered = "\n".join(f"{n}. {line}" for n, line in enumerate(written_script(script).split("\n"), 1))
        return [
            *super().spellings(problem),
            written_script(script, ", "),
            written_script(script, "; "),
            *([numbered] if len(script) > 1 else []),
            written_script(script).replace("replace", "substitute"),
            f"Answer: {written_script(script, ', ')}.",
            f"\\boxed{{{written_script(script, ', ')}}}",
        ]

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def rule(index: int) -> Callable[[Problem], str]:
            return lambda problem: written_script(greedy_scripts(problem.data["source"], problem.data["target"])[index])

        names = [
            f"greedy scan {way}, look-ahead {look}{'' if guard else ', unguarded'}"
            for way in ("left to right", "right to left")
            for look, guard in SCANS
        ]
        return {name: rule(index) for index, name in enumerate([*names, "rewrite letter by letter"])}

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        source, target = problem.data["source"], problem.data["target"]
        script = shortest_script(source, target)
        wrong: list[list[Operation]] = [script[:-1]]
        kind, position, letter = script[-1]
        wrong.append([*script[:-1], (kind, position + 1, letter)])  # a position off by one
        if len(script) > 1:
            wrong.append([script[1], script[0], *script[2:]])  # two operations swapped
        # a longer script that works: delete the first letter, then put it back, then the rest
        wrong.append([*script, ("insert", 0, target[0]), ("delete", 0, "")])
        texts = [
            written_script(w)
            for w in wrong
            if w and (apply_script(source, w)[0] != target or len(w) > problem.data["distance"])
        ]
        return [*texts, f"{written_script(script)}\nor delete 0"]
