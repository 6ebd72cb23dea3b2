# INSTALL: [["pip", "install", "gem-llm==0.1.0"]]
"""Measures GEM's vector env throughput inside its own virtual environment, for bench/vector.py.

Run by that venv's python, never palaestra's::

    python -m venv bench/.venv-gem
    bench/.venv-gem/bin/python -m pip install gem-llm==0.1.0
    bench/.venv-gem/bin/python bench/gem_worker.py [NUM_ENVS [GAME ...]]      # default 64, no games

The install steps are the JSON on line 1 (``# INSTALL: [[argv...], ...]``): each entry is the
argv to run after ``<venv>/bin/python -m``.  A caller reads them without importing this file::

    json.loads(open("bench/gem_worker.py").readline().removeprefix("# INSTALL:"))

``gem-llm`` 0.1.0 pulls nltk, math-verify, msgspec, numpy, sympy, matplotlib and reasoning-gym
(~370 MB venv, no torch: torch is only in its ``search`` extra), so a plain install is used.

What is measured (GEM API, read from ``gem/envs/registration.py`` and ``gem/vector/*``):

- ``gem.make_vec([ENV_ID] * n, async_mode=False|True, seed=0, **kwargs)`` builds ``n`` copies:
  ``SyncVectorEnv`` steps them in a for loop, ``AsyncVectorEnv`` maps them over a
  ``ThreadPoolExecutor(max_workers=n)``.  Both autoreset in SAME_STEP mode (the default of
  ``VectorEnv``): when an env ends, the step returns that step's reward/terminated/truncated but the
  *new* episode's first observation (the terminal observation is dropped).
- ``step(list[str])`` -> ``(list[str] obs, float64[n] rewards, bool[n] terminated,
  bool[n] truncated, list[dict] infos)``; obs and infos are deep-copied every step.
- ``game:GuessTheNumber-v0-hard``: a number in 1..50, 7 turns; a guess is the last ``\\boxed{k}``.
  At vector step t every env gets ``\\boxed{t % 50 + 1}``: episodes last at most 7 steps, so every
  guess is fresh, in range and well formed -- a real game step.
- GAME (a palaestra game name) adds GEM's version of that game, configured like palaestra's
  level 0 (``GAMES`` below), played by a uniformly random *legal* move read from each env's
  state (hidden cells, code length, directions), drawn outside the timed region. GEM's Hangman
  and Wordle are not offered: they call ``nltk.download`` at construction (network).

Only the time inside ``vec.step`` counts: for the sync vector env in CPU seconds of this process
(the machine may be shared; this is the rate the loop gets from one idle core), for the async
(threads) one in wall seconds. Each rate is the median of ``REPEATS`` runs after a warm-up.

Prints one JSON line: ``{"gem_version", "env_id", "sync_steps_per_s", "async_steps_per_s",
"import_seconds", "games": {GAME: {"env_id", "kwargs", "steps_per_s", "steps_per_episode"}}}``.
"""

from __future__ import annotations

import contextlib
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

ENV_ID = "game:GuessTheNumber-v0-hard"
REPEATS, SECONDS, WARMUP_SECONDS = 3, 0.3, 0.1

with open(__file__, encoding="utf-8") as _f:
    INSTALL: list[list[str]] = json.loads(_f.readline().removeprefix("# INSTALL:"))

Policy = Callable[[Any, random.Random], str]


def _minesweeper(env: Any, rng: random.Random) -> str:
    hidden = [(r, c) for r in range(env.rows) for c in range(env.cols) if not env.revealed[r][c]]
    return "\\boxed{reveal %d %d}" % rng.choice(hidden)


def _direction(env: Any, rng: random.Random) -> str:
    return "\\boxed{%s}" % rng.choice(("up", "down", "left", "right"))


def _mastermind(env: Any, rng: random.Random) -> str:
    return "\\boxed{%s}" % " ".join(str(rng.randint(1, env.num_numbers)) for _ in range(env.code_length))


