"""Targeted tests of the deduction family's trickiest grading: accepted spellings, rejected near misses,
guaranteed solvability and uniqueness. The kit (palaestra check) covers the generic contract."""

from __future__ import annotations

import pytest

from palaestra.core.registry import make_source
from palaestra.envs.deduction._first_order import TruthBatch, holds
from palaestra.envs.deduction.fol_countermodel import read_structure


def _sample(env_id: str, level: int, seed: int):
    source = make_source(env_id)
    return source, source.sample(level, seed)


# --- deduction/fol_countermodel -------------------------------------------------------------------


@pytest.mark.parametrize("level", range(5))
def test_countermodel_reference_is_a_countermodel_within_the_bound(level):
    source, problem = _sample("deduction/fol_countermodel", level, 7)
    structure = read_structure(problem.answer, problem.data["unary"], problem.data["binary"])
    assert isinstance(structure, dict)
    assert 2 <= structure["size"] <= problem.data["max_domain"]
    assert all(holds(structure, p) for p in problem.data["premises"])
    assert not holds(structure, problem.data["conclusion"])


def test_countermodel_any_valid_structure_scores_not_only_the_reference():
    source, problem = _sample("deduction/fol_countermodel", 0, 3)
    gold = read_structure(problem.answer, problem.data["unary"], problem.data["binary"])
    # Swapping two elements' names gives an isomorphic structure: also a countermodel, spelled otherwise.
    swap = {1: 2, 2: 1}
    renamed = {name: sorted(swap.get(d, d) for d in members) for name, members in gold["unary"].items()}
    lines = [f"domain = {gold['size']}"] + [f"{name}: {', '.join(map(str, ms))}" for name, ms in renamed.items()]
    answer = "\n".join(lines)
    assert answer.strip() != problem.answer.strip()
    assert source.verify(problem, answer).correct


def test_countermodel_rejects_hedges_repeats_unknown_names_and_out_of_range():
    source, problem = _sample("deduction/fol_countermodel", 0, 3)
    gold = problem.answer
    domain_line, rest = gold.split("\n", 1)
    bound = problem.data["max_domain"]
    first = problem.data["unary"][0]
    too_big = "domain = {" + ", ".join(str(d) for d in range(1, bound + 2)) + "}"
    for wrong in [
        gold + f"\n{first} = {{1}}",  # a name given twice (a hedge)
        gold + "\nS = {1}",  # unknown predicate
        gold + "\nNo wait, " + first + " = {1}.",  # a correction after the answer
        too_big + "\n" + rest,  # over the size bound
        "domain = {2, 3}\n" + rest,  # not {1..n}
        "domain = {1}\n" + rest.replace("2", "1").replace("3", "1"),  # a one-element structure: none exists
        "",
        "no countermodel exists",
    ]:
        assert not source.verify(problem, wrong).correct, wrong
    assert domain_line.startswith("domain = {1")


def test_countermodel_reads_latex_one_line_and_omitted_empty_predicates():
    source, problem = _sample("deduction/fol_countermodel", 0, 3)
    lines = problem.answer.split("\n")
    assert source.verify(problem, ", ".join(lines)).correct
    assert source.verify(problem, "\n".join("$" + ln.replace("{", "\\{").replace("}", "\\}") + "$"
                                            for ln in lines)).correct
    assert source.verify(problem, "\n".join(ln for ln in lines if not ln.endswith("{}"))).correct


def test_countermodel_premises_rule_out_the_empty_and_full_structures():
    for seed in range(5):
        _, problem = _sample("deduction/fol_countermodel", 2, seed)
        sentences = problem.data["premises"]
        for n in range(1, problem.data["max_domain"] + 1):
            domain = list(range(1, n + 1))
            for full in (False, True):
                extreme = {"size": n, "unary": {p: domain if full else [] for p in problem.data["unary"]},
                           "binary": {r: [[a, b] for a in domain for b in domain] if full else []
                                      for r in problem.data["binary"]}}
                assert not (all(holds(extreme, p) for p in sentences)
                            and not holds(extreme, problem.data["conclusion"]))


def test_truth_batch_agrees_with_holds_on_structures_of_mixed_sizes():
    _, problem = _sample("deduction/fol_countermodel", 4, 1)
    structures = [
        {"size": 1, "unary": {"P": [1], "Q": [], "R": []}, "binary": {"L": [[1, 1]], "M": []}},
        {"size": 3, "unary": {"P": [1, 3], "Q": [2], "R": []}, "binary": {"L": [[1, 2], [3, 3]], "M": [[2, 1]]}},
        {"size": 2, "unary": {"P": [], "Q": [1, 2], "R": [2]}, "binary": {"L": [], "M": [[1, 2], [2, 2]]}},
    ]
    batch = TruthBatch(structures[:2]).plus(structures[2])
    for sentence in [*problem.data["premises"], problem.data["conclusion"]]:
        bits = batch(sentence)
        assert [bool(bits >> i & 1) for i in range(3)] == [holds(s, sentence) for s in structures]


