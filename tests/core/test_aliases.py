"""Retired env ids (merged envs) resolve, Gymnasium-style, with a DeprecationWarning naming the new id."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import gymnasium
import pytest

import palaestra
from palaestra.core.registry import registry

RETIRED = json.loads((Path(__file__).parent / "data" / "retired_problems.json").read_text())
"""One problem each retired env generated in its last version (made by that code before the merge)."""


def _aliases() -> dict[str, str]:
    return {old: alias.id for old, alias in registry.aliases().items()}


def test_the_merges_are_aliases() -> None:
    assert _aliases()["graphs/articulation_points"] == "graphs/bridges"
    assert _aliases()["puzzles/twenty_four"] == "arithmetic/countdown"
    assert _aliases()["planning/missionaries_cannibals"] == "planning/river_crossing"
    assert _aliases()["symbolic/arc_1d"] == "symbolic/list_functions"


@pytest.mark.parametrize("old", sorted(registry.aliases()))
def test_listing_shows_no_alias_but_the_id_still_resolves(old: str) -> None:
    assert old not in registry.ids()
    assert old not in {s.id for s in registry.specs()}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # membership does not warn
        assert old in registry


@pytest.mark.parametrize("old", sorted(registry.aliases()))
def test_make_of_a_retired_id_warns_and_builds_the_merged_env(old: str) -> None:
    new = registry.aliases()[old].id
    with pytest.warns(DeprecationWarning, match=new.replace("/", ".")):
        env = palaestra.make(old)
    assert env.spec.id == registry[new].versioned_id
    observation, _ = env.reset(seed=3)
    assert isinstance(observation, str) and observation
    same = gymnasium.make(env.spec.id, **env.spec.kwargs)  # the spec rebuilds the same env, without the alias
    assert same.reset(seed=3)[0] == observation


@pytest.mark.parametrize("old", sorted(registry.aliases()))
def test_gymnasium_make_of_the_old_versioned_id_warns(old: str) -> None:
    alias = registry.aliases()[old]
    with pytest.warns(DeprecationWarning, match=alias.id.replace("/", ".")):
        env = gymnasium.make(f"{old}-v{alias.version}")
    assert env.reset(seed=0)[0]


@pytest.mark.parametrize("old", sorted(RETIRED))
def test_score_of_an_old_problem_warns_and_judges(old: str) -> None:
    problem = RETIRED[old]
    alias = registry.aliases()[old]
    assert problem["env_id"] == old and problem["version"] == alias.version
    text = json.dumps(problem)
    with pytest.warns(DeprecationWarning, match=alias.id.replace("/", ".")):
        right = palaestra.score(text, f"<answer>{problem['answer']}</answer>")
    assert right.correct and right.error is None, right
    with pytest.warns(DeprecationWarning):
        wrong = palaestra.score(text, "<answer>none</answer>")
    assert not wrong.correct


def test_an_old_problem_of_another_version_is_refused() -> None:
    old = sorted(RETIRED)[0]
    problem = {**RETIRED[old], "version": registry.aliases()[old].version + 5}
    with pytest.warns(DeprecationWarning):
        verdict = palaestra.score(json.dumps(problem), f"<answer>{problem['answer']}</answer>")
    assert verdict.error is not None and not verdict.correct


def test_an_alias_declared_by_an_env_class_registers_and_is_removed_with_it() -> None:
    from palaestra.core import register
    from palaestra.envs.arithmetic.expression import Expression as Base

    class Renamed(Base):
        id = "aliasdemo/renamed"
        family = "aliasdemo"
        aliases = {"aliasdemo/original": {"version": 3, "kwargs": {}}}

    register(Renamed)
    try:
        with pytest.warns(DeprecationWarning, match="aliasdemo.renamed"):
            assert registry["aliasdemo/original-v3"].id == "aliasdemo/renamed"
        with pytest.raises(KeyError), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            registry["aliasdemo/original-v7"]  # a version the retired id never had
    finally:
        registry.remove("aliasdemo/renamed")
    assert "aliasdemo/original" not in registry


def test_bridges_target_option_asks_one_kind_of_cut() -> None:
    cut_vertices = palaestra.make("graphs/bridges", target="articulation_points")
    edges = palaestra.make("graphs/bridges", target="bridges")
    for seed in range(5):
        assert "articulation points" in cut_vertices.reset(seed=seed)[0]
        assert "bridges" in edges.reset(seed=seed)[0] and "articulation" not in edges.reset(seed=seed)[0]
    mixed = {("articulation" in palaestra.make("graphs/bridges").reset(seed=s)[0]) for s in range(20)}
    assert mixed == {True, False}


def test_addition_is_a_demo_task_listed_but_not_counted() -> None:
    from palaestra.catalog import catalogue_page

    assert "demo" in registry["arithmetic/addition"].tags
    counted = registry.counted()
    assert "arithmetic/addition" not in {s.id for s in counted} and len(counted) == len(registry.ids()) - 1
    page = catalogue_page([registry["arithmetic/addition"], registry["graphs/bridges"]])
    assert "1 environments in 1 families" in page and "1 demonstration task" in page


def test_the_warning_points_at_the_callers_code_so_default_filters_show_it() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        palaestra.make("graphs/articulation_points")
        gymnasium.make("symbolic/arc_1d-v1")
    deprecations = [w for w in caught if issubclass(w.category, DeprecationWarning)]
    assert [w.filename for w in deprecations] == [__file__, __file__]


MOVED = json.loads((Path(__file__).parent / "data" / "moved_problems.json").read_text())
"""One problem each env generated under its old id (level 1, seed 11), before it moved to another family."""


def test_small_families_were_folded_into_the_ones_they_overlap() -> None:
    assert {old: _aliases()[old] for old in MOVED} == {
        "grid/sudoku": "puzzles/sudoku", "grid/n_queens": "puzzles/n_queens",
        "logic/knights_knaves": "deduction/knights_knaves", "logic/propositional": "deduction/propositional",
        "search/hanoi": "planning/hanoi", "search/maze": "planning/maze",
        "statistics/descriptive": "probability/descriptive_statistics",
        "statistics/regression": "probability/regression", "programs/output_prediction": "code/output_prediction",
        "combinatorial/constrained_counting": "probability/constrained_counting",
        "combinatorial/countdown": "arithmetic/countdown"}
    families = {spec.family for spec in registry.specs()}
    assert not families & {"grid", "logic", "search", "statistics", "programs", "combinatorial"}


@pytest.mark.parametrize("old", sorted(MOVED))
def test_a_moved_env_keeps_its_problems_until_its_version_changes_and_scores_the_old_ones(old: str) -> None:
    before = MOVED[old]
    alias = registry.aliases()[old]
    assert alias.kwargs == {} and before["version"] == alias.version
    if registry[alias.id].version == alias.version:  # not changed since it moved: the same problems
        after = json.loads(palaestra.make_source(alias.id).sample(1, 11).to_json())
        assert after == {**before, "env_id": alias.id}
    with pytest.warns(DeprecationWarning, match=f"moved to '{alias.id}'"):
        verdict = palaestra.score(json.dumps(before), f"<answer>{before['answer']}</answer>")
    if old in NOW_NEEDS_A_CERTIFICATE:  # judged by today's rules: the old bare verdict lacks its certificate
        assert verdict.error is None and not verdict.correct, verdict
    else:
        assert verdict.correct, verdict


NOW_NEEDS_A_CERTIFICATE = {"logic/propositional"}
"""Moved envs whose old reference answer was a bare verdict that now needs its certificate ("no" its counter-model)."""


def test_an_old_propositional_problem_is_scored_by_its_counter_model() -> None:
    before = MOVED["logic/propositional"]
    assert before["answer"] == "no"
    with pytest.warns(DeprecationWarning):
        right = palaestra.score(json.dumps(before), "<answer>no: p = false, q = true, r = true</answer>")
    assert right.correct, right  # premises q and (r ∨ q) → ¬(q ↔ p) hold, r → (r ∧ p) fails: not entailed
