"""Coq in the sandbox: coqc checks main.v confined to the standard library and its scratch directory,
under CPU limits; the proof verifier refuses scripts that are not plain tactics and proofs that use axioms.

Each test skips, naming the missing tool, where coqc is not installed (``.ci/setup_toolchains.sh``
installs it)."""

from __future__ import annotations

import os
import stat
import tempfile

import pytest
from sandbox_support import require_language

from palaestra.sandbox import LocalBackend
from palaestra.sandbox.local import languages
from palaestra.verifiers import coq

LIMITS_CPU = 3.0
SWAP = "forall P Q : Prop, P /\\ Q -> Q /\\ P"


@pytest.fixture(scope="module")
def coq_backend(backend: LocalBackend) -> LocalBackend:
    require_language(backend, "coq")
    return backend


def _run(backend: LocalBackend, source: str):  # type: ignore[no-untyped-def]
    from palaestra.sandbox import Limits

    return backend.run(source, language="coq",
                       limits=Limits(wall_seconds=60, cpu_seconds=LIMITS_CPU, memory_bytes=coq.MEMORY_BYTES))


def test_discovery_names_coqc(monkeypatch: pytest.MonkeyPatch, tmp_path: os.PathLike) -> None:
    assert languages.canonical("coqc") == "coq"
    monkeypatch.setattr(languages, "SEARCH", (str(tmp_path),))
    chain = languages.discover("coq")
    assert not chain["available"] and "coqc is not installed" in chain["reason"]


def test_a_closed_proof_checks(coq_backend: LocalBackend) -> None:
    result = _run(coq_backend, f"Theorem t : {SWAP}.\nProof. intros P Q [HP HQ]. split; assumption. Qed.\n"
                               "Print Assumptions t.\n")
    assert result.exit_code == 0 and "Closed under the global context" in result.stdout, result


def test_files_outside_the_standard_library_are_unreachable(coq_backend: LocalBackend) -> None:
    with tempfile.TemporaryDirectory() as directory:  # world-readable on the host, outside the jail's allow-list
        os.chmod(directory, 0o755)
        path = os.path.join(directory, "secret.v")
        with open(path, "w") as f:
            f.write("Definition secret := 42.\n")
        os.chmod(path, stat.S_IRUSR | stat.S_IWUSR | stat.S_IRGRP | stat.S_IROTH)
        result = _run(coq_backend, f'Load "{path}".\nPrint secret.\n')
    assert result.exit_code != 0 and "secret = 42" not in result.stdout
    result = _run(coq_backend, 'Redirect "/tmp/palaestra_coq_redirect" Print nat.\n')
    assert result.exit_code != 0 and not os.path.exists("/tmp/palaestra_coq_redirect.out")
    # native_compute would exec the OCaml compiler: nothing but coqc may be executed
    result = _run(coq_backend, "Goal True. native_compute. exact I. Qed.\n")
    assert result.exit_code != 0


def test_a_tactic_loop_is_stopped_by_the_cpu_limit(coq_backend: LocalBackend) -> None:
    result = _run(coq_backend, "Goal True. repeat (assert True by exact I). exact I. Qed.\n")
    assert result.timed_out and result.cpu_seconds < LIMITS_CPU + 2


@pytest.mark.parametrize("script", [
    "admit.", "Admitted.", "intros. Qed. Axiom cheat : False.", "Abort.", "exact I. Qed.\nParameter p : False.",
    "intros. give_up.", "Require Import Coq.Logic.Classical.", 'Load "/etc/passwd".', "Drop.",
    "intros P Q H. Hypothesis h : Q /\\ P. exact h.", 'idtac "Closed under the global context".',
    "(* an unclosed comment", "intros.\nJust kidding, I do not know.", "native_compute. exact I.",
    "intros. exact_no_check I.", "Local Ltac t := idtac. t.",
])
def test_scripts_that_are_not_plain_tactics_are_refused_before_running(script: str) -> None:
    assert coq.read_script(script).startswith("refused:")


def test_proof_spellings_are_read() -> None:
    expected = "intros P Q [HP HQ].\nsplit; assumption."
    for text in (expected, f"Proof.\n{expected}\nQed.", f"```coq\n{expected}\n```", f"Theorem t : {SWAP}.\nProof.\n"
                 f"{expected}\nQed.", "intros P Q [HP HQ]. (* take both *)\nsplit; assumption."):
        assert coq.read_script(text, SWAP) == expected, text
    assert coq.read_script("- split.\n+ exact I.\n2: { auto. }", "") == "- split.\n+ exact I.\n2: { auto.\n}"


def test_axioms_in_the_context_are_caught_by_print_assumptions(coq_backend: LocalBackend) -> None:
    # coq.check judges on the default sandbox at the verifiers' minimum tier, which may be higher than
    # what this host gives the fixture's backend (an unprivileged user): then it cannot judge here
    closed = coq.check("", "t", SWAP, "intros P Q [HP HQ].\nsplit; assumption.")
    if closed.error is not None and "SandboxUnavailable" in closed.error:
        pytest.skip(f"the verifiers' sandbox is unavailable on this host: {closed.error}")
    assert closed.ok, closed
    report = coq.check("Axiom cheat : forall P : Prop, P.", "t", "1 = 2", "apply cheat.")
    assert not report.ok and "not closed" in report.message and "cheat" in report.message
    report = coq.check("", "t", SWAP, "intros P Q [HP HQ].\nsplit; exact HP.")
    assert not report.ok and report.message.startswith("line 2 of the proof")
