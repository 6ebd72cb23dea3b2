"""``palaestra serve``: every env over the OpenEnv protocol, tested with openenv-core's own clients on 127.0.0.1.

A multi-turn game, a tool-use env, many sessions at once, and the bounds: unknown envs and tools,
oversize replies and messages, capacity, step time limits and sessions that idle out.
"""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request
from typing import Any

import pytest

pytest.importorskip("openenv.core")

from openenv.core import GenericEnvClient  # noqa: E402
from websockets.exceptions import ConnectionClosed, ConnectionClosedOK  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from palaestra.core.extract import wrap  # noqa: E402
from palaestra.integrations import openenv_server  # noqa: E402
from palaestra.integrations.common import sample  # noqa: E402
from palaestra.integrations.openenv_server import (  # noqa: E402
    BackgroundServer,
    PalaestraAction,
    PalaestraEnvClient,
    ServeConfig,
    create_app,
)


@pytest.fixture(scope="module")
def server() -> Any:
    config = ServeConfig(max_sessions=64, max_message_bytes=300_000, tools=("calculator",))
    with BackgroundServer(create_app(config), ws_max_size=config.max_message_bytes) as running:
        yield running


def play_bisection(env: Any, seed: int) -> Any:
    """Win games/guess_number by bisection over any client with a .reset/.step; the last step result."""
    problem = sample("games/guess_number", 0, seed)
    result = env.reset(env_id="games/guess_number", level=0, seed=seed)
    low, high, secret = problem.data["low"], problem.data["high"], int(problem.answer)
    for _ in range(problem.data["turns"]):
        guess = (low + high) // 2
        result = env.step({"text": wrap(str(guess))})
        if result.done:
            return result
        low, high = (guess + 1, high) if guess < secret else (low, guess - 1)
    return result


def test_generic_openenv_client_plays_a_multi_turn_game(server: BackgroundServer) -> None:
    with GenericEnvClient(base_url=server.url).sync() as env:
        first = env.reset(env_id="games/guess_number", level=0, seed=4)
        assert first.observation["text"] == sample("games/guess_number", 0, 4).prompt and not first.done
        wrong = env.step({"text": wrap("1")})
        assert wrong.reward == 0.0 and not wrong.done and "turns left" in wrong.observation["text"]
        assert wrong.observation["verdict"]["parsed"] and not wrong.observation["verdict"]["correct"]
        last = play_bisection(env, seed=4)
        assert last.done and last.reward == 1.0 and last.observation["verdict"]["correct"]
        assert last.observation["error"] is None and last.observation["turn"] >= 1
        with pytest.raises(RuntimeError, match="reset"):
            env.step({"text": wrap("5")})  # the episode is over


def test_typed_client_plays_a_tool_use_env(server: BackgroundServer) -> None:
    problem = sample("arithmetic/expression", 3, 8)
    with PalaestraEnvClient(base_url=server.url).sync() as env:
        start = env.reset(env_id="arithmetic/expression", level=3, seed=8, tools=["calculator"], max_tool_calls=2)
        assert [t["function"]["name"] for t in start.observation.tools] == ["calculator"]
        assert "<tool_call>" in start.observation.text
        expression = problem.data.get("expression") or "2+2"
        call = json.dumps({"name": "calculator", "arguments": {"expression": str(expression)}})
        tool = env.step(PalaestraAction(text=f"<tool_call>{call}</tool_call>"))
        assert not tool.done and tool.observation.text.startswith("<tool_response>") and tool.reward == 0.0
        final = env.step(PalaestraAction(text=wrap(problem.answer)))
        assert final.done and final.reward == 1.0 and final.observation.verdict["correct"]
        state = env.state()
        assert state.env_id == "arithmetic/expression" and state.done and state.total_reward == 1.0


