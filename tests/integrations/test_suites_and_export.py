"""Named evaluation suites, re-verification of stored transcripts, the Markdown report, and ``palaestra export``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from palaestra.cli import main
from palaestra.core.problem import Problem
from palaestra.core.registry import registry
from palaestra.integrations.common import sample
from palaestra.integrations.suites import SUITE_DIR, list_suites, load_suite, reverify


def test_shipped_suites_are_named_versioned_and_pin_the_installed_envs() -> None:
    assert {"core", "multi-turn", "coding"} <= set(list_suites())
    for name in list_suites():
        spec = load_suite(name)
        assert spec.name == name and spec.version >= 1 and spec.envs and all(1 <= k <= spec.samples for k in spec.ks)
        assert spec.version_mismatches() == [], (
            f"{SUITE_DIR / (name + '.json')} pins env versions that changed: {spec.version_mismatches()}; update "
            "the pins and bump the suite's version (its old results are not comparable any more)")
    assert all(registry[e].turns == "multi" for e in load_suite("multi-turn").envs)
    assert all(e.startswith("code/") for e in load_suite("coding").envs)


def write_suite(path: Path, envs: dict[str, int], samples: int = 2) -> Path:
    path.write_text(json.dumps({"name": "tiny", "version": 3, "description": "A test suite.", "levels": [0, 1],
                                "seeds": 3, "samples": samples, "k": [1, samples], "envs": envs}))
    return path


def test_eval_suite_writes_transcripts_summary_and_a_report(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    envs = {"arithmetic/expression": registry["arithmetic/expression"].version,
            "deduction/propositional": registry["deduction/propositional"].version,
            "games/guess_number": registry["games/guess_number"].version}
    suite = write_suite(tmp_path / "tiny.json", envs)
    out = tmp_path / "run"
    assert main(["eval", "--suite", str(suite), "--model", "random", "--out", str(out)]) == 0
    assert "random on suite tiny v3: 36 episodes" in capsys.readouterr().out
    summary = json.loads((out / "summary.json").read_text())
    assert summary["suite"] == {"name": "tiny", "version": 3, "envs": envs} and summary["episodes"] == 36
    report = (out / "report.md").read_text()
    assert report.startswith("# palaestra eval: suite tiny v3")
    for section in ("## By family", "## By environment", "## By environment and level"):
        assert section in report
    assert "| deduction | 12 | 0 |" in report and "| games/guess_number | 1 |" in report
    if (out / "pass_at_k.png").exists():
        assert "![pass@k per environment](pass_at_k.png)" in report

    pinned_elsewhere = write_suite(tmp_path / "old.json", {"arithmetic/expression": 99})
    assert main(["eval", "--suite", str(pinned_elsewhere), "--model", "oracle"]) == 2  # refused, not run
    assert "v99" in capsys.readouterr().err


def test_eval_suite_without_a_model_plays_the_oracle_and_random(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    envs = {"arithmetic/expression": registry["arithmetic/expression"].version}
    suite = write_suite(tmp_path / "tiny.json", envs)
    assert main(["eval", "--suite", str(suite), "--out", str(tmp_path / "run")]) == 0
    out = capsys.readouterr().out
    assert "oracle on suite tiny v3: 12 episodes" in out and "random on suite tiny v3: 12 episodes" in out
    oracle = json.loads((tmp_path / "run" / "oracle" / "summary.json").read_text())
    assert oracle["episodes"] == 12 and (tmp_path / "run" / "random" / "report.md").exists()


def test_reverify_rescores_transcripts_and_reports_what_changed(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture) -> None:
    envs = {"arithmetic/expression": registry["arithmetic/expression"].version,
            "games/guess_number": registry["games/guess_number"].version}
    out = tmp_path / "run"
    assert main(["eval", "--suite", str(write_suite(tmp_path / "t.json", envs)), "--model", "oracle",
                 "--out", str(out)]) == 0
    records = [json.loads(line) for line in (out / "transcripts.jsonl").read_text().splitlines()]
    assert len(records) == 24 and all(r["correct"] for r in records)
    records[0]["correct"], records[0]["reward"] = False, 0.0  # an old verifier that wrongly failed a right answer
    records[1]["error"], records[1]["correct"] = "sandbox: down", False  # judged now that the infrastructure works
    records[2]["messages"][0]["content"] = "a prompt this env no longer makes"  # its env changed since
    game = next(i for i, r in enumerate(records) if r["env_id"] == "games/guess_number")
    records[game]["messages"] = [m for m in records[game]["messages"] if m["role"] != "assistant"][:1] + [
        {"role": "assistant", "content": "<answer>0</answer>"}]  # a game whose stored replies lose
    stored = tmp_path / "old.jsonl"
    stored.write_text("".join(json.dumps(r) + "\n" for r in records))

    outcome = reverify(stored)
    assert outcome.changes == {"same": 20, "now right": 1, "error now judged": 1, "problem changed": 1,
                               "now wrong": 1}
    assert {(r["env_id"], r["seed"]) for r in outcome.changed} == {
        (records[i]["env_id"], records[i]["seed"]) for i in (0, 1, game)}
    assert outcome.result.ks == (1, 2) and len(outcome.result.records) == 24

    again = tmp_path / "again"
    assert main(["eval", "--reverify", str(stored), "--out", str(again)]) == 0
    printed = capsys.readouterr().out
    assert "now right 1" in printed and "error now judged 1" in printed
    report = (again / "report.md").read_text()
    assert "## Re-verification" in report and "| problem changed | 1 |" in report
    assert "not scored (sandbox) -> right" in report
    assert len((again / "transcripts.jsonl").read_text().splitlines()) == 24


EXPORT_LEVELS, EXPORT_SEEDS = (0, 4), (7, 8)


@pytest.fixture(scope="module")
def every_env_problems() -> dict[tuple[str, int, int], Problem]:
    """What the export of every env at levels 0 and 4, seeds 7 and 8 must hold: generated once for the three formats."""
    return {(env_id, level, seed): sample(env_id, level, seed)
            for env_id in registry.ids() for level in EXPORT_LEVELS for seed in EXPORT_SEEDS}


@pytest.mark.parametrize("kind, suffix", [("hf", ".parquet"), ("verl", ".parquet"), ("openrlhf", ".jsonl")])
def test_export_command_writes_every_env(kind: str, suffix: str, tmp_path: Path,
                                         every_env_problems: dict[tuple[str, int, int], Problem]) -> None:
    pytest.importorskip("pyarrow")
    out = tmp_path / f"data{suffix}"
    ids = registry.ids()  # every env: some problems' data hold lists of mixed types, which Arrow cannot type
    assert main(["export", kind, "--envs", *ids, "--levels", *map(str, EXPORT_LEVELS), "--seeds", "2", "--first-seed", "7",
                 "--out", str(out)]) == 0
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        rows = pq.read_table(out).to_pylist()
    else:
        rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == len(every_env_problems) == 4 * len(ids)
    key = {"hf": lambda r: r["problem"], "verl": lambda r: r["extra_info"]["problem"], "openrlhf": lambda r: r["label"]}
    for row in rows:
        problem = Problem.from_json(key[kind](row))
        assert every_env_problems[(problem.env_id, problem.level, problem.seed)] == problem
