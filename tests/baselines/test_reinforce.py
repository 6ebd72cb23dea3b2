"""The REINFORCE trainer: advantages, multi-turn masking, errors, KL, checkpoints and the CLI."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch", reason="the REINFORCE baseline needs torch (pip install palaestra[torch])")

import palaestra  # noqa: E402
from palaestra.baselines.engine import chat  # noqa: E402
from palaestra.baselines.reinforce import (  # noqa: E402
    TrainConfig,
    Trajectory,
    _loss_rows,
    advantages,
    make_group,
    policy_gradient_step,
    returns_to_go,
    rollout,
    step_metrics,
    train,
)
from palaestra.baselines.tiny import TinyPolicy  # noqa: E402
from palaestra.cli import main  # noqa: E402
from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, registry  # noqa: E402


def traj(index: int, rewards: list[float], error: str | None = None) -> Trajectory:
    return Trajectory(env_id="x/y", copy=0, index=index, messages=[], rewards=rewards, error=error)


def test_returns_to_go_sum_later_rewards() -> None:
    assert returns_to_go([0.0, 0.0, 1.0], gamma=1.0) == [1.0, 1.0, 1.0]
    assert returns_to_go([0.0, 0.0, 1.0], gamma=0.5) == [0.25, 0.5, 1.0]
    assert returns_to_go([0.5, 0.0, 0.25], gamma=1.0) == [0.75, 0.25, 0.25]


def test_batch_advantages_normalise_returns_and_skip_errors() -> None:
    batch = [traj(0, [1.0]), traj(1, [0.0]), traj(2, [0.0]), traj(3, [1.0]), traj(4, [1.0], error="worker died")]
    assert advantages(batch, "batch") == [[1.0], [-1.0], [-1.0], [1.0], []]


def test_group_advantages_compare_samples_of_the_same_problem() -> None:
    # problem 0: one of two samples solved it; problem 1: both did (no signal); problem 2: a 3-sample group
    batch = [traj(0, [1.0]), traj(0, [0.0]), traj(1, [1.0]), traj(1, [1.0]),
             traj(2, [0.0]), traj(2, [0.0]), traj(2, [0.9])]
    adv = advantages(batch, "group")
    assert adv[:4] == [[1.0], [-1.0], [0.0], [0.0]]
    assert adv[6][0] > 0 > adv[4][0] == adv[5][0] and sum(a[0] for a in adv[4:]) == pytest.approx(0.0)


def test_multi_turn_advantages_use_return_to_go_per_turn() -> None:
    batch = [traj(0, [0.0, 0.0, 1.0]), traj(1, [0.0, 0.0])]  # episode returns 1 and 0: mean 0.5, std 0.5
    assert advantages(batch, "batch") == [[1.0, 1.0, 1.0], [-1.0, -1.0]]
    # gamma 0.5: returns-to-go 0.25, 0.5, 1 against episode returns 0.25 and 0 (mean 0.125, std 0.125)
    assert advantages(batch, "batch", gamma=0.5)[0] == pytest.approx([1.0, 3.0, 7.0])


def test_multi_turn_rollout_keeps_observations_out_of_the_loss() -> None:
    policy = TinyPolicy(seed=0)
    envs = palaestra.make_vec("games/guess_number", 4, answer_format="raw")
    try:
        trajectories = rollout(policy, [envs], seed=0, config=TrainConfig(max_new_tokens=4, max_turns=3))
    finally:
        envs.close()
    assert len(trajectories) == 4
    rows = _loss_rows(trajectories, [[float(k + 1) for k in range(len(t.rewards))] for t in trajectories])
    for t, row in zip(trajectories, rows):
        turns = len(t.rewards)
        assert 1 <= turns <= 3 and t.done and t.error is None
        assert sorted({k for k in t.turn_of if k >= 0}) == list(range(turns))
        assert row.mask == [k >= 0 for k in t.turn_of] and row.ids == t.ids
        # each reply's tokens carry that turn's advantage; env tokens carry none
        assert row.advantages == [float(k + 1) if k >= 0 else 0.0 for k in t.turn_of]
        assert len(t.sampled_logprobs) == t.response_tokens
        replies = [m["content"] for m in t.messages if m["role"] == "assistant"]
        assert [policy.decode([i for i, k in zip(t.ids, t.turn_of) if k == turn]) for turn in range(turns)] == replies
        env_text = policy.decode([i for i, k in zip(t.ids, t.turn_of) if k < 0])
        for observation in [m["content"] for m in t.messages if m["role"] == "user"]:
            assert observation[-policy.config.context_chars:] in env_text  # env text is there, but masked
        if t.cut is None:  # the game said so (won, or out of guesses)
            assert t.rewards[-1] in (0.0, 1.0)


@dataclass(frozen=True)
class _Size:
    size: int


class Fragile(MultiTurnTask):
    """One-turn test env whose step raises on odd problem seeds (an env bug, not a wrong answer)."""

    id = "testing/fragile"
    family = "testing"
    description = "Say anything; odd seeds crash the env."
    Config = _Size

    def config(self, level: int) -> _Size:
        return _Size(level + 1)

    def generate(self, rng: random.Random, config: _Size) -> Problem:
        return Problem(prompt="Say anything.", answer="x", data={})

    def max_turns(self, problem: Problem) -> int:
        return 1

    def play(self, problem: Problem, state: Any, move: str) -> Outcome:
        if problem.seed % 2:
            raise RuntimeError("env bug")
        return Outcome(state, Verdict.right(), "thanks", True)

    def oracle(self, problem: Problem, state: Any) -> str:
        return "x"


@pytest.fixture
def fragile() -> Iterator[str]:
    registry.add(Fragile)
    yield Fragile.id
    registry.remove(Fragile.id)


def test_env_errors_are_recorded_and_not_trained_on(fragile: str) -> None:
    policy = TinyPolicy(seed=0)
    envs = palaestra.make_vec(fragile, 6, answer_format="raw")
    try:
        trajectories = rollout(policy, [envs], seed=10, config=TrainConfig(max_new_tokens=2))
    finally:
        envs.close()
    errored = [t.index for t in trajectories if t.error]
    assert errored == [1, 3, 5] and all("env bug" in t.error for t in trajectories if t.error)  # type: ignore[operator]
    assert [t.correct for t in trajectories] == [True, False, True, False, True, False]
    assert len(_loss_rows(trajectories, advantages(trajectories, "batch"))) == 3
    metrics = step_metrics(trajectories)
    assert metrics["errors"] == 3 and metrics["episodes"] == 3 and metrics["accuracy"] == 1.0


def test_kl_to_the_initial_policy_starts_at_zero_and_grows() -> None:
    policy = TinyPolicy.for_envs(["strings/copy"], seed=0)
    reference = policy.frozen_copy()
    optimizer = torch.optim.AdamW(policy.model.parameters(), lr=1e-2)
    config = TrainConfig(kl_coef=0.1, max_new_tokens=4)
    envs = palaestra.make_vec("strings/copy", 16, answer_format="raw")
    try:
        kls = []
        for step in range(3):
            with torch.no_grad():
                batch = rollout(policy, [envs], seed=step * 16, config=config)
            kls.append(policy_gradient_step(policy, reference, optimizer, batch, config)["kl"])
    finally:
        envs.close()
    assert kls[0] == pytest.approx(0.0, abs=1e-6) and kls[2] > 1e-4


def test_group_copies_must_hold_the_same_problems() -> None:
    copies = [palaestra.make_vec("strings/copy", 2, answer_format="raw"),
              palaestra.make_vec("arithmetic/expression", 2, answer_format="raw")]
    try:
        with pytest.raises(ValueError, match="same problems"):
            rollout(TinyPolicy(seed=0), copies, seed=0, config=TrainConfig(max_new_tokens=1))
        with pytest.raises(ValueError, match="at least 2 copies"):
            train(TinyPolicy(seed=0), copies[0], TrainConfig(steps=1, advantage="group"), progress=False)
    finally:
        for envs in copies:
            envs.close()


def test_group_training_writes_metrics_checkpoint_and_curve(tmp_path: Path) -> None:
    policy = TinyPolicy.for_envs(["strings/copy", "arithmetic/expression"], seed=0)
    policy.answer_format = "raw"
    envs = make_group(["strings/copy", "arithmetic/expression"], 4, 3, answer_format="raw")
    try:
        result = train(policy, envs, TrainConfig(steps=3, advantage="group", max_new_tokens=4), out_dir=tmp_path,
                       progress=False)
    finally:
        for e in envs:
            e.close()
    lines = [json.loads(line) for line in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    assert [m["step"] for m in lines] == [0, 1, 2] and lines == result.history
    for key in ("reward", "accuracy", "accuracy/strings/copy", "accuracy/arithmetic/expression", "entropy",
                "response_length", "tokens_per_s", "wall_time", "loss", "grad_norm"):
        assert key in lines[-1], key
    assert lines[0]["episodes"] == 12 and lines[-1]["wall_time"] >= lines[0]["wall_time"] > 0
    assert result.plot == tmp_path / "learning_curve.png" and result.plot.read_bytes()[:4] == b"\x89PNG"

    assert result.checkpoint == tmp_path / "checkpoint.pt"
    loaded = TinyPolicy.load(result.checkpoint)
    assert loaded.answer_format == "raw" and loaded.config == policy.config and loaded.reply_tokens == 4
    prompt = [{"role": "user", "content": "Input: abc"}]
    assert chat(loaded, [prompt], 6, temperature=0) == chat(policy, [prompt], 6, temperature=0)


def test_cli_train_then_eval_the_checkpoint(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "--steps", "2", "--batch-size", "8", "--out", str(tmp_path / "run"), "--quiet",
                 "--eval-seeds", "20"]) == 0
    out = capsys.readouterr().out
    assert "sampled accuracy" in out and "learning curve" in out and (tmp_path / "run" / "checkpoint.pt").is_file()
    assert main(["eval", "--model", str(tmp_path / "run" / "checkpoint.pt"), "--envs", "strings/copy", "--levels", "0",
                 "--seeds", "3", "--samples", "2", "--k", "1", "2", "--out", str(tmp_path / "eval")]) == 0
    out = capsys.readouterr().out
    assert "pass@2" in out and "answer format raw" in out and "6 episodes" in out
    records = [json.loads(line) for line in (tmp_path / "eval" / "transcripts.jsonl").read_text().splitlines()]
    assert len(records) == 6
    assert all(r["messages"][0]["content"].endswith("Reply with the answer only.") for r in records)
    # a second run into the same folder is refused (nothing is overwritten) unless --force says so
    again = ["train", "--steps", "1", "--batch-size", "8", "--out", str(tmp_path / "run"), "--quiet", "--eval-seeds", "0"]
    before = (tmp_path / "run" / "checkpoint.pt").read_bytes()
    assert main(again) == 2
    assert "already holds files" in capsys.readouterr().err
    assert (tmp_path / "run" / "checkpoint.pt").read_bytes() == before
    assert main([*again, "--force"]) == 0


def test_cli_train_writes_a_new_folder_per_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    run = ["train", "--envs", "strings/copy", "--levels", "0", "--steps", "1", "--batch-size", "8", "--eval-seeds", "0"]
    assert main(run) == 0 and main(run) == 0
    folders = sorted(p for p in (tmp_path / "runs" / "train").iterdir())
    assert len(folders) == 2 and all((f / "checkpoint.pt").is_file() for f in folders)
    assert main([*run[:-2], "--levels", "0", "1"]) == 2
    assert "one level at a time" in capsys.readouterr().err
