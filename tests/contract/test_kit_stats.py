"""Expected scores per env and level (`palaestra stats`) and their table in the catalogue page."""

from __future__ import annotations

import json
from pathlib import Path

from palaestra.catalog import catalogue_page
from palaestra.core.registry import registry
from palaestra.kit import stats


def test_figures_per_level_for_a_single_and_a_multi_turn_env(tmp_path: Path) -> None:
    path = tmp_path / "stats.json"
    table = stats.update(["graphs/bridges", "games/nim"], seeds=3, path=path)
    assert json.loads(path.read_text()) == table
    for env_id in ("graphs/bridges", "games/nim"):
        entry = table[env_id]
        assert entry["version"] == registry[env_id].version and entry["seeds"] == 3
        levels = entry["levels"]
        assert len(levels) == registry[env_id].cls().levels()
        for figures in levels:
            assert figures["reference"] == 1.0 and 0 < figures["distinct"] <= 1 and figures["generation_ms"] >= 0
            assert figures["baseline"] is None or 0 <= figures["baseline"] <= 1
        assert levels[-1]["difficulty"] > levels[0]["difficulty"]
    assert table["graphs/bridges"]["levels"][0]["baseline_name"].startswith("constant")
    stats.update(["graphs/cycle"], seeds=2, path=path)  # merged into the file, the others kept
    assert set(json.loads(path.read_text())) == {"graphs/bridges", "games/nim", "graphs/cycle"}


def test_the_catalogue_shows_current_figures_and_skips_stale_ones(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "stats.json"
    table = stats.update(["graphs/bridges", "graphs/cycle"], seeds=2, path=path)
    table["graphs/cycle"]["version"] = registry["graphs/cycle"].version + 1  # made by another version
    path.write_text(json.dumps(table))
    import palaestra.catalog as catalog

    monkeypatch.setattr(catalog, "STATS_PATH", path)
    page = catalogue_page([registry["graphs/bridges"], registry["graphs/cycle"]])
    bridges = page.split("### `graphs/bridges`")[1].split("### `")[0]
    cycle = page.split("### `graphs/cycle`")[1]
    assert "| level | difficulty | generation ms | distinct | reference | best cheap policy |" in bridges
    assert "| 0 |" in bridges and "(2 seeds per level)" in bridges
    assert "| level |" not in cycle


def test_eval_catalogue_adds_a_models_column_on_the_same_problems(tmp_path: Path, monkeypatch) -> None:
    import palaestra.catalog as catalog
    from palaestra.cli import main

    path = tmp_path / "stats.json"
    stats.update(["graphs/bridges", "games/nim"], seeds=2, path=path)
    monkeypatch.setattr(stats, "STATS_PATH", path)
    assert main(["eval", "--model", "oracle", "--catalogue", "--envs", "graphs/bridges", "games/nim"]) == 0
    table = json.loads(path.read_text())
    for env_id in ("graphs/bridges", "games/nim"):
        assert table[env_id]["models"]["oracle"] == [1.0] * len(table[env_id]["levels"])
    monkeypatch.setattr(catalog, "STATS_PATH", path)
    page = catalogue_page([registry["graphs/bridges"]])
    assert "| best cheap policy | oracle |" in page and page.count(" 1.00 |") >= 2 * len(table["graphs/bridges"]["levels"])


def test_a_constant_is_scored_on_the_other_problems_only() -> None:
    """An answer always scores on the problem it came from: counted there, every env would show a tenth at ten
    seeds. Left out once, a unique answer scores 0 and one that recurs scores on its other problems."""
    from palaestra.core import Problem, Task, Verdict

    class Echo(Task):
        id = "kitstats/echo"

        def verify(self, problem: Problem, answer: str) -> Verdict:
            return Verdict.judge(answer == problem.answer)

    problems = [Problem(prompt=str(i), answer=answer) for i, answer in enumerate(["a", "a", "a", "b", "c"])]
    reference, best = stats._single_turn(Echo(), problems)
    assert reference == 1.0 and best == (0.5, "constant 'a'")  # 'a' right on 2 of the 4 other problems
    _, unique = stats._single_turn(Echo(), problems[2:])
    assert unique is not None and unique[0] == 0.0
