"""Fixtures for the sandbox tests: backends per tier, a victim directory, a clean-host check."""

from __future__ import annotations

import shutil
import stat
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from palaestra.sandbox import LocalBackend, ProbeReport
from palaestra.sandbox.local.tiers import TIERS

if sys.platform != "linux":
    pytest.skip("the local sandbox needs Linux", allow_module_level=True)

from sandbox_support import Victim, assert_no_sandbox_processes, backend_for, close_backends, require


def pytest_sessionfinish() -> None:
    close_backends()


@pytest.fixture(scope="session")
def report() -> ProbeReport:
    return backend_for(None).probe()


@pytest.fixture(scope="session")
def backend(report: ProbeReport) -> LocalBackend:
    """The default backend: every layer the host allows."""
    return backend_for(None)


def _contained(jail: LocalBackend) -> Iterator[LocalBackend]:
    """Yield ``jail``; afterwards no process of the sandbox uids is left and the same server
    still serves."""
    jail.run("pass")
    server = jail.server_pid
    yield jail
    assert_no_sandbox_processes(jail)
    assert jail.server_pid == server, "the sandbox server was restarted: an attack reached it"
    after = jail.run("print('still serving')")
    assert after.ok and after.stdout == "still serving\n", after


@pytest.fixture(params=["strict", "standard"])
def jail(request: pytest.FixtureRequest, report: ProbeReport) -> Iterator[LocalBackend]:
    """The backend at each tier a hostile program must be contained by (see ``_contained``)."""
    require(report, *sorted(TIERS[request.param]))
    yield from _contained(backend_for(request.param))


@pytest.fixture
def strongest(report: ProbeReport) -> Iterator[LocalBackend]:
    """The backend with every layer the host allows (see ``_contained``)."""
    yield from _contained(backend_for(None))


@pytest.fixture
def victim() -> Iterator[Victim]:
    root = Path(tempfile.mkdtemp(prefix="palaestra-victim-", dir="/tmp"))
    root.chmod(0o777)
    token = uuid.uuid4().hex
    secret = root / "secret.txt"
    secret.write_text(f"TOPSECRET-{token}\n")
    secret.chmod(0o644)
    writable = root / "writable.txt"
    writable.write_text("ORIGINAL\n")
    writable.chmod(0o666)
    v = Victim(root, secret, writable, token)
    before = v.snapshot()
    yield v
    assert v.snapshot() == before, "the victim directory was changed from inside the sandbox"
    assert stat.S_IMODE(root.stat().st_mode) == 0o777
    shutil.rmtree(root)


@pytest.fixture
def outside_names() -> Iterator[list[Path]]:
    """Unique paths outside the sandbox that an attack tries to create; none may exist after."""
    tag = uuid.uuid4().hex
    paths = [Path(d) / f"palaestra-pwned-{tag}" for d in ("/tmp", "/dev/shm", "/etc", "/root", "/")]
    yield paths
    created = [p for p in paths if p.exists()]
    for p in created:
        p.unlink()
    assert not created, f"the sandbox created files outside its scratch dir: {created}"
