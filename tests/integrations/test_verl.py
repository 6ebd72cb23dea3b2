"""verl: the exported parquet read back as verl's RLHFDataset reads it, compute_score loaded as verl loads it
(by file path and by package path) on right/wrong/malformed/error cases, and the agent loop's episode.

verl itself is too heavy for CI (Ray, vLLM): its interfaces are exercised as of verl-project/verl
commit 1dda039b. The last test runs PalaestraAgentLoop against stand-ins for verl's AgentLoopBase
and server manager that implement the methods the loop calls, with the signatures of that commit.
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import inspect
import os
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from palaestra.core.extract import wrap
from palaestra.core.problem import Problem
from palaestra.integrations import verl as palaestra_verl
from palaestra.integrations.common import sample
from palaestra.integrations.export import export

datasets = pytest.importorskip("datasets")
VERL_FILE = Path(palaestra_verl.__file__)


def load_like_verl(path: Path) -> types.ModuleType:
    """verl.utils.import_utils.load_module for a file path: a fresh module, not put in sys.modules."""
    spec = importlib.util.spec_from_file_location(f"custom_module_{hash(os.path.abspath(path))}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def tokenizer() -> Any:
    pytest.importorskip("trl")
    from tiny_chat import build_tokenizer

    return build_tokenizer(["<|im_start|>user\nhello<|im_end|>\n<|im_start|>assistant\n<answer>1</answer>"], 400)


def test_exported_parquet_reads_back_as_verls_loader_reads_it(tmp_path: Path, tokenizer: Any) -> None:
    path = tmp_path / "train.parquet"
    ids = ["arithmetic/expression", "games/wordle", "puzzles/sudoku", "code/knapsack"]
    assert export("verl", ids, path, levels=[0, 3], seeds=3) == 24
    frame = datasets.load_dataset("parquet", data_files=str(path), cache_dir=str(tmp_path / "cache"))["train"]
    assert len(frame) == 24
    for index, row in enumerate(frame):
        problem = Problem.from_json(row["extra_info"]["problem"])
        assert row["data_source"] == f"palaestra/{problem.env_id}" and row["ability"] == problem.env_id.split("/")[0]
        assert row["prompt"] == [{"role": "user", "content": problem.prompt}]
        assert row["reward_model"] == {"style": "rule", "ground_truth": problem.answer}
        assert row["extra_info"]["index"] == index and row["extra_info"]["split"] == "train"
        assert row["agent_name"] == ("palaestra_agent" if problem.env_id == "games/wordle" else "single_turn_agent")
        assert problem == sample(problem.env_id, problem.level, problem.seed)
        # verl's maybe_filter_out_long_prompts: the chat template over the prompt column
        ids_ = tokenizer.apply_chat_template(row["prompt"], add_generation_prompt=True, tokenize=True,
                                             return_dict=False)
        assert len(ids_) > 10


@pytest.mark.parametrize("loader", ["file", "package"])
def test_compute_score_right_wrong_malformed_and_error(loader: str) -> None:
    module = load_like_verl(VERL_FILE) if loader == "file" else importlib.import_module("palaestra.integrations.verl")
    compute_score = module.compute_score
    assert list(inspect.signature(compute_score).parameters)[:4] == ["data_source", "solution_str", "ground_truth",
                                                                      "extra_info"]
    problem = sample("graphs/shortest_path", 1, 4)
    info = {"problem": problem.to_json(), "num_turns": 2, "rollout_reward_scores": {}}  # as verl's reward loop sends
    source = "palaestra/graphs/shortest_path"
    right = compute_score(source, f"The path: {wrap(problem.answer)}", problem.answer, info)
    assert right == {"score": 1.0, "acc": 1.0, "parsed": 1.0, "error": 0.0}
    wrong = compute_score(source, wrap("0 1"), problem.answer, info)
    assert wrong["score"] == 0.0 and wrong["acc"] == 0.0 and wrong["error"] == 0.0
    malformed = compute_score(source, "I think the path is 0 then 4", problem.answer, info)
    assert malformed == {"score": 0.0, "acc": 0.0, "parsed": 0.0, "error": 0.0}
    stale = {"problem": Problem.from_dict({**problem.to_dict(), "version": 99}).to_json()}
    assert compute_score(source, wrap(problem.answer), problem.answer, stale)["error"] == 1.0
    assert compute_score(source, wrap(problem.answer), problem.answer, {})["error"] == 1.0
    assert compute_score(source, "\x00" * 1_000_000, problem.answer, info)["score"] == 0.0
    if importlib.util.find_spec("verl") is None:
        assert compute_score("openai/gsm8k", "42", "42", {})["error"] == 1.0  # not ours, and no verl to ask
    assert inspect.iscoroutinefunction(module.compute_score_async)
    assert asyncio.run(module.compute_score_async(source, wrap(problem.answer), None, info)) == right


def test_compute_score_replays_a_multi_turn_episode_from_the_agent_loops_replies() -> None:
    problem = sample("games/guess_number", 0, 11)
    low, high, replies = problem.data["low"], problem.data["high"], []
    secret = int(problem.answer)
    for _ in range(problem.data["turns"]):
        guess = (low + high) // 2
        replies.append(wrap(str(guess)))
        if guess == secret:
            break
        low, high = (guess + 1, high) if guess < secret else (low, guess - 1)
    info = {"problem": problem.to_json(), palaestra_verl.REPLIES_FIELD: replies}
    assert palaestra_verl.compute_score("palaestra/games/guess_number", "decoded text", "", info)["acc"] == 1.0
    info[palaestra_verl.REPLIES_FIELD] = [wrap(str(low - 1))] * 2
    assert palaestra_verl.compute_score("palaestra/games/guess_number", "", "", info)["acc"] == 0.0


class TemplateTokens:
    """Continuous-token stand-ins built on a real tokenizer: prompt, reply and message tokens by chat template."""

    def __init__(self, tokenizer: Any, replies: list[str]) -> None:
        self.tokenizer, self.replies, self.calls = tokenizer, list(replies), 0

    def render(self, messages: list[dict[str, str]], generation: bool) -> list[int]:
        return self.tokenizer.apply_chat_template(messages, add_generation_prompt=generation, tokenize=True,
                                                  return_dict=False)

    async def build_prompt(self, messages: list[dict[str, str]]) -> list[int]:
        return self.render(messages, True)

    async def generate(self, ids: list[int]) -> tuple[list[int], None]:
        text = self.replies[self.calls] + "<|im_end|>"
        self.calls += 1
        return self.tokenizer(text, add_special_tokens=False)["input_ids"], None

    async def merge_reply(self, ids: list[int], reply: list[int], mask: list[int], logprobs: Any,
                          reply_logprobs: Any) -> tuple[list[int], list[int], None]:
        return ids + reply, mask + [1] * len(reply), None

    async def merge_messages(self, before: list[dict[str, str]], after: list[dict[str, str]], ids: list[int],
                             mask: list[int], logprobs: Any) -> tuple[list[int], list[int], None]:
        added = self.render(after, True)[len(self.render(before, False)):]
        return ids + added, mask + [0] * len(added), None


def _bisection(problem: Problem) -> list[str]:
    low, high, secret, moves = problem.data["low"], problem.data["high"], int(problem.answer), []
    for _ in range(problem.data["turns"]):
        guess = (low + high) // 2
        moves.append(f"I guess {wrap(str(guess))}")
        if guess == secret:
            return moves
        low, high = (guess + 1, high) if guess < secret else (low, guess - 1)
    return moves


def test_agent_loop_episode_masks_observations_and_is_judged_by_replay(tokenizer: Any) -> None:
    from palaestra.integrations.verl_agent import play_episode

    problem = sample("games/guess_number", 0, 2)
    moves = _bisection(problem)
    tokens = TemplateTokens(tokenizer, moves)
    episode = asyncio.run(play_episode(problem, [{"role": "user", "content": problem.prompt}],
                                       build_prompt=tokens.build_prompt, generate=tokens.generate,
                                       merge_reply=tokens.merge_reply, merge_messages=tokens.merge_messages,
                                       decode=lambda ids: tokenizer.decode(ids, skip_special_tokens=True),
                                       response_length=4096))
    assert episode.verdict.correct and episode.turns == len(moves) > 1 and episode.replies == moves
    assert len(episode.response_ids) == len(episode.response_mask)
    model_text = tokenizer.decode([t for t, m in zip(episode.response_ids, episode.response_mask) if m])
    env_text = tokenizer.decode([t for t, m in zip(episode.response_ids, episode.response_mask) if not m])
    assert all(move in model_text for move in moves) and "turns left" not in model_text
    assert "turns left" in env_text and "I guess" not in env_text
    assert tokenizer.decode(episode.prompt_ids).endswith("<|im_start|>assistant\n")
    info = {"problem": problem.to_json(), palaestra_verl.REPLIES_FIELD: episode.replies}
    assert palaestra_verl.compute_score("palaestra/games/guess_number", "", "", info)["score"] == 1.0

    cut = asyncio.run(play_episode(problem, [{"role": "user", "content": problem.prompt}],
                                   build_prompt=tokens.build_prompt, generate=TemplateTokens(tokenizer, moves).generate,
                                   merge_reply=tokens.merge_reply, merge_messages=tokens.merge_messages,
                                   decode=tokenizer.decode, response_length=20))
    assert len(cut.response_ids) <= 20 and cut.turns < len(moves)


@pytest.mark.parametrize("verl_version", ["0.9.1", "1dda039b"])
def test_agent_loop_class_against_verls_interface(verl_version: str, tokenizer: Any, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """PalaestraAgentLoop.run with stand-ins for the verl pieces it touches, with the signatures of the released
    verl 0.9.1 (``ct_merge_context_msg``) and of the pinned commit 1dda039b (``ct_merge_non_assistant_msg``)."""
    pydantic = pytest.importorskip("pydantic")
    registered: dict[str, dict[str, str]] = {}

    class AgentLoopOutput(pydantic.BaseModel):  # the fields of verl's AgentLoopOutput the loop sets
        prompt_ids: list[int]
        response_ids: list[int]
        response_mask: list[int]
        response_logprobs: list[float] | None = None
        num_turns: int = 0
        metrics: dict[str, Any]
        extra_fields: dict[str, Any] = {}

    class AgentLoopBase:
        def __init__(self, tokens: TemplateTokens) -> None:
            self.tokenizer = tokenizer
            self.rollout_config = types.SimpleNamespace(response_length=4096,
                                                        multi_turn=types.SimpleNamespace(max_assistant_turns=None))
            self._tokens = tokens
            self.server_manager = types.SimpleNamespace(generate=self._generate)

        async def _generate(self, *, request_id: str, prompt_ids: list[int], sampling_params: dict[str, Any],
                            **_: Any) -> Any:
            ids, _logprobs = await self._tokens.generate(prompt_ids)
            return types.SimpleNamespace(token_ids=ids, log_probs=None)

        async def ct_build_initial_tokens(self, messages: list[dict[str, Any]], tools: Any = None, images: Any = None,
                                          videos: Any = None, audios: Any = None) -> list[int]:
            return await self._tokens.build_prompt(messages)

        async def ct_merge_assistant_token(self, runtime_token_ids: list[int], assistant_token_ids: list[int],
                                           response_mask: list[int], response_logprobs: Any = None,
                                           assistant_logprobs: Any = None) -> Any:
            ids, mask, _ = await self._tokens.merge_reply(runtime_token_ids, assistant_token_ids, response_mask,
                                                          None, None)
            return types.SimpleNamespace(token_ids=ids), mask, None

        async def merge_context(self, previous_messages: list[dict[str, Any]],
                                updated_messages: list[dict[str, Any]], runtime_token_ids: list[int],
                                response_mask: list[int], response_logprobs: Any = None, tools: Any = None) -> Any:
            ids, mask, _ = await self._tokens.merge_messages(previous_messages, updated_messages, runtime_token_ids,
                                                             response_mask, None)
            return types.SimpleNamespace(token_ids=ids), mask, None

    # the observation merge's name is the one difference between the two verl versions the loop supports
    setattr(AgentLoopBase, "ct_merge_context_msg" if verl_version == "0.9.1" else "ct_merge_non_assistant_msg",
            AgentLoopBase.merge_context)
    del AgentLoopBase.merge_context

    def register(name: str) -> Any:
        def decorate(cls: type) -> type:
            registered[name] = {"_target_": f"{cls.__module__}.{cls.__qualname__}"}
            return cls
        return decorate

    stand_in = types.ModuleType("verl.experimental.agent_loop.agent_loop")
    stand_in.AgentLoopBase, stand_in.AgentLoopOutput, stand_in.register = AgentLoopBase, AgentLoopOutput, register
    for name in ("verl", "verl.experimental", "verl.experimental.agent_loop"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.setitem(sys.modules, "verl.experimental.agent_loop.agent_loop", stand_in)
    import palaestra.integrations.verl_agent as verl_agent

    verl_agent = importlib.reload(verl_agent)
    try:
        assert registered == {"palaestra_agent": {"_target_": palaestra_verl.AGENT_LOOP_TARGET}}
        problem = sample("games/guess_number", 0, 9)
        loop = verl_agent.PalaestraAgentLoop(TemplateTokens(tokenizer, _bisection(problem)))
        row = {"raw_prompt": [{"role": "user", "content": problem.prompt}],
               "extra_info": {"problem": problem.to_json()}, "data_source": "palaestra/games/guess_number",
               "agent_name": "palaestra_agent"}
        output = asyncio.run(loop.run({"temperature": 1.0}, **row))
        assert isinstance(output, AgentLoopOutput) and 0 in output.response_mask and 1 in output.response_mask
        replies = output.extra_fields[palaestra_verl.REPLIES_FIELD]
        info = {**row["extra_info"], **output.extra_fields}  # verl merges the loop's extra fields into extra_info
        assert palaestra_verl.compute_score(row["data_source"], "", "", info)["acc"] == 1.0 and len(replies) > 1
    finally:
        monkeypatch.undo()
        importlib.reload(verl_agent)

    config = palaestra_verl.write_agent_loop_config(tmp_path / "agent_loops.yaml")
    yaml = pytest.importorskip("yaml")
    assert yaml.safe_load(config.read_text()) == [{"name": "palaestra_agent",
                                                    "_target_": palaestra_verl.AGENT_LOOP_TARGET}]
