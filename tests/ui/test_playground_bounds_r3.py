"""``palaestra ui`` holds no thread for a slow client and takes a bounded number of connections at once (#23
hostile review, round 3, second pass: a socket sending one header byte every 10 s held a thread for ever, 150 such
sockets 150 threads; a negative seed dropped the connection with no answer)."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest

import palaestra.ui as ui
from palaestra.ui import Playground, make_server
from tests.ui.ui_support import serving


@pytest.fixture
def small(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.setattr(ui, "HEADER_SECONDS", 1.0)
    monkeypatch.setattr(ui, "MAX_CONNECTIONS", 2)
    with serving(make_server("127.0.0.1", 0, Playground())) as server:
        yield server


def _get(port: int, path: str, timeout: float = 8) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
        return data


def test_trickled_headers_are_cut_and_their_slots_freed(small: Any) -> None:
    port = small.server_address[1]
    slow = [socket.create_connection(("127.0.0.1", port)) for _ in range(2)]  # every connection slot
    try:
        for sock in slow:
            sock.sendall(b"GET /api/envs HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a")
        for sock in slow:  # the header deadline (1 s) closes them, however slowly bytes keep coming
            sock.settimeout(8)
            for _ in range(20):
                try:
                    sock.sendall(b"a")
                except OSError:
                    break
                time.sleep(0.2)
            assert sock.recv(100) == b""  # within the 8 s timeout: without a header deadline it never closes
        assert _get(port, "/api/envs").startswith(b"HTTP/1.0 200")  # slots free again
    finally:
        for sock in slow:
            sock.close()


def test_connections_beyond_the_cap_wait_their_turn(small: Any) -> None:
    port = small.server_address[1]
    held = [socket.create_connection(("127.0.0.1", port)) for _ in range(2)]
    try:
        time.sleep(0.3)
        extra = socket.create_connection(("127.0.0.1", port))
        extra.sendall(b"GET /api/envs HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        extra.settimeout(0.5)
        with pytest.raises(socket.timeout):
            extra.recv(100)  # not accepted yet: both slots are held
        held.pop().close()
        extra.settimeout(8)
        assert extra.recv(100).startswith(b"HTTP/1.0 200")
        extra.close()
    finally:
        for sock in held:
            sock.close()


@pytest.mark.parametrize("seed", [-1, "-3", 1.5, True])
def test_a_bad_seed_is_a_400_not_a_dropped_connection(small: Any, seed: Any) -> None:
    port = small.server_address[1]
    body = json.dumps({"id": "arithmetic/addition", "seed": seed}).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=8) as sock:
        sock.sendall(b"POST /api/reset HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Connection: close\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    assert reply.startswith(b"HTTP/1.0 400") and b"seed must be" in reply, reply[:300]
    assert _get(port, "/api/problem?id=arithmetic/addition&seed=-5").startswith(b"HTTP/1.0 400")
