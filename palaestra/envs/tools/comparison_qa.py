"""Comparison questions over a generated document collection, answered with search and open.

Two entities are compared on an attribute found in the documents: ``Who was born earlier, the CEO
of Quorvex Labs or Taro Vennik?``, ``Which city has the larger population, ...?``, ``Which
organisation was founded earlier, ...?`` (answer: the winner's name; any alias counts) or ``Were A
and B born in the same country?`` (yes or no, then the country each was born in: ``no, Vaitreindia, Ligristan``;
``yes, Trosemia``). Each side is named directly or, at higher levels,
through a path of 1-2 relations that must be resolved first. The compared values always differ,
so the answer is unique. The skill: finding two facts in parallel and comparing them, not chaining.
The difficulty is the number of facts needed plus the world's size in units of 20 people.

Version 7: the other questions ask for the two compared values after the winner's name, in the order the question
names the two sides (``Greiston Higeek, 1912, 1946``): naming the first of the two names the question gives scored
0.36-0.38 at levels 0-1 (a coin flip on the compared ones), and the values are the comparison's certificate, found
only in the documents. Thousands separators are read (``1,855,258``).

Version 5: the yes/no questions (a quarter of the problems at every level) ask for the two birth countries with the
verdict. A bare ``no`` (the commoner side) scored 0.13-0.15 at levels 2-4, a coin flip the top level must not pay;
the countries are the verdict's certificate and can only be found in the documents.

Generation speed: about 360 problems/s at level 4 on this 2-core machine: each problem draws its own
fictional world (people, organisations, cities, countries with their facts, near-duplicate names and
aliases, by the shared knowledge generator, which checks every name and alias is unique after
normalisation), so that no answer can be memorised across problems; the world is over 90% of the time for
56 people. The question itself is picked from the world in well under a millisecond.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Verdict, register
from palaestra.core.task import Growth
from palaestra.envs.tools import _qa as qa
from palaestra.envs.tools.common import ToolTask
from palaestra.generators import knowledge
from palaestra.generators.knowledge import CorpusParams, normalize
from palaestra.verifiers.choices import read_yes_no
from palaestra.verifiers.normalize import read_answer

_NO_EXAMPLE = "no, Kestravia, Ulmorand"  # invented country names: no generated world has them
_YES_EXAMPLE = "yes, Kestravia"
_VERDICT_SEPARATOR = re.compile(r"\s*(?:[,;:]|\.\s|\s-\s|\s–\s|\s—\s)\s*")
_COUNTRY_SEPARATOR = re.compile(r"\s*(?:[,;]|\band\b)\s*", re.I)


@register
class ComparisonQa(ToolTask):
    id = "tools/comparison_qa"
    family = "tools"
    description = "Compare two entities on a fact found by searching a generated document collection."
    tags = ("tools", "multi-turn", "search", "retrieval", "comparison")
    tool_names = ("search", "open")
    version = 7  # v7: a comparison's answer names the two compared values; v6: paths are drawn to end at the compared kind (blind walks took up to 3 s); v5: a yes/no answer
    # names the two birth countries (a bare "no" was a coin flip that paid)
    bare_verdicts = ("yes", "no")

    @dataclass(frozen=True)
    class Config:
        hops: int  # relations naming each compared entity (0: by name)
        corpus: CorpusParams

    presets = (
        Config(0, qa.corpus_params(people=16, noise=0.0)),
        Config(0, qa.corpus_params(people=24, noise=0.4)),
        Config(1, qa.corpus_params(people=32, noise=0.5)),
        Config(1, qa.corpus_params(people=48, noise=0.8)),
        Config(2, qa.corpus_params(people=56, noise=1.0, facts_per_document=2)),
    )
    # Capped at 9 hops, level 11's (version 4; 10 before): with 10, drawing a question took up to 2.7 s of CPU
    # at 12 seeds, past the kit's 2 s bound; the difficulty saturates from level 11.
    growth = Growth(limits={"hops": 9})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        seed, world, question = qa.draw_question(
            rng, config.corpus, lambda world: knowledge.comparison_question(world, rng, hops=config.hops))
        budget = 2 * len(question.facts) + 2
        countries: list[list[str]] = []
        answer = question.answer
        if question.answer_type == "yes_no":
            # The verdict and its certificate: the country each person was born in, in the order asked. The example
            # holds invented country names (never a world's) and shows both verdict words, so it never is the answer.
            countries = [[world.entities[str(c)].name, *world.entities[str(c)].aliases]
                         for _, relation, c in question.facts if relation == "country"]
            names = [spelled[0] for spelled in countries]
            answer = f"{question.answer}, {names[0]}" if question.answer == "yes" else f"no, {names[0]}, {names[1]}"
            form = ("Answer yes or no, then the country each of them was born in, in the order the question names "
                    f"them (one country when both were born there), e.g. <answer>{_NO_EXAMPLE}</answer> or "
                    f"<answer>{_YES_EXAMPLE}</answer>.")
        else:
            values = _compared_values(question)
            answer = f"{question.answer}, {values[0]}, {values[1]}"
            example = _POPULATION_EXAMPLE if _is_population(question) else _YEAR_EXAMPLE
            form = ("Answer with the name (an alias also counts), then the two values you compared, in the order the "
                    f"question names the two sides, e.g. <answer>{qa.example_answer(question)}, {example}</answer>.")
        prompt = f"{qa.INTRO}\n\nQuestion: {question.text}\n\n{form}\n\n{self.tools_prompt(budget)}"
        data = {"corpus": knowledge.corpus_spec(seed, config.corpus), "question": question.to_dict(), "budget": budget}
        if countries:
            data["countries"] = countries
        return Problem(prompt=prompt, answer=answer, data=data)

    def difficulty(self, problem: Problem) -> float:
        # Facts to find, plus the collection's size in units of 20 people.
        return len(qa.question_of(problem).facts) + qa.world_size(problem) / 20

    def judge(self, problem: Problem, answer: str) -> Verdict:
        question = qa.question_of(problem)
        if len(answer) > qa.MAX_ANSWER_CHARS:
            return Verdict.wrong("answer too long")
        if question.answer_type == "yes_no":
            said = read_answer(answer, _read_verdict)
            if said is None:
                return Verdict.unparsed("answer yes or no, then the country each was born in (e.g. no, A, B)")
            verdict, named = said
            a, b = ({normalize(name) for name in spelled} for spelled in problem.data["countries"])
            if len(named) == 1:
                named = (named[0], named[0])
            if verdict != (question.answer == "yes") or named[0] not in a or named[1] not in b:
                return Verdict.wrong("incorrect")
            return Verdict.right()
        compared = read_answer(answer, _read_comparison)
        if compared is None:
            return Verdict.unparsed("answer with the name, then the two compared values (e.g. Mira Tolvek, 1931, 1958)")
        name, values = compared
        if values != _compared_values(question):
            return Verdict.wrong("the compared values are not the documents' (in the order the question names them)")
        return qa.judge_named_answer(name, question)

    def plan(self, problem: Problem) -> list[str]:  # the lookups, then the answer with its certificate
        question = qa.question_of(problem)
        return [*qa.lookup_moves(qa.corpus_of(problem), question.facts), str(problem.answer)]

    def spellings(self, problem: Problem) -> list[str]:
        question = qa.question_of(problem)
        if question.answer_type == "yes_no":
            word, (a, b) = question.answer, problem.data["countries"]
            return [f"{word.capitalize()}: {a[-1]}; {b[-1]}", f"{word.upper()} - {a[0]} and {b[0]}.",
                    f"**{word}**, {a[0]}, {b[-1]}"]
        first, second = _compared_values(question)
        return [*(f"{name}, {first}, {second}" for name in question.accepted()), f"**{question.answer}** ({first:,} vs "
                f"{second:,})", f"{question.answer}: {first} and {second}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        question = qa.question_of(problem)
        if question.answer_type == "yes_no":
            other = "no" if question.answer == "yes" else "yes"
            a, b = problem.data["countries"][0][0], problem.data["countries"][1][0]
            return [question.answer or "", other, "yes or no", f"{other}, {a}, {b}", f"no, {b}, {a}" if a != b else f"no, {a}",
                    f"{question.answer}, {a}, {b} or {b}, {a}"]
        world = qa.corpus_of(problem).world
        compared = {str(s) for s, relation, _ in question.facts
                    if relation in ("birth_year", "founding_year", "population")}
        loser = next(world.entities[e].name for e in sorted(compared) if world.entities[e].name != question.answer)
        first, second = _compared_values(question)
        return [loser, f"{question.answer} or {loser}", "not in the corpus", str(question.answer),
                f"{loser}, {first}, {second}", f"{question.answer}, {second}, {first}", f"{question.answer}, {first}"]


def _read_verdict(text: str) -> tuple[bool, tuple[str, ...]] | None:
    """``(yes?, the countries' name keys)`` from ``yes, A`` / ``no: A; B`` / ``No - A and B``, or None. Linear: fixed
    patterns only, on at most :data:`qa.MAX_ANSWER_CHARS` characters."""
    parts = _VERDICT_SEPARATOR.split(text.strip(), maxsplit=1)
    if len(parts) != 2:
        return None
    verdict = read_yes_no(parts[0])
    names = tuple(_without_lead(normalize(name)) for name in _COUNTRY_SEPARATOR.split(parts[1].strip()))
    if verdict is None or not 1 <= len(names) <= 2 or not all(names):
        return None
    return verdict, names


_LEADS = ("both were born in ", "both born in ", "both in ", "were born in ", "was born in ", "born in ")


def _without_lead(key: str) -> str:
    """A country's name key without a lead-in such as ``both were born in`` (``yes, both in Trosemia``)."""
    for lead in _LEADS:
        if key.startswith(lead):
            return normalize(key[len(lead):])
    return key


_COMPARED = ("birth_year", "founding_year", "population")
_YEAR_EXAMPLE, _POPULATION_EXAMPLE = "1931, 1958", "402113, 95870"  # fixed placeholders, never the documents'
# "Name, 1912, 1946", "Name (1,855,258 vs 1,178,100)", "Name: 1912 and 1946." (whole numbers, thousands separators)
_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?!\d)|\d+")
_NAME_END = " \t\n,;:(–—-"  # separators between the name and the first value (stripped, not matched: linear)
_BETWEEN = re.compile(r"[\s,;/]*(?:(?:and|vs\.?|versus)[\s,;/]*)?")
_AFTER = re.compile(r"[\s)]*\.?\s*")


def _compared_values(question: knowledge.Question) -> tuple[int, int]:
    """The two compared values, in the order the question names the sides."""
    found = [int(value) for _, relation, value in question.facts if relation in _COMPARED]
    return found[0], found[1]


def _is_population(question: knowledge.Question) -> bool:
    return any(relation == "population" for _, relation, _ in question.facts)


def _read_comparison(text: str) -> tuple[str, tuple[int, int]] | None:
    """``(name, (first value, second value))`` from ``Name, 1912, 1946`` and the forms above, or None: exactly two
    numbers after the name, nothing but a separator between them and nothing but a bracket or a full stop after."""
    numbers = list(_NUMBER.finditer(text))
    if len(numbers) != 2:
        return None
    first, second = numbers
    if not _BETWEEN.fullmatch(text, first.end(), second.start()) or not _AFTER.fullmatch(text, second.end()):
        return None
    name = text[: first.start()].rstrip(_NAME_END)
    if not name:
        return None
    return name, (int(first.group().replace(",", "")), int(second.group().replace(",", "")))
