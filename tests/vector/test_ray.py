"""The Ray mode against a real local Ray instance started by the tests (Ray is an extra)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import palaestra

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install palaestra[ray])")
HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))  # the driver imports faulty_envs too


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    # Workers import the test-only faulty envs by module name, so put this folder on their path.
    pythonpath = os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])
    # address="local": a Ray instance of its own, never a cluster another test started on this machine
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             runtime_env={"env_vars": {"PYTHONPATH": pythonpath}})
    yield
    ray.shutdown()


def test_ray_mode_matches_sync_mode(local_ray: None) -> None:
    ids = ["arithmetic/expression", "games/mastermind", "planning/maze"]
    seen = {}
    for mode in ("sync", "ray"):
        envs = palaestra.make_vec(ids, num_envs=6, mode=mode, num_workers=2)
        prompts, infos = envs.reset(seed=9)
        answers = [f"<answer>{p.answer}</answer>" for p in infos["problem"]]
        obs, rewards, terminated, truncated, _ = envs.step(answers)
        seen[mode] = (prompts, obs, rewards.tolist(), terminated.tolist())
        envs.close()
    assert seen["ray"] == seen["sync"]
    assert seen["ray"][2] == [1.0] * 6


def test_ray_actor_crash_truncates_only_its_episode(local_ray: None) -> None:
    envs = palaestra.make_vec(["faulty/echo", "arithmetic/expression"], num_envs=4, mode="ray", num_workers=2,
                              timeout=60.0, modules=["faulty_envs"])
    try:
        _, infos = envs.reset(seed=0)
        gold = [f"<answer>{p.answer}</answer>" for p in infos["problem"]]
        _, rewards, terminated, truncated, infos = envs.step(["<answer>crash</answer>", gold[1], gold[2], gold[3]])
        assert truncated[0] and infos["final_info"]["error"][0]
        assert rewards[1:].tolist() == [1.0, 1.0, 1.0]
        assert envs.runner.restarts >= 1
        _, infos = envs.reset(seed=1)
        _, rewards, *_ = envs.step([f"<answer>{p.answer}</answer>" for p in infos["problem"]])
        assert rewards.tolist() == [1.0] * 4
    finally:
        envs.close()
