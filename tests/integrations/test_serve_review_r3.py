"""``palaestra serve`` against the round-3 hostile review of the servers (#23): one request must not freeze the
server, slow work is refused clearly, sessions are held only by connections, idle connections close, and web pages
cannot drive a loopback server. Each test starts a real uvicorn server on 127.0.0.1."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
import urllib.error
import urllib.request
from typing import Any

import pytest

pytest.importorskip("openenv.core")

from websockets.exceptions import ConnectionClosed, InvalidStatus  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from palaestra.integrations import openenv_server  # noqa: E402
from palaestra.integrations.openenv_server import BackgroundServer, ServeConfig, create_app  # noqa: E402


def request(server: BackgroundServer, path: str, body: Any = None, headers: dict[str, str] | None = None,
            timeout: float = 10.0) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(server.url + path, data=data, headers={"Content-Type": "application/json",
                                                                        **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as reply:
            return reply.status, json.loads(reply.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


@pytest.fixture(scope="module")
def server() -> Any:
    with BackgroundServer(create_app(ServeConfig(max_sessions=8))) as running:
        yield running


@pytest.mark.parametrize(("level", "said"), [(10**12, "out of range"), (1e308, "must be an integer"),
                                             ([1], "must be an integer"), (-1, "out of range"), (True, "integer")])
def test_a_level_past_the_servers_bound_is_a_400_and_the_server_stays_responsive(
        server: BackgroundServer, level: Any, said: str) -> None:
    # Both requests have request()'s 10 s timeout: a level of 10**12 used to freeze the server for far longer.
    status, body = request(server, "/reset", {"env_id": "arithmetic/addition", "seed": 0, "level": level})
    assert status == 400 and said in body["detail"], body
    assert request(server, "/health")[0] == 200


def test_levels_past_a_bounded_envs_presets_and_the_configured_bound(server: BackgroundServer) -> None:
    status, body = request(server, "/reset", {"env_id": "games/kalah", "seed": 0, "level": 5})
    assert status == 400 and "0 to 4" in body["detail"], body
    status, body = request(server, "/reset", {"env_id": "arithmetic/addition", "seed": 0, "level": 10})
    assert status == 400 and "--max-level" in body["detail"], body
    assert request(server, "/reset", {"env_id": "arithmetic/addition", "seed": 0, "level": 9})[0] == 200
    with BackgroundServer(create_app(ServeConfig(max_level=12))) as higher:
        assert request(higher, "/reset", {"env_id": "arithmetic/addition", "seed": 0, "level": 12})[0] == 200


@pytest.mark.parametrize("fields", [{"max_tool_calls": "1e3"}, {"max_tool_calls": 99}, {"answer_format": "xml"},
                                    {"answer_format": ["tag"]}, {"level": "2"}])
def test_client_mistakes_are_400s_that_say_what_is_wrong(server: BackgroundServer, fields: dict[str, Any]) -> None:
    status, body = request(server, "/reset", {"env_id": "arithmetic/addition", "seed": 0, **fields})
    assert status == 400 and isinstance(body["detail"], str) and body["detail"], body


def test_a_reset_past_the_step_timeout_is_a_503_to_retry(monkeypatch: pytest.MonkeyPatch) -> None:
    real = openenv_server.PalaestraEnvironment.reset

    def slow(self: Any, *args: Any, **kwargs: Any) -> Any:
        time.sleep(1.0)
        return real(self, *args, **kwargs)

    with BackgroundServer(create_app(ServeConfig(step_timeout=0.2))) as small:
        with connect(small.url.replace("http", "ws") + "/ws", open_timeout=10) as ws:
            monkeypatch.setattr(openenv_server.PalaestraEnvironment, "reset", slow)
            ws.send(json.dumps({"type": "reset", "data": {"env_id": "arithmetic/addition", "seed": 0}}))
            reply = json.loads(ws.recv(timeout=10))
        assert reply["type"] == "error" and "--step-timeout" in reply["data"]["message"], reply


def test_http_mcp_opens_no_session_and_closes_none(server: BackgroundServer) -> None:
    for method, params in (("openenv/session/create", {}), ("openenv/session/close", {"session_id": "x"}),
                           ("tools/list", {"session_id": "x"})):
        status, body = request(server, "/mcp", {"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
        assert status == 200 and body["error"]["code"] == -32600 and "/ws" in body["error"]["message"], body
    status, body = request(server, "/mcp", {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}})
    assert status == 200 and body.get("jsonrpc") == "2.0" and body.get("id") == 2, body  # stateless calls pass


def test_an_idle_websocket_is_closed_and_frees_its_connection_slot() -> None:
    config = ServeConfig(session_timeout=1.0, max_connections=3)
    with BackgroundServer(create_app(config), config=config) as small:
        with contextlib.ExitStack() as stack:
            idle = [stack.enter_context(connect(small.url.replace("http", "ws") + "/ws", open_timeout=10))
                    for _ in range(2)]
            time.sleep(2.0)
            for ws in idle:  # pings alone (the client library answers them) keep nothing open
                with pytest.raises(ConnectionClosed):
                    ws.send(json.dumps({"type": "state"}))
                    ws.recv(timeout=5)
            assert request(small, "/health")[0] == 200


def test_a_binary_frame_closes_the_websocket_with_1003(server: BackgroundServer) -> None:
    with connect(server.url.replace("http", "ws") + "/ws", open_timeout=10) as ws:
        ws.send(b'{"type": "state"}')
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1003


def test_web_pages_and_rebound_names_are_refused(server: BackgroundServer) -> None:
    status, body = request(server, "/reset", {"env_id": "arithmetic/addition"}, {"Origin": "http://evil.example"})
    assert status == 403 and "cross-origin" in body["detail"], body
    with pytest.raises(InvalidStatus) as refused:
        connect(server.url.replace("http", "ws") + "/ws", open_timeout=10, origin="http://evil.example")  # type: ignore[arg-type]
    assert refused.value.response.status_code == 403
    with socket.create_connection((server.host, server.port), timeout=5) as raw:  # DNS rebinding: a foreign Host
        raw.sendall(b"GET /health HTTP/1.1\r\nHost: evil.example:8000\r\nConnection: close\r\n\r\n")
        assert raw.recv(100).startswith(b"HTTP/1.1 421")
    for host in (b"localhost:1", b"127.0.0.1", b"[::1]:8000"):
        with socket.create_connection((server.host, server.port), timeout=5) as raw:
            raw.sendall(b"GET /health HTTP/1.1\r\nHost: " + host + b"\r\nConnection: close\r\n\r\n")
            assert raw.recv(100).startswith(b"HTTP/1.1 200"), host


def test_an_allowed_origin_is_served() -> None:
    config = ServeConfig(allowed_origins=("http://localhost:3000",))
    with BackgroundServer(create_app(config)) as running:
        status, _ = request(running, "/reset", {"env_id": "arithmetic/addition", "seed": 0},
                            {"Origin": "http://localhost:3000"})
        assert status == 200


@pytest.mark.parametrize(("header", "status"), [("Bearer s3cret", 200), ("bearer s3cret", 200), ("s3cret", 401),
                                                ("Basic s3cret", 401), ("Bearer s3cre", 401)])
def test_the_token_must_come_as_a_bearer_credential(header: str, status: int) -> None:
    with BackgroundServer(create_app(ServeConfig(token="s3cret"))) as running:
        assert request(running, "/health", headers={"Authorization": header})[0] == status


@pytest.mark.parametrize(("tools", "said"), [(["calculator", "calculator"], "twice"), (5, "list of tool names"),
                                             ([{"x": 1}], "list of tool names")])
def test_malformed_tools_are_400s(server: BackgroundServer, tools: Any, said: str) -> None:
    status, body = request(server, "/reset", {"env_id": "arithmetic/addition", "seed": 0, "tools": tools})
    assert status == 400 and said in body["detail"], body


def test_state_messages_alone_do_not_keep_an_idle_websocket_open() -> None:
    config = ServeConfig(session_timeout=1.0)
    with BackgroundServer(create_app(config), config=config) as small:
        with connect(small.url.replace("http", "ws") + "/ws", open_timeout=10) as ws:
            with pytest.raises(ConnectionClosed):
                for _ in range(10):  # a cheap message every 0.4 s for 4 s: the socket is closed after 1 s
                    ws.send(json.dumps({"type": "state"}))
                    ws.recv(timeout=5)
                    time.sleep(0.4)


def test_steps_past_the_timeout_do_not_starve_other_clients(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each late step keeps its thread until its work ends: more of them than asyncio's default pool has threads
    # (CPUs + 4) used to leave none for anyone else.
    real = openenv_server.PalaestraEnvironment.step
    release = threading.Event()

    def stuck(self: Any, action: Any, **kwargs: Any) -> Any:
        release.wait(60)  # until the test is done: a late step's thread is held for as long as its work lasts
        return real(self, action, **kwargs)

    config = ServeConfig(step_timeout=0.3, max_sessions=16)
    with BackgroundServer(create_app(config), config=config) as small, contextlib.ExitStack() as stack:
        url = small.url.replace("http", "ws") + "/ws"
        clients = [stack.enter_context(connect(url, open_timeout=10)) for _ in range(10)]
        for ws in clients:
            ws.send(json.dumps({"type": "reset", "data": {"env_id": "arithmetic/addition", "seed": 0}}))
            ws.recv(timeout=10)
        monkeypatch.setattr(openenv_server.PalaestraEnvironment, "step", stuck)
        try:
            for ws in clients:
                ws.send(json.dumps({"type": "step", "data": {"text": "<answer>1</answer>"}}))
            time.sleep(0.5)
            monkeypatch.setattr(openenv_server.PalaestraEnvironment, "step", real)
            # With ten threads stuck for good, another client is still served (within request()'s 10 s timeout).
            status, _ = request(small, "/reset", {"env_id": "arithmetic/addition", "seed": 1})
            assert status == 200
        finally:
            release.set()
