"""Benign latency under abuse: short jobs run alone, then interleaved with CPU hogs, per policy.

    python bench/fairness.py [--benign 50] [--hogs 50] [--hog-cpu 2] [--tier standard]
                             [--admission usage] [--cpu-policy levels] [--cpp 0] [--repeat 1] [--stagger 0]
                             [--hostile hogs|mix|shorts] [--jobs-weight 256]

A clean run submits ``--benign`` short Python jobs at once (one client thread each, so nothing
queues on the client side) and records each job's latency (the ``run`` call, submission to
result); the mixed run submits ``--hogs`` CPU hogs (four spinning threads each, until their
``--hog-cpu`` seconds of CPU) interleaved with the same number of short jobs. Prints the
median, 95th and 99th percentile of the short jobs' latency in both runs and their ratios (the
sandbox issue's target: within 2x of the clean run), once per combination of the server's
memory admission (``limits``: every run holds its whole memory limit, the policy before;
``usage``: a demoted long runner holds what its cgroup is charged) and CPU policy
(``demote-once``: full CPU weight until 0.1 s of CPU, then the lowest, the policy before;
``levels``: the weight falls in five levels as the CPU used grows), each on a backend of its
own, back to back in one run (``--repeat`` times, alternating), with the load average before each.
``--jobs-weight W`` (repeatable) also varies the CPU weight of all jobs together against the server and the
host (``LocalBackend(jobs_cpu_weight=W)``; 1024, the kernel's default, is what it was before).

``--stagger S`` also measures the short jobs arriving S seconds after the hogs, all at once (steady abuse:
the hogs have used CPU, and so can be told from short jobs, when these arrive), against the same clean run.

``--hostile mix`` makes the hostile jobs the kinds of abuse the hostile suite tries, in turn (a CPU hog, a fork bomb,
a memory balloon, an output flood, a sleeper, a file spammer), each stopped by one of its limits; the default, all
CPU hogs, is the hardest case for a scheduler that cannot see a job's future. ``--hostile shorts`` puts short jobs
like the counted ones in their place: the floor for any scheduler that cannot tell a hog from a short job before the
hog has used a short job's CPU (each hog then costs at least what a short job costs).

``--cpp N`` measures compiles the same way: N C++ jobs (a class and its driver, in the style of
the code environments; compiled with g++ -O2) alone, then interleaved with the hogs.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait

from palaestra.sandbox import ExecResult, Limits, LocalBackend
from palaestra.sandbox.local.cgroups import jobs_group_dir
from palaestra.sandbox.local.server import CPU_POLICIES, JOBS_SHARES

HOG = """
import threading
def spin():
    while True:
        pass
for _ in range(4):
    threading.Thread(target=spin, daemon=True).start()
spin()
"""
# --hostile mix: the kinds of abuse the hostile suite throws at the sandbox, in turn (each ends at a limit:
# its CPU seconds, its wall clock, its memory, its tasks, its output or its files).
HOSTILE_MIX = {
    "cpu hog": HOG,
    "fork bomb": """
import os
while True:
    try:
        os.fork()
    except OSError:
        pass
""",
    "memory balloon": """
chunks = []
while True:
    chunks.append(bytearray(1 << 20))
""",
    "output flood": """
import sys
while True:
    sys.stdout.write("x" * 65536)
""",
    "sleeper": """
import time
time.sleep(3600)
""",
    "file spam": """
i = 0
while True:
    with open(f"f{i}", "w") as f:
        f.write("x" * 4096)
    i += 1
""",
}
BENIGN = "print(sum(i * i for i in range({n})))"
CPP = """
#include <cstdio>
#include <list>
#include <string>
#include <unordered_map>
#include <vector>

class LruCache {
  public:
    explicit LruCache(std::size_t capacity) : capacity_(capacity) {}
    long long get(int key) {
        auto it = index_.find(key);
        if (it == index_.end()) return -1;
        order_.splice(order_.begin(), order_, it->second);
        return it->second->second;
    }
    void put(int key, long long value) {
        auto it = index_.find(key);
        if (it != index_.end()) order_.erase(it->second);
        order_.emplace_front(key, value);
        index_[key] = order_.begin();
        if (index_.size() > capacity_) {
            index_.erase(order_.back().first);
            order_.pop_back();
        }
    }
  private:
    std::size_t capacity_;
    std::list<std::pair<int, long long>> order_;
    std::unordered_map<int, std::list<std::pair<int, long long>>::iterator> index_;
};

