"""A job keeps only the fds the jail hands it (#23): none of the server's or the zygote's.

The jail renumbers the fds a job needs to 3, 4, ... by first duplicating them above all of them;
an fd of the zygote already open among those duplicates was skipped over and never closed. When a
second block lock shifted the zygote's fds by one, every job held the zygote's socket
(test_hostile's test_holds_no_inherited_file_descriptors)."""

from __future__ import annotations

import os

from palaestra.sandbox.local import jail


def test_arrange_closes_an_open_fd_its_renumbering_skipped_over() -> None:
    pid = os.fork()
    if pid == 0:  # the child's fds are its own to close
        status = 2
        try:
            wanted = [os.open(os.devnull, os.O_RDONLY) for _ in range(2)]
            top = max([*wanted, 2 + len(wanted)]) + 1  # where _arrange starts its duplicates
            blocker = os.open(os.devnull, os.O_RDONLY)
            os.dup2(blocker, top + 1)  # an fd of the caller's among the duplicates
            kept = jail._arrange(wanted)
            try:
                os.fstat(top + 1)
                status = 1  # still open
            except OSError:
                status = 0 if kept == [3, 4] else 3
        finally:
            os._exit(status)
    _, wait_status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(wait_status) == 0, "an fd among the renumbered ones stayed open"
