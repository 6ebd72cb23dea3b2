"""An OpenAI-compatible chat-completions client with concurrency and retries.

Works with any server that implements ``POST /v1/chat/completions`` (vLLM,
SGLang, llama.cpp, TGI, hosted APIs). Failures are values, never exceptions and
never answers: a reply that could not be had (connection refused, timeout,
HTTP 5xx or 429 after the retries, a body that is not the expected JSON) comes
back as a :class:`Completion` with ``error`` set, so an evaluation records it as
an infrastructure error instead of scoring it as a wrong answer.

A batch runs on one asyncio event loop: ``concurrency`` keep-alive HTTP/1.1
connections (standard library streams), each carrying one request at a time, so
thousands of requests stay in flight on one thread (about 900 requests/s with 1,000
in flight against a loopback server on a loaded 2-core machine, where ``httpx``'s
pool managed about 100). A single request, ``concurrency=1``, or a proxy configured
for the server's host go through ``urllib`` instead (one thread per request in
flight, proxies honoured). Both paths retry alike.

Example::

    from palaestra.integrations.openai_client import OpenAIChatClient

    client = OpenAIChatClient("http://127.0.0.1:8000/v1", model="Qwen2.5-0.5B-Instruct", concurrency=32)
    [reply] = client.complete([[{"role": "user", "content": "What is 2 + 2?"}]])
    print(reply.text if reply.ok else f"failed: {reply.error}")
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import ssl
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from palaestra.tools.formats import from_openai_message

RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504})
MAX_BACKOFF = 30.0


@dataclass(frozen=True)
class Completion:
    """One reply: ``text``, or ``error`` when no reply could be had (then ``text`` is None)."""

    text: str | None
    error: str | None = None
    attempts: int = 1
    seconds: float = 0.0
    finish_reason: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


class _Retryable(Exception):
    def __init__(self, message: str, wait: float | None = None) -> None:
        super().__init__(message)
        self.wait = wait


class _Fatal(Exception):
    pass


class _Unanswered(Exception):
    """The connection failed before any byte of a reply arrived."""


class OpenAIChatClient:
    """Chat completions from ``base_url`` (the API root, e.g. ``http://host:8000/v1``) for ``model``.

    ``concurrency`` requests run at once; each is tried up to ``1 + max_retries``
    times with exponential backoff (``backoff * 2**attempt`` seconds, or the
    server's ``Retry-After``) on connection errors, timeouts, HTTP 408/429/5xx
    and malformed bodies. Other 4xx answers are not retried. ``api_key``
    defaults to ``$OPENAI_API_KEY`` when set; ``extra_body`` is merged into
    every request (e.g. ``{"top_p": 0.95}``).
    """

    def __init__(self, base_url: str, model: str, *, api_key: str | None = None, concurrency: int = 8,
                 max_retries: int = 3, timeout: float = 120.0, backoff: float = 0.5, temperature: float = 1.0,
                 max_tokens: int | None = 1024, extra_body: dict[str, Any] | None = None) -> None:
        base = base_url.rstrip("/")
        self.url = base if base.endswith("/chat/completions") else f"{base}/chat/completions"
        self.model = model
        self.api_key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY")
        self.concurrency = max(1, concurrency)
        self.max_retries = max_retries
        self.timeout = timeout
        self.backoff = backoff
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.extra_body = dict(extra_body or {})

    @property
    def name(self) -> str:
        return f"openai:{self.model}"

    @classmethod
    def from_spec(cls, spec: str, **kwargs: Any) -> OpenAIChatClient:
        """A client from ``URL#MODEL`` (the part after ``openai:`` in ``palaestra eval --model``)."""
        url, sep, model = spec.rpartition("#")
        if not sep or not url or not model:
            raise ValueError(f"expected openai:URL#MODEL, e.g. openai:http://127.0.0.1:8000/v1#my-model, got {spec!r}")
        return cls(url, model, **kwargs)

    def complete(self, conversations: Sequence[Sequence[dict[str, str]]],
                 seeds: Sequence[int | None] | None = None) -> list[Completion]:
        """One reply per conversation, in order; requests run ``concurrency`` at a time."""
        seeds = list(seeds) if seeds is not None else [None] * len(conversations)
        if len(conversations) <= 1 or self.concurrency == 1:
            return [self.request(c, s) for c, s in zip(conversations, seeds)]
        if not _proxied(self.url):
            return _run_coroutine(lambda: self.acomplete(conversations, seeds))
        with ThreadPoolExecutor(max_workers=min(self.concurrency, len(conversations))) as pool:
            return list(pool.map(self.request, conversations, seeds))

    async def acomplete(self, conversations: Sequence[Sequence[dict[str, str]]],
                        seeds: Sequence[int | None] | None = None) -> list[Completion]:
        """:meth:`complete` on the running event loop: ``concurrency`` connections, one request each at a time."""
        seeds = list(seeds) if seeds is not None else [None] * len(conversations)
        jobs: asyncio.Queue[int] = asyncio.Queue()
        for index in range(len(conversations)):
            jobs.put_nowait(index)
        replies: list[Completion | None] = [None] * len(conversations)

        async def worker() -> None:
            connection = _Connection(self.url, self.timeout)
            try:
                for _ in range(len(conversations)):
                    try:
                        index = jobs.get_nowait()
                    except asyncio.QueueEmpty:
                        return
                    data = self._body(conversations[index], seeds[index])
                    replies[index] = await self._aretry(lambda body: connection.post(body, self._headers()), data)
            finally:
                connection.close()

        await asyncio.gather(*(worker() for _ in range(max(1, min(self.concurrency, len(conversations))))))
        return [r if r is not None else Completion(None, "no attempt made") for r in replies]

    def request(self, messages: Sequence[dict[str, str]], seed: int | None = None) -> Completion:
        """One chat completion, retried as configured. Never raises."""
        data = self._body(messages, seed)
        start = time.perf_counter()
        error = "no attempt made"
        for attempt in range(self.max_retries + 1):
            try:
                text, finish = self._post(data)
                return Completion(text, None, attempt + 1, time.perf_counter() - start, finish)
            except _Retryable as exc:
                error = str(exc)
                if attempt < self.max_retries:
                    time.sleep(self._wait(exc, attempt))
            except _Fatal as exc:
                return Completion(None, str(exc), attempt + 1, time.perf_counter() - start)
        return Completion(None, error, self.max_retries + 1, time.perf_counter() - start)

    async def _aretry(self, post: Callable[[bytes], Awaitable[tuple[str, str | None]]], data: bytes) -> Completion:
        start = time.perf_counter()
        error = "no attempt made"
        for attempt in range(self.max_retries + 1):
            try:
                text, finish = await post(data)
                return Completion(text, None, attempt + 1, time.perf_counter() - start, finish)
            except _Retryable as exc:
                error = str(exc)
                if attempt < self.max_retries:
                    await asyncio.sleep(self._wait(exc, attempt))
            except _Fatal as exc:
                return Completion(None, str(exc), attempt + 1, time.perf_counter() - start)
        return Completion(None, error, self.max_retries + 1, time.perf_counter() - start)

    def _wait(self, exc: _Retryable, attempt: int) -> float:
        return min(exc.wait if exc.wait is not None else self.backoff * 2**attempt, MAX_BACKOFF)

    def _body(self, messages: Sequence[dict[str, str]], seed: int | None) -> bytes:
        body: dict[str, Any] = {"model": self.model, "messages": list(messages), "temperature": self.temperature}
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        if seed is not None:
            body["seed"] = seed
        body.update(self.extra_body)
        return json.dumps(body).encode()

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        return headers

    def _post(self, data: bytes) -> tuple[str, str | None]:
        req = urllib.request.Request(self.url, data=data, headers=self._headers(), method="POST")
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as exc:
            detail = _snippet(exc.read() if exc.fp is not None else b"")
            message = f"HTTP {exc.code}: {detail}" if detail else f"HTTP {exc.code}"
            if exc.code in RETRY_STATUS:
                raise _Retryable(message, _retry_after(exc.headers.get("Retry-After"))) from None
            raise _Fatal(message) from None
        except TimeoutError:  # socket.timeout is TimeoutError since Python 3.10
            raise _Retryable(f"timed out after {self.timeout:g} s") from None
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, TimeoutError):
                raise _Retryable(f"timed out after {self.timeout:g} s") from None
            raise _Retryable(f"connection failed: {exc.reason}") from None
        except (OSError, http.client.HTTPException) as exc:  # reset, or closed mid-response
            raise _Retryable(f"connection failed: {exc}") from None
        return _parse(raw)


MAX_BODY_BYTES = 64_000_000  # a reply body larger than this is refused (a retryable error)


class _Connection:
    """One keep-alive HTTP/1.1 connection on asyncio streams (opened on first use, reopened after a failure)."""

    def __init__(self, url: str, timeout: float) -> None:
        parts = urllib.parse.urlsplit(url)
        self.tls = parts.scheme == "https"
        self.host = parts.hostname or "localhost"
        self.port = parts.port or (443 if self.tls else 80)
        self.target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        self.host_header = parts.netloc.rsplit("@", 1)[-1]
        self.timeout = timeout
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, body: bytes, headers: dict[str, str]) -> tuple[str, str | None]:
        # A kept-alive connection the server has meanwhile closed fails before any byte of a reply:
        # such a request was not seen, so it goes again once on a fresh connection, uncounted.
        for fresh in (self.writer is None, True):
            try:
                status, reply_headers, content = await asyncio.wait_for(self._exchange(body, headers), self.timeout)
                break
            except asyncio.TimeoutError:
                self.close()
                raise _Retryable(f"timed out after {self.timeout:g} s") from None
            except _Unanswered as exc:
                self.close()
                if fresh:
                    raise _Retryable(f"connection failed: {exc}") from None
            except (OSError, EOFError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as exc:
                self.close()
                raise _Retryable(f"connection failed: {type(exc).__name__}: {exc}") from None
        if status >= 400:
            detail = _snippet(content)
            message = f"HTTP {status}: {detail}" if detail else f"HTTP {status}"
            if status in RETRY_STATUS:
                raise _Retryable(message, _retry_after(reply_headers.get("retry-after")))
            raise _Fatal(message)
        return _parse(content)

    async def _exchange(self, body: bytes, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        if self.writer is None:
            context = ssl.create_default_context() if self.tls else None
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port, ssl=context,
                                                                     limit=1 << 20)
        assert self.reader is not None
        head = [f"POST {self.target} HTTP/1.1", f"Host: {self.host_header}", f"Content-Length: {len(body)}",
                "Connection: keep-alive", *(f"{k}: {v}" for k, v in headers.items())]
        try:
            self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)
            await self.writer.drain()
            first = await self.reader.readuntil(b"\r\n")
        except (OSError, asyncio.IncompleteReadError) as exc:
            raise _Unanswered(f"{type(exc).__name__}: {exc}") from None
        status_line = first.decode("latin-1").split(" ", 2)
        status = int(status_line[1])
        reply_headers: dict[str, str] = {}
        for _ in range(200):
            line = (await self.reader.readuntil(b"\r\n")).decode("latin-1").rstrip("\r\n")
            if not line:
                break
            name, _, value = line.partition(":")
            reply_headers[name.strip().lower()] = value.strip()
        else:
            raise ValueError("too many response headers")
        content = await self._body(reply_headers)
        connection = reply_headers.get("connection", "").lower()
        if connection == "close" or (status_line[0] == "HTTP/1.0" and connection != "keep-alive"):
            self.close()
        return status, reply_headers, content

    async def _body(self, headers: dict[str, str]) -> bytes:
        assert self.reader is not None
        if "chunked" in headers.get("transfer-encoding", "").lower():
            chunks, total = [], 0
            for _ in range(MAX_BODY_BYTES):
                size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0].strip(), 16)
                if size == 0:
                    while (await self.reader.readuntil(b"\r\n")) != b"\r\n":  # trailers, if any
                        pass
                    return b"".join(chunks)
                total += size
                if total > MAX_BODY_BYTES:
                    raise ValueError("response body too large")
                chunks.append((await self.reader.readexactly(size + 2))[:-2])
            raise ValueError("too many chunks")
        if "content-length" in headers:
            length = int(headers["content-length"])
            if length > MAX_BODY_BYTES:
                raise ValueError("response body too large")
            return await self.reader.readexactly(length)
        content = await self.reader.read(MAX_BODY_BYTES + 1)  # delimited by the server closing the connection
        self.close()
        if len(content) > MAX_BODY_BYTES:
            raise ValueError("response body too large")
        return content

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def _proxied(url: str) -> bool:
    """Whether the environment names a proxy for ``url``'s host (then urllib, which honours it, is used)."""
    parts = urllib.parse.urlsplit(url)
    proxies = urllib.request.getproxies()
    return parts.scheme in proxies and not urllib.request.proxy_bypass(parts.hostname or "")


def _run_coroutine(make: Callable[[], Awaitable[Any]]) -> Any:
    """Run a coroutine to completion from sync code, on a fresh thread if this one already runs an event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(make())  # type: ignore[arg-type]
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = asyncio.run(make())  # type: ignore[arg-type]
        except BaseException as exc:  # handed to the caller's thread
            outcome["error"] = exc

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def _parse(raw: bytes) -> tuple[str, str | None]:
    """The reply text and finish reason of a chat-completions body; malformed bodies are retryable errors."""
    try:
        payload = json.loads(raw)
        choice = payload["choices"][0]
        message = choice["message"]
        content = message.get("content")
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        raise _Retryable(f"malformed response body: {_snippet(raw)!r}") from None
    if content is not None and not isinstance(content, str):
        raise _Retryable(f"malformed response body: content is {type(content).__name__}")
    if message.get("tool_calls"):  # a server that parses tool calls itself: back into the text the env reads
        return from_openai_message(message), choice.get("finish_reason")
    return content or "", choice.get("finish_reason")


def _retry_after(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


def _snippet(raw: bytes, limit: int = 200) -> str:
    return raw[:limit].decode("utf-8", "replace").strip()
