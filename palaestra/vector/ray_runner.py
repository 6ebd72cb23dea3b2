"""Sub-environments on Ray actors: the same vector env, scaled to a cluster.

Each actor owns a shard of envs, exactly like a worker process of the process
pool, so crash and time-budget recovery work the same way (see ``runners``).
Ray is an optional dependency (``pip install palaestra[ray]``) imported only here.

Connecting: with no running Ray, ``make_vec(..., mode="ray")`` starts a local
instance; to use a cluster, start Ray on it (``ray start --head`` on one node,
``ray start --address=HEAD:6379`` on the others) and pass
``ray_address="auto"`` (or ``"ray://HEAD:10001"`` from outside), or call
``ray.init(address=...)`` yourself before ``make_vec``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from palaestra.core.optional import require
from palaestra.vector.runners import PooledRunner, Slots
from palaestra.vector.shard import Shard

SPAWN_ATTEMPTS = 5


class _ShardActor:
    def __init__(self, slots: Slots, modules: Sequence[str], wrappers: Sequence[Any] = ()) -> None:
        self.shard = Shard(slots, modules, wrappers)

    def handle(self, message: tuple[Any, ...]) -> Any:
        kind, payload = message
        if kind == "execute":
            return self.shard.execute(payload)
        self.shard.restore(payload)
        return []


class RayRunner(PooledRunner):
    def __init__(self, slots: Slots, num_workers: int | None = None, timeout: float = 60.0,
                 modules: Sequence[str] = (), wrappers: Sequence[Any] = (), address: str | None = None,
                 cpus_per_worker: float = 1.0) -> None:
        ray = require("ray", "ray", 'make_vec(mode="ray")')
        if not ray.is_initialized():
            ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)
        self.ray = ray
        total = int(ray.available_resources().get("CPU", 1) // cpus_per_worker) or 1
        super().__init__(slots, num_workers or total, timeout)
        # SPREAD: on a cluster the shards go to different nodes, so losing a node costs few of them
        self.actor_cls = ray.remote(num_cpus=cpus_per_worker, max_restarts=0, scheduling_strategy="SPREAD")(_ShardActor)
        self.modules = tuple(modules)
        self.wrappers = tuple(wrappers)
        self.actors: list[Any] = [self._spawn(w) for w in range(len(self.shards))]
        self.pending: dict[int, Any] = {}
        ray.get([a.__ray_ready__.remote() for a in self.actors])

    def _spawn(self, worker: int) -> Any:
        return self.actor_cls.remote(self.shards[worker], self.modules, self.wrappers)

    def _submit(self, worker: int, message: tuple[Any, ...]) -> None:
        self.pending[worker] = self.actors[worker].handle.remote(message)

    def _collect(self, workers: list[int], deadline: float) -> dict[int, Any]:
        import time

        refs = {self.pending.pop(w): w for w in workers if w in self.pending}
        replies: dict[int, Any] = {}
        while refs:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            ready, _ = self.ray.wait(list(refs), num_returns=len(refs), timeout=remaining)
            for ref in ready:
                w = refs.pop(ref)
                try:
                    replies[w] = self.ray.get(ref)
                except self.ray.exceptions.RayError:
                    pass  # the actor died: reported by its absence
            if not ready:
                break
        return replies

    def _replace(self, worker: int) -> None:
        self.ray.kill(self.actors[worker], no_restart=True)
        # On a cluster, a node that went down is declared dead only after missed heartbeats: a replacement
        # placed on it meanwhile dies before it starts, so place another (a few times at most).
        for attempt in range(SPAWN_ATTEMPTS):
            self.actors[worker] = self._spawn(worker)
            try:
                self.ray.get(self.actors[worker].__ray_ready__.remote(), timeout=max(self.timeout, 60.0))
                return
            except (self.ray.exceptions.RayActorError, self.ray.exceptions.GetTimeoutError):
                self.ray.kill(self.actors[worker], no_restart=True)
        raise RuntimeError(f"no replacement for Ray worker {worker} started after {SPAWN_ATTEMPTS} attempts")

    def close(self) -> None:
        for actor in self.actors:
            self.ray.kill(actor, no_restart=True)
