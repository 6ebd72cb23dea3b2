"""Vector-env throughput: palaestra's sync and async modes against GEM and TextArena, in one run.

    python bench/vector.py            # installs gem-llm / textarena into bench/.venv-* on first use
    python bench/vector.py --no-peer  # palaestra only
    python bench/vector.py --costly 2 # only (d), the costly steps, twice

(a) 64 copies of a cheap multi-turn game, env-steps per second, sync and async, side by side
    with GEM's sync and thread-based async vector env on its own guess-the-number game
    (measured by bench/gem_worker.py in GEM's own virtual environment).
(b) A mixed multi-turn suite: 64 envs over 10 games (``GAMES``), sync and async.
(c) Game by game, palaestra's sync vector env against the same game in GEM (its sync vector
    env) and TextArena (a plain loop over the envs; it has no vector env), each configured
    like palaestra's level 0 and played by the same kind of player: a uniformly random
    legal move (palaestra's is read from the observation text, the peers' from the env's
    state). Steps per episode are printed too: they show how often a side pays for a reset.
(d) Expensive env-steps: under SAME_STEP autoreset every step of a single-turn env verifies an
    answer and generates the next problem; at the top level of puzzles/sudoku and chess/mate_in_one
    that costs milliseconds. Reported: async (2 workers) speed-up over sync.

Only the time inside ``step`` is counted (the players' moves are drawn outside it), in CPU
seconds of the stepping process for sync rows -- the machine may be shared, and one sync
loop's CPU time is its wall time on an idle core -- and in wall seconds for async rows.
Each rate is the median of repeated timed runs after a warm-up.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import time
import venv
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import palaestra

HERE = Path(__file__).resolve().parent
PEERS = {"GEM": (HERE / ".venv-gem", HERE / "gem_worker.py"),
         "TextArena": (HERE / ".venv-textarena", HERE / "textarena_worker.py")}
REPEATS, SECONDS, WARMUP_SECONDS = 3, 0.3, 0.1

# --- random legal moves, read from palaestra's observation text -------------------------------
Move = Callable[[str, set, random.Random], str]
_CELL_ROW = re.compile(r"^(\d+) ((?:\S )*\S)(?: \(.*)?$", re.MULTILINE)  # "3 . X O" (+ " (7 turns left)")
_FOUR_ROW = re.compile(r"^([.XO](?: [.XO]){6})(?: \(.*)?$", re.MULTILINE)
_HEAPS = re.compile(r"Heaps: ((?:[A-Z]=\d+(?:, )?)+)")
_PEGS = re.compile(r"code of (\d+) pegs; each peg is one of the (\d+) colours")
_WORDS = resources.files("palaestra.envs.games").joinpath("words.txt").read_text(encoding="utf-8").split()


def _last_board(observation: str) -> list[list[str]]:
    """The last grid drawn with row numbers (rows restart at 1 for a new board)."""
    board: list[list[str]] = []
    for match in _CELL_ROW.finditer(observation):
        if match.group(1) == "1":
            board = []
        board.append(match.group(2).split(" "))
    return board


def _empty_cell(observation: str, memory: set, rng: random.Random) -> str:
    board = _last_board(observation)
    cells = [f"{'abcdefgh'[c]}{r + 1}" for r, row in enumerate(board) for c, cell in enumerate(row) if cell == "."]
    return rng.choice(cells)


def _hidden_cell(observation: str, memory: set, rng: random.Random) -> str:
    board = _last_board(observation)
    cells = [f"{'abcdefghij'[c]}{r + 1}" for r, row in enumerate(board) for c, cell in enumerate(row) if cell == "#"]
    return "reveal " + rng.choice(cells)


def _any_cell(observation: str, memory: set, rng: random.Random) -> str:
    size = len(_last_board(observation)) or 4
    return f"{'abcdefgh'[rng.randrange(size)]}{rng.randrange(size) + 1}"


def _open_column(observation: str, memory: set, rng: random.Random) -> str:
    top = _FOUR_ROW.findall(observation)[-6].split(" ")
    return str(rng.choice([c + 1 for c, cell in enumerate(top) if cell == "."]))


def _new_letter(observation: str, memory: set, rng: random.Random) -> str:
    letter = rng.choice([c for c in "abcdefghijklmnopqrstuvwxyz" if c not in memory])
    memory.add(letter)
    return letter


def _code(observation: str, memory: set, rng: random.Random) -> str:
    if not memory:  # the prompt (first observation) states the code's shape
        length, colours = _PEGS.search(observation).groups()
        memory.add((int(length), int(colours)))
    [(length, colours)] = memory
    return "".join(rng.choice("ABCDEFGH"[:colours]) for _ in range(length))


def _take(observation: str, memory: set, rng: random.Random) -> str:
    heaps = [h.split("=") for h in _HEAPS.findall(observation)[-1].split(", ")]
    name, count = rng.choice([(name, int(n)) for name, n in heaps if int(n) > 0])
    return f"take {rng.randint(1, count)} from heap {name}"


def _direction(observation: str, memory: set, rng: random.Random) -> str:
    return rng.choice("UDLR")


def _word(observation: str, memory: set, rng: random.Random) -> str:
    return rng.choice(_WORDS)


MOVES: dict[str, Move] = {
    "tic_tac_toe": _empty_cell, "connect_four": _open_column, "hangman": _new_letter,
    "minesweeper": _hidden_cell, "sokoban": _direction, "wordle": _word, "mastermind": _code,
    "nim": _take, "lights_out": _any_cell, "game_2048": _direction,
}
GAMES = tuple(MOVES)  # the mixed suite: ten committed multi-turn games


# --- measurement -------------------------------------------------------------------------------
def policy_rate(envs: Any, actions: Callable[[tuple[str, ...], dict], list[str]], clock: Callable[[], float],
                seconds: float = SECONDS, repeats: int = REPEATS) -> tuple[float, float]:
    """Median env-steps per ``clock`` second spent inside ``envs.step``, and steps per episode."""
    observations, infos = envs.reset(seed=0)
    totals = {"steps": 0, "episodes": 0}

    def run(budget: float) -> float:
        nonlocal observations, infos
        spent, steps = 0.0, 0
        while spent < budget:
            batch = actions(observations, infos)
            t0 = clock()
            observations, _, terminated, truncated, infos = envs.step(batch)
            spent += clock() - t0
            steps += envs.num_envs
            totals["episodes"] += int((terminated | truncated).sum())
        totals["steps"] += steps
        return steps / spent

    run(WARMUP_SECONDS)
    rate = statistics.median(run(seconds) for _ in range(repeats))
    return rate, totals["steps"] / max(1, totals["episodes"])


def clock_for(mode: str) -> Callable[[], float]:
    return time.process_time if mode == "sync" else time.perf_counter


def random_legal_player(env_ids: list[str]) -> Callable[[tuple[str, ...], dict], list[str]]:
    """Random legal moves for each slot, forgetting a slot's memory when its next episode starts."""
    rng = random.Random(0)
    moves = [MOVES[env_id.removeprefix("games/")] for env_id in env_ids]
    memories: list[set] = [set() for _ in env_ids]

    def actions(observations: tuple[str, ...], infos: dict) -> list[str]:
        if "_problem" in infos:
            for i in infos["_problem"].nonzero()[0]:
                memories[i].clear()
        return [f"<answer>{move(obs, memory, rng)}</answer>" for move, obs, memory in zip(moves, observations, memories)]

    return actions


