"""The shell profile (language ``bash``): many execs, but only of the allow-listed tools, in the job's own
file tree, under the job's limits. Hostile scripts at the strict and standard tiers must be contained, leave
the host unchanged and the sandbox serving (the ``jail`` fixture checks both)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sandbox_support import Victim, require_language

from palaestra.sandbox import ExecResult, Limits, LocalBackend
from palaestra.sandbox.local import languages

FAST = Limits(wall_seconds=3, cpu_seconds=3)


def shell(jail: LocalBackend, source: str, limits: Limits = FAST, **kw: object) -> ExecResult:
    require_language(jail, "bash")
    result = jail.run(source, language="bash", limits=limits, **kw)  # type: ignore[arg-type]
    assert result.error is None, result
    return result


def test_a_pipeline_of_allowed_tools_runs_over_the_given_tree(jail: LocalBackend) -> None:
    files = {"logs/a.log": "b 2\na 1\nb 3\n", "logs/b.log": "a 5\n"}
    script = "cat logs/*.log | awk '{s[$1] += $2} END {for (k in s) print k, s[k]}' | sort | tee out.txt | wc -l"
    r = shell(jail, script, files=files, output_files=["out.txt"])
    assert r.ok and r.stdout == "2\n", r
    assert r.files["out.txt"] == b"a 6\nb 5\n"


@pytest.mark.parametrize("command", ["python3 -c 'print(\"RAN\")'", "/usr/bin/perl -e 'print \"RAN\"'",
                                     "env python3 -c 'print(\"RAN\")'",
                                     "find . -maxdepth 0 -exec python3 -c 'print(\"RAN\")' \\;",
                                     "printf 'print(\"RAN\")' | xargs -0 python3 -c"])
def test_nothing_outside_the_allow_list_executes(jail: LocalBackend, command: str) -> None:
    r = shell(jail, f"{command}; echo done")
    assert "RAN" not in r.stdout and "Permission denied" in r.stderr and r.stdout.endswith("done\n"), r


def test_a_copied_binary_does_not_execute_from_the_tree(jail: LocalBackend) -> None:
    r = shell(jail, "cp \"$(command -v bash)\" ./b && ./b -c 'echo INNER'; echo status=$?")
    assert "INNER" not in r.stdout and "status=126" in r.stdout, r


def test_host_files_stay_unreadable_even_through_links_and_tools(jail: LocalBackend, victim: Victim) -> None:
    secret = str(victim.secret)
    script = (f"cat {secret}; ln -s {secret} link; cat link; cp {secret} copy; echo {secret} | xargs cat; "
              f"tar -cf t.tar {secret}; grep -r TOPSECRET /tmp /etc/passwd; cat /proc/1/environ; echo done")
    r = shell(jail, script)
    assert victim.token not in r.stdout + r.stderr and r.stdout.endswith("done\n"), r


def test_writes_outside_the_tree_fail(jail: LocalBackend, outside_names: list[Path], victim: Victim) -> None:
    targets = " ".join(str(p) for p in outside_names)
    script = (f"for p in {targets}; do echo PWNED > \"$p\"; touch \"$p\"; done; "
              f"echo CHANGED > {victim.writable}; ln -s {victim.writable} w; echo CHANGED > w; echo done")
    r = shell(jail, script)
    assert r.stdout.endswith("done\n"), r
    assert victim.writable.read_text() == "ORIGINAL\n"


def test_a_fork_bomb_is_bounded(jail: LocalBackend) -> None:
    """The job's process limit stops it; the jail fixture then checks that no process of it survives."""
    r = shell(jail, "bomb() { bomb | bomb & }; bomb; sleep 1; echo alive")
    assert r.stdout == "alive\n" or r.timed_out, r


def test_no_network(jail: LocalBackend) -> None:
    r = shell(jail, "exec 3<>/dev/tcp/1.1.1.1/80 && echo CONNECTED; echo status=$?")
    assert "CONNECTED" not in r.stdout, r


def test_output_disk_and_file_count_floods_are_stopped(jail: LocalBackend) -> None:
    flood = shell(jail, "yes")
    assert flood.output_truncated and flood.exit_code is None, flood
    big = shell(jail, "yes > f; echo status=$?", limits=Limits(wall_seconds=3, cpu_seconds=3, file_bytes=1 << 20))
    assert "File too large" in big.stderr and "status=1" in big.stdout, big
    many = shell(jail, "for i in $(seq 500); do touch f$i || { echo stopped at $i; break; }; done")
    # A tmpfs of its own (strict) runs out of inodes; a scratch dir on the host's disk is measured and the job
    # killed (reported as memory: its tmpfs would have counted the files as memory).
    assert "stopped at" in many.stdout or (many.exit_code is None and many.memory_exceeded), many


def test_a_sleeping_script_is_killed_at_the_wall_limit(jail: LocalBackend) -> None:
    r = shell(jail, "sleep 100", limits=Limits(wall_seconds=1, cpu_seconds=1))
    assert r.timed_out and r.exit_code is None, r


def test_the_allow_list_holds_no_interpreter_of_another_language() -> None:
    chain = languages.discover("bash")
    if not chain["available"]:
        pytest.skip(chain["reason"])
    names = {Path(p).name for p in chain["run"]["exec"]}
    assert not names & {"python3", "perl", "ruby", "node", "gcc", "curl", "wget", "nc", "ssh", "sudo", "su"}
    assert {"sort", "grep", "sed"} <= set(chain["tools"])
