"""verl: a reward function verl loads by file path, and the multi-turn episode behind its agent loop.

Targets verl's reward loop and agent loop as of commit ``1dda039b`` (verl-project/verl,
August 2026; the ``interactions`` module is gone, multi-turn rollouts are agent loops).

**Data**: ``palaestra export verl ... --out train.parquet`` (or
:func:`palaestra.integrations.export.export`) writes verl's RL dataset schema; every row's
``extra_info["problem"]`` is the serialised problem.

**Reward**: point verl at this module (by package path, or by file path: the file loads on
its own, as verl's ``load_module`` does it)::

    reward.custom_reward_function.path=pkg://palaestra.integrations.verl
    reward.custom_reward_function.name=compute_score        # or compute_score_async

:func:`compute_score` returns ``{"score", "acc", "parsed", "error"}`` (verl logs the extras);
``error`` is 1 when no verdict could be reached (the sandbox was down): verl has no way to
drop a sample, so such a sample scores 0 and is counted in ``error``. Rows whose
``data_source`` is not ``palaestra/...`` go to verl's own ``default_compute_score``.

**Multi-turn** (games, code with test feedback): rows of multi-turn envs carry
``agent_name: palaestra_agent``; register the agent loop with
``actor_rollout_ref.rollout.agent.agent_loop_config_path`` pointing at a file written by
:func:`write_agent_loop_config` (the loop itself is
:class:`palaestra.integrations.verl_agent.PalaestraAgentLoop`). It plays the episode turn
by turn (:func:`palaestra.integrations.verl_agent.play_episode`): the model's replies are trained on (mask 1), the env's
observations are context (mask 0), and the replies travel to :func:`compute_score`, which
replays them.

Example::

    >>> from palaestra.integrations.common import sample
    >>> problem = sample("arithmetic/addition", 0, 3)
    >>> extra = {"problem": problem.to_json()}
    >>> compute_score("palaestra/arithmetic/addition", f"<answer>{problem.answer}</answer>", problem.answer, extra)
    {'score': 1.0, 'acc': 1.0, 'parsed': 1.0, 'error': 0.0}
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from palaestra.core.problem import Verdict
from palaestra.core.scoring import score
from palaestra.integrations.common import DATA_SOURCE_PREFIX
from palaestra.integrations.export import VERL_MULTI_TURN_AGENT

REPLIES_FIELD = "palaestra_replies"  # the agent loop's extra field holding the episode's replies
AGENT_LOOP_TARGET = "palaestra.integrations.verl_agent.PalaestraAgentLoop"


def compute_score(data_source: str, solution_str: str, ground_truth: Any = None,
                  extra_info: Mapping[str, Any] | None = None, **kwargs: Any) -> dict[str, float]:
    """verl's reward-function signature: judge ``solution_str`` (or the replies of a multi-turn episode).

    The problem comes from ``extra_info["problem"]`` (written by the export); the
    ``ground_truth`` is only a reference answer and is not compared with (many problems
    have several right answers). Never raises.
    """
    if not str(data_source).startswith(DATA_SOURCE_PREFIX):
        return _verl_default(data_source, solution_str, ground_truth, extra_info, **kwargs)
    info = extra_info or {}
    problem = info.get("problem")
    if not isinstance(problem, str):
        return _result(Verdict.failed("extra_info has no 'problem': export the data with palaestra export verl"))
    replies = info.get(REPLIES_FIELD)
    if replies is not None and not isinstance(replies, str):
        return _result(score(problem, [str(r) for r in replies]))
    return _result(score(problem, solution_str if isinstance(solution_str, str) else str(solution_str)))


async def compute_score_async(data_source: str, solution_str: str, ground_truth: Any = None,
                              extra_info: Mapping[str, Any] | None = None, **kwargs: Any) -> dict[str, float]:
    """:func:`compute_score` in a worker thread, so verl's reward loop keeps other samples going meanwhile."""
    return await asyncio.to_thread(compute_score, data_source, solution_str, ground_truth, extra_info, **kwargs)


def _result(verdict: Verdict) -> dict[str, float]:
    return {"score": float(verdict.reward), "acc": float(verdict.correct), "parsed": float(verdict.parsed),
            "error": float(verdict.error is not None)}


def _verl_default(data_source: str, solution_str: str, ground_truth: Any, extra_info: Any, **kwargs: Any) -> Any:
    try:
        from verl.utils.reward_score import default_compute_score
    except ImportError:
        return _result(Verdict.failed(f"data source {data_source!r} is not palaestra's and verl is not installed"))
    return default_compute_score(data_source, solution_str, ground_truth, extra_info, **kwargs)


AGENT_LOOP_CONFIG = f"- name: {VERL_MULTI_TURN_AGENT}\n  _target_: {AGENT_LOOP_TARGET}\n"


def write_agent_loop_config(path: str | Path) -> Path:
    """Write the agent-loop registry file for ``actor_rollout_ref.rollout.agent.agent_loop_config_path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(AGENT_LOOP_CONFIG)
    return path
