"""The OpenAI-compatible client keeps 1,000 requests in flight against a loopback server (and says how fast).

The server runs in its own process (an asyncio app under uvicorn): it answers every chat
completion after a fixed delay and counts the requests it holds at once, so the count it
reports is the client's real concurrency, not a guess.
"""

from __future__ import annotations

import json
import resource
import socket
import subprocess
import sys
import time
import urllib.request
from typing import Any

import pytest

pytest.importorskip("uvicorn")

from palaestra.integrations.openai_client import OpenAIChatClient  # noqa: E402

IN_FLIGHT = 1000
REQUESTS = 3000
DELAY = 0.5  # seconds the server holds each request

SERVER = r'''
import asyncio, json, sys, uvicorn

state = {"in_flight": 0, "peak": 0, "served": 0}

async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    if scope["path"] == "/stats":
        payload = json.dumps(state).encode()
    else:
        state["in_flight"] += 1
        state["peak"] = max(state["peak"], state["in_flight"])
        await asyncio.sleep(float(sys.argv[2]))
        state["in_flight"] -= 1
        state["served"] += 1
        asked = json.loads(body)["messages"][-1]["content"]
        payload = json.dumps({"choices": [{"index": 0, "finish_reason": "stop",
                                           "message": {"role": "assistant", "content": "echo " + asked}}]}).encode()
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": payload})

uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning", backlog=4096, timeout_keep_alive=60)
'''


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def slow_server() -> Any:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 2 * IN_FLIGHT + 256  # this process's end of every connection, and some slack
    if soft < wanted:
        if hard != resource.RLIM_INFINITY and hard < wanted:
            pytest.skip(f"needs {wanted} open files, the hard limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    port = _free_port()
    limits = f"import resource; resource.setrlimit(resource.RLIMIT_NOFILE, ({wanted}, {hard}))\n"
    process = subprocess.Popen([sys.executable, "-c", limits + SERVER, str(port), str(DELAY)])
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            urllib.request.urlopen(f"{url}/stats", timeout=1).read()
            break
        except OSError:
            time.sleep(0.05)
    yield url
    process.terminate()
    process.wait(timeout=10)
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_thousand_requests_in_flight_on_loopback(slow_server: str) -> None:
    client = OpenAIChatClient(f"{slow_server}/v1", "m", concurrency=IN_FLIGHT, timeout=60.0, max_retries=1)
    conversations = [[{"role": "user", "content": str(i)}] for i in range(REQUESTS)]
    start, cpu_start = time.perf_counter(), time.process_time()
    replies = client.complete(conversations)
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
    assert [r.text for r in replies] == [f"echo {i}" for i in range(REQUESTS)]  # every reply, in order
    stats = json.loads(urllib.request.urlopen(f"{slow_server}/stats", timeout=10).read())
    assert stats["served"] == REQUESTS and stats["peak"] == IN_FLIGHT
    # The server holds each request DELAY seconds, so 1,000 in flight allow 2,000 requests/s at most;
    # the client's own CPU cost per request (in this process, whatever else the machine runs) must leave a
    # fair share of that. The wall-clock rate is printed, not asserted: a busy machine lowers it.
    print(f"\n{REQUESTS} requests, {stats['peak']} in flight, {DELAY} s server delay: {REQUESTS / seconds:.0f} "
          f"requests/s ({seconds:.2f} s, {cpu_seconds:.2f} s of client CPU)")
    assert REQUESTS / cpu_seconds > 0.2 * IN_FLIGHT / DELAY
