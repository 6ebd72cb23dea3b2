"""Red-team regressions for the physics, chemistry, biology, economics and proofs families (#21): shortcuts that
earned reward without solving, and answers a careful grader reads differently, each pinned by a test that fails
on the old code."""

from __future__ import annotations

import re

import palaestra
from palaestra.kit.base import sample


def _reward(problem, reply: str) -> float:
    return palaestra.score(problem, f"<answer>{reply}</answer>").reward


# --- economics/voting_rules: a rule other than the stated one must rarely elect the winner --------------------

def _ballots(problem) -> list[tuple[int, list[int]]]:
    names = problem.data["names"]
    ballots = []
    for line in problem.prompt.splitlines():
        match = re.fullmatch(r"(\d+) voters?: (.*)", line)
        if match:
            ballots.append((int(match.group(1)), [names.index(n) for n in match.group(2).split(" > ")]))
    return ballots


def test_voting_rules_other_rules_rarely_elect_the_winner():
    from palaestra.envs.economics.voting_rules import RULE_WEIGHT, winner

    hits = dict.fromkeys(RULE_WEIGHT, 0)
    asked = dict.fromkeys(RULE_WEIGHT, 0)
    for seed in range(80):
        problem = sample("economics/voting_rules", 2, seed)
        ballots, names = _ballots(problem), problem.data["names"]
        assert winner(problem.data["rule"], ballots, len(names)) == names.index(problem.answer)
        for rule in RULE_WEIGHT:
            if rule != problem.data["rule"]:
                asked[rule] += 1
                hits[rule] += winner(rule, ballots, len(names)) == names.index(problem.answer)
    # before the fix Borda's winner won 79% of Schulze elections and Schulze's 67% of instant-runoff ones
    for rule in RULE_WEIGHT:
        assert hits[rule] <= 0.35 * asked[rule], (rule, hits[rule], asked[rule])


# --- economics/dominance: the survivors are not the cell with the largest payoffs ----------------------------

def _largest_sum_cell(problem) -> str:
    a, b = problem.data["row_payoffs"], problem.data["column_payoffs"]
    _, i, j = max((a[i][j] + b[i][j], i, j) for i in range(len(a)) for j in range(len(a[0])))
    return f"{chr(ord('A') + i)}, {j + 1}"


def _largest_totals_cell(problem) -> str:
    a, b = problem.data["row_payoffs"], problem.data["column_payoffs"]
    i = max(range(len(a)), key=lambda r: sum(a[r]))
    j = max(range(len(a[0])), key=lambda c: sum(line[c] for line in b))
    return f"{chr(ord('A') + i)}, {j + 1}"


def test_dominance_payoff_totals_do_not_name_the_survivors():
    for level in (0, 4):
        problems = [sample("economics/dominance", level, seed) for seed in range(60)]
        for policy in (_largest_sum_cell, _largest_totals_cell):
            # before the fix: 0.62 and 0.61 at level 0, the largest sum 0.33 at level 4
            assert sum(_reward(p, policy(p)) for p in problems) <= 0.1 * len(problems), (level, policy.__name__)


# --- economics/nash_pure: the only equilibrium is rarely the cell with the largest payoffs --------------------

def test_nash_pure_largest_payoff_sum_cell_rarely_the_answer():
    problems = [sample("economics/nash_pure", level, seed) for level in (0, 2) for seed in range(60)]

    def largest_sum(problem) -> str:
        a, b = problem.data["row_payoffs"], problem.data["column_payoffs"]
        _, i, j = max((a[i][j] + b[i][j], i, j) for i in range(len(a)) for j in range(len(a[0])))
        return f"{chr(ord('A') + i)}{j + 1}"

    # before the fix: 0.45 at level 0 and 0.30 at level 2
    assert sum(_reward(p, largest_sum(p)) for p in problems) <= 0.18 * len(problems)


# --- biology/codon_mutations: the wobble-position shortcut does not classify the substitutions ----------------

def _wobble_shortcut(problem) -> str:
    """Indels by their length; a substitution making TAA/TAG/TGA is nonsense, else silent at a codon's third
    position and missense elsewhere (no code table read)."""
    dna, lines = problem.data["dna"], []
    for mutation in problem.data["mutations"]:
        text = mutation["text"]
        substitution = re.fullmatch(r"substitution at position (\d+): \w>(\w)", text)
        if substitution:
            position, base = int(substitution.group(1)), substitution.group(2)
            start = (position - 1) // 3 * 3
            codon = (dna[:position - 1] + base + dna[position:])[start:start + 3]
            label = "nonsense" if codon in ("TAA", "TAG", "TGA") else "silent" if position % 3 == 0 else "missense"
        else:
            bases = re.search(r"\(([ACGT]+)\)|insertion of ([ACGT]+)", text)
            assert bases is not None
            label = "in-frame" if len(bases.group(1) or bases.group(2)) % 3 == 0 else "frameshift"
        lines.append(f"{mutation['name']}: {label}")
    return "\n".join(lines)


