"""Helpers shared by the sandbox tests (imported by name, like the other test directories do)."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from palaestra.sandbox import LocalBackend, ProbeReport
from palaestra.sandbox.local.cgroups import jobs_group_dir

# A CPU hog (four spinning threads and the main one) and a short job, for the fairness tests.
HOG = """
import threading
def spin():
    while True:
        pass
for _ in range(4):
    threading.Thread(target=spin, daemon=True).start()
spin()
"""
BENIGN = "print(sum(i * i for i in range(100000)))"

_backends: dict[str | None, LocalBackend] = {}


def backend_for(tier: str | None) -> LocalBackend:
    """One backend per tier per test process (None: the strongest the host allows)."""
    if tier not in _backends:
        _backends[tier] = LocalBackend(tier=tier, min_tier="none")
    return _backends[tier]


def close_backends() -> None:
    for backend in _backends.values():
        backend.close()


def require(report: ProbeReport, *layers: str) -> None:
    """Skip, naming the reason, unless the host allows every one of ``layers``."""
    missing = {layer: report.available[layer] for layer in layers if report.available[layer] is not None}
    if missing:
        pytest.skip("host lacks sandbox layer(s): " + "; ".join(f"{k}: {v}" for k, v in missing.items()))


def sandbox_processes(uids: tuple[int, int] | None) -> list[tuple[int, int, str]]:
    """(pid, uid, state) of every process owned by a sandbox uid range (a backend's ``probe().uids``;
    None when the server is not root and jobs run as the caller: nothing to find then)."""
    if uids is None:
        return []
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                status = Path(f"/proc/{name}/status").read_text()
            except OSError:
                continue
            fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
            uid = int(fields["Uid"].split()[0])
            if uids[0] <= uid <= uids[1]:
                found.append((int(name), uid, fields["State"].strip()))
    return found


def assert_no_sandbox_processes(backend: LocalBackend, within: float = 20.0) -> None:
    deadline = time.monotonic() + within
    uids = backend.probe().uids
    while (left := sandbox_processes(uids)) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not left, f"processes of the sandbox uids survived their job: {left}"


@dataclass
class Victim:
    """A world-writable directory outside the sandbox, with a world-readable secret and a
    world-writable file: Unix permissions alone would let any uid touch them."""

    dir: Path
    secret: Path
    writable: Path
    token: str

    def snapshot(self) -> dict[str, tuple[bytes, int]]:
        return {p.name: (p.read_bytes(), p.stat().st_mode) for p in sorted(self.dir.iterdir()) if p.is_file()}


def cpu_group_dir(backend: LocalBackend) -> str:
    """The cpu-controller directory of the cgroup over the backend's slots (skips without one)."""
    report = backend.probe()
    require(report, "cgroups")
    group = jobs_group_dir(report.server_dir, "cpu")
    if group is None:
        pytest.skip("no writable cgroup v1 cpu controller: CPU weights fall back to nice values")
    return group


def require_language(backend: LocalBackend, language: str) -> None:
    """Skip, naming the missing tool, unless ``language``'s toolchain is installed here."""
    chain = backend.languages()[language]
    if not chain.available:
        pytest.skip(f"{chain.reason} (install it with .ci/setup_toolchains.sh)")


def readable_package_copy() -> Path:
    """A copy of the ``palaestra.sandbox`` package (and the package's ``__init__``) in a fresh
    world-readable folder, for a test that runs it as another user: the checkout itself may lie
    under a folder that user cannot enter (a clone under /root). The caller removes it."""
    source = Path(__file__).resolve().parents[2] / "palaestra"
    root = Path(tempfile.mkdtemp(prefix="palaestra-copy-"))
    root.chmod(0o755)
    ignore = shutil.ignore_patterns("__pycache__")
    (root / "palaestra").mkdir(mode=0o755)
    shutil.copy2(source / "__init__.py", root / "palaestra" / "__init__.py")
    shutil.copytree(source / "sandbox", root / "palaestra" / "sandbox", ignore=ignore)
    for path in root.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    return root
