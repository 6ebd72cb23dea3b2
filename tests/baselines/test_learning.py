"""The bundled baseline really learns: the tiny policy, trained from scratch by REINFORCE on a CPU,
goes from chance to solving strings/copy at level 0 (the CI-sized version of `palaestra train`)."""

from __future__ import annotations

import statistics

import pytest

torch = pytest.importorskip("torch", reason="the REINFORCE baseline needs torch (pip install palaestra[torch])")

import palaestra  # noqa: E402
from palaestra.baselines.reinforce import TrainConfig, train  # noqa: E402
from palaestra.baselines.tiny import TinyPolicy  # noqa: E402

STEPS, EPISODES_PER_STEP = 150, 128


def test_tiny_policy_learns_to_copy_a_character_from_scratch() -> None:
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # CI runs two test workers on two cores; one thread each also makes runs repeatable
    envs = palaestra.make_vec("strings/copy", EPISODES_PER_STEP, level=0, answer_format="raw")
    try:
        policy = TinyPolicy.for_envs(["strings/copy"], level=0, seed=0)
        result = train(policy, envs, TrainConfig(steps=STEPS, seed=0), progress=False)
    finally:
        torch.set_num_threads(threads)
        envs.close()
    rewards = [h["reward"] for h in result.history]
    start, end = statistics.mean(rewards[:10]), statistics.mean(rewards[-10:])
    assert start < 0.15, f"an untrained policy should be near chance, got {start:.3f}"
    assert end >= 0.6 and end >= start + 0.4, f"mean reward went {start:.3f} -> {end:.3f} in {STEPS} steps"
    assert statistics.mean(h["accuracy"] for h in result.history[-10:]) >= 0.6
