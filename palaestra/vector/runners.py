"""Where sub-environments run: in-process, in a pool of worker processes, or on Ray actors.

A runner executes a batch of per-env commands and returns one outcome per
command. The process and Ray runners send each worker one message per batch
(cheap IPC) and survive a worker that crashes or exceeds ``timeout``: the
worker is replaced, its envs are restored by replaying their episodes
(palaestra envs are deterministic), and the failed batch is re-run one command
at a time, so only the command that fails again is reported as an error and
every other env's result is kept.

Example::

    >>> runner = SyncRunner({0: ("arithmetic/expression", {}), 1: ("planning/maze", {})})
    >>> sorted(runner.execute({0: ("reset", 1, None), 1: ("reset", 2, None)}))
    [0, 1]
"""

from __future__ import annotations

import multiprocessing as mp
import os
import time
from collections.abc import Sequence
from multiprocessing.connection import Connection, wait
from typing import Any

from palaestra.vector.shard import Command, Outcome, Shard, reset_options

Slots = dict[int, tuple[str, dict[str, Any]]]


class Runner:
    """Executes a batch of commands, one per sub-env, and returns one outcome per command.

    ``resets_in_worker``: whether a vector env should send SAME_STEP steps as
    ``("step", action, next_reset)`` so that the worker resets an env whose episode
    ended in the same round trip (worth it across processes; in-process, the extra
    tuple per step costs more than the second call it saves).
    """

    resets_in_worker = False

    def local_envs(self) -> list[Any] | None:
        """The sub-envs, in slot order, when they live in this process as plain palaestra envs
        (:class:`~palaestra.core.env.SingleTurnEnv` / ``MultiTurnEnv``, unwrapped); else ``None``.
        A vector env then steps them directly (see ``TextVectorEnv.step``)."""
        return None

    def execute(self, commands: dict[int, Command]) -> dict[int, Outcome]:
        raise NotImplementedError

    def close(self) -> None:
        pass


class SyncRunner(Runner):
    """All envs in this process. Cannot survive an env that kills or hangs the process."""

    def __init__(self, slots: Slots, modules: Sequence[str] = (), wrappers: Sequence[Any] = ()) -> None:
        self.shard = Shard(slots, modules, wrappers)

    def execute(self, commands: dict[int, Command]) -> dict[int, Outcome]:
        return dict(self.shard.execute(commands.items()))

    def local_envs(self) -> list[Any] | None:
        from palaestra.core.env import MultiTurnEnv, SingleTurnEnv

        envs = [self.shard.envs[i] for i in sorted(self.shard.envs)]
        return envs if all(type(env) in (SingleTurnEnv, MultiTurnEnv) for env in envs) else None

    def close(self) -> None:
        self.shard.close()


class PooledRunner(Runner):
    """Shared logic of runners whose workers can fail: sharding, dispatch, recovery.

    It keeps each env's current episode (its reset and steps) to restore the env
    on a replacement worker.
    """

    resets_in_worker = True

    def __init__(self, slots: Slots, num_workers: int, timeout: float) -> None:
        self.histories: dict[int, list[Command]] = {}
        num_workers = max(1, min(num_workers, len(slots)))
        ids = sorted(slots)
        # contiguous blocks: worker w owns envs [w*k, (w+1)*k)
        bounds = [round(w * len(ids) / num_workers) for w in range(num_workers + 1)]
        self.shards: list[Slots] = [{i: slots[i] for i in ids[bounds[w] : bounds[w + 1]]} for w in range(num_workers)]
        self.owner = {i: w for w, shard in enumerate(self.shards) for i in shard}
        self.timeout = timeout
        self.restarts = 0

    # what a concrete runner provides
    def _submit(self, worker: int, message: tuple[Any, ...]) -> None:
        raise NotImplementedError

    def _collect(self, workers: list[int], deadline: float) -> dict[int, Any]:
        """Replies of the given workers; a worker missing from the result failed."""
        raise NotImplementedError

    def _replace(self, worker: int) -> None:
        raise NotImplementedError

    # the shared logic
    def execute(self, commands: dict[int, Command]) -> dict[int, Outcome]:
        outcomes = self._execute(commands)
        for i, outcome in outcomes.items():
            if outcome[0] != "ok":
                continue
            command = commands[i]
            if command[0] == "reset":
                self.histories[i] = [command]
            elif len(outcome) > 2:  # the step ended the episode and the worker reset the env
                if outcome[2][0] == "ok":
                    self.histories[i] = [("reset", None, reset_options(*command[2]))]
            else:
                self.histories.setdefault(i, []).append(command[:2])
        return outcomes

    def _execute(self, commands: dict[int, Command]) -> dict[int, Outcome]:
        batches: dict[int, list[tuple[int, Command]]] = {}
        for i, command in commands.items():
            batches.setdefault(self.owner[i], []).append((i, command))
        for w, batch in batches.items():
            self._submit(w, ("execute", batch))
        replies = self._collect(list(batches), time.monotonic() + self.timeout)
        outcomes: dict[int, Outcome] = {}
        for w, batch in batches.items():
            if w in replies:
                outcomes.update(replies[w])
            else:
                outcomes.update(self._recover(w, batch))
        return outcomes

    def _recover(self, worker: int, batch: list[tuple[int, Command]]) -> dict[int, Outcome]:
        """Replace a failed worker, then re-run its batch one command at a time."""
        self._restart(worker)
        outcomes: dict[int, Outcome] = {}
        for i, command in batch:
            self._submit(worker, ("execute", [(i, command)]))
            reply = self._collect([worker], time.monotonic() + self.timeout)
            if worker in reply:
                outcomes.update(reply[worker])
            else:
                outcomes[i] = ("error", f"worker {worker} crashed or exceeded its {self.timeout:g} s budget")
                self._restart(worker)
        return outcomes

    def _restart(self, worker: int) -> None:
        self.restarts += 1
        self._replace(worker)
        histories = {i: self.histories[i] for i in self.shards[worker] if i in self.histories}
        if histories:
            self._submit(worker, ("restore", histories))
            if worker not in self._collect([worker], time.monotonic() + self.timeout):
                raise RuntimeError(f"worker {worker} failed again while restoring its environments")


