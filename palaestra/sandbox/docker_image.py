"""Build the Docker sandbox image offline, from this host's own Python interpreter.

No registry is needed: the image is a root file system holding only the interpreter (at its
real path on the host), its standard library (no site-packages, tests, tkinter or IDLE), the
shared libraries ``ldd`` lists for it and its extension modules, the dynamic loader, and the
``palaestra/sandbox`` package under :data:`PACKAGE_ROOT`. It is imported as a tarball
(``POST /images/create?fromSrc=-``, what ``docker import`` does), tagged by a hash of what
went into it, so it is built once per interpreter, sandbox version and set of languages
(about 2 s for Python alone; with every toolchain ~250 MB and 10-20 s).

SQL comes with the standard library. The other languages come from the host's own toolchains,
where installed (:func:`toolchain_files`): their executables and helpers with the libraries
``ldd`` lists, Icarus Verilog's module directory, Coq's standard library, ``node``; for C and C++ not the whole of
``/usr/include`` but the headers the standard library pulls in (every C11 header and the
common POSIX ones; ``<bits/stdc++.h>``, i.e. all of C++'s) and the files the linker reads, found
by compiling and linking probe programs on the host. A program including another header
compiles locally but not in the container. A language whose toolchain the host lacks is not
carried: the server in the container then reports it unavailable, like the local one.

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
FORMAT = "2"  # bump when the layout below changes
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


# Headers a C program may include (when the host has them): C11's and the common POSIX ones.
C_HEADERS = (
    "assert.h complex.h ctype.h errno.h fenv.h float.h inttypes.h iso646.h limits.h locale.h math.h "
    "setjmp.h signal.h stdalign.h stdarg.h stdatomic.h stdbool.h stddef.h stdint.h stdio.h stdlib.h "
    "stdnoreturn.h string.h tgmath.h threads.h time.h uchar.h wchar.h wctype.h unistd.h fcntl.h "
    "strings.h dirent.h poll.h sched.h pthread.h semaphore.h spawn.h termios.h search.h regex.h "
    "sys/types.h sys/stat.h sys/wait.h sys/time.h sys/times.h sys/mman.h sys/resource.h "
    "sys/socket.h sys/un.h sys/syscall.h sys/mount.h sys/ptrace.h sys/select.h sys/uio.h "
    "sys/utsname.h netinet/in.h arpa/inet.h netdb.h"
).split()
CPP_HEADERS = ("bits/stdc++.h",)


def _headers(driver: str, language: str, headers: tuple[str, ...] | list[str], workdir: str) -> list[str]:
    """Every header file that including ``headers`` (those the host has) reads."""
    source = os.path.join(workdir, "probe." + ("cpp" if language == "cpp" else "c"))
    with open(source, "w") as f:
        for header in headers:
            f.write(f"#if __has_include(<{header}>)\n#include <{header}>\n#endif\n")
    std = "-std=gnu++17" if language == "cpp" else "-std=gnu17"
    found: set[str] = set()
    for flags in (["-O2"], ["-O0"], ["-O2", "-D_GNU_SOURCE"]):  # what a header includes depends on them
        proc = subprocess.run([driver, std, *flags, "-M", source], capture_output=True, text=True,
                              env={"PATH": "/usr/bin:/bin"}, check=True)  # fmt: skip
        deps = proc.stdout.replace("\\\n", " ").split(":", 1)[1].split()
        found.update(os.path.normpath(d) for d in deps if d != source)
    # Whole directories below the include roots (bits/, sys/, asm/, c++/12/...): a header there
    # includes its siblings under conditions no probe can enumerate. At the roots, only what was read.
    roots = {"/usr/include", "/usr/local/include"}
    out = set(found)
    for directory in {os.path.dirname(f) for f in found} - roots:
        out.update(
            os.path.join(directory, n) for n in os.listdir(directory) if os.path.isfile(os.path.join(directory, n))
        )
    return sorted(out)


def _linked(driver: str, language: str, libs: list[str], workdir: str) -> list[str]:
    """The files the linker reads for a program of ``language`` (start files, libc, libgcc...)."""
    source = os.path.join(workdir, "link." + ("cpp" if language == "cpp" else "c"))
    with open(source, "w") as f:
        f.write(
            "#include <iostream>\nint main() { std::cout << 1; }\n"
            if language == "cpp"
            else "int main(void) { return 0; }\n"
        )
    out = os.path.join(workdir, "link.out")
    proc = subprocess.run([driver, "-O2", "-o", out, source, *libs, "-Wl,-t"], capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin"}, check=True)  # fmt: skip
    files = []
    for line in (proc.stdout + proc.stderr).splitlines():
        path = line.strip().split("(", 1)[0]
        if path.startswith("/") and not path.startswith(workdir) and os.path.isfile(path):
            files.append(os.path.normpath(path))
    plugin = subprocess.run([driver, "-print-file-name=liblto_plugin.so"], capture_output=True, text=True,
                            env={"PATH": "/usr/bin:/bin"}, check=False).stdout.strip()  # fmt: skip
    if os.path.isfile(plugin):
        files.append(os.path.normpath(plugin))
    return files


def toolchain_files(names: list[str] | tuple[str, ...]) -> tuple[list[str], list[str]]:
    """(files, carried language names) for the host's toolchains of ``names``."""
    from .local import languages

    files: list[str] = []
    carried: list[str] = []
    with tempfile.TemporaryDirectory() as workdir:
        for name in names:
            chain = languages.discover(name)
            if not chain["available"]:
                continue
            carried.append(name)
            for stage in ("compile", "run"):
                files += (chain.get(stage) or {}).get("exec", [])
            files += chain["tools"].values()
            if name == "verilog":
                ivl = os.path.dirname(chain["tools"]["ivl"])
                files += sorted(os.path.join(root, f) for root, _, fs in os.walk(ivl) for f in fs)
            elif name == "coq":  # the standard library's compiled theories and plugins (~60 MB)
                for root in chain["run"]["read"]:
                    if os.path.isfile(root):
                        files.append(root)
                    for directory, _, names_here in os.walk(root):
                        files += sorted(os.path.join(directory, f) for f in names_here)
            elif name in ("go", "prolog"):  # Go's compiled standard library (not the toolchain's own cmd/
                # packages, 140 MiB no program can import); SWI-Prolog's home (boot file, library)
                for directory in [*(chain.get("compile") or {}).get("read", []), *chain["run"]["read"]]:
                    for root, dirs, names in os.walk(directory):
                        dirs[:] = sorted(d for d in dirs if not (name == "go" and root == directory and d == "cmd"))
                        files += sorted(os.path.join(root, f) for f in names)
            elif name in ("c", "cpp"):
                driver = chain["tools"]["gcc" if name == "c" else "g++"]
                files += _headers(driver, name, C_HEADERS if name == "c" else CPP_HEADERS, workdir)
                files += _linked(driver, name, ["-lm"] if name == "c" else [], workdir)
    elf = [f for f in dict.fromkeys(files) if os.path.isfile(f)]
    libraries = _ldd(
        [f for f in elf if os.access(f, os.X_OK) or ".so" in os.path.basename(f) or f.endswith((".vpi", ".tgt"))]
    )
    return sorted(set(elf) | libraries), carried


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


def image_contents(languages: list[str] | tuple[str, ...] = ()) -> tuple[str, list[tuple[str, str]]]:
    """(interpreter path, [(host path, image path)]) of everything the image holds, with the
    toolchains of ``languages`` (those the host has)."""
    python = os.path.realpath(sys.executable)
    stdlib = os.path.realpath(sysconfig.get_paths()["stdlib"])
    files = [python, *_stdlib_files(stdlib)]
    binaries = [python] + [f for f in files if f.endswith(".so")]
    libdir = sysconfig.get_config_var("LIBDIR")
    ldlib = sysconfig.get_config_var("LDLIBRARY")
    if libdir and ldlib and os.path.exists(os.path.join(libdir, ldlib)) and ldlib.endswith(".so"):
        files.append(os.path.join(libdir, ldlib))
    files += sorted(_ldd(binaries))
    if languages:
        files += toolchain_files(languages)[0]
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


def ensure_image(client: Any, *, rebuild: bool = False, languages: list[str] | tuple[str, ...] = ()) -> tuple[str, str]:
    """The tag of the sandbox image (building and importing it if the engine lacks it), and the
    interpreter's path inside it; the image carries the host's toolchains of ``languages``."""
    import docker.errors

    python, pairs = image_contents(languages)
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
