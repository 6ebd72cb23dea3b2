"""Languages other than Python: C, C++, JavaScript, Verilog and SQL through the same ``run``.

Each test skips, naming the missing tool, where the language's toolchain is not installed
(``.ci/setup_toolchains.sh`` installs them)."""

from __future__ import annotations

import json
import os
import signal

import pytest
from sandbox_support import require, require_language

from palaestra.sandbox import ExecResult, LanguageUnavailable, Limits, LocalBackend, ProbeReport, Toolchain
from palaestra.sandbox.local import languages
from palaestra.sandbox.local.backend import _result
from palaestra.sandbox.local.sql import statements
from palaestra.sandbox.local.stages import top_module

HELLO = {
    "c": '#include <stdio.h>\nint main(void) { char s[64]; if (scanf("%63s", s) != 1) return 2;'
    ' printf("hello %s\\n", s); fprintf(stderr, "to stderr\\n"); return 3; }',
    "cpp": "#include <iostream>\n#include <string>\nint main() { std::string s; std::cin >> s;"
    ' std::cout << "hello " << s << "\\n"; std::cerr << "to stderr\\n"; return 3; }',
    "javascript": 'const s = require("fs").readFileSync(0, "utf8").trim();\nconsole.log("hello " + s);\n'
    'console.error("to stderr");\nprocess.exitCode = 3;',
}


@pytest.fixture(scope="module")
def toolchains(backend: LocalBackend) -> dict[str, Toolchain]:
    return backend.languages()


def test_probe_reports_every_language(report: ProbeReport) -> None:
    assert set(report.languages) == set(languages.LANGUAGES)
    for name, chain in report.languages.items():
        assert chain.language == name
        if chain.available:
            assert chain.version and chain.reason is None
        else:  # names what is missing
            assert chain.reason and name in chain.reason and not chain.version
    assert report.languages["python"].available and report.languages["python"].version.startswith("Python 3.")
    assert "languages:" in str(report)


def test_discovery_names_the_missing_tool(monkeypatch: pytest.MonkeyPatch, tmp_path: os.PathLike) -> None:
    monkeypatch.setattr(languages, "SEARCH", (str(tmp_path),))
    for name, tool in (("c", "gcc"), ("cpp", "g++"), ("javascript", "node"), ("verilog", "iverilog")):
        chain = languages.discover(name)
        assert not chain["available"] and f"{tool} is not installed" in chain["reason"], chain


def test_a_missing_toolchain_raises_naming_the_tool(tmp_path: os.PathLike) -> None:
    empty = LocalBackend(min_tier="none", tool_dirs=[str(tmp_path)])
    try:
        with pytest.raises(LanguageUnavailable, match="gcc is not installed"):
            empty.run("int main(void) { return 0; }", language="c")
        assert not empty.languages()["javascript"].available
        assert empty.run("print(1)").stdout == "1\n"  # Python needs no tool
    finally:
        empty.close()


def test_an_unavailable_reply_is_an_exception_not_a_result() -> None:
    with pytest.raises(LanguageUnavailable, match="vvp"):
        _result({"id": 1, "result": None, "error": "language 'verilog' is unavailable: vvp ...", "unavailable": True})


def test_language_names_and_aliases() -> None:
    assert [languages.canonical(n) for n in ("C++", "js", "node", "sqlite", "Python")] == [
        "cpp", "javascript", "javascript", "sql", "python"
    ]  # fmt: skip
    with pytest.raises(ValueError, match="supported: python, sql, c, cpp, javascript, verilog"):
        languages.canonical("rust")


@pytest.mark.parametrize("language", ["c", "cpp", "javascript"])
def test_hello_with_stdin_stdout_stderr_and_exit_code(backend: LocalBackend, language: str) -> None:
    require_language(backend, language)
    r = backend.run(HELLO[language], language=language, stdin="world\n")
    assert (r.stdout, r.stderr, r.exit_code, r.signal, r.error) == ("hello world\n", "to stderr\n", 3, None, None), r
    assert not r.compile_failed and not r.ok  # exit status 3
    if language != "javascript":
        assert r.compile_seconds > 0 and r.cpu_seconds > 0
    else:
        assert r.compile_seconds == 0 and r.compile_output == ""


