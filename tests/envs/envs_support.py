"""Helpers shared by the env tests (imported as a sibling module: pytest puts this folder on sys.path)."""

from __future__ import annotations

from typing import Any


def solves(task: Any, problem: Any, replies: list[str]) -> bool:
    """Whether a multi-turn task's episode, played with ``replies`` (each put in the task's answer format) within
    its turn limit, ends with a correct final verdict."""
    episode = task.replay(problem, [task.format_answer(reply) for reply in replies])
    return episode.done and bool(episode.verdicts[-1].correct)
