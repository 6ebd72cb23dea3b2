"""OpenRLHF: the exported JSONL read as OpenRLHF's PromptDataset reads it, the reward function loaded by file
path as OpenRLHF loads it, ``palaestra serve-reward`` on loopback in OpenRLHF's /get_reward protocol (with its
bounds), and the multi-turn agent's episode. OpenRLHF itself is not installed: its interfaces are exercised as
of OpenRLHF commit 3c3be623."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from palaestra.core.extract import wrap
from palaestra.core.problem import Problem
from palaestra.integrations import openrlhf as palaestra_openrlhf
from palaestra.integrations.common import sample
from palaestra.integrations.export import export
from palaestra.integrations.openrlhf_agent import GameAgent

REWARD_FILE = Path(palaestra_openrlhf.__file__)


@pytest.fixture(scope="module")
def tokenizer() -> Any:
    pytest.importorskip("trl")
    from tiny_chat import build_tokenizer

    return build_tokenizer(["<|im_start|>user\nhello<|im_end|>\n<|im_start|>assistant\n<answer>1</answer>"], 400)


def rendered(tokenizer: Any, problem: Problem) -> str:
    return tokenizer.apply_chat_template([{"role": "user", "content": problem.prompt}], tokenize=False,
                                         add_generation_prompt=True)


def test_exported_jsonl_reads_back_as_openrlhfs_prompt_dataset(tmp_path: Path, tokenizer: Any) -> None:
    path = tmp_path / "train.jsonl"
    assert export("openrlhf", ["deduction/propositional", "games/mastermind"], path, levels=[1], seeds=4) == 8
    for line in path.read_text().splitlines():
        data = json.loads(line)  # preprocess_data(data, input_key="prompt", label_key="label", apply_chat_template)
        prompt = tokenizer.apply_chat_template(data["prompt"], tokenize=False, add_generation_prompt=True)
        problem = Problem.from_json(data["label"])
        assert problem.prompt in prompt and data["datasource"] == f"palaestra/{problem.env_id}"
        assert problem == sample(problem.env_id, 1, problem.seed)


def test_reward_function_loaded_by_file_path(tokenizer: Any) -> None:
    spec = importlib.util.spec_from_file_location("reward_func", REWARD_FILE)  # as SingleTurnAgentExecutor does
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    problems = [sample("arithmetic/expression", 2, seed) for seed in range(4)]
    prompts = [rendered(tokenizer, p) for p in problems]
    responses = [f"So {wrap(problems[0].answer)}<|im_end|>", wrap("-99999") + "<|im_end|>", "no idea<|im_end|>",
                 wrap(problems[3].answer)]
    labels = [p.to_json() for p in problems]
    labels[3] = Problem.from_dict({**problems[3].to_dict(), "version": 99}).to_json()  # cannot be judged
    out = module.reward_func([p + r for p, r in zip(prompts, responses)], prompts, labels)
    assert out["rewards"].tolist() == [1.0, 0.0, 0.0, 0.0] and out["scores"].tolist() == out["rewards"].tolist()
    assert out["extra_logs"]["parsed"].tolist() == [1.0, 1.0, 0.0, 0.0]
    assert out["extra_logs"]["error"].tolist() == [0.0, 0.0, 0.0, 1.0]
    # a decode that respells the prompt: the response is found after the prompt's tail
    respelled = prompts[0].replace("<|im_start|>", "<|im_start|> ", 1) + responses[0]
    assert module.reward_func([respelled], [prompts[0]], [labels[0]])["rewards"].tolist() == [1.0]


@pytest.fixture
def reward_server() -> Any:
    server = palaestra_openrlhf.RewardServer(("127.0.0.1", 0), max_body_bytes=200_000, max_batch=16,
                                             max_concurrent=4, timeout=5.0, queue_seconds=0.5)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def post(url: str, payload: Any, raw: bytes | None = None) -> tuple[int, dict[str, Any]]:
    data = raw if raw is not None else json.dumps(payload).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_reward_server_speaks_openrlhfs_protocol_with_bounds(reward_server: Any, tokenizer: Any) -> None:
    problems = [sample("planning/maze", 0, seed) for seed in range(3)]
    prompts = [rendered(tokenizer, p) for p in problems]
    queries = [prompts[0] + wrap(problems[0].answer), prompts[1] + wrap("U"), prompts[2] + "hmm"]
    status, body = post(reward_server.url, {"query": queries, "prompts": prompts,
                                            "labels": [p.to_json() for p in problems]})
    assert status == 200 and body["rewards"] == [1.0, 0.0, 0.0] and body["scores"] == body["rewards"]
    assert body["extra_logs"] == {"acc": [1.0, 0.0, 0.0], "parsed": [1.0, 1.0, 0.0], "error": [0.0, 0.0, 0.0]}
    assert post(reward_server.url, None, raw=b"{not json")[0] == 400
    assert post(reward_server.url, {"query": ["a"], "prompts": [], "labels": []})[0] == 400
    assert post(reward_server.url, {"query": ["a"] * 17, "prompts": ["a"] * 17, "labels": ["{}"] * 17})[0] == 413
    assert post(reward_server.url, {"query": ["x" * 300_000], "prompts": [""], "labels": ["{}"]})[0] == 413
    assert post(reward_server.url.replace("/get_reward", "/other"), {})[0] == 404
    held = [reward_server.slots.acquire(blocking=False) for _ in range(4)]  # every slot busy
    assert all(held) and post(reward_server.url, {"query": [], "prompts": [], "labels": []})[0] == 503  # after 0.5 s
    # Within the queue's bound a request waits for a slot instead of being refused.
    threading.Timer(0.2, reward_server.slots.release).start()  # one slot frees while the request waits
    assert post(reward_server.url, {"query": [], "prompts": [], "labels": []})[0] == 200
    for _ in held[1:]:
        reward_server.slots.release()
    assert post(reward_server.url, {"query": [], "prompts": [], "labels": []}) == (200, {
        "rewards": [], "scores": [], "extra_logs": {"acc": [], "parsed": [], "error": []}})


def test_reward_server_holds_up_under_concurrent_batches(reward_server: Any) -> None:
    problems = [sample("arithmetic/expression", 0, seed) for seed in range(8)]
    payload = {"query": [wrap(p.answer) for p in problems], "prompts": [""] * 8,
               "labels": [p.to_json() for p in problems]}
    results: list[tuple[int, dict[str, Any]]] = []

    def client() -> None:
        for _ in range(5):
            outcome = post(reward_server.url, payload)
            while outcome[0] == 503:  # OpenRLHF's client retries a busy server
                time.sleep(0.01)
                outcome = post(reward_server.url, payload)
            results.append(outcome)

    threads = [threading.Thread(target=client) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(results) == 40 and all(status == 200 and body["rewards"] == [1.0] * 8 for status, body in results)


def test_serve_reward_command_on_loopback() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    process = subprocess.Popen([sys.executable, "-m", "palaestra.cli", "serve-reward", "--port", str(port)],
                               stdout=subprocess.PIPE, text=True)
    try:
        assert f"127.0.0.1:{port}/get_reward" in process.stdout.readline()
        problem = sample("deduction/propositional", 0, 0)
        status, body = post(f"http://127.0.0.1:{port}/get_reward",
                            {"query": [wrap(problem.answer)], "prompts": [""], "labels": [problem.to_json()]})
        assert (status, body["rewards"]) == (200, [1.0])
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_multi_turn_agent_plays_an_episode_with_chat_template_feedback(tokenizer: Any) -> None:
    problem = sample("games/guess_number", 0, 7)
    agent = GameAgent()
    GameAgent.tokenizer = tokenizer
    try:
        prompt = rendered(tokenizer, problem)
        assert asyncio.run(agent.reset({"observation": prompt, "label": problem.to_json()})) == {"observation": prompt}
        low, high, secret, total, steps = problem.data["low"], problem.data["high"], int(problem.answer), 0.0, []
        for _ in range(problem.data["turns"]):
            guess = (low + high) // 2
            steps.append(asyncio.run(agent.step({"observation_text": prompt, "action_text": wrap(str(guess)),
                                                 "label": problem.to_json()})))
            total += steps[-1]["rewards"].item()
            if steps[-1]["done"]:
                break
            low, high = (guess + 1, high) if guess < secret else (low, guess - 1)
        assert total == 1.0 and steps[-1]["extra_logs"]["acc"].item() == 1.0 and len(steps) > 1
        feedback = steps[0]["environment_feedback"]
        assert feedback.startswith("<|im_end|>\n<|im_start|>user\n") and feedback.endswith("<|im_start|>assistant\n")
        assert "turns left" in feedback and steps[-1]["environment_feedback"] == ""
        bad = GameAgent()
        asyncio.run(bad.reset({"observation": prompt, "label": "not a problem"}))
        result = asyncio.run(bad.step({"action_text": "1"}))
        assert result["done"] and result["extra_logs"]["error"].item() == 1.0 and result["rewards"].item() == 0.0
    finally:
        GameAgent.tokenizer = None
