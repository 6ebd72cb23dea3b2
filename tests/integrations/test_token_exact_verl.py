"""Token-exact multi-turn episodes through verl's ``palaestra_agent`` loop: the tokens verl trains on are the
generated tokens plus the env's observation tokens, the response mask covers exactly the generated ones, and the
whole sequence decodes to the chat template's rendering of the conversation (a Qwen2-style template, TRL's
``qwen2_5_chat_template``, on a tokenizer built in the test: no doubled ``<|im_end|>``, nothing re-tokenised).

verl cannot be installed next to the TRL this suite tests (verl 0.9.1 pins ``transformers<5.11``), so
:class:`Qwen2ContinuousTokens` replays what verl 0.9.1 does for a ``model_type: qwen2`` model: its
``AgentLoopBase.ct_build_initial_tokens`` / ``ct_merge_assistant_token`` / ``ct_merge_context_msg`` over
``verl.utils.tokenizer.continuous_token.QwenContinuousTokenBuilder`` — the prompt rendered by the chat template
with the generation prompt; a reply's tokens appended as generated (vLLM's ``token_ids``, ending with
``<|im_end|>`` when the model stopped by itself); an appended message tokenised as the suffix of the template's
rendering of ``[synthetic system, synthetic user] + [message]`` (generation prompt fused into the last one) past
that of the synthetic pair; a ``\\n`` inserted after a runtime prefix ending with ``<|im_end|>``; and the mask and
log-probs aligned as ``align_response_metadata`` aligns them (model tokens 1 with their log-probs, inserted and
context tokens 0 with 0.0; ``response_logprobs`` required once a reply carries log-probs). The palaestra agent
loop class itself runs unchanged on stand-ins for verl's module that implement exactly that.
"""

from __future__ import annotations

import asyncio
import importlib
import sys
import types
from typing import Any

import pytest

pytest.importorskip("trl")
pytest.importorskip("pydantic")

import pydantic  # noqa: E402

from palaestra.core.extract import wrap  # noqa: E402
from palaestra.integrations import verl as palaestra_verl  # noqa: E402
from palaestra.integrations.common import Episode, rules_for, sample  # noqa: E402

ENV = "games/guess_number"
SYNTHETIC = [{"role": "system", "content": "continuous token synthetic system"},
             {"role": "user", "content": "continuous token synthetic user"}]


class Qwen2ContinuousTokens:
    """verl 0.9.1's continuous-token arithmetic for a Qwen2 model, replayed (see the module docstring)."""

    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer = tokenizer
        [self.newline] = tokenizer.encode("\n", add_special_tokens=False)  # verl requires one token
        self.im_end = tokenizer.convert_tokens_to_ids("<|im_end|>")

    def render(self, messages: list[dict[str, Any]], generation: bool) -> list[int]:
        return self.tokenizer.apply_chat_template(messages, tokenize=True, add_generation_prompt=generation,
                                                  tools=None, return_dict=False)

    def build_initial_tokens(self, messages: list[dict[str, Any]]) -> list[int]:
        return self.render(messages, True)

    def merge_context_tokens(self, previous: list[dict[str, Any]], updated: list[dict[str, Any]],
                             runtime: list[int]) -> tuple[list[int], list[int], int]:
        """The merged tokens, the tokens verl inserted at the junction, and the count of context tokens appended."""
        assert updated[:len(previous)] == previous  # verl's append-only rule
        appended: list[int] = []
        added = updated[len(previous):]
        for index, message in enumerate(added):
            assert message["role"] in {"user", "system"}  # one message per group; no tool or trailing assistant
            prefix = self.render(SYNTHETIC, False)
            full = self.render([*SYNTHETIC, message], index == len(added) - 1)
            assert full[:len(prefix)] == prefix
            appended += full[len(prefix):]
        inserted = [self.newline] if runtime and runtime[-1] == self.im_end else []
        return runtime + inserted + appended, inserted, len(appended)


