"""The synthetic knowledge graph, its corpus and its questions.

Ground truths are checked independently of the generator's bookkeeping: question texts are
parsed back with phrases written here (not the generator's templates), and answers are
recomputed by SQL over the world's fact list.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import sqlite3
import subprocess
import sys
import unicodedata
from collections import Counter

import pytest

from palaestra.generators import knowledge
from palaestra.generators.knowledge import (
    NO_ANSWER,
    CorpusParams,
    Question,
    World,
    aggregation_question,
    answer_matches,
    build_corpus,
    comparison_question,
    corpus_from_spec,
    corpus_spec,
    generate_world,
    multi_hop_question,
    no_answer_question,
    normalize,
    render_corpus,
)

NOISY = CorpusParams(people=40, organisations=8, cities=10, countries=3, near_duplicates=0.3, facts_per_document=2,
                     redundancy=2, paraphrase=0.6, alias_mentions=0.4, distractors=0.3, wrong_documents=0.3)
PLAIN = CorpusParams(people=30, organisations=6, cities=8, countries=3)

# English phrases -> relation, written independently of the generator's templates.
NOUNS = {
    "the birthplace of ": "born_in", "the birth year of ": "birth_year", "the employer of ": "works_for",
    "the spouse of ": "married_to", "the founder of ": "founder", "the CEO of ": "ceo",
    "the founding year of ": "founding_year", "the headquarters city of ": "headquarters",
    "the country of ": "country", "the population of ": "population", "the capital of ": "capital",
}
QUESTIONS = {
    ("In which city was ", " born?"): "born_in", ("In what year was ", " born?"): "birth_year",
    ("Which organisation does ", " work for?"): "works_for", ("Who is the spouse of ", "?"): "married_to",
    ("Who founded ", "?"): "founder", ("Who is the CEO of ", "?"): "ceo",
    ("In what year was ", " founded?"): "founding_year", ("In which city is ", " headquartered?"): "headquarters",
    ("In which country is ", " located?"): "country", ("What is the population of ", "?"): "population",
    ("What is the capital of ", "?"): "capital",
}


class FactBase:
    """The world's facts in SQLite: an answer key that shares no code with the question builders."""

    def __init__(self, world: World) -> None:
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE TABLE facts (s TEXT, r TEXT, o TEXT)")
        self.db.execute("CREATE TABLE names (id TEXT, name TEXT, canonical INTEGER)")
        self.db.executemany("INSERT INTO facts VALUES (?, ?, ?)", [(f.subject, f.relation, str(f.value))
                                                                   for f in world.facts])
        for e in world.entities.values():
            self.db.executemany("INSERT INTO names VALUES (?, ?, ?)",
                                [(e.id, e.name, 1)] + [(e.id, a, 0) for a in e.aliases])

    def entity(self, name: str) -> str | None:
        rows = self.db.execute("SELECT DISTINCT id FROM names WHERE name = ?", (name,)).fetchall()
        assert len(rows) <= 1, f"{name!r} names several entities"
        return rows[0][0] if rows else None

    def get(self, subject: str, relation: str) -> str | None:
        rows = self.db.execute("SELECT o FROM facts WHERE s = ? AND r = ?", (subject, relation)).fetchall()
        assert len(rows) <= 1, f"{relation} of {subject} is not functional"
        return rows[0][0] if rows else None

    def name(self, entity_id: str) -> str:
        return self.db.execute("SELECT name FROM names WHERE id = ? AND canonical = 1", (entity_id,)).fetchone()[0]

    def resolve(self, phrase: str) -> str | None:
        """The entity or value a noun phrase such as ``the CEO of the employer of X`` denotes."""
        relations = []
        for _ in range(10):
            prefix = next((p for p in NOUNS if phrase.startswith(p)), None)
            if prefix is None:
                break
            relations.append(NOUNS[prefix])
            phrase = phrase[len(prefix):]
        current = self.entity(phrase)
        for relation in reversed(relations):
            if current is None:
                return None
            current = self.get(current, relation)
        return current


