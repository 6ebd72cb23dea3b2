"""Red-team round 3, session 21 (strings, chemistry, spatial, temporal): regression tests for what was found."""

from __future__ import annotations

from fractions import Fraction

import palaestra


def _task(env_id: str):
    return palaestra.make(env_id).unwrapped.task


def _reward(task, problem, reply: str) -> float:
    return task.check(problem, task.format_answer(reply)).reward


def _letter_set_grouping(words: list[str]) -> str:
    groups: dict[tuple[int, str], list[str]] = {}
    for word in words:
        groups.setdefault((len(word), "".join(sorted(set(word)))), []).append(word)
    return ", ".join("{" + ", ".join(group) + "}" for group in groups.values())


def test_anagram_classes_grouping_by_letter_set_does_not_pay():
    # v1: grouping by length and letter set, ignoring how often each letter occurs, scored 0.7 at level 2 and
    # 0.38 at level 4 (the near misses changed a letter to one outside the word); v2's near misses change counts
    task = _task("strings/anagram_classes")
    for level in (2, 4):
        problems = [task.sample(level, seed) for seed in range(40)]
        mean = sum(_reward(task, p, _letter_set_grouping(p.data["words"])) for p in problems) / len(problems)
        assert mean <= 0.05, (level, mean)
        assert all(_reward(task, p, p.answer) == 1.0 for p in problems)


def _first(task, level: int, accept) -> object:
    return next(p for p in (task.sample(level, seed) for seed in range(200)) if accept(p))


def test_dilution_reads_a_right_value_in_the_other_unit_of_the_quantity():
    task = _task("chemistry/dilution")
    problem = _first(task, 4, lambda p: p.data["unit"] == "mmol/L")
    exact = Fraction(*problem.data["exact"])
    in_molar = f"{float(exact / 1000):.6g}"
    assert _reward(task, problem, f"{in_molar} mol/L") == 1.0
    assert _reward(task, problem, f"{in_molar} M") == 1.0
    assert _reward(task, problem, in_molar) == 0.0  # a bare number is in the unit asked
    assert _reward(task, problem, f"{float(exact):.6g} M") == 0.0  # the mmol/L number called mol/L
    problem = _first(task, 4, lambda p: p.data["unit"] == "mol/L")
    exact = Fraction(*problem.data["exact"])
    assert _reward(task, problem, f"{float(exact * 1000):.6g} mmol/L") == 1.0
    assert _reward(task, problem, f"{float(exact):.6g} mL") == 0.0  # a volume unit for a concentration
    problem = _first(task, 0, lambda p: p.data["unit"] == "mL")
    exact = Fraction(*problem.data["exact"])
    assert _reward(task, problem, f"{float(exact / 1000):.6g} L") == 1.0
    assert _reward(task, problem, f"{float(exact):.6g} L") == 0.0


def test_gas_laws_reads_a_right_pressure_or_volume_in_another_unit():
    task = _task("chemistry/gas_laws")
    seen = set()
    for level in range(5):
        for seed in range(60):
            problem = task.sample(level, seed)
            unit, exact = problem.data["unit"], Fraction(*problem.data["exact"])
            if unit in seen or unit not in ("mL", "L", "kPa", "atm", "mmHg"):
                continue
            seen.add(unit)
            if unit in ("mL", "L"):
                in_litres = exact / 1000 if unit == "mL" else exact
                assert _reward(task, problem, f"{float(in_litres):.6g} L") == 1.0
                assert _reward(task, problem, f"{float(in_litres * 1000):.6g} mL") == 1.0
                assert _reward(task, problem, f"{float(exact):.6g} kPa") == 0.0
            else:
                in_kpa = exact * {"kPa": 1, "atm": Fraction("101.325"), "mmHg": Fraction("101.325") / 760}[unit]
                assert _reward(task, problem, f"{float(in_kpa):.6g} kPa") == 1.0
                assert _reward(task, problem, f"{float(in_kpa / Fraction('101.325')):.6g} atm") == 1.0
                assert _reward(task, problem, f"{float(exact):.6g} L") == 0.0
    assert {"mL", "L"} & seen and {"kPa", "atm", "mmHg"} & seen


def test_limiting_reagent_accepts_the_product_named_after_the_mass():
    task = _task("chemistry/limiting_reagent")
    for seed in range(20):
        problem = task.sample(4, seed)
        data = problem.data
        formula, product = data["reactants"][data["limiting"]], data["products"][data["wanted"]]
        other = next(p for p in data["products"] if p != product)
        mass = f"{float(Fraction(*data['exact'])):.5g}"
        assert _reward(task, problem, f"{formula}; {mass} g {product}") == 1.0
        assert _reward(task, problem, f"{formula} is limiting; {mass} g of {product}") == 1.0
        assert _reward(task, problem, f"{formula}; {mass} g {other}") == 0.0
        assert _reward(task, problem, f"{data['reactants'][1 - data['limiting']]}; {mass} g of {product}") == 0.0


def _no_fallback_borders(text: str) -> list[int]:
    borders = [0] * len(text)
    for i in range(1, len(text)):
        k = borders[i - 1]
        borders[i] = k + 1 if text[i] == text[k] else int(text[i] == text[0])
    return borders


