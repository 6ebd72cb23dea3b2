"""Red-team regressions (round 3, session 27) for the code family: repeated hidden tests in the multi-test
stdin/stdout envs (a problem whose hidden tests were only the example's); mutation_tests' shape example
(copied with its true result, it killed every hidden mutant in 23% of level-0 problems); integer_sequence
problems whose tests beyond the examples were all one value."""

from __future__ import annotations

import ast
import re

import pytest

from palaestra.core.registry import make_source
from palaestra.envs.code._polyglot import _example_indices
from palaestra.envs.code.common import call_text, show
from palaestra.envs.code.mutation_tests import SAFE_BUILTINS, compiled_function, source_of


@pytest.mark.parametrize("env_id", ["code/string_programs", "code/dp_programs"])
def test_multi_test_envs_never_repeat_a_hidden_test(env_id: str) -> None:
    source = make_source(env_id)
    for level in (0, 1):
        for seed in range(40):  # before: 10-14% of level-0/1 problems repeated a test
            inputs = source.sample(level, seed).data["inputs"]
            assert len(set(inputs)) == len(inputs), (env_id, level, seed, inputs)


def test_string_programs_hidden_tests_are_not_only_the_example() -> None:
    data = make_source("code/string_programs").sample(0, 11).data  # before: tests ((())), (), (), ((()))
    inputs, expected = data["inputs"], data["expected"]
    shown = {inputs[i] for i in _example_indices(inputs, expected)}
    assert not set(inputs) <= shown  # a lookup table of the example's lines must not pass


def _example_line(prompt: str, name: str, constants: list[int]) -> str:
    """The prompt's shape example with its true result (our catalogue function on the example's literals)."""
    match = re.search(rf"a test line looks like:\n{name}\((.*)\) == \.\.\.", prompt)
    assert match is not None
    args = ast.literal_eval(f"({match.group(1)},)")
    value = compiled_function(source_of(name, constants), name, SAFE_BUILTINS)(*args)
    return f"{name}({match.group(1)}) == {value!r}"


@pytest.mark.parametrize("level", [0, 1])
def test_mutation_tests_copied_example_kills_few_mutants(level: int) -> None:
    source = make_source("code/mutation_tests")
    rewards = []
    for seed in range(60):
        problem = source.sample(level, seed)
        line = _example_line(problem.prompt, problem.data["name"], problem.data["constants"])
        rewards.append(source.verify(problem, line).reward)
    assert max(rewards) < 1.0  # before: 23% (level 0) and 7% (level 1) of problems fully solved by the copy
    assert sum(rewards) / len(rewards) < 0.15  # before: a mean reward of 0.46 and 0.36


def test_integer_sequence_hidden_tests_are_not_one_value() -> None:
    source = make_source("code/integer_sequence")
    for seed in (51, 115, 127, *range(40)):  # before: seeds 51, 115, 127 hid only 0s, 43s, 0s beyond the examples
        problem = source.sample(0, seed)
        data = problem.data
        unseen = [t for t in data["tests"] if f"{call_text(data['function'], t['args'])} == {show(t['expected'])}"
                  not in problem.prompt]
        assert len({repr(t["expected"]) for t in unseen}) >= 2, seed
