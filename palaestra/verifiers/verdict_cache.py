"""Judged candidates remembered within a process, so identical programs on one problem run once.

In GRPO a group of samples for one problem often holds the same program several times; each
costs a sandbox job (a compile for C, C++, Go, Verilog). :class:`ReportCache` keeps the report of
each judged candidate, keyed by the **problem's identity** (``env_id``, ``version``, ``level``,
``seed``, set by the env around its verify with :func:`problem_scope`), the **normalised program**
(the code the answer's extraction produced: fences, labels and prose around it removed) and
everything else the judgement depends on (tests, expected outputs, limits). So a report is never
reused across problems or env versions, and a report of an infrastructure failure (the sandbox's
error, never the candidate's) is not kept: the next identical candidate runs again. Concurrent
identical candidates run once (the others wait for the first one's report).

Outside a :func:`problem_scope` (a direct call of a verifier) the key holds the content alone.

Example::

    cache = ReportCache(size=4096)
    with problem_scope(problem):
        report = cache.judged(("stdio", code, tests), lambda: run_it(code, tests), keep=lambda r: r.error is None)
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any, Generic, TypeVar

from palaestra.verifiers.program_text import comment_free

Report = TypeVar("Report")

_scope: contextvars.ContextVar[tuple[str, int, int, int] | None] = contextvars.ContextVar("verdict_scope", default=None)


@contextlib.contextmanager
def problem_scope(problem: Any) -> Iterator[None]:
    """Key every report judged inside the block by ``problem``'s identity (env id, version, level, seed)."""
    token = _scope.set((str(problem.env_id), int(problem.version), int(problem.level), int(problem.seed)))
    try:
        yield
    finally:
        _scope.reset(token)


def current_scope() -> tuple[str, int, int, int] | None:
    return _scope.get()


def key_of(*parts: Any) -> str:
    """A digest of the current problem scope and ``parts`` (JSON values or bytes)."""
    digest = hashlib.sha256()
    for part in (current_scope(), *parts):
        data = part if isinstance(part, bytes) else json.dumps(part, sort_keys=True).encode("utf-8", "surrogatepass")
        digest.update(hashlib.sha256(data).digest())
    return digest.hexdigest()


def program_key(language: str, code: str) -> tuple[list[str], str]:
    """(the part of a cache key that stands for a candidate program, a digest of its own text).

    Programs that differ only in comments and blank lines share the first (see
    :mod:`palaestra.verifiers.program_text`); the digest tells them apart for ``ReportCache.judged``'s
    ``text``. A program the rules cannot fold is keyed by its exact text."""
    folded = comment_free(language, code) if _fold_comments else None
    if folded is None:
        return ["exact", code], ""
    return ["folded", folded], hashlib.sha256(code.encode("utf-8", "surrogatepass")).hexdigest()


_caches: list[ReportCache[Any]] = []
_enabled = True
_fold_comments = True


def set_enabled(enabled: bool, fold_comments: bool = True) -> None:
    """Turn every report cache on or off, those made later included (off: each candidate is
    judged, as before the cache; ``bench/sandbox.py`` compares the two), and the folding of
    comment variants (:func:`program_key`) with it."""
    global _enabled, _fold_comments
    _enabled, _fold_comments = enabled, fold_comments
    for cache in _caches:
        cache.clear()
        cache.enabled = enabled


class ReportCache(Generic[Report]):
    """A bounded LRU of reports with single flight: one computation per key at a time.

    A key may stand for several candidate texts (a program with and without its comments, see
    :mod:`palaestra.verifiers.program_text`): ``text`` names the candidate, and a report judged for
    another text of the same key is handed over only when ``transferable`` says it does not depend on
    the text (every test passed); otherwise the candidate is judged under its own text's key.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.enabled = _enabled
        _caches.append(self)
        self._reports: OrderedDict[str, tuple[Report, str]] = OrderedDict()  # key -> (report, its text)
        self._running: dict[str, threading.Event] = {}
        self._lock = threading.Lock()
        self.computed = 0  # reports computed (misses), for tests and benchmarks

    def clear(self) -> None:
        with self._lock:
            self._reports.clear()

    def _hit(self, key: str, text: str, transferable: Callable[[Report], bool] | None) -> tuple[bool, Report | None]:
        """(whether ``key`` is held, its report when it may be handed to ``text``)."""
        entry = self._reports.get(key)
        if entry is None:
            return False, None
        self._reports.move_to_end(key)
        report, judged_text = entry
        if judged_text == text or (transferable is not None and transferable(report)):
            return True, report
        return True, None

    def judged(self, key: str, compute: Callable[[], Report], keep: Callable[[Report], bool], text: str = "",
               transferable: Callable[[Report], bool] | None = None) -> Report:
        """The report for ``key``: cached, awaited from a concurrent computation, or computed now
        (and kept when ``keep`` says so: infrastructure failures are not). ``text``: a digest of the
        candidate's own text when ``key`` folds several texts (see the class)."""
        if not self.enabled:
            return compute()
        with self._lock:
            held, hit = self._hit(key, text, transferable)
            if hit is not None:
                return hit
            running = None if held else self._running.get(key)
            if not held and running is None:
                self._running[key] = done = threading.Event()
        if held:  # judged for another text, and the report may depend on the text: judge this one exactly
            return self.judged(f"{key}/{text}", compute, keep)
        if running is not None:
            running.wait()
            with self._lock:
                held, hit = self._hit(key, text, transferable)
            if hit is not None:
                return hit
            if held:
                return self.judged(f"{key}/{text}", compute, keep)
            report = compute()  # the first one failed (not kept): judge this one on its own
            with self._lock:
                self.computed += 1
            return report
        try:
            report = compute()
            with self._lock:
                self.computed += 1
                if keep(report):
                    self._reports[key] = (report, text)
                    while len(self._reports) > self.size:
                        self._reports.popitem(last=False)
            return report
        finally:
            with self._lock:
                del self._running[key]
            done.set()
