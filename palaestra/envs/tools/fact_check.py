"""Fact checking against sources of mixed reliability: which of several claims about a generated world are true?

Each problem shows five numbered claims about one generated world. A claim states one fact about an entity,
named directly or through a path of relations (``The founder of Quorvex Labs was born in Tarnholm.``), and each
claim is true or false on its own, by a fair coin. From level 1 on, every claim is contested: an unverified
document states a different value for its fact, and a false claim is exactly what that document says; the
documents marked (verified) settle it. The answer is the set of the true claims' numbers (``2, 3`` in any
order, ``{2, 3}``, ``Claims 2 and 3 are true.``; ``none`` when no claim is true, ``all`` when every one is;
or a verdict per claim, ``1: false, 2: true, ...``).
The skill: weighing sources, not just finding one that matches. A claim never names the entity its path
starts from as the value (true or false): "The spouse of X is married to X" is true on its face, and such
claims (one in nine at level 2, 91% true) paid a no-lookup rule "the same name twice means true". The claims
of a problem name and are about disjoint entities (each claim's start, subject, true and claimed value), so no
claim's truth constrains another's (a marriage is symmetric, a capital lies in its country, a CEO works for
their organisation). The difficulty is the facts to check over all claims (their path lengths), plus one per
contested claim, plus the world's size in units of 20 people.

Version 4: one true/false claim per problem paid a coin-flipping policy 0.5, and the constant ``true`` about
as much, at every level. Now five independent claims are answered together as the set of the true ones, so a
constant or a guessed subset earns 1/32 in expectation (at most 0.08 measured over 200 problems of any
level, the most common sets picked on the same problems), and a reader who believes the first document a
search finds for each fact, or the value most documents state, whom the unverified documents mislead, at most
0.05 at the contested levels (declared as heuristics; at level 0 no document lies and such a reader is the
honest one). The tool budget
grows with the claims: ``5 * (2 * hops + 2)`` calls (a search and an open per fact, two to spare per claim).
Paths are found by a bounded backward search, since five claims with long paths past the presets need it.

Generation speed: about 190 problems/s at level 4 on this 2-core machine. Each problem draws its own
fictional world by the shared knowledge generator (48 people, every name and alias checked unique after
normalisation), so nothing can be memorised across problems, and at the contested levels it also renders
the whole document collection to find the facts an unverified document states falsely, since a contested
claim must be one the documents the model reads really dispute; the two take nearly all the time.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from palaestra.core import GenerationError, Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.tools import _qa as qa
from palaestra.envs.tools.common import ToolTask
from palaestra.generators import knowledge
from palaestra.generators.knowledge import RELATIONS, Corpus, CorpusParams, World
from palaestra.verifiers.sets import numbered, read_set

MAX_CANDIDATES = 60  # contested facts tried as claims before another world is drawn
PATH_EXPANSIONS = 60  # steps of the backward search for one claim's path before the fact is given up
EXAMPLE = "2, 3"  # the prompt's example answer: fixed, independent of the problem's answer
NONE_WORDS = ("no claim is true", "no claims are true", "none of them", "none of the claims", "none are true",
              "all are false", "all false", "all claims are false")
ALL_WORDS = ("all", "all of them", "all claims", "all claims are true", "all are true", "all of them are true",
             "every claim is true")
_LEADS = ("the true claims are", "true claims are", "the true claims:", "true claims:", "true claims",
          "the true ones are", "true:", "the claims that are true are")
_REST_FALSE = (", the rest are false", "; the rest are false", ". the rest are false", ", the others are false",
               "; the others are false", ". the others are false", ", all others are false")
# One claim's verdict in a list of them ("claim 2: false", "3. true", "4 - true"); a fixed pattern on short items.
_VERDICT = re.compile(r"(?:claim\s?)?(\d{1,3})\s?[:.)=-]?\s?(true|false)\.?")
_TAILS = (" are true", " is true", " are correct", " is correct")


@register
class FactCheck(ToolTask):
    id = "tools/fact_check"
    family = "tools"
    description = ("Decide which of several claims about a generated world are true, weighing verified and "
                   "unverified sources.")
    tags = ("tools", "multi-turn", "search", "fact-checking", "source-reliability")
    tool_names = ("search", "open")
    version = 4

    @dataclass(frozen=True)
    class Config:
        claims: int  # claims per problem, each true or false by a fair coin
        hops: int
        contested: bool  # every claim's fact is contradicted by an unverified document
        corpus: CorpusParams

    presets = (
        Config(5, 1, False, qa.corpus_params(people=16, noise=0.0)),
        Config(5, 1, True, qa.corpus_params(people=24, noise=0.5)),
        Config(5, 2, True, qa.corpus_params(people=32, noise=0.6)),
        Config(5, 2, True, qa.corpus_params(people=40, noise=0.8, facts_per_document=2)),
        Config(5, 3, True, qa.corpus_params(people=48, noise=1.0, facts_per_document=2)),
    )
    # Capped at level 12's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"hops": 11})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        truths = [rng.random() < 0.5 for _ in range(config.claims)]

        def draw() -> tuple[int, list[dict[str, Any]]] | None:
            seed = rng.getrandbits(32)
            try:  # a contested fact is found in the documents: render them (build_corpus caches them)
                world = (knowledge.build_corpus(seed, config.corpus).world if config.contested
                         else knowledge.generate_world(random.Random(seed), config.corpus))
            except GenerationError:
                return None
            if config.contested:
                corpus = knowledge.build_corpus(seed, config.corpus)
                candidates = sorted({(s, r, v) for d in corpus.documents if not d.verified
                                     for s, r, v, ok in d.stated if not ok}, key=repr)
            else:
                candidates = [(f.subject, f.relation, None) for f in world.facts]
            rng.shuffle(candidates)
            claims: list[dict[str, Any]] = []
            incoming = _incoming(world)
            touched: set[str] = set()  # entities the claims so far name or are about: the next avoids them all
            for subject, relation, false_value in candidates[:MAX_CANDIDATES]:
                if subject in touched:
                    continue
                prefix = _path_to(world, rng, subject, config.hops - 1, incoming)
                if prefix is None:
                    continue
                if false_value is None:
                    false_value = _falsify(world, rng, subject, relation)
                value = world.get(subject, relation)
                if prefix[0] in (str(value), str(false_value)):
                    continue  # a claim naming its start twice ("the spouse of X is married to X") says its truth
                mine = {subject, prefix[0]} | {str(v) for v in (value, false_value) if str(v) in world.entities}
                if mine & touched:
                    continue  # claims sharing an entity can constrain each other (a marriage, a capital's country)
                touched |= mine
                claims.append(_claim(world, prefix, subject, relation, false_value, truths[len(claims)]))
                if len(claims) == config.claims:
                    return seed, claims
            return None

        seed, claims = retry(draw, what="claims about one world", attempts=20)
        budget = config.claims * (2 * config.hops + 2)
        listing = "\n".join(f"{i}. {c['claim']}" for i, c in enumerate(claims, 1))
        prompt = (
            f"{qa.INTRO}\n\nWhich of these claims are true? Each claim is true or false on its own.\n{listing}\n\n"
            "Answer with the numbers of the true claims, separated by commas, in any order (none if no claim is "
            f"true), e.g. <answer>{EXAMPLE}</answer>.\n\n{self.tools_prompt(budget)}"
        )
        data = {"corpus": knowledge.corpus_spec(seed, config.corpus), "claims": claims,
                "contested": config.contested, "budget": budget}
        return Problem(prompt=prompt, answer=_spell_set(i for i, c in enumerate(claims, 1) if c["truth"]), data=data)

    def difficulty(self, problem: Problem) -> float:
        """Facts to check over all claims (one more per contested claim) plus a twentieth of the world, plus a
        tenth of a claim's mean words."""
        data = problem.data
        claims = data["claims"]
        words = sum(len(c["claim"].split()) for c in claims) / len(claims)
        return (sum(len(c["facts"]) for c in claims) + len(claims) * int(data["contested"])
                + qa.world_size(problem) / 20 + words / 10)

    def judge(self, problem: Problem, answer: str) -> Verdict:
        claims = problem.data["claims"]
        said = read_true_claims(answer, len(claims))
        if said is None:
            return Verdict.unparsed("the numbers of the true claims separated by commas, or none")
        return Verdict.judge(said == {i for i, c in enumerate(claims, 1) if c["truth"]})

    def plan(self, problem: Problem) -> list[str]:
        facts = tuple(tuple(f) for c in problem.data["claims"] for f in c["facts"])
        return [*qa.lookup_moves(qa.corpus_of(problem), list(facts)), problem.answer or ""]

    def heuristics(self) -> dict[str, Callable[..., str]]:
        """Cheap policies answering in one reply: believe the first document a search for each fact finds, or the
        value most documents state (readers who never weigh sources), and a random subset of the claims."""
        return {"trust the first document found": lambda problem, state, history, rng: first_document_answer(problem),
                "believe the majority of documents": lambda problem, state, history, rng: majority_answer(problem),
                "a random subset": lambda problem, state, history, rng: _spell_set(
                    i for i in range(1, len(problem.data["claims"]) + 1) if rng.random() < 0.5)}

    def spellings(self, problem: Problem) -> list[str]:
        claims = problem.data["claims"]
        gold = problem.answer or ""
        verdicts = ", ".join(f"{i}: {'true' if c['truth'] else 'false'}" for i, c in enumerate(claims, 1))
        if gold == "none":
            return ["None", "none.", "No claim is true.", "{}", "Answer: none", verdicts.replace(", ", "\n")]
        items = gold.split(", ")
        listed = ", ".join(items[:-1]) + f" and {items[-1]}" if len(items) > 1 else gold
        sentence = f"Claims {listed} are true." if len(items) > 1 else f"Claim {gold} is true."
        everything = ["All claims are true."] if len(items) == len(claims) else []
        return [*everything, verdicts, f"{{{gold}}}", ", ".join(reversed(items)), f"{gold}.", listed,
                ", ".join(f"claim {i}" for i in items), sentence, f"True: {gold}", f"\\boxed{{{gold}}}"]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        k = len(problem.data["claims"])
        gold = problem.answer or ""
        truth = set() if gold == "none" else {int(i) for i in gold.split(", ")}
        flip = rng.randint(1, k)
        wrong = [_spell_set(truth ^ {flip}), f"{gold} or {_spell_set(truth ^ {flip})}", f"{gold}, {k + 1}",
                 "true", "false", f"{gold}. None."]
        if truth != set(range(1, k + 1)):
            wrong.append(_spell_set(range(1, k + 1)))
        return wrong


