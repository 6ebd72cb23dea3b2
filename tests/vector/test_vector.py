from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, VectorEnv

import palaestra
from palaestra.vector import assign_slots

sys.path.insert(0, str(Path(__file__).parent))
import faulty_envs  # noqa: E402,F401  (registers faulty/echo here; workers import it by name)

MIXED = ["arithmetic/expression", "games/mastermind", "graphs/shortest_path", "deduction/knights_knaves"]


def gold(infos: dict, i: int) -> str:
    return f"<answer>{infos['problem'][i].answer}</answer>"


def prompts_of(mode: str, seed: int, **kw: object) -> list[str]:
    envs = palaestra.make_vec(MIXED, num_envs=8, mode=mode, **kw)
    try:
        prompts, _ = envs.reset(seed=seed)
        answers = ["<answer>0</answer>"] * 8
        seen = list(prompts)
        for _ in range(3):
            prompts, *_ = envs.step(answers)
            seen += prompts
        return seen
    finally:
        envs.close()


def test_is_a_gymnasium_vector_env_with_text_spaces() -> None:
    envs = palaestra.make_vec(MIXED, num_envs=4)
    assert isinstance(envs, VectorEnv)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    prompts, infos = envs.reset(seed=1)
    assert prompts in envs.observation_space and all(p in envs.single_observation_space for p in prompts)
    assert infos["_problem"].all() and infos["env_id"].tolist() == MIXED
    envs.action_space.seed(0)
    obs, rewards, terminated, truncated, infos = envs.step(envs.action_space.sample())
    assert obs in envs.observation_space
    assert rewards.dtype == np.float64 and terminated.dtype == truncated.dtype == np.bool_
    envs.close()
    envs.close()  # closing twice is allowed


def test_same_seed_same_problems_in_every_mode_and_worker_count() -> None:
    reference = prompts_of("sync", 5)
    assert prompts_of("async", 5, num_workers=2) == reference
    assert prompts_of("async", 5, num_workers=3) == reference
    assert prompts_of("sync", 6) != reference


def test_reset_seed_gives_each_env_seed_plus_index() -> None:
    envs = palaestra.make_vec("arithmetic/expression", num_envs=3)
    _, infos = envs.reset(seed=100)
    assert infos["seed"].tolist() == [100, 101, 102]
    _, again = envs.reset(seed=100)
    assert [p.prompt for p in infos["problem"]] == [p.prompt for p in again["problem"]]


def test_mixed_suite_weights() -> None:
    assert assign_slots(["a", "b", "c"], 6, weights=[4, 1, 1]).count("a") == 4
    envs = palaestra.make_vec(["arithmetic/expression", "planning/maze"], num_envs=4, weights=[3, 1])
    assert sorted(envs.env_ids) == ["arithmetic/expression"] * 3 + ["planning/maze"]
    with pytest.raises(ValueError):
        palaestra.make_vec(["arithmetic/expression"], num_envs=2, weights=[0])
    with pytest.raises(KeyError):
        palaestra.make_vec(["no/such_env"])


def test_partial_stepping_only_touches_chosen_envs() -> None:
    envs = palaestra.make_vec("games/mastermind", num_envs=3)
    prompts, _ = envs.reset(seed=0)
    obs, rewards, terminated, truncated, infos = envs.step({1: "<answer>AAAA</answer>"})
    assert infos["stepped"].tolist() == [False, True, False]
    assert obs[0] == prompts[0] and obs[2] == prompts[2] and obs[1] != prompts[1]
    assert infos["_turn"].tolist() == [False, True, False] and infos["turn"][1] == 1
    with pytest.raises(ValueError):
        envs.step({7: "x"})
    with pytest.raises(ValueError):
        envs.step(["only one"])


def test_same_step_autoreset_returns_next_prompt_and_final_obs() -> None:
    envs = palaestra.make_vec("arithmetic/expression", num_envs=2)
    prompts, infos = envs.reset(seed=3)
    obs, rewards, terminated, _, infos = envs.step([gold(infos, 0), "<answer>nope</answer>"])
    assert rewards.tolist() == [1.0, 0.0] and terminated.all()
    assert infos["_final_obs"].all() and infos["final_info"]["verdict"][0].correct
    assert obs[0] != prompts[0] and obs[0] == infos["problem"][0].prompt  # already the next problem
    assert infos["seed"][0] not in (3, 4)


def test_next_step_autoreset_ignores_the_action_after_an_episode() -> None:
    envs = palaestra.make_vec("arithmetic/expression", num_envs=1, autoreset_mode="NextStep")
    _, infos = envs.reset(seed=3)
    obs, rewards, terminated, *_ = envs.step([gold(infos, 0)])
    assert terminated[0] and rewards[0] == 1.0
    obs2, rewards, terminated, _, infos = envs.step(["ignored"])
    assert rewards[0] == 0.0 and not terminated[0] and "problem" in infos and obs2[0] != obs[0]


def test_disabled_autoreset_requires_reset_mask() -> None:
    envs = palaestra.make_vec("arithmetic/expression", num_envs=2, autoreset_mode="Disabled")
    _, infos = envs.reset(seed=0)
    _, _, terminated, _, _ = envs.step({0: gold(infos, 0)})
    assert terminated[0]
    with pytest.raises(RuntimeError):
        envs.step({0: "x"})
    prompts, infos = envs.reset(options={"reset_mask": np.array([True, False])})
    assert infos["_problem"].tolist() == [True, False]
    envs.step({0: "x", 1: "y"})


def test_levels_via_reset_options() -> None:
    envs = palaestra.make_vec("arithmetic/expression", num_envs=2, level=1)
    _, infos = envs.reset(seed=0)
    assert infos["level"].tolist() == [1, 1]
    _, infos = envs.reset(seed=0, options={"level": [0, 4]})
    assert infos["level"].tolist() == [0, 4]


