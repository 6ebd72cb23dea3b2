"""BM25 search over a document corpus (``search``) and reading a document by id (``open``).

The index is built with `bm25s <https://github.com/xhluca/bm25s>`_ (``pip install bm25s``, the
``tools`` extra) from the corpus's titles and texts, once per corpus: indexes sit in a small LRU
cache keyed by the corpus's ``key`` (its identity, e.g. the seed and parameters it was generated
from), so every episode over the same corpus reuses one index. Results depend only on the corpus
and the query: ranking is by BM25 score, ties broken by document position.

A corpus is any object with ``key: str`` and ``documents``, a sequence of objects with ``id``,
``title`` and ``text`` (such as :class:`palaestra.generators.knowledge.Corpus`). The tools get
it in one of three ways: given at construction (a fixed corpus); from the episode's problem, which
the tool-use wrapper passes to :meth:`~_CorpusTool.bind` at every reset: by default
``problem.data["corpus"]``, a spec of :func:`palaestra.generators.knowledge.corpus_spec`, rebuilt
(cached) by ``corpus_from_spec``; or through a ``resolve(problem) -> corpus`` function.

Model text is handled with fixed limits: a query longer than ``MAX_QUERY_CHARS`` or an empty
one is refused, tokenisation is a fixed pattern (``\\w+``, no model-written regex), at most
``MAX_QUERY_TERMS`` distinct terms count, ``k`` is clamped to ``1..max_k``, and replies are
bounded (snippets of ``snippet_chars``, documents cut at ``max_chars``).

Example::

    from palaestra.generators.knowledge import CorpusParams, build_corpus
    corpus = build_corpus(7, CorpusParams())
    search, read = SearchTool(corpus), OpenTool(corpus)
    search.call({"query": "founder of Quorvex Labs", "k": 3})
    # '1. [d0042] Quorvex Labs\\n   Quorvex Labs was founded by ...\\n2. ...'
    read.call({"doc_id": "d0042"})
    # '[d0042] Quorvex Labs\\nSource: national archive (verified).\\nQuorvex Labs is ...'
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from palaestra.core.optional import require
from palaestra.tools.base import Tool

MAX_QUERY_CHARS = 1_000
MAX_QUERY_TERMS = 64
INDEX_CACHE_SIZE = 64  # like the corpora's cache: one per episode of a 64-env vector (~0.25 MB each)
SNIPPET_SENTENCES = 200  # a snippet comes from a document's first sentences: bounded work per hit
_WORD = re.compile(r"\w+")  # fixed pattern: linear time on any input
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
# Function words carry no signal for entity-centric queries; dropping them keeps scores on names.
STOPWORDS = frozenset(
    "a an and are as at be by did do does for from had has have he her his in is it its of on or she "
    "that the their them they this to was were what when where which who whom whose why with".split()
)


class _Document(Protocol):  # read-only members: frozen dataclasses (the knowledge generator's) satisfy them
    @property
    def id(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def text(self) -> str: ...


class _Corpus(Protocol):
    @property
    def key(self) -> str: ...
    @property
    def documents(self) -> Sequence[_Document]: ...


def tokenize(text: str) -> list[str]:
    """Lower-cased word tokens without stopwords.

    >>> tokenize("Who founded Quorvex-Labs in 1987?")
    ['founded', 'quorvex', 'labs', '1987']
    """
    text = unicodedata.normalize("NFKC", text).casefold()
    return [t for t in _WORD.findall(text) if t not in STOPWORDS]


class SearchIndex:
    """A BM25 index of one corpus (titles count with the text)."""

    def __init__(self, corpus: _Corpus) -> None:
        bm25s = require("bm25s", "tools", "the search tool")  # imported only when an index is built

        self.key = corpus.key
        self.documents = list(corpus.documents)
        self.by_id = {d.id: i for i, d in enumerate(self.documents)}
        self.sentences = [_SENTENCE_END.split(d.text) for d in self.documents]
        vocabulary: dict[str, int] = {}
        ids = [[vocabulary.setdefault(t, len(vocabulary)) for t in tokenize(f"{d.title}\n{d.text}")]
               for d in self.documents]
        self.vocabulary = vocabulary
        self.retriever = bm25s.BM25()
        self.retriever.index((ids, dict(vocabulary)), show_progress=False)

    def search(self, query: str, k: int) -> list[tuple[int, float]]:
        """``(document position, score)`` of the ``k`` best matches with a positive score."""
        import numpy as np

        terms = list(dict.fromkeys(t for t in tokenize(query) if t in self.vocabulary))[:MAX_QUERY_TERMS]
        if not terms:
            return []
        scores = self.retriever.get_scores_from_ids([self.vocabulary[t] for t in terms])
        hits = np.flatnonzero(scores > 0)
        order = hits[np.lexsort((hits, -scores[hits]))][:k]  # best first; ties by position
        return [(int(i), float(scores[i])) for i in order]

    def snippet(self, position: int, query: str, limit: int) -> str:
        """The sentences of a document sharing most terms with the query, in text order."""
        terms = set(tokenize(query))
        sentences = self.sentences[position][:SNIPPET_SENTENCES]
        ranked = sorted(range(len(sentences)),
                        key=lambda i: (-len(terms.intersection(tokenize(sentences[i]))), i))
        chosen, length = [], 0
        for i in ranked:
            if length + len(sentences[i]) > limit and chosen:
                break
            chosen.append(i)
            length += len(sentences[i]) + 1
        text = " ".join(sentences[i] for i in sorted(chosen)).replace("\n", " ")
        return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."


_CACHE: OrderedDict[str, SearchIndex] = OrderedDict()
_CACHE_LOCK = threading.Lock()


def index_for(corpus: _Corpus) -> SearchIndex:
    """The cached index of ``corpus`` (built on first use; the least recently used of
    ``INDEX_CACHE_SIZE`` is dropped). Keyed by ``corpus.key``: equal keys must mean equal corpora."""
    with _CACHE_LOCK:
        index = _CACHE.get(corpus.key)
        if index is not None:
            _CACHE.move_to_end(corpus.key)
            return index
    index = SearchIndex(corpus)  # built outside the lock: other corpora stay searchable meanwhile
    with _CACHE_LOCK:
        _CACHE[corpus.key] = index
        _CACHE.move_to_end(corpus.key)
        while len(_CACHE) > INDEX_CACHE_SIZE:
            _CACHE.popitem(last=False)
    return index


def corpus_of_problem(problem: Any) -> _Corpus | None:
    """The corpus described by ``problem.data["corpus"]`` (a knowledge-corpus spec), or None."""
    data = getattr(problem, "data", None)
    if isinstance(data, dict) and isinstance(data.get("corpus"), dict):
        from palaestra.generators.knowledge import corpus_from_spec

        return corpus_from_spec(data["corpus"])
    return None


class _CorpusTool(Tool):
    """A tool over one corpus at a time: a fixed one, or each episode's (see the module docstring)."""

    def __init__(self, corpus: Any = None, resolve: Callable[[Any], _Corpus | None] | None = None) -> None:
        self.resolve = resolve if resolve is not None else corpus_of_problem
        self.fixed = corpus
        self.corpus: _Corpus | None = corpus

    def bind(self, problem: Any) -> None:
        """Use the corpus of ``problem`` (what ``resolve`` returns), else the fixed corpus, if any."""
        found = self.resolve(problem) if problem is not None else None
        self.corpus = found if found is not None else self.fixed

    def set_corpus(self, corpus: _Corpus) -> None:
        """Search ``corpus`` until the next :meth:`bind`."""
        self.corpus = corpus

    def _index(self) -> SearchIndex | None:
        if self.corpus is None:
            self.infrastructure_error = f"{self.name}: no corpus bound to the tool"
            return None
        return index_for(self.corpus)


