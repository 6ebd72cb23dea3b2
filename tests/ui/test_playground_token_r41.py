"""``palaestra ui`` against the round-41 hostile review: bound beyond loopback it only warned ("it has no
authentication") while anyone reaching it could run code in the sandbox (code envs' replies) and read reference
answers (``/api/answer``). Now it refuses to start there without a token, and with one every request (the page, the
API) needs it: ``Authorization: Bearer TOKEN`` or the cookie that opening ``/?token=TOKEN`` once sets."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest

from palaestra.ui import Playground, make_server, serve_ui
from tests.ui.ui_support import serving

TOKEN = "play-s3cret-token"


@pytest.fixture
def ui() -> Iterator[Any]:
    with serving(make_server("127.0.0.1", 0, Playground(max_sessions=3), token=TOKEN)) as server:
        yield server


def _get(server: Any, path: str, headers: str = "", method: str = "GET", body: bytes = b"") -> tuple[int, bytes]:
    with socket.create_connection(("127.0.0.1", server.server_address[1]), timeout=20) as sock:
        extra = f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n" if method == "POST" else ""
        sock.sendall(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}{headers}Connection: close\r\n\r\n"
                     .encode() + body)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head = data.split(b"\r\n\r\n", 1)[0]
    return int(head.split(b" ", 2)[1]), head


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.1"])
def test_a_non_loopback_bind_without_a_token_is_refused(host: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PALAESTRA_SERVER_TOKEN", raising=False)
    with pytest.raises(SystemExit, match="without a token"):
        serve_ui(host, 0)


def test_a_token_unfit_for_a_cookie_is_refused() -> None:
    with pytest.raises(ValueError, match="token"):
        make_server("127.0.0.1", 0, Playground(), token="a b;\r\nSet-Cookie: x")


@pytest.mark.parametrize("path", ["/", "/api/envs", "/api/answer?id=arithmetic/addition&seed=1", "/favicon.ico",
                                  "/nope"])
def test_every_route_needs_the_token(ui: Any, path: str) -> None:
    assert _get(ui, path)[0] == 401
    assert _get(ui, path, "Authorization: Bearer play-s3cret-tokeX\r\n")[0] == 401
    assert _get(ui, path, "Cookie: palaestra_token=play-s3cret-toke\r\n")[0] == 401
    assert _get(ui, path, f"Authorization: Bearer {TOKEN}\r\n")[0] in (200, 204, 404)
    assert _get(ui, path, f"Cookie: theme=dark; palaestra_token={TOKEN}\r\n")[0] in (200, 204, 404)
    assert _get(ui, "/api/reset", method="POST", body=b'{"id": "arithmetic/addition"}')[0] == 401


def test_opening_the_page_with_the_token_sets_the_cookie(ui: Any) -> None:
    status, head = _get(ui, f"/?token={TOKEN}")
    assert status == 303
    assert b"Location: /\r\n" in head + b"\r\n"
    assert f"Set-Cookie: palaestra_token={TOKEN}; HttpOnly; SameSite=Strict; Path=/".encode() in head
    assert _get(ui, "/?token=wrong-token-value")[0] == 401
