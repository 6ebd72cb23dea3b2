"""Tests of the code family run model-like code in the sandbox: skip them (naming why) on a host
where the sandbox refuses to run, instead of failing with infrastructure errors."""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from typing import Any

import pytest


@functools.lru_cache(maxsize=1)
def sandbox_problem() -> str | None:
    from palaestra import sandbox

    try:
        result = sandbox.run("print('ok')")
    except sandbox.SandboxUnavailable as exc:
        return str(exc)
    return None if result.ok else f"the sandbox could not run a trivial program: {result}"


@pytest.fixture(autouse=True)
def _needs_sandbox(request: pytest.FixtureRequest) -> None:
    if request.node.get_closest_marker("no_sandbox") is None and (reason := sandbox_problem()):
        pytest.skip(f"sandbox unavailable: {reason}")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "no_sandbox: the test does not run code in the sandbox")


@pytest.fixture
def jobs(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The sources of the sandbox jobs run while the test runs (the real sandbox runs them)."""
    from palaestra import sandbox
    from palaestra.sandbox import ExecResult
    from palaestra.verifiers import code, polyglot

    started: list[str] = []
    real = sandbox.run
    lock = threading.Lock()

    def counting(source: str, *args: Any, **kwargs: Any) -> ExecResult:
        with lock:
            started.append(source)
        return real(source, *args, **kwargs)

    code.clear_cache()
    polyglot.clear_cache()
    monkeypatch.setattr(sandbox, "run", counting)
    yield started
    code.clear_cache()
    polyglot.clear_cache()