def parse_path_question(text: str) -> tuple[str, str]:
    """(noun phrase, final relation) of a multi-hop question."""
    for (prefix, suffix), relation in QUESTIONS.items():
        if text.startswith(prefix) and text.endswith(suffix):
            return text[len(prefix): len(text) - len(suffix)], relation
    raise AssertionError(f"unparsed question {text!r}")


def expected_answer(facts: FactBase, value: str, relation: str) -> str:
    return facts.name(value) if relation in ("born_in", "works_for", "married_to", "founder", "ceo", "headquarters",
                                               "country", "capital") else value


# --- world -------------------------------------------------------------------------------------


def test_outgoing_lists_every_fact_of_a_subject_in_relation_order() -> None:
    # Random walks read facts through World.outgoing (cached); its order must be RELATIONS' for the walks to
    # draw what they drew when they asked world.get relation by relation.
    world = generate_world(random.Random(5), NOISY)
    for subject in world.ordered_ids:
        expected = [(name, value) for name in knowledge.RELATIONS
                    if (value := world.get(subject, name)) is not None]
        assert [(name, value) for name, _, value in world.outgoing(subject)] == expected
        assert world.outgoing(subject) is world.outgoing(subject)


@pytest.mark.parametrize("seed", range(4))
def test_world_is_consistent(seed: int) -> None:
    world = generate_world(random.Random(seed), NOISY)
    facts = FactBase(world)
    kinds = Counter(e.kind for e in world.entities.values())
    assert kinds == {"person": NOISY.people, "organisation": NOISY.organisations, "city": NOISY.cities,
                     "country": NOISY.countries}
    # every name and alias identifies exactly one entity
    spellings = Counter(normalize(n) for e in world.entities.values() for n in {e.name, *e.aliases})
    assert max(spellings.values()) == 1
    for e in world.entities.values():
        assert e.name and all(ch.isalpha() or ch in " .-" for ch in e.name)
    for org in world.of_kind("organisation"):
        founder = facts.get(org.id, "founder")
        age = int(facts.get(org.id, "founding_year")) - int(facts.get(founder, "birth_year"))
        assert 22 <= age <= 60
        ceo = facts.get(org.id, "ceo")
        assert facts.get(ceo, "works_for") == org.id
        assert facts.get(facts.get(org.id, "headquarters"), "country") is not None
    for person in world.of_kind("person"):
        spouse = facts.get(person.id, "married_to")
        assert spouse is None or (spouse != person.id and facts.get(spouse, "married_to") == person.id)
        assert FIRST_YEAR <= int(facts.get(person.id, "birth_year")) <= LAST_YEAR
    for country in world.of_kind("country"):
        assert facts.get(facts.get(country.id, "capital"), "country") == country.id


FIRST_YEAR, LAST_YEAR = knowledge.FIRST_YEAR, knowledge.LAST_YEAR


def test_near_duplicates_make_close_names() -> None:
    def close_pairs(world: World) -> int:
        """Pairs of names one edit apart, or people sharing a family name."""
        names = sorted(e.name for e in world.of_kind("person") + world.of_kind("city") + world.of_kind("organisation"))
        people = [e.name for e in world.of_kind("person")]
        shared_family = sum(n - 1 for n in Counter(p.split()[-1] for p in people).values())
        return shared_family + sum(1 for i, a in enumerate(names) for b in names[i + 1:] if _edit_distance(a, b) <= 1)

    plain = sum(close_pairs(generate_world(random.Random(s), PLAIN)) for s in range(3))
    noisy = sum(close_pairs(generate_world(random.Random(s), NOISY)) for s in range(3))
    assert noisy > plain + 10


def _edit_distance(a: str, b: str) -> int:
    if abs(len(a) - len(b)) > 1:
        return 2
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


# --- corpus ------------------------------------------------------------------------------------


def _digest(corpus) -> str:
    h = hashlib.sha256()
    for d in corpus.documents:
        h.update(json.dumps([d.id, d.title, d.text, d.verified, [list(s) for s in d.stated]]).encode())
    return h.hexdigest()


