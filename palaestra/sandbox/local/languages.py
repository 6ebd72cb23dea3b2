"""The languages the sandbox runs, and where each one's toolchain lives on this host.

A language is a source file name, an optional *compile* stage and a *run* stage. Python runs
in the forked interpreter itself and SQL in SQLite inside it (no exec); C, C++, JavaScript,
Verilog, Bash, Lua, Go and Prolog exec host tools, and so does Coq (``coqc`` checks ``main.v``). For those,
:func:`discover` finds the tools (in fixed directories, never through ``$PATH``) and computes exactly what
each stage may touch:

- ``exec``: the files a stage may execute (the tools, the helpers they exec, the ELF
  interpreter, i.e. the dynamic loader, each of them names), by real path;
- ``read``: the read-only directories a stage needs besides the system libraries (headers,
  gcc's private directory, Icarus Verilog's modules);
- ``argv`` and ``env``: how the stage is started (``{sources}`` expands to the source files).

The result is plain data (it crosses the server's pipes and is ``marshal``-able); the jail turns
it into Landlock rules. Nothing here runs untrusted code: discovery runs the host's own tools
with fixed arguments (``gcc -print-prog-name=cc1``, ``node --version``...) once per server.

Example::

    from palaestra.sandbox.local import languages
    languages.canonical("c++")              # 'cpp'
    chain = languages.discover("c")
    chain["available"], chain["version"]    # (True, 'gcc 12.2.0')
    chain["compile"]["exec"]                # ['/usr/bin/x86_64-linux-gnu-gcc-12', '/usr/lib/gcc/.../cc1', ...]
"""

from __future__ import annotations

import glob
import os
import re
import stat
import struct
import subprocess
from dataclasses import dataclass
from typing import Any

# Where tools are looked up, in order (not $PATH: the server's environment is empty on purpose,
# and a caller's $PATH is no business of the sandbox).
SEARCH = ("/usr/local/bin", "/usr/bin", "/bin")
LIBRARY_DIRS = ("/lib", "/lib64", "/usr/lib", "/usr/lib64", "/usr/local/lib")
SYSTEM_FILES = ("/etc/ld.so.cache", "/etc/localtime", "/usr/share/zoneinfo")  # every job may read them
TOOL_TIMEOUT = 20.0  # seconds for one discovery command (a cold disk can be slow)


@dataclass(frozen=True)
class Language:
    """One language: where its source goes and which tool drives each stage."""

    name: str
    source: str  # the file ``source`` is written to
    extensions: tuple[str, ...] = ()  # files of ``files`` with these endings are compiled too
    product: str | None = None  # what the compile stage writes (and the run stage uses)
    tools: tuple[str, ...] = ()  # what must be installed (for messages)
    native: bool = False  # the product is machine code, executed from the scratch directory
    address_space: int = 0  # extra RLIMIT_AS for runtimes that reserve address space up front (both stages)
    # The program executes other programs (a shell running coreutils): no single-exec seccomp filter; the
    # run stage's Landlock exec rules are then the allow-list of what it may execute.
    multi_exec: bool = False

    @property
    def compiled(self) -> bool:
        return self.product is not None

    @property
    def execs(self) -> bool:
        """Whether a job of this language executes host tools (so its exec rules matter)."""
        return bool(self.tools)

    def reserved(self) -> tuple[str, ...]:
        """File names a caller may not pass in ``files``."""
        return tuple(n for n in (self.source, self.product) if n)


LANGUAGES: dict[str, Language] = {
    lang.name: lang
    for lang in (
        Language("python", "main.py"),
        Language("sql", "main.sql"),
        Language("c", "main.c", (".c",), product="main", tools=("gcc",), native=True),
        Language("cpp", "main.cpp", (".cpp", ".cc", ".cxx"), product="main", tools=("g++",), native=True),
        # V8 reserves ~650 MiB of address space it never touches: RLIMIT_AS must leave room for it
        # (the JS heap itself is capped with --max-old-space-size, the whole job by its cgroup).
        Language("javascript", "main.js", tools=("node",), address_space=1 << 30),
        Language("verilog", "main.v", (".v", ".sv"), product="main.vvp", tools=("iverilog", "vvp")),
        Language("bash", "main.sh", tools=("bash",), multi_exec=True),
        Language("lua", "main.lua", tools=("lua5.4",)),
        # Go's compiler and linker run as one compile stage (a fixed shell line: compile, then link); the
        # program is a static executable. Every Go runtime (compiler, linker, program) reserves ~700 MiB of
        # address space at start-up that it never touches: RLIMIT_AS leaves room for it in both stages (the
        # cgroup, where there is one, bounds what the program really uses).
        Language("go", "main.go", (".go",), product="main", tools=("go",), native=True, address_space=768 << 20),
        Language("prolog", "main.pl", tools=("swipl",)),
        # Coq checks main.v in one run of coqc (no product kept): the run stage is the proof check.
        Language("coq", "main.v", tools=("coqc",)),
    )
}
ALIASES = {"py": "python", "c++": "cpp", "js": "javascript", "node": "javascript", "sqlite": "sql", "v": "verilog",
           "sh": "bash", "shell": "bash", "lua5.4": "lua", "golang": "go", "swipl": "prolog",
           "swi-prolog": "prolog", "pl": "prolog", "coqc": "coq", "rocq": "coq"}

