"""The bundled trainer at GPU speed: the rollout engine against Hugging Face ``generate``, in one run.

    python bench/gpu.py                      # an offline random Qwen2-shaped model (~0.36B), built here
    python bench/gpu.py --model hf:PATH      # or a local Hugging Face model (nothing is downloaded)

Needs CUDA and transformers; without CUDA it says so and exits 0. Prints, for a batch of 64:
(a) decode throughput, new tokens per second over 64 prompts x 128 new tokens: raw HF ``generate``
    with bfloat16 weights and its default (dynamic) cache, the same with ``cache_implementation=
    "static"``, and the rollout engine (bfloat16 sampling weights, static per-slot cache, CUDA
    graphs); the ratios against the targets (engine >= 8x default cache, >= 1.1x static cache).
    Every row decodes exactly 128 tokens (no early stop), so all three do the same work.
(b) one REINFORCE training step of 64 episodes mixing arithmetic/expression, deduction/knights_knaves and
    games/guess_number (multi-turn) at 128 new tokens per turn: rollout, update, total (target <= 10 s),
    and the sampling/training log-probability mismatch (bfloat16 sampling vs float32 master weights).
(c) evaluation episodes per second at 64 new tokens on the same three envs (target >= 50).

The offline model: a byte-level BPE tokenizer trained here on palaestra prompts (8k tokens), and a
Qwen2 configuration of Qwen2.5-0.5B's shape (24 layers, hidden 896, 14 query / 2 key-value heads,
MLP 4864) with randomly initialised weights: it writes random tokens, the worst case for the
number of tokens sampled per turn.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BATCH, NEW_TOKENS, EVAL_TOKENS = 64, 128, 64
ENVS = ("arithmetic/expression", "deduction/knights_knaves", "games/guess_number")
CHAT_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def build_offline_model(path: Path, vocab_size: int = 8192) -> None:
    """A tokenizer trained on palaestra prompts and a random Qwen2-shaped model, saved to ``path``."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM

    from palaestra.core.registry import make_source, registry

    corpus = [make_source(env_id).sample(level, seed).prompt
              for env_id in registry.ids() if not env_id.startswith("code/")
              for level in range(0, 5, 2) for seed in range(10)]
    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    bpe.train_from_iterator(corpus, trainers.BpeTrainer(
        vocab_size=vocab_size, special_tokens=["<|endoftext|>", "<|im_start|>", "<|im_end|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False))
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token="<|im_end|>", pad_token="<|endoftext|>")
    tokenizer.chat_template = CHAT_TEMPLATE
    config = Qwen2Config(vocab_size=len(tokenizer), hidden_size=896, intermediate_size=4864, num_hidden_layers=24,
                         num_attention_heads=14, num_key_value_heads=2, max_position_embeddings=32768,
                         rope_theta=1_000_000.0, tie_word_embeddings=True, eos_token_id=tokenizer.eos_token_id,
                         pad_token_id=tokenizer.pad_token_id, bos_token_id=tokenizer.eos_token_id)
    torch.manual_seed(0)
    model = Qwen2ForCausalLM(config)
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    model.save_pretrained(path)
    tokenizer.save_pretrained(path)


def prompts(policy: Any, n: int) -> list[list[int]]:
    """Prompt ids of ``n`` problems of the benchmark's envs, in the policy's chat format."""
    from palaestra.core.registry import make_source

    problems = [make_source(ENVS[k % len(ENVS)]).sample(0, k) for k in range(n)]
    return [policy.encode_user([{"role": "user", "content": p.prompt}], closed=True) for p in problems]


def timed(fn: Any, repeats: int = 3) -> float:
    """Median seconds of ``fn()`` after one warm-up call, with the GPU synchronised around each call."""
    import torch

    fn()
    times = []
    for _ in range(repeats):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def hf_generate_rate(policy: Any, rows: list[list[int]], static: bool) -> float:
    """New tokens per second of raw HF ``generate`` on a bfloat16 copy of the model."""
    import copy

    import torch

    from palaestra.baselines.policy import left_pad

    model = copy.deepcopy(policy.model).to(torch.bfloat16).eval()
    ids, attention, _ = left_pad(rows, policy.pad_id, policy.device)
    extra = {"cache_implementation": "static"} if static else {}

    def run() -> None:
        with torch.no_grad():
            model.generate(input_ids=ids, attention_mask=attention, max_new_tokens=NEW_TOKENS,
                           min_new_tokens=NEW_TOKENS, do_sample=True, top_k=0, top_p=1.0, temperature=1.0,
                           pad_token_id=policy.pad_id, **extra)

    return len(rows) * NEW_TOKENS / timed(run)


def engine_rate(policy: Any, rows: list[list[int]]) -> tuple[float, float]:
    """New tokens per second of the rollout engine, and its milliseconds per decode step."""
    from palaestra.baselines.engine import RolloutEngine

    engine = RolloutEngine(policy, slots=len(rows), capacity=max(map(len, rows)) + NEW_TOKENS + 1)
    engine.stop_ids = frozenset()  # no early stop: every row decodes NEW_TOKENS tokens, as min_new_tokens does

    def run() -> None:
        engine.complete(rows, NEW_TOKENS, temperature=1.0)

    seconds = timed(run)
    before = engine.stats.decode_steps
    engine.complete(rows, NEW_TOKENS, temperature=1.0)
    steps = engine.stats.decode_steps - before
    return len(rows) * NEW_TOKENS / seconds, 1000 * seconds / max(steps, 1)


def training_step(policy: Any) -> dict[str, float]:
    """Seconds of REINFORCE steps of 64 mixed single/multi-turn episodes at 128 new tokens per turn (2nd step)."""
    import palaestra
    from palaestra.baselines.reinforce import TrainConfig, train

    envs = palaestra.make_vec(list(ENVS), BATCH)
    config = TrainConfig(steps=3, lr=1e-6, max_new_tokens=NEW_TOKENS, max_turns=16, micro_batch_size=64,
                         micro_batch_tokens=32_768, max_context=4096)
    try:
        history = train(policy, envs, config, progress=False).history
    finally:
        envs.close()
    last = history[-1]
    return {key: float(last[key]) for key in ("step_seconds", "rollout_seconds", "turns", "response_length",
                                              "logprob_mismatch", "logprob_mismatch_max")} | {
        "first_step_seconds": float(history[0]["step_seconds"]),
        "tokens": float(last["rollout_tokens_per_s"] * last["rollout_seconds"])}


def eval_rate(policy: Any, seeds: int) -> tuple[float, int]:
    """Episodes per second of ``palaestra eval``'s local-model path at 64 new tokens (after a warm-up suite)."""
    from palaestra.baselines.evaluate import PolicyChat, Suite, run_suite

    chat = PolicyChat(policy, max_new_tokens=EVAL_TOKENS, temperature=1.0, batch_size=BATCH)
    run_suite(chat, Suite(ENVS, levels=(0,), seeds=tuple(range(8))), plot=False)
    result = run_suite(chat, Suite(ENVS, levels=(0, 2, 4), seeds=tuple(range(seeds))), plot=False)
    return result.episodes_per_second, len(result.records)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", help="hf:PATH of a local model (default: build the offline random model)")
    parser.add_argument("--eval-seeds", type=int, default=40, help="seeds per env and level of the eval figure")
    parser.add_argument("--skip", nargs="*", default=[], choices=["hf", "static", "engine", "train", "eval"])
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        print("bench/gpu.py: torch is not installed; nothing measured")
        return 0
    if not torch.cuda.is_available():
        print("bench/gpu.py: no CUDA device here; nothing measured (this benchmark runs only on a GPU)")
        return 0
    try:
        import transformers  # noqa: F401
    except ImportError:
        print("bench/gpu.py needs transformers: pip install 'palaestra[hf]'", file=sys.stderr)
        return 2
    from palaestra.baselines.hf import HFPolicy

    with tempfile.TemporaryDirectory() as scratch:
        path = Path(args.model[3:] if args.model and args.model.startswith("hf:") else args.model or scratch)
        if args.model is None:
            build_offline_model(path)
        policy = HFPolicy(path, device="cuda")
    params = sum(p.numel() for p in policy.model.parameters())
    print(f"model: {policy.name} ({params / 1e9:.2f}B parameters, float32 master weights), "
          f"GPU: {torch.cuda.get_device_name()}, torch {torch.__version__}, transformers {transformers.__version__}")
    rows = prompts(policy, BATCH)
    figures: dict[str, Any] = {"model": policy.name, "parameters": params, "gpu": torch.cuda.get_device_name()}
    print(f"\n(a) decode, batch {BATCH}, {NEW_TOKENS} new tokens per row (prompts of {min(map(len, rows))}-"
          f"{max(map(len, rows))} tokens), new tokens/s:")
    if "hf" not in args.skip:
        figures["hf_default"] = hf_generate_rate(policy, rows, static=False)
        torch.cuda.empty_cache()  # the bfloat16 copy is gone
        print(f"    HF generate, default cache   {figures['hf_default']:>10,.0f}")
    if "static" not in args.skip:
        figures["hf_static"] = hf_generate_rate(policy, rows, static=True)
        torch.cuda.empty_cache()
        print(f"    HF generate, static cache    {figures['hf_static']:>10,.0f}")
    if "engine" not in args.skip:
        figures["engine"], figures["engine_ms_per_step"] = engine_rate(policy, rows)
        print(f"    palaestra engine             {figures['engine']:>10,.0f}   "
              f"({figures['engine_ms_per_step']:.2f} ms per decode step)")
        for key, target in (("hf_default", 8.0), ("hf_static", 1.1)):
            if key in figures:
                ratio = figures["engine"] / figures[key]
                figures[f"ratio_{key}"] = ratio
                verdict = "met" if ratio >= target else "MISSED"
                print(f"    engine / {key:<12} {ratio:>8.2f}x   (target >= {target}x: {verdict})")
    if "train" not in args.skip:
        step = training_step(policy)
        figures["train"] = step
        verdict = "met" if step["step_seconds"] <= 10 else "MISSED"
        print(f"\n(b) training step, {BATCH} episodes ({', '.join(ENVS)}), {NEW_TOKENS} new tokens per turn:")
        print(f"    {step['step_seconds']:.2f} s per step (target <= 10 s: {verdict}); rollout "
              f"{step['rollout_seconds']:.2f} s ({step['tokens']:,.0f} tokens, {step['turns']:.2f} turns per episode), "
              f"update {step['step_seconds'] - step['rollout_seconds']:.2f} s; first step (graph capture) "
              f"{step['first_step_seconds']:.2f} s")
        print(f"    log-prob mismatch, bfloat16 sampling vs float32 training: mean {step['logprob_mismatch']:.4f}, "
              f"max {step['logprob_mismatch_max']:.3f}")
    if "eval" not in args.skip:
        rate, episodes = eval_rate(policy, args.eval_seeds)
        figures["eval_episodes_per_s"] = rate
        verdict = "met" if rate >= 50 else "MISSED"
        print(f"\n(c) eval, {episodes} episodes (levels 0, 2, 4), {EVAL_TOKENS} new tokens per turn: "
              f"{rate:.1f} episodes/s (target >= 50: {verdict})")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
