"""The Hugging Face policy, on random two-layer models and a BPE tokenizer built here, offline.

No model is downloaded: the tokenizer is trained on a few palaestra prompts and the
models are constructed from configs, saved to temporary directories. Qwen2, Llama
(with Llama 3 rotary scaling) and Qwen3 run on the rollout engine's own cached
transformer, which must reproduce the Hugging Face forward pass; GPT-2 runs on the
recomputing fallback.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="the Hugging Face policy needs torch (pip install palaestra[hf])")
pytest.importorskip("transformers", reason="transformers is not installed (pip install palaestra[hf])")

import palaestra  # noqa: E402
from palaestra.baselines.decoder import CachedTransformer, RecomputeDecoder  # noqa: E402
from palaestra.baselines.engine import Reply, RolloutEngine  # noqa: E402
from palaestra.baselines.hf import HFPolicy  # noqa: E402
from palaestra.baselines.models import load_policy  # noqa: E402
from palaestra.baselines.policy import left_pad  # noqa: E402
from palaestra.baselines.reinforce import TrainConfig, policy_gradient_step, rollout, train  # noqa: E402
from palaestra.cli import main  # noqa: E402
from palaestra.core.registry import make_source  # noqa: E402

CHAT_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def _tokenizer() -> object:
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    corpus = [make_source(env_id).sample(level, seed).prompt
              for env_id in ("strings/copy", "games/guess_number") for level in range(3) for seed in range(20)]
    bpe.train_from_iterator(corpus, trainers.BpeTrainer(
        vocab_size=400, special_tokens=["<|endoftext|>", "<|im_start|>", "<|im_end|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False))
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token="<|im_end|>", pad_token="<|endoftext|>")
    tokenizer.chat_template = CHAT_TEMPLATE
    return tokenizer


def _save(kind: str, path: Path) -> Path:
    """A random two-layer model of ``kind`` with sharp predictions (large weights), and the tokenizer."""
    import transformers

    tokenizer = _tokenizer()
    ids = {"vocab_size": len(tokenizer), "eos_token_id": tokenizer.eos_token_id,  # type: ignore[attr-defined]
           "bos_token_id": tokenizer.eos_token_id, "pad_token_id": tokenizer.pad_token_id}  # type: ignore[attr-defined]
    llama = dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                 intermediate_size=128, max_position_embeddings=512, **ids)
    configs = {
        "gpt2": lambda: transformers.GPT2Config(n_positions=512, n_embd=32, n_layer=2, n_head=2, **ids),
        "qwen2": lambda: transformers.Qwen2Config(tie_word_embeddings=True, **llama),
        "qwen3": lambda: transformers.Qwen3Config(head_dim=16, **llama),
        "llama": lambda: transformers.LlamaConfig(rope_scaling={
            "rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
            "original_max_position_embeddings": 64}, **llama),
    }
    torch.manual_seed(0)
    model = transformers.AutoModelForCausalLM.from_config(configs[kind]())
    if kind != "gpt2":
        with torch.no_grad():
            for name, p in model.named_parameters():
                p.copy_(1 + 0.1 * torch.randn_like(p) if "norm" in name else 0.3 * torch.randn_like(p))
    model.generation_config.eos_token_id = tokenizer.eos_token_id  # type: ignore[attr-defined]
    model.save_pretrained(path)
    tokenizer.save_pretrained(path)  # type: ignore[attr-defined]
    return path


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _save("qwen2", tmp_path_factory.mktemp("tiny-qwen2"))


@pytest.mark.parametrize("kind", ["qwen2", "llama", "qwen3", "gpt2"])
def test_engine_logprobs_match_the_hugging_face_forward(kind: str, tmp_path: Path) -> None:
    """What the engine samples is scored the same by the trainer's HF forward pass (float32 on the CPU)."""
    policy = HFPolicy(_save(kind, tmp_path), device="cpu")
    assert isinstance(policy.decoder(), RecomputeDecoder if kind == "gpt2" else CachedTransformer)
    conversations = {k: policy.encode_user([{"role": "user", "content": text}], closed=True)
                     for k, text in enumerate(["Input: abc", "I am thinking of a number between 1 and 100.", "hi"])}
    turns = dict.fromkeys(conversations, 0)
    sampled: list[tuple[int, int, float]] = []  # (conversation, position, logprob)

    def respond(replies: list[Reply]) -> list[list[int] | None]:
        follow: list[list[int] | None] = []
        for reply in replies:
            k = int(reply.key)  # type: ignore[call-overload]
            ids = conversations[k]
            sampled.extend((k, len(ids) + j, lp) for j, lp in enumerate(reply.logprobs))
            ids += reply.ids
            turns[k] += 1
            observation = None
            if turns[k] < 3:  # a second and a third turn after an observation
                messages = [{"role": "user", "content": "x"}, {"role": "assistant", "content": "y"},
                            {"role": "user", "content": "The secret number is lower."}]
                observation = policy.encode_user(messages, closed=reply.closed)
                ids += observation
            follow.append(observation)
        return follow

    RolloutEngine(policy, slots=2, capacity=256).play(conversations.items(), respond, max_new_tokens=10, seed=1)
    logprobs = {}
    for k, ids in conversations.items():
        with torch.no_grad():
            logits = policy.logits(*left_pad([ids], policy.pad_id, policy.device))[0]
        logprobs[k] = torch.log_softmax(logits.float(), dim=-1)[:-1].gather(1, torch.tensor(ids[1:])[:, None])[:, 0]
    gaps = [abs(float(logprobs[k][position - 1]) - lp) for k, position, lp in sampled]
    assert len(gaps) >= 3 * 3 and max(gaps) < 1e-4, f"max gap {max(gaps):.2e}"


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
    config = TrainConfig(steps=2, lr=1e-3, max_new_tokens=6, max_turns=2, micro_batch_size=2, kl_coef=0.05,
                         max_context=512)
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
    assert "hf:tiny-qwen2" in out and "4 episodes" in out and "0 infrastructure errors" in out


