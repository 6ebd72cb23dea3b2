"""The BM25 search tool and the open tool over generated corpora: retrieval, determinism, the
per-corpus index cache, and hostile queries (bounded and harmless)."""

from __future__ import annotations

import json
import random
import re
import time
from dataclasses import dataclass

import pytest

pytest.importorskip("bm25s")

from palaestra.core import Problem
from palaestra.generators.knowledge import (
    CorpusParams,
    build_corpus,
    corpus_from_spec,
    corpus_spec,
    multi_hop_question,
)
from palaestra.tools import search as search_module
from palaestra.tools.search import (
    INDEX_CACHE_SIZE,
    MAX_QUERY_CHARS,
    OpenTool,
    SearchTool,
    index_for,
    search_tools,
    tokenize,
)

PARAMS = CorpusParams(people=60, organisations=12, cities=12, countries=4, facts_per_document=2, redundancy=2,
                      paraphrase=0.5, alias_mentions=0.3, distractors=0.3, wrong_documents=0.2, near_duplicates=0.2)
RESULT_LINE = re.compile(r"^(\d+)\. \[([^\]]+)\] (.+)$")


def result_ids(text: str) -> list[str]:
    return [m.group(2) for line in text.splitlines() if (m := RESULT_LINE.match(line))]


@dataclass(frozen=True)
class Doc:
    id: str
    title: str
    text: str


@dataclass
class TinyCorpus:
    key: str
    documents: list[Doc]


def test_schemas_are_openai_style() -> None:
    for tool in search_tools():
        schema = tool.schema()
        assert schema["type"] == "function" and schema["function"]["name"] in ("search", "open")
        parameters = schema["function"]["parameters"]
        assert parameters["type"] == "object" and parameters["required"] and parameters["additionalProperties"] is False


def test_bm25_ranks_by_term_weight_and_breaks_ties_by_position() -> None:
    corpus = TinyCorpus("tiny-1", [
        Doc("a", "Zelvor", "Zelvor founded Omrik Labs."),
        Doc("b", "Omrik Labs", "Omrik Labs is a firm. Omrik Labs makes lamps. Omrik Labs was founded in 1950."),
        Doc("c", "Twin one", "The river flows north."),
        Doc("d", "Twin two", "The river flows north."),
        Doc("e", "Other", "Nothing about that."),
    ])
    tool = SearchTool(corpus)
    assert result_ids(tool.call({"query": "Omrik Labs"}))[0] == "b"
    assert result_ids(tool.call({"query": "Zelvor"})) == ["a"]
    assert result_ids(tool.call({"query": "river north"})) == ["c", "d"]  # equal scores: corpus order
    assert tool.call({"query": "unheard-of words"}) == "no documents match the query"
    assert result_ids(tool.call({"query": "Omrik", "k": 1})) == ["b"]


@pytest.mark.parametrize("seed", [0, 1])
def test_search_finds_the_documents_stating_each_hop(seed: int) -> None:
    """An agent that searches an entity's name plus the relation's words finds a verified
    document stating the fact in the top 5 for nearly every hop."""
    corpus = build_corpus(100 + seed, PARAMS)
    tool = SearchTool(corpus)
    words = {"born_in": "born", "birth_year": "born year", "works_for": "works", "married_to": "married spouse",
             "founder": "founded", "ceo": "CEO chief executive", "founding_year": "founded year",
             "headquarters": "headquarters", "country": "located country", "population": "population",
             "capital": "capital"}
    rng = random.Random(seed)
    found = total = 0
    for _ in range(40):
        question = multi_hop_question(corpus.world, rng, 2)
        for subject, relation, _ in question.facts:
            total += 1
            ids = result_ids(tool.call({"query": f"{corpus.world.entities[subject].name} {words[relation]}", "k": 5}))
            stating = {d.id for d in corpus.stating(subject, relation)}
            found += bool(stating.intersection(ids))
    assert found / total >= 0.9, (found, total)


def test_results_depend_only_on_corpus_and_query() -> None:
    corpus = build_corpus(7, PARAMS)
    queries = [e.name for e in list(corpus.world.entities.values())[:30]] + ["founded year", "capital population"]
    first = [SearchTool(corpus).call({"query": q, "k": 10}) for q in queries]
    search_module._CACHE.clear()  # a rebuilt index gives the same answers
    rebuilt = corpus_from_spec(corpus.spec())
    assert rebuilt is corpus
    again = [SearchTool(rebuilt).call({"query": q, "k": 10}) for q in queries]
    assert first == again
    assert all(result_ids(text) for text in first[:30])


def test_index_cache_is_keyed_by_corpus_and_bounded() -> None:
    search_module._CACHE.clear()
    corpora = [build_corpus(200 + i, CorpusParams()) for i in range(INDEX_CACHE_SIZE + 2)]
    indexes = [index_for(c) for c in corpora]
    assert len(search_module._CACHE) == INDEX_CACHE_SIZE
    assert index_for(corpora[-1]) is indexes[-1]  # cached
    assert corpora[0].key not in search_module._CACHE  # the least recently used went first
    assert len({c.key for c in corpora}) == len(corpora)