def test_c_with_helper_files_and_output_files(backend: LocalBackend) -> None:
    require_language(backend, "c")
    src = """
#include <stdio.h>
#include <math.h>
#include "helper.h"
int main(void) {
    FILE *f = fopen("out/result.txt", "w");
    fprintf(f, "%d %.3f\\n", twice(21), sqrt(2.0));
    fclose(f);
    return 0;
}
"""
    files = {"helper.h": "int twice(int x);", "helper.c": "int twice(int x) { return 2 * x; }", "out/.keep": ""}
    r = backend.run(src, language="c", files=files, output_files=["out/result.txt"])
    assert r.ok and r.files == {"out/result.txt": b"42 1.414\n"}, r


def test_cpp_standard_library(backend: LocalBackend) -> None:
    require_language(backend, "cpp")
    src = """
#include <bits/stdc++.h>
int main() {
    std::vector<int> v{5, 3, 9, 1};
    std::sort(v.begin(), v.end());
    std::map<std::string, int> m{{"a", 1}};
    auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    std::cout << v[0] << v[3] << m["a"] << *lo << *hi << std::endl;
}
"""
    r = backend.run(src, language="cpp", limits=Limits(compile_seconds=30))
    assert r.ok and r.stdout == "19119\n", r


@pytest.mark.parametrize("language", ["c", "cpp"])
def test_compile_errors_come_back_as_diagnostics(backend: LocalBackend, language: str) -> None:
    require_language(backend, language)
    r = backend.run("int main() { return undeclared_name; }", language=language)
    assert r.compile_failed and not r.ok and r.error is None, r
    assert r.exit_code is None and r.signal is None and r.stdout == "" and r.stderr == ""
    assert "undeclared_name" in r.compile_output and "error" in r.compile_output


def test_warnings_of_a_successful_compile_are_returned(backend: LocalBackend) -> None:
    require_language(backend, "c")
    r = backend.run('#warning "mind the gap"\nint main(void) { return 0; }', language="c")
    assert r.ok and not r.compile_failed and "mind the gap" in r.compile_output, r


def test_compiler_output_is_bounded(backend: LocalBackend) -> None:
    require_language(backend, "c")
    src = "int main(void) {\n" + "".join(f"  undeclared_{i} = 1;\n" for i in range(3000)) + "}\n"
    r = backend.run(src, language="c", limits=Limits(output_bytes=4000))
    assert r.compile_failed and r.output_truncated and len(r.compile_output.encode()) <= 4000, r


def test_the_program_gets_its_own_limits_not_the_compilers(backend: LocalBackend) -> None:
    """Compile with the compile limits (512 MiB, 10 s by default), run with small ones."""
    require_language(backend, "cpp")
    src = "#include <iostream>\n#include <vector>\nint main() { std::vector<char> v(200 << 20, 1); std::cout << v[7]; }"
    r = backend.run(src, language="cpp", limits=Limits(memory_bytes=64 << 20, wall_seconds=2))
    assert not r.compile_failed and r.memory_exceeded and r.signal == signal.SIGABRT, r
    r = backend.run(src.replace("200 << 20", "1 << 20"), language="cpp", limits=Limits(memory_bytes=64 << 20))
    assert r.ok and r.stdout == "\x01", r


def test_compile_limits_stop_a_compiler_bomb(backend: LocalBackend) -> None:
    require_language(backend, "cpp")
    src = """
template <int N, int M> struct G { static const long v = G<N - 1, M>::v + G<N, M - 1>::v; };
template <int M> struct G<0, M> { static const long v = 1; };
template <int N> struct G<N, 0> { static const long v = 1; };
int main() { return G<400, 400>::v; }
"""
    r = backend.run(src, language="cpp", limits=Limits(compile_seconds=1.5))
    assert r.compile_failed and r.timed_out and 1.5 <= r.compile_seconds < 12 and r.exit_code is None, r  # the margin absorbs a busy machine


def test_compiled_program_is_not_cached_or_poisoned_across_jobs(backend: LocalBackend) -> None:
    """Each job compiles its own source in its own scratch dir: what one candidate leaves
    behind (a header, a binary) is gone for the next."""
    require_language(backend, "c")
    first = """
#include <stdio.h>
int main(void) {
    FILE *f = fopen("poison.h", "w"); fputs("#define ANSWER 666\\n", f); fclose(f);
    const char *shared[] = {"/usr/local/include/poison.h", "/usr/include/poison.h", "/tmp/poison.h"};
    for (int i = 0; i < 3; i++) printf("%s\\n", fopen(shared[i], "w") ? "WROTE" : "denied");
    return 0;
}
"""
    r = backend.run(first, language="c")
    assert r.ok and r.stdout == "denied\n" * 3, r
    second = '#include "poison.h"\n#include <stdio.h>\nint main(void) { printf("%d\\n", ANSWER); }'
    r = backend.run(second, language="c")
    assert r.compile_failed and "poison.h" in r.compile_output, r
    assert not os.path.exists("/usr/local/include/poison.h") and not os.path.exists("/tmp/poison.h")


