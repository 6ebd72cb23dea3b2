"""The Docker sandbox backend against a real engine (Docker, or podman's compatible API).

Skips unless an engine answers at $PALAESTRA_DOCKER_URL, $DOCKER_HOST or podman's root socket
(``.ci/setup_podman.sh`` provides one). Every hostile test checks the backend still serves.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from palaestra.sandbox import Limits, SandboxError, SandboxUnavailable

docker = pytest.importorskip("docker", reason="the Docker sandbox tests need the 'docker' package")

from palaestra.sandbox.docker_backend import DockerBackend, connect, default_url

MEMORY = 512 << 20
PIDS = 64


@pytest.fixture(scope="module")
def client() -> object:
    try:
        return connect(timeout=30)
    except SandboxUnavailable as exc:
        pytest.skip(
            f"no Docker engine reachable ({exc}); set PALAESTRA_DOCKER_URL or DOCKER_HOST, "
            "or run .ci/setup_podman.sh as root"
        )


@pytest.fixture(scope="module")
def backend(client: object) -> Iterator[DockerBackend]:
    b = DockerBackend(client=client, containers=2, memory_bytes=MEMORY, pids=PIDS, scratch_bytes=64 << 20)
    b.start()
    yield b
    b.close()


def assert_serving(backend: DockerBackend) -> None:
    r = backend.run("print(input() * 2)", stdin="ab", limits=Limits(wall_seconds=10))
    assert r.ok and r.stdout == "abab\n", r


def test_engine_version(client: object) -> None:
    version = client.version()  # type: ignore[attr-defined]
    names = [c.get("Name", "") + " " + c.get("Version", "") for c in version.get("Components", [])]
    print(f"\nengine at {default_url()}: {names or version.get('Version')}")


def test_normal_program(backend: DockerBackend) -> None:
    r = backend.run("import sys\nprint(input()[::-1]); print('err', file=sys.stderr); sys.exit(3)", stdin="abc")
    assert (r.stdout, r.stderr, r.exit_code, r.error) == ("cba\n", "err\n", 3, None)
    r = backend.run(
        "import helper; open('out.txt', 'w').write(helper.X)", files={"helper.py": "X = 'hi'"}, output_files=["out.txt"]
    )
    assert r.ok and r.files["out.txt"] == b"hi", r


def test_hardening_attributes(backend: DockerBackend) -> None:
    containers = backend.containers()
    assert len(containers) == 2
    for c in containers:
        c.reload()
        host, config = c.attrs["HostConfig"], c.attrs["Config"]
        assert host["NetworkMode"] == "none"
        assert host["ReadonlyRootfs"] is True
        assert "/tmp" in host["Tmpfs"]
        assert not host.get("CapAdd") and not host.get("Privileged")
        assert "no-new-privileges" in host["SecurityOpt"]
        assert host["Memory"] == MEMORY and host["PidsLimit"] == PIDS
        assert config["User"] == "65534:65534"
    # and from inside (/proc is closed to jobs by Landlock, so ask the kernel through prctl):
    # not root, no capability in the bounding set, no_new_privs set
    r = backend.run(
        "import ctypes, os\nlibc = ctypes.CDLL(None)\n"
        "print(os.getuid(), os.geteuid(), libc.prctl(39, 0, 0, 0, 0), [c for c in range(64) if libc.prctl(23, c, 0, 0, 0) == 1])"
    )
    assert r.ok and r.stdout == "65534 65534 1 []\n", r


def test_no_network(backend: DockerBackend) -> None:
    r = backend.run(
        "import socket\nfor addr in [('1.1.1.1', 53), ('10.0.2.2', 80)]:\n"
        "    try:\n        s = socket.socket(); s.settimeout(2); s.connect(addr); print('CONNECTED')\n"
        "    except OSError as e:\n        print('blocked', type(e).__name__)\n"
        "import os\nprint(sorted(os.listdir('/sys/class/net')) if os.path.exists('/sys/class/net') else 'no-sys')",
        limits=Limits(wall_seconds=10),
    )
    assert "CONNECTED" not in r.stdout and r.error is None, r
    assert_serving(backend)


def test_memory_limit(backend: DockerBackend) -> None:
    r = backend.run("x = bytearray(2 << 30)\nprint('allocated')", limits=Limits(memory_bytes=128 << 20))
    assert "allocated" not in r.stdout and not r.ok, r
    # beyond the container's own limit too (the job's limit is set above the container's)
    r = backend.run(
        "chunks = []\nwhile True:\n    chunks.append(bytearray(32 << 20))",
        limits=Limits(memory_bytes=4 << 30, wall_seconds=20, cpu_seconds=20),
    )
    assert not r.ok and r.error is None, r
    assert_serving(backend)


def test_pids_limit(backend: DockerBackend) -> None:
    r = backend.run(
        "import os\nn = 0\ntry:\n    while True:\n        if os.fork() == 0:\n            import time; time.sleep(30); os._exit(0)\n"
        "        n += 1\nexcept OSError as e:\n    print('stopped at', n, type(e).__name__)\n",
        limits=Limits(wall_seconds=3, processes=1000),
    )
    assert "stopped at" in r.stdout, r
    assert int(r.stdout.split()[2]) < PIDS, r
    time.sleep(0.5)
    assert_serving(backend)


def test_fork_bomb_contained(backend: DockerBackend) -> None:
    r = backend.run(
        "import os\nwhile True:\n    try: os.fork()\n    except OSError: pass", limits=Limits(wall_seconds=2)
    )
    assert not r.ok, r
    assert_serving(backend)


def test_read_only_root(backend: DockerBackend) -> None:
    r = backend.run(
        "for p in ['/x', '/etc/passwd', '/opt/palaestra/palaestra/sandbox/api.py']:\n"
        "    try:\n        open(p, 'a').write('x'); print('WROTE', p)\n    except OSError as e:\n        print('denied', p, e.errno)"
    )
    assert "WROTE" not in r.stdout and r.stdout.count("denied") == 3, r
    assert_serving(backend)


def test_scratch_writable(backend: DockerBackend) -> None:
    r = backend.run(
        "import os\nopen('a.txt', 'w').write('x' * 1000)\nprint(os.getcwd().startswith('/tmp'), os.path.getsize('a.txt'))",
        output_files=["a.txt"],
    )
    assert r.ok and r.stdout == "True 1000\n" and len(r.files["a.txt"]) == 1000, r


def test_wall_timeout(backend: DockerBackend) -> None:
    start = time.monotonic()
    r = backend.run("while True: pass", limits=Limits(wall_seconds=1, cpu_seconds=10))
    assert r.timed_out and not r.ok and time.monotonic() - start < 60, r  # killed (it never ends by itself)
    r = backend.run("import time; time.sleep(100)", limits=Limits(wall_seconds=1))
    assert r.timed_out, r
    assert_serving(backend)


def test_session(backend: DockerBackend) -> None:
    with backend.session(Limits(wall_seconds=5)) as s:
        assert s.run_cell("x = 41").ok
        assert s.run_cell("x + 1").stdout == "42\n"
        r = s.run_cell("while True: pass", Limits(wall_seconds=1))
        assert r.state_lost
        assert s.run_cell("print('fresh')").stdout == "fresh\n"


def test_restarts_dead_container(backend: DockerBackend) -> None:
    slot = backend.slots[0]
    container = slot.container
    assert container is not None
    container.kill()
    deadline = time.monotonic() + 10
    while not slot._conn.dead and time.monotonic() < deadline:  # type: ignore[union-attr]
        time.sleep(0.05)
    for _ in range(4):  # whichever container each run lands on, all succeed
        assert_serving(backend)
    assert slot.container is not None and slot.container.id != container.id


def test_concurrent_runs(backend: DockerBackend) -> None:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda i: backend.run(f"print({i} * 2)"), range(32)))
    assert [r.stdout for r in results] == [f"{i * 2}\n" for i in range(32)]


def test_latency(backend: DockerBackend) -> None:
    backend.run("pass")
    n = 100
    start = time.perf_counter()
    for _ in range(n):
        backend.run("print(1)")
    per_run = (time.perf_counter() - start) / n
    print(f"\ndocker backend: {per_run * 1000:.1f} ms per trivial run (sequential, {n} runs, {default_url()})")


def test_close_removes_containers(client: object) -> None:
    b = DockerBackend(client=client, containers=1)
    assert b.run("print(1)").ok
    cid = b.containers()[0].id
    b.close()
    ids = [c.id for c in client.containers.list(all=True)]  # type: ignore[attr-defined]
    assert cid not in ids
    with pytest.raises(SandboxError):
        b.run("print(1)")


def test_refuses_root_user(client: object) -> None:
    with pytest.raises(ValueError):
        DockerBackend(client=client, user="0:0")


def test_unreachable_engine() -> None:
    with pytest.raises(SandboxUnavailable):
        connect("unix:///nonexistent/docker.sock", timeout=2)


# -- languages other than Python --------------------------------------------------------------

HELLO = {
    "c": '#include <stdio.h>\nint main(void) { char s[32]; scanf("%31s", s); printf("hi %s\\n", s); return 3; }',
    "cpp": '#include <bits/stdc++.h>\nint main() { std::string s; std::cin >> s; std::cout << "hi " << s << "\\n"; return 3; }',
    "javascript": 'console.log("hi " + require("fs").readFileSync(0, "utf8").trim()); process.exitCode = 3;',
}


def require_docker_language(backend: DockerBackend, language: str) -> None:
    chain = backend.languages()[language]
    if not chain.available:
        pytest.skip(f"not in the container: {chain.reason}")


def test_container_reports_the_hosts_languages(backend: DockerBackend) -> None:
    from palaestra.sandbox.local import languages

    inside = backend.languages()
    for name in languages.LANGUAGES:  # the image carries every toolchain the host has
        assert inside[name].available == languages.discover(name)["available"], inside[name]
    assert inside["sql"].available and inside["python"].available


@pytest.mark.parametrize("language", ["c", "cpp", "javascript"])
def test_languages_in_the_container(backend: DockerBackend, language: str) -> None:
    require_docker_language(backend, language)
    r = backend.run(HELLO[language], language=language, stdin="bob", limits=Limits(wall_seconds=10, compile_seconds=30))
    assert (r.stdout, r.exit_code, r.compile_failed, r.error) == ("hi bob\n", 3, False, None), r


def test_verilog_and_sql_in_the_container(backend: DockerBackend) -> None:
    require_docker_language(backend, "verilog")
    tb = 'module tb; wire [3:0] y; inc dut(.a(4\'d6), .y(y)); initial begin #1 $display("y=%0d", y); $finish; end endmodule'
    r = backend.run(
        tb,
        language="verilog",
        files={"inc.v": "module inc(input [3:0] a, output [3:0] y); assign y = a + 1; endmodule"},
    )
    assert r.ok and r.stdout == "y=7\n", r
    r = backend.run("SELECT 6 * 7 AS x", language="sql")
    assert r.ok and r.stdout == '{"columns": ["x"], "rows": [[42]]}\n', r


def test_compiled_hostile_programs_in_the_container(backend: DockerBackend) -> None:
    require_docker_language(backend, "c")
    fork_bomb = "#include <unistd.h>\nint main(void) { for (;;) fork(); }"
    r = backend.run(fork_bomb, language="c", limits=Limits(wall_seconds=2))
    assert not r.ok and not r.compile_failed, r
    escape = """
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
int main(void) {
    printf("socket %d\\n", socket(AF_INET, SOCK_STREAM, 0));
    printf("system %d\\n", system("echo SHELL"));
    FILE *f = fopen("/usr/bin/gcc", "a");
    printf("%s\\n", f ? "WROTE" : "denied");
    return 0;
}
"""
    r = backend.run(escape, language="c")
    assert r.ok and "SHELL" not in r.stdout and "WROTE" not in r.stdout, r
    assert r.stdout.startswith("socket -1\n") and "system 0" not in r.stdout, r
    assert_serving(backend)


def test_a_language_the_image_does_not_carry_is_unavailable(client: object) -> None:
    from palaestra.sandbox import LanguageUnavailable

    b = DockerBackend(client=client, containers=1, languages=("python",))
    try:
        assert not b.languages()["c"].available
        with pytest.raises(LanguageUnavailable, match="gcc"):
            b.run("int main(void) { return 0; }", language="c")
        assert b.run("SELECT 1", language="sql").ok  # SQL comes with the standard library
    finally:
        b.close()
