"""Reward integrity regressions (issue 21, items 3-5 and 7): no reward for a constant, a hedge, a surface rule or a
textbook heuristic in the envs that paid for them."""

from __future__ import annotations

import re

import pytest

from palaestra.core.registry import make_source
from palaestra.envs.verification import program_equivalence as equivalence
from palaestra.kit import policies

SEEDS = range(40)  # per level: 200 problems per env


def _problems(env_id: str) -> list:
    source = make_source(env_id)
    return [source.sample(level, 90_000 + seed) for level in range(source.levels()) for seed in SEEDS]


def _share(env_id: str, answer) -> float:
    source = make_source(env_id)
    problems = _problems(env_id)
    return sum(source.check(p, source.format_answer(answer(p) if callable(answer) else answer)).correct
               for p in problems) / len(problems)


# --- items 4-5: bare verdicts need their proof; certificate-free sides are rare ---------------------------------

@pytest.mark.parametrize("env_id, constant", [
    ("graphs/cycle", "acyclic"), ("graphs/cycle", "The graph is acyclic."),
    ("graphs/degree_sequence", "impossible"), ("graphs/degree_sequence", "Impossible: 0 1"),
    ("graphs/negative_cycle", "none"), ("graphs/negative_cycle", "none: " + " ".join(["0"] * 6)),
    ("languages/dfa_equivalence", "equivalent"), ("languages/dfa_equivalence", "They are equivalent."),
])
def test_a_verdict_without_its_proof_scores_nothing(env_id, constant):
    assert _share(env_id, constant) <= 0.05


@pytest.mark.parametrize("env_id, constant", [
    ("algorithms/partition", "impossible"), ("deduction/sat_solve", "unsatisfiable"),
    ("deduction/equivalence", "equivalent"),
    ("verification/program_equivalence", "equivalent"),
])
def test_a_certificate_free_constant_scores_at_most_a_quarter(env_id, constant):
    assert 0.1 <= _share(env_id, constant) <= 0.25
    assert constant in make_source(env_id).certificate_free


@pytest.mark.parametrize("env_id", ["graphs/cycle", "graphs/degree_sequence", "graphs/negative_cycle",
                                    "algorithms/partition", "deduction/sat_solve", "deduction/equivalence",
                                    "languages/dfa_equivalence", "verification/program_equivalence"])
def test_both_sides_hedges_score_zero(env_id):
    source = make_source(env_id)
    sides = (*getattr(source, "certificate_free", ()), *getattr(source, "bare_verdicts", ()))
    problems = _problems(env_id)[::5]
    others = [p.answer for p in problems if not p.answer.lower().startswith(sides)]
    for problem in problems:
        for side in sides:
            if problem.answer.lower().startswith(side):
                hedges = [f"{others[0]}. {side.capitalize()}.", f"{side} ({others[0]})"]
            else:
                hedges = policies.hedges_for(problem.answer, side)
            for hedge in hedges:
                assert source.check(problem, source.format_answer(hedge)).reward == 0, hedge


def test_the_issue_hedges_score_zero():
    cases = {
        "graphs/cycle": ("{gold}. Acyclic.", "acyclic ({gold})"),
        "graphs/degree_sequence": ("impossible; {gold}", "{gold}. Impossible."),
        "algorithms/partition": ("impossible; {gold}", "{gold}. Impossible."),
        "deduction/sat_solve": ("{gold}. Unsatisfiable.", "unsatisfiable ({gold})"),
        "deduction/equivalence": ("{gold}. Equivalent.", "Equivalent ({gold})"),
    }
    for env_id, spellings in cases.items():
        source = make_source(env_id)
        for problem in _problems(env_id)[::10]:
            if problem.answer.split(":")[0] in ("acyclic", "impossible", "unsatisfiable", "equivalent"):
                continue
            for spelling in spellings:
                answer = spelling.format(gold=problem.answer)
                assert not source.check(problem, source.format_answer(answer)).correct, (env_id, answer)


def test_inequalities_read_a_hedge_of_nested_sets_as_no_answer():
    source = make_source("algebra/inequalities")
    for problem in _problems("algebra/inequalities")[::7]:
        if problem.answer in ("∅", "(-∞, ∞)"):
            continue
        first = problem.answer.split(" ∪ ")[0]
        assert source.check(problem, source.format_answer(problem.answer)).correct
        assert not source.check(problem, source.format_answer(f"{problem.answer} or {first}")).correct


# --- item 3: program_equivalence and loop_invariant -------------------------------------------------------------

