"""The README's "Use it with your trainer" section runs: every Python snippet and every ``palaestra`` command.

Substitutions make it run offline and fast, and are the only liberties taken: model
ids point at a tiny model saved in a temporary folder, ``max_steps`` becomes 1 with small
batches, ``seeds=N`` and ``--seeds N`` become 2, the OpenEnv server's address is a loopback server of the test,
and ``my_model`` is a stand-in policy. Commands that start trainers (``python -m verl...``,
``python -m openrlhf...``) are not run; what they point at (files, ``pkg://`` modules, functions)
must exist.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from palaestra.cli import build_parser, main

HERE = Path(__file__).resolve().parent
README = HERE.parents[1] / "README.md"
HEADING = "## Use it with your trainer"
TEST_ARGS = {"per_device_train_batch_size": 4, "num_generations": 4, "report_to": [], "use_cpu": True,
             "disable_tqdm": True, "save_strategy": "no", "gradient_checkpointing": False}


def section() -> str:
    text = README.read_text()
    start = text.index(HEADING)
    following = text.find("\n## ", start + len(HEADING))
    return text[start: following if following > 0 else len(text)]


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", section(), re.S)


def commands() -> list[str]:
    lines = []
    for block in blocks("bash"):
        joined = re.sub(r"\\\n\s*", " ", block)
        lines += [line.split("  #")[0].strip() for line in joined.splitlines()
                  if line.strip() and not line.lstrip().startswith("#")]
    return lines


@pytest.fixture(scope="module")
def tiny_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("trl")
    from tiny_chat import build_model, build_tokenizer

    from palaestra.integrations.common import problem_set

    folder = tmp_path_factory.mktemp("tiny-model")
    staging = build_tokenizer(["staging"], vocab_size=300)  # renders the chat template for the real one's corpus
    ids = ["arithmetic/expression", "deduction/propositional", "games/wordle", "games/guess_number"]
    texts = [staging.apply_chat_template([{"role": "user", "content": p.prompt}], add_generation_prompt=True,
                                         tokenize=False) + "<answer>1</answer><|im_end|>"
             for p in problem_set(ids, levels=[0, 1, 2], seeds=8)]
    tokenizer = build_tokenizer(texts, vocab_size=1500)  # short token sequences: a fast CPU test
    build_model(tokenizer).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def test_trl_snippets_train(tiny_model_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny matrices: one thread is faster than two contended ones
    try:
        run_trl_snippets(tiny_model_dir, tmp_path, monkeypatch)
    finally:
        torch.set_num_threads(threads)


def run_trl_snippets(tiny_model_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TRL_EXPERIMENTAL_SILENCE", "1")
    python = [b for b in blocks("python") if "trl" in b or "GRPOTrainer" in b]
    assert len(python) >= 2
    namespace: dict[str, Any] = {}
    for block in python:
        source = re.sub(r'"Qwen/[^"]+"', repr(str(tiny_model_dir)), block)
        source = source.replace("max_completion_length=2048", "max_completion_length=24")
        source = re.sub(r"seeds=\d+", "seeds=2", source)
        extra = {k: v for k, v in TEST_ARGS.items() if f"{k}=" not in source}
        if "max_completion_length" not in source:
            extra["max_completion_length"] = 8
        source = re.sub(r"max_steps=\d+", f"max_steps=1, **{extra!r}", source)
        exec(compile(source, "README.md (TRL)", "exec"), namespace)  # our own documentation, not model text
        assert namespace["trainer"].state.global_step == 1
        if "Curriculum(" in block:  # levels reach the trainer's log history (and so every reporter), moved or not
            logged = {k for h in namespace["trainer"].state.log_history for k in h}
            assert {"palaestra/arithmetic/expression/level", "palaestra/deduction/propositional/level"} <= logged
    assert any("rewards/palaestra/mean" in h for h in namespace["trainer"].state.log_history)


def test_palaestra_commands_run_and_trainer_commands_point_at_real_things(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pyarrow")
    monkeypatch.chdir(tmp_path)
    parser = build_parser()
    ran = set()
    for line in commands():
        background = line.endswith("&")
        words = shlex.split(line.rstrip("&"))
        if words[0] == "palaestra":
            args = [re.sub(r"^\d{2,}$", "2", w) if i and words[i - 1] == "--seeds" else w
                    for i, w in enumerate(words[1:], start=1)]
            if words[1] in ("serve", "serve-reward") or background:
                parser.parse_args(args)  # a server: its arguments must parse; the servers are tested elsewhere
            else:
                assert main(args) == 0, line
            ran.add(words[1])
        elif words[:2] == ["python", "-c"]:
            subprocess.run([sys.executable, "-c", words[2]], check=True, cwd=tmp_path)
            ran.add("python -c")
        elif words[:2] == ["python", "-m"]:
            for word in words:
                key, _, value = word.partition("=")
                if value.startswith("pkg://"):
                    module = importlib.import_module(value[len("pkg://"):])
                    name = next(w.partition("=")[2] for w in words if w.startswith(key.rsplit(".", 1)[0] + ".name"))
                    assert callable(getattr(module, name))
                elif value.endswith((".parquet", ".yaml", ".jsonl")) or word.endswith((".parquet", ".jsonl")):
                    assert Path(value or word).is_file(), word
            for flag, value in zip(words, words[1:]):
                if flag.startswith("--") and value.endswith(".jsonl"):
                    assert Path(value).is_file(), value
            ran.add(words[2].split(".")[0])
    assert {"export", "serve-reward", "serve", "python -c", "verl", "openrlhf"} <= ran
    for module in ("palaestra.integrations.openrlhf", "palaestra.integrations.openrlhf_agent"):
        assert Path(importlib.import_module(module).__file__).is_file()


def test_openenv_snippet_plays_against_a_loopback_server() -> None:
    pytest.importorskip("openenv.core")
    from palaestra.integrations.openenv_server import BackgroundServer, ServeConfig, create_app

    [block] = [b for b in blocks("python") if "PalaestraEnvClient" in b]
    with BackgroundServer(create_app(ServeConfig(max_sessions=4))) as server:
        source = block.replace("http://127.0.0.1:8000", server.url)
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(source, "README.md (OpenEnv)", "exec"), {"my_model": lambda prompt: "<answer>50</answer>"})
    reward, verdict = printed.getvalue().split(" ", 1)
    assert float(reward) in (0.0, 1.0) and "'parsed': True" in verdict
