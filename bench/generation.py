"""Generation and verification throughput of every palaestra env, and a side-by-side
comparison with reasoning-gym on the overlapping tasks.

    python bench/generation.py                 # everything (installs reasoning-gym into bench/.venv-rg)
    python bench/generation.py --no-peer       # palaestra only
    python bench/generation.py --envs grid/sudoku combinatorial/countdown

Each rate is the median of repeated timed runs on one core in this process.
reasoning-gym runs in its own virtual environment (created on first use), in a
subprocess measured the same way, right after palaestra in the same run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
import venv
from pathlib import Path

from palaestra.core.registry import make_source, registry

HERE = Path(__file__).resolve().parent
PEER_VENV = HERE / ".venv-rg"
REPEATS, SECONDS = 5, 0.3

# palaestra env -> (reasoning-gym dataset on the same task, palaestra level whose problem size is
# closest to reasoning-gym's default config)
OVERLAP = {
    "arithmetic/expression": ("basic_arithmetic", 2),  # 5 operands vs 2-6 terms
    "search/maze": ("maze", 0),  # 9x9 squares, ~31 open, route ~11 moves vs 5x5 to 10x10, ~70% open, 5-10 moves
    # 11 weighted nodes and 19 edges (Dijkstra) vs 5x5 to 8x8 grids, ~60% open: ~25 unweighted cells (BFS)
    "graphs/shortest_path": ("shortest_path", 2),
    "grid/sudoku": ("sudoku", 2),  # 9x9 with ~47 blanks vs 30-50 blanks
    "logic/knights_knaves": ("knights_knaves", 0),  # 2–3 inhabitants vs 2
    "combinatorial/countdown": ("countdown", 2),  # 5 numbers vs 4-6
    # graph family (round 2): the same question on a graph instead of a grid, or a close cousin
    "graphs/cycle": ("course_schedule", 2),  # directed cycle check = "can every course be finished"
    "graphs/components": ("largest_island", 1),  # connected components of a graph vs islands of a grid
    "graphs/bfs_layers": ("rotten_oranges", 1),  # BFS distances from a source vs multi-source BFS on a grid
    "graphs/coloring": ("graph_color", 1),  # colour a graph with k colours
    "algorithms/multi_key_sort": ("number_sorting", 0),  # stable sorting of generated records vs numbers
}
TARGETS = {"grid/sudoku": 30.0, "combinatorial/countdown": 30.0}  # others: 3x


def rate(step, seconds: float = SECONDS) -> float:
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        step(n)
        n += 1
    return n / (time.perf_counter() - t0)


def measure_env(env_id: str, level: int) -> tuple[float, float]:
    """(problems generated per second, reference answers (or oracle moves) verified per second), medians."""
    source = make_source(env_id)
    offset = 0

    def generate(i: int) -> None:
        source.sample(level, offset + i)

    gen = []
    for _ in range(REPEATS):
        gen.append(rate(generate))
        offset += 1_000_000
    problems = [source.sample(level, seed) for seed in range(50)]
    if hasattr(source, "verify"):
        ver = [rate(lambda i: source.verify(problems[i % 50], problems[i % 50].answer)) for _ in range(REPEATS)]
    else:  # multi-turn: the oracle's first move judged by play(), the oracle itself not timed
        moves = [source.oracle(p, source.new_state(p)) for p in problems]
        ver = [rate(lambda i: source.play(problems[i % 50], source.new_state(problems[i % 50]), moves[i % 50]))
               for _ in range(REPEATS)]
    return statistics.median(gen), statistics.median(ver)


def import_seconds(module: str, python: str = sys.executable, runs: int = 5) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    return statistics.median(
        float(subprocess.run([python, "-c", code], capture_output=True, text=True, check=True).stdout) for _ in range(runs)
    )


def peer_python() -> str:
    python = PEER_VENV / "bin" / "python"
    if not python.exists():
        print("creating bench/.venv-rg with reasoning-gym (first run only)...", flush=True)
        venv.create(PEER_VENV, with_pip=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "reasoning-gym"], check=True)
    return str(python)


def fmt_rate(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:,.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--envs", nargs="*")
    parser.add_argument("--no-peer", action="store_true", help="skip the reasoning-gym comparison")
    args = parser.parse_args()
    env_ids = args.envs or registry.ids()

    print(f"{'env':32} {'gen/s L0':>10} {'gen/s L2':>10} {'gen/s L4':>10} {'verify/s L2':>12}")
    ours: dict[str, dict[int, tuple[float, float]]] = {}
    for env_id in env_ids:
        rates = ours[env_id] = {level: measure_env(env_id, level) for level in (0, 2, 4)}
        print(f"{env_id:32} {fmt_rate(rates[0][0]):>10} {fmt_rate(rates[2][0]):>10} {fmt_rate(rates[4][0]):>10} "
              f"{fmt_rate(rates[2][1]):>12}", flush=True)

    ours_import = import_seconds("palaestra")
    print(f"\nimport palaestra: {ours_import * 1000:.1f} ms")
    if args.no_peer:
        return
    python = peer_python()
    overlap = {k: v for k, v in OVERLAP.items() if k in ours}
    out = subprocess.run([python, str(HERE / "reasoning_gym_worker.py"), *(name for name, _ in overlap.values())],
                         capture_output=True, text=True, check=True)
    peer = json.loads(out.stdout)
    peer_import = import_seconds("reasoning_gym", python)
    print(f"import reasoning_gym: {peer_import * 1000:.1f} ms; ratio palaestra/reasoning_gym = "
          f"{ours_import / peer_import:.3f} (target <= 0.15)\n")

    print("side by side: palaestra at the size-matched level vs reasoning-gym's default config, one core each")
    print(f"{'task':26} {'lvl':>3} {'palaestra gen/s':>16} {'r-gym gen/s':>12} {'ratio':>8} {'target':>7}  "
          f"{'palaestra ver/s':>16} {'r-gym ver/s':>12} {'ratio':>8}")
    ratios = []
    for env_id, (name, level) in overlap.items():
        theirs = peer["datasets"][name]
        gen, ver = ours[env_id][level] if level in ours[env_id] else measure_env(env_id, level)
        ratio, vratio = gen / theirs["generate_per_s"], ver / theirs["verify_per_s"]
        ratios.append(ratio)
        target = TARGETS.get(env_id, 3.0)
        mark = "met" if ratio >= target else "MISSED"
        print(f"{env_id:26} {level:>3} {fmt_rate(gen):>16} {fmt_rate(theirs['generate_per_s']):>12} "
              f"{ratio:>7.1f}x {target:>5.0f}x {mark:6} {fmt_rate(ver):>10} "
              f"{fmt_rate(theirs['verify_per_s']):>12} {vratio:>7.2f}x")
    if ratios:
        print(f"\nmedian generation ratio: {statistics.median(ratios):.1f}x (target >= 3x)")


if __name__ == "__main__":
    main()
