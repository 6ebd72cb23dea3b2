"""The Gymnasium-exact surface, versions, the error channel, score(), rows and the registry's loud errors."""

from __future__ import annotations

import json
import pickle
import random
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import gymnasium
import pytest
from gymnasium.error import ResetNeeded

import palaestra
from palaestra.catalog import check_packages, index_text, scan_env_modules
from palaestra.core import MultiTurnTask, Outcome, Problem, RegistryError, Task, Verdict, register, registry
from palaestra.core.registry import INDEX_PATH, spec_of

GOOD = "<answer>{}</answer>"


@pytest.mark.parametrize("env_id", ["arithmetic/expression", "games/mastermind"])
def test_step_before_reset_after_end_and_non_str_actions_raise(env_id: str) -> None:
    env = palaestra.make(env_id)
    with pytest.raises(ResetNeeded):
        env.step("<answer>1</answer>")
    _, info = env.reset(seed=1)
    for bad in (["<answer>1</answer>"], b"<answer>1</answer>", 5, None):
        with pytest.raises(TypeError):
            env.step(bad)
    terminated = truncated = False
    while not (terminated or truncated):
        action = env.oracle_action() if hasattr(env, "oracle_action") else GOOD.format(info["problem"].answer)
        _, reward, terminated, truncated, step_info = env.step(action)
        assert isinstance(step_info["verdict"], Verdict)
    assert reward > 0
    with pytest.raises(ResetNeeded):  # a wrong answer after the episode ended must not score
        env.step(GOOD.format(info["problem"].answer))


def test_tool_use_wrapper_guards_the_episode_too() -> None:
    env = palaestra.make("arithmetic/expression", tools=["calculator"])
    assert isinstance(env, gymnasium.Wrapper)
    with pytest.raises(ResetNeeded):
        env.step("x")
    _, info = env.reset(seed=2)
    with pytest.raises(TypeError):
        env.step(b"x")
    env.step(GOOD.format(info["problem"].answer))
    with pytest.raises(ResetNeeded):
        env.step(GOOD.format(info["problem"].answer))


def test_make_passes_env_kwargs_and_rejects_unknown_ones() -> None:
    env = palaestra.make("code/test_feedback", partial_credit=True, level=1)
    assert env.unwrapped.task.partial_credit is True
    with pytest.raises(TypeError, match="partial_credit"):
        palaestra.make("games/guess_number", partial_credit=True)
    with pytest.raises(TypeError, match="accepts"):
        palaestra.make("arithmetic/expression", difficulty=3)


def test_spec_pickles_serialises_and_rebuilds_the_same_env_through_gymnasium() -> None:
    env = palaestra.make("graphs/shortest_path", level=2, answer_format="boxed")
    spec = env.spec
    assert spec.id == registry["graphs/shortest_path"].versioned_id
    assert pickle.loads(pickle.dumps(spec)) == spec
    assert gymnasium.envs.registration.EnvSpec.from_json(spec.to_json()) == spec
    same = gymnasium.make(spec.id, **spec.kwargs)
    assert same.reset(seed=4)[0] == env.reset(seed=4)[0]
    assert "\\boxed" in same.reset(seed=4)[0]
    with pytest.warns(UserWarning, match="latest versioned"):  # the bare id resolves to the newest version
        bare = gymnasium.make("graphs/shortest_path", level=2)
    assert bare.unwrapped.level == 2


def test_versioned_ids_resolve_and_old_versions_are_refused() -> None:
    spec = registry["games/wordle"]
    assert registry[spec.versioned_id] is spec
    assert palaestra.make(spec.versioned_id).spec.id == spec.versioned_id
    with pytest.raises(KeyError, match="not kept runnable"):
        registry[f"games/wordle-v{spec.version + 1}"]


