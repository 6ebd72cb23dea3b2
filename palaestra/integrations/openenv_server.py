"""Every palaestra env over HTTP in the OpenEnv protocol (``palaestra serve``), built on ``openenv-core``.

Any OpenEnv client (``openenv.core.GenericEnvClient``, :class:`PalaestraEnvClient`, TRL's
OpenEnv integration, torchforge, SkyRL...) connects to ``ws://HOST:PORT/ws``; each
WebSocket connection is one session with its own environment, and one server process holds
many sessions. A session plays one episode after another:

- **reset** with ``env_id`` (any registered id, or the server's default), ``level``, ``seed``
  and optionally ``tools`` (e.g. ``["python", "calculator"]``), ``max_tool_calls`` and
  ``answer_format``: the observation's ``text`` is the prompt;
- **step** with ``{"text": reply}``: the observation's ``text`` is the env's reply,
  ``reward`` and ``done`` are the step's, and ``verdict`` holds the step's
  :class:`~palaestra.core.problem.Verdict` as a dict (OpenEnv does not send
  ``Observation.metadata`` over the wire, so the verdict is a field of its own).
  ``error`` is set when the reply could not be judged (sandbox down, a step past its time
  limit): not a wrong answer, leave it out of training.

Over plain HTTP (``POST /reset``, ``POST /step``) OpenEnv keeps no session between requests:
a ``/step`` carries the episode itself, ``{"action": {"text": reply, "problem": <reset's
problem>, "history": [earlier replies]}}``, and the server replays the episode
from the problem's ``(env_id, level, seed)`` (so a client cannot alter the problem) before
judging the reply. A ``/step`` without them gets a 400 saying so; WebSocket sessions need
neither. ``tools`` in reset's observation lists the schemas of the tools the episode offers
(those a client asked for, or the ones a tool-use env carries).

Bounds: replies longer than ``max_action_chars`` are refused by validation, WebSocket
messages above ``max_message_bytes`` close the connection and HTTP bodies above it get
413, a reset or step that runs past ``step_timeout`` seconds ends the episode with an
error, sessions idle for ``session_timeout`` seconds are closed by openenv's reaper (the
next message on such a connection gets an error: reconnect), and at most ``max_sessions``
sessions are open at once (the next connection gets OpenEnv's ``CAPACITY_REACHED``).

Example::

    palaestra serve --port 8000 --max-sessions 512            # every env; or --envs games/wordle ...

    from palaestra.integrations.openenv_server import PalaestraAction, PalaestraEnvClient

    with PalaestraEnvClient(base_url="http://127.0.0.1:8000").sync() as env:
        result = env.reset(env_id="games/guess_number", level=0, seed=3)
        while not result.done:
            result = env.step(PalaestraAction(text="<answer>50</answer>"))
        print(result.reward, result.observation.verdict)
"""

from __future__ import annotations

import asyncio
import dataclasses
import difflib
import hmac
import json
import os
import socket
import sys
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any


def _import_openenv_without_its_web_ui() -> None:
    """Import openenv-core's server package without its Gradio web UI, which palaestra does not serve.

    The package imports the UI (gradio: ~4 s of CPU, most of the server's start-up) unless gradio is missing,
    so gradio is made to look missing while the package loads, then restored for anyone who wants it. Should
    a later openenv-core need gradio unconditionally, the import is simply done again, with it.
    """
    if "openenv.core.env_server" in sys.modules or "gradio" in sys.modules:
        return
    sys.modules["gradio"] = None  # type: ignore[assignment]  # an import of gradio now fails as if not installed
    try:
        import openenv.core.env_server  # noqa: F401
    except ImportError:
        for name in [m for m in sys.modules if m.startswith("openenv")]:
            del sys.modules[name]
    finally:
        if "gradio" in sys.modules and sys.modules["gradio"] is None:
            del sys.modules["gradio"]


_import_openenv_without_its_web_ui()

from openenv.core.client_types import StepResult  # noqa: E402
from openenv.core.env_client import EnvClient  # noqa: E402
from openenv.core.env_server import Action, ConcurrencyConfig, Environment, Observation, State, create_fastapi_app  # noqa: E402
from openenv.core.env_server.types import EnvironmentMetadata  # noqa: E402
from pydantic import Field  # noqa: E402

from palaestra.core.browser_guard import allowed_hosts, refusal  # noqa: E402
from palaestra.core.extract import check_format  # noqa: E402
from palaestra.core.http_bounds import EVICT_AFTER  # noqa: E402
from palaestra.core.problem import Verdict  # noqa: E402
from palaestra.core.registry import SERVED_LEVEL_MAX, registry  # noqa: E402
from palaestra.factory import make  # noqa: E402

