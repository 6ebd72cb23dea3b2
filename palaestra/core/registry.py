"""The environment registry: decorator registration, lazy discovery, ``make``.

An env registers itself with ``@register`` on its class. Its id is
``family/name`` and its file is ``palaestra/envs/<family>/<name>.py``, so
``make(id)`` imports just that one module; listing the registry imports every
module under ``palaestra.envs`` plus plug-ins that declare the
``palaestra.envs`` entry-point group. There is no hand-kept list to edit.

Example::

    >>> import palaestra
    >>> env = palaestra.make("graphs/shortest_path", level=2)
    >>> "graphs/shortest_path" in palaestra.registry
    True
"""

from __future__ import annotations

import dataclasses
import difflib
import importlib
import importlib.metadata
import pkgutil
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from palaestra.core.env import SingleTurnEnv, TextEnv
from palaestra.core.multiturn import MultiTurnEnv
from palaestra.core.task import ProblemSource, Task

ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]*/[a-z][a-z0-9_]*$")
ENTRY_POINT_GROUP = "palaestra.envs"


@dataclass(frozen=True)
class EnvSpec:
    """What the registry knows about one environment."""

    id: str
    family: str
    turns: str
    levels: int
    tags: tuple[str, ...]
    description: str
    cls: type[ProblemSource]

    @property
    def module(self) -> str:
        return self.cls.__module__


class Registry:
    """All known environments, discovered lazily."""

    def __init__(self, package: str = "palaestra.envs") -> None:
        self._package = package
        self._specs: dict[str, EnvSpec] = {}
        self._discovered = False

    def add(self, cls: type[ProblemSource]) -> None:
        spec = _spec_of(cls)
        existing = self._specs.get(spec.id)
        if existing and existing.cls.__qualname__ != cls.__qualname__:
            raise ValueError(f"env id {spec.id!r} registered twice: {existing.cls} and {cls}")
        self._specs[spec.id] = spec

    def remove(self, env_id: str) -> None:
        """Forget an env (for tests and interactive development of plug-ins)."""
        self._specs.pop(env_id, None)

    def __getitem__(self, env_id: str) -> EnvSpec:
        if env_id not in self._specs:
            self._import_conventional(env_id)
        if env_id not in self._specs:
            self.discover()
        if env_id not in self._specs:
            close = difflib.get_close_matches(env_id, list(self._specs), n=5, cutoff=0.6)
            hint = f"; did you mean {', '.join(close[:5])}?" if close else ""
            raise KeyError(f"unknown env id {env_id!r}{hint} (see `palaestra list`)")
        return self._specs[env_id]

    def __contains__(self, env_id: object) -> bool:
        try:
            self[str(env_id)]
        except KeyError:
            return False
        return True

    def __iter__(self) -> Iterator[str]:
        return iter(self.ids())

    def __len__(self) -> int:
        return len(self.ids())

    def ids(self) -> list[str]:
        self.discover()
        return sorted(self._specs)

    def specs(self, family: str | None = None, tag: str | None = None) -> list[EnvSpec]:
        """Specs, optionally only one family or those carrying a tag."""
        return [
            s
            for s in (self._specs[i] for i in self.ids())
            if (family is None or s.family == family) and (tag is None or tag in s.tags)
        ]

    def families(self) -> list[str]:
        return sorted({s.family for s in self.specs()})

    def discover(self) -> None:
        """Import every env module of the package and of installed plug-ins (once)."""
        if self._discovered:
            return
        package = importlib.import_module(self._package)
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{self._package}."):
            importlib.import_module(info.name)
        for entry_point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
            entry_point.load()
        self._discovered = True

    def _import_conventional(self, env_id: str) -> None:
        if not ID_PATTERN.match(env_id):
            return
        try:
            importlib.import_module(f"{self._package}.{env_id.replace('/', '.')}")
        except ModuleNotFoundError:
            pass


def _spec_of(cls: type[ProblemSource]) -> EnvSpec:
    env_id = getattr(cls, "id", None)
    if not isinstance(env_id, str) or not ID_PATTERN.match(env_id):
        raise ValueError(f"{cls.__name__}.id must look like 'family/name' (lowercase), got {env_id!r}")
    family = getattr(cls, "family", None)
    if family != env_id.split("/")[0]:
        raise ValueError(f"{cls.__name__}.family must be {env_id.split('/')[0]!r} (the id's prefix), got {family!r}")
    if not issubclass(cls, (Task, MultiTurnEnv)):
        raise TypeError(f"{cls.__name__} must subclass Task or MultiTurnEnv")
    config_cls = getattr(cls, "Config", None)
    if not (dataclasses.is_dataclass(config_cls) and config_cls.__dataclass_params__.frozen):  # type: ignore[union-attr]
        raise TypeError(f"{cls.__name__}.Config must be a frozen dataclass")
    if not cls.description:
        raise ValueError(f"{cls.__name__}.description must not be empty")
    return EnvSpec(
        id=env_id,
        family=family,
        turns=cls.turns,
        levels=cls.num_levels,
        tags=tuple(cls.tags),
        description=cls.description,
        cls=cls,
    )


registry = Registry()


def register(cls: type[ProblemSource]) -> type[ProblemSource]:
    """Class decorator that adds a Task or MultiTurnEnv to the registry."""
    registry.add(cls)
    return cls


def make_source(env_id: str) -> ProblemSource:
    """The problem source behind an env id: a Task, or the multi-turn env itself."""
    return registry[env_id].cls()


def make(env_id: str, *, level: int = 0, render_mode: str | None = None, answer_format: str | None = None) -> TextEnv:
    """Create the environment ``env_id`` (a ``gymnasium.Env[str, str]``).

    ``level`` is the starting difficulty (``reset(options={"level": L})`` changes
    it); ``answer_format`` overrides how the final answer is extracted
    (``tag``, ``boxed``, ``last_line``, ``raw``).
    """
    spec = registry[env_id]
    env: TextEnv
    if issubclass(spec.cls, Task):
        env = SingleTurnEnv(spec.cls(answer_format=answer_format), level=level, render_mode=render_mode)
    else:
        env = spec.cls(level=level, render_mode=render_mode, answer_format=answer_format)  # type: ignore[call-arg]
    env.spec = _gym_spec(env_id, dict(level=level, answer_format=answer_format))
    return env


def _gym_spec(env_id: str, kwargs: dict[str, Any]) -> Any:
    from gymnasium.envs.registration import EnvSpec as GymSpec

    return GymSpec(
        id=env_id,
        entry_point=lambda **kw: make(env_id, **kw),
        kwargs=kwargs,
        order_enforce=False,
        disable_env_checker=True,
    )
