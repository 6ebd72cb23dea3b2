"""Hostile programs in C, C++, JavaScript, Verilog and SQL: each must be contained, leave the
host unchanged and the sandbox serving (the ``jail`` fixture checks that no process of the
sandbox uids survives and the same server still answers), at the strict and standard tiers.
A test skips, naming the missing tool, where its language's toolchain is not installed."""

from __future__ import annotations

import json
import os
import signal
import socket
from pathlib import Path

import pytest
from sandbox_support import Victim, require_language

from palaestra.sandbox import ExecResult, Limits, LocalBackend

# The CPU limit stops a runaway attack; the wall limit is only a backstop. It is generous because a busy CI host
# can leave an interpreter that does nothing wrong waiting seconds for a core (node was once killed at a 3 s wall
# limit with 0.05 s of CPU used), and these tests judge what an attack could do, not how fast it ran.
FAST = Limits(wall_seconds=10, cpu_seconds=3)


def attack(jail: LocalBackend, language: str, source: str, params: object = None, limits: Limits = FAST,
           **kw: object) -> ExecResult:  # fmt: skip
    """Run a hostile program (parameters arrive on stdin as JSON, or as plain text for C);
    the sandbox itself must not fail, and the program must have been compiled."""
    require_language(jail, language)
    stdin = params if isinstance(params, str) else json.dumps(params)
    result = jail.run(source, language=language, stdin=stdin, limits=limits, **kw)  # type: ignore[arg-type]
    assert result.error is None, result
    return result


def compiled(result: ExecResult) -> ExecResult:
    assert not result.compile_failed, result.compile_output
    return result


# -- CPU, processes, memory, output ---------------------------------------------------------


def test_c_fork_bomb_is_bounded(jail: LocalBackend) -> None:
    src = "#include <unistd.h>\nint main(void) { for (;;) fork(); }"
    r = compiled(attack(jail, "c", src, limits=Limits(wall_seconds=0.5, processes=8)))
    assert r.timed_out and r.signal == signal.SIGKILL and 0.5 <= r.wall_seconds < 5, r


def test_c_infinite_loop_is_killed_at_the_wall_limit(jail: LocalBackend) -> None:
    src = "int main(void) { volatile unsigned long x = 0; for (;;) x++; }"
    r = compiled(attack(jail, "c", src, limits=Limits(wall_seconds=0.5, cpu_seconds=10)))
    assert r.timed_out and r.signal == signal.SIGKILL and 0.5 <= r.wall_seconds < 5, r


def test_c_cpu_limit_holds_even_when_sigxcpu_is_ignored(jail: LocalBackend) -> None:
    src = (
        "#include <signal.h>\nint main(void) { signal(SIGXCPU, SIG_IGN); volatile unsigned long x = 0; for (;;) x++; }"
    )
    r = compiled(attack(jail, "c", src, limits=Limits(wall_seconds=20, cpu_seconds=1)))
    assert r.timed_out and r.signal == signal.SIGKILL and r.wall_seconds < 15, r


def test_javascript_infinite_loop_is_killed(jail: LocalBackend) -> None:
    r = attack(jail, "javascript", "for (;;) {}", limits=Limits(wall_seconds=0.5, cpu_seconds=10))
    assert r.timed_out and r.signal == signal.SIGKILL and 0.5 <= r.wall_seconds < 5, r


def test_verilog_simulation_that_never_finishes_is_killed(jail: LocalBackend) -> None:
    src = "module tb; reg clk = 0; always #1 clk = ~clk; endmodule"
    r = compiled(attack(jail, "verilog", src, limits=Limits(wall_seconds=0.5, cpu_seconds=10)))
    assert r.timed_out and r.signal == signal.SIGKILL, r


@pytest.mark.parametrize("language", ["c", "cpp"])
def test_huge_allocation_fails(jail: LocalBackend, language: str) -> None:
    src = {
        "c": "#include <stdlib.h>\n#include <stdio.h>\n"
        'int main(void) { void *p = malloc(1UL << 36); puts(p ? "GOT IT" : "null"); return p != 0; }',
        "cpp": "#include <vector>\nint main() { std::vector<char> v(1UL << 36); return v[1]; }",
    }[language]
    r = compiled(attack(jail, language, src, limits=Limits(memory_bytes=128 << 20)))
    if language == "c":
        assert r.exit_code == 0 and r.stdout == "null\n", r
    else:
        assert r.memory_exceeded and r.signal == signal.SIGABRT and "bad_alloc" in r.stderr, r


