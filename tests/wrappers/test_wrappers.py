"""Chat formatting, format and noisy rewards, adaptive curricula (up and down) and per-env statistics."""

from __future__ import annotations

import doctest
import importlib

import pytest

import palaestra
from palaestra.wrappers.chat import ChatFormat
from palaestra.wrappers.curriculum import Curriculum, CurriculumVectorWrapper, CurriculumWrapper
from palaestra.wrappers.rewards import FormatReward, NoisyReward
from palaestra.wrappers.statistics import EnvStatistics


@pytest.mark.parametrize("module", ["chat", "curriculum", "rewards", "statistics"])
def test_docstring_examples(module: str) -> None:
    result = doctest.testmod(importlib.import_module(f"palaestra.wrappers.{module}"))
    assert result.failed == 0 and result.attempted > 0


def test_format_reward_rewards_form_not_content_and_skips_errors() -> None:
    env = FormatReward(palaestra.make("arithmetic/expression"), weight=0.2)
    _, info = env.reset(seed=3)
    assert env.step(f"<answer>{info['problem'].answer}</answer>")[1] == pytest.approx(1.0)
    env.reset(seed=3)
    assert env.step("no answer block")[1] == 0.0
    with pytest.raises(ValueError):
        FormatReward(palaestra.make("arithmetic/expression"), weight=1.5)


def test_noisy_reward_flips_about_p_of_the_steps_reproducibly() -> None:
    def rewards(noise_seed: int) -> list[float]:
        env = NoisyReward(palaestra.make("arithmetic/expression"), p=0.3, noise_seed=noise_seed)
        out = []
        for seed in range(400):
            _, info = env.reset(seed=seed)
            _, reward, *_, step_info = env.step(f"<answer>{info['problem'].answer}</answer>")
            assert step_info["clean_reward"] == 1.0
            out.append(reward)
        return out

    first = rewards(0)
    assert 0.22 < first.count(0.0) / len(first) < 0.38
    assert rewards(0) == first and rewards(1) != first


def test_chat_format_accepts_messages_and_rejects_other_types() -> None:
    env = ChatFormat(palaestra.make("arithmetic/expression"))
    messages, info = env.reset(seed=1)
    answer = f"<answer>{info['problem'].answer}</answer>"
    messages, reward, terminated, *_ = env.step([*messages, {"role": "assistant", "content": answer}])
    assert reward == 1.0 and terminated and messages[-2] == {"role": "assistant", "content": answer}
    env.reset(seed=1)
    with pytest.raises(TypeError):
        env.step({"role": "user", "content": answer})


def test_curriculum_raises_then_lowers_levels_from_windowed_accuracy() -> None:
    curriculum = Curriculum(window=10, raise_at=0.8, lower_at=0.3, max_level=4)
    levels = []
    # A toy learner: solves everything at levels 0-2, nothing at level 3.
    for episode in range(100):
        level = curriculum.level("toy")
        curriculum.record("toy", correct=level <= 2)
        levels.append(curriculum.level("toy"))
    assert max(levels) == 3 and levels[-1] in (2, 3)
    moves = [(n, level) for _, n, level in curriculum.history]
    assert moves[:4] == [(10, 1), (20, 2), (30, 3), (40, 2)]  # up three times, then back down
    restored = Curriculum.from_state(curriculum.state())
    assert restored.level("toy") == curriculum.level("toy") and restored.history == curriculum.history
    curriculum.record("toy", correct=False, error=True)  # errors are not counted
    assert curriculum.episodes == 100


def test_curriculum_wrappers_drive_single_and_vector_envs() -> None:
    curriculum = Curriculum(window=2, raise_at=0.5, lower_at=0.0, max_level=4)
    env = CurriculumWrapper(palaestra.make("arithmetic/expression"), curriculum)
    for seed in range(4):
        _, info = env.reset(seed=seed)
        env.step(f"<answer>{info['problem'].answer}</answer>")
    assert curriculum.level("arithmetic/expression") == 2 and env.reset(seed=9)[1]["level"] == 2

    vector_curriculum = Curriculum(window=4, raise_at=0.75, lower_at=0.0, max_level=4)
    envs = CurriculumVectorWrapper(palaestra.make_vec("arithmetic/expression", num_envs=4), vector_curriculum)
    _, infos = envs.reset(seed=0)
    for _ in range(3):
        answers = [f"<answer>{p.answer}</answer>" for p in infos["problem"]]
        _, _, _, _, infos = envs.step(answers)
    assert vector_curriculum.level("arithmetic/expression") == 3
    assert set(infos["level"]) <= {1, 2, 3} and max(infos["level"]) >= 2


def test_env_statistics_count_per_env_and_keep_errors_apart() -> None:
    envs = EnvStatistics(palaestra.make_vec(["arithmetic/expression", "games/guess_number"], num_envs=4))
    _, infos = envs.reset(seed=0)
    answers = [f"<answer>{p.answer}</answer>" for p in infos["problem"]]
    envs.step(answers)  # the arithmetic envs are solved; the games got their secret on the first guess
    summary = envs.summary()
    assert summary["arithmetic/expression"] == {"episodes": 2, "errors": 0, "accuracy": 1.0, "mean_reward": 1.0,
                                                "mean_turns": 1.0}
    assert summary["games/guess_number"]["accuracy"] == 1.0
