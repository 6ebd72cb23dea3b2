"""palaestra: a gym of procedurally generated, program-verified environments for LLM RL.

Example::

    >>> import palaestra
    >>> env = palaestra.make("arithmetic/expression", level=2)
    >>> prompt, info = env.reset(seed=0)
    >>> _, reward, *_ = env.step("<answer>" + info["problem"].answer + "</answer>")
    >>> reward
    1.0

The public names are loaded on first use so that ``import palaestra`` stays
cheap (no Gymnasium, NumPy, SymPy or env module is imported by it).
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.2.0"

_LAZY = {
    "make": "palaestra.factory",
    "make_vec": "palaestra.vector",
    "make_source": "palaestra.core.registry",
    "register": "palaestra.core.registry",
    "registry": "palaestra.core.registry",
    "score": "palaestra.core.scoring",
    "EnvSpec": "palaestra.core.registry",
    "Problem": "palaestra.core.problem",
    "Verdict": "palaestra.core.problem",
    "Task": "palaestra.core.task",
    "MultiTurnTask": "palaestra.core.multiturn",
    "Outcome": "palaestra.core.multiturn",
    "MultiTurnEnv": "palaestra.core.env",
    "SingleTurnEnv": "palaestra.core.env",
    "TextEnv": "palaestra.core.env",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'palaestra' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
