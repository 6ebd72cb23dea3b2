"""Red-team regressions (round 3, session 27): temporal, causal, languages, verification, linalg, deduction.

Right answers a careful grader accepts were scored 0 when a witness came with its name or its verdict:
``Counterexample: x = 5`` (verification/program_equivalence), ``counterexample: p = true, ...`` and ``No. p = true,
...`` (deduction/equivalence), ``Satisfiable: x1 = true, ...`` and ``A satisfying assignment: ...``
(deduction/sat_solve), ``counterexample: abba`` and ``distinguishing string: abba`` (languages/dfa_equivalence).
The label is now looked through; a second answer or a contradicting verdict after it still leaves the answer
unread, and a literal list's leading ``-x1`` (not x1) is never taken for punctuation after a label.
"""

from __future__ import annotations

import pytest

from palaestra.core.registry import make_source


def _first(env_id: str, level: int, keep) -> tuple:
    task = make_source(env_id)
    for seed in range(200):
        problem = task.sample(level, seed)
        if keep(problem):
            return task, problem
    raise AssertionError(f"no problem of {env_id} at level {level} fits")


def _score(task, problem, answer: str) -> float:
    return task.check(problem, task.format_answer(answer)).reward


@pytest.mark.parametrize("form", ["Counterexample: {g}", "counterexample: {g}", "Not equivalent. Counterexample: {g}",
                                  "not equivalent, counterexample: {g}", "They differ at {g}",
                                  "A distinguishing input: {g}", "Counterexample: **{g}**"])
def test_program_equivalence_reads_a_named_counterexample(form):
    task, problem = _first("verification/program_equivalence", 2, lambda p: not p.data["equivalent"])
    assert _score(task, problem, form.format(g=problem.answer)) == 1.0


@pytest.mark.parametrize("form", ["Counterexample: {g}. Equivalent.", "counterexample: equivalent",
                                  "Counterexample: {g} or x = 0"])
def test_program_equivalence_label_opens_no_hedge(form):
    task, problem = _first("verification/program_equivalence", 2, lambda p: not p.data["equivalent"])
    assert _score(task, problem, f"Counterexample: {problem.answer}") == 1.0  # the label alone is read (0 before)
    assert _score(task, problem, form.format(g=problem.answer)) == 0.0


@pytest.mark.parametrize("form", ["counterexample: {g}", "not equivalent, counterexample: {g}", "No. {g}",
                                  "They differ when {g}", "A distinguishing assignment: {g}"])
def test_equivalence_reads_a_named_assignment(form):
    task, problem = _first("deduction/equivalence", 2, lambda p: not p.data["equivalent"])
    assert _score(task, problem, form.format(g=problem.answer)) == 1.0


def test_equivalence_label_keeps_negated_literals_and_refuses_hedges():
    task, problem = _first("deduction/equivalence", 2, lambda p: not p.data["equivalent"])
    pairs = [pair.split(" = ") for pair in problem.answer.split(", ")]
    literals = ", ".join(k if v == "true" else f"-{k}" for k, v in pairs)
    flipped = ", ".join(f"-{k}" if v == "true" else k for k, v in pairs)  # every value flipped: differs from gold
    assert _score(task, problem, f"Counterexample: {literals}") == 1.0
    assert _score(task, problem, f"No, {literals}") == 1.0
    assert _score(task, problem, f"Counterexample: {problem.answer}. Equivalent.") == 0.0
    assert _score(task, problem, "No, equivalent") == 0.0
    assert _score(task, problem, "counterexample") == 0.0
    assert _score(task, problem, f"counterexample: {flipped}") == _score(task, problem, flipped)


@pytest.mark.parametrize("form", ["Satisfiable: {g}", "satisfiable. {g}", "SAT: {g}", "**SAT:** {g}",
                                  "A satisfying assignment: {g}", "Yes, satisfiable: {g}", "Satisfiable, for example {g}"])
def test_sat_solve_reads_a_named_assignment(form):
    task, problem = _first("deduction/sat_solve", 2, lambda p: p.data["satisfiable"])
    assert _score(task, problem, form.format(g=problem.answer)) == 1.0


def test_sat_solve_label_opens_no_hedge():
    task, problem = _first("deduction/sat_solve", 2, lambda p: p.data["satisfiable"])
    assert _score(task, problem, f"Satisfiable: {problem.answer}") == 1.0  # the label alone is read (0 before)
    assert _score(task, problem, f"Satisfiable: {problem.answer}. Unsatisfiable.") == 0.0
    assert _score(task, problem, "Satisfiable.") == 0.0
    pairs = [pair.split(" = ") for pair in problem.answer.split(", ")]
    literals = ", ".join(k if v == "true" else f"-{k}" for k, v in pairs)
    assert _score(task, problem, f"Satisfiable: {literals}") == 1.0
    _, unsat = _first("deduction/sat_solve", 2, lambda p: not p.data["satisfiable"])
    assert _score(task, unsat, "Satisfiable: " + ", ".join(f"x{i} = true" for i in range(1, 4))) == 0.0