def read_true_claims(answer: str, k: int) -> frozenset[int] | None:
    """The claim numbers an answer names as true, or None when it cannot be read: ``2, 3``, ``{2, 3}``,
    ``claims 2 and 3``, ``Claims 2 and 3 are true.``, ``True: 2, 3``; ``none`` (or ``No claim is true.``)
    for the empty set, ``all`` (or ``All claims are true.``) for every claim; or a verdict for every claim
    (``1: false, 2: true, 3: true, 4: false, 5: false``). Every number must be a claim's (1 to ``k``), each given
    once; a hedge (``2 or 3``), a retraction or a second answer is unreadable.

    >>> read_true_claims("Claims 3 and 1 are true.", 4) == {1, 3}, read_true_claims("none", 4)
    (True, frozenset())
    >>> read_true_claims("2 or 3", 4), read_true_claims("2, 5", 4)
    (None, None)
    """
    if not isinstance(answer, str) or len(answer) > qa.MAX_ANSWER_CHARS:
        return None

    def read(text: str) -> frozenset[int] | None:
        return read_set(text, numbered(k, ("claim",)), allow_empty=True, empty_words=NONE_WORDS)

    said = read(answer)
    if said is not None:
        return said
    if " ".join(answer.lower().split()).strip(" .!") in ALL_WORDS:
        return frozenset(range(1, k + 1))
    verdicts = _verdict_list(answer, k)
    if verdicts is not None:
        return verdicts
    text = answer.strip().rstrip(".").strip()  # a sentence: "The true claims are 1 and 3." / "Claims 1, 3 are true"
    lower = text.lower()
    for rest in _REST_FALSE:  # "1 and 3 are true, the rest are false"
        if lower.endswith(rest):
            text, lower = text[: -len(rest)].strip(), lower[: -len(rest)].strip()
            break
    for lead in _LEADS:
        if lower.startswith(lead):
            text, lower = text[len(lead):].strip(), lower[len(lead):].strip()
            break
    for tail in _TAILS:
        if lower.endswith(tail):
            text = text[: -len(tail)].strip()
            break
    if text.lower().startswith("claims "):
        text = text[len("claims "):]
    return read(text) if text and text != answer.strip() else None


