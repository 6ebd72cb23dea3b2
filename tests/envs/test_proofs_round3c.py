"""Round 3c of the proofs family: hand-checked instances, wrong answers refused with a useful message, spellings."""

from __future__ import annotations

import dataclasses

import pytest

from palaestra.core.registry import make_source


def _require_coq() -> None:
    from palaestra import sandbox

    chain = sandbox.probe().languages.get("coq")
    if chain is None or not chain.available:
        pytest.skip(f"coq toolchain missing: {getattr(chain, 'reason', 'not probed')} (.ci/setup_toolchains.sh)")


def test_inequality_threshold_least_k_and_proof() -> None:
    from palaestra.envs.proofs.coq_inequality_threshold import _shifted, least_threshold

    # n * n >= 5 * n + 6 from n = 6 on (6 * 6 = 36 = 30 + 6), not at n = 5
    assert least_threshold([-6, -5, 1]) == 6
    assert _shifted([-6, -5, 1], 6) == [0, 7, 1]  # (m + 6)^2 - 5 (m + 6) - 6 = m^2 + 7 m
    env = make_source("proofs/coq_inequality_threshold")
    problem = dataclasses.replace(env.sample(1, 0), data={"low": [6, 5], "high": [0, 0, 1], "threshold": 6})
    head = "Theorem bound : forall n : nat, {k} <= n -> 5 * n + 6 <= n * n.\nProof.\nintros n H. nia.\nQed."
    small = env.verify(problem, head.format(k=5))
    assert not small.correct and "at n = 5" in small.feedback  # refused before any coqc run
    large = env.verify(problem, head.format(k=7))
    assert not large.correct and "not the least" in large.feedback
    other = env.verify(problem, head.format(k=6).replace("5 * n + 6 <=", "5 * n + 7 <="))
    assert not other.parsed and "must read" in other.feedback
    _require_coq()
    assert env.verify(problem, head.format(k=6)).correct
    assert env.verify(problem, "```coq\n" + head.format(k=6).replace("forall n : nat,", "forall n,") + "\n```").correct
    broken = env.verify(problem, head.format(k=6).replace("nia.", "lia."))
    assert not broken.correct and broken.parsed and "line" in broken.feedback


def _chain_problem(env_id: str, letters: str, left: str, right: str):  # type: ignore[no-untyped-def]
    env = make_source(env_id)
    return env, dataclasses.replace(env.sample(0, 0), data={"letters": letters, "left": left, "right": right,
                                                             "steps": 2})


def test_lattice_idempotence_from_absorption() -> None:
    env, problem = _chain_problem("proofs/lattice_identities", "ab", "a ∧ a", "a")
    # idempotence is no axiom: a ∧ a = a ∧ (a ∨ (a ∧ b)) = a (L6 backwards inside, then L5)
    assert env.verify(problem, "a ∧ a\n= a ∧ (a ∨ (a ∧ b))\n= a").correct
    assert env.verify(problem, "a /\\ a = a /\\ (a \\/ (a /\\ b)) = a.").correct
    skipped = env.verify(problem, "a ∧ a\n= a")
    assert not skipped.correct and "step 1" in skipped.feedback
    assert not env.verify(problem, "a ∧ a ∧ a = a").parsed  # brackets below the top are required


def test_ring_chain_checked_step_by_step() -> None:
    from palaestra.envs.proofs._rewriting import one_step
    from palaestra.envs.proofs.ring_identities import RING

    def term(text: str):  # type: ignore[no-untyped-def]
        parsed = RING.parse(text, "abc")
        assert parsed is not None, text
        return parsed

    assert one_step(term("a * (b + c)"), term("(a * b) + (a * c)"), RING.axioms) == "R8"
    assert one_step(term("(b + 0) * c"), term("b * c"), RING.axioms) == "R3"  # inside, left to right
    assert one_step(term("0"), term("c + -c"), RING.axioms) == "R4"  # right to left
    assert one_step(term("a * b"), term("a + b"), RING.axioms) is None
    assert RING.parse("a - b", "ab") is None  # no binary minus
    env, problem = _chain_problem("proofs/ring_identities", "ab", "(a + 0) * b", "b * a")
    assert env.verify(problem, "(a + 0) * b = a * b = b * a").correct
    assert env.verify(problem, "(a + 0) · b\n= a · b\n= b · a").correct
    wrong = env.verify(problem, "(a + 0) * b\n= b * (a * 1)\n= b * a")
    assert not wrong.correct and "step 1" in wrong.feedback


