"""Measures reasoning-gym inside its own virtual environment; run by bench/generation.py.

    python reasoning_gym_worker.py NAME ...   # one JSON object for all the named datasets
    python reasoning_gym_worker.py --serve    # one dataset name per stdin line, one JSON line back each

Each result holds items generated per second and answers scored per second (medians of
repeated timed runs), or an ``error`` when the dataset could not be built or measured.
``--serve`` lets the caller interleave these runs with its own, so both sides see the same
load on a shared machine.
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
    """Calls of ``step`` per second of this process's CPU time (other processes' load does not count);
    at most 20 times ``seconds`` of wall time."""
    n, t0, wall = 0, time.process_time(), time.perf_counter()
    while time.process_time() - t0 < seconds and time.perf_counter() - wall < 20 * seconds:
        step(n)
        n += 1
    return n / max(time.process_time() - t0, 1e-9)


def create(name: str):
    """The dataset with a million items, or 20,000 where it refuses that many (word_ladder); items are
    generated on every access, so indices wrap around without reusing work."""
    try:
        return reasoning_gym.create_dataset(name, size=10**6, seed=1)
    except ValueError:
        return reasoning_gym.create_dataset(name, size=20_000, seed=1)


def measure(name: str, repeats: int = REPEATS) -> dict[str, float]:
    dataset = create(name)
    size = len(dataset)
    failures = 0

    def generate(i: int) -> None:
        nonlocal failures
        try:
            dataset[i % size]
        except Exception:  # reasoning-gym's maze occasionally gives up on an item; count the attempt
            failures += 1

    offset = 0
    gen = []
    for _ in range(repeats):
        gen.append(rate(lambda i: generate(offset + i)))
        offset += 100_000
    items, started = [], time.process_time()
    for i in range(200):  # up to 200 items to score, fewer for the slow generators (futoshiki: ~3/s)
        if items and time.process_time() - started > 2:
            break
        try:
            items.append(dataset[i % size])
        except Exception:
            continue
    ver = [rate(lambda i: dataset.score_answer(items[i % len(items)]["answer"], items[i % len(items)]))
           for _ in range(repeats)]
    return {"generate_per_s": statistics.median(gen), "verify_per_s": statistics.median(ver), "failures": failures}


def measure_or_error(name: str, repeats: int = REPEATS) -> dict:
    try:
        return measure(name, repeats)
    except Exception as exc:  # one broken dataset must not lose the other rows
        return {"error": f"{type(exc).__name__}: {str(exc)[:200]}"}


def serve() -> None:
    """Answer ``NAME [REPEATS]`` lines until stdin closes; the first line out is the import time."""
    print(json.dumps({"import_seconds": import_seconds}), flush=True)
    for line in sys.stdin:
        name, *rest = line.split()
        print(json.dumps(measure_or_error(name, int(rest[0]) if rest else REPEATS)), flush=True)


if __name__ == "__main__":
    if sys.argv[1:] == ["--serve"]:
        serve()
    else:
        names = sys.argv[1:]
        print(json.dumps({"import_seconds": import_seconds, "datasets": {n: measure_or_error(n) for n in names}}))
