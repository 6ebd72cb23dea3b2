"""Cryptarithms (alphametics): each letter stands for a digit; make the letter sum a true addition.

Different letters are different digits and no number starts with 0. The puzzle comes from a
true addition of random numbers whose digits are replaced by letters (a random digit-to-letter
map), so a solution exists. An exhaustive search over arrays of partial assignments (columns
from the right, carrying) lists every solution with leading zeros allowed; those with a leading
zero are decoys. While more than one true solution is left, the letter that splits them best,
among those some remaining decoy agrees on, has its digit given, and givens the others make
unnecessary are dropped again; an addition left without a decoy is redrawn, so the no-leading-zero
rule always decides the answer (a solver blind to it picks the right solution of at least two).
Addends of 6 or more digits (levels 4 on, no givens) seldom have a decoy by chance (1 in 20 at
level 4), so one is built in: a digit that starts the short addend and a 0 below it in the long
one, both nowhere else, swap into a second true addition. The SAT solution counter
(:func:`count_solutions`, over digit variables with one-hot column sums) then proves that exactly
one solution fits the puzzle and its givens. Upper levels have longer numbers (three addends at
level 3) and allow fewer givens (none at the top).

In version 1 a solver blind to the leading-zero rule (a uniformly random solution of the relaxed
puzzle) solved 89/92/94/87/97% of levels 0-4 (40 seeds a level), the first solution in the search's
order 85/93/95/88/95%; in version 2 42/42/42/43/47% and 23/30/40/47/57%.

The built-in decoy gives one digit away: from level 4 the long addend's letter under the short addend's first
letter is always 0 (and appears nowhere else), so a solver who knows the pattern needs no leading-zero rule (with
that letter 0 the relaxed puzzle has exactly one solution, 40 seeds a level at levels 4-6). It does not solve the
puzzle: the other eight or nine letters are still to be searched for (no letter else is fixed by the pattern, and
in 200 seeds a level at levels 4-6 the total was never a digit longer, so no leading 1 came free either).

The answer gives every letter's digit (``A = 1, B = 7, ...``, ``A=1 B=7``, one per line or ``{"A": 1, "B": 7}``),
optionally followed by the addition spelled in its digits as a check (``(267 + 256 = 523)``, ``Check: 267 + 256 =
523``; any other sum there leaves the answer unread); the verifier checks distinct digits, no leading zero and the
addition itself.

Generation speed: about 3-13 ms of CPU time per problem at levels 0-9 on this 2-core machine. Most
drawn additions are redrawn (no single solution within the givens allowed, or no decoy), each after
an exhaustive search over partial digit assignments that lists every solution, and the kept one is
then proved unique a second, independent way by the SAT solution counter (building and loading its
column-sum encoding is most of that); both are kept because the puzzle must have exactly one solution.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

import numpy as np

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.puzzles.common import read_values
from palaestra.solvers.sat import CNF, BudgetExhausted, count_solutions
from palaestra.verifiers.numeric import read_integer

_LETTERS = "ABCDEFGHJKLMNPRSTUVWXYZ"  # no I or O, which look like digits
_MAX_STATES = 2_000_000  # partial assignments the search may hold before it gives up (the candidate is dropped)
_DIGITS = np.arange(10, dtype=np.int32)
_MAX_SOLUTIONS = 500  # solutions enumerated at most (more would need too many givens)
_BUILT_DECOY = 6  # addends this long (levels 4 on) get a leading-zero decoy built in (seldom one by chance)


@register
class Cryptarithm(Task):
    id = "puzzles/cryptarithm"
    family = "puzzles"
    description = "Solve a letter addition (alphametic): map letters to distinct digits (one solution)."
    tags = ("puzzle", "math", "arithmetic", "constraint-satisfaction")
    version = 2  # v2: a leading-zero solution always fits the givens (the no-leading-zero rule decides)

    @dataclass(frozen=True)
    class Config:
        addends: int
        digits: tuple[int, int]  # digits per addend, drawn from this range
        max_hints: int  # letters whose digit may be given, at most

    presets = (
        Config(addends=2, digits=(2, 3), max_hints=3),
        Config(addends=2, digits=(3, 4), max_hints=2),
        Config(addends=2, digits=(4, 5), max_hints=1),
        Config(addends=3, digits=(4, 5), max_hints=1),
        Config(addends=2, digits=(6, 7), max_hints=0),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        words, total, mapping, hints = retry(lambda: _draw(rng, config), what="an addition with one solution")
        width = max(len(w) for w in [*words, total])
        lines = [w.rjust(width + 2) for w in words[:-1]] + ["+ " + words[-1].rjust(width), "-" * (width + 2),
                                                          total.rjust(width + 2)]
        letters = sorted(mapping)
        prompt = (
            "In this addition every letter stands for a digit: different letters are different digits, the "
            "same letter is always the same digit, and no number starts with 0.\n\n"
            + "\n".join(lines) + f"\n\n({' + '.join(words)} = {total})\n\n"
            + (f"Given: {', '.join(f'{h} = {mapping[h]}' for h in hints)}.\n\n" if hints else "")
            + "Exactly one assignment of digits works. Give every letter's digit, for example: "
            + ", ".join(f"{letter} = {i}" for i, letter in enumerate(letters[:2]))
            + ", ..."
        )
        answer = ", ".join(f"{letter} = {mapping[letter]}" for letter in letters)
        data = {"words": words, "total": total, "letters": letters, "hints": {h: mapping[h] for h in hints}}
        return Problem(prompt=prompt, answer=answer, data=data)

    def difficulty(self, problem: Problem) -> float:
        """Letters to find (those not given), plus columns and addends to add."""
        data = problem.data
        return float(len(data["letters"]) - len(data["hints"]) + len(data["total"]) + len(data["words"]))

    def verify(self, problem: Problem, answer: str) -> Verdict:
        data = problem.data
        letters = data["letters"]
        values = read_values(answer, letters, read_integer) or _checked(answer, data)
        if values is None:
            return Verdict.unparsed("expected a digit for every letter, such as A = 1, B = 7")
        digits = [values[letter] for letter in letters]
        if any(not 0 <= d <= 9 for d in digits):
            return Verdict.wrong("every letter must be a single digit")
        if len(set(digits)) < len(digits):
            return Verdict.wrong("two letters share a digit")
        for letter, digit in data["hints"].items():
            if values[letter] != digit:
                return Verdict.wrong(f"{letter} is given as {digit}")
        numbers = []
        for word in [*data["words"], data["total"]]:
            if values[word[0]] == 0 and len(word) > 1:
                return Verdict.wrong(f"{word} would start with 0")
            numbers.append(int("".join(str(values[ch]) for ch in word)))
        return Verdict.judge(sum(numbers[:-1]) == numbers[-1], "the addition does not hold")

    def spellings(self, problem: Problem) -> list[str]:
        pairs = (problem.answer or "").split(", ")
        return [*super().spellings(problem), "\n".join(pairs), " ".join(p.replace(" = ", "=") for p in pairs),
                ", ".join(reversed(pairs)), "; ".join(p.replace(" = ", ": ") for p in pairs),
                ", ".join(p.replace(" = ", " → ") for p in pairs),
                "| Letter | Digit |\n|---|---|\n" + "\n".join(f"| {p.replace(' = ', ' | ')} |" for p in pairs),
                "{" + ", ".join('"{}": {}'.format(*p.split(" = ")) for p in pairs) + "}",
                f"{problem.answer}\n({_equation(problem)})", f"{problem.answer}. Check: {_equation(problem)}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        pairs = [p.split(" = ") for p in (problem.answer or "").split(", ")]
        i, j = rng.sample(range(len(pairs)), 2)
        swapped = [p[:] for p in pairs]
        swapped[i][1], swapped[j][1] = swapped[j][1], swapped[i][1]  # digits stay distinct
        first = f"{pairs[0][0]} = {pairs[0][1]}"
        return [", ".join(f"{a} = {b}" for a, b in g) for g in (swapped, pairs[:-1])] + [
            f"{problem.answer}, {pairs[i][0]} = {pairs[j][1]}", f"{problem.answer} (or {first[:-1]}{(int(first[-1]) + 1) % 10})",
            f"{problem.answer}\n({_equation(problem).replace('=', '+ 1 =')})"]  # a check that is not the puzzle's sum


def _equation(problem: Problem) -> str:
    """The puzzle's addition in the reference's digits: ``267 + 256 = 523``."""
    digits = dict(pair.split(" = ") for pair in (problem.answer or "").split(", "))
    numbers = ["".join(digits.get(ch, "") for ch in word) for word in [*problem.data["words"], problem.data["total"]]]
    return " + ".join(numbers[:-1]) + " = " + numbers[-1]


# The answer, then the addition in its digits as a check: "(267 + 256 = 523)", "Check: 267 + 256 = 523" (or
# "Verification:"), on its own line or after the last digit. A careful grader accepts it only as the puzzle's own
# addition spelled with the answer's digits (which verify then checks holds); any other sum after the answer is a
# second claim and leaves it unread.
_CHECK = re.compile(r"(?P<answer>.*?)[\s,;.]*(?:\(\s*(?:(?:check|verification):?\s*)?(?P<bracketed>[\d\s+=]{1,200}?)"
                    r"\s*\)|(?:check|verification):?\s*(?P<plain>[\d\s+=]{1,200}?))[\s.]*", re.DOTALL | re.IGNORECASE)


def _checked(answer: str, data: dict) -> dict | None:
    """The digits of an answer followed by its check (see ``_CHECK``), else None."""
    match = _CHECK.fullmatch(answer) if isinstance(answer, str) and len(answer) <= 2_000 else None
    if match is None:
        return None
    values = read_values(match.group("answer"), data["letters"], read_integer)
    if values is None or any(not 0 <= v <= 9 for v in values.values()):
        return None
    spelled = "".join(match.group("bracketed") or match.group("plain") or "").split()
    numbers = ["".join(str(values[ch]) for ch in word) for word in [*data["words"], data["total"]]]
    return values if "".join(spelled) == "+".join(numbers[:-1]) + "=" + numbers[-1] else None


def _draw(rng: random.Random, config: Cryptarithm.Config) -> tuple | None:
    if config.digits[0] >= _BUILT_DECOY:
        numbers = _swappable(rng, config)
        if numbers is None:
            return None
    else:
        numbers = [rng.randint(10 ** (d - 1), 10 ** d - 1) for d in
                   (rng.randint(*config.digits) for _ in range(config.addends))]
    total = sum(numbers)
    used = sorted({int(ch) for n in [*numbers, total] for ch in str(n)})
    letters = rng.sample(_LETTERS, len(used))
    to_letter = dict(zip(used, letters))
    words = ["".join(to_letter[int(ch)] for ch in str(n)) for n in numbers]
    word_total = "".join(to_letter[int(ch)] for ch in str(total))
    if len(set(words)) < len(words) or len(used) < 4:
        return None
    mapping = {letter: digit for digit, letter in to_letter.items()}
    # every solution of the addition with leading zeros allowed: those without one are the puzzle's
    # solutions, those with one the decoys that the no-leading-zero rule must be needed to exclude
    found = _search(words, word_total, {}, leading_zero=True)
    if found is None:
        return None
    order, states = found
    letters = sorted(mapping)
    states = states[:, [order.index(letter) for letter in letters]]  # a column per letter, in sorted order
    decoy = (states[:, [letters.index(w[0]) for w in [*words, word_total] if len(w) > 1]] == 0).any(axis=1)
    if not decoy.any() or len(states) - decoy.sum() >= _MAX_SOLUTIONS:
        return None
    agree = states == np.array([mapping[letter] for letter in letters])  # agree[s, i]: solution s has letter i's digit
    hints = _hints(rng, agree[~decoy], agree[decoy], letters)
    if hints is None or len(hints) > config.max_hints or not _proven_unique(
            words, word_total, {h: mapping[h] for h in hints}):
        return None
    return words, word_total, mapping, hints


def _swappable(rng: random.Random, config: Cryptarithm.Config) -> list[int] | None:
    """Addends of which one (shortest) starts with a digit ``x`` and the longest has a 0 in that
    column, ``x`` and 0 appearing nowhere else in the addition: swapping the two digits gives a
    second true addition in which the short addend starts with 0, the decoy that long numbers
    seldom have by chance. Drawn column by column from the right, each column's digits redrawn
    (a few times) until the total's digit there is neither ``x`` nor 0; None when that fails."""
    short, long = config.digits
    x = rng.randint(1, 9)
    others = [d for d in range(1, 10) if d != x]
    lengths = [short, long] + [rng.randint(short, long) for _ in range(config.addends - 2)]
    columns: list[list[int]] = []  # rightmost first: each addend's digit there (0 past its length)
    carry = 0
    for i in range(long):
        for _ in range(20):
            column = [rng.choice(others) if i < n else 0 for n in lengths]
            if i == short - 1:
                column[0], column[1] = x, 0  # the short addend's first digit over the long one's 0
            if (carry + sum(column)) % 10 not in (0, x):
                break
        else:
            return None
        columns.append(column)
        carry = (carry + sum(column)) // 10
    if carry == x:
        return None
    values = [sum(column[k] * 10 ** i for i, column in enumerate(columns)) for k in range(len(lengths))]
    rng.shuffle(values)
    return values


