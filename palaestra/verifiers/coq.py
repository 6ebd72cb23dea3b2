r"""Coq proofs written by a model: read the tactic script, check it with ``coqc`` in the sandbox.

The model writes only the proof script of a theorem the env states. :func:`read_script` reads it
(a code fence, a leading ``Proof.`` and a closing ``Qed.`` may surround it; the theorem may be
restated word for word) and refuses, before anything runs, whatever is not a plain tactic script:

- every sentence (``.`` then a space or the end; a run of periods, ``tac...``, ends one as in coqc, and is
  refused) must start, after bullets (``-``, ``+``, ``*``),
  braces and a goal selector (``2:``, ``all:``), with a tactic of :data:`TACTICS`; so no vernacular
  command can appear (``Qed``, ``Admitted``, ``Axiom``, ``Parameter``, ``Hypothesis``, ``Require``,
  ``Load``, ``Drop``, ``Declare``, ``Set``, a new ``Theorem``...), and a remark or retraction after
  the proof ("Just kidding.") is refused without a run;
- :data:`FORBIDDEN` words anywhere (``admit``, ``give_up``, ``native_compute``, the ``*_no_check``
  tactics) and any ``"`` (no strings: ``idtac "..."`` could print a forged verdict) are refused;
- comments ``(* ... *)`` (nested) are dropped; the script is bounded in size.

:func:`check` then writes ``main.v``: the env's preamble (definitions, ``Require``s of the standard
library), ``Theorem name : statement. Proof. <script> Qed.``, a marker definition whose name holds a
random token the script never sees, ``Print`` of it, ``Print Assumptions name`` and an empty module (which
coqc refuses while a proof is still open). The proof counts
only if ``coqc`` exits 0 and the output after the marker is exactly ``Closed under the global
context``: a proof closed with an axiom, or a theorem the script somehow redefined, fails. ``coqc``
runs in the sandbox (language ``coq``) under CPU, wall and memory limits, so a tactic loop or a huge
term is stopped; the file system layer keeps it to the standard library and its scratch directory.
Reports are cached by file text (spellings of one script run ``coqc`` once). An unavailable
sandbox or toolchain is an infrastructure error (``Verdict.failed``), never a wrong answer.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Collection
from dataclasses import dataclass

from palaestra.core import Verdict
from palaestra.verifiers.blocks import read_block

MAX_SCRIPT_CHARS = 8_000
MAX_SENTENCES = 400
CACHE_SIZE = 512
CPU_SECONDS = 10.0
WALL_SECONDS = 30.0
MEMORY_BYTES = 1536 * 2**20

TACTICS = frozenset("""
intro intros revert clear clearbody rename move generalize specialize pose set remember assert enough cut
exact eexact apply eapply rapply refine exists eexists split esplit left right eleft eright constructor econstructor
reflexivity symmetry transitivity etransitivity f_equal congruence discriminate injection inversion inversion_clear
subst rewrite erewrite setoid_rewrite replace change pattern unfold fold simpl cbn cbv lazy vm_compute compute red hnf
destruct edestruct induction einduction case case_eq elim elimtype exfalso contradiction contradict absurd
assumption eassumption trivial auto eauto easy now tauto intuition firstorder dtauto itauto lia nia lra ring
ring_simplify field field_simplify decide omega btauto nsatz psatz zify
try repeat do progress first solve once exactly_once idtac fail abstract unshelve shelve
dependent cofix fix
""".split())
FORBIDDEN = frozenset({"admit", "give_up", "Admitted", "native_compute", "exact_no_check", "vm_cast_no_check",
                       "native_cast_no_check", "change_no_check", "Abort", "Axiom", "Parameter", "Hypothesis",
                       "Drop", "Load", "Require", "Declare", "Redirect", "Extraction", "timeout", "Timeout"})
_BULLETS = "-+*{}"


@dataclass(frozen=True)
class CoqReport:
    ok: bool
    message: str = ""  # why the proof failed (coqc's error, mapped to the script's line)
    error: str | None = None  # the sandbox or toolchain failed: nothing is known about the proof

    def verdict(self) -> Verdict:
        if self.error is not None:
            return Verdict.failed(self.error)
        return Verdict.judge(self.ok, self.message)


def _without_comments(text: str) -> str | None:
    """``text`` with (nested) Coq comments removed; None when a comment is not closed."""
    out, depth, i = [], 0, 0
    while i < len(text):
        pair = text[i : i + 2]
        if pair == "(*":
            depth, i = depth + 1, i + 2
        elif pair == "*)" and depth:
            depth, i = depth - 1, i + 2
        else:
            if not depth:
                out.append(text[i])
            i += 1
    return None if depth else "".join(out)


def _sentences(script: str) -> list[str]:
    """The sentences of a script: each ends with a period followed by white space or the end, as coqc reads them:
    a run of periods (``tac...``, the ``Proof with`` ending) ends one too (round 3 session 29: this reader took
    ``idtac...`` and the command after it for one sentence, so ``Set Nested Proofs Allowed.`` and a ``Notation``
    passed unseen)."""
    sentences, start = [], 0
    for i, ch in enumerate(script):
        if ch == "." and (i + 1 == len(script) or script[i + 1].isspace()):
            sentences.append(script[start : i + 1].strip())
            start = i + 1
    rest = script[start:].strip()
    if rest:
        sentences.append(rest)  # no final period: coqc reports it
    return sentences


def _words(text: str) -> list[str]:
    words, current = [], []
    for ch in text:
        if ch.isalnum() or ch in "_'":
            current.append(ch)
        elif current:
            words.append("".join(current))
            current = []
    if current:
        words.append("".join(current))
    return words


def _first_tactic(sentence: str) -> str | None:
    """The first word of a sentence after bullets, braces and a goal selector."""
    text = sentence.lstrip()
    while text and text[0] in _BULLETS:
        text = text[1:].lstrip()
    if not text:
        return ""  # a lone bullet or brace (its period-free form never gets here)
    head, colon, rest = text.partition(":")
    if colon and head.strip() and (head.strip().isdigit() or head.strip() in ("all", "par")
                                   or (head.strip()[0] == "[" and head.strip()[-1] == "]")):
        text = rest.lstrip()
        while text and text[0] in _BULLETS:
            text = text[1:].lstrip()
        if not text:
            return ""
    words = _words(text)
    if not words or not text[0].isalpha():
        return None
    return words[0]


def read_script(answer: str, statement: str = "", forbidden: Collection[str] = ()) -> str:
    """The tactic script of an answer, or why it is refused, prefixed by ``refused:``. ``forbidden`` adds
    words (tactics such as ``tauto`` that would do the env's whole task) to :data:`FORBIDDEN`."""
    if not isinstance(answer, str) or len(answer) > MAX_SCRIPT_CHARS:
        return "refused: the proof is missing or too long"
    block = read_block(answer, leading="strip")
    if block is None:
        return "refused: expected a Coq proof script"
    text = _without_comments("\n".join(block))
    if text is None:
        return "refused: a comment is not closed"
    if '"' in text:
        return "refused: strings are not allowed in the proof"
    text = text.strip()
    if statement:  # the theorem restated word for word
        for keyword in ("Theorem", "Lemma"):
            if text.startswith(keyword):
                head, dot, rest = text.partition(".\n") if ".\n" in text else text.partition(". ")
                if " ".join(head.split()[2:]).removeprefix(": ").strip() == " ".join(statement.split()):
                    text = rest.strip()
    if text.startswith("Proof."):
        text = text[len("Proof."):].strip()
    for ending in ("Qed.", "Defined."):
        if text.endswith(ending):
            text = text[: -len(ending)].rstrip()
    sentences = _sentences(text)
    if not sentences:
        return "refused: the proof script is empty"
    if len(sentences) > MAX_SENTENCES:
        return "refused: too many sentences"
    for sentence in sentences:
        if sentence.endswith(".."):  # the Proof-with ending: no env states a with-tactic, so it is never needed
            return f"refused: {sentence[-60:]!r} ends with periods (...); end each tactic with one period"
        banned = next((w for w in _words(sentence) if w in FORBIDDEN or w in forbidden), None)
        if banned:
            return f"refused: {banned} is not allowed in the proof"
        first = _first_tactic(sentence)
        if first is None or (first and first not in TACTICS):
            return f"refused: {sentence[:60]!r} does not start with a tactic"
    return "\n".join(sentences)


_cache: OrderedDict[str, CoqReport] = OrderedDict()
_lock = threading.Lock()
_MARKER = f"palaestra_marker_{secrets.token_hex(8)}"


def theorem_file(preamble: str, name: str, statement: str, script: str) -> tuple[str, int]:
    """The text of ``main.v`` and the line on which the script starts."""
    head = f"{preamble.rstrip()}\n\nTheorem {name} : {statement}.\nProof.\n"
    # The closing module fails ("Open proofs remain") while any proof is open: a script that left the theorem open
    # behind a nested lemma closed by this Qed cannot end with exit 0, whatever the reader missed.
    tail = (f"\nQed.\nDefinition {_MARKER} := 0.\nPrint {_MARKER}.\nPrint Assumptions {name}.\n"
            f"Module {_MARKER}_end.\nEnd {_MARKER}_end.\n")
    return head + script + tail, head.count("\n") + 1


def check(preamble: str, name: str, statement: str, script: str) -> CoqReport:
    """Whether ``script`` proves ``Theorem name : statement`` after ``preamble``, by coqc in the sandbox."""
    source, first_line = theorem_file(preamble, name, statement, script)
    with _lock:
        if source in _cache:
            _cache.move_to_end(source)
            return _cache[source]
    report = _run(source, first_line, script.count("\n") + 1)
    if report.error is None:
        with _lock:
            _cache[source] = report
            while len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)
    return report


