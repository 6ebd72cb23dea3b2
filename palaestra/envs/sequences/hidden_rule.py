"""Continue a sequence made by a hidden cycle of steps drawn from a stated grammar of operations.

The prompt states the rule family exactly: a repeating cycle of exactly k steps (step 1 turns the first term
into the second, step 2 the second into the third, ..., and step k + 1 is step 1 again), each step one
operation from a stated list: add or subtract a whole number up to a bound, multiply by a small number, and from
level 2 digit operations (add the term's digit sum, reverse its digits) and from level 3 "multiply by c, then
add d". Terms stay positive.

Uniqueness is proved by enumeration within the family: the steps at different positions of the cycle are
independent, so for each position the generator lists every operation of the family that maps each term at
that position to the next one; the answer is kept only when every combination of the surviving operations
gives the same next terms. (The rule itself may not be unique: add 6 and multiply by 3 both turn 3 into 9; the
asked terms are.) This is not ``algebra/recurrences``: there the rule is one arithmetic, polynomial or linear
recurrence; here it is a hidden cycle of mixed operations, found position by position.

The answer is the next terms, in order. Difficulty: the cycle length, the kinds of operation in the rule, the
digits of the last term shown and the terms asked.

Version 2: the cycle grows one step per level past the presets up to 20 (level 20), not 27. Each step of the
cycle may multiply, so a longer cycle more often carries the 2k + 2 terms past 10^7: at a cycle of 27 only
about 1 draw in 360 stayed in range and determined the answer, and generation failed (GenerationError after
400 draws) at 2 seeds in 8 at level 40 (5 in 40 at level 27); at 20 about 1 in 24 does, and a seed fails
with chance about 4e-8.

Version 3: each step's operation is drawn by kind and then within the kind, as intended (version 2 drew a fresh kind
for every operation it filtered, which favoured the twenty additions and twenty subtractions and could leave a step
nothing to choose: an IndexError at level 2 seed 2543). From level 2 up a sequence is kept only when the cheap rule
that reads every step as an addition (the term one cycle back plus the difference that position made the cycle
before) misses the asked terms: version 2 paid that rule 0.62 at level 2, 0.16 at level 3 and 0.09 at level 4 (200
seeds each); version 3 pays it 0 there, and 0.43 and 0.23 at levels 0 and 1, where the family determines
sequences of additions too. The first term is drawn from 2 to 199 (was 2 to 30, 60 from a cycle of 4), so that the
few parameter-free steps (double, reverse, add the digit sum) still give 95% distinct problems at levels 0 and 1.

Version 4: levels 0 and 1 draw their cycle of two steps as one addition or subtraction and one step of another kind
(a multiplication, or from level 1 a digit step), in either order, and ask for the next two terms (three at level
1), so the asked steps cover both kinds and the rule that reads every step as an addition must miss (it is
checked, as above). Assuming one kind for every step is no longer enough: version 3 paid reading every step as an
addition 0.52 and 0.30 at levels 0 and 1, and every step as a multiplication (the ratio the position made the
cycle before) 0.33 and 0.22 (60 seeds each); version 4 pays both 0 there.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.numeric import read_integer
from palaestra.verifiers.sets import read_list

EXAMPLES = {1: "14", 2: "14, 29", 3: "14, 29, 33"}  # fixed placeholders of the right shape: not the answer
MAX_TERM = 10**7
ADDITIVE = ("add", "subtract")
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")

Operation = tuple[str, int, int]  # (kind, c, d)


def apply(operation: Operation, n: int) -> int:
    kind, c, d = operation
    if kind == "add":
        return n + c
    if kind == "subtract":
        return n - c
    if kind == "multiply":
        return n * c
    if kind == "affine":
        return n * c + d
    # (the digit steps read the digits of |n|: the uniqueness check tries candidate steps whose values may go below 1,
    # and any prediction of theirs that differs from the answer still rejects the sequence)
    if kind == "digit_sum":
        return n + sum(int(ch) for ch in str(abs(n)))
    return int(str(abs(n))[::-1])  # reverse


def describe(operation: Operation) -> str:
    kind, c, d = operation
    return {"add": f"add {c}", "subtract": f"subtract {c}", "multiply": f"multiply by {c}",
            "affine": f"multiply by {c}, then add {d}", "digit_sum": "add the sum of its digits",
            "reverse": "reverse its digits"}[kind]


def family(max_add: int, max_factor: int, digit_ops: bool, affine: bool) -> list[Operation]:
    """Every operation of the stated family."""
    ops: list[Operation] = [("add", c, 0) for c in range(1, max_add + 1)]
    ops += [("subtract", c, 0) for c in range(1, max_add + 1)]
    ops += [("multiply", c, 0) for c in range(2, max_factor + 1)]
    if digit_ops:
        ops += [("digit_sum", 0, 0), ("reverse", 0, 0)]
    if affine:
        ops += [("affine", c, d) for c in range(2, max_factor + 1) for d in range(1, 10)]
    return ops


def consistent(terms: list[int], length: int, ops: list[Operation]) -> list[list[Operation]]:
    """Per cycle position, the operations of the family that map every term at that position to the next."""
    return [[op for op in ops if all(apply(op, terms[i]) == terms[i + 1] for i in range(j, len(terms) - 1, length))]
            for j in range(length)]


def predictions(terms: list[int], length: int, candidates: list[list[Operation]], asked: int) -> set[tuple[int, ...]]:
    """The next ``asked`` terms under every combination of the candidate operations."""
    positions = [(len(terms) - 1 + step) % length for step in range(asked)]
    used = sorted(set(positions))
    out = set()
    for choice in itertools.product(*(candidates[p] for p in used)):
        chosen = dict(zip(used, choice, strict=True))
        value, produced = terms[-1], []
        for p in positions:
            value = apply(chosen[p], value)
            produced.append(value)
        out.add(tuple(produced))
    return out


def repeat_differences(terms: list[int], length: int, asked: int) -> list[int]:
    """The cheap rule that reads every step as an addition: each next term is the term one cycle back plus the
    difference that position made in the cycle before (right whenever the asked steps add or subtract)."""
    out = list(terms)
    for _ in range(asked):  # the terms shown span two cycles, so both indices exist
        out.append(2 * out[-length] - out[-2 * length])
    return out[len(terms):]


def _family_text(config: HiddenRule.Config) -> str:
    parts = [f"add a whole number from 1 to {config.max_add}", f"subtract a whole number from 1 to {config.max_add}",
             "multiply by " + ", ".join(str(c) for c in range(2, config.max_factor)) + f" or {config.max_factor}"
             if config.max_factor > 2 else "multiply by 2"]
    if config.digit_ops:
        parts += ["add the sum of the term's digits", "reverse the order of the term's digits (dropping leading zeros)"]
    if config.affine:
        parts.append(f"multiply by a number from 2 to {config.max_factor}, then add a whole number from 1 to 9")
    return "; ".join(parts)


@register
class HiddenRule(Task):
    id = "sequences/hidden_rule"
    family = "sequences"
    description = "Continue a sequence made by a hidden repeating cycle of operations from a stated family."
    tags = ("math", "sequences", "induction")
    version = 4  # v4: levels 0-1 mix an additive step with another kind and ask both (one kind for all paid 0.52)

    @dataclass(frozen=True)
    class Config:
        cycle: int  # steps in the cycle (k)
        max_add: int  # the largest number added or subtracted
        max_factor: int  # the largest multiplier
        digit_ops: bool  # whether digit-sum and digit-reversal steps are in the family
        affine: bool  # whether "multiply by c, then add d" steps are in the family
        asked: int  # next terms asked
        beat_differences: bool = False  # whether the rule "repeat each position's last difference" must miss
        mixed: bool = False  # a cycle of two steps: one addition or subtraction, one step of another kind

    presets = (Config(2, 20, 3, False, False, 2, True, True), Config(2, 20, 3, True, False, 3, True, True),
               Config(3, 20, 4, True, False, 2, True), Config(3, 30, 4, True, True, 3, True),
               Config(4, 30, 5, True, True, 3, True))
    # capped where generation stops scaling (kit check far_levels): past a cycle of 20 too few draws keep the
    # terms under MAX_TERM (see the docstring, version 2)
    growth = Growth(steps={"cycle": 1}, limits={"asked": 3, "cycle": 20})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        ops = family(config.max_add, config.max_factor, config.digit_ops, config.affine)
        k = config.cycle
        shown = 2 * k + 2 if k > 1 else 4
        kinds = sorted({op[0] for op in ops})
        by_kind = {kind: [op for op in ops if op[0] == kind] for kind in kinds}

        def draw() -> tuple[list[Operation], list[int], list[int]] | None:
            # operations drawn by kind first, so the few multiplying and digit steps are not drowned out
            # (one kind per step: version 2 drew a new kind for every operation it filtered, so a step's list
            # could come out empty, an IndexError at level 2 seed 2543)
            rule = [rng.choice(by_kind[rng.choice(kinds)]) for _ in range(k)]
            if config.mixed:  # one additive step and one of another kind, in either order: both kinds are asked
                other = [kind for kind in kinds if kind not in ADDITIVE]
                rule = [rng.choice(by_kind[rng.choice(ADDITIVE)]), rng.choice(by_kind[rng.choice(other)])]
                rng.shuffle(rule)
            terms = [rng.randint(2, 199)]
            for i in range(shown + config.asked - 1):
                terms.append(apply(rule[i % k], terms[-1]))
                if not 0 < terms[-1] < MAX_TERM:
                    return None
            return rule, terms[:shown], terms[shown:]

        def unique(d: tuple | None) -> bool:
            if d is None or len(set(d[0])) < min(k, 2) or len(set(d[1])) < len(d[1]) - 1:
                return False
            if config.beat_differences and repeat_differences(d[1], k, config.asked) == d[2]:
                return False
            candidates = consistent(d[1], k, ops)
            return len(predictions(d[1], k, candidates, config.asked)) == 1

        rule, terms, following = retry(draw, unique, attempts=400,
                                       what="a sequence whose next terms the family determines")
        cycle_text = ("one step, repeated: each term is made from the one before by the same operation" if k == 1
                      else f"a repeating cycle of exactly {k} steps: step 1 turns the first term into the second, "
                           f"step 2 the second into the third, and so on, and after step {k} the cycle starts again "
                           "with step 1")
        asked_text = "the next term" if config.asked == 1 else f"the next {config.asked} terms, in order"
        prompt = (
            f"A sequence of positive whole numbers follows a hidden rule: {cycle_text}. Each step is one of these "
            f"operations on the current term: {_family_text(config)}.\n\n"
            f"Terms: {', '.join(map(str, terms))}\n\n"
            f"Give {asked_text}, separated by commas, for example: {EXAMPLES[config.asked]}"
        )
        return Problem(prompt=prompt, answer=", ".join(map(str, following)),
                       data={"terms": terms, "next": following, "rule": [list(op) for op in rule], "cycle": k})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        wanted = problem.data["next"]
        if not isinstance(answer, str) or len(answer) > 400:
            return Verdict.unparsed("expected the next terms as whole numbers")
        found = read_list(answer, read_integer)  # "120, 360", "a_7 = 120, a_8 = 360"
        if found is None or len(found) != len(wanted):  # "120 360": terms separated by spaces only
            found = read_list(answer, read_integer, space_separated=True)
        if found is None or len(found) != len(wanted):
            return Verdict.unparsed(f"expected {len(wanted)} whole number(s) separated by commas, such as {EXAMPLES[len(wanted)]}")
        if found != wanted:
            first = next(i for i, (a, b) in enumerate(zip(found, wanted, strict=True)) if a != b)
            return Verdict.wrong(f"term {first + 1} of the answer does not follow the rule")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Cycle length, kinds of operation in the rule, digits of the last term shown, and terms asked."""
        data = problem.data
        kinds = {op[0] for op in data["rule"]}
        return float(2 * data["cycle"] + len(kinds) + len(str(data["terms"][-1])) + len(data["next"]))

    def heuristics(self) -> dict[str, Callable[[Problem], str]]:
        def differences(problem: Problem) -> str:
            data = problem.data
            return ", ".join(map(str, repeat_differences(data["terms"], data["cycle"], len(data["next"]))))

        return {"repeat each position's last difference": differences}

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        return [*super().spellings(problem), f"\\boxed{{{gold}}}", f"{gold}.", f"Answer: {gold}",
                gold.replace(", ", " and ") if gold.count(",") == 1 else gold.replace(", ", "; "),
                gold.replace(", ", " ")]  # separated by spaces only (read since r21)

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        wanted = problem.data["next"]
        terms = problem.data["terms"]
        nudged = list(wanted)
        nudged[-1] += rng.choice([-1, 1])
        wrong = [", ".join(map(str, nudged)), ", ".join(map(str, wanted[:-1])) if len(wanted) > 1 else str(terms[-1]),
                 f"{', '.join(map(str, wanted))} or {', '.join(map(str, nudged))}"]
        repeat = [apply(tuple(problem.data["rule"][-1]), terms[-1])]  # the last step repeated
        while len(repeat) < len(wanted):
            repeat.append(apply(tuple(problem.data["rule"][-1]), repeat[-1]))
        if repeat != wanted:
            wrong.append(", ".join(map(str, repeat)))
        return wrong