def test_c_gradual_allocation_hits_the_limit(jail: LocalBackend) -> None:
    src = """
#include <stdlib.h>
int main(void) {
    for (unsigned long total = 0;; total += 1 << 20) {
        volatile char *p = malloc(1 << 20);
        if (!p) return 7;  /* the address-space limit */
        for (int i = 0; i < (1 << 20); i += 4096) p[i] = 1;
    }
}
"""
    r = compiled(attack(jail, "c", src, limits=Limits(memory_bytes=64 << 20)))
    assert not r.ok and (r.exit_code == 7 or r.memory_exceeded), r


def test_javascript_heap_is_bounded(jail: LocalBackend) -> None:
    src = "const keep = []; for (;;) keep.push(new Array(1e5).fill(Math.random()));"
    r = attack(jail, "javascript", src, limits=Limits(memory_bytes=96 << 20, wall_seconds=10))
    assert r.memory_exceeded and not r.ok and r.wall_seconds < 9, r


def test_javascript_console_log_flood_is_stopped(jail: LocalBackend) -> None:
    """console.log to a pipe in a busy loop: node queues what the pipe cannot take, so the flood
    ends at the output limit or, once node's queue grows, at the memory limit."""
    src = 'for (;;) console.log("x".repeat(1000));'
    r = attack(jail, "javascript", src, limits=Limits(output_bytes=100_000, memory_bytes=128 << 20, wall_seconds=10))
    assert not r.ok and r.signal is not None and len(r.stdout) <= 100_000, r
    assert r.output_truncated or r.memory_exceeded, r
    assert r.wall_seconds < 9


def test_verilog_display_flood_is_truncated_and_stopped(jail: LocalBackend) -> None:
    src = 'module tb; initial forever begin $display("flood flood flood flood"); #1; end endmodule'
    r = compiled(attack(jail, "verilog", src, limits=Limits(output_bytes=100_000, wall_seconds=5)))
    assert r.output_truncated and len(r.stdout) <= 100_000 and not r.timed_out, r


def test_c_output_flood_is_truncated_and_stopped(jail: LocalBackend) -> None:
    src = (
        '#include <stdio.h>\nint main(void) { for (;;) { fputs("xxxxxxxxxxxxxxxx\\n", stdout); fputs("y", stderr); } }'
    )
    r = compiled(attack(jail, "c", src, limits=Limits(output_bytes=100_000, wall_seconds=5)))
    assert r.output_truncated and len(r.stdout) <= 100_000 and len(r.stderr) <= 100_000 and not r.timed_out, r


def test_verilog_dump_file_is_capped(jail: LocalBackend) -> None:
    src = (
        'module tb; reg [63:0] c = 0; initial begin $dumpfile("w.vcd"); $dumpvars(0, tb); end\n'
        "always #1 c = c + 1; endmodule"
    )
    r = compiled(attack(jail, "verilog", src, limits=Limits(file_bytes=1 << 20, wall_seconds=3)))
    assert not r.ok, r  # stopped by the file size limit (SIGXFSZ) or the wall clock, never unbounded


# -- the file system --------------------------------------------------------------------------


def test_c_cannot_write_outside_scratch(jail: LocalBackend, outside_names: list[Path]) -> None:
    src = """
#include <stdio.h>
int main(void) {
    char path[4096];
    while (scanf("%4095s", path) == 1) {
        FILE *f = fopen(path, "w");
        puts(f ? "WROTE" : "denied");
    }
    return 0;
}
"""
    r = compiled(attack(jail, "c", src, " ".join(str(p) for p in outside_names)))
    assert r.exit_code == 0 and r.stdout == "denied\n" * len(outside_names), r


def test_javascript_cannot_write_outside_scratch(jail: LocalBackend, outside_names: list[Path]) -> None:
    src = """
const fs = require("fs");
for (const path of JSON.parse(fs.readFileSync(0, "utf8"))) {
    try { fs.writeFileSync(path, "pwned"); console.log("WROTE"); } catch (e) { console.log("denied", e.code); }
}
"""
    r = attack(jail, "javascript", src, [str(p) for p in outside_names])
    assert "WROTE" not in r.stdout and r.stdout.count("denied") == len(outside_names), r