MAX_ACTION_CHARS = 100_000
MAX_PROBLEM_CHARS = 2_000_000
MAX_HISTORY = 200  # earlier replies a stateless HTTP step may replay
CONFIG_ENV_VAR = "PALAESTRA_SERVE_CONFIG"  # how `palaestra serve --workers N` hands the config to its workers
READY_ENV_VAR = "PALAESTRA_SERVE_READY"  # and the line each worker prints once it is up


@dataclass(frozen=True)
class ServeConfig:
    """What a server offers and its bounds (see the module docstring)."""

    env_ids: tuple[str, ...] = ()  # the envs a client may reset to; empty: every registered env
    default_env_id: str | None = None  # used when a reset names no env_id
    tools: tuple[str, ...] = ("python", "calculator", "search", "open", "sql")  # tools a client may ask for
    max_tool_calls: int = 16
    max_sessions: int = 256
    session_timeout: float = 600.0
    step_timeout: float = 60.0
    max_action_chars: int = MAX_ACTION_CHARS
    max_message_bytes: int = 1_000_000
    header_timeout: float = 10.0  # a new connection must send its request's headers within this
    body_timeout: float = 30.0  # and its body within this once the headers are in
    write_timeout: float = 60.0  # a WebSocket client that reads nothing the server sends for this long is dropped
    max_connections: int = 512  # connections (and tasks) at once; more get 503
    token: str | None = None  # when set, every request needs 'Authorization: Bearer TOKEN'
    max_level: int = SERVED_LEVEL_MAX  # the highest level a reset may ask (far levels take minutes to generate)
    allowed_origins: tuple[str, ...] = ()  # web pages (their Origin) that may use the server; others are refused

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self))

    @classmethod
    def from_json(cls, text: str) -> ServeConfig:
        fields = json.loads(text)
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()})


class PalaestraAction(Action):
    """The model's full reply (a final answer, a game move, or tool calls); over stateless HTTP, the episode too."""

    text: str = Field(..., max_length=MAX_ACTION_CHARS, description="The model's full reply")
    problem: str | None = Field(default=None, max_length=MAX_PROBLEM_CHARS,
                                description="Stateless HTTP /step only: reset's observation.problem (JSON)")
    history: list[str] = Field(default_factory=list, max_length=MAX_HISTORY,
                               description="Stateless HTTP /step only: the episode's earlier replies, in order")


class PalaestraObservation(Observation):
    """The prompt (after reset) or the env's reply (after a step), with the step's verdict."""

    text: str = Field(default="", description="The prompt, or the env's reply to the last step")
    env_id: str = ""
    level: int = 0
    seed: int = 0
    turn: int = 0
    truncated: bool = Field(default=False, description="The episode ended without being won or lost (turns ran out)")
    verdict: dict[str, Any] | None = Field(default=None, description="The step's Verdict: reward, correct, parsed, "
                                                                      "feedback, error")
    error: str | None = Field(default=None, description="Set when the step could not be judged (infrastructure)")
    tools: list[dict[str, Any]] = Field(default_factory=list, description="Tool schemas offered (after reset)")
    problem: str = Field(default="", description="After reset: the problem as JSON (a stateless HTTP /step sends it "
                                                 "back as action.problem; palaestra.score judges replies to it)")


class PalaestraState(State):
    env_id: str = ""
    level: int = 0
    seed: int = 0
    done: bool = True
    total_reward: float = 0.0


