"""Database files of a process that left without its exit handlers are removed by the next process (#23 spirit:
nothing outlives what made it).

Each process writes the SQL envs' databases under a ``palaestra-db-*`` root that its exit handler removes. A
process leaving through ``os._exit`` or a kill never runs it: ``palaestra export --workers N`` on SQL envs left N
roots in the host's /tmp (its pool workers are started by a forkserver and leave through ``os._exit``). The next process to make a root removes this user's roots whose writers have all
ended, and so does a process that made a root when it leaves (its children end before it); a root whose writer
still runs, or that has no writer's folder yet, is kept.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from palaestra.generators import database as module

# A child that writes a database file, then leaves as an xdist worker does: without exit handlers.
LEAVES_WITHOUT_CLEANING = (
    "import os\n"
    "from palaestra.generators.database import DatabaseParams, build_database\n"
    "print(build_database(1, DatabaseParams(tables=2, rows=10)).path, flush=True)\n"
    "os._exit(0)\n"
)


def test_the_root_of_a_process_that_left_without_cleaning_is_removed_by_the_next(monkeypatch: pytest.MonkeyPatch) -> None:
    written = subprocess.run([sys.executable, "-c", LEAVES_WITHOUT_CLEANING], capture_output=True, text=True,
                             check=True).stdout.strip()
    abandoned = Path(written).parent.parent
    assert abandoned.name.startswith(module.ROOT_PREFIX) and abandoned.is_dir()  # left behind, as before
    setting_up = Path(tempfile.mkdtemp(prefix=module.ROOT_PREFIX))  # a root whose writer has not made its folder yet
    mine = Path(module.build_database(3, module.DatabaseParams(tables=2, rows=10)).path).parent.parent
    try:
        # this process makes a root afresh (as a new process would): it sweeps the abandoned ones first
        monkeypatch.setattr(module, "_files_state", {"pid": None, "dir": None, "root": None})
        monkeypatch.setattr(module, "_files", module.OrderedDict())
        fresh = Path(module.build_database(4, module.DatabaseParams(tables=2, rows=10)).path).parent.parent
        assert not abandoned.exists()
        assert setting_up.is_dir() and mine.is_dir()  # this process's own root (a writer still running) is kept
        assert fresh.is_dir() and fresh != mine
    finally:
        os.rmdir(setting_up)
        shutil.rmtree(fresh, ignore_errors=True)


# A parent that writes a database file, starts a child that leaves its root behind, then leaves normally.
PARENT = (
    "import subprocess, sys\n"
    "from palaestra.generators.database import DatabaseParams, build_database\n"
    "print(build_database(5, DatabaseParams(tables=2, rows=10)).path, flush=True)\n"
    f"child = subprocess.run([sys.executable, '-c', {LEAVES_WITHOUT_CLEANING!r}], capture_output=True, text=True)\n"
    "print(child.stdout.strip(), flush=True)\n"
)


def test_a_process_leaving_removes_the_roots_its_children_abandoned() -> None:
    lines = subprocess.run([sys.executable, "-c", PARENT], capture_output=True, text=True, check=True).stdout.split()
    parent_root, child_root = (Path(line).parent.parent for line in lines)
    assert parent_root != child_root and parent_root.name.startswith(module.ROOT_PREFIX)
    assert not parent_root.exists() and not child_root.exists()