def _canonical_thresholds(e: list) -> list[tuple[str, int]]:
    """Each select's comparison with a constant as the half-line it tests (``p < c`` is ``p <= c - 1``)."""
    found = []
    if e[0] == "?" and e[3][0] == "const":
        cmp, c = e[1], e[3][1]
        found.append({"<": ("<=", c - 1), "<=": ("<=", c), ">": (">=", c + 1), ">=": (">=", c)}.get(cmp, (cmp, c)))
    for child in e[1:]:
        if isinstance(child, list) and child and isinstance(child[0], str):
            found += _canonical_thresholds(child)
    return found


def test_comparing_the_printed_thresholds_does_not_decide_program_equivalence():
    problems = _problems("verification/program_equivalence")
    # every pair moves a boundary by one, so the thresholds (as half-lines; a negated select flips the side) differ
    same = [sorted(c for _, c in _canonical_thresholds(p.data["first"])) ==
            sorted(c for _, c in _canonical_thresholds(p.data["second"])) for p in problems]
    labels = [p.data["equivalent"] for p in problems]
    rule = sum(s == label for s, label in zip(same, labels)) / len(problems)
    assert rule <= max(sum(labels), len(labels) - sum(labels)) / len(labels) + 0.02


def test_a_witness_at_a_printed_constant_rarely_separates_the_programs():
    source = make_source("verification/program_equivalence")
    problems = _problems("verification/program_equivalence")
    hits = 0
    for p in problems:
        names = p.data["inputs"]
        constants = equivalence._constants(p.data["first"])
        answers = [", ".join(f"{n} = {c if i == 0 else 1}" for i, n in enumerate(names)) for c in constants]
        hits += any(source.verify(p, a).correct for a in answers)
    assert hits / len(problems) <= 0.1


def test_the_assertion_renamed_to_the_counter_is_not_an_invariant():
    source = make_source("verification/loop_invariant")
    for level in range(source.levels()):
        for seed in range(12):
            p = source.sample(level, 90_000 + seed)
            bound, counter = p.data["variables"][:2]
            renamed = re.sub(rf"\b{bound}\b", counter, p.data["post"])
            for candidate in (renamed, f"{counter} <= {bound} && {renamed}", f"{counter} >= 0 && {renamed}"):
                assert not source.verify(p, candidate).correct, (level, seed, candidate)
            assert source.verify(p, p.answer).correct


# --- item 7: the textbook heuristics solve none of the hard levels ----------------------------------------------

@pytest.mark.parametrize("env_id", ["graphs/max_clique", "graphs/chromatic_number", "graphs/hamiltonian_path",
                                    "algorithms/tsp", "graphs/vertex_cover"])
def test_the_declared_heuristics_are_not_optimal_from_level_2(env_id):
    source = make_source(env_id)
    heuristics = source.heuristics()
    assert heuristics
    for level in range(2, source.levels()):
        problems = [source.sample(level, 90_000 + seed) for seed in SEEDS]
        for name, heuristic in heuristics.items():
            solved = sum(source.verify(p, heuristic(p)).correct for p in problems) / len(problems)
            assert solved <= 0.05, (name, level, solved)
    easy = [source.sample(0, 90_000 + seed) for seed in SEEDS]
    best = max(sum(source.verify(p, h(p)).correct for p in easy) for h in heuristics.values()) / len(easy)
    assert best >= 0.5  # they are real heuristics


def test_no_guessed_string_separates_many_dfa_pairs():
    source = make_source("languages/dfa_equivalence")
    for level in range(1, source.levels()):
        problems = [source.sample(level, 90_000 + seed) for seed in SEEDS]
        letters = "abc" if "c" in problems[0].data["first"]["delta"][problems[0].data["first"]["start"]] else "ab"
        guesses = [a + b + c for a in letters for b in letters for c in letters]
        best = max(sum(source.verify(p, g).correct for p in problems) for g in guesses) / len(problems)
        assert best <= 0.2, (level, best)


def test_underdetermined_system_reads_no_hedge_of_a_vector_and_no_solution() -> None:
    from palaestra.core.registry import make_source

    task = make_source("linalg/underdetermined_system")
    problem = next(p for p in (task.sample(2, seed) for seed in range(60)) if p.answer != "no solution")
    assert task.verify(problem, problem.answer).correct
    for hedge in (f"{problem.answer}. No solution.", f"{problem.answer} (or inconsistent)", f"none; {problem.answer}"):
        assert not task.verify(problem, hedge).correct
