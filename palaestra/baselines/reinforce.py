"""REINFORCE over palaestra vector envs, single- and multi-turn, for any token-level policy.

The policy is the tiny built-in character-level transformer
(:mod:`palaestra.baselines.tiny`) or a Hugging Face causal LM from a local path
(:mod:`palaestra.baselines.hf`); both implement
:class:`~palaestra.baselines.policy.LMPolicy`. One training step resets the
vector envs at a fresh seed and plays every episode to its end with the rollout
engine (:mod:`palaestra.baselines.engine`: continuous batching, so a multi-turn
episode's next turn starts as soon as the env has answered), turns the rewards
into advantages and takes one gradient step on the log-probabilities of the
tokens the policy sampled; prompt and observation tokens are masked out of the
loss. After the step the engine's sampling weights are refreshed.

**Rewards to advantages.** A multi-turn episode has one reward per turn (the
env's reward for that reply). Turn ``k``'s reply is credited with its return to
go ``G_k = r_k + gamma * G_{k+1}``, normalised by the mean and standard
deviation of the episode returns ``G_0`` of its set (the batch, or the samples
of the same problem for ``advantage="group"``); every token of the reply gets
that advantage.

**Errors.** An episode whose step reported an infrastructure error
(``info["error"]``: sandbox down, verifier timeout, crashed worker) was not
judged: it gets no advantage, none of its tokens enter the loss, and the step's
metrics count it under ``errors`` instead of in the reward and accuracy.

**Sampling/training mismatch.** The engine returns each sampled token's
log-probability under its sampling weights (bfloat16 on CUDA); the update
recomputes it under the float32 master weights. ``logprob_mismatch`` (mean
absolute difference over the batch's sampled tokens) and
``logprob_mismatch_max`` are logged every step.

Example::

    import palaestra
    from palaestra.baselines.reinforce import TrainConfig, make_group, train
    from palaestra.baselines.tiny import TinyPolicy

    envs = make_group("arithmetic/addition", 8, 16, level=1, answer_format="raw")
    policy = TinyPolicy.for_envs(["arithmetic/addition"], level=1, seed=0)
    result = train(policy, envs, TrainConfig(steps=1000, advantage="group"), out_dir="runs/add")
    print(result.history[-1]["accuracy"], result.checkpoint)

For group-relative advantages (GRPO-style), pass ``group_size`` copies of the
same vector env (``make_group(...)`` builds them): copies reset with the same
seed hold the same problems, so sample ``g`` of problem ``i`` is env ``i`` of
copy ``g`` and rewards are normalised within each problem's group.
"""

from __future__ import annotations

import json
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F

from palaestra.baselines.engine import Reply, RolloutEngine
from palaestra.baselines.evaluate import error_reason
from palaestra.baselines.policy import LMPolicy, Message, left_pad
from palaestra.core.seeding import derive_seed

ADVANTAGES = ("batch", "group")


# --- configuration and results -------------------------------------------------------------------

@dataclass(frozen=True)
class TrainConfig:
    """Hyperparameters of :func:`train`. The defaults are the tiny model's CPU demonstration."""

    steps: int = 300
    lr: float = 1e-3
    advantage: str = "batch"  # "batch": normalise returns over the batch; "group": within each problem's samples
    max_new_tokens: int = 8
    max_turns: int = 16  # a multi-turn episode is cut (and scored as it stands) after this many responses
    temperature: float = 1.0
    kl_coef: float = 0.0  # > 0: penalise the KL divergence from the initial (frozen) policy
    max_grad_norm: float = 1.0
    gamma: float = 1.0  # discount of later turns' rewards in the return-to-go
    micro_batch_size: int = 64  # trajectories per forward/backward pass at most (gradients are accumulated)
    micro_batch_tokens: int = 16_384  # and padded tokens per pass at most (one long trajectory may exceed it)
    entropy_coef: float = 0.0  # > 0: reward the policy's entropy on its own tokens (keeps it exploring)
    weight_decay: float = 0.0
    bf16: bool = True  # on CUDA: sample with bfloat16 weights and autocast the update to bfloat16
    max_context: int = 4096  # tokens per episode at most (prompt, replies, observations): the engine's slot size
    seed: int = 0
    time_limit: float | None = None  # seconds; stop early once exceeded
    checkpoint_every: int = 100

    def __post_init__(self) -> None:
        if self.advantage not in ADVANTAGES:
            raise ValueError(f"advantage must be one of {ADVANTAGES}, got {self.advantage!r}")


