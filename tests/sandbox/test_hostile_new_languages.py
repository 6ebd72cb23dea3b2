"""Lua, Go and Prolog in the sandbox: a program runs (stdin, stdout, stderr, exit code), and hostile programs
are contained at the strict and standard tiers (the ``jail`` fixture checks that no process of the sandbox uids
survives and the same server still answers): an endless loop is killed, a memory bomb is bounded, an output
flood is truncated, a secret file stays unreadable, nothing is written outside the scratch dir, and no shell
runs. A test skips, naming the missing tool, where its language's toolchain is not installed
(``.ci/setup_toolchains.sh`` installs them)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from sandbox_support import Victim, require_language

from palaestra.sandbox import ExecResult, Limits, LocalBackend
from palaestra.sandbox.local import languages

# The CPU limit stops a runaway attack; the wall limit is only a backstop. It is generous because a busy CI host
# can leave an interpreter that does nothing wrong waiting seconds for a core (node was once killed at a 3 s wall
# limit with 0.05 s of CPU used), and these tests judge what an attack could do, not how fast it ran.
FAST = Limits(wall_seconds=10, cpu_seconds=3)
NEW = ("lua", "go", "prolog")


def attack(jail: LocalBackend, language: str, source: str, stdin: str = "", limits: Limits = FAST) -> ExecResult:
    """Run a hostile program; the sandbox itself must not fail, and a Go program must have compiled."""
    require_language(jail, language)
    result = jail.run(source, language=language, stdin=stdin, limits=limits)
    assert result.error is None, result
    assert not result.compile_failed, result.compile_output
    return result


def prolog_atoms(paths: list[str]) -> str:
    """A Prolog list of quoted atoms, read by the programs below with ``read_term``."""
    return "[" + ", ".join("'" + p.replace("\\", "\\\\").replace("'", "\\'") + "'" for p in paths) + "]."


# -- a program runs ----------------------------------------------------------------------------

HELLO = {
    "lua": 'local s = io.read("l")\nprint("hello " .. s)\nio.stderr:write("to stderr\\n")\nos.exit(3)',
    "go": 'package main\n\nimport (\n\t"bufio"\n\t"fmt"\n\t"os"\n)\n\nfunc main() {\n'
          '\tvar s string\n\tfmt.Fscan(bufio.NewReader(os.Stdin), &s)\n\tfmt.Println("hello " + s)\n'
          '\tfmt.Fprintln(os.Stderr, "to stderr")\n\tos.Exit(3)\n}',
    "prolog": ":- initialization(main, main).\nmain :- read_line_to_string(user_input, S), format(\"hello ~w~n\", [S]),"
              " format(user_error, \"to stderr~n\", []), halt(3).",
}


@pytest.mark.parametrize("language", NEW)
def test_a_program_reads_stdin_and_reports_output_and_exit_code(backend: LocalBackend, language: str) -> None:
    require_language(backend, language)
    r = backend.run(HELLO[language], language=language, stdin="world\n", limits=Limits(wall_seconds=10))
    assert r.error is None and not r.compile_failed, r
    assert (r.stdout, r.stderr, r.exit_code, r.signal) == ("hello world\n", "to stderr\n", 3, None), r
    assert r.compile_seconds > 0 if language == "go" else r.compile_seconds == 0


@pytest.mark.parametrize("language", NEW)
def test_the_probe_reports_the_language_and_its_version(backend: LocalBackend, language: str) -> None:
    chain = backend.languages()[language]
    if not chain.available:
        pytest.skip(chain.reason)
    prefix = {"lua": "Lua 5.", "go": "go 1.", "prolog": "swipl "}[language]
    assert chain.version.startswith(prefix), chain
    assert languages.canonical({"lua": "lua5.4", "go": "golang", "prolog": "swipl"}[language]) == language


def test_discovery_names_the_missing_tool(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(languages, "SEARCH", (str(tmp_path),))
    for name, tool in (("lua", "lua"), ("go", "go"), ("prolog", "swipl")):
        chain = languages.discover(name)
        assert not chain["available"] and f"{tool} is not installed" in chain["reason"], chain


def test_go_compile_errors_come_back_with_the_compilers_message(backend: LocalBackend) -> None:
    require_language(backend, "go")
    r = backend.run("package main\n\nfunc main() {\n\tx := 1\n}\n", language="go", limits=Limits(wall_seconds=5))
    assert r.error is None and r.compile_failed and r.exit_code is None, r
    assert "main.go:4" in r.compile_output and "declared but not used" in r.compile_output, r


def test_go_compiles_every_given_go_file_into_one_program(backend: LocalBackend) -> None:
    require_language(backend, "go")
    main = 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println(double(21)) }\n'
    r = backend.run(main, language="go", files={"helper.go": "package main\n\nfunc double(x int) int { return 2 * x }\n"},
                    limits=Limits(wall_seconds=5))
    assert r.ok and r.stdout == "42\n", r


def test_go_cgo_is_refused_at_compile_time(backend: LocalBackend) -> None:
    require_language(backend, "go")
    r = backend.run('package main\n\n// #include <stdlib.h>\nimport "C"\n\nfunc main() { C.abort() }\n', language="go",
                    limits=Limits(wall_seconds=5))
    assert r.error is None and r.compile_failed, r


# -- CPU, memory, output ---------------------------------------------------------------------------

LOOP = {
    "lua": "local x = 0\nwhile true do x = x + 1 end",
    "go": "package main\n\nfunc main() {\n\tx := 0\n\tfor {\n\t\tx++\n\t}\n}",
    "prolog": ":- initialization(main, main).\nmain :- repeat, fail.",
}


@pytest.mark.parametrize("language", NEW)
def test_an_endless_loop_is_killed_at_the_wall_limit(jail: LocalBackend, language: str) -> None:
    r = attack(jail, language, LOOP[language], limits=Limits(wall_seconds=0.5, cpu_seconds=10))
    assert r.timed_out and r.signal == signal.SIGKILL and 0.5 <= r.wall_seconds < 5, r


@pytest.mark.parametrize("language", NEW)
def test_the_cpu_limit_holds(jail: LocalBackend, language: str) -> None:
    r = attack(jail, language, LOOP[language], limits=Limits(wall_seconds=20, cpu_seconds=1))
    assert r.timed_out and r.signal is not None and r.wall_seconds < 15, r


BOMB = {
    "lua": "local keep, i = {}, 0\nwhile true do i = i + 1; keep[i] = string.rep(\"x\", 1 << 20) .. i end",
    "go": "package main\n\nfunc main() {\n\tvar keep [][]byte\n\tfor {\n\t\tb := make([]byte, 1<<20)\n"
          "\t\tfor i := range b {\n\t\t\tb[i] = 1\n\t\t}\n\t\tkeep = append(keep, b)\n\t}\n}",
    "prolog": ":- initialization(main, main).\nmain :- grow([]).\ngrow(L) :- grow([x|L]).",
}


@pytest.mark.parametrize("language", NEW)
def test_a_memory_bomb_is_bounded(jail: LocalBackend, language: str) -> None:
    r = attack(jail, language, BOMB[language], limits=Limits(memory_bytes=96 << 20, wall_seconds=20, cpu_seconds=20))
    assert not r.ok and r.memory_exceeded and r.wall_seconds < 15, r


FLOOD = {
    "lua": 'while true do io.write(string.rep("x", 999), "\\n") end',
    "go": 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfor {\n\t\tfmt.Println("xxxxxxxxxxxxxxxxxxxxxxxx")\n\t}\n}',
    "prolog": ":- initialization(main, main).\nmain :- repeat, writeln('xxxxxxxxxxxxxxxxxxxxxxxx'), fail.",
}


@pytest.mark.parametrize("language", NEW)
def test_an_output_flood_is_truncated_and_stopped(jail: LocalBackend, language: str) -> None:
    r = attack(jail, language, FLOOD[language], limits=Limits(output_bytes=100_000, wall_seconds=5))
    assert r.output_truncated and not r.ok and len(r.stdout) <= 100_000 and not r.timed_out, r


# -- the file system ---------------------------------------------------------------------------

READ = {
    "lua": 'for p in io.lines() do\n  local f = io.open(p, "r")\n  local s = f and f:read("a")\n'
           '  if s and #s > 0 then print("LEAK " .. s) else print("denied") end\nend',
    "go": 'package main\n\nimport (\n\t"bufio"\n\t"fmt"\n\t"os"\n)\n\nfunc main() {\n'
          '\tlines := bufio.NewScanner(os.Stdin)\n\tfor lines.Scan() {\n\t\tdata, err := os.ReadFile(lines.Text())\n'
          '\t\tif err == nil && len(data) > 0 {\n\t\t\tfmt.Println("LEAK", string(data))\n\t\t} else {\n'
          '\t\t\tfmt.Println("denied")\n\t\t}\n\t}\n}',
    "prolog": ":- initialization(main, main).\nmain :- read_term(user_input, Paths, []), forall(member(P, Paths), leak(P)).\n"
              "leak(P) :- catch((read_file_to_string(P, S, []), S \\== \"\", format(\"LEAK ~w~n\", [S])), _, fail), !.\n"
              "leak(_) :- writeln(denied).",
}


@pytest.mark.parametrize("language", NEW)
def test_a_secret_file_stays_unreadable(jail: LocalBackend, victim: Victim, language: str) -> None:
    paths = [str(victim.secret), "/etc/passwd", "/proc/1/environ"]
    stdin = prolog_atoms(paths) if language == "prolog" else "\n".join(paths) + "\n"
    r = attack(jail, language, READ[language], stdin)
    assert victim.token not in r.stdout + r.stderr and "LEAK" not in r.stdout, r
    assert r.stdout == "denied\n" * 3, r


WRITE = {
    "lua": 'for p in io.lines() do\n  local f = io.open(p, "w")\n  if f and f:write("pwned") and f:close() then '
           'print("WROTE") else print("denied") end\nend',
    "go": 'package main\n\nimport (\n\t"bufio"\n\t"fmt"\n\t"os"\n)\n\nfunc main() {\n'
          '\tlines := bufio.NewScanner(os.Stdin)\n\tfor lines.Scan() {\n'
          '\t\tif os.WriteFile(lines.Text(), []byte("pwned"), 0o666) == nil {\n\t\t\tfmt.Println("WROTE")\n'
          '\t\t} else {\n\t\t\tfmt.Println("denied")\n\t\t}\n\t}\n}',
    "prolog": ":- initialization(main, main).\nmain :- read_term(user_input, Paths, []), forall(member(P, Paths), put(P)).\n"
              "put(P) :- catch((open(P, write, S), write(S, pwned), close(S), writeln('WROTE')), _, fail), !.\n"
              "put(_) :- writeln(denied).",
}


@pytest.mark.parametrize("language", NEW)
def test_nothing_is_written_outside_the_scratch_dir(jail: LocalBackend, outside_names: list[Path], victim: Victim,
                                                    language: str) -> None:
    paths = [*(str(p) for p in outside_names), str(victim.writable)]
    stdin = prolog_atoms(paths) if language == "prolog" else "\n".join(paths) + "\n"
    r = attack(jail, language, WRITE[language], stdin)
    assert r.stdout == "denied\n" * len(paths), r
    assert victim.writable.read_text() == "ORIGINAL\n"


# -- executing other programs ------------------------------------------------------------------

SHELL = {
    "lua": 'print("execute", os.execute("echo SHELL"))\nlocal p = io.popen("echo SHELL")\n'
           'print("popen", p and p:read("a"))\nprint("done")',
    "go": 'package main\n\nimport (\n\t"fmt"\n\t"os/exec"\n\t"syscall"\n)\n\nfunc main() {\n'
          '\tout, err := exec.Command("/bin/sh", "-c", "echo SHELL").CombinedOutput()\n'
          '\tfmt.Println("command", string(out), err != nil)\n'
          '\tfmt.Println("exec", syscall.Exec("/bin/sh", []string{"sh", "-c", "echo SHELL"}, nil))\n'
          '\tfmt.Println("done")\n}',
    "prolog": ":- initialization(main, main).\n"
              "main :- catch((shell('echo SHELL', Status), format(\"shell ~w~n\", [Status])), E, "
              "(print_message(error, E), writeln('shell refused'))), writeln(done).",
}


@pytest.mark.parametrize("language", NEW)
def test_no_shell_runs(jail: LocalBackend, language: str) -> None:
    r = attack(jail, language, SHELL[language])
    assert "SHELL" not in r.stdout and r.stdout.endswith("done\n"), r


def test_the_go_program_cannot_modify_the_toolchain(jail: LocalBackend) -> None:
    require_language(jail, "go")
    chain = languages.discover("go")
    targets = [chain["tools"]["compile"], chain["tools"]["link"], os.path.join(chain["compile"]["read"][0], "fmt.a")]
    before = {t: os.stat(t).st_mtime_ns for t in targets}
    r = attack(jail, "go", WRITE["go"], "\n".join(targets) + "\n")
    assert r.stdout == "denied\n" * len(targets), r
    assert {t: os.stat(t).st_mtime_ns for t in targets} == before