int main() {
    LruCache cache(%d);
    std::vector<std::string> out;
    for (int i = 0; i < 1000; ++i) {
        cache.put(i %% 37, i);
        out.push_back(std::to_string(cache.get((i * 7) %% 37)));
    }
    std::printf("%%s\\n", out.back().c_str());
}
"""


def timed(backend: LocalBackend, source: str, language: str, limits: Limits) -> tuple[float, ExecResult]:
    start = time.perf_counter()
    result = backend.run(source, language=language, limits=limits)
    return time.perf_counter() - start, result


def run(
    backend: LocalBackend,
    counted: list[tuple[str, str]],
    hogs: int,
    hog_cpu: float,
    stagger: float = 0.0,
    hostile: tuple[str, ...] = (HOG,),
) -> tuple[list[float], list[str], str]:
    """Submit the counted jobs (source, language) interleaved with ``hogs`` hostile jobs (the ``hostile`` sources in
    turn), all at once (or, with ``stagger``, the hostile ones first and the counted jobs that many seconds later); the
    counted jobs' latencies (failed ones included), how each failed one failed, and a profile: the time until the last
    counted job ended, the counted jobs' own CPU, and the CPU all jobs had used by then."""
    short = Limits(wall_seconds=30, cpu_seconds=5, compile_seconds=30)
    hog = Limits(wall_seconds=hog_cpu * 10 + 10 + stagger, cpu_seconds=hog_cpu)
    jobs: list[tuple[str, str, Limits, bool]] = []
    for i in range(max(len(counted), hogs)):
        if i < hogs:
            jobs.append((hostile[i % len(hostile)], "python", hog, False))
        if i < len(counted):
            jobs.append((*counted[i], short, True))
    if stagger and hogs:
        jobs.sort(key=lambda job: job[3])  # the hogs first
    jobs_cpu = jobs_cpu_reader(backend)
    cpu_before, started = jobs_cpu(), time.perf_counter()
    with ThreadPoolExecutor(len(jobs)) as pool:
        futures = []
        for source, language, limits, c in jobs:
            if c and stagger and hogs and not any(counted for _, counted in futures):
                time.sleep(stagger)  # the hogs are running (and have been told apart) when the short jobs arrive
            futures.append((pool.submit(timed, backend, source, language, limits), c))
        wait([future for future, c in futures if c])
        until_last = time.perf_counter() - started
        cpu_until_last = jobs_cpu() - cpu_before
        latencies, failures, own_cpu = [], [], []
        for future, c in futures:
            seconds, result = future.result()
            if c:
                latencies.append(seconds)
                own_cpu.append(result.cpu_seconds)
                if not result.ok:
                    failures.append("compile timed out" if result.timed_out and result.compile_failed else str(result))
    profile = (
        f"until the last counted job ended: {until_last:.3f} s; the jobs' own CPU median {1000 * statistics.median(own_cpu):.1f} ms"
        + (
            f"; all jobs together used {cpu_until_last:.3f} CPU-s ({100 * cpu_until_last / (until_last * (os.cpu_count() or 1)):.0f}% of the CPUs)"
            if not math.isnan(cpu_until_last)
            else ""
        )
    )
    return latencies, failures, profile


def jobs_cpu_reader(backend: LocalBackend) -> Callable[[], float]:
    """A reader of the CPU seconds all of the backend's jobs have used (its slots' parent cgroup in the cpuacct
    controller); it reads NaN without one."""
    group = jobs_group_dir(backend.probe().server_dir, "cpuacct")
    path = os.path.join(group, "cpuacct.usage") if group is not None else ""

    def read() -> float:
        try:
            with open(path) as f:
                return int(f.read()) / 1e9
        except OSError:
            return float("nan")

    return read


def describe(latencies: list[float]) -> tuple[float, float, float]:
    ordered = sorted(latencies)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return statistics.median(ordered), at(0.95), at(0.99)


def report(
    what: str, clean_run: tuple[list[float], list[str], str], mixed_run: tuple[list[float], list[str], str]
) -> None:
    clean, mixed = describe(clean_run[0]), describe(mixed_run[0])
    for name, stats, (_, failures, profile) in (("clean", clean, clean_run), ("mixed", mixed, mixed_run)):
        failed = f"; {len(failures)} failed: {', '.join(sorted(set(failures)))}" if failures else ""
        print(f"  {what} {name}: median {stats[0]:.3f} s, p95 {stats[1]:.3f} s, p99 {stats[2]:.3f} s{failed}")
        print(f"    {profile}")
    ratios = ", ".join(f"{name} {m / c:.2f}x" for name, m, c in zip(("median", "p95", "p99"), mixed, clean))
    print(f"  {what} ratio: {ratios}", flush=True)


