"""Decoders: a policy's transformer rewritten for sampling, with a key/value cache per slot.

The rollout engine (:mod:`palaestra.baselines.engine`) keeps many conversations
in flight; each occupies one *slot* of a static key/value cache of
``capacity`` positions. :meth:`Decoder.forward` runs new tokens of any slots at
their own positions: a whole prompt or observation (prefill) or one token of
every slot (decode). A query at position ``p`` of a slot sees the cache entries
``0..p`` of that slot and nothing else, so a slot needs no length bookkeeping and
no clearing between conversations: everything at or before ``p`` was written by
the conversation now in the slot. Padding tokens are written to a spare position
past the end (``capacity``) that no real query ever sees.

:class:`CachedTransformer` covers the tiny model (LayerNorm, learned positions,
GELU) and the Llama family of Hugging Face models (RMSNorm, rotary positions,
grouped-query attention, SwiGLU: Llama, Qwen2, Qwen3, Mistral). Decode steps
have fixed shapes, so the engine can capture them in CUDA graphs. Its weights are
the policy's own tensors when the dtype and device match (an optimizer step is
seen at once), else copies that :meth:`Decoder.sync` refreshes (bfloat16
sampling weights, float32 master weights). :class:`RecomputeDecoder` serves any
other model by recomputing whole sequences: correct, slow, and never captured.

Example::

    >>> import torch
    >>> from palaestra.baselines.tiny import TinyPolicy
    >>> decoder = TinyPolicy(seed=0, device="cpu").decoder()
    >>> decoder.allocate(slots=2, capacity=16)
    >>> logits = decoder.forward(torch.tensor([[5, 6], [7, 0]]), torch.tensor([[0, 1], [0, 16]]),
    ...                          slots=torch.tensor([0, 1]), last=torch.tensor([1, 0]), keys=2)
    >>> tuple(logits.shape)
    (2, 100)
"""

from __future__ import annotations

import abc
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import torch
import torch.nn.functional as F

MASKED_LOGIT = -1e9  # what a blocked token's logit becomes (the policies' own scoring uses the same)


def left_pad(rows: Sequence[Sequence[int]], pad_id: int,
             device: torch.device) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Left-padded ``ids``, ``attention_mask`` and ``position_ids`` (positions count real tokens only)."""
    width = max(len(r) for r in rows)
    ids = torch.full((len(rows), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(rows), width), dtype=torch.long)
    for i, row in enumerate(rows):
        if row:
            ids[i, width - len(row):] = torch.tensor(row, dtype=torch.long)
            mask[i, width - len(row):] = 1
    positions = (mask.cumsum(1) - 1).clamp(min=0)
    return ids.to(device), mask.to(device), positions.to(device)


class Decoder(abc.ABC):
    """Sampling-side forward passes over a static per-slot key/value cache."""

    vocab_size: int
    graphable: bool = False  # decode steps can be captured in a CUDA graph
    slots: int = 0
    capacity: int = 0  # positions per slot; position ``capacity`` is the padding sink

    @abc.abstractmethod
    def allocate(self, slots: int, capacity: int) -> None:
        """(Re)allocate the cache for ``slots`` conversations of up to ``capacity`` tokens each."""

    @abc.abstractmethod
    def forward(self, tokens: torch.Tensor, positions: torch.Tensor, slots: torch.Tensor | None,
                last: torch.Tensor | None, keys: int) -> torch.Tensor:
        """Float32 next-token logits ``(rows, vocab)`` after writing ``tokens`` into the cache.

        ``tokens`` and ``positions`` are ``(rows, n)``; padding has position
        ``capacity``. ``slots`` ``(rows,)`` names each row's slot (None: row ``i``
        is slot ``i``, every slot). ``last`` ``(rows,)`` is the index in ``n`` whose
        logits are returned (None: the last). ``keys``: how many cache positions
        to attend over, more than any real position in ``positions``.
        """

    def sync(self) -> None:  # noqa: B027 (a no-op unless the decoder copies weights)
        """Copy the policy's current weights into the decoder's own copies (no-op when it uses them directly)."""


# --- the Llama-family / tiny transformer ------------------------------------------------------------

@dataclass(frozen=True)
class Architecture:
    """The shape of a decoder-only transformer, enough to run it from a flat dict of weights."""

    layers: int
    hidden: int
    heads: int
    kv_heads: int
    head_dim: int
    vocab_size: int
    norm: str  # "layer" (LayerNorm with bias) or "rms"
    norm_eps: float
    positions: str  # "learned" or "rotary"
    mlp: str  # "gelu" (up, GELU, down) or "swiglu" (down(silu(gate) * up))
    max_positions: int
    rope_theta: float = 10000.0
    rope_scaling: tuple[tuple[str, float], ...] = ()  # Llama 3 style frequency scaling, when set
    qk_norm: bool = False  # RMSNorm over each head's queries and keys before the rotation (Qwen3)


@dataclass
class _Weight:
    """A decoder weight: the policy's own tensor, or a copy in the sampling dtype refreshed by ``sync``."""

    source: torch.Tensor
    value: torch.Tensor


