"""The docs' code is part of the product: the authoring guide's env example must pass the contract kit."""

from __future__ import annotations

import re
from pathlib import Path

from palaestra import kit
from palaestra.core import registry

GUIDE = (Path(__file__).resolve().parents[1] / "docs" / "authoring.md").read_text()


def test_authoring_guide_env_example_passes_the_kit() -> None:
    block = next(b for b in re.findall(r"```python\n(.*?)```", GUIDE, re.S) if "@register" in b)
    namespace: dict[str, object] = {}
    exec(compile(block, "docs/authoring.md", "exec"), namespace)  # our own documentation, not model text
    try:
        checks = [c for c in kit.CHECKS if c != "determinism_across_processes"]  # not importable elsewhere
        failed = [r for r in kit.run_checks("arithmetic/gcd", checks=checks) if not r.ok]
        assert failed == []
    finally:
        registry.remove("arithmetic/gcd")
