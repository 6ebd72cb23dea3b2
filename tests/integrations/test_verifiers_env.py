"""palaestra envs as verifiers environments, run by the real ``verifiers`` package (0.4: its ``verifiers.v1`` stack).

Episodes run through verifiers' own machinery end to end: its env and agent, its interception
server, its OpenAI-compatible eval client and its trace scoring. The model is a scripted chat
server on 127.0.0.1 (no network, no model): it answers from the conversation verifiers sends it.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

pytest.importorskip("verifiers.v1", reason="the verifiers package (0.4+, Python >= 3.11) is not installed")
import verifiers.v1 as vf

from palaestra.core.extract import wrap
from palaestra.integrations.common import Episode, rules_for, sample
from palaestra.integrations.verifiers_env import (
    TASKSET_ID,
    PalaestraEnv,
    PalaestraTaskset,
    ReplyHarness,
    load_environment,
)

Script = Callable[[list[dict[str, Any]]], str]


class ScriptedChat:
    """An OpenAI-compatible chat server whose replies come from ``script(messages)``; it keeps every request."""

    def __init__(self) -> None:
        self.script: Script = lambda messages: ""
        self.requests: list[list[dict[str, Any]]] = []
        chat = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                chat.requests.append(body["messages"])
                reply = {"id": "scripted", "object": "chat.completion", "created": 0, "model": body["model"],
                         "choices": [{"index": 0, "finish_reason": "stop",
                                      "message": {"role": "assistant", "content": chat.script(body["messages"])}}],
                         "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
                data = json.dumps(reply).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.context = vf.ModelContext(model="scripted", client=vf.EvalClientConfig(
            base_url=f"http://127.0.0.1:{self.server.server_address[1]}/v1", api_key_var="PALAESTRA_TEST_NO_KEY"))


@pytest.fixture(scope="module")
def chat() -> Iterator[ScriptedChat]:
    server = ScriptedChat()
    yield server
    server.server.shutdown()
    server.server.server_close()


def play(env: Any, tasks: list[Any], chat: ScriptedChat, script: Script) -> list[Any]:
    """Each task's episode through verifiers (env serving, agent, interception, client, scoring); their traces."""
    chat.script = script

    async def episodes() -> list[Any]:
        async with env.serving():
            return [await env.run_episode(task, chat.context) for task in tasks]

    played = asyncio.run(episodes())
    assert all(episode.ok for episode in played), [episode.errors for episode in played]
    assert all(len(episode.traces) == 1 for episode in played)
    return [episode.traces[0] for episode in played]


def first_user(messages: list[dict[str, Any]]) -> str:
    return next(message["content"] for message in messages if message["role"] == "user")


def test_verifiers_resolves_the_plugin_by_its_id() -> None:
    assert vf.environment_class(TASKSET_ID) is PalaestraEnv
    assert type(vf.load_taskset(vf.resolve_env_config({"taskset": {"id": TASKSET_ID}}).taskset)) is PalaestraTaskset
    env = load_environment("arithmetic/addition", levels=0, n=1)
    assert isinstance(env, PalaestraEnv)
    assert isinstance(env._harnesses["player"], ReplyHarness)  # the taskset's own harness is the default
    with pytest.raises(ValueError, match="unknown palaestra env"):
        next(iter(load_environment("arithmetic/no_such_env", n=1).taskset))


def test_dataset_rows_are_the_palaestra_problems() -> None:
    env = load_environment("arithmetic/addition", levels=[0, 2], n=3, seed=5)
    tasks = list(env.taskset)
    assert [(task.data.level, task.data.seed) for task in tasks] == [(0, 5), (0, 6), (0, 7), (2, 5), (2, 6), (2, 7)]
    for task in tasks:
        problem = sample("arithmetic/addition", task.data.level, task.data.seed)
        assert task.data.problem == problem.to_json()
        assert task.data.prompt == problem.prompt
        assert task.data.env_id == "arithmetic/addition" and not task.data.multi_turn
    assert len({task.key for task in tasks}) == len({task.data.id for task in tasks}) == 6
    boxed = next(iter(load_environment("arithmetic/addition", n=1, answer_format="boxed").taskset))
    assert "\\boxed" in boxed.data.prompt
    games = list(load_environment("games/guess_number", levels=[0], n=2).taskset)
    assert all(task.data.multi_turn for task in games)