# --- deduction/syllogism --------------------------------------------------------------------------


def _venn_truth(statement, situation: int, m: int) -> bool:
    """A statement's truth in a situation (bit r set: Venn region r is non-empty), by brute force."""
    form, x, y = statement
    regions = [r for r in range(1 << m) if situation >> r & 1]
    if form == "all":
        return not any(r >> x & 1 and not r >> y & 1 for r in regions)
    if form == "no":
        return not any(r >> x & 1 and r >> y & 1 for r in regions)
    if form == "some":
        return any(r >> x & 1 and r >> y & 1 for r in regions)
    return any(r >> x & 1 and not r >> y & 1 for r in regions)


@pytest.mark.parametrize("level", [0, 1])
def test_syllogism_label_matches_brute_force_over_every_situation(level):
    source = make_source("deduction/syllogism")
    for seed in range(25):
        problem = source.sample(level, seed)
        m, premises, conclusion = len(problem.data["terms"]), problem.data["premises"], problem.data["conclusion"]
        valid = all(_venn_truth(conclusion, s, m) for s in range(1 << (1 << m))
                    if all(_venn_truth(p, s, m) for p in premises))
        assert valid == problem.data["valid"]


def test_syllogism_existential_fallacy_is_invalid_in_modern_logic():
    # Barbari (All M are P, All S are M, so Some S are P) is valid only with existential import.
    from palaestra.envs.deduction.syllogism import _valid

    assert not _valid(3, [["all", 0, 1], ["all", 2, 0]], ["some", 2, 1])
    assert _valid(3, [["all", 0, 1], ["all", 2, 0]], ["all", 2, 1])  # Barbara


def test_syllogism_reads_sentence_verdicts_and_rejects_hedges():
    source = make_source("deduction/syllogism")
    problem = next(p for p in (source.sample(0, s) for s in range(20)) if p.data["valid"])
    for right in ["valid", "The argument is valid.", "The conclusion follows.", "\\boxed{\\text{valid}}"]:
        assert source.verify(problem, right).correct, right
    for wrong in ["The argument is not valid.", "It is not valid.", "not valid", "valid or invalid",
                  "valid, no wait, invalid", "valid\ninvalid", "invalid"]:
        assert not source.verify(problem, wrong).correct, wrong


# --- deduction/liars ------------------------------------------------------------------------------


def test_liars_solution_is_unique_by_brute_force():
    from itertools import combinations

    from palaestra.envs.deduction.liars import _truth

    source = make_source("deduction/liars")
    for level in (0, 2):
        for seed in range(8):
            problem = source.sample(level, seed)
            n, k = len(problem.data["names"]), len(problem.data["liars"])
            fits = [(c, set(ls)) for c in range(n) for ls in combinations(range(n), k)
                    if all(_truth(s, c, set(ls)) == (i not in ls) for i, s in enumerate(problem.data["statements"]))]
            assert fits == [(problem.data["culprit"], set(problem.data["liars"]))]


def test_liars_accepts_sentences_and_one_line_and_rejects_corrections():
    source = make_source("deduction/liars")
    problem = source.sample(2, 1)
    names = problem.data["names"]
    culprit = names[problem.data["culprit"]]
    liars = ", ".join(names[i] for i in problem.data["liars"])
    other = next(n for n in names if n != culprit)
    for right in [f"The culprit is {culprit}.\nThe liars are {liars}.", f"Culprit: {culprit}, liars: {liars}",
                  f"liars: {liars}\nculprit: {culprit}"]:
        assert source.verify(problem, right).correct, right
    for wrong in [f"liars: {liars}\nculprit: {culprit}\nThis is the only consistent assignment.",  # a remark (#21)
                  f"culprit: {culprit}\nliars: {liars}\nNo wait, the culprit is {other}.",
                  f"culprit: {culprit}\nliars: {liars}\nBut maybe not.",
                  f"culprit: {culprit} or {other}\nliars: {liars}", f"culprit: {culprit}"]:
        assert not source.verify(problem, wrong).correct, wrong


# --- deduction/sat_solve --------------------------------------------------------------------------


