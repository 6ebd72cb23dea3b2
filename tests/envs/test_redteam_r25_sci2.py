"""Red team, session 25 (physics and chemistry): right answers a careful grader accepts that were refused (the
asked quantity named with its species, a rate constant's unit in common spellings, a pH marked approximate), with
the wrong answers next to them that stay refused."""

from __future__ import annotations

from fractions import Fraction

import palaestra


def _sample(env_id: str, level: int, seed: int):
    return palaestra.make(env_id).unwrapped.task.sample(level, seed)


def _reward(problem, reply: str) -> float:
    return palaestra.score(problem, f"<answer>{reply}</answer>").reward


# --- chemistry/molar_mass: the molar mass named with its formula ----------------------------------------------------


def test_molar_mass_reads_the_quantity_named_with_its_formula() -> None:
    problem = _sample("chemistry/molar_mass", 3, 0)  # Mg(CN)2, 76.341 g/mol
    formula, mass = problem.data["formula"], f"{float(Fraction(problem.data['mass'])):.2f}"
    for reply in (
        f"M({formula}) = {mass} g/mol",
        f"The molar mass of {formula} is {mass} g/mol.",
        f"molar mass of {formula} = {mass} g/mol",
        f"M({formula}) ≈ {mass} g/mol",
    ):
        assert _reward(problem, reply) == 1.0, reply
    wrong = f"{float(Fraction(problem.data['mass'])) + 1:.2f}"
    for reply in (
        f"M({formula}) = {wrong} g/mol",
        f"M(H2O) = {mass} g/mol",
        f"The molar mass of H2O is {mass} g/mol.",
        f"M({formula}) = {mass} or {wrong} g/mol",
        f"The molar mass of {formula} is not {mass} g/mol.",
    ):
        assert _reward(problem, reply) == 0.0, reply


# --- chemistry/stoichiometry: the mass named with its product -------------------------------------------------------


def test_stoichiometry_reads_the_mass_named_with_its_product() -> None:
    problem = _sample("chemistry/stoichiometry", 2, 1)  # CO2
    product = problem.data["products"][problem.data["wanted"]]
    exact = float(Fraction(*problem.data["exact"]))
    mass, wrong = f"{exact:.3f}", f"{exact * 1.02:.3f}"
    for reply in (
        f"m({product}) = {mass} g",
        f"{mass} g of {product}",
        f"The mass of {product} formed is {mass} g.",
        f"{mass} grams of {product}",
    ):
        assert _reward(problem, reply) == 1.0, reply
    other = next(f for f in [*problem.data["reactants"], *problem.data["products"]] if f != product)
    for reply in (
        f"m({product}) = {wrong} g",
        f"m({other}) = {mass} g",
        f"{mass} g of {other}",
        f"The mass of {other} formed is {mass} g.",
        f"{mass} g of {product} or {wrong} g",
    ):
        assert _reward(problem, reply) == 0.0, reply


# --- chemistry/reaction_kinetics: k's unit in the spellings chemists write ------------------------------------------


def test_reaction_kinetics_reads_common_spellings_of_the_rate_constant_unit() -> None:
    problem = _sample("chemistry/reaction_kinetics", 0, 2)  # A = 1, B = 1, k = 8: second order overall
    assert problem.data["overall"] == 2
    orders = ", ".join(f"{n} = {o}" for n, o in zip(problem.data["names"], problem.data["orders"], strict=True))
    k = problem.data["k"]
    for unit in (
        "M^(-1) s^(-1)",
        "M⁻¹s⁻¹",
        "M^-1s^-1",
        "dm^3 mol^-1 s^-1",
        "dm³ mol⁻¹ s⁻¹",
        "L/mol/s",
        "L/(mol s)",
        "1/(M*s)",
        "1/(M·s)",
    ):
        assert _reward(problem, f"{orders}, k = {k} {unit}") == 1.0, unit
    for unit in (
        "s^-1",
        "/s",
        "1/s",
        "1/(M^2 s)",
        "M^-2 s^-1",
        "M^(-2) s^(-1)",
        "M/s",
        "dm^6 mol^-2 s^-1",
    ):  # another overall order's unit
        assert _reward(problem, f"{orders}, k = {k} {unit}") == 0.0, unit


# --- chemistry/titration_curve: each pH named as the pH at a point, or marked approximate -------------------------


def test_titration_curve_reads_approximate_and_named_points() -> None:
    problem = _sample("chemistry/titration_curve", 2, 0)
    values = [float(Fraction(p["ph"])) for p in problem.data["points"]]
    names = [p["name"] for p in problem.data["points"]]
    for pattern in ("{n} ≈ {v:.2f}", "pH({n}) = {v:.2f}", "{n} \\approx {v:.2f}", "pH at {n}: {v:.2f}"):
        reply = ", ".join(pattern.format(n=n, v=v) for n, v in zip(names, values, strict=True))
        assert _reward(problem, reply) == 1.0, reply
    off = [values[0] + 0.05, *values[1:]]
    for reply in (
        ", ".join(f"{n} ≈ {v:.2f}" for n, v in zip(names, off, strict=True)),
        ", ".join(f"pH({n}) = {v:.2f}" for n, v in zip(names, off, strict=True)),
        ", ".join(f"{n} ≈ {v:.2f}" for n, v in zip(names[:-1], values, strict=False)),
    ):
        assert _reward(problem, reply) == 0.0, reply