# What a bash job may execute besides bash: text, file and archive tools. No interpreter of another language
# (python, perl), nothing that reaches the network or changes the system (those are not installed in the
# jail's view: Landlock refuses to execute anything not listed). Tools missing on a host are left out.
SHELL_TOOLS = (
    "awk", "base64", "basename", "bzip2", "cat", "chmod", "cksum", "cmp", "comm", "cp", "csplit", "cut", "date",
    "diff", "dirname", "du", "egrep", "env", "expand", "expr", "factor", "false", "fgrep", "file", "find", "fmt",
    "fold", "grep", "gunzip", "gzip", "head", "id", "join", "ln", "ls", "md5sum", "mkdir", "mktemp", "mv", "nl",
    "numfmt", "od", "paste", "patch", "printf", "readlink", "realpath", "rev", "rm", "rmdir", "sed", "seq",
    "sha1sum", "sha256sum", "shuf", "sleep", "sort", "split", "stat", "tac", "tail", "tar", "tee", "test", "touch",
    "tr", "true", "truncate", "tsort", "uname", "unexpand", "uniq", "wc", "xargs", "xxd", "xz", "yes", "zcat",
)


def canonical(name: str) -> str:
    """The language's canonical name; ValueError naming the supported ones otherwise."""
    key = name.lower() if isinstance(name, str) else name
    key = ALIASES.get(key, key)
    if key not in LANGUAGES:
        raise ValueError(f"unknown sandbox language {name!r}; supported: {', '.join(LANGUAGES)}")
    return key


# -- helpers -------------------------------------------------------------------------------


def which(tool: str) -> str | None:
    """The first executable ``tool`` in :data:`SEARCH`, or None."""
    for directory in SEARCH:
        path = os.path.join(directory, tool)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def world_usable(path: str) -> bool:
    """Whether any uid can reach ``path`` and read it (and run it, for an executable file)."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    need = stat.S_IROTH | (stat.S_IXOTH if stat.S_ISDIR(st.st_mode) or st.st_mode & 0o100 else 0)
    if st.st_mode & need != need:
        return False
    parent = os.path.dirname(path)
    while parent != path:
        if not os.stat(parent).st_mode & stat.S_IXOTH:
            return False
        path, parent = parent, os.path.dirname(parent)
    return True


def interpreter(path: str) -> str | None:
    """The program that runs ``path``: its ELF PT_INTERP (the dynamic loader) or its ``#!`` line."""
    try:
        with open(path, "rb") as f:
            head = f.read(64)
            if head[:2] == b"#!":
                line = (head + f.read(192)).split(b"\n", 1)[0][2:].strip()
                return line.split()[0].decode() if line else None
            if head[:4] != b"\x7fELF" or head[4] != 2:  # 64-bit ELF only
                return None
            order = "<" if head[5] == 1 else ">"
            (phoff,) = struct.unpack_from(order + "Q", head, 32)
            phentsize, phnum = struct.unpack_from(order + "HH", head, 54)
            f.seek(phoff)
            table = f.read(phentsize * min(phnum, 128))
            for i in range(min(phnum, 128)):
                kind, _, offset, _, _, size = struct.unpack_from(order + "IIQQQQ", table, i * phentsize)
                if kind == 3:  # PT_INTERP
                    f.seek(offset)
                    return f.read(min(size, 4096)).rstrip(b"\0").decode()
    except (OSError, struct.error, UnicodeDecodeError):
        return None
    return None


