"""DFA equivalence: do two DFAs accept the same language? If not, give a string that tells them apart.

Whether the pair is equivalent is drawn first: a fifth of the pairs are. ``equivalent`` is the
certificate-free side (no short proof is asked for), so it is kept rare: a constant ``equivalent``
scores about 0.20. Both DFAs are padded, renamed copies (redundant
states added, see :func:`palaestra.envs.languages._automata.inflate`) of one random minimal DFA; for
a non-equivalent pair the second copy is made from the minimal DFA with one transition redirected
or one state's acceptance flipped, kept only when the languages then differ on a non-empty string
and on at most 8% of the strings up to five letters (so no guessed string separates many pairs: the
best of all strings up to four letters scores 0.06-0.09 at levels 1-4 and 0.125 at level 0, against
0.14-0.29 before). Both labels pad the same way, so sizes say nothing about the answer.

The answer is ``equivalent``, or a distinguishing string: any string that exactly one of the two
DFAs accepts scores (the verifier runs both; the reference is a shortest one, found by
breadth-first search over state pairs).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.envs.languages._automata import accepts, distinguishing, inflate, random_minimal_dfa, table
from palaestra.verifiers.claims import mentions, tokens
from palaestra.verifiers.normalize import read_answer, strip_wrappers, unify

MAX_STRING = 500
EQUIVALENT = "equivalent"
# A fifth of the pairs are equivalent: the certificate-free side is rare, so answering it blindly pays little
EQUIVALENT_SHARE = 0.2
# At most this share of the strings up to DENSITY_LENGTH letters may tell a non-equivalent pair apart, so no
# guessed string (a constant answer) separates many pairs
MAX_DIFFERENCE_SHARE = 0.08
DENSITY_LENGTH = 5
_CLAIMS = frozenset(["equivalent", "they are equivalent", "the dfas are equivalent", "equivalent dfas",
                     "both are equivalent", "yes, they are equivalent", "the two dfas are equivalent"])
# "Not equivalent: abba" / "No, they are not equivalent, e.g. abba": the claim the witness already makes
_NOT_EQUIVALENT = re.compile(r"^\s*(?:no\s*[,.]?\s*)?(?:(?:they|the\s+(?:two\s+)?dfas)\s+are\s+)?not\s+equivalent\s*"
                             r"(?:[:;,.\-\u2013\u2014]\s*)?(?:(?:e\.g\.|for\s+example|for\s+instance|witness|"
                             r"counterexample)\s*[:,]?\s*)?(?:the\s+string\s+)?", re.IGNORECASE)
# "abba (DFA 1 accepts it, DFA 2 rejects it)": a remark on who accepts the witness (never one that hedges)
_REMARK = re.compile(r"\s*\((?=[^()]*\b(?:accepts?|rejects?)\b)(?![^()]*\b(?:or|equivalent)\b)[^()]*\)\s*\.?\s*$",
                     re.IGNORECASE)
_EMPTY = frozenset(["ε", "epsilon", "empty", "the empty string", "empty string", '""', "λ"])


@register
class DfaEquivalence(Task):
    id = "languages/dfa_equivalence"
    family = "languages"
    description = "Decide whether two DFAs are equivalent; if not, give a string that distinguishes them."
    tags = ("formal-languages", "automata", "counterexample")
    certificate_free = ("equivalent",)
    version = 2

    @dataclass(frozen=True)
    class Config:
        alphabet: str
        core: tuple[int, int]  # states of the shared minimal DFA
        padding: tuple[int, int]  # redundant states added to each copy
        min_witness: int  # a shortest distinguishing string has at least this many letters

    presets = (
        Config(alphabet="ab", core=(3, 3), padding=(0, 2), min_witness=2),
        Config(alphabet="ab", core=(3, 4), padding=(1, 2), min_witness=3),
        Config(alphabet="ab", core=(4, 5), padding=(1, 3), min_witness=3),
        Config(alphabet="abc", core=(4, 6), padding=(2, 3), min_witness=3),
        Config(alphabet="abc", core=(6, 8), padding=(2, 4), min_witness=4),
    )
    bounded = "larger configs are infeasible for its generator (no valid problem in 1,000 draws past the presets)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        same = rng.random() < EQUIVALENT_SHARE

        def draw() -> tuple[dict, dict, str | None] | None:
            core = random_minimal_dfa(rng, rng.randint(*config.core), config.alphabet)
            if core is None:
                return None
            other = core if same else _perturb(rng, core)
            first = inflate(rng, core, rng.randint(*config.padding), 0)
            second = inflate(rng, other, rng.randint(*config.padding), 0)
            if first is None or second is None:
                return None
            witness = distinguishing(first, second)
            if (witness is None) != same or (witness is not None and len(witness) < config.min_witness):
                return None
            if witness is not None and _difference_share(first, second, config.alphabet) > MAX_DIFFERENCE_SHARE:
                return None  # so many strings tell them apart that guessing one would often do
            return first, _rename(second, "p"), witness

        first, second, witness = retry(draw, what="a pair of DFAs with the drawn label")
        letters = ", ".join(config.alphabet)
        prompt = (
            f"Here are two deterministic finite automata over the alphabet {{{letters}}}.\n\n"
            f"DFA 1:\n{table(first)}\n\nDFA 2:\n{table(second)}\n\n"
            "Do they accept exactly the same language? If they do, answer: equivalent. If they do not, give a "
            "string that one of them accepts and the other rejects (any such string is accepted), written as its "
            "letters without spaces, for example: abba"
        )
        return Problem(prompt=prompt, answer=witness or EQUIVALENT, data={"first": first, "second": second})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        letters = set(problem.data["first"]["delta"][problem.data["first"]["start"]])
        said = read_claim(answer, letters)
        if said is None:
            return Verdict.unparsed("expected 'equivalent' or a string of the alphabet's letters")
        first, second = problem.data["first"], problem.data["second"]
        if said == EQUIVALENT:
            if _names_a_string(answer, letters):
                return Verdict.unparsed("the answer gives both 'equivalent' and a string")
            witness = distinguishing(first, second)
            return Verdict.judge(witness is None, "the DFAs are not equivalent")
        if accepts(first, said) == accepts(second, said):
            verb = "accept" if accepts(first, said) else "reject"
            return Verdict.wrong(f'both DFAs {verb} "{said}"')
        return Verdict.right()

    def difficulty(self, problem: Problem) -> float:
        """States of both DFAs times letters (the state pairs to explore)."""
        first, second = problem.data["first"], problem.data["second"]
        return float(len(first["states"]) * len(second["states"]) * len(first["delta"][first["start"]]))

    def spellings(self, problem: Problem) -> list[str]:
        gold = problem.answer or ""
        if gold == EQUIVALENT:
            return [*super().spellings(problem), "Equivalent", "They are equivalent.", "**equivalent**"]
        return [*super().spellings(problem), f'"{gold}"', " ".join(gold), f"{gold}.",
                f"Not equivalent: {gold}", f"They are not equivalent, for example {gold}",
                f"{gold} (exactly one of the DFAs accepts it)", gold.upper()]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold = problem.answer or ""
        first, second = problem.data["first"], problem.data["second"]
        alphabet = sorted(first["delta"][first["start"]])
        if gold == EQUIVALENT:
            return [rng.choice(alphabet) * rng.randint(1, 4), "not equivalent", "equivalent or not"]
        wrong = [EQUIVALENT, f"{gold} or {EQUIVALENT}", f"Not equivalent: {gold} or {gold}{alphabet[0]}",
                 f"{gold} (or equivalent)"]
        for length in range(1, 7):  # the shortest strings both accept or both reject
            agreeing = [w for w in _strings(alphabet, length) if accepts(first, w) == accepts(second, w)]
            if agreeing:
                wrong.append(rng.choice(agreeing))
                break
        return wrong


def _strings(alphabet: list[str], length: int) -> list[str]:
    words = [""]
    for _ in range(length):
        words = [w + a for w in words for a in alphabet]
    return words


def _perturb(rng: random.Random, dfa: dict) -> dict:
    """The DFA with one transition redirected or one state's acceptance flipped."""
    delta = {s: dict(moves) for s, moves in dfa["delta"].items()}
    accepting = set(dfa["accepting"])
    if rng.random() < 0.5:
        state = rng.choice(dfa["states"])
        letter = rng.choice(sorted(delta[state]))
        delta[state][letter] = rng.choice([s for s in dfa["states"] if s != delta[state][letter]])
    else:
        accepting ^= {rng.choice(dfa["states"])}
    return {**dfa, "delta": delta, "accepting": sorted(accepting, key=lambda q: int(q[1:]))}


