"""reasoning-gym's datasets as palaestra envs on demand (``make("reasoning_gym/<dataset>")``), marked external."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

import palaestra
from palaestra.core.optional import MissingExtra
from palaestra.core.registry import registry

pytest.importorskip("reasoning_gym")


@pytest.fixture(autouse=True)
def _forget_made_envs() -> Iterator[None]:
    """Envs made on demand are registered at run time: forget them, so that no later test sees them."""
    before = set(registry.ids())
    yield
    for env_id in set(registry.ids()) - before:
        registry.remove(env_id)


def test_a_dataset_is_an_env_scored_by_its_own_scorer() -> None:
    env = palaestra.make("reasoning_gym/chain_sum")
    prompt, info = env.reset(seed=3)
    problem = info["problem"]
    assert "arithmetic" in prompt and problem.env_id == "reasoning_gym/chain_sum"
    assert env.step(f"<answer>{problem.answer}</answer>")[1] == 1.0
    env.reset(seed=3)
    assert env.step(f"<answer>{int(problem.answer) + 1}</answer>")[1] == 0.0
    assert palaestra.score(problem, f"<answer>{problem.answer}</answer>").correct
    again, _ = palaestra.make("reasoning_gym/chain_sum").reset(seed=3)
    assert again == prompt  # seeded by (env_id, level, seed) like every env


def test_it_is_marked_external_and_kept_out_of_the_catalogue() -> None:
    palaestra.make("reasoning_gym/chain_sum")
    spec = registry["reasoning_gym/chain_sum"]
    assert {"external", "not-palaestra-verified"} <= set(spec.tags)
    from palaestra.catalog import INDEX_PATH

    assert "reasoning_gym/" not in INDEX_PATH.read_text()


def test_an_unknown_dataset_is_an_unknown_id_and_another_library_version_is_not_judged() -> None:
    with pytest.raises(KeyError, match="unknown env id"):
        palaestra.make("reasoning_gym/no_such_dataset")
    assert "reasoning_gym/no_such_dataset" not in registry
    problem = palaestra.make_source("reasoning_gym/chain_sum").sample(0, 1)
    older = problem.__class__(**{**problem.__dict__, "data": {**problem.data, "reasoning_gym": "0.0.1"}})
    verdict = palaestra.make_source("reasoning_gym/chain_sum").verify(older, problem.answer)
    assert verdict.error is not None and "0.0.1" in verdict.error


def test_without_the_package_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "reasoning_gym", None)
    with pytest.raises(MissingExtra, match=r"palaestra\[reasoning-gym\]"):
        palaestra.make("reasoning_gym/basic_arithmetic")
    assert "reasoning_gym/basic_arithmetic" not in registry