def test_codon_mutations_wobble_shortcut_fails_at_level_four():
    problems = [sample("biology/codon_mutations", 4, seed) for seed in range(60)]
    # before the fix the shortcut solved 0.77 of level 4
    assert sum(_reward(p, _wobble_shortcut(p)) for p in problems) <= 0.3 * len(problems)


# --- physics/calorimetry: the temperature read in the unit spellings a grader accepts -------------------------

def test_calorimetry_reads_degrees_c():
    problem = sample("physics/calorimetry", 0, 3)
    value = problem.data["T"]
    for unit in ("degrees C", "deg C", "degC", "°C"):
        assert _reward(problem, f"T = {value} {unit}") == 1.0, unit
    assert _reward(problem, f"T = {value} K") == 0.0


# --- proofs/equational, ring_identities: a step may name its axiom, and is then held to it --------------------

def test_equational_chain_reads_axiom_labels_and_checks_them():
    problem = sample("proofs/equational", 0, 2)
    assert problem.data["left"] == "(a⁻¹ * e) * b"  # the chain below is written for this problem
    labelled = "(a⁻¹ * e) * b\n= a⁻¹ * b   (G3)\n= a⁻¹ * (b * e)   [G3, reversed]\n= a⁻¹ * (b * (b * b⁻¹))   by G5"
    assert _reward(problem, labelled) == 1.0
    assert _reward(problem, labelled.replace("(G3)", "(G2)")) == 0.0  # a label naming the wrong axiom
    assert _reward(problem, labelled.replace("(G3)", "(G9)")) == 0.0  # no such axiom
    assert _reward(problem, labelled.replace("(G3)", "(not valid)")) == 0.0


def test_ring_chain_reads_axiom_labels_and_checks_them():
    problem = sample("proofs/ring_identities", 0, 2)
    assert problem.data["left"] == "0 * (a * a)"
    labelled = ("0 * (a * a)\n= (0 * (a * a)) * 1   (R7)\n= (0 * (a * a)) * (1 * 1)   (R7)\n"
                "= (1 * 1) * (0 * (a * a))   (R6)\n= 1 * (1 * (0 * (a * a)))   (R5)")
    assert _reward(problem, labelled) == 1.0
    assert _reward(problem, labelled.replace("(R6)", "(R2)")) == 0.0


# --- biology/open_reading_frames: the ORF from a strand's first ATG is rarely a longest one --------------------

def _orf_from_first_atg(strand: str) -> str:
    start = strand.find("ATG")
    for end in range(start + 3, len(strand) - 2, 3) if start >= 0 else ():
        if strand[end:end + 3] in ("TAA", "TAG", "TGA"):
            return strand[start:end + 3]
    return "ATG"


def test_open_reading_frames_first_atg_shortcut_fails():
    from palaestra.envs.biology.common import reverse_complement

    problems = [sample("biology/open_reading_frames", 4, seed) for seed in range(80)]
    solved = 0.0
    for problem in problems:
        dna = problem.data["dna"]
        guess = (f"given strand: {_orf_from_first_atg(dna)}; "
                 f"reverse complement: {_orf_from_first_atg(reverse_complement(dna))}")
        solved += _reward(problem, guess)
    # v1: the longer of the two strands' first-ATG ORFs was a longest ORF in 0.75 of level 4; v3 asks for each
    # strand's longest, and each strand's first-ATG ORF is both of them in about 0.05
    assert solved <= 0.3 * len(problems)


# --- proofs/coq_tautology, coq_proof_repair: the deciding tactics are refused under every name ------------------

def test_coq_tautology_refuses_renamed_deciding_tactics():
    import palaestra.envs.proofs.coq_tautology as tautology

    problem = sample("proofs/coq_tautology", 2, 0)
    for tactic in ("dintuition", "gintuition", "intuition_solver", "info_auto", "info_eauto"):
        # before the fix each of these proved the goal: coqc accepted "intros; dintuition."
        verdict = tautology.CoqTautology().verify(problem, f"intros; {tactic}.")
        assert verdict.reward == 0.0 and "not allowed" in verdict.feedback, tactic
        assert tactic in problem.prompt  # and the prompt names it among the refused ones


def test_coq_proof_repair_refuses_renamed_deciding_tactics():
    problem = sample("proofs/coq_proof_repair", 1, 0)
    verdict = palaestra.score(problem, "<answer>intros; dintuition.</answer>")
    assert verdict.reward == 0.0 and "not allowed" in verdict.feedback


# --- chemistry/ph, empirical_formula: the quantity named before the answer ------------------------------------

def test_ph_reads_the_quantity_named_before_the_value():
    problem = sample("chemistry/ph", 2, 1)
    value = problem.answer
    for reply in (f"pH {value}", f"pH: {value}", f"pH = {value}", f"The pH is {value}."):
        assert _reward(problem, reply) == 1.0, reply
    for reply in (f"pH {value} or 7", "pH 15.5", f"phenol {value}"):
        assert _reward(problem, reply) == 0.0, reply


def test_empirical_formula_reads_a_naming_sentence():
    problem = sample("chemistry/empirical_formula", 2, 1)
    formula = problem.answer
    for reply in (f"The empirical formula is {formula}.", f"Empirical formula: {formula}"):
        assert _reward(problem, reply) == 1.0, reply
    for reply in (f"The empirical formula is {formula}. Or C2H6.", f"The empirical formula is not {formula}"):
        assert _reward(problem, reply) == 0.0, reply