def test_border_array_needs_the_fall_back():
    # v1: extending the previous border or restarting at 1/0 (no fall-back along shorter borders) scored 0.86
    task = _task("strings/border_array")
    for level in (0, 2, 4):
        problems = [task.sample(level, seed) for seed in range(40)]
        for problem in problems:
            slip = ", ".join(map(str, _no_fallback_borders(problem.data["text"])))
            assert _reward(task, problem, slip) == 0.0
            assert _reward(task, problem, problem.answer) == 1.0


def test_electron_configuration_needs_the_exceptions_for_cations():
    # v1: the atoms' exceptions with the cations taken from the Madelung atom (Cu+ as [Ar] 3d9 4s1) answered
    # 0.8-0.9 of levels 1-4; the Madelung filling without any exception likewise
    from palaestra.envs.chemistry import electron_configuration as ec

    def madelung(symbol: str, charge: int) -> dict[str, int]:
        left = dict(ec.aufbau(ec._table()[0].index(symbol) + 1 - min(charge, 0)))
        for _ in range(max(charge, 0)):  # a cation: remove from the highest n, then the highest l
            outer = max(left, key=lambda sub: (int(sub[0]), ec.LETTERS.index(sub[1])))
            left[outer] -= 1
            left = {sub: k for sub, k in left.items() if k}
        return left

    def atoms_right(symbol: str, charge: int) -> dict[str, int]:
        return ec.atom_configuration(symbol) if charge == 0 else madelung(symbol, charge)

    task = _task("chemistry/electron_configuration")
    for level in (1, 2, 4):
        for seed in range(40):
            problem = task.sample(level, seed)
            for slip in (madelung, atoms_right):
                lines = [
                    f"({ec.LABELS[i]}) {ec.shorthand(slip(symbol, charge))}"
                    for i, (symbol, charge) in enumerate(problem.data["species"])
                ]
                assert _reward(task, problem, "\n".join(lines)) == 0.0, (level, seed, slip.__name__)
            assert _reward(task, problem, problem.answer) == 1.0


def test_ph_mixtures_count_two_hydroxides_for_dihydroxide_bases():
    # v2: counting every base as one hydroxide (Ca(OH)2 as one OH-) answered 0.39 of level 4's mixtures
    import math
    import re

    task = _task("chemistry/ph")
    mixtures = 0
    for seed in range(60):
        problem = task.sample(4, seed)
        if problem.data["kind"] != "mix":
            continue
        mixtures += 1
        net = volume = 0.0
        for millilitres, molar, formula in re.findall(
            r"(\d+(?:\.\d+)?) mL of (\d+(?:\.\d+)?) mol/L ([\w()]+)", problem.prompt
        ):
            volume += float(millilitres)
            net += float(millilitres) * float(molar) * (-1 if "OH" in formula else 1)
        excess = abs(net) / volume
        slip = -math.log10(excess) if net > 0 else 14 + math.log10(excess)
        assert _reward(task, problem, f"{slip:.3f}") == 0.0, seed
        assert _reward(task, problem, problem.answer) == 1.0
    assert mixtures >= 30


def test_colligative_properties_needs_the_van_t_hoff_factors():
    # v1: counting every solute once (no van 't Hoff factors) answered 0.66 of level 4 (salts only in water, and
    # water drawn one time in five); v2 draws water with a salt in three problems in four
    task = _task("chemistry/colligative_properties")
    for level in (2, 4):
        problems = [task.sample(level, seed) for seed in range(120)]
        problems = [p for p in problems if p.data["kind"] != "molar_mass"]
        rewards = []
        for p in problems:
            exact, pure = Fraction(*p.data["exact"]), Fraction(*p.data["pure"])
            ratio = Fraction(*p.data["factor_free"]) / Fraction(*p.data["particles"])
            slip = exact * ratio if p.data["kind"] == "osmotic" else pure + (exact - pure) * ratio
            rewards.append(_reward(task, p, f"{float(slip):.6g}"))
            assert _reward(task, p, p.answer) == 1.0
        assert sum(rewards) / len(rewards) <= 0.3, (level, sum(rewards) / len(rewards))


def test_limiting_reagent_smaller_mass_or_fewer_moles_is_chance():
    # v1: naming the reactant of smaller mass (or fewer moles, coefficients ignored) and computing the product
    # from it answered 0.60 (0.55) of level 4 and 0.73-0.75 of level 0; v2 makes both rules right half the time
    from palaestra.envs.chemistry.common import molar_mass, parse_formula

    task = _task("chemistry/limiting_reagent")
    for level in (0, 4):
        right = {"smaller mass": 0, "fewer moles": 0}
        problems = [task.sample(level, seed) for seed in range(100)]
        for p in problems:
            masses = [Fraction(m) for m in p.data["masses"]]
            moles = [m / molar_mass(parse_formula(f)) for m, f in zip(masses, p.data["reactants"], strict=True)]
            right["smaller mass"] += masses.index(min(masses)) == p.data["limiting"]
            right["fewer moles"] += moles.index(min(moles)) == p.data["limiting"]
        for name, count in right.items():
            assert 0.35 <= count / len(problems) <= 0.65, (level, name, count)
