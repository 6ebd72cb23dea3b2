"""Formal-verification envs (issue 13): bit-vector inversion, loop invariants, SMT models, equivalence.

Ground truths are checked independently: the loop invariants the generator knows are proven by
z3 with the verifier's own limits, the model counts against brute force over every assignment,
each rewrite identity of the equivalence env with z3 at every width it is used at. The
verifiers' trickiest cases are checked directly: other valid answers, other spellings, values
outside the stated range, hedged answers, formulas z3 cannot settle, hostile formulas.
"""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
import time

import pytest

from palaestra.core import Problem
from palaestra.core.registry import make_source
from palaestra.envs.verification import program_equivalence as equivalence
from palaestra.envs.verification.common import FormulaError, parse_formula, run_program
from palaestra.envs.verification.loop_invariant import check_invariant
from palaestra.envs.verification.smt_model import all_models, holds
from palaestra.kit import best_threshold_rule, surface_features

z3 = pytest.importorskip("z3")


def _with(problem: Problem, **data) -> Problem:
    return Problem(problem.env_id, problem.level, problem.seed, problem.prompt, problem.answer,
                   {**problem.data, **data}, problem.version, problem.answer_format)


# --- bitvector_input ---------------------------------------------------------------------------


def test_bitvector_input_accepts_every_preimage_and_notation():
    source = make_source("verification/bitvector_input")
    problem = source.sample(0, 3)
    program, target = problem.data["program"], problem.data["target"]
    preimages = [v for v in range(256) if run_program(program, {"x": v}) == target]
    assert preimages  # the generator's input at least
    for v in preimages:
        for spelling in (f"x = {v}", f"x={hex(v)}", str(v), bin(v), f"x: {v}."):
            assert source.verify(problem, spelling).correct, spelling
    miss = next(v for v in range(256) if v not in preimages)
    assert not source.verify(problem, f"x = {miss}").correct


def test_bitvector_input_rejects_out_of_range_and_hedges():
    source = make_source("verification/bitvector_input")
    problem = source.sample(3, 1)
    values = dict(pair.split(" = ") for pair in problem.answer.split(", "))
    x, y = int(values["x"]), int(values["y"])
    assert source.verify(problem, f"x = {x}, y = {y}").correct
    wrapped = source.verify(problem, f"x = {x + 65536}, y = {y}")  # same value modulo 2^16: still out of range
    assert not wrapped.correct and "outside" in wrapped.feedback
    assert not source.verify(problem, f"x = -{65536 - x}, y = {y}").correct
    assert not source.verify(problem, f"x = {x} or {x + 1}, y = {y}").correct
    assert not source.verify(problem, f"x = {x}").correct  # y missing
    assert not source.verify(problem, "9" * 5000).correct


def test_bitvector_programs_have_no_dead_or_cancelling_steps():
    source = make_source("verification/bitvector_input")
    for seed in range(30):
        program = source.sample(1, seed).data["program"]
        columns = {"x": list(range(256))}
        values = [tuple(run_program({**program, "steps": program["steps"][: i + 1]}, {"x": v}) for v in range(256))
                  for i in range(len(program["steps"]))]
        assert len(set(values)) == len(values) and tuple(columns["x"]) not in values


# --- loop_invariant ----------------------------------------------------------------------------


@pytest.mark.parametrize("level", range(5))
def test_loop_invariant_reference_is_proven_within_the_verifier_limits(level):
    """What generation does not do (it would cost 5-20 ms a problem): prove the known invariant."""
    source = make_source("verification/loop_invariant")
    for seed in range(12):
        problem = source.sample(level, seed)
        status, message = check_invariant(problem.data, problem.answer, timeout_ms=None)
        assert status == "proved", (level, seed, message)


def test_loop_invariant_accepts_other_invariants_and_spellings():
    source = make_source("verification/loop_invariant")
    problem = source.sample(1, 4)
    counter, bound = problem.data["init"][0][0], problem.data["variables"][0]
    gold = problem.answer
    stronger = f"{gold} && {bound} >= 0"  # another valid invariant: the precondition is kept anyway
    for spelling in (stronger, gold.replace("&&", "∧").replace("==", "="), f"```\n{gold}\n```",
                     "\n".join(f"invariant {c}" for c in gold.split(" && ")), f"Invariant: {gold}"):
        assert source.verify(problem, spelling).correct, spelling
    assert counter in gold


