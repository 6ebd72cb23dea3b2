"""Independent jobs spread over a Ray cluster, their results taken in order: ``export --ray``, ``eval --ray``.

Each job is a Ray task. When the node (or the worker process) running a task is lost, Ray runs
the task again elsewhere (``max_retries``); the driver takes the results in the jobs' order, each
exactly once, so a lost node costs time, never a row and never a duplicate. Jobs are pure
functions of their arguments (palaestra problems depend on ``(env_id, level, seed)`` only), so
a job run twice gives the same result. At most ``window`` jobs are in flight, which bounds the
driver's memory on long runs.

Connecting: a process that already called ``ray.init`` keeps its connection; otherwise
``"local"`` starts a Ray instance of its own, ``"auto"`` joins the cluster of this machine (``ray
start --head`` on one node, ``ray start --address=HEAD:6379`` on the others), ``"ray://HEAD:10001"``
one from outside, and ``None`` follows Ray's own rule (``$RAY_ADDRESS``, else a cluster started on
this machine, else a new local instance).

Example (a local Ray instance)::

    >>> list(ray_map(abs, [-1, 2, -3]))  # doctest: +SKIP
    [1, 2, 3]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from palaestra.core.optional import require

MAX_RETRIES = 5  # reruns of a job whose node or worker died (a job that raises is not rerun: that is a bug)


def connect(address: str | None = None, what: str = "--ray") -> Any:
    """The ``ray`` module, connected to ``address`` (see the module docstring) unless already connected."""
    ray = require("ray", "ray", what)
    if not ray.is_initialized():
        ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)
    return ray


def ray_map(fn: Callable[[Any], Any], jobs: Iterable[Any], *, address: str | None = None, window: int | None = None,
            max_retries: int = MAX_RETRIES) -> Iterator[Any]:
    """``fn(job)`` for every job, computed as Ray tasks across the cluster, yielded in the jobs' order.

    ``fn`` must be importable by the workers (a module-level function); ``window`` is the number
    of jobs in flight (default: twice the cluster's CPUs).
    """
    ray = connect(address)
    task = ray.remote(num_cpus=1, max_retries=max_retries, scheduling_strategy="SPREAD")(_run)
    window = window or max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
    queue = iter(jobs)
    pending: deque[Any] = deque()

    def submit() -> None:
        for job in queue:
            pending.append(task.remote(fn, job))
            return

    for _ in range(window):
        submit()
    while pending:
        ref = pending.popleft()
        submit()  # keep the window full while waiting for the oldest job
        yield ray.get(ref)


def _run(fn: Callable[[Any], Any], job: Any) -> Any:
    return fn(job)
