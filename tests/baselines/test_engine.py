"""The rollout engine: what it samples is what the trainer scores, with continuous batching across turns.

The sampling/training mismatch is measured here on the CPU in float32, where the
engine's cached decoder and the trainer's full forward pass must agree to 1e-4
in log-probability (measured: ~5e-6). On CUDA the engine samples with bfloat16
weights; ``bench/gpu.py`` and the trainer's ``logprob_mismatch`` metric report
that gap.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="the rollout engine needs torch (pip install palaestra[torch])")

from palaestra.baselines.engine import Reply, RolloutEngine, chat  # noqa: E402
from palaestra.baselines.policy import left_pad  # noqa: E402
from palaestra.baselines.tiny import CharTokenizer, TinyConfig, TinyPolicy  # noqa: E402

TOLERANCE = 1e-4  # float32 on the CPU


def sharp_policy(seed: int = 1, **config: object) -> TinyPolicy:
    """A random tiny model with large weights: sharp, varied predictions, so that mistakes show."""
    policy = TinyPolicy(TinyConfig(**config), seed=seed, device="cpu")  # type: ignore[arg-type]
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in policy.model.named_parameters():
            if "ln" not in name:
                p.normal_(0, 0.2, generator=generator)
    return policy


def recomputed_logprobs(policy: TinyPolicy, ids: list[int]) -> list[float]:
    """log pi(ids[t] | ids[:t]) for every t >= 1, by one full forward pass (the trainer's computation)."""
    with torch.no_grad():
        logits = policy.logits(*left_pad([ids], policy.pad_id, policy.device))[0]
    logp = torch.log_softmax(logits.float(), dim=-1)
    return [float(logp[t - 1, ids[t]]) for t in range(1, len(ids))]


def test_sampled_logprobs_match_the_trainers_recomputation_over_multi_turn_conversations() -> None:
    policy = sharp_policy()
    prompts = {k: policy.encode_user([{"role": "user", "content": text}], closed=True)
               for k, text in enumerate(["Input: abc", "x", "a longer prompt, cut to its tail", "q"])}
    observations = ["lower", "higher than that", "no"]
    conversations = {k: list(ids) for k, ids in prompts.items()}
    sampled: dict[int, list[tuple[int, float]]] = {k: [] for k in prompts}  # (position, logprob) of each sample
    turns = dict.fromkeys(prompts, 0)

    def respond(replies: list[Reply]) -> list[list[int] | None]:
        follow: list[list[int] | None] = []
        for reply in replies:
            k = int(reply.key)  # type: ignore[call-overload]
            ids = conversations[k]
            sampled[k] += [(len(ids) + j, lp) for j, lp in enumerate(reply.logprobs)]
            ids += reply.ids
            turns[k] += 1
            if k == 3 or turns[k] == 4:  # conversation 3 ends after one reply, the others after four
                follow.append(None)
                continue
            messages = [{"role": "user", "content": "."}, {"role": "assistant", "content": ""},
                        {"role": "user", "content": observations[turns[k] % 3]}]
            observation = policy.encode_user(messages, closed=reply.closed)
            ids += observation
            follow.append(observation)
        return follow

    engine = RolloutEngine(policy, slots=2, capacity=192)  # fewer slots than conversations: slots are reused
    stats = engine.play(prompts.items(), respond, max_new_tokens=6, temperature=1.0, seed=3)
    assert stats.conversations == 4 and stats.replies == 3 * 4 + 1 and stats.prefills > 4
    gaps = []
    for k, ids in conversations.items():
        recomputed = recomputed_logprobs(policy, ids)
        assert len(sampled[k]) > 0
        gaps += [abs(recomputed[position - 1] - logprob) for position, logprob in sampled[k]]
    assert max(gaps) < TOLERANCE, f"sampling and training disagree by up to {max(gaps):.2e}"


def test_greedy_decoding_is_the_step_by_step_argmax_in_a_padded_batch() -> None:
    policy = sharp_policy()
    prefixes = [policy.encode_user([{"role": "user", "content": t}], closed=True) for t in ("Input: abc", "x", "")]
    replies = RolloutEngine(policy, slots=3, capacity=64).complete(prefixes, 8, temperature=0.0)
    assert all(len(set(r.ids)) > 2 for r in replies)  # the cached keys change meaning as replies grow
    for prefix, reply in zip(prefixes, replies):  # rows of different lengths, one full forward per token
        ids = list(prefix)
        for token in reply.ids:
            with torch.no_grad():
                assert int(policy.logits(*left_pad([ids], 0, policy.device))[0, -1].argmax()) == token
            ids.append(token)


def test_sampling_is_seeded_and_respects_the_output_characters() -> None:
    policy = TinyPolicy.for_envs(["strings/copy"], level=0, seed=3, device="cpu")
    assert policy.config.output_chars == "abcdefgh"
    engine = RolloutEngine(policy, slots=32, capacity=16)
    replies = engine.complete([[CharTokenizer.SEP]] * 32, max_new_tokens=6, seed=0)
    assert set(policy.decode([i for r in replies for i in r.ids])) <= set("abcdefgh")
    assert all(r.closed == (r.ids[-1] == CharTokenizer.EOS) for r in replies)
    again = engine.complete([[CharTokenizer.SEP]] * 32, max_new_tokens=6, seed=0)
    assert [r.ids for r in again] == [r.ids for r in replies]
    other = engine.complete([[CharTokenizer.SEP]] * 32, max_new_tokens=6, seed=1)
    assert [r.ids for r in other] != [r.ids for r in replies]


def test_a_turn_joins_the_running_batch_without_waiting_for_the_slowest_reply() -> None:
    policy = sharp_policy()
    policy.blocked[CharTokenizer.EOS] = True  # no early stop: every reply uses its whole budget
    order: list[str] = []

    def respond(replies: list[Reply]) -> list[list[int] | None]:
        order.extend(str(r.key) for r in replies)
        return [[CharTokenizer.SEP] if r.key == "quick" and order.count("quick") < 4 else None for r in replies]

    engine = RolloutEngine(policy, slots=2, capacity=128)
    budgets = {"slow": 40, "quick": 2}  # one reply of 40 tokens; four replies of 2 tokens meanwhile
    stats = engine.play([("slow", [CharTokenizer.SEP]), ("quick", [CharTokenizer.SEP])], respond,
                        max_new_tokens=budgets.__getitem__, seed=0)
    assert order == ["quick"] * 4 + ["slow"]
    # lock-step turns would take 40 + 3 * 2 steps; here the quick turns ran inside the slow reply's steps
    assert stats.decode_steps + stats.prefills <= 40 + 4 and stats.tokens == 40 + 4 * 2


def test_chat_answers_text_conversations() -> None:
    policy = TinyPolicy(seed=0, device="cpu")
    replies = chat(policy, [[{"role": "user", "content": "Input: a"}], [{"role": "user", "content": "b"}]], 5)
    assert len(replies) == 2 and all(isinstance(r, str) and len(r) <= 5 for r in replies)
    with pytest.raises(ValueError, match="no room"):
        chat(policy, [[{"role": "user", "content": "x"}]], max_new_tokens=policy.max_length)


def test_a_conversation_that_cannot_fit_is_refused() -> None:
    engine = RolloutEngine(TinyPolicy(seed=0, device="cpu"), slots=1, capacity=8)
    with pytest.raises(ValueError, match="does not fit"):
        engine.complete([[CharTokenizer.SEP] * 8], max_new_tokens=2)
