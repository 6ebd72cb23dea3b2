"""Infrastructure errors are never learned from: with the sandbox down, a code env's episodes are not judged,
so the trainer gives them no weight and counts them, and ``eval`` leaves them out of pass@k and says why."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

torch = pytest.importorskip("torch", reason="the REINFORCE baseline needs torch (pip install palaestra[torch])")

import palaestra  # noqa: E402
from palaestra import sandbox  # noqa: E402
from palaestra.baselines.evaluate import PolicyChat, Suite, pass_cell, run_suite  # noqa: E402
from palaestra.baselines.reinforce import (  # noqa: E402
    TrainConfig,
    _loss_rows,
    advantages,
    policy_gradient_step,
    rollout,
    step_metrics,
)
from palaestra.baselines.tiny import TinyPolicy  # noqa: E402
from palaestra.sandbox.api import ExecResult  # noqa: E402

CODE_ENV = "code/array_pipeline"
OUTAGE = "sandbox down: connection refused"


class DownSandbox:
    """A sandbox backend that cannot run anything: every run is an infrastructure failure."""

    name = "down"

    def __init__(self) -> None:
        self.runs = 0

    def run(self, source: str, **kwargs: Any) -> ExecResult:
        self.runs += 1
        return ExecResult(stdout="", stderr="", exit_code=None, error=OUTAGE)

    def session(self, limits: Any = None) -> Any:
        raise RuntimeError(OUTAGE)

    def close(self) -> None:
        pass


class CodeWriter(TinyPolicy):
    """The tiny model, whose every reply reads as a well-formed solution (so that it reaches the sandbox)."""

    def decode(self, ids: Any) -> str:
        return "def solve(xs):\n    return xs"


@pytest.fixture
def down() -> Iterator[DownSandbox]:
    backend = DownSandbox()
    previous = sandbox.set_backend(backend)  # type: ignore[arg-type]
    try:
        yield backend
    finally:
        sandbox.set_backend(previous)  # None restores the default backend: the stub must not leak to later tests


def test_errored_episodes_get_no_weight_and_are_counted(down: DownSandbox) -> None:
    policy = CodeWriter(seed=0, device="cpu")
    config = TrainConfig(max_new_tokens=4, lr=1e-2)
    envs = palaestra.make_vec([CODE_ENV, "strings/copy"], 8, answer_format="raw")
    try:
        batch = rollout(policy, [envs], seed=0, config=config)
    finally:
        envs.close()
    code = [t for t in batch if t.env_id == CODE_ENV]
    judged = [t for t in batch if t.env_id != CODE_ENV]
    assert down.runs >= len(code) > 0 and judged
    assert all(t.error is not None and "sandbox down" in t.error for t in code)
    assert all(t.error is None for t in judged)

    metrics = step_metrics(batch)
    assert metrics["errors"] == len(code) and metrics["episodes"] == len(judged)
    assert sum(v for k, v in metrics.items() if k.startswith("errors/")) == len(code)
    assert f"accuracy/{CODE_ENV}" not in metrics
    assert all(a == [] for t, a in zip(batch, advantages(batch, "batch")) if t.error is not None)
    assert len(_loss_rows(batch, advantages(batch, "batch"))) == len(judged)

    # One update on the whole batch is exactly the update on the judged episodes alone.
    for t in judged:
        t.rewards[-1] = float(t.index % 4 == 1)  # some signal among the judged episodes
    twin = copy.deepcopy(policy)
    step = policy_gradient_step(policy, None, torch.optim.AdamW(policy.model.parameters(), lr=1e-2), batch, config)
    alone = policy_gradient_step(twin, None, torch.optim.AdamW(twin.model.parameters(), lr=1e-2), judged, config)
    assert step["grad_norm"] > 0 and step["grad_norm"] == pytest.approx(alone["grad_norm"])
    for a, b in zip(policy.model.parameters(), twin.model.parameters()):
        assert torch.equal(a, b)

    # A batch of errored episodes alone changes nothing.
    before = [p.detach().clone() for p in policy.model.parameters()]
    stats = policy_gradient_step(policy, None, torch.optim.AdamW(policy.model.parameters(), lr=1e-2), code, config)
    assert stats["loss"] == 0.0 and stats["grad_norm"] == 0.0
    assert all(torch.equal(a, b) for a, b in zip(before, policy.model.parameters()))


def test_eval_leaves_errors_out_of_pass_at_k_and_counts_their_reasons(down: DownSandbox) -> None:
    chat = PolicyChat(CodeWriter(seed=0, device="cpu"), max_new_tokens=4)
    suite = Suite((CODE_ENV, "strings/copy"), levels=(0,), seeds=(0, 1, 2))
    result = run_suite(chat, suite, samples=2, ks=(1, 2), answer_format="raw")
    rows = {r["env_id"]: r for r in result.env_rows()}
    assert rows[CODE_ENV]["errors"] == rows[CODE_ENV]["episodes"] == 6
    assert rows[CODE_ENV]["pass@1"] != rows[CODE_ENV]["pass@1"]  # NaN: nothing was judged
    assert rows["strings/copy"]["errors"] == 0 and rows["strings/copy"]["pass@1"] == 0.0
    assert result.error_reasons() == {"sandbox down": 6}
    # pass@k is printed with the problems it rests on: none of the code env's 3, all 3 of strings/copy
    assert pass_cell(rows[CODE_ENV], 2) == "- (0/3)"
    assert pass_cell(rows["strings/copy"], 2) == "0.000 (3/3)"


def test_eval_cli_prints_error_reasons_and_fails_when_nothing_was_judged(
        down: DownSandbox, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from palaestra.baselines import models
    from palaestra.cli import main

    monkeypatch.setattr(models, "load_policy", lambda spec, device=None: CodeWriter(seed=0, device="cpu"))
    args = ["eval", "--model", "tiny", "--envs", CODE_ENV, "--levels", "0", "--seeds", "3", "--answer-format", "raw",
            "--max-new-tokens", "4"]
    assert main(args) == 1
    captured = capsys.readouterr()
    assert "3 infrastructure errors" in captured.out and "3 x sandbox down" in captured.out
    assert "every episode failed" in captured.err
    assert main([*args[:4], CODE_ENV, "strings/copy", *args[5:]]) == 0  # some episodes were judged


def test_cli_says_how_to_get_a_model(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import importlib.util

    from palaestra.cli import main

    assert main(["eval", "--model", "gpt-9", "--envs", "strings/copy"]) == 2
    err = capsys.readouterr().err
    assert "unknown model 'gpt-9'" in err and all(c in err for c in ("oracle", "openai:", "tiny", "hf:PATH"))
    real = importlib.util.find_spec
    hidden = {"transformers"}
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name in hidden else real(name, *a))
    assert main(["eval", "--model", "hf:/models/qwen", "--envs", "strings/copy"]) == 2
    assert "pip install 'palaestra[hf]'" in capsys.readouterr().err
    assert main(["train", "--model", "hf:/models/qwen", "--steps", "1", "--eval-seeds", "0"]) == 2
    assert "pip install 'palaestra[hf]'" in capsys.readouterr().err


def test_eval_engine_vllm_is_optional_and_drives_vllm_when_present(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Without vLLM, a clear hint; with it (a stand-in module here: no GPU in CI), one chat batch per turn."""
    import importlib.util
    import sys
    import types

    from palaestra.cli import main

    args = ["eval", "--engine", "vllm", "--model", f"hf:{tmp_path}", "--envs", "games/guess_number", "--levels", "0",
            "--seeds", "2", "--samples", "2", "--k", "1", "2", "--max-new-tokens", "16"]
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "vllm" else real(name, *a))
    assert main(args) == 2 and "pip install vllm" in capsys.readouterr().err
    monkeypatch.setattr(importlib.util, "find_spec", real)

    calls: list[tuple[int, list[int]]] = []

    class LLM:
        def __init__(self, model: str, max_model_len: int, seed: int) -> None:
            assert model == str(tmp_path) and max_model_len == 4096

        def chat(self, conversations: list[list[dict[str, str]]], params: list[Any], use_tqdm: bool) -> list[Any]:
            calls.append((len(conversations), [p.seed for p in params]))
            assert all(p.max_tokens == 16 and c[-1]["role"] == "user" for p, c in zip(params, conversations))
            return [types.SimpleNamespace(outputs=[types.SimpleNamespace(text="<answer>50</answer>")])
                    for _ in conversations]

    fake = types.ModuleType("vllm")
    fake.LLM = LLM  # type: ignore[attr-defined]
    fake.SamplingParams = lambda **kw: types.SimpleNamespace(**kw)  # type: ignore[attr-defined]
    fake.__spec__ = importlib.util.spec_from_loader("vllm", loader=None)
    monkeypatch.setitem(sys.modules, "vllm", fake)
    assert main(args) == 0
    out = capsys.readouterr().out
    assert f"vllm:{tmp_path.name}: 4 episodes" in out and "0 infrastructure errors" in out
    assert calls[0][0] == 4 and len(set(calls[0][1])) == 4  # one batch per turn, a seed per episode
    assert len(calls) > 1  # guessing 50 every turn: the games go on for several turns