def _run(argv: list[str]) -> str:
    """stdout + stderr of a host tool, run with an empty environment (raises OSError on failure)."""
    try:
        proc = subprocess.run(
            argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=TOOL_TIMEOUT, env={}, check=False
        )
    except subprocess.TimeoutExpired as exc:
        raise OSError(f"{' '.join(argv)} timed out") from exc
    if proc.returncode != 0:
        raise OSError(f"{' '.join(argv)} exited {proc.returncode}: {proc.stderr.decode(errors='replace')[:300]}")
    return (proc.stdout + proc.stderr).decode(errors="replace")


def _executables(paths: list[str]) -> list[str]:
    """Real paths of ``paths`` plus the interpreter each needs, deduplicated, in order."""
    out: list[str] = []
    for path in paths:
        real = os.path.realpath(path)
        for item in (real, interpreter(real)):
            if item and os.path.realpath(item) not in out:
                out.append(os.path.realpath(item))
    return out


def _roots(paths: list[str]) -> list[str]:
    """The existing ones among ``paths`` (real paths), without any lying under another."""
    real = sorted({os.path.realpath(p) for p in paths if os.path.exists(p)}, key=len)
    out: list[str] = []
    for path in real:
        if not any(path == r or path.startswith(r.rstrip("/") + "/") for r in out):
            out.append(path)
    return out


def _missing(name: str, reason: str) -> dict[str, Any]:
    return {"language": name, "available": False, "reason": reason, "version": "", "tools": {}}


def _require(tool: str) -> str:
    path = which(tool)
    if path is None:
        raise LookupError(f"{tool} is not installed (looked in {', '.join(SEARCH)})")
    return path


def _check_usable(chain: dict[str, Any]) -> None:
    for stage in ("compile", "run"):
        part = chain.get(stage) or {}
        for path in [*part.get("exec", ()), *part.get("read", ())]:
            if not world_usable(path):
                raise LookupError(f"{path} is not readable by the sandbox's unprivileged uids")


# -- per language ----------------------------------------------------------------------------


def _gcc(name: str, driver_name: str, backend: str, std: str, libs: list[str]) -> dict[str, Any]:
    driver = _require(driver_name)
    version = _run([driver, "-dumpfullversion"]).strip()
    programs = [driver]
    path_dirs: list[str] = []
    for prog in (backend, "collect2", "as", "ld"):
        found = _run([driver, f"-print-prog-name={prog}"]).strip()
        if "/" not in found:  # the driver finds as and ld through $PATH: give it theirs only
            found = _require(found)
            path_dirs.append(os.path.dirname(found))
        if not os.path.isfile(found):
            raise LookupError(f"{driver_name} cannot find its {prog} ({found})")
        programs.append(found)
    verbose = _run([driver, "-x", "c++" if name == "cpp" else "c", "-E", "-v", "/dev/null"])
    includes, inside = [], False
    for line in verbose.splitlines():
        if line.startswith("#include <...> search starts here"):
            inside = True
        elif line.startswith("End of search list"):
            inside = False
        elif inside and line.startswith(" "):
            includes.append(line.strip())
    search = _run([driver, "-print-search-dirs"])
    libraries = next((line.split("=", 1)[1] for line in search.splitlines() if line.startswith("libraries:")), "")
    library_dirs = [d for d in libraries.split(":") if d]
    private = os.path.dirname(_run([driver, "-print-libgcc-file-name"]).strip())
    loader = interpreter(os.path.realpath(driver))
    return {
        "language": name,
        "available": True,
        "reason": None,
        "version": f"{driver_name} {version}",
        "tools": {driver_name: driver, **{os.path.basename(p): p for p in programs[1:]}},
        "compile": {
            "argv": [driver, std, "-O2", "-pipe", "-o", "main", "{sources}", *libs],
            "env": {"PATH": ":".join(dict.fromkeys(path_dirs))},
            "exec": _executables(programs),
            "read": _roots([*includes, *library_dirs, private]),
        },
        # The compiled program itself is added by the job (it does not exist yet).
        "run": {"argv": ["{product}"], "exec": [os.path.realpath(loader)] if loader else [], "read": []},
    }


def _node() -> dict[str, Any]:
    node = _require("node")
    version = _run([node, "--version"]).strip()
    return {
        "language": "javascript",
        "available": True,
        "reason": None,
        "version": f"node {version}",
        "tools": {"node": node},
        "compile": None,
        "run": {
            # Node refuses to start when it may not read the host's OpenSSL configuration: give it none.
            "argv": [node, "--openssl-config=/dev/null", "--max-old-space-size={memory_mib}", "--", "main.js"],
            "exec": _executables([node]),
            "read": [],
        },
    }


