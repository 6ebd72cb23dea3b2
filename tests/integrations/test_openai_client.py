"""The OpenAI-compatible path, end to end against a real HTTP server on 127.0.0.1.

The server (stdlib ``http.server`` in a thread) implements ``POST /v1/chat/completions``
and plays a scripted policy, so the expected pass@k is known exactly; other scripts
fail in the ways real servers do (HTTP 500, a hang, a malformed body, a 400).
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from palaestra.baselines.evaluate import Suite, run_suite
from palaestra.baselines.passk import pass_at_k
from palaestra.cli import main
from palaestra.core.registry import make_source
from palaestra.integrations.openai_client import OpenAIChatClient

# A script maps (request body, how many times this conversation's prompt was asked before) to
# (HTTP status, response body, seconds to wait before answering).
Script = Callable[[dict[str, Any], int], tuple[int, bytes, float]]


def reply(text: str) -> bytes:
    return json.dumps({"object": "chat.completion", "choices": [
        {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]}).encode()


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # the default backlog of 5 drops concurrent connects (1 s SYN retries)


class ScriptedServer:
    def __init__(self) -> None:
        self.script: Script = lambda body, n: (200, reply("<answer>?</answer>"), 0.0)
        self.asked: Counter[str] = Counter()
        self.bodies: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            disable_nagle_algorithm = True  # small replies must not wait for a delayed ACK

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                if self.path != "/v1/chat/completions":
                    status, payload, delay = 404, b'{"error": "not found"}', 0.0
                else:
                    with outer.lock:
                        prompt = body["messages"][0]["content"]
                        count = outer.asked[prompt]
                        outer.asked[prompt] += 1
                        outer.bodies.append(body)
                    status, payload, delay = outer.script(body, count)
                time.sleep(delay)
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout test)
                    pass

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = Server(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    s = ScriptedServer()
    yield s
    s.close()


SUITE = Suite(("strings/copy",), levels=(1, 2), seeds=(0, 1, 2, 3))  # 8 problems, 8 distinct prompts


def scripted_copy_policy(correct_of: dict[str, tuple[str, int]]) -> Script:
    """Right on the first ``c`` requests for a prompt, wrong afterwards: exactly c of n samples are right."""
    def script(body: dict[str, Any], count: int) -> tuple[int, bytes, float]:
        answer, correct = correct_of[body["messages"][0]["content"]]
        return 200, reply(f"Sure. <answer>{answer if count < correct else '0'}</answer>"), 0.0
    return script


def test_pass_at_k_through_http_matches_the_scripted_policy(server: ScriptedServer, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    source = make_source("strings/copy")
    correct_of, expected_counts = {}, []
    for j, (_, level, seed) in enumerate(SUITE.problems()):
        problem = source.sample(level, seed)
        correct_of[problem.prompt] = (problem.answer, j % 5)  # 0..4 right out of 4 samples (4 means all)
        expected_counts.append(min(j % 5, 4))
    assert len(correct_of) == 8
    server.script = scripted_copy_policy(correct_of)

    assert main(["eval", "--model", f"openai:{server.url}#scripted", "--envs", "strings/copy", "--levels", "1", "2",
                 "--seeds", "4", "--samples", "4", "--k", "1", "2", "4", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "0 infrastructure errors" in out and "32 episodes" in out
    summary = json.loads((tmp_path / "summary.json").read_text())
    [row] = summary["envs"]
    for k in (1, 2, 4):
        expected = sum(pass_at_k(4, c, k) for c in expected_counts) / len(expected_counts)
        assert row[f"pass@{k}"] == pytest.approx(expected), k
    assert row["pass@1"] < row["pass@2"] < row["pass@4"] == pytest.approx(6 / 8)
    assert sum(server.asked.values()) == 32 and set(server.asked.values()) == {4}
    body = server.bodies[0]
    assert body["model"] == "scripted" and body["messages"][0]["role"] == "user" and isinstance(body["seed"], int)
    records = [json.loads(line) for line in (tmp_path / "transcripts.jsonl").read_text().splitlines()]
    assert len(records) == 32 and sum(r["correct"] for r in records) == sum(expected_counts)
    assert (tmp_path / "pass_at_k.png").read_bytes()[:4] == b"\x89PNG"


def test_infrastructure_errors_are_errors_not_wrong_answers(server: ScriptedServer) -> None:
    source = make_source("strings/copy")
    problems = {source.sample(2, seed).prompt: (seed, source.sample(2, seed).answer) for seed in range(5)}
    assert len(problems) == 5

    def script(body: dict[str, Any], count: int) -> tuple[int, bytes, float]:
        seed, answer = problems[body["messages"][0]["content"]]
        if seed == 1 and count == 0:
            return 500, b'{"error": "overloaded"}', 0.0  # then fine: the retry succeeds
        if seed == 2:
            return 200, reply(f"<answer>{answer}</answer>"), 3.0  # always later than the client waits
        if seed == 3:
            return 200, b'{"choices": [{"message": ', 0.0  # truncated JSON
        if seed == 4:
            return 400, b'{"error": "bad request"}', 0.0  # not retried
        return 200, reply(f"<answer>{answer}</answer>"), 0.0

    server.script = script
    # 1.5 s: an immediate reply must never time out, however busy the machine; seed 2's never comes in time.
    client = OpenAIChatClient(server.url, "scripted", max_retries=2, timeout=1.5, backoff=0.01, concurrency=8)
    result = run_suite(client, Suite(("strings/copy",), levels=(2,), seeds=tuple(range(5))), samples=1, ks=(1,))
    by_seed = {r["seed"]: r for r in result.records}
    assert by_seed[0]["correct"] and by_seed[1]["correct"] and by_seed[0]["error"] is None is by_seed[1]["error"]
    assert "timed out" in by_seed[2]["error"]
    assert "malformed response body" in by_seed[3]["error"]
    assert by_seed[4]["error"].startswith("HTTP 400")
    assert all(not by_seed[s]["correct"] and by_seed[s]["turns"] == 0 for s in (2, 3, 4))
    prompts = {seed: prompt for prompt, (seed, _) in problems.items()}
    assert [server.asked[prompts[s]] for s in range(5)] == [1, 2, 3, 3, 1]  # retries: 500, timeout, malformed only
    [row] = result.env_rows()
    assert row["errors"] == 3 and row["pass@1"] == 1.0 and row["problems@1"] == 2  # errors are not scored


def test_client_reports_attempts_and_never_raises(server: ScriptedServer) -> None:
    server.script = lambda body, count: (503, b"busy", 0.0) if count < 2 else (200, reply("ok"), 0.0)
    client = OpenAIChatClient(server.url, "m", max_retries=3, backoff=0.01)
    done = client.request([{"role": "user", "content": "hi"}])
    assert done.ok and done.text == "ok" and done.attempts == 3 and done.finish_reason == "stop"
    refused = OpenAIChatClient("http://127.0.0.1:9/v1", "m", max_retries=1, backoff=0.01, timeout=1.0)
    failed = refused.request([{"role": "user", "content": "hi"}])
    assert not failed.ok and failed.text is None and "connection failed" in failed.error and failed.attempts == 2
    with pytest.raises(ValueError, match="URL#MODEL"):
        OpenAIChatClient.from_spec("http://127.0.0.1:8000/v1")


def test_requests_run_concurrently_and_replies_keep_their_order(server: ScriptedServer) -> None:
    # Every request waits at a barrier until all 16 are in the server at once: requests sent one after
    # another would break it (after 30 s) and get a 500 each, so the test does not depend on the clock.
    everyone_in = threading.Barrier(16, timeout=30)

    def upper_when_all_arrived(body: dict[str, Any], count: int) -> tuple[int, bytes, float]:
        try:
            everyone_in.wait()
        except threading.BrokenBarrierError:
            return 500, b"not concurrent", 0.0
        return 200, reply(body["messages"][0]["content"].upper()), 0.0

    server.script = upper_when_all_arrived
    client = OpenAIChatClient(server.url, "m", concurrency=16, max_retries=0)
    replies = client.complete([[{"role": "user", "content": f"q{i}"}] for i in range(16)])
    assert [r.text for r in replies] == [f"Q{i}" for i in range(16)]


def test_multi_turn_conversations_over_http(server: ScriptedServer) -> None:
    """A scripted bisection plays games/guess_number: every request carries the whole conversation."""
    def bisect(body: dict[str, Any], count: int) -> tuple[int, bytes, float]:
        messages = body["messages"]
        low, high = map(int, re.search(r"between (\d+) and (\d+)", messages[0]["content"]).groups())  # type: ignore[union-attr]
        for m in messages[1:]:
            if m["role"] == "user" and (hint := re.search(r"(higher|lower) than (\d+)", m["content"])):
                guess = int(hint.group(2))
                low, high = (guess + 1, high) if hint.group(1) == "higher" else (low, guess - 1)
        return 200, reply(f"<answer>{(low + high) // 2}</answer>"), 0.0

    server.script = bisect
    client = OpenAIChatClient(server.url, "bisect", concurrency=8)
    suite = Suite(("games/guess_number",), levels=(0, 2), seeds=tuple(range(4)))
    result = run_suite(client, suite, samples=2, ks=(1, 2))
    assert all(r["correct"] and r["error"] is None for r in result.records) and len(result.records) == 16
    assert max(r["turns"] for r in result.records) > 3
    assert [m["role"] for m in result.records[0]["messages"]][:4] == ["user", "assistant", "user", "assistant"]
