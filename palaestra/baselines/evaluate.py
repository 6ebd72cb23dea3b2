"""Evaluate policies and models on a suite of environments at fixed levels and seeds.

Every episode goes through the public Gymnasium API (``make``, ``reset``,
``step``), so an evaluation also exercises generation and verification for
real. Two entry points:

- :func:`evaluate` / :func:`run_episodes`: the reference policies (oracle,
  random) over envs, one row per (env, policy), for the ``palaestra eval`` table.
- :func:`run_suite`: any model (an OpenAI-compatible server, a local Hugging
  Face model, a tiny checkpoint, or a reference policy) on env ids x levels x
  seeds, ``samples`` episodes per problem, scored by unbiased pass@k per env and
  per family, with JSONL transcripts and a plot. A reply the model side could
  not produce (HTTP error, timeout) and a step the env could not judge
  (``info["error"]``: sandbox down, verifier timeout) are recorded as errors and
  left out of pass@k, never counted as wrong answers. A local model
  (:class:`PolicyChat`) plays through the rollout engine: episodes run
  ``batch_size`` at a time with continuous batching, each turn joining the
  running batch as soon as its env has answered, and a finished episode's slot
  going to the next problem at once.

Example::

    >>> from palaestra.baselines.evaluate import Suite, evaluate, run_suite
    >>> from palaestra.baselines.policies import OraclePolicy
    >>> rows = evaluate(["arithmetic/expression"], [OraclePolicy()], levels=[0, 1], seeds=range(3))
    >>> rows[0].accuracy
    1.0
    >>> result = run_suite(OraclePolicy(), Suite(("strings/copy",), levels=(0, 1), seeds=(0, 1)), samples=2, ks=(1, 2))
    >>> result.env_rows()[0]["pass@2"], len(result.records)
    (1.0, 8)
"""

from __future__ import annotations

import copy
import json
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from palaestra.baselines.engine import Reply, RolloutEngine, chat
from palaestra.baselines.passk import mean_pass_at_k
from palaestra.baselines.policies import Policy
from palaestra.baselines.policy import LMPolicy
from palaestra.core.env import TextEnv
from palaestra.core.registry import registry
from palaestra.core.seeding import derive_seed
from palaestra.factory import make


@dataclass(frozen=True)
class EvalRow:
    env_id: str
    policy: str
    episodes: int
    solved: int
    mean_reward: float
    mean_turns: float
    seconds: float  # wall time of the env side (reset + step), excluding the policy

    @property
    def accuracy(self) -> float:
        return self.solved / self.episodes if self.episodes else 0.0


MAX_TURNS_GUARD = 1_000


def run_episodes(env_id: str, policy: Policy, levels: Iterable[int], seeds: Iterable[int]) -> EvalRow:
    env = make(env_id)
    episodes = solved = turns = 0
    total_reward = env_seconds = 0.0
    seeds = list(seeds)
    for level in levels:
        for seed in seeds:
            t0 = time.perf_counter()
            obs, info = env.reset(seed=seed, options={"level": level})
            env_seconds += time.perf_counter() - t0
            episode_reward, done, correct = 0.0, False, False
            for _ in range(MAX_TURNS_GUARD):
                action = policy(env, obs, info)
                t0 = time.perf_counter()
                obs, reward, terminated, truncated, info = env.step(action)
                env_seconds += time.perf_counter() - t0
                episode_reward += reward
                turns += 1
                correct = bool(info.get("correct"))
                if terminated or truncated:
                    done = True
                    break
            episodes += 1
            solved += int(done and correct)
            total_reward += episode_reward
    return EvalRow(env_id, policy.name, episodes, solved, total_reward / max(episodes, 1), turns / max(episodes, 1),
                   env_seconds)