# --- chemistry/titration_curve: the x << C shortcut at an initial point -------------------------------------------
# v1 drew the analyte regardless of the shortcut the prompt rules out (solve x² = K·(C − x) exactly): p = (pK + pC) / 2
# was within 0.01 on 80% of the initial points. v2 draws 85% of problems with an initial point where it misses.


def test_titration_curve_initial_point_shortcut_rarely_within_tolerance() -> None:
    import math
    import re

    task = palaestra.make("chemistry/titration_curve").unwrapped.task
    initial = solved = 0
    for seed in range(120):
        problem = task.sample(0, seed)
        point = problem.data["points"][0]
        if point["region"] != "initial":
            continue
        found = re.search(r" mL of ([\d.]+) mol/L .+? \(K[ab] = ([\d.e-]+)\)", problem.prompt)
        assert found is not None
        concentration, k = float(found.group(1)), float(found.group(2))
        p = (-math.log10(k) - math.log10(concentration)) / 2
        shortcut = 14 - p if problem.data["base"] else p
        initial += 1
        solved += _reward(problem, f"{point['name']} = {shortcut:.3f}")
        assert _reward(problem, f"{point['name']} = {float(Fraction(point['ph'])):.3f}") == 1.0
    assert initial >= 10 and solved <= 0.3 * initial  # v1: about 0.8


# --- physics/collisions: the sense in words ------------------------------------------------------------------------
# "-9/4 m/s to the right" was read as -9/4 (the words ignored): a sign the words contradict earned the reward. The
# sense in words is now read in brackets, as "leftward(s)" and inside wrappers, always with an unsigned size.


def test_collisions_reads_the_sense_in_words_and_refuses_a_contradicting_sign() -> None:
    problem = _sample("physics/collisions", 0, 1)  # -9/4 m/s
    assert problem.answer == "-9/4"
    for reply in ("9/4 m/s (to the left)", "9/4 m/s leftward", "\\boxed{9/4 m/s to the left}", "9/4 m/s to the left"):
        assert _reward(problem, reply) == 1.0, reply
    for reply in (
        "-9/4 m/s to the right",
        "-9/4 m/s (to the right)",
        "9/4 m/s rightwards",
        "9/4 m/s (to the right)",
        "-9/4 m/s to the left",
        "9/4 m/s to the left or right",
    ):
        assert _reward(problem, reply) == 0.0, reply


def test_molar_mass_reads_the_si_unit() -> None:
    problem = _sample("chemistry/molar_mass", 3, 0)  # 76.341 g/mol
    assert _reward(problem, "0.076341 kg/mol") == 1.0
    for reply in ("0.0763 kg/mol", "76.341 kg/mol"):  # 0.01 g/mol off, and the unit's factor ignored
        assert _reward(problem, reply) == 0.0, reply


# --- physics/ac_impedance: a complex impedance with bracketed or TeX fractions, or over a common denominator --------


def test_ac_impedance_reads_bracketed_tex_and_common_denominator_forms() -> None:
    problem = _sample("physics/ac_impedance", 2, 2)  # R = 1292000/41513, X = -214600/41513 (v3 draws)
    assert problem.data["R"] == "1292000/41513" and problem.data["X"] == "-214600/41513"
    for reply in (
        "(1292000/41513) - (214600/41513)j",
        "Z = (1292000 - j214600)/41513 Ω",
        "\\frac{1292000}{41513} - j\\frac{214600}{41513} \\Omega",
    ):
        assert _reward(problem, reply) == 1.0, reply
    for reply in (
        "(1292000 + 214600j)/41513",
        "(1292000 - 214600j)/41514",
        "(1292000 - 214600j)/0",
        "(1292000 - 214600j)/41513 or 0",
    ):
        assert _reward(problem, reply) == 0.0, reply


# --- chemistry/balance_equation: the equation with state symbols, or in mhchem's \ce{} ------------------------------


def test_balance_equation_reads_state_symbols_and_mhchem() -> None:
    problem = _sample("chemistry/balance_equation", 2, 3)  # CaS + Ni3(AsO4)2 -> Ca3(AsO4)2 + NiS: 3, 1, 1, 3
    assert problem.answer == "3, 1, 1, 3"
    for reply in (
        "3 CaS(s) + Ni3(AsO4)2(aq) → Ca3(AsO4)2(s) + 3 NiS(aq)",
        "\\ce{3 CaS + Ni3(AsO4)2 -> Ca3(AsO4)2 + 3 NiS}",
        "$\\ce{3 CaS(aq) + Ni3(AsO4)2(aq) -> Ca3(AsO4)2(s) + 3 NiS(s)}$",
    ):
        assert _reward(problem, reply) == 1.0, reply
    for reply in (
        "6 CaS(s) + 2 Ni3(AsO4)2(aq) → 2 Ca3(AsO4)2(s) + 6 NiS(aq)",  # not the smallest
        "3 CaS(x) + Ni3(AsO4)2(aq) → Ca3(AsO4)2(s) + 3 NiS(aq)",
        "\\ce{3 CaS + Ni3(AsO4)2 -> Ca3(AsO4)2 + NiS}",
    ):
        assert _reward(problem, reply) == 0.0, reply
