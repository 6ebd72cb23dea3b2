"""Throughput and CPU cost of running untrusted programs: plain subprocesses against the local
sandbox at each tier this host allows, measured in the same run; then, per language (C, C++,
JavaScript, Verilog, SQL, where installed), the sandbox (compile + run, in the jail) against plain
subprocesses doing the same (the same compiler command, then the program, in a temporary dir).

    python bench/sandbox.py                  # ~2 s per row
    python bench/sandbox.py --seconds 5 --threads 8
    python bench/sandbox.py --workloads --languages c javascript   # languages only
    python bench/sandbox.py --workloads --languages --verify --grpo   # code verification only

``--verify`` verifies distinct gold answers of one code env per language, one caller, and prints
candidates per CPU second of every process involved (= per core). ``--grpo`` verifies a GRPO-shaped
batch (``--problems`` problems x 8 samples, half of them repeats of the other half, shuffled) from
those envs on ``--threads`` callers, judging every sample (no verdict cache), then with the cache keyed
by exact program texts (identical programs on one problem judged once), then with comment variants
folded (the batch's four programs per problem differ only in a comment line), and prints the wall times.

CPU per run counts every process involved: this one (all threads), and each child process
tree (a subprocess and what it spawned; the sandbox server and every job it forked), read
from /proc, so that runs/s can be compared to what the cores could do.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from palaestra.sandbox import Limits, LocalBackend
from palaestra.sandbox.local import languages
from palaestra.sandbox.local.stages import expand, sources
from palaestra.sandbox.local.tiers import ORDER, TIERS

WORKLOADS = {
    "print": "print({i})",
    "unittest": """
import unittest

def solution(xs):
    return sorted(xs)

class T(unittest.TestCase):
    def test_sorted(self):
        self.assertEqual(solution([3, 1, 2]), [1, 2, 3])
    def test_empty(self):
        self.assertEqual(solution([]), [])

unittest.main(argv=["t"], exit=False, verbosity=0)
print({i})
""",
}
LIMITS = Limits(wall_seconds=10, cpu_seconds=10)
# One small program per language printing its run's number (@I@), different every run: nothing
# could be cached even if something tried to.
PROGRAMS = {
    "c": '#include <stdio.h>\nint main(void) { printf("%d\\n", @I@); return 0; }\n',
    "cpp": "#include <iostream>\nint main() { std::cout << @I@ << std::endl; }\n",
    "javascript": "console.log(@I@);\n",
    "verilog": 'module tb; initial begin $display("%0d", @I@); $finish; end endmodule\n',
    "sql": "SELECT @I@ AS i;",
}
# The same SQL as a plain Python subprocess would run it (what the sandbox's SQL job does).
SQL_SCRIPT = "import json, sqlite3, sys; print(sqlite3.connect(':memory:').execute(sys.argv[1]).fetchone()[0])"


def _tree_cpu(pid: int) -> float:
    """CPU seconds of a live process and all its descendants: for each live process of the tree,
    its own time and that of the children it reaped (utime stime cutime cstime). A dead process
    is counted once, by its reaper (the sandbox server is the subreaper of its jobs' orphans);
    the live ones matter since the zygote, a child of the server, reaps the jobs."""
    total, stack = 0.0, [pid]
    while stack:
        current = stack.pop()
        try:
            with open(f"/proc/{current}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as f:
                    stack += [int(child) for child in f.read().split()]
        except (OSError, ValueError):
            continue  # it ended meanwhile: its reaper counts it
    return total


def _self_cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def measure(
    run: Callable[[int], str], seconds: float, threads: int, server: Callable[[], int | None]
) -> tuple[float, float]:
    """(runs per second, CPU milliseconds per run) over ``seconds`` of ``threads`` callers."""
    for i in range(threads):  # warm up (starts the server)
        assert run(i) == f"{i}\n"
    pid = server()
    cpu0, t0 = _self_cpu() + (_tree_cpu(pid) if pid else 0.0), time.perf_counter()
    stop = t0 + seconds

    def worker(k: int) -> int:
        n = 0
        while time.perf_counter() < stop:
            i = k * 1_000_000 + n
            out = run(i)
            assert out == f"{i}\n", out
            n += 1
        return n

    with ThreadPoolExecutor(threads) as pool:
        runs = sum(pool.map(worker, range(threads)))
    elapsed = time.perf_counter() - t0
    cpu = _self_cpu() + (_tree_cpu(pid) if pid else 0.0) - cpu0
    return runs / elapsed, 1000 * cpu / runs


def plain_runner(language: str, chain: dict) -> Callable[[int], str]:
    """The same program as a plain subprocess: the toolchain's own compile command, then the
    program, in a fresh temporary dir (SQL: the query through Python's sqlite3)."""
    lang = languages.LANGUAGES[language]

    def run(i: int) -> str:
        source = PROGRAMS[language].replace("@I@", str(i))
        if language == "sql":
            argv = [sys.executable, "-I", "-S", "-c", SQL_SCRIPT, source]
            return subprocess.run(argv, capture_output=True, text=True, timeout=30, check=False).stdout
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, lang.source), "w") as f:
                f.write(source)
            values = {"sources": sources(language, {}), "top": [], "product": os.path.join(tmp, lang.product or ""),
                      "memory_mib": LIMITS.memory_bytes >> 20}  # fmt: skip
            env = {"HOME": tmp, "TMPDIR": tmp}
            if chain.get("compile"):
                compile_env = {**env, **chain["compile"].get("env", {})}
                argv = expand(chain["compile"]["argv"], values)
                subprocess.run(argv, cwd=tmp, env=compile_env, capture_output=True, timeout=60, check=True)
            argv = expand(chain["run"]["argv"], values)
            return subprocess.run(
                argv, cwd=tmp, env=env, capture_output=True, text=True, timeout=30, check=False
            ).stdout

    return run