def game_rate(env_ids: str | list[str], mode: str, num_envs: int) -> tuple[float, float]:
    envs = palaestra.make_vec(env_ids, num_envs=num_envs, mode=mode, num_workers=2)
    try:
        return policy_rate(envs, random_legal_player(envs.env_ids), clock_for(mode))
    finally:
        envs.close()


def guess_number_rate(mode: str, num_envs: int) -> float:
    """guess_number level 0 (a range of 100 numbers), every guess in range, as GEM's loop does."""
    envs = palaestra.make_vec("games/guess_number", num_envs=num_envs, mode=mode, num_workers=2)
    lows, tick = [0] * num_envs, [0]

    def actions(observations: tuple[str, ...], infos: dict) -> list[str]:
        if "problem" in infos:  # new episodes began in these slots (all of them after reset)
            for i in infos["_problem"].nonzero()[0]:
                lows[i] = infos["problem"][i].data["low"]
        tick[0] += 1
        return [f"<answer>{low + tick[0] % 50}</answer>" for low in lows]

    try:
        return policy_rate(envs, actions, clock_for(mode))[0]
    finally:
        envs.close()


def expensive_rate(env_id: str, level: int, mode: str, num_envs: int) -> float:
    envs = palaestra.make_vec(env_id, num_envs=num_envs, mode=mode, level=level, num_workers=2)
    try:
        # wall time on both sides: the speed-up is what a caller waits for
        return policy_rate(envs, lambda *_: ["<answer>a wrong answer</answer>"] * num_envs, time.perf_counter,
                           seconds=1.5, repeats=3)[0]
    finally:
        envs.close()