def test_loop_invariant_rejects_non_inductive_and_weak_invariants_with_reasons():
    source = make_source("verification/loop_invariant")
    problem = source.sample(0, 2)
    post = problem.data["post"]
    weak = source.verify(problem, problem.answer.split(" && ")[0])
    assert not weak.correct and "assertion" in weak.feedback
    not_inductive = source.verify(problem, post)  # the assertion itself does not hold before the loop
    assert not not_inductive.correct and ("before the loop" in not_inductive.feedback or "preserve" in not_inductive.feedback)
    unknown_name = source.verify(problem, "q == 1")
    assert not unknown_name.parsed and "unknown name" in unknown_name.feedback


def test_loop_invariant_formula_z3_cannot_settle_scores_zero_in_bounded_time():
    source = make_source("verification/loop_invariant")
    problem = source.sample(3, 5)
    conjuncts = problem.answer.split(" && ")
    variable, value = conjuncts[1].split(" == ")
    conjuncts[1] = f"{variable}*{variable}*{variable} == ({value})^3"  # still a valid invariant, over the integers
    start = time.process_time()
    verdict = source.verify(problem, " && ".join(conjuncts))
    assert time.process_time() - start < 1.5
    assert not verdict.correct and "could not settle" in verdict.feedback


@pytest.mark.parametrize("text", ["(" * 100 + "i" + ")" * 100, "9" * 20 + " > i", "i ** 9 > 0", "__import__('os')",
                                  "i <= n; import os", "i" + " + i" * 500, "i < n &&"])
def test_formula_reader_refuses_hostile_text(text):
    with pytest.raises(FormulaError):
        parse_formula(text, {"i", "n"})


def test_formula_reader_reads_usual_notations():
    names = {"i", "n", "s"}
    same = parse_formula("i <= n && s == 2*i", names)
    for text in ("i ≤ n ∧ s = 2i", "(i <= n) and (s == 2 * i)", "i<=n /\\ s==2*i"):
        assert parse_formula(text, names) == same
    assert parse_formula("0 <= i <= n", names) == parse_formula("0 <= i && i <= n", names)
    assert parse_formula("i < n implies s > 0 or not i == 1", names)[0] == "==>"


# --- smt_model ---------------------------------------------------------------------------------


def test_model_count_matches_brute_force():
    source = make_source("verification/smt_model")
    for seed in range(6):
        problem = source.sample(1, seed)
        names, top, constraints = problem.data["variables"], problem.data["top"], problem.data["constraints"]
        brute = sorted(values for values in itertools.product(range(top + 1), repeat=len(names))
                       if all(holds(c, dict(zip(names, values))) for c in constraints))
        counted = all_models(names, top.bit_length(), constraints)
        joined = sorted(zip(*(counted[n].tolist() for n in names)))
        assert joined == brute and 1 <= len(brute) <= source.config(1).max_models


def test_top_level_smt_problems_have_exactly_one_model():
    source = make_source("verification/smt_model")
    for seed in range(5):
        problem = source.sample(4, seed)
        names = problem.data["variables"]
        models = all_models(names, problem.data["top"].bit_length(), problem.data["constraints"])
        assert len(models[names[0]]) == 1
        assert ", ".join(f"{n} = {int(models[n][0])}" for n in names) == problem.answer


def test_smt_model_accepts_any_model_and_rejects_out_of_range():
    source = make_source("verification/smt_model")
    problem = next(p for p in (source.sample(0, s) for s in range(40))
                   if len(all_models(p.data["variables"], 4, p.data["constraints"])["a"]) > 1)
    names = problem.data["variables"]
    models = all_models(names, 4, problem.data["constraints"])
    for i in range(len(models["a"])):
        assert source.verify(problem, ", ".join(f"{n} = {int(models[n][i])}" for n in names)).correct
    values = dict(pair.split(" = ") for pair in problem.answer.split(", "))
    shifted = ", ".join(f"{n} = {int(v) + (16 if n == 'a' else 0)}" for n, v in values.items())
    assert "outside" in source.verify(problem, shifted).feedback


