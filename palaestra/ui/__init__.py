"""``palaestra ui``: a local web playground and catalogue of every environment.

One page (``page.html``, no external assets, works offline) served by the standard library's HTTP
server on 127.0.0.1. It lists every env with filters (family, tag, turns, tool use, text), shows an
env's description, example problems per level with the reference answer on demand, the difficulty
measure and the oracle's and random play's scores per level as charts, and plays episodes: type an
answer or a move, see the verdict and the feedback, replay the episode through ``palaestra.score``.

The JSON API the page uses (also handy from scripts)::

    GET  /api/envs                         every env: id, version, family, turns, levels, tags, description
    GET  /api/problem?id=ID&level=L&seed=S  a problem's prompt (no reference)
    GET  /api/answer?id=ID&level=L&seed=S   its reference answer (multi-turn: none; use /api/hint)
    GET  /api/stats?id=ID                   per level: mean difficulty, oracle and random scores (cached)
    POST /api/reset  {"id", "level", "seed"}         a new episode: session, prompt
    POST /api/step   {"session", "text"}             one answer or move: observation, reward, verdict
    POST /api/hint   {"session"}                     the oracle's next move (it reads the secret: a hint)
    POST /api/replay {"session"}                     the episode so far judged again by palaestra.score

Levels are those the env accepts, at most ``max_level`` (``--max-level``, default 9): an unbounded env's far
levels take unbounded time to generate. Episode ids are random (an id is what lets a client play, replay or
take hints for an episode), and the most recently used ``MAX_SESSIONS`` episodes are kept. A web page in the
browser cannot drive the server: requests addressed to another ``Host`` (DNS rebinding) get 421, a foreign
``Origin`` 403, and POST bodies must be ``application/json`` (415 otherwise; see
:mod:`palaestra.core.browser_guard`).

Bound beyond loopback, the playground requires a token (``$PALAESTRA_SERVER_TOKEN``; ``serve_ui(token=...)``): it
plays code envs, whose replies run in the sandbox, and shows reference answers, so it refuses to start without one.
Every request then carries ``Authorization: Bearer TOKEN`` or the cookie the page gets by opening
``/?token=TOKEN`` once (``HttpOnly``, ``SameSite=Strict``; the token is compared in constant time); others get 401.

Example::

    palaestra ui --port 8765      # then open http://127.0.0.1:8765/
"""

from __future__ import annotations

import hmac
import json
import os
import re
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlparse

from palaestra.core.browser_guard import JSON_REQUIRED, allowed_hosts, is_json, refusal
from palaestra.core.extract import CLOSE_TAG, wrap
from palaestra.core.http_bounds import BoundedHandler, BoundedHTTPServer
from palaestra.core.problem import Verdict
from palaestra.core.registry import SERVED_LEVEL_MAX, make_source, registry
from palaestra.core.scoring import score

MAX_BODY_BYTES = 1_000_000
MAX_SESSIONS = 256
MAX_CONNECTIONS = 64  # connections served at once (a thread each); more wait in the listen queue
IDLE_SECONDS = 30  # a keep-alive connection idle this long is closed
HEADER_SECONDS = 10  # a request's line and headers, in all (a byte at a time used to hold a thread for ever)
BODY_SECONDS = 30
STATS_SEEDS = 6  # problems per level behind each chart point: enough to show the trend, quick to compute
LOOPBACK = ("127.0.0.1", "localhost", "::1")
TOKEN_ENV = "PALAESTRA_SERVER_TOKEN"
COOKIE = "palaestra_token"
_COUNT = re.compile(r"[0-9]{1,18}")


@dataclass
class Session:
    """One episode being played in the page."""

    env: Any
    replies: list[str] = field(default_factory=list)
    total: float = 0.0
    done: bool = False


