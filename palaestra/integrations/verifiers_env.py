"""verifiers (Prime Intellect's environment library, tested with verifiers 0.4.0): any palaestra env as a
verifiers environment.

verifiers 0.4 (its ``verifiers.v1`` stack; the older ``SingleTurnEnv``/``MultiTurnEnv``/``Rubric`` API is gone
from it) builds an environment from three plugins found by a top-level module name: a *taskset* (the
problems), a *harness* (the program that asks the model) and an *env* (how one task becomes one episode).
This module defines all three and the module ``palaestra_verifiers`` exports them, so
``--env.taskset.id palaestra_verifiers`` (or :func:`load_environment`) gives a verifiers environment over
palaestra problems:

- :class:`PalaestraTaskset`: the problems env id x levels x ``n`` seeds (from ``seed``), one
  :class:`PalaestraTask` each; its data carries the serialised problem.
- :class:`PalaestraTask`: its reward ``palaestra`` is palaestra's verdict on the trace's replies:
  :func:`palaestra.score` on the last reply of a single-turn problem; for a multi-turn problem the
  replies played again, one per turn, with the env's pure rules (:class:`~palaestra.integrations.common.Episode`,
  the judge behind every multi-turn trainer adapter) — so a trace is re-scored from what it
  recorded, the way ``palaestra eval`` would judge it. Metrics: ``correct``, ``parsed``, ``turns``.
- :class:`PalaestraEnv`: a single-turn problem is one model reply; a multi-turn one is played as a
  conversation, the env's observation after each move sent back as the next user message, until the
  game ends or its turns run out.
- :class:`ReplyHarness`: one chat completion per segment, in-process (palaestra's protocol is one
  reply per turn, no tools to run: a tool-using env takes its tool calls as text and answers them in
  its observations). Every model call goes through the rollout's interception endpoint, so traces,
  token ids and limits are verifiers' own. Runs on the local ``subprocess`` runtime: nothing to
  provision.

Example::

    from palaestra.integrations.verifiers_env import load_environment

    env = load_environment("games/guess_number", levels=[0, 1], n=200)   # a verifiers.v1 Env
    # or from verifiers' CLI: vf-eval palaestra_verifiers --env.taskset.env games/guess_number --env.taskset.levels [0,1]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

try:
    import verifiers.v1 as vf
    from openai import AsyncOpenAI
    from verifiers.v1.dialects.chat import message_to_wire
    from verifiers.v1.types import content_text
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("the verifiers integration needs the verifiers package: pip install 'palaestra[verifiers]'") \
        from exc

from palaestra.core.problem import Problem, Verdict
from palaestra.core.registry import registry
from palaestra.core.scoring import score
from palaestra.integrations.common import Episode, is_multi_turn, problem_set

__all__ = ["PalaestraTaskset", "PalaestraEnv", "ReplyHarness", "load_environment"]

TASKSET_ID = "palaestra_verifiers"  # the top-level module verifiers imports (a plugin id cannot be dotted)


class PalaestraTasksetConfig(vf.TasksetConfig):
    env: str = "arithmetic/addition"
    """The palaestra env id (``palaestra list`` shows them)."""
    levels: list[int] = [0]
    """Difficulty levels; levels the env does not have are skipped."""
    n: int = 100
    """Problems per level: seeds ``seed`` .. ``seed + n - 1``."""
    seed: int = 0
    answer_format: str | None = None
    """An answer format other than the env's own (e.g. ``boxed``)."""


class PalaestraData(vf.TaskData):
    env_id: str
    level: int
    seed: int
    problem: str
    """The serialised problem (``Problem.to_json``): everything the reward needs."""
    multi_turn: bool


def replies_of(trace: Any) -> list[str]:
    """The model's replies in the trace, in order (text only: palaestra judges text)."""
    return [content_text(message.content) for message in trace.assistant_messages]


def judge(data: PalaestraData, replies: Sequence[str]) -> tuple[Verdict, int]:
    """palaestra's verdict on ``replies`` and the turns it played (the reply count the env read)."""
    problem = Problem.from_json(data.problem)
    if not data.multi_turn:
        return (score(problem, replies[-1]) if replies else Verdict.unparsed("no reply")), min(1, len(replies))
    episode = Episode(problem)
    for reply in replies:
        if episode.done:
            break
        episode.submit(reply)
    return episode.verdict() or Verdict.unparsed("no reply"), episode.turns