def host_busy(seconds: float = 1.0) -> float:
    """The share of the host's CPU time that went to anything but idle over ``seconds`` (other
    users' work, since none of ours runs then)."""

    def sample() -> tuple[int, int]:
        with open("/proc/stat") as f:
            ticks = [int(x) for x in f.readline().split()[1:]]
        return sum(ticks), ticks[3] + ticks[4]  # all, idle + iowait

    total, idle = sample()
    time.sleep(seconds)
    total2, idle2 = sample()
    return 1 - (idle2 - idle) / max(1, total2 - total)


def measure(args: argparse.Namespace, admission: str, cpu_policy: str, jobs_weight: int) -> None:
    kwargs = {"tier": args.tier} if args.tier else {}
    load = "load %.2f %.2f %.2f, host %.0f%% busy" % (*os.getloadavg(), 100 * host_busy())
    backend = LocalBackend(memory_admission=admission, cpu_policy=cpu_policy, jobs_cpu_weight=jobs_weight, **kwargs)
    try:
        backend.run("pass")
        tier = backend.probe().tier
        benign = [(BENIGN.format(n=100_000 + i), "python") for i in range(args.benign)]
        hostile = {
            "hogs": (HOG,),
            "mix": tuple(HOSTILE_MIX.values()),
            "shorts": (BENIGN.format(n=100_000),),
        }[args.hostile]
        clean = run(backend, benign, 0, args.hog_cpu)
        mixed = run(backend, benign, args.hogs, args.hog_cpu, hostile=hostile)
        what = {
            "hogs": f"hogs of {args.hog_cpu:g} s CPU",
            "mix": f"hostile jobs ({', '.join(HOSTILE_MIX)})",
            "shorts": "more short jobs in place of hostile ones (the floor)",
        }[args.hostile]
        print(
            f"admission by {admission}, cpu policy {cpu_policy}, jobs' weight {jobs_weight}, tier {tier} ({load}): "
            f"{args.benign} short jobs; {args.hogs} {what}"
        )
        report("short", clean, mixed)
        if args.stagger:
            print(f"  the hostile jobs {args.stagger:g} s ahead of the short jobs (steady abuse):")
            report("short", clean, run(backend, benign, args.hogs, args.hog_cpu, args.stagger, hostile))
        if args.cpp:
            compiles = [(CPP % (10 + i), "cpp") for i in range(args.cpp)]
            report(
                "c++",
                run(backend, compiles, 0, args.hog_cpu),
                run(backend, compiles, args.hogs, args.hog_cpu, hostile=hostile),
            )
    finally:
        backend.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--benign", type=int, default=50)
    parser.add_argument("--hogs", type=int, default=50)
    parser.add_argument("--hog-cpu", type=float, default=2.0, help="each hostile job's CPU limit (wall: 10x + 10 s)")
    parser.add_argument(
        "--hostile",
        choices=("hogs", "mix", "shorts"),
        default="hogs",
        help="hogs: every hostile job a CPU hog (default); mix: "
        + ", ".join(HOSTILE_MIX)
        + " in turn; shorts: short jobs in their place (the floor)",
    )
    parser.add_argument("--tier", default=None, help="a tier to run at (default: the strongest the host allows)")
    parser.add_argument("--admission", choices=("limits", "usage"), action="append", help="default: both")
    parser.add_argument(
        "--cpu-policy", choices=sorted(CPU_POLICIES), action="append", help="default: demote-once, levels"
    )
    parser.add_argument(
        "--jobs-weight",
        type=int,
        action="append",
        help=f"the CPU weight of all jobs together against a nice-0 process (default {JOBS_SHARES}; 1024: as before)",
    )
    parser.add_argument("--cpp", type=int, default=0, help="C++ compile jobs to measure too (default: none)")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument(
        "--stagger",
        type=float,
        default=0.0,
        help="also measure the short jobs arriving this many seconds after the hogs (default: not measured)",
    )
    args = parser.parse_args()
    combinations = list(
        itertools.product(
            args.admission or ("limits", "usage"),
            args.cpu_policy or ("demote-once", "levels"),
            args.jobs_weight or (JOBS_SHARES,),
        )
    )
    for round_ in range(args.repeat):
        if args.repeat > 1:
            print(f"round {round_ + 1} of {args.repeat}")
        for admission, cpu_policy, jobs_weight in combinations:
            measure(args, admission, cpu_policy, jobs_weight)


if __name__ == "__main__":
    main()
