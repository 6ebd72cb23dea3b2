"""Tool-use costs: corpus and database build time per problem, and per-call latency of the search,
open, sql and python tools, with unsandboxed Python (GEM's way) measured in the same run.

    python bench/tools.py            # uses GEM's venv (bench/.venv-gem) when it exists
    python bench/tools.py --peer     # also creates that venv (pip install gem-llm) if missing
    python bench/tools.py --no-peer  # palaestra and a plain subprocess only

(a) corpus build per problem (world + documents, uncached) and BM25 index build, for corpus sizes
    an env might use per level, up to a ~10k-document corpus;
(b) search and open latency on the ~10k-document corpus (queries: an entity name plus relation
    words, as an agent writes them);
(c) database build per problem (generate + write the SQLite file) for several sizes;
(d) sql latency on a 100k-row table (filter count, group by, top-n, join);
(e) python: palaestra's PythonTool (a persistent sandboxed session: first call of an episode
    and later calls), a plain ``subprocess.run([python, "-c", code])`` per call (what GEM's python
    tool does, unsandboxed), and GEM's own ``PythonCodeTool`` in its venv when available.
Latencies are medians (and 95th percentiles) over repeated calls after a warm-up.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from collections.abc import Callable
from pathlib import Path

from palaestra.generators.database import DatabaseParams, generate_database
from palaestra.generators.knowledge import CorpusParams, generate_world, render_corpus
from palaestra.tools import PythonTool
from palaestra.tools.search import OpenTool, SearchIndex, SearchTool
from palaestra.tools.sql import SqlTool

HERE = Path(__file__).resolve().parent
GEM_VENV = HERE / ".venv-gem"
GEM_WORKER = HERE / "gem_worker.py"

CORPORA = {
    "small (24 people)": CorpusParams(),
    "medium, noisy": CorpusParams(people=120, organisations=25, cities=20, countries=5, facts_per_document=2,
                                  redundancy=2, paraphrase=0.5, alias_mentions=0.3, distractors=0.5,
                                  wrong_documents=0.2, near_duplicates=0.2),
    "large, noisy": CorpusParams(people=600, organisations=120, cities=60, countries=10, facts_per_document=2,
                                 redundancy=2, paraphrase=0.5, alias_mentions=0.3, distractors=0.5,
                                 wrong_documents=0.2, near_duplicates=0.2),
    "~10k documents": CorpusParams(people=2000, organisations=400, cities=150, countries=15, facts_per_document=2,
                                   redundancy=2, paraphrase=0.5, alias_mentions=0.3, distractors=0.2,
                                   wrong_documents=0.1, near_duplicates=0.1),
}
DATABASES = {
    "2 tables x 20 rows": DatabaseParams(tables=2, rows=20),
    "4 tables x 40 rows": DatabaseParams(tables=4, rows=40),
    "8 tables x 200 rows": DatabaseParams(tables=8, rows=200),
    "8 tables x 2000 rows": DatabaseParams(tables=8, rows=2000),
}
RELATION_WORDS = ("born", "works", "founded", "CEO", "headquarters", "capital", "population", "married")
PLAIN_ENV = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "TMPDIR") if k in os.environ}


def timed(call: Callable[[], object], repeats: int, warmup: int = 2) -> tuple[float, float]:
    """(median, 95th percentile) seconds of ``call()``."""
    for _ in range(warmup):
        call()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        samples.append(time.perf_counter() - start)
    samples.sort()
    return statistics.median(samples), samples[min(len(samples) - 1, int(0.95 * len(samples)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:9.3f} ms"


def corpus_section(seeds: int) -> object:
    print("(a) corpus build per problem (uncached) and BM25 index build")
    print(f"    {'corpus':22} {'documents':>9} {'build':>11} {'index':>11}")
    large = None
    for label, params in CORPORA.items():
        builds, indexes, size = [], [], 0
        for seed in range(seeds):
            start = time.perf_counter()
            rng = random.Random(seed)
            corpus = render_corpus(generate_world(rng, params), rng, params, key=f"bench:{label}:{seed}")
            builds.append(time.perf_counter() - start)
            start = time.perf_counter()
            SearchIndex(corpus)
            indexes.append(time.perf_counter() - start)
            size = len(corpus.documents)
            large = corpus
        print(f"    {label:22} {size:9,d} {ms(statistics.median(builds))} {ms(statistics.median(indexes))}")
    return large


def search_section(corpus, queries: int) -> None:
    print(f"\n(b) search / open latency on a {len(corpus.documents):,}-document corpus")
    search, read = SearchTool(corpus), OpenTool(corpus)
    rng = random.Random(0)
    names = [e.name for e in corpus.world.entities.values()]
    texts = [f"{rng.choice(names)} {rng.choice(RELATION_WORDS)}" for _ in range(queries)]
    position = iter(range(10**9))
    med, p95 = timed(lambda: search.call({"query": texts[next(position) % queries], "k": 5}), queries)
    print(f"    search k=5   median {ms(med)}   p95 {ms(p95)}")
    med, p95 = timed(lambda: search.call({"query": texts[next(position) % queries], "k": 10}), queries)
    print(f"    search k=10  median {ms(med)}   p95 {ms(p95)}")
    ids = [d.id for d in corpus.documents]
    med, p95 = timed(lambda: read.call({"doc_id": ids[next(position) % len(ids)]}), queries)
    print(f"    open         median {ms(med)}   p95 {ms(p95)}")


def database_section(seeds: int) -> None:
    print("\n(c) database build per problem (generate + write the SQLite file, uncached)")
    print(f"    {'database':22} {'rows':>9} {'generate':>11} {'write':>11}")
    with tempfile.TemporaryDirectory() as scratch:
        for label, params in DATABASES.items():
            generated, written, rows = [], [], 0
            for seed in range(seeds):
                start = time.perf_counter()
                db = generate_database(random.Random(seed), params)
                generated.append(time.perf_counter() - start)
                path = os.path.join(scratch, f"{seed}-{len(written)}-{params.rows}.sqlite")
                start = time.perf_counter()
                db.write(path)
                written.append(time.perf_counter() - start)
                rows = sum(len(t.rows) for t in db.tables)
            print(f"    {label:22} {rows:9,d} {ms(statistics.median(generated))} {ms(statistics.median(written))}")


def sql_section(repeats: int) -> None:
    for seed in range(20):  # find a database whose largest table has 100k rows
        start = time.perf_counter()
        db = generate_database(random.Random(seed), DatabaseParams(domain="retail", tables=3, rows=100_000))
        big = max(db.tables, key=lambda t: len(t.rows))
        if len(big.rows) >= 100_000 and any(c.references for c in big.columns) and big.label:
            break
    build = time.perf_counter() - start
    start = time.perf_counter()
    path = db.path
    write = time.perf_counter() - start
    print(f"\n(d) sql latency on `{big.name}` ({len(big.rows):,} rows; generated in {build:.2f} s, "
          f"written in {write:.2f} s)")
    fk = next(c for c in big.columns if c.references)
    numeric = next(c for c in big.columns if c.sql_type in ("INTEGER", "REAL") and not c.primary_key
                   and not c.references)
    parent = db.table(fk.references)
    parent_pk = parent.columns[0].name
    queries = {
        "count with a filter": f"SELECT COUNT(*) FROM {big.name} WHERE {numeric.name} > 100",
        "group by + count": f"SELECT {fk.name}, COUNT(*) FROM {big.name} GROUP BY {fk.name}",
        "top 5 (sort)": f"SELECT {big.label}, {numeric.name} FROM {big.name} ORDER BY {numeric.name} DESC LIMIT 5",
        "join + filter": (f"SELECT COUNT(*) FROM {big.name} b JOIN {parent.name} p ON b.{fk.name} = p.{parent_pk} "
                          f"WHERE p.{parent_pk} % 2 = 0"),
        "point lookup": f"SELECT * FROM {big.name} WHERE {big.columns[0].name} = 54321",
        "refused write": f"DELETE FROM {big.name}",
    }
    tool = SqlTool(path)
    for label, query in queries.items():
        assert not tool.call({"query": query}).startswith("error") or label == "refused write"
        med, p95 = timed(lambda query=query: tool.call({"query": query}), repeats)
        print(f"    {label:22} median {ms(med)}   p95 {ms(p95)}")
    tool.close()


def python_section(repeats: int, peer: bool, install: bool) -> None:
    print("\n(e) python tool: one call printing a small result")
    tool = PythonTool(timeout=5)
    try:
        episodes = []
        for _ in range(5):
            tool.reset()
            start = time.perf_counter()
            assert tool.call({"code": "x = 41\nprint(x + 1)"}) == "42"
            episodes.append(time.perf_counter() - start)
        counter = iter(range(10**9))
        med, p95 = timed(lambda: tool.call({"code": f"x = x + {next(counter)}\nprint(x)"}), repeats)
        print(f"    palaestra PythonTool, first call of an episode  median {ms(statistics.median(episodes))}")
        print(f"    palaestra PythonTool, later calls (sandboxed)   median {ms(med)}   p95 {ms(p95)}")
    finally:
        tool.close()

    def plain_subprocess() -> None:
        out = subprocess.run([sys.executable, "-c", "x = 41\nprint(x + 1)"], capture_output=True, text=True,
                             timeout=5, env=PLAIN_ENV, cwd=tempfile.gettempdir())
        assert out.stdout == "42\n"

    med, p95 = timed(plain_subprocess, max(10, repeats // 5))
    print(f"    subprocess.run([python, -c, code]) (unsandboxed) median {ms(med)}   p95 {ms(p95)}")
    if peer:
        gem = gem_python_tool(max(10, repeats // 5), install)
        if gem is None:
            print("    GEM PythonCodeTool: skipped (no bench/.venv-gem; run with --peer to create it)")
        else:
            print(f"    GEM PythonCodeTool (gem-llm {gem['version']}, unsandboxed) median {ms(gem['median'])}   "
                  f"p95 {ms(gem['p95'])}")


GEM_TOOL_TIMER = """
import json, statistics, sys, time
from importlib.metadata import version
from gem.tools.python_code_tool import PythonCodeTool
tool = PythonCodeTool()  # sandbox_type="none": subprocess.run(["python", "-c" or a file]), no isolation
action = "<python>x = 41\\nprint(x + 1)</python>"
for _ in range(2):
    tool.execute_action(action)
