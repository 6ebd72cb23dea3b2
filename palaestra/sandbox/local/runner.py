"""The innermost process: resets the forked interpreter to a clean ``python main.py`` state and
runs the program (one job) or a loop of cells (a session). Runs already confined.

Example (what the jail does in the job's last process)::

    runner.reset_runtime(scratch, paths, path_map, packages, unload)
    runner.run_main(source)                   # never returns

    runner.reset_runtime(scratch, paths, path_map, packages, unload)
    runner.run_session(cells_fd, results_fd)  # never returns
"""

from __future__ import annotations

import ast
import atexit
import io
import linecache
import os
import sys
import threading
import traceback
import types
from typing import Any, NoReturn

from .protocol import Decoder, encode_status

MAIN = "main.py"
ENV = ("HOME", "TMPDIR")  # both point at the scratch directory; nothing else is inherited


def reset_runtime(
    scratch: str, paths: list[str], path_map: list[tuple[str, str]], packages: list[str], unload: list[str]
) -> None:
    """Fresh stdio, environment, ``sys.path``, ``__main__`` and cwd, as for ``python main.py``.

    ``path_map`` moves the search path of the pre-imported ``packages`` to where this process
    can read them (their submodules are imported lazily, e.g. ``encodings.idna``); the
    ``unload`` modules (the sandbox's own) are none of the program's business.
    """
    os.chdir(scratch)
    os.environ.clear()
    os.environ.update(dict.fromkeys(ENV, scratch))
    if "tempfile" in sys.modules:
        sys.modules["tempfile"].tempdir = None
    sys.argv[:] = [MAIN]
    sys.path[:] = [scratch, *paths]
    sys.path_importer_cache.clear()
    for name in packages:
        search = sys.modules[name].__path__
        for i, entry in enumerate(search):
            for real, seen in path_map:
                if entry == real or entry.startswith(real + "/"):
                    search[i] = seen + entry[len(real) :]
    for name in unload:
        sys.modules.pop(name, None)
    sys.stdin = sys.__stdin__ = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "r", closefd=False)), encoding="utf-8")
    sys.stdout = sys.__stdout__ = io.TextIOWrapper(
        io.BufferedWriter(io.FileIO(1, "w", closefd=False)), encoding="utf-8"
    )
    sys.stderr = sys.__stderr__ = io.TextIOWrapper(
        io.BufferedWriter(io.FileIO(2, "w", closefd=False)),
        encoding="utf-8",
        errors="backslashreplace",
        line_buffering=True,
    )


def _fresh_main() -> dict[str, Any]:
    main = types.ModuleType("__main__")
    main.__dict__["__builtins__"] = __builtins__
    sys.modules["__main__"] = main
    return main.__dict__


def _exit_status(exc: SystemExit) -> int:
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code & 0xFF
    print(exc.code, file=sys.stderr)
    return 1


def _report(exc: BaseException) -> int:
    """Print a traceback the way the interpreter would, hiding this module's frames."""
    if isinstance(exc, SystemExit):
        return _exit_status(exc)
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    try:
        traceback.print_exception(type(exc), exc, tb)
    except MemoryError:
        os.write(2, b"MemoryError\n")
    return 1


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass


def _finish(status: int) -> NoReturn:
    """What interpreter shutdown does: join non-daemon threads, run atexit handlers, flush."""
    try:
        shutdown = getattr(threading, "_shutdown", None)
        if shutdown is not None:
            shutdown()
        atexit._run_exitfuncs()
    except BaseException as exc:  # noqa: BLE001 - the program's own failure at exit
        status = _report(exc)
    _flush()
    os._exit(status)


def run_main(source: str) -> NoReturn:
    """Run ``main.py`` (already written to the scratch directory) as ``__main__``."""
    namespace = _fresh_main()
    namespace["__file__"] = os.path.abspath(MAIN)
    status = 0
    try:
        exec(compile(source, MAIN, "exec", dont_inherit=True), namespace)  # noqa: S102 - running it is the point
    except BaseException as exc:  # noqa: BLE001 - the program's own failure
        status = _report(exc)
    _finish(status)


def _run_cell(source: str, name: str, namespace: dict[str, Any]) -> int:
    """Execute a cell like the REPL does: the value of a final expression is displayed."""
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    try:
        tree = ast.parse(source, name)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, name, "exec", dont_inherit=True), namespace)  # noqa: S102
        if last is not None:
            expr = ast.Expression(last.value)
            sys.displayhook(eval(compile(expr, name, "eval", dont_inherit=True), namespace))
        return 0
    except BaseException as exc:  # noqa: BLE001 - the cell's own failure; state survives
        return _report(exc)


def run_session(cells_fd: int, results_fd: int) -> NoReturn:
    """Run cells read from ``cells_fd``; after each, report on ``results_fd``, state kept."""
    namespace = _fresh_main()
    decoder = Decoder()
    count = 0
    while True:
        data = os.read(cells_fd, 1 << 16)
        if not data:
            _finish(0)
        for cell in decoder.feed(data):
            count += 1
            before = os.times()
            status = _run_cell(cell["source"], f"<cell {count}>", namespace)
            _flush()
            after = os.times()
            cpu = sum(after[:4]) - sum(before[:4])
            os.write(results_fd, encode_status({"cell": cell["id"], "exit_code": status, "cpu": cpu}))