@pytest.mark.parametrize("form", ["counterexample: {g}", "Counterexample: \"{g}\"", "distinguishing string: {g}",
                                  "A distinguishing string is {g}", "They differ on the string {g}",
                                  "not equivalent: \"{g}\""])
def test_dfa_equivalence_reads_a_named_witness(form):
    task, problem = _first("languages/dfa_equivalence", 2, lambda p: not p.answer.startswith("equivalent"))
    assert _score(task, problem, form.format(g=problem.answer)) == 1.0


def test_dfa_equivalence_label_opens_no_hedge():
    task, problem = _first("languages/dfa_equivalence", 2, lambda p: not p.answer.startswith("equivalent"))
    assert _score(task, problem, f"counterexample: {problem.answer}") == 1.0  # the label alone is read (0 before)
    assert _score(task, problem, f"counterexample: {problem.answer} or ab") == 0.0
    assert _score(task, problem, "counterexample: equivalent") == 0.0


def test_underdetermined_system_reads_free_variables_as_parameters():
    # level 2 seed 3: x + 4y + 4z + w = 5, x + 4y + 4z - 3w = 5, x + 4y + 4z + 2w = 5 (gold (-3 - 4s - 4t, 3 + s, ...))
    task = make_source("linalg/underdetermined_system")
    problem = task.sample(2, 3)
    assert problem.data["matrix"] == [[1, 4, 4, 1], [1, 4, 4, -3], [1, 4, 4, 2]]
    assert _score(task, problem, "(5 - 4y - 4z, y, z, 0)") == 1.0
    assert _score(task, problem, "(x, y, z, w) = (5 - 4y - 4z, y, z, 0), y, z ∈ ℝ") == 1.0
    assert _score(task, problem, "(5 - 4y, y, z, 0)") == 0.0  # z is free but left out: one parameter short
    assert _score(task, problem, "(5 - 4y - 4z, y, z, w)") == 0.0  # w is not free
    assert _score(task, problem, "(5 - 4y - 4z, y, 1, 0)") == 0.0  # z fixed at 1: z is no longer free, so z is unknown
    # level 4 seed 39: six unknowns x1..x6, three free
    problem = task.sample(4, 39)
    assert _score(task, problem, "(-11 - 2x4, 31 + 4x3 + 3x4 - 4x5, x3, x4, x5, 2)") == 1.0
    assert _score(task, problem, "(-11 - 2x4, 31 + 4x3 + 3x4 - 4x5, x3, x4, x5, 3)") == 0.0


def test_graph_query_reads_a_path_named_open_without_the_verdict():
    # level 2 seed 0: are E4 and C5 d-separated given {R4}? no: E4 <- S7 <- B2 -> C5
    task = make_source("causal/graph_query")
    problem = task.sample(2, 0)
    assert problem.answer == "no: E4 <- S7 <- B2 -> C5"
    assert _score(task, problem, "Open path: E4 <- S7 <- B2 -> C5") == 1.0
    assert _score(task, problem, "The open path is E4 <- S7 <- B2 -> C5") == 1.0
    assert _score(task, problem, "Open path: E4 <- S7 <- B2 -> C5. Yes.") == 0.0
    assert _score(task, problem, "Open path: E4 <- S7 -> C5") == 0.0  # no edge S7 -> C5
    separated = next(p for p in (task.sample(2, s) for s in range(100)) if p.answer == "yes")
    x, y = separated.data["x"], separated.data["y"]
    assert _score(task, separated, f"Open path: {x} - {y}") == 0.0


@pytest.mark.parametrize("form", ["Solution: {g}", "Model: {g}", "One solution: {g}", "**Solution:** {g}",
                                  "A satisfying assignment: {g}"])
def test_smt_model_reads_named_values(form):
    task = make_source("verification/smt_model")
    problem = task.sample(2, 1)
    assert _score(task, problem, form.format(g=problem.answer)) == 1.0


