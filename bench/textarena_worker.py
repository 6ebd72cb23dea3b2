# INSTALL: [["pip", "install", "textarena==0.7.4", "numpy"]]
"""Measures TextArena game throughput inside its own virtual environment, for bench/vector.py.

Run by that venv's python, never palaestra's::

    python -m venv bench/.venv-textarena
    bench/.venv-textarena/bin/python -m pip install textarena==0.7.4
    bench/.venv-textarena/bin/python bench/textarena_worker.py NUM_ENVS GAME [GAME ...]

GAME is a palaestra game name (``tic_tac_toe``, ``minesweeper``...); the ones TextArena has no
offline counterpart for are left out of the answer. The install line is the JSON on line 1, as in
bench/gem_worker.py. TextArena 0.7.4 has no vector env: NUM_ENVS envs are stepped in a for loop
with same-step autoreset (an env whose game ended is closed and reset in the same step), the
leanest loop a caller can write (no info batching, unlike a Gymnasium vector env).

What one env-step is (TextArena API, read from ``textarena/core.py``, ``state.py`` and the envs):
``env.step(action)`` then ``env.get_observation()`` -- the next player's prompt text, rendered by
the ``-train`` wrappers (prompt, game messages, current board), i.e. the text a trainer feeds
the model. In two-player games (tic-tac-toe, Connect Four, Nim) both seats are played by the
same policy and each move is one env-step; in palaestra one step is the model's move plus the
scripted opponent's reply.

The policy plays a uniformly random *legal* move, read from the env's own state (the board, the
revealed cells, the heaps); it is drawn outside the timed region. Only the time inside
step + observation (+ close and reset when a game ends) is counted, in CPU seconds of this
process (the machine may be shared; this is the rate the loop gets from one idle core).

Hangman and Wordle are not offered: TextArena's versions call ``nltk.download`` at reset,
which needs the network.

Prints one JSON line: ``{"textarena_version", "games": {GAME: {"env_id", "kwargs",
"steps_per_s", "steps_per_episode"}}}``.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from importlib.metadata import version
from typing import Any

REPEATS, SECONDS, WARMUP_SECONDS = 3, 0.3, 0.1

# palaestra game -> (TextArena id, constructor kwargs matching palaestra's level 0, players)
GAMES: dict[str, tuple[str, dict[str, Any], int]] = {
    "tic_tac_toe": ("TicTacToe-v0-train", {}, 2),
    "connect_four": ("ConnectFour-v0-train", {"num_rows": 6, "num_cols": 7}, 2),
    "minesweeper": ("Minesweeper-v0-train", {"rows": 5, "cols": 5, "num_mines": 3, "max_turns": 12}, 1),
    "sokoban": ("Sokoban-v0-train", {"dim_room": (7, 7), "num_boxes": 1, "max_turns": 12}, 1),
    "mastermind": ("Mastermind-v0-train", {"code_length": 4, "num_numbers": 6, "max_turns": 10,
                                           "duplicate_numbers": True}, 1),
    "nim": ("Nim-v0-train", {"piles": [4, 5, 6]}, 2),
    "lights_out": ("LightsOut-v0", {"size": 4, "max_turns": 10}, 1),  # its -train wrapper finds no board
    "game_2048": ("2048-v0-train", {"board_size": 3, "target_tile": 32}, 1),
}

Policy = Callable[[Any, random.Random], str]


def _base(env: Any) -> Any:
    for _ in range(10):  # unwrap the observation/action wrappers
        if not hasattr(env, "env"):
            break
        env = env.env
    return env


def _tic_tac_toe(env: Any, rng: random.Random) -> str:
    board = env.state.game_state["board"]
    return "[%d]" % rng.choice([r * 3 + c for r in range(3) for c in range(3) if board[r][c] == ""])


def _connect_four(env: Any, rng: random.Random) -> str:
    top = env.state.game_state["board"][0]
    return "[col %d]" % rng.choice([c for c, cell in enumerate(top) if cell == "."])


def _minesweeper(env: Any, rng: random.Random) -> str:
    hidden = [(r, c) for r in range(env.rows) for c in range(env.cols) if not env.revealed[r][c]]
    return "[%d %d]" % rng.choice(hidden)


def _direction(env: Any, rng: random.Random) -> str:
    return "[%s]" % rng.choice(("up", "down", "left", "right"))


def _mastermind(env: Any, rng: random.Random) -> str:
    return "[%s]" % " ".join(str(rng.randint(1, env.num_numbers)) for _ in range(env.code_length))


def _nim(env: Any, rng: random.Random) -> str:
    piles = env.state.game_state["piles"]
    pile = rng.choice([i for i, count in enumerate(piles) if count > 0])
    return "[%d %d]" % (pile, rng.randint(1, piles[pile]))


def _lights_out(env: Any, rng: random.Random) -> str:
    return "[%d %d]" % (rng.randrange(env.size), rng.randrange(env.size))


POLICIES: dict[str, Policy] = {
    "tic_tac_toe": _tic_tac_toe, "connect_four": _connect_four, "minesweeper": _minesweeper,
    "sokoban": _direction, "mastermind": _mastermind, "nim": _nim, "lights_out": _lights_out,
    "game_2048": _direction,
}


def _reset(env: Any, players: int, seed: int) -> int:
    """Resets ``env`` with the first seed from ``seed`` on that TextArena can start; returns the next seed.

    TextArena 0.7.4's LightsOut divides by the number of lit cells, so a scramble that leaves
    the board dark raises ZeroDivisionError at reset: that seed is skipped.
    """
    for attempt in range(20):
        try:
            env.reset(num_players=players, seed=seed + attempt)
            return seed + attempt + 1
        except ZeroDivisionError:
            continue
    raise RuntimeError(f"no seed from {seed} starts {env}")


def measure(ta: Any, game: str, num_envs: int) -> dict[str, Any]:
    env_id, kwargs, players = GAMES[game]
    policy = POLICIES[game]
    envs = [ta.make(env_id, **kwargs) for _ in range(num_envs)]
    bases = [_base(env) for env in envs]
    next_seed = 0
    for env in envs:
        next_seed = _reset(env, players, next_seed)
        env.get_observation()
    rng = random.Random(0)
    totals = {"steps": 0, "episodes": 0}

    def run(seconds: float) -> float:
        nonlocal next_seed
        spent, steps = 0.0, 0
        while spent < seconds:
            actions = [policy(base, rng) for base in bases]
            t0 = time.process_time()
            for i, env in enumerate(envs):
                done, _ = env.step(actions[i])
                if done:
                    env.close()
                    next_seed = _reset(env, players, next_seed)
                    totals["episodes"] += 1
                env.get_observation()
            spent += time.process_time() - t0
            steps += num_envs
        totals["steps"] += steps
        return steps / spent

    run(WARMUP_SECONDS)
    rates = [run(SECONDS) for _ in range(REPEATS)]
    return {"env_id": env_id, "kwargs": {k: list(v) if isinstance(v, tuple) else v for k, v in kwargs.items()},
            "steps_per_s": statistics.median(rates),
            "steps_per_episode": totals["steps"] / max(1, totals["episodes"])}


def main(argv: list[str]) -> None:
    num_envs, games = int(argv[0]), [g for g in argv[1:] if g in GAMES]
    import textarena as ta

    print(json.dumps({"textarena_version": version("textarena"),
                      "games": {game: measure(ta, game, num_envs) for game in games}}))


if __name__ == "__main__":
    main(sys.argv[1:])
