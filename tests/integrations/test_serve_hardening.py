"""The servers against hostile clients (#23 findings 5, 7, 9 and authentication)."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from palaestra import sandbox
from palaestra.core.registry import make_source
from palaestra.integrations import openrlhf


@pytest.fixture
def reward_server() -> Iterator[openrlhf.RewardServer]:
    server = openrlhf.RewardServer(("127.0.0.1", 0), max_concurrent=4, body_timeout=1.0, timeout=5.0,
                                   max_connections=64, job_seconds=1.0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    sandbox.set_ceiling(None)


def _post(url: str, payload: Any, headers: dict[str, str] | None = None, timeout: float = 30) -> tuple[int, Any]:
    body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as exc:
        text = exc.read()
        try:
            return exc.code, json.loads(text or b"{}")
        except ValueError:
            return exc.code, text.decode(errors="replace")


def _sample() -> dict[str, list[str]]:
    problem = make_source("arithmetic/addition").sample(level=0, seed=4)
    return {"query": [f"P<answer>{problem.answer}</answer>"], "prompts": ["P"], "labels": [problem.to_json()]}


def test_clients_withholding_their_bodies_hold_no_slot(reward_server: openrlhf.RewardServer) -> None:
    host, port = reward_server.server_address[:2]
    stalled = []
    for _ in range(16):  # four times the judging slots
        s = socket.create_connection((host, port))
        s.sendall(b"POST /get_reward HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 100\r\n\r\n{")
        stalled.append(s)
    try:
        # Served, not refused: before the fix the stalled bodies held every judging slot and this got 503.
        status, reply = _post(reward_server.url, _sample())
        assert status == 200 and reply["rewards"] == [1.0], reply
        stalled[0].settimeout(5)
        assert stalled[0].recv(100).startswith(b"HTTP/1.1 408"), "a withheld body is answered 408 at its deadline"
    finally:
        for s in stalled:
            s.close()


def test_a_label_cannot_raise_a_jobs_budget(reward_server: openrlhf.RewardServer) -> None:
    problem = make_source("code/dp_programs").sample(level=0, seed=1)
    query = "P```python\nwhile True:\n    pass\n```"
    forged = json.loads(problem.to_json())
    forged["data"]["cpu_seconds"] = 1e6  # the label's own budget: a label must be the problem its identity makes
    status, reply = _post(reward_server.url, {"query": [query], "prompts": ["P"], "labels": [json.dumps(forged)]})
    assert status == 400 and "not the problem" in reply["detail"], reply
    start = time.monotonic()
    status, reply = _post(reward_server.url, {"query": [query], "prompts": ["P"], "labels": [problem.to_json()]})
    took = time.monotonic() - start
    assert status == 200 and reply["rewards"] == [0.0], reply
    assert took < 8, took  # the server's 1 s job budget, plus start-up
    assert sandbox.capped(sandbox.Limits(cpu_seconds=1e6, wall_seconds=1e6)).cpu_seconds == 1.0


def test_deeply_nested_json_is_a_400(reward_server: openrlhf.RewardServer) -> None:
    status, reply = _post(reward_server.url, b"[" * 200_000 + b"]" * 200_000)
    assert status == 400, reply


def test_connections_beyond_the_cap_wait_their_turn() -> None:
    """Backpressure: a connection beyond the cap waits in the listen queue (no 503) and is served once one closes."""
    server = openrlhf.RewardServer(("127.0.0.1", 0), max_connections=2, timeout=5.0)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    host, port = server.server_address[:2]
    idle = [socket.create_connection((host, port)) for _ in range(2)]
    try:
        time.sleep(0.3)
        extra = socket.create_connection((host, port))
        extra.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        extra.settimeout(0.5)
        with pytest.raises(socket.timeout):
            extra.recv(200)  # not accepted yet: both connection slots are held
        idle.pop().close()
        extra.settimeout(5)
        assert extra.recv(200).startswith(b"HTTP/1.1 200"), "served once a slot freed"
        extra.close()
    finally:
        for s in idle:
            s.close()
        server.shutdown()
        server.server_close()
        sandbox.set_ceiling(None)


def test_a_token_is_required_beyond_loopback_and_checked() -> None:
    with pytest.raises(SystemExit, match="without a token"):
        openrlhf.check_binding("0.0.0.0", None)
    openrlhf.check_binding("0.0.0.0", "s3cret")
    openrlhf.check_binding("127.0.0.1", None)
    server = openrlhf.RewardServer(("127.0.0.1", 0), token="s3cret")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        assert _post(server.url, _sample())[0] == 401
        assert _post(server.url, _sample(), {"Authorization": "Bearer wrong"})[0] == 401
        status, reply = _post(server.url, _sample(), {"Authorization": "Bearer s3cret"})
        assert status == 200 and reply["rewards"] == [1.0]
    finally:
        server.shutdown()
        server.server_close()
        sandbox.set_ceiling(None)


# -- palaestra serve -----------------------------------------------------------------------------

from palaestra.integrations.openenv_server import BackgroundServer, ServeConfig, create_app  # noqa: E402


def _serve(config: ServeConfig) -> BackgroundServer:
    return BackgroundServer(create_app(config), config=config)


def test_serve_closes_connections_that_send_no_request() -> None:
    config = ServeConfig(header_timeout=0.5)
    with _serve(config) as running:
        silent = socket.create_connection((running.host, running.port))
        partial = socket.create_connection((running.host, running.port))
        partial.sendall(b"POST /reset HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # headers never finished
        for s in (silent, partial):
            s.settimeout(5)
            assert s.recv(100) == b"", "closed by the server at its header deadline"
            s.close()


def test_serve_answers_a_withheld_body_with_408() -> None:
    config = ServeConfig(body_timeout=0.5)
    with _serve(config) as running:
        s = socket.create_connection((running.host, running.port))
        s.sendall(b"POST /reset HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{")
        s.settimeout(5)
        assert s.recv(100).startswith(b"HTTP/1.1 408"), "a body that never comes is answered 408"
        s.close()


def test_serve_refuses_connections_beyond_its_cap_clearly() -> None:
    config = ServeConfig(max_connections=2, header_timeout=5)
    with _serve(config) as running:
        held = [socket.create_connection((running.host, running.port)) for _ in range(2)]
        try:
            time.sleep(0.3)
            status, _ = _post(f"{running.url}/reset", {"env_id": "arithmetic/addition"}, timeout=5)
            assert status == 503
        finally:
            for s in held:
                s.close()


def test_serve_answers_an_unknown_env_id_with_400_and_a_hint() -> None:
    with _serve(ServeConfig()) as running:
        status, reply = _post(f"{running.url}/reset", {"env_id": "arithmetic/additon"})
        assert status == 400, reply
        assert "unknown env id" in reply["detail"] and "arithmetic/addition" in reply["detail"], reply


def test_serve_checks_its_token() -> None:
    from palaestra.integrations.openenv_server import check_binding

    with pytest.raises(SystemExit, match="without a token"):
        check_binding("0.0.0.0", None)
    with _serve(ServeConfig(token="s3cret")) as running:
        assert _post(f"{running.url}/reset", {"env_id": "arithmetic/addition"})[0] == 401
        status, reply = _post(f"{running.url}/reset", {"env_id": "arithmetic/addition"},
                              {"Authorization": "Bearer s3cret"})
        assert status == 200, reply