def test_problem_records_its_answer_format_and_score_uses_it_in_another_process() -> None:
    env = palaestra.make("arithmetic/expression", answer_format="boxed", level=2)
    _, info = env.reset(seed=9)
    problem = info["problem"]
    assert problem.answer_format == "boxed" and Problem.from_json(problem.to_json()).answer_format == "boxed"
    completion = f"Working... so the value is \\boxed{{{problem.answer}}}."
    code = textwrap.dedent("""
        import sys, palaestra
        problem, completion = sys.stdin.read().split("\\x00")
        verdict = palaestra.score(problem, completion)
        print(verdict.reward, verdict.correct)
    """)
    out = subprocess.run([sys.executable, "-c", code], input=f"{problem.to_json()}\x00{completion}",
                         capture_output=True, text=True, check=True).stdout.split()
    assert out == ["1.0", "True"]
    assert palaestra.score(problem, f"<answer>{problem.answer}</answer>").parsed is False  # not its format


def test_score_never_raises_and_reports_unjudgeable_problems_as_errors() -> None:
    problem = palaestra.make("arithmetic/expression").reset(seed=1)[1]["problem"]
    assert palaestra.score(problem.to_row(), GOOD.format(problem.answer)).correct
    assert palaestra.score(problem, "no tags").parsed is False
    for bad in ("{not json", '{"env_id": "no/such_env"}', 42):
        verdict = palaestra.score(bad, GOOD.format(1))
        assert verdict.error is not None and verdict.reward == 0.0
    newer = Problem(**{**problem.to_dict(), "version": problem.version + 1})
    assert "v" in (palaestra.score(newer, GOOD.format(problem.answer)).error or "")
    assert palaestra.score(problem, ["a", "b"]).error is not None


def test_multi_turn_episodes_are_judged_by_replay() -> None:
    env = palaestra.make("games/guess_number", level=1)
    _, info = env.reset(seed=5)
    moves = []
    terminated = False
    while not terminated:
        moves.append(env.oracle_action())
        *_, terminated, _, _ = env.step(moves[-1])
    problem = info["problem"]
    assert palaestra.score(problem.to_json(), moves).correct
    assert not palaestra.score(problem, moves[:-1]).correct
    assert palaestra.score(problem, ["no tags"] + moves).correct is (len(moves) + 1 <= problem.data["turns"])


def test_flat_rows_hold_scalars_that_arrow_can_store() -> None:
    problem = palaestra.make("graphs/shortest_path", level=3).reset(seed=0)[1]["problem"]
    row = problem.to_row()
    assert all(isinstance(v, (str, int, float, bool)) or v is None for v in row.values())
    assert Problem.from_row(row) == problem
    pyarrow = pytest.importorskip("pyarrow")
    table = pyarrow.Table.from_pylist([row, palaestra.make("games/wordle").reset(seed=1)[1]["problem"].to_row()])
    assert Problem.from_row(table.to_pylist()[0]) == problem


@dataclass(frozen=True)
class _Cfg:
    n: int


class _Flaky(Task):
    id = "errdemo/flaky"
    family = "errdemo"
    description = "A verifier whose infrastructure fails."
    Config = _Cfg

    def config(self, level: int) -> _Cfg:
        return _Cfg(level)

    def generate(self, rng: random.Random, config: _Cfg) -> Problem:
        return Problem(prompt="Say 1.", answer="1", data={})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        return Verdict.failed("sandbox unreachable")


def test_one_error_channel_through_single_turn_and_vector_envs() -> None:
    register(_Flaky)
    try:
        env = palaestra.make(_Flaky.id)
        env.reset(seed=0)
        _, reward, terminated, truncated, info = env.step("<answer>1</answer>")
        assert info["error"] == "sandbox unreachable" and info["verdict"].error == "sandbox unreachable"
        assert (reward, terminated, truncated) == (0.0, False, True)
        envs = palaestra.make_vec(_Flaky.id, num_envs=2)
        envs.reset(seed=0)
        _, _, _, truncated, infos = envs.step(["<answer>1</answer>"] * 2)
        assert truncated.all() and list(infos["final_info"]["error"]) == ["sandbox unreachable"] * 2
    finally:
        registry.remove(_Flaky.id)


def test_registry_lists_without_importing_env_modules() -> None:
    code = ("import sys, palaestra; ids = palaestra.registry.ids(); "
            "print(len(ids), sum(m.startswith('palaestra.envs.') and m.count('.') > 2 for m in sys.modules))")
    count, imported = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                     check=True).stdout.split()
    assert int(count) >= 30 and imported == "0"