def test_same_seed_same_corpus_other_seed_other_corpus() -> None:
    a = render_corpus(generate_world(random.Random(5), NOISY), random.Random(9), NOISY)
    b = render_corpus(generate_world(random.Random(5), NOISY), random.Random(9), NOISY)
    c = render_corpus(generate_world(random.Random(6), NOISY), random.Random(9), NOISY)
    assert _digest(a) == _digest(b) != _digest(c)
    assert a.key == b.key != c.key  # without an explicit key, a digest of the documents
    with pytest.raises(ValueError):
        a.spec()
    spec = corpus_spec(11, NOISY)
    assert json.loads(json.dumps(spec)) == spec
    assert corpus_from_spec(spec) is build_corpus(11, NOISY)  # cached
    assert corpus_from_spec(spec).spec() == spec


def test_corpus_is_the_same_in_a_fresh_process_whatever_the_hash_seed() -> None:
    code = (
        "import hashlib, json, random\n"
        "from palaestra.generators.knowledge import *\n"
        f"p = CorpusParams(**{NOISY.to_dict()!r})\n"
        "c = build_corpus(11, p)\n"
        "h = hashlib.sha256()\n"
        "for d in c.documents:\n"
        "    h.update(json.dumps([d.id, d.title, d.text, d.verified, [list(s) for s in d.stated]]).encode())\n"
        "r = random.Random(3)\n"
        "qs = [multi_hop_question(c.world, r, 3).to_dict(), comparison_question(c.world, r).to_dict(),\n"
        "      aggregation_question(c.world, r).to_dict(), no_answer_question(c.world, r, 2).to_dict()]\n"
        "print(h.hexdigest(), hashlib.sha256(json.dumps(qs).encode()).hexdigest())\n"
    )
    corpus = build_corpus(11, NOISY)
    r = random.Random(3)
    questions = [multi_hop_question(corpus.world, r, 3).to_dict(), comparison_question(corpus.world, r).to_dict(),
                 aggregation_question(corpus.world, r).to_dict(), no_answer_question(corpus.world, r, 2).to_dict()]
    here = f"{_digest(corpus)} {hashlib.sha256(json.dumps(questions).encode()).hexdigest()}"
    for hash_seed in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": hash_seed})
        assert out.stdout.strip() == here


def _mentions(world: World, entity_id: str) -> list[str]:
    e = world.entities[entity_id]
    return [e.name, *e.aliases]


def _value_strings(world: World, relation: str, value) -> list[str]:
    if knowledge.RELATIONS[relation].to_entity:
        return _mentions(world, str(value))
    return [str(value), f"{int(value):,}"]


@pytest.mark.parametrize("params", [PLAIN, NOISY], ids=["plain", "noisy"])
def test_every_fact_is_stated_by_verified_documents_and_only_unverified_ones_lie(params: CorpusParams) -> None:
    corpus = build_corpus(21, params)
    world = corpus.world
    truth = {(f.subject, f.relation): f.value for f in world.facts}
    stated_by_verified = Counter()
    for d in corpus.documents:
        assert d.text.startswith(f"Source: {d.source} ({'verified' if d.verified else 'unverified'}).\n")
        body = d.text.split("\n", 1)[1]
        for subject, relation, value, true in d.stated:
            assert true == (truth[(subject, relation)] == value)
            assert any(m in body for m in _mentions(world, subject)), (d.text, subject)
            assert any(v in body for v in _value_strings(world, relation, value)), (d.text, relation, value)
            if d.verified:
                assert true, f"verified document {d.id} states a wrong fact"
                stated_by_verified[(subject, relation)] += 1
        if not d.verified:
            assert any(not true for *_, true in d.stated), "an unverified document must lie somewhere"
    assert set(stated_by_verified) == set(truth)
    assert min(stated_by_verified.values()) == params.redundancy
    assert len({d.id for d in corpus.documents}) == len(corpus.documents)