@pytest.mark.parametrize("language", ["c", "javascript", "verilog", "sql"])
def test_cannot_read_a_secret_file(jail: LocalBackend, victim: Victim, language: str) -> None:
    secret = str(victim.secret)
    paths = f'"{secret}", "/etc/passwd", "/proc/1/environ"'
    src = {
        "c": f"#include <stdio.h>\nint main(void) {{ const char *p[] = {{{paths}}};"
        ' for (int i = 0; i < 3; i++) { FILE *f = fopen(p[i], "r"); char b[200] = {0};'
        ' if (f && fread(b, 1, 199, f) > 0) printf("LEAK %s\\n", b); else puts("denied"); } }',
        "javascript": f'const fs = require("fs"); for (const p of [{paths}])'
        ' { try { console.log("LEAK", fs.readFileSync(p, "utf8")); } catch (e) { console.log("denied"); } }',
        "verilog": f'module tb; integer f, c; initial begin f = $fopen("{secret}", "r");'
        ' if (f == 0) $display("denied"); else begin c = $fgetc(f); $display("LEAK %c", c); end $finish; end endmodule',
        "sql": f"ATTACH DATABASE '{secret}' AS s; SELECT * FROM s.sqlite_master;",
    }[language]
    r = attack(jail, language, src)
    assert victim.token not in r.stdout + r.stderr + r.compile_output and "LEAK" not in r.stdout, r
    if language == "sql":
        assert r.exit_code == 1 and "not authorized" in json.loads(r.stdout)["error"], r
    else:
        assert r.stdout.count("denied") == (1 if language == "verilog" else 3), r


def test_compiler_cannot_include_host_secrets(jail: LocalBackend, victim: Victim) -> None:
    """The preprocessor reads only the toolchain's headers and the scratch dir."""
    src = f'#include "{victim.secret}"\n#include "/etc/passwd"\nint main(void) {{ return 0; }}'
    r = attack(jail, "c", src)
    assert r.compile_failed and victim.token not in r.compile_output and "root:" not in r.compile_output, r


def test_sql_cannot_attach_or_load_extensions(jail: LocalBackend) -> None:
    for src in ("ATTACH 'other.db' AS o; SELECT 1", "SELECT load_extension('/usr/lib/x86_64-linux-gnu/libc.so.6')",
                "DETACH main"):  # fmt: skip
        r = attack(jail, "sql", src)
        line = json.loads(r.stdout.splitlines()[-1])
        assert r.exit_code == 1 and "error" in line and "columns" not in r.stdout, (src, r)


def test_sql_huge_cartesian_product_is_bounded(jail: LocalBackend) -> None:
    src = (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 100000) SELECT count(*) FROM c, c b, c d;"
    )
    r = attack(jail, "sql", src, limits=Limits(wall_seconds=1, cpu_seconds=10))
    assert r.timed_out and r.signal == signal.SIGKILL and r.wall_seconds < 5, r
    src = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x, x FROM c;"
    r = attack(jail, "sql", src, limits=Limits(output_bytes=100_000, wall_seconds=5))
    assert r.output_truncated and len(r.stdout) <= 100_000 and not r.timed_out, r


def test_sql_cannot_write_outside_scratch(jail: LocalBackend, outside_names: list[Path]) -> None:
    for path in outside_names:
        r = attack(jail, "sql", f"CREATE TABLE t(x); VACUUM INTO '{path}';")
        assert r.exit_code == 1 and "error" in r.stdout, r


# -- the network ------------------------------------------------------------------------------


def test_c_has_no_sockets(jail: LocalBackend) -> None:
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.3)
    src = """
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/un.h>
int main(void) {
    int port; scanf("%d", &port);
    int kinds[][3] = {{AF_INET, SOCK_STREAM, 0}, {AF_INET, SOCK_DGRAM, 0}, {AF_INET6, SOCK_STREAM, 0},
                      {AF_UNIX, SOCK_DGRAM, 0}, {AF_NETLINK, SOCK_RAW, 0}, {AF_PACKET, SOCK_RAW, 0}};
    for (int i = 0; i < 6; i++) {
        int s = socket(kinds[i][0], kinds[i][1], kinds[i][2]);
        if (s < 0) { puts("denied"); continue; }
        struct sockaddr_in a = {0};
        a.sin_family = AF_INET; a.sin_port = htons(port); a.sin_addr.s_addr = htonl(0x7f000001);
        printf("OPENED %d %d\\n", i, connect(s, (struct sockaddr *)&a, sizeof a));
    }
    return 0;
}
"""
    r = compiled(attack(jail, "c", src, str(listener.getsockname()[1])))
    with pytest.raises(TimeoutError):
        listener.accept()
    listener.close()
    assert r.stdout == "denied\n" * 6, r


