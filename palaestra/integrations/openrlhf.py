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

import functools
import hashlib
import hmac
import json
import re
import threading
import time
from collections.abc import Sequence
from typing import Any

from palaestra.core.browser_guard import JSON_REQUIRED, allowed_hosts, is_json, refusal
from palaestra.core.extract import check_format
from palaestra.core.http_bounds import BoundedHandler, BoundedHTTPServer
from palaestra.core.problem import Problem, Verdict
from palaestra.core.registry import SERVED_LEVEL_MAX, registry
from palaestra.core.scoring import score, to_problem
from palaestra.integrations.common import sample

MAX_BATCH = 4096  # samples in one /get_reward request at most
MAX_SEED = 2**64  # seeds a label may carry (an 8 MB seed was held twice per cache entry)
MAX_BODY_BYTES = 64_000_000
MAX_TEXT_CHARS = 200_000  # per query: longer ones are cut before judging
MAX_MEMORY_BYTES = 1 << 30  # the memory all requests in flight may hold (estimated: see RewardServer)
FREE_BYTES = 256 * 1024  # a request's first bytes need no share of it (small requests are never starved)
TOKEN_BYTES = 72  # an upper bound on what one JSON value costs parsed (a list, a dict entry, a float, a short str)
TOKEN_ENV = "PALAESTRA_SERVER_TOKEN"
LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})
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


def judge(queries: Sequence[str], prompts: Sequence[str], labels: Sequence[str | Problem]) -> list[Verdict]:
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


def check_binding(host: str, token: str | None) -> None:
    """Refuse to listen beyond this machine without a token (``--token`` or $PALAESTRA_SERVER_TOKEN)."""
    if host not in LOOPBACK and not token:
        raise SystemExit(f"refusing to listen on {host!r} without a token: anyone who can reach it could run code in "
                         f"the sandbox. Give --token (or ${TOKEN_ENV}) and send it as 'Authorization: Bearer TOKEN'.")


