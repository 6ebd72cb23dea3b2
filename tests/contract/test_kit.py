"""The contract test kit over every registered environment: the gate for registration.

The suite runs the kit with CI's sample sizes (``Settings.ci()``); ``PALAESTRA_KIT=full`` runs the
full sizes (as ``palaestra check --full`` does).
"""

from __future__ import annotations

import importlib.util
import os

import pytest

from palaestra import kit
from palaestra.core.registry import make_source, registry

ENV_IDS = registry.ids()
SETTINGS = kit.Settings.full() if os.environ.get("PALAESTRA_KIT") == "full" else kit.Settings.ci()
IN_PROCESS_CHECKS = [name for name in kit.CHECKS if name != "determinism_across_processes"]


def _missing_packages(env_id: str) -> list[str]:
    """Envs built on an optional package (an extra) name its module in ``python_requires``."""
    needed = getattr(registry[env_id].cls, "python_requires", ())
    return [module for module in needed if importlib.util.find_spec(module) is None]


RUNNABLE_IDS = [env_id for env_id in ENV_IDS if not _missing_packages(env_id)]


def _skip_without_toolchains(env_id: str) -> None:
    """Coding envs name the languages they compile or run (``toolchains``), envs on an optional package the
    module (``python_requires``); without one, skip with the reason."""
    if packages := _missing_packages(env_id):
        pytest.skip(f"{env_id}: optional package missing: {packages}")
    needed = getattr(registry[env_id].cls, "toolchains", ())
    if not needed:
        return
    from palaestra import sandbox

    languages = sandbox.probe().languages
    missing = [lang for lang in needed if lang not in languages or not languages[lang].available]
    if missing:
        pytest.skip(f"{env_id}: toolchain missing for {missing}")


@pytest.mark.parametrize("check", IN_PROCESS_CHECKS)
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_contract(env_id: str, check: str) -> None:
    _skip_without_toolchains(env_id)
    result = kit.run_check(env_id, check, SETTINGS)
    assert result.ok, f"{env_id} {check}: {result.detail}"


@pytest.fixture(scope="session")
def fresh_process_fingerprints() -> dict[str, str]:
    # One interpreter (with another PYTHONHASHSEED) fingerprints every env at once.
    return kit.fingerprints_in_fresh_process(RUNNABLE_IDS, SETTINGS.fingerprint_seeds)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_determinism_across_processes(env_id: str, fresh_process_fingerprints: dict[str, str]) -> None:
    _skip_without_toolchains(env_id)
    ours = kit._fingerprint(make_source(env_id), SETTINGS.fingerprint_seeds)
    assert fresh_process_fingerprints[env_id] == ours


def test_registry_scale() -> None:
    specs = registry.specs()
    assert len(specs) >= 30
    assert len({s.family for s in specs}) >= 10
    assert sum(s.turns == "multi" for s in specs) >= 4