def _rename(dfa: dict, prefix: str) -> dict:
    names = {s: prefix + s[1:] for s in dfa["states"]}
    return {
        "states": [names[s] for s in dfa["states"]],
        "start": names[dfa["start"]],
        "accepting": [names[s] for s in dfa["accepting"]],
        "delta": {names[s]: {a: names[t] for a, t in moves.items()} for s, moves in dfa["delta"].items()},
    }


def _difference_share(first: dict, second: dict, alphabet: str) -> float:
    """The share of the non-empty strings of up to ``DENSITY_LENGTH`` letters that exactly one DFA accepts."""
    words = [""]
    differ = total = 0
    for _ in range(DENSITY_LENGTH):
        words = [w + letter for w in words for letter in alphabet]
        total += len(words)
        differ += sum(accepts(first, w) != accepts(second, w) for w in words)
    return differ / total


def _names_a_string(text: str, letters: set[str]) -> bool:
    """Whether ``text`` also names a string of the alphabet (two letters or more, or the empty string):
    ``equivalent (abba)`` gives both answers."""
    words = tokens(text)
    return any(len(w) > 1 and set(w) <= letters for w in words) or mentions(text, ("epsilon", "empty string")) \
        or "ε" in text or '""' in text


def read_claim(text: str, letters: set[str]) -> str | None:
    """``EQUIVALENT``, a string over ``letters`` (``ε``/``empty`` for the empty string), or None."""
    if not isinstance(text, str) or len(text) > 2 * MAX_STRING + 400:
        return None

    def read(s: str) -> str | None:
        s = _REMARK.sub("", _NOT_EQUIVALENT.sub("", s, count=1), count=1) or s
        lowered = " ".join(s.lower().split()).rstrip(".")
        if lowered in _CLAIMS:
            return EQUIVALENT
        if lowered in _EMPTY:
            return ""
        word = "".join(s.split()).lower()  # the alphabet is lower case: "ABBA" is abba
        if word and len(word) <= MAX_STRING and all(ch in letters for ch in word):
            return word
        return None

    return read_answer(strip_wrappers(unify(text)), read)
