"""Optional packages (extras) with one clear message when one is missing.

Heavy or specialised dependencies (torch, pyarrow, ray, openenv-core, bm25s, z3) are extras, imported only
where they are used. :func:`require` imports one and, when it is missing, raises :class:`MissingExtra`
naming what needed it and the ``pip install 'palaestra[EXTRA]'`` line that installs it; the ``palaestra``
command prints that line instead of a traceback.

Example::

    >>> json = require("json", "core", "this example")  # present: the module itself
    >>> try:
    ...     require("no_such_module_xyz", "tools", "the search tool")
    ... except MissingExtra as exc:
    ...     print(exc)
    the search tool needs the optional package 'no_such_module_xyz': pip install 'palaestra[tools]'
"""

from __future__ import annotations

import importlib
from types import ModuleType


class MissingExtra(ImportError):
    """An optional package is not installed; the message says which extra installs it."""


def require(module: str, extra: str, purpose: str) -> ModuleType:
    """``import module``, or :class:`MissingExtra` saying that ``purpose`` needs it and how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        if exc.name is not None and exc.name != module and not module.startswith(f"{exc.name}."):
            raise  # the package is there but broken: its own error says more than ours would
        raise MissingExtra(f"{purpose} needs the optional package {module!r}: pip install 'palaestra[{extra}]'") from None