def test_javascript_has_no_network(jail: LocalBackend) -> None:
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.3)
    src = """
const net = require("net"), dgram = require("dgram");
const port = JSON.parse(require("fs").readFileSync(0, "utf8"));
const report = (what) => (e) => console.log(what, e ? e.code : "CONNECTED");
net.connect(port, "127.0.0.1").on("error", report("tcp")).on("connect", () => console.log("CONNECTED"));
net.connect(80, "1.1.1.1").on("error", report("tcp-out")).on("connect", () => console.log("CONNECTED"));
try { dgram.createSocket("udp4").on("error", report("udp")).send("x", port, "127.0.0.1"); }
catch (e) { console.log("udp", e.code); }
"""
    r = attack(jail, "javascript", src, listener.getsockname()[1])
    with pytest.raises(TimeoutError):
        listener.accept()
    listener.close()
    assert "CONNECTED" not in r.stdout and r.stdout.count("EPERM") == 3, r


# -- executing other programs, other processes, the kernel ------------------------------------


def test_c_cannot_run_a_shell_or_any_other_program(jail: LocalBackend) -> None:
    src = """
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(void) {
    printf("system %d\\n", system("/bin/sh -c 'echo SHELL'"));
    char *argv[] = {"x", "/usr/bin/id", 0}, *env[] = {0};
    const char *targets[] = {"/bin/sh", "/usr/bin/id", "/lib64/ld-linux-x86-64.so.2", "/proc/self/exe", "./main"};
    for (int i = 0; i < 5; i++) { execve(targets[i], argv, env); puts("denied"); }
    return 0;
}
"""
    r = compiled(attack(jail, "c", src))
    assert "SHELL" not in r.stdout and r.stdout.count("denied") == 5, r
    assert r.stdout.startswith("system ") and r.stdout.split()[1] != "0", r


def test_javascript_cannot_spawn_processes(jail: LocalBackend) -> None:
    src = """
const cp = require("child_process");
for (const run of [() => cp.execSync("echo SHELL"), () => cp.execFileSync("/usr/bin/node", ["-e", "1"]),
                   () => cp.spawnSync(process.execPath, ["-e", "1"]).error.code]) {
    try { const out = run(); console.log(typeof out === "string" ? "denied " + out : "RAN " + out); }
    catch (e) { console.log("denied", e.code); }
}
"""
    r = attack(jail, "javascript", src)
    assert "RAN" not in r.stdout and "SHELL" not in r.stdout and r.stdout.count("denied") == 3, r


def test_c_cannot_escape_through_the_kernel(jail: LocalBackend) -> None:
    src = """
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
int main(void) {
    printf("%d %d %d %d %d %d %d\\n",
           unshare(CLONE_NEWUSER), unshare(CLONE_NEWNET | CLONE_NEWNS), mount("none", ".", "tmpfs", 0, 0),
           chroot("."), (int)ptrace(PTRACE_TRACEME, 0, 0, 0), (int)ptrace(PTRACE_ATTACH, getppid(), 0, 0),
           kill(1, SIGKILL));
    printf("%d %d\\n", (int)syscall(SYS_bpf, 0, 0, 0), (int)syscall(SYS_io_uring_setup, 8, 0));
    printf("uid %d\\n", getuid());
    return 0;
}
"""
    r = compiled(attack(jail, "c", src))
    first, second, uid = r.stdout.splitlines()
    assert set(first.split()) == {"-1"} and set(second.split()) == {"-1"} and uid != "uid 0", r


def test_c_kill_minus_one_hurts_only_the_job(jail: LocalBackend) -> None:
    src = '#include <signal.h>\n#include <stdio.h>\nint main(void) { kill(-1, SIGKILL); puts("survived"); return 0; }'
    r = compiled(attack(jail, "c", src))
    assert r.signal == signal.SIGKILL or r.stdout == "survived\n", r


