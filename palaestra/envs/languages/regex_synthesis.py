"""Write a regular expression that matches the given positive strings and none of the negative ones.

A hidden random expression (see :mod:`palaestra.envs.languages._regex`) supplies the positive
strings; the negatives are mostly near misses of them (one letter changed, inserted, deleted or
two swapped) that the hidden expression rejects, plus a few random strings. The answer must be
at most a stated number of characters: the hidden expression's length plus a little, far below
what listing the positives would take, so the examples have to be generalised. Any expression
within the limit that fully matches every positive and no negative scores.

Model-written patterns are judged only by Google's RE2 (:func:`~palaestra.envs.languages._regex.
compile_untrusted`: linear-time matching, no back-references, a length cap and a memory cap on
the compiled program), never by Python's backtracking ``re``. A pattern RE2 cannot read is
unparsed; one over the length limit is wrong.

Version 2: the prompt's example is always ``(ab|c)*a``, and problems it would solve are drawn again (it
used to be swapped for another example exactly when it fitted, which told that it fitted: 2 of 300 level-0
problems).

Version 3: surface features no longer separate the lists. Often every negative had a letter no positive has, or
began, ended or was sized unlike every positive, so a pattern read off those features alone (``[ab]*`` over the
positives' letters, ``a[ab]*``, ``[ab]*b``, ``[ab]{3,9}``) matched all positives and no negative: one of them fitted
0.30 of level 0, 0.28 of level 1 and 0.20 of level 3 (40 seeds a level). Now at least one negative lies inside that
envelope (only the positives' letters, a first and a last letter some positive has, a length between theirs), so
each of those patterns matches it and none fits any problem; telling the lists apart takes their structure.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.languages._regex import compile_untrusted, matches, mutate, random_regex, render, sample
from palaestra.verifiers.normalize import strip_wrappers, unify

EXAMPLE = "(ab|c)*a"  # the prompt's syntax example: fixed, and never an answer (such problems are redrawn)


@register
class RegexSynthesis(Task):
    id = "languages/regex_synthesis"
    family = "languages"
    description = "Write a short regular expression accepting given positive strings and rejecting negative ones."
    tags = ("formal-languages", "regex", "synthesis", "induction")
    version = 3  # v3: a negative inside the positives' letters, ends and lengths (surface patterns fail)
    max_answer_chars = 2_000

    @dataclass(frozen=True)
    class Config:
        leaves: int
        alphabet: str
        positives: int
        negatives: int
        slack: int  # characters allowed beyond the hidden expression's length

    presets = (
        Config(leaves=4, alphabet="ab", positives=6, negatives=6, slack=4),
        Config(leaves=5, alphabet="ab", positives=7, negatives=7, slack=4),
        Config(leaves=6, alphabet="abc", positives=8, negatives=8, slack=4),
        Config(leaves=7, alphabet="abc", positives=9, negatives=9, slack=4),
        Config(leaves=9, alphabet="abc", positives=10, negatives=10, slack=4),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def draw() -> tuple[str, list[str], list[str]] | None:
            tree = random_regex(rng, config.leaves, config.alphabet)
            pattern = render(tree)
            positives: set[str] = set()
            for _ in range(20 * config.positives):
                if len(positives) >= config.positives:
                    break
                string = sample(rng, tree, 5)
                if 1 <= len(string) <= 14:
                    positives.add(string)
            if len(positives) < config.positives:
                return None  # a language with too few short strings
            negatives: set[str] = set()
            pool = sorted(positives)
            for attempt in range(30 * config.negatives):
                if len(negatives) >= config.negatives:
                    break
                if attempt % 4 == 3:  # now and then a random string, not only near misses
                    string = "".join(rng.choice(config.alphabet) for _ in range(rng.randint(1, 8)))
                else:
                    string = mutate(rng, rng.choice(pool), config.alphabet)
                if string and string not in positives and not matches(pattern, string):
                    negatives.add(string)
            if len(negatives) < config.negatives:
                return None  # the expression matches almost everything
            if not any(_inside_envelope(string, pool) for string in negatives):
                return None  # the positives' letters, ends or lengths alone would tell the lists apart
            limit = len(pattern) + config.slack
            if sum(len(p) + 1 for p in positives) <= 2 * limit:
                return None  # listing the positives would fit: no generalising needed
            if _fits(EXAMPLE, {"positives": pool, "negatives": sorted(negatives)}):
                return None  # the fixed example must not be an answer (a shown example never depends on the data)
            return pattern, rng.sample(pool, len(pool)), rng.sample(sorted(negatives), len(negatives))

        pattern, positives, negatives = retry(draw, what="a hidden expression with enough examples")
        limit = len(pattern) + config.slack
        prompt = (
            "Write a regular expression that matches every string in the first list and none of the strings in the "
            "second list. It must match whole strings (as if anchored at both ends).\n\n"
            f"Match: {', '.join(positives)}\nDo not match: {', '.join(negatives)}\n\n"
            f"The expression may be at most {limit} characters long. Use the usual syntax: letters, [ab] for one "
            "letter out of a set, . for any letter, | for alternatives, *, +, ?, {m,n} for repetition, and "
            "parentheses (RE2 syntax; no back-references or look-around).\n"
            f"Give the expression alone, for example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=pattern, data={
            "positives": positives, "negatives": negatives, "limit": limit, "hidden_length": len(pattern),
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        pattern = read_pattern(answer)
        if pattern is None:
            return Verdict.unparsed("expected one regular expression")
        limit = problem.data["limit"]
        if len(pattern) > limit:
            return Verdict.wrong(f"the expression has {len(pattern)} characters; at most {limit} are allowed")
        matcher = compile_untrusted(pattern, limit)
        if matcher is None:
            return Verdict.unparsed("not a regular expression RE2 can read")
        for string in problem.data["positives"]:
            if matcher.fullmatch(string) is None:
                return Verdict.wrong(f'the expression does not match "{string}"')
        for string in problem.data["negatives"]:
            if matcher.fullmatch(string) is not None:
                return Verdict.wrong(f'the expression matches "{string}"')
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """The hidden expression's length times the number of examples."""
        examples = len(problem.data["positives"]) + len(problem.data["negatives"])
        return float(problem.data["hidden_length"] * examples)

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), f"`{gold}`", f"/{gold}/", f'r"{gold}"', f"({gold})",
                f"```regex\n{gold}\n```"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold = problem.answer or ""
        data = problem.data
        wrong = ["|".join(data["positives"]), f"({gold})|{data['negatives'][0]}", ".*", f"{gold} or {gold}"]
        for _ in range(10):
            i = rng.randrange(len(gold))
            if gold[i].isalpha():
                candidate = gold[:i] + rng.choice([c for c in "abc" if c != gold[i]]) + gold[i + 1 :]
                if not _fits(candidate, data):
                    wrong.append(candidate)
                    break
        return wrong


