"""Red team, round 3 session 40: right answers that answer readers refused (reader changes only, no problem changes).

- languages/common.py ``read_chain`` (languages/cfg_derivation, languages/string_rewriting, languages/cfg_membership):
  a labelled chain ("Derivation: S => ...", "Chain: ...", "The derivation is S => ...") was refused by
  cfg_derivation (1.0 -> 0 of right answers so spelled) and, for the lead-in sentence, string_rewriting (its long
  strings read "The derivation is abac" as one string). The label is now taken off before the chain is read.
- physics/common.py ``_complex_core`` (physics/ac_impedance): "Z = (49 - 5j) Ω" and "The impedance is Z = 49 - 5j Ω."
  were refused; a bracketed number and an impedance naming sentence are now read.
- languages/dfa_equivalence: "No. Counterexample: abba" was refused; a bare "No" may now lead the witness label
  ("Yes. Counterexample: abba" stays refused).
- algorithms/lcs: "C-A-D-B" was refused; hyphens now separate letters as spaces and commas do.
- arithmetic/prime_factorization: "3^3 × 37 = 999" and "(3^3)(37)" were refused; the number may now follow the
  product (only the number itself, or n) and bracketed factors side by side multiply. The lead-in "N = ..." now
  also must name the number itself ("998 = 3^3 × 37" was read as the factorisation of 999).
- algorithms/multi_key_sort: "A > B > C" stays refused: its keys mix ascending and descending, so ">" does not
  list in the asked order (for an ascending key it says the opposite); arrows ("A -> B -> C") were already read.

In every case a hedge ("X or Y"), a retraction ("X. Wait, no: Y"), a second answer and a wrong value stay refused.
"""

from __future__ import annotations

import pytest

from palaestra.core.registry import make_source


def _rewards(env: str, problem, texts: list[str]) -> list[float]:  # type: ignore[no-untyped-def]
    source = make_source(env)
    return [source.verify(problem, text).reward for text in texts]


@pytest.mark.parametrize("env", ["languages/cfg_derivation", "languages/string_rewriting"])
def test_labelled_chain_read(env: str) -> None:
    source = make_source(env)
    for seed in range(4):
        problem = source.sample(2, seed)
        chain = problem.answer
        first = chain.split(" ")[0]
        arrow = "=>" if "=>" in chain else "->"
        right = [chain, f"Derivation: {chain}", f"Chain: {chain}", f"The derivation is {chain}",
                 f"The derivation is {chain}.", f"**Derivation:** {chain}", f"Sequence: {chain}"]
        wrong = [f"Derivation: {chain} or {first}", f"Derivation: {chain}. Wait, no: {first}",
                 f"Not the derivation: {chain}", f"Derivation: {first} {arrow} {first}",
                 f"The derivation is {chain}, or {first}", f"Derivation: {chain}\nDerivation: {chain}"]
        assert _rewards(env, problem, right) == [1.0] * len(right), (seed, chain)
        assert _rewards(env, problem, wrong) == [0.0] * len(wrong), (seed, chain)


def test_cfg_membership_labelled_derivation() -> None:
    source = make_source("languages/cfg_membership")
    checked = 0
    for seed in range(30):
        problem = source.sample(1, seed)
        if "=>" not in (problem.answer or ""):
            continue
        checked += 1
        chain = problem.answer.split(":", 1)[1].strip() if ":" in problem.answer else problem.answer
        assert source.verify(problem, problem.answer).reward == 1.0
        assert source.verify(problem, f"Yes. Derivation: {chain}").reward == 1.0
        assert source.verify(problem, f"Yes. Derivation: {chain} or S").reward == 0.0
    assert checked