def test_noise_knobs_change_the_corpus_as_documented() -> None:
    base = dict(people=30, organisations=6, cities=8, countries=3, facts_per_document=2)
    plain = build_corpus(4, CorpusParams(**base))
    fact_docs = sum(1 for d in plain.documents if d.stated)
    assert fact_docs == len(plain.documents) and all(d.verified for d in plain.documents)

    noisy = build_corpus(4, CorpusParams(**base, distractors=0.5, wrong_documents=0.25))
    assert sum(1 for d in noisy.documents if not d.stated) == round(0.5 * fact_docs)
    assert sum(1 for d in noisy.documents if not d.verified) == round(0.25 * fact_docs)

    # Share of fact sentences written with a relation's canonical template (our templates, as patterns).
    canonical = [re.compile("^" + re.escape(r.templates[0].rstrip(".")).replace(re.escape("{s}"), ".+")
                            .replace(re.escape("{o}"), ".+") + "$") for r in knowledge.RELATIONS.values()]

    def canonical_share(corpus) -> float:
        sentences = [s for d in corpus.documents if d.stated for s in _fact_sentences(corpus, d)]
        return sum(1 for s in sentences if any(p.match(s) for p in canonical)) / len(sentences)

    assert canonical_share(plain) == 1.0
    assert canonical_share(build_corpus(4, CorpusParams(**base, paraphrase=0.9))) < 0.3

    def alias_share(corpus) -> float:
        """Share of fact documents whose fact sentences never use the subject's canonical name."""
        docs = [d for d in corpus.documents if d.stated]
        unnamed = [d for d in docs if corpus.world.entities[d.stated[0][0]].name
                   not in " ".join(_fact_sentences(corpus, d))]
        return len(unnamed) / len(docs)

    assert alias_share(plain) == 0.0
    assert alias_share(build_corpus(4, CorpusParams(**base, alias_mentions=0.8))) > 0.4


def _fact_sentences(corpus, document) -> list[str]:
    """The sentences after the source line and the intro (``... is a lawyer.``); split at ". ",
    which is exact when no alias (``T. Vennik``) is mentioned."""
    entity = corpus.world.entities[document.stated[0][0]]
    facts = document.text.split("\n", 1)[1].split(f" is {entity.description}. ", 1)[1]
    return [s.rstrip(".") for s in facts.split(". ")]


# --- questions ---------------------------------------------------------------------------------


@pytest.mark.parametrize("hops", [1, 2, 3, 4])
def test_multi_hop_ground_truth_matches_an_independent_traversal(hops: int) -> None:
    corpus = build_corpus(31, NOISY)
    facts = FactBase(corpus.world)
    rng = random.Random(hops)
    for _ in range(40):
        q = multi_hop_question(corpus.world, rng, hops)
        assert q.kind == "multi_hop" and q.hops == hops == len(q.facts)
        phrase, relation = parse_path_question(q.text)
        subject = facts.resolve(phrase)
        assert subject is not None, q.text
        value = facts.get(subject, relation)
        assert q.answer == expected_answer(facts, value, relation), q.text
        if q.answer_type == "entity":
            assert set(q.accepted()) == set(_mentions(corpus.world, facts.entity(q.answer)))
        assert Question.from_dict(json.loads(json.dumps(q.to_dict()))) == q
        for subject_id, rel, val in q.facts:  # each hop is stated by a verified document
            assert corpus.stating(subject_id, rel), (subject_id, rel, val)


