"""Group strings into anagram classes (strings with the same letters, counted with multiplicity).

The classes partition the strings, so the answer is unique as a set of sets: the verifier reads classes in
any order with their strings in any order (each class in braces or brackets, or one class per line), and
says which string is missing or repeated, which two strings in one class are not anagrams, or which two
anagrams were put in different classes.

The strings are random letter strings: several classes of rearrangements of one multiset of letters, and
single strings one letter away from a class (so sorting by length or first letter does not sort them out).
Where a class's letters repeat one, its near miss keeps the letter set and the length and changes the counts
(``aabc`` -> ``abbc``): v1 changed any letter, and grouping by length and letter set (ignoring how often each
letter occurs) scored 0.8, 0.7 and 0.38 at levels 0, 2 and 4; it is declared as a heuristic.

Difficulty: the letters a grouping by sorted letters reads (every string's length) plus the strings' count,
on the drawn list.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.verifiers.normalize import read_answer, strip_wrappers
from palaestra.verifiers.sets import read_set

EXAMPLE = "{pqr, rqp}, {xyz}"  # a fixed placeholder of the right shape: never derived from the answer


def _word(text: str) -> str | None:
    s = text.strip().strip("\"'`").lower()
    return s if s and len(s) <= 60 and all(c in string.ascii_lowercase for c in s) else None


def _class(text: str) -> frozenset[str] | None:
    if text.strip()[:1] not in "{[(":
        return None
    return read_set(text, _word, space_separated=True)


def _by_lines(text: str) -> frozenset[frozenset[str]] | None:
    """One class per line, its strings separated by commas or spaces (no brackets)."""
    lines = [line for line in strip_wrappers(text).split("\n") if line.strip()]
    if len(lines) < 2 or any(c in text for c in "{}[]()"):
        return None
    classes = [read_set(line, _word, space_separated=True) for line in lines]
    if any(c is None for c in classes) or len(set(classes)) != len(classes):
        return None
    return frozenset(c for c in classes if c is not None)


def read_classes(answer: str) -> frozenset[frozenset[str]] | None:
    """A set of classes, each a set of strings; ``None`` if unreadable."""
    if not isinstance(answer, str) or len(answer) > 20_000:
        return None
    return read_set(answer, _class) or read_answer(answer, _by_lines)


def signature(word: str) -> str:
    return "".join(sorted(word))


@register
class AnagramClasses(Task):
    id = "strings/anagram_classes"
    family = "strings"
    description = "Group strings into anagram classes (a set of sets, any order)."
    tags = ("strings", "algorithmic")
    version = 2

    @dataclass(frozen=True)
    class Config:
        classes: int  # classes of two strings or more
        largest_class: int  # the most strings in one class
        word_length: int  # the longest string

    presets = (Config(2, 3, 4), Config(3, 3, 5), Config(4, 4, 5), Config(5, 4, 6), Config(6, 5, 7))
    growth = Growth(steps={"classes": 2, "word_length": 1})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        letters_used = string.ascii_lowercase[: min(26, 6 + config.classes // 2)]  # more classes, more letters

        words: list[str] = []
        for _ in range(config.classes):
            letters = [rng.choice(letters_used) for _ in range(rng.randint(3, config.word_length))]
            drawn = ["".join(rng.sample(letters, len(letters))) for _ in range(rng.randint(2, config.largest_class))]
            # a near miss: one letter of the class changed, so it belongs elsewhere
            changed = list(drawn[-1])
            repeated = [i for i, c in enumerate(changed) if changed.count(c) > 1]
            # keep the letter set and the length, change the counts: grouping by letter set then fails
            if repeated and len(set(changed)) > 1:
                position = rng.choice(repeated)
                changed[position] = rng.choice(sorted({c for c in changed if c != changed[position]}))
            else:
                position = rng.randrange(len(changed))
                changed[position] = rng.choice([c for c in letters_used if c != changed[position]])
            drawn.append("".join(changed))
            words.extend(word for word in dict.fromkeys(drawn) if word not in words)  # each string listed once
        rng.shuffle(words)
        groups: dict[str, list[str]] = {}
        for word in words:
            groups.setdefault(signature(word), []).append(word)
        classes = sorted(groups.values(), key=lambda group: words.index(group[0]))
        prompt = (
            f"Two strings are anagrams when one is a rearrangement of the other's letters (each letter used as "
            f"many times). Group these {len(words)} strings into anagram classes: every string goes into exactly "
            f"one class, with all its anagrams; a string with no anagram in the list is a class of its own.\n\n"
            f"{' '.join(words)}\n\n"
            f"Answer with the classes, each in braces, separated by commas (in any order), for example: {EXAMPLE}"
        )
        answer = ", ".join("{" + ", ".join(group) + "}" for group in classes)
        return Problem(prompt=prompt, answer=answer, data={"words": words, "classes": classes})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        classes = read_classes(answer)
        if classes is None:
            return Verdict.unparsed("expected classes in braces separated by commas, such as {abc, cab}, {bca}")
        words = problem.data["words"]
        placed = [word for group in classes for word in group]
        unknown = next((word for word in placed if word not in words), None)
        if unknown is not None:
            return Verdict.wrong(f"{unknown[:40]} is not one of the strings")
        if len(placed) != len(set(placed)):
            twice = next(word for word in placed if placed.count(word) > 1)
            return Verdict.wrong(f"{twice} is in two classes")
        missing = next((word for word in words if word not in placed), None)
        if missing is not None:
            return Verdict.wrong(f"{missing} is in no class")
        for group in classes:
            members = sorted(group)
            stranger = next((word for word in members if signature(word) != signature(members[0])), None)
            if stranger is not None:
                return Verdict.wrong(f"{members[0]} and {stranger} are in one class but are not anagrams")
        home = {word: group for group in classes for word in group}
        split = next(((a, b) for a in words for b in words
                      if a < b and signature(a) == signature(b) and home[a] != home[b]), None)
        if split is not None:
            return Verdict.wrong(f"{split[0]} and {split[1]} are anagrams but in different classes")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Letters read to group the drawn strings by their sorted letters, plus the strings' count."""
        words = problem.data["words"]
        return float(len(words) + sum(len(word) for word in words))

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def letter_set(problem: Problem) -> str:
            groups: dict[tuple[int, str], list[str]] = {}
            for word in problem.data["words"]:
                groups.setdefault((len(word), "".join(sorted(set(word)))), []).append(word)
            return ", ".join("{" + ", ".join(group) + "}" for group in groups.values())

        return {"same length and letter set": letter_set}

    def spellings(self, problem: Problem) -> list[str]:
        classes = problem.data["classes"]
        reordered = ", ".join("{" + ", ".join(reversed(group)) + "}" for group in reversed(classes))
        brackets = "[" + ", ".join("[" + ", ".join(f"'{w}'" for w in group) + "]" for group in classes) + "]"
        lines = "\n".join(", ".join(group) for group in classes)
        semicolons = "; ".join("{" + " ".join(group) + "}" for group in classes)
        return [*super().spellings(problem), reordered, brackets, lines, semicolons, f"\\boxed{{{problem.answer}}}",
                f"Answer: {problem.answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        classes = [list(group) for group in problem.data["classes"]]

        def written(groups: list[list[str]]) -> str:
            return ", ".join("{" + ", ".join(group) + "}" for group in groups if group)

        wrong: list[str] = []
        singles = [i for i, group in enumerate(classes) if len(group) == 1]
        larger = [i for i, group in enumerate(classes) if len(group) > 1]
        if singles and larger:  # a near-miss string put with the class it nearly belongs to
            i, j = rng.choice(singles), rng.choice(larger)
            merged = [group for k, group in enumerate(classes) if k not in (i, j)] + [classes[j] + classes[i]]
            wrong.append(written(merged))
        if larger:  # one class split in two
            j = rng.choice(larger)
            wrong.append(written([group for k, group in enumerate(classes) if k != j]
                                 + [classes[j][:1], classes[j][1:]]))
        wrong.append(written(classes[:-1]))
        wrong.append(written([[word for group in classes for word in group]]))
        return [*wrong, f"{problem.answer} or {wrong[0]}"]