def evaluate(
    env_ids: Sequence[str] | None, policies: Sequence[Policy], levels: Iterable[int], seeds: Iterable[int],
    ray_address: str | None = None,
) -> list[EvalRow]:
    """One row per (env, policy); levels beyond an env's range are skipped.

    Each (env, policy) pair is played by its own copy of the policy, so a row does not depend on
    the envs before it: ``ray_address`` (``"auto"``, ``"ray://HOST:PORT"`` or ``"local"``) plays
    the pairs as Ray tasks spread over a cluster's nodes (a lost node's pairs are played again,
    :mod:`palaestra.vector.ray_map`) and gives the same rows but for ``seconds``.
    """
    seeds, levels = list(seeds), list(levels)
    jobs = [(env_id, policy, [lv for lv in levels if lv < registry[env_id].levels], seeds)
            for env_id in env_ids or registry.ids() for policy in policies]
    if ray_address is None:
        return [_run_job(job) for job in jobs]
    from palaestra.vector.ray_map import ray_map

    return list(ray_map(_run_job, jobs, address=ray_address))


def _run_job(job: tuple[str, Policy, list[int], list[int]]) -> EvalRow:
    env_id, policy, levels, seeds = job
    return run_episodes(env_id, copy.deepcopy(policy), levels, seeds)


# --- model evaluation: suites, samples, pass@k ----------------------------------------------------

Message = dict[str, str]


class ChatModel(Protocol):
    """A model that answers conversations: an OpenAI-compatible client, or a local model via :class:`PolicyChat`.

    ``complete`` returns, per conversation, the reply text or an object with
    ``text`` and ``error`` attributes (``error`` set: no reply could be had).
    """

    name: str

    def complete(self, conversations: Sequence[Sequence[Message]], seeds: Sequence[int]) -> Sequence[Any]: ...


class PolicyChat:
    """A local :class:`~palaestra.baselines.policy.LMPolicy` (tiny or Hugging Face) as a :class:`ChatModel`.

    :func:`run_suite` plays it through the rollout engine (``max_context``
    tokens per episode at most); :meth:`complete` answers one batch of text
    conversations.
    """

    def __init__(self, policy: LMPolicy, max_new_tokens: int = 512, temperature: float = 1.0, batch_size: int = 64,
                 max_context: int = 4096) -> None:
        self.policy = policy
        self.name = policy.name
        self.max_new_tokens = max_new_tokens
        self.temperature = temperature
        self.batch_size = batch_size
        self.max_context = max_context

    def complete(self, conversations: Sequence[Sequence[Message]], seeds: Sequence[int]) -> list[str]:
        replies: list[str] = []
        for start in range(0, len(conversations), self.batch_size):
            batch = conversations[start: start + self.batch_size]
            replies += chat(self.policy, batch, self.max_new_tokens, self.temperature, seed=seeds[start])
        return replies


@dataclass(frozen=True)
class Suite:
    """Env ids x levels x seeds: the fixed problems of an evaluation (levels an env lacks are skipped)."""

    env_ids: tuple[str, ...]
    levels: tuple[int, ...] = (0, 2, 4)
    seeds: tuple[int, ...] = tuple(range(10))

    def problems(self) -> list[tuple[str, int, int]]:
        return [(env_id, level, seed) for env_id in self.env_ids for level in self.levels
                if level < registry[env_id].levels for seed in self.seeds]


@dataclass
class _Episode:
    env_id: str
    level: int
    seed: int
    sample: int
    env: TextEnv
    observation: str
    info: dict[str, Any]
    messages: list[Message]
    rewards: list[float] = field(default_factory=list)
    correct: bool = False
    error: str | None = None
    cut: str | None = None  # why the harness ended it unfinished (context full): scored as it stands
    done: bool = False

    def record(self, model: str) -> dict[str, Any]:
        return {
            "model": model, "env_id": self.env_id, "family": registry[self.env_id].family, "level": self.level,
            "seed": self.seed, "sample": self.sample, "reward": sum(self.rewards), "correct": self.correct,
            "turns": len(self.rewards), "error": self.error, "cut": self.cut, "rewards": self.rewards,
            "messages": self.messages,
        }