def test_smt_model_and_bitvector_labels_open_no_hedge():
    task = make_source("verification/smt_model")
    problem = task.sample(2, 1)
    assert _score(task, problem, f"Solution: {problem.answer}") == 1.0
    assert _score(task, problem, f"Solution: {problem.answer} or a = 2") == 0.0
    assert _score(task, problem, "Solution:") == 0.0
    task = make_source("verification/bitvector_input")
    problem = task.sample(3, 2)  # two inputs
    assert _score(task, problem, f"Inputs: {problem.answer}") == 1.0
    assert _score(task, problem, "Inputs: " + problem.answer.split(", ")[0]) == 0.0  # y left out


@pytest.mark.parametrize("form", ["Inputs: {g}", "Input: {g}", "Arguments: {g}", "Values: {g}"])
def test_bitvector_input_reads_named_inputs(form):
    task = make_source("verification/bitvector_input")
    problem = task.sample(3, 2)
    assert _score(task, problem, form.format(g=problem.answer)) == 1.0


def test_program_equivalence_reads_a_named_input():
    task, problem = _first("verification/program_equivalence", 2, lambda p: not p.data["equivalent"])
    assert _score(task, problem, f"Input: {problem.answer}") == 1.0
    assert _score(task, problem, f"Not equivalent. Input: {problem.answer}") == 1.0
    assert _score(task, problem, f"Input: {problem.answer}. Equivalent.") == 0.0


@pytest.mark.parametrize(("env_id", "level", "seed", "forms"), [
    ("deduction/fol_evaluate", 3, 2, ["True sentences: {g}", "The true sentences are {g}.", "**True sentences:** {g}",
                                      "Sentences that are true: {g}"]),
    ("deduction/horn_inference", 3, 2, ["Derived: {g}", "The derived propositions are {g}.",
                                        "True besides the facts: {g}"]),
    ("deduction/rule_induction", 3, 2, ["Candidates: {g}", "The consistent candidates are {g}.",
                                        "Candidates that agree with every example: {g}"]),
    ("languages/nfa_run", 3, 2, ["The possible states are {g}.", "The NFA can be in {g}."]),
])
def test_sets_read_after_their_name(env_id, level, seed, forms):
    task = make_source(env_id)
    problem = task.sample(level, seed)
    for form in forms:
        assert _score(task, problem, form.format(g=problem.answer)) == 1.0, form


def test_set_names_open_no_hedge():
    task = make_source("deduction/fol_evaluate")
    problem = task.sample(3, 2)  # 1, 2, 3, 4, 6
    assert _score(task, problem, f"True sentences: {problem.answer}") == 1.0
    assert _score(task, problem, f"True sentences: {problem.answer} or 5") == 0.0
    assert _score(task, problem, "True sentences:") == 0.0
    task = make_source("deduction/rule_induction")
    problem = task.sample(3, 2)  # A, E, H
    assert _score(task, problem, "Candidates: A or E") == 0.0
    assert _score(task, problem, "Candidates: A, E") == 0.0
    task = make_source("languages/nfa_run")
    problem = task.sample(3, 2)  # q0, q3
    assert _score(task, problem, "Possible states: q0, q3 or q1") == 0.0


@pytest.mark.parametrize("form", ["Counter-model: {m}", "Countermodel: {m}", "A counter-model: {m}",
                                  "Counterexample: {m}"])
def test_propositional_reads_a_named_counter_model_without_the_verdict(form):
    task, problem = _first("deduction/propositional", 2, lambda p: p.answer.startswith("no: "))
    assert _score(task, problem, form.format(m=problem.answer[4:])) == 1.0


def test_propositional_counter_model_name_opens_no_hedge():
    task, problem = _first("deduction/propositional", 2, lambda p: p.answer.startswith("no: "))
    model = problem.answer[4:]
    assert _score(task, problem, f"Counter-model: {model}") == 1.0
    assert _score(task, problem, f"Counter-model: {model}. Yes.") == 0.0
    assert _score(task, problem, "Counter-model: yes") == 0.0
    assert _score(task, problem, "counter-model") == 0.0


def test_sat_solve_reads_a_plain_assignment_name():
    task, problem = _first("deduction/sat_solve", 2, lambda p: p.data["satisfiable"])
    assert _score(task, problem, f"Assignment: {problem.answer}") == 1.0
    assert _score(task, problem, f"An assignment: {problem.answer}") == 1.0


def test_circuit_eval_reads_named_outputs():
    task = make_source("deduction/circuit_eval")
    problem = task.sample(2, 3)  # o1 = 0, o2 = 1, o3 = 1, o4 = 0
    assert _score(task, problem, f"Outputs: {problem.answer}") == 1.0
    assert _score(task, problem, f"The output values are {problem.answer}.") == 1.0
    assert _score(task, problem, f"Outputs: {problem.answer}, o1 = 1") == 0.0  # o1 given twice