def _hints(rng: random.Random, solutions: np.ndarray, decoys: np.ndarray, letters: list[str]) -> list[str] | None:
    """Letters whose digits, once given, leave only the true solution of all the puzzle's
    ``solutions`` and at least one of the leading-zero ``decoys`` (so the no-leading-zero rule
    decides the answer); both arrays say which letters (columns) each solution agrees on with the
    true one. Add the most telling letter some remaining decoy agrees on until one solution is
    left, then drop givens (in random order) that the others make unnecessary, so every remaining
    given is needed (dropping one never loses a decoy). None when no decoy can be kept."""
    hints: list[int] = []
    left, kept = solutions, decoys
    for _ in range(len(letters)):  # each pass gives one more letter
        if len(left) <= 1:
            break
        counts = left.sum(axis=0)
        options = np.flatnonzero(kept.any(axis=0))
        if not len(options):
            return None
        letter = int(min(options, key=lambda i: (counts[i], rng.random())))
        hints.append(letter)
        left, kept = left[left[:, letter]], kept[kept[:, letter]]
    if len(left) > 1:
        return None
    rng.shuffle(hints)
    for letter in list(hints):
        rest = [h for h in hints if h != letter]
        if solutions[:, rest].all(axis=1).sum() == 1:
            hints = rest
    return sorted(letters[h] for h in hints)


