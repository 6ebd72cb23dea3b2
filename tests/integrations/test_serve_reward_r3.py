"""``palaestra serve-reward`` against the round-3 red team (servers): a label's level is bounded, a trickled request
line and headers are cut at ``--header-timeout``, a web page (cross-origin POST, DNS rebinding) cannot drive it,
and only ``Authorization: Bearer TOKEN`` carries the token."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from palaestra import sandbox
from palaestra.cli import build_parser
from palaestra.core.registry import make_source
from palaestra.integrations import openrlhf


def _start(**bounds: Any) -> openrlhf.RewardServer:
    server = openrlhf.RewardServer(("127.0.0.1", 0), **bounds)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return server


def _response(sock: socket.socket) -> bytes:
    """One whole response (its headers and a body of its Content-Length): they may come in separate segments."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(next((line.split(b":", 1)[1] for line in head.split(b"\r\n")
                       if line.lower().startswith(b"content-length:")), b"0"))
    while len(body) < length and (chunk := sock.recv(4096)):
        body += chunk
    return head + b"\r\n\r\n" + body


def _stop(server: openrlhf.RewardServer) -> None:
    server.shutdown()
    server.server_close()
    sandbox.set_ceiling(None)


@pytest.fixture
def server() -> Iterator[openrlhf.RewardServer]:
    server = _start(timeout=5.0)
    yield server
    _stop(server)


def _request(server: openrlhf.RewardServer, body: bytes | dict[str, Any], headers: dict[str, str] | None = None,
             method: str = "POST", path: str = "/get_reward") -> tuple[int, dict[str, Any]]:
    """One request on its own connection, headers exactly as given (http.client adds Host unless one is given)."""
    port = server.server_address[1]
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    given = {"Content-Type": "application/json", **(headers or {})}
    try:
        connection.putrequest(method, path, skip_host="Host" in given, skip_accept_encoding=True)
        for name, value in given.items():
            if value is not None:
                connection.putheader(name, value)
        connection.putheader("Content-Length", str(len(data)))
        connection.endheaders(data)
        reply = connection.getresponse()
        return reply.status, json.loads(reply.read() or b"{}")
    finally:
        connection.close()


def _batch(level: Any = 0) -> dict[str, list[str]]:
    """A batch of one sample whose label claims ``level``: the genuine problem where the level is one the server
    generates (a label must be the problem its identity generates), else level 0's problem relabelled."""
    genuine = isinstance(level, int) and not isinstance(level, bool) and 0 <= level <= 9
    problem = make_source("arithmetic/addition").sample(level=level if genuine else 0, seed=4)
    label = json.loads(problem.to_json())
    label["level"] = level
    return {"query": [f"P<answer>{problem.answer}</answer>"], "prompts": ["P"], "labels": [json.dumps(label)]}


def test_a_labels_level_must_be_one_the_server_generates(server: openrlhf.RewardServer) -> None:
    assert _request(server, _batch(9)) == (200, {"rewards": [1.0], "scores": [1.0],
                                                 "extra_logs": {"acc": [1.0], "parsed": [1.0], "error": [0.0]}})
    for level in (10, 10**12, 1e308, -1, "3"):  # above --max-level 9, huge, a float, negative, a string
        status, reply = _request(server, _batch(level))
        assert status == 400, (level, status, reply)
        assert "level" in reply["detail"] and "sample 0" in reply["detail"]
    status, reply = _request(server, _batch(10**12))
    assert "out of range for arithmetic/addition: 0 to 9" in reply["detail"]
    # an unreadable label is still that sample's error verdict, not a refusal of the batch
    status, reply = _request(server, {"query": ["x"], "prompts": [""], "labels": ["{not a problem"]})
    assert status == 200 and reply["extra_logs"]["error"] == [1.0]


def test_max_level_sets_the_bound() -> None:
    server = _start(timeout=5.0, max_level=2)
    try:
        assert _request(server, _batch(2))[0] == 200
        status, reply = _request(server, _batch(3))
        assert status == 400 and "0 to 2" in reply["detail"]
    finally:
        _stop(server)


def test_max_level_and_header_timeout_options() -> None:
    args = build_parser().parse_args(["serve-reward"])
    assert (args.max_level, args.header_timeout) == (9, 10.0)
    args = build_parser().parse_args(["serve-reward", "--max-level", "3", "--header-timeout", "2.5"])
    assert (args.max_level, args.header_timeout) == (3, 2.5)


