"""Vectorized stepping: many text envs (mixed ids) at once, in-process, in a process pool or on Ray.

Example::

    >>> import palaestra
    >>> envs = palaestra.make_vec("arithmetic/expression", num_envs=8, mode="sync")
    >>> prompts, infos = envs.reset(seed=42)
    >>> answers = ["<answer>" + p.answer + "</answer>" for p in infos["problem"]]
    >>> _, rewards, *_ = envs.step(answers)
    >>> rewards.tolist() == [1.0] * 8
    True
    >>> envs.close()
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from palaestra.vector.env import TextVectorEnv

MODES = ("sync", "async", "ray")


def assign_slots(env_ids: Sequence[str], num_envs: int, weights: Sequence[float] | None = None) -> list[str]:
    """Which env id each of ``num_envs`` slots runs: counts proportional to ``weights`` (largest
    remainder), ids interleaved evenly so every worker's block gets a similar mix.

    >>> assign_slots(["a", "b"], 5, weights=[3, 1])
    ['a', 'a', 'b', 'a', 'a']
    >>> assign_slots(["a", "b"], 4)
    ['a', 'b', 'a', 'b']
    """
    weights = list(weights) if weights is not None else [1.0] * len(env_ids)
    if len(weights) != len(env_ids) or any(w < 0 for w in weights) or sum(weights) <= 0:
        raise ValueError("weights must be non-negative, one per env id, and not all zero")
    shares = [num_envs * w / sum(weights) for w in weights]
    counts = [int(s) for s in shares]
    by_remainder = sorted(range(len(shares)), key=lambda k: (counts[k] - shares[k], k))
    for k in by_remainder[: num_envs - sum(counts)]:
        counts[k] += 1
    positions = [((j + 0.5) / count, k) for k, count in enumerate(counts) for j in range(count)]
    return [env_ids[k] for _, k in sorted(positions)]


def make_vec(
    env_ids: str | Sequence[str],
    num_envs: int | None = None,
    *,
    mode: str = "sync",
    weights: Sequence[float] | None = None,
    level: int = 0,
    answer_format: str | None = None,
    autoreset_mode: Any = "SameStep",
    num_workers: int | None = None,
    timeout: float = 60.0,
    modules: Sequence[str] = (),
    ray_address: str | None = None,
    wrappers: Sequence[Callable[[Any], Any]] = (),
    **env_kwargs: Any,
) -> TextVectorEnv:
    """A vector env of ``num_envs`` sub-envs.

    ``env_ids`` is one id or several (a mixed suite, split by ``weights``);
    ``mode`` is ``sync`` (this process), ``async`` (a pool of ``num_workers``
    processes) or ``ray`` (Ray actors, local or a cluster at ``ray_address``).
    ``timeout`` is the time budget of one worker batch, after which the worker is
    replaced; ``modules`` are imported in every worker first (plug-in envs).
    ``wrappers`` (picklable callables ``env -> env``, e.g. a class or a
    ``functools.partial``) are applied to every sub-env inside its worker; other
    keyword arguments go to ``palaestra.make`` (e.g. ``tools=["python"]``).
    ``level`` may pass the named presets (0-4) for unbounded envs (``palaestra list``
    shows their levels as ``5+``); every env of the suite must accept it.
    """
    import importlib

    from palaestra.core.registry import registry

    for module in modules:  # plug-in envs: registered here too, so their ids can be checked now
        importlib.import_module(module)
    ids = [env_ids] if isinstance(env_ids, str) else list(env_ids)
    if not ids:
        raise ValueError("make_vec needs at least one env id")
    for env_id in ids:
        spec = registry[env_id]  # unknown ids and levels an env does not take fail here, in the caller's process
        if not spec.accepts_level(level):
            raise ValueError(f"{env_id} takes levels 0 to {spec.levels - 1} (it is bounded), not level {level}")
    num_envs = num_envs if num_envs is not None else len(ids)
    if num_envs < 1:
        raise ValueError(f"num_envs must be >= 1, got {num_envs}")
    slot_ids = assign_slots(ids, num_envs, weights)
    kwargs = {"level": level, "answer_format": answer_format, **env_kwargs}
    slots = {i: (env_id, kwargs) for i, env_id in enumerate(slot_ids)}
    wrappers = tuple(wrappers)
    if mode == "sync":
        from palaestra.vector.runners import SyncRunner

        runner: Any = SyncRunner(slots, modules, wrappers)
    elif mode == "async":
        from palaestra.vector.runners import ProcessRunner

        runner = ProcessRunner(slots, num_workers, timeout, modules, wrappers)
    elif mode == "ray":
        from palaestra.vector.ray_runner import RayRunner

        runner = RayRunner(slots, num_workers, timeout, modules, wrappers, address=ray_address)
    else:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    return TextVectorEnv(slot_ids, runner, autoreset_mode)


__all__ = ["TextVectorEnv", "assign_slots", "make_vec"]
