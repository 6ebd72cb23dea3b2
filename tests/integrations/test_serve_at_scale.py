"""The servers under load: what ``bench/serve_load.py`` found broken, fixed and kept fixed.

- ``palaestra serve`` closed every WebSocket session ``header_timeout`` seconds (10 by default) after it
  connected: the deadline for a request's headers kept running after the upgrade to a WebSocket.
- ``palaestra serve-reward`` refused requests beyond its judging slots and connections with 503; it now
  queues them (within ``queue_seconds`` and the listen ``backlog``), so a burst is answered, not refused.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.request

import pytest

pytest.importorskip("openenv", reason="openenv-core is not installed (pip install palaestra[openenv])")
from websockets.sync.client import connect  # noqa: E402

from palaestra import sandbox  # noqa: E402
from palaestra.core.registry import make_source  # noqa: E402
from palaestra.integrations import openrlhf  # noqa: E402
from palaestra.integrations.openenv_server import BackgroundServer, ServeConfig, create_app  # noqa: E402


def test_a_websocket_session_outlives_the_header_deadline() -> None:
    config = ServeConfig(env_ids=("arithmetic/addition",), header_timeout=0.5)
    with BackgroundServer(create_app(config), config=config) as server, \
            connect(server.url.replace("http", "ws") + "/ws") as ws:
        for seed in range(3):
            time.sleep(0.4)  # 1.2 s in all: beyond the 0.5 s a connection has to send its headers
            ws.send(json.dumps({"type": "reset", "data": {"env_id": "arithmetic/addition", "seed": seed}}))
            reply = json.loads(ws.recv(timeout=10))
            assert reply["type"] == "observation", reply


def test_a_burst_beyond_the_judging_slots_and_connections_is_queued_not_refused() -> None:
    server = openrlhf.RewardServer(("127.0.0.1", 0), max_concurrent=2, max_connections=4, timeout=10.0)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    problem = make_source("arithmetic/expression").sample(0, 1)
    body = json.dumps({"query": [f"<answer>{problem.answer}</answer>"], "prompts": [""],
                       "labels": [problem.to_json()]}).encode()
    statuses: list[int] = []

    def post() -> None:
        request = urllib.request.Request(server.url, data=body, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as reply:
                statuses.append(reply.status if json.loads(reply.read())["rewards"] == [1.0] else -1)
        except urllib.error.HTTPError as exc:
            statuses.append(exc.code)

    try:
        clients = [threading.Thread(target=post) for _ in range(40)]  # 10x the connections, 20x the slots
        for client in clients:
            client.start()
        for client in clients:
            client.join(timeout=120)
        assert statuses == [200] * 40
    finally:
        server.shutdown()
        server.server_close()
        sandbox.set_ceiling(None)
