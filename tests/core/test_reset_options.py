"""The core API refuses what it cannot use, clearly.

``reset(options=...)`` reads ``level`` (and a vector env's ``problem_seed`` and ``prepared``); any other key is
refused with the keys it reads. A misspelt key was ignored: ``{"levle": 3}`` played the current level without a
word, in single- and multi-turn envs alike. ``score`` never raises, whatever the completion's type."""

from __future__ import annotations

import pytest

import palaestra
from palaestra.vector import make_vec


@pytest.mark.parametrize("env_id", ["graphs/bridges", "games/guess_number"])
def test_an_unknown_reset_option_is_refused_naming_the_one_to_use(env_id: str) -> None:
    env = palaestra.make(env_id)
    with pytest.raises(ValueError, match=r"unsupported reset options \['levle'\].*'level'"):
        env.reset(seed=1, options={"levle": 3})
    _, info = env.reset(seed=1, options={"level": 3})
    assert info["level"] == 3 and info["problem"].level == 3
    _, info = env.reset(seed=1, options={})  # no options: the level last set
    assert info["level"] == 3


def test_vector_envs_still_pass_their_own_options() -> None:
    envs = make_vec(["graphs/bridges", "games/guess_number"], num_envs=2)
    try:
        _, infos = envs.reset(seed=5, options={"level": 1})
        assert list(infos["level"]) == [1, 1]
        with pytest.raises(ValueError, match="unsupported reset options"):
            envs.reset(seed=5, options={"levle": 1})
    finally:
        envs.close()


def test_score_never_raises_on_a_completion_of_the_wrong_type() -> None:
    # score's contract is "never raises"; a number as the completion raised TypeError from list()
    problem = palaestra.make("graphs/bridges").reset(seed=2)[1]["problem"].to_json()
    for completion in (5, None, 2.5, [1, 2], ["fine", None]):
        verdict = palaestra.score(problem, completion)  # type: ignore[arg-type]
        assert verdict.error and "must be a str" in verdict.feedback, completion