class Playground:
    """The page's state: open episodes (least recently used evicted past ``max_sessions``) and cached stats.

    Episode ids are random (``secrets.token_urlsafe``): holding one is what lets a client play an episode.
    Levels are checked by the env's ``served_level``: at most ``max_level``.
    """

    def __init__(self, max_sessions: int = MAX_SESSIONS, max_level: int = SERVED_LEVEL_MAX) -> None:
        self.max_sessions = max_sessions
        self.max_level = max_level
        self.sessions: OrderedDict[str, Session] = OrderedDict()
        self.stats: dict[str, list[dict[str, Any]]] = {}
        self.lock = threading.Lock()

    def level(self, env_id: str, level: object) -> int:
        """A level a client gave, checked (ValueError: out of range or not an int; KeyError: no such env)."""
        return registry[env_id].served_level(level, self.max_level)

    # --- catalogue ----------------------------------------------------------------
    def envs(self) -> list[dict[str, Any]]:
        return [{"id": s.id, "version": s.version, "family": s.family, "turns": s.turns, "levels": s.levels,
                 "tags": list(s.tags), "description": s.description,
                 "tools": s.family == "tools" or "tools" in s.tags or "tool-use" in s.tags}
                for s in registry.specs()]

    def problem(self, env_id: str, level: object, seed: int, reveal: bool = False) -> dict[str, Any]:
        level = self.level(env_id, level)
        problem = make_source(env_id).sample(level, seed)
        reply = {"id": problem.env_id, "version": problem.version, "level": level, "seed": seed,
                 "prompt": problem.prompt, "answer_format": problem.answer_format}
        if reveal:
            reply["answer"] = problem.answer
        return reply

    def level_stats(self, env_id: str) -> list[dict[str, Any]]:
        """Mean difficulty and the oracle's and random play's mean reward per preset level (computed once)."""
        from palaestra.baselines.evaluate import run_episodes
        from palaestra.baselines.policies import OraclePolicy, RandomPolicy

        if env_id in self.stats:
            return self.stats[env_id]
        source = make_source(env_id)
        levels = list(range(min(source.levels(), 5)))
        by_level: dict[int, dict[str, Any]] = {level: {"level": level} for level in levels}
        for level in levels:
            for policy in (OraclePolicy(), RandomPolicy(seed=0)):
                row = run_episodes(env_id, policy, [level], range(STATS_SEEDS))
                by_level[level][row.policy] = round(row.mean_reward, 4)
        for level in levels:
            values = [float(source.difficulty(source.sample(level, seed))) for seed in range(STATS_SEEDS)]
            by_level[level]["difficulty"] = round(sum(values) / len(values), 4)
        self.stats[env_id] = [by_level[level] for level in levels]
        return self.stats[env_id]

    # --- episodes -----------------------------------------------------------------
    def reset(self, env_id: str, level: object, seed: int) -> dict[str, Any]:
        from palaestra.factory import make

        level = self.level(env_id, level)
        env = make(env_id, level=level)
        prompt, info = env.reset(seed=seed)
        key = secrets.token_urlsafe(16)
        with self.lock:
            self.sessions[key] = Session(env)
            while len(self.sessions) > self.max_sessions:
                _, old = self.sessions.popitem(last=False)
                old.env.close()
        problem = info["problem"]
        return {"session": key, "prompt": prompt, "turns": registry[env_id].turns,
                "answer_format": problem.answer_format, "level": level, "seed": seed}

    def _session(self, key: str) -> Session:
        with self.lock:
            if key not in self.sessions:
                raise LookupError(f"no open episode {key[:40]!r}: an unknown id, or evicted (the playground keeps the "
                                  f"{self.max_sessions} most recently used episodes), or the server restarted: "
                                  "start a new one")
            self.sessions.move_to_end(key)
            return self.sessions[key]

    def step(self, key: str, text: str) -> dict[str, Any]:
        session = self._session(key)
        if session.done:
            raise LookupError("this episode has ended: start a new one")
        env = session.env
        fmt = env.unwrapped.problem.answer_format
        action = text if CLOSE_TAG in text or fmt not in ("tag", "boxed") else wrap(text, fmt)
        observation, reward, terminated, truncated, info = env.step(action)
        session.replies.append(action)
        session.total += float(reward)
        session.done = bool(terminated or truncated)
        verdict: Verdict = info["verdict"]
        return {"observation": observation, "reward": float(reward), "total": session.total,
                "terminated": bool(terminated), "truncated": bool(truncated), "done": session.done,
                "verdict": {"correct": verdict.correct, "parsed": verdict.parsed, "feedback": verdict.feedback,
                            "error": verdict.error},
                "answer": env.unwrapped.problem.answer if session.done else None}

    def hint(self, key: str) -> dict[str, Any]:
        session = self._session(key)
        env = session.env
        if session.done:
            raise LookupError("this episode has ended: start a new one")
        if hasattr(env, "oracle_action"):
            move = env.oracle_action()
        else:
            move = env.unwrapped.source.format_answer(env.unwrapped.problem.answer or "")
        return {"text": move}

    def replay(self, key: str) -> dict[str, Any]:
        """The episode's replies judged again from the problem alone (``palaestra.score``): the same reward."""
        session = self._session(key)
        if not session.replies:
            raise LookupError("nothing to replay yet")
        problem = session.env.unwrapped.problem
        multi = registry[problem.env_id].turns == "multi"
        verdict = score(problem.to_json(), session.replies if multi else session.replies[-1])
        return {"reward": verdict.reward, "correct": verdict.correct, "feedback": verdict.feedback,
                "matches": abs(verdict.reward - session.total) < 1e-9, "replies": len(session.replies)}


def _page() -> bytes:
    return resources.files("palaestra.ui").joinpath("page.html").read_bytes()


