"""The kit's fresh interpreter (determinism across processes) leaves nothing behind when it is closed.

It used to be killed, so its exit handlers never ran: every test run left the database files its
SQL envs had written in a ``palaestra-db-*`` folder of the host's temporary directory. Now its input
ends and it leaves by itself.
"""

from __future__ import annotations

import glob
import os
import tempfile

from palaestra import kit


def _folders_of(pid: int) -> list[str]:
    """The temporary database folders a process with ``pid`` made (``palaestra-db-*/<pid>-*``)."""
    return glob.glob(os.path.join(tempfile.gettempdir(), "palaestra-db-*", f"{pid}-*"))


def test_a_closed_fresh_process_removes_the_files_its_envs_wrote() -> None:
    with kit.FreshProcess(seeds=1) as fresh:
        assert fresh.fingerprint("tools/sql_qa") == kit.shared_fingerprint("tools/sql_qa", 1)
        pid = fresh.process.pid
        assert _folders_of(pid), "the SQL env wrote no database file: this test no longer tests anything"
    assert fresh.process.returncode == 0  # it left by itself, not by a kill
    assert not _folders_of(pid)
