"""A shard: the sub-environments one worker owns, and the commands it runs on them.

The same class serves every mode: the sync runner holds one shard in-process,
the process pool one per worker process, the Ray runner one per actor. A
command is ``("reset", seed, options)``, ``("step", action)`` or
``("step", action, next_reset)``: the last one, when the step ends the episode,
resets the env at once with :func:`reset_options` ``(*next_reset)``, which saves
a vector env under SAME_STEP autoreset a second round trip to the worker. An
outcome is ``("ok", result)``, ``("ok", step_result, reset_outcome)`` after such
a reset, or ``("error", message)`` when the env itself raised.

Example::

    >>> shard = Shard({0: ("arithmetic/expression", {})})
    >>> [(i, kind)] = [(i, o[0]) for i, o in shard.execute([(0, ("reset", 3, None))])]
    >>> kind
    'ok'
    >>> [(_, outcome)] = shard.execute([(0, ("step", "<answer>0</answer>", (7, 0, 1, None)))])
    >>> outcome[2][0], outcome[2][1][1]["seed"] == reset_options(7, 0, 1, None)["problem_seed"]
    ('ok', True)
"""

from __future__ import annotations

import importlib
import traceback
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from palaestra.core.problem import Problem
from palaestra.core.seeding import derive_seed

Command = tuple[Any, ...]
Outcome = tuple[Any, ...]
SEED_RANGE = 2**31 - 1


def reset_options(base_seed: int, index: int, episode: int, level: int | None) -> dict[str, Any]:
    """Reset options of episode ``episode`` (from 0) of env ``index`` in a vector env reset with ``base_seed``.

    Episode 0 uses problem seed ``base_seed + index``; later ones a seed derived from all three.

    >>> reset_options(100, 3, 0, None), reset_options(100, 3, 0, 2)
    ({'problem_seed': 103}, {'problem_seed': 103, 'level': 2})
    """
    seed = base_seed + index if episode == 0 else derive_seed(base_seed, index, episode) % SEED_RANGE
    return {"problem_seed": seed} if level is None else {"problem_seed": seed, "level": level}


class Shard:
    def __init__(self, slots: dict[int, tuple[str, dict[str, Any]]], modules: Sequence[str] = (),
                 wrappers: Sequence[Callable[[Any], Any]] = ()) -> None:
        for module in modules:  # plug-in env modules that must be registered in this process too
            importlib.import_module(module)
        from palaestra.factory import make

        self.envs = {i: _wrapped(make(env_id, **kwargs), wrappers) for i, (env_id, kwargs) in slots.items()}
        # What a worker generates while it waits (``prepare_one``): each env's next reset, as the last step
        # command announced it, and the problem made for it ahead (None: its generation raised; the reset will say).
        self._upcoming: dict[int, tuple[Any, ...]] = {}
        self._prepared: dict[int, tuple[tuple[Any, ...], Problem | None]] = {}

    def execute(self, commands: Iterable[tuple[int, Command]]) -> list[tuple[int, Outcome]]:
        envs = self.envs
        outcomes: list[tuple[int, Outcome]] = []
        for i, command in commands:  # inlined: no method call per command on the hot path
            env = envs[i]
            try:
                if command[0] != "step":
                    self._upcoming.pop(i, None)  # a reset the caller chose: what was prepared may not follow
                    outcomes.append((i, ("ok", env.reset(seed=command[1], options=command[2]))))
                    continue
                result = env.step(command[1])
            except Exception as exc:  # an env bug ends that episode, not the run
                outcomes.append((i, ("error", describe(exc))))
                continue
            if len(command) > 2 and (result[2] or result[3]):
                base_seed, index, episode, level = command[2]
                options = reset_options(base_seed, index, episode, level)
                ready = self._prepared.pop(i, None)
                if ready is not None and ready[0] == command[2] and ready[1] is not None:
                    options["prepared"] = ready[1]
                outcomes.append((i, ("ok", result, _reset(env, options))))
                self._upcoming[i] = (base_seed, index, episode + 1, level)
            else:
                if len(command) > 2:
                    self._upcoming[i] = command[2]
                outcomes.append((i, ("ok", result)))
        return outcomes

    def prepare_one(self) -> bool:
        """Generate one env's next problem ahead of its reset; False when every announced one is ready.

        A worker calls this while it waits for its next command (its envs' problems vary in cost, so the
        worker that finished a step first would otherwise idle until the slowest is done). The reset then
        takes the prepared problem: the same ``(env id, level, seed)``, so the same problem.
        """
        for i, upcoming in self._upcoming.items():
            ready = self._prepared.get(i)
            if ready is not None and ready[0] == upcoming:
                continue
            env = self.envs[i].unwrapped
            options = reset_options(*upcoming)
            try:
                problem: Problem | None = env.source.sample(options.get("level", env.level), options["problem_seed"])
            except Exception:  # the reset itself will raise and report it
                problem = None
            self._prepared[i] = (upcoming, problem)
            return True
        return False

    def restore(self, histories: dict[int, list[Command]]) -> None:
        """Replay each env's episode so far (deterministic envs land in the same state)."""
        for i, history in histories.items():
            self.execute((i, command) for command in history)

    def close(self) -> None:
        for env in self.envs.values():
            env.close()


def _reset(env: Any, options: dict[str, Any]) -> Outcome:
    try:
        return "ok", env.reset(options=options)
    except Exception as exc:
        return "error", describe(exc)


def describe(exc: Exception) -> str:
    detail = traceback.format_exception_only(type(exc), exc)[-1].strip()
    return f"env raised {detail}"


def _wrapped(env: Any, wrappers: Sequence[Callable[[Any], Any]]) -> Any:
    for wrapper in wrappers:
        env = wrapper(env)
    return env
