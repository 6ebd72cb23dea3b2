"""The contract kit's cost per env at CI settings, and what CI would take at 500 and 1,000 envs.

Run::

    python bench/kit_cost.py [--sample 40] [--seed 0] [--rest 200] [--cores 2] [ENV_ID ...]

For a random sample of registered envs (or the ids given), every in-process check of
``palaestra.kit.CHECKS`` runs at ``Settings.ci()`` in this process, the checks of one env one
after another as the test suite runs them (one worker holds all of an env's checks, so the
problems they share are generated once). Each env is timed in CPU seconds of this process
(``time.process_time``: the machine may be shared, and CI's cores are busy with nothing else),
so the numbers do not depend on the load; the sandbox's children (compilers, interpreters)
are not counted, which the ``--rest`` share of the projection absorbs for the code envs'
other tests.

Prints the per-env distribution (mean, median, p90, max), the share of each check, and the
projection ``collection + rest + envs * (mean per env + determinism across processes) / cores``
for the current registry size, 500 and 1,000 envs. ``--rest`` is the CPU seconds of the rest of
the suite (everything but ``tests/contract``), measured from a full run
(``pytest -n 2 --junitxml``); it does not grow with the number of envs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict

from palaestra import kit
from palaestra.core.registry import make_source, registry

IN_PROCESS = [name for name in kit.CHECKS if name != "determinism_across_processes"]


def measure(env_ids: list[str], settings: kit.Settings) -> tuple[dict[str, float], dict[str, float], list[str]]:
    """CPU seconds per env (all its in-process checks) and per check (summed over envs); failed checks."""
    per_env: dict[str, float] = {}
    per_check: dict[str, float] = defaultdict(float)
    failures = []
    for env_id in env_ids:
        total = 0.0
        for name in IN_PROCESS:
            start = time.process_time()
            result = kit.run_check(env_id, name, settings)
            spent = time.process_time() - start
            per_check[name] += spent
            total += spent
            if not result.ok:
                failures.append(f"{env_id} {name}: {result.detail[:160]}")
        start = time.process_time()
        kit._fingerprint(make_source(env_id), settings.fingerprint_seeds)  # across processes: once here, once there
        total += 2 * (time.process_time() - start)
        per_env[env_id] = total
        print(f"  {env_id:40} {total:7.2f} s", file=sys.stderr, flush=True)
    return per_env, dict(per_check), failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("ids", nargs="*")
    parser.add_argument("--sample", type=int, default=40, help="how many envs to sample (default 40)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rest", type=float, default=200.0,
                        help="CPU seconds of the suite outside tests/contract (from a full run)")
    parser.add_argument("--collection", type=float, default=20.0, help="wall seconds of collection (per worker)")
    parser.add_argument("--cores", type=int, default=2)
    args = parser.parse_args(argv)
    all_ids = registry.ids()
    env_ids = args.ids or sorted(random.Random(args.seed).sample(all_ids, min(args.sample, len(all_ids))))
    per_env, per_check, failures = measure(env_ids, kit.Settings.ci())
    costs = sorted(per_env.values())
    mean = statistics.fmean(costs)
    p90 = costs[min(len(costs) - 1, int(0.9 * len(costs)))]
    print(f"kit at CI settings, {len(costs)} envs, CPU seconds per env: mean {mean:.2f}, median "
          f"{statistics.median(costs):.2f}, p90 {p90:.2f}, max {costs[-1]:.2f} ({max(per_env, key=per_env.get)})")
    spent = sum(per_check.values())
    print("share per check: " + ", ".join(f"{name} {seconds / spent:.0%}" for name, seconds in
                                          sorted(per_check.items(), key=lambda item: -item[1]) if seconds / spent >= 0.01))
    for count in (len(all_ids), 500, 1_000):
        minutes = (args.collection + (args.rest + count * mean) / args.cores) / 60
        print(f"projected CI pytest time at {count:5} envs on {args.cores} cores: {minutes:.1f} min")
    for line in failures:
        print("FAILED", line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