def _solutions(words: list[str], total: str, fixed: dict[str, int], limit: int,
               leading_zero: bool = False) -> list[dict[str, int]] | None:
    """The alphametic's solutions that agree with ``fixed``: every one when fewer than ``limit``,
    else ``limit`` of them (None when the search grew too large and gave up); with ``leading_zero``
    a number may start with 0."""
    found = _search(words, total, fixed, leading_zero)
    if found is None:
        return None
    order, states = found
    return [dict(zip(order, map(int, row))) for row in states[:limit]]


def _search(words: list[str], total: str, fixed: dict[str, int],
            leading_zero: bool) -> tuple[list[str], np.ndarray] | None:
    """Every solution of the alphametic that agrees with ``fixed``, as the letters and an array
    with a row per solution and a column per letter (None when the search grew too large and gave
    up); with ``leading_zero`` a number may start with 0.

    An exhaustive breadth-first search over columns, rightmost first, on arrays of partial
    assignments: an addend letter met for the first time takes each free digit, the column's sum
    then forces the total's digit there (and the carry), and assignments that disagree are
    dropped. Every assignment that survives the last column with no carry left is a solution.
    """
    width = len(total)
    if any(len(w) > width for w in words):
        return [], np.zeros((0, 0), dtype=np.int16)
    leading = set() if leading_zero else {w[0] for w in [*words, total] if len(w) > 1}
    if any(fixed[letter] == 0 for letter in leading & set(fixed)) or len(set(fixed.values())) < len(fixed):
        return [], np.zeros((0, 0), dtype=np.int16)
    order = list(fixed)  # the state's columns: the letters assigned so far, in this order
    states = np.array([[fixed[letter] for letter in order]], dtype=np.int16).reshape(1, len(order))
    used = np.array([sum(1 << d for d in fixed.values())], dtype=np.int32)
    carry = np.zeros(1, dtype=np.int32)
    for i in range(width):
        for word in words:
            letter = word[-1 - i] if i < len(word) else None
            if letter is None or letter in order:
                continue
            count = len(states)
            if count * 10 > _MAX_STATES:
                return None
            free = ((used[:, None] >> _DIGITS) & 1) == 0  # free[s, d]: state s has not used digit d
            if letter in leading:
                free[:, 0] = False
            # each state's free digits in increasing order, state by state: only the survivors are copied
            parent, digit = np.nonzero(free)
            digit = digit.astype(np.int32)
            states = np.column_stack([states[parent], digit.astype(np.int16)])
            used, carry = used[parent] | (1 << digit), carry[parent]
            order.append(letter)
        column_sum = carry + sum(states[:, order.index(w[-1 - i])].astype(np.int32) for w in words if i < len(w))
        digit, carry = column_sum % 10, column_sum // 10
        letter = total[-1 - i]
        if letter in order:
            keep = states[:, order.index(letter)] == digit
        else:
            keep = ((used >> digit) & 1) == 0
            if letter in leading:
                keep &= digit > 0
            states = np.column_stack([states, digit.astype(np.int16)])
            used = used | (1 << digit)
            order.append(letter)
        states, used, carry = states[keep], used[keep], carry[keep]
    states = states[carry == 0]
    return order, states