def test_index_and_catalogue_page_are_in_sync_with_the_code() -> None:
    specs = scan_env_modules()
    assert INDEX_PATH.read_text() == index_text(specs), "run `palaestra index` and commit the result"
    page = (Path(__file__).resolve().parents[2] / "docs" / "envs.md").read_text()
    for spec in specs:
        assert f"| `{spec.id}` | v{spec.version} |" in page, "run `palaestra index` and commit docs/envs.md"


def test_registration_mistakes_fail_loudly_and_say_what_to_do(tmp_path: Path) -> None:
    class WrongLevels(_Flaky):
        id = "errdemo/wrong_levels"
        levels = 3

    with pytest.raises(RegistryError, match="num_levels"):
        spec_of(WrongLevels)

    class Twin(_Flaky):
        pass

    register(_Flaky)
    try:
        with pytest.raises(RegistryError, match="registered twice"):
            register(Twin)
    finally:
        registry.remove(_Flaky.id)
    (tmp_path / "newfamily").mkdir()
    (tmp_path / "newfamily" / "thing.py").write_text("")
    with pytest.raises(RegistryError, match="__init__.py"):
        check_packages(tmp_path)


class _Counter(MultiTurnTask):
    id = "errdemo/counter"
    family = "errdemo"
    description = "Count to three."
    Config = _Cfg

    def config(self, level: int) -> _Cfg:
        return _Cfg(level)

    def generate(self, rng: random.Random, config: _Cfg) -> Problem:
        return Problem(prompt="Say 1, then 2, then 3.", answer="3", data={})

    def max_turns(self, problem: Problem) -> int:
        return 4

    def initial_state(self, problem: Problem) -> dict:
        return {"next": 1}

    def play(self, problem: Problem, state: dict, move: str) -> Outcome:
        if move.strip() != str(state["next"]):
            return Outcome(state, Verdict.wrong(), f"Say {state['next']}.")
        done = state["next"] == 3
        return Outcome({"next": state["next"] + 1}, Verdict.right() if done else Verdict.wrong(), "ok", done)

    def oracle(self, problem: Problem, state: dict) -> str:
        return str(state["next"])


def test_generic_multi_turn_env_counts_turns_and_explains_missing_tags() -> None:
    register(_Counter)
    try:
        env = palaestra.make(_Counter.id)
        env.reset(seed=0)
        obs, reward, terminated, truncated, info = env.step("1")
        assert "no <answer></answer> tags found" in obs and "3 turns left" in obs and not info["parsed"]
        for n in (1, 2):
            env.step(f"<answer>{n}</answer>")
        _, reward, terminated, truncated, info = env.step("<answer>3</answer>")
        assert (reward, terminated, truncated) == (1.0, True, False)  # the 4th and last turn wins
        env.reset(seed=0)
        for text in ("1", "<answer>9</answer>", "<answer>1</answer>"):
            env.step(text)
        obs, reward, terminated, truncated, info = env.step("<answer>2</answer>")
        assert (reward, terminated, truncated) == (0.0, False, True) and "no turns left" in obs
        with pytest.raises(ResetNeeded):
            env.oracle_action()  # no oracle move for a finished episode: the same guard as step()
    finally:
        registry.remove(_Counter.id)


def test_a_synthetic_500_env_registry_lists_in_well_under_half_a_second(tmp_path: Path) -> None:
    entries = [{"id": f"fam{i % 25}/env{i}", "version": 1, "family": f"fam{i % 25}", "turns": "single", "levels": 5,
                "tags": ["synthetic"], "description": "synthetic", "module": f"nowhere.fam{i % 25}.env{i}",
                "class_name": "Env", "answer_format": "tag", "multiline": False} for i in range(500)]
    index = tmp_path / "index.json"
    index.write_text(json.dumps({"envs": entries}))
    code = textwrap.dedent(f"""
        import time
        t0 = time.process_time()  # CPU seconds: a busy machine must not fail it
        from palaestra.core.registry import Registry
        registry = Registry(index_path=__import__("pathlib").Path({str(index)!r}))
        ids, specs = registry.ids(), registry.specs(family="fam3")
        print(len(ids), len(specs), time.process_time() - t0)
    """)
    count, family, seconds = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                            check=True).stdout.split()
    assert (count, family) == ("500", "20")
    assert float(seconds) < 0.5
