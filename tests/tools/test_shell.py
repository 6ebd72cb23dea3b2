"""The shell tool: bash commands in an episode's private file tree, which persists between calls."""

from __future__ import annotations

import io
import tarfile

import pytest

from palaestra.tools import make_tools
from palaestra.tools.shell import ShellTool, unpack


@pytest.fixture(scope="module", autouse=True)
def _needs_bash() -> None:
    from palaestra.sandbox import probe

    if "bash" not in probe().languages:
        pytest.skip("the sandbox cannot run bash here")


def test_files_and_the_working_directory_persist_between_calls() -> None:
    tool = ShellTool(files={"notes/a.txt": "b\na\n"})
    assert tool.call({"command": "sort notes/a.txt > sorted.txt && mkdir -p out && cd notes"}) == "[exit status 0]"
    assert tool.cwd() == "notes"
    reply = tool.call({"command": "cat ../sorted.txt; ls .."})
    assert reply == "a\nb\nnotes\nout\nsorted.txt\n[exit status 0]", reply
    assert tool.files() == {"notes/a.txt": b"b\na\n", "sorted.txt": b"a\nb\n"}


def test_exit_status_and_stderr_are_reported_and_exit_still_saves_the_tree() -> None:
    tool = ShellTool()
    reply = tool.call({"command": "echo kept > f.txt; ls missing; exit 3"})
    assert "No such file or directory" in reply and reply.endswith("[exit status 3]"), reply
    assert tool.files() == {"f.txt": b"kept\n"}


def test_a_killed_command_loses_its_changes_and_the_tree_stays() -> None:
    tool = ShellTool(timeout=1, files={"a.txt": "one\n"})
    reply = tool.call({"command": "echo two > a.txt; sleep 30"})
    assert "timed out" in reply and "changes it made are lost" in reply, reply
    assert tool.files() == {"a.txt": b"one\n"}
    # The same tool keeps working; its next command gets time to spare (1 s of wall clock for a whole sandboxed job
    # timed a plain cat out on a busy CI host in round 3's twenty-first session).
    tool.timeout = 30
    assert tool.call({"command": "cat a.txt"}) == "one\n[exit status 0]"


def test_bind_starts_from_the_problems_tree_and_reset_restores_it() -> None:
    class _Problem:
        data = {"files": {"src/main.txt": "x\n"}}

    tool = make_tools(["shell"])[0]
    tool.bind(_Problem())
    tool.call({"command": "rm src/main.txt"})
    assert tool.files() == {}
    tool.reset()
    assert tool.files() == {"src/main.txt": b"x\n"}


def test_other_languages_do_not_run_and_shell_state_does_not_persist() -> None:
    tool = ShellTool()
    assert "Permission denied" in tool.call({"command": "python3 -c 'print(7)'"})
    tool.call({"command": "X=5"})
    assert tool.call({"command": "echo \"[$X]\""}) == "[]\n[exit status 0]"


def test_a_long_command_and_bad_arguments_are_refused_without_running() -> None:
    tool = ShellTool()
    assert tool.call({"command": "echo " + "x" * 9_000}).startswith("error: command longer than")
    assert tool.call({"cmd": "ls"}).startswith("error: missing required argument 'command'")


def test_unpack_reads_regular_files_only_and_survives_garbage() -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name, body in (("./a.txt", b"A"), ("./d/b.txt", b"B")):
            info = tarfile.TarInfo(name)
            info.size = len(body)
            tar.addfile(info, io.BytesIO(body))
        link = tarfile.TarInfo("./secret")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        tar.addfile(link)
    assert unpack(buffer.getvalue()) == {"a.txt": b"A", "d/b.txt": b"B"}
    assert unpack(b"not a tar archive" * 100) == {}
    assert unpack(buffer.getvalue()[:700]) in ({}, {"a.txt": b"A"})


def test_a_snapshot_restored_in_another_tool_continues_the_episode() -> None:
    first = ShellTool(files={"a.txt": "1\n"})
    first.call({"command": "mkdir d && echo 2 > d/b.txt && cd d"})
    archive, cwd = first.snapshot()
    assert archive is not None and cwd == "d"
    second = ShellTool(files={"a.txt": "1\n"})
    second.restore(archive, cwd)
    assert second.call({"command": "cat b.txt ../a.txt"}) == "2\n1\n[exit status 0]"
    second.restore(None)
    assert second.files() == {"a.txt": b"1\n"} and second.cwd() == ""