def test_single_and_multi_turn_mixed_play_to_the_end() -> None:
    envs = palaestra.make_vec(["games/wordle", "arithmetic/expression"], num_envs=2)
    _, infos = envs.reset(seed=2)
    obs, rewards, terminated, truncated, infos = envs.step(["<answer>crane</answer>", gold(infos, 1)])
    assert terminated[1] and rewards[1] == 1.0
    assert not terminated[0] and infos["turn"][0] == 1  # the game goes on


@pytest.mark.parametrize("trigger, timeout", [("crash", 30.0), ("hang", 1.0)])
def test_failing_worker_truncates_only_its_episode(trigger: str, timeout: float) -> None:
    envs = palaestra.make_vec(["faulty/echo", "games/mastermind"], num_envs=4, mode="async", num_workers=2,
                              timeout=timeout, modules=["faulty_envs"])
    try:
        _, infos = envs.reset(seed=0)
        # env 1 (mastermind, same worker as env 0) plays one move first: its game must survive the crash
        envs.step({1: "<answer>ABCD</answer>"})
        t0 = time.monotonic()
        obs, rewards, terminated, truncated, infos = envs.step(
            {0: f"<answer>{trigger}</answer>", 1: "<answer>BBBB</answer>", 2: gold(infos, 2)})
        elapsed = time.monotonic() - t0
        assert truncated[0] and "error" in infos["final_info"] and infos["final_info"]["error"][0]
        assert rewards[0] == 0.0 and not truncated[1] and infos["turn"][1] == 2  # the game went on
        assert rewards[2] == 1.0 and terminated[2]  # the other worker's result is kept
        assert envs.runner.restarts >= 1
        if trigger == "hang":  # cut by the timeout (a hang would never return); the margin absorbs a busy machine
            assert elapsed < 4 * timeout + 60
        _, infos = envs.reset(seed=1)
        _, rewards, *_ = envs.step({0: gold(infos, 0), 2: gold(infos, 2)})
        assert rewards[0] == rewards[2] == 1.0  # the pool keeps serving
    finally:
        envs.close()


def test_env_exception_is_an_error_not_a_wrong_answer() -> None:
    envs = palaestra.make_vec("faulty/echo", num_envs=1)
    envs.reset(seed=0)
    # Task.check turns verifier bugs into unparsed verdicts, so the env does not raise: reward 0, parsed False
    _, rewards, terminated, _, infos = envs.step(["<answer>raise</answer>"])
    assert rewards[0] == 0.0 and not infos["final_info"]["parsed"][0]


def test_gymnasium_vector_wrappers_work_on_it() -> None:
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    envs = RecordEpisodeStatistics(palaestra.make_vec(["arithmetic/expression", "games/guess_number"], num_envs=2))
    _, infos = envs.reset(seed=0)
    _, _, terminated, _, infos = envs.step([gold(infos, 0), "<answer>1</answer>"])
    assert terminated.tolist() == [True, False]
    assert infos["_episode"].tolist() == [True, False]
    assert infos["episode"]["r"][0] == 1.0 and infos["episode"]["l"][0] == 1


def test_async_resets_in_worker_like_sync() -> None:
    """Worker processes reset a finished env in the same round trip as its last step; the episodes and
    seeds must be exactly those of the in-process runner."""

    def run(mode: str) -> list:
        envs = palaestra.make_vec(["games/mastermind", "arithmetic/expression"], num_envs=4, mode=mode, num_workers=2)
        envs.reset(seed=3)
        seen = []
        for _ in range(25):  # mastermind episodes end after 10 guesses, expression ones every step
            obs, rewards, terminated, truncated, infos = envs.step(["<answer>AAAB</answer>"] * 4)
            seen.append((obs, rewards.tolist(), terminated.tolist(), truncated.tolist(), infos["seed"].tolist(),
                         infos.get("final_obs", np.array([])).tolist()))
        envs.close()
        return seen

    assert run("async") == run("sync")


def test_a_waiting_worker_prepares_the_next_problems_and_the_resets_use_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker generates its envs' next problems while it waits for a command (their costs vary, so the first
    worker done would idle); the reset then takes the prepared problem, which is the one it would generate."""
    from palaestra.core.task import ProblemSource
    from palaestra.vector.shard import Shard, reset_options

    shard = Shard({0: ("arithmetic/expression", {}), 1: ("games/mastermind", {})})
    shard.execute([(0, ("reset", None, {"problem_seed": 5})), (1, ("reset", None, {"problem_seed": 6}))])
    step = [(0, ("step", "<answer>0</answer>", (100, 0, 1, None))),
            (1, ("step", "<answer>AAAB</answer>", (100, 1, 1, None)))]
    shard.execute(step)  # env 0's episode ends (reset to episode 1 in the same trip); env 1's goes on
    prepared = 0
    while shard.prepare_one():
        prepared += 1
    assert prepared == 2  # env 0's episode 2 and env 1's episode 1

    calls: list[tuple[int, int]] = []
    original = ProblemSource.sample
    monkeypatch.setattr(ProblemSource, "sample",
                        lambda self, level=0, seed=0: calls.append((level, seed)) or original(self, level, seed))
    outcomes = dict(shard.execute([(0, ("step", "<answer>0</answer>", (100, 0, 2, None))), step[1]]))
    assert calls == []  # env 0's reset took its prepared problem
    observation, info = outcomes[0][2][1]
    expected = original(shard.envs[0].unwrapped.source, 0, reset_options(100, 0, 2, None)["problem_seed"])
    assert observation == expected.prompt and info["problem"] == expected
