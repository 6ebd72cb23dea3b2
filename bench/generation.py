"""Generation and verification throughput of every palaestra env, and a side-by-side
comparison with reasoning-gym on the overlapping tasks.

    python bench/generation.py                              # everything (installs reasoning-gym into bench/.venv-rg)
    python bench/generation.py --no-peer                    # palaestra only
    python bench/generation.py --envs puzzles/sudoku arithmetic/countdown
    python bench/generation.py --overlap-only --envs graphs  # one family's overlap rows only (about 10 s a row)
    python bench/generation.py --below 1000                 # envs under 1,000 problems/s at their top preset

``--below N`` measures every selected env at its top preset (level 4, or its last), one timed run after a
warm-up sample, and lists those under N problems/s with whether their module docstring explains it in a
paragraph starting ``Generation speed:`` (what the generator spends its time on, and why that is kept).

``--envs`` takes env ids and family names. Each rate is the median of repeated timed runs on
one core in this process, counted in CPU time so that other processes on a shared machine do
not slow it down (their cache traffic still can). reasoning-gym runs in its own virtual environment (created on first
use), in a subprocess measured the same way; each overlap row measures palaestra and then its
reasoning-gym dataset, one right after the other, so both see the same load on a shared machine.
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

from palaestra.core import Problem
from palaestra.core.registry import make_source, registry

HERE = Path(__file__).resolve().parent
PEER_VENV = HERE / ".venv-rg"
REPEATS, SECONDS = 5, 0.3

# (palaestra env, reasoning-gym dataset on the same task, palaestra level whose problem size is closest
# to reasoning-gym's default config); the comment says how the two compare.
OVERLAP = [
    # math (issue #10)
    ("arithmetic/expression", "basic_arithmetic", 2),  # 5 operands vs 2-6 terms
    ("arithmetic/addition", "chain_sum", 2),  # two 3-4 digit numbers vs 2-6 numbers of 1-4 digits, + and -
    ("arithmetic/fractions", "fraction_simplification", 0),  # reduce one fraction to lowest terms, both
    ("arithmetic/number_theory", "gcd", 0),  # gcd, lcm or a^b mod m of 2 numbers vs gcd of 2 numbers <= 1000
    ("arithmetic/number_theory", "lcm", 0),  # the same level vs lcm of 2 numbers <= 100
    ("arithmetic/prime_factorization", "prime_factorization", 0),  # numbers below 1000, both
    ("arithmetic/base_conversion", "base_conversion", 0),  # to/from bases 2, 8, 16, values < 4096 vs bases 2-16, < 1000
    ("algebra/polynomial_expansion", "polynomial_multiplication", 2),  # 2-3 factors of degree <= 3 in x, both
    ("algebra/solve_equation", "simple_equations", 0),  # linear equation in one unknown, both
    ("algebra/solve_equation", "polynomial_equations", 2),  # quadratic vs degree 1-3, exact roots vs 4 decimals
    ("calculus/antiderivative", "simple_integration", 0),  # sums of powers of x, both
    ("calculus/antiderivative", "intermediate_integration", 3),  # by parts, chain rule, trig powers; both
    ("probability/exact_probability", "dice", 4),  # one of its settings is 4 dice vs 4 dice up to 20 faces
    ("tools/date_arithmetic", "calendar_arithmetic", 1),  # day counts, weekdays, nth weekday of a month; both
    # (no peer: basic statistics and decimal arithmetic have no palaestra/reasoning-gym counterpart)
    # logic (issue #11)
    ("deduction/knights_knaves", "knights_knaves", 0),  # 2–3 inhabitants vs 2
    ("deduction/propositional", "propositional_logic", 1),  # 4 variables, 2 premises of depth 2 vs 2-4 of each
    ("puzzles/zebra", "zebra_puzzles", 2),  # 4 houses x 4 attributes, both
    ("puzzles/futoshiki", "futoshiki", 2),  # 6x6 vs 4x4 to 9x9
    ("puzzles/twenty_four", "puzzle24", 0),  # 4 numbers 1-9, target 24 vs 4 numbers 1-10, target 24
    ("puzzles/cryptarithm", "cryptarithm", 2),  # two 4-5 letter addends vs 2-3 words
    ("deduction/syllogism", "syllogism", 0),  # two premises over 3 terms, valid or not; both
    ("deduction/kinship", "family_relationships", 0),  # 3 generations, 1-2 children each vs 4-8 people
    ("deduction/circuit_eval", "circuit_logic", 0),  # 3 inputs, 5 gates vs 2-4 inputs, 3-5 terms
    ("symbolic/self_reference", "self_reference", 3),  # 7 statements about themselves, both
    ("puzzles/sudoku", "sudoku", 2),  # 9x9 with ~47 blanks vs 30-50 blanks
    ("puzzles/sudoku", "mini_sudoku", 0),  # 4x4, both
    ("puzzles/n_queens", "n_queens", 0),  # 8-10 board, 3 queens missing vs 8x8, 1-7 missing
    ("arithmetic/countdown", "countdown", 2),  # 5 numbers vs 4-6
    # (no peer: reasoning-gym has no kakuro (kakurasu is another puzzle) and no binairo (its binary_matrix
    # is nearest-zero distances, measured against graphs/bfs_layers below))
    # graphs (issue #12): the same question on a graph instead of a grid, or a close cousin
    ("planning/maze", "maze", 0),  # 9x9 squares, ~31 open, route ~11 moves vs 5x5 to 10x10, ~70% open, 5-10 moves
    # 11 weighted nodes and 19 edges (Dijkstra) vs 5x5 to 8x8 grids, ~60% open: ~25 unweighted cells (BFS)
    ("graphs/shortest_path", "shortest_path", 2),
    ("graphs/cycle", "course_schedule", 2),  # directed cycle check = "can every course be finished"
    ("graphs/components", "largest_island", 1),  # connected components of a graph vs islands of a grid
    ("graphs/bfs_layers", "rotten_oranges", 1),  # BFS distances from a source vs multi-source BFS on a grid
    # the same vs multi-source BFS (distance to the nearest 0) in a 3x3 to 10x10 grid; level 1 as for
    # rotten_oranges, although a grid of ~40 cells has more nodes (but a regular shape)
    ("graphs/bfs_layers", "binary_matrix", 1),
    ("graphs/coloring", "graph_color", 1),  # colour a graph with k colours
    ("algorithms/multi_key_sort", "number_sorting", 0),  # stable sorting of generated records vs numbers
    # planning / symbolic (issue #13)
    ("symbolic/arc_1d", "arc_1d", 1),  # rows of 14-20 cells, 3 examples vs 10-30 cells, 3 examples
    ("symbolic/list_functions", "list_functions", 2),  # 4 examples, lists of 5-8 numbers vs 4 examples, 1-10
    ("symbolic/cipher", "caesar_cipher", 1),  # Caesar, 6-7 words vs 3-20 words
    ("symbolic/game_of_life", "game_of_life", 4),  # 10x10, 4 generations (wrapping, 6 rules) vs 10x10, 1 step
    ("symbolic/cube_rotation", "color_cube_rotation", 1),  # 2-3 whole-cube rotations vs 1-3
    ("strings/compose", "string_manipulation", 2),  # 3 string rules applied to 7-10 letters vs 3-8 rules, 5-20
    ("planning/sokoban", "sokoban", 4),  # 6x7, 3 boxes (largest level) vs 6x6 to 10x10, 4+ boxes
    ("games/sokoban", "sokoban", 4),  # the same puzzle played move by move
    ("planning/hanoi", "tower_of_hanoi", 1),  # 5 disks, any start and goal vs 3-7 disks, one tower to another
    ("planning/hanoi_variants", "tower_of_hanoi", 1),  # 4-5 disks, 3-4 pegs with move rules vs 3-7 disks, 3-4 pegs
    ("planning/water_jugs", "jugs", 3),  # 3 jugs with a tap, 7-10 steps vs 3 jugs, about 10 steps
    ("games/word_ladder", "word_ladder", 1),  # 5-letter words, played turn by turn vs 4-letter words
    # (no peer: reasoning-gym's rubiks_cube has no palaestra counterpart)
]
TARGETS = {("puzzles/sudoku", "sudoku"): 30.0, ("arithmetic/countdown", "countdown"): 30.0}  # others: 3x


def rate(step, seconds: float = SECONDS) -> float:
    """Calls of ``step`` per second of this process's CPU time (other processes' load does not count);
    at most 20 times ``seconds`` of wall time."""
    n, t0, wall = 0, time.process_time(), time.perf_counter()
    while time.process_time() - t0 < seconds and time.perf_counter() - wall < 20 * seconds:
        step(n)
        n += 1
    return n / max(time.process_time() - t0, 1e-9)


def measure_env(env_id: str, level: int, repeats: int = REPEATS) -> tuple[float, float]:
    """(problems generated per second, reference answers (or oracle moves) verified per second), medians."""
    source = make_source(env_id)
    offset = 0

    def generate(i: int) -> None:
        source.sample(level, offset + i)

    gen = []
    for _ in range(repeats):
        gen.append(rate(generate))
        offset += 1_000_000
    problems = [source.sample(level, seed) for seed in range(50)]
    if hasattr(source, "verify"):
        ver = [rate(lambda i: source.verify(problems[i % 50], problems[i % 50].answer)) for _ in range(repeats)]
    elif hasattr(source, "judge"):  # a tool-use task: its final-answer judge, without running tools
        ver = [rate(lambda i: source.judge(problems[i % 50], problems[i % 50].answer)) for _ in range(repeats)]
    else:  # multi-turn: the oracle's first move judged by play(), the oracle itself not timed
        moves = [source.oracle(p, source.initial_state(p)) for p in problems]
        ver = [rate(lambda i: source.play(problems[i % 50], source.initial_state(problems[i % 50]), moves[i % 50]))
               for _ in range(repeats)]
    return statistics.median(gen), statistics.median(ver)


def floor_seconds() -> float:
    """CPU seconds per ``sample()`` of a source whose generator returns a ready problem: the cost every
    problem pays before generating anything (its rng's seeding, the Problem records)."""
    source = make_source("arithmetic/addition")
    ready = source.sample(0, 0)
    source.generate = lambda rng, config: Problem(prompt=ready.prompt, answer=ready.answer, data=ready.data)
    return 1 / max(rate(lambda i: source.sample(0, i)) for _ in range(REPEATS))


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


class Peer:
    """The reasoning-gym worker, kept running and asked for one dataset at a time."""

    def __init__(self, python: str, repeats: int) -> None:
        self.python, self.repeats = python, repeats
        self.process = subprocess.Popen([python, str(HERE / "reasoning_gym_worker.py"), "--serve"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.process.stdout.readline()  # its import time: ready
        self.results: dict[str, dict] = {}

    def measure(self, name: str) -> dict:
        if name not in self.results:
            self.process.stdin.write(f"{name} {self.repeats}\n")
            self.process.stdin.flush()
            self.results[name] = json.loads(self.process.stdout.readline())
        return self.results[name]

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=60)


def fmt_rate(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:,.1f}"


def selected(names: list[str] | None, candidates: list[str]) -> list[str]:
    """The candidates named by ``names`` (env ids or family names), in their order; all when none are named."""
    if not names:
        return candidates
    return [c for c in candidates if c in names or c.split("/")[0] in names]


def importable(env_id: str) -> str | None:
    """None when ``env_id`` can be built here, else why not."""
    try:
        make_source(env_id)
    except Exception as exc:  # a new env may be missing or broken in this working tree
        return f"{type(exc).__name__}: {str(exc)[:120]}"
    return None


SPEED_NOTE = "Generation speed:"


def below_floor(env_ids: list[str], floor: float) -> None:
    """Print the envs generating fewer than ``floor`` problems/s at their top preset, and whether
    their module docstring says why (a paragraph starting SPEED_NOTE)."""
    slow, unexplained = 0, []
    for env_id in env_ids:
        source = make_source(env_id)
        level = min(4, source.levels() - 1)
        source.sample(level, 0)  # the first call's setup (tables, catalogues) is not a problem's cost
        per_second = rate(lambda i: source.sample(level, 1_000_000 + i))
        if per_second >= floor:
            continue
        slow += 1
        doc = sys.modules[type(source).__module__].__doc__ or ""
        explained = SPEED_NOTE in doc
        if not explained:
            unexplained.append(env_id)
        print(f"{env_id:36} L{level} {fmt_rate(per_second):>8}/s  {'explained' if explained else 'NOT EXPLAINED'}", flush=True)
    print(f"\n{slow} of {len(env_ids)} envs under {floor:g} problems/s at their top preset; "
          f"{len(unexplained)} without a '{SPEED_NOTE}' paragraph in their module docstring")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument("--envs", nargs="*", help="env ids or family names (default: all)")
    parser.add_argument("--no-peer", action="store_true", help="skip the reasoning-gym comparison")
    parser.add_argument("--overlap-only", action="store_true",
                        help="measure only the overlap rows, each at its size-matched level")
    parser.add_argument("--repeats", type=int, default=REPEATS, help="timed runs per rate (median taken)")
    parser.add_argument("--below", type=float, help="list the envs under this many problems/s at the top preset")
    args = parser.parse_args()
    if args.below:
        below_floor(selected(args.envs, registry.ids()), args.below)
        return

    ours: dict[tuple[str, int], tuple[float, float]] = {}

    def ours_at(env_id: str, level: int) -> tuple[float, float]:
        if (env_id, level) not in ours:
            ours[env_id, level] = measure_env(env_id, level, args.repeats)
        return ours[env_id, level]

    if not args.overlap_only:
        print(f"{'env':32} {'gen/s L0':>10} {'gen/s L2':>10} {'gen/s L4':>10} {'verify/s L2':>12}")
        for env_id in selected(args.envs, registry.ids()):
            rates = {level: ours_at(env_id, level) for level in (0, 2, 4)}
            print(f"{env_id:32} {fmt_rate(rates[0][0]):>10} {fmt_rate(rates[2][0]):>10} {fmt_rate(rates[4][0]):>10} "
                  f"{fmt_rate(rates[2][1]):>12}", flush=True)
        ours_import = import_seconds("palaestra")
        print(f"\nimport palaestra: {ours_import * 1000:.1f} ms")
    if args.no_peer and not args.overlap_only:
        return
    rows = [row for row in OVERLAP if row[0] in selected(args.envs, [env for env, _, _ in OVERLAP])]
    peer = None if args.no_peer else Peer(peer_python(), args.repeats)
    if peer and not args.overlap_only:  # measured like palaestra's: fresh interpreters, median of 5
        peer_import = import_seconds("reasoning_gym", peer.python)
        print(f"import reasoning_gym: {peer_import * 1000:.1f} ms; ratio palaestra/reasoning_gym = "
              f"{ours_import / peer_import:.3f} (target <= 0.15)\n")

    floor = floor_seconds()
    print(f"palaestra's floor: {floor * 1e6:.1f} us per problem (seeding the problem's rng and building the "
          f"Problem, with nothing generated), so at most {fmt_rate(1 / floor)} problems/s")
    print("side by side: palaestra at the size-matched level vs reasoning-gym's default config, one core each; "
          "'budget' is the time per problem that the target allows")
    print(f"{'task':30} {'reasoning-gym':24} {'lvl':>3} {'palaestra gen/s':>15} {'r-gym gen/s':>12} {'ratio':>8} "
          f"{'target':>6}        {'budget':>9} {'palaestra ver/s':>15} {'r-gym ver/s':>12} {'ratio':>8}", flush=True)
    ratios, missed, skipped = [], [], []
    for env_id, name, level in rows:
        why_not = importable(env_id)
        if why_not:
            skipped.append(f"{env_id} vs {name}: not importable here ({why_not})")
            continue
        gen, ver = ours_at(env_id, level)
        if peer is None:
            print(f"{env_id:30} {name:24} {level:>3} {fmt_rate(gen):>15}", flush=True)
            continue
        theirs = peer.measure(name)
        if "error" in theirs:
            skipped.append(f"{env_id} vs {name}: reasoning-gym failed ({theirs['error']})")
            continue
        ratio, vratio = gen / theirs["generate_per_s"], ver / theirs["verify_per_s"]
        ratios.append(ratio)
        target = TARGETS.get((env_id, name), 3.0)
        budget = 1 / (target * theirs["generate_per_s"])
        mark = "met" if ratio >= target else "MISSED"
        if ratio < target:
            missed.append(env_id)
        print(f"{env_id:30} {name:24} {level:>3} {fmt_rate(gen):>15} {fmt_rate(theirs['generate_per_s']):>12} "
              f"{ratio:>7.1f}x {target:>5.0f}x {mark:6} {budget * 1e6:>6.1f} us {fmt_rate(ver):>15} "
              f"{fmt_rate(theirs['verify_per_s']):>12} {vratio:>7.2f}x", flush=True)
    if peer:
        peer.close()
    if ratios:
        print(f"\nmedian generation ratio: {statistics.median(ratios):.1f}x (target >= 3x); "
              f"{len(ratios) - len(missed)} of {len(ratios)} rows met their target")
    for note in skipped:
        print(f"skipped {note}")


if __name__ == "__main__":
    main()
