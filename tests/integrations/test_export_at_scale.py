"""Exports stream their rows (parquet in row groups) and are identical for any worker count."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from palaestra.cli import main
from palaestra.integrations import export as export_module
from palaestra.integrations.export import export

MIX = ["arithmetic/expression", "games/guess_number", "graphs/bridges", "deduction/propositional"]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_the_file_is_the_same_for_any_worker_count(suffix: str, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    monkeypatch.setattr(export_module, "ROWS_PER_BATCH", 7)  # many chunks and row groups from a small export
    one, two = tmp_path / f"one{suffix}", tmp_path / f"two{suffix}"
    assert export("verl", MIX, one, levels=[0, 2], seeds=range(5, 17)) == len(MIX) * 2 * 12
    assert main(["export", "verl", "--envs", *MIX, "--levels", "0", "2", "--seeds", "12", "--first-seed", "5",
                 "--workers", "2", "--out", str(two)]) == 0
    assert _digest(one) == _digest(two)


def test_parquet_is_written_in_row_groups_with_one_schema(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    monkeypatch.setattr(export_module, "ROWS_PER_BATCH", 10)
    path = tmp_path / "rows.parquet"
    rows = [{"a": i, "b": None if i < 10 else f"x{i}", "c": {"k": [i]}} for i in range(25)]  # b null in group one
    assert export_module.write_rows(iter(rows), path) == 25
    file = pq.ParquetFile(path)
    assert file.metadata.num_row_groups == 3
    assert file.read().to_pylist() == rows
    assert export_module.write_rows(iter([]), tmp_path / "empty.parquet") == 0


def test_jsonl_rows_read_back_in_order(tmp_path: Path) -> None:
    path = tmp_path / "rows.jsonl"
    export("hf", ["arithmetic/expression"], path, levels=[1], seeds=range(3), workers=2)
    seeds = [json.loads(line)["seed"] for line in path.read_text().splitlines()]
    assert seeds == [0, 1, 2]
    with pytest.raises(ValueError, match="workers"):
        export("hf", ["arithmetic/expression"], path, workers=0)


def test_workers_write_json_lines_and_a_bad_file_name_is_refused_before_they_start(tmp_path: Path) -> None:
    jobs = export_module.export_jobs("openrlhf", ["arithmetic/expression"], [0], 3)
    count, text = export_module.lines_of_job(jobs[0])
    assert count == 3 and [json.loads(line)["label"] for line in text.splitlines()] == [
        row["label"] for row in export_module.rows_of_job(jobs[0])]
    with pytest.raises(ValueError, match="parquet"):
        export("hf", ["arithmetic/expression"], tmp_path / "rows.csv", workers=2)
    assert not (tmp_path / "rows.csv").exists()
