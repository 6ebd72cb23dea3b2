"""The Docker sandbox backend: the local executor, inside long-lived hardened containers.

Each container runs palaestra's pre-forked sandbox server (:mod:`palaestra.sandbox.local`)
as its main process and speaks the same framed protocol over the container's attached
stdin/stdout, so a run costs what it costs locally plus one round trip through the engine's
attach stream (milliseconds), never a ``docker run`` or ``exec`` per job. The container is
the isolation boundary: no network, read-only root file system, a tmpfs scratch at ``/tmp``,
every capability dropped, ``no-new-privileges``, a non-root user, and memory and pids limits
for the whole container. Inside it the server applies whatever layers it can as that
unprivileged user (rlimits; Landlock and seccomp where the engine's profile allows them), at
least ``min_tier`` (default ``"none"``). Every hardening option is read back from the engine
after creation; a container missing one is removed and the backend refuses to run
(``SandboxUnavailable``): fail closed.

The image is built offline from this host's interpreter (:mod:`palaestra.sandbox.docker_image`);
no registry is needed. Works with Docker and with podman's Docker-compatible API
(``.ci/setup_podman.sh``). Languages: Python and SQL always; C, C++, JavaScript and Verilog when
the host has their toolchains, which the image then carries (``languages=`` narrows the set;
``backend.languages()`` reports what the container has, and a language it lacks raises
``LanguageUnavailable``). Compiled languages run as locally: compile, then run, both inside the
container under the server's jail (as the container's unprivileged user: Landlock and seccomp
where the engine allows them, no uid or cgroup of the server's own).

Example::

    from palaestra import sandbox
    from palaestra.sandbox.docker_backend import DockerBackend
    sandbox.set_backend(DockerBackend(base_url="unix:///run/podman/podman.sock", containers=2))
    sandbox.run("print(6 * 7)").stdout          # '42\\n'
    with sandbox.session() as s:                # sessions stay in one container
        s.run_cell("x = 41"); s.run_cell("x + 1").stdout   # '42\\n'
"""

from __future__ import annotations

import json
import os
import socket
import struct
import threading
import uuid
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from .api import ExecResult, Limits, SandboxError, SandboxUnavailable, Toolchain
from .local.backend import LocalBackend, LocalSession, _Channel
from .local.server import BOOT

URL_ENV = "PALAESTRA_DOCKER_URL"
PODMAN_SOCKET = "/run/podman/podman.sock"
LABEL = "palaestra.sandbox"
SCRATCH = "/tmp"


def default_url() -> str | None:
    """The engine to use: $PALAESTRA_DOCKER_URL, $DOCKER_HOST, podman's root socket, or None
    (then the SDK's defaults, i.e. /var/run/docker.sock)."""
    url = os.environ.get(URL_ENV) or os.environ.get("DOCKER_HOST")
    if url:
        return url
    if os.path.exists(PODMAN_SOCKET):
        return f"unix://{PODMAN_SOCKET}"
    return None


def connect(base_url: str | None = None, timeout: float = 60) -> Any:
    """A ``docker.DockerClient`` for ``base_url`` (default :func:`default_url`), pinged."""
    try:
        import docker
    except ImportError as exc:
        raise SandboxUnavailable("the Docker sandbox needs the 'docker' package (pip install docker)") from exc
    url = base_url or default_url()
    try:
        client = docker.DockerClient(base_url=url, timeout=timeout) if url else docker.from_env(timeout=timeout)
        client.ping()
    except Exception as exc:
        raise SandboxUnavailable(f"no Docker engine reachable at {url or 'the default socket'}: {exc}") from exc
    return client