def test_program_correctness_precheck_and_invariant_proof() -> None:
    from palaestra.envs.proofs._coq_statement import evaluate
    from palaestra.envs.proofs.coq_program_correctness import run_value, spec_value

    horner = {"kind": "horner", "a": 1, "b": 0, "k": 1, "c": 10, "start": 7}
    assert run_value(horner, [4, 2]) == 742 and spec_value(horner, [4, 2]) == 42  # digits read in base 10
    assert evaluate("7 * 10 ^ length l + spec l", {"spec l": 42, "length l": 2}) == 742
    assert evaluate("max 3 (spec l)", {"spec l": 2, "length l": 0}) == 3
    for bad in ("run l", "spec l - 1", "2 ^ 2 ^ 2", "7 * 10 ^ 99"):
        assert evaluate(bad, {"spec l": 1, "length l": 1}) is None, bad
    env = make_source("proofs/coq_program_correctness")
    problem = env.sample(0, 5)
    loop = problem.data["loop"]
    assert loop["kind"] == "sum"
    wrong = env.verify(problem, "Theorem run_correct : forall l : list nat, run l = spec l.\nProof.\nQed.")
    assert not wrong.correct and "for l = []" in wrong.feedback  # the start value is missed: no coqc run
    _require_coq()
    start = loop["start"]
    naive = (f"Lemma run_correct : forall l, run l = {start} + spec l.\nProof.\n"
             "induction l as [|x t IH]; unfold run in *; simpl; lia.\nQed.")
    broken = env.verify(problem, naive)  # induction without generalising the accumulator fails
    assert not broken.correct and broken.parsed
    assert env.verify(problem, problem.answer.replace(f"= {start} + spec l.", f"= spec l + {start}.").replace(
        "reflexivity.", "lia.")).correct


def test_recursive_functions_split_law() -> None:
    from palaestra.envs.proofs.coq_recursive_functions import f_list, f_nat

    square = {"kind": "nat", "p2": 1, "p1": 0, "p0": 0}  # f n = 1 + 4 + ... + n * n
    assert f_nat(square, 3) == 14 and f_nat(square, 5) == f_nat(square, 3) + f_nat(square, 2) + 9 * 2 + 3 * 4 + 6
    weighted = {"kind": "list", "a": 1, "b": 0, "c": 1, "d": 0}  # f l = sum l + pairs of positions
    assert f_list(weighted, [5, 6, 7]) == 18 + 3
    env = make_source("proofs/coq_recursive_functions")
    problem = dataclasses.replace(env.sample(0, 0), data={"f": {"kind": "nat", "p2": 0, "p1": 2, "p0": 5},
        "definition": "Fixpoint f (n : nat) : nat :=\n  match n with\n  | 0 => 0\n  | S k => f k + (2 * n + 5)\n  end."})
    # f n = n * n + 6 * n: the constant 5 cancels, the cross term is 2 * n * m
    trap = env.verify(problem, "Theorem f_split : forall n m : nat, f (n + m) = f n + f m + 2 * n * m + 5.\nProof.\nQed.")
    assert not trap.correct and "n = 0, m = 0" in trap.feedback  # refused before any coqc run
    _require_coq()
    law = "Lemma f_split : forall n m, f (n + m) = f n + f m + 2 * n * m.\nProof.\nintros n m. induction n; simpl; {}.\nQed."
    assert env.verify(problem, law.format("[ring | rewrite IHn; ring]")).correct
    broken = env.verify(problem, law.replace("induction n; simpl; {}", "simpl; ring"))  # no induction: ring is stuck
    assert not broken.correct and broken.parsed


