"""Synthetic knowledge graphs of invented entities, rendered as noisy corpora, with questions.

A :class:`World` is a small knowledge graph of invented people, organisations, cities and
countries, named by a syllable-based generator (no list of real entities is used), linked by
functional relations: a person is born in a city in a year, works for an organisation and may be
married; an organisation has a founder, a CEO, a founding year and a headquarters city; a city
lies in a country and has a population; a country has a capital. Every entity has a canonical
name and aliases (``T. Vennik``, ``Quorvex``, a city's former name, ``the Republic of Norvia``),
unique across the world. No model can know these facts in advance.

:func:`render_corpus` turns the facts into short documents (a few facts each) with difficulty
knobs (:class:`CorpusParams`): paraphrase templates, alias mentions, near-duplicate names,
distractor documents that state no question-relevant fact, and ZeroSearch-style document
quality: a share of extra documents from sources marked ``(unverified)`` that state wrong facts
among true ones. Verified documents never state a wrong fact and every fact is stated in at
least ``redundancy`` verified documents, so every question has one well-defined answer.

Question builders return a :class:`Question` with its ground truth (canonical answer plus
aliases, the supporting facts): :func:`multi_hop_question` (1-4 hops),
:func:`comparison_question`, :func:`aggregation_question` and :func:`no_answer_question` (an
unknown entity or a missing relation: the corpus holds no answer).

Everything is deterministic from the ``random.Random`` passed in. :func:`build_corpus` rebuilds a
corpus from a JSON-native ``(seed, params)`` spec and caches a few per process, so a problem
stores the spec (a few numbers), never the corpus.

Example::

    >>> import random
    >>> params = CorpusParams(people=12, organisations=4, cities=5, countries=2)
    >>> corpus = build_corpus(7, params)
    >>> corpus is build_corpus(7, params)          # cached per (seed, params)
    True
    >>> q = multi_hop_question(corpus.world, random.Random(1), hops=2)
    >>> q.hops, q.answer in corpus.world.names()
    (2, True)
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import random
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from palaestra.core.retry import retry

# --- names ------------------------------------------------------------------------------------

ONSETS = ("b", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z",
          "br", "dr", "gr", "kr", "tr", "st", "sk", "th", "sh", "vr")
VOWELS = ("a", "e", "i", "o", "u", "a", "e", "o", "ai", "ei", "ou")
CODAS = ("", "", "", "", "n", "r", "l", "s", "k", "m", "th", "nd", "rn", "x", "v")
FAMILY_ENDINGS = ("", "", "", "ek", "ani", "ova", "sen", "ard", "is", "ovic", "ell")
ORG_SUFFIXES = ("Dynamics", "Labs", "Holdings", "Works", "Group", "Institute", "Foundry", "Systems",
                "Trading Company", "Collective", "Industries", "Partners")
ORG_INDUSTRIES = ("a shipping company", "a software firm", "a textile manufacturer", "a research laboratory",
                  "an engineering firm", "a publishing house", "a food producer", "a mining company",
                  "an insurance company", "a design studio")
PROFESSIONS = ("an engineer", "a painter", "an economist", "a botanist", "a lawyer", "a physician",
               "an architect", "a journalist", "a chemist", "a musician", "a historian", "a pilot")
CITY_SUFFIXES = ("", "", "", "ford", "mere", "holm", "port", "dale", "wick", "haven")
COUNTRY_ENDINGS = ("ia", "ia", "land", "ova", "ar", "enia", "istan")
EVENT_KINDS = ("Festival", "Summit", "Fair", "Regatta", "Symposium", "Exhibition", "Congress")

VERIFIED_SOURCES = ("national archive", "civic registry", "reference encyclopedia", "official records office")
UNVERIFIED_SOURCES = ("anonymous forum post", "gossip column", "personal blog", "rumour newsletter")

ENTITY_KINDS = ("person", "organisation", "city", "country")


_ASCII_NON_ALNUM_TO_SPACE = {code: " " for code in range(128) if not chr(code).isalnum()}


def normalize(text: str) -> str:
    """A spelling-insensitive key: NFKC, casefolded, punctuation dropped, a leading ``the`` dropped.

    >>> normalize("  The Republic of  Norvia. ") == normalize("republic of norvia")
    True
    """
    text = unicodedata.normalize("NFKC", text).casefold()
    if text.isascii():  # nearly every name: one table lookup per character instead of a Python test
        text = text.translate(_ASCII_NON_ALNUM_TO_SPACE)
    else:
        text = "".join(ch if ch.isalnum() else " " for ch in text)
    words = text.split()
    if words and words[0] == "the":
        words = words[1:]
    return " ".join(words)


class NameForge:
    """Invents pronounceable names from syllables, never repeating a normalized name.

    >>> forge = NameForge(random.Random(0))
    >>> a, b = forge.word(2), forge.word(2)
    >>> a != b and a[0].isupper()
    True
    """

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.taken: set[str] = set()

    def syllables(self, count: int) -> str:
        rng = self.rng
        parts = [rng.choice(ONSETS) + rng.choice(VOWELS) for _ in range(count)]
        return ("".join(parts) + rng.choice(CODAS)).capitalize()

    def word(self, count: int) -> str:
        """A fresh word of ``count`` syllables (claimed, so it is never produced again)."""
        return self.claim(lambda: self.syllables(count))

    def claim(self, make: Callable[[], str | None]) -> str:
        """The first name from ``make()`` whose normalized form is still free; claims it."""
        name = retry(lambda: _free(make(), self.taken), what="an unused name", attempts=500)
        self.taken.add(normalize(name))
        return name

    def reserve(self, name: str) -> bool:
        """Claim ``name`` if free; False when it is taken."""
        key = normalize(name)
        if key in self.taken:
            return False
        self.taken.add(key)
        return True


def _free(name: str | None, taken: set[str]) -> str | None:
    return name if name is not None and normalize(name) not in taken else None


def near_duplicate(word: str, rng: random.Random) -> str:
    """One small edit of ``word``: a vowel changed, a consonant doubled or a letter dropped.

    >>> near_duplicate("Vennik", random.Random(3)) != "Vennik"
    True
    """
    lower = word.lower()
    vowel_spots = [i for i, ch in enumerate(lower) if ch in "aeiou"]
    consonant_spots = [i for i, ch in enumerate(lower) if ch not in "aeiou" and i > 0]
    edits = []
    if vowel_spots:
        i = rng.choice(vowel_spots)
        replacement = rng.choice([v for v in "aeiou" if v != lower[i]])
        edits.append(lower[:i] + replacement + lower[i + 1:])
    if consonant_spots:
        i = rng.choice(consonant_spots)
        edits.append(lower[: i + 1] + lower[i] + lower[i + 1:])
    if len(lower) > 4:
        i = rng.randrange(1, len(lower))
        edits.append(lower[:i] + lower[i + 1:])
    edits = [e for e in edits if e != lower] or [lower + "a"]
    return rng.choice(edits).capitalize()


# --- the graph --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Relation:
    """A functional relation: each subject has at most one object.

    ``noun`` names the object as a phrase around the subject (``the founder of {x}``),
    ``question`` asks for it, ``templates`` state the fact (the first one is canonical).
    """

    name: str
    subject_kind: str
    object_kind: str  # an entity kind, or "year" / "number" for a value
    noun: str
    question: str
    templates: tuple[str, ...]

    @property
    def to_entity(self) -> bool:
        return self.object_kind in ENTITY_KINDS


RELATIONS: dict[str, Relation] = {r.name: r for r in (
    Relation("born_in", "person", "city", "the birthplace of {x}", "In which city was {x} born?",
             ("{s} was born in {o}.", "{o} is the birthplace of {s}.", "{s} is a native of {o}.",
              "Records place the birth of {s} in the city of {o}.")),
    Relation("birth_year", "person", "year", "the birth year of {x}", "In what year was {x} born?",
             ("{s} was born in the year {o}.", "The birth of {s} was recorded in {o}.",
              "{s} came into the world in {o}.", "{o} is the year {s} was born.")),
    Relation("works_for", "person", "organisation", "the employer of {x}", "Which organisation does {x} work for?",
             ("{s} works for {o}.", "{s} is employed by {o}.", "{o} employs {s}.", "{s} holds a position at {o}.")),
    Relation("married_to", "person", "person", "the spouse of {x}", "Who is the spouse of {x}?",
             ("{s} is married to {o}.", "{s} and {o} are married.", "{o} is the spouse of {s}.",
              "{s} wed {o}.")),
    Relation("founder", "organisation", "person", "the founder of {x}", "Who founded {x}?",
             ("{s} was founded by {o}.", "{o} founded {s}.", "{o} established {s}.",
              "{s} owes its existence to its founder, {o}.")),
    Relation("ceo", "organisation", "person", "the CEO of {x}", "Who is the CEO of {x}?",
             ("The CEO of {s} is {o}.", "{o} is the chief executive of {s}.", "{s} is led by its CEO, {o}.",
              "{o} serves as chief executive officer of {s}.")),
    Relation("founding_year", "organisation", "year", "the founding year of {x}", "In what year was {x} founded?",
             ("{s} was founded in the year {o}.", "{s} was established in {o}.", "{s} has existed since {o}.",
              "The founding of {s} dates to {o}.")),
    Relation("headquarters", "organisation", "city", "the headquarters city of {x}",
             "In which city is {x} headquartered?",
             ("{s} is headquartered in {o}.", "{s} has its headquarters in {o}.", "The head office of {s} is in {o}.",
              "{o} hosts the headquarters of {s}.")),
    Relation("country", "city", "country", "the country of {x}", "In which country is {x} located?",
             ("{s} is located in {o}.", "{s} is a city in {o}.", "{s} lies within {o}.",
              "{o} is the country where {s} is found.")),
    Relation("population", "city", "number", "the population of {x}", "What is the population of {x}?",
             ("{s} has a population of {o}.", "{o} people live in {s}.", "The population of {s} is {o}.",
              "{s} is home to {o} residents.")),
    Relation("capital", "country", "city", "the capital of {x}", "What is the capital of {x}?",
             ("The capital of {s} is {o}.", "{o} is the capital of {s}.", "{s} is governed from its capital, {o}.",
              "{s} has {o} as its capital.")),
)}


@dataclass(frozen=True)
class Entity:
    """An invented entity: an id such as ``p12``, its kind, canonical name and aliases."""

    id: str
    kind: str
    name: str
    aliases: tuple[str, ...] = ()
    description: str = ""  # "an engineer", "a shipping company": an intro, not a queried fact


@dataclass(frozen=True)
class Fact:
    """``subject`` (an entity id) --``relation``--> ``value`` (an entity id, or an int)."""

    subject: str
    relation: str
    value: str | int


@dataclass
class World:
    """A knowledge graph: entities by id and the facts (functional relations) between them."""

    entities: dict[str, Entity]
    facts: list[Fact]
    objects: dict[tuple[str, str], str | int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.objects = {(f.subject, f.relation): f.value for f in self.facts}
        self._by_name = {normalize(n): e.id for e in self.entities.values() for n in (e.name, *e.aliases)}
        self._by_subject: dict[str, list[Fact]] = {}
        for f in self.facts:
            self._by_subject.setdefault(f.subject, []).append(f)
        self.ordered_ids = sorted(self.entities, key=_id_key)
        self._outgoing: dict[str, list[tuple[str, Relation, str | int]]] = {}

    def get(self, subject: str, relation: str) -> str | int | None:
        """The object of ``relation`` for ``subject``, or None when the world has no such fact."""
        return self.objects.get((subject, relation))

    def outgoing(self, subject: str) -> list[tuple[str, Relation, str | int]]:
        """``(relation name, relation, object)`` of every fact about ``subject``, in ``RELATIONS`` order (cached:
        random walks look each entity up many times)."""
        found = self._outgoing.get(subject)
        if found is None:
            found = [(name, rel, value) for name, rel in RELATIONS.items()
                     if (value := self.objects.get((subject, name))) is not None]
            self._outgoing[subject] = found
        return found

    def of_kind(self, kind: str) -> list[Entity]:
        """Entities of ``kind`` in id order."""
        return [self.entities[i] for i in self.ordered_ids if self.entities[i].kind == kind]

    def lookup(self, name: str) -> Entity | None:
        """The entity with this name or alias (spelling-insensitive), if any."""
        entity_id = self._by_name.get(normalize(name))
        return self.entities[entity_id] if entity_id is not None else None

    def names(self) -> list[str]:
        return [e.name for e in self.entities.values()]

    def facts_of(self, subject: str) -> list[Fact]:
        """The facts about ``subject`` (a fresh list, safe to shuffle)."""
        return list(self._by_subject.get(subject, ()))

    def subjects_with(self, relation: str, value: str | int) -> list[str]:
        """Every subject whose ``relation`` is ``value`` (e.g. the employees of an organisation)."""
        return [f.subject for f in self.facts if f.relation == relation and f.value == value]


# --- corpus parameters ------------------------------------------------------------------------


@dataclass(frozen=True)
class CorpusParams:
    """World size and corpus difficulty. JSON-native through :meth:`to_dict` / :meth:`from_dict`.

    people/organisations/cities/countries: world size.
    near_duplicates: share of people, organisations and cities named by a one-letter edit of
        another entity's name (or, for people, sharing a family name).
    facts_per_document: facts stated by one document.
    redundancy: verified documents stating each fact (>= 1).
    paraphrase: chance that a fact is stated by a non-canonical template.
    alias_mentions: chance that a mention inside a fact uses an alias instead of the name.
    distractors: distractor (event) documents per fact document; they state no queried fact.
    wrong_documents: unverified documents per verified fact document; each states at least one
        wrong fact among true ones (ZeroSearch-style document quality).
    """

    people: int = 24
    organisations: int = 6
    cities: int = 8
    countries: int = 3
    near_duplicates: float = 0.0
    facts_per_document: int = 3
    redundancy: int = 1
    paraphrase: float = 0.0
    alias_mentions: float = 0.0
    distractors: float = 0.0
    wrong_documents: float = 0.0

    def __post_init__(self) -> None:
        if self.people < 4 or self.organisations < 2 or self.cities < 2 or self.countries < 1:
            raise ValueError("a world needs at least 4 people, 2 organisations, 2 cities and 1 country")
        if self.cities < self.countries:
            raise ValueError("every country needs a city (its capital): cities >= countries")
        if self.facts_per_document < 1 or self.redundancy < 1:
            raise ValueError("facts_per_document and redundancy must be >= 1")

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CorpusParams:
        return cls(**data)


# --- world generation -------------------------------------------------------------------------

FIRST_YEAR, LAST_YEAR = 1900, 2000  # birth years
FOUNDING_AGE = (22, 60)             # a founder's age at founding


def generate_world(rng: random.Random, params: CorpusParams) -> World:
    """Invent a consistent world: founders are adults at founding, CEOs work for their
    organisation, marriages are symmetric, every country's capital lies in it."""
    forge = NameForge(rng)
    entities: dict[str, Entity] = {}
    facts: list[Fact] = []

    countries = [f"n{i}" for i in range(params.countries)]
    for cid in countries:
        name = forge.claim(lambda: forge.syllables(2).rstrip("aeiou") + rng.choice(COUNTRY_ENDINGS))
        entities[cid] = Entity(cid, "country", name, (f"the Republic of {name}",), "a country")

    city_names = _names_with_near_duplicates(
        rng, params.cities, params.near_duplicates,
        lambda: forge.claim(lambda: forge.syllables(rng.choice((1, 2))) + rng.choice(CITY_SUFFIXES)).capitalize(),
        lambda base: forge.claim(lambda: near_duplicate(base, rng)))
    cities = [f"c{i}" for i in range(params.cities)]
    city_country = {c: countries[i] if i < len(countries) else rng.choice(countries) for i, c in enumerate(cities)}
    for i, cid in enumerate(cities):
        former = forge.word(2)
        entities[cid] = Entity(cid, "city", city_names[i], (former,), "a city")
        facts.append(Fact(cid, "country", city_country[cid]))
        facts.append(Fact(cid, "population", rng.randrange(2_000, 2_000_000)))
    for country in countries:
        facts.append(Fact(country, "capital", rng.choice([c for c in cities if city_country[c] == country])))

    people = [f"p{i}" for i in range(params.people)]
    person_names = _person_names(forge, rng, params.people, params.near_duplicates)
    birth_year = {}
    for i, pid in enumerate(people):
        given, middle, family = person_names[i]
        aliases = (f"{given[0]}. {family}", f"{given} {middle} {family}", family)
        entities[pid] = Entity(pid, "person", f"{given} {family}", aliases, rng.choice(PROFESSIONS))
        birth_year[pid] = rng.randrange(FIRST_YEAR, LAST_YEAR + 1)
        facts.append(Fact(pid, "born_in", rng.choice(cities)))
        facts.append(Fact(pid, "birth_year", birth_year[pid]))

    orgs = [f"o{i}" for i in range(params.organisations)]
    cores = _names_with_near_duplicates(
        rng, params.organisations, params.near_duplicates,
        lambda: forge.word(rng.choice((2, 3))),
        lambda base: forge.claim(lambda: near_duplicate(base, rng)))
    employer: dict[str, str] = {}
    ceos = rng.sample(people, params.organisations) if params.people >= params.organisations else []
    for i, oid in enumerate(orgs):
        core = cores[i]
        name = forge.claim(lambda core=core: f"{core} {rng.choice(ORG_SUFFIXES)}")
        entities[oid] = Entity(oid, "organisation", name, (core, f"{name} Ltd."), rng.choice(ORG_INDUSTRIES))
        founder = rng.choice(people)
        low = birth_year[founder] + FOUNDING_AGE[0]
        facts.append(Fact(oid, "founder", founder))
        facts.append(Fact(oid, "founding_year", rng.randrange(low, min(low + FOUNDING_AGE[1] - FOUNDING_AGE[0], 2024))))
        facts.append(Fact(oid, "headquarters", rng.choice(cities)))
        if ceos:
            facts.append(Fact(oid, "ceo", ceos[i]))
            employer[ceos[i]] = oid
    for pid in people:
        if pid not in employer and rng.random() < 0.8:
            employer[pid] = rng.choice(orgs)
        if pid in employer:
            facts.append(Fact(pid, "works_for", employer[pid]))

    singles = people[:]
    rng.shuffle(singles)
    for a, b in zip(singles[0::2], singles[1::2]):
        if rng.random() < 0.6:
            facts.append(Fact(a, "married_to", b))
            facts.append(Fact(b, "married_to", a))

    entities = _unique_aliases(entities)
    facts.sort(key=lambda f: (_id_key(f.subject), list(RELATIONS).index(f.relation)))
    return World(entities, facts)


