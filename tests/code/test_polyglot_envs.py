"""The multi-language code envs: every reference program agrees with the trusted Python outputs
through the sandbox (each language), the answer convention, efficiency budgets (a quadratic
solution fails where the linear one passes), SQL and Verilog judging, mutation testing, and
infrastructure failures reported as ``Verdict.failed``.

Tests skip, naming the missing tool, where a language's toolchain is not installed."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

import pytest

from palaestra import sandbox
from palaestra.core.registry import make_source
from palaestra.envs.code import _polyglot as polyglot
from palaestra.envs.code import efficient_arrays, efficient_strings, mutation_tests
from palaestra.envs.code import translate_program as tp
from palaestra.envs.code._polyglot import StdioPolyglotTask, c_program, generator_code, join_cases, stdio_problem
from palaestra.envs.code.common import compiled_function
from palaestra.verifiers import polyglot as pg
from palaestra.verifiers.polyglot import Budget, Program

STDIO_ENVS = ["code/graph_programs", "code/dp_programs", "code/greedy_programs", "code/string_programs"]
NEW_ENVS = [*STDIO_ENVS, "code/efficient_arrays", "code/efficient_strings", "code/mutation_tests", "code/c_functions",
            "code/js_functions", "code/cpp_classes", "code/verilog_combinational", "code/verilog_sequential",
            "code/verilog_fsm", "code/sql_window", "code/translate_program"]


@functools.lru_cache(maxsize=1)
def _toolchains() -> dict[str, bool]:
    return {name: chain.available for name, chain in sandbox.probe().languages.items()}


def need(*languages: str) -> None:
    missing = [lang for lang in languages if not _toolchains().get(lang)]
    if missing:
        pytest.skip(f"toolchain missing for {', '.join(missing)} (.ci/setup_toolchains.sh installs it)")


# --- the answer convention (no sandbox) -------------------------------------------------------

@pytest.mark.no_sandbox
def test_reading_labelled_programs() -> None:
    both = ("c", "python", "javascript", "cpp")
    text = "I will use C.\n```C\nint main(void) { return 0; }\n```\nand in C++:\n```c++\nint main() {}\n```"
    assert pg.read_program(text, both) == Program("cpp", "int main() {}")  # the last allowed block
    # the answer grammar: nothing after the program (a remark there could retract it)
    assert "text after the last code block" in pg.read_program(text + "\nDone.", both)
    assert pg.read_program("```js\nconsole.log(1)\n```", both) == Program("javascript", "console.log(1)")
    assert "label the code block" in pg.read_program("print(1)", both)
    assert "label the code block" in pg.read_program("```\nprint(1)\n```", both)
    assert "SQL is not accepted" in pg.read_program("```sql\nSELECT 1\n```", both)
    assert pg.read_program("module m; endmodule", ("verilog",)) == Program("verilog", "module m; endmodule")
    assert pg.read_program("```\nSELECT 1\n```", ("sql",)) == Program("sql", "SELECT 1")
    assert pg.read_program("~~~python\nprint(2)\n~~~", both) == Program("python", "print(2)")
    assert pg.read_program("```python\n\n```", both) == "the code block is empty"
    assert "longer than" in pg.read_program("x" * 30_000, ("c",))


@pytest.mark.no_sandbox
def test_a_missing_definition_is_rejected_before_any_run(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the sandbox must not run")

    monkeypatch.setattr(sandbox, "run", refuse)
    for env_id in ("code/c_functions", "code/cpp_classes", "code/js_functions", "code/verilog_fsm"):
        source = make_source(env_id)
        problem = source.sample(1, 3)
        verdict = source.verify(problem, "```\nint helper(void) { return 1; }\n```")
        assert not verdict.correct and verdict.error is None and "does not define" in verdict.feedback
    assert pg.mentions("int find_max(int *a)", "find_max") and not pg.mentions("int find_max2(void)", "find_max")


@pytest.mark.no_sandbox
def test_sandbox_failures_are_not_wrong_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    source = make_source("code/dp_programs")
    problem = source.sample(0, 1)
    pg.clear_cache()

    def unavailable(*args: object, **kwargs: object) -> None:
        raise sandbox.LanguageUnavailable("gcc is not installed")

    monkeypatch.setattr(sandbox, "run", unavailable)
    verdict = source.verify(problem, pg.fence(("c", source.sources(problem)["c"])))
    assert verdict.error is not None and "gcc is not installed" in verdict.error and not verdict.correct

    def broken(*args: object, **kwargs: object) -> sandbox.ExecResult:
        return sandbox.ExecResult("", "", None, error="server died")

    monkeypatch.setattr(sandbox, "run", broken)
    verdict = source.verify(problem, pg.fence(("python", source.sources(problem)["python"])))
    assert verdict.error == "server died" and verdict.feedback.startswith("not judged")


@pytest.mark.no_sandbox
def test_json_comparison_is_strict_about_types() -> None:
    assert pg.json_same({"a": [1, 2.0]}, {"a": [1, 2]}) and pg.json_same({"b": 1, "a": 2}, {"a": 2, "b": 1})
    assert not pg.json_same(True, 1) and not pg.json_same([1, 2], [2, 1]) and not pg.json_same("1", 1)
    assert pg.judge_json(['{"a": 1}', "[1,"], [{"a": 1}, [1]]) == (1, "test 2: printed '[1,', not a JSON value")


@pytest.mark.no_sandbox
def test_single_select_statements() -> None:
    assert pg.single_select("select 1;") == "select 1"
    assert pg.single_select("-- note\nWITH t AS (SELECT 1 AS x) SELECT x FROM t") is not None
    for bad in ("SELECT 1; DROP TABLE t", "SELECT 1 /*", "DELETE FROM t", "SELECT 'a\x00'", "", "SELECT 'x",
                "PRAGMA query_only = 0"):
        assert pg.single_select(bad) is None, bad


# --- reference programs through the sandbox ---------------------------------------------------

@pytest.mark.parametrize("env_id", STDIO_ENVS)
def test_every_template_reference_agrees_in_every_language(env_id: str) -> None:
    need("python", "c", "cpp", "javascript")
    source = make_source(env_id)
    assert isinstance(source, StdioPolyglotTask)
    rng = random.Random(env_id)
    for name, template in source.templates.items():
        for draw in range(2):
            problem = None
            for _ in range(40):  # as the env redraws a template whose tests must tell its slips apart
                problem = stdio_problem(rng, template, [3, 5, 8, 12], min_distinct=2)
                if problem is not None:
                    break
            assert problem is not None
            sources = source.sources(problem)
            for language in ("python", "c", "javascript") if draw else ("python", "c", "cpp", "javascript"):
                report = source.judge(problem, Program(language, sources[language]))
                assert report.all_passed, (name, problem.data["params"], language, report.feedback())


@pytest.mark.parametrize("env_id", ["code/c_functions", "code/js_functions", "code/cpp_classes",
                                    "code/verilog_combinational", "code/verilog_sequential", "code/verilog_fsm",
                                    "code/sql_window", "code/translate_program"])
def test_single_language_references_pass_at_every_level(env_id: str) -> None:
    source = make_source(env_id)
    need(*source.sample(0, 0).data["languages"], *source.sample(4, 0).data["languages"])
    for level in range(source.levels()):
        for seed in range(100, 104 if env_id != "code/cpp_classes" else 102):
            problem = source.sample(level, seed)
            for language, code in source.sources(problem).items():
                report = source.judge(problem, Program(language, code))
                assert report.all_passed, (level, seed, language, report.feedback())


@pytest.mark.parametrize("env_id", NEW_ENVS)
def test_the_gold_answer_is_accepted(env_id: str) -> None:
    source = make_source(env_id)
    problem = source.sample(2, 7)
    need(*problem.data.get("languages", []))
    assert source.check(problem, source.format_answer(problem.answer or "")).correct


def test_string_programs_references_fit_their_cpu_limit_at_far_levels() -> None:
    # Version 1's sizes grew without end: the brute-force reference (cubic palindromes) ran past its 2 s CPU
    # limit at level 40 seed 2 (and at level 28), so a right answer could not be written in the time allowed.
    source = make_source("code/string_programs")
    assert source.level_config(40) == source.level_config(14)
    problem = source.sample(40, 2)
    need(*problem.data["languages"])
    assert source.check(problem, source.format_answer(problem.answer or "")).correct


# --- stdio and drivers ------------------------------------------------------------------------

def test_forging_a_pass_message_does_not_pass() -> None:
    need("c", "javascript")
    source = make_source("code/graph_programs")
    problem = source.sample(0, 2)
    lines = len(problem.data["expected"])
    c = '#include <stdio.h>\nint main(void) { printf("all tests passed\\n"); return 0; }'
    assert not source.verify(problem, pg.fence(("c", c))).correct
    js = f"for (let i = 0; i < {lines}; i++) console.log(0);"
    verdict = source.verify(problem, pg.fence(("js", js)))
    assert not verdict.correct and verdict.error is None


def test_a_candidate_defining_main_fails_to_link() -> None:
    need("c")
    source = make_source("code/c_functions")
    problem = source.sample(0, 4)
    code = source.sources(problem)["c"] + "\nint main(void) { return 0; }\n"
    verdict = source.verify(problem, code)
    assert not verdict.correct and "multiple definition of `main'" in verdict.feedback


def test_javascript_driver_survives_clobbered_globals() -> None:
    need("javascript")
    source = make_source("code/js_functions")
    problem = source.sample(1, 5)
    code = source.sources(problem)["javascript"] + "\nvar process = null;\nvar JSON = 7;\n"
    assert source.verify(problem, pg.fence(("js", code))).correct


# --- efficiency ---------------------------------------------------------------------------------

@pytest.mark.no_sandbox
def test_efficiency_references_agree_with_brute_force() -> None:
    rng = random.Random(3)
    for name, template in efficient_arrays.TEMPLATES.items():
        for _ in range(12):
            params = template.params(rng)
            if params["generator"] is None:
                continue
            for size in (1, 2, 7, 25):
                case = template.case(rng, params, size)
                assert template.answer(case, params) == str(_brute_array(name, params, case)), (name, params, case)
    for name, template in efficient_strings.TEMPLATES.items():
        for _ in range(12):
            params = template.params(rng)
            if params["generator"] is None:
                continue
            for size in (1, 3, 9, 40):
                case = template.case(rng, params, size)
                text = template.text(case, params)
                assert template.answer(case, params) == str(_brute_string(name, params, case, text)), (name, text)


def _brute_array(name: str, p: dict, case: dict) -> int:
    x, k, m = polyglot.generated(case["n"], case["s"], p["generator"]), case["k"], p["measure"]
    n = len(x)
    blocks = [x[i:j] for i in range(n) for j in range(i + 1, n + 1)]
    pairs = [(x[i], x[j]) for i in range(n) for j in range(i + 1, n)]
    if name == "subarray_sums":
        return sum((sum(b) == k) if m == "exact" else (sum(b) % k == 0) if m == "divisible" else (sum(b) <= k)
                   for b in blocks)
    if name == "longest_window":
        return max([len(b) for b in blocks if (len(set(b)) <= k if m == "distinct" else sum(b) <= k)], default=0)
    if name == "pair_count":
        return sum((a + b <= k) if m == "sum_at_most" else (a + b == k) if m == "sum_equal" else abs(a - b) <= k
                   for a, b in pairs)
    if name == "histogram":
        return max((min(b) + k) * len(b) if m == "rectangle" else min(min(b) + k, len(b)) for b in blocks)
    if name == "window_extremes":
        windows = [x[i:i + k] for i in range(n - k + 1)]
        return sum(max(w) if m == "max" else min(w) if m == "min" else max(w) - min(w) for w in windows)
    y = [k if (i + 1) % 10 == 0 else v for i, v in enumerate(x)]
    return sum((a > b) if m == "greater" else (a >= b) if m == "greater_equal" else a > 2 * b
               for a, b in ((y[i], y[j]) for i in range(n) for j in range(i + 1, n)))


def _brute_string(name: str, p: dict, case: dict, t: str) -> int:
    m, n, k = p["measure"], len(t), case["k"]
    if name == "letter_balance":
        return sum(t[i:j].count("a") - t[i:j].count("b") == k for i in range(n) for j in range(i + 1, n + 1))
    if name == "prefix_matches":
        if m == "occurrences":
            return sum(t[i:i + k] == t[:k] for i in range(n - k + 1))
        return sum(next((length for length in range(n - i) if t[length] != t[i + length]), n - i) for i in range(n))
    if name == "borders":
        borders = [b for b in range(1, n) if t[:b] == t[n - b:]]
        return {"longest": max(borders, default=0), "count": len(borders), "period": n - max(borders, default=0)}[m]
    palindromes = [j - i for i in range(n) for j in range(i + 1, n + 1) if t[i:j] == t[i:j][::-1]]
    return max(palindromes) if m == "longest" else len(palindromes)


def _quadratic_pairs(problem: object) -> str:
    g = problem.data["params"]["generator"]  # type: ignore[attr-defined]
    return c_program(f"""