class _ContainerConnection(_Channel):
    """One hardened container running the sandbox server, over its attached stdio."""

    def __init__(self, backend: DockerBackend):
        super().__init__()
        self.stderr = bytearray()
        self.client = backend.client
        config = {
            "tier": backend.inner_tier,
            "max_jobs": backend.max_jobs,
            "base_dir": f"{SCRATCH}/palaestra-sandbox",
            "uid_base": 60000,
        }
        self.container = self.client.containers.create(
            backend.image,
            command=[backend.python, "-I", "-S", "-c", BOOT, backend.package_root, json.dumps(config)],
            name=f"palaestra-sandbox-{uuid.uuid4().hex[:12]}",
            labels={LABEL: "1", f"{LABEL}.owner": str(os.getpid())},
            **backend.hardening,
        )
        try:
            backend.verify(self.container)
            self.sock = self.client.api.attach_socket(
                self.container.id, params={"stdin": 1, "stdout": 1, "stderr": 1, "stream": 1}
            )
            self.raw: socket.socket = getattr(self.sock, "_sock", self.sock)
            self.container.start()
        except BaseException:
            self._remove()
            raise
        self._start(
            "palaestra-docker-reader",
            lambda: (
                "the sandbox server did not start in its container: " + self.stderr.decode(errors="replace")[-2000:]
            ),
        )

    def _recv_exact(self, n: int) -> bytes:
        buf = bytearray()
        while len(buf) < n:
            data = self.raw.recv(n - len(buf))
            if not data:
                raise EOFError
            buf += data
        return bytes(buf)

    def _send(self, data: bytes) -> None:
        self.raw.sendall(data)

    def _chunks(self) -> Iterator[bytes]:
        """Demultiplex the attach stream (8-byte headers: stream, 0, 0, 0, big-endian size)."""
        while True:
            kind, size = struct.unpack(">BxxxI", self._recv_exact(8))
            data = self._recv_exact(size)
            if kind != 2:
                yield data
                continue
            self.stderr += data
            del self.stderr[:-8192]

    def _remove(self) -> None:
        import docker.errors

        try:
            self.container.remove(force=True)
        except (OSError, docker.errors.DockerException):
            pass  # already gone, or the engine is: nothing more to do

    def close(self) -> None:
        """Remove the container (and with it the server and every job)."""
        self.dead = True
        if self.owner != os.getpid():
            return  # a forked child: the parent's container is not ours to remove
        try:
            self.raw.close()
        except OSError:
            pass
        self._remove()
        if threading.current_thread() is not self.reader:
            self.reader.join(timeout=5)


class _ContainerSlot(LocalBackend):
    """A LocalBackend whose server runs in one container (restarted when it dies)."""

    def __init__(self, owner: DockerBackend, index: int):
        super().__init__(min_tier=owner.min_tier, max_jobs=owner.max_jobs)
        self.owner = owner
        self.index = index
        self.busy = 0

    def _connection(self, *, check: bool = True) -> Any:
        with self._lock:
            conn = self._conn
            if conn is None or conn.dead or conn.owner != os.getpid():
                if conn is not None:
                    conn.close()
                if self.owner.closed:
                    raise SandboxError("the Docker sandbox backend is closed")
                conn = self._conn = _ContainerConnection(self.owner)  # type: ignore[assignment]
                self.generation += 1
        if check:
            self._check(conn.hello)
        return conn  # type: ignore[return-value]

    @property
    def server_pid(self) -> int | None:
        return None

    @property
    def container(self) -> Any:
        """The running container, if any."""
        conn = self._conn
        return None if conn is None or conn.dead else conn.container  # type: ignore[attr-defined]


