"""Chat formatting: an env that speaks in chat messages (OpenAI-style ``{"role", "content"}`` dicts).

Observations are the conversation so far (a list of messages, optionally starting with a system
message); an action is the assistant's reply as a string, a message dict, or a whole conversation
whose last message is the assistant's. Useful with chat-template tokenizers and chat-completion APIs.

Example::

    >>> import palaestra
    >>> env = ChatFormat(palaestra.make("games/guess_number"), system_prompt="You are a careful player.")
    >>> messages, info = env.reset(seed=0)
    >>> [m["role"] for m in messages]
    ['system', 'user']
    >>> messages, reward, *_ = env.step({"role": "assistant", "content": "<answer>500</answer>"})
    >>> [m["role"] for m in messages]
    ['system', 'user', 'assistant', 'user']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym

Message = dict[str, str]


class ChatFormat(gym.Wrapper):
    """Messages in, messages out (see the module docstring)."""

    def __init__(self, env: gym.Env, system_prompt: str | None = None) -> None:
        super().__init__(env)
        self.system_prompt = system_prompt
        self.messages: list[Message] = []

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[list[Message], dict]:
        prompt, info = self.env.reset(seed=seed, options=options)
        system = [{"role": "system", "content": self.system_prompt}] if self.system_prompt else []
        self.messages = [*system, {"role": "user", "content": prompt}]
        return list(self.messages), info

    def step(self, action: str | Mapping[str, str] | Sequence[Mapping[str, str]]
             ) -> tuple[list[Message], float, bool, bool, dict]:
        text = _reply_text(action)
        obs, reward, terminated, truncated, info = self.env.step(text)
        self.messages += [{"role": "assistant", "content": text}, {"role": "user", "content": obs}]
        return list(self.messages), reward, terminated, truncated, info


def _reply_text(action: Any) -> str:
    if isinstance(action, str):
        return action
    if isinstance(action, Mapping):
        message = action
    elif isinstance(action, Sequence) and action and isinstance(action[-1], Mapping):
        message = action[-1]
    else:
        raise TypeError("an action must be a str, an assistant message dict, or a list of messages")
    if message.get("role") != "assistant" or not isinstance(message.get("content"), str):
        raise TypeError("the action's message must be {'role': 'assistant', 'content': str}")
    return message["content"]
