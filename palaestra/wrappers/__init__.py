"""Wrappers around palaestra envs. Each lives in its own module and is imported on first use:

- :class:`~palaestra.wrappers.tool_use.ToolUseEnv`: tool calls (``<tool_call>`` JSON) around any env;
- :class:`~palaestra.wrappers.chat.ChatFormat`: chat messages in, chat messages out;
- :class:`~palaestra.wrappers.rewards.FormatReward`, :class:`~palaestra.wrappers.rewards.NoisyReward`;
- :class:`~palaestra.wrappers.curriculum.Curriculum` with :class:`CurriculumWrapper` and
  :class:`CurriculumVectorWrapper`: adaptive levels per env id, up and down;
- :class:`~palaestra.wrappers.statistics.EnvStatistics`: per-env statistics of a mixed vector env.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "ToolUseEnv": "palaestra.wrappers.tool_use",
    "ChatFormat": "palaestra.wrappers.chat",
    "FormatReward": "palaestra.wrappers.rewards",
    "NoisyReward": "palaestra.wrappers.rewards",
    "Curriculum": "palaestra.wrappers.curriculum",
    "CurriculumWrapper": "palaestra.wrappers.curriculum",
    "CurriculumVectorWrapper": "palaestra.wrappers.curriculum",
    "EnvStatistics": "palaestra.wrappers.statistics",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'palaestra.wrappers' has no attribute {name!r}")