static long long x[300005];

static void solve(void) {{
    int n = (int)next_int();
    long long s = next_int(), k = next_int();
    {generator_code("c", g)}
    long long count = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) count += x[i] + x[j] <= k;
    printf("%lld\\n", count);
}}""", problem.data["params"])  # type: ignore[attr-defined]


def test_a_quadratic_solution_fails_where_the_linear_one_passes() -> None:
    need("c")
    source = make_source("code/efficient_arrays")
    problem = next(p for p in (source.sample(0, seed) for seed in range(200))
                   if p.data["template"] == "pair_count" and p.data["params"]["measure"] == "sum_at_most")
    budget = problem.data["budgets"]["c"]
    linear = source.judge(problem, Program("c", source.sources(problem)["c"]))
    assert linear.all_passed
    quadratic = source.judge(problem, Program("c", _quadratic_pairs(problem)))
    assert not quadratic.all_passed and quadratic.failure and "time limit exceeded" in quadratic.failure
    # the quadratic program is right: on the small tests alone (the first five) it passes
    small = problem.data["inputs"][:5]
    report = pg.check_program(Program("c", _quadratic_pairs(problem)), join_cases(small),
                              source.expected(problem)[:5], budget=Budget(cpu_seconds=budget))
    assert report.all_passed


NAIVE_PALINDROMES = """static void solve(void) {
    /*GENERATE*/
    long long answer = 0;
    for (int c = 0; c < 2 * n - 1; c++) {
        int lo = c / 2, hi = lo + c % 2;
        while (lo >= 0 && hi < n && t[lo] == t[hi]) {
            answer++;
            lo--;
            hi++;
        }
    }
    printf("%lld\\n", answer);
}"""


def test_naive_palindrome_counting_runs_out_of_time() -> None:
    need("c")
    source = make_source("code/efficient_strings")
    problem = next(p for p in (source.sample(4, seed) for seed in range(50)) if p.data["params"]["measure"] == "count")
    template = efficient_strings.TEMPLATES["palindromes"]
    naive = template.programs(problem.data["params"], "", NAIVE_PALINDROMES, "")["c"]
    report = source.judge(problem, Program("c", naive))
    assert not report.all_passed and report.failure and "time limit exceeded" in report.failure
    assert source.judge(problem, Program("c", source.sources(problem)["c"])).all_passed
    small = problem.data["inputs"][:5]  # right answers on the small tests: only the time is wrong
    assert pg.check_program(Program("c", naive), join_cases(small), source.expected(problem)[:5]).all_passed


@pytest.mark.parametrize("language", ["python", "c", "javascript"])
def test_references_stay_well_inside_their_budgets(language: str) -> None:
    need(language)
    source = make_source("code/efficient_arrays")
    problem = next(p for p in (source.sample(4, seed) for seed in range(50)) if p.data["template"] == "inversions")
    report = pg.check_program(Program(language, source.sources(problem)["c" if language == "cpp" else language]),
                              join_cases(problem.data["inputs"]), source.expected(problem),
                              budget=Budget(cpu_seconds=30), cache=False)
    assert report.all_passed, report.feedback()
    cpu = report.cpu_seconds  # the compile included for C: an upper bound of the program's own time
    assert cpu < problem.data["budgets"][language] / 2, (language, cpu)


# --- SQL ----------------------------------------------------------------------------------------

def test_sql_results_are_multisets_with_the_stated_columns() -> None:
    need("sql")
    source = make_source("code/sql_window")
    problem = source.sample(0, 3)
    gold = source.sources(problem)["sql"]
    assert source.verify(problem, pg.fence(("sql", gold + "\nORDER BY 2 DESC"))).correct  # order is free
    wrong_columns = gold.replace("SELECT ", "SELECT 0 AS extra, ", 1)
    assert "columns, expected" in source.verify(problem, pg.fence(("sql", wrong_columns))).feedback
    write = source.verify(problem, "```sql\nWITH x AS (SELECT 1) DELETE FROM sales\n```")
    assert not write.correct and write.error is None


# --- Verilog ------------------------------------------------------------------------------------

def test_verilog_x_outputs_and_extra_displays_fail() -> None:
    need("verilog")
    source = make_source("code/verilog_combinational")
    problem = source.sample(0, 2)
    gold = source.sources(problem)["verilog"]
    module = problem.data["params"]["module"]
    header = gold.splitlines()[0]
    floating = f"{header}\nendmodule\n"  # every output undriven: z
    assert not source.verify(problem, floating).correct
    chatty = gold.replace("endmodule", 'initial $display("0");\nendmodule', 1)
    assert not source.verify(problem, chatty).correct
    rogue = gold + '\nmodule tb_fake; initial begin $display("1"); $finish; end endmodule\n'
    assert source.verify(problem, rogue).correct  # never simulated: the testbench is the top
    assert module in gold


# --- translation ------------------------------------------------------------------------------

def test_translation_renderings_agree_with_the_interpreter() -> None:
    need("python", "c", "javascript")
    import json

    source = make_source("code/translate_program")
    for level in range(5):
        problem = source.sample(level, 11)
        program = problem.data["program"]
        for language in ("c", "javascript"):
            assert source.judge(problem, Program(language, tp.render(program, language))).all_passed
            naive = source.judge(problem, Program(language, tp.render(program, language, naive=True)))
            assert not naive.all_passed
        harness = (tp.render(program, "python") + "\nimport json, sys\nfor line in sys.stdin.read().splitlines()[1:]:\n"
                   f"    n, xs = json.loads(line)\n    print({program['name']}(n, xs))\n")
        stdin = join_cases([json.dumps(test) + "\n" for test in problem.data["tests"]])
        assert pg.check_program(Program("python", harness), stdin, problem.data["expected"]).all_passed


# --- mutation tests (no sandbox) ----------------------------------------------------------------

@pytest.mark.no_sandbox
def test_mutation_reward_is_the_share_of_killed_mutants() -> None:
    source = make_source("code/mutation_tests")
    problem = source.sample(3, 4)
    gold = problem.answer.splitlines()
    assert source.verify(problem, problem.answer).reward == 1.0
    partial = source.verify(problem, gold[0])
    assert 0 < partial.reward < 1 and not partial.correct
    name, data = problem.data["name"], problem.data
    pool, wanted, kills = mutation_tests.analysis(name, tuple(data["constants"]))
    killed_by_first = {index for index, killed in kills if any(
        mutation_tests.differs(mutation_tests.call(_catalogue_function(
            mutation_tests.catalogue_mutants(name, tuple(data["constants"]))[index], name), args), expected)
        for args, expected in mutation_tests.read_tests(gold[0], name, len(mutation_tests.CATALOGUE[name][0]), 99))}
    assert partial.reward == len(killed_by_first & set(data["mutants"])) / len(data["mutants"])


@pytest.mark.no_sandbox
def test_mutation_answers_are_read_as_literals_only() -> None:
    source = make_source("code/mutation_tests")
    problem = source.sample(0, 0)
    name = problem.data["name"]
    first = problem.answer.splitlines()[0]
    call_text = first.split(" == ")[0]
    for bad in (f"{call_text} == 1 + 1", f"{call_text} == __import__('os')", f"{name}(*range(3)) == 0",
                f"{call_text} == 1 or True", "print(1)", f"{call_text} == {'[' * 50}"):
        verdict = source.verify(problem, bad)
        assert not verdict.correct and verdict.error is None, bad
    assert source.verify(problem, f"assert {first}  # the first case").reward > 0
    limit = problem.data["limit"]
    assert "more than" in source.verify(problem, "\n".join([first] * (limit + 1))).feedback


def _catalogue_function(source: str, name: str) -> Callable[..., Any]:
    """A catalogue function (original or mutant) as mutation_tests compiles it: only its safe builtins."""
    return compiled_function(source, name, mutation_tests.SAFE_BUILTINS)


@pytest.mark.no_sandbox
def test_every_mutant_differs_from_the_original_on_some_input() -> None:
    for name, (_, ranges) in mutation_tests.CATALOGUE.items():
        constants = tuple(lo for lo, _ in ranges)
        pool, wanted, kills = mutation_tests.analysis(name, constants)
        assert len(kills) >= 12, name
        original = _catalogue_function(mutation_tests.source_of(name, list(constants)), name)
        for index, killed in kills[:5]:
            mutant = _catalogue_function(mutation_tests.catalogue_mutants(name, constants)[index], name)
            i = min(killed)
            assert mutation_tests.call(original, pool[i]) != mutation_tests.call(mutant, pool[i])