@dataclass
class SuiteResult:
    """Transcript records of every episode, with pass@k tables over them."""

    model: str
    ks: tuple[int, ...]
    records: list[dict[str, Any]]
    seconds: float

    @property
    def episodes_per_second(self) -> float:
        return len(self.records) / self.seconds if self.seconds > 0 else float("inf")

    def _rows(self, columns: Sequence[str]) -> list[dict[str, Any]]:
        groups: dict[tuple[Any, ...], list[dict[str, Any]]] = defaultdict(list)
        for r in self.records:
            groups[tuple(r[c] for c in columns)].append(r)
        rows = []
        for values, records in sorted(groups.items()):
            judged = [r for r in records if r["error"] is None]
            counts: dict[tuple[str, int, int], list[int]] = defaultdict(lambda: [0, 0])
            for r in judged:
                entry = counts[(r["env_id"], r["level"], r["seed"])]
                entry[0] += 1
                entry[1] += int(r["correct"])
            problems = {(r["env_id"], r["level"], r["seed"]) for r in records}
            row: dict[str, Any] = {
                **dict(zip(columns, values)), "episodes": len(records), "errors": len(records) - len(judged),
                "problems": len(problems),
                "reward": sum(r["reward"] for r in judged) / len(judged) if judged else float("nan"),
            }
            for k in self.ks:
                row[f"pass@{k}"], row[f"problems@{k}"] = mean_pass_at_k([(n, c) for n, c in counts.values()], k)
            rows.append(row)
        return rows

    def env_rows(self) -> list[dict[str, Any]]:
        """One row per env id: episodes, errors, mean reward, pass@k (mean over its problems)."""
        return self._rows(["env_id"])

    def level_rows(self) -> list[dict[str, Any]]:
        """One row per (env id, level): how pass@k falls as the level rises."""
        return self._rows(["env_id", "level"])

    def family_rows(self) -> list[dict[str, Any]]:
        """One row per family, pass@k averaged over all its problems."""
        return self._rows(["family"])

    def error_reasons(self) -> dict[str, int]:
        """How many episodes were not judged, per reason (the error text up to its first colon), most common first."""
        counts = Counter(error_reason(r["error"]) for r in self.records if r["error"] is not None)
        return dict(counts.most_common())

    def summary(self) -> dict[str, Any]:
        return {"model": self.model, "ks": list(self.ks), "episodes": len(self.records), "seconds": self.seconds,
                "episodes_per_second": self.episodes_per_second, "errors": self.error_reasons(),
                "envs": self.env_rows(), "levels": self.level_rows(), "families": self.family_rows()}


GENERIC_ERROR_LABELS = ("infrastructure error", "not judged", "error")  # say nothing of the cause


def error_reason(error: str) -> str:
    """An error message's kind, for counting: its first colon-separated part that names a cause.

    >>> error_reason("HTTP 503: service unavailable")
    'HTTP 503'
    >>> error_reason("infrastructure error: sandbox down: connection refused")
    'sandbox down'
    """
    parts = [p.strip() for p in error.split(":")]
    cause = next((p for p in parts if p and p.lower() not in GENERIC_ERROR_LABELS), "")
    return cause[:80] or "error"


def _chunks(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start: start + size]


