"""The shell tool: bash commands in the episode's private file tree, inside the sandbox.

Every call runs one command as a sandbox job of the ``bash`` language (bash and an allow-list of
text, file and archive tools: coreutils, grep, sed, awk, find, sort, tar...; nothing else can be
executed, no network, CPU, memory, process, file-size and file-count limits). The episode's file
tree lives between calls as an archive the job unpacks before the command and packs after it, so
files persist, and so does the working directory (a call starts where the previous one ended);
shell variables and functions do not (each call is a fresh bash). The tree starts as the files
the env generated (:meth:`ShellTool.bind` reads ``problem.data["files"]``) and :meth:`files`
returns it as it is now, for the env to judge the end state.

Example::

    tool = ShellTool(files={"notes/a.txt": "b\\na\\n"})
    tool.call({"command": "sort notes/a.txt > sorted.txt && cd notes"})   # '[exit status 0]'
    tool.call({"command": "cat ../sorted.txt"})                        # 'a\\nb\\n[exit status 0]'
    tool.cwd()                                                         # 'notes'
    tool.files()["sorted.txt"]                                         # b'a\\nb\\n'
"""

from __future__ import annotations

import io
import tarfile
import threading
from collections.abc import Mapping
from typing import Any

from palaestra.tools.base import Tool

MAX_COMMAND_CHARS = 8_000
STATE = "state.tar"  # the tree's archive, next to the tree (outside it: ``ls`` never shows it)
CWD = "cwd"
COMMAND = "command.sh"
WORK = "work"
# Files and folders a call may create beyond the tree's own: this many, plus one per file of the initial tree (a
# task may ask for an output per input and folders for them: with 64 alone, sorting 150 files into dated folders or
# filling 80 templates ran out of inodes at far levels, and even the oracle failed).
NEW_FILES = 64

# Unpack the tree, go where the last command ended, run the command in this shell (so that ``cd`` sticks),
# and on exit (``exit`` in the command included) record the directory and pack the tree again.
_SCRIPT = f"""\
mkdir -p "$HOME/{WORK}" && cd "$HOME/{WORK}" || exit 97
if [ -f "$HOME/{STATE}" ]; then tar -xf "$HOME/{STATE}" 2>/dev/null; rm -f "$HOME/{STATE}"; fi
if [ -f "$HOME/{CWD}" ]; then cd -- "$HOME/{WORK}$(cat "$HOME/{CWD}")" 2>/dev/null; fi
__palaestra_save() {{
  __palaestra_status=$?
  __palaestra_here=$(pwd -P)
  case "$__palaestra_here" in "$HOME/{WORK}"*) printf '%s' "${{__palaestra_here#"$HOME/{WORK}"}}" > "$HOME/{CWD}";;
    *) : > "$HOME/{CWD}";; esac
  cd "$HOME/{WORK}" && tar -cf "$HOME/{STATE}" . 2>/dev/null
  exit "$__palaestra_status"
}}
trap __palaestra_save EXIT
. "$HOME/{COMMAND}"
"""


