"""The contract test kit over every registered environment: the gate for registration.

The suite runs the kit with CI's sample sizes (``Settings.ci()``); ``PALAESTRA_KIT=full`` runs the
full sizes (as ``palaestra check --full`` does).

Collecting this file imports no env module: ids, optional packages and toolchains come from the
registry's index. The checks share the problems they look at (:func:`palaestra.kit.sample`: each
generated once per worker process).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from palaestra import kit
from palaestra.catalog import golden_problem
from palaestra.core.registry import registry

ENV_IDS = registry.ids()
SETTINGS = kit.Settings.full() if os.environ.get("PALAESTRA_KIT") == "full" else kit.Settings.ci()
# Envs whose every judgement compiles a program or runs coqc (0.3-0.8 s of CPU each) check two seeds per level in CI,
# not three: the same checks on fewer problems (the full kit, `palaestra check --full`, keeps its twelve).
COMPILING_TOOLCHAINS = {"c", "cpp", "go", "verilog", "coq"}
IN_PROCESS_CHECKS = [name for name in kit.CHECKS if name != "determinism_across_processes"]
GOLDEN_DIR = Path(__file__).resolve().parents[1] / "golden"


def _missing_packages(env_id: str) -> list[str]:
    """Envs built on an optional package (an extra) name its module in ``python_requires``."""
    return [module for module in registry[env_id].python_requires if importlib.util.find_spec(module) is None]



def _skip_without_toolchains(env_id: str) -> None:
    """Coding envs name the languages they compile or run (``toolchains``), envs on an optional package the
    module (``python_requires``); without one, skip with the reason."""
    if packages := _missing_packages(env_id):
        pytest.skip(f"{env_id}: optional package missing: {packages}")
    needed = registry[env_id].toolchains
    if not needed:
        return
    from palaestra import sandbox

    languages = sandbox.probe().languages
    missing = [lang for lang in needed if lang not in languages or not languages[lang].available]
    if missing:
        pytest.skip(f"{env_id}: toolchain missing for {missing}")


def _settings(env_id: str) -> kit.Settings:
    if SETTINGS.seeds > 2 and COMPILING_TOOLCHAINS & set(registry[env_id].toolchains):
        return dataclasses.replace(SETTINGS, seeds=2)
    return SETTINGS


@pytest.mark.parametrize("check", IN_PROCESS_CHECKS)
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_contract(env_id: str, check: str) -> None:
    _skip_without_toolchains(env_id)
    result = kit.run_check(env_id, check, _settings(env_id))
    assert result.ok, f"{env_id} {check}: {result.detail}"


@pytest.fixture(scope="session")
def fresh_process() -> Iterator[kit.FreshProcess]:
    # One interpreter per test worker (with another PYTHONHASHSEED) fingerprints the envs that worker tests.
    with kit.FreshProcess(SETTINGS.fingerprint_seeds) as fresh:
        yield fresh


BUILT_IN_IDS = [env_id for env_id in ENV_IDS if registry[env_id].module.startswith("palaestra.envs.")]
# A built-in env's golden snapshot holds what another interpreter (another hash seed) generated, on more seeds than
# the fingerprint: test_golden_snapshot asserts its determinism across processes. The fresh interpreter fingerprints
# the envs without a snapshot, and one env per family so the check itself stays exercised on every family's code.
FRESH_PROCESS_IDS = [env_id for env_id in ENV_IDS if env_id not in BUILT_IN_IDS] + sorted(
    {registry[env_id].family: env_id for env_id in reversed(BUILT_IN_IDS)}.values())


@pytest.mark.parametrize("env_id", FRESH_PROCESS_IDS)
def test_determinism_across_processes(env_id: str, fresh_process: kit.FreshProcess) -> None:
    _skip_without_toolchains(env_id)
    assert fresh_process.fingerprint(env_id) == kit.shared_fingerprint(env_id, SETTINGS.fingerprint_seeds)


@pytest.mark.parametrize("env_id", BUILT_IN_IDS)
def test_golden_snapshot(env_id: str) -> None:
    """What each (level, seed) produces is pinned per version; a failure names the levels and seeds that changed."""
    problem = golden_problem(env_id, GOLDEN_DIR, sample=kit.sample)
    assert problem is None, f"{env_id}: {problem}"


def test_registry_scale() -> None:
    specs = registry.specs()
    assert len(specs) >= 30
    assert len({s.family for s in specs}) >= 10
    assert sum(s.turns == "multi" for s in specs) >= 4