def align(mask: list[int], logprobs: list[float] | None, inserted: int, appended: int, kind: str,
          assistant_logprobs: list[float] | None = None) -> tuple[list[int], list[float] | None]:
    """verl 0.9.1's ``ContinuousTokenBuilder.align_response_metadata`` (no prefix trimming: Qwen never trims)."""
    mask, logprobs = list(mask), list(logprobs) if logprobs is not None else None
    if logprobs is None and assistant_logprobs is not None:
        raise ValueError("response_logprobs is required when assistant_logprobs is provided")
    mask += [0] * inserted + ([1] if kind == "assistant" else [0]) * appended
    if logprobs is not None:
        logprobs += [0.0] * inserted
        if kind == "assistant":
            if assistant_logprobs is None or len(assistant_logprobs) != appended:
                raise ValueError("assistant_logprobs must match the appended assistant tokens")
            logprobs += assistant_logprobs
        else:
            logprobs += [0.0] * appended
    return mask, logprobs


def verl_module(tokenizer: Any, replies: list[str], with_logprobs: bool, generated: list[list[int]]) -> Any:
    """A stand-in ``verl.experimental.agent_loop.agent_loop`` whose AgentLoopBase does verl 0.9.1's token work
    and whose server manager 'generates' ``replies`` as vLLM returns them (ids ending with ``<|im_end|>``)."""
    tokens = Qwen2ContinuousTokens(tokenizer)

    class AgentLoopOutput(pydantic.BaseModel):
        prompt_ids: list[int]
        response_ids: list[int]
        response_mask: list[int]
        response_logprobs: list[float] | None = None
        num_turns: int = 0
        metrics: dict[str, Any]
        extra_fields: dict[str, Any] = {}

    class ServerManager:
        async def generate(self, *, request_id: str, prompt_ids: list[int], sampling_params: dict[str, Any],
                           **_: Any) -> Any:
            ids = tokenizer(replies[len(generated)], add_special_tokens=False)["input_ids"] + [tokens.im_end]
            generated.append(ids)
            log_probs = [-0.5 - 0.01 * i for i in range(len(ids))] if with_logprobs else None
            return types.SimpleNamespace(token_ids=ids, log_probs=log_probs)

    class AgentLoopBase:
        def __init__(self) -> None:
            self.tokenizer = tokenizer
            self.server_manager = ServerManager()
            self.rollout_config = types.SimpleNamespace(response_length=4096, prompt_length=4096,
                                                        multi_turn=types.SimpleNamespace(max_assistant_turns=None))

        async def ct_build_initial_tokens(self, messages: list[dict], tools: Any = None, images: Any = None,
                                          videos: Any = None, audios: Any = None, mm_inputs_out: Any = None) -> Any:
            return tokens.build_initial_tokens(messages)[-self.rollout_config.prompt_length:]

        async def ct_merge_context_msg(self, previous_messages: list[dict], updated_messages: list[dict],
                                       runtime_token_ids: list[int], response_mask: list[int],
                                       response_logprobs: list[float] | None = None, tools: Any = None) -> Any:
            merged, inserted, appended = tokens.merge_context_tokens(previous_messages, updated_messages,
                                                                     runtime_token_ids)
            mask, logprobs = align(response_mask, response_logprobs, len(inserted), appended, "context")
            return types.SimpleNamespace(token_ids=merged), mask, logprobs

        async def ct_merge_assistant_token(self, runtime_token_ids: list[int], assistant_token_ids: list[int],
                                           response_mask: list[int], response_logprobs: list[float] | None = None,
                                           assistant_logprobs: list[float] | None = None) -> Any:
            merged = list(runtime_token_ids) + list(assistant_token_ids)
            mask, logprobs = align(response_mask, response_logprobs, 0, len(assistant_token_ids), "assistant",
                                   assistant_logprobs)
            return types.SimpleNamespace(token_ids=merged), mask, logprobs

    module = types.ModuleType("verl.experimental.agent_loop.agent_loop")
    module.AgentLoopBase, module.AgentLoopOutput = AgentLoopBase, AgentLoopOutput
    module.register = lambda name: (lambda cls: cls)
    return module


def oracle_replies(seed: int) -> tuple[list[str], list[str]]:
    """The oracle's replies for ``(ENV, 0, seed)``, with some thinking around the move, and the env's observations."""
    problem = sample(ENV, 0, seed)
    rules, episode, replies = rules_for(problem), Episode(problem), []
    while not episode.done:
        replies.append(f"Halving the range: {wrap(rules.oracle(problem, episode.state))}")
        episode.submit(replies[-1])
    replay = Episode(problem)
    return replies, [replay.submit(reply) for reply in replies]


