"""Export throughput: rows per second of a mixed export over every env, by worker count (same run, same rows).

    python bench/export.py --seeds 20 --workers 1 2          # 20 problems per env and level 0-4, all envs
    python bench/export.py --rows 1000000 --workers 2        # the 1M-row target (about 4,000 rows per env)

Prints rows/s per worker count and the ratio to one worker, checks that every worker count wrote the
same file, and projects the time of 1,000,000 rows (from the wall time of each worker count, and from the CPU
time of the one-process run, which the machine's load moves much less). Bounded: it stops after the exports it was asked for.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from palaestra.core.registry import registry  # noqa: E402
from palaestra.integrations.export import export  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=20, help="problems per env and level")
    parser.add_argument("--rows", type=int, help="instead of --seeds: about this many rows in all")
    parser.add_argument("--levels", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--kind", default="verl", choices=["hf", "verl", "openrlhf"])
    parser.add_argument("--suffix", default=".jsonl", choices=[".jsonl", ".parquet"])
    args = parser.parse_args()
    ids = [s.id for s in registry.specs() if not getattr(s.cls, "toolchains", ())]  # code envs need no toolchain here
    seeds = args.seeds if args.rows is None else max(1, args.rows // (len(ids) * len(args.levels)))
    digests, rates = {}, {}
    with tempfile.TemporaryDirectory() as folder:
        for workers in args.workers:
            path = Path(folder) / f"rows-{workers}{args.suffix}"
            t0, cpu0 = time.perf_counter(), time.process_time()
            count = export(args.kind, ids, path, levels=args.levels, seeds=seeds, workers=workers)
            seconds, cpu = time.perf_counter() - t0, time.process_time() - cpu0
            rates[workers] = count / seconds
            digests[workers] = hashlib.sha256(path.read_bytes()).hexdigest()
            print(f"workers {workers}: {count:,} rows in {seconds:.1f} s = {rates[workers]:,.0f} rows/s "
                  f"(1M rows: {1_000_000 / rates[workers] / 60:.1f} min)", flush=True)
            if workers == 1:  # all the work in this process: its CPU time does not move with the machine's load
                print(f"  one process: {cpu / count * 1e3:.3f} CPU ms per row; 1M rows on 2 fully used cores: "
                      f"{cpu / count * 1_000_000 / 2 / 60:.1f} min", flush=True)
    base = args.workers[0]
    for workers in args.workers[1:]:
        print(f"{workers} workers / {base}: {rates[workers] / rates[base]:.2f}x")
    same = len(set(digests.values())) == 1
    print(f"{len(ids)} envs x {len(args.levels)} levels x {seeds} seeds; identical files for every worker count: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