def test_sat_solve_accepts_any_satisfying_assignment_and_unsat_is_proven():
    from itertools import product

    source = make_source("deduction/sat_solve")
    for seed in range(12):
        problem = source.sample(0, seed)
        n, clauses = problem.data["variables"], problem.data["clauses"]
        models = [bits for bits in product((False, True), repeat=n)
                  if all(any(bits[abs(lit) - 1] == (lit > 0) for lit in clause) for clause in clauses)]
        assert bool(models) == problem.data["satisfiable"]  # brute force agrees with the solver
        for bits in models[:3]:  # every model scores, not only the reference
            answer = ", ".join(f"x{i + 1} = {'true' if b else 'false'}" for i, b in enumerate(bits))
            assert source.verify(problem, answer).correct
        if not models:
            for right in ["Unsatisfiable.", "No satisfying assignment exists."]:
                assert source.verify(problem, right).correct, right
            for wrong in ["unsatisfiable, or x1 = true", "unsatisfiable\nx1 = true",
                          "Unsatisfiable. Actually it is satisfiable.",
                          "Unsatisfiable. No assignment makes every clause true."]:  # a remark: unparsed (#21)
                assert not source.verify(problem, wrong).correct, wrong


# --- deduction/seating ----------------------------------------------------------------------------


def test_seating_unique_by_brute_force_and_arrow_lists_accepted():
    from itertools import permutations

    from palaestra.envs.deduction.seating import _holds

    source = make_source("deduction/seating")
    for seed in range(6):
        problem = source.sample(1, seed)
        names, anchor = problem.data["names"], problem.data["anchor"]
        n = len(names)
        others = [p for p in range(n) if p != anchor]
        fits = []
        for rest in permutations(others):
            order = [anchor, *rest]
            seat = [order.index(p) for p in range(n)]
            if all(_holds(c, seat, n) for c in problem.data["clues"]):
                fits.append(order)
        assert len(fits) == 1
        items = problem.answer.split(", ")
        for right in [" → ".join(items), " - ".join(items), "\n".join(f"- {x}" for x in items), " ".join(items)]:
            assert source.verify(problem, right).correct, right
        assert not source.verify(problem, ", ".join(items + items[:1])).correct


# --- deduction/scheduling -------------------------------------------------------------------------


def test_scheduling_accepts_every_valid_schedule_and_checks_stated_end_times():
    from itertools import product

    from palaestra.envs.deduction.scheduling import _END, _START, _clock, _violation

    source = make_source("deduction/scheduling")
    problem = source.sample(0, 4)
    data = problem.data
    grid = range(_START, _END, data["slot"])
    valid = [dict(zip(data["names"], combo)) for combo in product(grid, repeat=len(data["names"]))
             if _violation(dict(zip(data["names"], combo)), data) is None]
    assert 1 <= len(valid) == data["schedules"]  # the generator's count is exact below its cap
    for starts in valid[:5]:
        answer = "\n".join(f"{name}: {_clock(t)}" for name, t in starts.items())
        assert source.verify(problem, answer).correct
    first, length = data["names"][0], data["lengths"][0]
    begin = valid[0][first]
    ranged = "\n".join(f"{n}: {_clock(t)}" for n, t in valid[0].items() if n != first)
    assert source.verify(problem, f"{first}: {_clock(begin)}-{_clock(begin + length)}\n{ranged}").correct
    assert not source.verify(problem, f"{first}: {_clock(begin)}-{_clock(begin + length + 30)}\n{ranged}").correct
    gold = problem.answer
    assert not source.verify(problem, gold + "\nThis schedule keeps every rule.").correct  # a remark (#21)
    assert source.verify(problem, "```text\n" + gold + "\n```").correct
    assert not source.verify(problem, gold + f"\nNo wait, {first} starts later.").correct


# --- deduction/venn_counts ------------------------------------------------------------------------


def _rank_over_rationals(rows):
    from fractions import Fraction

    rows = [[Fraction(v) for v in row] for row in rows]
    rank, cols = 0, len(rows[0]) if rows else 0
    for col in range(cols):
        pivot = next((r for r in range(rank, len(rows)) if rows[r][col]), None)
        if pivot is None:
            continue
        rows[rank], rows[pivot] = rows[pivot], rows[rank]
        for r in range(len(rows)):
            if r != rank and rows[r][col]:
                factor = rows[r][col] / rows[rank][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[rank])]
        rank += 1
    return rank


