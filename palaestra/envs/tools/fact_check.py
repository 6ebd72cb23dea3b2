"""Fact checking against sources of mixed reliability: is a claim about the generated world true?

A claim states one fact about an entity, named directly or through a path of relations
(``The founder of Quorvex Labs was born in Tarnholm.``); half the claims are true. From level 1 on,
every claim is contested: an unverified document states a different value for its fact, and a false
claim is exactly what that document says; the documents marked (verified) settle it. The answer is
``true`` or ``false`` (``yes``/``no``, ``correct``/``incorrect``, ``supported``/``refuted`` also
count). The skill: weighing sources, not just finding one that matches. A claim never names the entity its path starts from as
the value (true or false): "The spouse of X is married to X" is true on its face, and such claims (one in nine
at level 2, 91% true) paid a no-lookup rule "the same name twice means true". The difficulty is the path
length, plus one for a contested claim, plus the world's size in units of 20 people.

Generation speed: about 240 problems/s at level 4 on this 2-core machine. Each problem draws its own
fictional world by the shared knowledge generator (48 people, every name and alias checked unique after
normalisation), so nothing can be memorised across problems, and at the contested levels it also renders
the whole document collection to find the facts an unverified document states falsely, since a contested
claim must be one the documents the model reads really dispute; the two take nearly all the time.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import GenerationError, Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.tools import _qa as qa
from palaestra.envs.tools.common import ToolTask
from palaestra.generators import knowledge
from palaestra.generators.knowledge import RELATIONS, CorpusParams, World
from palaestra.verifiers.choices import read_yes_no

TRUE_WORDS = ("true", "yes", "correct", "supported")
FALSE_WORDS = ("false", "no", "incorrect", "refuted")
MAX_CANDIDATES = 30  # facts tried as the claim's fact before another world is drawn


@register
class FactCheck(ToolTask):
    id = "tools/fact_check"
    family = "tools"
    description = "Decide whether a claim about a generated world is true, weighing verified and unverified sources."
    tags = ("tools", "multi-turn", "search", "fact-checking", "source-reliability")
    tool_names = ("search", "open")
    version = 3

    @dataclass(frozen=True)
    class Config:
        hops: int
        contested: bool  # the claim's fact is contradicted by an unverified document
        corpus: CorpusParams

    presets = (
        Config(1, False, qa.corpus_params(people=16, noise=0.0)),
        Config(1, True, qa.corpus_params(people=24, noise=0.5)),
        Config(2, True, qa.corpus_params(people=32, noise=0.6)),
        Config(2, True, qa.corpus_params(people=40, noise=0.8, facts_per_document=2)),
        Config(3, True, qa.corpus_params(people=48, noise=1.0, facts_per_document=2)),
    )
    # Capped at level 12's values: past them generation raises or passes its CPU bound (difficulty saturates).
    growth = Growth(limits={"hops": 11})

    def generate(self, rng: random.Random, config: Config) -> Problem:
        truth = rng.random() < 0.5

        def draw() -> dict[str, Any] | None:
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
            for subject, relation, false_value in candidates[:MAX_CANDIDATES]:
                prefix = _path_to(world, rng, subject, config.hops - 1)
                if prefix is not None:
                    if false_value is None:
                        false_value = _falsify(world, rng, subject, relation)
                    if prefix[0] in (str(world.get(subject, relation)), str(false_value)):
                        continue  # a claim naming its start twice ("the spouse of X is married to X") says its truth
                    return _claim(world, seed, prefix, subject, relation, false_value, truth, config.contested)
            return None

        claim = retry(draw, what="a claim", attempts=20)
        budget = 2 * config.hops + 4
        prompt = (
            f"{qa.INTRO}\n\nIs this claim true or false?\nClaim: {claim['claim']}\n\n"
            f"Answer true or false, e.g. <answer>true</answer>.\n\n{self.tools_prompt(budget)}"
        )
        data = {"corpus": knowledge.corpus_spec(claim.pop("seed"), config.corpus), **claim, "budget": budget}
        return Problem(prompt=prompt, answer="true" if truth else "false", data=data)

    def difficulty(self, problem: Problem) -> float:
        """Facts to check (one more when contested) plus a twentieth of the world, plus a tenth of the
        claim's words."""
        data = problem.data
        return len(data["facts"]) + int(data["contested"]) + qa.world_size(problem) / 20 + len(data["claim"].split()) / 10

    def judge(self, problem: Problem, answer: str) -> Verdict:
        said = read_yes_no(answer, yes=TRUE_WORDS, no=FALSE_WORDS)
        if said is None:
            return Verdict.unparsed("answer true or false")
        return Verdict.judge(said == problem.data["truth"])

    def plan(self, problem: Problem) -> list[str]:
        facts = [tuple(f) for f in problem.data["facts"]]
        return [*qa.lookup_moves(qa.corpus_of(problem), facts), problem.answer or ""]

    def spellings(self, problem: Problem) -> list[str]:
        words = TRUE_WORDS if problem.data["truth"] else FALSE_WORDS
        return [w.capitalize() for w in words] + [f"{words[0]}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        words = FALSE_WORDS if problem.data["truth"] else TRUE_WORDS
        return [*words, "true or false"]


def _claim(world: World, seed: int, prefix: tuple[str, list[str]], subject: str, relation: str,
           false_value: str | int, truth: bool, contested: bool) -> dict[str, Any]:
    start, relations = prefix
    value = world.get(subject, relation)
    claimed = value if truth else false_value
    subject_phrase = knowledge.noun_phrase(world, start, relations)
    text = RELATIONS[relation].templates[0].format(s=subject_phrase, o=_spell(world, relation, claimed))
    facts = [*knowledge.follow(world, start, relations)[1], (subject, relation, value)]
    return {"seed": seed, "claim": text[0].upper() + text[1:], "truth": truth, "facts": [list(f) for f in facts],
            "contested": contested}


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


def _path_to(world: World, rng: random.Random, target: str, hops: int) -> tuple[str, list[str]] | None:
    """A path of ``hops`` entity relations ending at ``target``, visiting no entity twice, or None."""
    start, relations, seen = target, [], {target}
    for _ in range(hops):
        incoming = [(f.subject, f.relation) for f in world.facts
                    if f.value == start and RELATIONS[f.relation].to_entity and f.subject not in seen]
        if not incoming:
            return None
        start, relation = rng.choice(incoming)
        relations.insert(0, relation)
        seen.add(start)
    return start, relations
