"""``palaestra serve-reward`` against the round-41 hostile review: what requests hold in memory is budgeted (a
60 MB body of ``[],`` parsed to 1.6 GB, and 512 connections could each hold a 64 MB body), a Content-Length of
thousands of digits gets an answer instead of a traceback and a dropped connection, and the token guards every
route (``/health`` and unknown paths included)."""

from __future__ import annotations

import json
import socket
import threading
import time
from typing import Any

from palaestra import sandbox
from palaestra.core.registry import make_source
from palaestra.integrations import openrlhf


def _start(**bounds: Any) -> openrlhf.RewardServer:
    server = openrlhf.RewardServer(("127.0.0.1", 0), **bounds)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return server


def _stop(server: openrlhf.RewardServer) -> None:
    server.shutdown()
    server.server_close()
    sandbox.set_ceiling(None)


def _head(body: bytes | int, extra: str = "") -> bytes:
    length = body if isinstance(body, int) else len(body)
    return (f"POST /get_reward HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {length}\r\n{extra}\r\n").encode()


def _status(sock: socket.socket) -> int:
    """The status of the response on ``sock`` (0: the server closed the connection without answering)."""
    data = b""
    while b"\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            return 0
        data += chunk
    return int(data.split(b" ", 2)[1])


def _post(server: openrlhf.RewardServer, raw: bytes, timeout: float = 20.0) -> int:
    with socket.create_connection(server.server_address[:2], timeout=timeout) as sock:
        sock.sendall(raw)
        return _status(sock)


def _all_given_back(server: openrlhf.RewardServer) -> bool:
    """Whether every share of the budget comes back (a handler gives its share back just after its answer)."""
    deadline = time.monotonic() + 5
    while server.memory.free != server.memory.total and time.monotonic() < deadline:
        time.sleep(0.02)
    return server.memory.free == server.memory.total


def _batch() -> bytes:
    problem = make_source("arithmetic/addition").sample(level=0, seed=4)
    return json.dumps({"query": [f"P<answer>{problem.answer}</answer>"], "prompts": ["P"],
                       "labels": [problem.to_json()]}).encode()


def test_a_content_length_of_thousands_of_digits_is_answered() -> None:
    server = _start(timeout=5.0)
    try:
        # int() refuses more than 4,300 digits: that ValueError used to drop the connection with a traceback
        for length in ("1" * 5000, "0" * 5000 + "2"):
            raw = (f"POST /get_reward HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                   f"Content-Length: {length}\r\n\r\n{{}}").encode()
            assert _post(server, raw) == 413
        assert _post(server, _head(_batch()) + _batch()) == 200
    finally:
        _stop(server)


def test_the_token_guards_every_route() -> None:
    server = _start(timeout=5.0, token="s3cret-value")
    try:
        for path in ("/health", "/", "/nope"):
            assert _post(server, f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()) == 401, path
        assert _post(server, b"POST /nope HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n") == 401
        ok = "Authorization: Bearer s3cret-value\r\n"
        assert _post(server, f"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n{ok}\r\n".encode()) == 200
        assert _post(server, _head(_batch(), ok) + _batch()) == 200
    finally:
        _stop(server)


def test_parsing_that_would_outgrow_the_memory_budget_is_refused() -> None:
    server = _start(timeout=5.0, max_memory_bytes=8 << 20)
    try:
        # labels of 400,000 empty lists: ~2 MB of text, ~30 MB parsed; as a JSON object or as text
        bomb = "[" + "[]," * 400_000 + "[]]"
        for label in (json.loads('{"data": ' + bomb + "}"), '{"data": ' + bomb + "}"):
            body = json.dumps({"query": ["x"], "prompts": ["x"], "labels": [label]}).encode()
            assert _post(server, _head(body) + body) == 413
        # a body whose lists hold anything but strings is dropped as soon as it is parsed
        body = json.dumps({"query": [[]] * 1000, "prompts": ["x"] * 1000, "labels": ["x"] * 1000}).encode()
        assert _post(server, _head(body) + body) == 400
        assert _post(server, _head(_batch()) + _batch()) == 200
    finally:
        _stop(server)


def test_bodies_in_flight_share_the_budget_and_small_requests_still_pass() -> None:
    server = _start(timeout=10.0, max_memory_bytes=4 << 20, body_timeout=4.0)
    held = []
    try:
        # two clients each send 3 MB of a 5 MB body and stall: together they hold the whole budget ...
        for _ in range(2):
            sock = socket.create_connection(server.server_address[:2], timeout=10)
            sock.sendall(_head(5 << 20) + b" " * (3 << 20) if not held else _head(5 << 20))
            held.append(sock)
        time.sleep(0.3)
        held[1].sendall(b" " * (1 << 20))  # what the first left of the budget, and no more
        assert _post(server, _head(_batch()) + _batch()) == 200  # a small request needs none of it
        # ... and did not wait for it: the stalled bodies still hold the budget (they give it back only when their
        # body time is up, with a 503 or 408), which was never exceeded
        assert server.memory.free >= 0
        assert 0 <= server.memory.free < 1 << 20  # 4 MB of bodies, less their free first 256 kB each
        assert {_status(sock) for sock in held} <= {408, 503}
        for sock in held:
            sock.close()
        assert _all_given_back(server)
        big = json.dumps({"query": ["x" * (3 << 20)], "prompts": ["x"], "labels": ["{}"]}).encode()
        assert _post(server, _head(big) + big) == 200
        assert _all_given_back(server)
    finally:
        for sock in held:
            sock.close()
        _stop(server)