def test_venn_counts_modular_span_agrees_with_rational_rank_and_no_needed_fact_is_spare():
    from palaestra.envs.deduction.venn_counts import _vector

    source = make_source("deduction/venn_counts")
    for level in (2, 4):
        for seed in range(10):
            problem = source.sample(level, seed)
            g, facts, question = problem.data["groups"], problem.data["facts"], problem.data["question"]
            rows = [_vector(facts[i], g) for i in problem.data["needed"]]  # v3 also states facts not needed
            assert len(rows) < len(facts)
            target = _vector(question, g)
            assert _rank_over_rationals(rows + [target]) == _rank_over_rationals(rows)  # determined
            for i in range(len(rows)):  # every needed fact is needed
                rest = rows[:i] + rows[i + 1:]
                assert _rank_over_rationals(rest + [target]) > _rank_over_rationals(rest)


# --- deduction/kinship ----------------------------------------------------------------------------


def test_kinship_sentence_answers_must_name_the_asked_pair_in_order():
    source = make_source("deduction/kinship")
    problem = source.sample(2, 5)
    people, relation = problem.data["people"], problem.data["relation"]
    x, y = people[problem.data["x"]]["name"], people[problem.data["y"]]["name"]
    for right in [relation, f"{x} is {y}'s {relation}.", f"{x} is the {relation} of {y}.", f"{y}'s {relation}"]:
        assert source.verify(problem, right).correct, right
    for wrong in [f"{y} is {x}'s {relation}.", f"{x} is the {relation} of Nobody.", f"{relation} or cousin"]:
        assert not source.verify(problem, wrong).correct, wrong


def test_kinship_asked_pair_has_exactly_one_relation():
    from palaestra.envs.deduction.kinship import _relations

    source = make_source("deduction/kinship")
    for level in range(5):
        for seed in range(5):
            problem = source.sample(level, seed)
            found = _relations(problem.data["people"], problem.data["x"], problem.data["y"])
            assert found == [problem.data["relation"]]


# --- deduction/minesweeper ------------------------------------------------------------------------


def test_minesweeper_fenced_and_remark_answers_read_but_additions_rejected():
    source = make_source("deduction/minesweeper")
    problem = source.sample(1, 2)
    gold = problem.answer
    for right in ["```text\n" + gold + "\n```", "Answer:\n" + gold, gold.replace("\n", "; ").lower()]:
        assert source.verify(problem, right).correct, right
    for wrong in [gold + "\nmines: A1", gold + "\nAlso A1 might be a mine.",
                  gold + "\nThe other covered cells are undecided."]:  # a remark after the answer (issue #21)
        assert not source.verify(problem, wrong).correct, wrong
    assert "for example:\n" + gold not in problem.prompt


# --- deduction/mastermind_deduce ------------------------------------------------------------------


def test_mastermind_deduce_unique_by_brute_force_and_lead_ins_read():
    from itertools import product

    from palaestra.generators.mastermind import score

    source = make_source("deduction/mastermind_deduce")
    for seed in range(5):
        problem = source.sample(1, seed)
        data = problem.data
        fits = [code for code in product(range(1, data["digits"] + 1), repeat=data["length"])
                if all(score(g, list(code)) == (e, p) for g, e, p in data["history"])]
        assert fits == [tuple(data["secret"])]
    gold = problem.answer
    assert source.verify(problem, f"The code is {gold}.").correct
    assert source.verify(problem, f"Code: {gold}").correct
    assert not source.verify(problem, f"The code is {gold}. Actually 1111.").correct


# --- deduction/rule_induction ---------------------------------------------------------------------


def test_rule_induction_reads_rule_sentences_and_rejects_mismatched_letter_and_text():
    source = make_source("deduction/rule_induction")
    problem = source.sample(2, 3)
    rules, letters = problem.data["rules"], problem.answer.split(", ")
    chosen = ["ABCDEFGHIJ".index(x) for x in letters]
    other = next(i for i in range(len(rules)) if i not in chosen)
    sentences = "\n".join(f"({x}) yes exactly when the number {rules[i]}" for x, i in zip(letters, chosen))
    for right in [f"The rules are {' and '.join(letters)}.", f"Rules {', '.join(reversed(letters))}", sentences]:
        assert source.verify(problem, right).correct, right
    mismatched = "\n".join(f"{x}) {rules[other]}" for x in letters)
    for wrong in [mismatched, f"{problem.answer} or {'ABCDEFGHIJ'[other]}", f"{problem.answer}, {'ABCDEFGHIJ'[other]}",
                  letters[0], f"The rules are {problem.answer}. No wait, {'ABCDEFGHIJ'[other]}."]:
        assert not source.verify(problem, wrong).correct, wrong


# --- deduction/equivalence ------------------------------------------------------------------------


