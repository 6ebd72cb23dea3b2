"""Cryptarithms (alphametics): each letter stands for a digit; make the letter sum a true addition.

Different letters are different digits and no number starts with 0. The puzzle comes from a
true addition of random numbers whose digits are replaced by letters (a random digit-to-letter
map), so a solution exists. A column-by-column search (rightmost column first, carrying, each
letter given a digit the first time it appears) enumerates every solution; while more than one
is left, the letter that splits them best has its digit given, and given letters the others make
unnecessary are dropped again, so exactly one solution fits the puzzle and its givens. Upper
levels have longer numbers (three addends at level 3) and allow fewer givens (none at the top).

The answer gives every letter's digit (``A = 1, B = 7, ...``, ``A=1 B=7`` or one per line); the
verifier checks distinct digits, no leading zero and the addition itself.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.envs.puzzles.common import read_values
from palaestra.verifiers.numeric import read_integer

_LETTERS = "ABCDEFGHJKLMNPRSTUVWXYZ"  # no I or O, which look like digits
_SEARCH_STEPS = 200_000  # search nodes before the enumeration gives up (the candidate is then dropped)
_MAX_SOLUTIONS = 500  # solutions enumerated at most (more would need too many givens)


@register
class Cryptarithm(Task):
    id = "puzzles/cryptarithm"
    family = "puzzles"
    description = "Solve a letter addition (alphametic): map letters to distinct digits (one solution)."
    tags = ("puzzle", "math", "arithmetic", "constraint-satisfaction")

    @dataclass(frozen=True)
    class Config:
        addends: int
        digits: tuple[int, int]  # digits per addend, drawn from this range
        max_hints: int  # letters whose digit may be given, at most

    def config(self, level: int) -> Config:
        return [
            self.Config(addends=2, digits=(2, 3), max_hints=3),
            self.Config(addends=2, digits=(3, 4), max_hints=2),
            self.Config(addends=2, digits=(4, 5), max_hints=1),
            self.Config(addends=3, digits=(4, 5), max_hints=1),
            self.Config(addends=2, digits=(6, 7), max_hints=0),
        ][level]

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
        values = read_values(answer, letters, read_integer)
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
                ", ".join(reversed(pairs)), "; ".join(p.replace(" = ", ": ") for p in pairs)]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        pairs = [p.split(" = ") for p in (problem.answer or "").split(", ")]
        i, j = rng.sample(range(len(pairs)), 2)
        swapped = [p[:] for p in pairs]
        swapped[i][1], swapped[j][1] = swapped[j][1], swapped[i][1]  # digits stay distinct
        return [", ".join(f"{a} = {b}" for a, b in g) for g in (swapped, pairs[:-1])]


def _draw(rng: random.Random, config: Cryptarithm.Config) -> tuple | None:
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
    solutions = _solutions(words, word_total, _MAX_SOLUTIONS if config.max_hints else 1)
    if solutions is None:
        return None
    hints = _hints(rng, solutions, mapping)
    return (words, word_total, mapping, hints) if len(hints) <= config.max_hints else None


def _hints(rng: random.Random, solutions: list[dict[str, int]], mapping: dict[str, int]) -> list[str]:
    """Letters whose digits, once given, leave only ``mapping``: add the most telling letter until one
    solution is left, then drop hints (in random order) that the others make unnecessary."""
    hints: list[str] = []
    left = solutions
    for _ in range(len(mapping)):  # each pass gives one more letter
        if len(left) <= 1:
            break
        letter = min(sorted(mapping), key=lambda x: (sum(s[x] == mapping[x] for s in left), rng.random()))
        hints.append(letter)
        left = [s for s in left if s[letter] == mapping[letter]]
    rng.shuffle(hints)
    for letter in list(hints):
        rest = [h for h in hints if h != letter]
        if sum(all(s[h] == mapping[h] for h in rest) for s in solutions) == 1:
            hints = rest
    return sorted(hints)


def _solutions(words: list[str], total: str, most: int) -> list[dict[str, int]] | None:
    """Every solution of the alphametic (None when there are more than ``most`` or the search gave up)."""
    width = len(total)
    if any(len(w) > width for w in words):
        return []
    columns = [[w[len(w) - 1 - i] for w in words if i < len(w)] for i in range(width)]
    leading = {w[0] for w in [*words, total] if len(w) > 1}
    value: dict[str, int] = {}
    used = [False] * 10
    found: list[dict[str, int]] = []
    steps = [0]

    def assign(letter: str, then) -> bool:
        """Try every free digit for ``letter`` (unless it has one) and continue; True to stop the search."""
        if letter in value:
            return then()
        for d in range(1 if letter in leading else 0, 10):
            if used[d]:
                continue
            value[letter], used[d] = d, True
            stop = then()
            del value[letter]
            used[d] = False
            if stop:
                return True
        return False

    def column(i: int, carry: int) -> bool:
        steps[0] += 1
        if steps[0] > _SEARCH_STEPS:
            return True
        if i == width:
            if carry == 0:
                found.append(dict(value))
            return len(found) > most

        def add(k: int) -> bool:
            if k < len(columns[i]):
                return assign(columns[i][k], lambda: add(k + 1))
            s = carry + sum(value[ch] for ch in columns[i])
            target = total[width - 1 - i]
            digit = s % 10
            if target in value:
                return value[target] == digit and column(i + 1, s // 10)
            if used[digit] or (digit == 0 and target in leading):
                return False
            value[target], used[digit] = digit, True
            stop = column(i + 1, s // 10)
            del value[target]
            used[digit] = False
            return stop

        return add(0)

    column(0, 0)
    return None if steps[0] > _SEARCH_STEPS or len(found) > most else found
