"""LZ77 factorisation of a string with a stated window and triple format, by the greedy longest-match rule.

At each position the encoder emits a triple (offset, length, next letter): it looks back at most ``window``
letters for the longest earlier copy of the text starting here (the copy may run on into the text it is
producing, and it must leave at least one letter, which the triple then spells), taking the nearest start
among equally long copies, and writing (0, 0, letter) when no letter matches. The prompt states these rules,
so the factorisation is unique. The verifier decodes the answer (rejecting offsets outside the window or
before the start), says if it does not spell the string, and otherwise names the first triple that breaks the
greedy rule (a shorter copy than the longest, or a farther start than the nearest).

Version 2: a string is redrawn until both stated details decide some triple: taking the farthest start among
equally long copies, or stopping copies at the current position, gives another factorisation (they answered
0.59 and 0.47 of level 0).

Version 3: the window decides a triple too (a copy from farther back than the window would be longer): ignoring
the window answered 0.78, 0.75, 0.47, 0.50 and 0.15 of levels 0-4 (40 seeds a level); now 0. Level 0 has 14
letters (12 before), so its problems stay distinct.

Difficulty: the letter comparisons a naive encoder makes (every start in the window, compared letter by
letter until a mismatch) on the drawn string.
"""

from __future__ import annotations

import random
import re
import string
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.strings.common import repetitive_text
from palaestra.verifiers.normalize import named, read_answer

EXAMPLE = "(0,0,x) (0,0,y) (2,2,x)"  # a fixed placeholder of the right shape: never derived from the answer
MAX_TRIPLES = 2_000
_TRIPLE = re.compile(r"[(<\[] ?(\d{1,6}) ?, ?(\d{1,6}) ?, ?['\"]?([a-z])['\"]? ?[)>\]]")
_BETWEEN = re.compile(r"[\s,;]*")
Triple = tuple[int, int, str]


def lz77(text: str, window: int, *, farthest: bool = False, overlap: bool = True) -> tuple[list[Triple], int]:
    """The greedy factorisation (longest match, nearest start on ties) and the naive encoder's comparisons;
    ``farthest`` and ``overlap=False`` give two misreadings of the rules (the farthest start on ties, copies
    that stop at the current position)."""
    triples: list[Triple] = []
    comparisons, position = 0, 0
    while position < len(text):
        best_length, best_offset = 0, 0
        for offset in range(1, min(window, position) + 1):
            length = 0
            while (position + length < len(text) - 1 and text[position - offset + length] == text[position + length]
                   and (overlap or length < offset)):
                length += 1
            comparisons += length + 1
            if length > best_length or (farthest and 0 < length == best_length):  # else the nearest start wins ties
                best_length, best_offset = length, offset
        triples.append((best_offset, best_length, text[position + best_length]))
        position += best_length + 1
    return triples, comparisons


def _read_triples(text: str) -> list[Triple] | None:
    """Triples ``(offset, length, letter)`` separated by spaces, commas or new lines, bracketed or not."""
    s = text.strip().lower()
    if len(s) > 40 * MAX_TRIPLES:
        return None
    if s[:1] in "[{" and s[-1:] in "]}" and s[1:2] in "(<[":
        s = s[1:-1].strip()  # a list of triples in brackets
    triples: list[Triple] = []
    position = _BETWEEN.match(s, 0).end()  # type: ignore[union-attr]
    while position < len(s):
        triple = _TRIPLE.match(s, position)
        if triple is None or len(triples) >= MAX_TRIPLES:
            return None
        triples.append((int(triple.group(1)), int(triple.group(2)), triple.group(3)))
        position = _BETWEEN.match(s, triple.end()).end()  # type: ignore[union-attr]
    return triples or None


def _written(triples: list[Triple]) -> str:
    return " ".join(f"({offset},{length},{letter})" for offset, length, letter in triples)


