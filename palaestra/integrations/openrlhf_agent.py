"""OpenRLHF's agent function for palaestra's multi-turn envs: ``--train.agent_func_path <this file>``.

Targets ``openrlhf.utils.agent`` of OpenRLHF 0.11.2 and commit ``3c3be623`` (August 2026): the file
defines ``AgentExecutor`` (a ``MultiTurnAgentExecutor``) over ``AgentInstance``, whose
async ``reset(states)`` and ``step(states)`` OpenRLHF awaits once per episode and per
reply. The label of each prompt row is the serialised problem (``palaestra export
openrlhf``). Each step judges the reply with the env's rules and answers with the env's
observation wrapped as the next user turn of the model's own chat template (OpenRLHF
appends that text's tokens to the context without training on them).

Token-exact turns: OpenRLHF keeps a reply's generated token ids (ending with the end-of-turn
token, e.g. ``<|im_end|>``, when the model stopped by itself) but hands the agent the reply's
text, from which the inference engine drops that token. The executor therefore records the
last generated token of each reply, and the feedback starts with the template's turn closing
minus what the reply's tokens already hold, so the episode's tokens are exactly the chat
template's rendering of the conversation (tested), never ``<|im_end|><|im_end|>``.

The episode logic (:class:`GameAgent`) needs no OpenRLHF, so it is tested without it.

Example::

    agent = GameAgent()
    await agent.reset({"observation": prompt_text, "label": problem.to_json()})
    result = await agent.step({"observation_text": ..., "action_text": "<answer>50</answer>", "label": ...})
    result["environment_feedback"], result["done"], result["extra_logs"]["acc"]
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

from palaestra.core.problem import Problem, Verdict
from palaestra.integrations.common import Episode

_PLACEHOLDER = "\x00palaestra-reply\x00"
# The token ids of the reply being judged, recorded by the executor's engine proxy for the episode's own task
# (each OpenRLHF episode runs in its own asyncio task, so concurrent episodes never see each other's).
LAST_REPLY_TOKENS: ContextVar[list[int] | None] = ContextVar("palaestra_last_reply_tokens", default=None)


class GameAgent:
    """One episode for OpenRLHF: ``reset(states)`` reads the problem from the label, ``step(states)`` plays a reply.

    ``tokenizer`` (set by the executor from OpenRLHF's ``hf_tokenizer``) renders the
    observation as a user turn of its chat template; without one, the observation is
    appended as plain text.
    """

    tokenizer: Any = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.episode: Episode | None = None
        self.error = "reset was not called"

    async def reset(self, states: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        try:
            self.episode = Episode(Problem.from_json(states["label"]))
        except (KeyError, TypeError, ValueError) as exc:
            self.episode, self.error = None, f"the label is not a palaestra problem: {exc}"
        return {"observation": states["observation"]}

    async def step(self, states: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """Judge one reply: this turn's reward, the episode's score so far, the next turn's text, done."""
        reply = str(states.get("action_text", ""))
        if self.episode is None:
            verdict, step_reward, feedback, done = Verdict.failed(self.error), 0.0, "", True
        else:
            before = self.episode.reward
            observation = self.episode.submit(reply)
            verdict = self.episode.verdict() or Verdict.unparsed()
            step_reward = self.episode.reward - before if verdict.error is None else 0.0
            done = self.episode.done
            feedback = "" if done else self.feedback(reply, observation, LAST_REPLY_TOKENS.get())
        judged = verdict.error is None
        return {
            "rewards": _scalar(step_reward), "scores": _scalar(verdict.reward if judged else 0.0),
            "environment_feedback": feedback, "done": done, "sampling_params": states.get("sampling_params"),
            "extra_logs": {"acc": _scalar(float(verdict.correct)), "parsed": _scalar(float(verdict.parsed)),
                           "error": _scalar(float(not judged))},
        }

    def feedback(self, reply: str, observation: str, reply_tokens: list[int] | None = None) -> str:
        """The text that closes the model's turn and opens the next one with ``observation`` (chat template).

        ``reply_tokens`` (the reply's generated ids, when known) tell whether the reply already ended with
        the template's end-of-turn token, which the reply's text does not show: then it is not repeated.
        """
        tokenizer = self.tokenizer
        if tokenizer is None or not getattr(tokenizer, "chat_template", None):
            return f"\n{observation}\n"
        opening = [{"role": "user", "content": "."}, {"role": "assistant", "content": _PLACEHOLDER}]
        before = tokenizer.apply_chat_template(opening, tokenize=False)
        after = tokenizer.apply_chat_template([*opening, {"role": "user", "content": observation}], tokenize=False,
                                              add_generation_prompt=True)
        closing = before[before.index(_PLACEHOLDER) + len(_PLACEHOLDER):]
        turn = after[len(before):] if after.startswith(before) else f"\n{observation}\n"
        if closing.strip() and reply.rstrip().endswith(closing.strip()):
            closing = ""  # the reply's text already closed its turn
        elif reply_tokens:
            last = tokenizer.decode(reply_tokens[-1:], skip_special_tokens=False)
            if last and closing.startswith(last):
                closing = closing[len(last):]  # the reply's tokens end with the closing's first token
        return closing + turn


def _scalar(value: float) -> Any:
    """A number with ``.item()``, as OpenRLHF reads rewards (a tensor where torch is installed)."""
    try:
        import torch
    except ImportError:
        import numpy as np

        return np.float64(value)
    return torch.tensor(float(value))


try:  # the OpenRLHF binding exists only where OpenRLHF is installed; GameAgent above needs nothing of it
    from openrlhf.utils.agent import AgentInstanceBase, MultiTurnAgentExecutor
except ImportError:
    AgentInstanceBase = None


if AgentInstanceBase is not None:

    class AgentInstance(GameAgent, AgentInstanceBase):  # type: ignore[misc, valid-type]
        """OpenRLHF's per-episode agent instance: :class:`GameAgent`."""

    class AgentExecutor(MultiTurnAgentExecutor):  # type: ignore[misc, valid-type]
        """OpenRLHF's executor: hands its tokenizer to the instances, then runs OpenRLHF's multi-turn loop."""

        def __init__(self) -> None:
            super().__init__(AgentInstance)

        async def execute(self, prompt: Any, label: Any, sampling_params: Any, max_length: int, hf_tokenizer: Any,
                          llm_engine: Any, images: Any = None) -> Any:
            AgentInstance.tokenizer = hf_tokenizer
            token = LAST_REPLY_TOKENS.set(None)
            try:
                return await super().execute(prompt, label, sampling_params, max_length, hf_tokenizer,
                                             RecordingEngine(llm_engine), images)
            finally:
                LAST_REPLY_TOKENS.reset(token)


class RecordingEngine:
    """An inference engine that notes each reply's token ids in :data:`LAST_REPLY_TOKENS` for the agent's step."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine

    async def generate(self, *args: Any, **kwargs: Any) -> Any:
        output = await self.engine.generate(*args, **kwargs)
        LAST_REPLY_TOKENS.set(list(output.outputs[0].token_ids))
        return output

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)
