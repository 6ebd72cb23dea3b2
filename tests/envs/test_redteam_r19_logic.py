"""Red-team regressions, round 3 session 19 (logic families: proofs, deduction, verification, symbolic, algebra,
calculus, linalg, probability, geometry, arithmetic). Each test pins an exploit found and fixed in this session."""

from __future__ import annotations

import math

import pytest

import palaestra


def _task(env_id: str):
    return palaestra.make(env_id).unwrapped.task


def _reward(problem, reply: str) -> float:
    return palaestra.score(problem, f"<answer>{reply}</answer>").reward


# --- arithmetic/linear_diophantine: the count read off the density c·g/(a·b) -----------------------------------


@pytest.mark.parametrize("level", [4, 5])
def test_linear_diophantine_count_is_not_the_rounded_density(level):
    """v2 asked for the bare count of non-negative solutions: it is floor(c·g/(a·b)) or the next integer, so
    rounding that estimate (no solving) scored 0.67 at level 4. v3 asks for the count with the least-x solution."""
    task = _task("arithmetic/linear_diophantine")
    total = 0.0
    for seed in range(60):
        problem = task.sample(level, seed)
        a, b, c = problem.data["a"], problem.data["b"], problem.data["c"]
        estimate = round(c * math.gcd(a, b) / (a * b))
        total += _reward(problem, str(estimate)) + _reward(problem, f"count: {estimate}")
        assert _reward(problem, problem.answer) == 1.0
    assert total == 0.0


def test_linear_diophantine_count_needs_the_least_x_solution():
    task = _task("arithmetic/linear_diophantine")
    for seed in range(40):
        problem = task.sample(4, seed)
        a, b, c = problem.data["a"], problem.data["b"], problem.data["c"]
        g = math.gcd(a, b)
        count_line, pair_line = problem.answer.splitlines()
        x = int(pair_line.split("x = ")[1].split(",")[0])
        y = (c - a * x) // b
        assert _reward(problem, f"{count_line}\nsmallest x: x = {x}, y = {y}") == 1.0
        assert _reward(problem, f"{count_line.split(': ')[1]}\n({x}, {y})") == 1.0
        if y - a // g >= 0:  # another non-negative solution, not the least-x one
            assert _reward(problem, f"{count_line}\nsmallest x: x = {x + b // g}, y = {y - a // g}") == 0.0


# --- proofs/coq_tautology, proofs/coq_proof_repair: one fixed Ltac search proves most goals ------------------------

_MATCH_SEARCH = """intros; repeat match goal with
| H : False |- _ => destruct H
| H : _ /\\ _ |- _ => destruct H
| H : ?A, H' : ?A -> ?B |- _ => specialize (H' H)
| H : ?A, H' : ~ ?A |- _ => destruct (H' H)
| H : ?A |- ?A => exact H
| |- _ /\\ _ => split
| |- ~ _ => intro
| |- _ -> _ => intro
| H : _ \\/ _ |- _ => destruct H
| H : ?A |- ?A \\/ _ => left; exact H
| H : ?B |- _ \\/ ?B => right; exact H
| H : ~ ?A |- False => apply H; clear H
end."""
_NAMES = ("H", "H0", "H1", "H2", "H3")
_FIRST_SEARCH = "intros; repeat first [ " + " | ".join(
    ["progress intros", "assumption", "contradiction", "split", "(left; assumption)", "(right; assumption)"]
    + [f"(destruct {h} as [? ?])" for h in _NAMES] + [f"(apply {h}; clear {h})" for h in _NAMES]) + " ]."
_SEARCHES = (
    _MATCH_SEARCH,  # v3: 8 of 10 level-0 goals, 5 of 10 at level 3
    _FIRST_SEARCH,  # v3: 7 of 10 at level 0, 5 of 10 at level 3
    "intros; (split + left + right + assumption + idtac); (split + left + right + assumption + idtac); assumption.",
    "intros; split || left || right; assumption.",
    "intros; do 6 (try split; try intro; try assumption; try contradiction).",
    "intros. let rec go := (split; go) in go.",
)