def test_c_setsid_daemon_does_not_outlive_its_job(jail: LocalBackend, victim: Victim) -> None:
    src = """
#include <stdio.h>
#include <unistd.h>
int main(void) {
    char path[4096]; scanf("%4095s", path);
    if (fork() == 0) {
        setsid();
        if (fork() == 0) { sleep(1); FILE *f = fopen(path, "w"); if (f) fputs("daemon", f); sleep(60); }
        _exit(0);
    }
    puts("parent done");
    return 0;
}
"""
    r = compiled(attack(jail, "c", src, str(victim.dir / "daemon.txt")))
    assert r.exit_code == 0 and r.stdout == "parent done\n", r


def test_c_fake_passed_output_is_reported_as_is(jail: LocalBackend) -> None:
    src = (
        "#include <stdio.h>\n#include <unistd.h>\n"
        'int main(void) { puts("Ran 10 tests\\nOK\\npassed 10/10"); fflush(stdout); _exit(0); }'
    )
    r = compiled(attack(jail, "c", src, output_files=["verdict.json"]))
    assert r.ok and "passed 10/10" in r.stdout and r.files == {}


# -- compiler bombs ---------------------------------------------------------------------------


def test_include_recursion_is_bounded(jail: LocalBackend) -> None:
    r = attack(jail, "c", '#include "main.c"\nint main(void) { return 0; }', limits=Limits(compile_seconds=5))
    assert r.compile_failed and "nested depth" in r.compile_output and not r.timed_out, r


def test_including_an_endless_device_is_bounded(jail: LocalBackend) -> None:
    r = attack(jail, "c", '#include "/dev/zero"\nint main(void) { return 0; }',
               limits=Limits(compile_seconds=3, compile_memory_bytes=256 << 20))  # fmt: skip
    assert r.compile_failed and r.compile_seconds < 13 and (r.memory_exceeded or r.timed_out), r  # margin: a busy machine


def test_template_explosion_is_stopped_at_the_compile_limit(jail: LocalBackend) -> None:
    src = """
template <int N, int M> struct G { static const long v = G<N - 1, M>::v + G<N, M - 1>::v; };
template <int M> struct G<0, M> { static const long v = 1; };
template <int N> struct G<N, 0> { static const long v = 1; };
int main() { return G<400, 400>::v; }  // depth 800: under gcc's 900, so only time stops it
"""
    r = attack(jail, "cpp", src, limits=Limits(compile_seconds=1))
    assert r.compile_failed and r.timed_out and r.compile_seconds < 11, r  # killed at the limit; margin: a busy machine


def test_huge_binary_is_stopped_by_the_file_size_limit(jail: LocalBackend) -> None:
    src = "char blob[200000000] = {1};\nint main(void) { return blob[7]; }"
    r = attack(jail, "c", src, limits=Limits(file_bytes=8 << 20))
    assert r.compile_failed and "File too large" in r.compile_output, r


def test_macro_expansion_bomb_is_bounded(jail: LocalBackend) -> None:
    lines = ["#define A0 x"] + [f"#define A{i} A{i - 1} A{i - 1}" for i in range(1, 40)]
    src = "\n".join(lines) + "\nint main(void) { int x = 0; return A39; }\n"
    r = attack(jail, "c", src, limits=Limits(compile_seconds=2, compile_memory_bytes=256 << 20))
    assert r.compile_failed and (r.timed_out or r.memory_exceeded or r.output_truncated), r


def test_compiled_program_cannot_modify_the_toolchain(jail: LocalBackend) -> None:
    targets = ["/usr/bin/gcc", "/usr/include/stdio.h", "/usr/lib/gcc", "/usr/local/include/evil.h"]
    src = """
#include <stdio.h>
int main(void) {
    char path[4096];
    while (scanf("%4095s", path) == 1) puts(fopen(path, "a") ? "OPENED" : "denied");
}
"""
    before = {t: os.stat(t).st_mtime_ns for t in targets if os.path.exists(t)}
    r = compiled(attack(jail, "c", src, " ".join(targets)))
    assert r.stdout == "denied\n" * len(targets), r
    assert {t: os.stat(t).st_mtime_ns for t in targets if os.path.exists(t)} == before
