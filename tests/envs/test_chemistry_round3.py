"""Chemistry round 3 (oxidation states, electron configurations, equilibrium, redox): hand-checked instances."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from palaestra.core import Problem
from palaestra.core.registry import make_source


def _with_data(env_id: str, **data: object) -> tuple[object, Problem]:
    task = make_source(env_id)
    problem = task.sample(0, 0)
    return task, dataclasses.replace(problem, data={**problem.data, **data})


def test_oxidation_state_rules_and_exceptions() -> None:
    from palaestra.envs.chemistry.oxidation_states import rule_states

    assert rule_states({"K": 2, "Cr": 2, "O": 7}, 0) == {"K": 1, "Cr": 6, "O": -2}
    assert rule_states({"Na": 1, "H": 1}, 0)["H"] == -1  # metal hydride: H is left over
    assert rule_states({"O": 1, "F": 2}, 0)["O"] == 2  # F outranks O
    assert rule_states({"K": 1, "O": 2}, 0)["O"] == Fraction(-1, 2)  # superoxide
    assert rule_states({"S": 4, "O": 6}, -2)["S"] == Fraction(5, 2)  # tetrathionate: an average
    assert rule_states({"Cl": 1, "F": 3}, 0)["Cl"] == 3  # interhalogen: Cl is lowest in the order


def test_oxidation_states_judged_per_element() -> None:
    species = [
        {"formula": "K2Cr2O7", "charge": 0, "composition": {"K": 2, "Cr": 2, "O": 7}, "kind": "oxo",
         "states": {"K": "+1", "Cr": "+6", "O": "-2"}},
        {"formula": "NaH", "charge": 0, "composition": {"Na": 1, "H": 1}, "kind": "metal_hydride",
         "states": {"Na": "+1", "H": "-1"}},
    ]
    task, problem = _with_data("chemistry/oxidation_states", species=species)
    for right in ("(a) K: +1, Cr: +6, O: -2\n(b) Na: +1, H: -1", "K2Cr2O7: O = -2, Cr = 6, K = 1\nNaH: Na: 1+, H: 1-",
                  "Answer:\na) K: +1, Cr: +6, O: -2\nb) Na: +1, H: -1."):
        assert task.verify(problem, right).correct, right
    verdict = task.verify(problem, "(a) K: +1, Cr: +6, O: -2\n(b) Na: +1, H: +1")  # the usual H rule: wrong here
    assert not verdict.correct and "H in NaH" in verdict.feedback
    assert not task.verify(problem, "(a) K: +1, Cr: +6, O: -2").parsed  # a species left out
    assert not task.verify(problem, "(a) K: +1, Cr: +6 or +3, O: -2\n(b) Na: +1, H: -1").correct


def test_electron_configurations_with_exceptions_and_ions() -> None:
    from palaestra.envs.chemistry.electron_configuration import atom_configuration, ion_configuration, shorthand

    assert shorthand(atom_configuration("Fe")) == "[Ar] 4s2 3d6"
    assert shorthand(atom_configuration("Cr")) == "[Ar] 4s1 3d5"  # the exception table, not 4s2 3d4
    assert shorthand(atom_configuration("Cu")) == "[Ar] 4s1 3d10"
    assert shorthand(atom_configuration("Pd")) == "[Kr] 4d10"
    assert shorthand(ion_configuration("Fe", 2)) == "[Ar] 3d6"  # 4s leaves first
    assert shorthand(ion_configuration("Sn", 2), by_shell=True) == "[Kr] 4d10 5s2"  # 5p before 5s
    assert ion_configuration("Cl", -1) == atom_configuration("Ar")


def test_electron_configuration_accepts_orders_and_forms() -> None:
    from palaestra.envs.chemistry.electron_configuration import atom_configuration, ion_configuration

    species = [["Cr", 0], ["Fe", 3]]
    task, problem = _with_data("chemistry/electron_configuration", species=species,
                               configurations=[atom_configuration("Cr"), ion_configuration("Fe", 3)])
    for right in ("(a) [Ar] 3d5 4s1\n(b) [Ar] 3d5", "1s2 2s2 2p6 3s2 3p6 4s1 3d5\n[Ne] 3s2 3p6 3d5",
                  "Cr: [Ar] 4s^1 3d^{5}\nFe3+: [Ar] 3d⁵", "Answer:\na) [Ar]3d5 4s1\nb) [Ar]3d5."):
        assert task.verify(problem, right).correct, right
    verdict = task.verify(problem, "(a) [Ar] 4s2 3d4\n(b) [Ar] 3d5")  # the plain Aufbau filling: wrong for Cr
    assert not verdict.correct and "Cr" in verdict.feedback and "Fe3+" not in verdict.feedback
    assert not task.verify(problem, "(a) [Ar] 3d5 4s1 3d5\n(b) [Ar] 3d5").parsed  # a subshell twice
    assert not task.verify(problem, "(a) [Ar] 3d11\n(b) [Ar] 3d5").parsed  # over capacity
    assert not task.verify(problem, "(a) [Ar] 3d5 4s1\n(b) [Ar] 3d5\n(c) [Ar] 3d3").parsed  # a hedge line


def test_redox_balance_checks_atoms_and_charge() -> None:
    from palaestra.envs.chemistry.redox_balance import Reaction, solve

    acid = Reaction((("MnO4", -1), ("H2C2O4", 0)), (("Mn", 2), ("CO2", 0)), "acidic")
    terms = solve(acid)
    assert terms == [(2, ("MnO4", -1)), (5, ("H2C2O4", 0)), (-2, ("Mn", 2)), (-10, ("CO2", 0)), (6, ("H", 1)),
                     (-8, ("H2O", 0))]
    base = Reaction((("Cl2", 0),), (("Cl", -1), ("ClO3", -1)), "basic")  # disproportionation
    assert solve(base) == [(3, ("Cl2", 0)), (-5, ("Cl", -1)), (-1, ("ClO3", -1)), (6, ("OH", -1)), (-3, ("H2O", 0))]
    reactions = [{"reactants": [["MnO4", -1], ["H2C2O4", 0]], "products": [["Mn", 2], ["CO2", 0]], "medium": "acidic",
                  "terms": [[c, list(p)] for c, p in terms]},
                 {"reactants": [["Cl2", 0]], "products": [["Cl", -1], ["ClO3", -1]], "medium": "basic",
                  "terms": [[c, list(p)] for c, p in solve(base)]}]
    task, problem = _with_data("chemistry/redox_balance", reactions=reactions)
    right = ["(a) 2 MnO4^- + 5 H2C2O4 + 6 H^+ -> 2 Mn^2+ + 10 CO2 + 8 H2O\n(b) 3 Cl2 + 6 OH^- -> 5 Cl^- + ClO3^- + 3 H2O",
             "6 H+ + 2 MnO4- + 5 H2C2O4 → 8 H2O + 10 CO2 + 2 Mn2+\n3Cl2 + 6OH⁻ → 5Cl⁻ + ClO₃⁻ + 3H₂O",
             "a) 2 MnO4^{-} + 5 H2C2O4 + 6 H^{+} -> 2 Mn^{2+} + 10 CO2 + 8 H2O\n"
             "b) 3 Cl2 + 6 OH^{-} -> 5 Cl^{-} + ClO3^{-} + 3 H2O."]
    for answer in right:
        assert task.verify(problem, answer).correct, answer
    doubled = "(a) 4 MnO4^- + 10 H2C2O4 + 12 H^+ -> 4 Mn^2+ + 20 CO2 + 16 H2O\n" + right[0].split("\n")[1]
    assert "divide by 2" in task.verify(problem, doubled).feedback
    no_water = "(a) 2 MnO4^- + 5 H2C2O4 + 6 H^+ -> 2 Mn^2+ + 10 CO2\n" + right[0].split("\n")[1]
    assert "not balanced: H, O" in task.verify(problem, no_water).feedback
    # OH- belongs to basic solution only: an acidic equation may not use it
    assert not task.verify(problem, right[0].replace("6 H^+ ->", "6 H^+ + OH^- ->")).parsed


def test_equilibrium_ice_exact_k_and_concentrations() -> None:
    base = {"reactants": [[1, "H2"], [1, "I2"]], "products": [[2, "HI"]], "decimals": 2,
            "initial": {"H2": "1/2", "I2": "2/5", "HI": "0"}, "x": "1/10",
            "final": {"H2": "2/5", "I2": "3/10", "HI": "1/5"}}
    # K = 0.2^2 / (0.4 * 0.3) = 1/3
    task, problem = _with_data("chemistry/equilibrium_ice", kind="find_k", measured="HI", k="1/3", **base)
    for right in ("1/3", "Kc = 1/3", "\\frac{1}{3}", "K = 1/3."):
        assert task.verify(problem, right).correct, right
    for wrong in ("0.333", "0.3333333", "3", "1/3 or 3"):
        assert not task.verify(problem, wrong).correct, wrong
    task, problem = _with_data("chemistry/equilibrium_ice", kind="find_concentrations", k="1/3", **base)
    for right in ("[H2] = 0.4, [I2] = 0.3, [HI] = 0.2", "HI = 1/5, I2 = 3/10, H2 = 2/5",
                  "[H2] = 0.40 M\n[I2] = 0.30 M\n[HI] = 0.20 M"):
        assert task.verify(problem, right).correct, right
    verdict = task.verify(problem, "[H2] = 0.4, [I2] = 0.3, [HI] = 0.1")  # x taken for HI's change
    assert not verdict.correct and "HI" in verdict.feedback


def test_equilibrium_ice_root_is_the_drawn_change() -> None:
    from palaestra.envs.chemistry.equilibrium_ice import _q

    task = make_source("chemistry/equilibrium_ice")
    for seed in range(5):
        problem = task.sample(4, seed)
        data = problem.data
        final = {f: Fraction(v) for f, v in data["final"].items()}
        reactants = tuple(tuple(r) for r in data["reactants"])
        products = tuple(tuple(p) for p in data["products"])
        assert _q(final, reactants, products) == Fraction(data["k"])
        assert all(v > 0 for v in final.values())