@pytest.mark.parametrize("level", [0, 3])
def test_coq_tautology_refuses_a_fixed_search_script(level):
    """The same script for every problem is a constant policy: Ltac's search combinators are refused before coqc
    runs (v3 let ``repeat match goal`` prove 80% of level 0)."""
    task = _task("proofs/coq_tautology")
    for seed in range(3):
        problem = task.sample(level, seed)
        for script in _SEARCHES:
            verdict = task.verify(problem, script)
            assert verdict.reward == 0.0 and not verdict.parsed, (script, verdict.feedback)


def test_coq_proof_repair_refuses_a_fixed_search_script():
    task = _task("proofs/coq_proof_repair")
    problem = task.sample(2, 0)
    for script in _SEARCHES:
        outcome = task.play(problem, task.initial_state(problem), script)
        assert outcome.verdict.reward == 0.0 and not outcome.done, script


# --- linalg/underdetermined_system: the prompt's example chosen by the answer ----------------------------------------


def test_underdetermined_system_example_does_not_depend_on_the_answer():
    """v2 showed (3, 1, -1, ...) exactly when (1, 2, 3, ...) solved the system, so answering (1, 2, 3, ...) whenever
    the example was the other one always scored (16 problems in 3,000 at level 0)."""
    task = _task("linalg/underdetermined_system")
    for seed in range(1500):
        problem = task.sample(0, seed)
        n = len(problem.answer.strip("()").split(","))
        assert "e.g. (" + ", ".join(str(k + 1) for k in range(n)) + ")" in problem.prompt, seed


# --- linalg/eigenvalues: right answers written with labels or multiplicities -----------------------------------------


def test_eigenvalues_accept_subscript_labels_and_multiplicities():
    task = _task("linalg/eigenvalues")
    checked = 0
    for seed in range(60):
        problem = task.sample(2, seed)
        values = problem.data["values"]
        subscripts = ", ".join(f"λ{'₁₂₃₄₅₆'[i]} = {v}" for i, v in enumerate(values))
        assert _reward(problem, subscripts) == 1.0, subscripts
        assert _reward(problem, ", ".join(f"λ{i + 1} = {v}" for i, v in enumerate(values))) == 1.0
        repeated = [v for v in sorted(set(values)) if values.count(v) > 1]
        if repeated:
            v = repeated[0]
            k = values.count(v)
            rest = [str(w) for w in values if w != v]
            assert _reward(problem, ", ".join([f"{v} (multiplicity {k})", *rest])) == 1.0
            assert _reward(problem, ", ".join([f"{v} (multiplicity {k + 1})", *rest])) == 0.0
            assert _reward(problem, ", ".join([f"{v}", *rest])) == 0.0
            checked += 1
    assert checked >= 5


# --- deduction/kinship: one word of 13 at the top level, guessed from the asked person's sex -------------------------


def _sex_guess(problem) -> str:
    """Per asked pair, the commonest top-level relation of the asked person's sex (no reasoning about the family)."""
    people = problem.data["people"]
    pairs = problem.data.get("pairs") or [[problem.data["x"], problem.data["y"]]]
    return "\n".join("son-in-law" if people[x]["sex"] == "m" else "great-granddaughter" for x, _ in pairs)


def test_kinship_top_level_is_not_a_learnable_guess():
    """v2 asked one relation of 13 at level 4; guessing by the asked person's sex scored 0.21 (a constant 0.10).
    v3 asks three relations in one family, answered together."""
    task = _task("deduction/kinship")
    top = task.levels() - 1
    problems = [task.sample(top, seed) for seed in range(150)]
    assert all(_reward(p, p.answer) == 1.0 for p in problems[:20])
    assert sum(_reward(p, _sex_guess(p)) for p in problems) / len(problems) <= 0.05