class SearchTool(_CorpusTool):
    """``search(query, k)``: the ``k`` best documents as ``[id] title`` and a snippet."""

    name = "search"
    description = (
        "Search the document collection (BM25 keyword ranking). Returns up to k results, best first, "
        "each with its document id, title and a snippet. Use open to read a whole document."
    )

    def __init__(self, corpus: Any = None, resolve: Callable[[Any], _Corpus | None] | None = None,
                 default_k: int = 5, max_k: int = 10, snippet_chars: int = 240) -> None:
        super().__init__(corpus, resolve)
        self.default_k, self.max_k, self.snippet_chars = default_k, max_k, snippet_chars
        self.parameters = {
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "keywords, e.g. a name and what you want to know"},
                "k": {"type": "integer", "description": f"number of results (1-{max_k}, default {default_k})"},
            },
            "required": ["query"],
            "additionalProperties": False,
        }

    def run(self, arguments: dict[str, Any]) -> str:
        query = arguments["query"]
        if len(query) > MAX_QUERY_CHARS:
            return f"error: query longer than {MAX_QUERY_CHARS} characters"
        if not query.strip():
            return "error: empty query"
        k = min(max(int(arguments.get("k", self.default_k)), 1), self.max_k)
        index = self._index()
        if index is None:
            return "error: the search tool has no corpus"
        hits = index.search(query, k)
        if not hits:
            return "no documents match the query"
        lines = []
        for rank, (position, _) in enumerate(hits, 1):
            document = index.documents[position]
            snippet = index.snippet(position, query, self.snippet_chars)
            lines.append(f"{rank}. [{document.id}] {document.title}\n   {snippet}")
        return "\n".join(lines)


class OpenTool(_CorpusTool):
    """``open(doc_id)``: the whole document (cut at ``max_chars``)."""

    name = "open"
    description = "Read a document of the collection by its id (as shown by search, e.g. d0042)."
    parameters = {
        "type": "object",
        "properties": {"doc_id": {"type": "string", "description": "a document id from search results"}},
        "required": ["doc_id"],
        "additionalProperties": False,
    }

    def __init__(self, corpus: Any = None, resolve: Callable[[Any], _Corpus | None] | None = None,
                 max_chars: int = 4_000) -> None:
        super().__init__(corpus, resolve)
        self.max_chars = max_chars

    def run(self, arguments: dict[str, Any]) -> str:
        index = self._index()
        if index is None:
            return "error: the open tool has no corpus"
        doc_id = arguments["doc_id"][:100].strip().strip("[]")
        position = index.by_id.get(doc_id)
        if position is None:
            return f"error: no document with id {doc_id[:40]!r} (ids look like {index.documents[0].id})"
        document = index.documents[position]
        text = document.text
        if len(text) > self.max_chars:
            text = text[: self.max_chars] + f"\n[document truncated to {self.max_chars} characters]"
        return f"[{document.id}] {document.title}\n{text}"


def search_tools(corpus: Any = None, resolve: Callable[[Any], _Corpus | None] | None = None) -> list[Tool]:
    """``[SearchTool, OpenTool]`` over the same corpus: the usual pair for a search episode."""
    return [SearchTool(corpus, resolve), OpenTool(corpus, resolve)]
