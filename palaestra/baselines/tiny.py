"""A tiny character-level transformer policy that REINFORCE can train from scratch on a CPU.

Text is characters (printable ASCII and newline; anything else is one unknown
token). A conversation is ``user SEP assistant EOS user SEP assistant EOS ...``,
where each user message (prompt or env observation) keeps only its last
``context_chars`` characters: the policy reads the tail of the prompt, where
palaestra's short tasks state their input. Input and output embeddings are tied,
so copying a character seen in the context is a natural first skill.

Example::

    >>> from palaestra.baselines.engine import chat
    >>> from palaestra.baselines.tiny import TinyPolicy
    >>> policy = TinyPolicy(seed=0, device="cpu")
    >>> reply = chat(policy, [[{"role": "user", "content": "Input: a"}]], max_new_tokens=4)[0]
    >>> isinstance(reply, str) and len(reply) <= 4
    True
"""

from __future__ import annotations

import pickle
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from palaestra.baselines.decoder import MASKED_LOGIT, Architecture, CachedTransformer
from palaestra.baselines.policy import LMPolicy, Message, default_device

CHECKPOINT_FORMAT = "palaestra-tiny-1"


class CharTokenizer:
    """Characters to ids: four special tokens, then newline and printable ASCII.

    >>> tok = CharTokenizer()
    >>> tok.decode(tok.encode("hi!"))
    'hi!'
    """

    PAD, SEP, EOS, UNK = 0, 1, 2, 3
    CHARS = "\n" + "".join(chr(c) for c in range(32, 127))

    def __init__(self) -> None:
        self.index = {c: k + 4 for k, c in enumerate(self.CHARS)}
        self.vocab_size = 4 + len(self.CHARS)

    def encode(self, text: str) -> list[int]:
        return [self.index.get(c, self.UNK) for c in text]

    def decode(self, ids: Sequence[int]) -> str:
        return "".join(self.CHARS[k - 4] if k >= 4 else "" for k in ids)


@dataclass(frozen=True)
class TinyConfig:
    d_model: int = 64
    n_layers: int = 2
    n_heads: int = 4
    max_length: int = 192  # positions: the longest conversation the model reads
    context_chars: int = 32  # characters kept from the end of every user message
    output_chars: str | None = None  # the characters it may write (its action space); None: all


class Block(nn.Module):
    """Pre-norm transformer block: causal self-attention then an MLP."""

    def __init__(self, d: int, heads: int) -> None:
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        attended = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        x = x + self.proj(attended.transpose(1, 2).reshape(b, t, d))
        return x + self.mlp(self.ln2(x))


class TinyTransformer(nn.Module):
    def __init__(self, config: TinyConfig, vocab_size: int) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab_size, config.d_model)
        self.position = nn.Embedding(config.max_length, config.d_model)
        self.blocks = nn.ModuleList(Block(config.d_model, config.n_heads) for _ in range(config.n_layers))
        self.ln_f = nn.LayerNorm(config.d_model)
        self.bias = nn.Parameter(torch.zeros(vocab_size))
        for module in self.modules():
            if isinstance(module, (nn.Linear, nn.Embedding)):
                nn.init.normal_(module.weight, std=0.02)
            if isinstance(module, nn.Linear):
                nn.init.zeros_(module.bias)

    def forward(self, ids: torch.Tensor, attention_mask: torch.Tensor, position_ids: torch.Tensor) -> torch.Tensor:
        """Next-token logits ``(batch, length, vocab)`` of left-padded ``ids``."""
        length = ids.shape[1]
        causal = torch.ones(length, length, dtype=torch.bool, device=ids.device).tril()
        # Padding keys are hidden; every query still sees itself, so padded rows never go NaN.
        itself = torch.eye(length, dtype=torch.bool, device=ids.device)
        mask = ((causal & attention_mask.bool()[:, None, :]) | itself)[:, None]
        x = self.embed(ids) + self.position(position_ids)
        for block in self.blocks:
            x = block(x, mask)
        return self.ln_f(x) @ self.embed.weight.T + self.bias  # tied output embedding