def test_the_reward_is_palaestras_verdict_reference_one_corruption_zero(chat: ScriptedChat) -> None:
    env = load_environment("arithmetic/addition", levels=[0, 1], n=3)
    tasks = list(env.taskset)
    answers = {task.data.prompt: sample("arithmetic/addition", task.data.level, task.data.seed).answer
               for task in tasks}
    reference = play(env, tasks, chat, lambda messages: f"So the sum is <answer>{answers[first_user(messages)]}</answer>")
    assert [trace.rewards["palaestra"].value for trace in reference] == [1.0] * 6
    assert all(trace.metrics["correct"] == 1.0 and trace.metrics["turns"] == 1.0 for trace in reference)
    off_by_one = play(env, tasks, chat, lambda messages: f"<answer>{int(answers[first_user(messages)]) + 1}</answer>")
    assert [trace.rewards["palaestra"].value for trace in off_by_one] == [0.0] * 6
    assert all(trace.metrics["parsed"] == 1.0 and trace.metrics["correct"] == 0.0 for trace in off_by_one)
    hedged = play(env, tasks[:1], chat, lambda messages: f"<answer>{answers[first_user(messages)]}</answer> or maybe "
                  f"<answer>{int(answers[first_user(messages)]) + 1}</answer>")
    assert hedged[0].rewards["palaestra"].value == 0.0
    # the same reply judged outside verifiers
    import palaestra

    problem = sample("arithmetic/addition", tasks[0].data.level, tasks[0].data.seed)
    assert palaestra.score(problem, reference[0].messages[-1].content).reward == 1.0


def oracle_script(env_id: str, level: int, seed: int, observations: list[list[str]]) -> Script:
    """The env's oracle as a chat model: it replays the conversation's moves with the env's rules, checks
    that each user message after the prompt is the env's observation of the move before, then moves."""
    problem = sample(env_id, level, seed)
    rules = rules_for(problem)

    def script(messages: list[dict[str, Any]]) -> str:
        episode = Episode(problem)
        seen = [m["content"] for m in messages if m["role"] == "user"][1:]
        answered = [episode.submit(m["content"]) for m in messages if m["role"] == "assistant"]
        observations.append(seen)
        assert seen == answered
        return wrap(rules.oracle(problem, episode.state), problem.answer_format)

    return script


@pytest.mark.parametrize("env_id", ["games/guess_number", "interactive/escape_room"])
def test_a_multi_turn_rollout_reaches_the_oracles_reward(chat: ScriptedChat, env_id: str) -> None:
    env = load_environment(env_id, levels=[1], n=2, seed=3)
    tasks = list(env.taskset)
    for task in tasks:
        problem = sample(env_id, 1, task.data.seed)
        oracle = Episode(problem)
        while not oracle.done:
            oracle.submit(wrap(rules_for(problem).oracle(problem, oracle.state), problem.answer_format))
        observations: list[list[str]] = []
        [trace] = play(env, [task], chat, oracle_script(env_id, 1, task.data.seed, observations))
        assert oracle.turns > 1
        assert trace.rewards["palaestra"].value == oracle.verdict().reward == 1.0
        assert trace.metrics["turns"] == oracle.turns == len(trace.assistant_messages)
        # the conversation verifiers recorded: the prompt, then each move and the env's observation of it
        roles = [message.role for message in trace.messages]
        assert roles == ["user"] + ["assistant", "user"] * (oracle.turns - 1) + ["assistant"]
        assert [m.content for m in trace.messages if m.role == "user"] == [problem.prompt, *observations[-1]]


def test_a_game_cut_by_the_agents_turn_limit_scores_the_moves_played(chat: ScriptedChat) -> None:
    env = load_environment("games/guess_number", levels=[1], n=1, seed=3, player={"max_turns": 2})
    [task] = list(env.taskset)
    [trace] = play(env, [task], chat, oracle_script("games/guess_number", 1, 3, []))
    assert len(trace.assistant_messages) == 2
    assert trace.rewards["palaestra"].value == 0.0 and trace.metrics["turns"] == 2.0


def test_the_readme_snippet_runs_as_written() -> None:
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    [block] = [b for b in re.findall(r"```python\n(.*?)```", readme, re.S) if "verifiers_env" in b]
    namespace: dict[str, Any] = {}
    exec(compile(block, "README.md verifiers block", "exec"), namespace)  # our own documentation
    tasks = list(namespace["env"].taskset)
    assert isinstance(namespace["env"], PalaestraEnv) and len(tasks) == 400
    assert {task.data.env_id for task in tasks} == {"games/guess_number"}


def test_concurrent_rollouts_keep_their_own_games(chat: ScriptedChat) -> None:
    """Two rollouts of each of two games at once (as verifiers runs a group): each plays its own episode."""
    env = load_environment("games/guess_number", levels=[0], n=2, seed=11)
    tasks = list(env.taskset)
    scripts = {sample("games/guess_number", 0, task.data.seed).prompt: oracle_script("games/guess_number", 0,
                                                                                       task.data.seed, [])
               for task in tasks}
    chat.script = lambda messages: scripts[first_user(messages)](messages)

    async def group() -> list[Any]:
        async with env.serving():
            return await asyncio.gather(*(env.run_episode(task, chat.context) for task in tasks for _ in range(2)))

    episodes = asyncio.run(group())
    assert all(episode.ok for episode in episodes)
    traces = [episode.traces[0] for episode in episodes]
    assert [trace.rewards["palaestra"].value for trace in traces] == [1.0] * 4
    assert [trace.task.data.seed for trace in traces] == [11, 11, 12, 12]
    assert traces[0].messages == traces[1].messages != traces[2].messages == traces[3].messages