class CachedTransformer(Decoder):
    """A pre-norm decoder-only transformer with a per-slot key/value cache.

    ``weights`` maps canonical names to the policy's tensors (see
    :meth:`names`); ``logit_mask`` marks tokens never to be written.
    """

    graphable = True

    def __init__(self, arch: Architecture, weights: dict[str, torch.Tensor], dtype: torch.dtype | None = None,
                 logit_mask: torch.Tensor | None = None) -> None:
        missing = set(self.names(arch)) - set(weights)
        if missing:
            raise ValueError(f"decoder weights missing: {sorted(missing)[:5]}")
        self.arch = arch
        self.vocab_size = arch.vocab_size
        self._weights: dict[str, _Weight] = {}
        for name, tensor in weights.items():
            source = tensor.detach()
            same = dtype is None or source.dtype == dtype
            self._weights[name] = _Weight(source, source if same else source.to(dtype))
        self.w = {name: weight.value for name, weight in self._weights.items()}
        first = next(iter(self.w.values()))
        self.device, self.dtype = first.device, first.dtype
        self.logit_mask = logit_mask.to(self.device) if logit_mask is not None else None
        self.k_cache: list[torch.Tensor] = []
        self.v_cache: list[torch.Tensor] = []
        self._rotary: tuple[torch.Tensor, torch.Tensor] | None = None

    @staticmethod
    def names(arch: Architecture) -> list[str]:
        """The canonical weight names an architecture needs (biases and tied heads are optional)."""
        names = ["embed", "final_norm.weight"]
        if arch.positions == "learned":
            names.append("position")
        for i in range(arch.layers):
            names += [f"{i}.norm1.weight", f"{i}.norm2.weight", f"{i}.q.weight", f"{i}.k.weight", f"{i}.v.weight",
                      f"{i}.o.weight", f"{i}.up.weight", f"{i}.down.weight"]
            if arch.mlp == "swiglu":
                names.append(f"{i}.gate.weight")
            if arch.qk_norm:
                names += [f"{i}.q_norm.weight", f"{i}.k_norm.weight"]
        return names

    def sync(self) -> None:
        with torch.no_grad():
            for weight in self._weights.values():
                if weight.value is not weight.source:
                    weight.value.copy_(weight.source)

    def allocate(self, slots: int, capacity: int) -> None:
        a = self.arch
        if a.positions == "learned" and capacity > a.max_positions:
            raise ValueError(f"capacity {capacity} exceeds the model's {a.max_positions} positions")
        if slots == self.slots and capacity == self.capacity:
            return
        self.slots, self.capacity = slots, capacity
        shape = (slots, a.kv_heads, capacity + 1, a.head_dim)  # + 1: the padding sink
        # zeros, not empty: a padding query may read stale entries, which must be finite numbers
        self.k_cache = [torch.zeros(shape, dtype=self.dtype, device=self.device) for _ in range(a.layers)]
        self.v_cache = [torch.zeros(shape, dtype=self.dtype, device=self.device) for _ in range(a.layers)]
        if a.positions == "rotary":
            self._rotary = _rotary_tables(a, capacity + 1, self.device)

    def free(self) -> None:
        self.k_cache, self.v_cache, self.slots, self.capacity = [], [], 0, 0

    # --- the forward pass ---------------------------------------------------------------------------
    def forward(self, tokens: torch.Tensor, positions: torch.Tensor, slots: torch.Tensor | None,
                last: torch.Tensor | None, keys: int) -> torch.Tensor:
        a, w = self.arch, self.w
        rows, n = tokens.shape
        x = F.embedding(tokens, w["embed"])
        if a.positions == "learned":
            x = x + F.embedding(positions.clamp(max=a.max_positions - 1), w["position"])
        key_len = min(keys, self.capacity + 1)
        # key positions a query may see: 0..p of its own slot
        visible = torch.arange(key_len, device=x.device)[None, None, :] <= positions[:, :, None]  # (rows, n, keys)
        for i in range(a.layers):
            h = self._norm(x, i, "norm1")
            x = x + self._attention(h, i, positions, slots, visible, key_len)
            h = self._norm(x, i, "norm2")
            x = x + self._mlp(h, i)
        if last is None:
            x = x[:, -1]
        else:
            x = x[torch.arange(rows, device=x.device), last]
        x = self._norm(x, None, "final_norm")
        logits = F.linear(x, w.get("lm_head", w["embed"]), w.get("lm_bias")).float()
        if self.logit_mask is not None:
            logits = logits.masked_fill(self.logit_mask, MASKED_LOGIT)
        return logits

    def _norm(self, x: torch.Tensor, layer: int | None, name: str) -> torch.Tensor:
        key = name if layer is None else f"{layer}.{name}"
        weight = self.w[f"{key}.weight"]
        if self.arch.norm == "layer":
            return F.layer_norm(x, (x.shape[-1],), weight, self.w.get(f"{key}.bias"), self.arch.norm_eps)
        return _rms_norm(x, weight, self.arch.norm_eps)

    def _attention(self, h: torch.Tensor, i: int, positions: torch.Tensor, slots: torch.Tensor | None,
                   visible: torch.Tensor, key_len: int) -> torch.Tensor:
        a, w = self.arch, self.w
        rows, n, _ = h.shape
        q = F.linear(h, w[f"{i}.q.weight"], w.get(f"{i}.q.bias")).view(rows, n, a.heads, a.head_dim)
        k = F.linear(h, w[f"{i}.k.weight"], w.get(f"{i}.k.bias")).view(rows, n, a.kv_heads, a.head_dim)
        v = F.linear(h, w[f"{i}.v.weight"], w.get(f"{i}.v.bias")).view(rows, n, a.kv_heads, a.head_dim)
        if a.qk_norm:
            q = _rms_norm(q, w[f"{i}.q_norm.weight"], a.norm_eps)
            k = _rms_norm(k, w[f"{i}.k_norm.weight"], a.norm_eps)
        if self._rotary is not None:
            cos = self._rotary[0][positions][:, :, None].to(q.dtype)
            sin = self._rotary[1][positions][:, :, None].to(q.dtype)
            q, k = q * cos + _rotate_half(q) * sin, k * cos + _rotate_half(k) * sin
        k_cache, v_cache = self.k_cache[i], self.v_cache[i]
        row_slots = slots if slots is not None else torch.arange(rows, device=h.device)
        index = (row_slots[:, None, None], torch.arange(a.kv_heads, device=h.device)[None, :, None],
                 positions[:, None, :])
        k_cache.index_put_(index, k.transpose(1, 2))
        v_cache.index_put_(index, v.transpose(1, 2))
        if slots is None:
            keys, values = k_cache[:, :, :key_len], v_cache[:, :, :key_len]
        else:
            keys, values = k_cache[slots, :, :key_len], v_cache[slots, :, :key_len]
        # Grouped-query attention without repeating keys: the queries sharing a key head become extra rows.
        group = a.heads // a.kv_heads
        q = q.view(rows, n, a.kv_heads, group, a.head_dim).permute(0, 2, 3, 1, 4).reshape(
            rows, a.kv_heads, group * n, a.head_dim)
        mask = visible[:, None, None].expand(rows, 1, group, n, key_len).reshape(rows, 1, group * n, key_len)
        out = F.scaled_dot_product_attention(q, keys, values, attn_mask=mask)
        out = out.view(rows, a.kv_heads, group, n, a.head_dim).permute(0, 3, 1, 2, 4).reshape(rows, n, -1)
        return F.linear(out, w[f"{i}.o.weight"], w.get(f"{i}.o.bias"))

    def _mlp(self, h: torch.Tensor, i: int) -> torch.Tensor:
        w = self.w
        up = F.linear(h, w[f"{i}.up.weight"], w.get(f"{i}.up.bias"))
        if self.arch.mlp == "gelu":
            hidden = F.gelu(up)
        else:
            hidden = F.silu(F.linear(h, w[f"{i}.gate.weight"], w.get(f"{i}.gate.bias"))) * up
        return F.linear(hidden, w[f"{i}.down.weight"], w.get(f"{i}.down.bias"))