def _verdict_list(answer: str, k: int) -> frozenset[int] | None:
    """A verdict per claim, every claim once (``1: true, 2: false, ...``, one per line or separated by commas or
    semicolons): the set of those marked true, or None."""
    said: dict[int, bool] = {}
    for item in answer.strip().rstrip(".").replace(";", "\n").replace(",", "\n").split("\n"):
        if not item.strip():
            continue
        match = _VERDICT.fullmatch(item.strip().lower())
        if match is None:
            return None
        number = int(match.group(1))
        if not 1 <= number <= k or number in said:
            return None
        said[number] = match.group(2) == "true"
    return frozenset(n for n, true in said.items() if true) if len(said) == k else None


def _spell_set(numbers: Any) -> str:
    return ", ".join(str(i) for i in sorted(numbers)) or "none"


def first_document_answer(problem: Problem) -> str:
    """The answer of a reader who searches each fact of each claim (the entity's name and the relation's words)
    and believes the first hit that states a value for it, never weighing verified against unverified."""
    from palaestra.tools.search import index_for

    corpus = qa.corpus_of(problem)
    index = index_for(corpus)
    true = []
    for number, claim in enumerate(problem.data["claims"], 1):
        current: str | int | None = claim["facts"][0][0]
        for _, relation, _ in claim["facts"]:
            current = _first_stated(corpus, index, str(current), relation)
            if current is None:
                break
        if current is not None and current == claim["claimed"]:
            true.append(number)
    return _spell_set(true)


