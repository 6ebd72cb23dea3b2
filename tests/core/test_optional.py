"""A missing optional package gives one message naming the extra that installs it, never a raw traceback."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from palaestra.cli import main
from palaestra.core.optional import MissingExtra, require


def _hide(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    for name in modules:  # None in sys.modules makes `import name` raise ImportError, as if it were not installed
        monkeypatch.setitem(sys.modules, name, None)


def test_require_names_the_extra() -> None:
    assert require("json", "core", "a test").dumps([1]) == "[1]"
    with pytest.raises(MissingExtra, match=r"the search tool needs the optional package 'no_such_xyz': "
                                           r"pip install 'palaestra\[tools\]'"):
        require("no_such_xyz", "tools", "the search tool")


@pytest.mark.parametrize(("argv", "hidden", "extra"), [
    (["train", "--steps", "1"], ("torch",), "torch"),
    (["export", "hf", "--envs", "arithmetic/expression", "--seeds", "1", "--out", "{tmp}/rows.parquet"],
     ("pyarrow", "pyarrow.parquet"), "export"),
    (["serve", "--port", "1"], ("openenv",), "openenv"),
])
def test_commands_print_the_install_line(argv: list[str], hidden: tuple[str, ...], extra: str, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _hide(monkeypatch, *hidden)
    assert main([a.replace("{tmp}", str(tmp_path)) for a in argv]) == 2
    err = capsys.readouterr().err
    assert f"pip install 'palaestra[{extra}]'" in err and "Traceback" not in err


def test_the_search_tool_names_its_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    from palaestra.tools import search

    _hide(monkeypatch, "bm25s")
    with pytest.raises(MissingExtra, match=r"palaestra\[tools\]"):
        search.SearchIndex(None)  # type: ignore[arg-type]  # the import comes first: the corpus is never read