def _rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    """RMSNorm as Llama computes it: in float32, scaled by the weight in the input's dtype."""
    x32 = x.float()
    normed = x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + eps)
    return weight * normed.to(x.dtype)


def _rotate_half(x: torch.Tensor) -> torch.Tensor:
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def _rotary_tables(arch: Architecture, length: int, device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
    """Float32 cos and sin ``(length, head_dim)`` in the rotate-half layout."""
    dim = arch.head_dim
    inv_freq = 1.0 / (arch.rope_theta ** (torch.arange(0, dim, 2, dtype=torch.float64) / dim))
    scaling = dict(arch.rope_scaling)
    if scaling:  # Llama 3: long wavelengths slowed down by `factor`, short ones kept, a smooth ramp between
        factor, low, high = scaling["factor"], scaling["low_freq_factor"], scaling["high_freq_factor"]
        original = scaling["original_max_position_embeddings"]
        wavelength = 2 * math.pi / inv_freq
        smooth = ((original / wavelength) - low) / (high - low)
        ramp = (1 - smooth) * inv_freq / factor + smooth * inv_freq
        inv_freq = torch.where(wavelength > original / low, inv_freq / factor,
                               torch.where(wavelength < original / high, inv_freq, ramp))
    angles = torch.arange(length, dtype=torch.float64)[:, None] * inv_freq[None, :]
    angles = torch.cat([angles, angles], dim=-1)
    return angles.cos().float().to(device), angles.sin().float().to(device)


# --- any other model: recompute ---------------------------------------------------------------------

class RecomputeDecoder(Decoder):
    """Any model as a decoder, by running it over each row's whole sequence at every call.

    For architectures :class:`CachedTransformer` does not cover: the cost grows
    with the square of the length, so it suits tests and short replies only.
    ``score`` maps left-padded ``(ids, attention_mask, position_ids)`` to logits.
    """

    def __init__(self, score: Callable[[torch.Tensor, torch.Tensor, torch.Tensor], torch.Tensor], vocab_size: int,
                 device: torch.device, pad_id: int, logit_mask: torch.Tensor | None = None) -> None:
        self.score, self.vocab_size, self.device, self.pad_id = score, vocab_size, device, pad_id
        self.logit_mask = logit_mask.to(device) if logit_mask is not None else None
        self.history: list[list[int]] = []

    def allocate(self, slots: int, capacity: int) -> None:
        self.slots, self.capacity = slots, capacity
        self.history = [[] for _ in range(slots)]

    def forward(self, tokens: torch.Tensor, positions: torch.Tensor, slots: torch.Tensor | None,
                last: torch.Tensor | None, keys: int) -> torch.Tensor:
        rows = list(range(tokens.shape[0])) if slots is None else slots.tolist()
        sequences = []
        for row, (slot, ids, places) in enumerate(zip(rows, tokens.tolist(), positions.tolist())):
            end = places[last[row]] if last is not None else places[-1]
            for token, place in zip(ids, places):
                if place < self.capacity:
                    del self.history[slot][place:]
                    self.history[slot].append(token)
            sequences.append(self.history[slot][: end + 1] or [self.pad_id])
        logits = self.score(*left_pad(sequences, self.pad_id, self.device))[:, -1].float()
        if self.logit_mask is not None:
            logits = logits.masked_fill(self.logit_mask, MASKED_LOGIT)
        return logits
