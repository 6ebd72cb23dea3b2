"""Round 3 session 29 red team of the proofs family.

1. coqc ends a sentence at ``...`` followed by white space (the ``Proof with`` ending); the shared reader
   :func:`palaestra.verifiers.coq.read_script` does not, so a vernacular command could follow ``idtac...`` unseen.
   ``idtac...`` / ``Set Nested Proofs Allowed.`` / ``Notation NAME := I.`` / a nested ``Lemma aux : True.`` closed by
   the file's own ``Qed.`` made ``Print Assumptions NAME`` read the notation ("Closed under the global context") and
   coqc exit 0 with the real theorem left open: one constant script earned 1.0 in all seven ``coq_*`` envs (levels 0
   and 4, checked with coqc 8.16.1). The shared reader (:mod:`palaestra.verifiers.coq`) now ends a sentence at a
   run of periods, as coqc does, and refuses one so ended before coqc runs; the file it writes ends with an empty
   module, which coqc refuses while a proof is still open.
2. ``proofs/fitch_repair`` kept a turn's closing ``∎`` among the accepted lines; once the next turn's lines followed
   it, the accepted lines no longer read and the turn after that ended the episode with "play raised".
"""

import pytest

import palaestra
from palaestra.verifiers.coq import read_script as read_proof_script

HIDDEN_COMMANDS = ("idtac...\nSet Nested Proofs Allowed.\nidtac...\nNotation {name} := I.\nidtac...\n"
                   "Lemma palaestra_aux : True.\nexact I.")

STATEMENT_ENVS = {  # env -> the theorem's name
    "proofs/coq_closed_form": "closed_form",
    "proofs/coq_inequality_threshold": "bound",
    "proofs/coq_list_sum": "g_sum",
    "proofs/coq_program_correctness": "run_correct",
    "proofs/coq_recursive_functions": None,  # the name in the reference's statement
}


def _task(env_id):
    return palaestra.make(env_id, level=0).unwrapped.task


def _refused_for_periods(verdict):
    return verdict.reward == 0 and not verdict.parsed and "periods" in (verdict.feedback or "")


def test_coq_tautology_refuses_commands_hidden_after_three_periods():
    task = _task("proofs/coq_tautology")
    for level in (0, 4):
        problem = task.sample(level, 1)
        assert _refused_for_periods(task.verify(problem, HIDDEN_COMMANDS.format(name="taut")))


@pytest.mark.parametrize("env_id", sorted(STATEMENT_ENVS))
def test_coq_statement_envs_refuse_commands_hidden_after_three_periods(env_id):
    task = _task(env_id)
    problem = task.sample(4, 1)
    head = problem.answer.split("\nProof.", 1)[0]  # the right statement: only the proof is forged
    name = STATEMENT_ENVS[env_id] or head.split()[1]
    assert _refused_for_periods(task.verify(problem, f"{head}\nProof.\n{HIDDEN_COMMANDS.format(name=name)}\nQed."))


def test_coq_proof_repair_refuses_commands_hidden_after_three_periods():
    task = _task("proofs/coq_proof_repair")
    problem = task.sample(0, 1)
    outcome = task.play(problem, task.initial_state(problem), HIDDEN_COMMANDS.format(name="taut"))
    assert outcome.verdict.reward == 0 and not outcome.verdict.parsed and "periods" in outcome.observation


def test_the_period_runs_refused_are_only_sentence_ends():
    assert read_proof_script("intros H.\nexact H.") == "intros H.\nexact H."
    assert read_proof_script("rewrite Nat.add_comm.\nreflexivity.").startswith("rewrite")  # a qualified name
    for script in ("exact I...", "idtac..\nexact I.", "idtac....\nexact I.", "split...\n- exact I."):
        assert read_proof_script(script).startswith("refused:"), script


def test_fitch_repair_reads_on_past_an_end_of_proof_mark_sent_mid_proof():
    task = _task("proofs/fitch_repair")
    problem = task.sample(0, 1)
    reference = problem.answer.splitlines()
    done = len(problem.data["premises"])
    assert len(reference) - done >= 3
    state = task.initial_state(problem)
    outcome = task.play(problem, state, f"{reference[done]}\n∎")
    assert outcome.verdict.parsed and not outcome.done
    outcome = task.play(problem, outcome.state, reference[done + 1])
    assert outcome.verdict.parsed and not outcome.done
    outcome = task.play(problem, outcome.state, "\n".join(reference[done + 2 :]))
    assert outcome.done and outcome.verdict.reward == 1.0, outcome.observation