class TinyPolicy(LMPolicy):
    """The tiny transformer with its tokenizer, as a trainable :class:`LMPolicy`."""

    def __init__(self, config: TinyConfig = TinyConfig(), seed: int = 0,
                 device: str | torch.device | None = None) -> None:
        self.config = config
        self.tokenizer = CharTokenizer()
        self.device = torch.device(device) if device is not None else default_device()
        self.max_length = config.max_length
        self.pad_id = CharTokenizer.PAD
        self.stop_ids = frozenset({CharTokenizer.EOS})
        self.reply_tokens = 16
        with torch.random.fork_rng(devices=[]):  # a seeded init that leaves the global RNG alone
            torch.manual_seed(seed)
            self.model = TinyTransformer(config, self.tokenizer.vocab_size).to(self.device)
        self.blocked = torch.ones(self.tokenizer.vocab_size, dtype=torch.bool, device=self.device)
        allowed = self.tokenizer.CHARS if config.output_chars is None else config.output_chars
        self.blocked[[CharTokenizer.EOS, *self.tokenizer.encode(allowed)]] = False

    @property
    def name(self) -> str:
        c = self.config
        params = sum(p.numel() for p in self.model.parameters())
        return f"tiny ({c.n_layers}x{c.d_model}, {params / 1e3:.0f}k params)"

    def encode_user(self, messages: Sequence[Message], closed: bool) -> list[int]:
        tail = self.tokenizer.encode(messages[-1]["content"][-self.config.context_chars:])
        opening = [] if closed or len(messages) == 1 else [CharTokenizer.EOS]
        return opening + tail + [CharTokenizer.SEP]

    def encode_assistant(self, text: str) -> list[int]:
        return self.tokenizer.encode(text) + [CharTokenizer.EOS]

    def decode(self, ids: Sequence[int]) -> str:
        return self.tokenizer.decode(ids)

    def logits(self, ids: torch.Tensor, attention_mask: torch.Tensor, position_ids: torch.Tensor,
               model: nn.Module | None = None) -> torch.Tensor:
        return (model or self.model)(ids, attention_mask, position_ids).masked_fill(self.blocked, MASKED_LOGIT)

    def logit_mask(self) -> torch.Tensor:
        return self.blocked

    def decoder(self, dtype: torch.dtype | None = None) -> CachedTransformer:
        c, m = self.config, self.model
        arch = Architecture(layers=c.n_layers, hidden=c.d_model, heads=c.n_heads, kv_heads=c.n_heads,
                            head_dim=c.d_model // c.n_heads, vocab_size=self.tokenizer.vocab_size, norm="layer",
                            norm_eps=1e-5, positions="learned", mlp="gelu", max_positions=c.max_length)
        d = c.d_model
        weights = {"embed": m.embed.weight, "position": m.position.weight, "lm_bias": m.bias,
                   "final_norm.weight": m.ln_f.weight, "final_norm.bias": m.ln_f.bias}
        for i, block in enumerate(m.blocks):
            for part, rows in (("q", slice(0, d)), ("k", slice(d, 2 * d)), ("v", slice(2 * d, 3 * d))):
                weights[f"{i}.{part}.weight"] = block.qkv.weight[rows]
                weights[f"{i}.{part}.bias"] = block.qkv.bias[rows]
            pairs = {"norm1": block.ln1, "norm2": block.ln2, "o": block.proj, "up": block.mlp[0], "down": block.mlp[2]}
            for name, module in pairs.items():
                weights[f"{i}.{name}.weight"], weights[f"{i}.{name}.bias"] = module.weight, module.bias
        return CachedTransformer(arch, weights, dtype, logit_mask=self.blocked)

    @classmethod
    def for_envs(cls, env_ids: Sequence[str], level: int = 0, seed: int = 0, samples: int = 256,
                 device: str | torch.device | None = None, **config: Any) -> TinyPolicy:
        """A fresh policy whose output characters are those of the envs' reference answers at ``level``.

        Like a character-level model whose vocabulary is fitted to its data: a
        smaller action space makes the first rewards far likelier, and RL from
        scratch needs them. Its default reply budget (``reply_tokens``) is fitted
        the same way: the longest reference answer, plus the stop token.
        """
        from palaestra.core.registry import make_source

        chars: set[str] = set()
        longest = 0
        for env_id in env_ids:
            source = make_source(env_id)
            for problem_seed in range(samples):
                usable = level if source.unbounded else min(level, source.levels() - 1)
                answer = source.sample(usable, problem_seed).answer or ""
                chars.update(answer)
                longest = max(longest, len(answer))
        policy = cls(TinyConfig(output_chars="".join(sorted(chars)), **config), seed=seed, device=device)
        policy.reply_tokens = longest + 1
        return policy

    def save(self, path: Path, metadata: dict[str, Any]) -> Path:
        path = Path(path).with_suffix(".pt")
        state = {k: v.cpu() for k, v in self.model.state_dict().items()}
        torch.save({"format": CHECKPOINT_FORMAT, "config": asdict(self.config), "state_dict": state,
                    "answer_format": self.answer_format, **metadata}, path)
        return path

    @classmethod
    def load(cls, path: str | Path, device: str | torch.device | None = None) -> TinyPolicy:
        """A policy from a checkpoint written by :meth:`save` (weights only: no code is unpickled)."""
        try:
            data = torch.load(Path(path), map_location="cpu", weights_only=True)
        except (pickle.UnpicklingError, RuntimeError, EOFError) as exc:
            raise ValueError(f"{path} is not a tiny-policy checkpoint ({exc})") from None
        if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT:
            raise ValueError(f"{path} is not a tiny-policy checkpoint")
        policy = cls(TinyConfig(**data["config"]), device=device)
        policy.model.load_state_dict(data["state_dict"])
        policy.answer_format = data.get("answer_format")
        policy.reply_tokens = data.get("train_config", {}).get("max_new_tokens", policy.reply_tokens)
        return policy
