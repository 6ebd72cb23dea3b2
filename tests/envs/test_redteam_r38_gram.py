"""Red team, round 38 (grammar): right answers that a careful grader accepts were refused by the shared readers.

- ``palaestra.verifiers.assignments`` (``read_assignment``/``read_values``, every env giving names values, e.g.
  puzzles/cryptarithm): keys quoted as JSON or Python write them (``{"B": 7, "M": 5}``) were unread; now read, a
  repeated key or a hedged value still unread.
- puzzles/cryptarithm: the answer followed by its check (``(267 + 256 = 523)``, ``Check: 267 + 256 = 523``) was
  refused; now accepted only when the check is the puzzle's addition in the answer's digits (any other sum after
  the answer leaves it unread). Before -> after on 30 seeds a level, levels 0-4: both spellings 0/150 -> 150/150.
- ``palaestra.verifiers.numeric`` naming sentence: a quantity's symbol or acronym (``The pH is 3.87``, ``The NPV is
  1206.40``, ``The IRR is 12.5%``) made no noun phrase; a short list of them now does (objects such as C4, H2O and
  NaCl stay left to the env; hedges, negations and second quantities stay unread). economics/npv_irr, 30 seeds a
  level, levels 0-4: "The NPV is <answer>" 0/88 -> 88/88, "The IRR is <answer>" 0/20 -> 20/20, with "or 0" 0 -> 0.
- chemistry/equilibrium_ice: its one-value question (find K) refused ``The equilibrium constant is 12/7``; now read
  as a naming sentence: 0/42 -> 42/42 find-K problems of 30 seeds a level, levels 0-4 (hedged: 0 -> 0).
"""

from __future__ import annotations

import pytest

from palaestra.core.registry import make_source
from palaestra.verifiers.assignments import read_assignment, read_values
from palaestra.verifiers.numeric import read_exact, read_integer


def _equation(problem) -> str:
    digits = dict(pair.split(" = ") for pair in problem.answer.split(", "))
    numbers = ["".join(digits[ch] for ch in word) for word in [*problem.data["words"], problem.data["total"]]]
    return " + ".join(numbers[:-1]) + " = " + numbers[-1]


def test_quoted_keys_are_read() -> None:
    assert read_assignment('{"x": 1, "y": 2}', ["x", "y"]) == {"x": 1, "y": 2}
    assert read_values("{'B': 7, 'M': 5}", ["B", "M"], read_integer) == {"B": 7, "M": 5}
    assert read_assignment('{"x": 1, "y": 2, "x": 3}', ["x", "y"]) is None
    assert read_assignment('{"x": 1, "y": 2 or 3}', ["x", "y"]) is None
    assert read_assignment('{"x\': 1, "y": 2}', ["x", "y"]) is None  # quotes that do not pair


@pytest.mark.parametrize("level", range(5))
def test_cryptarithm_check_line_and_json(level: int) -> None:
    src = make_source("puzzles/cryptarithm")
    for seed in range(6):
        p = src.sample(level, seed)
        pairs = [pair.split(" = ") for pair in p.answer.split(", ")]
        equation = _equation(p)
        assert src.verify(p, p.answer).reward == 1.0
        assert src.verify(p, "{" + ", ".join(f'"{a}": {b}' for a, b in pairs) + "}").reward == 1.0
        assert src.verify(p, f"{p.answer}\n({equation})").reward == 1.0
        assert src.verify(p, f"{p.answer}\n\nCheck: {equation}").reward == 1.0
        assert src.verify(p, f"{p.answer} ({equation}).").reward == 1.0
        assert src.verify(p, f"{p.answer}\nVerification: {equation}").reward == 1.0
        # anything else after the answer is no check: another sum, a hedge, a bare check
        assert src.verify(p, f"{p.answer}\nCheck: 1 + 1 = 2").reward == 0.0
        assert src.verify(p, f"{p.answer}\n({equation.replace('=', '+ 0 =')})").reward == 0.0
        assert src.verify(p, f"{p.answer} (or {pairs[0][0]} = {(int(pairs[0][1]) + 1) % 10})\n({equation})").reward == 0.0
        assert src.verify(p, f"Check: {equation}").reward == 0.0
        swapped = [pair[:] for pair in pairs]
        swapped[0][1], swapped[1][1] = swapped[1][1], swapped[0][1]
        wrong = ", ".join(f"{a} = {b}" for a, b in swapped)
        assert src.verify(p, f"{wrong}\n({equation})").reward == 0.0  # the check is not the wrong answer's sum


def test_quantity_acronyms_name_a_quantity() -> None:
    percent = {"%": 1}
    assert read_exact("The pH is 3.87", sentence=True) == read_exact("3.87")
    assert read_exact("The NPV is 1206.40", sentence=True) == read_exact("1206.40")
    assert read_exact("The IRR is 12.5%", sentence=True, units=percent) == read_exact("12.5")
    assert read_exact("The EMF of the cell is 1.10", sentence=True) == read_exact("1.10")
    for refused in ("The NaCl mass is 3", "The charge on C4 is 3", "The AB is 3", "The NPV is 5 or 6",
                    "The NPV or IRR is 5", "The wrong NPV is 5", "Maybe the pH is 3", "The NPVX is 3"):
        assert read_exact(refused, sentence=True) is None, refused


def test_ph_and_npv_envs_read_the_acronym_sentence() -> None:
    ph = make_source("chemistry/ph")
    for seed in range(5):
        p = ph.sample(1, seed)
        assert ph.verify(p, f"The pH is {p.answer}").reward == 1.0
    npv = make_source("economics/npv_irr")
    seen = 0
    for level in range(5):
        for seed in range(8):
            p = npv.sample(level, seed)
            if "net present value" in p.prompt:
                seen += 1
                assert npv.verify(p, f"The NPV is {p.answer}").reward == 1.0
                assert npv.verify(p, f"The NPV is {p.answer} or 0").reward == 0.0
    assert seen


def test_equilibrium_constant_sentence() -> None:
    src = make_source("chemistry/equilibrium_ice")
    seen = 0
    for level in range(5):
        for seed in range(6):
            p = src.sample(level, seed)
            if p.data["kind"] != "find_k":
                continue
            seen += 1
            assert src.verify(p, f"The equilibrium constant is {p.answer}.").reward == 1.0
            assert src.verify(p, f"The equilibrium constant Kc is {p.answer}").reward == 1.0
            assert src.verify(p, f"The equilibrium constant is {p.answer} or 2").reward == 0.0
            assert src.verify(p, f"Maybe the equilibrium constant is {p.answer}").reward == 0.0
    assert seen