def token_matches(token: str | None, authorization: str | None) -> bool:
    """Whether an ``Authorization: Bearer TOKEN`` header carries ``token`` (constant-time); True without a token.

    Only that form: the scheme ``Bearer`` (any case, as HTTP's schemes are), one space, the token exactly.
    """
    if not token:
        return True
    scheme, _, given = (authorization or "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.encode(), token.encode())


def checked_labels(labels: Sequence[Any], most: int) -> list[Any]:
    """The labels with each readable one parsed into its Problem, whose level must be one this server generates
    (``served_level``: an int the env accepts, at most ``most``) and which must be the very problem its
    ``(env_id, level, seed)`` generates here: a verifier sizes its work by the problem's data (a label claiming a
    SAT formula of 10**7 variables cost a minute and 5 GB), so a label's data is never taken on trust. ValueError
    ``sample I: ...`` otherwise. A label that cannot be read, names no env or another version of it stays as it
    is: its sample gets an error verdict from ``score``."""
    checked: list[Any] = []
    for index, label in enumerate(labels):
        try:
            problem = to_problem(label)
            spec = registry._lookup(problem.env_id, warn=False)
        except (KeyError, LookupError, TypeError, ValueError, AttributeError, RecursionError):
            checked.append(label)
            continue
        try:
            spec.served_level(problem.level, most)
            seed, answer_format = problem.seed, problem.answer_format
            if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < MAX_SEED:
                raise ValueError(f"seed must be an integer in [0, 2**64), not {str(seed)[:40]!r}")
            if answer_format is not None:
                check_format(answer_format if isinstance(answer_format, str) else repr(answer_format)[:40])
        except ValueError as exc:
            raise ValueError(f"sample {index}: {exc}") from None
        if spec.version == problem.version and _generated(spec.id, problem.level, seed, answer_format) != _digest(
                problem.to_json()):
            raise ValueError(f"sample {index}: the label is not the problem {spec.id} level {problem.level} seed "
                             f"{seed} generates here (its data or prompt was edited)")
        checked.append(problem)
    return checked


@functools.lru_cache(maxsize=4096)
def _generated(env_id: str, level: int, seed: int, answer_format: str | None) -> bytes:
    """The digest of the problem ``(env_id, level, seed)``'s JSON, made once for the samples of a group that share
    it (a digest: 4,096 problems' text would be megabytes held by the cache)."""
    return _digest(sample(env_id, level, seed, answer_format).to_json())


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


class MemoryBudget:
    """Bytes of memory that requests in flight may hold: ``take(n, deadline)`` waits for ``n`` of them (False when
    they did not free in time, or ``n`` exceeds the whole budget); ``give(n)`` returns them."""

    def __init__(self, total: int) -> None:
        self.total = self.free = total
        self.cond = threading.Condition()

    def take(self, amount: int, deadline: float) -> bool:
        if amount <= 0:
            return True
        if amount > self.total:
            return False
        with self.cond:
            while self.free < amount:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.cond.wait(left)
            self.free -= amount
            return True

    def give(self, amount: int) -> None:
        if amount > 0:
            with self.cond:
                self.free += amount
                self.cond.notify_all()


def _json_values(text: str) -> int:
    """At least the number of values in the JSON ``text`` (each one after the first follows a ``,`` or ``:``, or
    opens a container), counted at C speed: what parsing it may cost is ``TOKEN_BYTES`` each."""
    return 1 + sum(text.count(c) for c in ",:[{")


class RewardServer(BoundedHTTPServer):
    """``POST /get_reward`` in OpenRLHF's protocol; ``GET /health``. Bounded: body size, batch size, concurrency,
    connections, and time.

    Backpressure, not refusal: at most ``max_connections`` connections are served at once (a thread
    each); the next ones wait in the listen queue (``backlog`` connections; the kernel caps it at
    ``net.core.somaxconn``) and are accepted as connections close. A request's body is read (within
    ``body_timeout`` seconds) before it takes one of the ``max_concurrent`` judging slots, so clients
    withholding their bodies hold no slot; a request that finds every slot taken waits for one up to
    ``queue_seconds`` and only then gets 503 (OpenRLHF's client retries). A connection idle for
    ``timeout`` seconds is closed, and one whose request line and headers take longer than
    ``header_timeout`` seconds in all (however they trickle in) too. With a ``token``, every request must
    carry ``Authorization: Bearer TOKEN``. The sandbox limits of code envs come from ``job_limits`` (the
    server's), never from a request's labels; a label's level must be one the env accepts, at most
    ``max_level``, and the label the very problem its identity generates (400 otherwise). Web pages cannot drive it (:mod:`palaestra.core.browser_guard`):
    a foreign ``Host`` is refused unless there is a token, a foreign ``Origin`` always, and bodies must be
    ``application/json``.

    Memory: parsed JSON takes up to ~25 times its text (``[],`` is a 56-byte list per 3 bytes), so what requests
    hold at once is budgeted (``max_memory_bytes``): a body's bytes take their share as they arrive (past its first
    ``FREE_BYTES``; a body that cannot get it within ``body_timeout`` gets 503), bodies are parsed one at a time
    (parsing holds the interpreter's lock anyway) and checked to be three lists of strings (a dict label is kept as
    text until the request has its share), and the labels' parsing is charged ``TOKEN_BYTES`` per JSON value
    before it happens. The share is held until the answer is sent.
    """

    def __init__(self, address: tuple[str, int], max_body_bytes: int = MAX_BODY_BYTES, max_batch: int = MAX_BATCH,
                 max_concurrent: int = 64, timeout: float = 120.0, body_timeout: float = 30.0,
                 max_connections: int = 512, token: str | None = None, job_seconds: float = 10.0,
                 backlog: int = 4096, queue_seconds: float = 300.0, header_timeout: float = 10.0,
                 max_level: int = SERVED_LEVEL_MAX, max_memory_bytes: int = MAX_MEMORY_BYTES) -> None:
        from palaestra import sandbox

        self.max_body_bytes, self.max_batch, self.timeout = max_body_bytes, max_batch, timeout
        self.body_timeout, self.token, self.max_level = body_timeout, token, max_level
        self.hosts = allowed_hosts(address[0])
        self.queue_seconds = queue_seconds
        self.slots = threading.BoundedSemaphore(max_concurrent)
        self.memory = MemoryBudget(max_memory_bytes)
        self.parsing = threading.Lock()
        # Every sandbox job judged here runs within the server's budget, whatever a label says.
        sandbox.set_ceiling(sandbox.Limits(wall_seconds=job_seconds, cpu_seconds=job_seconds,
                                           compile_seconds=max(job_seconds, 10.0)))
        super().__init__(address, _RewardHandler, max_connections=max_connections, idle_timeout=timeout,
                         header_timeout=header_timeout, backlog=backlog)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/get_reward"


class _DictLabel(str):
    """A label sent as a JSON object, kept as its text until the request has its share of the memory budget."""


class _RewardHandler(BoundedHandler):
    server: RewardServer
    protocol_version = "HTTP/1.1"

    def _refused(self) -> bool:
        """Answers (and True) a request a foreign web page may have sent: a foreign Host (without a token) or Origin."""
        refused = refusal(self.headers, self.server.hosts, token=bool(self.server.token))
        if refused is not None:
            self.close_connection = True
            self._send(refused[0], {"detail": refused[1]})
        return refused is not None

    def log_message(self, format: str, *args: Any) -> None:  # quiet: a trainer makes many requests
        return

    def _unauthorized(self) -> bool:
        """Answers 401 (and True) a request without the server's token, whatever its method and path."""
        if token_matches(self.server.token, self.headers.get("Authorization")):
            return False
        self.close_connection = True
        self._send(401, {"detail": "a valid 'Authorization: Bearer TOKEN' header is required"})
        return True

    def do_GET(self) -> None:
        if self._refused() or self._unauthorized():
            return
        if self.path == "/health":
            self._send(200, {"status": "ok"})
        else:
            self._send(404, {"detail": "not found"})

    def do_POST(self) -> None:
        if self._refused() or self._unauthorized():
            return
        if self.path.rstrip("/") != "/get_reward":
            self.close_connection = True  # its body, unread, would be taken for the next request
            self._send(404, {"detail": "POST /get_reward"})
            return
        if not is_json(self.headers.get("Content-Type")):
            self.close_connection = True
            self._send(415, {"detail": JSON_REQUIRED})
            return
        length = self.headers.get("Content-Length", "").strip()
        if not (length.isascii() and length.isdigit()):
            self.close_connection = True  # a chunked body, unread, would be taken for the next request
            self._send(411, {"detail": "a Content-Length is required"})
            return
        if len(length) > 18 or int(length) > self.server.max_body_bytes:  # int() of 4,301 digits raises
            self.close_connection = True
            self._send(413, {"detail": f"body larger than {self.server.max_body_bytes} bytes"})
            return
        held = [0]  # bytes of the memory budget this request holds
        try:
            body = self._read_body(int(length), held)
            if body is None:
                self.close_connection = True
                if held[0] < 0:
                    self._send(503, {"detail": "the server's memory for requests is taken: retry"})
                else:
                    self._send(408, {"detail": f"the body did not arrive within {self.server.body_timeout:g} s"})
                return
            parsed = self._parse(body)
            del body
            if isinstance(parsed, tuple) and isinstance(parsed[0], int):
                self._send(*parsed)
                return
            queries, prompts, labels, cost = parsed
            deadline = time.monotonic() + self.server.queue_seconds
            more = cost - held[0] - FREE_BYTES
            if more > self.server.memory.total:
                self._send(413, {"detail": "the labels are too large to judge"})
                return
            if not self.server.memory.take(more, deadline):
                self._send(503, {"detail": f"busy for {self.server.queue_seconds:g} s: retry"})
                return
            held[0] += max(more, 0)
            if not self.server.slots.acquire(timeout=max(deadline - time.monotonic(), 0)):  # queued: wait for a slot
                self._send(503, {"detail": f"busy for {self.server.queue_seconds:g} s: retry"})
                return
            try:
                self._send(*self._answer(queries, prompts, labels))
            finally:
                self.server.slots.release()
        finally:
            self.server.memory.give(held[0])

    def _read_body(self, length: int, held: list[int]) -> bytes | None:
        """The body, or None if it did not all arrive within ``body_timeout`` seconds (or, ``held[0]`` then -1,
        the memory budget had no room for it); bytes past the first ``FREE_BYTES`` take their share of the
        budget (``held[0]``) before they are read."""
        chunks, got = [], 0
        deadline = time.monotonic() + self.server.body_timeout
        try:
            with self.read_within(self.server.body_timeout):
                while got < length:
                    want = min(length - got, 1 << 20)
                    need = got + want - FREE_BYTES - held[0]
                    if need > 0:
                        if not self.server.memory.take(need, deadline):
                            self.server.memory.give(held[0])
                            held[0] = -1
                            return None
                        held[0] += need
                    chunk = self.rfile.read1(want)
                    if not chunk:
                        return None
                    chunks.append(chunk)
                    got += len(chunk)
        except OSError:  # a timeout included
            return None
        return b"".join(chunks)

    def _parse(self, body: bytes) -> tuple[Any, ...]:
        """``(queries, prompts, labels, cost)`` or ``(status, payload)``. One body is parsed at a time and only three
        lists of strings (dict labels as their JSON text) leave it: a body of ``[],`` parses to 25 times its size,
        dropped here. ``cost``: the bytes the request may hold while judged (its strings, and its labels parsed)."""
        bad = (400, {"detail": 'expected JSON {"query": [...], "prompts": [...], "labels": [...]}'})
        with self.server.parsing:
            try:
                data = json.loads(body)
                queries, prompts, labels = data["query"], data.get("prompts"), data.get("labels")
            except (ValueError, KeyError, TypeError, RecursionError):
                return bad
            del data
            if not isinstance(queries, list) or not isinstance(prompts, list) or not isinstance(labels, list):
                return 400, {"detail": "query, prompts and labels must be lists (labels: the problems' JSON)"}
            if len(queries) > self.server.max_batch:
                return 413, {"detail": f"more than {self.server.max_batch} samples in one request"}
            if not len(queries) == len(prompts) == len(labels):
                return 400, {"detail": "query, prompts and labels must have the same length"}
            if not all(isinstance(q, str) for q in queries) or not all(isinstance(p, str) for p in prompts):
                return 400, {"detail": "query and prompts must be lists of strings"}
            if not all(isinstance(label, (str, dict)) for label in labels):
                return 400, {"detail": "each label must be a problem's JSON (text or an object)"}
            labels = [label if isinstance(label, str) else _DictLabel(json.dumps(label)) for label in labels]
        cost = len(body) + sum(len(str(label)) + TOKEN_BYTES * _json_values(str(label)) for label in labels)
        return queries, prompts, labels, cost

    def _answer(self, queries: list[str], prompts: list[str], labels: list[Any]) -> tuple[int, dict[str, Any]]:
        labels = [json.loads(label) if isinstance(label, _DictLabel) else label for label in labels]
        try:
            problems = checked_labels(labels, self.server.max_level)
        except ValueError as exc:
            return 400, {"detail": str(exc)}
        return 200, reward_payload(judge(queries, prompts, problems))

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def serve_reward(host: str = "127.0.0.1", port: int = 5000, **bounds: Any) -> None:
    """Run the reward server in the foreground (``palaestra serve-reward``)."""
    check_binding(host, bounds.get("token"))
    with RewardServer((host, port), **bounds) as server:
        print(f"palaestra reward server on {server.url}", flush=True)
        server.serve_forever()
