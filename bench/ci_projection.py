"""CI's pytest time at more envs, projected from a real run's per-test times.

Run the suite as CI does, with a JUnit report, then project::

    CI=true python -m pytest -n auto -q --junitxml=/tmp/ci.xml
    python bench/ci_projection.py /tmp/ci.xml [--workers 3] [--envs 500 1000]

``--workers`` is the run's worker count: ``-n auto`` starts one more than the CPUs (3 on CI's 2-core host; see
``tests/conftest.py``), ``-n 2`` two. With more workers than cores the test times stretch by the sharing, and the
sum divided by the workers is still the wall time the tests fill.

The report gives every test's time. The per-env part of the suite is the contract kit's tests of
each env (``tests/contract/test_kit.py``: every check, the golden snapshot, determinism across
processes) plus the per-family tests (``tests/envs``, ``tests/code``), which grow with the env
count; everything else is taken as fixed. Test times add up over the workers; what the run's wall
time holds beyond their sum divided by the workers (collection, start-up, the last worker's tail) is
kept as a fixed overhead. At N envs::

    overhead + (kit * N / E + growing * N / E + fixed) / workers

with E the envs of the run, and each added env costing the run's mean (the envs added since round 2
cost about that: the code and proof envs' sandbox jobs are in the mean).
"""

from __future__ import annotations

import argparse
import re
import xml.etree.ElementTree as ET
from collections import defaultdict

KIT = "tests.contract.test_kit"
GROWING = ("tests.envs.", "tests.code.")
PER_ENV = re.compile(r"^test_(?:contract|golden_snapshot|determinism_across_processes)\[(?P<env>[a-z0-9_]+/[a-z0-9_]+)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("junit", help="the report of `pytest --junitxml=FILE` (a full CI-mode run)")
    parser.add_argument("--workers", type=int, default=3,
                        help="pytest-xdist workers of that run (-n; -n auto on a 2-CPU host: 3)")
    parser.add_argument("--envs", type=int, nargs="*", default=[500, 1000], help="env counts to project to")
    args = parser.parse_args(argv)

    suite = ET.parse(args.junit).getroot().find("testsuite")
    if suite is None:
        parser.error(f"{args.junit}: no <testsuite> element: not a pytest JUnit report")
    wall = float(suite.get("time") or 0)
    per_env: dict[str, float] = defaultdict(float)
    growing = fixed = 0.0
    for case in suite.iter("testcase"):
        seconds = float(case.get("time") or 0)
        classname, name = case.get("classname") or "", case.get("name") or ""
        match = PER_ENV.match(name) if classname == KIT else None
        if match:
            per_env[match["env"]] += seconds
        elif classname.startswith(GROWING):
            growing += seconds
        else:
            fixed += seconds
    envs = len(per_env)
    if not envs:
        parser.error(f"{args.junit}: no contract-kit tests in the report: run the whole suite")
    kit = sum(per_env.values())
    overhead = max(0.0, wall - (kit + growing + fixed) / args.workers)
    print(f"{args.junit}: {envs} envs, pytest wall {wall / 60:.1f} min on {args.workers} workers; test seconds "
          f"summed: kit {kit:.0f} ({kit / envs:.2f} per env), per-family {growing:.0f}, the rest {fixed:.0f}; "
          f"overhead beyond the workers' share {overhead:.0f} s")
    heaviest = sorted(per_env.items(), key=lambda item: -item[1])[:5]
    print("heaviest envs (kit test seconds): " + ", ".join(f"{env} {seconds:.1f}" for env, seconds in heaviest))
    for count in [envs, *args.envs]:
        scale = count / envs
        seconds = overhead + (kit * scale + growing * scale + fixed) / args.workers
        print(f"projected pytest wall at {count:5} envs on {args.workers} workers: {seconds / 60:5.1f} min")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
