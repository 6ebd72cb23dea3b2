"""``palaestra serve`` against the round-41 hostile review (connections): uvicorn accepts every connection and answers
503 past ``--max-connections``, so sockets that only wait (silent, or trickling a header) made every other
client's request a 503 until the header timeout. Now, at the cap, the connections that have waited longest for a
request (at least ``EVICT_AFTER`` seconds) are closed to make room, and the benign client is served. A real
uvicorn server on 127.0.0.1."""

from __future__ import annotations

import socket
import threading
import time

import pytest

pytest.importorskip("openenv.core")

from palaestra.core.http_bounds import EVICT_AFTER  # noqa: E402
from palaestra.integrations.openenv_server import BackgroundServer, ServeConfig, create_app  # noqa: E402

BENIGN = (b'POST /reset HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 44\r\n'
          b'Connection: close\r\n\r\n{"env_id": "arithmetic/addition", "seed": 0}')


def _status(port: int) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(BENIGN)
        return sock.recv(100).split(b"\r\n", 1)[0]


@pytest.mark.parametrize("attack", ["silent", "trickle"])
def test_connections_that_only_wait_do_not_turn_requests_into_503s(attack: str) -> None:
    config = ServeConfig(max_sessions=4, max_connections=8, header_timeout=30.0)
    with BackgroundServer(create_app(config), config=config) as server:
        stop = threading.Event()
        opened: list[socket.socket] = []

        def closed(sock: socket.socket) -> bool:
            try:
                if attack == "trickle":
                    sock.sendall(b"G")
                    return False
                return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
            except BlockingIOError:
                return False
            except OSError:
                return True

        def attacker() -> None:  # holds its socket until it is closed
            try:
                sock = socket.create_connection(("127.0.0.1", server.port), timeout=2)
            except OSError:
                return
            opened.append(sock)
            while not stop.wait(0.3) and not closed(sock):
                pass

        attackers = [threading.Thread(target=attacker, daemon=True) for _ in range(24)]
        for thread in attackers:
            thread.start()
        try:
            time.sleep(EVICT_AFTER + 0.5)
            assert [_status(server.port) for _ in range(5)] == [b"HTTP/1.1 200 OK"] * 5
        finally:
            stop.set()
            for thread in attackers:
                thread.join(timeout=5)
            for sock in opened:
                sock.close()
        assert _status(server.port) == b"HTTP/1.1 200 OK"
