"""Token-exact multi-turn episodes through TRL's GRPOTrainer (trl 1.16, the real package): the completion ids TRL
trains on are exactly the tokens the model generated plus the env's observation tokens, the tool mask covers
exactly the generated ones, and the whole sequence decodes to the chat template's rendering of the conversation
(a Qwen2-style template, TRL's own ``qwen2_5_chat_template``: no doubled ``<|im_end|>``, nothing re-tokenised).

Everything runs for real — the trainer, its tool-calling loop, the chat template, palaestra's
``environment_factory`` — except the sampling: the tiny model's ``generate`` is replaced by a scripted policy
that plays the env's oracle as tool calls, so the generated tokens are known and the game is won.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("trl")
pytest.importorskip("datasets")

import torch  # noqa: E402
from tiny_chat import build_model, build_tokenizer  # noqa: E402

from palaestra.integrations import trl as palaestra_trl  # noqa: E402
from palaestra.integrations.common import Episode, rules_for, sample  # noqa: E402

ENV = "games/guess_number"
SEEDS = [3, 4]
FINAL_TEXT = "Found it."


def call_text(move: str) -> str:
    """A tool call as the Qwen2.5 template writes one (and a model trained on it generates)."""
    return '<tool_call>\n{"name": "submit", "arguments": ' + json.dumps({"answer": move}) + "}\n</tool_call>"


def oracle_moves(seed: int) -> tuple[list[str], list[str]]:
    """The oracle's bare moves for ``(ENV, 0, seed)`` and the env's observation of each."""
    problem = sample(ENV, 0, seed)
    rules, episode, moves = rules_for(problem), Episode(problem), []
    while not episode.done:
        moves.append(rules.oracle(problem, episode.state))
        episode.submit(moves[-1])
    replay = Episode(problem)
    return moves, [replay.submit(move) for move in moves]


class ScriptedGenerate:
    """``model.generate`` for TRL's batches: each row's next reply is the oracle's next move as a tool call (the
    row's problem read from its prompt, the move's number from the tool responses so far), then a closing text."""

    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer = tokenizer
        self.generated: list[list[int]] = []  # every reply's token ids, as generated
        self.games = {sample(ENV, 0, seed).prompt: oracle_moves(seed)[0] for seed in SEEDS}

    def reply_ids(self, row: list[int]) -> list[int]:
        text = self.tokenizer.decode(row, skip_special_tokens=False)
        [moves] = [moves for prompt, moves in self.games.items() if prompt in text]
        turn = text.count("<tool_response>")
        reply = call_text(moves[turn]) if turn < len(moves) else FINAL_TEXT
        return self.tokenizer(reply, add_special_tokens=False)["input_ids"] + [self.tokenizer.eos_token_id]

    def __call__(self, input_ids: torch.Tensor, attention_mask: torch.Tensor, **_: Any) -> torch.Tensor:
        replies = [self.reply_ids(row[mask.bool()].tolist()) for row, mask in zip(input_ids, attention_mask)]
        self.generated += replies
        width = max(len(reply) for reply in replies)
        padded = [reply + [self.tokenizer.pad_token_id] * (width - len(reply)) for reply in replies]
        return torch.cat([input_ids, torch.tensor(padded, dtype=input_ids.dtype)], dim=1)


@pytest.fixture(scope="module")
def tokenizer() -> Any:
    texts = []
    for seed in SEEDS:
        moves, observations = oracle_moves(seed)
        texts += [sample(ENV, 0, seed).prompt, *map(call_text, moves), *observations]
    return build_tokenizer(texts + ["<tool_response>\n</tool_response>", FINAL_TEXT], vocab_size=1500)


def test_trl_multi_turn_completions_are_the_generated_tokens_plus_the_envs(tokenizer: Any, tmp_path: Any,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from trl import GRPOConfig, GRPOTrainer

    monkeypatch.setenv("TRL_EXPERIMENTAL_SILENCE", "1")
    model = build_model(tokenizer)
    model.generate = ScriptedGenerate(tokenizer)  # the sampling is scripted; all else is TRL's
    rewards: list[float | None] = []
    reward = palaestra_trl.RewardFunction(log_metrics=False)

    def recording_reward(*args: Any, **kwargs: Any) -> list[float | None]:
        judged = reward(*args, **kwargs)
        rewards.extend(judged)
        return judged

    recording_reward.__name__ = "palaestra"
    dataset = palaestra_trl.build_dataset(ENV, levels=[0], seeds=SEEDS)
    args = GRPOConfig(output_dir=str(tmp_path), max_steps=1, per_device_train_batch_size=4, num_generations=2,
                      max_completion_length=800, max_tool_calling_iterations=20, learning_rate=1e-4, report_to=[],
                      save_strategy="no", use_cpu=True, dataloader_num_workers=0, seed=0, disable_tqdm=True)
    trainer = GRPOTrainer(model=model, reward_funcs=recording_reward, args=args, train_dataset=dataset,
                          processing_class=tokenizer, environment_factory=palaestra_trl.environment_factory())
    rollouts: list[tuple[list[int], list[int], list[int]]] = []
    generate = trainer._generate

    def recording_generate(prompts: Any) -> Any:
        out = generate(prompts)
        rollouts.extend(zip(out[0], out[1], out[2]))  # prompt ids, completion ids, TRL's tool mask
        return out

    trainer._generate = recording_generate
    trainer.train()

    assert len(rollouts) == 4 and rewards == [1.0] * 4  # every rollout won the game, as the oracle does
    submit = palaestra_trl.environment_factory()().submit
    generated = iter(model.generate.generated)
    by_prompt = {sample(ENV, 0, seed).prompt: seed for seed in SEEDS}
    for prompt_ids, completion_ids, mask in rollouts:
        assert len(mask) == len(completion_ids)
        # the trained spans (mask 1) are the replies exactly as generated, in order; the rest is the env's
        spans, start = [], 0
        while start < len(mask):
            end = start
            while end < len(mask) and mask[end] == mask[start]:
                end += 1
            spans.append((mask[start], completion_ids[start:end]))
            start = end
        model_spans = [ids for kept, ids in spans if kept == 1]
        assert [kept for kept, _ in spans] == [1, 0] * (len(model_spans) - 1) + [1]
        prompt_text = tokenizer.decode(prompt_ids, skip_special_tokens=False)
        [seed] = [seed for text, seed in by_prompt.items() if text in prompt_text]
        moves, observations = oracle_moves(seed)
        assert len(model_spans) == len(moves) + 1
        # the conversation, rendered by the chat template, is what TRL trains on, token boundaries and all
        opening = sample(ENV, 0, seed).prompt + (palaestra_trl.environment_factory()().reset(
            problem=sample(ENV, 0, seed).to_json()) or "")
        messages: list[dict[str, Any]] = [{"role": "user", "content": opening}]
        for move, observation in zip(moves, observations):
            messages += [{"role": "assistant", "content": "", "tool_calls": [
                {"type": "function", "function": {"name": "submit", "arguments": {"answer": move}}}]},
                {"role": "tool", "name": "submit", "content": observation}]
        messages.append({"role": "assistant", "content": FINAL_TEXT})
        conversation = tokenizer.apply_chat_template(messages, tools=[submit], tokenize=False)
        decoded = tokenizer.decode(prompt_ids + completion_ids, skip_special_tokens=False)
        assert decoded == conversation.removesuffix("\n")  # the last reply ends at its end-of-turn token
        assert "<|im_end|><|im_end|>" not in decoded
        for observation, (_, env_ids) in zip(observations, [s for s in spans if s[0] == 0]):
            assert tokenizer.decode(env_ids) == f"\n<|im_start|>user\n<tool_response>\n{observation}\n" \
                                                "</tool_response><|im_end|>\n<|im_start|>assistant\n"
    # each rollout's replies, generated one turn at a time across the batch, are exactly its model spans
    generated_spans = sorted(tuple(ids) for ids in generated)
    trained_spans = sorted(tuple(completion_ids[i:j]) for _, completion_ids, mask in rollouts
                           for i, j in _runs(mask, 1))
    assert generated_spans == trained_spans


def _runs(mask: list[int], value: int) -> list[tuple[int, int]]:
    """The ``[start, end)`` runs of ``value`` in ``mask``."""
    runs, start = [], None
    for i, bit in enumerate([*mask, None]):
        if bit == value and start is None:
            start = i
        elif bit != value and start is not None:
            runs.append((start, i))
            start = None
    return runs
