"""Compile + run overhead of the sandbox's newer languages (Lua, Go, Prolog, Bash) against plain subprocesses.

Per language, two jobs: a hello-world program, and one verification of a code env in that language (the gold
program next to the env's driver, as the env's verifier submits it: one job with every hidden test). Each job runs
``--repeat`` times through the sandbox (``palaestra.sandbox.run``, what verification pays) and as plain
subprocesses doing the same work (the toolchain's own compile command, then the program, in a fresh temporary
directory); the table shows the medians in milliseconds of wall-clock time and their ratio.

    python bench/language_overhead.py              # 10 runs per cell
    python bench/language_overhead.py --repeat 20 --languages go lua
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from typing import Any

from palaestra import sandbox
from palaestra.core.registry import make_source
from palaestra.sandbox.local import languages
from palaestra.sandbox.local.stages import expand, sources
from palaestra.verifiers.polyglot import CANDIDATE_FILES, Budget, read_program

HELLO = {
    "lua": 'print("hello")',
    "go": 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("hello")\n}\n',
    "prolog": ":- initialization(main, main).\nmain :- writeln(hello).\n",
    "bash": "echo hello",
}
ENVS = {"lua": "code/lua_string_patterns", "go": "code/go_error_handling", "prolog": "code/prolog_dcg",
        "bash": "code/awk_reports"}
LIMITS = Budget(cpu_seconds=2.0).limits()


def verification_job(language: str) -> tuple[str, dict[str, str], str]:
    """(driver source, files, stdin) of one verification of the language's env (level 2, seed 0)."""
    env: Any = make_source(ENVS[language])
    problem = env.sample(level=2, seed=0)
    program = read_program(problem.answer, problem.data["languages"])
    assert not isinstance(program, str), program
    files = {CANDIDATE_FILES[language]: program.code}
    if language == "bash":  # awk_reports builds its driver in judge: one awk run per hidden input
        from palaestra.envs.code.awk_reports import CODE, MARKER

        driver = "".join(CODE("driver.test", text=text, marker=MARKER) for text in problem.data["inputs"])
        return driver, files, ""
    return env.driver(problem.data), files, env.stdin(problem.data)


def plain(language: str, chain: dict[str, Any], source: str, files: dict[str, str], stdin: str) -> str:
    """The job as plain subprocesses: write the files, compile with the toolchain's command, run."""
    lang = languages.LANGUAGES[language]
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in {lang.source: source, **files}.items():
            with open(os.path.join(tmp, name), "w") as f:
                f.write(text)
        values = {"sources": sources(language, files), "top": [], "product": os.path.join(tmp, lang.product or ""),
                  "memory_mib": LIMITS.memory_bytes >> 20}
        env = {"HOME": tmp, "TMPDIR": tmp, "PATH": "/usr/bin:/bin", "LC_ALL": "C"}
        if chain.get("compile"):
            argv = expand(chain["compile"]["argv"], values)
            subprocess.run(argv, cwd=tmp, env={**env, **chain["compile"].get("env", {})}, capture_output=True,
                           timeout=60, check=True)
        argv = expand(chain["run"]["argv"], values)
        return subprocess.run(argv, cwd=tmp, env={**env, **chain["run"].get("env", {})}, input=stdin,
                              capture_output=True, text=True, timeout=30, check=False).stdout


def in_sandbox(language: str, source: str, files: dict[str, str], stdin: str) -> str:
    result = sandbox.run(source, language=language, stdin=stdin, files=dict(files), limits=LIMITS)
    if result.error is not None or result.compile_failed:
        raise RuntimeError(f"{language}: {result.error or result.compile_output}")
    return str(result.stdout)


def median_ms(job: Callable[[], str], repeat: int) -> tuple[float, str]:
    times, out = [], ""
    for _ in range(repeat):
        start = time.perf_counter()
        out = job()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--languages", nargs="*", default=list(HELLO))
    args = parser.parse_args()
    print(f"sandbox tier: {sandbox.probe().tier}; median of {args.repeat} runs, wall-clock ms")
    print(f"{'language':<9}{'job':<34}{'subprocess':>11}{'sandbox':>10}{'ratio':>8}{'overhead':>10}")
    for language in args.languages:
        chain = languages.discover(language)
        if not chain["available"]:
            print(f"{language:<9}skipped: {chain['reason']}")
            continue
        jobs: dict[str, tuple[str, dict[str, str], str]] = {"hello world": (HELLO[language], {}, "")}
        jobs[f"verify {ENVS[language]}"] = verification_job(language)
        for name, (source, files, stdin) in jobs.items():
            base, plain_out = median_ms(lambda: plain(language, chain, source, files, stdin), args.repeat)
            boxed, boxed_out = median_ms(lambda: in_sandbox(language, source, files, stdin), args.repeat)
            same = "" if plain_out == boxed_out else "  (outputs differ!)"
            print(f"{language:<9}{name:<34}{base:>11.1f}{boxed:>10.1f}{boxed / base:>7.2f}x{boxed - base:>10.1f}"
                  + same)


if __name__ == "__main__":
    main()