# The bash profile reads only the shared libraries its programs load and the data files below, not whole
# library directories: the dynamic loader, which it must be able to execute, runs any ELF file it can read
# (`/lib64/ld-linux-x86-64.so.2 /usr/lib/git-core/git`), and the library directories hold other programs and
# interpreters (git, gcc's cc1, SWI-Prolog, bundled Pythons, JVMs). SHELL_DATA: file's local and compiled magic
# databases (/usr/share/misc/magic.mgc links to the second); `file` stopped at the first without it.
SHELL_DATA = ("/etc/magic", "/usr/lib/file/magic.mgc")
_LISTED_LIBRARY = re.compile(r"(/\S+) \(0x[0-9a-f]+\)$")


def shared_libraries(executables: list[str]) -> list[str]:
    """Real paths of the shared libraries the ELF files among ``executables`` load (their loader's ``--list``)."""
    found: list[str] = []
    for path in executables:
        loader = interpreter(path)
        if not loader or not os.path.basename(loader).startswith("ld-"):  # a script, or a static program
            continue
        try:
            listing = _run([loader, "--list", path])
        except OSError:  # the loader cannot list it: the tool runs without its libraries (refused), not bash
            continue
        for line in listing.splitlines():
            listed = _LISTED_LIBRARY.search(line.strip())
            if listed and (real := os.path.realpath(listed.group(1))) not in found:
                found.append(real)
    return found


def _bash() -> dict[str, Any]:
    bash = _require("bash")
    version = _run([bash, "--version"]).splitlines()[0]
    found = {tool: path for tool in SHELL_TOOLS if (path := which(tool))}
    directories = sorted({os.path.dirname(p) for p in found.values()} | {os.path.dirname(bash)})
    executables = _executables([bash, *found.values()])
    return {
        "language": "bash",
        "available": True,
        "reason": None,
        "version": "bash " + version.split("version", 1)[-1].split()[0] if "version" in version else version,
        "tools": {"bash": bash, **found},
        "compile": None,
        "run": {
            "argv": [bash, "--norc", "--noprofile", "main.sh"],
            "env": {"PATH": ":".join(d for d in SEARCH if d in directories) or "/usr/bin:/bin", "LC_ALL": "C"},
            "exec": executables,
            "read": [p for p in SHELL_DATA if os.path.exists(p)],
            "system_read": [*SYSTEM_FILES, *shared_libraries(executables)],
        },
    }


def _lua() -> dict[str, Any]:
    lua = which("lua5.4") or _require("lua")
    version = _run([lua, "-v"]).split("Copyright")[0].strip()
    return {
        "language": "lua",
        "available": True,
        "reason": None,
        "version": version,
        "tools": {"lua": lua},
        "compile": None,
        # -E: ignore LUA_INIT and LUA_PATH (the environment is empty anyway); modules only from the scratch dir
        "run": {"argv": [lua, "-E", "main.lua"], "exec": _executables([lua]), "read": []},
    }


# The compile stage of Go: compile every source into one package, then link it into a static program. The
# shell gets the tools as $0/$1 and the sources as its arguments, so no file name is ever parsed as shell text.
GO_BUILD = 'compile="$0"; link="$1"; shift; "$compile" -p main -complete -o main.o "$@" && "$link" -o main main.o'


def _go() -> dict[str, Any]:
    go = _require("go")
    root = _run([go, "env", "GOROOT"]).strip()
    version = _run([go, "version"]).split()[2].removeprefix("go")
    arch = _run([go, "env", "GOOS"]).strip() + "_" + _run([go, "env", "GOARCH"]).strip()
    tools = os.path.join(root, "pkg", "tool", arch)
    compiler, linker = os.path.join(tools, "compile"), os.path.join(tools, "link")
    library = os.path.join(root, "pkg", arch)  # the standard library, compiled (Go <= 1.19 ships it)
    for path in (compiler, linker, os.path.join(library, "fmt.a")):
        if not os.path.isfile(path):
            raise LookupError(f"go {version} lacks {path} (a Go 1.20+ toolchain builds its standard library on demand)")
    shell = "/bin/sh"
    if not os.path.exists(shell):
        raise LookupError("the Go compile stage needs /bin/sh, which is missing")
    # One thread per runtime is enough for a contest program and keeps the task count small on many-core hosts.
    env = {"GOROOT": root, "GOMAXPROCS": "1"}
    return {
        "language": "go",
        "available": True,
        "reason": None,
        "version": f"go {version}",
        "tools": {"go": go, "compile": compiler, "link": linker, "sh": shell},
        "compile": {
            "argv": [shell, "-c", GO_BUILD, compiler, linker, "{sources}"],
            "env": env,
            "exec": _executables([shell, compiler, linker]),
            "read": _roots([library]),
        },
        "run": {"argv": ["{product}"], "env": {"GOMAXPROCS": "1"}, "exec": [], "read": []},
    }


