"""Expected scores per env and level, for the catalogue: what a level is like and what cheap play earns there.

For each level of an env, over a sample of seeds (``palaestra stats``; the kit's shared problem cache):

- ``difficulty``: the mean of the env's difficulty measure of the drawn problems;
- ``generation_ms``: the mean CPU milliseconds to generate one problem;
- ``distinct``: the share of distinct problems in the sample;
- ``reference``: the mean reward of the reference answer (single-turn) or of the oracle's episode (multi-turn);
- ``baseline`` and ``baseline_name``: the best mean reward of a cheap policy: for a single-turn env the best
  constant answer (each reference answer of the sample tried on the other problems), for a multi-turn env the
  best of its declared heuristics and, where it lists its legal moves, uniformly random legal play.

They are written to ``palaestra/envs/stats.json`` keyed by env id and version (a stale entry, made for another
version, is not shown), and ``palaestra index`` renders them in ``docs/envs.md``. ``palaestra eval --model M
--catalogue`` plays a model on the same problems and adds its mean reward per level as a column
(:func:`record_model`).

Example::

    from palaestra.kit.stats import level_stats
    level_stats("graphs/bridges", seeds=5)[0]["reference"]    # 1.0
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from palaestra.core import MultiTurnTask, Task, derive_seed
from palaestra.core.registry import STATS_PATH, make_source, registry
from palaestra.kit.base import generation_seconds, sample
from palaestra.kit.play import _policy_chooser, play_episode

DEFAULT_SEEDS = 10
STATS_SEED = 70_000  # a seed range of its own, so the figures are not the kit's checks' problems


def level_stats(env_id: str, seeds: int = DEFAULT_SEEDS) -> list[dict[str, Any]]:
    """The figures of the module docstring for each named level of ``env_id``."""
    source = make_source(env_id)
    figures = []
    for level in range(source.levels()):
        seed_range = range(STATS_SEED, STATS_SEED + seeds)
        problems = [sample(env_id, level, seed) for seed in seed_range]
        reference, baseline = (_multi_turn(env_id, source, level, problems) if isinstance(source, MultiTurnTask)
                               else _single_turn(source, problems))
        figures.append({
            "difficulty": round(sum(float(source.difficulty(p)) for p in problems) / seeds, 3),
            "generation_ms": round(1000 * sum(generation_seconds(env_id, level, s) for s in seed_range) / seeds, 3),
            "distinct": round(len({_content(p) for p in problems}) / seeds, 3),
            "reference": round(reference, 3),
            "baseline": None if baseline is None else round(baseline[0], 3),
            "baseline_name": None if baseline is None else baseline[1],
        })
    return figures


def _content(problem: Any) -> str:
    """What makes two problems the same problem: prompt, answer and data (an agentic env's prompt may not show
    its files)."""
    return json.dumps([problem.prompt, problem.answer, problem.data], sort_keys=True)


def _single_turn(task: Any, problems: list[Any]) -> tuple[float, tuple[float, str] | None]:
    """The reference's mean reward, and the best constant's: each reference answer of the sample tried on the
    other problems (leave one out: an answer always scores on the problem it came from, which would show a tenth
    for every env at ten seeds; an answer that recurs still scores on its other problems)."""
    assert isinstance(task, Task)
    reference = sum(task.verify(p, p.answer or "").reward for p in problems) / len(problems)
    constants = sorted({p.answer or "" for p in problems if len(p.answer or "") <= 200})
    best = max(((_left_one_out(task, problems, c), c) for c in constants), default=None)
    return reference, None if best is None else (best[0], f"constant {best[1]!r}"[:60])


def _left_one_out(task: Any, problems: list[Any], constant: str) -> float:
    """``constant``'s mean reward on the sample without one problem it is the reference answer of."""
    source = next(i for i, p in enumerate(problems) if (p.answer or "") == constant)
    others = problems[:source] + problems[source + 1:]
    return sum(task.verify(p, constant).reward for p in others) / max(1, len(others))


def _oracle_chooser(game: MultiTurnTask, problem: Any) -> Callable[[Any, Any], str]:
    def choose(state: Any, history: Any) -> str:
        return game.oracle(problem, state)

    return choose


def _multi_turn(env_id: str, game: MultiTurnTask, level: int, problems: list[Any]
                ) -> tuple[float, tuple[float, str] | None]:
    reference = sum(min(1.0, play_episode(game, problem, _oracle_chooser(game, problem))[0])
                    for problem in problems) / len(problems)
    policies: dict[str, Callable[..., str]] = dict(game.heuristics())
    try:
        game.legal_moves(problems[0], game.initial_state(problems[0]))
        policies["random legal moves"] = lambda problem, state, history, rng: rng.choice(
            game.legal_moves(problem, state))
    except NotImplementedError:
        pass
    best: tuple[float, str] | None = None
    for name, policy in policies.items():
        total = 0.0
        for index, problem in enumerate(problems):
            rng = random.Random(derive_seed("stats-policy", env_id, level, index))
            total += min(1.0, play_episode(game, problem, _policy_chooser(problem, policy, rng))[0])
        mean = total / len(problems)
        if best is None or mean > best[0]:
            best = (mean, name)
    return reference, best


def update(env_ids: list[str], seeds: int = DEFAULT_SEEDS, path: Path | None = None,
           progress: Callable[[str], None] = lambda env_id: None) -> dict[str, Any]:
    """Compute the figures of ``env_ids`` and merge them into the stats file (other envs' entries are kept)."""
    path = path or STATS_PATH
    table = json.loads(path.read_text()) if path.exists() else {}
    for env_id in env_ids:
        progress(env_id)
        table[env_id] = {"version": registry[env_id].version, "seeds": seeds, "levels": level_stats(env_id, seeds)}
    path.write_text(json.dumps(dict(sorted(table.items())), indent=1) + "\n")
    return table


def stats_seeds(env_id: str, path: Path | None = None) -> range:
    """The seeds the figures of ``env_id`` were measured on (a model's column is measured on the same problems)."""
    path = path or STATS_PATH
    table = json.loads(path.read_text()) if path.exists() else {}
    return range(STATS_SEED, STATS_SEED + int(table.get(env_id, {}).get("seeds", DEFAULT_SEEDS)))


def record_model(model: str, rewards: dict[tuple[str, int], float], path: Path | None = None) -> list[str]:
    """Add ``model``'s mean reward per ``(env id, level)`` to the envs' figures of the current version; the ids of
    the envs that have none (run ``palaestra stats`` for them first) are returned, and skipped."""
    path = path or STATS_PATH
    table = json.loads(path.read_text()) if path.exists() else {}
    missing = []
    for env_id in sorted({env_id for env_id, _ in rewards}):
        entry = table.get(env_id)
        if entry is None or entry.get("version") != registry[env_id].version:
            missing.append(env_id)
            continue
        levels = len(entry["levels"])
        entry.setdefault("models", {})[model] = [rewards.get((env_id, level)) for level in range(levels)]
    path.write_text(json.dumps(dict(sorted(table.items())), indent=1) + "\n")
    return missing
