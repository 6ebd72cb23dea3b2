from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass

import pytest

import palaestra
from palaestra.core import Problem, Task, Verdict, register, registry


def test_import_palaestra_is_lean() -> None:
    code = (
        "import sys, palaestra\n"
        "heavy = [m for m in ('gymnasium', 'numpy', 'sympy', 'networkx', 'chess', 'palaestra.envs') if m in sys.modules]\n"
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""


def test_make_imports_only_the_requested_env() -> None:
    code = (
        "import sys, palaestra\n"
        "palaestra.make('arithmetic/expression')\n"
        "print(sorted(m for m in sys.modules if m.startswith('palaestra.envs.') and m.count('.') == 3))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "['palaestra.envs.arithmetic.expression']"


def test_reset_step_and_levels() -> None:
    env = palaestra.make("arithmetic/expression", level=1)
    prompt, info = env.reset(seed=11)
    problem = info["problem"]
    assert prompt == problem.prompt and (problem.env_id, problem.level, problem.seed) == ("arithmetic/expression", 1, 11)
    assert "<answer>" in prompt
    obs, reward, terminated, truncated, info = env.step(f"I think <answer>{problem.answer}</answer>")
    assert (reward, terminated, truncated, info["correct"]) == (1.0, True, False, True)
    _, info = env.reset(seed=11, options={"level": 3})
    assert info["problem"].level == 3 and env.level == 3
    with pytest.raises(ValueError):
        env.reset(options={"level": -1})
    assert env.level == 3  # a rejected level leaves the env as it was


def test_unseeded_resets_draw_fresh_problems_reproducibly() -> None:
    def seeds(env_seed: int) -> list[int]:
        env = palaestra.make("arithmetic/expression")
        env.reset(seed=env_seed)
        return [env.reset()[1]["seed"] for _ in range(5)]

    assert seeds(3) == seeds(3)
    assert len(set(seeds(3))) == 5


def test_missing_answer_and_overlong_answer_are_unparsed() -> None:
    env = palaestra.make("arithmetic/expression")
    env.reset(seed=0)
    _, reward, _, _, info = env.step("the answer is 4")
    assert reward == 0.0 and not info["parsed"]
    env.reset(seed=0)
    _, reward, _, _, info = env.step("<answer>" + "1" * 100_000 + "</answer>")
    assert reward == 0.0 and not info["parsed"]


def test_answer_format_override() -> None:
    env = palaestra.make("arithmetic/expression", answer_format="boxed")
    prompt, info = env.reset(seed=2)
    assert "\\boxed{}" in prompt
    _, reward, *_ = env.step(f"so \\boxed{{{info['problem'].answer}}}")
    assert reward == 1.0
    with pytest.raises(ValueError):
        palaestra.make("arithmetic/expression", answer_format="telepathy")


def test_render_ansi_transcript() -> None:
    env = palaestra.make("arithmetic/expression", render_mode="ansi")
    prompt, _ = env.reset(seed=0)
    env.step("<answer>0</answer>")
    assert env.render().startswith(prompt)


def test_unknown_id_suggests_close_ids() -> None:
    with pytest.raises(KeyError, match="arithmetic/expression"):
        palaestra.make("arithmetic/expresion")


@dataclass(frozen=True)
class _Cfg:
    n: int


def _task(**attrs: object) -> type[Task]:
    body = {"family": "demo", "description": "d", "Config": _Cfg, **attrs}
    return type("Demo", (Task,), body)


@pytest.mark.parametrize(
    "attrs, error",
    [
        ({"id": "Demo"}, ValueError),
        ({"id": "demo/x", "family": "other"}, ValueError),
        ({"id": "demo/x", "description": ""}, ValueError),
        ({"id": "demo/x", "Config": dict}, TypeError),
    ],
)
def test_register_rejects_malformed_envs(attrs: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error):
        register(_task(**attrs))


def test_register_and_make_a_plugin_task() -> None:
    class Echo(Task):
        id = "plugin/echo"
        family = "plugin"
        description = "Repeat a number."
        Config = _Cfg

        def config(self, level: int) -> _Cfg:
            return _Cfg(level)

        def generate(self, rng, config):  # type: ignore[no-untyped-def]
            n = rng.randrange(1000)
            return Problem(prompt=f"Say {n}.", answer=str(n), data={"n": n})

        def verify(self, problem: Problem, answer: str) -> Verdict:
            return Verdict.judge(answer == str(problem.data["n"]))

    register(Echo)
    try:
        env = palaestra.make("plugin/echo")
        _, info = env.reset(seed=1)
        assert env.step(f"<answer>{info['problem'].answer}</answer>")[1] == 1.0
        assert "plugin/echo" in registry
    finally:
        registry.remove("plugin/echo")
    assert "plugin/echo" not in registry
