"""Question answering over a generated knowledge corpus: the shared parts of the search tasks.

A problem stores the corpus's spec (:func:`palaestra.generators.knowledge.corpus_spec`: a seed and
the :class:`~palaestra.generators.knowledge.CorpusParams`), never the corpus: generation needs only
the world (:func:`draw_world`, a few milliseconds), and the tools, the oracle and the judge rebuild
the corpus (cached per process) when they need it. Every problem has its own world, so nothing
can be memorised across problems.

Example::

    >>> import random
    >>> params = corpus_params(people=16)
    >>> seed, world = draw_world(random.Random(0), params)
    >>> len(world.of_kind("person"))
    16
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from palaestra.core import GenerationError, Problem, Verdict, retry
from palaestra.envs.tools.common import counted_units, tool_call
from palaestra.generators import knowledge
from palaestra.generators.knowledge import Corpus, CorpusParams, Question, World
from palaestra.verifiers.normalize import read_answer

MAX_ANSWER_CHARS = 400

# Words that find a relation's statements with BM25 (the oracle's queries).
RELATION_WORDS = {"born_in": "born birthplace native", "birth_year": "born year", "works_for": "works employed",
                  "married_to": "married spouse", "founder": "founded founder", "ceo": "CEO chief executive",
                  "founding_year": "founded year established", "headquarters": "headquarters head office",
                  "country": "located city", "population": "population residents", "capital": "capital"}

INTRO = (
    "The document collection describes invented people, organisations, cities and countries; nothing in it can be "
    "known without reading it. Use the search tool to find documents and the open tool to read one. Documents "
    "marked (unverified) may state false facts; documents marked (verified) never do. Names can differ by a "
    "single letter: check that a document is about the entity you want. An entity may be mentioned by an alias."
)
ENTITY_EXAMPLE = "Mira Tolvek"  # the prompt's example name (no generated world has it)
NUMBER_EXAMPLE = "1,250"


def corpus_params(people: int, noise: float = 0.0, facts_per_document: int = 3, redundancy: int = 1,
                  wrong: float | None = None, near: float | None = None) -> CorpusParams:
    """World size and noise from two knobs: ``people`` (the rest scales with it) and ``noise`` in [0, 1]
    (paraphrase, alias mentions, distractors, unverified documents and near-duplicate names)."""
    return CorpusParams(
        people=people, organisations=max(3, people // 6), cities=max(4, people // 5), countries=max(2, people // 16),
        near_duplicates=round(0.3 * noise, 3) if near is None else near, facts_per_document=facts_per_document,
        redundancy=redundancy, paraphrase=round(0.8 * noise, 3), alias_mentions=round(0.4 * noise, 3),
        distractors=round(0.5 * noise, 3), wrong_documents=round(0.3 * noise, 3) if wrong is None else wrong)


def draw_world(rng: random.Random, params: CorpusParams) -> tuple[int, World]:
    """A fresh corpus seed and its world (the world only: the documents are rendered on demand)."""

    def draw() -> tuple[int, World] | None:
        seed = rng.getrandbits(32)
        try:
            return seed, knowledge.generate_world(random.Random(seed), params)
        except GenerationError:  # a name generator ran out of fresh near-duplicates: another world
            return None

    return retry(draw, what="a knowledge world", attempts=20)


def draw_question(rng: random.Random, params: CorpusParams,
                  ask: Callable[[World], Question]) -> tuple[int, World, Question]:
    """A corpus seed, its world and ``ask(world)``; another world when ``ask`` finds no question in it."""

    def draw() -> tuple[int, World, Question] | None:
        seed, world = draw_world(rng, params)
        try:
            return seed, world, ask(world)
        except GenerationError:
            return None

    # Some asks fit few worlds (aggregation_qa's counts, whose answer is drawn first: up to 14 worlds at one
    # seed in 150), and 20 worlds ran out at a seed in a few thousand; every problem found within 20 is the same.
    return retry(draw, what="a world with a fitting question", attempts=200)


def corpus_of(problem: Problem) -> Corpus:
    return knowledge.corpus_from_spec(problem.data["corpus"])


def question_of(problem: Problem) -> Question:
    return Question.from_dict(problem.data["question"])


def world_size(problem: Problem) -> float:
    """People in the problem's world (a difficulty ingredient)."""
    return float(problem.data["corpus"]["params"]["people"])


