"""deduction/propositional v4: a "no" (not entailed) must show a counter-model, checked by evaluating the formulas.

Version 3 took a bare yes or no on balanced problems, so a coin scored 0.5 without reading the premises.
"""

from __future__ import annotations

import itertools
import random

import pytest

from palaestra.core.registry import make_source

task = make_source("deduction/propositional")
NAMES = "pqrstu"


def _truth(text: str, env: dict[str, bool]) -> bool:
    """A rendered formula's value under ``env``, read independently of the env's code (a nested connective is
    always in parentheses)."""
    tokens = [c for c in text if not c.isspace()]
    position = 0

    def operand() -> bool:
        nonlocal position
        token = tokens[position]
        position += 1
        if token == "¬":
            return not operand()
        if token == "(":
            value = formula()
            position += 1
            return value
        return env[token]

    def formula() -> bool:
        nonlocal position
        left = operand()
        if position < len(tokens) and tokens[position] in "∧∨→↔":
            op = tokens[position]
            position += 1
            right = operand()
            return {"∧": left and right, "∨": left or right, "→": not left or right, "↔": left == right}[op]
        return left

    return formula()


def _counter_models(problem) -> list[dict[str, bool]]:
    names = NAMES[: problem.data["variables"]]
    envs = [dict(zip(names, values)) for values in itertools.product((False, True), repeat=len(names))]
    return [env for env in envs if all(_truth(f, env) for f in problem.data["premises"])
            and not _truth(problem.data["conclusion"], env)]


def _spelled(env: dict[str, bool]) -> str:
    return ", ".join(f"{name} = {'true' if value else 'false'}" for name, value in env.items())


def _problems(level: int, count: int, entailed: bool) -> list:
    found = (task.sample(level, seed) for seed in range(1_000))
    return list(itertools.islice((p for p in found if p.data["entailed"] == entailed), count))


@pytest.mark.parametrize("level", [0, 2, 4])
def test_a_bare_no_scores_zero_and_a_counter_model_is_needed(level: int) -> None:
    for p in _problems(level, 6, entailed=False):
        for bare in ("no", "No.", "Not entailed", "False", "No, it is not entailed."):
            assert task.verify(p, bare).reward == 0, bare
        assert task.verify(p, p.answer).correct
        assert task.verify(p, "no: " + _spelled(_counter_models(p)[0])).correct


def test_entailed_is_the_certificate_free_side_of_at_most_30_percent() -> None:
    assert task.certificate_free == ("yes",) and task.bare_verdicts == ("no",)
    problems = [task.sample(3, 90_000 + seed) for seed in range(400)]
    entailed = sum(p.data["entailed"] for p in problems)
    assert 0.15 * 400 < entailed <= 0.30 * 400
    assert all(task.verify(p, "yes").correct == p.data["entailed"] for p in problems)


def test_any_counter_model_is_accepted_not_only_the_references() -> None:
    tried = 0
    for p in _problems(4, 40, entailed=False):
        counter = _counter_models(p)
        if len(counter) < 2:
            continue
        tried += 1
        for env in counter:  # every one of them, the reference among them
            assert task.verify(p, f"no: {_spelled(env)}").correct, (p.answer, env)
    assert tried >= 5


@pytest.mark.parametrize("level", [1, 3])
def test_a_wrong_counter_model_is_rejected(level: int) -> None:
    for p in _problems(level, 5, entailed=False):
        names = NAMES[: p.data["variables"]]
        counter = _counter_models(p)
        for values in itertools.product((False, True), repeat=len(names)):
            env = dict(zip(names, values))
            assert task.verify(p, f"no: {_spelled(env)}").correct == (env in counter)
    for p in _problems(level, 5, entailed=True):  # no assignment refutes an entailment
        assert not task.verify(p, "no: " + _spelled(dict.fromkeys(NAMES[: p.data["variables"]], True))).correct


def test_counter_model_spellings_and_hedges() -> None:
    p = _problems(2, 1, entailed=False)[0]
    env = _counter_models(p)[0]
    bits = " ".join(f"{k}={int(v)}" for k, v in env.items())
    literals = ", ".join(k if v else f"¬{k}" for k, v in env.items())
    for right in (f"no: {_spelled(env)}", f"No, it is not entailed: {_spelled(env)}.", bits, f"no, {literals}",
                  f"\\boxed{{no: {bits}}}", f"Not entailed. Counter-model: {bits}"):
        assert task.verify(p, right).correct, right
    first = next(iter(env))
    for hedge in (f"yes: {_spelled(env)}", f"no: {_spelled(env)}. Yes.", f"no: {_spelled(env)}, no wait, yes",
                  f"no: {_spelled(env)}\n{first} = {'false' if env[first] else 'true'}", f"yes ({bits})",
                  f"no: {_spelled(env).rsplit(', ', 1)[0]}"):
        assert not task.verify(p, hedge).correct, hedge


@pytest.mark.parametrize("level", range(5))
def test_guessed_counter_models_earn_little(level: int) -> None:
    """A random, all-true or all-false assignment after "no" scores at most 0.10 (about 0.06 over 600 problems)."""
    problems = [task.sample(level, 50_000 + seed) for seed in range(100)]
    rng = random.Random(level)
    for name, guess in task.heuristics().items():
        assert sum(task.verify(p, guess(p)).correct for p in problems) <= 10, name
    n = problems[0].data["variables"]
    random_guess = sum(task.verify(p, "no: " + _spelled(dict(zip(NAMES, (rng.random() < 0.5 for _ in range(n))))))
                       .correct for p in problems)
    assert random_guess <= 10


def test_the_prompts_example_is_fixed_and_no_answer() -> None:
    for entailed in (True, False):
        p = _problems(0, 1, entailed=entailed)[0]
        assert "written like: no: p = true, q = false, ... (one value per variable)" in p.prompt
        assert not task.verify(p, "no: p = true, q = false, ...").parsed
