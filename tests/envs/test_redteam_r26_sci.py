"""Red team, session 26 (physics and chemistry, a second look): right answers a careful grader accepts that were
refused (a unit in LaTeX or an SI spelling, a singular unit word, a right value converted to another unit of the
asked quantity), with the wrong answers next to them that stay refused."""

from __future__ import annotations

from fractions import Fraction

import pytest

import palaestra


def _sample(env_id: str, level: int, seed: int):
    return palaestra.make(env_id).unwrapped.task.sample(level, seed)


def _reward(problem, reply: str) -> float:
    return palaestra.score(problem, f"<answer>{reply}</answer>").reward


# --- physics: unit spellings read by physics/common.read_quantity ----------------------------------------------------


@pytest.mark.parametrize(
    ("env_id", "level", "seed", "right", "wrong"),
    [
        # the micro prefix in LaTeX: 172 μF
        (
            "physics/capacitors",
            0,
            0,
            ["172 \\mu F", "172\\,\\mu\\text{F}", "172 \\mathrm{\\mu F}"],
            ["173 \\mu F", "172 \\mu C", "172 F"],
        ),
        # a singular unit word: -10077/6800 J
        ("physics/electrostatics", 4, 0, ["-10077/6800 joule"], ["-10077/6800 kJ", "10077/6800 joule"]),
        ("physics/projectile", 0, 0, ["2639/10 metre", "2639/10 meter"], ["2639/10 km", "2639 metre"]),
        # an SI spelling: 8571 m/s, 1262 kg/m³, f1 = 85000/1761 Hz, 4125/1666 rad/s
        ("physics/orbits", 0, 0, ["8571 m/sec", "8571 metre per second"], ["8571 km/s", "8570 m/sec"]),
        ("physics/fluids", 4, 0, ["1262 kilograms per cubic metre", "1262 kg m^-3"], ["1262 g/cm^3"]),
        (
            "physics/waves",
            2,
            0,
            ["f1 = 85000/1761 s^-1, L = 1761/500 metre"],
            ["f1 = 85000/1761 s^-1, L = 1761/5 metre"],
        ),
        ("physics/rotation", 2, 0, ["4125/1666 rad s^-1", "4125/1666 radian per second"], ["4125/1666 rad/min"]),
    ],
)
def test_physics_reads_common_unit_spellings(
    env_id: str, level: int, seed: int, right: list[str], wrong: list[str]
) -> None:
    problem = _sample(env_id, level, seed)
    for reply in right:
        assert _reward(problem, reply) == 1.0, reply
    for reply in wrong:
        assert _reward(problem, reply) == 0.0, reply


def test_collisions_reads_a_unit_in_latex_or_si_powers() -> None:
    """``\\frac{\\sqrt{833}}{3}\\text{ m/s}``, ``... \\mathrm{m\\,s^{-1}}`` and ``7√17/3 m s⁻¹`` for 7√17/3 m/s were
    refused (the unit was matched as raw text); another unit, the wrong sense or value still score 0."""
    problem = _sample("physics/collisions", 4, 5)  # 7*sqrt(17)/3 m/s
    for reply in (
        "\\frac{\\sqrt{833}}{3}\\text{ m/s}",
        "\\dfrac{7\\sqrt{17}}{3}\\ \\mathrm{m\\,s^{-1}}",
        "7√17/3 m s⁻¹",
        "7√17/3 m/s.",
        "7√17/3 metres per second",
    ):
        assert _reward(problem, reply) == 1.0, reply
    for reply in (
        "7√17/3 km/h",
        "7√17/3 s",
        "7√17/3 m/s to the left",
        "\\frac{\\sqrt{834}}{3}\\text{ m/s}",
        "7√17/3 \\text{ J}",
    ):
        assert _reward(problem, reply) == 0.0, reply
    energy = _sample("physics/collisions", 1, 3)  # 10647/31 J
    for reply in ("10647/31\\,\\mathrm{J}", "10647/31 \\text{J}", "10647/31 joule"):
        assert _reward(energy, reply) == 1.0, reply
    for reply in ("10647/31 kJ", "10647/31 m/s", "10646/31\\,\\mathrm{J}"):
        assert _reward(energy, reply) == 0.0, reply


# --- chemistry: a right value in another unit of the asked quantity -------------------------------------------------


def test_dilution_reads_dm3_and_cm3() -> None:
    """``0.123243 mol dm^-3`` for 0.123243 mol/L and ``4.4589 cm^3`` for 4.4589 mL were refused."""
    concentration = _sample("chemistry/dilution", 1, 0)  # 0.123243 mol/L
    for reply in ("0.1232 mol dm^-3", "0.1232 mol/dm³", "0.1232 mol·dm⁻³", "123.2 mmol dm^-3"):
        assert _reward(concentration, reply) == 1.0, reply
    for reply in ("0.1232 mmol dm^-3", "0.1300 mol dm^-3"):
        assert _reward(concentration, reply) == 0.0, reply
    volume = _sample("chemistry/dilution", 0, 0)  # 4.4589 mL
    for reply in ("4.459 cm^3", "4.459 cm³", "0.004459 dm^3"):
        assert _reward(volume, reply) == 1.0, reply
    for reply in ("4.459 dm^3", "4.459 m^3"):
        assert _reward(volume, reply) == 0.0, reply


