"""CI that scales and does not flake: the kit's shared problems, CPU-time bounds, per-seed golden hashes,
collection without env imports, and a registry listing that stays light."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from palaestra import kit
from palaestra.catalog import golden_path, golden_problem, write_golden
from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.registry import registry
from palaestra.kit import base

REPO = Path(__file__).resolve().parents[1]


def _fresh(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO).stdout


def test_listing_the_registry_imports_neither_gymnasium_nor_numpy() -> None:
    out = _fresh("import sys, palaestra; ids = palaestra.registry.ids(); "
                 "print(len(ids), sorted(m for m in ('gymnasium', 'numpy', 'sympy') if m in sys.modules))")
    count, heavy = out.split(" ", 1)
    assert int(count) >= 30 and heavy.strip() == "[]"


def test_core_names_load_on_first_use() -> None:
    import palaestra.core as core

    assert sorted(core.__all__) == sorted([*core._LAZY, "registry", "retry"])
    assert callable(core.retry) and isinstance(core.registry, core.Registry)  # the names, not their submodules
    assert all(getattr(core, name) is not None for name in core.__all__)
    out = _fresh("import sys, palaestra.core as core; before = 'gymnasium' in sys.modules; core.TextEnv; "
                 "print(before, 'gymnasium' in sys.modules)")
    assert out.split() == ["False", "True"]


def test_collecting_the_kit_tests_imports_no_env_module() -> None:
    code = ("import importlib.util, sys\n"
            "spec = importlib.util.spec_from_file_location('test_kit', 'tests/contract/test_kit.py')\n"
            "module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module)\n"
            "print(len(module.ENV_IDS), sum(m.startswith('palaestra.envs.') and m.count('.') > 2 for m in sys.modules))")
    count, imported = _fresh(code).split()
    assert int(count) >= 30 and imported == "0"


def test_the_index_names_optional_packages_and_toolchains() -> None:
    assert registry["verification/loop_invariant"].python_requires == ("z3",)
    assert "c" in registry["code/c_functions"].toolchains
    assert registry["graphs/bridges"].python_requires == registry["graphs/bridges"].toolchains == ()


def test_checks_share_each_generated_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    """Distinctness, balance and generation time look at the same problems, each generated once."""
    generated: list[tuple[int, int]] = []
    real = base.make_source

    def counting_source(env_id: str):
        source = real(env_id)
        sample = source.sample
        source.sample = lambda level, seed: generated.append((level, seed)) or sample(level, seed)
        return source

    monkeypatch.setattr(base, "make_source", counting_source)
    base._PROBLEMS.clear()
    # Bounds no timing can pass: a first timing over them is retimed by generating again (tested below), and a busy
    # worker's reaped child can land its CPU in a first timing (stop 43's CI: level 0 retimed, 65 generations).
    settings = kit.Settings(distinct_seeds=12, distinct_upper_seeds=12, difficulty_seeds=8, generate_timed_seeds=5,
                            balance_seeds=12, generate_seconds=1e9, generate_mean_seconds=1e9)
    results = kit.run_checks("graphs/bridges", settings, checks=["distinct", "generation_time", "balance"])
    assert all(r.ok for r in results), results
    levels = registry["graphs/bridges"].levels
    assert len(generated) == len(set(generated)) == levels * 12
    assert kit.sample("graphs/bridges", 0, base.STATISTICS_SEED) is kit.sample("graphs/bridges", 0, base.STATISTICS_SEED)


def test_a_first_timing_holding_foreign_cpu_is_retimed(monkeypatch: pytest.MonkeyPatch) -> None:
    """CPU that is not the generation's (a child reaped meanwhile) lands in one first timing: that level is timed
    again, the smaller timing counts, and the other levels' problems are not generated again."""
    generated: list[tuple[int, int]] = []
    real_source, real_clock = base.make_source, base.cpu_seconds
    foreign = {"seconds": 0.0}

    def counting_source(env_id: str):
        source = real_source(env_id)
        sample = source.sample

        def timed_sample(level: int, seed: int):
            generated.append((level, seed))
            if (level, seed) == (1, base.DIFFICULTY_SEED) and generated.count((level, seed)) == 1:
                foreign["seconds"] = 1e4  # a child worth 10^4 s of CPU is reaped during this first generation
            return sample(level, seed)
        source.sample = timed_sample
        return source

    monkeypatch.setattr(base, "make_source", counting_source)
    monkeypatch.setattr(base, "cpu_seconds", lambda: real_clock() + foreign["seconds"])
    base._PROBLEMS.clear()
    # Bounds far above any real timing (a real reaped child must not retime another level) and below the injected one.
    settings = kit.Settings(generate_timed_seeds=5, generate_seconds=1e3, generate_mean_seconds=1e3)
    [result] = kit.run_checks("graphs/bridges", settings, checks=["generation_time"])
    assert result.ok, result
    levels = registry["graphs/bridges"].levels
    assert len(generated) == levels * 5 + 5
    assert {pair for pair in generated if generated.count(pair) == 2} == {(1, base.DIFFICULTY_SEED + i) for i in range(5)}


