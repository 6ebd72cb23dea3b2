"""More than one machine: a simulated Ray cluster of a head and four worker nodes on this machine.

One test (a cluster costs seconds to start, so CI starts it once): ``make_vec(mode="ray")`` with
its shards on different nodes, ``palaestra export --ray`` and ``palaestra eval --ray`` sharded over
the nodes, and the loss of a node in the middle of a run -- the vector env's episodes are replayed
on a surviving node (the same observations and rewards as in-process), the export's jobs are made
again (every row once, in order). The nodes are Ray's own ``ray.cluster_utils.Cluster``: separate
raylets with their own object stores and worker processes, the multi-node code path of Ray.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import palaestra
from palaestra.baselines.evaluate import evaluate
from palaestra.baselines.policies import OraclePolicy, RandomPolicy
from palaestra.cli import main
from palaestra.integrations.common import problem_set
from palaestra.integrations.export import export_jobs, rows_for, rows_of_job
from palaestra.vector.ray_map import ray_map

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install palaestra[ray]): no cluster to simulate")
cluster_utils = pytest.importorskip("ray.cluster_utils", reason="this Ray has no ray.cluster_utils to simulate nodes")

WORKER_NODES, SHARDS = 4, 3  # one CPU per node: one shard per node, and a spare node for a lost shard
IDS = ["games/guess_number", "arithmetic/expression", "games/mastermind"]


@pytest.fixture()
def cluster() -> Iterator[Any]:
    # The head runs nothing (no CPUs), so every task and actor lands on a worker node.
    simulated = cluster_utils.Cluster(initialize_head=True, head_node_args={
        "num_cpus": 0, "include_dashboard": False,
        # a node that stops answering is declared dead after ~1.5 s (Ray's default: ~30 s)
        "_system_config": {"health_check_initial_delay_ms": 0, "health_check_period_ms": 500,
                           "health_check_failure_threshold": 3}})
    for _ in range(WORKER_NODES):
        simulated.add_node(num_cpus=1)
    simulated.wait_for_nodes()
    ray.init(address=simulated.address, log_to_driver=False)
    try:
        yield simulated
    finally:
        ray.shutdown()
        simulated.shutdown()


def node_of_actor(actor: Any) -> str:
    return ray.get(actor.__ray_call__.remote(lambda _: ray.get_runtime_context().get_node_id()))


def wait_until_dead(actor: Any) -> None:
    """Until Ray reports ``actor`` dead (its worker process notices its node's raylet is gone)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            ray.get(actor.__ray_ready__.remote(), timeout=5)
        except (ray.exceptions.RayActorError, ray.exceptions.GetTimeoutError):
            return
        time.sleep(0.2)
    raise AssertionError("the actor outlived its node")


def play(envs: Any, steps: int, between: Any = None) -> list[tuple[Any, ...]]:
    """``steps`` steps of fixed replies; ``between(step)`` runs before each step (e.g. removes a node)."""
    seen = [envs.reset(seed=11)[0]]
    for step in range(steps):
        if between is not None:
            between(step)
        obs, rewards, terminated, truncated, _ = envs.step([f"<answer>{(7 * step) % 90 + 5}</answer>"] * envs.num_envs)
        seen.append((obs, rewards.tolist(), terminated.tolist(), truncated.tolist()))
    return seen


def test_cluster_vector_env_export_and_eval_survive_the_loss_of_a_node(cluster: Any, tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    # --- palaestra export --ray: the same file as in one process ---------------------------------------------
    args = ["export", "hf", "--envs", *IDS, "--levels", "0", "1", "--seeds", "6", "--plain"]
    assert main([*args, "--out", str(tmp_path / "local.jsonl")]) == 0
    assert main([*args, "--out", str(tmp_path / "ray.jsonl"), "--ray", "local"]) == 0
    assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()

    # --- palaestra eval --ray: the same rows (timings aside) as in one process --------------------------------
    policies = [OraclePolicy(), RandomPolicy(seed=0)]
    local_rows, ray_rows = (evaluate(IDS, policies, [0, 1], range(3), ray_address=address)
                            for address in (None, "local"))
    assert [replace(r, seconds=0.0) for r in ray_rows] == [replace(r, seconds=0.0) for r in local_rows]
    assert len(local_rows) == len(IDS) * len(policies)
    capsys.readouterr()
    assert main(["eval", "--envs", *IDS, "--levels", "0", "1", "--seeds", "3", "--ray", "local"]) == 0
    assert "oracle solved 18/18" in capsys.readouterr().out

    # --- make_vec across nodes, then a node lost mid-run: its shard is replayed on another node -------------
    reference = palaestra.make_vec(IDS, num_envs=6, mode="sync")
    expected = play(reference, 8)
    reference.close()

    envs = palaestra.make_vec(IDS, num_envs=6, mode="ray", num_workers=SHARDS, timeout=60.0)
    try:
        nodes = [node_of_actor(actor) for actor in envs.runner.actors]
        assert len(set(nodes)) == SHARDS  # one shard per node

        def lose_a_node(step: int) -> None:
            if step == 4:
                victim = next(n for n in cluster.worker_nodes if n.node_id == node_of_actor(envs.runner.actors[0]))
                cluster.remove_node(victim, allow_graceful=False)  # as a machine that goes down
                wait_until_dead(envs.runner.actors[0])

        assert play(envs, 8, between=lose_a_node) == expected  # the same episodes, the lost shard's replayed
        assert envs.runner.restarts >= 1
        moved = node_of_actor(envs.runner.actors[0])
        assert moved not in nodes and len({moved, *nodes[1:]}) == SHARDS  # the lost shard now runs on the spare
    finally:
        envs.close()

    # --- an export's jobs with a node lost after the first result: every row once, in order -----------------
    jobs = export_jobs("hf", IDS, [0, 1, 2], 40, conversational=False)
    results = ray_map(rows_of_job, jobs, window=len(jobs))  # every job in flight on the nodes left
    rows = list(next(results))
    cluster.remove_node(next(iter(cluster.worker_nodes)), allow_graceful=False)
    for batch in results:
        rows += batch
    local = list(rows_for("hf", problem_set(IDS, [0, 1, 2], 40), conversational=False))
    assert len(rows) == len(local) == len(jobs) * 40
    assert [json.dumps(r, sort_keys=True) for r in rows] == [json.dumps(r, sort_keys=True) for r in local]