def test_gas_laws_reads_pa_dm3_the_other_temperature_scale_and_kg() -> None:
    """A pressure in Pa or bar, a volume in dm³ or cm³, a temperature in K where °C is asked (and back) and a mass in
    kg or mg were refused though the value was right; a wrong value or a value not converted still scores 0."""
    pressure = _sample("chemistry/gas_laws", 0, 3)  # 768.898 kPa
    for reply in ("768898 Pa", "7.68898e5 Pa", "7.689 bar"):
        assert _reward(pressure, reply) == 1.0, reply
    for reply in ("768.898 Pa", "768.898 bar", "780000 Pa"):
        assert _reward(pressure, reply) == 0.0, reply
    volume = _sample("chemistry/gas_laws", 0, 2)  # 28.646 L
    for reply in ("28.646 dm^3", "28646 cm³", "0.028646 m^3"):
        assert _reward(volume, reply) == 1.0, reply
    assert _reward(volume, "28.646 cm^3") == 0.0
    celsius = _sample("chemistry/gas_laws", 1, 7)  # -249.143 °C
    kelvin_value = float(Fraction(*celsius.data["exact"]) + Fraction("273.15"))
    assert _reward(celsius, f"{kelvin_value:.3f} K") == 1.0
    assert _reward(celsius, f"{kelvin_value:.3f}") == 0.0  # a bare number is in the asked unit
    assert _reward(celsius, "-249.143 K") == 0.0
    kelvin = _sample("chemistry/gas_laws", 1, 1)  # 255.901 K
    assert _reward(kelvin, "-17.249 °C") == 1.0
    assert _reward(kelvin, "-17.249 K") == 0.0
    mass = _sample("chemistry/gas_laws", 1, 0)  # 4.62406 g
    for reply in ("0.00462406 kg", "4624.06 mg"):
        assert _reward(mass, reply) == 1.0, reply
    for reply in ("4.62406 kg", "4.62406 mg"):
        assert _reward(mass, reply) == 0.0, reply


# --- chemistry: labelled lines with a bullet, a colon or markdown bold ----------------------------------------------


@pytest.mark.parametrize(
    ("env_id", "level", "seed"),
    [
        ("chemistry/electron_configuration", 4, 1),
        ("chemistry/oxidation_states", 4, 1),
        ("chemistry/redox_balance", 4, 3),
    ],
)
def test_listed_answers_read_bulleted_bold_and_colon_labels(env_id: str, level: int, seed: int) -> None:
    """``(a): ...``, ``- (a) ...`` and ``**(a)** ...`` lines were refused (only ``(a)``, ``a)``, ``a.``, ``a:`` were
    read); lines out of order or a bold label left open still score 0."""
    problem = _sample(env_id, level, seed)
    lines = (problem.answer or "").split("\n")

    def relabel(template: str, order: list[str] = lines) -> str:
        return "\n".join(template.format(line[1], line[4:]) for line in order)

    for template in ("({0}): {1}", "- ({0}) {1}", "**({0})** {1}", "* **({0})** {1}", "• {0}) {1}"):
        assert _reward(problem, relabel(template)) == 1.0, template
    for template in ("**({0}) {1}", "({0}):: {1}"):
        assert _reward(problem, relabel(template)) == 0.0, template
    assert _reward(problem, relabel("- ({0}) {1}", [lines[1], lines[0], *lines[2:]])) == 0.0


def test_colligative_properties_reads_a_right_value_in_another_unit() -> None:
    """``394.101 K`` for 120.951 °C, ``3035.1 kPa`` or ``22765 mmHg`` for 29.954 atm and ``0.22999 kg/mol`` for
    229.99 g/mol were refused; a value not converted still scores 0."""
    boiling = _sample("chemistry/colligative_properties", 0, 0)  # 120.951 °C
    assert _reward(boiling, "394.101 K") == 1.0
    for reply in ("120.951 K", "394.101", "394.101 °C"):
        assert _reward(boiling, reply) == 0.0, reply
    osmotic = _sample("chemistry/colligative_properties", 1, 5)  # 29.9542 atm
    for reply in ("3035.1 kPa", "22765 mmHg", "22765 torr", "3.0351e6 Pa"):
        assert _reward(osmotic, reply) == 1.0, reply
    for reply in ("29.9542 kPa", "29.9542 mmHg", "3035.1 atm"):
        assert _reward(osmotic, reply) == 0.0, reply
    molar = _sample("chemistry/colligative_properties", 3, 1)  # 229.988 g/mol
    assert _reward(molar, "0.22999 kg/mol") == 1.0
    assert _reward(molar, "229.988 kg/mol") == 0.0


def test_dilution_reads_the_concentration_named_with_its_solute() -> None:
    """``[BaCl2] = 0.8878 mol/L`` (the concentration's own notation), ``c(BaCl2) = ...`` and ``The final concentration
    of BaCl2 is ...`` were refused; another solute, a wrong value, a hedge or a negation still score 0."""
    problem = _sample("chemistry/dilution", 4, 1)  # BaCl2, 0.887772 mol/L
    for reply in (
        "[BaCl2] = 0.8878 mol/L",
        "[BaCl₂] ≈ 0.8878 M",
        "c(BaCl2) = 0.8878 mol/L",
        "The final concentration of BaCl2 is 0.8878 mol/L.",
    ):
        assert _reward(problem, reply) == 1.0, reply
    for reply in (
        "[NaCl] = 0.8878 mol/L",
        "[BaCl2] = 0.95 mol/L",
        "[BaCl2] = 0.8878 mol/L or 0.5 mol/L",
        "The final concentration of BaCl2 is not 0.8878 mol/L.",
        "[BaCl2] = 0.8878 g/L",
    ):
        assert _reward(problem, reply) == 0.0, reply