def test_equivalence_reads_verdict_sentences_and_stated_separations():
    source = make_source("deduction/equivalence")
    problems = [source.sample(1, s) for s in range(8)]
    same = next(p for p in problems if p.data["equivalent"])
    differ = next(p for p in problems if not p.data["equivalent"])
    for right in ["F and G are equivalent.", "yes"]:
        assert source.verify(same, right).correct, right
    for wrong in ["equivalent, or not", "Equivalent. Actually not.", "not equivalent",
                  "Equivalent. Every row agrees."]:  # a remark after the verdict is unparsed (issue #21)
        assert not source.verify(same, wrong).correct, wrong
    gold = differ.answer
    flipped = "false" if gold.startswith("p = true") else "true"
    for right in [f"Not equivalent: {gold}", f"No, they are not equivalent. {gold}", f"{gold}."]:
        assert source.verify(differ, right).correct, right
    for wrong in [f"{gold}\np = {flipped}", f"{gold}. Or maybe p = {flipped}.", "equivalent",
                  f"{gold}. Under it F is true and G is false."]:  # a remark after the answer (issue #21)
        assert not source.verify(differ, wrong).correct, wrong


# --- deduction/horn_inference ---------------------------------------------------------------------


def test_horn_inference_closure_and_hedged_additions():
    source = make_source("deduction/horn_inference")
    problem = source.sample(1, 2)
    atoms, derived = problem.data["atoms"], problem.data["derived"]
    facts = {atoms[i] for i in problem.data["facts"]}
    known = set(facts)
    for _ in range(len(problem.data["rules"]) + 1):  # naive fixpoint, independent of the env's code
        known |= {atoms[head] for body, head in problem.data["rules"] if all(atoms[b] in known for b in body)}
    assert sorted(known - facts) == derived
    spare = next(a for a in atoms if a not in known)
    gold = problem.answer
    assert not source.verify(problem, gold + ". These follow by chaining.").correct  # a remark (#21)
    assert source.verify(problem, gold + ".").correct
    assert source.verify(problem, ", ".join([*facts, *derived])).correct  # restating facts is harmless
    for wrong in [f"{gold} (and maybe {spare})", f"{gold}\n{spare}", ", ".join(derived[:-1]) or "none"]:
        assert not source.verify(problem, wrong).correct, wrong


# --- deduction/circuit_eval -----------------------------------------------------------------------


def test_circuit_eval_example_is_the_same_whatever_the_answer():
    # Round 3: the example was flipped when it equalled the answer, so it told the answer is not that.
    source = make_source("deduction/circuit_eval")
    for seed in range(100):
        example = source.sample(0, seed).prompt.rsplit("for example: ", 1)[1].split("\n")[0]
        bits = [int(pair.split(" = ")[1]) for pair in example.split(", ")]
        assert bits == [i % 2 for i in range(len(bits))], example


# --- deduction/fol_evaluate -----------------------------------------------------------------------


def test_fol_evaluate_reads_the_set_of_true_sentences():
    source = make_source("deduction/fol_evaluate")
    problem = next(p for p in (source.sample(0, s) for s in range(10)) if 0 < sum(p.data["true"]) < 5)
    true = [i for i, t in enumerate(problem.data["true"], 1) if t]
    false = [i for i, t in enumerate(problem.data["true"], 1) if not t]
    listed = ", ".join(map(str, true))
    for right in [listed, ", ".join(map(str, reversed(true))), f"Sentences {' and '.join(map(str, true))}.",
                  f"\\boxed{{{listed}}}"]:
        assert source.verify(problem, right).correct, right
    opposite = ", ".join(map(str, false))
    for wrong in [opposite, f"{listed} or {opposite}", f"{listed}\n{opposite}", f"{listed}, {false[0]}", "true", "none"]:
        assert not source.verify(problem, wrong).correct, wrong


def test_fol_evaluate_sentences_have_no_absorbed_repeats():
    from palaestra.envs.deduction._first_order import degenerate

    assert degenerate(["and", ["P", "x"], ["or", ["P", "x"], ["Q", "x"]]])  # P ∧ (P ∨ Q)
    assert degenerate(["imp", ["Q", "x"], ["and", ["Q", "x"], ["P", "x"]]])  # Q → (Q ∧ P)
    assert not degenerate(["and", ["P", "x"], ["or", ["Q", "x"], ["R", "x"]]])
    source = make_source("deduction/fol_evaluate")
    for seed in range(30):
        assert not any(degenerate(sentence) for sentence in source.sample(2, seed).data["sentences"])
