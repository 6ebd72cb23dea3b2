"""Regular-expression matching: which of k numbered strings does this expression match in full? (a set)

A random expression (literals, classes such as ``[ab]``, concatenation, ``|``, ``*``, ``+``,
``?``; see :mod:`palaestra.envs.languages._regex`) and k numbered strings (6 at levels 0-1, 7 at
2-3, 8 at 4, one more per level past the presets up to 12). Past the presets the expression gains one
leaf per level up to 34 (level 25) and a star or plus repeats at most one more time per level up to 10
(level 10). Each string is judged on its own: a
fair coin per string, drawn first, makes it a *member* (a string drawn from the expression) or a
*near miss* (such a string with one letter changed, inserted, deleted, or two neighbours swapped,
new letters only from those the expression uses, that the expression does not match), so members
and near misses share lengths and letters. A near miss must also keep the expression's ends and
neighbours (its first and last letters can begin and end a match, each pair of neighbouring
letters can stand together in one: :func:`~palaestra.envs.languages._regex.local_view`), as every
member does, so that a reader who checks only those cannot tell the two apart; telling them apart
takes matching the whole string (counting repeats, keeping alternatives apart). For every string a
member and a near miss are drawn as a pair and the coin picks which is shown; an expression is kept
only when k such pairs exist with all 2k strings distinct, whatever the coins, so the expressions
themselves (their stars, their length) say nothing about which strings match. The truth comes from
RE2 (full match).

The answer is the set of the numbers of the matched strings, in any order (``2, 5, 6``;
``{2, 5, 6}``; ``Strings 2 and 5``), or ``none`` when no string matches. Every count 0..k is
possible (the coins are independent; no match at all has chance 2^-k, 1/64 at level 0).

Version 2: several independent judgements answered together. Version 1 asked about one string
(yes or no, balanced), so a coin or the constant ``yes`` or ``no`` earned 0.44-0.56 at every
level. Now each set has chance 2^-k: over 200 seeds per level, the best of the ten most common
answers, ``none``, all strings, the odd or even numbers, the prompt's example, the shortest or
longest half, the strings with only the expression's letters, and random subsets each score at
most 0.04 at every level, and the ends-and-neighbours check scores 2^-k (it calls every string a
member; without the rule on near misses it scored 0.40 at level 0). A policy that judges each
string right with probability p earns p^k.

Version 3: levels past the presets cap the repeats at 10 and the leaves at 34 (levels 0-9 unchanged).
Nested stars multiply their repeats, so with both growing a level-40 string ran to 10^5 letters and
generation stalled (over 8 s of CPU at 3 of 8 seeds, 0.6 s at the median; 2.4 s at level 30); with the caps,
the slowest of 2,000 seeds at level 25 and beyond takes 0.33 s.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.languages._regex import (
    LocalView,
    Node,
    compile_trusted,
    local_view,
    mutate,
    parse,
    passes_local_view,
    random_regex,
    render,
    sample,
)
from palaestra.verifiers.normalize import strip_wrappers
from palaestra.verifiers.sets import numbered, read_set

SYNTAX = ("| separates alternatives, * means zero or more of the preceding item, + one or more, ? zero or one, "
          "[ab] one letter out of those listed, and parentheses group")
EXAMPLE = "2, 5"  # the notation, whatever the answer
PAIR_ATTEMPTS = 4  # members tried per string before the expression is drawn again
MUTATIONS = 8  # edits tried per member for a near miss

# "Strings 2, 5", "The matched strings are: 2, 5", "Matches: 2 and 5"
_LABEL = re.compile(r"^\s*(?:the\s+)?(?:(?:matching|matched)\s+)?(?:strings?|numbers?|matches)"
                    r"(?:\s+(?:matched|numbers?))?(?:\s+(?:that|which)\s+(?:it\s+)?match(?:es)?)?"
                    r"\s*(?:are\b|is\b)?\s*[:=]?\s*", re.IGNORECASE)
_NUMBER_NOUNS = ("string", "no.")  # "string 5", "No. 5"; not "no 5": that may mean "not 5"


def read_numbers(answer: str, count: int) -> frozenset[int] | None:
    """The set of string numbers an answer names (empty for ``none``), or None when it is not such a set."""
    if not isinstance(answer, str):
        return None
    answer = strip_wrappers(answer)
    label = _LABEL.match(answer)
    if label and label.end() < len(answer.rstrip()):
        answer = answer[label.end():]
    said = read_set(answer, numbered(count, _NUMBER_NOUNS), allow_empty=True,
                    empty_words=("no strings", "no string", "none of them", "none of the strings", "none match",
                                 "no matches"))
    if said is None:  # "1 3 4": the numbers separated by spaces only
        said = read_set(answer, numbered(count, _NUMBER_NOUNS), space_separated=True)
    return said


def spell(numbers: list[int]) -> str:
    return ", ".join(map(str, numbers)) if numbers else "none"


def _pair(rng: random.Random, tree: Node, matcher: Any, view: LocalView, letters: str, max_repeat: int,
          seen: set[str]) -> tuple[str, str] | None:
    """A string the expression matches and a near miss of it, both new to ``seen``; drawn the same way
    whichever of them is shown. The near miss keeps the expression's ends and neighbours (as every member
    does), so checking only those does not tell it from a member."""
    for _ in range(PAIR_ATTEMPTS):
        string = sample(rng, tree, max_repeat)
        if len(string) < 2 or string in seen:
            continue
        near_misses = {mutate(rng, string, letters) for _ in range(MUTATIONS)}
        plausible = sorted(m for m in near_misses if m and m not in seen and passes_local_view(view, m)
                           and matcher.fullmatch(m) is None)
        if plausible:
            return string, plausible[rng.randrange(len(plausible))]
    return None


@register
class RegexMatch(Task):
    id = "languages/regex_match"
    family = "languages"
    description = "Say which of several numbered strings a regular expression matches in full (a set of numbers)."
    tags = ("formal-languages", "regex", "classification")
    version = 3

    @dataclass(frozen=True)
    class Config:
        leaves: int
        alphabet: str
        max_repeat: int
        strings: int

    presets = (
        Config(leaves=4, alphabet="abc", max_repeat=3, strings=6),
        Config(leaves=6, alphabet="abc", max_repeat=3, strings=6),
        Config(leaves=8, alphabet="abc", max_repeat=3, strings=7),
        Config(leaves=10, alphabet="abcd", max_repeat=3, strings=7),
        Config(leaves=13, alphabet="abcd", max_repeat=4, strings=8),
    )
    # repeats and leaves capped: nested stars multiply the repeats, so strings (and generation time) grow
    # without bound past these (see the docstring, version 3)
    growth = Growth(steps={"leaves": 1, "max_repeat": 1, "strings": 1},
                    limits={"strings": 12, "max_repeat": 10, "leaves": 34})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        members = [rng.random() < 0.5 for _ in range(config.strings)]

        def draw() -> tuple[str, list[str]] | None:
            tree = random_regex(rng, config.leaves, config.alphabet)
            pattern = render(tree)
            matcher = compile_trusted(pattern)
            # only letters the expression uses: a foreign letter would give a near miss away
            letters = "".join(sorted({ch for ch in pattern if ch.isalpha()}))
            view = local_view(tree)
            seen: set[str] = set()
            shown: list[str] = []
            for member in members:
                pair = _pair(rng, tree, matcher, view, letters, config.max_repeat, seen)
                if pair is None:
                    return None
                seen.update(pair)
                shown.append(pair[0] if member else pair[1])
            return pattern, shown

        pattern, strings = retry(draw, what="an expression with distinct members and near misses")
        listing = "\n".join(f'{i}. "{string}"' for i, string in enumerate(strings, 1))
        prompt = (
            f"Regular expression: {pattern}\n({SYNTAX}.)\n\nStrings:\n{listing}\n\n"
            "Which of these strings does the regular expression match in full (from the string's first letter to "
            "its last)? Judge each string on its own. Answer with the numbers of the strings it matches, in any "
            f"order, separated by commas (for example: {EXAMPLE}), or none if it matches none of them."
        )
        answer = spell([i for i, member in enumerate(members, 1) if member])
        return Problem(prompt=prompt, answer=answer, data={"pattern": pattern, "strings": strings})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        strings = problem.data["strings"]
        said = read_numbers(answer, len(strings))
        if said is None:
            return Verdict.unparsed(f"expected the numbers of the matched strings (1-{len(strings)}) "
                                    "separated by commas, or none")
        matcher = compile_trusted(problem.data["pattern"])
        truth = {i for i, string in enumerate(strings, 1) if matcher.fullmatch(string) is not None}
        return Verdict.judge(said == truth)

    def difficulty(self, problem: Problem) -> float:
        """The expression's length plus the strings' mean length, times the number of strings."""
        strings = problem.data["strings"]
        return float(len(problem.data["pattern"]) + sum(map(len, strings)) / len(strings)) * len(strings)

    def surface_features(self, problem: Problem) -> dict[str, float]:
        strings, pattern = problem.data["strings"], problem.data["pattern"]
        return {"strings": float(len(strings)), "pattern length": float(len(pattern)),
                "letters in pattern": float(sum(ch.isalpha() for ch in pattern)),
                "stars": float(pattern.count("*") + pattern.count("+")),
                "mean length": sum(map(len, strings)) / len(strings),
                "letters not in pattern": float(sum(ch not in pattern for s in strings for ch in s))}

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        """Guesses that read the strings' look, not the expression (lengths, numbers, coins), and a reader who
        checks only each string's first and last letters and neighbouring pairs against the expression."""
        def by_length(problem: Problem, longest: bool) -> str:
            strings = problem.data["strings"]
            order = sorted(range(1, len(strings) + 1), key=lambda i: (len(strings[i - 1]) * (-1 if longest else 1), i))
            return spell(sorted(order[: len(strings) // 2]))

        def coins(problem: Problem) -> str:
            rng = random.Random(f"{problem.seed} coins")
            return spell([i for i in range(1, len(problem.data["strings"]) + 1) if rng.random() < 0.5])

        def parity(problem: Problem, odd: bool) -> str:
            return spell(list(range(1 if odd else 2, len(problem.data["strings"]) + 1, 2)))

        def own_letters(problem: Problem) -> str:
            letters = set(problem.data["pattern"])
            return spell([i for i, s in enumerate(problem.data["strings"], 1) if set(s) <= letters])

        def ends_and_neighbours(problem: Problem) -> str:
            view = local_view(parse(problem.data["pattern"]))
            return spell([i for i, s in enumerate(problem.data["strings"], 1) if passes_local_view(view, s)])

        return {"ends and neighbours": ends_and_neighbours, "longest half": lambda p: by_length(p, True), "shortest half": lambda p: by_length(p, False),
                "a coin per string": coins, "odd numbers": lambda p: parity(p, True),
                "even numbers": lambda p: parity(p, False), "only the expression's letters": own_letters}

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        if gold == "none":
            return [*super().spellings(problem), "None.", "NONE", "{}", "None of them."]
        items = gold.split(", ")
        return [*super().spellings(problem), "{" + gold + "}", ", ".join(reversed(items)), f"Strings {gold}.",
                " and ".join(items) if len(items) == 2 else "; ".join(items), f"**{gold}**",
                "The matched strings are: " + ", ".join(f"#{i}" for i in items)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        count = len(problem.data["strings"])
        truth = [] if problem.answer == "none" else [int(i) for i in (problem.answer or "").split(", ")]
        flipped = rng.randint(1, count)
        wrong = sorted(set(truth) ^ {flipped})
        others = [i for i in range(1, count + 1) if i not in truth]
        wrong_answers = [spell(wrong), f"{problem.answer}, no wait, {spell(wrong)}", f"{spell(wrong)} or {problem.answer}",
                         spell([*truth, count + 1])]
        if others:
            wrong_answers.append(f"{problem.answer} or {others[0]}" if truth else f"none or {others[0]}")
        if truth:
            wrong_answers.append(f"{spell(truth)}, {truth[0]}")  # a number given twice
        return wrong_answers
