"""A fractional CPU limit is the limit: a program that used 0.7 s of CPU under a 0.5 s limit timed out.

Found by round 3's forty-third red-team pass: ``RLIMIT_CPU`` counts whole seconds, so the server rounded a 0.5 s
limit up to 1 s, and a C program using 0.62 s of CPU passed the "0.5 s in C" that ``code/efficient_arrays`` and
``code/efficient_strings`` print. The server now also compares the program's own CPU (the compile's excluded) with
the limit when it exits.
"""

from __future__ import annotations

from sandbox_support import require_language

from palaestra.sandbox import Limits, LocalBackend

SPIN = """
import time
while time.process_time() < {seconds}:
    pass
print("done")
"""

C_SPIN = """
#include <stdio.h>
#include <time.h>
int main(void) {
    volatile unsigned long n = 0;
    while ((double) clock() / CLOCKS_PER_SEC < %s) n++;
    puts("done");
    return 0;
}
"""


def test_a_program_over_a_fractional_limit_timed_out(jail: LocalBackend) -> None:
    """At the strict and the standard tier."""
    over = jail.run(SPIN.format(seconds=0.7), limits=Limits(cpu_seconds=0.5, wall_seconds=10))
    assert over.timed_out and not over.ok, over
    under = jail.run(SPIN.format(seconds=0.2), limits=Limits(cpu_seconds=0.5, wall_seconds=10))
    assert under.ok and under.stdout == "done\n", under
    whole = jail.run(SPIN.format(seconds=0.7), limits=Limits(cpu_seconds=1, wall_seconds=10))
    assert whole.ok and whole.stdout == "done\n", whole


def test_a_compiled_programs_limit_excludes_its_compile(backend: LocalBackend) -> None:
    require_language(backend, "c")
    limits = Limits(cpu_seconds=0.5, wall_seconds=10)
    under = backend.run(C_SPIN % "0.2", language="c", limits=limits)
    assert under.ok and under.stdout == "done\n", under
    over = backend.run(C_SPIN % "0.7", language="c", limits=limits)
    assert over.timed_out and not over.ok and not over.compile_failed, over
