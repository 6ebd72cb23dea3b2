"""A header build cut short leaves nothing behind (#23: no resource outlives what made it).

A root server precompiles the C++ headers in the background the first time a C++ job arrives. Closed
while that build ran, it killed the compiler driver only: the driver's compiler pass ran on orphaned,
and the assembler files the driver writes to the host's temporary folder (and deletes only when it
exits by itself) stayed there, three per cut build (found as ``/tmp/cc*.s`` holding
``.file "iostream.h"`` after test runs). The build now has a process group and a temporary folder of
its own, inside its build folder, and a close kills the group and removes the folder.
"""

from __future__ import annotations

import glob
import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from sandbox_support import require, require_language

from palaestra.sandbox import LocalBackend

STUBS = ("bits_stdc++.h.h", "iostream.h", "string.h")  # the one-line sources the build compiles (pch_commands)


def _build_processes(root: str) -> list[int]:
    """Live processes whose command line names a path under ``root`` (the build's compilers)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if any(arg.startswith(root.encode()) for arg in argv):
            found.append(int(entry.name))
    return found


def _assembler_files() -> set[str]:
    """The host temporary folder's assembler files that a header build's driver wrote."""
    found = set()
    for path in glob.glob(os.path.join(tempfile.gettempdir(), "cc*.s")):
        try:
            text = Path(path).read_text(errors="replace")
        except OSError:
            continue
        if any(f'"{stub}"' in text for stub in STUBS):
            found.add(path)
    return found


def test_a_server_closed_while_it_precompiles_headers_leaves_no_compiler_and_no_temporary_file() -> None:
    root = tempfile.mkdtemp(prefix="palaestra-pch-cut-")
    try:  # the folder goes whatever happens, a skip before the build included
        _cut_the_header_build(root)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _cut_the_header_build(root: str) -> None:
    os.chmod(root, 0o711)  # the jobs' uids must reach their scratch dirs below it
    before = _assembler_files()
    backend = LocalBackend(min_tier="none", base_dir=os.path.join(root, "base"))
    try:
        backend.run("pass")
        require(backend.probe(), "uid")  # headers are precompiled only where jobs run as uids of their own
        require_language(backend, "cpp")
        assert backend.run("int main() {}", language="cpp").ok  # the first C++ job starts the build
        building = _build_processes(root)
    finally:
        backend.close()
    if not building:
        pytest.skip("the header build had already finished when the server was closed")
    # SIGKILL is delivered at once, but a process leaves /proc only once the kernel has torn it down
    for _ in range(1_200):  # polls 50 ms apart: a liveness bound (about a minute), no duration is asserted
        if not _build_processes(root):
            break
        time.sleep(0.05)
    assert not _build_processes(root), "compilers of the cut build are still running"
    assert not _assembler_files() - before, "the cut build left its temporary files in the host's temporary folder"
    assert not list(Path(root, "base").glob("pch/.build-*")), "the cut build's folder was left"
