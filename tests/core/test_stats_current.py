"""Every built-in env's expected scores (``palaestra/envs/stats.json``, written by ``palaestra stats``)
are of its current version: a version bump without ``palaestra stats ID`` leaves the catalogue
without figures for it (it skips stale entries), and this says which."""

from __future__ import annotations

import json

from palaestra.core.registry import STATS_PATH, registry


def test_the_stats_of_every_built_in_env_are_of_its_current_version() -> None:
    stats = json.loads(STATS_PATH.read_text())
    stale = [
        f"{spec.id} (stats {'v' + str(stats[spec.id].get('version')) if spec.id in stats else 'missing'}, env v{spec.version})"
        for spec in registry.specs()
        if spec.module.startswith("palaestra.envs.") and stats.get(spec.id, {}).get("version") != spec.version
    ]
    assert not stale, f"run `palaestra index` then `palaestra stats ID` for: {', '.join(stale)}"