def test_headers_trickled_a_byte_at_a_time_are_cut_at_the_header_timeout() -> None:
    """Each byte used to restart the idle timer: two trickling sockets held both connection slots for ever."""
    server = _start(max_connections=2, timeout=3.0, header_timeout=1.0)
    port = server.server_address[1]
    slow = [socket.create_connection(("127.0.0.1", port)) for _ in range(2)]
    stop = threading.Event()
    cut: list[int] = []

    def trickle(sock: socket.socket) -> None:
        line = b"POST /get_reward HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 1000
        for i in range(len(line)):
            if stop.wait(0.3):
                return
            try:
                sock.sendall(line[i:i + 1])
            except OSError:
                cut.append(1)
                return

    threads = [threading.Thread(target=trickle, args=(s,), daemon=True) for s in slow]
    for thread in threads:
        thread.start()
    try:
        for sock in slow:  # the server closes each within its header timeout (generous bound: 8 s)
            sock.settimeout(8)
            assert sock.recv(100) == b"", "a trickling connection was closed"
        with socket.create_connection(("127.0.0.1", port), timeout=8) as benign:  # both slots are free again
            benign.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert _response(benign).startswith(b"HTTP/1.1 200")
        # a keep-alive connection between requests is still kept for the idle timeout, not the header timeout
        with socket.create_connection(("127.0.0.1", port), timeout=8) as keep:
            keep.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert _response(keep).startswith(b"HTTP/1.1 200")
            time.sleep(1.5)  # longer than the header timeout, shorter than the idle one
            keep.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert _response(keep).startswith(b"HTTP/1.1 200")
    finally:
        stop.set()
        for sock in slow:
            sock.close()
        _stop(server)


def test_a_web_page_cannot_drive_it(server: openrlhf.RewardServer) -> None:
    port = server.server_address[1]
    status, reply = _request(server, json.dumps(_batch()).encode(), {"Content-Type": "text/plain"})
    assert status == 415 and "application/json" in reply["detail"]
    status, reply = _request(server, json.dumps(_batch()).encode(), {"Content-Type": None})
    assert status == 415
    assert _request(server, _batch(), {"Origin": "http://evil.example"})[0] == 403
    assert _request(server, _batch(), {"Origin": "null"})[0] == 403
    status, reply = _request(server, _batch(), {"Host": f"evil.example:{port}"})  # DNS rebinding
    assert status == 421 and "Host" in reply["detail"]
    assert _request(server, b"", {"Host": "evil.example"}, method="GET", path="/health")[0] == 421
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", "localhost", f"[::1]:{port}", "LOCALHOST"):
        assert _request(server, _batch(), {"Host": host})[0] == 200, host
    # the server's own origin, and no Origin at all (any non-browser client), are served
    assert _request(server, _batch(), {"Origin": f"http://127.0.0.1:{port}"})[0] == 200
    assert _request(server, _batch())[0] == 200


def test_with_a_token_any_host_is_served_but_foreign_origins_are_not() -> None:
    server = _start(token="s3cret", timeout=5.0)
    port = server.server_address[1]
    try:
        bearer = {"Authorization": "Bearer s3cret"}
        assert _request(server, _batch(), {**bearer, "Host": f"reward.cluster.internal:{port}"})[0] == 200
        assert _request(server, _batch(), {**bearer, "Origin": "http://evil.example"})[0] == 403
    finally:
        _stop(server)


def test_only_a_bearer_token_is_accepted() -> None:
    server = _start(token="s3cret-token-value", timeout=5.0)
    try:
        token = "s3cret-token-value"
        refused = [token, f"Basic {token}", f"Bearer  {token}", "Bearer ", "", f"Bearer {token}x", f"Bearer {token[:-1]}",
                   f"Token {token}", f" {token}"]
        for value in refused:
            assert _request(server, _batch(), {"Authorization": value})[0] == 401, value
        assert _request(server, _batch())[0] == 401
        assert _request(server, _batch(), {"Authorization": f"Bearer {token}"})[0] == 200
        assert _request(server, _batch(), {"Authorization": f"bearer {token}"})[0] == 200  # the scheme is case-blind
    finally:
        _stop(server)
