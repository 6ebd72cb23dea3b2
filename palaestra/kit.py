"""The contract test kit: the checks every registered environment must pass.

Run it from the command line (``palaestra check ID ...`` or
``python -m palaestra.kit ID ...``) or from Python::

    >>> from palaestra.kit import run_checks
    >>> all(r.ok for r in run_checks("arithmetic/expression"))
    True

The checks: difficulty schedule; determinism in-process and across processes;
reference answers accepted at every level; corrupted and other-problem answers
rejected; hostile answers handled without exception in bounded time; JSON round
trip; Gymnasium's ``check_env``; multi-turn oracle wins and random play ends;
generation time; distinct problems across seeds; class balance.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from palaestra.core.env import TextEnv
from palaestra.core.multiturn import MultiTurnEnv
from palaestra.core.problem import Problem, Verdict
from palaestra.core.registry import make, make_source, registry
from palaestra.core.task import ProblemSource, Task


@dataclass(frozen=True)
class Settings:
    seeds: int = 12  # seeds per level for the reference-answer checks
    fingerprint_seeds: int = 4
    distinct_seeds: int = 30
    balance_seeds: int = 200
    verify_seconds: float = 1.0  # bound on one verification of a hostile answer
    generate_seconds: float = 2.0  # bound on one generation
    generate_mean_seconds: float = 0.1
    random_play_steps: int = 500
    other_answer_tolerance: float = 0.05  # share of other problems' answers that may also be right


@dataclass(frozen=True)
class CheckResult:
    env_id: str
    check: str
    ok: bool
    detail: str = ""
    seconds: float = 0.0


class ContractError(AssertionError):
    pass


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ContractError(message)


def hostile_answers() -> list[str]:
    """Malformed, huge and adversarial answers no verifier may choke on."""
    junk = random.Random(1234)
    return [
        "",
        "   \n\t ",
        "x" * 1_000_000,
        "9" * 100_000,
        "9**9**9**9",
        "__import__('os').system('echo pwned')",
        "().__class__.__base__.__subclasses__()",
        "(" * 50_000 + "1" + ")" * 50_000,
        "[" * 10_000,
        "1e999999",
        "-0",
        "NaN",
        "ℵ₀ 🙂 日本語 \u202e\u0000",
        "<answer>",
        "\\boxed{",
        "null",
        '{"a": [1, 2, {"b": null}]}',
        "a" * 100 + "\n" * 1000,
        "".join(chr(junk.randrange(32, 0x2FFF)) for _ in range(5000)),
        "".join(junk.choice("0123456789+-*/() ,;:=->ABCabcxyz\n") for _ in range(3000)),
    ]


# --- the checks -------------------------------------------------------------

def check_levels(env_id: str, s: Settings) -> str:
    source = make_source(env_id)
    n = source.levels()
    _require(n >= 5, f"needs at least 5 levels, has {n}")
    configs = [source.level_config(level) for level in range(n)]
    for level, cfg in enumerate(configs):
        _require(isinstance(cfg, source.Config), f"config({level}) is not a {source.Config.__name__}")
    for level in range(1, n):
        _require(configs[level] != configs[level - 1], f"levels {level - 1} and {level} have the same config")
    for bad in (-1, n):
        try:
            source.sample(bad, 0)
        except ValueError:
            continue
        raise ContractError(f"level {bad} should be rejected with ValueError")
    return f"{n} levels"


def check_determinism(env_id: str, s: Settings) -> str:
    """Same (id, level, seed) -> same problem, whatever the global RNG states."""
    import numpy as np

    saved = random.getstate(), np.random.get_state()
    try:
        prints = []
        for global_seed in (1, 2):
            random.seed(global_seed)
            np.random.seed(global_seed)
            prints.append(_fingerprint(make_source(env_id), s.fingerprint_seeds))
    finally:
        random.setstate(saved[0])
        np.random.set_state(saved[1])
    _require(prints[0] == prints[1], "the same (level, seed) gave different problems under other global RNG states")
    return "stable in-process"


def check_determinism_across_processes(env_id: str, s: Settings) -> str:
    theirs = fingerprints_in_fresh_process([env_id], s.fingerprint_seeds)[env_id]
    ours = _fingerprint(make_source(env_id), s.fingerprint_seeds)
    _require(theirs == ours, "a fresh process (different PYTHONHASHSEED) generated different problems")
    return "stable across processes"


def check_reference_accepted(env_id: str, s: Settings) -> str:
    source = make_source(env_id)
    if isinstance(source, MultiTurnEnv):
        return _check_oracle_wins(env_id, source, s)
    assert isinstance(source, Task)
    env = make(env_id)
    count = 0
    for level in range(source.levels()):
        for seed in range(s.seeds):
            p = source.sample(level, seed)
            _require(p.answer is not None, f"level {level} seed {seed}: no reference answer")
            v = _verify(source, p, p.answer)
            _require(v.correct and v.reward == 1.0, f"level {level} seed {seed}: reference rejected: {v}")
            env.reset(seed=seed, options={"level": level})
            _, reward, terminated, _, info = env.step(source.format_answer(p.answer))
            _require(reward == 1.0 and terminated, f"level {level} seed {seed}: env.step rejected the reference")
            count += 1
    return f"{count} reference answers accepted"


def _check_oracle_wins(env_id: str, source: MultiTurnEnv, s: Settings) -> str:
    env = make(env_id)
    assert isinstance(env, MultiTurnEnv)
    episodes = 0
    for level in range(source.levels()):
        for seed in range(s.seeds):
            env.reset(seed=seed, options={"level": level})
            total, terminated, truncated, reward, info = 0.0, False, False, 0.0, {}
            while not (terminated or truncated):
                _, reward, terminated, truncated, info = env.step(env.oracle_action())
                total += reward
            _require(terminated and not truncated, f"level {level} seed {seed}: the oracle did not finish the game")
            _require(reward == 1.0 and info.get("correct"), f"level {level} seed {seed}: the oracle's last move scored {reward}")
            _require(total <= 1.0 + 1e-9, f"level {level} seed {seed}: episode reward {total} > 1")
            episodes += 1
    return f"the oracle won {episodes} games"


def check_wrong_rejected(env_id: str, s: Settings) -> str:
    """Corruptions are always rejected; other problems' reference answers almost always.

    Where many answers are right (a mating move, a Countdown expression), another
    problem's reference can legitimately solve this one too, so a small share of
    those is tolerated; a verifier that accepts much of anything is not.
    """
    source = make_source(env_id)
    if not isinstance(source, Task):
        return "n/a (multi-turn)"
    rng = random.Random(99)
    rejected = others = others_accepted = 0
    for level in range(source.levels()):
        problems = [source.sample(level, seed) for seed in range(s.seeds)]
        for i, p in enumerate(problems):
            for answer in source.corruptions(p, rng):
                v = _verify(source, p, answer)
                _require(not v.correct and v.reward < 1.0, f"level {level} seed {p.seed}: wrong answer {answer[:80]!r} accepted")
                rejected += 1
            other = problems[(i + 1) % len(problems)].answer
            if other is not None and other.strip() != (p.answer or "").strip():
                others += 1
                others_accepted += _verify(source, p, other).correct
    _require(rejected > 0, "no wrong answer was tried: corruptions() returned nothing")
    _require(others_accepted <= s.other_answer_tolerance * others,
             f"{others_accepted} of {others} other problems' reference answers were accepted")
    return f"{rejected} corruptions rejected; {others_accepted}/{others} other problems' answers accepted"


def check_hostile(env_id: str, s: Settings) -> str:
    source = make_source(env_id)
    env = make(env_id)
    slowest = 0.0
    for level in (0, source.levels() - 1):
        problem = source.sample(level, 1)
        for answer in hostile_answers():
            if isinstance(source, Task):
                t0 = time.perf_counter()
                v = source.verify(problem, answer)  # the raw verifier: no safety net
                slowest = max(slowest, time.perf_counter() - t0)
                _require(isinstance(v, Verdict), f"verify returned {type(v).__name__}, not a Verdict")
                _require(not v.correct, f"hostile answer {answer[:40]!r} was accepted")
            for text in (answer, f"<answer>{answer}</answer>"):
                env.reset(seed=1, options={"level": level})
                t0 = time.perf_counter()
                obs, reward, *_ = env.step(text)
                slowest = max(slowest, time.perf_counter() - t0)
                _require(isinstance(obs, str) and 0.0 <= reward <= 1.0, "step returned a bad observation or reward")
                _require(reward < 1.0, f"hostile answer {answer[:40]!r} earned reward {reward}")
    _require(slowest <= s.verify_seconds, f"slowest hostile answer took {slowest:.2f} s (bound {s.verify_seconds} s)")
    return f"slowest {slowest * 1000:.1f} ms"


def check_json_round_trip(env_id: str, s: Settings) -> str:
    source = make_source(env_id)
    for level in range(source.levels()):
        for seed in range(3):
            p = source.sample(level, seed)
            text = p.to_json()
            back = Problem.from_json(text)
            _require(back == p, f"level {level} seed {seed}: JSON round trip changed the problem (tuples or sets in data?)")
            if isinstance(source, Task) and back.answer is not None:
                _require(_verify(source, back, back.answer).correct, "the round-tripped problem rejects its reference")
    return "round trip preserves problems"


def check_gymnasium(env_id: str, s: Settings) -> str:
    from gymnasium.utils.env_checker import check_env

    env = make(env_id, level=min(2, make_source(env_id).levels() - 1))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
    _require(isinstance(env, TextEnv), "make() must return a palaestra TextEnv")
    notes = sorted({str(w.message)[:120] for w in caught})
    return "check_env passed" + (f" with warnings: {notes}" if notes else "")


def check_random_play(env_id: str, s: Settings) -> str:
    env = make(env_id)
    env.action_space.seed(7)
    steps = 0
    for level in range(make_source(env_id).levels()):
        env.reset(seed=level, options={"level": level})
        done = False
        for _ in range(s.random_play_steps):
            _, reward, terminated, truncated, _ = env.step(env.action_space.sample())
            steps += 1
            _require(0.0 <= reward <= 1.0, f"reward {reward} outside [0, 1]")
            if terminated or truncated:
                done = True
                break
        _require(done, f"level {level}: random play did not end within {s.random_play_steps} steps")
    return f"random play ended at every level ({steps} steps)"


def check_generation_time(env_id: str, s: Settings) -> str:
    source = make_source(env_id)
    worst_mean, worst = 0.0, 0.0
    for level in range(source.levels()):
        times = []
        for seed in range(10):
            t0 = time.perf_counter()
            source.sample(level, 10_000 + seed)
            times.append(time.perf_counter() - t0)
        worst_mean, worst = max(worst_mean, sum(times) / len(times)), max(worst, max(times))
    _require(worst <= s.generate_seconds, f"one generation took {worst:.2f} s (bound {s.generate_seconds} s)")
    _require(worst_mean <= s.generate_mean_seconds, f"mean generation {worst_mean:.3f} s (bound {s.generate_mean_seconds} s)")
    return f"worst level mean {worst_mean * 1000:.2f} ms"


def check_distinct(env_id: str, s: Settings) -> str:
    source = make_source(env_id)
    level = source.levels() // 2
    prompts = {source.sample(level, seed).prompt for seed in range(s.distinct_seeds)}
    share = len(prompts) / s.distinct_seeds
    _require(share >= 0.9, f"only {len(prompts)} distinct prompts over {s.distinct_seeds} seeds at level {level}")
    return f"{len(prompts)}/{s.distinct_seeds} distinct"


def check_balance(env_id: str, s: Settings) -> str:
    """A classification-style env (few distinct answers) must not favour one answer."""
    source = make_source(env_id)
    if not isinstance(source, Task):
        return "n/a (multi-turn)"
    notes = []
    for level in range(source.levels()):
        answers = Counter(
            (source.sample(level, 50_000 + seed).answer or "").strip().lower() for seed in range(s.balance_seeds)
        )
        if len(answers) > 10:
            continue
        top, count = answers.most_common(1)[0]
        share, fair = count / s.balance_seeds, 1 / len(answers)
        _require(share <= fair + 0.15, f"level {level}: answer {top!r} is {share:.0%} of answers (fair share {fair:.0%})")
        notes.append(f"L{level} top {share:.0%}")
    return ", ".join(notes) or "not classification-style"


CHECKS: dict[str, Callable[[str, Settings], str]] = {
    "levels": check_levels,
    "determinism": check_determinism,
    "determinism_across_processes": check_determinism_across_processes,
    "reference_accepted": check_reference_accepted,
    "wrong_rejected": check_wrong_rejected,
    "hostile": check_hostile,
    "json_round_trip": check_json_round_trip,
    "gymnasium": check_gymnasium,
    "random_play": check_random_play,
    "generation_time": check_generation_time,
    "distinct": check_distinct,
    "balance": check_balance,
}


def run_check(env_id: str, name: str, settings: Settings | None = None) -> CheckResult:
    t0 = time.perf_counter()
    try:
        detail = CHECKS[name](env_id, settings or Settings())
        ok = True
    except Exception as exc:  # a check reports failures; it never crashes the kit
        detail, ok = f"{type(exc).__name__}: {exc}", False
    return CheckResult(env_id, name, ok, detail, time.perf_counter() - t0)


def run_checks(env_id: str, settings: Settings | None = None, checks: Iterable[str] | None = None) -> list[CheckResult]:
    registry[env_id]  # unknown ids fail loudly here
    return [run_check(env_id, name, settings) for name in (checks or CHECKS)]


# --- helpers ----------------------------------------------------------------

def _verify(task: Task, problem: Problem, answer: str) -> Verdict:
    v = task.verify(problem, answer)
    _require(isinstance(v, Verdict), f"verify returned {type(v).__name__}, not a Verdict")
    return v


def _fingerprint(source: ProblemSource, seeds: int) -> str:
    digest = hashlib.sha256()
    for level in range(source.levels()):
        for seed in range(seeds):
            digest.update(source.sample(level, seed).to_json().encode())
    return digest.hexdigest()


def fingerprints_in_fresh_process(env_ids: list[str], seeds: int) -> dict[str, str]:
    """Problem fingerprints computed by a new interpreter with another hash seed."""
    code = (
        "import json, sys\n"
        "from palaestra.core.registry import make_source\n"
        "from palaestra.kit import _fingerprint\n"
        "ids, seeds = json.loads(sys.argv[1]), int(sys.argv[2])\n"
        "print(json.dumps({i: _fingerprint(make_source(i), seeds) for i in ids}))\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": str(random.Random().randrange(1, 2**31))}
    out = subprocess.run(
        [sys.executable, "-c", code, json.dumps(env_ids), str(seeds)],
        capture_output=True, text=True, env=env, timeout=600, check=True,
    )
    return json.loads(out.stdout)


def format_results(results: list[CheckResult]) -> str:
    lines = []
    for r in results:
        mark = "ok  " if r.ok else "FAIL"
        lines.append(f"{mark} {r.env_id:32} {r.check:30} {r.seconds:6.2f}s  {r.detail}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ids = (argv if argv is not None else sys.argv[1:]) or registry.ids()
    failures = 0
    for env_id in ids:
        results = run_checks(env_id)
        print(format_results(results), flush=True)
        failures += sum(not r.ok for r in results)
    print(f"\n{len(ids)} env(s) checked, {failures} failed check(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
