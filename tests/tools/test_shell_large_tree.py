"""The shell tool keeps a tree larger than a call's new-file allowance across calls (regression: the second call of
an episode whose tree had more than ~60 entries could not unpack it whole nor pack it again, and its changes were
silently lost while it reported exit status 0)."""

from __future__ import annotations

import pytest

from palaestra.tools.shell import NEW_FILES, ShellTool


@pytest.fixture(scope="module", autouse=True)
def _needs_bash() -> None:
    from palaestra.sandbox import probe

    if "bash" not in probe().languages:
        pytest.skip("the sandbox cannot run bash here")


def test_a_tree_of_more_entries_than_the_new_file_allowance_survives_later_calls() -> None:
    files = {f"d{i % 4}/f{i}.txt": f"{i}\n" for i in range(NEW_FILES + 40)}
    tool = ShellTool(files=files)
    assert tool.call({"command": "touch d0/first"}) == "[exit status 0]"
    reply = tool.call({"command": "find . -type f | wc -l; touch d1/second"})
    assert reply == f"{len(files) + 1}\n[exit status 0]", reply
    after = tool.files()
    assert "d1/second" in after and "d0/first" in after and len(after) == len(files) + 2


def test_a_call_may_create_one_entry_per_file_of_the_tree_beyond_the_allowance_and_no_more() -> None:
    # A task may ask for an output per input (sort 150 files into dated folders, fill 80 templates): with the
    # allowance alone, such a call ran out of inodes at far levels and the task's own oracle failed.
    files = {f"in/f{i}.txt": f"{i}\n" for i in range(100)}
    tool = ShellTool(files=files)
    reply = tool.call({"command": "mkdir out && for i in $(seq 1 120); do : > out/g$i; done; ls out | wc -l"})
    assert reply == "120\n[exit status 0]", reply
    flood = ShellTool(files=files)
    reply = flood.call({"command": f"mkdir out && for i in $(seq 1 {NEW_FILES + len(files) + 50}); do : > out/g$i; "
                                   "done 2>&1 | head -c 300"})
    assert "No space left" in reply, reply