@dataclass
class Trajectory:
    """One episode: the whole conversation as token ids, with the policy's own tokens marked."""

    env_id: str
    copy: int  # which copy of the vector env (the sample number within a group)
    index: int  # which sub-env (the problem within the batch)
    messages: list[Message]
    ids: list[int] = field(default_factory=list)
    turn_of: list[int] = field(default_factory=list)  # per token: the turn that generated it, -1 for env tokens
    sampled_logprobs: list[float] = field(default_factory=list)  # per policy token: log pi at sampling time
    rewards: list[float] = field(default_factory=list)
    done: bool = False
    correct: bool = False
    error: str | None = None  # an infrastructure failure: the episode is not judged and not trained on
    cut: str | None = None  # why the trainer ended it early (max_turns, context full)

    def add_context(self, ids: list[int]) -> None:
        self.ids += ids
        self.turn_of += [-1] * len(ids)

    def add_response(self, ids: list[int], text: str, logprobs: Sequence[float] | None = None) -> None:
        self.turn_of += [len(self.rewards)] * len(ids)
        self.ids += ids
        self.sampled_logprobs += list(logprobs) if logprobs is not None else [float("nan")] * len(ids)
        self.messages.append({"role": "assistant", "content": text})

    @property
    def response_tokens(self) -> int:
        return sum(t >= 0 for t in self.turn_of)


@dataclass
class TrainResult:
    """The metrics of every step, and where the last checkpoint and the learning curve were written."""

    history: list[dict[str, Any]]
    checkpoint: Path | None
    plot: Path | None
    seconds: float


# --- rollouts ------------------------------------------------------------------------------------

def make_group(env_ids: str | Sequence[str], num_problems: int, group_size: int, **make_vec_kwargs: Any) -> list[Any]:
    """``group_size`` identical vector envs of ``num_problems`` envs each, for group-relative advantages."""
    import palaestra

    return [palaestra.make_vec(env_ids, num_problems, **make_vec_kwargs) for _ in range(group_size)]


def _episode_info(infos: dict[str, Any], i: int) -> dict[str, Any]:
    """Env ``i``'s info for the step just taken: under SAME_STEP autoreset, the ended episode's final info."""
    if "final_info" in infos and infos["_final_info"][i]:
        infos = infos["final_info"]
    return {k: v[i] for k, v in infos.items() if not k.startswith("_") and f"_{k}" in infos and infos[f"_{k}"][i]}


def make_engine(policy: LMPolicy, episodes: int, config: TrainConfig) -> RolloutEngine:
    """The rollout engine :func:`train` uses: one slot per episode of a step."""
    dtype = torch.bfloat16 if config.bf16 and policy.device.type == "cuda" else torch.float32
    if dtype == torch.float32 and all(p.dtype == torch.float32 for p in policy.model.parameters()):
        dtype = None  # sample with the master weights themselves: nothing to copy after an update
    return RolloutEngine(policy, slots=episodes, capacity=min(config.max_context, policy.max_length), dtype=dtype)


