"""An export that fails or is interrupted leaves no shorter dataset behind (nothing lost on failure).

Rows were written straight to the output file: a failure after the first rows (an env that raises, Ctrl-C)
left a JSONL file that was only shorter, and a parquet file that the writer closed on the way out and that
read back as a complete dataset; a file of a previous export at that path was overwritten by that stub.
Now the rows go to a file beside it that replaces it only once written whole.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from palaestra.integrations import export as export_module


class Interrupted(Exception):
    pass


def _rows_then_failure(good: int) -> Iterator[dict[str, object]]:
    for i in range(good):
        yield {"index": i, "prompt": f"problem {i}"}
    raise Interrupted("the env raised after some rows")


@pytest.mark.parametrize("name", ["rows.jsonl", "rows.parquet"])
def test_a_failed_export_keeps_the_previous_file_and_leaves_no_partial_one(tmp_path: Path, name: str) -> None:
    if name.endswith(".parquet"):
        pytest.importorskip("pyarrow", reason="parquet needs pyarrow (the export extra)")
    path = tmp_path / name
    assert export_module.write_rows(iter([{"index": 0, "prompt": "old"}] * 3), path) == 3
    before = path.read_bytes()
    with pytest.raises(Interrupted):
        export_module.write_rows(_rows_then_failure(export_module.ROWS_PER_BATCH * 2 + 5), path)
    assert path.read_bytes() == before  # the previous export, whole
    assert [p.name for p in tmp_path.iterdir()] == [name]  # and nothing half-written beside it


def test_a_failed_first_export_leaves_no_file(tmp_path: Path) -> None:
    path = tmp_path / "new" / "rows.jsonl"
    with pytest.raises(Interrupted):
        export_module.write_rows(_rows_then_failure(10), path)
    assert not path.exists() and list(path.parent.iterdir()) == []


def test_a_whole_export_is_where_it_was_asked_for(tmp_path: Path) -> None:
    path = tmp_path / "rows.jsonl"
    assert export_module.write_rows(iter([{"index": i} for i in range(4)]), path) == 4
    assert [json.loads(line)["index"] for line in path.read_text().splitlines()] == [0, 1, 2, 3]
    assert [p.name for p in tmp_path.iterdir()] == ["rows.jsonl"]
