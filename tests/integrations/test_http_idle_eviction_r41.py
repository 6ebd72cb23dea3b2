"""The threaded HTTP servers (``palaestra serve-reward``, ``palaestra ui``) against the round-41 hostile review:
``max_connections`` sockets that sent nothing, or trickled a header a byte a second, held every connection slot,
and every other client's request waited for their idle timeout (120 s for serve-reward, 30 s for the ui). Now a
connection waiting to be accepted closes the one that has waited longest for a request or its headers (once it
has waited ``EVICT_AFTER`` seconds), and the attackers' threads and sockets are released. A request still queues
behind the attackers' connections that reached the listen queue before it: with twice ``max_connections``
attackers, a few rounds of ``EVICT_AFTER``."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from palaestra import sandbox
from palaestra.core.http_bounds import EVICT_AFTER, BoundedHTTPServer
from palaestra.integrations import openrlhf
from palaestra.ui import Playground, make_handler


@pytest.fixture(params=["serve-reward", "ui"])
def server(request: pytest.FixtureRequest) -> Iterator[tuple[Any, bytes]]:
    if request.param == "serve-reward":
        running: Any = openrlhf.RewardServer(("127.0.0.1", 0), max_connections=4, timeout=60.0, header_timeout=30.0)
        benign = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    else:
        running = BoundedHTTPServer(("127.0.0.1", 0), make_handler(Playground()), max_connections=4, idle_timeout=30.0,
                                    header_timeout=10.0)  # make_server's, with a smaller cap
        benign = b"GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    running.evict_after = EVICT_AFTER / 4  # the rule, sooner: the test waits less
    threading.Thread(target=running.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    try:
        yield running, benign
    finally:
        running.shutdown()
        running.server_close()
        sandbox.set_ceiling(None)


def _served_within(port: int, request: bytes, seconds: float) -> bool:
    with socket.create_connection(("127.0.0.1", port), timeout=seconds) as sock:
        sock.sendall(request)
        try:
            return sock.recv(100).startswith(b"HTTP/1.")
        except TimeoutError:
            return False


def _threads() -> int:
    return len(os.listdir("/proc/self/task"))


@pytest.mark.parametrize("attack", ["silent", "trickle"])
def test_connections_that_only_wait_do_not_keep_requests_out(server: tuple[Any, bytes], attack: str) -> None:
    running, benign = server
    port = running.server_address[1]
    cap = running.connections._initial_value
    before = _threads()
    stop = threading.Event()
    sockets: list[socket.socket] = []

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

    def attacker() -> None:  # reconnects as soon as it is closed
        while not stop.is_set():
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=2)
            except OSError:
                continue
            sockets.append(sock)
            while not stop.wait(0.5) and not closed(sock):
                pass

    attackers = [threading.Thread(target=attacker, daemon=True) for _ in range(2 * cap)]
    for thread in attackers:
        thread.start()
    try:
        time.sleep(0.5)
        for _ in range(2):
            # a round of evictions per ``cap`` attackers queued ahead of it; the old wait was the idle timeout (30 s,
            # and 30 s for the headers at serve-reward here), three times this liveness bound
            assert _served_within(port, benign, 10.0)
    finally:
        stop.set()
        for thread in attackers:
            thread.join(timeout=5)
        for sock in sockets:
            sock.close()
    deadline = time.monotonic() + 10
    while _threads() > before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _threads() <= before  # the handlers of the closed connections ended
    assert _served_within(port, benign, 5.0)
