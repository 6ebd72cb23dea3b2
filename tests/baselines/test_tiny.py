"""The tiny character-level policy: tokenizer, cached generation, output characters, checkpoints."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="the tiny policy needs torch (pip install palaestra[torch])")

from palaestra.baselines.reinforce import left_pad, load_policy  # noqa: E402
from palaestra.baselines.tiny import CharTokenizer, TinyConfig, TinyPolicy  # noqa: E402


def test_tokenizer_round_trips_ascii_and_marks_the_rest_unknown() -> None:
    tok = CharTokenizer()
    text = "Input: aZ9 ~{}\n"
    assert tok.decode(tok.encode(text)) == text
    assert tok.encode("é") == [CharTokenizer.UNK] and tok.decode([CharTokenizer.SEP, CharTokenizer.EOS]) == ""


def test_user_messages_keep_their_tail_and_close_unfinished_replies() -> None:
    policy = TinyPolicy(TinyConfig(context_chars=5))
    first = [{"role": "user", "content": "0123456789"}]
    assert policy.encode_user(first, closed=True) == policy.tokenizer.encode("56789") + [CharTokenizer.SEP]
    later = first + [{"role": "assistant", "content": "ab"}, {"role": "user", "content": "lower"}]
    assert policy.encode_user(later, closed=False)[0] == CharTokenizer.EOS  # the cut reply is closed first
    assert policy.encode_user(later, closed=True) == policy.tokenizer.encode("lower") + [CharTokenizer.SEP]


def test_cached_generation_matches_full_recomputation() -> None:
    policy = TinyPolicy(seed=1)
    generator = torch.Generator().manual_seed(0)
    with torch.no_grad():
        for name, p in policy.model.named_parameters():  # a random model with sharp, varied predictions
            if "ln" not in name:
                p.normal_(0, 0.2, generator=generator)
    prefixes = [policy.encode_user([{"role": "user", "content": t}], closed=True) for t in ("Input: abc", "x", "")]
    greedy = policy.generate(prefixes, 8, temperature=0.0, seed=0)
    assert all(len(set(reply)) > 2 for reply in greedy)  # the cached keys change meaning as replies grow
    for prefix, reply in zip(prefixes, greedy):  # rows of different lengths: left padding in the batch
        ids = list(prefix)
        for token in reply:  # the same choice, one full forward per token, no cache, no padding
            with torch.no_grad():
                assert int(policy.logits(*left_pad([ids], 0, policy.device))[0, -1].argmax()) == token
            ids.append(token)


def test_checkpoint_round_trip(tmp_path: Path) -> None:
    policy = TinyPolicy(TinyConfig(d_model=32, n_layers=1, output_chars="xyz"), seed=5)
    policy.answer_format = "raw"
    path = policy.save(tmp_path / "ckpt", {"step": 7, "train_config": {"max_new_tokens": 3}})
    assert path == tmp_path / "ckpt.pt"
    loaded = load_policy(str(path))
    assert isinstance(loaded, TinyPolicy) and loaded.config == policy.config
    assert loaded.answer_format == "raw" and loaded.reply_tokens == 3
    prefix = [policy.encode_user([{"role": "user", "content": "hello"}], closed=True)]
    assert loaded.generate(prefix, 6, 1.0, seed=2) == policy.generate(prefix, 6, 1.0, seed=2)
    (tmp_path / "junk.pt").write_bytes(b"not a checkpoint")
    with pytest.raises(ValueError, match="not a tiny-policy checkpoint"):
        load_policy(str(tmp_path / "junk.pt"))
    with pytest.raises(ValueError, match="unknown model"):
        load_policy(str(tmp_path / "missing.pt"))