# --- proofs/fitch_repair: the proof so far restated before the new lines is read as the new lines ---------------

def test_fitch_repair_accepts_the_premises_restated():
    env = palaestra.make("proofs/fitch_repair")
    env.reset(seed=1, options={"level": 0})
    problem = sample("proofs/fitch_repair", 0, 1)
    proof = problem.answer.splitlines()
    premises = len(problem.data["premises"])
    # first turn: the premises restated and two new lines
    _, reward, done, _, info = env.step("<answer>" + "\n".join(proof[:premises + 2]) + "</answer>")
    assert info["verdict"].parsed and not done and info["verdict"].feedback == "accepted"
    # second turn: everything so far restated, then the rest
    _, reward, done, _, info = env.step("<answer>```\n" + "\n".join(proof) + "\n```</answer>")
    assert done and reward == 1.0
    # the premises alone again is no new line, and not a mistake
    assert palaestra.score(problem, "<answer>" + "\n".join(proof[:premises]) + "</answer>").reward == 0.0


# --- proofs/sequent_calculus: a question mark after a rule is a doubt, not part of the rule ---------------------

def test_sequent_calculus_refuses_a_doubting_question_mark():
    problem = sample("proofs/sequent_calculus", 0, 2)
    assert _reward(problem, problem.answer) == 1.0
    assert _reward(problem, problem.answer + ".") == 1.0
    assert _reward(problem, problem.answer + "?") == 0.0
    assert _reward(problem, problem.answer.replace("\n", " ?\n", 1)) == 0.0
    assert _reward(problem, problem.answer + " *") == 0.0
    assert _reward(problem, problem.answer.replace("∧L 4", "∧L (4)")) == 1.0


# --- chemistry/redox_balance: an equation written with "=" (as balance_equation reads it) ----------------------

def test_redox_balance_reads_an_equals_sign_arrow():
    problem = sample("chemistry/redox_balance", 2, 3)
    assert _reward(problem, problem.answer.replace("->", "=")) == 1.0
    assert _reward(problem, problem.answer.replace("->", "= =")) == 0.0


# --- physics: an exact answer followed by its decimal approximation ---------------------------------------------

def test_physics_reads_an_exact_value_with_its_decimal_approximation():
    doppler = sample("physics/doppler", 0, 1)
    assert doppler.answer == "580013/340 Hz"
    assert _reward(doppler, "580013/340 ≈ 1706 Hz") == 1.0
    assert _reward(doppler, "580013/340 Hz \\approx 1705.92 Hz") == 1.0
    assert _reward(doppler, "580013/340 ≈ 1750 Hz") == 0.0  # a second, different answer
    assert _reward(doppler, "580013/340 ≈ 1706 Hz. That is wrong.") == 0.0
    lens = sample("physics/thin_lens", 0, 1)
    assert lens.answer == "d = 1872/23 cm, m = -16/23"
    assert _reward(lens, "d = 1872/23 ≈ 81.39 cm, m = -16/23 ≈ -0.696") == 1.0
    assert _reward(lens, "d = 1872/23 ≈ 82.39 cm, m = -16/23") == 0.0
    network = sample("physics/resistor_network", 0, 1)
    assert network.answer == "821/31"
    assert _reward(network, "821/31 ≈ 26.48 Ω") == 1.0
    assert _reward(network, "821/31 ≈ 27.48 Ω") == 0.0


# --- chemistry/ph: the x << C shortcut rarely gives a weak acid's pH within the tolerance ------------------------

def test_ph_weak_acid_shortcut_rarely_within_tolerance():
    import math

    weak = [p for seed in range(80) for p in [sample("chemistry/ph", 1, seed)] if p.data["kind"] == "weak"]
    solved = 0.0
    for problem in weak:
        concentration = float(re.search(r"a ([\d.e-]+) mol/L solution", problem.prompt).group(1))
        ka = float(re.search(r"Ka = ([\d.e-]+)\)", problem.prompt).group(1))
        solved += _reward(problem, f"pH = {-math.log10(math.sqrt(ka * concentration)):.2f}")
    # before the fix the shortcut was within 0.01 on about half of the weak-acid problems
    assert len(weak) >= 25 and solved <= 0.25 * len(weak)


# --- biology/fitch_parsimony: the leaves' per-site majority at every node is rarely optimal ---------------------

def test_fitch_parsimony_majority_everywhere_rarely_optimal():
    from collections import Counter

    problems = [sample("biology/fitch_parsimony", 0, seed) for seed in range(60)]
    solved = 0.0
    for problem in problems:
        sequences = problem.data["sequences"]
        majority = "".join(Counter(column).most_common(1)[0][0] for column in zip(*sequences.values()))
        solved += _reward(problem, "\n".join(f"n{i}: {majority}" for i in range(1, len(sequences))))
    # before the fix this solved 0.64 of level 0
    assert solved <= 0.25 * len(problems)
