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
projected wall time of CI's pytest on ``--cores`` cores at the current registry size, 500 and 1,000
envs::

    rest * ((1 - growing) + growing * envs / current) + envs * mean / cores

``--rest`` is the wall seconds of everything but the contract kit (collection included) on idle
cores, ``--growing`` the share of it that grows with the env count (the per-family tests under
``tests/envs`` and ``tests/code``); both come from a full run (``pytest -n 2 --junitxml``, see
the README's test section). The kit's CPU seconds divide over the cores: one worker holds all of
an env's checks, and envs are spread over the workers.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

from palaestra import kit
from palaestra.catalog import golden_problem
from palaestra.core.registry import make_source, registry

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "tests" / "golden"
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
        golden_problem(env_id, GOLDEN_DIR, sample=kit.sample)  # the per-env golden test, on the shared problems
        middle = time.process_time()
        kit._fingerprint(make_source(env_id), settings.fingerprint_seeds)  # across processes: once here, once there
        total += (middle - start) + 2 * (time.process_time() - middle)
        per_env[env_id] = total
        print(f"  {env_id:40} {total:7.2f} s", file=sys.stderr, flush=True)
    return per_env, dict(per_check), failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("ids", nargs="*")
    parser.add_argument("--sample", type=int, default=40, help="how many envs to sample (default 40)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rest", type=float, default=192.0,
                        help="wall seconds of the suite outside the kit on idle cores, collection included")
    parser.add_argument("--growing", type=float, default=0.5,
                        help="the share of --rest that grows with the env count (per-family tests)")
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
        rest = args.rest * ((1 - args.growing) + args.growing * count / len(all_ids))
        minutes = (rest + count * mean / args.cores) / 60
        print(f"projected CI pytest time at {count:5} envs on {args.cores} cores: {minutes:.1f} min "
              f"(kit {count * mean / args.cores / 60:.1f}, rest {rest / 60:.1f})")
    for line in failures:
        print("FAILED", line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
