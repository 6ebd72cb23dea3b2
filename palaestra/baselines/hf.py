"""A Hugging Face causal LM from a local path as a trainable policy. ``transformers`` is imported only here.

Nothing is downloaded: the path must hold the model and its tokenizer
(``save_pretrained`` output, or a snapshot copied from a hub). Conversations use
the tokenizer's chat template; without one, a plain ``User:`` / ``Assistant:``
layout. Weights load in float32 by default, the master copy that small RL
updates need (in bfloat16 weights an update of 1e-6 rounds away); on CUDA the
matrix products run in bfloat16 under autocast. Generation is batched (left padding).

Example::

    from palaestra.baselines.hf import HFPolicy

    policy = HFPolicy("/models/Qwen2.5-0.5B-Instruct")
    print(policy.chat([[{"role": "user", "content": "What is 2 + 2?"}]], max_new_tokens=64)[0])
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch

from palaestra.baselines.reinforce import LMPolicy, Message, default_device, left_pad

METADATA_FILE = "palaestra.json"


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

    def is_stop(self, token_id: int) -> bool:
        return token_id in self.stop_ids

    # --- the model -------------------------------------------------------------------------------
    def logits(self, ids: torch.Tensor, attention_mask: torch.Tensor, position_ids: torch.Tensor,
               model: torch.nn.Module | None = None) -> torch.Tensor:
        return (model or self.model)(input_ids=ids, attention_mask=attention_mask, position_ids=position_ids).logits

    @torch.no_grad()
    def generate(self, prefixes: Sequence[list[int]], max_new_tokens: int, temperature: float,
                 seed: int) -> list[list[int]]:
        ids, attention, _ = left_pad(prefixes, self.pad_id, self.device)
        sampling: dict[str, Any] = {"do_sample": True, "temperature": temperature, "top_k": 0, "top_p": 1.0} \
            if temperature > 0 else {"do_sample": False}
        cuda = [self.device.index if self.device.index is not None else torch.cuda.current_device()] \
            if self.device.type == "cuda" else []
        with torch.random.fork_rng(devices=cuda):  # seeded sampling that leaves the global RNG alone
            torch.manual_seed(seed % 2**63)
            with torch.autocast(self.device.type, dtype=torch.bfloat16, enabled=self.device.type == "cuda"):
                out = self.model.generate(input_ids=ids, attention_mask=attention, max_new_tokens=max_new_tokens,
                                          pad_token_id=self.pad_id, eos_token_id=sorted(self.stop_ids), **sampling)
        responses = []
        for row in out[:, ids.shape[1]:].tolist():
            cut = next((k + 1 for k, t in enumerate(row) if t in self.stop_ids), len(row))
            responses.append(row[:cut])
        return responses

    def save(self, path: Path, metadata: dict[str, Any]) -> Path:
        path = Path(path)
        self.model.save_pretrained(path)
        self.tokenizer.save_pretrained(path)
        saved = {"answer_format": self.answer_format, **metadata}
        (path / METADATA_FILE).write_text(json.dumps(saved, indent=2, default=str))
        return path