def _token_given(headers: Any, query: str) -> list[str]:
    """The tokens a request offers: a Bearer credential, the page's cookie, a ``token`` query parameter."""
    given = []
    scheme, _, value = (headers.get("Authorization") or "").partition(" ")
    if scheme.lower() == "bearer":
        given.append(value)
    for header in headers.get_all("Cookie") or []:
        for part in header.split(";"):
            name, _, value = part.strip().partition("=")
            if name == COOKIE:
                given.append(value)
    given.extend(parse_qs(query).get("token", [])[:1])
    return given


def make_handler(playground: Playground, host: str = "127.0.0.1",
                 token: str | None = None) -> type[BaseHTTPRequestHandler]:
    page = _page()
    hosts = allowed_hosts(host)
    if token and not re.fullmatch(r"[A-Za-z0-9._~+/=-]{8,512}", token):
        raise ValueError("the playground's token must be 8 to 512 characters of letters, digits and ._~+/=- "
                         "(it travels in a cookie)")
    secret = token.encode() if token else None

    class Handler(BoundedHandler):
        server_version = "palaestra-ui"

        def log_message(self, format: str, *args: Any) -> None:  # quiet: the page polls nothing, errors go back as JSON
            return

        def _send(self, status: int, body: bytes, content_type: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; "
                                                        "script-src 'self' 'unsafe-inline'; img-src 'self' data:")
            self.end_headers()
            self.wfile.write(body)

        def _json(self, status: int, payload: Any) -> None:
            self._send(status, json.dumps(payload, ensure_ascii=False).encode(), "application/json; charset=utf-8")

        def _answer(self, work: Any) -> None:
            try:
                self._json(HTTPStatus.OK, work())
            except (KeyError, ValueError, TypeError, LookupError) as exc:
                message = exc.args[0] if exc.args else str(exc)
                self._json(HTTPStatus.BAD_REQUEST, {"error": str(message)})

        def _refused(self) -> bool:
            """Answers (and True) a request a foreign web page may have sent (a foreign Host, unless there is a
            token, or Origin), or one without the token when there is one."""
            refused = refusal(self.headers, hosts, token=secret is not None)
            if refused is not None:
                self.close_connection = True
                self._json(refused[0], {"error": refused[1]})
                return True
            if secret is None:
                return False
            offered = _token_given(self.headers, urlparse(self.path).query)
            # compare every offer (constant time each), so the answer's timing tells nothing about which matched
            matched = [hmac.compare_digest(value.encode("utf-8", "surrogateescape"), secret) for value in offered]
            if any(matched):
                return False
            self.close_connection = True
            self._json(HTTPStatus.UNAUTHORIZED, {"error": "this playground needs its token: open /?token=TOKEN once, "
                                                          "or send 'Authorization: Bearer TOKEN'"})
            return True

        def _with_cookie(self) -> bool:
            """Answers (and True) the page opened as ``/?token=TOKEN``: it sets the cookie and sends the browser to
            ``/`` (the token leaves the address bar and the history)."""
            if secret is None or "token" not in parse_qs(urlparse(self.path).query):
                return False
            self.send_response(HTTPStatus.SEE_OTHER)
            self.send_header("Location", "/")
            self.send_header("Set-Cookie", f"{COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/")
            self.send_header("Content-Length", "0")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            return True

        def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
            if self._refused():
                return
            url = urlparse(self.path)
            query = {k: v[0] for k, v in parse_qs(url.query).items()}
            if url.path in ("/", "/index.html"):
                if self._with_cookie():
                    return None
                return self._send(HTTPStatus.OK, page, "text/html; charset=utf-8")
            if url.path == "/favicon.ico":
                return self._send(HTTPStatus.NO_CONTENT, b"", "image/x-icon")
            if url.path == "/api/envs":
                return self._answer(playground.envs)
            if url.path in ("/api/problem", "/api/answer"):
                return self._answer(lambda: playground.problem(query["id"], _int(query.get("level", "0"), "level"),
                                                               _seed(_int(query.get("seed", "0"), "seed")),
                                                               url.path == "/api/answer"))
            if url.path == "/api/stats":
                return self._answer(lambda: playground.level_stats(query["id"]))
            self._json(HTTPStatus.NOT_FOUND, {"error": f"no such page: {url.path}"})

        def do_POST(self) -> None:  # noqa: N802
            if self._refused():
                return
            if not is_json(self.headers.get("Content-Type")):
                self.close_connection = True
                return self._json(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, {"error": JSON_REQUIRED})
            given = self.headers.get("Content-Length")
            if given is not None and not _COUNT.fullmatch(given.strip()):  # -1 read the stream to its end
                self.close_connection = True
                return self._json(HTTPStatus.BAD_REQUEST, {"error": "Content-Length must be a count of bytes"})
            length = int(given or 0)
            if length > MAX_BODY_BYTES:
                self.close_connection = True
                return self._json(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, {"error": "request too large"})
            try:
                with self.read_within(BODY_SECONDS):
                    raw = self.rfile.read(length)
            except OSError:  # the body did not come in time
                self.close_connection = True
                return self._json(HTTPStatus.REQUEST_TIMEOUT, {"error": f"the body did not arrive in {BODY_SECONDS} s"})
            body = _parse_body(raw)
            if isinstance(body, str):
                return self._json(HTTPStatus.BAD_REQUEST, {"error": body})
            routes = {
                "/api/reset": lambda: playground.reset(str(body["id"]), body.get("level", 0),
                                                       _seed(body.get("seed", 0))),
                "/api/step": lambda: playground.step(str(body["session"]), _text(body.get("text"))),
                "/api/hint": lambda: playground.hint(str(body["session"])),
                "/api/replay": lambda: playground.replay(str(body["session"])),
            }
            route = routes.get(urlparse(self.path).path)
            if route is None:
                return self._json(HTTPStatus.NOT_FOUND, {"error": f"no such endpoint: {self.path}"})
            self._answer(route)

    return Handler