class PalaestraEnvironment(Environment[PalaestraAction, PalaestraObservation, PalaestraState]):
    """One session's environment: any palaestra env, chosen at each reset (see the module docstring)."""

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, config: ServeConfig | None = None) -> None:
        super().__init__()
        self.config = config or ServeConfig()
        self._env: Any = None
        self._state = PalaestraState()
        self._closed = False

    # --- OpenEnv API ----------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, episode_id: str | None = None, env_id: str | None = None,
              level: int = 0, tools: Sequence[str] | None = None, max_tool_calls: int | None = None,
              answer_format: str | None = None, **unused: Any) -> PalaestraObservation:
        self._check_open()
        env_id = self._allowed_env(env_id)
        tool_names = self._allowed_tools(tools)
        calls = self.config.max_tool_calls if max_tool_calls is None else max_tool_calls
        if not _is_int(calls) or not 0 <= calls <= self.config.max_tool_calls:
            raise RequestError(f"max_tool_calls must be an integer in [0, {self.config.max_tool_calls}]")
        if seed is not None and (not _is_int(seed) or seed < 0):
            raise RequestError("seed must be a non-negative integer")
        spec = registry[env_id]
        try:
            level = spec.served_level(level, self.config.max_level)
            if answer_format is not None:
                if not isinstance(answer_format, str):
                    raise ValueError(f"answer_format must be text, not {type(answer_format).__name__}")
                check_format(answer_format, spec.multiline, spec.id)
        except ValueError as exc:
            raise RequestError(str(exc)) from None
        self._release()
        try:
            env = make(env_id, level=level, answer_format=answer_format, tools=tool_names or None,
                       max_tool_calls=calls)
        except (TypeError, ValueError) as exc:  # the options do not fit this env (e.g. a tool it cannot take)
            raise RequestError(str(exc)[:300]) from None
        prompt, info = env.reset(seed=seed)
        self._env = env
        self._state = PalaestraState(episode_id=episode_id, step_count=0, env_id=info["env_id"],
                                     level=info["level"], seed=info["seed"], done=False)
        return PalaestraObservation(text=prompt, env_id=info["env_id"], level=info["level"], seed=info["seed"],
                                    tools=list(info.get("tools", [])), reward=None, done=False,
                                    problem=info["problem"].to_json(), metadata={"problem": info["problem"].to_json()})

    def step(self, action: PalaestraAction, timeout_s: float | None = None, **unused: Any) -> PalaestraObservation:
        self._check_open()
        if self._env is None and action.problem is not None:
            self._replay(action.problem, action.history)
        if self._env is None or self._state.done:
            raise RequestError("reset before stepping, and again after the episode ended (over plain HTTP, where "
                               "no session is kept, send the episode with the step: action.problem = reset's "
                               "observation.problem and action.history = the earlier replies)")
        text, reward, terminated, truncated, info = self._env.step(action.text)
        return self._observe(text, float(reward), terminated, truncated, info["verdict"])

    def _replay(self, problem_json: str, history: Sequence[str]) -> None:
        """Rebuild a stateless HTTP step's episode: the problem from its identity, then the earlier replies."""
        from palaestra.core.scoring import to_problem

        try:
            problem = to_problem(problem_json)
        except (KeyError, LookupError, TypeError, ValueError) as exc:
            raise RequestError(f"action.problem is not a palaestra problem: {exc}") from None
        if not problem.env_id:
            raise RequestError("action.problem is not a palaestra problem: it names no env_id")
        self.reset(env_id=problem.env_id, level=problem.level, seed=problem.seed,
                   answer_format=problem.answer_format)
        if self._env.unwrapped.problem.to_json() != problem.to_json():
            self._release()
            raise RequestError("action.problem is not the problem its (env_id, level, seed) generates here "
                               "(another version of the env, or an edited problem)")
        for reply in history:
            if self._state.done:
                raise RequestError("action.history holds replies past the end of the episode")
            text, reward, terminated, truncated, info = self._env.step(reply)
            self._observe(text, float(reward), terminated, truncated, info["verdict"])

    async def reset_async(self, seed: int | None = None, episode_id: str | None = None,
                          **kwargs: Any) -> PalaestraObservation:
        call = partial(self.reset, seed=seed, episode_id=episode_id, **kwargs)
        try:
            return await asyncio.wait_for(asyncio.to_thread(call), self.config.step_timeout)
        except asyncio.TimeoutError:
            self._env = None  # its thread may still be running: never touch it again
            raise Overloaded(f"the reset took longer than this server's --step-timeout ({self.config.step_timeout:g} "
                             "s): the server is busy, try again") from None

    async def step_async(self, action: PalaestraAction, timeout_s: float | None = None,
                         **kwargs: Any) -> PalaestraObservation:
        limit = min(timeout_s, self.config.step_timeout) if timeout_s else self.config.step_timeout
        try:
            return await asyncio.wait_for(asyncio.to_thread(self.step, action), limit)
        except asyncio.TimeoutError:
            self._env = None  # its thread may still be running: never touch it again
            verdict = Verdict.failed(f"the step took longer than {limit:g} s")
            return self._observe(verdict.feedback, 0.0, False, True, verdict)

    @property
    def state(self) -> PalaestraState:
        return self._state

    def get_metadata(self) -> EnvironmentMetadata:
        from palaestra import __version__

        return EnvironmentMetadata(name="palaestra", version=__version__,
                                   description="Procedurally generated, program-verified environments: reset with "
                                               "env_id, level and seed, step with the model's reply.")

    def close(self) -> None:
        """End the session (openenv calls it on disconnect and when the session idles out)."""
        self._closed = True
        self._release()

    # --- helpers ----------------------------------------------------------------------------------------
    def _observe(self, text: str, reward: float, terminated: bool, truncated: bool,
                 verdict: Verdict) -> PalaestraObservation:
        done = bool(terminated or truncated)
        state = self._state
        self._state = state.model_copy(update={"step_count": state.step_count + 1, "done": done,
                                               "total_reward": state.total_reward + reward})
        if done:
            self._release()
        verdict_dict = dataclasses.asdict(verdict)
        return PalaestraObservation(text=text, env_id=state.env_id, level=state.level, seed=state.seed,
                                    turn=state.step_count + 1, truncated=bool(truncated and not terminated),
                                    verdict=verdict_dict, error=verdict.error, reward=reward, done=done,
                                    metadata={"verdict": verdict_dict})

    def _allowed_env(self, env_id: str | None) -> str:
        env_id = env_id or self.config.default_env_id
        if not env_id:
            raise RequestError("reset needs an env_id (this server has no default env)")
        if env_id not in registry:
            close = difflib.get_close_matches(env_id, list(registry.ids()), n=3)
            hint = f"did you mean {', '.join(close)}? " if close else ""
            raise RequestError(f"unknown env id {env_id!r}: {hint}`palaestra list` shows every env id")
        allowed = self.config.env_ids
        if allowed and registry[env_id].id not in {registry[e].id for e in allowed}:
            raise RequestError(f"this server does not offer {env_id!r}; it offers {list(allowed)}")
        return env_id

    def _allowed_tools(self, tools: Sequence[str] | None) -> list[str]:
        names = [tools] if isinstance(tools, str) else [] if tools is None else tools
        if not isinstance(names, list) or not all(isinstance(t, str) for t in names):
            raise RequestError("tools must be a list of tool names")
        if len(set(names)) != len(names):
            raise RequestError("tools names a tool twice")
        refused = [t[:40] for t in names if t not in self.config.tools][:10]
        if refused:
            raise RequestError(f"this server does not offer the tools {refused}; it offers {list(self.config.tools)}")
        return names

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("this session was closed (idle too long, or shut down): open a new connection")

    def _release(self) -> None:
        env, self._env = self._env, None
        if env is not None:
            env.close()


