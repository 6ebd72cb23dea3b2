"""A Hugging Face causal LM from a local path as a trainable policy. ``transformers`` is imported only here.

Nothing is downloaded: the path must hold the model and its tokenizer
(``save_pretrained`` output, or a snapshot copied from a hub). Conversations use
the tokenizer's chat template; without one, a plain ``User:`` / ``Assistant:``
layout. Weights load in float32 by default, the master copy that small RL
updates need (in bfloat16 weights an update of 1e-6 rounds away); on CUDA the
matrix products run in bfloat16 under autocast. Sampling goes through the rollout engine
(:mod:`palaestra.baselines.engine`): Llama-family models (Llama, Qwen2, Qwen3, Mistral) run on the
engine's own cached transformer, in bfloat16 with CUDA graphs on a GPU; any other architecture
falls back to recomputing whole sequences (correct, slow).

Example::

    from palaestra.baselines.engine import chat
    from palaestra.baselines.hf import HFPolicy

    policy = HFPolicy("/models/Qwen2.5-0.5B-Instruct")
    print(chat(policy, [[{"role": "user", "content": "What is 2 + 2?"}]], max_new_tokens=64)[0])
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch

from palaestra.baselines.decoder import Architecture, CachedTransformer, Decoder, RecomputeDecoder
from palaestra.baselines.policy import LMPolicy, Message, default_device

METADATA_FILE = "palaestra.json"
# Hugging Face architectures the cached transformer runs: Llama's layout, with these options
LLAMA_FAMILY = {"LlamaForCausalLM", "Qwen2ForCausalLM", "Qwen3ForCausalLM", "MistralForCausalLM"}


class HFPolicy(LMPolicy):
    """A causal LM and its tokenizer, loaded from ``path`` with ``local_files_only``."""

    def __init__(self, path: str | Path, device: str | torch.device | None = None,
                 dtype: torch.dtype = torch.float32) -> None:
        import transformers
        from transformers import AutoModelForCausalLM, AutoTokenizer

        self.path = Path(path)
        self.device = torch.device(device) if device is not None else default_device()
        # transformers >= 4.56 names the argument `dtype`; older releases only know `torch_dtype`.
        major, minor = (int(x) for x in transformers.__version__.split(".")[:2])
        dtype_arg = "dtype" if (major, minor) >= (4, 56) else "torch_dtype"
        self.tokenizer = AutoTokenizer.from_pretrained(self.path, local_files_only=True)
        model = AutoModelForCausalLM.from_pretrained(self.path, local_files_only=True, **{dtype_arg: dtype})
        self.model = model.to(self.device)
        stops = self.model.generation_config.eos_token_id
        stops = [stops] if isinstance(stops, int) else list(stops or [])
        if self.tokenizer.eos_token_id is not None:
            stops.append(self.tokenizer.eos_token_id)
        if not stops:
            raise ValueError(f"{path}: the model has no end-of-sequence token")
        self.stop_ids = frozenset(stops)
        self.pad_id = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else stops[0]
        config = self.model.config
        positions = getattr(config, "max_position_embeddings", None) or getattr(config, "n_positions", None)
        self.max_length = int(positions or 4096)
        metadata = self.path / METADATA_FILE
        if metadata.is_file():  # a checkpoint written by the trainer
            saved = json.loads(metadata.read_text())
            self.answer_format = saved.get("answer_format")
            self.reply_tokens = saved.get("train_config", {}).get("max_new_tokens", self.reply_tokens)

    @property
    def name(self) -> str:
        return f"hf:{self.path.name}"

    # --- conversations as token ids ------------------------------------------------------------
    def _render(self, messages: Sequence[Message], generation: bool) -> str:
        if self.tokenizer.chat_template:
            return self.tokenizer.apply_chat_template(list(messages), tokenize=False, add_generation_prompt=generation)
        eos = self.tokenizer.eos_token or ""
        text = "".join(f"User: {m['content']}\n" if m["role"] == "user" else f"Assistant: {m['content']}{eos}\n"
                       for m in messages)
        return text + ("Assistant:" if generation else "")

    def _ids(self, text: str) -> list[int]:
        return list(self.tokenizer(text, add_special_tokens=False)["input_ids"])

    def encode_user(self, messages: Sequence[Message], closed: bool) -> list[int]:
        if len(messages) == 1:
            return self._ids(self._render(messages, generation=True))
        # The ids so far are render(messages[:-2]) + the reply's own sampled ids, so append only what the
        # template puts after the reply's text: its end-of-turn marker (unless sampled) and the new message.
        before = self._render(messages[:-2], generation=True)
        reply = messages[-2]["content"]
        full = self._render(messages, generation=True)
        for content in (reply, reply.strip()):
            if full.startswith(before + content):
                tail = full[len(before) + len(content):]
                break
        else:
            raise ValueError(f"{self.name}: the chat template does not extend a conversation by appending to it")
        if closed:
            for stop in self.stop_ids:
                marker = self.tokenizer.decode([stop])
                if marker and tail.startswith(marker):
                    tail = tail[len(marker):]
                    break
        return self._ids(tail)

    def encode_assistant(self, text: str) -> list[int]:
        return self._ids(text) + [min(self.stop_ids)]

    def decode(self, ids: Sequence[int]) -> str:
        return self.tokenizer.decode([i for i in ids if i not in self.stop_ids], skip_special_tokens=True)

    # --- the model -------------------------------------------------------------------------------
    def logits(self, ids: torch.Tensor, attention_mask: torch.Tensor, position_ids: torch.Tensor,
               model: torch.nn.Module | None = None) -> torch.Tensor:
        return (model or self.model)(input_ids=ids, attention_mask=attention_mask, position_ids=position_ids).logits

    def decoder(self, dtype: torch.dtype | None = None) -> Decoder:
        arch = llama_architecture(self.model)
        if arch is None:
            return RecomputeDecoder(lambda ids, mask, pos: self.logits(ids, mask, pos), self.vocab_size,
                                    self.device, self.pad_id)
        prefix = self.model.base_model_prefix  # "model"
        params = dict(self.model.named_parameters())
        names = {"embed": f"{prefix}.embed_tokens.weight", "final_norm.weight": f"{prefix}.norm.weight"}
        parts = {"q": "self_attn.q_proj", "k": "self_attn.k_proj", "v": "self_attn.v_proj", "o": "self_attn.o_proj",
                 "gate": "mlp.gate_proj", "up": "mlp.up_proj", "down": "mlp.down_proj",
                 "norm1": "input_layernorm", "norm2": "post_attention_layernorm",
                 "q_norm": "self_attn.q_norm", "k_norm": "self_attn.k_norm"}
        for i in range(arch.layers):
            for short, long in parts.items():
                for kind in ("weight", "bias"):
                    names[f"{i}.{short}.{kind}"] = f"{prefix}.layers.{i}.{long}.{kind}"
        weights = {short: params[long] for short, long in names.items() if long in params}
        head = self.model.get_output_embeddings().weight
        if head is not weights["embed"]:
            weights["lm_head"] = head
        return CachedTransformer(arch, weights, dtype)

    @property
    def vocab_size(self) -> int:
        return int(self.model.get_output_embeddings().weight.shape[0])

    def save(self, path: Path, metadata: dict[str, Any]) -> Path:
        path = Path(path)
        self.model.save_pretrained(path)
        self.tokenizer.save_pretrained(path)
        saved = {"answer_format": self.answer_format, **metadata}
        (path / METADATA_FILE).write_text(json.dumps(saved, indent=2, default=str))
        return path


def llama_architecture(model: torch.nn.Module) -> Architecture | None:
    """The :class:`Architecture` of a Llama-family Hugging Face model; None for any other (or unsupported option)."""
    config = model.config
    if not set(getattr(config, "architectures", None) or [type(model).__name__]) & LLAMA_FAMILY:
        return None
    if getattr(config, "hidden_act", "silu") != "silu" or getattr(config, "use_sliding_window", False):
        return None
    window = getattr(config, "sliding_window", None) if type(model).__name__ == "MistralForCausalLM" else None
    if window is not None and window < config.max_position_embeddings:
        return None  # a sliding window shorter than the context: not implemented
    rope = dict(getattr(config, "rope_parameters", None) or getattr(config, "rope_scaling", None) or {})
    theta = rope.get("rope_theta", getattr(config, "rope_theta", 10000.0))
    rope_type = rope.get("rope_type", rope.get("type", "default"))
    if rope_type not in ("default", "llama3"):
        return None
    scaling: tuple[tuple[str, float], ...] = ()
    if rope_type == "llama3":
        scaling = tuple((k, float(rope[k])) for k in ("factor", "low_freq_factor", "high_freq_factor",
                                                       "original_max_position_embeddings"))
    heads = config.num_attention_heads
    return Architecture(
        layers=config.num_hidden_layers, hidden=config.hidden_size, heads=heads,
        kv_heads=getattr(config, "num_key_value_heads", None) or heads,
        head_dim=getattr(config, "head_dim", None) or config.hidden_size // heads,
        vocab_size=int(model.get_output_embeddings().weight.shape[0]), norm="rms", norm_eps=config.rms_norm_eps,
        positions="rotary", mlp="swiglu", max_positions=config.max_position_embeddings, rope_theta=float(theta),
        rope_scaling=scaling, qk_norm=type(model).__name__ == "Qwen3ForCausalLM")