class PalaestraTask(vf.Task[PalaestraData, vf.State, vf.TaskConfig]):
    @vf.reward
    async def palaestra(self, task: PalaestraData, trace: Any) -> float:
        verdict, _ = judge(task, replies_of(trace))
        return verdict.reward

    @vf.metric
    async def verdict(self, task: PalaestraData, trace: Any) -> dict[str, float]:
        verdict, turns = judge(task, replies_of(trace))
        return {"correct": float(verdict.correct), "parsed": float(verdict.parsed), "turns": float(turns)}


class PalaestraTaskset(vf.Taskset[PalaestraTask, PalaestraTasksetConfig]):
    def load(self) -> Iterator[PalaestraTask]:
        config = self.config
        if config.env not in registry:
            raise ValueError(f"unknown palaestra env {config.env!r} (palaestra list shows them)")
        multi = is_multi_turn(config.env)
        seeds = range(config.seed, config.seed + config.n)
        for problem in problem_set(config.env, config.levels, seeds, config.answer_format):
            yield PalaestraTask(PalaestraData(
                id=f"{problem.env_id}-v{problem.version}/{problem.level}/{problem.seed}",
                name=f"{problem.env_id} level {problem.level} seed {problem.seed}",
                prompt=problem.prompt, env_id=problem.env_id, level=problem.level, seed=problem.seed,
                problem=problem.to_json(), multi_turn=multi), config.task)


class ReplyHarnessConfig(vf.HarnessConfig):
    pass


class ReplyHarness(vf.Harness[ReplyHarnessConfig]):
    """One chat completion per segment, in-process, through the rollout's interception endpoint."""

    APPENDS_SYSTEM_PROMPT = True
    SUPPORTS_RESUME = True  # a later segment: the same call on the conversation so far
    EXECUTES_CODE = False
    NEEDS_CONTAINER = False

    async def launch(self, ctx: Any, trace: Any, runtime: Any, endpoint: str, secret: str,
                     mcp_urls: dict[str, str], data: Any, tool_interception_url: str | None = None) -> Any:
        system_prompt, prompt = self.resolve_prompt(data)
        messages: list[dict[str, Any]] = [{"role": "system", "content": system_prompt}] if system_prompt else []
        if isinstance(prompt, str):
            messages.append({"role": "user", "content": prompt})
        elif prompt is not None:
            messages += [message_to_wire(message) for message in prompt]
        async with AsyncOpenAI(base_url=endpoint, api_key=secret, max_retries=0) as client:
            # the interception server applies the run's sampling and records the reply on the trace
            await client.chat.completions.create(model=ctx.model, messages=messages)  # type: ignore[arg-type]  # wire dicts
        return vf.ProgramResult(exit_code=0, stdout="", stderr="")


class PalaestraEnvConfig(vf.EnvConfig):
    player: vf.AgentConfig = vf.AgentConfig(runtime=vf.SubprocessConfig())


class PalaestraEnv(vf.Env[PalaestraEnvConfig]):
    """A single-turn problem: one reply. A multi-turn one: moves and observations until the game ends."""

    async def run(self, task: Any, agents: Any) -> None:
        data: PalaestraData = task.data
        if not data.multi_turn:
            await agents.player.run(task)
            return
        episode = Episode(Problem.from_json(data.problem))
        async with agents.player.interaction(task) as interaction:
            segment = await interaction.turn()
            while not segment.terminated:
                observation = episode.submit(segment.last_reply)
                if episode.done:
                    break
                segment = await interaction.turn(observation)


def load_environment(env_id: str, levels: int | Sequence[int] = (0,), n: int = 100, seed: int = 0,
                     answer_format: str | None = None, **env_config: Any) -> Any:
    """A verifiers ``Env`` over ``env_id``'s problems (levels x ``n`` seeds from ``seed``), scored by palaestra.

    ``env_config`` sets more of verifiers' ``EnvConfig`` (e.g. ``player={"max_turns": 8}``).
    """
    level_list = [levels] if isinstance(levels, int) else list(levels)
    taskset = {"id": TASKSET_ID, "env": env_id, "levels": level_list, "n": n, "seed": seed,
               "answer_format": answer_format}
    config = vf.resolve_env_config({"taskset": taskset, **env_config})
    return vf.load_environment(config)