def test_the_cache_keeps_a_few_envs_only() -> None:
    base._PROBLEMS.clear()
    ids = registry.ids()[: base._ENVS_KEPT + 2]
    for env_id in ids:
        kit.sample(env_id, 0, 0)
    assert list(base._PROBLEMS) == ids[-base._ENVS_KEPT:]


def test_time_bounds_count_cpu_not_the_wall_clock() -> None:
    start = base.cpu_seconds()
    time.sleep(0.3)  # what a busy machine does to a check: the wall clock runs, this process's CPU does not
    assert base.cpu_seconds() - start < 0.25


def test_a_changed_golden_problem_is_named_by_level_and_seed(tmp_path: Path) -> None:
    env_id = "graphs/bridges"
    path = write_golden(env_id, tmp_path)
    assert golden_problem(env_id, tmp_path) is None
    pinned = json.loads(path.read_text())
    pinned["hashes"]["3"]["1"] = "0" * 32
    path.write_text(json.dumps(pinned))
    problem = golden_problem(env_id, tmp_path, sample=kit.sample)
    assert problem is not None and "level 3 seed 1" in problem and "level 3 seed 0" not in problem
    assert "bump" in problem


def test_an_old_per_level_snapshot_says_to_regenerate(tmp_path: Path) -> None:
    env_id = "graphs/bridges"
    path = golden_path(env_id, tmp_path)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"id": env_id, "version": registry[env_id].version, "seeds": [0, 1, 2],
                                "hashes": {"0": "0" * 32}}))
    problem = golden_problem(env_id, tmp_path)
    assert problem is not None and "old per-level format" in problem and "golden --update" in problem