def rollout(policy: LMPolicy, copies: Sequence[Any], seed: int, config: TrainConfig,
            engine: RolloutEngine | None = None) -> list[Trajectory]:
    """Play one episode in every env of every copy, all starting from ``reset(seed=seed)``.

    Each reply is stepped in its env as soon as it is sampled, and the episode's
    next turn joins the engine's running batch (see :mod:`palaestra.baselines.engine`).
    """
    trajectories: list[Trajectory] = []
    for g, envs in enumerate(copies):
        prompts, infos = envs.reset(seed=seed)
        for i, prompt in enumerate(prompts):
            t = Trajectory(str(infos["env_id"][i]), copy=g, index=i, messages=[{"role": "user", "content": prompt}])
            t.add_context(policy.encode_user(t.messages, closed=True))
            trajectories.append(t)
    if len(copies) > 1 and any(t.messages[0] != trajectories[t.index].messages[0] for t in trajectories):
        raise ValueError("the copies of a group must hold the same problems (same env ids and order)")
    engine = engine or make_engine(policy, len(trajectories), config)
    room = engine.capacity

    def fits(t: Trajectory, more: int) -> bool:
        return len(t.ids) + more + config.max_new_tokens <= room

    def respond(replies: list[Reply]) -> list[list[int] | None]:
        by_copy: dict[int, list[Reply]] = defaultdict(list)
        for reply in replies:
            t = trajectories[reply.key]  # type: ignore[index]
            t.add_response(reply.ids, policy.decode(reply.ids), reply.logprobs)
            by_copy[t.copy].append(reply)
        follow: dict[Any, list[int] | None] = {}
        for g, mine in by_copy.items():
            stepped = [trajectories[r.key] for r in mine]  # type: ignore[index]
            obs, rewards, terminated, truncated, infos = copies[g].step(
                {t.index: t.messages[-1]["content"] for t in stepped})
            for t, reply in zip(stepped, mine):
                info = _episode_info(infos, t.index)
                t.rewards.append(float(rewards[t.index]))
                follow[reply.key] = None
                if info.get("error") is not None:
                    t.done, t.error = True, str(info["error"])
                elif terminated[t.index] or truncated[t.index]:
                    t.done, t.correct = True, bool(info.get("correct", False))
                elif len(t.rewards) >= config.max_turns:
                    t.done, t.cut = True, "max_turns"
                else:
                    t.messages.append({"role": "user", "content": obs[t.index]})
                    ids = policy.encode_user(t.messages, closed=reply.closed)
                    if fits(t, len(ids)):
                        t.add_context(ids)
                        follow[reply.key] = ids
                    else:
                        t.done, t.cut = True, "context full"
        return [follow[r.key] for r in replies]

    playable = []
    for k, t in enumerate(trajectories):
        if fits(t, 0):
            playable.append((k, t.ids))
        else:
            t.done, t.cut = True, "context full"
    engine.play(playable, respond, config.max_new_tokens, config.temperature, seed=derive_seed(config.seed, seed))
    return trajectories


# --- advantages and the loss ---------------------------------------------------------------------

def returns_to_go(rewards: Sequence[float], gamma: float) -> list[float]:
    """``G_t = r_t + gamma * G_{t+1}``: what each turn's response led to."""
    out, running = [0.0] * len(rewards), 0.0
    for k in range(len(rewards) - 1, -1, -1):
        running = rewards[k] + gamma * running
        out[k] = running
    return out


def advantages(trajectories: Sequence[Trajectory], mode: str, gamma: float = 1.0) -> list[list[float]]:
    """Per trajectory, one advantage per turn: its return-to-go normalised by the episode returns of its set.

    The set is the whole batch (``batch``) or the samples of the same problem
    (``group``). A set whose returns are all equal carries no signal; its
    advantages are centred but not scaled. Errored episodes get none.
    """
    sets: dict[Any, list[int]] = defaultdict(list)
    for k, t in enumerate(trajectories):
        if t.error is None:
            sets[t.index if mode == "group" else 0].append(k)
    result: list[list[float]] = [[] for _ in trajectories]
    for members in sets.values():
        togo = {k: returns_to_go(trajectories[k].rewards, gamma) for k in members}
        episode = torch.tensor([togo[k][0] if togo[k] else 0.0 for k in members], dtype=torch.float64)
        mean = float(episode.mean())
        std = float(episode.std(unbiased=False))
        scale = std if std > 1e-6 else 1.0
        for k in members:
            result[k] = [(g - mean) / scale for g in togo[k]]
    return result