def wait_for_pch(backend: LocalBackend, within: float = 600.0) -> bool:
    """Start the server's build of its precompiled C++ headers and wait for it; whether it has them."""
    chain = languages.discover("cpp")
    if not chain["available"] or backend.probe().uids is None:
        return False
    backend.run("int main() {}", language="cpp", limits=LIMITS)
    final = languages.pch_dir(backend.config["base_dir"], chain)
    give_up = time.monotonic() + within
    while not os.path.isdir(final) and time.monotonic() < give_up:
        time.sleep(0.5)
    return os.path.isdir(final)


def bench_languages(names: list[str], seconds: float, threads: int) -> None:
    backend = LocalBackend(min_tier="none")
    no_pch = LocalBackend(min_tier="none", precompiled_headers=False)
    try:
        if "cpp" in names:
            wait_for_pch(backend)
        tier = backend.probe().tier
        chains = {name: languages.discover(name) for name in names}
        print(f"\nlanguages (sandbox tier={tier}; compiled languages: compile + run every time)")
        print(f"{'language':<12}{'runner':<22}{'runs/s':>9}{'CPU ms/run':>12}{'runs/s ratio':>14}{'CPU ratio':>11}")
        for name in names:
            chain = chains[name]
            if not chain["available"]:
                print(f"{name:<12}skipped: {chain['reason']}")
                continue

            def sandboxed(i: int, name: str = name, backend: LocalBackend = backend) -> str:
                r = backend.run(PROGRAMS[name].replace("@I@", str(i)), language=name, limits=LIMITS)
                if name == "sql":
                    import json

                    return f"{json.loads(r.stdout)['rows'][0][0]}\n" if r.ok else r.stdout + r.stderr
                return r.stdout if r.ok else r.stdout + r.stderr + r.compile_output

            rows = [
                (
                    f"subprocess {chain['version'].split()[0]}",
                    *measure(plain_runner(name, chain), seconds, threads, lambda: None),
                ),
                ("sandbox", *measure(sandboxed, seconds, threads, lambda: backend.server_pid)),
            ]
            if name == "cpp":  # the program's first #include <iostream> is precompiled in the row above
                rows.append(
                    (
                        "sandbox, no PCH",
                        *measure(
                            lambda i: sandboxed(i, backend=no_pch), seconds, threads, lambda: no_pch.server_pid
                        ),
                    )
                )
            base_rate, base_cpu = rows[0][1], rows[0][2]
            for runner, rate, cpu in rows:
                print(
                    f"{name:<12}{runner:<22}{rate:>9.1f}{cpu:>12.2f}{rate / base_rate:>13.2f}x{base_cpu / cpu:>10.2f}x"
                )
    finally:
        backend.close()
        no_pch.close()


# One code env per language, and an efficiency env (their gold answers are what is verified).
VERIFY_ENVS = {
    "python (function)": "code/array_pipeline",
    "python (stdio)": "code/stdio_queries",
    "c": "code/c_functions",
    "cpp": "code/cpp_classes",
    "javascript": "code/js_functions",
    "verilog": "code/verilog_combinational",
    "sql": "code/sql_window",
    "lua": "code/lua_functions",
    "go": "code/go_programs",
    "prolog": "code/prolog_queries",
    "bash": "code/bash_oneliners",
    "python (efficiency)": "code/efficient_arrays",  # hidden large tests under a CPU budget: a heavier candidate
}
GRPO_ENVS = ("code/array_pipeline", "code/knapsack", "code/stdio_queries", "code/c_functions", "code/js_functions",
             "code/cpp_classes", "code/sql_window", "code/lua_functions")  # fmt: skip