class ShellTool(Tool):
    """bash in the episode's file tree (see the module docstring)."""

    name = "shell"
    description = (
        "Run a bash command in this task's working directory (coreutils, grep, sed, awk, find, sort, uniq, "
        "cut, tr, xargs, tar, gzip, diff, patch...; no network and no other programming languages). Files "
        "persist between calls, and each call starts in the directory the previous one ended in. Returns "
        "stdout, then stderr, then the exit status."
    )
    parameters = {
        "type": "object",
        "properties": {"command": {"type": "string", "description": "the bash command (may span lines)"}},
        "required": ["command"],
        "additionalProperties": False,
    }

    def __init__(self, timeout: float = 5.0, memory_bytes: int = 256 * 2**20, max_output: int = 4_000,
                 files: Mapping[str, str | bytes] | None = None) -> None:
        self.timeout = timeout
        self.memory_bytes = memory_bytes
        self.max_output = max_output
        self._initial: dict[str, bytes] = _encoded(files or {})
        self._lock = threading.Lock()
        self.reset()

    def bind(self, problem: Any) -> None:
        """Start from the problem's generated tree (``problem.data["files"]``: path -> text)."""
        self._initial = _encoded(getattr(problem, "data", {}).get("files", {}))
        self.reset()

    def reset(self) -> None:
        with self._lock:
            self._state: bytes | None = None  # None: the tree is still the initial files
            self._cwd = b""

    def _limits(self) -> Any:
        from palaestra.sandbox import Limits

        # The jail sizes the scratch's inodes by the files it is given: a tree that travels as one archive needs
        # its entries counted too, or unpacking and packing it again runs out (and the call's changes are lost).
        entries = 0 if self._state is None else _entry_count(self._state)
        return Limits(wall_seconds=self.timeout, cpu_seconds=self.timeout, memory_bytes=self.memory_bytes,
                      output_bytes=max(4 * self.max_output, 1 << 16), files=NEW_FILES + len(self._initial) + entries)

    def run(self, arguments: dict[str, Any]) -> str:
        command = arguments["command"]
        if len(command) > MAX_COMMAND_CHARS:
            return f"error: command longer than {MAX_COMMAND_CHARS} characters"
        with self._lock:
            files: dict[str, bytes] = {COMMAND: command.encode("utf-8", "surrogatepass"), CWD: self._cwd}
            if self._state is None:
                files.update({f"{WORK}/{path}": body for path, body in self._initial.items()})
            else:
                files[STATE] = self._state
            try:
                from palaestra.sandbox import run

                result = run(_SCRIPT, language="bash", files=files, output_files=[STATE, CWD], limits=self._limits())
            except Exception as exc:  # the sandbox is unavailable: an infrastructure error
                self.infrastructure_error = f"{type(exc).__name__}: {str(exc)[:200]}"
                return f"error: the shell sandbox is unavailable ({type(exc).__name__}: {str(exc)[:200]})"
            if result.error is not None:
                self.infrastructure_error = result.error[:200]
                return f"error: the shell sandbox failed ({result.error[:200]})"
            # Only a command that ended by itself packed the tree (its EXIT trap ran); a killed one may have left
            # an archive and a directory it wrote itself, as the reply says its changes are lost.
            if STATE in result.files and result.exit_code is not None and not result.timed_out:
                self._state = result.files[STATE]
                self._cwd = _inside_tree(result.files.get(CWD, b""))
        return self._reply(result)

    def _reply(self, result: Any) -> str:
        text = result.stdout
        if result.stderr:
            text = f"{text}{'' if not text or text.endswith(chr(10)) else chr(10)}{result.stderr}"
        if len(text) > self.max_output:
            text = text[: self.max_output] + f"\n[output truncated to {self.max_output} characters]"
        parts = [text.rstrip("\n")]
        if result.output_truncated:
            parts.append("[output limit reached]")
        if result.timed_out:
            parts.append(f"[timed out after {self.timeout:g} s: the command was killed; changes it made are lost]")
        elif result.memory_exceeded:
            parts.append("[memory limit exceeded: the command was killed; changes it made are lost]")
        elif result.exit_code is None:
            parts.append(f"[killed by signal {result.signal}; changes it made are lost]")
        else:
            parts.append(f"[exit status {result.exit_code}]")
        return "\n".join(p for p in parts if p)

    def snapshot(self) -> tuple[bytes | None, str]:
        """The tree (its archive, or None while it is still the initial files) and the working directory: what
        :meth:`restore` takes to continue an episode elsewhere (a replay, another process)."""
        with self._lock:
            return self._state, self.cwd()

    def restore(self, archive: bytes | None, cwd: str = "") -> None:
        """Continue from a :meth:`snapshot` (``None``: the initial files, at the root)."""
        with self._lock:
            self._state = archive
            self._cwd = ("/" + cwd.strip("/")).encode() if cwd.strip("/") else b""

    def files(self) -> dict[str, bytes]:
        """The tree now: each regular file's path (relative, ``/``-separated) and contents. Never raises."""
        with self._lock:
            if self._state is None:
                return dict(self._initial)
            return unpack(self._state)

    def cwd(self) -> str:
        """The directory the next command starts in, relative to the tree's root (``""`` for the root)."""
        return self._cwd.decode(errors="replace").lstrip("/")


def unpack(archive: bytes, max_files: int = 10_000) -> dict[str, bytes]:
    """The regular files of a tar archive written in the sandbox, read in memory (nothing is extracted to
    disk, links are not followed); an unreadable archive gives what could be read.

    The model's command can write the archive itself, so only members whose bytes are stored in it are read:
    a sparse member (GNU or PAX) declares a size it does not hold, and ``tarfile`` would fill it with zeros in
    this process (a 1 kB archive declaring 1.5 GB did). What is read is then at most the archive's own size.
    """
    files: dict[str, bytes] = {}
    try:
        with tarfile.open(fileobj=io.BytesIO(archive), mode="r:") as tar:
            for member in tar:
                if len(files) >= max_files:
                    break
                if not member.isreg() or member.issparse() or member.size > len(archive):
                    continue
                name = member.name.removeprefix("./")
                handle = tar.extractfile(member)
                if handle is not None and name:
                    files[name] = handle.read()
    except (tarfile.TarError, OSError, EOFError, ValueError):
        pass
    return files


def _inside_tree(cwd: bytes) -> bytes:
    """The recorded working directory if it names one inside the tree (``""`` or ``/a/b``), else the root: the
    command can write that record itself, and ``..`` would start the next call outside the tree."""
    parts = cwd.split(b"/")
    if len(cwd) > 4096 or (cwd and (parts[0] != b"" or any(p in (b"", b".", b"..") for p in parts[1:]))):
        return b""
    return cwd


def _entry_count(archive: bytes) -> int:
    """How many entries (files, folders, links) a tree's archive holds; never raises."""
    count = 0
    try:
        with tarfile.open(fileobj=io.BytesIO(archive), mode="r:") as tar:
            for _ in tar:
                count += 1
    except (tarfile.TarError, OSError, EOFError, ValueError):
        pass
    return count


def _encoded(files: Mapping[str, str | bytes]) -> dict[str, bytes]:
    return {path: body.encode() if isinstance(body, str) else bytes(body) for path, body in files.items()}