def _prolog() -> dict[str, Any]:
    swipl = _require("swipl")
    version = _run([swipl, "--version"]).split("version", 1)[-1].split()[0]
    home = _run([swipl, "--dump-runtime-variables"]).split("PLBASE=", 1)[1].split(";", 1)[0].strip().strip('"')
    return {
        "language": "prolog",
        "available": True,
        "reason": None,
        "version": f"swipl {version}",
        "tools": {"swipl": swipl},
        "compile": None,
        "run": {
            # Load main.pl (its initialization(main, main) directive runs the program), then halt instead of
            # the interactive top level; no user or site init file, no packs; the stacks capped at the budget.
            "argv": [swipl, "-f", "none", "-F", "none", "--no-packs", "--no-signals", "-q",
                     "--stack-limit={memory_mib}m", "-t", "halt", "main.pl"],
            "exec": _executables([swipl]),
            "read": _roots([home]),
        },
    }


def _ivl_dir(iverilog: str) -> str:
    prefix = os.path.dirname(os.path.dirname(os.path.realpath(iverilog)))
    for pattern in ("lib/*/ivl", "lib/ivl", "lib64/ivl", "local/lib/ivl"):
        for candidate in sorted(glob.glob(os.path.join(prefix, pattern))):
            if os.path.isfile(os.path.join(candidate, "ivl")) and os.path.isfile(os.path.join(candidate, "system.vpi")):
                return candidate
    raise LookupError(f"cannot find Icarus Verilog's module directory (ivl, system.vpi) under {prefix}/lib")


def _verilog() -> dict[str, Any]:
    iverilog, vvp = _require("iverilog"), _require("vvp")
    version = _run([vvp, "-V"]).splitlines()[0].strip()
    ivl = _ivl_dir(iverilog)
    shell = "/bin/sh"  # iverilog runs "ivlpp | ivl" through system(); the command line is its own
    if not os.path.exists(shell):
        raise LookupError("iverilog needs /bin/sh, which is missing")
    return {
        "language": "verilog",
        "available": True,
        "reason": None,
        "version": version.replace(" runtime version", "").replace("Icarus Verilog", "iverilog").removesuffix(" ()"),
        "tools": {"iverilog": iverilog, "vvp": vvp, "ivl": os.path.join(ivl, "ivl"), "sh": shell},
        "compile": {
            "argv": [iverilog, "-g2012", "-o", "main.vvp", "{top}", "{sources}"],
            "env": {},
            "exec": _executables([iverilog, shell, os.path.join(ivl, "ivlpp"), os.path.join(ivl, "ivl")]),
            "read": _roots([ivl]),
        },
        "run": {"argv": [vvp, "-n", "main.vvp"], "exec": _executables([vvp]), "read": _roots([ivl])},
    }


def _coq() -> dict[str, Any]:
    coqc = _require("coqc")
    version = _run([coqc, "--version"]).split("version", 1)[-1].split()[0]
    config = dict(line.split("=", 1) for line in _run([coqc, "-config"]).splitlines() if "=" in line)
    libraries = [config.get("COQLIB", ""), config.get("COQCORELIB", "")]
    if not libraries[0] or not os.path.isdir(os.path.join(libraries[0], "theories")):
        raise LookupError(f"cannot find Coq's standard library (COQLIB={libraries[0]!r})")
    # findlib's configuration tells coqc where its plugins are; the libraries lie under /usr/lib, which every
    # stage reads anyway, but a local build may keep them elsewhere
    read = _roots([*libraries, "/etc/ocamlfind.conf", "/usr/share/coq"])
    return {
        "language": "coq",
        "available": True,
        "reason": None,
        "version": f"coqc {version}",
        "tools": {"coqc": coqc},
        "compile": None,
        # -q: no resource file (~/.coqrc) is read; native_compute would exec ocamlfind, which is not allowed
        "run": {"argv": [coqc, "-q", "main.v"], "exec": _executables([coqc]), "read": read},
    }


