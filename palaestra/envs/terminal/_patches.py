"""Unified diffs of generated files, as ``diff -u`` and ``git diff`` write them (``a/``/``b/`` paths), for the
terminal envs that ship patch series and commit histories.

Example::

    >>> print(unified_diff("app/a.txt", ["x\\n", "y\\n"], ["x\\n", "z\\n"]), end="")
    --- a/app/a.txt
    +++ b/app/a.txt
    @@ -1,2 +1,2 @@
     x
    -y
    +z
"""

from __future__ import annotations

import difflib


def unified_diff(path: str, before: list[str], after: list[str], context: int = 3) -> str:
    """The diff turning lines ``before`` into ``after`` (each ending in a newline); an empty ``before`` creates the
    file (``--- /dev/null``), an empty ``after`` deletes it (``+++ /dev/null``)."""
    old = f"a/{path}" if before else "/dev/null"
    new = f"b/{path}" if after else "/dev/null"
    return "".join(difflib.unified_diff(before, after, fromfile=old, tofile=new, n=context))