def _inside_envelope(string: str, positives: list[str]) -> bool:
    """Whether ``string`` has only the positives' letters, a first and a last letter some positive has, and a length
    between the shortest and the longest positive: every pattern built from those features alone matches it."""
    return (set(string) <= set("".join(positives))
            and any(p[0] == string[0] for p in positives) and any(p[-1] == string[-1] for p in positives)
            and min(map(len, positives)) <= len(string) <= max(map(len, positives)))


def _fits(pattern: str, data: dict) -> bool:
    return (all(matches(pattern, s) for s in data["positives"])
            and not any(matches(pattern, s) for s in data["negatives"]))


def read_pattern(text: str) -> str | None:
    """The expression written in ``text``: wrappers (code fences, backticks, quotes, ``/.../``, ``r"..."``)
    removed, no trailing remark allowed (``.`` and most symbols mean something in a pattern)."""
    if not isinstance(text, str) or len(text) > RegexSynthesis.max_answer_chars:
        return None
    s = strip_wrappers(unify(text))
    if len(s) >= 3 and s[0] == "r" and s[1] in "\"'" and s[-1] == s[1]:
        s = s[2:-1]
    if len(s) >= 2 and s[0] == "/" and s[-1] == "/":
        s = s[1:-1]
    if len(s) >= 2 and s[0] == "^" and s[-1] == "$" and not s.endswith("\\$"):
        s = s[1:-1]  # explicit anchors say nothing more: the match is whole-string anyway
    return s or None