@dataclass
class _Row:
    """One trajectory as the loss sees it: ids, and per token its advantage, loss mask and sampled log-prob."""

    ids: list[int]
    advantages: list[float]
    mask: list[bool]
    sampled: list[float]


def _loss_rows(trajectories: Sequence[Trajectory], adv: Sequence[Sequence[float]]) -> list[_Row]:
    """Per judged trajectory with a response: its ids, per-token advantages and loss mask (policy tokens only)."""
    rows = []
    for t, a in zip(trajectories, adv):
        if t.error is None and t.response_tokens:
            sampled = iter(t.sampled_logprobs)
            rows.append(_Row(t.ids, [a[k] if k >= 0 else 0.0 for k in t.turn_of], [k >= 0 for k in t.turn_of],
                             [next(sampled) if k >= 0 else 0.0 for k in t.turn_of]))
    return rows


def _micro_batches(rows: list[_Row], config: TrainConfig) -> list[list[_Row]]:
    """Rows grouped by length into passes of at most ``micro_batch_size`` rows and ``micro_batch_tokens`` tokens."""
    batches: list[list[_Row]] = [[]]
    for row in sorted(rows, key=lambda r: len(r.ids)):
        batch = batches[-1]
        if batch and (len(batch) >= config.micro_batch_size
                      or (len(batch) + 1) * len(row.ids) > config.micro_batch_tokens):
            batches.append(batch := [])
        batch.append(row)
    return [b for b in batches if b]


def _padded(rows: Sequence[Sequence[Any]], shape: torch.Size, dtype: torch.dtype, device: torch.device) -> torch.Tensor:
    """Per-token values left-padded like the ids, shifted by one: token t is scored by the logits at t - 1."""
    out = torch.zeros(shape, dtype=dtype)
    for i, values in enumerate(rows):
        out[i, shape[1] - len(values):] = torch.tensor(values, dtype=dtype)
    return out[:, 1:].to(device)