def _names_with_near_duplicates(rng: random.Random, count: int, share: float,
                                fresh: Callable[[], str], variant: Callable[[str], str]) -> list[str]:
    names: list[str] = []
    for _ in range(count):
        if names and rng.random() < share:
            names.append(variant(rng.choice(names)))
        else:
            names.append(fresh())
    return names


def _person_names(forge: NameForge, rng: random.Random, count: int, share: float) -> list[tuple[str, str, str]]:
    """(given, middle, family) triples with distinct full names; a ``share`` of them near copies
    of an earlier one (a family name one edit away, or the same family name: relatives)."""
    names: list[tuple[str, str, str]] = []
    for _ in range(count):
        def draw() -> tuple[str, str, str] | None:
            middle = forge.syllables(2)
            if names and rng.random() < share:
                given, _, family = rng.choice(names)
                if rng.random() < 0.5:
                    family = near_duplicate(family, rng)
                else:
                    given = forge.syllables(2)
            else:
                given = forge.syllables(2)
                family = forge.syllables(rng.choice((1, 2, 2))) + rng.choice(FAMILY_ENDINGS)
            return (given, middle, family) if forge.reserve(f"{given} {family}") else None

        names.append(retry(draw, what="an unused person name", attempts=500))
    return names


def _unique_aliases(entities: dict[str, Entity]) -> dict[str, Entity]:
    """Drop every alias that another entity also answers to, by name or alias: a name or alias
    then identifies one entity."""
    owners: dict[str, set[str]] = {}
    for e in entities.values():
        for n in (e.name, *e.aliases):
            owners.setdefault(normalize(n), set()).add(e.id)
    return {eid: dataclasses.replace(e, aliases=tuple(
                a for a in e.aliases if owners[normalize(a)] == {eid} and normalize(a) != normalize(e.name)))
            for eid, e in entities.items()}


