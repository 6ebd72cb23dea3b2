"""Benign latency under abuse: short jobs run alone, then interleaved with CPU hogs, per memory admission.

    python bench/fairness.py [--benign 50] [--hogs 50] [--hog-cpu 2] [--tier standard] [--admission usage]

A clean run submits ``--benign`` short Python jobs at once (one client thread each, so nothing
queues on the client side) and records each job's latency (the ``run`` call, submission to
result); the mixed run submits ``--hogs`` CPU hogs (four spinning threads each, until their
``--hog-cpu`` seconds of CPU) interleaved with the same number of short jobs. Prints the
median, 95th and 99th percentile of the short jobs' latency in both runs and their ratios (the
sandbox issue's target: within 2x of the clean run), once per memory admission policy of the
server (``limits``: every run holds its whole memory limit, the policy before; ``usage``: a
demoted long runner holds what its cgroup is charged), each on a backend of its own, in one run.
"""

from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ThreadPoolExecutor

from palaestra.sandbox import Limits, LocalBackend

HOG = """
import threading
def spin():
    while True:
        pass
for _ in range(4):
    threading.Thread(target=spin, daemon=True).start()
spin()
"""
BENIGN = "print(sum(i * i for i in range({n})))"


def timed(backend: LocalBackend, source: str, limits: Limits) -> tuple[float, bool]:
    start = time.perf_counter()
    result = backend.run(source, limits=limits)
    return time.perf_counter() - start, result.ok


def run(backend: LocalBackend, benign: int, hogs: int, hog_cpu: float) -> list[float]:
    short = Limits(wall_seconds=30, cpu_seconds=5)
    hog = Limits(wall_seconds=hog_cpu * 10 + 10, cpu_seconds=hog_cpu)
    jobs: list[tuple[str, Limits, bool]] = []
    for i in range(max(benign, hogs)):
        if i < hogs:
            jobs.append((HOG, hog, False))
        if i < benign:
            jobs.append((BENIGN.format(n=100_000 + i), short, True))
    with ThreadPoolExecutor(len(jobs)) as pool:
        futures = [(pool.submit(timed, backend, source, limits), counted) for source, limits, counted in jobs]
        latencies = []
        for future, counted in futures:
            seconds, ok = future.result()
            if counted:
                assert ok, "a short job failed"
                latencies.append(seconds)
    return latencies


def describe(latencies: list[float]) -> tuple[float, float, float]:
    ordered = sorted(latencies)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return statistics.median(ordered), at(0.95), at(0.99)


def measure(args: argparse.Namespace, admission: str) -> tuple[str, tuple[float, ...], tuple[float, ...]]:
    kwargs = {"tier": args.tier} if args.tier else {}
    backend = LocalBackend(memory_admission=admission, **kwargs)
    try:
        backend.run("pass")
        tier = backend.probe().tier
        clean = describe(run(backend, args.benign, 0, args.hog_cpu))
        mixed = describe(run(backend, args.benign, args.hogs, args.hog_cpu))
    finally:
        backend.close()
    return tier, clean, mixed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--benign", type=int, default=50)
    parser.add_argument("--hogs", type=int, default=50)
    parser.add_argument("--hog-cpu", type=float, default=2.0)
    parser.add_argument("--tier", default=None, help="a tier to run at (default: the strongest the host allows)")
    parser.add_argument("--admission", choices=("limits", "usage"), action="append", help="default: both")
    args = parser.parse_args()
    for admission in args.admission or ("limits", "usage"):
        tier, clean, mixed = measure(args, admission)
        print(f"admission by {admission}, tier {tier}: {args.benign} short jobs; {args.hogs} hogs of {args.hog_cpu:g} s CPU")
        print(f"  clean: median {clean[0]:.3f} s, p95 {clean[1]:.3f} s, p99 {clean[2]:.3f} s")
        print(f"  mixed: median {mixed[0]:.3f} s, p95 {mixed[1]:.3f} s, p99 {mixed[2]:.3f} s")
        ratios = ", ".join(f"{name} {m / c:.2f}x" for name, m, c in zip(("median", "p95", "p99"), mixed, clean))
        print(f"  ratio: {ratios}", flush=True)


if __name__ == "__main__":
    main()