# --- program_equivalence -----------------------------------------------------------------------


@pytest.mark.parametrize("width", [8, 16, 32])
def test_every_rewrite_identity_holds_at_every_width(width):
    a, b = ["var", "a"], ["var", "b"]
    shapes = [[op, a, b] for op in ("+", "-", "*", "&", "|", "^")] + [["<<", a, ["const", 5]], ["-", a, ["const", 77]]]
    shapes += [["?", cmp, a, b, ["+", a, b], ["^", a, b]] for cmp in ("<", "<=", ">", ">=")]
    variables = {"a": z3.BitVec("a", width), "b": z3.BitVec("b", width)}
    for shape in shapes:
        for law in equivalence._laws(shape, width):
            solver = z3.Solver()
            solver.add(equivalence._z3_term(z3, shape, variables, width) != equivalence._z3_term(z3, law, variables, width))
            assert solver.check() == z3.unsat, (shape, law)


@pytest.mark.parametrize("cmp", ["<", "<=", ">", ">="])
def test_paired_rewrite_changes_the_meaning_only_at_the_pinned_value(cmp):
    rng = random.Random(7)
    width = 8
    select = ["?", cmp, ["var", "x"], ["const", 100], ["+", ["var", "x"], ["const", 3]], ["^", ["var", "x"], ["const", 90]]]
    for slip in (False, True):
        for _ in range(8):
            rewritten, pinned = equivalence._paired_rewrite(rng, select, width, slip=slip)
            differ = [v for v in range(256) if equivalence.evaluate(select, {"x": v}, width)
                      != equivalence.evaluate(rewritten, {"x": v}, width)]
            assert pinned == {"x": 100}
            assert differ == ([100] if slip else [])


@pytest.mark.parametrize("level", range(5))
def test_equivalence_labels_are_rare_and_no_surface_rule_predicts_them(level):
    # "equivalent" is the certificate-free side: a fifth of the pairs, so a constant scores about 0.20
    source = make_source("verification/program_equivalence")
    problems = [source.sample(level, 70_000 + seed) for seed in range(300)]
    labels = ["equivalent" if p.data["equivalent"] else "different" for p in problems]
    share = labels.count("equivalent") / len(labels)
    assert 0.12 <= share <= 0.28  # 0.20 drawn; 300 samples
    rows = [{**surface_features(p.prompt), **{f"env {k}": v for k, v in source.surface_features(p).items()}}
            for p in problems]
    name, accuracy = best_threshold_rule(rows, labels)
    assert accuracy <= max(share, 1 - share) + 0.10, (name, accuracy)


def test_equivalence_labels_agree_with_exhaustive_evaluation():
    source = make_source("verification/program_equivalence")
    for seed in range(20):
        problem = source.sample(0, seed)
        data = problem.data
        differ = [v for v in range(256) if equivalence.evaluate(data["first"], {"x": v}, 8)
                  != equivalence.evaluate(data["second"], {"x": v}, 8)]
        assert (not differ) == data["equivalent"]
        if differ:
            for v in differ:
                assert source.verify(problem, f"x = {v}").correct
                assert source.verify(problem, f"Not equivalent: x = {hex(v)}").correct
            agree = next(v for v in range(256) if v not in differ)
            assert not source.verify(problem, f"x = {agree}").correct
            assert not source.verify(problem, "equivalent").correct
            assert not source.verify(problem, "not equivalent").correct
        else:
            assert source.verify(problem, "They are equivalent.").correct
            assert not source.verify(problem, "x = 3").correct


# --- the optional z3 dependency ----------------------------------------------------------------


def test_env_modules_import_without_z3_and_name_the_extra():
    script = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'z3' or name.startswith('z3.'):\n"
        "            raise ImportError('blocked')\n"
        "sys.meta_path.insert(0, Block())\n"
        "import palaestra.envs.verification.bitvector_input, palaestra.envs.verification.loop_invariant\n"
        "import palaestra.envs.verification.program_equivalence, palaestra.envs.verification.smt_model\n"
        "from palaestra.envs.verification.common import require_z3\n"
        "try:\n"
        "    require_z3()\n"
        "except ImportError as exc:\n"
        "    print('extra named' if 'palaestra[verify]' in str(exc) else 'no extra')\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "extra named"
