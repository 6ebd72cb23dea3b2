"""Chemistry envs: hand-checked instances beyond the contract kit."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from palaestra.core import Problem
from palaestra.core.registry import make_source
from palaestra.envs.chemistry.common import ANIONS, CATIONS, balance, elements, ionic_formula, molar_mass, parse_formula


def _with_data(env_id: str, **data: object) -> tuple[object, Problem]:
    task = make_source(env_id)
    problem = task.sample(0, 0)
    return task, dataclasses.replace(problem, data={**problem.data, **data})


def test_periodic_table_and_formula_reader() -> None:
    table = elements()
    assert table["O"].weight == Fraction("15.999") and table["Fe"].number == 26 and table["Cl"].name == "Chlorine"
    assert molar_mass(parse_formula("H2O") or {}) == Fraction("18.015")
    assert parse_formula("Ca3(PO4)2") == {"Ca": 3, "P": 2, "O": 8}
    assert parse_formula("CuSO4·5H2O") == parse_formula("CuSO4.5H2O") == {"Cu": 1, "S": 1, "O": 9, "H": 10}
    assert parse_formula("\\mathrm{H_{2}SO_4}") == parse_formula("H₂SO₄") == {"H": 2, "S": 1, "O": 4}
    for bad in ("", "h2o", "H0", "H2O)", "((((((H))))))", "Q2", "2+2", "H" * 200, "H99999"):
        assert parse_formula(bad) is None, bad
    calcium = next(c for c in CATIONS if c.formula == "Ca")
    phosphate = next(a for a in ANIONS if a.formula == "PO4")
    assert ionic_formula(calcium, phosphate) == "Ca3(PO4)2"


def test_balance_finds_minimal_coefficients() -> None:
    methane = [parse_formula(f) or {} for f in ("CH4", "O2")], [parse_formula(f) or {} for f in ("CO2", "H2O")]
    assert balance(*methane) == [1, 2, 1, 2]
    octane = [parse_formula(f) or {} for f in ("C8H18", "O2")], [parse_formula(f) or {} for f in ("CO2", "H2O")]
    assert balance(*octane) == [2, 25, 16, 18]
    # two independent reactions in one equation: the balancing is not unique, so it is refused
    mixed = [parse_formula(f) or {} for f in ("CH4", "C2H6", "O2")], [parse_formula(f) or {} for f in ("CO2", "H2O")]
    assert balance(*mixed) is None


def test_balance_equation_judges_any_correct_spelling_and_explains_misses() -> None:
    task, problem = _with_data("chemistry/balance_equation", reactants=["CH4", "O2"], products=["CO2", "H2O"],
                               coefficients=[1, 2, 1, 2])
    for right in ("1, 2, 1, 2", "1 2 1 2", "CH4 + 2 O2 -> CO2 + 2 H2O", "2O2 + CH4 → 2H2O + CO2",
                  "Answer: 1, 2, 1, 2."):
        assert task.verify(problem, right).correct, right
    assert "divide every coefficient by 2" in task.verify(problem, "2, 4, 2, 4").feedback
    assert "not balanced" in task.verify(problem, "1, 1, 1, 2").feedback
    assert "positive" in task.verify(problem, "0, 0, 0, 0").feedback
    assert not task.verify(problem, "1, 2, 1").parsed
    assert not task.verify(problem, "CH4 + 2 O2 -> CO + 2 H2O").parsed  # CO is not a species of this reaction
    assert not task.verify(problem, "1, 2, 1, 2 or 2, 4, 2, 4").correct


def test_balance_equation_prompt_states_the_form_and_the_reference_is_minimal() -> None:
    task = make_source("chemistry/balance_equation")
    for level in range(5):
        problem = task.sample(level, 3)
        assert "smallest positive whole-number coefficients" in problem.prompt
        assert task.verify(problem, problem.answer or "").correct
        coefficients = problem.data["coefficients"]
        assert task.verify(problem, ", ".join(str(3 * c) for c in coefficients)).correct is False


def test_molar_mass_applies_the_stated_tolerance_exactly() -> None:
    task, problem = _with_data("chemistry/molar_mass", formula="H2O", mass="18.015")
    for right in ("18.015", "18.02 g/mol", "18.01", "\\boxed{18.02}", "M = 18.02 g mol^-1", "≈ 18.02",
                  "18.025 g/mol"):
        assert task.verify(problem, right).correct, right
    for wrong in ("18.03", "18.00", "36.03", "17.007"):
        verdict = task.verify(problem, wrong)
        assert verdict.parsed and not verdict.correct and "not within 0.01" in verdict.feedback, wrong
    assert not task.verify(problem, "18.02 kg/mol").correct  # read in kg/mol (SI): 18020 g/mol, not the mass
    assert task.verify(problem, "0.01802 kg/mol").correct
    assert not task.verify(problem, "18.02 lb/mol").parsed
    assert not task.verify(problem, "18.02 or 36.03").correct
    hydrate = parse_formula("CuSO4·5H2O") or {}
    assert molar_mass(hydrate) == Fraction("249.682")  # 63.546 + 32.065 + 9 * 15.999 + 10 * 1.008


def test_molar_mass_prompt_lists_the_weights_of_its_formula() -> None:
    task = make_source("chemistry/molar_mass")
    for level in range(5):
        problem = task.sample(level, 7)
        composition = parse_formula(problem.data["formula"]) or {}
        for symbol in composition:
            assert f"{symbol} {elements()[symbol].weight_text}" in problem.prompt
        assert molar_mass(composition) == Fraction(problem.data["mass"])
        assert "within 0.01 g/mol" in problem.prompt


def test_empirical_formula_from_glucose_percentages() -> None:
    from palaestra.envs.chemistry.empirical_formula import consistent_formulas, percentages

    glucose = parse_formula("C6H12O6") or {}
    printed = {s: Fraction(round(p * 100), 100) for s, p in percentages(glucose).items()}
    assert printed == {"C": Fraction("40.00"), "H": Fraction("6.71"), "O": Fraction("53.28")}
    assert consistent_formulas(printed) == {"CH2O"}
    task, problem = _with_data("chemistry/empirical_formula", empirical="CH2O",
                               percentages={s: str(p) for s, p in printed.items()})
    for right in ("CH2O", "H2CO", "OCH2", "\\mathrm{CH_2O}", "CH₂O", "Answer: CH2O."):
        assert task.verify(problem, right).correct, right
    assert "divide the counts by 6" in task.verify(problem, "C6H12O6").feedback
    assert "exactly the elements" in task.verify(problem, "CH4").feedback
    assert "does not have the mass percentages" in task.verify(problem, "CHO").feedback
    assert not task.verify(problem, "CH2O or C2H4O2").correct
    assert not task.verify(problem, "carbohydrate").parsed


def test_empirical_formula_percentages_fix_one_answer() -> None:
    from palaestra.envs.chemistry.empirical_formula import consistent_formulas

    task = make_source("chemistry/empirical_formula")
    for level in range(5):
        problem = task.sample(level, 11)
        printed = {s: Fraction(p) for s, p in problem.data["percentages"].items()}
        assert sum(printed.values()) > 99 and consistent_formulas(printed) == {problem.answer}
        assert "rounded to 2 decimal places" in problem.prompt


def test_stoichiometry_methane_to_water() -> None:
    # 16.043 g CH4 is one mole: CH4 + 2 O2 -> CO2 + 2 H2O gives two moles of water, 36.030 g
    exact = Fraction("16.043") / Fraction("16.043") * 2 * Fraction("18.015")
    task, problem = _with_data("chemistry/stoichiometry", reactants=["CH4", "O2"], products=["CO2", "H2O"],
                               coefficients=[1, 2, 1, 2], given=0, wanted=1, mass="16.043",
                               exact=[exact.numerator, exact.denominator])
    for right in ("36.03", "36.03 g", "36.0 grams", "0.03603 kg", "\\boxed{36.1}", "≈ 36 g"):
        assert task.verify(problem, right).correct, right
    for wrong in ("18.02", "72.06", "35.8", "36.03 mg"):
        verdict = task.verify(problem, wrong)
        assert not verdict.correct, wrong
    assert "within 0.5%" in task.verify(problem, "18.02").feedback
    assert not task.verify(problem, "36.03 or 72.06").correct


def test_stoichiometry_reference_matches_the_printed_equation() -> None:
    task = make_source("chemistry/stoichiometry")
    for level in range(5):
        problem = task.sample(level, 5)
        data = problem.data
        n = len(data["reactants"])
        mass_in = molar_mass(parse_formula(data["reactants"][data["given"]]) or {})
        mass_out = molar_mass(parse_formula(data["products"][data["wanted"]]) or {})
        ratio = Fraction(data["coefficients"][n + data["wanted"]], data["coefficients"][data["given"]])
        assert Fraction(*data["exact"]) == Fraction(data["mass"]) / mass_in * ratio * mass_out
        assert f"{data['mass']} g of {data['reactants'][data['given']]}" in problem.prompt


def test_limiting_reagent_names_the_reactant_and_the_mass() -> None:
    # 2 H2 + O2 -> 2 H2O with 4.032 g H2 (2 mol, extent 1) and 48.0 g O2 (1.5 mol): hydrogen limits, 36.03 g water
    exact = 2 * Fraction("18.015")
    excess = Fraction("48.0") / Fraction("31.998") * 2 * Fraction("18.015")
    task, problem = _with_data("chemistry/limiting_reagent", reactants=["H2", "O2"], products=["H2O"],
                               coefficients=[2, 1, 2], masses=["4.032", "48"], limiting=0, wanted=0,
                               exact=[exact.numerator, exact.denominator],
                               excess_mass=[excess.numerator, excess.denominator])
    for right in ("H2; 36.03 g", "36.0 g; H2", "H2, 36.03 grams", "H2 is the limiting reagent; 36 g",
                  "limiting: H2\n36.03 g", "\\boxed{H_2; 36.03 g}"):
        assert task.verify(problem, right).correct, right
    assert "in excess" in task.verify(problem, f"O2; {float(excess):.4g} g").feedback
    assert "mass is not within" in task.verify(problem, "H2; 54.05 g").feedback
    assert not task.verify(problem, "H2").parsed
    assert not task.verify(problem, "H2 or O2; 36.03 g").correct


def test_gas_laws_one_mole_at_stp_and_units() -> None:
    # 1 mol at 273.15 K and 101.325 kPa: V = 8.314 * 273.15 / 101.325 = 22.41 L
    exact = Fraction("8.314") * Fraction("273.15") / Fraction("101.325")
    task, problem = _with_data("chemistry/gas_laws", unit="L", exact=[exact.numerator, exact.denominator])
    for right in ("22.41", "22.4 L", "22.41 liters", "\\boxed{22.41}", "≈ 22.4"):
        assert task.verify(problem, right).correct, right
    assert "not within 0.5%" in task.verify(problem, "22.0").feedback
    assert not task.verify(problem, "22.41 mL").correct  # read as 0.02241 L: another unit of volume, converted
    assert task.verify(problem, "22410 mL").correct
    celsius = Fraction("-3.5")
    task, problem = _with_data("chemistry/gas_laws", unit="°C", exact=[celsius.numerator, celsius.denominator])
    assert task.verify(problem, "-4 °C").correct and not task.verify(problem, "-5 °C").correct


def test_gas_laws_asks_the_quantity_the_last_step_determines() -> None:
    task = make_source("chemistry/gas_laws")
    for level in range(1, 5):
        problem = task.sample(level, 9)
        assert f"{problem.data['exact'][0] / problem.data['exact'][1]:.6g}" == problem.answer
        assert "R = 8.314" in problem.prompt and problem.data["changes"] == level - 1


def test_dilution_c1v1_equals_c2v2() -> None:
    # 250 mL of 0.5 mol/L from a 2 mol/L stock needs 62.5 mL of stock
    task, problem = _with_data("chemistry/dilution", unit="mL", exact=[125, 2])
    for right in ("62.5", "62.5 mL", "62.4 ml", "\\boxed{62.5}"):
        assert task.verify(problem, right).correct, right
    assert "not within 0.5%" in task.verify(problem, "250").feedback
    assert not task.verify(problem, "62.5 L").correct  # read as 62,500 mL
    assert task.verify(problem, "0.0625 L").correct
    task = make_source("chemistry/dilution")
    for level in range(1, 5):
        problem = task.sample(level, 2)
        assert problem.data["operations"] == level and "Volumes add" in problem.prompt


def test_ph_strong_weak_and_judged_within_a_hundredth() -> None:
    from palaestra.envs.chemistry.ph import _log10

    assert abs(float(-_log10(Fraction(1, 100))) - 2.0) < 1e-12  # 0.01 M HCl has pH 2
    task, problem = _with_data("chemistry/ph", ph="2.000000000000000000000000000000")
    for right in ("2", "2.00", "pH = 2.01", "\\boxed{1.99}", "The pH is 2.00."):
        assert task.verify(problem, right).correct, right
    assert "within 0.01" in task.verify(problem, "2.02").feedback
    assert not task.verify(problem, "2 or 12").correct
    weak = make_source("chemistry/ph")
    problems = [weak.sample(1, seed) for seed in range(40)]
    quadratic = [p for p in problems if p.data["kind"] == "weak"]
    assert quadratic and all("without assuming x is small" in p.prompt for p in quadratic)