def _id_key(entity_id: str) -> tuple[int, int]:
    return ("ncop".index(entity_id[0]), int(entity_id[1:]))


# --- corpus -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Document:
    """One document: ``stated`` lists the facts it states as ``(subject, relation, value, true)``."""

    id: str
    title: str
    text: str
    source: str
    verified: bool
    stated: tuple[tuple[str, str, str | int, bool], ...] = ()


@dataclass
class Corpus:
    """A world and its documents; ``key`` identifies it (a search index is cached by it)."""

    key: str
    world: World
    documents: list[Document]

    def __post_init__(self) -> None:
        self._by_id = {d.id: d for d in self.documents}

    def document(self, doc_id: str) -> Document | None:
        return self._by_id.get(doc_id)

    def stating(self, subject: str, relation: str, verified_only: bool = True) -> list[Document]:
        """Documents that state the true fact ``(subject, relation, ...)``."""
        return [d for d in self.documents if (not verified_only or d.verified)
                and any(s == subject and r == relation and ok for s, r, _, ok in d.stated)]

    def spec(self) -> dict[str, Any]:
        """The JSON-native recipe :func:`corpus_from_spec` rebuilds this corpus from (corpora made
        by :func:`build_corpus` only)."""
        if not self.key.startswith("knowledge:"):
            raise ValueError("this corpus was not made by build_corpus: it has no (seed, params) recipe")
        return json.loads(self.key.split(":", 1)[1])


