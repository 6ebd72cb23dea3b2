"""Measures reasoning-gym inside its own virtual environment; run by bench/generation.py.

Prints one JSON object: import time and, per dataset, items generated per second
and answers scored per second (medians of repeated timed runs).
"""

from __future__ import annotations

import json
import statistics
import sys
import time

REPEATS, SECONDS = 5, 0.3

t0 = time.perf_counter()
import reasoning_gym  # noqa: E402

import_seconds = time.perf_counter() - t0


def rate(step, seconds: float = SECONDS) -> float:
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        step(n)
        n += 1
    return n / (time.perf_counter() - t0)


def measure(name: str) -> dict[str, float]:
    dataset = reasoning_gym.create_dataset(name, size=10**6, seed=1)
    failures = 0

    def generate(i: int) -> None:
        nonlocal failures
        try:
            dataset[i]
        except Exception:  # reasoning-gym's maze occasionally gives up on an item; count the attempt
            failures += 1

    offset = 0
    gen = []
    for _ in range(REPEATS):
        gen.append(rate(lambda i: generate(offset + i)))
        offset += 100_000
    items = []
    for i in range(200):
        try:
            items.append(dataset[i])
        except Exception:
            continue
    ver = [rate(lambda i: dataset.score_answer(items[i % len(items)]["answer"], items[i % len(items)]))
           for _ in range(REPEATS)]
    return {"generate_per_s": statistics.median(gen), "verify_per_s": statistics.median(ver), "failures": failures}


if __name__ == "__main__":
    names = sys.argv[1:]
    print(json.dumps({"import_seconds": import_seconds, "datasets": {n: measure(n) for n in names}}))