def _sql() -> dict[str, Any]:
    import importlib.util

    if importlib.util.find_spec("_sqlite3") is None:
        raise LookupError("this Python was built without the sqlite3 module")
    # The version comes from the library itself, read in a child so that the server's own
    # address space (and so every job's memory budget) stays as it was.
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            import sqlite3

            os.write(w, sqlite3.sqlite_version.encode())
        finally:
            os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        version = f.read().decode(errors="replace")
    os.waitpid(pid, 0)
    if not version:
        raise LookupError("the sqlite3 module does not load")
    return {"language": "sql", "available": True, "reason": None, "version": f"SQLite {version}",
            "tools": {}, "compile": None, "run": None}  # fmt: skip


# Headers precompiled once per compiler and flags (by the server, at idle priority, where its jobs
# run as other uids: they can read the precompiled headers but never write them). GCC uses one
# when a translation unit's first #include names it, and it is exactly the header parsed
# beforehand, so nothing a program means changes; it only skips parsing the header again.
PCH_HEADERS = {"cpp": ("bits/stdc++.h", "iostream", "string")}


def pch_dir(base_dir: str, chain: dict[str, Any]) -> str:
    """Where the precompiled headers of ``chain`` (an available toolchain of PCH_HEADERS) live."""
    argv = chain["compile"]["argv"]
    flags = [arg for arg in argv if arg.startswith(("-std=", "-O"))]
    key = "".join(c if c.isalnum() or c in ".+-" else "_" for c in "-".join([chain["version"], *flags]))
    return os.path.join(base_dir, "pch", key)


def pch_commands(chain: dict[str, Any], work: str) -> list[list[str]]:
    """The compiler commands that build ``chain``'s precompiled headers into ``work`` (one per
    header, from a one-line stub that includes it, with the flags programs are compiled with)."""
    argv = chain["compile"]["argv"]
    flags = [arg for arg in argv if arg.startswith(("-std=", "-O"))]
    commands = []
    for header in PCH_HEADERS[chain["language"]]:
        stub = os.path.join(work, "src", header.replace("/", "_") + ".h")
        os.makedirs(os.path.dirname(stub), 0o755, exist_ok=True)
        with open(stub, "w") as f:
            f.write(f"#include <{header}>\n")
        target = os.path.join(work, header + ".gch")
        os.makedirs(os.path.dirname(target), 0o755, exist_ok=True)
        # GCC takes H.gch for H only as the first #include; elsewhere it reads H from the same
        # directory, which hands over to the real header (the next one on the search path).
        with open(os.path.join(work, header), "w") as f:
            f.write(f"#include_next <{header}>\n")
        commands.append([argv[0], *flags, "-x", "c++-header", stub, "-o", target])
    return commands


def with_pch(chain: dict[str, Any], directory: str) -> dict[str, Any]:
    """``chain`` compiling with the precompiled headers in ``directory`` (searched first; it holds
    only the precompiled headers and, for each, a header that includes the real one next, so
    every other header is found where it always was)."""
    compile_stage = dict(chain["compile"])
    argv = list(compile_stage["argv"])
    argv.insert(1, f"-I{directory}")
    compile_stage.update(argv=argv, read=[*compile_stage["read"], directory])
    return {**chain, "compile": compile_stage}


def discover(name: str) -> dict[str, Any]:
    """The toolchain of ``name`` on this host (``available`` False with a ``reason`` if absent)."""
    name = canonical(name)
    try:
        if name == "python":
            import platform

            version = f"Python {platform.python_version()}"
            chain = {"language": name, "available": True, "reason": None, "version": version,
                     "tools": {}, "compile": None, "run": None}  # fmt: skip
        elif name == "sql":
            chain = _sql()
        elif name == "c":
            chain = _gcc("c", "gcc", "cc1", "-std=gnu17", ["-lm"])
        elif name == "cpp":
            chain = _gcc("cpp", "g++", "cc1plus", "-std=gnu++17", [])
        elif name == "javascript":
            chain = _node()
        elif name == "bash":
            chain = _bash()
        elif name == "coq":
            chain = _coq()
        elif name == "lua":
            chain = _lua()
        elif name == "go":
            chain = _go()
        elif name == "prolog":
            chain = _prolog()
        else:
            chain = _verilog()
        _check_usable(chain)
    except (LookupError, OSError, ValueError, IndexError) as exc:
        return _missing(name, f"language {name!r} is unavailable: {exc}")
    return chain