class RequestError(ValueError):
    """A client's request the server cannot serve (unknown env id, a tool it does not offer): a 400."""


class Overloaded(RuntimeError):
    """The server could not do the work in time (a reset past ``step_timeout``): a 503 the client may retry."""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def create_app(config: ServeConfig | None = None) -> Any:
    """The FastAPI app serving palaestra in the OpenEnv protocol (HTTP bodies bounded by ``max_message_bytes``)."""
    config = config or ServeConfig()
    for env_id in (*config.env_ids, *([config.default_env_id] if config.default_env_id else [])):
        registry[env_id]  # fail at start-up, not at the first reset
    app = create_fastapi_app(partial(PalaestraEnvironment, config), PalaestraAction, PalaestraObservation,
                             concurrency_config=ConcurrencyConfig(max_concurrent_envs=config.max_sessions,
                                                                  session_timeout=config.session_timeout))
    app.add_middleware(_McpWithoutSessions)
    app.add_middleware(_BodyLimit, limit=config.max_message_bytes, timeout=config.body_timeout)
    app.add_middleware(_WebSocketBounds, idle=config.session_timeout)
    app.add_middleware(_QuietDisconnect)
    if config.token:
        app.add_middleware(_TokenCheck, token=config.token)
    app.add_middleware(_BrowserGuard, origins=config.allowed_origins, token=bool(config.token))

    async def refused(request: Any, exc: Exception) -> Any:
        from fastapi.responses import JSONResponse

        return JSONResponse({"detail": str(exc)}, status_code=400)

    async def overloaded(request: Any, exc: Exception) -> Any:
        from fastapi.responses import JSONResponse

        return JSONResponse({"detail": str(exc)}, status_code=503, headers={"retry-after": "1"})

    app.add_exception_handler(RequestError, refused)
    app.add_exception_handler(Overloaded, overloaded)

    async def thread_per_client() -> None:
        # A step past --step-timeout keeps its thread (Python cannot stop it) until its work ends, e.g. a run of
        # sandboxed tool calls: with asyncio's default pool (CPUs + 4 threads) six such steps starved every other
        # client. Threads are made as needed, at most one per session and connection.
        workers = min(config.max_sessions + config.max_connections, 4096)
        asyncio.get_running_loop().set_default_executor(
            ThreadPoolExecutor(max_workers=workers, thread_name_prefix="palaestra-step"))

    app.router.on_startup.append(thread_per_client)
    return app