def peer_results(name: str, num_envs: int, games: tuple[str, ...]) -> dict | None:
    """The peer worker's JSON answer, installing its virtual environment on first use; None if it cannot run."""
    venv_dir, worker = PEERS[name]
    python = venv_dir / "bin" / "python"
    try:
        if not python.exists():
            print(f"creating {venv_dir.relative_to(HERE.parent)} for {name} (first run only)...", flush=True)
            venv.create(venv_dir, with_pip=True)
            for argv in json.loads(worker.open().readline().removeprefix("# INSTALL:")):
                subprocess.run([str(python), "-m", *argv, "-q"], check=True)
        out = subprocess.run([str(python), str(worker), str(num_envs), *games], capture_output=True, text=True,
                             check=True, timeout=300)
        return json.loads(out.stdout.strip().splitlines()[-1])
    except (OSError, subprocess.SubprocessError, ValueError, IndexError) as exc:
        print(f"    ({name} skipped: {exc})")
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--no-peer", action="store_true")
    parser.add_argument("--costly", type=int, metavar="ROUNDS", help="only (d), the costly steps, ROUNDS times")
    args = parser.parse_args()
    n = args.num_envs
    started = time.perf_counter()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; "
          "sync rates per CPU-second of the stepping process, async rates per wall second\n")
    if args.costly:
        for _ in range(args.costly):
            costly_steps()
        return
    peers = {} if args.no_peer else {name: peer_results(name, n, GAMES) for name in PEERS}
    gem = peers.get("GEM")

    ours = {mode: guess_number_rate(mode, n) for mode in ("sync", "async")}
    print(f"(a) {n} x games/guess_number (level 0), env-steps/s")
    print(f"    palaestra sync  {ours['sync']:>10,.0f}")
    print(f"    palaestra async {ours['async']:>10,.0f}   (2 worker processes)")
    if gem:
        print(f"    GEM sync        {gem['sync_steps_per_s']:>10,.0f}   ({gem['env_id']}, gem-llm {gem['gem_version']})")
        print(f"    GEM async       {gem['async_steps_per_s']:>10,.0f}   (threads)")
        print(f"    ratio sync/GEM sync   {ours['sync'] / gem['sync_steps_per_s']:.2f}x  (target >= 1.5x)")
        print(f"    ratio async/GEM async {ours['async'] / gem['async_steps_per_s']:.2f}x")

    ids = [f"games/{g}" for g in GAMES]
    mixed = {mode: game_rate(ids, mode, n) for mode in ("sync", "async")}
    print(f"\n(b) {n} envs over {len(ids)} multi-turn games (level 0, random legal moves), env-steps/s")
    print(f"    {', '.join(GAMES)}")
    print(f"    palaestra sync  {mixed['sync'][0]:>10,.0f}   ({mixed['sync'][1]:.1f} steps per episode)")
    print(f"    palaestra async {mixed['async'][0]:>10,.0f}   (2 worker processes)")

    print(f"\n(c) {n} envs of one game (level-0 settings, random legal moves), sync env-steps/s"
          " [steps per episode]")
    header = f"    {'game':13} {'palaestra':>17}"
    for name in peers:
        header += f" {name:>17} {'ratio':>6}"
    print(header)
    for game in GAMES:
        rate, per_episode = game_rate(f"games/{game}", "sync", n)
        line = f"    {game:13} {rate:>10,.0f} [{per_episode:4.1f}]"
        for result in peers.values():
            theirs = (result or {}).get("games", {}).get(game)
            line += (f" {theirs['steps_per_s']:>10,.0f} [{theirs['steps_per_episode']:4.1f}] "
                     f"{rate / theirs['steps_per_s']:>5.2f}x" if theirs else f" {'-':>17} {'':>6}")
        print(line)
    for name, result in peers.items():
        if result:
            settings = "; ".join(f"{g}: {r['env_id']} {r['kwargs']}" for g, r in result["games"].items())
            version = result.get("gem_version") or result.get("textarena_version")
            print(f"    {name} {version}: {settings}")
    print("    -: no offline counterpart (GEM and TextArena Hangman/Wordle download NLTK corpora at run time)")

    costly_steps()
    print(f"\nwhole bench: {time.perf_counter() - started:.0f} s")


def costly_steps() -> None:
    print("\n(d) expensive env-steps (verify + generate the next problem), 16 envs, env-steps/s")
    for env_id, level in (("puzzles/sudoku", 4), ("chess/mate_in_one", 4)):
        sync = expensive_rate(env_id, level, "sync", 16)
        pooled = expensive_rate(env_id, level, "async", 16)
        print(f"    {env_id:20} level {level}: sync {sync:8,.1f}  async {pooled:8,.1f}  "
              f"speed-up {pooled / sync:.2f}x  (target >= 1.7x)", flush=True)


if __name__ == "__main__":
    sys.exit(main())