def test_open_reads_a_document_by_id_and_bounds_it() -> None:
    corpus = build_corpus(8, PARAMS)
    document = corpus.documents[5]
    read = OpenTool(corpus)
    assert read.call({"doc_id": document.id}) == f"[{document.id}] {document.title}\n{document.text}"
    assert read.call({"doc_id": f" [{document.id}] "}).startswith(f"[{document.id}]")
    assert read.call({"doc_id": "d99999999"}).startswith("error: no document")
    assert read.call({"doc_id": "x" * 1_000_000}).startswith("error: no document")
    assert len(read.call({"doc_id": "x" * 1_000_000})) < 200
    assert read.call({"id": document.id}).startswith("error")
    short = OpenTool(corpus, max_chars=20).call({"doc_id": document.id})
    assert "[document truncated to 20 characters]" in short and len(short) < 120


def test_bind_follows_the_problem_corpus_spec() -> None:
    a, b = build_corpus(9, CorpusParams()), build_corpus(10, CorpusParams())
    problem_a = Problem(env_id="tools/x", data={"corpus": corpus_spec(9, CorpusParams())})
    problem_b = Problem(env_id="tools/x", data={"corpus": json.loads(json.dumps(corpus_spec(10, CorpusParams())))})
    name_a = a.world.entities["p0"].name
    for tool in search_tools():  # as the tool-use wrapper makes them: no corpus until bind
        probe = {"query": name_a, "k": 1} if tool.name == "search" else {"doc_id": a.documents[0].id}
        unbound = tool.call(probe)
        assert unbound.startswith("error") and tool.infrastructure_error
        tool.bind(problem_a)
        hit = tool.call(probe)
        assert tool.infrastructure_error is None and not hit.startswith("error")
        assert tool.corpus is a
        tool.bind(problem_b)
        assert tool.corpus is b and tool.call(probe) != hit
        tool.bind(Problem(env_id="tools/y", data={}))  # a problem without a corpus: unbound again
        assert tool.call(probe).startswith("error")
    fixed = SearchTool(a)  # a fixed corpus survives problems that carry none
    fixed.bind(Problem(env_id="tools/y", data={}))
    assert fixed.corpus is a
    fixed.bind(problem_b)
    assert fixed.corpus is b
    custom = SearchTool(resolve=lambda problem: b)
    custom.bind(problem_a)
    assert custom.corpus is b


def test_tokenizer_is_a_fixed_pattern() -> None:
    assert tokenize("Who founded Quorvex-Labs in 1987?") == ["founded", "quorvex", "labs", "1987"]
    assert tokenize("ＱＵＯＲＶＥＸ") == ["quorvex"]  # NFKC folds full-width letters
    assert tokenize("") == [] and tokenize("the of and") == []


HOSTILE_QUERIES = [
    "x" * 1_000_000,
    "a " * (MAX_QUERY_CHARS // 2),
    " ".join(f"t{i}" for i in range(400))[:MAX_QUERY_CHARS],
    "(a+)+$" * 100,
    "((((((((((.*)*)*)*)*)*)*)*)*)*)*" * 10,
    r"\\w+\d*[^\]]{1000000}",
    "日本語のクエリ 🎉🎉🎉 Ωμέγα ̀̀̀̀ \u202e\u200b",
    "\x00\x01\x02 null bytes",
    "",
    "     \n\t ",
    "the of and is",
    '"; DROP TABLE documents; --',
]


def test_hostile_queries_are_bounded_and_harmless() -> None:
    corpus = build_corpus(12, PARAMS)
    tool = SearchTool(corpus)
    index_for(corpus)  # build outside the timed calls
    name = corpus.world.entities["p3"].name
    before = tool.call({"query": name})
    for query in HOSTILE_QUERIES:
        start = time.process_time()
        out = tool.call({"query": query})
        assert time.process_time() - start < 0.5, query[:40]
        assert isinstance(out, str) and len(out) < 10 * tool.snippet_chars + 500
        assert tool.infrastructure_error is None
    assert tool.call({"query": "x" * 1_000_000}) == f"error: query longer than {MAX_QUERY_CHARS} characters"
    assert tool.call({"query": ""}) == "error: empty query"
    for k in (-5, 0, 10**30):
        out = tool.call({"query": name, "k": k})
        assert 1 <= len(result_ids(out)) <= tool.max_k
    assert tool.call({"query": name, "k": "3"}).startswith("error: argument 'k'")
    assert tool.call({"query": name, "k": True}).startswith("error: argument 'k'")
    assert tool.call({"query": 5}).startswith("error")
    assert tool.call({"q": name}).startswith("error")
    assert tool.call({"query": name}) == before  # still works, same answer