samples = []
for _ in range(int(sys.argv[1])):
    start = time.perf_counter()
    valid, has_error, observation, parsed = tool.execute_action(action)  # gem-llm 0.1.0's return order
    samples.append(time.perf_counter() - start)
    assert valid and not has_error and "42" in observation, observation
samples.sort()
print(json.dumps({"version": version("gem-llm"), "median": statistics.median(samples),
                  "p95": samples[min(len(samples) - 1, int(0.95 * len(samples)))]}))
"""


def gem_python_tool(repeats: int, install: bool) -> dict | None:
    python = GEM_VENV / "bin" / "python"
    if not python.exists():
        if not install:
            return None
        print("    creating bench/.venv-gem with gem-llm (first run only)...", flush=True)
        venv.create(GEM_VENV, with_pip=True)
        for argv in json.loads(GEM_WORKER.open().readline().removeprefix("# INSTALL:")):
            subprocess.run([str(python), "-m", *argv, "-q"], check=True)
    # GEM runs "python" from PATH: put its venv first, as when that venv is active (a shim such as
    # pyenv's would otherwise add ~100 ms per call and overstate GEM's cost).
    env = {**os.environ, "PATH": f"{GEM_VENV / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"}
    out = subprocess.run([str(python), "-c", GEM_TOOL_TIMER, str(repeats)], capture_output=True, text=True,
                         check=True, cwd=tempfile.gettempdir(), env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--peer", action="store_true", help="create GEM's venv if missing")
    parser.add_argument("--no-peer", action="store_true", help="skip GEM's python tool")
    parser.add_argument("--seeds", type=int, default=3, help="problems per build measurement")
    parser.add_argument("--repeats", type=int, default=200, help="calls per latency measurement")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}\n")
    corpus = corpus_section(args.seeds)
    search_section(corpus, args.repeats)
    database_section(args.seeds)
    sql_section(max(10, args.repeats // 10))
    python_section(args.repeats, peer=not args.no_peer, install=args.peer)


if __name__ == "__main__":
    sys.exit(main())
