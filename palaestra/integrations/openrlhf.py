"""OpenRLHF: a reward function it loads by file path, and ``palaestra serve-reward`` (its ``/get_reward`` protocol).

Targets OpenRLHF as of commit ``3c3be623`` (August 2026). Data: ``palaestra export openrlhf
... --out train.jsonl`` writes ``prompt`` (chat messages), ``label`` (the serialised problem)
and ``datasource``; train with ``--data.input_key prompt --data.label_key label
--data.apply_chat_template``.

- **Reward by file**: ``--reward.remote_url /path/to/palaestra/integrations/openrlhf.py`` (the
  file loads on its own, as OpenRLHF's ``spec_from_file_location`` does it) calls
  :func:`reward_func`.
- **Reward over HTTP**: ``palaestra serve-reward --port 5000`` and
  ``--reward.remote_url http://HOST:5000/get_reward``: a POST of ``{"query": [...],
  "prompts": [...], "labels": [...]}`` answers ``{"rewards", "scores", "extra_logs"}``.
- **Multi-turn** (games): ``--train.agent_func_path`` pointing at
  ``palaestra/integrations/openrlhf_agent.py``.

Each query is the full decoded text (prompt and response); the response is what follows the
prompt. ``extra_logs`` holds ``acc``, ``parsed`` and ``error`` per sample: OpenRLHF cannot
drop a sample, so one that could not be judged (``error`` 1) scores 0.

Example::

    >>> from palaestra.integrations.common import sample
    >>> problem = sample("arithmetic/addition", 0, 4)
    >>> prompt = "<|im_start|>user\\n" + problem.prompt + "<|im_end|>\\n<|im_start|>assistant\\n"
    >>> query = prompt + f"<answer>{problem.answer}</answer><|im_end|>"
    >>> out = reward_func([query], [prompt], [problem.to_json()])
    >>> [float(r) for r in out["rewards"]], [float(e) for e in out["extra_logs"]["error"]]
    ([1.0], [0.0])
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from palaestra.core.problem import Verdict
from palaestra.core.scoring import score

MAX_BATCH = 4096  # samples in one /get_reward request at most
MAX_BODY_BYTES = 64_000_000
MAX_TEXT_CHARS = 200_000  # per query: longer ones are cut before judging
# Chat-template markers a decoded query may end with after the answer (the end of the assistant's turn).
_TRAILING_MARKERS = re.compile(r"(?:\s*(?:<\|[a-z_]+\|>|</s>|<eos>|<end_of_turn>|\[/INST\]))+\s*$")


def response_of(query: str, prompt: str) -> str:
    """The response part of a decoded query: the text after the prompt, without trailing end-of-turn markers."""
    if prompt and query.startswith(prompt):
        response = query[len(prompt):]
    else:  # decoding changed the prompt's spelling (spaces, special tokens): cut after its last 64 characters
        tail = prompt[-64:] if prompt else ""
        cut = query.rfind(tail) if tail else -1
        response = query[cut + len(tail):] if cut >= 0 else query
    return _TRAILING_MARKERS.sub("", response[:MAX_TEXT_CHARS])


def judge(queries: Sequence[str], prompts: Sequence[str], labels: Sequence[str]) -> list[Verdict]:
    """A verdict per sample; the label is the serialised problem."""
    if not len(queries) == len(prompts) == len(labels):
        return [Verdict.failed("query, prompts and labels differ in length")] * len(queries)
    return [score(label, response_of(str(query), str(prompt)))
            for query, prompt, label in zip(queries, prompts, labels)]


def reward_payload(verdicts: Sequence[Verdict]) -> dict[str, Any]:
    """``{"rewards", "scores", "extra_logs": {"acc", "parsed", "error"}}`` as plain lists."""
    rewards = [float(v.reward) for v in verdicts]
    return {"rewards": rewards, "scores": rewards,
            "extra_logs": {"acc": [float(v.correct) for v in verdicts], "parsed": [float(v.parsed) for v in verdicts],
                           "error": [float(v.error is not None) for v in verdicts]}}


def reward_func(queries: Sequence[str], prompts: Sequence[str], labels: Sequence[str], **kwargs: Any) -> dict[str, Any]:
    """OpenRLHF's reward-function signature; the values are tensors (OpenRLHF's own examples return them)."""
    payload = reward_payload(judge(queries, prompts, labels))
    try:
        import torch
    except ImportError:
        return payload
    logs = {key: torch.tensor(values) for key, values in payload["extra_logs"].items()}
    return {"rewards": torch.tensor(payload["rewards"]), "scores": torch.tensor(payload["scores"]), "extra_logs": logs}


class RewardServer(ThreadingHTTPServer):
    """``POST /get_reward`` in OpenRLHF's protocol; ``GET /health``. Bounded: body size, batch size, concurrency.

    Requests beyond ``max_concurrent`` at once get 503 (OpenRLHF's client retries); a
    connection idle for ``timeout`` seconds is closed.
    """

    daemon_threads = True
    request_queue_size = 256

    def __init__(self, address: tuple[str, int], max_body_bytes: int = MAX_BODY_BYTES, max_batch: int = MAX_BATCH,
                 max_concurrent: int = 64, timeout: float = 120.0) -> None:
        self.max_body_bytes, self.max_batch, self.timeout = max_body_bytes, max_batch, timeout
        self.slots = threading.BoundedSemaphore(max_concurrent)
        super().__init__(address, _RewardHandler)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/get_reward"


class _RewardHandler(BaseHTTPRequestHandler):
    server: RewardServer
    protocol_version = "HTTP/1.1"

    def setup(self) -> None:
        self.timeout = self.server.timeout
        super().setup()

    def log_message(self, format: str, *args: Any) -> None:  # quiet: a trainer makes many requests
        return

    def do_GET(self) -> None:
        if self.path == "/health":
            self._send(200, {"status": "ok"})
        else:
            self._send(404, {"detail": "not found"})

    def do_POST(self) -> None:
        if self.path.rstrip("/") != "/get_reward":
            self._send(404, {"detail": "POST /get_reward"})
            return
        length = self.headers.get("Content-Length", "")
        if not length.isdigit():
            self._send(411, {"detail": "a Content-Length is required"})
            return
        if int(length) > self.server.max_body_bytes:
            self.close_connection = True
            self._send(413, {"detail": f"body larger than {self.server.max_body_bytes} bytes"})
            return
        if not self.server.slots.acquire(blocking=False):
            self.rfile.read(int(length))
            self._send(503, {"detail": "busy: retry"})
            return
        try:
            self._send(*self._answer(self.rfile.read(int(length))))
        finally:
            self.server.slots.release()

    def _answer(self, body: bytes) -> tuple[int, dict[str, Any]]:
        try:
            data = json.loads(body)
            queries, prompts, labels = data["query"], data.get("prompts"), data.get("labels")
        except (ValueError, KeyError, TypeError):
            return 400, {"detail": 'expected JSON {"query": [...], "prompts": [...], "labels": [...]}'}
        if not isinstance(queries, list) or not isinstance(prompts, list) or not isinstance(labels, list):
            return 400, {"detail": "query, prompts and labels must be lists (labels: the problems' JSON)"}
        if len(queries) > self.server.max_batch:
            return 413, {"detail": f"more than {self.server.max_batch} samples in one request"}
        if not len(queries) == len(prompts) == len(labels):
            return 400, {"detail": "query, prompts and labels must have the same length"}
        return 200, reward_payload(judge(queries, prompts, labels))

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def serve_reward(host: str = "127.0.0.1", port: int = 5000, **bounds: Any) -> None:
    """Run the reward server in the foreground (``palaestra serve-reward``)."""
    with RewardServer((host, port), **bounds) as server:
        print(f"palaestra reward server on {server.url}", flush=True)
        server.serve_forever()