def test_comparison_ground_truth() -> None:
    corpus = build_corpus(32, NOISY)
    facts = FactBase(corpus.world)
    rng = random.Random(0)
    answers = Counter()
    templates = {
        ("Who was born earlier, ", "birth_year", min),
        ("Which organisation was founded earlier, ", "founding_year", min),
        ("Which city has the larger population, ", "population", max),
    }
    for kind in [*knowledge.COMPARISONS, "same_country"]:
        for hops in (0, 1, 2):
            for _ in range(10):
                q = comparison_question(corpus.world, rng, hops=hops, kind=kind)
                if kind == "same_country":
                    assert q.text.startswith("Were ") and q.text.endswith(" born in the same country?")
                    a, b = _split_on_and(q.text[len("Were "): -len(" born in the same country?")], facts)
                    ca = facts.get(facts.get(facts.resolve(a), "born_in"), "country")
                    cb = facts.get(facts.get(facts.resolve(b), "born_in"), "country")
                    assert q.answer == ("yes" if ca == cb else "no")
                    answers[q.answer] += 1
                    continue
                prefix, attribute, pick = next(t for t in templates if q.text.startswith(t[0]))
                a, b = _split_on_or(q.text[len(prefix):-1], facts)
                ea, eb = facts.resolve(a), facts.resolve(b)
                va, vb = int(facts.get(ea, attribute)), int(facts.get(eb, attribute))
                assert va != vb
                winner = ea if pick(va, vb) == va else eb
                assert q.answer == facts.name(winner), q.text
    assert answers["yes"] >= 5 and answers["no"] >= 5  # yes/no answers are balanced


def _split_on_or(text: str, facts: FactBase) -> tuple[str, str]:
    return _split(text, " or ", facts)


def _split_on_and(text: str, facts: FactBase) -> tuple[str, str]:
    return _split(text, " and ", facts)


def _split(text: str, separator: str, facts: FactBase) -> tuple[str, str]:
    """Split two noun phrases where both halves resolve (names may not contain the separator)."""
    candidates = []
    start = 0
    for _ in range(text.count(separator)):
        i = text.index(separator, start)
        a, b = text[:i], text[i + len(separator):]
        if facts.resolve(a) is not None and facts.resolve(b) is not None:
            candidates.append((a, b))
        start = i + 1
    assert len(candidates) == 1, (text, candidates)
    return candidates[0]


def test_aggregation_ground_truth() -> None:
    corpus = build_corpus(33, NOISY)
    facts, world = FactBase(corpus.world), corpus.world
    rng = random.Random(0)
    sql = facts.db.execute
    for kind in knowledge.AGGREGATIONS:
        for _ in range(8):
            q = aggregation_question(world, rng, kind=kind)
            t = q.text
            if t.startswith("How many people work for "):
                org = facts.entity(t[len("How many people work for "):-1])
                n = sql("SELECT COUNT(*) FROM facts WHERE r = 'works_for' AND o = ?", (org,)).fetchone()[0]
                assert q.answer == str(n) and int(q.answer) >= 1
            elif t.startswith("How many of the people who work for "):
                org_name, city_name = t[len("How many of the people who work for "):-1].split(" were born in ")
                n = sql("SELECT COUNT(*) FROM facts w JOIN facts b ON b.s = w.s AND b.r = 'born_in' "
                        "WHERE w.r = 'works_for' AND w.o = ? AND b.o = ?",
                        (facts.entity(org_name), facts.entity(city_name))).fetchone()[0]
                assert q.answer == str(n) and int(q.answer) >= 1
            elif t.startswith("How many years after the birth year of its founder was "):
                org = facts.entity(t[len("How many years after the birth year of its founder was "):-len(" founded?")])
                founded = int(facts.get(org, "founding_year"))
                born = int(facts.get(facts.get(org, "founder"), "birth_year"))
                assert q.answer == str(founded - born)
            elif t.startswith("What is the combined population of "):
                a, b = _split_on_and(t[len("What is the combined population of "):-1], facts)
                total = int(facts.get(facts.resolve(a), "population")) + int(facts.get(facts.resolve(b), "population"))
                assert q.answer == str(total) and f"{total:,}" in q.aliases
            elif t.startswith("Among the people who work for "):
                org = facts.entity(t[len("Among the people who work for "):-len(", who was born first?")])
                rows = sql("SELECT w.s, CAST(y.o AS INTEGER) FROM facts w JOIN facts y ON y.s = w.s AND "
                           "y.r = 'birth_year' WHERE w.r = 'works_for' AND w.o = ? ORDER BY 2", (org,)).fetchall()
                assert rows[0][1] < rows[1][1] and q.answer == facts.name(rows[0][0])
            elif t.startswith("How many years apart were "):
                a, b = _split_on_and(t[len("How many years apart were "):-len(" born?")], facts)
                ya, yb = int(facts.get(facts.resolve(a), "birth_year")), int(facts.get(facts.resolve(b), "birth_year"))
                assert q.answer == str(abs(ya - yb))
            else:
                raise AssertionError(f"unparsed aggregation {t!r}")