# palaestra game -> (GEM id, constructor kwargs matching palaestra's level 0, random legal move)
GAMES: dict[str, tuple[str, dict[str, Any], Policy]] = {
    "minesweeper": ("game:Minesweeper-v0-easy", {"rows": 5, "cols": 5, "num_mines": 3, "max_turns": 12}, _minesweeper),
    "sokoban": ("game:Sokoban-v0-easy", {"dim_room": (7, 7), "num_boxes": 1, "max_turns": 12}, _direction),
    "mastermind": ("game:Mastermind-v0-easy", {"code_length": 4, "num_numbers": 6, "max_turns": 10,
                                               "duplicate_numbers": True}, _mastermind),
    "game_2048": ("game:Game2048-v0-easy", {"board_size": 3, "target_tile": 32, "max_turns": 29}, _direction),
}


def timed_rate(vec: Any, num_envs: int, actions: Callable[[], list[str]], clock: Callable[[], float],
               seconds: float, totals: dict[str, int]) -> float:
    """Steps ``vec`` until ``seconds`` of ``clock`` were spent inside ``step``; env-steps per second."""
    spent, steps = 0.0, 0
    while spent < seconds:
        batch = actions()
        t0 = clock()
        _, _, terminated, truncated, _ = vec.step(batch)
        spent += clock() - t0
        steps += num_envs
        totals["episodes"] += int((terminated | truncated).sum())
    totals["steps"] += steps
    return steps / spent


def median_rate(vec: Any, num_envs: int, actions: Callable[[], list[str]], clock: Callable[[], float]) -> tuple[float, float]:
    totals = {"steps": 0, "episodes": 0}
    timed_rate(vec, num_envs, actions, clock, WARMUP_SECONDS, totals)
    rate = statistics.median(timed_rate(vec, num_envs, actions, clock, SECONDS, totals) for _ in range(REPEATS))
    return rate, totals["steps"] / max(1, totals["episodes"])


def make_vec(gem: Any, env_id: str, num_envs: int, async_mode: bool, **kwargs: Any) -> Any:
    with contextlib.redirect_stdout(sys.stderr):  # make_vec prints "SyncVectorEnv with N environments."
        vec = gem.make_vec([env_id] * num_envs, async_mode=async_mode, seed=0, **kwargs)
    vec.reset(seed=0)
    return vec


def guess_rate(gem: Any, num_envs: int, async_mode: bool) -> float:
    vec = make_vec(gem, ENV_ID, num_envs, async_mode)
    guesses = [["\\boxed{%d}" % (k + 1)] * num_envs for k in range(50)]
    tick = [0]

    def actions() -> list[str]:
        tick[0] += 1
        return guesses[tick[0] % 50]

    try:
        return median_rate(vec, num_envs, actions, time.perf_counter if async_mode else time.process_time)[0]
    finally:
        if async_mode:
            vec.thread_pool_executer.shutdown()  # sic: GEM's attribute name


def game_rate(gem: Any, game: str, num_envs: int) -> dict[str, Any]:
    env_id, kwargs, policy = GAMES[game]
    vec = make_vec(gem, env_id, num_envs, False, **kwargs)
    rng = random.Random(0)
    rate, per_episode = median_rate(vec, num_envs, lambda: [policy(env, rng) for env in vec.envs], time.process_time)
    return {"env_id": env_id, "kwargs": {k: list(v) if isinstance(v, tuple) else v for k, v in kwargs.items()},
            "steps_per_s": rate, "steps_per_episode": per_episode}


def main(argv: list[str]) -> None:
    num_envs = int(argv[0]) if argv else 64
    games = [g for g in argv[1:] if g in GAMES]
    t0 = time.perf_counter()
    import gem  # imports reasoning_gym too, hence the import time

    import_seconds = time.perf_counter() - t0
    from importlib.metadata import version

    print(json.dumps({
        "gem_version": version("gem-llm"),
        "env_id": ENV_ID,
        "num_envs": num_envs,
        "sync_steps_per_s": guess_rate(gem, num_envs, async_mode=False),
        "async_steps_per_s": guess_rate(gem, num_envs, async_mode=True),
        "import_seconds": import_seconds,
        "games": {game: game_rate(gem, game, num_envs) for game in games},
    }))


if __name__ == "__main__":
    main(sys.argv[1:])
