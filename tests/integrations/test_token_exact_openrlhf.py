"""Token-exact multi-turn episodes through the OpenRLHF agent: the tokens OpenRLHF trains on are the generated
tokens plus the env's observation tokens, and they decode to exactly the chat template's rendering of the
conversation (a Qwen2-style template shipped with the test: no doubled ``<|im_end|>``, nothing re-tokenised).

OpenRLHF 0.11.2's ``MultiTurnAgentExecutor`` is not installable on a CPU test machine (it needs vLLM and
DeepSpeed), so :func:`openrlhf_loop` plays its documented token arithmetic: a reply's ``token_ids`` (ending with
the end-of-turn token when the model stopped by itself) and ``text`` (without it, as vLLM returns it) from the
engine, ``step`` on the text, the feedback text tokenised and appended."""

from __future__ import annotations

import asyncio
import types
from typing import Any

import pytest

from palaestra.core.extract import wrap
from palaestra.integrations.common import sample
from palaestra.integrations.openrlhf_agent import LAST_REPLY_TOKENS, GameAgent, RecordingEngine


@pytest.fixture(scope="module")
def tokenizer() -> Any:
    pytest.importorskip("trl")
    from tiny_chat import build_tokenizer

    return build_tokenizer(["<|im_start|>user\nThe secret number is higher than 50.<|im_end|>\n<|im_start|>assistant\n"
                            "<answer>75</answer>"], 500)


class ScriptedEngine:
    """An inference engine that 'generates' scripted replies: token ids end with the end-of-turn id, text does not."""

    def __init__(self, tokenizer: Any, replies: list[str], truncate_last: bool = False) -> None:
        self.tokenizer, self.replies, self.truncate_last = tokenizer, list(replies), truncate_last

    async def generate(self, prompt_ids: list[int], sampling_params: Any = None, **_: Any) -> Any:
        text = self.replies.pop(0)
        ids = self.tokenizer(text, add_special_tokens=False)["input_ids"]
        stopped = not (self.truncate_last and not self.replies)
        if stopped:
            ids = [*ids, self.tokenizer.eos_token_id]
        return types.SimpleNamespace(outputs=[types.SimpleNamespace(token_ids=ids, text=text,
                                                                   finish_reason="stop" if stopped else "length")])


async def openrlhf_loop(agent: GameAgent, engine: Any, prompt: str, label: str, tokenizer: Any) -> tuple[list[int], list]:
    """OpenRLHF's multi-turn token arithmetic (see the module docstring); returns the tokens and the action ranges."""
    token = LAST_REPLY_TOKENS.set(None)
    try:
        engine = RecordingEngine(engine)
        observation = (await agent.reset({"observation": prompt, "label": label}))["observation"]
        tokens = tokenizer(observation, add_special_tokens=False)["input_ids"]
        ranges = []
        for _ in range(50):
            output = (await engine.generate(tokens)).outputs[0]
            ranges.append((len(tokens), len(tokens) + len(output.token_ids)))
            step = await agent.step({"observation_text": observation, "action_text": output.text, "label": label})
            feedback = tokenizer(step["environment_feedback"], add_special_tokens=False)["input_ids"]
            tokens = tokens + list(output.token_ids) + feedback
            if step["done"]:
                break
        return tokens, ranges
    finally:
        LAST_REPLY_TOKENS.reset(token)


def _bisection(problem: Any) -> list[str]:
    low, high, secret, replies = problem.data["low"], problem.data["high"], int(problem.answer), []
    while True:
        guess = (low + high) // 2
        replies.append(wrap(str(guess)))
        if guess == secret:
            return replies
        low, high = (guess + 1, high) if guess < secret else (low, guess - 1)


def _observations(problem: Any, replies: list[str]) -> list[str]:
    """What the env answers each reply (the same episode logic every trainer adapter uses)."""
    from palaestra.integrations.common import Episode

    episode = Episode(problem)
    return [episode.submit(reply) for reply in replies]


def test_openrlhf_episode_tokens_are_the_chat_templates_conversation(tokenizer: Any) -> None:
    problem = sample("games/guess_number", 0, 7)
    replies = _bisection(problem)
    assert len(replies) > 2
    GameAgent.tokenizer = tokenizer
    try:
        messages = [{"role": "user", "content": problem.prompt}]
        prompt = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        tokens, ranges = asyncio.run(openrlhf_loop(GameAgent(), ScriptedEngine(tokenizer, replies), prompt,
                                                   problem.to_json(), tokenizer))
    finally:
        GameAgent.tokenizer = None
    for reply, observation in zip(replies, _observations(problem, replies)):
        messages += [{"role": "assistant", "content": reply}, {"role": "user", "content": observation}]
    conversation = tokenizer.apply_chat_template(messages[:-1], tokenize=False)  # ends with the last reply's turn
    decoded = tokenizer.decode(tokens, skip_special_tokens=False)
    assert decoded == conversation.removesuffix("\n")  # the last reply ends at its end-of-turn token
    assert "<|im_end|><|im_end|>" not in decoded
    # the trained spans are exactly the generated tokens: each reply's text and its end-of-turn token
    for (start, end), reply in zip(ranges, replies):
        assert tokens[start:end] == tokenizer(reply, add_special_tokens=False)["input_ids"] + [tokenizer.eos_token_id]


def test_a_reply_cut_by_the_length_limit_is_closed_by_the_feedback(tokenizer: Any) -> None:
    problem = sample("games/guess_number", 0, 7)
    first = _bisection(problem)[0]
    GameAgent.tokenizer = tokenizer
    try:
        agent = GameAgent()
        asyncio.run(agent.reset({"observation": "", "label": problem.to_json()}))
        stopped = tokenizer(first, add_special_tokens=False)["input_ids"] + [tokenizer.eos_token_id]
        cut = tokenizer(first, add_special_tokens=False)["input_ids"]
        observation = "The secret number is higher than 50."
        assert agent.feedback(first, observation, stopped).startswith("\n<|im_start|>user\n")
        assert agent.feedback(first, observation, cut).startswith("<|im_end|>\n<|im_start|>user\n")
        assert agent.feedback(first, observation, None).startswith("<|im_end|>\n<|im_start|>user\n")
    finally:
        GameAgent.tokenizer = None
