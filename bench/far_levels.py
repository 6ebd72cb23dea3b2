"""Generate every unbounded env far past its presets and list the levels that raise or stall.

    python bench/far_levels.py                          # levels 12, 20 and 40, seeds 0-2, every unbounded env
    python bench/far_levels.py --envs words/anagram --levels 20 40 --seeds 1

An env is unbounded when it declares a ``growth`` rule (or an ``extrapolate`` method): its levels
never end, so level 40 must give a valid problem as level 4 does (a parameter that cannot grow
further, such as a word list's length, is capped by the rule's ``limits`` and the difficulty
saturates). Each problem may take :data:`palaestra.kit.levels.GENERATE_CPU_SECONDS` of CPU time
(a profiling timer interrupts it); a problem that raises, stalls or comes back without a reference
(single-turn) is a failure. Prints one line per failing ``(env, level, seed)`` and a summary.
"""

from __future__ import annotations

import argparse
import signal
import time
from collections.abc import Iterator
from types import FrameType

from palaestra.core.registry import make_source, registry
from palaestra.core.task import Task
from palaestra.kit.levels import GENERATE_CPU_SECONDS


class Stalled(Exception):
    """Generation ran past its CPU budget."""


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise Stalled(f"more than {GENERATE_CPU_SECONDS} s of CPU")


def unbounded_ids() -> list[str]:
    return sorted(env_id for env_id in registry.ids() if make_source(env_id).unbounded)


def failures(env_id: str, levels: list[int], seeds: int) -> Iterator[str]:
    """``level seed: why`` for every problem of ``env_id`` at ``levels`` that raises, stalls or has no reference."""
    source = make_source(env_id)
    for level in levels:
        for seed in range(seeds):
            started = time.process_time()
            signal.setitimer(signal.ITIMER_PROF, GENERATE_CPU_SECONDS)
            try:
                problem = source.sample(level, seed)
            except Exception as exc:  # noqa: BLE001 - every failure is reported, none stops the scan
                yield f"level {level} seed {seed}: {type(exc).__name__}: {str(exc)[:150]}"
                continue
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
            if isinstance(source, Task) and problem.answer is None:
                yield f"level {level} seed {seed}: no reference answer"
            spent = time.process_time() - started
            if spent > GENERATE_CPU_SECONDS:  # a C call the timer could not interrupt
                yield f"level {level} seed {seed}: {spent:.2f} s of CPU"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--envs", nargs="*", help="env ids (default: every unbounded env)")
    parser.add_argument("--levels", nargs="*", type=int, default=[12, 20, 40])
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    signal.signal(signal.SIGPROF, _interrupt)
    ids = args.envs or unbounded_ids()
    failing = 0
    for env_id in ids:
        found = list(failures(env_id, args.levels, args.seeds))
        failing += bool(found)
        for line in found:
            print(f"{env_id} {line}", flush=True)
    print(f"{failing} of {len(ids)} unbounded envs fail at levels {args.levels} (seeds 0-{args.seeds - 1})")


if __name__ == "__main__":
    main()
