"""The shell tool keeps a call's tree only when the call ended by itself, and never a working directory outside the
tree (#23 hostile review, round 3, second pass: a command that wrote its own archive and directory record, dropped
the packing trap and killed itself was told "changes it made are lost" while both were kept, and the next call
started outside the tree)."""

from __future__ import annotations

import pytest

from palaestra.tools.shell import ShellTool, _inside_tree


@pytest.mark.parametrize(("recorded", "kept"), [(b"", b""), (b"/a", b"/a"), (b"/a/b c", b"/a/b c"), (b"/..", b""),
                                                (b"/a/../..", b""), (b"a", b""), (b"//a", b""), (b"/a/./b", b""),
                                                (b"/" + b"x" * 5000, b"")])
def test_only_directories_inside_the_tree_are_kept(recorded: bytes, kept: bytes) -> None:
    assert _inside_tree(recorded) == kept


def test_a_killed_command_keeps_nothing_it_forged() -> None:
    from palaestra.sandbox import probe

    if "bash" not in probe().languages:
        pytest.skip("the sandbox cannot run bash here")
    tool = ShellTool(files={"a.txt": "original\n"})
    forged = tool.call({"command": "trap - EXIT; echo forged > a.txt; tar -cf \"$HOME/state.tar\" .; "
                                   "printf '/../..' > \"$HOME/cwd\"; kill -9 $$"})
    assert "changes it made are lost" in forged
    assert tool.files() == {"a.txt": b"original\n"} and tool.cwd() == ""
    assert tool.call({"command": "pwd -P | grep -c '/work$'; cat a.txt"}).startswith("1\noriginal")