class _ScriptedEngine:
    """An engine whose 'samples' are scripted guesses: the ids a model would emit (end-of-turn token included when
    it stops by itself; the last reply of each episode is cut, as by max_new_tokens). Everything else is the
    trainer's own rollout, so what is checked is the trainer's token arithmetic, not the model's."""

    capacity = 1024

    def __init__(self, policy: HFPolicy, guesses: list[str]) -> None:
        self.policy, self.guesses, self.sampled = policy, guesses, {}

    def play(self, source, respond, max_new_tokens, temperature=1.0, seed=0):  # type: ignore[no-untyped-def]
        pending = [key for key, _ in source]
        turn = dict.fromkeys(pending, 0)
        while pending:
            replies = []
            for key in pending:
                text = self.guesses[turn[key] % len(self.guesses)]
                closed = turn[key] < len(self.guesses) - 1
                ids = self.policy.tokenizer(text, add_special_tokens=False)["input_ids"]
                ids = [*ids, self.policy.tokenizer.eos_token_id] if closed else ids
                self.sampled.setdefault(key, []).append(ids)
                replies.append(Reply(key, ids, [0.0] * len(ids), closed))
                turn[key] += 1
            follows = respond(replies)
            pending = [reply.key for reply, follow in zip(replies, follows) if follow is not None]


def test_a_multi_turn_rollout_trains_on_exactly_the_sampled_tokens_in_the_chat_template(model_dir: Path) -> None:
    """Token-exact multi-turn (#28 item 3): a rollout's ids are the chat template's rendering of the conversation
    (each env observation tokenised once and appended, no re-tokenisation of the replies), and the trained mask
    covers exactly the tokens the policy sampled, end-of-turn tokens included when it stopped by itself."""
    policy = HFPolicy(model_dir, device="cpu")
    policy.answer_format = "raw"
    engine = _ScriptedEngine(policy, ["150", "hmm 170", "185"])
    config = TrainConfig(max_new_tokens=8, max_turns=3, max_context=1024)
    envs = palaestra.make_vec(["games/guess_number"], 3, answer_format="raw")
    try:
        batch = rollout(policy, [envs], seed=5, config=config, engine=engine)  # type: ignore[arg-type]
    finally:
        envs.close()
    assert any(len(t.rewards) > 1 for t in batch)
    for key, t in enumerate(batch):
        replies = engine.sampled[key]
        assert [[tok for tok, of in zip(t.ids, t.turn_of) if of == turn] for turn in range(len(replies))] == replies
        assert t.response_tokens == sum(map(len, replies)) == len(t.sampled_logprobs)
        rendered = policy.tokenizer.apply_chat_template(t.messages, tokenize=False, add_generation_prompt=False)
        decoded = policy.tokenizer.decode(t.ids)
        closed_last = replies[-1][-1:] == [policy.tokenizer.eos_token_id]
        assert rendered == decoded + ("\n" if closed_last else "<|im_end|>\n"), (decoded, rendered)
        observations = [m["content"] for m in t.messages[1:] if m["role"] == "user"]
        assert all(o in decoded for o in observations) and len(observations) == len(replies) - 1