def test_the_same_source_compiled_twice_gives_each_job_its_own_program(backend: LocalBackend) -> None:
    require_language(backend, "c")
    src = '#include <stdio.h>\nint main(void) { int x; scanf("%d", &x); printf("%d\\n", x * x); }'
    assert [backend.run(src, language="c", stdin=str(n)).stdout for n in (3, 4)] == ["9\n", "16\n"]


def test_javascript_files_and_modules(backend: LocalBackend) -> None:
    require_language(backend, "javascript")
    src = """
const { add } = require("./lib.js");
const fs = require("fs");
fs.writeFileSync("out.json", JSON.stringify({ sum: add(2, 3), argv: process.argv.length }));
console.log(Object.keys(process.env).sort().join(","));
"""
    r = backend.run(src, language="javascript", files={"lib.js": "exports.add = (a, b) => a + b;"},
                    output_files=["out.json"])  # fmt: skip
    assert r.ok and r.stdout == "HOME,TMPDIR\n", r
    assert json.loads(r.files["out.json"]) == {"sum": 5, "argv": 2}


def test_javascript_exceptions_and_heap_limit(backend: LocalBackend) -> None:
    require_language(backend, "javascript")
    r = backend.run("throw new Error('boom')", language="javascript")
    assert r.exit_code == 1 and "Error: boom" in r.stderr and not r.memory_exceeded
    r = backend.run("const a = []; for (;;) a.push(new Array(1e5).fill(1.5));", language="javascript",
                    limits=Limits(memory_bytes=96 << 20, wall_seconds=10))  # fmt: skip
    assert r.memory_exceeded and not r.ok and r.wall_seconds < 9, r


VERILOG_TB = """
// a testbench: the top level is the first module of the source
module tb;
  reg [7:0] a, b;
  wire [8:0] s;
  adder dut(.a(a), .b(b), .s(s));
  integer i, fails;
  initial begin
    fails = 0;
    for (i = 0; i < 20; i = i + 1) begin
      a = i * 13; b = 255 - i * 7; #1;
      if (s !== a + b) fails = fails + 1;
    end
    $display("fails=%0d", fails);
    $finish;
  end
endmodule
"""


def test_verilog_testbench_and_candidate_module(backend: LocalBackend) -> None:
    require_language(backend, "verilog")
    good = "module adder(input [7:0] a, input [7:0] b, output [8:0] s); assign s = a + b; endmodule"
    r = backend.run(VERILOG_TB, language="verilog", files={"adder.v": good})
    assert r.ok and r.stdout == "fails=0\n", r
    bad = "module adder(input [7:0] a, input [7:0] b, output [8:0] s); assign s = a - b; endmodule"
    r = backend.run(VERILOG_TB, language="verilog", files={"adder.v": bad})
    assert r.ok and r.stdout != "fails=0\n" and r.stdout.startswith("fails="), r


def test_verilog_testbench_and_module_both_as_files(backend: LocalBackend) -> None:
    """With an empty source, iverilog picks the roots itself (every uninstantiated module)."""
    require_language(backend, "verilog")
    good = "module adder(input [7:0] a, input [7:0] b, output [8:0] s); assign s = a + b; endmodule"
    r = backend.run("", language="verilog", files={"tb.v": VERILOG_TB, "adder.v": good})
    assert r.ok and r.stdout == "fails=0\n", r


def test_verilog_rogue_top_modules_of_the_candidate_are_not_simulated(backend: LocalBackend) -> None:
    require_language(backend, "verilog")
    rogue = (
        "module adder(input [7:0] a, input [7:0] b, output [8:0] s); assign s = 0; endmodule\n"
        'module fake; initial begin $display("fails=0"); $finish; end endmodule\n'
    )
    r = backend.run(VERILOG_TB, language="verilog", files={"adder.v": rogue})
    assert r.ok and r.stdout.startswith("fails=") and r.stdout != "fails=0\n", r


