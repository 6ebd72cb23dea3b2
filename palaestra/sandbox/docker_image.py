"""Build the Docker sandbox image offline, from this host's own Python interpreter.

No registry is needed: the image is a root file system holding only the interpreter (at its
real path on the host), its standard library (no site-packages, tests, tkinter or IDLE), the
shared libraries ``ldd`` lists for it and its extension modules, the dynamic loader, and the
``palaestra/sandbox`` package under :data:`PACKAGE_ROOT`. It is imported as a tarball
(``POST /images/create?fromSrc=-``, what ``docker import`` does), tagged by a hash of what
went into it, so it is built once per interpreter and sandbox version (about 2 s).

Example::

    import docker
    from palaestra.sandbox.docker_image import ensure_image
    tag, python = ensure_image(docker.from_env())   # ('palaestra-sandbox:3f9c...', '/usr/bin/python3.11')
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
from typing import Any

REPOSITORY = "palaestra-sandbox"
PACKAGE_ROOT = "/opt/palaestra"  # the image's copy of palaestra/sandbox lives under it
FORMAT = "1"  # bump when the layout below changes
_SANDBOX_DIR = os.path.dirname(os.path.abspath(__file__))
_SKIP_STDLIB = {
    "site-packages", "dist-packages", "test", "tests", "idlelib", "tkinter", "turtledemo",
    "ensurepip", "lib2to3", "__phello__",
}  # fmt: skip
_SKIP_EXT = re.compile(r"^_tkinter|^_test|^xxlimited|^_xxtest")


def _stdlib_files(stdlib: str) -> list[str]:
    out = []
    for root, dirs, files in os.walk(stdlib):
        rel = os.path.relpath(root, stdlib)
        dirs[:] = sorted(
            d for d in dirs if not (rel == "." and (d in _SKIP_STDLIB or d.startswith("config-"))) and d != "tests"
        )
        for name in sorted(files):
            if os.path.basename(root) == "lib-dynload" and _SKIP_EXT.match(name):
                continue
            out.append(os.path.join(root, name))
    return out


def _ldd(paths: list[str]) -> set[str]:
    libs: set[str] = set()
    for i in range(0, len(paths), 64):
        proc = subprocess.run(["ldd", *paths[i : i + 64]], capture_output=True, text=True, check=False)
        for line in proc.stdout.splitlines():
            match = re.search(r"(?:=>\s*)?(/\S+)\s+\(0x", line)
            if match:
                libs.add(match.group(1))
    return libs


def _sandbox_files() -> list[tuple[str, str]]:
    """(host path, image path) of every module of palaestra.sandbox."""
    out = []
    for root, dirs, files in os.walk(_SANDBOX_DIR):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                host = os.path.join(root, name)
                rel = os.path.relpath(host, os.path.dirname(os.path.dirname(_SANDBOX_DIR)))
                out.append((host, f"{PACKAGE_ROOT}/{rel}"))
    return out


def image_contents() -> tuple[str, list[tuple[str, str]]]:
    """(interpreter path, [(host path, image path)]) of everything the image holds."""
    python = os.path.realpath(sys.executable)
    stdlib = os.path.realpath(sysconfig.get_paths()["stdlib"])
    files = [python, *_stdlib_files(stdlib)]
    binaries = [python] + [f for f in files if f.endswith(".so")]
    libdir = sysconfig.get_config_var("LIBDIR")
    ldlib = sysconfig.get_config_var("LDLIBRARY")
    if libdir and ldlib and os.path.exists(os.path.join(libdir, ldlib)) and ldlib.endswith(".so"):
        files.append(os.path.join(libdir, ldlib))
    files += sorted(_ldd(binaries))
    pairs = [(f, f) for f in dict.fromkeys(files)]
    return python, pairs + _sandbox_files()


def _add_path(tar: tarfile.TarFile, path: str, host: str, seen: set[str]) -> None:
    """Add ``host`` at image ``path``, with its parent directories and any symlinks on the way."""
    parts = path.strip("/").split("/")
    current = ""
    for i, part in enumerate(parts[:-1]):
        current = f"{current}/{part}"
        if current in seen:
            if os.path.islink(current) and path == host:
                rest = "/".join(parts[i + 1 :])
                _add_path(
                    tar,
                    os.path.join(os.path.realpath(current), rest),
                    os.path.join(os.path.realpath(current), rest),
                    seen,
                )
                return
            continue
        seen.add(current)
        if path == host and os.path.islink(current):  # e.g. /lib -> usr/lib on merged-/usr systems
            info = tarfile.TarInfo(current.lstrip("/"))
            info.type, info.linkname, info.mode = tarfile.SYMTYPE, os.readlink(current), 0o777
            tar.addfile(info)
            rest = "/".join(parts[i + 1 :])
            real = os.path.realpath(current)
            _add_path(tar, os.path.join(real, rest), os.path.join(real, rest), seen)
            return
        info = tarfile.TarInfo(current.lstrip("/"))
        info.type, info.mode = tarfile.DIRTYPE, 0o755
        tar.addfile(info)
    if path in seen:
        return
    seen.add(path)
    real = os.path.realpath(host)
    info = tarfile.TarInfo(path.lstrip("/"))
    if os.path.islink(host) and path == host and os.path.dirname(real) == os.path.dirname(path):
        info.type, info.linkname, info.mode = tarfile.SYMTYPE, os.path.basename(real), 0o777
        tar.addfile(info)
        _add_path(tar, real, real, seen)
        return
    st = os.stat(real)
    info.size, info.mtime = st.st_size, int(st.st_mtime)
    info.mode = 0o755 if st.st_mode & 0o111 else 0o644  # world-readable, owned by root
    with open(real, "rb") as f:
        tar.addfile(info, f)


def _digest(pairs: list[tuple[str, str]]) -> str:
    h = hashlib.sha256(FORMAT.encode())
    for host, path in pairs:
        st = os.stat(host)
        h.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
        if path.startswith(PACKAGE_ROOT):
            with open(host, "rb") as f:
                h.update(f.read())
    return h.hexdigest()[:16]


def build_tarball(pairs: list[tuple[str, str]], out: Any) -> None:
    seen: set[str] = set()
    with tarfile.open(fileobj=out, mode="w") as tar:
        for name in ("tmp", "proc", "dev", "sys", "etc"):
            info = tarfile.TarInfo(name)
            info.type, info.mode = tarfile.DIRTYPE, 0o1777 if name == "tmp" else 0o755
            tar.addfile(info)
            seen.add(f"/{name}")
        for body, name in ((b"root:x:0:0::/:/nonexistent\nnobody:x:65534:65534::/tmp:/nonexistent\n", "etc/passwd"),
                           (b"root:x:0:\nnogroup:x:65534:\n", "etc/group")):  # fmt: skip
            info = tarfile.TarInfo(name)
            info.size, info.mode = len(body), 0o644
            tar.addfile(info, io.BytesIO(body))
        for host, path in pairs:
            _add_path(tar, path, host, seen)


def ensure_image(client: Any, *, rebuild: bool = False) -> tuple[str, str]:
    """The tag of the sandbox image (building and importing it if the engine lacks it), and the
    interpreter's path inside it."""
    import docker.errors

    python, pairs = image_contents()
    tag = f"{REPOSITORY}:{_digest(pairs)}"
    if not rebuild:
        try:
            client.images.get(tag)
            return tag, python
        except docker.errors.ImageNotFound:
            pass
    repository, version = tag.split(":")
    with tempfile.NamedTemporaryFile(suffix=".tar") as f:
        build_tarball(pairs, f)
        f.flush()
        reply = client.api.import_image_from_file(f.name, repository=repository, tag=version)
    try:
        client.images.get(tag)
    except docker.errors.ImageNotFound:  # podman's compat API ignores the tag: tag the new image id
        ids = re.findall(r"sha256:[0-9a-f]{64}", str(reply))
        if not ids:
            raise RuntimeError(f"importing the sandbox image failed: {reply!r}") from None
        client.images.get(ids[-1]).tag(repository, version)
        client.images.get(tag)
    return tag, python