def _process_main(conn: Connection, slots: Slots, modules: Sequence[str], wrappers: Sequence[Any]) -> None:
    shard = Shard(slots, modules, wrappers)
    conn.send(("ready", None))
    while True:
        try:
            kind, payload = conn.recv()
        except EOFError:
            return
        if kind == "execute":
            conn.send(("done", shard.execute(payload)))
            while not conn.poll() and shard.prepare_one():  # idle until the next command: make the next problems
                pass
        elif kind == "restore":
            shard.restore(payload)
            conn.send(("done", []))
        elif kind == "close":
            shard.close()
            return


class ProcessRunner(PooledRunner):
    """A pool of worker processes, each owning a contiguous block of envs."""

    def __init__(self, slots: Slots, num_workers: int | None = None, timeout: float = 60.0,
                 modules: Sequence[str] = (), wrappers: Sequence[Any] = (), start_method: str | None = None) -> None:
        super().__init__(slots, num_workers or os.cpu_count() or 1, timeout)
        self.modules = tuple(modules)
        self.wrappers = tuple(wrappers)
        self.context = mp.get_context(start_method or ("fork" if "fork" in mp.get_all_start_methods() else "spawn"))
        self.processes: list[Any] = [None] * len(self.shards)
        self.conns: list[Connection | None] = [None] * len(self.shards)
        for w in range(len(self.shards)):
            self._start(w)
        self._collect(list(range(len(self.shards))), time.monotonic() + max(timeout, 60.0), expect="ready")

    def _start(self, worker: int) -> None:
        parent, child = self.context.Pipe()
        process = self.context.Process(target=_process_main, args=(child, self.shards[worker], self.modules, self.wrappers), daemon=True)
        process.start()
        child.close()
        self.processes[worker], self.conns[worker] = process, parent

    def _submit(self, worker: int, message: tuple[Any, ...]) -> None:
        try:
            self.conns[worker].send(message)  # type: ignore[union-attr]
        except (BrokenPipeError, OSError):
            pass  # the missing reply reports the failure

    def _collect(self, workers: list[int], deadline: float, expect: str = "done") -> dict[int, Any]:
        replies: dict[int, Any] = {}
        pending = {self.conns[w]: w for w in workers}
        while pending:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            for conn in wait(list(pending), timeout=remaining):
                w = pending.pop(conn)  # type: ignore[arg-type]
                try:
                    kind, payload = conn.recv()  # type: ignore[union-attr]
                except (EOFError, OSError):
                    continue  # the worker died
                if kind == expect:
                    replies[w] = payload
        return replies

    def _replace(self, worker: int) -> None:
        process = self.processes[worker]
        if process.is_alive():
            process.kill()
        process.join(timeout=5)
        self.conns[worker].close()  # type: ignore[union-attr]
        self._start(worker)
        if worker not in self._collect([worker], time.monotonic() + 60.0, expect="ready"):
            raise RuntimeError(f"replacement worker {worker} did not start")

    def close(self) -> None:
        for w, conn in enumerate(self.conns):
            self._submit(w, ("close", None))
            conn.close()  # type: ignore[union-attr]
        for process in self.processes:
            process.join(timeout=2)
            if process.is_alive():
                process.kill()
                process.join()
