# INSTALL: [["pip", "install", "gem-llm==0.1.0"]]
"""Measures GEM's vector env throughput inside its own virtual environment.

Run by that venv's python, never palaestra's::

    python -m venv bench/.venv-gem
    bench/.venv-gem/bin/python -m pip install gem-llm==0.1.0
    bench/.venv-gem/bin/python bench/gem_worker.py [NUM_ENVS]      # default 64

The install steps are the JSON on line 1 (``# INSTALL: [[argv...], ...]``): each entry is the
argv to run after ``<venv>/bin/python -m``.  A caller reads them without importing this file::

    json.loads(open("bench/gem_worker.py").readline().removeprefix("# INSTALL:"))

``gem-llm`` 0.1.0 pulls nltk, math-verify, msgspec, numpy, sympy, matplotlib and reasoning-gym
(~370 MB venv, no torch: torch is only in its ``search`` extra), so a plain install is used.

What is measured (GEM API, read from ``gem/envs/registration.py`` and ``gem/vector/*``):

- ``gem.make_vec([ENV_ID] * n, async_mode=False|True, seed=0)`` builds ``n`` copies:
  ``SyncVectorEnv`` steps them in a for loop, ``AsyncVectorEnv`` maps them over a
  ``ThreadPoolExecutor(max_workers=n)``.  Both autoreset in SAME_STEP mode (the default of
  ``VectorEnv``): when an env ends, the step returns that step's reward/terminated/truncated but the
  *new* episode's first observation (the terminal observation is dropped).
- ``reset(seed=0)`` -> ``(list[str] observations, list[dict] infos)``; env i gets seed ``0 + i``.
- ``step(list[str])`` -> ``(list[str] obs, float64[n] rewards, bool[n] terminated,
  bool[n] truncated, list[dict] infos)``; obs and infos are deep-copied every step.
- ``game:GuessTheNumber-v0-hard``: a number in 1..50, 7 turns; a guess is the last ``\\boxed{k}``.
  At vector step t every env gets ``\\boxed{t % 50 + 1}``: episodes last at most 7 steps, so every
  guess is fresh, in range and well formed -- a real game step (hint reward 0, correct guess reward 1
  and terminated, 7th turn terminated and truncated with reward 1 - distance / 49).

Prints one JSON line: env-steps per second (num_envs x vector steps per second), median of
``REPEATS`` timed runs of ``SECONDS`` each after a warm-up, for the sync and the async vector env.
"""

from __future__ import annotations

import contextlib
import json
import statistics
import sys
import time
from typing import Any

ENV_ID = "game:GuessTheNumber-v0-hard"
REPEATS, SECONDS, WARMUP_SECONDS = 5, 1.0, 0.3

with open(__file__, encoding="utf-8") as _f:
    INSTALL: list[list[str]] = json.loads(_f.readline().removeprefix("# INSTALL:"))


def steps_per_second(vec: Any, num_envs: int, seconds: float) -> float:
    """Steps ``vec`` with fresh valid guesses for ``seconds``; returns env-steps per second."""
    actions = [["\\boxed{%d}" % (k + 1)] * num_envs for k in range(50)]
    steps, t0 = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - t0) < seconds:
        vec.step(actions[steps % 50])
        steps += 1
    return steps * num_envs / elapsed


def measure(gem: Any, num_envs: int, async_mode: bool) -> float:
    with contextlib.redirect_stdout(sys.stderr):  # make_vec prints "SyncVectorEnv with N environments."
        vec = gem.make_vec([ENV_ID] * num_envs, async_mode=async_mode, seed=0)
    vec.reset(seed=0)
    steps_per_second(vec, num_envs, WARMUP_SECONDS)
    rates = [steps_per_second(vec, num_envs, SECONDS) for _ in range(REPEATS)]
    if async_mode:
        vec.thread_pool_executer.shutdown()  # sic: GEM's attribute name
    return statistics.median(rates)


def main(argv: list[str]) -> None:
    num_envs = int(argv[0]) if argv else 64
    t0 = time.perf_counter()
    import gem  # imports reasoning_gym too, hence the import time

    import_seconds = time.perf_counter() - t0
    from importlib.metadata import version

    print(json.dumps({
        "gem_version": version("gem-llm"),
        "env_id": ENV_ID,
        "num_envs": num_envs,
        "sync_steps_per_s": measure(gem, num_envs, async_mode=False),
        "async_steps_per_s": measure(gem, num_envs, async_mode=True),
        "import_seconds": import_seconds,
        "notes": (f"gem.make_vec([{ENV_ID!r}]*N, async_mode=...), SAME_STEP autoreset; "
                  "action '\\boxed{t%50+1}' at vector step t (always a fresh valid guess); "
                  f"median of {REPEATS} runs of {SECONDS}s after {WARMUP_SECONDS}s warm-up; "
                  "async = ThreadPoolExecutor(max_workers=N), GIL-bound"),
    }))


if __name__ == "__main__":
    main(sys.argv[1:])