def _all_cpu(backend_pid: int | None) -> float:
    return _self_cpu() + (_tree_cpu(backend_pid) if backend_pid else 0.0)


def bench_verify(count: int, level: int) -> None:
    """Gold candidates verified per CPU second (every process: this one, the sandbox server and its jobs)."""
    import palaestra
    from palaestra import sandbox
    from palaestra.verifiers import verdict_cache

    verdict_cache.set_enabled(False)  # distinct candidates anyway; nothing may come from a cache
    print(f"\ncode verification: {count} distinct gold answers per env at level {level}, one caller")
    print(f"{'language':<20}{'env':<28}{'cand/s':>8}{'cand/CPU-s':>12}{'CPU ms/cand':>13}")
    plain = LocalBackend(precompiled_headers=False)
    with_pch = LocalBackend()
    runs = [(language, env_id, with_pch) for language, env_id in VERIFY_ENVS.items()]
    runs.insert(3, ("cpp (no PCH)", VERIFY_ENVS["cpp"], plain))
    try:
        wait_for_pch(with_pch)
        for language, env_id, backend in runs:
            sandbox.set_backend(backend)
            env = palaestra.make_source(env_id)
            missing = [t for t in getattr(env, "toolchains", ()) if not backend.languages()[t].available]
            if missing:
                print(f"{language:<20}{env_id:<28}skipped: no {', '.join(missing)}")
                continue
            problems = [env.sample(level, seed) for seed in range(count + 1)]
            assert env.verify(problems[0], problems[0].answer or "").correct  # warm up (compilers' files cached)
            pid = getattr(backend, "server_pid", None)
            cpu0, t0 = _all_cpu(pid), time.perf_counter()
            for problem in problems[1:]:
                verdict = env.verify(problem, problem.answer or "")
                assert verdict.correct, (env_id, verdict)
            wall, cpu = time.perf_counter() - t0, _all_cpu(pid) - cpu0
            print(f"{language:<20}{env_id:<28}{count / wall:>8.2f}{count / cpu:>12.2f}{1000 * cpu / count:>13.1f}")
    finally:
        verdict_cache.set_enabled(True)
        sandbox.set_backend(None)
        plain.close()
        with_pch.close()


COMMENTS = {"python": "#", "bash": "#", "lua": "--", "sql": "--", "prolog": "%"}  # the others: //


def _variant(answer: str, k: int) -> str:
    """The answer's program with a comment line ``variant k`` at its end: a different program text
    that behaves the same (the fence's label picks the comment syntax; bare code is Python)."""
    if not answer.startswith("```"):
        return f"{answer.rstrip()}\n# variant {k}\n"
    label = answer[3:].split("\n", 1)[0].strip()
    head, _, tail = answer.rstrip().rpartition("```")
    return f"{head}{COMMENTS.get(label, '//')} variant {k}\n```{tail}"


def grpo_batch(problems: int, seed: int = 0) -> list[tuple[object, object, str]]:
    """(env, problem, answer) for ``problems`` problems x 8 samples: four different programs each
    (the gold one with a comment ``variant k`` added), each twice: as is, and fenced after a
    sentence (the same program once extracted); shuffled."""
    import random

    import palaestra

    rng = random.Random(seed)
    batch = []
    for i in range(problems):
        env = palaestra.make_source(GRPO_ENVS[i % len(GRPO_ENVS)])
        problem = env.sample(1, 1000 + i)
        for k in range(4):
            answer = _variant(problem.answer or "", k)
            fenced = answer if answer.startswith("```") else f"```python\n{answer}```"
            batch += [(env, problem, answer), (env, problem, f"Here is my program.\n\n{fenced}")]
    rng.shuffle(batch)
    return batch


