"""The kit's fresh interpreter (determinism across processes) leaves nothing behind when it is closed.

It used to be killed, so its exit handlers never ran: every test run left the database files its
SQL envs had written in a ``palaestra-db-*`` folder of the host's temporary directory. Now it is
told to leave (an empty line) and leaves by itself.
"""

from __future__ import annotations

import glob
import os
import signal
import tempfile

import pytest

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


def test_a_fresh_process_leaves_when_closed_while_a_forked_process_holds_its_input(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process forked from the test worker after the fresh one started (one another test left running) holds
    the write end of its input pipe too: the fresh process must still leave when told, not wait for an end of
    input that never comes until it is killed (it was, after 30 s, at the end of a CI worker's run)."""
    monkeypatch.setattr(kit.FreshProcess, "EXIT_TIMEOUT", 10.0)  # a failure is a kill, not a 30 s wait
    with kit.FreshProcess(seeds=1) as fresh:
        assert fresh.fingerprint("graphs/bridges") == kit.shared_fingerprint("graphs/bridges", 1)
        holder = os.fork()
        if holder == 0:  # keeps every descriptor of the worker, the fresh process's input among them
            try:
                signal.pause()  # until killed below
            finally:
                os._exit(0)
        try:
            fresh.close()
            assert fresh.process.returncode == 0  # it left by itself, not by a kill
        finally:
            os.kill(holder, signal.SIGKILL)
            os.waitpid(holder, 0)
