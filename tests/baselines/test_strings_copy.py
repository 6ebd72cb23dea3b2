"""strings/copy: the env the tiny policy learns on (the kit over every env runs in tests/contract)."""

from __future__ import annotations

import statistics

import palaestra
from palaestra.core.registry import make_source


def test_level_zero_is_one_character_from_a_small_alphabet() -> None:
    source = make_source("strings/copy")
    answers = {source.sample(0, seed).answer for seed in range(300)}
    assert all(len(a) == 1 for a in answers) and 2 <= len(answers) <= 10


def test_levels_ask_for_longer_answers_and_more_operations() -> None:
    source = make_source("strings/copy")
    lengths = [statistics.mean(len(source.sample(level, seed).answer) for seed in range(200)) for level in range(5)]
    assert lengths == sorted(lengths) and lengths[0] == 1 and lengths[4] > 8
    operations = [{source.sample(level, seed).data["operation"] for seed in range(200)} for level in range(5)]
    assert [len(ops) for ops in operations] == [1, 1, 2, 4, 4]


def test_partial_credit_is_below_one_and_only_exact_answers_are_correct() -> None:
    env = palaestra.make("strings/copy", level=2, answer_format="raw")
    _, info = env.reset(seed=4)
    gold = info["problem"].answer
    _, reward, *_, info = env.step(gold)
    assert reward == 1.0 and info["correct"]
    env.reset(seed=4)
    _, reward, *_, info = env.step(gold[:-1] + ("x" if gold[-1] != "x" else "y"))  # the last character wrong
    assert 0.5 < reward < 1.0 and not info["correct"]
    env.reset(seed=4)
    _, reward, *_ = env.step(gold * 20)  # far too long: no credit, bounded work
    assert reward == 0.0


def test_prompt_ends_with_the_input_before_the_format_line() -> None:
    problem = palaestra.make("strings/copy", answer_format="raw").reset(seed=1)[1]["problem"]
    assert problem.prompt.endswith(f"Input: {problem.data['input']}\n\nReply with the answer only.")
