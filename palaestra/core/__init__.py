"""The contract: problems, verdicts, tasks, text envs, registry, seeding and answer extraction.

Imports nothing above it (no verifier, solver, env, wrapper or integration). Most names are
loaded on first use, so that listing the registry does not pull in the text envs and with them
Gymnasium and NumPy. The two names that are also submodules (``registry``, ``retry``) are imported
here: importing a submodule sets the package attribute of its name to the module, which would
otherwise shadow the function or object of that name.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from palaestra.core.registry import registry
from palaestra.core.retry import retry

_LAZY = {
    "MultiTurnEnv": "palaestra.core.env",
    "SingleTurnEnv": "palaestra.core.env",
    "TextEnv": "palaestra.core.env",
    "Episode": "palaestra.core.multiturn",
    "MultiTurnTask": "palaestra.core.multiturn",
    "Outcome": "palaestra.core.multiturn",
    "Policy": "palaestra.core.multiturn",
    "View": "palaestra.core.multiturn",
    "regret_reward": "palaestra.core.multiturn",
    "Problem": "palaestra.core.problem",
    "Verdict": "palaestra.core.problem",
    "EnvSpec": "palaestra.core.registry",
    "Registry": "palaestra.core.registry",
    "RegistryError": "palaestra.core.registry",
    "make_source": "palaestra.core.registry",
    "register": "palaestra.core.registry",
    "GenerationError": "palaestra.core.retry",
    "derive_seed": "palaestra.core.seeding",
    "event_rng": "palaestra.core.seeding",
    "problem_rng": "palaestra.core.seeding",
    "ProblemSource": "palaestra.core.task",
    "Task": "palaestra.core.task",
}

__all__ = [
    "EnvSpec", "Episode", "GenerationError", "MultiTurnEnv", "MultiTurnTask", "Outcome", "Policy", "Problem", "ProblemSource",
    "Registry", "RegistryError", "SingleTurnEnv", "Task", "TextEnv", "Verdict", "derive_seed", "event_rng",
    "View", "make_source", "problem_rng", "regret_reward", "register", "registry", "retry",
]

if TYPE_CHECKING:  # what the lazy names are, for type checkers and editors
    from palaestra.core.env import MultiTurnEnv, SingleTurnEnv, TextEnv
    from palaestra.core.multiturn import Episode, MultiTurnTask, Outcome, Policy, View, regret_reward
    from palaestra.core.problem import Problem, Verdict
    from palaestra.core.registry import EnvSpec, Registry, RegistryError, make_source, register
    from palaestra.core.retry import GenerationError
    from palaestra.core.seeding import derive_seed, event_rng, problem_rng
    from palaestra.core.task import ProblemSource, Task


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'palaestra.core' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