def _mypy_baseline_script():
    import importlib.util

    spec = importlib.util.spec_from_file_location("mypy_baseline", REPO / ".ci" / "mypy_baseline.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_mypy_baseline_fails_on_new_errors_only() -> None:
    script = _mypy_baseline_script()
    output = ("palaestra/a.py:10: error: Item \"None\" of \"str | None\" has no attribute \"split\"  [union-attr]\n"
              "palaestra/a.py:12: note: see line 3\n"
              "palaestra/a.py:30: error: Name \"x\" already defined on line 4  [no-redef]\n")
    moved = output.replace(":10:", ":11:").replace("line 4", "line 5")  # an edit above shifts every line
    assert script.errors(moved) == script.errors(output) and sum(script.errors(output).values()) == 2
    baseline = script.errors(output)
    new, fixed = script.compare(script.errors(output + output.splitlines()[0] + "\n"), baseline)
    assert sum(new.values()) == 1 and not fixed  # the same error once more in that file is new
    new, fixed = script.compare(script.errors(output.splitlines()[0]), baseline)
    assert not new and sum(fixed.values()) == 1  # a fixed error passes (and asks for a smaller baseline)


@dataclass(frozen=True)
class _Size:
    size: int


class _Doubling(Task):
    id = "cidemo/doubling"
    family = "cidemo"
    description = "Double a number."
    Config = _Size
    pause = 0.0

    def config(self, level: int) -> _Size:
        return _Size(10 ** (level + 3))

    def generate(self, rng: random.Random, config: _Size) -> Problem:
        self.wait(self.pause)
        n = rng.randrange(config.size)
        return Problem(prompt=f"Double {n}.", answer=str(2 * n), data={"n": n})

    @staticmethod
    def wait(seconds: float) -> None:
        time.sleep(seconds)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        return Verdict.judge(answer.strip() == str(2 * problem.data["n"]))


class _SleepsWhileGenerating(_Doubling):
    """What a busy machine looks like to a check: the wall clock runs, this process's CPU does not."""

    id = "cidemo/sleeps"
    pause = 0.02


class _BurnsCpuWhileGenerating(_Doubling):
    id = "cidemo/burns_cpu"
    pause = 0.02

    @staticmethod
    def wait(seconds: float) -> None:
        start = time.process_time()
        while time.process_time() - start < seconds:
            pass


def test_the_generation_bound_is_on_cpu_time() -> None:
    settings = kit.Settings(generate_timed_seeds=2, generate_mean_seconds=0.01)
    for cls in (_SleepsWhileGenerating, _BurnsCpuWhileGenerating):
        register(cls)
    try:
        [sleeps] = kit.run_checks(_SleepsWhileGenerating.id, settings, checks=["generation_time"])
        [burns] = kit.run_checks(_BurnsCpuWhileGenerating.id, settings, checks=["generation_time"])
    finally:
        for cls in (_SleepsWhileGenerating, _BurnsCpuWhileGenerating):
            registry.remove(cls.id)
    assert sleeps.ok, sleeps.detail
    assert not burns.ok and "of CPU" in burns.detail


class _ReapsAStrangerWhileGenerating(_Doubling):
    """The first generation of each problem reaps a child that burnt CPU before it (as a worker reaps a finished
    server started by an earlier test): ``RUSAGE_CHILDREN`` charges that CPU to the generation being timed."""

    id = "cidemo/reaps_a_stranger"
    reaped: set[int] = set()

    def generate(self, rng: random.Random, config: _Size) -> Problem:
        problem = super().generate(rng, config)
        if problem.data["n"] not in self.reaped:
            self.reaped.add(problem.data["n"])
            burner = subprocess.Popen([sys.executable, "-c", "import time\nt = time.process_time()\n"
                                       "while time.process_time() - t < 0.05: pass"])
            burner.wait()
        return problem


def test_cpu_that_is_not_the_generations_does_not_fail_the_bound() -> None:
    settings = kit.Settings(generate_timed_seeds=2, generate_mean_seconds=0.03)
    register(_ReapsAStrangerWhileGenerating)
    try:
        [result] = kit.run_checks(_ReapsAStrangerWhileGenerating.id, settings, checks=["generation_time"])
    finally:
        registry.remove(_ReapsAStrangerWhileGenerating.id)
    assert result.ok, result.detail


def test_auto_workers_are_one_per_cpu_as_far_as_memory_holds() -> None:
    """``pytest -n auto`` (the README's command) starts a worker per usable CPU and one more, fewer where memory is
    short."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("suite_conftest", REPO / "tests" / "conftest.py")
    assert spec is not None and spec.loader is not None
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    gib = 2**30
    assert conftest.worker_count(2, 24 * gib) == 3
    assert conftest.worker_count(2, 2 * conftest.WORKER_BYTES) == 2  # memory for two: two
    assert conftest.worker_count(64, 16 * gib) == 16 * gib // conftest.WORKER_BYTES < 64  # memory bounds the count
    assert conftest.worker_count(4, None) == 5  # no /proc/meminfo: the CPUs decide
    assert conftest.worker_count(8, 0) == conftest.worker_count(2, 0) == 2  # never under the old -n 2
    assert conftest.worker_count(1, 24 * gib) == 2
    memory = conftest.available_memory_bytes()
    assert memory is None or memory > 0
