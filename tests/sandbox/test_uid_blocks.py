"""uid blocks are the host's (#23): backends with base dirs of their own must not share one.

A server's uid block names its jobs' uids and its cgroups, both global to the host. Blocks used
to be locked under the base dir only, so a backend with a base dir of its own took the block of
an idle server again: the two servers' jobs ran as the same uids (a job could signal or ptrace
the other server's jobs, read their scratch) and shared cgroups."""

from __future__ import annotations

import os
import shutil
import tempfile

from palaestra.sandbox import LocalBackend


def test_backends_with_their_own_base_dirs_take_different_blocks() -> None:
    root = tempfile.mkdtemp(prefix="palaestra-blocks-")
    os.chmod(root, 0o711)  # the jobs' uids must reach their scratch dirs below it
    first = LocalBackend(min_tier="none", base_dir=os.path.join(root, "first"))
    second = LocalBackend(min_tier="none", base_dir=os.path.join(root, "second"))
    try:
        assert first.run("print('first')").stdout == "first\n"  # started, and idle again
        assert second.run("print('second')").stdout == "second\n"
        one, two = first.probe(), second.probe()
        assert os.path.basename(one.server_dir) != os.path.basename(two.server_dir), (one.server_dir, two.server_dir)
        if one.uids is not None and two.uids is not None:  # root servers: jobs run as the uids of their block
            assert one.uids[1] < two.uids[0] or two.uids[1] < one.uids[0], (one.uids, two.uids)
        assert first.run("print('first again')").stdout == "first again\n"
    finally:
        first.close()
        second.close()
        shutil.rmtree(root, ignore_errors=True)