class DockerBackend:
    """Runs untrusted Python in long-lived hardened containers (see the module docstring).

    base_url: the engine (default: $PALAESTRA_DOCKER_URL, $DOCKER_HOST, podman's socket, Docker's).
    containers: how many containers serve runs (each started on first use); a session stays in one.
    max_jobs: concurrent runs per container. memory_bytes, pids, scratch_bytes, cpus: limits of
    each whole container (the server and all its jobs); ``Limits`` still apply per job inside.
    user: the non-root ``uid:gid`` everything runs as. min_tier: the least the server inside
    must apply (the container itself is the boundary). image/python: use a prepared image whose
    interpreter is at ``python`` and whose palaestra package is under ``package_root``.
    languages: the languages whose host toolchains the built image carries (default: every
    language; those the host lacks are left out; Python and SQL need nothing extra).
    """

    name = "docker"

    def __init__(
        self,
        *,
        base_url: str | None = None,
        containers: int = 2,
        max_jobs: int = 8,
        memory_bytes: int = 1 << 30,
        pids: int = 256,
        scratch_bytes: int = 256 << 20,
        cpus: float | None = None,
        user: str = "65534:65534",
        min_tier: str = "none",
        image: str | None = None,
        python: str | None = None,
        package_root: str | None = None,
        client: Any = None,
        languages: tuple[str, ...] | list[str] | None = None,
    ):
        if containers < 1:
            raise ValueError("containers must be >= 1")
        if user.split(":")[0] in ("0", "root"):
            raise ValueError("the Docker sandbox never runs as root")
        self.client = client or connect(base_url)
        self.min_tier = min_tier
        self.inner_tier: str | None = None
        self.max_jobs = max_jobs
        self.user = user
        self.memory_bytes, self.pids, self.scratch_bytes = memory_bytes, pids, scratch_bytes
        if image is None:
            from .docker_image import PACKAGE_ROOT, ensure_image
            from .local.languages import LANGUAGES, canonical

            wanted = [canonical(n) for n in languages] if languages is not None else list(LANGUAGES)
            image, python = ensure_image(self.client, languages=[n for n in wanted if n not in ("python", "sql")])
            package_root = package_root or PACKAGE_ROOT
        if python is None or package_root is None:
            raise ValueError("with image=..., give python=... and package_root=... too")
        self.image, self.python, self.package_root = image, python, package_root
        self.hardening: dict[str, Any] = {
            "user": user,
            "network_mode": "none",
            "read_only": True,
            "tmpfs": {SCRATCH: f"rw,nosuid,nodev,size={scratch_bytes},mode=1777"},
            "cap_drop": ["ALL"],
            "security_opt": ["no-new-privileges"],
            "mem_limit": memory_bytes,
            "memswap_limit": memory_bytes,  # no swap beyond the memory limit
            "pids_limit": pids,
            "stdin_open": True,
            "tty": False,
            "environment": {},
            "working_dir": SCRATCH,
            "init": False,
        }
        if cpus:
            self.hardening["nano_cpus"] = int(cpus * 1e9)
        self.closed = False
        self._lock = threading.Lock()
        self.slots = [_ContainerSlot(self, i) for i in range(containers)]

    # -- containers ------------------------------------------------------------------------

    def verify(self, container: Any) -> None:
        """Read back every hardening option from the engine; raise SandboxUnavailable if one is off."""
        container.reload()
        host, config = container.attrs["HostConfig"], container.attrs["Config"]
        problems = []
        if host.get("NetworkMode") != "none":
            problems.append(f"network mode {host.get('NetworkMode')!r}, not 'none'")
        if not host.get("ReadonlyRootfs"):
            problems.append("root file system is writable")
        if SCRATCH not in (host.get("Tmpfs") or {}):
            problems.append(f"no tmpfs at {SCRATCH}")
        drop = {c.upper().removeprefix("CAP_") for c in host.get("CapDrop") or []}
        if "ALL" not in drop and len(drop) < 14:  # podman lists the dropped capabilities one by one
            problems.append(f"capabilities not all dropped ({sorted(drop)})")
        if host.get("CapAdd"):
            problems.append(f"capabilities added: {host.get('CapAdd')}")
        if not any(
            o.replace("=true", "").replace(":true", "") == "no-new-privileges" for o in host.get("SecurityOpt") or []
        ):
            problems.append("no-new-privileges is not set")
        if host.get("Privileged"):
            problems.append("privileged")
        if host.get("Memory") != self.memory_bytes:
            problems.append(f"memory limit {host.get('Memory')}, not {self.memory_bytes}")
        if host.get("PidsLimit") != self.pids:
            problems.append(f"pids limit {host.get('PidsLimit')}, not {self.pids}")
        if config.get("User") != self.user:
            problems.append(f"user {config.get('User')!r}, not {self.user!r}")
        if problems:
            import docker.errors

            try:
                container.remove(force=True)
            except (OSError, docker.errors.DockerException):
                pass  # already gone: the point was not to leave it running
            raise SandboxUnavailable("the Docker engine did not apply the sandbox's hardening: " + "; ".join(problems))

    def start(self) -> None:
        """Start every container now rather than on first use."""
        for slot in self.slots:
            slot._connection()

    def containers(self) -> list[Any]:
        """The running containers (``docker.models.containers.Container``)."""
        return [c for c in (slot.container for slot in self.slots) if c is not None]

    def _pick(self) -> _ContainerSlot:
        with self._lock:
            if self.closed:
                raise SandboxError("the Docker sandbox backend is closed")
            slot = min(self.slots, key=lambda s: (s.busy, s.index))
            slot.busy += 1
            return slot

    def _release(self, slot: _ContainerSlot) -> None:
        with self._lock:
            slot.busy -= 1

    # -- the Backend protocol --------------------------------------------------------------

    def run(
        self,
        source: str,
        *,
        language: str = "python",
        stdin: str | bytes = "",
        files: Mapping[str, str | bytes] | None = None,
        output_files: Sequence[str] = (),
        limits: Limits | None = None,
    ) -> ExecResult:
        """Run ``source`` (``main.py``, ``main.c``... per language) in a fresh scratch dir inside
        one of the containers."""
        slot = self._pick()
        try:
            return slot.run(
                source, language=language, stdin=stdin, files=files, output_files=output_files, limits=limits
            )
        finally:
            self._release(slot)

    def languages(self) -> dict[str, Toolchain]:
        """Each language's toolchain as the server inside a container finds it."""
        slot = self._pick()
        try:
            return slot.languages()
        finally:
            self._release(slot)

    def session(self, limits: Limits | None = None) -> LocalSession:
        """A persistent interpreter in one container; ``limits.wall_seconds`` bounds each cell.

        If its container dies, the next cell reports ``state_lost=True`` in a fresh one."""
        slot = self._pick()
        self._release(slot)
        return LocalSession(slot, limits or Limits())

    def close(self) -> None:
        """Remove every container; the backend cannot be used afterwards."""
        with self._lock:
            self.closed = True
        for slot in self.slots:
            slot.close()

    def __enter__(self) -> DockerBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
