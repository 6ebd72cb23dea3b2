"""A tiny chat model and tokenizer built offline for trainer tests: no download, a few seconds on a CPU.

The tokenizer is a byte-level BPE trained on the test's own texts and given the Qwen2.5 chat
template that TRL ships (so TRL's tool-call parsing recognises it); the model is a
two-layer Qwen2 with random weights, warm-started by a short supervised run on example
replies so that its samples are well-formed often enough for rewards to vary.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import torch
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM
from trl.chat_template_utils import qwen2_5_chat_template

SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]


def build_tokenizer(texts: Sequence[str], vocab_size: int = 700) -> PreTrainedTokenizerFast:
    core = Tokenizer(models.BPE())
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    core.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=SPECIAL, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    core.train_from_iterator(texts, trainer)
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=core, eos_token="<|im_end|>", pad_token="<|endoftext|>")
    tokenizer.chat_template = qwen2_5_chat_template
    tokenizer.padding_side = "left"
    return tokenizer


def build_model(tokenizer: PreTrainedTokenizerFast, seed: int = 0) -> Qwen2ForCausalLM:
    torch.manual_seed(seed)
    config = Qwen2Config(vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=1024,
                         tie_word_embeddings=True, pad_token_id=tokenizer.pad_token_id,
                         eos_token_id=tokenizer.eos_token_id, bos_token_id=None)
    return Qwen2ForCausalLM(config)


def warm_start(model: Qwen2ForCausalLM, tokenizer: PreTrainedTokenizerFast,
               examples: Sequence[tuple[str, str]], steps: int = 40, batch_size: int = 8, lr: float = 3e-3,
               seed: int = 0) -> float:
    """Supervised steps on (rendered prompt, reply) pairs, loss on the reply only; the last loss."""
    rng = random.Random(seed)
    encoded = []
    for prompt, reply in examples:
        prompt_ids = tokenizer(prompt, add_special_tokens=False)["input_ids"]
        reply_ids = tokenizer(reply, add_special_tokens=False)["input_ids"]
        encoded.append((prompt_ids + reply_ids, len(prompt_ids)))
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    model.train()
    loss = torch.tensor(0.0)
    for _ in range(steps):
        batch = rng.sample(encoded, min(batch_size, len(encoded)))
        width = max(len(ids) for ids, _ in batch)
        inputs = torch.full((len(batch), width), tokenizer.pad_token_id)
        labels = torch.full((len(batch), width), -100)
        mask = torch.zeros((len(batch), width), dtype=torch.long)
        for row, (ids, start) in enumerate(batch):
            inputs[row, : len(ids)] = torch.tensor(ids)
            labels[row, start: len(ids)] = torch.tensor(ids[start:])
            mask[row, : len(ids)] = 1
        loss = model(input_ids=inputs, attention_mask=mask, labels=labels).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    return float(loss.detach())