_PARSING = threading.Lock()


def _parse_body(raw: bytes) -> dict[str, Any] | str:
    """A POST body: a JSON object of plain values (text, numbers, booleans, null), or why not. One body is parsed at
    a time and nothing else leaves the parse: a 1 MB body of ``[],`` parses to 26 MB, and 64 connections parsing
    such bodies at once took the server to 1.7 GB."""
    with _PARSING:
        try:
            body = json.loads(raw or b"{}")
        except (ValueError, RecursionError) as exc:
            return f"bad JSON: {str(exc)[:200]}"
        if not isinstance(body, dict):
            return "bad JSON: the request body must be a JSON object"
        if not all(isinstance(value, (str, int, float, bool)) or value is None for value in body.values()):
            return "bad JSON: the request's fields must be plain values (text, numbers), not lists or objects"
        return body


def _int(value: str, name: str) -> int:
    """An integer from a query string (at most 18 digits: anything longer is no level or seed of ours)."""
    if not re.fullmatch(r"-?[0-9]{1,18}", value.strip()):
        raise ValueError(f"{name} must be an integer, got {value[:40]!r}")
    return int(value)


def _seed(value: Any) -> int:
    """A seed from a client: a non-negative integer (a negative one made gymnasium raise and drop the connection)."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"seed must be a non-negative integer, got {str(value)[:40]!r}")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError("text must be a string")
    return value


def make_server(host: str = "127.0.0.1", port: int = 8765, playground: Playground | None = None,
                token: str | None = None) -> BoundedHTTPServer:
    """The playground's HTTP server (not started). Binds ``host`` (loopback by default); answers requests addressed
    to ``host`` or a loopback name (a wildcard bind: loopback names only). At most ``MAX_CONNECTIONS`` connections
    at once (more wait to be accepted), each request's line and headers within ``HEADER_SECONDS``, its body within
    ``BODY_SECONDS``, an idle keep-alive connection closed after ``IDLE_SECONDS``. With a ``token``, every request
    needs it (see the module); ``serve_ui`` refuses a non-loopback ``host`` without one."""
    return BoundedHTTPServer((host, port), make_handler(playground or Playground(), host, token),
                             max_connections=MAX_CONNECTIONS, idle_timeout=IDLE_SECONDS, header_timeout=HEADER_SECONDS)


def serve_ui(host: str = "127.0.0.1", port: int = 8765, max_level: int = SERVED_LEVEL_MAX,
             token: str | None = None) -> None:
    """Serve the playground until interrupted; prints the address once it is ready to answer. ``token`` (default
    ``$PALAESTRA_SERVER_TOKEN``) is required for a ``host`` other than loopback."""
    token = token or os.environ.get(TOKEN_ENV) or None
    if host not in LOOPBACK and not token:
        raise SystemExit(f"refusing to serve the playground on {host!r} without a token: anyone who can reach it could "
                         f"run code in the sandbox and read reference answers. Set ${TOKEN_ENV} and open "
                         "/?token=TOKEN once in the browser.")
    server = make_server(host, port, Playground(max_level=max_level), token)
    where = f"http://{host if ':' not in host else f'[{host}]'}:{server.server_address[1]}/"
    if host not in LOOPBACK:
        print(f"the playground is reachable from other machines at {where}: open {where}?token=... once")
    if host.strip("[]") in ("", "0.0.0.0", "::"):
        print("note: bound to every address, it answers only requests addressed to localhost, 127.0.0.1 or [::1] "
              "(a port forward); bind a specific address to be reached by that address")
    print(f"palaestra ui ready at {where} (Ctrl-C stops it)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