def render_corpus(world: World, rng: random.Random, params: CorpusParams, key: str | None = None) -> Corpus:
    """The documents of ``world`` under the noise knobs of ``params``, in a shuffled order.

    ``key`` identifies the corpus (search indexes are cached by it); by default a digest of the
    documents, so distinct corpora never share a key."""
    writer = _Writer(world, rng, params)
    documents: list[tuple[str, str, str, bool, tuple]] = []
    for _ in range(params.redundancy):
        for entity in (world.entities[i] for i in world.ordered_ids):
            facts = world.facts_of(entity.id)
            rng.shuffle(facts)
            for start in range(0, len(facts), params.facts_per_document):
                chunk = facts[start:start + params.facts_per_document]
                documents.append(writer.profile(entity, chunk, first=(start == 0)))
    fact_documents = len(documents)
    for _ in range(round(params.wrong_documents * fact_documents)):
        documents.append(writer.unverified())
    for _ in range(round(params.distractors * fact_documents)):
        documents.append(writer.event())
    rng.shuffle(documents)
    width = max(4, len(str(len(documents))))
    rendered = [Document(f"d{i:0{width}d}", title, text, source, verified, stated)
                for i, (title, text, source, verified, stated) in enumerate(documents)]
    if key is None:
        digest = hashlib.sha256()
        for d in rendered:
            digest.update(f"{d.id}\x1f{d.title}\x1f{d.text}\x1e".encode())
        key = f"documents:{digest.hexdigest()}"
    return Corpus(key, world, rendered)