@pytest.fixture(scope="module")
def tokenizer() -> Any:
    from tiny_chat import build_tokenizer

    texts = []
    for seed in (5, 6):
        replies, observations = oracle_replies(seed)
        texts += [sample(ENV, 0, seed).prompt, *replies, *observations]
    return build_tokenizer(texts, vocab_size=1200)


def run_loop(tokenizer: Any, seed: int, with_logprobs: bool, monkeypatch: pytest.MonkeyPatch
             ) -> tuple[Any, list[list[int]]]:
    """``PalaestraAgentLoop.run`` on the verl 0.9.1 stand-ins: its output and the replies' generated ids."""
    replies, _ = oracle_replies(seed)
    generated: list[list[int]] = []
    for name in ("verl", "verl.experimental", "verl.experimental.agent_loop"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.setitem(sys.modules, "verl.experimental.agent_loop.agent_loop",
                        verl_module(tokenizer, replies, with_logprobs, generated))
    import palaestra.integrations.verl_agent as verl_agent

    try:
        verl_agent = importlib.reload(verl_agent)
        problem = sample(ENV, 0, seed)
        row = {"raw_prompt": [{"role": "user", "content": problem.prompt}], "agent_name": "palaestra_agent",
               "extra_info": {"problem": problem.to_json()}, "data_source": f"palaestra/{ENV}"}
        return asyncio.run(verl_agent.PalaestraAgentLoop().run({"temperature": 1.0}, **row)), generated
    finally:
        monkeypatch.undo()
        importlib.reload(verl_agent)


def runs(mask: list[int]) -> list[tuple[int, int, int]]:
    """``(value, start, end)`` for each run of equal values in ``mask``."""
    out: list[tuple[int, int, int]] = []
    for i, bit in enumerate(mask):
        if out and out[-1][0] == bit:
            out[-1] = (bit, out[-1][1], i + 1)
        else:
            out.append((bit, i, i + 1))
    return out


@pytest.mark.parametrize("with_logprobs", [False, True], ids=["no-logprobs", "logprobs"])
@pytest.mark.parametrize("seed", [5, 6])
def test_verl_episode_tokens_are_the_generated_tokens_plus_the_envs(tokenizer: Any, seed: int, with_logprobs: bool,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    output, generated = run_loop(tokenizer, seed, with_logprobs, monkeypatch)
    replies, observations = oracle_replies(seed)
    assert len(replies) > 2 and len(generated) == len(replies)
    ids, mask = output.response_ids, output.response_mask
    assert len(ids) == len(mask)
    spans = runs(mask)
    assert [value for value, _, _ in spans] == [1, 0] * (len(replies) - 1) + [1]
    # the trained tokens are each reply exactly as generated, its <|im_end|> included
    assert [ids[start:end] for value, start, end in spans if value == 1] == generated
    # the env's tokens: verl's inserted newline, then the observation's turn and the next generation prompt
    for observation, (_, start, end) in zip(observations, [s for s in spans if s[0] == 0]):
        assert tokenizer.decode(ids[start:end]) == f"\n<|im_start|>user\n{observation}<|im_end|>\n" \
                                                   "<|im_start|>assistant\n"
    # the whole sequence is the chat template's rendering of the conversation
    messages = [{"role": "user", "content": sample(ENV, 0, seed).prompt}]
    for reply, observation in zip(replies, observations):
        messages += [{"role": "assistant", "content": reply}, {"role": "user", "content": observation}]
    conversation = tokenizer.apply_chat_template(messages[:-1], tokenize=False)
    decoded = tokenizer.decode(output.prompt_ids + ids, skip_special_tokens=False)
    assert decoded == conversation.removesuffix("\n")
    assert "<|im_end|><|im_end|>" not in decoded
    if with_logprobs:  # each model token keeps its log-prob; the env's tokens get 0.0
        assert output.response_logprobs is not None and len(output.response_logprobs) == len(ids)
        for value, start, end in spans:
            expected = [-0.5 - 0.01 * i for i in range(end - start)] if value == 1 else [0.0] * (end - start)
            assert output.response_logprobs[start:end] == pytest.approx(expected)
    else:
        assert output.response_logprobs is None
    info = {**output.extra_fields, "problem": sample(ENV, 0, seed).to_json()}
    assert info[palaestra_verl.REPLIES_FIELD] == replies
    assert palaestra_verl.compute_score(f"palaestra/{ENV}", "", "", info)["acc"] == 1.0