@pytest.mark.parametrize("hops", [1, 2, 3, 4])
def test_no_answer_questions_have_no_answer_in_the_world(hops: int) -> None:
    corpus = build_corpus(34, NOISY)
    facts = FactBase(corpus.world)
    rng = random.Random(hops)
    missing_entity = missing_relation = 0
    for _ in range(30):
        q = no_answer_question(corpus.world, rng, hops)
        assert q.answer is None and q.accepted() == () and not q.answerable and q.kind == "no_answer"
        phrase, relation = parse_path_question(q.text)
        subject = facts.resolve(phrase)
        if subject is None:
            # either the start name is unknown, or a relation on the way is missing
            relations = []
            for _ in range(10):
                prefix = next((p for p in NOUNS if phrase.startswith(p)), None)
                if prefix is None:
                    break
                relations.append(prefix)
                phrase = phrase[len(prefix):]
            if facts.entity(phrase) is None:
                missing_entity += 1
            else:
                missing_relation += 1
        else:
            assert facts.get(subject, relation) is None, q.text
            missing_relation += 1
    assert missing_entity and missing_relation


def test_answer_matching_accepts_aliases_and_rejects_near_misses() -> None:
    corpus = build_corpus(35, NOISY)
    rng = random.Random(0)
    for _ in range(30):
        q = multi_hop_question(corpus.world, rng, 2, to_entity=True)
        for spelling in q.accepted():
            assert answer_matches(spelling, q)
            with_article = spelling if spelling.startswith("the ") else f"the {spelling}"
            assert answer_matches(f"  {with_article.upper()}. ", q)
        assert not answer_matches(knowledge.near_duplicate(q.answer, rng), q)
        assert not answer_matches("", q) and not answer_matches("x" * 100_000, q)
    number = Question("aggregation", "?", "1234567", ("1,234,567",), "number", 2, ())
    assert answer_matches("1,234,567", number) and answer_matches("1234567", number)
    assert not answer_matches("1,234,568", number)
    unanswerable = no_answer_question(corpus.world, rng, 2)
    for spelling in (NO_ANSWER, "Not in the corpus.", "unknown", "Cannot be determined."):
        assert answer_matches(spelling, unanswerable)
    for wrong in ("", "yes", q.answer, "it is not in the corpus but maybe " + q.answer):
        assert not answer_matches(wrong, unanswerable)
    assert not answer_matches(NO_ANSWER, q) and not answer_matches(NO_ANSWER, number)


def test_params_round_trip_and_validate() -> None:
    assert CorpusParams.from_dict(json.loads(json.dumps(NOISY.to_dict()))) == NOISY
    with pytest.raises(ValueError):
        CorpusParams(people=2)
    with pytest.raises(ValueError):
        CorpusParams(cities=2, countries=3)
    with pytest.raises(ValueError):
        multi_hop_question(build_corpus(1, PLAIN).world, random.Random(0), 5)


def test_normalize_reads_ascii_by_table_exactly_as_by_the_character_rule() -> None:
    """The ASCII fast path maps each character as the general rule does (letters and digits kept, others a space)."""
    rng = random.Random(3)
    pool = [chr(code) for code in range(128)] + ["é", "ß", "ﬁ", "２", "—", "Ⅻ"]
    for _ in range(2000):
        text = "".join(rng.choice(pool) for _ in range(rng.randint(0, 16)))
        folded = "".join(ch if ch.isalnum() else " " for ch in unicodedata.normalize("NFKC", text).casefold())
        words = folded.split()
        assert normalize(text) == " ".join(words[1:] if words[:1] == ["the"] else words), repr(text)
