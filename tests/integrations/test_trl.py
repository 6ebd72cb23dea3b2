"""palaestra with the real TRL: datasets, the reward function, environments, tools, the curriculum, and
GRPOTrainer runs (10 steps on a single-turn mix, 3 on a multi-turn game) with a tiny model built offline."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

import pytest

pytest.importorskip("trl")
pytest.importorskip("datasets")

import torch  # noqa: E402
from tiny_chat import build_model, build_tokenizer, warm_start  # noqa: E402
from transformers import TrainerControl, TrainerState, TrainingArguments  # noqa: E402
from transformers.utils import get_json_schema  # noqa: E402

from palaestra.core import MultiTurnTask, Outcome, Problem, Verdict, registry  # noqa: E402
from palaestra.core.extract import wrap  # noqa: E402
from palaestra.integrations import trl as palaestra_trl  # noqa: E402
from palaestra.integrations.common import sample  # noqa: E402
from palaestra.wrappers.curriculum import Curriculum  # noqa: E402

SINGLE_TURN_MIX = ["arithmetic/addition", "deduction/propositional"]


# --- a plug-in game a near-random player wins sometimes (palaestra's own games are far too hard for it) ---


@dataclass(frozen=True)
class DigitConfig:
    turns: int


class PickDigit(MultiTurnTask):
    id = "trldemo/pick_digit"
    family = "trldemo"
    description = "Guess a secret digit in three tries, told higher or lower."
    Config = DigitConfig

    def config(self, level: int) -> DigitConfig:
        return DigitConfig(turns=3)

    def generate(self, rng: random.Random, config: DigitConfig) -> Problem:
        return Problem(prompt="I picked a digit from 0 to 9. Find it in 3 guesses.", answer=str(rng.randrange(10)),
                       data={"turns": config.turns})

    def max_turns(self, problem: Problem) -> int:
        return problem.data["turns"]

    def play(self, problem: Problem, state: Any, move: str) -> Outcome:
        guess = move.strip()
        if len(guess) != 1 or not guess.isdigit():
            return Outcome(state, Verdict.unparsed("not a digit"), "Write one digit.")
        if guess == problem.answer:
            return Outcome(state, Verdict.right(), "Correct!", True)
        return Outcome(state, Verdict.wrong(), "Higher." if guess < problem.answer else "Lower.")

    def oracle(self, problem: Problem, state: Any) -> str:
        return problem.answer

    def difficulty(self, problem: Problem) -> float:
        return 1.0


@pytest.fixture(scope="module")
def pick_digit() -> Any:
    registry.add(PickDigit)
    yield PickDigit.id
    registry.remove(PickDigit.id)


# --- datasets, rewards, environments: no trainer ---------------------------------------------------------


def test_dataset_rows_rebuild_their_problems_and_score_their_references() -> None:
    dataset = palaestra_trl.build_dataset(SINGLE_TURN_MIX, levels=[0, 2], seeds=3)
    assert len(dataset) == 12 and {"prompt", "env_id", "level", "seed", "problem"} <= set(dataset.column_names)
    for row in dataset:
        problem = Problem.from_json(row["problem"])
        assert (problem.env_id, problem.level, problem.seed) == (row["env_id"], row["level"], row["seed"])
        assert row["prompt"] == [{"role": "user", "content": problem.prompt}]
        assert problem == sample(row["env_id"], row["level"], row["seed"])
    plain = palaestra_trl.build_dataset("arithmetic/addition", seeds=2, conversational=False, system_prompt="Be brief.")
    assert plain[0]["prompt"].startswith("Be brief.\n\n")
    routed = palaestra_trl.build_dataset(["arithmetic/addition", "games/guess_number"], seeds=1,
                                         environment={"arithmetic/addition": "qa", "games/guess_number": "game"})
    assert [(r["env_id"], r["environment"]) for r in routed] == [("arithmetic/addition", "qa"),
                                                                  ("games/guess_number", "game")]


def test_streaming_dataset_follows_the_curriculum_up_and_down() -> None:
    curriculum = Curriculum(window=4, raise_at=0.75, lower_at=0.25, max_level=4)
    reward = palaestra_trl.RewardFunction(curriculum=curriculum)
    stream = iter(palaestra_trl.build_dataset(["arithmetic/addition"], curriculum=curriculum, seed=1))

    def play(correct: bool) -> int:
        rows = [next(stream) for _ in range(4)]
        replies = [wrap(Problem.from_json(r["problem"]).answer if correct else "-1") for r in rows]
        reward([r["prompt"] for r in rows], replies, problem=[r["problem"] for r in rows])
        return rows[0]["level"]

    assert [play(True) for _ in range(3)] == [0, 1, 2]  # each window of 4 right answers raises the level
    assert [play(False) for _ in range(2)] == [3, 2]  # each window of wrong answers lowers it again
    assert curriculum.level("arithmetic/addition") == 1
    seeds = {(r["level"], r["seed"]) for r in [next(stream) for _ in range(50)]}
    assert len(seeds) == 50  # fresh problems, not a loop over a few


def test_reward_function_scores_logs_per_env_and_returns_none_for_errors() -> None:
    right = sample("arithmetic/addition", 0, 1)
    other = sample("deduction/propositional", 0, 1)
    stale = Problem.from_dict({**right.to_dict(), "version": 99})  # no verdict can be reached for it
    problems = [right.to_json(), right.to_json(), right.to_json(), other.to_json(), stale.to_json()]
    completions = [
        [{"role": "assistant", "content": f"It is <answer>{right.answer}</answer>."}],
        [{"role": "assistant", "content": f"<answer>{int(right.answer) + 1}</answer>"}],
        [{"role": "assistant", "content": "no idea"}],
        f"<answer>{other.answer}</answer>",
        f"<answer>{right.answer}</answer>",
    ]
    logged: dict[str, float] = {}
    rewards = palaestra_trl.RewardFunction()([None] * 5, completions, problem=problems, log_metric=logged.__setitem__)
    assert rewards == [1.0, 0.0, 0.0, 1.0, None]
    assert logged["palaestra/arithmetic/addition/accuracy"] == pytest.approx(1 / 3)
    assert logged["palaestra/arithmetic/addition/parse_rate"] == pytest.approx(2 / 3)
    assert logged["palaestra/arithmetic/addition/error_rate"] == pytest.approx(1 / 4)
    assert logged["palaestra/deduction/propositional/accuracy"] == 1.0


def test_environment_plays_a_real_game_through_submit() -> None:
    env = palaestra_trl.environment_factory()()
    problem = sample("games/guess_number", 0, 5)
    assert "submit" in env.reset(problem=problem.to_json(), prompt="ignored")
    low, high = problem.data["low"], problem.data["high"]
    replies = []
    for _ in range(problem.data["turns"]):  # bisection through the tool, bare and tagged moves alike
        guess = (low + high) // 2
        replies.append(env.submit(str(guess) if len(replies) % 2 else f"<answer>{guess}</answer>"))
        if "correct" in replies[-1]:
            break
        low, high = (guess + 1, high) if "higher" in replies[-1] else (low, guess - 1)
    assert env.verdict.correct and env.verdict.reward == 1.0
    assert env.submit("1") == "The episode is over: no more moves are accepted."
    rewarded = palaestra_trl.RewardFunction()([None], [[]], problem=[problem.to_json()], environments=[env])
    assert rewarded == [1.0]


def test_environment_tools_are_bound_per_rollout_and_infrastructure_errors_are_not_judged() -> None:
    factory = palaestra_trl.environment_factory(tools=["calculator"], max_tool_calls=2)
    env = factory()
    schema = get_json_schema(env.calculator)["function"]
    assert schema["name"] == "calculator" and schema["parameters"]["required"] == ["expression"]
    problem = sample("arithmetic/addition", 0, 2)
    assert env.reset(problem=problem.to_json()) is None  # single-turn: the prompt needs no extra instruction
    assert env.calculator(expression="6*7") == "42"
    assert env.calculator(expression="1/0").startswith("error")
    assert "limit" in env.calculator(expression="1+1")
    assert env.verdict is None  # nothing submitted: the reward function scores the final message instead
    reward = palaestra_trl.RewardFunction()
    final = [{"role": "assistant", "content": f"<answer>{problem.answer}</answer>"}]
    assert reward([None], [final], problem=[problem.to_json()], environments=[env]) == [1.0]

    env.reset(problem=problem.to_json())
    env._tools["calculator"].infrastructure_error = None

    def broken(arguments: dict[str, Any]) -> str:
        raise OSError("sandbox down")

    env._tools["calculator"].run = broken  # a tool whose machinery fails, as a dead sandbox does
    assert env.calculator(expression="1").startswith("error")
    assert env.verdict.error is not None
    assert reward([None], [final], problem=[problem.to_json()], environments=[env]) == [None]


def test_a_text_answer_counts_as_the_envs_own_protocol_says() -> None:
    """A model that answers a game or a tools/* question in text, as the env's prompt asks, is judged on it."""
    reward = palaestra_trl.RewardFunction()
    game = sample("games/guess_number", 0, 5)
    env = palaestra_trl.environment_factory()()
    env.reset(problem=game.to_json())
    final = [{"role": "assistant", "content": f"It must be <answer>{game.answer}</answer>"}]
    assert reward([None], [final], problem=[game.to_json()], environments=[env]) == [1.0]
    env.reset(problem=game.to_json())
    wrong = [{"role": "assistant", "content": "<answer>-1</answer>"}]
    assert reward([None], [wrong], problem=[game.to_json()], environments=[env]) == [0.0]

    question = sample("tools/word_problems", 0, 3)
    env = palaestra_trl.environment_factory(tools=["calculator"])()
    env.reset(problem=question.to_json())
    answer = [{"role": "assistant", "content": f"<answer>{question.answer}</answer>"}]
    assert reward([None], [answer], problem=[question.to_json()], environments=[env]) == [1.0]


def test_tool_budget_is_the_envs_own_unless_the_caller_sets_one() -> None:
    question = sample("tools/word_problems", 0, 3)
    budget = question.data["budget"]
    env = palaestra_trl.environment_factory(tools=["calculator"])()
    env.reset(problem=question.to_json())
    outputs = [env.calculator(expression="1+1") for _ in range(budget + 1)]
    assert outputs[:budget] == ["2"] * budget and "limit reached" in outputs[-1] and f"({budget} per" in outputs[-1]
    capped = palaestra_trl.environment_factory(tools=["calculator"], max_tool_calls=1)()
    capped.reset(problem=question.to_json())
    assert capped.calculator(expression="1+1") == "2" and "limit reached" in capped.calculator(expression="1+1")
    plain = palaestra_trl.environment_factory(tools=["calculator"])()
    plain.reset(problem=sample("arithmetic/addition", 0, 2).to_json())  # no budget of its own: 8
    assert sum(plain.calculator(expression="1") == "1" for _ in range(9)) == 8


def test_stateless_tools_as_trl_functions() -> None:
    [calculator] = palaestra_trl.tool_functions(["calculator"])
    assert calculator(expression="2**10") == "1024"
    assert get_json_schema(calculator)["function"]["parameters"]["properties"]["expression"]["type"] == "string"
    with pytest.raises(ValueError, match="environment_factory"):
        palaestra_trl.tool_functions(["python"])


def test_curriculum_callback_saves_and_restores_with_checkpoints(tmp_path: Any) -> None:
    curriculum = Curriculum(window=2, max_level=4)
    for _ in range(2):
        curriculum.record("arithmetic/addition", True)
    callback = palaestra_trl.CurriculumCallback(curriculum)
    args = TrainingArguments(output_dir=str(tmp_path), report_to=[], use_cpu=True)
    callback.on_save(args, TrainerState(global_step=7), TrainerControl())
    saved = json.loads((tmp_path / "checkpoint-7" / palaestra_trl.CURRICULUM_FILE).read_text())
    assert saved["levels"] == {"arithmetic/addition": 1}
    logs: dict[str, Any] = {}
    callback.on_log(args, TrainerState(global_step=7), TrainerControl(), logs=logs)
    assert logs == {"palaestra/arithmetic/addition/level": 1}

    fresh = Curriculum(window=2, max_level=4)
    shared_view = fresh  # the dataset and the reward function hold this very object
    palaestra_trl.CurriculumCallback(fresh).on_train_begin(args, TrainerState(global_step=7), TrainerControl())
    assert shared_view.level("arithmetic/addition") == 1 and shared_view.episodes == 2


# --- GRPOTrainer, for real ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny(pick_digit: str) -> Any:
    """A tokenizer and a tiny Qwen2 warm-started to answer in tags and to call the submit tool."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny matrices: one thread is faster than two contended ones
    rng = random.Random(0)
    submit = palaestra_trl.environment_factory()().submit
    staging = build_tokenizer(["staging"], vocab_size=300)  # renders the chat template before the real one exists
    examples, texts = [], []
    for env_id in SINGLE_TURN_MIX:
        for seed in range(60):
            problem = sample(env_id, 0, seed)
            prompt = staging.apply_chat_template([{"role": "user", "content": problem.prompt}],
                                                 add_generation_prompt=True, tokenize=False)
            answer = problem.answer if rng.random() < 0.5 else str(rng.choice(["yes", "no", 3, 7, 11]))
            examples.append((prompt, f"<answer>{answer}</answer><|im_end|>"))
    game = palaestra_trl.environment_factory()()
    for seed in range(40):
        problem = sample(pick_digit, 0, seed)
        opening = problem.prompt + game.reset(problem=problem.to_json())
        prompt = staging.apply_chat_template([{"role": "user", "content": opening}], tools=[submit],
                                             add_generation_prompt=True, tokenize=False)
        first = _call(rng.randrange(10))
        after = f"{prompt}{first}\n<|im_start|>user\n<tool_response>\nLower. (2 turns left)\n</tool_response>" \
                "<|im_end|>\n<|im_start|>assistant\n"
        examples += [(prompt, first), (after, _call(rng.randrange(10)))]
    texts = [p + r for p, r in examples]
    tokenizer = build_tokenizer(texts)
    model = build_model(tokenizer)
    loss = warm_start(model, tokenizer, examples, steps=100, lr=5e-3)
    assert loss < 1.0
    yield tokenizer, model
    torch.set_num_threads(threads)


def _call(digit: int) -> str:
    call = json.dumps({"name": "submit", "arguments": {"answer": str(digit)}})
    return f"<tool_call>\n{call}\n</tool_call><|im_end|>"


def _config(tmp_path: Any, steps: int, completion_tokens: int, **extra: Any) -> Any:
    from trl import GRPOConfig

    return GRPOConfig(output_dir=str(tmp_path), max_steps=steps, per_device_train_batch_size=8, num_generations=4,
                      max_completion_length=completion_tokens, learning_rate=1e-4, logging_steps=1, report_to=[],
                      save_strategy="no", use_cpu=True, dataloader_num_workers=0, seed=0, disable_tqdm=True, **extra)


def test_grpo_trains_on_a_single_turn_mix_with_a_curriculum(tiny: Any, tmp_path: Any,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from trl import GRPOTrainer

    monkeypatch.setenv("TRL_EXPERIMENTAL_SILENCE", "1")
    tokenizer, model = tiny
    curriculum = Curriculum(window=8, raise_at=0.75, lower_at=0.25, max_level=4)
    reward = palaestra_trl.RewardFunction(curriculum=curriculum)
    judged: list[float | None] = []

    def recording_reward(*args: Any, **kwargs: Any) -> list[float | None]:
        out = reward(*args, **kwargs)
        judged.extend(out)
        return out

    recording_reward.__name__ = "palaestra"
    dataset = palaestra_trl.build_dataset(SINGLE_TURN_MIX, curriculum=curriculum, seed=3)
    trainer = GRPOTrainer(model=model, reward_funcs=recording_reward, args=_config(tmp_path, 10, 12),
                          train_dataset=dataset, processing_class=tokenizer,
                          callbacks=[palaestra_trl.CurriculumCallback(curriculum)])
    trainer.train()
    logs = [h for h in trainer.state.log_history if "reward" in h]
    assert len(logs) == 10
    assert len({round(h["reward"], 6) for h in logs}) > 1 and any(h["reward_std"] > 0 for h in logs)
    assert all(r is None or 0.0 <= r <= 1.0 for r in judged) and len(judged) == 80
    for env_id in SINGLE_TURN_MIX:
        assert any(f"palaestra/{env_id}/accuracy" in h for h in logs)
    assert curriculum.episodes == sum(r is not None for r in judged)


def test_grpo_plays_a_multi_turn_game_through_the_environment(tiny: Any, pick_digit: str, tmp_path: Any,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from trl import GRPOTrainer

    monkeypatch.setenv("TRL_EXPERIMENTAL_SILENCE", "1")
    tokenizer, model = tiny
    dataset = palaestra_trl.build_dataset(pick_digit, seeds=40)
    trainer = GRPOTrainer(model=model, reward_funcs=palaestra_trl.RewardFunction(),
                          args=_config(tmp_path, 3, 96, max_tool_calling_iterations=4), train_dataset=dataset,
                          processing_class=tokenizer, environment_factory=palaestra_trl.environment_factory())
    rollouts: list[tuple[list[int], list[int]]] = []
    generate = trainer._generate

    def recording_generate(prompts: Any) -> Any:
        out = generate(prompts)
        rollouts.extend(zip(out[1], out[2]))  # completion ids and TRL's tool mask
        return out

    trainer._generate = recording_generate
    trainer.train()
    logs = [h for h in trainer.state.log_history if "reward" in h]
    assert len(logs) == 3
    assert len({round(h["reward"], 6) for h in logs}) > 1 or any(h["reward_std"] > 0 for h in logs)
    assert all(h["tools/call_frequency"] > 0 for h in logs)
    assert any(f"palaestra/{pick_digit}/accuracy" in h for h in logs)
    masked_rollouts = 0
    for ids, mask in rollouts:  # the env's replies are in the completion but out of the loss
        env_text = tokenizer.decode([t for t, m in zip(ids, mask) if m == 0])
        model_text = tokenizer.decode([t for t, m in zip(ids, mask) if m == 1])
        assert "<tool_response>" not in model_text
        if 0 in mask:
            masked_rollouts += 1
            assert "<tool_response>" in env_text and "submit" not in env_text
    assert masked_rollouts > 0
