"""The code family's program text kept as data (``palaestra/envs/code/templates``): the files read back
exactly, every section is one a module asks for, and rendering fills fields and literal braces."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from palaestra.envs.code import templates
from palaestra.envs.code.templates import ProgramTexts

TEMPLATE_DIR = Path(templates.__file__).parent
CODE_DIR = TEMPLATE_DIR.parent
MODULES = sorted(path.stem for path in TEMPLATE_DIR.glob("*.txt"))


def test_there_are_template_files() -> None:
    assert {"graph_programs", "string_programs", "cpp_classes", "mutation_tests"} <= set(MODULES)


@pytest.mark.parametrize("module", MODULES)
def test_a_template_file_reads_back_exactly(module: str) -> None:
    texts = ProgramTexts(module)
    written = "".join(f"=== {key}\n{templates._sections(module)[key]}\n" for key in texts.keys())
    assert written == (TEMPLATE_DIR / f"{module}.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("module", MODULES)
def test_every_section_is_asked_for_by_its_module(module: str) -> None:
    source = (CODE_DIR / f"{module}.py").read_text()
    named = set(re.findall(r'CODE\(\s*"([^"]+)"', source))
    for key in ProgramTexts(module).keys():
        # a section is named literally, or through an f-string on its class and language (e.g. DagPaths.{lang}.count)
        cls = key.split(".")[0]
        assert key in named or re.search(rf'CODE\(\s*f"{cls}\.', source) or module == "mutation_tests", key


def test_rendering_fills_fields_and_keeps_literal_braces() -> None:
    c = ProgramTexts("graph_programs")("Components.c", base=1, init="0", c_fold="ans += 1;")
    assert "int u = (int)next_int() - 1" in c and "static int find(int x) {" in c and "{base}" not in c
    with pytest.raises(KeyError):
        ProgramTexts("graph_programs")("Components.c")  # a missing field is an error, never left in the program


def test_a_file_must_start_with_a_header_and_name_each_section_once(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(templates, "__file__", str(tmp_path / "__init__.py"))
    (tmp_path / "stray.txt").write_text("int x;\n=== A.c\nint y;\n")
    (tmp_path / "twice.txt").write_text("=== A.c\nint x;\n=== A.c\nint y;\n")
    (tmp_path / "blank.txt").write_text("=== A.c\nint x;\n\n=== A.python\nx = 1\n")
    templates._sections.cache_clear()
    try:
        with pytest.raises(ValueError, match="header"):
            ProgramTexts("stray")("A.c")
        with pytest.raises(ValueError, match="repeats"):
            ProgramTexts("twice")("A.c")
        assert ProgramTexts("blank")("A.c") == "int x;\n"  # a blank line before a header is the text's own
        assert ProgramTexts("blank")("A.python") == "x = 1"
    finally:
        templates._sections.cache_clear()
