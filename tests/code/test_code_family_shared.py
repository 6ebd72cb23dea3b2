"""The code family's shared pieces (issue 22 item 6): the clocked-module base of the Verilog envs, the
templated-task base, the query reference of stdio_queries, and the line measure of bench/code_lines.py.

None of these runs code in the sandbox (the envs' own tests and the contract kit judge the references)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from palaestra.core.registry import make_source
from palaestra.envs.code import _hdl as hdl
from palaestra.envs.code import stdio_queries
from palaestra.envs.code._polyglot import StdioTemplate
from palaestra.envs.code.verilog_sequential import Counter
from palaestra.verifiers.polyglot import fence

pytestmark = pytest.mark.no_sandbox
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("asynchronous", "shown"), [(False, ["0", "1", "2", "3", "0"]),
                                                      (True, ["0", "1", "2", "0", "0"])])
def test_clocked_simulation_takes_a_reset_at_the_edge_or_at_once(asynchronous: bool, shown: list[str]) -> None:
    # A modulo-5 counter counting every cycle, reset in the fourth: a synchronous reset still shows 3 there
    # (the outputs are read before the edge), an asynchronous one shows the reset state at once.
    p = {"kind": "modulo", "w": 3, "modulus": 5, "async": asynchronous, "module": "counter_unit"}
    cycles = [{"en": 1, "rst": int(i == 3)} for i in range(5)]
    assert hdl.simulate(Counter(), p, cycles) == shown


@pytest.mark.parametrize("env_id", ["code/verilog_sequential", "code/verilog_fsm"])
def test_clocked_problems_tell_the_two_reset_styles_apart(env_id: str) -> None:
    source = make_source(env_id)
    for level, seed in ((0, 0), (1, 5), (3, 2)):
        data = source.sample(level, seed).data
        template, p = source.templates[data["template"]], data["params"]
        assert hdl.simulate(template, p, data["cycles"]) == data["expected"]
        other_style = {**p, "async": not p.get("async", False)}
        assert hdl.simulate(template, other_style, data["cycles"]) != data["expected"], (level, seed)


@pytest.mark.parametrize("env_id", ["code/c_functions", "code/cpp_classes", "code/js_functions",
                                    "code/verilog_combinational", "code/verilog_fsm", "code/dp_programs"])
def test_templated_problems_name_their_template_and_answer_with_its_reference(env_id: str) -> None:
    source = make_source(env_id)
    problem = source.sample(1, 3)
    data = problem.data
    assert data["template"] in source.templates and data["gold"] in data["languages"]
    gold_source = source.sources(problem)[data["gold"]]
    assert problem.answer == fence((data["gold"], gold_source))


def test_the_query_reference_runs_every_query_kind() -> None:
    queries = [("sum", 1, 3), ("set", 2, 5), ("max", 1, 2), ("reverse", 1, 3), ("count", 1, 3, 2), ("add", 1, 2, 1),
               ("swap", 1, 2), ("min", 1, 3)]
    # [3, 1, 2]: sum 6; [3, 5, 2]: max 5; [2, 5, 3]: 2 above 2; [3, 6, 3] -> [6, 3, 3]: min 3
    assert stdio_queries._run_queries()([3, 1, 2], queries) == ["6", "5", "2", "3"]
    assert set(stdio_queries.ACTIONS) == set(stdio_queries.KINDS)


def _bench_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("code_lines", ROOT / "bench" / "code_lines.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_line_measure_counts_each_imported_family_module_once() -> None:
    code_lines = _bench_module()
    files = {
        "palaestra/envs/__init__.py": "",
        "palaestra/envs/code/__init__.py": '"""The code family."""\n',
        "palaestra/envs/code/alpha.py": "from palaestra.envs.code import _shared\nfrom palaestra.envs.code.common "
                                        "import x\n\nCODE = ProgramTexts('alpha')\n",
        "palaestra/envs/code/beta.py": "def f():\n    from palaestra.envs.code._shared import y\n",
        "palaestra/envs/code/_shared.py": "from palaestra.envs.code.templates import ProgramTexts\n\n\ny = 1\n",
        "palaestra/envs/code/common.py": "x = 1\n",
        "palaestra/envs/code/templates/__init__.py": "class ProgramTexts: ...\n",
        "palaestra/envs/code/templates/alpha.txt": "=== a\nprint(1)\n",
        "palaestra/envs/code/gamma.py": "import os\n" * 50,  # not imported by the counted envs
    }
    python, templates = code_lines.measure(["palaestra.envs.code.alpha", "palaestra.envs.code.beta"], files.get)
    assert python == {path: len(files[path].splitlines()) for path in (
        "palaestra/envs/code/__init__.py", "palaestra/envs/code/alpha.py", "palaestra/envs/code/beta.py",
        "palaestra/envs/code/_shared.py", "palaestra/envs/code/common.py",
        "palaestra/envs/code/templates/__init__.py")}
    assert templates == {"palaestra/envs/code/templates/alpha.txt": 2}


def test_a_stdio_case_is_written_as_its_line_or_as_a_counted_list() -> None:
    template = StdioTemplate()
    assert template.case_input("abba", {}) == "abba\n"
    assert template.case_input(17, {}) == "17\n"
    assert template.case_input([3, -1, 4], {}) == "3\n3 -1 4\n"
    assert template.case_input(["ab", "ba"], {}) == "2\nab ba\n"
    assert template.case_input([], {}) == "0\n\n"
