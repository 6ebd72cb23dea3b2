"""A proof may end with a line that only marks its end (``∎``, ``QED``), as careful graders read proofs; anything
else after the proof still leaves it unread (round 3's red team: hilbert_system and natural_deduction refused it)."""

import pytest

import palaestra

PROOF_ENVS = [
    "proofs/natural_deduction",
    "proofs/hilbert_system",
    "proofs/sequent_calculus",
    "proofs/resolution",
    "proofs/ring_identities",
    "proofs/lattice_identities",
    "proofs/equational",
]


@pytest.mark.parametrize("env_id", PROOF_ENVS)
def test_an_end_of_proof_line_is_read_past_and_a_remark_is_not(env_id):
    task = palaestra.make(env_id, level=1).unwrapped.task
    for seed in range(3):
        problem = task.sample(1, seed)
        assert task.verify(problem, problem.answer).correct
        for mark in ("∎", "QED", "**Q.E.D.**", "□"):
            assert task.verify(problem, f"{problem.answer}\n{mark}").correct, (seed, mark)
        for remark in ("QED, I think", "∎ Just kidding, I do not know.", "Not QED"):
            assert not task.verify(problem, f"{problem.answer}\n{remark}").correct, (seed, remark)
