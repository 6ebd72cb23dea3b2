"""The Hugging Face policy, on a random two-layer GPT-2 and a BPE tokenizer built here, offline.

No model is downloaded: the tokenizer is trained on a few palaestra prompts and the
model is constructed from a config, both saved to a temporary directory.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="the Hugging Face policy needs torch (pip install palaestra[hf])")
pytest.importorskip("transformers", reason="transformers is not installed (pip install palaestra[hf])")

import palaestra  # noqa: E402
from palaestra.baselines.hf import HFPolicy  # noqa: E402
from palaestra.baselines.reinforce import (  # noqa: E402
    TrainConfig,
    left_pad,
    load_policy,
    policy_gradient_step,
    rollout,
    train,
)
from palaestra.cli import main  # noqa: E402
from palaestra.core.registry import make_source  # noqa: E402

CHAT_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast

    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    corpus = [make_source(env_id).sample(level, seed).prompt
              for env_id in ("strings/copy", "games/guess_number") for level in range(3) for seed in range(20)]
    bpe.train_from_iterator(corpus, trainers.BpeTrainer(
        vocab_size=400, special_tokens=["<|endoftext|>", "<|im_start|>", "<|im_end|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token="<|im_end|>", pad_token="<|endoftext|>")
    tokenizer.chat_template = CHAT_TEMPLATE
    config = GPT2Config(vocab_size=len(tokenizer), n_positions=512, n_embd=32, n_layer=2, n_head=2,
                        eos_token_id=tokenizer.eos_token_id, bos_token_id=tokenizer.eos_token_id,
                        pad_token_id=tokenizer.pad_token_id)
    torch.manual_seed(0)
    model = GPT2LMHeadModel(config)
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    path = tmp_path_factory.mktemp("tiny-gpt2")
    model.save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


def test_incremental_ids_are_the_chat_template(model_dir: Path) -> None:
    policy = HFPolicy(model_dir, device="cpu")
    conversation = [{"role": "user", "content": "Guess a number."}, {"role": "assistant", "content": "50"},
                    {"role": "user", "content": "The secret number is higher than 50."}]
    reply = policy.tokenizer("50", add_special_tokens=False)["input_ids"]
    expected = policy.tokenizer.apply_chat_template(conversation, tokenize=False, add_generation_prompt=True)
    for closed in (True, False):  # a reply that stopped itself, or one cut at max_new_tokens
        stop = [policy.tokenizer.eos_token_id] if closed else []
        ids = policy.encode_user(conversation[:1], closed=True) + reply + stop
        ids += policy.encode_user(conversation, closed=closed)
        assert policy.tokenizer.decode(ids) == expected
    assert policy.tokenizer.decode(policy.conversation_ids(conversation)) == expected
    assert policy.decode(reply + [policy.tokenizer.eos_token_id]) == "50"


def test_trains_on_single_and_multi_turn_envs_and_reloads(model_dir: Path, tmp_path: Path) -> None:
    policy = HFPolicy(model_dir, device="cpu")
    policy.answer_format = "raw"
    config = TrainConfig(steps=2, lr=1e-3, max_new_tokens=6, max_turns=2, micro_batch_size=2, kl_coef=0.05)
    envs = palaestra.make_vec(["strings/copy", "games/guess_number"], 4, answer_format="raw")
    try:
        result = train(policy, envs, config, out_dir=tmp_path, progress=False)
        # A random model earns no reward, so give half the episodes one to see the gradient move the weights.
        with torch.no_grad():
            batch = rollout(policy, [envs], seed=100, config=config)
    finally:
        envs.close()
    assert all(math.isfinite(h["loss"]) and h["episodes"] == 4 for h in result.history)
    assert result.history[-1]["turns"] > 1  # the guess_number episodes went on after their first reply
    for t in batch:
        t.rewards[-1] = float(t.index % 2)
    before = [p.detach().clone() for p in policy.model.parameters()]
    stats = policy_gradient_step(policy, policy.frozen_copy(), torch.optim.AdamW(policy.model.parameters(), lr=1e-3),
                                 batch, config)
    assert stats["grad_norm"] > 0 and stats["entropy"] > 0
    assert any(not torch.equal(a, b) for a, b in zip(before, policy.model.parameters()))

    assert result.checkpoint == tmp_path / "checkpoint" and (tmp_path / "checkpoint" / "palaestra.json").is_file()
    assert json.loads((tmp_path / "checkpoint" / "palaestra.json").read_text())["step"] == 2
    loaded = load_policy(f"hf:{result.checkpoint}", device="cpu")
    assert loaded.answer_format == "raw" and loaded.reply_tokens == 6
    stepped = load_policy(f"hf:{policy.save(tmp_path / 'stepped', {'step': 3})}", device="cpu")
    ids = _batch([policy.encode_user([{"role": "user", "content": "Input: ab"}], closed=True)])
    with torch.no_grad():
        assert torch.equal(stepped.logits(*ids), policy.logits(*ids))
        assert not torch.equal(stepped.logits(*ids), HFPolicy(model_dir, device="cpu").logits(*ids))


def _batch(ids: list[list[int]]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    return left_pad(ids, 0, torch.device("cpu"))


def test_eval_cli_runs_a_local_hf_model(model_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--model", f"hf:{model_dir}", "--envs", "strings/copy", "--levels", "0", "--seeds", "2",
                 "--samples", "2", "--k", "1", "2", "--max-new-tokens", "4", "--device", "cpu",
                 "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "hf:tiny-gpt2" in out and "4 episodes" in out and "0 infrastructure errors" in out