def test_many_sessions_at_once_each_with_its_own_episode(server: BackgroundServer) -> None:
    async def one(seed: int) -> tuple[str, float]:
        async with PalaestraEnvClient(base_url=server.url) as env:
            start = await env.reset(env_id="games/guess_number", level=0, seed=seed)
            problem = sample("games/guess_number", 0, seed)
            low, high, secret = problem.data["low"], problem.data["high"], int(problem.answer)
            result = start
            for _ in range(problem.data["turns"]):
                guess = (low + high) // 2
                result = await env.step(PalaestraAction(text=wrap(str(guess))))
                if result.done:
                    break
                low, high = (guess + 1, high) if guess < secret else (low, guess - 1)
            return start.observation.text, float(result.reward or 0.0)

    async def all_at_once() -> list[tuple[str, float]]:
        return await asyncio.gather(*(one(seed) for seed in range(24)))

    outcomes = asyncio.run(all_at_once())
    assert len({prompt for prompt, _ in outcomes}) == 24 and all(reward == 1.0 for _, reward in outcomes)


def test_requests_are_bounded(server: BackgroundServer) -> None:
    with GenericEnvClient(base_url=server.url).sync() as env:
        with pytest.raises(RuntimeError, match="unknown env id"):
            env.reset(env_id="nope/nothing")
        with pytest.raises(RuntimeError, match="does not offer the tools"):
            env.reset(env_id="arithmetic/expression", tools=["python"])
        with pytest.raises(RuntimeError, match="reset needs an env_id"):
            env.reset()
        env.reset(env_id="arithmetic/expression", seed=1)
        with pytest.raises(RuntimeError):  # validation: longer than max_action_chars
            env.step({"text": "x" * (openenv_server.MAX_ACTION_CHARS + 1)})
        assert env.step({"text": wrap(sample("arithmetic/expression", 0, 1).answer)}).reward == 1.0
    with GenericEnvClient(base_url=server.url).sync() as env:
        env.reset(env_id="arithmetic/expression", seed=1)
        with pytest.raises(ConnectionClosed):  # a WebSocket message above ws_max_size closes the connection
            env.step({"text": "y" * 90_000, "pad": "z" * 400_000})
    request = urllib.request.Request(f"{server.url}/reset", data=b"{" + b" " * 400_000 + b"}", method="POST",
                                     headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 413


def test_capacity_step_time_limit_and_idle_sessions(monkeypatch: pytest.MonkeyPatch) -> None:
    config = ServeConfig(max_sessions=1, session_timeout=1.0, step_timeout=0.2)
    with BackgroundServer(create_app(config)) as small:
        first = GenericEnvClient(base_url=small.url).sync()
        first.connect()
        first.reset(env_id="arithmetic/addition", seed=0)
        with connect(small.url.replace("http", "ws") + "/ws", open_timeout=10) as second:  # one session too many
            refusal = json.loads(second.recv(timeout=10))
        assert refusal["type"] == "error" and refusal["data"]["code"] == "CAPACITY_REACHED"

        real_step = openenv_server.PalaestraEnvironment.step

        def slow_step(self: Any, action: Any, **kwargs: Any) -> Any:
            time.sleep(1.0)
            return real_step(self, action, **kwargs)

        monkeypatch.setattr(openenv_server.PalaestraEnvironment, "step", slow_step)
        late = first.step({"text": wrap("1")})
        assert late.done and "took longer" in late.observation["error"] and late.reward == 0.0
        monkeypatch.setattr(openenv_server.PalaestraEnvironment, "step", real_step)

        time.sleep(6.5)  # openenv's reaper checks every 5 s for sessions idle past session_timeout
        # The idle connection is closed with its session (a socket kept open by pings would hold a slot forever).
        with pytest.raises(ConnectionClosedOK, match="idle too long"):
            first.reset(env_id="arithmetic/addition", seed=0)
        first.close()
        with GenericEnvClient(base_url=small.url).sync() as third:  # the expired session freed its slot
            assert third.reset(env_id="arithmetic/addition", seed=2).observation["seed"] == 2
