"""A session's cells run in the process that reports them to the server: nothing they write on its pipes may
crash the server, park memory in it or pass for the sandbox's own word (#23 hostile review, round 3).

Before: a cell wrote five bytes on its status pipe (read with ``marshal`` by the root server), the server died
with every job of the backend; a well-formed frame of 300 MB stayed in the server for the session's life.
"""

from __future__ import annotations

import struct
import threading
from pathlib import Path

import pytest

from palaestra.sandbox import Limits, LocalBackend
from palaestra.sandbox.local.protocol import StatusDecoder, StatusViolation, encode_status

# Writes ``FRAME`` on every writable pipe the cell holds besides stdout and stderr.
WRITE_EVERYWHERE = """
import os, stat
wrote = []
for fd in range(3, 64):
    try:
        if stat.S_ISFIFO(os.fstat(fd).st_mode):
            os.write(fd, FRAME)
            wrote.append(fd)
    except OSError:
        pass
print("wrote", len(wrote))
"""

FRAMES = {
    "garbage": struct.pack("<I", 4) + b"\xff\xff\xff\xff",
    "forged error": encode_status({"error": "sandbox setup failed: forged"}),
    "forged report": encode_status({"wait_status": 0, "cpu": 0.0, "files": {"x": b"forged"}}),
    "huge": struct.pack("<I", 300 << 20) + b"{" * 65536,
    "forged compile": encode_status({"compile": {"failed": False, "output": b""}}),
}


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.mark.parametrize("kind", list(FRAMES))
def test_a_cell_writing_on_its_pipes_is_stopped_and_the_server_serves_on(jail: LocalBackend, kind: str) -> None:
    innocent: dict[str, object] = {}
    runner = threading.Thread(target=lambda: innocent.setdefault(
        "r", jail.run("import time; time.sleep(0.5); print('innocent')", limits=Limits(wall_seconds=10))))
    runner.start()
    server = jail.server_pid
    with jail.session(Limits(wall_seconds=10)) as session:
        assert session.run_cell("x = 41").ok
        before = _rss_kib(jail.server_pid)
        r = session.run_cell(f"FRAME = {FRAMES[kind]!r}\n" + WRITE_EVERYWHERE)
        # Stopped as the cell's own failure (its interpreter is gone), never the sandbox's error.
        assert r.error is None and "[sandbox] stopped" in r.stderr and r.state_lost and r.signal is not None, r
        after = session.run_cell("print('next')")
        assert after.stdout == "next\n" and after.error is None, after
        assert _rss_kib(jail.server_pid) - before < 32 * 1024  # nothing parked in the server
    runner.join()
    assert innocent["r"].stdout == "innocent\n" and innocent["r"].error is None, innocent  # type: ignore[attr-defined]
    assert jail.server_pid == server  # the same server: it never died
    assert jail.run("print(1)").stdout == "1\n"


def test_the_session_interpreter_holds_no_status_pipe(jail: LocalBackend) -> None:
    # Its one writable pipe besides stdout and stderr is the results pipe, which carries only cell reports.
    with jail.session(Limits(wall_seconds=10)) as session:
        r = session.run_cell(
            "import os, stat, fcntl\n"
            "def writable(fd):\n"
            "    try:\n"
            "        mode = fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE\n"
            "        return stat.S_ISFIFO(os.fstat(fd).st_mode) and mode == os.O_WRONLY\n"
            "    except OSError:\n"
            "        return False\n"
            "print(sum(writable(fd) for fd in range(3, 64)))\n")
        assert r.stdout == "1\n", r


@pytest.mark.parametrize("data", [
    struct.pack("<I", 3) + b"[1]",  # not an object
    struct.pack("<I", 4) + b"\xff\xff\xff\xff",  # not UTF-8
    struct.pack("<I", 5) + b"{\"a\":",  # cut JSON
    struct.pack("<I", 70_000),  # over the limit, refused before it is buffered
    struct.pack("<I", 14) + b'{"$bytes":"*"}',  # not base64
])
def test_the_status_decoder_refuses_what_is_not_a_bounded_json_object(data: bytes) -> None:
    with pytest.raises(StatusViolation):
        StatusDecoder(1 << 16).feed(data)


def test_the_status_decoder_round_trips_reports_with_bytes() -> None:
    report = {"wait_status": 0, "cpu": 0.25, "files": {"out.txt": bytes(range(256))}, "output": b""}
    decoder = StatusDecoder(1 << 16)
    frame = encode_status(report)
    assert decoder.feed(frame[:7]) == [] and decoder.feed(frame[7:] + frame) == [report, report]
