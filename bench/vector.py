"""Vector-env throughput: palaestra's sync and async modes against GEM's vector env, in one run.

    python bench/vector.py            # installs gem-llm into bench/.venv-gem on first use
    python bench/vector.py --no-peer  # palaestra only

(a) 64 copies of a cheap multi-turn game, env-steps per second (64 x vector steps per second),
    sync and async, side by side with GEM's sync and thread-based async vector env on its own
    guess-the-number game (measured by bench/gem_worker.py in GEM's own virtual environment).
(b) Expensive env-steps: under SAME_STEP autoreset every step of a single-turn env verifies an
    answer and generates the next problem; at the top level of grid/sudoku and chess/mate_in_one
    that costs milliseconds. Reported: async (2 workers) speed-up over sync.
Each rate is the median of repeated timed runs after a warm-up.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import venv
from pathlib import Path

import palaestra

HERE = Path(__file__).resolve().parent
GEM_VENV = HERE / ".venv-gem"
GEM_WORKER = HERE / "gem_worker.py"
REPEATS, SECONDS = 5, 1.0


def median_rate(step, num_envs: int, seconds: float = SECONDS, repeats: int = REPEATS) -> float:
    """Median env-steps per second of ``step()`` (one vector step of ``num_envs`` envs)."""
    step()  # warm-up
    rates = []
    for _ in range(repeats):
        n, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            step()
            n += 1
        rates.append(n * num_envs / (time.perf_counter() - t0))
    return statistics.median(rates)


def cheap_game_rate(mode: str, num_envs: int) -> float:
    """guess_number level 0 (a range of 100 numbers), every guess in range, as GEM's loop does."""
    envs = palaestra.make_vec("games/guess_number", num_envs=num_envs, mode=mode, num_workers=2)
    _, infos = envs.reset(seed=0)
    lows = [p.data["low"] for p in infos["problem"]]
    tick = [0]

    def step() -> None:
        tick[0] += 1
        _, _, _, _, infos = envs.step([f"<answer>{low + tick[0] % 50}</answer>" for low in lows])
        if "problem" in infos:  # new episodes began in these slots
            for i in infos["_problem"].nonzero()[0]:
                lows[i] = infos["problem"][i].data["low"]

    try:
        return median_rate(step, num_envs)
    finally:
        envs.close()


def expensive_rate(env_id: str, level: int, mode: str, num_envs: int) -> float:
    envs = palaestra.make_vec(env_id, num_envs=num_envs, mode=mode, level=level, num_workers=2)
    envs.reset(seed=0)
    try:
        return median_rate(lambda: envs.step(["<answer>a wrong answer</answer>"] * num_envs), num_envs,
                           seconds=2.0, repeats=3)
    finally:
        envs.close()


def gem_rates(num_envs: int) -> dict:
    python = GEM_VENV / "bin" / "python"
    if not python.exists():
        print("creating bench/.venv-gem with gem-llm (first run only)...", flush=True)
        venv.create(GEM_VENV, with_pip=True)
        for argv in json.loads(GEM_WORKER.open().readline().removeprefix("# INSTALL:")):
            subprocess.run([str(python), "-m", *argv, "-q"], check=True)
    out = subprocess.run([str(python), str(GEM_WORKER), str(num_envs)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--no-peer", action="store_true")
    args = parser.parse_args()
    n = args.num_envs
    print(f"machine: {os.cpu_count()} cores\n")

    ours = {mode: cheap_game_rate(mode, n) for mode in ("sync", "async")}
    print(f"(a) {n} x games/guess_number (level 0), env-steps/s")
    print(f"    palaestra sync  {ours['sync']:>10,.0f}")
    print(f"    palaestra async {ours['async']:>10,.0f}   (2 worker processes)")
    if not args.no_peer:
        gem = gem_rates(n)
        print(f"    GEM sync        {gem['sync_steps_per_s']:>10,.0f}   ({gem['env_id']}, gem-llm {gem['gem_version']})")
        print(f"    GEM async       {gem['async_steps_per_s']:>10,.0f}   (threads)")
        print(f"    ratio sync/GEM sync   {ours['sync'] / gem['sync_steps_per_s']:.2f}x  (target >= 1.5x)")
        print(f"    ratio async/GEM async {ours['async'] / gem['async_steps_per_s']:.2f}x")

    print("\n(b) expensive env-steps (verify + generate the next problem), 16 envs, env-steps/s")
    for env_id, level in (("grid/sudoku", 4), ("chess/mate_in_one", 4)):
        sync = expensive_rate(env_id, level, "sync", 16)
        pooled = expensive_rate(env_id, level, "async", 16)
        print(f"    {env_id:20} level {level}: sync {sync:8,.1f}  async {pooled:8,.1f}  "
              f"speed-up {pooled / sync:.2f}x  (target >= 1.7x)")


if __name__ == "__main__":
    sys.exit(main())