class _Writer:
    """Renders facts as sentences: templates, alias mentions and sources per the params."""

    def __init__(self, world: World, rng: random.Random, params: CorpusParams) -> None:
        self.world, self.rng, self.params = world, rng, params
        self.ordered = [world.entities[i] for i in world.ordered_ids]
        self.people, self.orgs = world.of_kind("person"), world.of_kind("organisation")
        self.cities = world.of_kind("city")

    def mention(self, entity_id: str) -> str:
        entity = self.world.entities[entity_id]
        if entity.aliases and self.rng.random() < self.params.alias_mentions:
            return self.rng.choice(entity.aliases)
        return entity.name

    def value(self, relation: Relation, value: str | int) -> str:
        if relation.to_entity:
            return self.mention(str(value))
        if relation.object_kind == "number" and self.rng.random() >= self.params.paraphrase / 2:
            return f"{value:,}"
        return str(value)

    def sentence(self, fact: Fact, value: str | int | None = None) -> str:
        relation = RELATIONS[fact.relation]
        templates = relation.templates
        template = templates[0]
        if self.rng.random() < self.params.paraphrase:
            template = self.rng.choice(templates[1:])
        stated = fact.value if value is None else value
        text = template.format(s=self.mention(fact.subject), o=self.value(relation, stated))
        if text.endswith(".."):  # a mention ending in "Ltd." closes the sentence itself
            text = text[:-1]
        return text[0].upper() + text[1:]

    def intro(self, entity: Entity, with_aliases: bool) -> str:
        if with_aliases and entity.aliases:
            known = ", ".join(entity.aliases)
            return f"{entity.name} (also known as {known}) is {entity.description}."
        return f"{entity.name} is {entity.description}."

    def profile(self, entity: Entity, facts: Sequence[Fact], first: bool) -> tuple:
        source = self.rng.choice(VERIFIED_SOURCES)
        body = " ".join([self.intro(entity, first)] + [self.sentence(f) for f in facts])
        stated = tuple((f.subject, f.relation, f.value, True) for f in facts)
        return entity.name, f"Source: {source} (verified).\n{body}", source, True, stated

    def unverified(self) -> tuple:
        """A document from an unverified source: true facts of one entity, at least one falsified."""
        rng, world = self.rng, self.world
        entity = rng.choice(self.ordered)
        facts = world.facts_of(entity.id)
        rng.shuffle(facts)
        chosen = facts[: self.params.facts_per_document]
        wrong = set(rng.sample(range(len(chosen)), rng.randint(1, len(chosen))))
        sentences, stated = [self.intro(entity, False)], []
        for i, fact in enumerate(chosen):
            value = self._falsify(fact) if i in wrong else fact.value
            sentences.append(self.sentence(fact, value))
            stated.append((fact.subject, fact.relation, value, value == fact.value))
        source = rng.choice(UNVERIFIED_SOURCES)
        return entity.name, f"Source: {source} (unverified).\n{' '.join(sentences)}", source, False, tuple(stated)

    def _falsify(self, fact: Fact) -> str | int:
        relation = RELATIONS[fact.relation]
        if relation.to_entity:
            others = [e.id for e in self.world.of_kind(relation.object_kind) if e.id not in (fact.value, fact.subject)]
            return self.rng.choice(others) if others else fact.value
        if relation.object_kind == "year":
            return int(fact.value) + self.rng.choice((-1, 1)) * self.rng.randint(1, 15)
        return int(fact.value) + self.rng.choice((-1, 1)) * self.rng.randint(1, max(1, int(fact.value) // 3))

    def event(self) -> tuple:
        """A distractor: names real entities but states none of the queried relations."""
        rng, people, orgs, cities = self.rng, self.people, self.orgs, self.cities
        name = f"{rng.choice(cities).name} {rng.choice(EVENT_KINDS)}"
        year = rng.randrange(1950, 2025)
        speaker, sponsor, place = rng.choice(people), rng.choice(orgs), rng.choice(cities)
        text = (f"The {year} {name} took place in {self.mention(place.id)}. {self.mention(speaker.id)} gave the "
                f"opening address, and {self.mention(sponsor.id)} was among the sponsors. "
                f"About {rng.randrange(200, 20_000):,} visitors attended.")
        source = rng.choice(VERIFIED_SOURCES)
        return f"{name} {year}", f"Source: {source} (verified).\n{text}", source, True, ()


CORPUS_VERSION = 1


def corpus_key(seed: int, params: CorpusParams) -> str:
    spec = {"seed": seed, "params": params.to_dict(), "version": CORPUS_VERSION}
    return "knowledge:" + json.dumps(spec, sort_keys=True, separators=(",", ":"))


@functools.lru_cache(maxsize=64)
def build_corpus(seed: int, params: CorpusParams) -> Corpus:
    """The corpus of ``(seed, params)``: generated once, then cached (64 per process: a vector env's episodes
    each look theirs up at every search; ~0.2-0.3 MB each at the top presets).

    Deterministic: ``random.Random(seed)`` drives world and corpus alike, so the same pair gives
    the same documents in any process. Treat the result as read-only (it is shared).
    """
    rng = random.Random(seed)
    world = generate_world(rng, params)
    return render_corpus(world, rng, params, key=corpus_key(seed, params))


def corpus_spec(seed: int, params: CorpusParams) -> dict[str, Any]:
    """A JSON-native recipe for ``Problem.data``: ``{"seed": ..., "params": {...}, "version": ...}``."""
    return {"seed": seed, "params": params.to_dict(), "version": CORPUS_VERSION}


def corpus_from_spec(spec: dict[str, Any]) -> Corpus:
    """Rebuild (or fetch from the cache) the corpus a :func:`corpus_spec` describes."""
    if spec.get("version", CORPUS_VERSION) != CORPUS_VERSION:
        raise ValueError(f"corpus version {spec.get('version')} is not {CORPUS_VERSION}")
    return build_corpus(int(spec["seed"]), CorpusParams.from_dict(spec["params"]))


# --- questions --------------------------------------------------------------------------------

NO_ANSWER = "not in the corpus"
# Spellings of "no answer" a grader accepts for an unanswerable question (after normalize()).
NO_ANSWER_SPELLINGS = frozenset({"not in the corpus", "not in corpus", "not in the documents", "no answer",
                                 "unknown", "unanswerable", "cannot be determined", "not found"})


@dataclass(frozen=True)
class Question:
    """A question and its ground truth.

    kind: ``multi_hop``, ``comparison``, ``aggregation`` or ``no_answer``.
    answer: the canonical answer (an entity name, a number, ``yes``/``no``), None when the corpus
        holds no answer; aliases: other spellings a grader accepts (an entity's aliases, ``1,234``).
    answer_type: ``entity``, ``year``, ``number``, ``yes_no`` or ``none``.
    hops: how many facts must be found; facts: those facts as ``[subject, relation, value]``.
    """

    kind: str
    text: str
    answer: str | None
    aliases: tuple[str, ...]
    answer_type: str
    hops: int
    facts: tuple[tuple[str, str, str | int], ...]

    @property
    def answerable(self) -> bool:
        return self.answer is not None

    def accepted(self) -> tuple[str, ...]:
        """Every accepted spelling, canonical first (empty when there is no answer)."""
        return () if self.answer is None else (self.answer, *self.aliases)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "answer": self.answer, "aliases": list(self.aliases),
                "answer_type": self.answer_type, "hops": self.hops, "facts": [list(f) for f in self.facts]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Question:
        return cls(data["kind"], data["text"], data["answer"], tuple(data["aliases"]), data["answer_type"],
                   int(data["hops"]), tuple(tuple(f) for f in data["facts"]))


def answer_of(world: World, value: str | int, relation: str) -> tuple[str, tuple[str, ...], str]:
    """(canonical answer, aliases, answer type) of a relation's object."""
    kind = RELATIONS[relation].object_kind
    if kind in ENTITY_KINDS:
        entity = world.entities[str(value)]
        return entity.name, entity.aliases, "entity"
    if kind == "number":
        return str(value), (f"{int(value):,}",) if int(value) >= 1000 else (), "number"
    return str(value), (), kind


def walk(world: World, rng: random.Random, hops: int, last_to_entity: bool | None = None,
         last_kind: str | None = None) -> tuple[str, list[str]]:
    """A random path of ``hops`` relations through existing facts visiting no entity twice:
    ``(start entity id, [relation, ...])``. ``last_to_entity`` forces the final object's type, ``last_kind`` its
    kind (drawn among the final relations that lead to it: a walk drawn blind and kept only when it ends at the
    kind missed thousands of times on long paths)."""

    def draw() -> tuple[str, list[str]] | None:
        start = rng.choice(world.ordered_ids)
        current, seen, relations = start, {start}, []
        for step in range(hops):
            final = step == hops - 1
            options = []
            for name, rel, value in world.outgoing(current):
                if rel.to_entity and value in seen:
                    continue
                if final and last_to_entity is not None and rel.to_entity != last_to_entity:
                    continue
                if final and last_kind is not None and rel.object_kind != last_kind:
                    continue
                if not final and not rel.to_entity:
                    continue
                options.append(name)
            if not options:
                return None
            relation = rng.choice(options)
            relations.append(relation)
            current = world.get(current, relation)
            seen.add(current)
        return start, relations

    return retry(draw, what=f"a {hops}-hop path", attempts=2000)


def noun_phrase(world: World, start: str | None, relations: Sequence[str], start_name: str | None = None) -> str:
    """``the birthplace of the founder of Quorvex Labs`` for start ``o3`` and ``[founder, born_in]``."""
    phrase = start_name if start_name is not None else world.entities[str(start)].name
    for relation in relations:
        phrase = RELATIONS[relation].noun.format(x=phrase)
    return phrase


def follow(world: World, start: str,
           relations: Sequence[str]) -> tuple[str | int | None, list[tuple[str, str, str | int]]]:
    """The object at the end of the path (None if a fact is missing) and the facts used."""
    current: str | int | None = start
    used = []
    for relation in relations:
        value = world.get(str(current), relation)
        if value is None:
            return None, used
        used.append((str(current), relation, value))
        current = value
    return current, used


def path_question_text(world: World, start: str | None, relations: Sequence[str], start_name: str | None = None) -> str:
    inner = noun_phrase(world, start, relations[:-1], start_name)
    return RELATIONS[relations[-1]].question.format(x=inner)


def multi_hop_question(world: World, rng: random.Random, hops: int, to_entity: bool | None = None) -> Question:
    """A question chaining ``hops`` facts (1-4): ``In which country is the birthplace of the CEO of X located?``

    The answer is unique (every relation is functional) and every fact on the path is stated in
    verified documents of a corpus rendered from ``world``.
    """
    if not 1 <= hops <= 4:
        raise ValueError("hops must be 1..4")
    start, relations = walk(world, rng, hops, to_entity)
    value, used = follow(world, start, relations)
    answer, aliases, answer_type = answer_of(world, value, relations[-1])
    return Question("multi_hop", path_question_text(world, start, relations), answer, aliases, answer_type,
                    hops, tuple(used))


COMPARISONS = {
    # name: (entity kind compared, attribute relation, question, pick the larger?)
    "born_earlier": ("person", "birth_year", "Who was born earlier, {a} or {b}?", False),
    "founded_earlier": ("organisation", "founding_year", "Which organisation was founded earlier, {a} or {b}?", False),
    "larger_population": ("city", "population", "Which city has the larger population, {a} or {b}?", True),
}


def _path_to(world: World, rng: random.Random, kind: str, hops: int) -> tuple[str, list[str]]:
    """A path of ``hops`` relations ending at an entity of ``kind`` (hops = 0: the entity itself)."""
    if hops == 0:
        return rng.choice(world.of_kind(kind)).id, []

    return walk(world, rng, hops, last_to_entity=True, last_kind=kind)


def comparison_question(world: World, rng: random.Random, hops: int = 0, kind: str | None = None) -> Question:
    """Compare two entities, each named directly (``hops=0``) or through a path of ``hops``
    relations: ``Who was born earlier, the CEO of X or Y Z?`` or ``Were A and B born in the same
    country?`` (yes/no). The compared values always differ, so the answer is unique."""
    kind = kind or rng.choice([*COMPARISONS, "same_country"])
    # Half the yes/no questions are "yes" (when the world has two countries or more).
    want = rng.choice(("yes", "no")) if len(world.of_kind("country")) > 1 else "yes"

    def draw() -> Question | None:
        if kind == "same_country":
            (sa, ra), (sb, rb) = _path_to(world, rng, "person", hops), _path_to(world, rng, "person", hops)
            a, used_a = follow(world, sa, [*ra, "born_in", "country"])
            b, used_b = follow(world, sb, [*rb, "born_in", "country"])
            if used_a[-2][0] == used_b[-2][0] or ("yes" if a == b else "no") != want:
                return None  # the same person twice, or not the answer drawn
            text = f"Were {noun_phrase(world, sa, ra)} and {noun_phrase(world, sb, rb)} born in the same country?"
            answer = "yes" if a == b else "no"
            return Question("comparison", text, answer, (), "yes_no", len(used_a) + len(used_b),
                            tuple(used_a + used_b))
        entity_kind, attribute, template, larger = COMPARISONS[kind]
        (sa, ra), (sb, rb) = _path_to(world, rng, entity_kind, hops), _path_to(world, rng, entity_kind, hops)
        ea, used_a = follow(world, sa, ra) if ra else (sa, [])
        eb, used_b = follow(world, sb, rb) if rb else (sb, [])
        if ea == eb:
            return None
        va, vb = world.get(str(ea), attribute), world.get(str(eb), attribute)
        if va == vb:
            return None
        winner = ea if (va > vb) == larger else eb  # type: ignore[operator]
        entity = world.entities[str(winner)]
        text = template.format(a=noun_phrase(world, sa, ra), b=noun_phrase(world, sb, rb))
        used = [*used_a, (str(ea), attribute, va), *used_b, (str(eb), attribute, vb)]
        return Question("comparison", text, entity.name, entity.aliases, "entity", len(used), tuple(used))

    return retry(draw, what=f"a {kind} comparison", attempts=500)


AGGREGATIONS = ("count_employees", "count_employees_born_in", "founder_age", "combined_population",
                "earliest_employee", "years_apart")


def aggregation_question(world: World, rng: random.Random, kind: str | None = None,
                         max_count: int = 8) -> Question:
    """A question over several facts: counts (``How many people work for X?``, at most
    ``max_count``), differences, sums and arg-min over a set, with a unique answer."""
    kind = kind or rng.choice(AGGREGATIONS)
    orgs = sorted((e.id for e in world.of_kind("organisation")), key=_id_key)
    people = sorted((e.id for e in world.of_kind("person")), key=_id_key)
    cities = sorted((e.id for e in world.of_kind("city")), key=_id_key)

    def name(entity_id: str | int) -> str:
        return world.entities[str(entity_id)].name

    def draw() -> Question | None:
        if kind in ("count_employees", "count_employees_born_in", "earliest_employee"):
            org = rng.choice(orgs)
            staff = world.subjects_with("works_for", org)
            used = [(p, "works_for", org) for p in staff]
            if kind == "count_employees":
                if not 1 <= len(staff) <= max_count:
                    return None
                return Question("aggregation", f"How many people work for {name(org)}?", str(len(staff)), (),
                                "number", len(used), tuple(used))
            if kind == "count_employees_born_in":
                if not 2 <= len(staff) <= max_count:
                    return None
                city = world.get(rng.choice(staff), "born_in")
                born = [p for p in staff if world.get(p, "born_in") == city]
                used += [(p, "born_in", world.get(p, "born_in")) for p in staff]
                text = f"How many of the people who work for {name(org)} were born in {name(city)}?"
                return Question("aggregation", text, str(len(born)), (), "number", len(used), tuple(used))
            if not 2 <= len(staff) <= max_count:
                return None
            years = {p: world.get(p, "birth_year") for p in staff}
            first = min(years.values())
            if sum(1 for y in years.values() if y == first) != 1:
                return None
            oldest = next(p for p in staff if years[p] == first)
            used += [(p, "birth_year", years[p]) for p in staff]
            text = f"Among the people who work for {name(org)}, who was born first?"
            return Question("aggregation", text, name(oldest), world.entities[oldest].aliases, "entity",
                            len(used), tuple(used))
        if kind == "founder_age":
            org = rng.choice(orgs)
            founder, founded = world.get(org, "founder"), world.get(org, "founding_year")
            born = world.get(str(founder), "birth_year")
            text = f"How many years after the birth year of its founder was {name(org)} founded?"
            used = [(org, "founder", founder), (org, "founding_year", founded), (str(founder), "birth_year", born)]
            return Question("aggregation", text, str(int(founded) - int(born)), (), "number", 3, tuple(used))
        if kind == "combined_population":
            a, b = rng.sample(cities, 2)
            pa, pb = world.get(a, "population"), world.get(b, "population")
            total = int(pa) + int(pb)
            text = f"What is the combined population of {name(a)} and {name(b)}?"
            return Question("aggregation", text, str(total), (f"{total:,}",), "number", 2,
                            ((a, "population", pa), (b, "population", pb)))
        if kind == "years_apart":
            a, b = rng.sample(people, 2)
            ya, yb = world.get(a, "birth_year"), world.get(b, "birth_year")
            text = f"How many years apart were {name(a)} and {name(b)} born?"
            return Question("aggregation", text, str(abs(int(ya) - int(yb))), (), "number", 2,
                            ((a, "birth_year", ya), (b, "birth_year", yb)))
        raise ValueError(f"unknown aggregation {kind!r}")

    return retry(draw, what=f"a {kind} aggregation", attempts=500)


def no_answer_question(world: World, rng: random.Random, hops: int = 1, near_miss: bool = True) -> Question:
    """A question the corpus cannot answer, phrased like :func:`multi_hop_question`'s.

    Either the start entity does not exist (an invented name, with ``near_miss`` one letter away
    from a real one) or the path reaches an entity lacking a relation (an unmarried person's
    spouse, an unemployed person's employer). The answer is None (:data:`NO_ANSWER`).
    """
    if not 1 <= hops <= 4:
        raise ValueError("hops must be 1..4")
    taken = {normalize(n) for e in world.entities.values() for n in (e.name, *e.aliases)}

    def missing_entity() -> Question | None:
        start, relations = walk(world, rng, hops)
        real = world.entities[start]
        if near_miss:
            parts = real.name.split(" ")
            index = rng.randrange(len(parts)) if real.kind != "organisation" else 0
            parts[index] = near_duplicate(parts[index], rng)
            fake = " ".join(parts)
        else:
            forge = NameForge(rng)
            forge.taken = set(taken)
            fake = f"{forge.syllables(2)} {forge.syllables(2)}"
            if real.kind == "organisation":
                fake = f"{forge.syllables(2)} {rng.choice(ORG_SUFFIXES)}"
            elif real.kind in ("city", "country"):
                fake = forge.syllables(2)
        if normalize(fake) in taken:
            return None
        text = path_question_text(world, None, relations, start_name=fake)
        return Question("no_answer", text, None, (), "none", hops, ())

    def missing_relation() -> Question | None:
        prefix_hops = rng.randrange(hops)
        start, prefix = _path_to(world, rng, "person", prefix_hops)
        target, _ = follow(world, start, prefix)
        gaps = [r for r in ("married_to", "works_for") if world.get(str(target), r) is None]
        if not gaps:
            return None
        gap = rng.choice(gaps)
        tail: list[str] = []
        current_kind = RELATIONS[gap].object_kind
        tail_hops = hops - prefix_hops - 1
        for i in range(tail_hops):
            options = [n for n, r in RELATIONS.items()
                       if r.subject_kind == current_kind and (r.to_entity or i == tail_hops - 1)]
            relation = rng.choice(options)
            tail.append(relation)
            current_kind = RELATIONS[relation].object_kind
        relations = [*prefix, gap, *tail]
        _, used = follow(world, start, relations)
        text = path_question_text(world, start, relations)
        return Question("no_answer", text, None, (), "none", hops, tuple(used))

    return retry(lambda: missing_entity() if rng.random() < 0.5 else missing_relation(),
                 what="an unanswerable question", attempts=2000)


def answer_matches(candidate: str, question: Question) -> bool:
    """Whether ``candidate`` names the answer (any accepted spelling; case, punctuation, spacing
    and a leading ``the`` are ignored; numbers may carry thousands separators). For an
    unanswerable question, whether it says so (:data:`NO_ANSWER` or a spelling in
    :data:`NO_ANSWER_SPELLINGS`).

    >>> q = Question("multi_hop", "?", "Taro Vennik", ("T. Vennik",), "entity", 1, ())
    >>> answer_matches("t vennik", q), answer_matches("Tara Vennik", q), answer_matches("unknown", q)
    (True, False, False)
    """
    if question.answer is None:
        return normalize(candidate[:500]) in NO_ANSWER_SPELLINGS
    numeric = question.answer_type in ("number", "year")
    key = _answer_key(candidate[:500], numeric)
    return bool(key) and any(key == _answer_key(a, numeric) for a in question.accepted())


def _answer_key(text: str, numeric: bool) -> str:
    key = normalize(text)
    # "1,234" normalizes to "1 234": join digit groups back (a fixed pattern on at most 500 chars).
    return re.sub(r"(?<=\d) (?=\d{3}\b)", "", key) if numeric else key
