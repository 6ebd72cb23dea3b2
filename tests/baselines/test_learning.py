"""The bundled baseline really learns to compute: the tiny policy, trained from scratch by REINFORCE on a CPU,
goes from chance (one answer in eight) to adding two digits (arithmetic/addition level 0). This is the
CI-sized version of `palaestra train`, whose full run reaches >= 0.9 held-out accuracy (README)."""

from __future__ import annotations

import statistics

import pytest

torch = pytest.importorskip("torch", reason="the REINFORCE baseline needs torch (pip install palaestra[torch])")

from palaestra.baselines.evaluate import PolicyChat, Suite, run_suite  # noqa: E402
from palaestra.baselines.reinforce import TrainConfig, make_group, train  # noqa: E402
from palaestra.baselines.tiny import TinyPolicy  # noqa: E402
from palaestra.cli import TINY_ENTROPY, TINY_LR  # noqa: E402

# the main job's configuration (256 episodes per step: 32 problems x 8 samples), for 140 of its 600 steps: by then
# the sampled accuracy has gone from ~0.03 to ~0.45 and the held-out greedy one from ~0.16 to ~0.57 (one thread)
STEPS, PROBLEMS, SAMPLES, ENV = 140, 32, 8, "arithmetic/addition"


def test_tiny_policy_learns_to_add_from_scratch() -> None:
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # CI runs two test workers on two cores; one thread each also makes runs repeatable
    envs = make_group(ENV, PROBLEMS, SAMPLES, level=0, answer_format="raw")
    try:
        policy = TinyPolicy.for_envs([ENV], level=0, seed=0, device="cpu")
        policy.answer_format = "raw"
        assert policy.reply_tokens == 2  # one digit and the stop token
        held_out = Suite((ENV,), levels=(0,), seeds=tuple(range(10**6, 10**6 + 200)))
        chat = PolicyChat(policy, max_new_tokens=policy.reply_tokens, temperature=0.0)
        before = run_suite(chat, held_out, answer_format="raw").env_rows()[0]["pass@1"]
        config = TrainConfig(steps=STEPS, lr=TINY_LR, entropy_coef=TINY_ENTROPY, advantage="group",
                             max_new_tokens=policy.reply_tokens, micro_batch_size=PROBLEMS * SAMPLES, seed=0)
        result = train(policy, envs, config, progress=False)
        after = run_suite(chat, held_out, answer_format="raw").env_rows()[0]["pass@1"]
    finally:
        torch.set_num_threads(threads)
        for e in envs:
            e.close()
    accuracy = [h["accuracy"] for h in result.history]
    start, end = statistics.mean(accuracy[:10]), statistics.mean(accuracy[-20:])
    assert start < 0.25 and before < 0.25, f"an untrained policy should be near chance (0.125): {start:.3f}, {before}"
    assert end >= 0.35 and after >= 0.5, f"sampled accuracy {start:.3f} -> {end:.3f}, held-out {before} -> {after}"
    assert all(h["errors"] == 0 for h in result.history)