def _token_logprobs(logits: torch.Tensor, tokens: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Log-probabilities of ``tokens`` under ``logits`` (``(n, vocab)``), and the entropy of each distribution."""
    logp_all = F.log_softmax(logits.float(), dim=-1)
    logp = logp_all.gather(-1, tokens[:, None]).squeeze(-1)
    entropy = -(logp_all.exp() * logp_all).sum(-1)
    return logp, entropy


def policy_gradient_step(policy: LMPolicy, reference: torch.nn.Module | None, optimizer: torch.optim.Optimizer,
                         trajectories: Sequence[Trajectory], config: TrainConfig) -> dict[str, float]:
    """One REINFORCE update: minimise ``-sum(A * log pi(token)) / tokens`` (+ ``kl_coef * KL - entropy_coef * H``).

    Only the policy's own tokens are scored (their logits alone go through the
    softmax, so a large vocabulary costs memory only where it is needed).
    """
    rows = _loss_rows(trajectories, advantages(trajectories, config.advantage, config.gamma))
    n_tokens = sum(sum(r.mask) for r in rows)
    stats = {"loss": 0.0, "entropy": 0.0, "kl": 0.0, "grad_norm": 0.0, "logprob_mismatch": 0.0,
             "logprob_mismatch_max": 0.0}
    if not n_tokens:
        return stats
    device = policy.device
    autocast = torch.autocast(device.type, dtype=torch.bfloat16, enabled=config.bf16 and device.type == "cuda")
    # Eval mode (no dropout) while training too: the loss must score tokens under the distribution that sampled them.
    policy.model.eval()
    optimizer.zero_grad(set_to_none=True)
    mismatch_sum, mismatch_max, mismatch_n = 0.0, 0.0, 0
    for chunk in _micro_batches(rows, config):
        ids, attention, positions = left_pad([r.ids for r in chunk], policy.pad_id, device)
        mask = _padded([r.mask for r in chunk], ids.shape, torch.bool, device)
        adv = _padded([r.advantages for r in chunk], ids.shape, torch.float32, device)[mask]
        sampled = _padded([r.sampled for r in chunk], ids.shape, torch.float32, device)[mask]
        targets = ids[:, 1:][mask]
        with autocast:
            logits = policy.logits(ids, attention, positions)[:, :-1][mask]
        logp, entropy = _token_logprobs(logits, targets)
        loss = -(adv * logp).sum() / n_tokens
        if config.entropy_coef > 0:
            loss = loss - config.entropy_coef * entropy.sum() / n_tokens
        if reference is not None and config.kl_coef > 0:
            with torch.no_grad(), autocast:
                ref_logits = policy.logits(ids, attention, positions, model=reference)[:, :-1][mask]
            ref_logp, _ = _token_logprobs(ref_logits, targets)
            # k3 estimator of KL(pi || ref): unbiased, always >= 0, low variance
            log_ratio = ref_logp - logp
            kl = log_ratio.exp() - log_ratio - 1
            loss = loss + config.kl_coef * kl.sum() / n_tokens
            stats["kl"] += float(kl.detach().sum()) / n_tokens
        loss.backward()
        known = ~sampled.isnan()
        if known.any():
            gap = (logp.detach() - sampled)[known].abs()
            mismatch_sum += float(gap.sum())
            mismatch_max = max(mismatch_max, float(gap.max()))
            mismatch_n += int(known.sum())
        stats["loss"] += float(loss.detach())
        stats["entropy"] += float(entropy.detach().sum()) / n_tokens
    stats["grad_norm"] = float(torch.nn.utils.clip_grad_norm_(policy.model.parameters(), config.max_grad_norm))
    optimizer.step()
    stats["logprob_mismatch"] = mismatch_sum / max(mismatch_n, 1)
    stats["logprob_mismatch_max"] = mismatch_max
    return stats


# --- the loop ------------------------------------------------------------------------------------

def step_metrics(trajectories: Sequence[Trajectory]) -> dict[str, Any]:
    """Mean reward (episode return), accuracy, per env id, response length and failures of one batch."""
    judged = [t for t in trajectories if t.error is None]
    metrics: dict[str, Any] = {
        "reward": sum(sum(t.rewards) for t in judged) / max(len(judged), 1),
        "accuracy": sum(t.correct for t in judged) / max(len(judged), 1),
        "episodes": len(judged),
        "errors": len(trajectories) - len(judged),  # not judged (infrastructure): out of the reward and the loss
        "cut": sum(t.cut is not None for t in trajectories),
        "turns": sum(len(t.rewards) for t in judged) / max(len(judged), 1),
    }
    turns = sum(len(t.rewards) for t in trajectories)
    metrics["response_length"] = sum(t.response_tokens for t in trajectories) / max(turns, 1)
    for reason, count in Counter(error_reason(t.error) for t in trajectories if t.error is not None).items():
        metrics[f"errors/{reason}"] = count
    by_env: dict[str, list[Trajectory]] = defaultdict(list)
    for t in judged:
        by_env[t.env_id].append(t)
    for env_id, ts in sorted(by_env.items()):
        metrics[f"accuracy/{env_id}"] = sum(t.correct for t in ts) / len(ts)
        metrics[f"reward/{env_id}"] = sum(sum(t.rewards) for t in ts) / len(ts)
    return metrics


def train(policy: LMPolicy, envs: Any | Sequence[Any], config: TrainConfig = TrainConfig(),
          out_dir: str | Path | None = None, progress: bool = True,
          callback: Callable[[dict[str, Any]], None] | None = None) -> TrainResult:
    """Train ``policy`` with REINFORCE on ``envs`` (a palaestra vector env, or the copies of a group).

    Writes to ``out_dir`` (when given): ``metrics.jsonl`` (one line per step),
    ``checkpoint.pt`` (or ``checkpoint/`` for a Hugging Face model) every
    ``checkpoint_every`` steps and at the end, and ``learning_curve.png``.
    """
    copies = list(envs) if isinstance(envs, (list, tuple)) else [envs]
    if config.advantage == "group" and len(copies) < 2:
        raise ValueError("group-relative advantages need at least 2 copies of the vector env (see make_group)")
    num_problems = copies[0].num_envs
    out = Path(out_dir) if out_dir is not None else None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "metrics.jsonl").write_text("")
    optimizer = torch.optim.AdamW(policy.model.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    reference = policy.frozen_copy() if config.kl_coef > 0 else None
    engine = make_engine(policy, num_problems * len(copies), config)
    history: list[dict[str, Any]] = []
    checkpoint: Path | None = None
    bar = _progress(config.steps, progress)
    start = time.perf_counter()
    for step in range(config.steps):
        t0 = time.perf_counter()
        trajectories = rollout(policy, copies, seed=config.seed + step * num_problems, config=config, engine=engine)
        t1 = time.perf_counter()
        metrics = {"step": step, **step_metrics(trajectories)}
        metrics.update(policy_gradient_step(policy, reference, optimizer, trajectories, config))
        engine.sync()
        seconds = time.perf_counter() - t0
        sampled = sum(t.response_tokens for t in trajectories)
        metrics["tokens_per_s"] = sampled / seconds
        metrics["rollout_tokens_per_s"] = sampled / (t1 - t0)
        metrics["rollout_seconds"] = t1 - t0
        metrics["step_seconds"] = seconds
        metrics["wall_time"] = time.perf_counter() - start
        history.append(metrics)
        if out is not None:
            with (out / "metrics.jsonl").open("a") as f:
                f.write(json.dumps(metrics) + "\n")
        if callback is not None:
            callback(metrics)
        if bar is not None:
            bar.update(1)
            bar.set_postfix(reward=f"{metrics['reward']:.3f}", acc=f"{metrics['accuracy']:.2f}")
        out_of_time = config.time_limit is not None and metrics["wall_time"] >= config.time_limit
        finished = step + 1 == config.steps or out_of_time
        if out is not None and (finished or (step + 1) % config.checkpoint_every == 0):
            checkpoint = policy.save(out / "checkpoint", {"step": step + 1, "train_config": asdict(config)})
        if finished:
            break
    if bar is not None:
        bar.close()
    title = f"{policy.name} on {', '.join(sorted(set(getattr(copies[0], 'env_ids', []))))}"
    plot = plot_learning_curve(history, out / "learning_curve.png", title) if out is not None and history else None
    return TrainResult(history, checkpoint, plot, time.perf_counter() - start)


def _progress(total: int, enabled: bool) -> Any:
    if not enabled:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:  # tqdm is optional: no bar then
        return None
    return tqdm(total=total, desc="train", unit="step")


def smooth(values: Sequence[float], window: int) -> list[float]:
    """Trailing moving average (the first points average what there is)."""
    out, total = [], 0.0
    for k, v in enumerate(values):
        total += v
        if k >= window:
            total -= values[k - window]
        out.append(total / min(k + 1, window))
    return out


def plot_learning_curve(history: Sequence[dict[str, Any]], path: Path, title: str = "") -> Path | None:
    """Mean reward and accuracy per step (raw and smoothed) against steps and wall time; None without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    steps = [h["step"] for h in history]
    window = max(1, len(history) // 20)
    fig, ax = plt.subplots(figsize=(7, 4))
    for key, colour in (("reward", "tab:blue"), ("accuracy", "tab:green")):
        values = [h[key] for h in history]
        ax.plot(steps, values, color=colour, alpha=0.25, linewidth=1)
        ax.plot(steps, smooth(values, window), color=colour, label=f"mean {key}")
    ax.set_xlabel("step")
    ax.set_ylim(-0.02, 1.02)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    wall = history[-1]["wall_time"]
    ax.set_title(f"{title}: {len(history)} steps in {wall:.0f} s" if title else f"{len(history)} steps in {wall:.0f} s")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path

