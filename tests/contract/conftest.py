"""The kit's tests of one env run back to back.

Pytest orders a file's tests function by function: every env's checks, then every env's cross-process
fingerprint, then every golden snapshot. Both of the last two look at problems the checks already generated
(seeds 0-2 of every level), but by then :func:`palaestra.kit.sample` keeps only the last few envs' problems, so
each env's were generated again. Grouped by env, they come from the cache.
"""

from __future__ import annotations

import pytest

KIT_FILE = "tests/contract/test_kit.py::"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    positions = [i for i, item in enumerate(items) if item.nodeid.startswith(KIT_FILE)]
    groups: dict[str | None, list[pytest.Item]] = {}  # env id (None: a test of no env) -> its tests, in order
    for i in positions:
        callspec = getattr(items[i], "callspec", None)
        groups.setdefault(callspec.params.get("env_id") if callspec else None, []).append(items[i])
    for i, item in zip(positions, [item for group in groups.values() for item in group], strict=True):
        items[i] = item
