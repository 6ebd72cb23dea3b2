"""An OpenAI-compatible chat-completions client on the standard library, with concurrency and retries.

Works with any server that implements ``POST /v1/chat/completions`` (vLLM,
SGLang, llama.cpp, TGI, hosted APIs). Failures are values, never exceptions and
never answers: a reply that could not be had (connection refused, timeout,
HTTP 5xx or 429 after the retries, a body that is not the expected JSON) comes
back as a :class:`Completion` with ``error`` set, so an evaluation records it as
an infrastructure error instead of scoring it as a wrong answer.

Example::

    from palaestra.integrations.openai_client import OpenAIChatClient

    client = OpenAIChatClient("http://127.0.0.1:8000/v1", model="Qwen2.5-0.5B-Instruct", concurrency=32)
    [reply] = client.complete([[{"role": "user", "content": "What is 2 + 2?"}]])
    print(reply.text if reply.ok else f"failed: {reply.error}")
"""

from __future__ import annotations

import http.client
import json
import os
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

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
        with ThreadPoolExecutor(max_workers=min(self.concurrency, len(conversations))) as pool:
            return list(pool.map(self.request, conversations, seeds))

    def request(self, messages: Sequence[dict[str, str]], seed: int | None = None) -> Completion:
        """One chat completion, retried as configured. Never raises."""
        body: dict[str, Any] = {"model": self.model, "messages": list(messages), "temperature": self.temperature}
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        if seed is not None:
            body["seed"] = seed
        body.update(self.extra_body)
        data = json.dumps(body).encode()
        start = time.perf_counter()
        error = "no attempt made"
        for attempt in range(self.max_retries + 1):
            try:
                text, finish = self._post(data)
                return Completion(text, None, attempt + 1, time.perf_counter() - start, finish)
            except _Retryable as exc:
                error = str(exc)
                if attempt < self.max_retries:
                    time.sleep(min(exc.wait if exc.wait is not None else self.backoff * 2**attempt, MAX_BACKOFF))
            except _Fatal as exc:
                return Completion(None, str(exc), attempt + 1, time.perf_counter() - start)
        return Completion(None, error, self.max_retries + 1, time.perf_counter() - start)

    def _post(self, data: bytes) -> tuple[str, str | None]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        req = urllib.request.Request(self.url, data=data, headers=headers, method="POST")
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


def _parse(raw: bytes) -> tuple[str, str | None]:
    """The reply text and finish reason of a chat-completions body; malformed bodies are retryable errors."""
    try:
        payload = json.loads(raw)
        choice = payload["choices"][0]
        content = choice["message"].get("content")
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        raise _Retryable(f"malformed response body: {_snippet(raw)!r}") from None
    if content is not None and not isinstance(content, str):
        raise _Retryable(f"malformed response body: content is {type(content).__name__}")
    return content or "", choice.get("finish_reason")


def _retry_after(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


def _snippet(raw: bytes, limit: int = 200) -> str:
    return raw[:limit].decode("utf-8", "replace").strip()