def test_impedance_bracketed_and_named() -> None:
    source = make_source("physics/ac_impedance")
    for seed in range(4):
        problem = source.sample(1, seed)
        real, imaginary = problem.data["R"], problem.data["X"]
        sign, other = ("-", "+") if imaginary.startswith("-") else ("+", "-")
        size = imaginary.lstrip("-")
        z = f"{real} {sign} {size}j"
        right = [f"Z = ({z}) Ω", f"The impedance is Z = {z} Ω.", f"Z = ({z}) ohms", f"The impedance is {z} Ω",
                 f"Z = {z} Ω", problem.answer]
        wrong = [f"Z = ({real} {other} {size}j) Ω", f"Z = ({z}) Ω or ({real} {other} {size}j) Ω",
                 f"The impedance is Z = {z} Ω. Wait, no: Z = {real} Ω", f"Z = ({z}) Ω, Z = {real} Ω", f"Z = ({z}",
                 f"Z = ({z}) Ω)", f"The impedance is Z = ({real} {other} {size}j) Ω."]
        assert _rewards("physics/ac_impedance", problem, right) == [1.0] * len(right), (seed, z)
        assert _rewards("physics/ac_impedance", problem, wrong) == [0.0] * len(wrong), (seed, z)


def test_dfa_no_then_counterexample() -> None:
    source = make_source("languages/dfa_equivalence")
    checked = 0
    for seed in range(40):
        problem = source.sample(2, seed)
        if problem.answer.startswith("equivalent"):
            continue
        checked += 1
        w = problem.answer
        right = [f"No. Counterexample: {w}", f"No, counterexample: {w}", f"No. A distinguishing string is {w}",
                 f"Counterexample: {w}"]
        wrong = [f"Yes. Counterexample: {w}", f"Yes, counterexample: {w}", f"No. Counterexample: {w} or {w}a",
                 f"No. Counterexample: {w}. Wait, no: {w}b", f"No. {w}, {w}", "No. Counterexample: equivalent"]
        assert _rewards("languages/dfa_equivalence", problem, right) == [1.0] * len(right), w
        assert _rewards("languages/dfa_equivalence", problem, wrong) == [0.0] * len(wrong), w
    assert checked >= 5


def test_lcs_hyphenated() -> None:
    source = make_source("algorithms/lcs")
    for seed in range(4):
        problem = source.sample(2, seed)
        word = problem.answer
        right = [word, "-".join(word), " - ".join(word), "-".join(word) + "."]
        wrong = ["-".join(word[:-1]), "-".join(word) + " or " + word[:-1], "-".join(word) + "-", "-" + word,
                 word + ". Wait, no: " + word[:-1], "-".join(word) + "-Z"]
        assert _rewards("algorithms/lcs", problem, right) == [1.0] * len(right), word
        assert _rewards("algorithms/lcs", problem, wrong) == [0.0] * len(wrong), word


def test_multi_key_sort_greater_than_not_an_order() -> None:
    source = make_source("algorithms/multi_key_sort")
    for seed in range(4):
        problem = source.sample(2, seed)
        names = problem.answer.split(", ")
        assert _rewards("algorithms/multi_key_sort", problem, [problem.answer, " -> ".join(names)]) == [1.0, 1.0]
        assert _rewards("algorithms/multi_key_sort", problem,
                        [" > ".join(names), " < ".join(names), " > ".join(reversed(names))]) == [0.0] * 3


def test_prime_factorization_stated_number_and_side_by_side() -> None:
    source = make_source("arithmetic/prime_factorization")
    for level in range(3):
        problem = source.sample(level, 7)
        n, product = problem.data["n"], problem.answer
        side = "".join(f"({p}^{k})" if k > 1 else f"({p})" for p, k in problem.data["factors"].items())
        right = [product, f"{product} = {n}", f"{n} = {product}", f"{n} = {product} = {n}", side, f"{side} = {n}",
                 f"{product} = {n}.", f"$${product} = {n}$$", f"{product} = n"]
        wrong = [f"{product} = {n + 1}", f"{n + 1} = {product}", f"{product} = {n} or 2 × {n // 2}",
                 f"{product} = {n}. Wait, no: {n}", f"{product} = {n} = 5", f"{side}(2)", f"({n})", f"{product} =",
                 f"= {n}", f"{n}"]
        assert _rewards("arithmetic/prime_factorization", problem, right) == [1.0] * len(right), (level, n)
        assert _rewards("arithmetic/prime_factorization", problem, wrong) == [0.0] * len(wrong), (level, n)
