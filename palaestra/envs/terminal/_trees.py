"""Trees a plain path -> text mapping cannot hold: binary files, file modes, symbolic links, modification times.

A :class:`PreparedTreeTask` starts its episode from a tar archive built here (:func:`tree_archive`) instead of
``problem.data["files"]``: the sandboxed shell unpacks it as it unpacks the tree between calls, so modes (less
the sandbox's umask 022: never give a mode group or other write), links and times arrive as written.
:func:`tree_entries` reads a final tree back with each file's mode and each link's target, for tasks that
judge them; :func:`archive_members` reads an archive the agent wrote, bounded.

Example::

    >>> archive = tree_archive({"a.sh": "echo\\n"}, modes={"a.sh": 0o755}, links={"b": "a.sh"})
    >>> sorted(tree_entries(archive).items())
    [('a.sh', ('file', 493, b'echo\\n')), ('b', ('link', 511, b'a.sh'))]
"""

from __future__ import annotations

import gzip
import io
import tarfile
import zlib
from collections.abc import Mapping
from typing import Any

from palaestra.core import Problem
from palaestra.envs.terminal.common import ShellTask
from palaestra.envs.tools.common import pack_tree, unpack_tree

EPOCH = 1_700_000_000  # a fixed time for every entry without its own (2023-11-14)
MAX_MEMBER_BYTES = 1 << 20  # an agent's archive: each member read up to this
MAX_MEMBERS = 2_000
MAX_TOTAL_BYTES = 8 << 20  # an agent's archive, or all the gzip files a judge reads: at most this in all


def tree_archive(files: Mapping[str, str | bytes], modes: Mapping[str, int] | None = None,
                 links: Mapping[str, str] | None = None, mtimes: Mapping[str, int] | None = None,
                 prefix: str = "./") -> bytes:
    """A tar of ``files`` (path -> text or bytes) and symbolic ``links`` (path -> target), with the folders they
    need; ``modes`` (default 0644) and ``mtimes`` (default :data:`EPOCH`) per path. Deterministic bytes."""
    modes, mtimes, links = modes or {}, mtimes or {}, links or {}
    folders = sorted({"/".join(path.split("/")[:depth]) for path in [*files, *links]
                      for depth in range(1, path.count("/") + 1)})
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT) as tar:
        def entry(path: str, kind: bytes, mode: int) -> tarfile.TarInfo:
            info = tarfile.TarInfo(prefix + path)
            info.type, info.mode, info.mtime = kind, mode, mtimes.get(path, EPOCH)
            return info

        for folder in folders:
            tar.addfile(entry(folder, tarfile.DIRTYPE, 0o755))
        for path, body in sorted(files.items()):
            data = body.encode() if isinstance(body, str) else bytes(body)
            info = entry(path, tarfile.REGTYPE, modes.get(path, 0o644))
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        for path, target in sorted(links.items()):
            info = entry(path, tarfile.SYMTYPE, 0o777)
            info.linkname = target
            tar.addfile(info)
    return buffer.getvalue()


def gzipped(data: bytes) -> bytes:
    """``data`` gzipped with a fixed header (no time, no name): the same bytes every time."""
    return gzip.compress(data, compresslevel=6, mtime=0)


def tree_entries(archive: bytes, max_entries: int = 10_000, folders: bool = False) -> dict[str, tuple[str, int, bytes]]:
    """A tree's regular files and links: path -> (``"file"``, mode, contents) or (``"link"``, mode, target); with
    ``folders``, its folders too (``"dir"``, mode, ``b""``). Never raises; an unreadable archive gives what could be
    read."""
    entries: dict[str, tuple[str, int, bytes]] = {}
    try:
        with tarfile.open(fileobj=io.BytesIO(archive), mode="r:") as tar:
            for member in tar:
                if len(entries) >= max_entries:
                    break
                name = member.name.removeprefix("./").rstrip("/")
                if not name or name == ".":
                    continue
                if member.isdir() and folders:
                    entries[name] = ("dir", member.mode & 0o7777, b"")
                elif member.issym():
                    entries[name] = ("link", member.mode & 0o7777, member.linkname.encode())
                elif member.isreg():
                    handle = tar.extractfile(member)
                    if handle is not None:
                        entries[name] = ("file", member.mode & 0o7777, handle.read())
    except (tarfile.TarError, OSError, EOFError, ValueError):
        pass
    return entries


def archive_members(data: bytes) -> dict[str, bytes] | str:
    """The regular files of an archive the agent wrote (tar, gzipped or not): member name (``./`` dropped) ->
    contents; or why it cannot be read (not a tar, a member named twice, too large). Bounded reads; never
    raises."""
    members: dict[str, bytes] = {}
    total = 0
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:*") as tar:
            for count, member in enumerate(tar):
                if count >= MAX_MEMBERS:
                    return "too many members"
                if not member.isreg():
                    continue
                name = member.name.removeprefix("./")
                if name in members:
                    return f"member {name!r} appears twice"
                total += member.size
                if member.size > MAX_MEMBER_BYTES or total > MAX_TOTAL_BYTES:
                    return f"member {name!r} is too large"
                handle = tar.extractfile(member)
                members[name] = handle.read(MAX_MEMBER_BYTES) if handle is not None else b""
    except (tarfile.TarError, OSError, EOFError, ValueError, gzip.BadGzipFile) as exc:
        return f"not a readable tar archive ({type(exc).__name__})"
    return members


class PreparedTreeTask(ShellTask):
    """A shell task whose tree starts as :meth:`initial_archive` (modes, links, binary files) rather than as
    ``problem.data["files"]``."""

    def initial_archive(self, problem: Problem) -> bytes:
        raise NotImplementedError

    def initial_state(self, problem: Problem) -> dict[str, Any]:
        return {**super().initial_state(problem), "tree": pack_tree(self.initial_archive(problem))}

    def final_entries(self, state: Mapping[str, Any], folders: bool = False) -> dict[str, tuple[str, int, bytes]]:
        """The tree as ``state`` left it, links and modes included (and its folders, with ``folders``)."""
        return tree_entries(unpack_tree(state.get("tree")) or b"", folders=folders)


MAX_GZIP_MEMBERS = 256


def gunzipped(data: bytes, limit: int = MAX_MEMBER_BYTES) -> bytes | None:
    """The gzip file ``data`` decompressed as ``gunzip`` does, its members one after another (``gzip -c b >> a.gz``
    appends one), at most ``limit`` bytes (more is a failure); None when it is not gzip data, or bytes follow its
    last member (the first member alone was judged, and anything could follow it). Never raises."""
    out = b""
    rest = data
    for _ in range(MAX_GZIP_MEMBERS):
        try:
            inflater = zlib.decompressobj(wbits=31)
            out += inflater.decompress(rest, limit + 1 - len(out))
        except zlib.error:
            return None
        if len(out) > limit or not inflater.eof:
            return None
        rest = inflater.unused_data
        if not rest:
            return out
    return None
