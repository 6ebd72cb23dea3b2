"""Rule induction over a finite hypothesis space: which listed rules fit these labelled examples?

Numbers from 1 to 99 are labelled yes or no by a hidden rule. The candidate rules are listed
(divisibility, comparisons, parity, last or contained digits, digit sums, primes, squares,
ranges, and at the upper levels conjunctions and disjunctions of these), every candidate
with a different set of yes-numbers. The answer is the set of every candidate that agrees with
all the examples (``B, D`` in any order, ``{B, D}``, ``Rules B and D``, ``\\boxed{B, D}``, or the rules'
texts one per line); one to three candidates fit, the hidden rule among them.

Version 3: the answer was the letter of the only fitting rule, so a constant letter earned one over the
number of candidates (0.22-0.26 at level 0, up to 0.17 at level 4 over 300 problems), and a reader who
took the first rule fitting the three smallest examples earned 0.81-0.91 at every level. Now the answer
is the set of fitting rules, drawn uniformly among all sets of one to three of the 6-10 candidates (41
sets at level 0, 175 at level 4; the size is drawn before any redraw, and the fitting places at random,
so the letters stay uniform), so a constant set earns 1/41 or less in expectation (at most 0.057
measured over 300 problems of any level: the ten commonest answers, each letter, ``all``, ``none``,
``A, B``). The examples lie among the numbers where every fitting rule agrees with the hidden one: each rules
out a candidate still standing, then random ones fill up to five, and they are redrawn until every lazy
view is wrong: the candidates fitting only the yes- or only the no-examples, the smaller or larger half,
the three smallest or the three largest examples always include a candidate that the other examples rule
out (declared as heuristics with the first rule fitting the three smallest examples, the shortest rule
and a random set of 1-3 letters: at most 0.066, at level 0 over 1000 problems). A reader who skips a
single example is right about 0.55-0.67 of the time: that is most of the work, and examples that are
each the only one ruling a candidate out would be two or three per problem. The set is unique by
construction: the verifier recomputes it from the rules' yes-sets (kept in the problem's data) and the
examples, and generation re-checks it is the drawn one. The prompt's example ``B, D`` is fixed,
independent of the answer.

Generation speed: about 850-1,000 problems/s at level 4 on this 2-core machine, near the 1,000 mark. About 2
draws per problem; each draws the fitting rules and the other candidates (every rule evaluated on the numbers), then
examples until every lazy reading of them (ignoring some examples) leaves a wrong candidate standing, testing every
candidate against each reading: that is what keeps a careless reader from the answer.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.envs.deduction.common import without_label
from palaestra.verifiers.choices import read_choice
from palaestra.verifiers.sets import read_set

_NUMBERS = range(1, 100)
_PRIMES = frozenset(n for n in _NUMBERS if n > 1 and all(n % d for d in range(2, int(n ** 0.5) + 1)))
_LETTERS = "ABCDEFGHIJ"
_RANGE = re.compile(r"between \d+ and \d+")
EXAMPLE = "B, D"  # the prompt's example answer: fixed, independent of the problem's answer
MAX_ANSWER_CHARS = 4_000


def _atom(rng: random.Random) -> tuple[str, frozenset[int]]:
    """A random simple rule: its wording and the numbers 1-99 it says yes to."""
    kind = rng.choice(("divisible", "greater", "less", "parity", "last_digit", "contains", "digit_sum", "prime",
                       "square", "between"))
    if kind == "divisible":
        k = rng.randint(3, 9)
        return f"is divisible by {k}", frozenset(n for n in _NUMBERS if n % k == 0)
    if kind == "greater":
        t = rng.randint(10, 89)
        return f"is greater than {t}", frozenset(n for n in _NUMBERS if n > t)
    if kind == "less":
        t = rng.randint(11, 90)
        return f"is less than {t}", frozenset(n for n in _NUMBERS if n < t)
    if kind == "parity":
        even = rng.random() < 0.5
        return ("is even" if even else "is odd"), frozenset(n for n in _NUMBERS if (n % 2 == 0) == even)
    if kind == "last_digit":
        d = rng.randint(0, 9)
        return f"ends in the digit {d}", frozenset(n for n in _NUMBERS if n % 10 == d)
    if kind == "contains":
        d = rng.randint(1, 9)
        return f"contains the digit {d}", frozenset(n for n in _NUMBERS if str(d) in str(n))
    if kind == "digit_sum":
        even = rng.random() < 0.5
        return (f"has an {'even' if even else 'odd'} digit sum",
                frozenset(n for n in _NUMBERS if (sum(map(int, str(n))) % 2 == 0) == even))
    if kind == "prime":
        return "is a prime number", _PRIMES
    if kind == "square":
        return "is a perfect square", frozenset(n * n for n in range(1, 10))
    a = rng.randint(1, 80)
    b = rng.randint(a + 5, min(99, a + 40))
    return f"is between {a} and {b} inclusive", frozenset(range(a, b + 1))


def _rule(rng: random.Random, compound: float) -> tuple[str, frozenset[int]]:
    text, members = _atom(rng)
    if rng.random() < compound:
        other, other_members = _atom(rng)
        if rng.random() < 0.5:
            return f"{text} and {other}", members & other_members
        return f"{text} or {other}", members | other_members
    return text, members

# "Candidates: A, E", "The consistent candidates are A and E", "Candidates that agree with every example: A, E"
_LABEL = re.compile(r"(?:the\s+)?(?:(?:consistent|matching|agreeing|possible|remaining|valid)\s+)?(?:candidates?|candidate\s+"
                    r"rules?)\b(?:\s+that\s+agrees?(?:\s+with\s+(?:every|all\s+the|all)\s+examples?)?)?"
                    r"\s*(?::|=|are\b|is\b)\s*", re.IGNORECASE)


@register
class RuleInduction(Task):
    id = "deduction/rule_induction"
    version = 3
    family = "deduction"
    description = "List every candidate rule that fits all the labelled example numbers."
    tags = ("induction", "deduction", "hypothesis-elimination", "classification")

    @dataclass(frozen=True)
    class Config:
        candidates: int
        compound: float  # chance a candidate joins two simple rules with and/or
        extra: int  # random examples shown besides those that rule candidates out
        examples: int = 5  # the fewest examples shown (random ones fill up)
        fitting: int = 3  # the most candidates that agree with every example

    presets = (
        Config(candidates=6, compound=0.0, extra=2),
        Config(candidates=7, compound=0.0, extra=2),
        Config(candidates=8, compound=0.5, extra=2),
        Config(candidates=9, compound=0.7, extra=1),
        Config(candidates=10, compound=1.0, extra=1),
    )
    bounded = "growing its sizes past the presets exhausts a fixed pool the generator draws from (names, letters or tables)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        # every set of 1 to `fitting` letters is equally likely: its size is drawn here, outside the redraws
        sizes = range(1, min(config.fitting, config.candidates - 1) + 1)
        size = rng.choices(sizes, weights=[math.comb(config.candidates, n) for n in sizes])[0]
        rules, fitting, target, examples = retry(lambda: _draw(rng, config, size),
                                                 what="candidate rules and telling examples")
        listing = "\n".join(f"({_LETTERS[i]}) yes exactly when the number {text}" for i, (text, _) in
                            enumerate(rules))
        shown = "\n".join(f"{n}: {'yes' if label else 'no'}" for n, label in examples)
        prompt = (
            "A hidden rule labels each whole number from 1 to 99 yes or no. It is one of these candidate rules:\n"
            f"{listing}\n\nLabelled examples:\n{shown}\n\n"
            "Which candidates agree with every example? One or more do. Answer with the letters of all of them, "
            f"separated by commas, in any order, for example: {EXAMPLE}"
        )
        data = {"rules": [text for text, _ in rules], "yes_sets": [format(_bits(members), "x") for _, members in rules],
                "target": target, "examples": [[n, label] for n, label in examples]}
        return Problem(prompt=prompt, answer=_spell(fitting), data=data)

    def difficulty(self, problem: Problem) -> float:
        """Checks a reader makes: each candidate against the examples in order until one rules it out (all of
        them for a fitting candidate), plus a point per compound rule."""
        rules, examples = problem.data["rules"], problem.data["examples"]
        checks = 0
        for mask in problem.data["yes_sets"]:
            bits = int(mask, 16)
            wrong = [i for i, (n, label) in enumerate(examples) if bool(bits >> n & 1) != label]
            checks += wrong[0] + 1 if wrong else len(examples)
        compound = sum(" or " in r or " and " in _RANGE.sub("", r) for r in rules)
        return float(checks + compound)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        rules = problem.data["rules"]
        answer = without_label(answer, _LABEL)
        said = read_rules(answer, rules)
        spaced = answer.strip() if isinstance(answer, str) and len(answer) <= 200 else ""
        if said is None and _SPACED_LETTERS.fullmatch(spaced):  # "A C F": the letters separated by spaces only
            said = read_rules(", ".join(spaced.split()), rules)
        if said is None:
            return Verdict.unparsed(f"expected the letters (A to {_LETTERS[len(rules) - 1]}) of every candidate that agrees "
                                    f"with all the examples, separated by commas, e.g. {EXAMPLE}")
        masks = [int(mask, 16) for mask in problem.data["yes_sets"]]
        examples = [(n, label) for n, label in problem.data["examples"]]
        for i in sorted(said):
            wrong = next((n for n, label in examples if bool(masks[i] >> n & 1) != label), None)
            if wrong is not None:
                return Verdict.wrong(f"candidate {_LETTERS[i]} disagrees with the example {wrong}")
        missed = [i for i in _fitting(masks, examples) if i not in said]
        if missed:
            return Verdict.wrong(f"candidate {_LETTERS[missed[0]]} agrees with every example too")
        return Verdict.judge(True)

    def spellings(self, problem: Problem) -> list[str]:
        letters = (problem.answer or "").split(", ")
        rules = problem.data["rules"]
        texts = [rules[_LETTERS.index(x)] for x in letters]
        listed = ", ".join(letters[:-1]) + f" and {letters[-1]}" if len(letters) > 1 else letters[0]
        spelled = [*super().spellings(problem), ", ".join(reversed(letters)), "{" + ", ".join(letters) + "}",
                   ", ".join(x.lower() for x in letters), ", ".join(f"({x})" for x in letters),
                   f"\\boxed{{{', '.join(letters)}}}", f"Rules {listed}.", f"Answer: {listed}",
                   "\n".join(f"({x}) yes exactly when the number {t}" for x, t in zip(letters, texts)),
                   "\n".join(f"{x}) {t}" for x, t in zip(letters, texts))]
        if len(letters) == 1:
            spelled += [f"The rule is {letters[0]}.", f"Option {letters[0]}.", texts[0],
                        f"yes exactly when the number {texts[0]}"]
        return spelled

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        rules = problem.data["rules"]
        gold = [_LETTERS.index(x) for x in (problem.answer or "").split(", ")]
        outside = [i for i in range(len(rules)) if i not in gold]
        extra = rng.choice(outside)
        wrong = [_spell([*gold, extra]), f"{problem.answer} or {_LETTERS[extra]}",
                 f"{problem.answer}. No wait, {_spell([extra])}.", f"{problem.answer}, {_LETTERS[gold[0]]}",
                 "none", "all", "\n".join(f"{_LETTERS[i]}) {rules[extra]}" for i in gold)]
        if len(gold) > 1:
            wrong += [_spell(gold[1:]), _LETTERS[gold[0]]]
        return wrong

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        """Lazy readers: the candidates that fit only part of the examples (the yes- or no-examples, the smaller
        or larger half, the three smallest), the first candidate fitting the three smallest examples, the shortest
        rule, and a random set of one to three letters (seeded by the prompt)."""

        def fitting_part(part: Callable[[list[tuple[int, bool]]], list[tuple[int, bool]]]) -> Callable[[Problem], str]:
            def answer(problem: Problem) -> str:
                masks = [int(mask, 16) for mask in problem.data["yes_sets"]]
                return _spell(_fitting(masks, part([(n, lb) for n, lb in problem.data["examples"]])))
            return answer

        def first_fitting_three(problem: Problem) -> str:
            return fitting_part(lambda examples: examples[:3])(problem).split(", ")[0]

        def random_set(problem: Problem) -> str:
            rng = random.Random(problem.prompt)
            return _spell(rng.sample(range(len(problem.data["rules"])), rng.randint(1, 3)))

        def shortest(problem: Problem) -> str:
            rules = problem.data["rules"]
            return _LETTERS[min(range(len(rules)), key=lambda i: len(rules[i]))]

        named = {f"fits the {name}": fitting_part(part) for name, part in _LAZY_VIEWS.items()}
        return {**named, "first rule fitting the three smallest examples": first_fitting_three,
                "shortest rule": shortest, "a random set of 1-3 letters": random_set}

    def surface_features(self, problem: Problem) -> dict[str, float]:
        """Where the rules sit and how their wording looks, which a lazy policy might follow."""
        rules, examples = problem.data["rules"], problem.data["examples"]
        return {
            "longest rule position": float(max(range(len(rules)), key=lambda i: len(rules[i]))),
            "shortest rule position": float(min(range(len(rules)), key=lambda i: len(rules[i]))),
            "yes share": sum(lb for _, lb in examples) / len(examples),
            "examples": float(len(examples)),
            "last example is yes": float(examples[-1][1]),
        }


# The parts of the examples a lazy reader might check alone; each must leave a wrong candidate standing.
_LAZY_VIEWS: dict[str, Callable[[list[tuple[int, bool]]], list[tuple[int, bool]]]] = {
    "yes-examples only": lambda examples: [e for e in examples if e[1]],
    "no-examples only": lambda examples: [e for e in examples if not e[1]],
    "smaller half of the examples": lambda examples: examples[: len(examples) // 2],
    "larger half of the examples": lambda examples: examples[len(examples) // 2 :],
    "three smallest examples": lambda examples: examples[:3],
    "three largest examples": lambda examples: examples[-3:],
}


def _bits(members: frozenset[int]) -> int:
    """A yes-set as an integer, bit n for the number n (stored in hex in the problem's data)."""
    return sum(1 << n for n in members)


def _fitting(masks: list[int], examples: list[tuple[int, bool]]) -> list[int]:
    """The places of the rules (yes-sets as bits) that agree with every example."""
    yes = sum(1 << n for n, label in set(examples) if label)
    no = sum(1 << n for n, label in set(examples) if not label)
    return [i for i, mask in enumerate(masks) if mask & yes == yes and not mask & no]


def _spell(indices: Iterable[int]) -> str:
    return ", ".join(_LETTERS[i] for i in sorted(indices))


_SENTENCE = re.compile(r"\byes exactly when the number ", re.IGNORECASE)
# one letter, maybe named: "B", "(B)", "rule B", "the rules are B" (then ", D"), "candidate B"
_ITEM = re.compile(r"^(?:(?:the )?(?:rules?|candidates?|options?) (?:(?:is|are) )?)?[(\[]?([a-j])[)\]]?$",
                   re.IGNORECASE)


_SPACED_LETTERS = re.compile(r"[A-Za-z](?:[ \t]+[A-Za-z])+")


def read_rules(answer: str, rules: list[str]) -> frozenset[int] | None:
    """The candidates (indices) an answer names: letters as a set (``B, D``, ``{B, D}``, ``(B) and (D)``,
    ``Rules B and D``), or the rules one per line (``(B) yes exactly when the number is even``, ``B) is even``,
    ``is even``; a letter must match its text); ``None`` when it cannot be read (a hedge, a retraction, a
    letter past the list, a letter named twice).

    >>> read_rules("Rules D and b.", ["is even", "is odd", "is prime", "is a perfect square"]) == {1, 3}
    True
    >>> read_rules("B or D", ["is even", "is odd", "is prime", "is a perfect square"]) is None
    True
    """
    if not isinstance(answer, str) or len(answer) > MAX_ANSWER_CHARS:
        return None
    letters = _LETTERS[: len(rules)]

    def letter(item: str) -> int | None:
        named = _ITEM.match(item)
        return None if named is None or named.group(1).upper() not in letters else letters.index(
            named.group(1).upper())

    said = read_set(answer, letter)
    if said is not None:
        return said if said else None
    # the prompt's wording of a rule, "yes exactly when the number <text>", may be copied whole
    lines = [_SENTENCE.sub("", line) for line in answer.strip().splitlines() if line.strip()]
    texts = dict(zip(letters, rules))
    synonyms = {x: (f"rule {x}", f"candidate {x}", f"the number {t}") for x, t in texts.items()}
    chosen = [read_choice(line, letters, texts=texts, synonyms=synonyms) for line in lines]
    if not chosen or None in chosen or len(set(chosen)) < len(chosen):
        return None
    return frozenset(letters.index(x) for x in chosen if x is not None)


def _rule_set(rng: random.Random, config: RuleInduction.Config, count: int,
              accept: Callable[[frozenset[int]], bool]) -> list[tuple[str, frozenset[int]]] | None:
    """``count`` more rules, distinct in wording and yes-set, each passing ``accept``."""
    rules: list[tuple[str, frozenset[int]]] = []
    for _ in range(20 * count):
        if len(rules) == count:
            break
        text, members = _rule(rng, config.compound)
        if 5 <= len(members) <= 94 and accept(members) and all(members != m and text != t for t, m in rules):
            rules.append((text, members))
    return rules if len(rules) == count else None


def _draw(rng: random.Random, config: RuleInduction.Config, size: int) -> tuple | None:
    """The rules (``size`` of them fitting, at random places), the fitting places, the hidden rule's place and
    the examples, or None to redraw."""
    fitting_rules = _rule_set(rng, config, size, lambda members: True)
    if fitting_rules is None:
        return None
    yes = fitting_rules[0][1]  # the hidden rule; the others agree with it on every example
    agreeing = [n for n in _NUMBERS if all((n in m) == (n in yes) for _, m in fitting_rules)]
    if len(agreeing) < 8:
        return None
    others = _rule_set(rng, config, config.candidates - size,
                       lambda members: any((n in members) != (n in yes) for n in agreeing))
    if others is None:  # (a rule disagreeing with the hidden one there is none of the fitting ones)
        return None
    places = rng.sample(range(config.candidates), size)
    placed, rest = dict(zip(places, fitting_rules)), iter(others)
    rules = [placed[i] if i in placed else next(rest) for i in range(config.candidates)]
    masks = [_bits(m) for _, m in rules]
    for _ in range(20):  # examples that leave a wrong candidate standing to every lazy view
        examples = _examples(rng, config, masks, sorted(places), _bits(yes), agreeing)
        if all(len(_fitting(masks, view(examples))) > size for view in _LAZY_VIEWS.values()):
            break
    else:
        return None
    if _fitting(masks, examples) != sorted(places):  # re-checked: exactly the drawn rules fit
        return None
    return rules, places, places[0], examples


def _examples(rng: random.Random, config: RuleInduction.Config, masks: list[int], fitting: list[int], yes: int,
              agreeing: list[int]) -> list[tuple[int, bool]]:
    """Examples from the numbers every fitting rule labels alike: each rules out a candidate still standing, then
    random ones up to ``config.examples`` (at least ``config.extra`` of them)."""
    alive = [i for i in range(len(masks)) if i not in fitting]
    chosen: list[int] = []
    for _ in range(len(masks)):  # each pass rules out at least the victim
        if not alive:
            break
        victim = rng.choice(alive)
        n = rng.choice([m for m in agreeing if (masks[victim] ^ yes) >> m & 1])
        chosen.append(n)
        alive = [i for i in alive if not (masks[i] ^ yes) >> n & 1]
    spare = [n for n in agreeing if n not in chosen]
    chosen += rng.sample(spare, min(max(config.extra, config.examples - len(chosen)), len(spare)))
    return [(n, bool(yes >> n & 1)) for n in sorted(chosen)]