def _run(source: str, first_line: int, script_lines: int) -> CoqReport:
    from palaestra import sandbox
    from palaestra.sandbox import Limits

    limits = Limits(wall_seconds=WALL_SECONDS, cpu_seconds=CPU_SECONDS, memory_bytes=MEMORY_BYTES)
    try:
        result = sandbox.run(source, language="coq", limits=limits)
    except Exception as exc:  # unavailable sandbox or toolchain: not the proof's fault
        return CoqReport(False, error=f"{type(exc).__name__}: {str(exc)[:300]}")
    if result.error is not None:
        return CoqReport(False, error=result.error[:300])
    if result.timed_out:
        return CoqReport(False, f"coqc ran out of time ({CPU_SECONDS:g} s of CPU)")
    if result.memory_exceeded:
        return CoqReport(False, "coqc ran out of memory")
    if result.exit_code != 0:
        return CoqReport(False, _first_error(result.stderr, first_line, script_lines))
    _, marker, after = result.stdout.partition(f"{_MARKER} = 0")
    verdict = after.split("\n", 2)[-1].strip() if marker else ""
    if verdict != "Closed under the global context":
        return CoqReport(False, "the proof is not closed: it depends on " + (verdict.replace("\n", " ")[:200] or "?"))
    return CoqReport(True)


def _first_error(stderr: str, first_line: int, script_lines: int) -> str:
    """coqc's first error (warnings skipped), its line counted within the script."""
    lines = stderr.splitlines()
    headers = [i for i, line in enumerate(lines) if line.startswith('File "./main.v", line ')]
    for k, i in enumerate(headers):
        end = headers[k + 1] if k + 1 < len(headers) else len(lines)
        body = " ".join(part.strip() for part in lines[i + 1 : end] if part.strip())
        if not body.startswith("Error"):
            continue  # a warning
        number = lines[i].split("line ", 1)[1].split(",", 1)[0]
        where = int(number) - first_line + 1 if number.isdigit() else 0
        place = f"line {where} of the proof" if 1 <= where <= script_lines else "at Qed (goals left)"
        return f"{place}: {body[:400]}"
    return "coqc failed: " + " ".join(stderr.split())[:300]
