"""The code family's program text kept as data (``palaestra/envs/code/templates``): the files read back
exactly, every section is one a module asks for, and rendering fills fields and literal braces; our
own reference programs and functions run in-process as the trusted references."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from palaestra.envs.code import graph_programs, templates
from palaestra.envs.code._polyglot import run_reference
from palaestra.envs.code.common import compiled_function
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


# Sections a shared helper renders from the module's texts, for each module that calls it.
SHARED_RENDERERS = {"judge_each_input(": {"driver.test"}}


@pytest.mark.parametrize("module", MODULES)
def test_every_section_is_asked_for_by_its_module(module: str) -> None:
    path = CODE_DIR / f"{module}.py"
    source = (path if path.exists() else CODE_DIR / f"_{module}.py").read_text()  # a helper module is _<name>
    named = set(re.findall(r'CODE\(\s*"([^"]+)"', source))
    for key in ProgramTexts(module).keys():
        # a section is named literally, through an f-string on its class (e.g. f"DagPaths.{lang}.count"), by
        # a computed name whose first part is one of the module's names (a knapsack variant, a catalogue entry),
        # or by a base class's default for each template class (f"{type(self).__name__}.driver_loop")
        first, _, rest = key.partition(".")
        by_default = f'CODE(f"{{type(self).__name__}}.{rest}"' in source and f"class {first}(" in source
        by_helper = any(call in source and key in keys for call, keys in SHARED_RENDERERS.items())
        assert (key in named or re.search(rf'CODE\(\s*f"{first}\.', source) or f'"{first}"' in source or by_default
                or by_helper), key


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


def test_a_reference_program_runs_in_process_on_its_own_input(capsys: pytest.CaptureFixture[str]) -> None:
    program = compile("import sys\nfrom collections import Counter\n\nwords = sys.stdin.read().split()\n"
                      "print(len(words), Counter(words).most_common(1)[0][0])\nprint('done', end='!')\n",
                      "reference.py", "exec")
    stdin = sys.stdin
    assert run_reference(program, "b a b\n") == "3 b\ndone!"
    assert capsys.readouterr().out == ""  # nothing reached the real stdout
    assert sys.stdin is stdin  # nor was the process's stdin replaced


def test_stdio_answers_are_the_python_program_on_one_test() -> None:
    template = graph_programs.Components()
    params = {"measure": "largest", "k": 0, "base": 1, "labelled": True}
    case = {"n": 5, "edges": [[0, 1], [1, 2], [3, 4]]}
    assert template.answer(case, params) == "3"  # unlabelled, though the problem's lines are labelled
    assert template.answer({"n": 3, "edges": []}, params) == "1"


def test_a_function_reference_is_compiled_once_per_source() -> None:
    source = "def solve(xs):\n    return sorted(xs)[::-1]\n"
    solve = compiled_function(source)
    assert solve([2, 3, 1]) == [3, 2, 1] and compiled_function(source) is solve
    assert compiled_function("def other(x):\n    return x + 1\n", "other")(1) == 2


def test_a_function_compiled_with_allowed_builtins_sees_only_those() -> None:
    source = "def f(xs):\n    return max(xs) if len(xs) > 1 else open\n"
    f = compiled_function(source, "f", ("len", "max"))
    assert f([1, 3]) == 3
    with pytest.raises(NameError):
        f([1])  # open is not among the allowed builtins