def run_suite(model: ChatModel | Policy, suite: Suite, samples: int = 1, ks: Sequence[int] = (1,),
              answer_format: str | None = None, batch_size: int = 64, max_turns: int = MAX_TURNS_GUARD,
              out_dir: str | Path | None = None, plot: bool = True) -> SuiteResult:
    """Play ``samples`` episodes of every problem of ``suite`` with ``model``; pass@k for each ``k <= samples``.

    Episodes run ``batch_size`` at a time: a local model (:class:`PolicyChat`)
    through the rollout engine with continuous batching; any other model turn
    by turn, so that it gets whole batches (concurrent requests over HTTP).
    With ``out_dir``: ``transcripts.jsonl`` (one line per episode),
    ``summary.json`` and ``pass_at_k.png``.
    """
    if any(not 1 <= k <= samples for k in ks):
        raise ValueError(f"every k must be in [1, samples={samples}], got {list(ks)}")
    name = getattr(model, "name", type(model).__name__)
    out = Path(out_dir) if out_dir is not None else None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    transcript = (out / "transcripts.jsonl").open("w") if out is not None else None
    jobs = [(env_id, level, seed, j) for env_id, level, seed in suite.problems() for j in range(samples)]
    records: list[dict[str, Any]] = []
    start = time.perf_counter()
    try:
        if isinstance(model, PolicyChat):
            episodes = _play_local(model, jobs, answer_format, batch_size, max_turns)
        else:
            episodes = [e for chunk in _chunks(jobs, batch_size)
                        for e in _play_turn_by_turn(model, chunk, answer_format, max_turns)]
        for episode in episodes:
            records.append(episode.record(name))
            if transcript is not None:
                transcript.write(json.dumps(records[-1], ensure_ascii=False) + "\n")
    finally:
        if transcript is not None:
            transcript.close()
    result = SuiteResult(name, tuple(ks), records, time.perf_counter() - start)
    if out is not None:
        (out / "summary.json").write_text(json.dumps(result.summary(), indent=2))
        if plot:
            plot_pass_at_k(result, out / "pass_at_k.png")
    return result


def _play_turn_by_turn(model: ChatModel | Policy, jobs: Sequence[tuple[str, int, int, int]],
                       answer_format: str | None, max_turns: int) -> list[_Episode]:
    """Play jobs together, one turn of every unfinished episode per round."""
    episodes = [_start(*job, answer_format=answer_format) for job in jobs]
    for turn in range(max_turns):
        active = [e for e in episodes if not e.done]
        if not active:
            break
        for episode, (text, error) in zip(active, _respond(model, active, turn)):
            _advance(episode, text, error)
    for episode in episodes:
        if not episode.done:
            episode.error = f"no end after {max_turns} turns"
    return episodes


def _play_local(model: PolicyChat, jobs: Sequence[tuple[str, int, int, int]], answer_format: str | None,
                batch_size: int, max_turns: int) -> list[_Episode]:
    """Play every job with a local policy through the rollout engine; the episodes in job order."""
    policy = model.policy
    capacity = min(model.max_context, policy.max_length)
    room = capacity - model.max_new_tokens - 1  # what a conversation may hold before a reply
    if room < 1:
        raise ValueError(f"max_new_tokens={model.max_new_tokens} leaves no room for a prompt in {capacity} tokens")
    engine = RolloutEngine(policy, slots=max(1, min(batch_size, len(jobs))), capacity=capacity)
    episodes: list[_Episode] = []
    length: list[int] = []

    def source() -> Iterator[tuple[int, list[int]]]:
        for job in jobs:
            episode = _start(*job, answer_format=answer_format)
            episodes.append(episode)
            ids = policy.encode_user(episode.messages, closed=True)[-room:]  # the oldest context gives way
            length.append(len(ids))
            yield len(episodes) - 1, ids

    def respond(replies: list[Reply]) -> list[list[int] | None]:
        follow: list[list[int] | None] = []
        for reply in replies:
            k = int(reply.key)  # type: ignore[call-overload]
            episode = episodes[k]
            length[k] += len(reply.ids)
            _advance(episode, policy.decode(reply.ids), None)
            ids = None
            if not episode.done and len(episode.rewards) >= max_turns:
                episode.error, episode.done = f"no end after {max_turns} turns", True
            elif not episode.done:
                ids = policy.encode_user(episode.messages, closed=reply.closed)
                if length[k] + len(ids) > room:
                    episode.cut, episode.done, ids = "context full", True, None
                else:
                    length[k] += len(ids)
            follow.append(ids)
        return follow

    seed = derive_seed("eval", len(jobs), *(jobs[0] if jobs else ())) % 2**63
    engine.play(source(), respond, model.max_new_tokens, model.temperature, seed)
    return episodes


