"""The tiny character-level policy: tokenizer, cached generation, output characters, checkpoints."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="the tiny policy needs torch (pip install palaestra[torch])")

from palaestra.baselines.engine import RolloutEngine  # noqa: E402
from palaestra.baselines.models import load_policy  # noqa: E402
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


def test_checkpoint_round_trip(tmp_path: Path) -> None:
    policy = TinyPolicy(TinyConfig(d_model=32, n_layers=1, output_chars="xyz"), seed=5)
    policy.answer_format = "raw"
    path = policy.save(tmp_path / "ckpt", {"step": 7, "train_config": {"max_new_tokens": 3}})
    assert path == tmp_path / "ckpt.pt"
    loaded = load_policy(str(path))
    assert isinstance(loaded, TinyPolicy) and loaded.config == policy.config
    assert loaded.answer_format == "raw" and loaded.reply_tokens == 3
    prefix = [policy.encode_user([{"role": "user", "content": "hello"}], closed=True)]
    replies = [RolloutEngine(p, slots=1, capacity=32).complete(prefix, 6, 1.0, seed=2)[0].ids for p in (loaded, policy)]
    assert replies[0] == replies[1]
    (tmp_path / "junk.pt").write_bytes(b"not a checkpoint")
    with pytest.raises(ValueError, match="not a tiny-policy checkpoint"):
        load_policy(str(tmp_path / "junk.pt"))
    with pytest.raises(ValueError, match="unknown model"):
        load_policy(str(tmp_path / "missing.pt"))