def test_verilog_syntax_errors_are_compile_errors(backend: LocalBackend) -> None:
    require_language(backend, "verilog")
    r = backend.run("module tb; initial begin $display(1) end endmodule", language="verilog")
    assert r.compile_failed and "syntax error" in r.compile_output and r.exit_code is None, r


def test_verilog_top_module_detection() -> None:
    assert top_module(b"// module fake;\n/* module other; */\nmodule tb_top #(parameter N = 1); endmodule") == "tb_top"
    assert top_module(b"`timescale 1ns/1ps\n  macromodule m2; endmodule") == "m2"
    assert top_module(b"// nothing here") is None


def test_sql_setup_types_and_statements(backend: LocalBackend) -> None:
    require_language(backend, "sql")
    setup = (
        "CREATE TABLE t(name TEXT, n INT, x REAL, b BLOB);"
        " INSERT INTO t VALUES ('a;b', 2, 0.5, x'00ff'), ('c', 1, 1e999, NULL);"
    )
    src = (
        "-- the candidate's query\nSELECT name, n, x, b FROM t ORDER BY n;\n"
        "INSERT INTO t VALUES ('d', 3, 0, NULL);\nSELECT count(*) AS c FROM t"
    )
    r = backend.run(src, language="sql", files={"setup.sql": setup})
    assert r.ok, r
    first, second = (json.loads(line) for line in r.stdout.splitlines())
    assert first == {
        "columns": ["name", "n", "x", "b"],
        "rows": [["c", 1, {"real": "inf"}, None], ["a;b", 2, 0.5, {"blob": "00ff"}]],
    }
    assert second == {"columns": ["c"], "rows": [[3]]}


def test_sql_errors_are_reported_as_a_json_line(backend: LocalBackend) -> None:
    require_language(backend, "sql")
    r = backend.run("SELECT 1; SELECT * FROM missing; SELECT 2", language="sql")
    lines = [json.loads(line) for line in r.stdout.splitlines()]
    assert r.exit_code == 1 and lines[0] == {"columns": ["1"], "rows": [[1]]}, r
    assert lines[1]["statement"] == 1 and "no such table: missing" in lines[1]["error"] and len(lines) == 2


def test_sql_database_file_is_a_private_copy(backend: LocalBackend, tmp_path: os.PathLike) -> None:
    require_language(backend, "sql")
    import sqlite3

    path = os.path.join(tmp_path, "db.sqlite")
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE t(v INT)")
        db.executemany("INSERT INTO t VALUES (?)", [(i,) for i in range(5)])
    data = open(path, "rb").read()
    r = backend.run("DELETE FROM t WHERE v > 1; SELECT sum(v) FROM t", language="sql",
                    files={"database.sqlite": data}, output_files=["database.sqlite"])  # fmt: skip
    assert r.ok and json.loads(r.stdout)["rows"] == [[1]], r
    assert open(path, "rb").read() == data  # the caller's bytes are untouched; the job had a copy


def test_sql_statement_splitting() -> None:
    sql = "SELECT ';'; CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; SELECT 2; END; SELECT 3 -- tail; x"
    assert list(statements(sql)) == [
        "SELECT ';';",
        " CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; SELECT 2; END;",
        " SELECT 3 -- tail; x",
    ]


def test_results_stay_backward_compatible() -> None:
    r = ExecResult("out", "", 0)
    assert r.ok and r.compile_output == "" and not r.compile_failed and r.compile_seconds == 0.0
    assert not ExecResult("", "", None, compile_failed=True).ok


def test_whole_job_memory_is_the_programs_after_the_compile(strongest: LocalBackend, report: ProbeReport) -> None:
    """The job's cgroup allows the compiler 512 MiB, then only the program's limit: four
    processes touching 100 MiB each cannot share 512 MiB once the program runs."""
    require(report, "cgroups")
    require_language(strongest, "c")
    src = """
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
int main(void) {
    for (int i = 0; i < 4; i++) if (fork() == 0) {
        volatile char *p = malloc(100 << 20);  /* volatile: or the optimiser drops it all */
        if (!p) _exit(9);
        for (int j = 0; j < (100 << 20); j += 4096) p[j] = 1;
        sleep(1);
        _exit(p[4096] == 1 ? 0 : 8);
    }
    int status, bad = 0;
    while (wait(&status) > 0) bad += !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    return bad;
}
"""
    r = strongest.run(src, language="c", limits=Limits(memory_bytes=192 << 20, wall_seconds=5))
    assert not r.compile_failed and r.memory_exceeded, r
