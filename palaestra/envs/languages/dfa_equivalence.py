"""DFA equivalence: do two DFAs accept the same language? Either answer comes with its certificate.

Whether the pair is equivalent is drawn first: half the pairs are. Both DFAs are padded, renamed copies
(redundant states added, see :func:`palaestra.envs.languages._automata.inflate`) of one random minimal
DFA; for a non-equivalent pair the second copy is made from the minimal DFA with one transition
redirected or one state's acceptance flipped, kept only when the languages then differ on a non-empty
string and on at most 8% of the strings up to five letters (so no guessed string separates many pairs:
the best of all strings up to four letters scores 0.04-0.05 at levels 1-4 and 0.12 at level 0 in
version 3). Both labels pad the same way, so sizes say nothing about the answer.

Both sides are certified. A non-equivalent pair is answered with a distinguishing string: any string
that exactly one of the two DFAs accepts scores (the verifier runs both; the reference is a shortest
one, found by breadth-first search over state pairs). An equivalent pair is answered ``equivalent``
followed by a **bisimulation**: pairs ``q~p`` of a state of DFA 1 and a state of DFA 2 (``q0~p0,
q4~p2, ...``) that hold the pair of start states, pair only states that agree on acceptance, and hold
the pair of the two moves on every letter from each listed pair. Every string then leads the two DFAs to
a listed pair, so the relation proves equivalence, and the verifier checks exactly those three things:
any such relation is accepted (the reference's, a larger one such as every pair of equivalent states,
in any order), and no relation exists for a non-equivalent pair (the closure of the start pair reaches
a pair that disagrees). The reference is the state pairs reachable together (breadth-first over the
product, :func:`palaestra.envs.languages._automata.reachable_pairs`, the traversal that finds the
distinguishing string): 4.9 pairs on average (at most 8) at level 0, 6.3 (10) at level 1, 8.4 (14) at
level 2, 10.4 (14) at level 3, 13.2 (17) at level 4, against DFAs of at most 5, 6, 8, 9 and 12 states:
at most 137 characters, so no cap is needed (answers past 4,000 characters are not read).

Accepted spellings: ``~``, ``=``, ``-``, ``<->``, ``↔``, ``≡`` between the states, or ``(q0, p0)``;
commas, semicolons or lines (bullets) between pairs; optional braces, ``equivalent``, ``Bisimulation:``
or ``R =`` before them; upper case. A pair may be written in either order (``p2~q4``): DFA 1's states
are named ``q*`` and DFA 2's ``p*``, so the order is never ambiguous. A pair repeated counts once (the
relation is a set). A pair naming an unknown state, or two states of one DFA, is wrong; a bare
``equivalent`` is wrong; a relation next to a string, or followed by any remark or hedge, is unread.

Version 3 added the bisimulation. Version 2 took a bare ``equivalent`` (no certificate) and kept it to
a fifth of the problems, so a constant ``equivalent`` scored 0.19-0.20 at every level; it now scores 0,
the prompt's fixed example relation scores 0.025 at level 0 (0 from level 1), the most common
reference relation at level 0 scores 0.03 as a constant, and the superset guess (every pair of states that
agree on acceptance) scores 0 at every level (it is never closed). Generation takes 2-5 ms per problem.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import cast

from palaestra.core import Problem, Task, Verdict, register, retry
from palaestra.envs.languages._automata import (
    accepts,
    bisimulation_flaw,
    distinguishing,
    inflate,
    random_minimal_dfa,
    reachable_pairs,
    table,
)
from palaestra.verifiers.normalize import read_answer, squeeze_spaces, strip_wrappers, unify, without_bullets

MAX_STRING = 500
MAX_ANSWER = 4_000  # a relation between two DFAs of up to 12 states takes some 200 characters
EQUIVALENT = "equivalent"
# Half the pairs are equivalent: both sides come with a certificate (a bisimulation, a distinguishing string)
EQUIVALENT_SHARE = 0.5
# The prompt's example relation: a fixed placeholder of the answer's form, the same for every problem
EXAMPLE_RELATION = "equivalent: q0~p0, q1~p2, q2~p1"
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
# "Counterexample: abba", "A distinguishing string: abba", "They differ on abba": a name for the witness without the
# verdict, or after a bare "No" ("No. Counterexample: abba"; never "Yes", which contradicts the witness) (one
# character class after it, so the pattern stays linear on long runs of spaces)
_WITNESS_LABEL = re.compile(r"^(?:no\b[\s,.:;\u2013\u2014]*)?(?:(?:an?|one|the)\s+)?(?:(?:counter-?\s?example|distinguishing\s+string|separating\s+"
                            r"string|witness)\b(?:\s+string)?(?:\s+is\b)?|(?:they|the\s+(?:two\s+)?dfas)\s+differ\s+"
                            r"(?:on|at|for)\b)[\s:,.;\u2013\u2014-]*(?:the\s+string\s+)?", re.IGNORECASE)
# "abba (DFA 1 accepts it, DFA 2 rejects it)": a remark on who accepts the witness (never one that hedges)
_REMARK = re.compile(r"\s*\((?=[^()]*\b(?:accepts?|rejects?)\b)(?![^()]*\b(?:or|equivalent)\b)[^()]*\)\s*\.?\s*$",
                     re.IGNORECASE)
_EMPTY = frozenset(["ε", "epsilon", "empty", "the empty string", "empty string", '""', "λ"])
# "equivalent: ", "Yes, they are equivalent. Bisimulation: ", "R = ": what may come before a relation
_RELATION_LEAD = re.compile(
    r"^(?:(?:yes\s*[,.]?\s*)?(?:(?:they|the\s+(?:two\s+)?dfas)\s+are\s+)?equivalent\b\s*[:;,.\u2013\u2014-]?\s*)?"
    r"(?:(?:with\s+|via\s+)?(?:the\s+|a\s+)?(?:bisimulation|relation)\b\s*(?:is\b|:)?\s*)?(?:r\s*=\s*)?",
    re.IGNORECASE)
_STATE = r"([A-Za-z]\d{1,4})"
_LINK = r"(?:~|\u223c|\u2248|==?|\u2261|-|\u2013|\u2014|<->|\u2194|<=>|\u21d4)"
# One related pair: q1~p2 (also =, -, <->, ↔, ≡) or (q1, p2) / [q1, p2] / (q1 ~ p2)
_PAIR = re.compile(rf"{_STATE}[ \t]*{_LINK}[ \t]*{_STATE}|[(\[][ \t]*{_STATE}[ \t]*(?:[,;]|{_LINK})?[ \t]*{_STATE}[ \t]*[)\]]")
_BETWEEN = re.compile(r"[ \t]*(?:[,;][ \t]*\n?|\n)?[ \t]*")
MAX_PAIRS = 2_000


@register
class DfaEquivalence(Task):
    id = "languages/dfa_equivalence"
    family = "languages"
    description = "Decide whether two DFAs are equivalent; if not, give a string that distinguishes them."
    tags = ("formal-languages", "automata", "counterexample")
    bare_verdicts = ("equivalent",)
    version = 3
    max_answer_chars = MAX_ANSWER

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
            "Do they accept exactly the same language? If they do, answer equivalent followed by a bisimulation "
            "that proves it: pairs state-of-DFA-1~state-of-DFA-2, separated by commas, that include the pair of the "
            "two start states, only pair states that are both accepting or both rejecting, and, for every listed "
            "pair and every letter, also list the pair of the two states that letter leads to (any such relation "
            "is accepted), for example: " + EXAMPLE_RELATION + ". If they do not, give a string that one of them "
            "accepts and the other rejects (any such string is accepted), written as its letters without spaces, "
            "for example: abba"
        )
        answer = witness if witness is not None else _relation_text(reachable_pairs(first, second))
        return Problem(prompt=prompt, answer=answer, data={"first": first, "second": second})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if not isinstance(answer, str) or len(answer) > self.max_answer_chars:
            return Verdict.unparsed(f"answer longer than {self.max_answer_chars} characters")
        first, second = problem.data["first"], problem.data["second"]
        letters = set(first["delta"][first["start"]])
        said = read_claim(answer, letters)
        if said is None:
            return Verdict.unparsed("expected 'equivalent' followed by related state pairs such as q0~p0, q1~p2, or a "
                                    "string of the alphabet's letters")
        if isinstance(said, list):
            relation = set()
            for a, b in said:  # DFA 1's states are q*, DFA 2's p*: a reversed pair (p1, q2) is still unambiguous
                if a in first["delta"] and b in second["delta"]:
                    relation.add((a, b))
                elif a in second["delta"] and b in first["delta"]:
                    relation.add((b, a))
                else:
                    return Verdict.wrong(f"{a} ~ {b} does not pair a state of DFA 1 with a state of DFA 2")
            flaw = bisimulation_flaw(first, second, relation)
            return Verdict.judge(flaw is None, flaw or "")
        if said == EQUIVALENT:
            return Verdict.wrong("'equivalent' needs its proof: the related state pairs, such as " + EXAMPLE_RELATION)
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
        if gold.startswith(EQUIVALENT):
            pairs = _pairs(gold)
            return [*super().spellings(problem), gold.replace("equivalent:", "Equivalent.", 1),
                    ", ".join(f"{a} ~ {b}" for a, b in reversed(pairs)),
                    "They are equivalent. Bisimulation: " + "; ".join(f"({a}, {b})" for a, b in pairs),
                    "equivalent\n" + "\n".join(f"- {a} = {b}" for a, b in pairs),
                    "equivalent: {" + ", ".join(f"{b.upper()}-{a.upper()}" for a, b in pairs) + "}",
                    "R = [" + ", ".join(f"({a}, {b})" for a, b in [*pairs, pairs[0]]) + "]"]
        return [*super().spellings(problem), f'"{gold}"', " ".join(gold), f"{gold}.",
                f"Not equivalent: {gold}", f"They are not equivalent, for example {gold}",
                f"{gold} (exactly one of the DFAs accepts it)", gold.upper()]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        gold = problem.answer or ""
        first, second = problem.data["first"], problem.data["second"]
        alphabet = sorted(first["delta"][first["start"]])
        if gold.startswith(EQUIVALENT):
            pairs = _pairs(gold)
            rejecting = next(q for q in second["states"] if q not in second["accepting"]) \
                if len(second["accepting"]) < len(second["states"]) else None
            accepting = second["accepting"][0] if second["accepting"] else None
            unpaired = [(a, rejecting if a in first["accepting"] else accepting) for a in first["states"]]
            odd = [(a, b) for a, b in unpaired if b is not None]
            return [EQUIVALENT, rng.choice(alphabet) * rng.randint(1, 4), "not equivalent", "equivalent or not",
                    _relation_text(pairs[1:]), _relation_text(pairs[:-1]) if len(pairs) > 1 else "equivalent: q0",
                    *[_relation_text([*pairs, pair]) for pair in odd[:1]], f"{gold}. Or {rng.choice(alphabet) * 3}",
                    f"{gold}, {rng.choice(alphabet) * 2}", _relation_text([(b, a) for a, b in pairs]).replace("p", "x")]
        wrong = [EQUIVALENT, f"{gold} or {EQUIVALENT}", f"Not equivalent: {gold} or {gold}{alphabet[0]}",
                 f"{gold} (or equivalent)", _relation_text(reachable_pairs(first, second)),
                 f"{_relation_text([(first['start'], second['start'])])} ({gold})"]
        for length in range(1, 7):  # the shortest strings both accept or both reject
            agreeing = [w for w in _strings(alphabet, length) if accepts(first, w) == accepts(second, w)]
            if agreeing:
                wrong.append(rng.choice(agreeing))
                break
        return wrong


def _relation_text(pairs: list[tuple[str, str]]) -> str:
    """``equivalent: q0~p0, q1~p2``: the answer naming a relation."""
    return f"{EQUIVALENT}: " + ", ".join(f"{a}~{b}" for a, b in pairs)


def _pairs(answer: str) -> list[tuple[str, str]]:
    """The pairs of a reference relation ``equivalent: q0~p0, q1~p2``."""
    return [(a, b) for a, b in (item.split("~") for item in answer.removeprefix(f"{EQUIVALENT}: ").split(", "))]


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


def read_relation(text: str) -> list[tuple[str, str]] | None:
    """The pairs, as written (lower case), of a relation ``q0~p0, q1~p2`` (``=``, ``-``, ``<->``, ``(q0, p0)``;
    commas, semicolons or lines between; in braces), after an optional ``equivalent:``; None if unreadable."""
    s = squeeze_spaces(text.strip())
    head, _, rest = s.partition("\n")
    if rest and _RELATION_LEAD.fullmatch(head):  # "equivalent:" on a line of its own, then a list of pairs
        s = without_bullets(rest).strip()
    else:
        s = without_bullets(_RELATION_LEAD.sub("", s, count=1)).strip()
    if s[:1] == "{" and s[-1:] == "}":
        s = s[1:-1].strip()
    elif s[:1] == "[" and s[-1:] == "]" and s[1:].lstrip()[:1] in "([":
        s = s[1:-1].strip()
    pairs: list[tuple[str, str]] = []
    position = 0
    for _ in range(MAX_PAIRS):
        match = _PAIR.match(s, position)
        if match is None:
            return None
        a, b = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
        pairs.append((a.lower(), b.lower()))
        position = _BETWEEN.match(s, match.end()).end()  # type: ignore[union-attr]
        if position >= len(s):
            return pairs
    return None


def read_claim(text: str, letters: set[str]) -> str | list[tuple[str, str]] | None:
    """``EQUIVALENT``, a relation's pairs (:func:`read_relation`), a string over ``letters`` (``ε``/``empty``
    for the empty string), or None."""
    if not isinstance(text, str) or len(text) > MAX_ANSWER:
        return None

    def read(s: str) -> str | list[tuple[str, str]] | None:
        s0 = s
        s = strip_wrappers(_REMARK.sub("", _WITNESS_LABEL.sub("", _NOT_EQUIVALENT.sub("", s, count=1), count=1),
                                       count=1)) or s
        lowered = " ".join(s.lower().split()).rstrip(".")
        if lowered in _CLAIMS:
            return EQUIVALENT
        if lowered in _EMPTY:
            return ""
        word = "".join(s.split()).lower()  # the alphabet is lower case: "ABBA" is abba
        if word and len(word) <= MAX_STRING and all(ch in letters for ch in word):
            return word
        return read_relation(s0)

    # spaces squeezed first: the remark pattern is quadratic on a long run of them
    # (mypy joins the reader's two result types into a Sequence: the cast restores the union)
    return cast("str | list[tuple[str, str]] | None", read_answer(strip_wrappers(squeeze_spaces(unify(text))), read))
