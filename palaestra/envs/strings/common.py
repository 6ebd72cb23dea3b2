"""Shared pieces of the string-algorithm envs: answer readers, answer spellings and near misses for lists of
integers and for words, and a generator of strings with repeated structure (so borders, periods and
repeated factors are common, as they are in the texts these algorithms are for)."""

from __future__ import annotations

import random
import re

from palaestra.verifiers.normalize import named, read_answer
from palaestra.verifiers.sets import read_list

MAX_WORD_CHARS = 5_000
_PLAIN_INTEGER = re.compile(r"\d{1,7}")


def _plain_integer(text: str) -> int | None:
    """One non-negative integer written plainly (no thousands separators: in a list they would be ambiguous)."""
    s = text.strip()
    return int(s) if _PLAIN_INTEGER.fullmatch(s) else None


def read_integer_list(answer: str, subject: str = "") -> list[int] | None:
    """A list of non-negative integers separated by commas or spaces, bracketed or not; ``None`` if unreadable.
    With a ``subject`` (see :func:`named`), also after a naming sentence ("The suffix array is 2, 0, 1")."""
    def core(text: str) -> list[int] | None:
        return read_list(text, _plain_integer, space_separated=True)
    return read_answer(answer, named(core, subject)) if subject else core(answer)


def integer_list_spellings(values: list[int]) -> list[str]:
    """Right answers in the spellings a careful grader accepts: commas, spaces, brackets, boxed, a lead-in."""
    commas, spaces = ", ".join(map(str, values)), " ".join(map(str, values))
    return [commas, spaces, f"[{commas}]", f"({commas})", ",".join(map(str, values)), f"\\boxed{{{commas}}}",
            f"Answer: {spaces}", f"{commas}.", f"The answer is [{commas}]."]


def integer_list_corruptions(values: list[int], rng: random.Random) -> list[str]:
    """Near misses: one entry off by one, a swapped pair of unequal entries, one entry dropped or repeated."""
    wrong: list[list[int]] = []
    position = rng.randrange(len(values))
    nudged = list(values)
    nudged[position] += 1 if nudged[position] == 0 or rng.random() < 0.5 else -1
    wrong.append(nudged)
    pairs = [(i, j) for i in range(len(values)) for j in range(i + 1, min(len(values), i + 4)) if values[i] != values[j]]
    if pairs:
        i, j = rng.choice(pairs)
        swapped = list(values)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        wrong.append(swapped)
    wrong.append(values[:-1])
    wrong.append([*values, values[-1]])
    return [", ".join(map(str, w)) for w in wrong if w != values] + [f"{', '.join(map(str, values))} or {values[0]}"]


def read_word(answer: str, letters: str, subject: str = "") -> str | None:
    """One word over ``letters`` (quoted, boxed or after a lead-in is fine), or ``None``; case is kept.
    With a ``subject`` (see :func:`named`), also after a naming sentence ("The minimal rotation is aab")."""
    def word(text: str) -> str | None:
        s = text.strip().strip("\"'`“”‘’")
        return s if s and len(s) <= MAX_WORD_CHARS and all(c in letters for c in s.lower()) else None
    return read_answer(answer, named(word, subject) if subject else word)


def word_spellings(word: str) -> list[str]:
    """Right answers a careful grader accepts for a one-word answer."""
    return [word, f'"{word}"', f"`{word}`", f"\\boxed{{{word}}}", f"Answer: {word}", f"{word}.",
            f"The answer is {word}."]


def repetitive_text(rng: random.Random, length: int, letters: str) -> str:
    """A string of ``length`` letters: a fresh random start (a third of it), then either a fresh letter or a
    copy of an earlier factor appended at each step, so it has the borders, periods and repeats a uniform
    random string rarely has without collapsing into one letter repeated."""
    text = "".join(rng.choice(letters) for _ in range(max(2, length // 3)))
    while len(text) < length:
        if rng.random() < 0.5:
            text += rng.choice(letters)
        else:
            start = rng.randrange(len(text))
            text += text[start: start + rng.randint(2, max(2, length // 4))]
    return text[:length]


def sorted_rotations(text: str) -> list[int]:
    """Start indices of the rotations of ``text`` in sorted order (Python's order: ``$`` before letters)."""
    doubled = text + text
    return sorted(range(len(text)), key=lambda i: doubled[i: i + len(text)])


def burrows_wheeler(text: str) -> str:
    """The last column of the sorted rotations of ``text`` (which should end with its unique ``$``)."""
    return "".join(text[i - 1] for i in sorted_rotations(text))


def sorting_comparisons(text: str) -> int:
    """Letter comparisons that tell sorted neighbours apart: the rotations' count plus their common prefixes."""
    doubled = text + text
    order = sorted_rotations(text)
    total = len(text)
    for before, after in zip(order, order[1:]):
        common = 0
        while common < len(text) and doubled[before + common] == doubled[after + common]:
            common += 1
        total += common
    return total


# Edit scripts: one operation per item, positions counted from 0 in the string as it is when the operation runs.
EDIT_GRAMMAR = (
    "insert P L: put the letter L before the letter at position P (P equal to the current length appends it); "
    "delete P: remove the letter at position P; replace P L: change the letter at position P to L. Positions "
    "count from 0 and refer to the string as it is when the operation is applied, after the operations before it"
)
MAX_OPERATIONS = 1_000
_OPERATION = re.compile(r"(insert|delete|replace|substitute) ?(\d{1,6})(?: ?['\"]?([a-z])['\"]?)?")
Operation = tuple[str, int, str]


def read_operation(text: str) -> Operation | None:
    """One operation of the edit-script grammar (``substitute`` is read as ``replace``), or ``None``."""
    match = _OPERATION.fullmatch(text.strip().lower())
    if match is None:
        return None
    kind, position, letter = match.group(1), int(match.group(2)), match.group(3) or ""
    kind = "replace" if kind == "substitute" else kind
    if (kind == "delete") != (letter == ""):
        return None
    return kind, position, letter


def read_script(answer: str) -> list[Operation] | None:
    """Operations separated by new lines, commas or semicolons (numbered or bulleted lines too)."""
    return read_list(answer, read_operation, max_items=MAX_OPERATIONS)


def apply_script(text: str, script: list[Operation]) -> tuple[str | None, str]:
    """The string ``script`` turns ``text`` into, or ``None`` and why (the first operation out of range)."""
    letters = list(text)
    for number, (kind, position, letter) in enumerate(script, 1):
        limit = len(letters) if kind == "insert" else len(letters) - 1
        if position > limit:
            return None, f"operation {number} ({kind} {position}) is out of range: the string then has " \
                         f"{len(letters)} letters"
        if kind == "insert":
            letters.insert(position, letter)
        elif kind == "delete":
            del letters[position]
        else:
            letters[position] = letter
    return "".join(letters), ""


def written_script(script: list[Operation], separator: str = "\n") -> str:
    return separator.join(f"{kind} {position}" + (f" {letter}" if letter else "") for kind, position, letter in script)
