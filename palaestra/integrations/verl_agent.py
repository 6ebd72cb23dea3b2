"""verl's agent loop for palaestra's multi-turn envs (games, code with test feedback).

Targets ``verl.experimental.agent_loop`` of the released verl 0.9.1 (which merges observation
messages with ``ct_merge_context_msg``) and of verl-project/verl commit ``1dda039b`` (August 2026,
``ct_merge_non_assistant_msg``): an ``AgentLoopBase`` subclass registered as ``palaestra_agent``, which verl
instantiates per trajectory and awaits ``run(sampling_params, **row)`` on. Register it with
``actor_rollout_ref.rollout.agent.agent_loop_config_path`` pointing at a file written by
:func:`palaestra.integrations.verl.write_agent_loop_config`; rows exported by ``palaestra
export verl`` already name it in ``agent_name`` for multi-turn envs.

The episode itself (:func:`play_episode`) needs no verl: it is given the loop's token
machinery as callables, so the turn logic and the loss mask are tested without a GPU.
verl's reward loop then judges the episode with
:func:`palaestra.integrations.verl.compute_score`, which replays the replies this loop
stores in ``extra_fields["palaestra_replies"]``.

Example (the loop's turns with stand-in token machinery)::

    import asyncio
    from palaestra.integrations.verl_agent import play_episode

    episode = asyncio.run(play_episode(problem, messages, build_prompt=..., generate=..., merge_reply=...,
                                       merge_messages=..., decode=tokenizer.decode, response_length=2048))
    episode.response_mask      # 1 for the model's tokens, 0 for the env's observations
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import uuid4

from palaestra.core.problem import Problem, Verdict
from palaestra.integrations.common import Episode, Message
from palaestra.integrations.export import VERL_MULTI_TURN_AGENT
from palaestra.integrations.verl import REPLIES_FIELD


@dataclass
class TokenEpisode:
    """A played episode in tokens: verl's ``AgentLoopOutput`` fields, plus the replies and the verdict."""

    prompt_ids: list[int]
    response_ids: list[int]
    response_mask: list[int]  # 1: a model token (trained on); 0: an observation token (context only)
    response_logprobs: list[float] | None
    replies: list[str] = field(default_factory=list)
    turns: int = 0
    verdict: Verdict | None = None


Merge = tuple[list[int], list[int], "list[float] | None"]  # runtime token ids, response mask, response logprobs


async def play_episode(
    problem: Problem,
    messages: Sequence[Message],
    *,
    build_prompt: Callable[[list[Message]], Awaitable[list[int]]],
    generate: Callable[[list[int]], Awaitable[tuple[list[int], list[float] | None]]],
    merge_reply: Callable[[list[int], list[int], list[int], list[float] | None, list[float] | None], Awaitable[Merge]],
    merge_messages: Callable[[list[Message], list[Message], list[int], list[int], list[float] | None],
                             Awaitable[Merge]],
    decode: Callable[[list[int]], str],
    response_length: int,
    max_turns: int | None = None,
) -> TokenEpisode:
    """Play ``problem`` from ``messages``: generate a reply, judge it, append the env's observation, repeat.

    ``build_prompt(messages)`` tokenises the opening messages, ``generate(ids)`` samples a
    reply (token ids and their log-probabilities, or None), ``merge_reply(ids, reply,
    mask, logprobs, reply_logprobs)`` appends the reply's tokens (mask 1),
    ``merge_messages(before, after, ids, mask, logprobs)`` appends the tokens of the
    messages added since ``before`` (mask 0), and ``decode`` turns a reply into text. The
    episode stops when the env says it is over, after ``max_turns`` replies, or when the
    response reaches ``response_length`` tokens.
    """
    episode = Episode(problem, max_turns=max_turns)
    history = list(messages)
    prompt_ids = await build_prompt(history)
    runtime: list[int] = list(prompt_ids)
    mask: list[int] = []
    logprobs: list[float] | None = None
    turns = 0
    for _ in range(episode.max_turns):
        reply_ids, reply_logprobs = await generate(runtime)
        runtime, mask, logprobs = await merge_reply(runtime, list(reply_ids), mask, logprobs, reply_logprobs)
        turns += 1
        text = decode(list(reply_ids))
        observation = episode.submit(text)
        if episode.done or len(mask) >= response_length:
            break
        before = [*history, {"role": "assistant", "content": text}]
        history = [*before, {"role": "user", "content": observation}]
        runtime, mask, logprobs = await merge_messages(before, history, runtime, mask, logprobs)
        if len(mask) >= response_length:
            break
    prompt_length = len(runtime) - len(mask)
    return TokenEpisode(runtime[:prompt_length], runtime[prompt_length:][:response_length], mask[:response_length],
                        logprobs[:response_length] if logprobs else None, list(episode.replies), turns,
                        episode.verdict())