def _start(env_id: str, level: int, seed: int, sample: int, answer_format: str | None) -> _Episode:
    env = make(env_id, level=level, answer_format=answer_format)
    observation, info = env.reset(seed=seed)
    return _Episode(env_id, level, seed, sample, env, observation, info, [{"role": "user", "content": observation}])


def _respond(model: ChatModel | Policy, episodes: Sequence[_Episode], turn: int) -> list[tuple[str | None, str | None]]:
    """One (text, error) per episode."""
    if not hasattr(model, "complete"):  # a reference policy that reads the env itself
        return [(model(e.env, e.observation, e.info), None) for e in episodes]  # type: ignore[operator]
    seeds = [derive_seed(e.env_id, e.level, e.seed, e.sample, turn) % 2**31 for e in episodes]
    replies = model.complete([e.messages for e in episodes], seeds)  # type: ignore[union-attr]
    if len(replies) != len(episodes):
        raise RuntimeError(f"{getattr(model, 'name', model)}: {len(replies)} replies to {len(episodes)} prompts")
    return [(r, None) if isinstance(r, str) else (r.text, r.error) for r in replies]


def _advance(episode: _Episode, text: str | None, error: str | None) -> None:
    if error is not None or text is None:
        episode.error, episode.done = error or "no reply", True
        return
    episode.messages.append({"role": "assistant", "content": text})
    try:
        observation, reward, terminated, truncated, info = episode.env.step(text)
    except Exception as exc:  # an env bug is an error of the run, not a wrong answer
        episode.error, episode.done = f"env raised {type(exc).__name__}: {exc}", True
        return
    episode.rewards.append(float(reward))
    episode.observation, episode.info = observation, info
    if info.get("error") is not None:  # the env could not judge the reply: not a wrong answer
        episode.error, episode.done = str(info["error"]), True
        episode.messages.append({"role": "env", "content": observation})
    elif terminated or truncated:
        episode.done, episode.correct = True, bool(info.get("correct"))
        episode.messages.append({"role": "env", "content": observation})  # the final verdict, for the transcript
    else:
        episode.messages.append({"role": "user", "content": observation})


def plot_pass_at_k(result: SuiteResult, path: Path) -> Path | None:
    """Horizontal bars of pass@k per env id; None when matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    rows = result.env_rows()
    height = 0.8 / len(result.ks)
    fig, ax = plt.subplots(figsize=(8, 1.2 + 0.35 * len(rows) * max(1, len(result.ks) / 2)))
    for j, k in enumerate(result.ks):
        values = [0.0 if r[f"pass@{k}"] != r[f"pass@{k}"] else r[f"pass@{k}"] for r in rows]  # NaN: nothing judged
        ax.barh([i + j * height for i in range(len(rows))], values, height=height, label=f"pass@{k}")
    ax.set_yticks([i + height * (len(result.ks) - 1) / 2 for i in range(len(rows))], [r["env_id"] for r in rows])
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("pass@k")
    ax.set_title(f"{result.model}: {len(result.records)} episodes")
    ax.legend(loc="lower right")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def pass_cell(row: dict[str, Any], k: int) -> str:
    """``pass@k`` of a result row with its coverage: ``0.512 (74/600)`` says it rests on 74 of the 600 problems.

    A problem counts towards pass@k only when at least k of its samples were judged (errors are not scored),
    so the coverage is printed next to every pass@k, whatever k.
    """
    value = row[f"pass@{k}"]
    shown = "-" if value != value else f"{value:.3f}"  # NaN: nothing judged
    return f"{shown} ({row[f'problems@{k}']}/{row['problems']})"
