"""A tiny character-level transformer policy that REINFORCE can train from scratch on a CPU.

Text is characters (printable ASCII and newline; anything else is one unknown
token). A conversation is ``user SEP assistant EOS user SEP assistant EOS ...``,
where each user message (prompt or env observation) keeps only its last
``context_chars`` characters: the policy reads the tail of the prompt, where
palaestra's short tasks state their input. Input and output embeddings are tied,
so copying a character seen in the context is a natural first skill.

Example::

    >>> from palaestra.baselines.tiny import TinyPolicy
    >>> policy = TinyPolicy(seed=0)
    >>> reply = policy.chat([[{"role": "user", "content": "Input: a"}]], max_new_tokens=4)[0]
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

from palaestra.baselines.reinforce import LMPolicy, Message, default_device, left_pad

CHECKPOINT_FORMAT = "palaestra-tiny-1"
KV = tuple[torch.Tensor, torch.Tensor]  # one block's cached keys and values


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

    def forward(self, x: torch.Tensor, mask: torch.Tensor, past: KV | None = None) -> tuple[torch.Tensor, KV]:
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        if past is not None:  # keys and values of the earlier positions, cached during generation
            k, v = torch.cat([past[0], k], 2), torch.cat([past[1], v], 2)
        attended = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        x = x + self.proj(attended.transpose(1, 2).reshape(b, t, d))
        return x + self.mlp(self.ln2(x)), (k, v)


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

    def forward(self, ids: torch.Tensor, attention_mask: torch.Tensor, position_ids: torch.Tensor,
                past: list[KV] | None = None) -> tuple[torch.Tensor, list[KV]]:
        """Logits of ``ids`` (the newest positions) and every block's keys and values so far.

        ``attention_mask`` covers the cached positions and ``ids``; ``position_ids`` only ``ids``.
        """
        new, total = ids.shape[1], attention_mask.shape[1]
        earlier = total - new
        causal = torch.ones(new, total, dtype=torch.bool, device=ids.device).tril(diagonal=earlier)
        # Padding keys are hidden; every query still sees itself, so padded rows never go NaN.
        itself = torch.zeros(new, total, dtype=torch.bool, device=ids.device)
        itself[:, earlier:] = torch.eye(new, dtype=torch.bool, device=ids.device)
        mask = ((causal & attention_mask.bool()[:, None, :]) | itself)[:, None]
        x = self.embed(ids) + self.position(position_ids)
        present = []
        for k, block in enumerate(self.blocks):
            x, kv = block(x, mask, past[k] if past is not None else None)
            present.append(kv)
        return self.ln_f(x) @ self.embed.weight.T + self.bias, present  # tied output embedding


class TinyPolicy(LMPolicy):
    """The tiny transformer with its tokenizer, as a trainable :class:`LMPolicy`."""

    def __init__(self, config: TinyConfig = TinyConfig(), seed: int = 0,
                 device: str | torch.device | None = None) -> None:
        self.config = config
        self.tokenizer = CharTokenizer()
        self.device = torch.device(device) if device is not None else default_device()
        self.max_length = config.max_length
        self.pad_id = CharTokenizer.PAD
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

    def is_stop(self, token_id: int) -> bool:
        return token_id == CharTokenizer.EOS

    def logits(self, ids: torch.Tensor, attention_mask: torch.Tensor, position_ids: torch.Tensor,
               model: nn.Module | None = None) -> torch.Tensor:
        return (model or self.model)(ids, attention_mask, position_ids)[0].masked_fill(self.blocked, -1e9)

    @torch.no_grad()
    def generate(self, prefixes: Sequence[list[int]], max_new_tokens: int, temperature: float,
                 seed: int) -> list[list[int]]:
        generator = torch.Generator(device=self.device).manual_seed(seed % 2**63)
        ids, attention, positions = left_pad(prefixes, self.pad_id, self.device)
        out: list[list[int]] = [[] for _ in prefixes]
        running = torch.ones(len(prefixes), dtype=torch.bool, device=self.device)
        logits, past = self.model(ids, attention, positions)
        position = positions[:, -1:]
        for _ in range(max_new_tokens):
            last = logits[:, -1].float().masked_fill(self.blocked, -1e9)
            if temperature > 0:
                token = torch.multinomial(F.softmax(last / temperature, dim=-1), 1, generator=generator).squeeze(1)
            else:
                token = last.argmax(-1)
            for i in running.nonzero().flatten().tolist():
                out[i].append(int(token[i]))
            running &= token != CharTokenizer.EOS
            if not running.any():
                break
            attention = torch.cat([attention, running[:, None].long()], 1)
            position = position + 1
            logits, past = self.model(token[:, None], attention, position, past)
        return out

    @classmethod
    def for_envs(cls, env_ids: Sequence[str], level: int = 0, seed: int = 0, samples: int = 256,
                 device: str | torch.device | None = None, **config: Any) -> TinyPolicy:
        """A fresh policy whose output characters are those of the envs' reference answers at ``level``.

        Like a character-level model whose vocabulary is fitted to its data: a
        smaller action space makes the first rewards far likelier, and RL from
        scratch needs them.
        """
        from palaestra.core.registry import make_source

        chars: set[str] = set()
        for env_id in env_ids:
            source = make_source(env_id)
            for problem_seed in range(samples):
                chars.update(source.sample(min(level, source.levels() - 1), problem_seed).answer or "")
        return cls(TinyConfig(output_chars="".join(sorted(chars)), **config), seed=seed, device=device)

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
