"""Kit checks: grammar (round 3 reward integrity). See :mod:`palaestra.kit.base` for the shapes a check takes."""

from __future__ import annotations

from collections.abc import Callable

from palaestra.kit.base import Settings

CHECKS: dict[str, Callable[[str, Settings], str]] = {}