def _proven_unique(words: list[str], total: str, givens: dict[str, int]) -> bool:
    """The uniqueness proof of record: the SAT solution counter finds exactly one assignment (the
    array search above chose the givens; this proof does not rely on it). An exhausted budget is
    no proof."""
    cnf, digit = _rules(words, total)
    for letter, value in givens.items():
        cnf.add([digit[letter][value]])
    try:
        return count_solutions(cnf, limit=2, project=[(letter, d) for letter in digit for d in range(10)]) == 1
    except BudgetExhausted:
        return False


def _rules(words: list[str], total: str) -> tuple[CNF, dict[str, list[int]]]:
    """The alphametic as CNF over ``(letter, digit)``, and each letter's ten digit literals.

    Column by column from the right, a one-hot running sum (the carry in, plus each addend's
    digit in turn) fixes the total's digit in that column and the carry out; no carry is left
    after the last column.
    """
    cnf = CNF()
    letters = sorted({ch for word in [*words, total] for ch in word})
    digit = {letter: [cnf.var((letter, d)) for d in range(10)] for letter in letters}
    for letter in letters:
        cnf.exactly_one(digit[letter])
    for d in range(10):
        cnf.at_most([digit[letter][d] for letter in letters], 1)
    for word in [*words, total]:
        if len(word) > 1:
            cnf.add([-digit[word[0]][0]])
    carry = [cnf.true]  # carry[c]: "the carry into this column is c"
    for i in range(len(total)):
        running = carry
        for word in words:
            if i >= len(word):
                continue
            addend = digit[word[-1 - i]]
            summed = [cnf.auxiliary() for _ in range(len(running) + 9)]
            cnf.clauses.extend([-lit, -addend[d], summed[s + d]] for s, lit in enumerate(running) for d in range(10))
            cnf.exactly_one(summed)
            running = summed
        out = [cnf.auxiliary() for _ in range((len(running) - 1) // 10 + 1)]
        shown = digit[total[-1 - i]]
        for s, lit in enumerate(running):
            cnf.add([-lit, shown[s % 10]])
            cnf.add([-lit, out[s // 10]])
        cnf.exactly_one(out)
        carry = out
    for lit in carry[1:]:
        cnf.add([-lit])
    if any(len(word) > len(total) for word in words):
        cnf.add([])  # an addend longer than the total: no solution
    return cnf, digit
