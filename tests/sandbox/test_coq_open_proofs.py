"""A Coq script that leaves the theorem open behind a nested lemma must not pass, whatever the script reader misses.

Round 3 session 29: the reader took ``idtac...`` and the command after it for one sentence (coqc ends a sentence at
a run of periods), so ``Set Nested Proofs Allowed.``, a ``Notation`` shadowing the theorem's name and a nested
``Lemma`` closed by the file's own ``Qed.`` passed; ``Print Assumptions`` then read the notation ("Closed under the
global context") and coqc exited 0 with the theorem unproved. The reader now sees those sentences (tested in
``tests/envs/test_redteam_r29_proofs.py``); here the checked file itself is shown to fail such a script, the reader
bypassed: it ends with an empty module, which coqc refuses while a proof is open."""

from __future__ import annotations

import pytest
from sandbox_support import require_language

from palaestra.sandbox import LocalBackend
from palaestra.verifiers import coq

STATEMENT = "forall P : Prop, P -> P"
LEFT_OPEN = ("idtac...\nSet Nested Proofs Allowed.\nidtac...\nNotation taut := I.\nidtac...\n"
             "Lemma palaestra_aux : True.\nexact I.")


@pytest.fixture(scope="module")
def coq_backend(backend: LocalBackend) -> LocalBackend:
    require_language(backend, "coq")
    return backend


def _checked(script: str) -> coq.CoqReport:
    # coq.check judges on the default sandbox at the verifiers' minimum tier, which an unprivileged host may not give
    report = coq.check("", "taut", STATEMENT, script)
    if report.error is not None and "SandboxUnavailable" in report.error:
        pytest.skip(f"the verifiers' sandbox is unavailable on this host: {report.error}")
    return report


def test_the_reader_now_refuses_the_script() -> None:
    assert coq.read_script(LEFT_OPEN).startswith("refused:")


def test_a_theorem_left_open_behind_a_nested_lemma_fails_in_coqc(coq_backend: LocalBackend) -> None:
    report = _checked(LEFT_OPEN)  # as if the reader had let it through
    assert report.error is None and not report.ok, report


def test_a_real_proof_still_passes_with_the_closing_module(coq_backend: LocalBackend) -> None:
    report = _checked("intros P H.\nexact H.")
    assert report.error is None and report.ok, report
