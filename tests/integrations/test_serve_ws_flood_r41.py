"""``palaestra serve`` against the round-41 hostile review (WebSockets): a client sending pings and reading none of
the pongs grew the server by ~24 MB a second without end (uvicorn's default WebSocket protocol answers each ping as
it parses it); now the server stops reading from such a client while its pongs wait, drops a client that has read
nothing for ``write_timeout`` seconds, and serves everyone else meanwhile. A real uvicorn server on 127.0.0.1."""

from __future__ import annotations

import json
import os
import socket
import struct
import time
from base64 import b64encode

import pytest

pytest.importorskip("openenv.core")

from palaestra.integrations.openenv_server import BackgroundServer, ServeConfig, create_app  # noqa: E402


def _upgrade(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    key = b64encode(os.urandom(16))
    sock.sendall(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 b"Sec-WebSocket-Key: " + key + b"\r\nSec-WebSocket-Version: 13\r\n\r\n")
    reply = b""
    while b"\r\n\r\n" not in reply:
        reply += sock.recv(4096)
    assert reply.startswith(b"HTTP/1.1 101"), reply[:100]
    return sock


def _frame(opcode: int, payload: bytes) -> bytes:
    assert len(payload) < 126
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + b"\0\0\0\0" + payload  # masked with zeros


def _read_frame(sock: socket.socket) -> tuple[int, bytes]:
    def exactly(n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = sock.recv(n - len(data))
            assert chunk, "the server closed the connection"
            data += chunk
        return data

    head = exactly(2)
    size = head[1] & 127
    if size == 126:
        size = struct.unpack(">H", exactly(2))[0]
    elif size == 127:
        size = struct.unpack(">Q", exactly(8))[0]
    return head[0] & 15, exactly(size)


def _flood(sock: socket.socket, seconds: float) -> int:
    """Bytes of pings sent in ``seconds`` without reading a byte (until the server stops reading them)."""
    sock.settimeout(1.0)
    batch = _frame(9, b"p" * 125) * 200
    sent, end = 0, time.monotonic() + seconds
    try:
        while time.monotonic() < end:
            sock.sendall(batch)
            sent += len(batch)
    except (TimeoutError, OSError):
        pass
    return sent


def test_a_ping_flood_that_reads_nothing_is_not_buffered_and_is_dropped() -> None:
    config = ServeConfig(max_sessions=4, write_timeout=3.0)
    with BackgroundServer(create_app(config), config=config) as server:
        flooder = _upgrade(server.port)
        flooder.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sent = _flood(flooder, 4.0)
        # the kernel's socket buffers and one high-water mark of pongs, not the whole flood (it was 100+ MB)
        assert sent < 32 << 20, sent
        # everyone else is served meanwhile
        other = _upgrade(server.port)
        other.sendall(_frame(1, json.dumps({"type": "reset", "data": {"env_id": "arithmetic/addition",
                                                                      "seed": 1}}).encode()))
        assert json.loads(_read_frame(other)[1])["type"] == "observation"
        other.close()
        # the flooder, reading nothing, is dropped once write_timeout passes
        time.sleep(4.0)
        flooder.settimeout(5.0)
        closed = False
        try:
            while flooder.recv(1 << 16):
                pass
            closed = True
        except ConnectionResetError:
            closed = True
        except TimeoutError:
            pass
        flooder.close()
        assert closed


def test_a_client_reading_its_pongs_is_answered_every_one() -> None:
    config = ServeConfig(max_sessions=4, write_timeout=3.0)
    with BackgroundServer(create_app(config), config=config) as server:
        sock = _upgrade(server.port)
        for i in range(200):
            sock.sendall(_frame(9, str(i).encode()))
            assert _read_frame(sock) == (10, str(i).encode())
        sock.close()


def test_several_workers_start_and_carry_the_same_guards() -> None:
    """``--workers N`` spawns its workers, which import the protocols by name: classes made in the parent could
    not be pickled, and every ``--workers 2`` start failed."""
    import subprocess
    import sys
    from pathlib import Path

    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    server = subprocess.Popen([sys.executable, "-m", "palaestra.cli", "serve", "--workers", "2", "--port", str(port),
                               "--max-sessions", "4", "--write-timeout", "3"],
                              cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert server.stdout is not None
        ready = 0
        deadline = time.monotonic() + 90
        while ready < 2 and time.monotonic() < deadline:
            line = server.stdout.readline()
            assert line, "the server exited before it was ready"
            ready += "ready on" in line
        assert ready == 2
        flooder = _upgrade(port)
        flooder.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        assert _flood(flooder, 3.0) < 32 << 20
        flooder.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
