"""``palaestra ui`` against the round-3 red team (servers): bounded levels, a Content-Length that cannot lift the
body limit, unguessable episode ids in a bounded store, and no driving it from a foreign web page."""

from __future__ import annotations

import http.client
import json
import re
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from palaestra.cli import build_parser
from palaestra.core.browser_guard import LOOPBACK_NAMES, allowed_hosts, refusal
from palaestra.ui import Playground, make_server
from tests.ui.ui_support import serving


@pytest.fixture
def ui() -> Iterator[Any]:
    playground = Playground(max_sessions=3)
    server = make_server("127.0.0.1", 0, playground)
    server.playground = playground  # for the test's eyes
    with serving(server):
        yield server


def _request(server: Any, method: str, path: str, body: Any = None, headers: dict[str, str | None] | None = None,
             ) -> tuple[int, dict[str, Any]]:
    connection = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=20)
    data = b"" if body is None else body if isinstance(body, bytes) else json.dumps(body).encode()
    given = {"Content-Type": "application/json" if method == "POST" else None, **(headers or {})}
    try:
        connection.putrequest(method, path, skip_host="Host" in given, skip_accept_encoding=True)
        for name, value in given.items():
            if value is not None:
                connection.putheader(name, value)
        if method == "POST":
            connection.putheader("Content-Length", str(len(data)))
        connection.endheaders(data if method == "POST" else None)
        reply = connection.getresponse()
        return reply.status, json.loads(reply.read() or b"{}")
    finally:
        connection.close()


def test_levels_past_max_level_are_refused(ui: Any) -> None:
    assert _request(ui, "GET", "/api/problem?id=arithmetic/addition&level=9&seed=1")[0] == 200
    status, reply = _request(ui, "GET", "/api/problem?id=arithmetic/addition&level=10&seed=1")
    assert status == 400 and "out of range for arithmetic/addition: 0 to 9" in reply["error"]
    assert _request(ui, "GET", "/api/answer?id=arithmetic/addition&level=10&seed=1")[0] == 400
    assert _request(ui, "POST", "/api/reset", {"id": "arithmetic/addition", "level": 10, "seed": 1})[0] == 400
    # before: 10**(level + 2) with these froze the server
    for level in (10**12, 1e308, -1, True, "2"):
        status, reply = _request(ui, "POST", "/api/reset", {"id": "arithmetic/addition", "level": level, "seed": 1})
        assert status == 400 and "level" in reply["error"], (level, reply)
    assert _request(ui, "GET", f"/api/problem?id=arithmetic/addition&level={10**12}&seed=1")[0] == 400
    assert _request(ui, "POST", "/api/reset", {"id": "arithmetic/addition", "level": 9, "seed": 1})[0] == 200


def test_max_level_option() -> None:
    low = Playground(max_level=2)
    assert low.problem("arithmetic/addition", 2, 0)["level"] == 2
    with pytest.raises(ValueError, match="0 to 2"):
        low.problem("arithmetic/addition", 3, 0)
    with pytest.raises(ValueError, match="0 to 2"):
        low.reset("arithmetic/addition", 3, 0)
    assert build_parser().parse_args(["ui"]).max_level == 9
    assert build_parser().parse_args(["ui", "--max-level", "12"]).max_level == 12


@pytest.mark.parametrize("length", [b"-1", b"abc", b"+5", b"1e3", b" ", b"\xc2\xb2"])
def test_a_content_length_that_is_not_a_count_is_a_400(ui: Any, length: bytes) -> None:
    """Content-Length: -1 read the body to the end of the stream, past the 1 MB limit (200 MB were buffered)."""
    with socket.create_connection(("127.0.0.1", ui.server_address[1]), timeout=8) as sock:
        sock.sendall(b"POST /api/reset HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: " + length + b"\r\n\r\n")  # and the stream stays open
        reply = b""
        while chunk := sock.recv(4096):  # the reply, up to the server closing the connection
            reply += chunk
    assert reply.startswith(b"HTTP/1.0 400") and b"Content-Length" in reply.partition(b"\r\n\r\n")[2]


def test_episode_ids_are_unguessable_and_the_store_is_bounded(ui: Any) -> None:
    ids = []
    for seed in range(4):
        status, reply = _request(ui, "POST", "/api/reset", {"id": "games/guess_number", "level": 0, "seed": seed})
        assert status == 200
        ids.append(reply["session"])
    assert len(set(ids)) == 4 and all(re.fullmatch(r"[A-Za-z0-9_-]{20,}", key) for key in ids), ids
    for guess in ("s1", "s2", "1", "0"):  # the old sequential ids
        assert _request(ui, "POST", "/api/hint", {"session": guess})[0] == 400
    # max_sessions=3: the least recently used episode (the first) was evicted, with a clear error
    status, reply = _request(ui, "POST", "/api/step", {"session": ids[0], "text": "50"})
    assert status == 400 and "evicted" in reply["error"] and "3" in reply["error"]
    assert _request(ui, "POST", "/api/step", {"session": ids[1], "text": "50"})[0] == 200
    assert len(ui.playground.sessions) == 3


def test_a_web_page_cannot_drive_it(ui: Any) -> None:
    port = ui.server_address[1]
    reset = {"id": "arithmetic/addition", "level": 0, "seed": 1}
    status, reply = _request(ui, "POST", "/api/reset", json.dumps(reset).encode(), {"Content-Type": "text/plain"})
    assert status == 415 and "application/json" in reply["error"]
    assert _request(ui, "POST", "/api/reset", reset, {"Content-Type": None})[0] == 415
    assert _request(ui, "POST", "/api/reset", reset, {"Origin": "http://evil.example"})[0] == 403
    status, reply = _request(ui, "GET", "/api/answer?id=arithmetic/addition&seed=1", headers={"Host": "evil.example"})
    assert status == 421 and "Host" in reply["error"]
    assert _request(ui, "GET", "/", headers={"Host": f"evil.example:{port}"})[0] == 421
    # the page itself (same origin, JSON) and plain clients are served
    assert _request(ui, "POST", "/api/reset", reset, {"Origin": f"http://127.0.0.1:{port}"})[0] == 200
    assert _request(ui, "POST", "/api/reset", reset, {"Host": f"localhost:{port}"})[0] == 200
    assert _request(ui, "GET", "/api/answer?id=arithmetic/addition&seed=1")[0] == 200


def test_a_wildcard_bind_answers_only_loopback_names() -> None:
    assert allowed_hosts("0.0.0.0") == allowed_hosts("::") == LOOPBACK_NAMES
    assert allowed_hosts("10.1.2.3") == LOOPBACK_NAMES | {"10.1.2.3"}
    assert allowed_hosts("[fe80::1]") == LOOPBACK_NAMES | {"fe80::1"}
    assert refusal({"Host": "[fe80::1]:8765"}, allowed_hosts("fe80::1"), token=False) is None
    assert refusal({"Host": "10.1.2.3:8765"}, allowed_hosts("0.0.0.0"), token=False)[0] == 421