def bench_grpo(problems: int, threads: int, rounds: int = 2) -> None:
    """The batch judged in each mode, ``rounds`` times in alternating order (first round: no cache first,
    second: last), after a warm-up (each env's gold answer of another problem verified, the C++ headers
    precompiled), so that no mode pays a one-time cost; each mode's mean wall time."""
    import palaestra
    from palaestra import sandbox
    from palaestra.verifiers import verdict_cache

    batch = grpo_batch(problems)
    print(f"\nGRPO-shaped batch: {problems} problems x 8 samples (50% repeats), {threads} callers, {rounds} rounds")
    backend = sandbox.get_backend()
    if isinstance(backend, LocalBackend):
        wait_for_pch(backend)
    for env_id in GRPO_ENVS:
        env = palaestra.make_source(env_id)
        warm = env.sample(1, 0)
        assert env.verify(warm, warm.answer or "").correct, env_id
    modes = [("every sample judged (no cache)", False, False), ("verdict cache, exact texts", True, False),
             ("verdict cache, comments folded", True, True)]
    walls: dict[str, list[float]] = {name: [] for name, _, _ in modes}
    for round_ in range(rounds):
        for name, enabled, fold in (modes if round_ % 2 == 0 else modes[::-1]):
            verdict_cache.set_enabled(enabled, fold_comments=fold)  # clears every cache
            t0 = time.perf_counter()
            with ThreadPoolExecutor(threads) as pool:
                verdicts = list(pool.map(lambda item: item[0].verify(item[1], item[2]), batch))  # type: ignore[attr-defined]
            walls[name].append(time.perf_counter() - t0)
            errors = [v for v in verdicts if v.error]
            print(f"  round {round_ + 1}  {name:<34}{walls[name][-1]:>8.1f} s  "
                  f"({sum(v.correct for v in verdicts)} correct, {len(errors)} errors)", flush=True)
    verdict_cache.set_enabled(True)
    first, exact, folded = (sum(w) / len(w) for w in walls.values())
    print(f"  mean wall: {first:.1f} s no cache, {exact:.1f} s exact texts, {folded:.1f} s comments folded")
    print(f"  speed-up: {first / exact:.2f}x exact texts, {first / folded:.2f}x comments folded")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--threads", type=int, default=2 * (os.cpu_count() or 1))
    parser.add_argument("--workloads", nargs="*", default=list(WORKLOADS), choices=list(WORKLOADS))
    parser.add_argument("--languages", nargs="*", default=list(PROGRAMS), choices=list(PROGRAMS))
    parser.add_argument("--verify", action="store_true", help="gold candidates verified per CPU second per language")
    parser.add_argument("--verify-count", type=int, default=6)
    parser.add_argument("--grpo", action="store_true", help="a GRPO-shaped batch, without and with the verdict cache")
    parser.add_argument("--problems", type=int, default=64)
    args = parser.parse_args()

    report = LocalBackend(min_tier="none").probe()
    usable = {layer for layer, reason in report.available.items() if reason is None}
    tiers = [t for t in reversed(ORDER) if TIERS[t] <= usable and t != "none"]
    print(f"{os.cpu_count()} CPUs, {args.threads} callers, {args.seconds:g} s per row; host tier: {report.tier}")

    for workload in args.workloads:
        source = WORKLOADS[workload]
        rows: list[tuple[str, float, float]] = []
        for name, flags in (("subprocess python -c", []), ("subprocess python -I -S -c", ["-I", "-S"])):

            def spawn(i: int, flags: list[str] = flags, source: str = source) -> str:
                argv = [sys.executable, *flags, "-c", source.format(i=i)]
                return subprocess.run(argv, check=False, capture_output=True, text=True, timeout=30).stdout

            rows.append((name, *measure(spawn, args.seconds, args.threads, lambda: None)))
        for tier in tiers:
            backend = LocalBackend(tier=tier, min_tier="none")

            def sandboxed(i: int, backend: LocalBackend = backend, source: str = source) -> str:
                return backend.run(source.format(i=i), limits=LIMITS).stdout

            try:
                rows.append(
                    (
                        f"sandbox tier={tier}",
                        *measure(sandboxed, args.seconds, args.threads, lambda b=backend: b.server_pid),
                    )
                )
            finally:
                backend.close()
        base_rate, base_cpu = rows[0][1], rows[0][2]
        print(f"\nworkload: {workload}")
        print(f"{'runner':<28}{'runs/s':>9}{'CPU ms/run':>12}{'runs/s ratio':>14}{'CPU ratio':>11}")
        for name, rate, cpu in rows:
            print(f"{name:<28}{rate:>9.0f}{cpu:>12.2f}{rate / base_rate:>13.1f}x{base_cpu / cpu:>10.1f}x")
    if args.languages:
        bench_languages(args.languages, args.seconds, args.threads)
    if args.verify:
        bench_verify(args.verify_count, level=2)
    if args.grpo:
        bench_grpo(args.problems, args.threads)
    print(
        "\nratios are against the first row (of each workload or language): higher is better"
        " (CPU ratio = how many times less CPU per run)"
    )


if __name__ == "__main__":
    main()