def test_proof_repair_faults_and_episode() -> None:
    from palaestra.envs.proofs._coq_logic import AUTOMATION
    from palaestra.envs.proofs.coq_proof_repair import _with_line_text

    env = make_source("proofs/coq_proof_repair")
    problem = env.sample(2, 0)
    assert problem.data["broken"] != problem.answer and len(problem.data["faults"]) == 2
    assert problem.data["broken"] in problem.prompt and problem.answer not in problem.prompt
    assert "tauto" in AUTOMATION
    assert _with_line_text("line 2 of the proof: Error: No such goal.", "split.\nexact H1.") == \
        "line 2 of the proof (exact H1.): Error: No such goal."
    state = env.initial_state(problem)
    refused = env.play(problem, state, "intros. tauto.")
    assert not refused.verdict.parsed and refused.state == state and not refused.done  # not counted as an attempt
    _require_coq()
    rejected = env.play(problem, state, problem.data["broken"])
    assert not rejected.verdict.correct and rejected.verdict.parsed and not rejected.done
    assert rejected.state == {"rejected": 1} and "coqc rejected the proof: line" in rejected.observation
    closed = env.play(problem, rejected.state, problem.answer)
    assert closed.done and closed.verdict.reward == 0.5  # one rejected attempt halves the reward


def test_sequent_calculus_hand_checked_proof() -> None:
    env = make_source("proofs/sequent_calculus")
    problem = dataclasses.replace(env.sample(0, 0), data={"atoms": ["p", "q"], "left": ["p ∧ q"], "right": ["q ∧ p"],
                                                          "steps": 4})
    proof = ("1. p, q ⊢ q    Ax\n2. p, q ⊢ p    Ax\n3. p, q ⊢ q ∧ p    ∧R 1, 2\n4. p ∧ q ⊢ q ∧ p    ∧L 3")
    assert env.verify(problem, proof).correct
    ascii_proof = "1) q, p |- q   Ax\n2) p, q |- p   id\n3) q, p |- q & p   andR 2, 1\n4) p & q |- q & p   &L 3"
    assert env.verify(problem, ascii_proof).correct  # other order of premises and formulas, ASCII rule names
    wrong_rule = env.verify(problem, proof.replace("∧L 3", "∨L 3"))
    assert not wrong_rule.correct and "line 4" in wrong_rule.feedback
    not_axiom = env.verify(problem, proof.replace("1. p, q ⊢ q    Ax", "1. p ⊢ q    Ax"))
    assert not not_axiom.correct and "line 1" in not_axiom.feedback
    assert not env.verify(problem, proof.rsplit("\n", 1)[0]).correct  # stops before the goal


def test_hilbert_identity_proof_and_bad_lines() -> None:
    env = make_source("proofs/hilbert_system")
    problem = dataclasses.replace(env.sample(0, 0), data={"atoms": list("pqrst"), "theorem": "p → p", "steps": 5})
    # the textbook proof of p → p: S K K
    proof = ("1. (p → ((p → p) → p)) → ((p → (p → p)) → (p → p))    A2\n2. p → ((p → p) → p)    A1\n"
             "3. (p → (p → p)) → (p → p)    MP 2, 1\n4. p → (p → p)    A1\n5. p → p    MP 4, 3")
    assert env.verify(problem, proof).correct
    assert env.verify(problem, proof.replace("→", "->").replace("A1", "K").replace("A2", "S")).correct
    assert env.verify(problem, proof.replace("MP 2, 1", "MP 1, 2")).correct  # either order of the two cited lines
    not_axiom = env.verify(problem, proof.replace("4. p → (p → p)    A1", "4. p → (p → p)    A2"))
    assert not not_axiom.correct and "line 4" in not_axiom.feedback
    bad_mp = env.verify(problem, proof.replace("MP 4, 3", "MP 2, 3"))
    assert not bad_mp.correct and "line 5" in bad_mp.feedback
    assert not env.verify(problem, "1. p → p    A1").correct


def test_inequality_threshold_feedback_does_not_give_k_away() -> None:
    env = make_source("proofs/coq_inequality_threshold")
    # n * n + 16 >= 10 * n fails exactly for n = 3..7: the least K is 8
    problem = dataclasses.replace(env.sample(1, 0), data={"low": [0, 10], "high": [16, 0, 1], "threshold": 8})
    verdict = env.verify(problem, "Theorem bound : forall n : nat, 1 <= n -> 10 * n <= n * n + 16.\nProof.\nQed.")
    assert not verdict.correct and "at n = 3 " in verdict.feedback  # the first failure, not n = 7
