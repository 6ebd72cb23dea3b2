"""Load test of ``palaestra serve`` and ``palaestra serve-reward`` on loopback; it stops by itself.

    python bench/serve_load.py                              # 2,048 active + 10,000 idle sessions, 4,096 rewards
    python bench/serve_load.py --sessions 256 --idle 1000 --rewards 512 --seconds 10   # a quick run

Each server runs as its own ``palaestra`` process on 127.0.0.1 (a free port), the clients in this one
(asyncio: one task per WebSocket session or HTTP request), so on a small machine the clients take CPU
from the server: the figures are a floor. Every phase has a deadline; the servers are stopped at the end.

(a) ``palaestra serve``, ``--sessions`` concurrent WebSocket sessions of one single-turn env
    (``arithmetic/addition``), each playing episodes (reset, then one step with the right answer)
    for ``--seconds``: steps/s over all sessions and the step latency (p50, p99) seen by the clients.
(b) ``--idle`` sessions opened and reset once, then held idle: the server's resident memory (RSS)
    before and after, per idle session.
(c) ``palaestra serve-reward``: ``--rewards`` requests (one sample each) sent at once over as many
    connections: how many were answered 200, how many refused (503) or lost, and the total time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any

ENV_ID = "arithmetic/addition"
HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def start(argv: list[str], ready: str, timeout: float = 120.0) -> subprocess.Popen[str]:
    """``palaestra ARGV`` as a child process, once it printed a line holding ``ready``."""
    process = subprocess.Popen([sys.executable, "-m", "palaestra.cli", *argv], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + timeout
    assert process.stdout is not None
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        if ready in line:  # from now on its output is read by a thread (a full pipe would stall the server)
            threading.Thread(target=_drain, args=(process,), daemon=True).start()
            return process
    process.kill()
    raise RuntimeError(f"palaestra {' '.join(argv[:1])} did not start within {timeout:g} s")


SERVER_OUTPUT: deque[str] = deque(maxlen=400)  # the servers' last lines, printed when a phase had errors


def _drain(process: subprocess.Popen[str]) -> None:
    assert process.stdout is not None
    for line in process.stdout:
        SERVER_OUTPUT.append(line.rstrip())


def stop(process: subprocess.Popen[str]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (its threads included)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


# --- (a) and (b): palaestra serve over WebSockets ------------------------------------------------------------
async def exchange(ws: Any, kind: str, data: dict[str, Any]) -> dict[str, Any]:
    await ws.send(json.dumps({"type": kind, "data": data}))
    reply = json.loads(await ws.recv())
    if reply.get("type") == "error":
        raise RuntimeError(f"{kind}: {reply.get('data')}")
    return reply["data"]


async def connect(url: str) -> Any:
    import websockets

    # No client keep-alive pings: on a saturated machine a late pong would close a session that is only slow.
    return await websockets.connect(url, max_size=2**20, open_timeout=120, ping_interval=None)


async def open_sessions(url: str, count: int, errors: list[str], wave: int = 256) -> list[Any]:
    """``count`` WebSocket sessions, opened in waves (a storm of thousands would only measure the accept queue)."""
    opened: list[Any] = []

    async def open_one() -> None:
        try:
            opened.append(await connect(url))
        except Exception as exc:  # a refused session is a result: counted, not fatal
            errors.append(f"connect: {type(exc).__name__}: {exc}"[:200])

    for first in range(0, count, wave):
        await asyncio.gather(*(open_one() for _ in range(first, min(count, first + wave))))
    return opened


async def play(ws: Any, index: int, until: float, latencies: list[float], errors: list[str]) -> int:
    """Episodes (reset, one step with the right answer) until ``until``; the number of steps."""
    steps, seed = 0, index * 1_000_000
    try:
        while time.monotonic() < until:
            reset = await exchange(ws, "reset", {"env_id": ENV_ID, "seed": seed})
            answer = json.loads(reset["observation"]["problem"])["answer"]
            t0 = time.perf_counter()
            step = await exchange(ws, "step", {"text": f"<answer>{answer}</answer>"})
            latencies.append(time.perf_counter() - t0)
            if step.get("reward") != 1.0:
                errors.append(f"session {index}: reward {step.get('reward')}")
            steps += 1
            seed += 1
    except Exception as exc:
        errors.append(f"session {index}: {type(exc).__name__}: {exc}"[:200])
    return steps


async def idle_sessions(url: str, count: int, pid: int, hold: float) -> dict[str, Any]:
    errors: list[str] = []
    before = rss_bytes(pid)
    t0 = time.perf_counter()
    opened = await open_sessions(url, count, errors, wave=500)

    async def reset_once(ws: Any, index: int) -> None:
        try:
            await exchange(ws, "reset", {"env_id": ENV_ID, "seed": index})
        except Exception as exc:
            errors.append(f"reset: {type(exc).__name__}: {exc}"[:200])

    for first in range(0, len(opened), 500):
        await asyncio.gather(*(reset_once(ws, first + k) for k, ws in enumerate(opened[first:first + 500])))
    opened_in = time.perf_counter() - t0
    await asyncio.sleep(hold)
    after = rss_bytes(pid)
    await asyncio.gather(*(ws.close() for ws in opened), return_exceptions=True)
    return {"held": len(opened), "errors": errors, "rss_before": before, "rss_after": after, "seconds": opened_in}


def bench_serve(args: argparse.Namespace) -> None:
    port = free_port()
    sessions = max(args.sessions, args.idle)
    server = start(["serve", "--port", str(port), "--envs", ENV_ID, "--max-sessions", str(sessions + 16),
                    "--max-connections", str(sessions + 64), "--session-timeout", "600"], "ready")
    url = f"ws://{HOST}:{port}/ws"
    try:
        latencies: list[float] = []
        errors: list[str] = []

        async def active() -> tuple[int, float, int, float]:
            t0 = time.perf_counter()
            sessions = await open_sessions(url, args.sessions, errors)
            connected = time.perf_counter() - t0
            t0, cpu0 = time.perf_counter(), cpu_seconds(server.pid)
            until = time.monotonic() + args.seconds
            counts = await asyncio.gather(*(play(ws, i, until, latencies, errors) for i, ws in enumerate(sessions)))
            seconds, cpu = time.perf_counter() - t0, cpu_seconds(server.pid) - cpu0
            await asyncio.gather(*(ws.close() for ws in sessions), return_exceptions=True)
            return sum(counts), seconds, len(sessions), connected, cpu

        steps, seconds, opened, connected, cpu = asyncio.run(active())
        print(f"(a) palaestra serve, {opened} of {args.sessions} WebSocket sessions of {ENV_ID} open at once "
              f"(in {connected:.1f} s), each playing episodes (reset + one step) for {args.seconds:g} s")
        print(f"    {steps} steps in {seconds:.1f} s: {steps / seconds:,.0f} steps/s "
              f"({2 * steps / seconds:,.0f} requests/s with the resets); step latency "
              f"p50 {1000 * percentile(latencies, 0.5):.0f} ms, p99 {1000 * percentile(latencies, 0.99):.0f} ms; "
              f"{len(errors)} session errors" + (f" (e.g. {errors[0]})" if errors else ""))
        print(f"    server CPU {1000 * cpu / max(1, steps):.2f} ms per episode (reset + step): one idle core would "
              f"serve {steps / max(cpu, 1e-9):,.0f} steps/s")
        if errors:
            print("    server's last lines:\n      " + "\n      ".join(SERVER_OUTPUT))
        idle = asyncio.run(idle_sessions(url, args.idle, server.pid, hold=2.0))
        grown = idle["rss_after"] - idle["rss_before"]
        print(f"(b) {idle['held']} of {args.idle} idle sessions held (each reset once), opened in "
              f"{idle['seconds']:.1f} s; server RSS {idle['rss_before'] / 2**20:,.0f} MiB -> "
              f"{idle['rss_after'] / 2**20:,.0f} MiB: {grown / max(1, idle['held']) / 1024:,.1f} KiB per idle session; "
              f"{len(idle['errors'])} errors" + (f" (e.g. {idle['errors'][0]})" if idle["errors"] else ""))
    finally:
        stop(server)


# --- (c): palaestra serve-reward, many requests at once -----------------------------------------------------
def reward_body() -> bytes:
    import palaestra

    env = palaestra.make(ENV_ID)
    prompt, info = env.reset(seed=0)
    problem = info["problem"]
    return json.dumps({"query": [f"{prompt}<answer>{problem.answer}</answer>"], "prompts": [prompt],
                       "labels": [problem.to_json()]}).encode()


async def post(port: int, body: bytes, deadline: float) -> int:
    """One POST /get_reward on its own connection; the status, or 0 when the connection failed or timed out."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port), deadline - time.monotonic())
        writer.write(b"POST /get_reward HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n"
                     b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        await writer.drain()
        status_line = await asyncio.wait_for(reader.readline(), deadline - time.monotonic())
        await asyncio.wait_for(reader.read(), deadline - time.monotonic())
        writer.close()
        return int(status_line.split()[1])
    except (OSError, asyncio.TimeoutError, ValueError, IndexError):
        return 0


def bench_serve_reward(args: argparse.Namespace) -> None:
    port = free_port()
    server = start(["serve-reward", "--port", str(port)], "reward server on")
    try:
        body = reward_body()

        async def burst() -> tuple[list[int], float]:
            t0 = time.perf_counter()
            deadline = time.monotonic() + args.reward_deadline
            statuses = await asyncio.gather(*(post(port, body, deadline) for _ in range(args.rewards)))
            return statuses, time.perf_counter() - t0

        statuses, seconds = asyncio.run(burst())
        counts = {status: statuses.count(status) for status in sorted(set(statuses))}
        print(f"(c) palaestra serve-reward, {args.rewards} requests (one sample each) sent at once on as many "
              f"connections: {counts.get(200, 0)} answered 200, {counts.get(503, 0)} refused (503), "
              f"{counts.get(0, 0)} failed or timed out, in {seconds:.1f} s; statuses {counts}")
    finally:
        stop(server)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=2048, help="concurrent active WebSocket sessions")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long the active sessions play")
    parser.add_argument("--idle", type=int, default=10_000, help="idle sessions held")
    parser.add_argument("--rewards", type=int, default=4096, help="serve-reward requests sent at once")
    parser.add_argument("--reward-deadline", type=float, default=300.0, help="seconds the burst may take at most")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; servers and clients share it\n")
    bench_serve(args)
    bench_serve_reward(args)


if __name__ == "__main__":
    sys.exit(main())