class _TokenCheck:
    """ASGI middleware: every HTTP request and WebSocket needs 'Authorization: Bearer TOKEN'."""

    def __init__(self, app: Any, token: str) -> None:
        self.app = app
        self.token = token.encode()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            scheme, _, given = dict(scope.get("headers") or []).get(b"authorization", b"").partition(b" ")
            if scheme.lower() != b"bearer" or not hmac.compare_digest(given.strip(), self.token):
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008})
                    return
                body = b'{"detail": "a valid \'Authorization: Bearer TOKEN\' header is required"}'
                await send({"type": "http.response.start", "status": 401, "headers": [
                    (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def app_from_environment() -> Any:
    """The app for the config in ``$PALAESTRA_SERVE_CONFIG``: uvicorn's factory for ``--workers N`` (each worker
    prints ``$PALAESTRA_SERVE_READY`` with its process id once its app is up)."""
    text = os.environ.get(CONFIG_ENV_VAR)
    app = create_app(ServeConfig.from_json(text) if text else None)
    ready = os.environ.get(READY_ENV_VAR)
    if ready:
        app.router.on_startup.append(lambda: print(f"{ready} (worker {os.getpid()})", flush=True))
    return app


class _BrowserGuard:
    """ASGI middleware: a request a web page may have sent is refused (the rules of
    :mod:`palaestra.core.browser_guard`: a foreign ``Host`` without a token, 421; an ``Origin`` other than
    the server's own or an ``--allow-origin``, 403); a WebSocket is closed with 1008 instead."""

    def __init__(self, app: Any, origins: Sequence[str], token: bool) -> None:
        self.app = app
        self.origins = tuple(origins)
        self.token = token
        self.hosts = allowed_hosts("127.0.0.1")  # without a token the server listens on loopback only

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            headers = {name.decode("latin-1").title(): value.decode("latin-1")
                       for name, value in scope.get("headers") or [] if name in (b"host", b"origin")}
            refused = refusal(headers, self.hosts, self.token, self.origins)
            if refused is not None:
                status, why = refused
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008, "reason": why[:120]})
                    return
                body = json.dumps({"detail": why}).encode()
                await send({"type": "http.response.start", "status": status, "headers": [
                    (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def _is_work(text: str | None) -> bool:
    """Whether a WebSocket message asks for a reset or a step (the session's activity)."""
    try:
        message = json.loads(text) if text is not None and len(text) < 4_000_000 else None
    except (ValueError, RecursionError):
        return False
    return isinstance(message, dict) and message.get("type") in ("reset", "step")


class _McpWithoutSessions:
    """ASGI middleware: over plain HTTP, ``POST /mcp`` neither opens, closes nor uses a session. openenv-core's
    ``openenv/session/create`` opens one that no connection holds (and a call naming it keeps it alive), so
    clients could fill every session slot without a socket; and any client knowing an id could close it.
    Sessions are opened over the ``/ws`` WebSocket, one per connection; ``POST /mcp`` keeps its stateless calls
    (the OpenEnv HTTP profile requires the endpoint)."""

    REFUSED = {"openenv/session/create", "openenv/session/close"}

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("path") != "/mcp" or scope.get("method") != "POST":
            await self.app(scope, receive, send)
            return
        chunks = []
        while True:  # the body (bounded in size and time by _BodyLimit, outside this middleware)
            message = await receive()
            chunks.append(message.get("body", b""))
            if message["type"] != "http.request" or not message.get("more_body"):
                break
        body = b"".join(chunks)
        try:
            request = json.loads(body)
        except (ValueError, RecursionError):
            request = None
        if isinstance(request, dict) and (request.get("method") in self.REFUSED or (
                isinstance(request.get("params"), dict) and "session_id" in request["params"])):
            reply = json.dumps({"jsonrpc": "2.0", "id": request.get("id"), "error": {
                "code": -32600, "message": "palaestra serves sessions over the /ws WebSocket (one per connection); "
                                           "POST /mcp takes stateless calls only"}}).encode()
            await send({"type": "http.response.start", "status": 200, "headers": [
                (b"content-type", b"application/json"), (b"content-length", str(len(reply)).encode())]})
            await send({"type": "http.response.body", "body": reply})
            return
        replayed = False

        async def replay() -> dict[str, Any]:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


class _WebSocketBounds:
    """ASGI middleware for WebSockets: a connection that sends nothing for ``idle`` seconds is closed (1001; its
    session idles out at the same time, and an open socket kept only by pings would hold a connection slot
    forever), and a binary frame is refused (1003: the protocol's messages are JSON text). One timer per
    connection, re-armed only when it fires (a timeout around each receive cost ~20% of the server's CPU)."""

    def __init__(self, app: Any, idle: float) -> None:
        self.app = app
        self.idle = idle

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        loop = asyncio.get_running_loop()
        last = loop.time()
        closing: list[asyncio.Task[None]] = []
        timer: asyncio.TimerHandle | None = None

        def check() -> None:
            nonlocal timer
            if loop.time() - last >= self.idle:  # the client's reply to the close ends the app's receive
                closing.append(loop.create_task(send({"type": "websocket.close", "code": 1001,
                                                      "reason": "idle too long"})))
            else:
                timer = loop.call_at(last + self.idle, check)

        async def watched_receive() -> dict[str, Any]:
            nonlocal last
            message = await receive()
            if message["type"] == "websocket.receive" and _is_work(message.get("text")):
                last = loop.time()  # a reset or a step: "state" alone keeps no closed session's socket open
            if message["type"] == "websocket.receive" and message.get("text") is None:
                await send({"type": "websocket.close", "code": 1003, "reason": "send JSON text frames"})
                return {"type": "websocket.disconnect", "code": 1003}
            return message

        timer = loop.call_at(last + self.idle, check)
        try:
            await self.app(scope, watched_receive, send)
        finally:
            timer.cancel()


class _BodyLimit:
    """ASGI middleware: HTTP requests whose declared or actual body exceeds ``limit`` bytes get 413."""

    def __init__(self, app: Any, limit: int, timeout: float = 30.0) -> None:
        self.app = app
        self.limit = limit
        self.timeout = timeout

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await _too_large(send)
            return
        seen = 0

        deadline = asyncio.get_running_loop().time() + self.timeout

        async def bounded_receive() -> dict[str, Any]:
            nonlocal seen
            left = deadline - asyncio.get_running_loop().time()
            try:
                message = await asyncio.wait_for(receive(), max(left, 0.001))
            except asyncio.TimeoutError:
                raise _BodyTimeout() from None
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise _TooLarge()
            return message

        try:
            await self.app(scope, bounded_receive, send)
        except _TooLarge:
            await _too_large(send)
        except _BodyTimeout:
            body = b'{"detail": "the request body did not arrive in time"}'
            await send({"type": "http.response.start", "status": 408, "headers": [
                (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                (b"connection", b"close")]})
            await send({"type": "http.response.body", "body": body})


class _TooLarge(Exception):
    pass


class _BodyTimeout(BaseException):
    """Not an Exception: FastAPI would turn one raised while it reads the body into a vague 400."""


class _QuietDisconnect:
    """ASGI middleware: a WebSocket client that leaves is not a server error (openenv-core 0.3 closes the
    socket again after the client's close, and that raises ``WebSocketDisconnect``, which uvicorn logs)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        from starlette.websockets import WebSocketDisconnect

        try:
            await self.app(scope, receive, send)
        except WebSocketDisconnect:
            if scope["type"] != "websocket":
                raise


async def _too_large(send: Any) -> None:
    body = b'{"detail": "request body too large"}'
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def _guarded_h11(header_timeout: float) -> type:
    """uvicorn's h11 protocol, closing a connection that has not sent a request's headers within
    ``header_timeout`` seconds (uvicorn closes idle connections only after a first response), and, when a new
    connection finds every one of ``--max-connections`` taken, closing those that have waited longest for a request
    (none yet, headers trickling, or keep-alive) once they have waited ``EVICT_AFTER`` seconds: uvicorn accepts every
    connection and answers 503 past the cap, so 600 silent sockets made every other client's request a 503 until
    the header timeout. (Sockets younger than that keep their slot: a client renewing more than the cap of them
    every ``EVICT_AFTER`` seconds still makes others' requests 503s, clearly refused.)"""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class GuardedH11Protocol(H11Protocol):
        since = 0.0  # when it began waiting for a request

        def connection_made(self, transport: Any) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.since = self.loop.time()
            self._headers_due = self.loop.call_later(header_timeout, self._headers_late)
            if self.limit_concurrency is not None and len(self.connections) >= self.limit_concurrency:
                self._make_room()

        def _waiting(self) -> bool:
            """Whether it waits for a request (or its headers), holding only a connection slot."""
            return ((self.cycle is None or self.cycle.response_complete) and not self.transport.is_closing()
                    and self.transport.get_protocol() is self)

        def _make_room(self) -> None:
            now, limit = self.loop.time(), self.limit_concurrency or 0
            waiting = sorted((c for c in self.connections if c is not self and isinstance(c, GuardedH11Protocol)
                              and now - c.since >= EVICT_AFTER and c._waiting()), key=lambda c: c.since)
            for other in waiting[:len(self.connections) - limit + 1]:
                other.transport.close()
                self.connections.discard(other)  # now: uvicorn's 503 counts this set before the close completes

        def handle_events(self) -> None:
            if self.limit_concurrency is not None and len(self.connections) >= self.limit_concurrency:
                self._make_room()  # a request may be in: room for it, not a 503, while others only wait
            super().handle_events()

        def on_response_complete(self) -> None:
            self.since = self.loop.time()
            super().on_response_complete()

        def _headers_late(self) -> None:
            # Only while this protocol still owns the connection: a WebSocket upgrade hands it to another one.
            if self.cycle is None and not self.transport.is_closing() and self.transport.get_protocol() is self:
                self.transport.close()

        def handle_websocket_upgrade(self, event: Any) -> None:
            self._headers_due.cancel()  # the headers came; the WebSocket's own bounds apply from now on
            super().handle_websocket_upgrade(event)

        def connection_lost(self, exc: Exception | None) -> None:
            self._headers_due.cancel()
            super().connection_lost(exc)

    return GuardedH11Protocol


def _guarded_websockets(stall_seconds: float = 60.0) -> type:
    """uvicorn's WebSocket protocol (websockets' sans-I/O one, uvicorn's default), reading no more from a client
    while the pongs it asked for wait unsent, and dropping a client that has read nothing of what the server sent
    for ``stall_seconds``: it answered every ping as it parsed it, whether or not the client read, so a client
    sending pings and reading nothing grew the server by ~24 MB a second without end; and a close frame waits for
    the client to read, so one that never does held its connection for ever."""
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

    class GuardedWebSocketsProtocol(WebSocketsSansIOProtocol):
        pong_paused = False
        stalled: asyncio.TimerHandle | None = None

        def handle_ping(self) -> None:
            super().handle_ping()
            if not self.writable.is_set():  # the write buffer is past its high-water mark: read no more pings
                self.pong_paused = True
                self.transport.pause_reading()

        def pause_writing(self) -> None:
            super().pause_writing()
            if self.stalled is None:
                self.stalled = self.loop.call_later(stall_seconds, self.transport.abort)

        def resume_writing(self) -> None:
            super().resume_writing()
            if self.stalled is not None:
                self.stalled.cancel()
                self.stalled = None
            if self.pong_paused:
                self.pong_paused = False
                if not self.read_paused and not self.transport.is_closing():
                    self.transport.resume_reading()

        def connection_lost(self, exc: Exception | None) -> None:
            if self.stalled is not None:
                self.stalled.cancel()
                self.stalled = None
            super().connection_lost(exc)

    return GuardedWebSocketsProtocol


_PROTOCOLS: dict[str, type] = {}


def __getattr__(name: str) -> type:
    """``GuardedH11Protocol`` and ``GuardedWebSocketsProtocol`` for the config in ``$PALAESTRA_SERVE_CONFIG``: what
    a ``--workers N`` worker imports by name (uvicorn's ``http=`` and ``ws=`` take ``module:attribute``)."""
    if name not in ("GuardedH11Protocol", "GuardedWebSocketsProtocol"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if name not in _PROTOCOLS:
        text = os.environ.get(CONFIG_ENV_VAR)
        config = ServeConfig.from_json(text) if text else ServeConfig()
        _PROTOCOLS["GuardedH11Protocol"] = _guarded_h11(config.header_timeout)
        _PROTOCOLS["GuardedWebSocketsProtocol"] = _guarded_websockets(config.write_timeout)
    return _PROTOCOLS[name]


def uvicorn_options(config: ServeConfig) -> dict[str, Any]:
    """uvicorn settings matching ``config``'s bounds (WebSocket message size, keep-alive, header deadline,
    connection cap, a client's unread pongs)."""
    return {"ws_max_size": config.max_message_bytes, "timeout_keep_alive": 30, "log_level": "warning",
            "http": _guarded_h11(config.header_timeout), "ws": _guarded_websockets(config.write_timeout),
            "limit_concurrency": config.max_connections}


def check_binding(host: str, token: str | None) -> None:
    """Refuse to listen beyond this machine without a token (``--token`` or $PALAESTRA_SERVER_TOKEN)."""
    if host not in ("127.0.0.1", "::1", "localhost") and not token:
        raise SystemExit(f"refusing to listen on {host!r} without a token: anyone who can reach it could run code in "
                         "the sandbox. Give --token (or $PALAESTRA_SERVER_TOKEN) and send 'Authorization: Bearer TOKEN'.")


def serve(host: str = "127.0.0.1", port: int = 8000, config: ServeConfig | None = None, workers: int = 1,
          ready: str | None = None) -> None:
    """Run the server in the foreground (``palaestra serve``); ``workers > 1`` runs that many processes.

    ``ready`` is printed once the server listens (with several workers, once per worker: ``ready`` then names
    the worker's process), never before it can answer.
    """
    import uvicorn

    config = config or ServeConfig()
    check_binding(host, config.token)
    if workers > 1:  # each worker builds its own app, and its protocols, from the config in the environment
        os.environ[CONFIG_ENV_VAR] = config.to_json()
        if ready:
            os.environ[READY_ENV_VAR] = ready
        # the workers are spawned: the config travels pickled, so the protocols go by name (classes made here are
        # not importable there: "Can't pickle local object GuardedH11Protocol" stopped every --workers N start)
        options = {**uvicorn_options(config), "http": f"{__name__}:GuardedH11Protocol",
                   "ws": f"{__name__}:GuardedWebSocketsProtocol"}
        uvicorn.run(f"{__name__}:app_from_environment", factory=True, host=host, port=port, workers=workers,
                    **options)
        return
    server = _AnnouncingServer(uvicorn.Config(create_app(config), host=host, port=port, **uvicorn_options(config)))
    server.ready = ready
    server.run()


def _announcing_server_class() -> type:
    import uvicorn

    class AnnouncingServer(uvicorn.Server):
        """A uvicorn server that prints ``ready`` once its sockets listen."""

        ready: str | None = None

        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets=sockets)
            if self.ready and self.started:
                print(self.ready, flush=True)

    return AnnouncingServer


def _AnnouncingServer(config: Any) -> Any:  # noqa: N802 - a class, built on first use (uvicorn is imported late)
    return _announcing_server_class()(config)


class BackgroundServer:
    """A server on a thread of this process (tests, notebooks); ``port=0`` picks a free port.

    >>> server = BackgroundServer(create_app(ServeConfig(max_sessions=4)))   # doctest: +SKIP
    >>> server.url                                                            # doctest: +SKIP
    'http://127.0.0.1:41234'
    """

    def __init__(self, app: Any, host: str = "127.0.0.1", port: int = 0, ws_max_size: int = 1_000_000,
                 start_timeout: float = 30.0, config: ServeConfig | None = None) -> None:
        import uvicorn

        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        self.host, self.port = host, sock.getsockname()[1]
        options = uvicorn_options(config) if config is not None else {"ws_max_size": ws_max_size,
                                                                      "log_level": "warning"}
        self.server = uvicorn.Server(uvicorn.Config(app, lifespan="on", **options))
        self._thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]}, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + start_timeout
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        if not self.server.started:
            raise RuntimeError(f"the server did not start within {start_timeout:g} s")

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def close(self) -> None:
        self.server.should_exit = True
        self._thread.join(timeout=10)

    def __enter__(self) -> BackgroundServer:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class PalaestraEnvClient(EnvClient[PalaestraAction, PalaestraObservation, PalaestraState]):
    """OpenEnv's WebSocket client, typed for palaestra (``.sync()`` for a blocking one)."""

    def _step_payload(self, action: PalaestraAction) -> dict[str, Any]:
        return {"text": action.text}

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[PalaestraObservation]:
        observation = PalaestraObservation(**payload.get("observation", {}), reward=payload.get("reward"),
                                           done=bool(payload.get("done", False)))
        return StepResult(observation=observation, reward=payload.get("reward"), done=bool(payload.get("done")))

    def _parse_state(self, payload: dict[str, Any]) -> PalaestraState:
        return PalaestraState(**payload)
