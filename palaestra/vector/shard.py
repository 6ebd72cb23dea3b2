"""A shard: the sub-environments one worker owns, and the commands it runs on them.

The same class serves every mode: the sync runner holds one shard in-process,
the process pool one per worker process, the Ray runner one per actor. A
command is ``("reset", seed, options)`` or ``("step", action)``; its outcome is
``("ok", result)`` or ``("error", message)`` when the env itself raised.

Example::

    >>> shard = Shard({0: ("arithmetic/expression", {})})
    >>> [(i, kind)] = [(i, o[0]) for i, o in shard.execute([(0, ("reset", 3, None))])]
    >>> kind
    'ok'
"""

from __future__ import annotations

import importlib
import traceback
from collections.abc import Callable, Iterable, Sequence
from typing import Any

Command = tuple[Any, ...]
Outcome = tuple[str, Any]


class Shard:
    def __init__(self, slots: dict[int, tuple[str, dict[str, Any]]], modules: Sequence[str] = (),
                 wrappers: Sequence[Callable[[Any], Any]] = ()) -> None:
        for module in modules:  # plug-in env modules that must be registered in this process too
            importlib.import_module(module)
        from palaestra.factory import make

        self.envs = {i: _wrapped(make(env_id, **kwargs), wrappers) for i, (env_id, kwargs) in slots.items()}

    def execute(self, commands: Iterable[tuple[int, Command]]) -> list[tuple[int, Outcome]]:
        return [(i, self._run(i, command)) for i, command in commands]

    def restore(self, histories: dict[int, list[Command]]) -> None:
        """Replay each env's episode so far (deterministic envs land in the same state)."""
        for i, history in histories.items():
            for command in history:
                self._run(i, command)

    def _run(self, i: int, command: Command) -> Outcome:
        env = self.envs[i]
        try:
            if command[0] == "reset":
                return "ok", env.reset(seed=command[1], options=command[2])
            return "ok", env.step(command[1])
        except Exception as exc:  # an env bug ends that episode, not the run
            detail = traceback.format_exception_only(type(exc), exc)[-1].strip()
            return "error", f"env raised {detail}"

    def close(self) -> None:
        for env in self.envs.values():
            env.close()


def _wrapped(env: Any, wrappers: Sequence[Callable[[Any], Any]]) -> Any:
    for wrapper in wrappers:
        env = wrapper(env)
    return env
