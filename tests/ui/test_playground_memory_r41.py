"""``palaestra ui`` against the round-41 hostile review: a 1 MB POST body of ``[],`` parses to ~26 MB, and 64
connections sending such bodies took the server to 1.7 GB. Bodies are now parsed one at a time and only an object
of plain values leaves the parse (a list or object field is a 400 at once)."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from palaestra.ui import Playground, make_server
from tests.ui.ui_support import serving


@pytest.fixture
def ui() -> Iterator[Any]:
    with serving(make_server("127.0.0.1", 0, Playground(max_sessions=3))) as server:
        yield server


def _post(port: int, body: bytes) -> tuple[int, dict[str, Any]]:
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(b"POST /api/reset HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Connection: close\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    head, _, payload = reply.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), json.loads(payload or b"{}")


def _rss() -> int:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmRSS"))


@pytest.mark.parametrize("field", [[], {}, [1, 2], {"a": [1]}])
def test_a_field_that_is_not_a_plain_value_is_a_400(ui: Any, field: Any) -> None:
    status, reply = _post(ui.server_address[1], json.dumps({"id": field, "seed": 0}).encode())
    assert status == 400 and "plain values" in reply["error"], reply


def test_parsed_bodies_are_not_held_side_by_side(ui: Any) -> None:
    body = b'{"id": [' + b"[]," * 300_000 + b"[]]}"  # 900 kB of text, ~25 MB parsed
    base, peak, done = _rss(), [0], threading.Event()

    def watch() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _rss())
            time.sleep(0.005)

    watcher = threading.Thread(target=watch)
    watcher.start()
    statuses: list[int] = []
    clients = [threading.Thread(target=lambda: statuses.append(_post(ui.server_address[1], body)[0]))
               for _ in range(16)]
    for client in clients:
        client.start()
    for client in clients:
        client.join()
    done.set()
    watcher.join()
    assert statuses == [400] * 16
    assert peak[0] - base < 150 << 20, (peak[0] - base) >> 20  # one parse at a time (16 at once: ~400 MB)
    assert _post(ui.server_address[1], b'{"id": "arithmetic/addition", "seed": 1}')[0] == 200