CONFUSIONS = ("near_duplicates", "paraphrase", "alias_mentions", "distractors", "wrong_documents")


def confusion(problem: Problem) -> float:
    """How misleading the problem's corpus is: the sum of its shares of near-duplicate people, paraphrased facts,
    alias mentions, distractor and wrong documents (0 for a clean corpus; a difficulty ingredient)."""
    params = problem.data["corpus"]["params"]
    return float(sum(params.get(name, 0.0) for name in CONFUSIONS))


def lookup_moves(corpus: Corpus, facts: list[tuple[str, str, Any]] | tuple,
                 opened: set[str] | None = None) -> list[str]:
    """The oracle's tool calls finding ``facts``: for each fact not stated in a document opened
    already, a search for the subject's name and the relation's words, then opening a verified
    document stating it (one of the hits when there is one)."""
    from palaestra.tools.search import SearchTool

    search = SearchTool(corpus)
    opened = set() if opened is None else opened
    moves = []
    for subject, relation, _ in facts:
        stating = [d.id for d in corpus.stating(str(subject), relation)]
        if any(d in opened for d in stating):
            continue
        query = f"{corpus.world.entities[str(subject)].name} {RELATION_WORDS[relation]}"
        hits = re.findall(r"^\d+\. \[(d\d+)\]", search.call({"query": query, "k": 10}), re.MULTILINE)
        chosen = next((d for d in hits if d in stating), stating[0])
        moves += [tool_call("search", query=query, k=10), tool_call("open", doc_id=chosen)]
        opened.add(chosen)
    return moves


def judge_named_answer(answer: str, question: Question) -> Verdict:
    """An entity name (or alias), a number or ``not in the corpus``, read by the answer grammar.

    The question holds every accepted spelling, so judging needs no corpus (rebuilding one costs ~20 ms)."""
    if len(answer) > MAX_ANSWER_CHARS:
        return Verdict.wrong("answer too long")

    numeric = question.answer_type in ("number", "year")
    units = counted_units(question.text) if numeric else ()

    def read(text: str) -> bool | None:
        if numeric and _minus_before_digit(text):  # the name key drops punctuation: "-50" would read as 50
            return None
        if text.rstrip().endswith("?"):  # "5?" is a guess put as a question, not an answer (the key drops the "?")
            return None
        bare = text.strip().rstrip(".").rstrip()  # "It is Drivos." is the answer grammar's lead-in
        for unit in units:  # "8 people" for "How many people work for X?"
            if bare.lower().endswith(" " + unit):
                text = bare[: -len(unit)]
                break
        return True if knowledge.answer_matches(text, question) else None

    ok = read_answer(answer, read)
    if ok:
        return Verdict.right()
    return Verdict.wrong("incorrect")


def _minus_before_digit(text: str) -> bool:
    """Whether a minus sign or dash (then optional spaces) comes before a digit: a negative number or a range,
    never one of this family's counts, years or populations. Linear in the text.

    >>> _minus_before_digit("-50"), _minus_before_digit("1970 - 1971"), _minus_before_digit("1,234.")
    (True, True, False)
    """
    after_dash = False  # a dash seen, and only spaces since
    for char in text:
        if char in "-\u2212\u2013":
            after_dash = True
        elif char.isdigit() and after_dash:
            return True
        elif not char.isspace():
            after_dash = False
    return False


def example_answer(question: Question) -> str:
    """An example answer spelling for the prompt: a fixed placeholder of the answer's kind, never chosen by
    looking at the answer (an example that avoids the answer tells the answer away)."""
    return NUMBER_EXAMPLE if question.answer_type in ("number", "year") else ENTITY_EXAMPLE