def majority_answer(problem: Problem) -> str:
    """The answer of a reader who believes, for each fact of each claim, the value most documents state (verified
    or not; a tie goes to the value stated first in the collection)."""
    corpus = qa.corpus_of(problem)
    true = []
    for number, claim in enumerate(problem.data["claims"], 1):
        current: str | int | None = claim["facts"][0][0]
        for _, relation, _ in claim["facts"]:
            votes = Counter(value for d in corpus.documents for s, r, value, _ in d.stated
                            if s == str(current) and r == relation)
            current = votes.most_common(1)[0][0] if votes else None
            if current is None:
                break
        if current is not None and current == claim["claimed"]:
            true.append(number)
    return _spell_set(true)


def _first_stated(corpus: Corpus, index: Any, subject: str, relation: str) -> str | int | None:
    if subject not in corpus.world.entities:
        return None
    query = f"{corpus.world.entities[subject].name} {qa.RELATION_WORDS[relation]}"
    for position, _ in index.search(query, 10):
        for s, r, value, _ in corpus.documents[position].stated:
            if s == subject and r == relation:
                return value
    return None


def _claim(world: World, prefix: tuple[str, list[str]], subject: str, relation: str,
           false_value: str | int, truth: bool) -> dict[str, Any]:
    start, relations = prefix
    value = world.get(subject, relation)
    claimed = value if truth else false_value
    subject_phrase = knowledge.noun_phrase(world, start, relations)
    text = RELATIONS[relation].templates[0].format(s=subject_phrase, o=_spell(world, relation, claimed))
    facts = [*knowledge.follow(world, start, relations)[1], (subject, relation, value)]
    return {"claim": text[0].upper() + text[1:], "truth": truth, "claimed": claimed,
            "facts": [list(f) for f in facts]}


def _falsify(world: World, rng: random.Random, subject: str, relation: str) -> str | int:
    """A plausible wrong value for ``(subject, relation)``."""
    value = world.get(subject, relation)
    kind = RELATIONS[relation].object_kind
    if kind in knowledge.ENTITY_KINDS:
        return rng.choice([e.id for e in world.of_kind(kind) if e.id not in (value, subject)])
    if kind == "year":
        return int(value) + rng.choice((-1, 1)) * rng.randint(1, 15)
    return int(value) + rng.choice((-1, 1)) * rng.randint(1, max(1, int(value) // 3))


def _spell(world: World, relation: str, value: str | int) -> str:
    kind = RELATIONS[relation].object_kind
    if kind in knowledge.ENTITY_KINDS:
        return world.entities[str(value)].name
    return f"{int(value):,}" if kind == "number" else str(value)


def _path_to(world: World, rng: random.Random, target: str, hops: int,
             incoming: dict[str, list[tuple[str, str]]]) -> tuple[str, list[str]] | None:
    """A random path of ``hops`` entity relations ending at ``target``, visiting no entity twice, or None.

    A depth-first search backwards from ``target`` over ``incoming`` (:func:`_incoming`), each step's options in
    random order, giving up after ``PATH_EXPANSIONS`` steps: a walk without backtracking dead-ends on most long
    paths (an unmarried person no organisation names), and five claims need five paths."""
    relations: list[str] = []
    seen = {target}
    expansions = 0

    def extend(entity: str, left: int) -> str | None:
        nonlocal expansions
        if left == 0:
            return entity
        options = [(s, r) for s, r in incoming.get(entity, ()) if s not in seen]
        for subject, relation in rng.sample(options, len(options)):
            expansions += 1
            if expansions > PATH_EXPANSIONS:
                return None
            seen.add(subject)
            relations.insert(0, relation)
            start = extend(subject, left - 1)
            if start is not None:
                return start
            seen.discard(subject)
            relations.pop(0)
        return None

    start = extend(target, hops)
    return None if start is None else (start, relations)


def _incoming(world: World) -> dict[str, list[tuple[str, str]]]:
    """For each entity, the ``(subject, relation)`` of the entity-valued facts whose value it is, in fact order."""
    incoming: dict[str, list[tuple[str, str]]] = {}
    for fact in world.facts:
        if RELATIONS[fact.relation].to_entity:
            incoming.setdefault(str(fact.value), []).append((fact.subject, fact.relation))
    return incoming