@register
class Lz77(Task):
    id = "strings/lz77"
    family = "strings"
    description = "LZ77 factorisation into (offset, length, next letter) triples by the greedy longest-match rule."
    tags = ("strings", "algorithmic", "compression")
    version = 3  # v3: the window decides some triple (ignoring it answered 0.78 of level 0)

    @dataclass(frozen=True)
    class Config:
        length: int  # letters in the string
        window: int  # how far back a copy may start
        alphabet: int  # distinct letters

    # level 0 has 14 letters (12 before v3): of the 12-letter strings on which the window decides a triple, 91% of
    # 1,000 were distinct; of 14 letters, 98%
    presets = (Config(14, 4, 3), Config(16, 6, 3), Config(21, 8, 3), Config(27, 10, 3), Config(34, 12, 4))
    growth = Growth(steps={"length": 7, "window": 2})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        def every_rule_matters(text: str) -> bool:
            triples = lz77(text, config.window)[0]
            return (lz77(text, config.window, farthest=True)[0] != triples
                    and lz77(text, config.window, overlap=False)[0] != triples
                    and lz77(text, len(text))[0] != triples)

        # the tie rule, the overlapping copy and the window must each decide a triple: the farthest start on ties
        # answered 0.59 of level 0, copies stopping at the current position 0.47 of level 0 and 0.40 of level 4,
        # copies from anywhere before (no window) 0.78 and 0.75 of levels 0-1 (v3)
        text = retry(lambda: repetitive_text(rng, config.length, string.ascii_lowercase[: config.alphabet]),
                     every_rule_matters, what="a string on which the tie rule and overlapping copies matter")
        triples, comparisons = lz77(text, config.window)
        prompt = (
            f"Encode this string with LZ77, using a window of {config.window} letters:\n\n{text}\n\n"
            f"Rules: start at the first letter. At the current position, find the longest copy: a start at most "
            f"{config.window} letters back (offset 1 to {config.window}, never before the first letter) from "
            f"which the letters match the ones from the current position on. The copy may run past the current "
            f"position into the letters being encoded, but it must stop before the last letter of the string, "
            f"so that one letter is always left to write. Among equally long copies take the smallest offset. "
            f"Write the triple (offset, length, next letter), where the next letter is the one right after the "
            f"copied letters, then move past the copy and that letter. With no matching letter at all, write "
            f"(0,0,letter).\n\nAnswer with the triples in order, separated by spaces, for example: {EXAMPLE}"
        )
        return Problem(prompt=prompt, answer=_written(triples),
                       data={"text": text, "window": config.window, "triples": [list(t) for t in triples],
                             "comparisons": comparisons})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        # "The LZ77 encoding is ...": the name's digits are no word of the naming sentence, so it is a subject here
        triples = read_answer(answer, named(_read_triples, r"(?:lz77\s+)?(?:encoding|triples|output|compression|"
                                                           r"parse|factori[sz]ation)|lz77"))
        if triples is None:
            return Verdict.unparsed("expected triples (offset,length,letter) separated by spaces, such as "
                                    "(0,0,a) (1,2,b)")
        text, window = problem.data["text"], problem.data["window"]
        decoded: list[str] = []
        for number, (offset, length, letter) in enumerate(triples, 1):
            if offset > window or offset > len(decoded) or (offset == 0) != (length == 0):
                return Verdict.wrong(f"triple {number} ({offset},{length},{letter}) has an impossible offset for "
                                     f"a window of {window} letters")
            if len(decoded) + length + 1 > len(text):
                return Verdict.wrong("the triples decode to more letters than the string has")
            for _ in range(length):
                decoded.append(decoded[-offset])
            decoded.append(letter)
        if "".join(decoded) != text:
            return Verdict.wrong("the triples do not decode to the string")
        reference = [tuple(t) for t in problem.data["triples"]]
        differs = next((i for i, (w, r) in enumerate(zip(triples, reference)) if w != r), None)
        if differs is not None:
            offset, length, _ = reference[differs]
            written_offset, written_length, _ = triples[differs]
            rule = (f"the longest copy there has length {length}" if written_length != length
                    else f"the nearest start of the longest copy has offset {offset}")
            return Verdict.wrong(f"the triples decode to the string, but triple {differs + 1} "
                                 f"({written_offset},{written_length},...) breaks the greedy rule: {rule}")
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """Letter comparisons of the naive greedy encoder on the drawn string."""
        return float(problem.data["comparisons"])

    def spellings(self, problem: Problem) -> list[str]:
        triples = [tuple(t) for t in problem.data["triples"]]
        commas = ", ".join(f"({o}, {n}, {c})" for o, n, c in triples)
        lines = "\n".join(f"({o},{n},{c})" for o, n, c in triples)
        quoted = ", ".join(f"({o}, {n}, '{c}')" for o, n, c in triples)
        return [*super().spellings(problem), commas, lines, f"[{quoted}]", f"\\boxed{{{_written(triples)}}}",
                f"Answer: {commas}.", _written(triples).upper(), f"The LZ77 encoding is {_written(triples)}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        triples: list[Triple] = [(t[0], t[1], t[2]) for t in problem.data["triples"]]
        wrong: list[list[Triple]] = []
        copies = [i for i, t in enumerate(triples) if t[1] > 0]
        if copies:
            i = rng.choice(copies)
            offset, length, letter = triples[i]
            position = sum(t[1] + 1 for t in triples[:i])
            # a shorter copy then the letters one by one: decodes right, but is not greedy
            shorter = (offset, length - 1, problem.data["text"][position + length - 1]) if length > 1 else \
                (0, 0, problem.data["text"][position])
            wrong.append([*triples[:i], shorter, (0, 0, letter), *triples[i + 1:]])
            wrong.append([*triples[:i], (offset, length + 1, letter), *triples[i + 1:]])
        i = rng.randrange(len(triples))
        offset, length, letter = triples[i]
        wrong.append([*triples[:i], (offset, length, "z" if letter != "z" else "y"), *triples[i + 1:]])
        wrong.append(triples[:-1])
        return [_written(w) for w in wrong if w != triples] + [f"{_written(triples)} or {_written(triples[:-1])}"]