def _row_problem(row: dict[str, Any]) -> Problem:
    extra = row.get("extra_info") or {}
    if not isinstance(extra.get("problem"), str):
        raise ValueError("the row's extra_info has no 'problem': export the data with palaestra export verl")
    return Problem.from_json(extra["problem"])


try:  # the verl binding exists only where verl is installed; play_episode above needs nothing of it
    from verl.experimental.agent_loop.agent_loop import AgentLoopBase, AgentLoopOutput, register
except ImportError:
    AgentLoopBase = None


if AgentLoopBase is not None:

    @register(VERL_MULTI_TURN_AGENT)
    class PalaestraAgentLoop(AgentLoopBase):  # type: ignore[misc, valid-type]
        """verl agent loop: one palaestra episode per trajectory (see the module docstring).

        ``actor_rollout_ref.rollout.multi_turn.max_assistant_turns`` (when set) caps the
        replies below the env's own turn budget.
        """

        async def run(self, sampling_params: dict[str, Any], **kwargs: Any) -> Any:
            problem = _row_problem(kwargs)
            request_id = uuid4().hex
            response_length = self.rollout_config.response_length
            max_turns = self.rollout_config.multi_turn.max_assistant_turns or None

            async def build_prompt(messages: list[Message]) -> list[int]:
                return await self.ct_build_initial_tokens(messages)

            async def generate(ids: list[int]) -> tuple[list[int], list[float] | None]:
                output = await self.server_manager.generate(request_id=request_id, prompt_ids=ids,
                                                            sampling_params=sampling_params)
                return list(output.token_ids), output.log_probs or None

            async def merge_reply(ids: list[int], reply: list[int], mask: list[int], logprobs: list[float] | None,
                                  reply_logprobs: list[float] | None) -> Merge:
                # verl 0.9.1 refuses a reply's log-probs without the response's (its own loops start them at [])
                if logprobs is None and reply_logprobs:
                    logprobs = []
                merged, mask, logprobs = await self.ct_merge_assistant_token(ids, reply, mask, logprobs,
                                                                             assistant_logprobs=reply_logprobs)
                return merged.token_ids, mask, logprobs

            # verl 0.9.1 renamed the observation merge; the pinned commit still has the old name
            merge_context = getattr(self, "ct_merge_context_msg", None) or self.ct_merge_non_assistant_msg

            async def merge_messages(before: list[Message], after: list[Message], ids: list[int], mask: list[int],
                                     logprobs: list[float] | None) -> Merge:
                merged, mask, logprobs = await merge_context(before, after, ids, mask, logprobs)
                return merged.token_ids, mask, logprobs

            def decode(ids: list[int]) -> str:
                return self.tokenizer.decode(ids, skip_special_tokens=True)

            episode = await play_episode(problem, list(kwargs["raw_prompt"]), build_prompt=build_prompt,
                                         generate=generate, merge_reply=merge_reply, merge_messages=merge_messages,
                                         decode=decode, response_length=response_length, max_turns=max_turns)
            return AgentLoopOutput(
                prompt_ids=episode.prompt_ids, response_ids=episode.response_ids,
                response_mask=episode.response_mask, response_logprobs=episode.response_logprobs,
                num_turns=2 * episode.turns, metrics={},
                extra_fields={REPLIES_FIELD: episode.replies, "turn_scores": [], "tool_rewards": []},
            )
