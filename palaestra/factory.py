"""``palaestra.make``: build an env by id, with its keyword arguments, optionally with tools.

This module is also the string entry point of every env in Gymnasium's registry: its
attribute ``<family>__<name>`` builds that env, so Gymnasium's ``make`` and pickled
``EnvSpec`` objects need nothing but this module path.

Example::

    >>> import palaestra, gymnasium
    >>> env = palaestra.make("graphs/shortest_path", level=2)
    >>> env.spec.id == f"graphs/shortest_path-v{env.unwrapped.source.version}"
    True
    >>> same = gymnasium.make(env.spec.id, **env.spec.kwargs)
    >>> same.reset(seed=1)[0] == env.reset(seed=1)[0]
    True
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from palaestra.core.env import MultiTurnEnv, SingleTurnEnv, TextEnv
from palaestra.core.multiturn import MultiTurnTask
from palaestra.core.registry import FACTORY_MODULE, factory_name, register_with_gymnasium, registry

ENV_KWARGS = ("level", "render_mode", "answer_format", "tools", "max_tool_calls", "tool_format")


def make(env_id: str, *, level: int = 0, render_mode: str | None = None, answer_format: str | None = None,
         tools: Sequence[str] | None = None, max_tool_calls: int = 8, tool_format: str | None = None,
         **task_kwargs: Any) -> Any:
    """Create the environment ``env_id`` (``family/name`` or ``family/name-vN``), a ``gymnasium.Env[str, str]``.

    ``level`` is the starting difficulty (``reset(options={"level": L})`` changes it);
    ``answer_format`` overrides how the final answer is extracted (``tag``, ``boxed``,
    ``last_line``, ``raw``); ``tools`` (names such as ``"python"``, ``"calculator"``) wraps
    the env in :class:`palaestra.wrappers.tool_use.ToolUseEnv` with at most
    ``max_tool_calls`` calls per episode, written in ``tool_format`` (``hermes`` by default, ``llama3``,
    ``mistral``, ``openai``: :mod:`palaestra.tools.formats`). Other keyword arguments go to the env's task
    (e.g. ``partial_credit=True``); unknown ones raise ``TypeError`` naming the accepted ones.
    """
    spec, implied = registry.resolve(env_id)  # a retired id warns and implies the old env's options
    task_kwargs = {**implied, **task_kwargs}
    cls = spec.cls
    _check_task_kwargs(env_id, cls, task_kwargs)
    source = cls(answer_format=answer_format, **task_kwargs)
    env_cls = MultiTurnEnv if isinstance(source, MultiTurnTask) else SingleTurnEnv
    env: TextEnv = env_cls(source, level=level, render_mode=render_mode)  # type: ignore[arg-type]
    kwargs: dict[str, Any] = {"level": level, **task_kwargs}
    if answer_format is not None:
        kwargs["answer_format"] = answer_format
    if render_mode is not None:
        kwargs["render_mode"] = render_mode
    if tools:
        kwargs.update(tools=list(tools), max_tool_calls=max_tool_calls)
        if tool_format is not None:
            kwargs["tool_format"] = tool_format
    env.spec = _gym_spec(spec.versioned_id, spec.id, kwargs)
    if not tools:
        return env
    from palaestra.tools import make_tools
    from palaestra.wrappers.tool_use import ToolUseEnv

    return ToolUseEnv(env, tools=make_tools(tools), max_calls=max_tool_calls, tool_format=tool_format)


def accepted_kwargs(env_id: str) -> list[str]:
    """Every keyword argument ``make(env_id, ...)`` accepts."""
    return [*ENV_KWARGS, *_task_parameters(registry[env_id].cls)]


def _task_parameters(cls: type) -> list[str]:
    params = inspect.signature(cls.__init__).parameters.values()
    return [p.name for p in params if p.name not in ("self", "answer_format")
            and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


def _check_task_kwargs(env_id: str, cls: type, task_kwargs: dict[str, Any]) -> None:
    unknown = sorted(set(task_kwargs) - set(_task_parameters(cls)))
    if unknown:
        raise TypeError(f"make({env_id!r}) got unexpected keyword argument(s) {unknown}; "
                        f"it accepts {[*ENV_KWARGS, *_task_parameters(cls)]}")


def _gym_spec(versioned_id: str, base_id: str, kwargs: dict[str, Any]) -> Any:
    from gymnasium.envs.registration import EnvSpec as GymSpec

    return GymSpec(id=versioned_id, entry_point=f"{FACTORY_MODULE}:{factory_name(base_id)}", kwargs=kwargs,
                   order_enforce=False, disable_env_checker=True)


def __getattr__(name: str) -> Callable[..., Any]:
    """``family__name`` → a function building that env (Gymnasium's string entry point)."""
    if "__" not in name or name.startswith("__"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return partial(make, name.replace("__", "/", 1))


register_with_gymnasium(registry.specs())  # every known env, under its versioned id
