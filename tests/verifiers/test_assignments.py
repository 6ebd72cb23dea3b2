"""Name = value assignments and name -> role answers."""

from __future__ import annotations

from fractions import Fraction

import pytest

from palaestra.verifiers.assignments import read_assignment, read_roles
from palaestra.verifiers.numeric import read_exact, unit_spellings

XY = ["x", "y"]

ASSIGNMENTS = [
    ("x = 2, y = 3", {"x": 2, "y": 3}),
    ("x = 2 = 2.0, y = 3", {"x": 2, "y": 3}),  # the value restated as a decimal (numeric.split_exact_and_decimal)
    ("y = 3, x = 2", {"x": 2, "y": 3}),
    ("(x, y) = (2, 3)", {"x": 2, "y": 3}),
    ("(x, y) = (-6, 5)", {"x": -6, "y": 5}),  # linear_system: issue #9
    ("(x,y)=(-6,5)", {"x": -6, "y": 5}),
    ("[x, y] = [2, 3]", {"x": 2, "y": 3}),
    ("x, y = 2, 3", {"x": 2, "y": 3}),
    ("x: 2, y: 3", {"x": 2, "y": 3}),
    ("x=2; y=3", {"x": 2, "y": 3}),
    ("x = 2 and y = 3", {"x": 2, "y": 3}),
    ("x = 2, and y = 3", {"x": 2, "y": 3}),
    ("x is 2 and y is 3", {"x": 2, "y": 3}),
    ("x = 2\ny = 3", {"x": 2, "y": 3}),
    ("x = 2\n\n  y = 3\n", {"x": 2, "y": 3}),
    (r"x = \frac{1}{2}, y = 3", {"x": Fraction(1, 2), "y": 3}),
    (r"x = -\dfrac{7}{3},\ y = 3", {"x": Fraction(-7, 3), "y": 3}),
    (r"\{x=2, y=3\}", {"x": 2, "y": 3}),
    ("{x = 2, y = 3}", {"x": 2, "y": 3}),
    ("(x = 2, y = 3)", {"x": 2, "y": 3}),
    ("$x = 2$, $y = 3$", {"x": 2, "y": 3}),
    (r"$x = 2, \quad y = 3$", {"x": 2, "y": 3}),
    (r"\begin{cases} x = 2 \\ y = 3 \end{cases}", {"x": 2, "y": 3}),
    (r"\begin{aligned} x &= 2 \\ y &= 3 \end{aligned}", {"x": 2, "y": 3}),
    ("X = 2, Y = 3", {"x": 2, "y": 3}),
    ("**x** = 2, **y** = 3", {"x": 2, "y": 3}),
    ("x = 1,234, y = 5", {"x": 1234, "y": 5}),
    ("x = 2, x = 2, y = 3", {"x": 2, "y": 3}),  # a repeat that agrees
    ("x = 2, y = 3.", {"x": 2, "y": 3}),
    ("Answer: x = 2, y = 3", {"x": 2, "y": 3}),
    # unreadable
    ("x = 2", None),  # y is missing
    ("x = 2, y = 3, z = 1", None),  # z is not asked for
    ("x = 2, x = 3, y = 3", None),  # two values for x
    ("x = 2 (or 3), y = 3", None),
    ("x = 2, y = 3 or 4", None),
    ("x = 2, y = 3, or maybe 4", None),
    ("x = 2, y = 3. Or 4.", None),
    ("(x, y) = (2, 3, 4)", None),
    ("(x, y) = (2, 3", None),
    ("x = 2 y = 3", None),
    ("x = 2 = 2.5, y = 3", None),  # a restated decimal that disagrees is a second value
    ("x = ≈2, y = 3", None),
    ("x = , y = 3", None),
    ("2, 3", None),
    ("", None),
]


@pytest.mark.parametrize("text, expected", ASSIGNMENTS)
def test_read_assignment(text: str, expected: dict | None) -> None:
    assert read_assignment(text, XY) == expected


def test_names_partial_and_value_readers() -> None:
    reactions = ["R_A", "R_B"]
    assert read_assignment("R_A = 26, R_B = 14", reactions) == {"R_A": 26, "R_B": 14}
    assert read_assignment("R_{A} = 26, R_{B} = 14", reactions) == {"R_A": 26, "R_B": 14}
    assert read_assignment("RA = 26, RB = 14", reactions) == {"R_A": 26, "R_B": 14}
    kilonewtons = unit_spellings("kN")
    assert read_assignment("R_A = 26 kN, R_B = 14 kN", reactions, lambda t: read_exact(t, units=kilonewtons)) == {
        "R_A": 26, "R_B": 14}
    assert read_assignment("R_A = 26 s, R_B = 14 kN", reactions, lambda t: read_exact(t, units=kilonewtons)) is None
    assert read_assignment("x = 2", XY, partial=True) == {"x": 2}
    assert read_assignment("a = red, b = blue", ["a", "b"], lambda t: t if t.isalpha() else None) == {
        "a": "red", "b": "blue"}
    assert read_assignment("x_1 = 1, x_2 = 2", ["x_1", "x_2"]) == {"x_1": 1, "x_2": 2}
    assert read_assignment(r"\alpha = 1, \beta = 2", [r"\alpha", r"\beta"]) == {r"\alpha": 1, r"\beta": 2}


NAMES = ["Ada", "Ben", "Cy"]
ROLES = [
    ("Ada is a knight and Ben is a knave, Cy is a knight", {"Ada": "knight", "Ben": "knave", "Cy": "knight"}),
    ("Ada: knight, Ben: knave, Cy: knight", {"Ada": "knight", "Ben": "knave", "Cy": "knight"}),
    ("Ada = knight; Ben = knave; Cy = knight", {"Ada": "knight", "Ben": "knave", "Cy": "knight"}),
    ("Ada and Cy are knights, Ben is a knave.", {"Ada": "knight", "Ben": "knave", "Cy": "knight"}),
    ("Ada and Cy are both knights; Ben is a knave", {"Ada": "knight", "Ben": "knave", "Cy": "knight"}),
    ("ada: KNIGHT\nben: Knave\ncy: knight", {"Ada": "knight", "Ben": "knave", "Cy": "knight"}),
    ("**Ada**: knight\n**Ben**: knave\n**Cy**: knight", {"Ada": "knight", "Ben": "knave", "Cy": "knight"}),
    ("Ada (knight), Ben (knave), Cy (knight)", {"Ada": "knight", "Ben": "knave", "Cy": "knight"}),
    ("Ada - knight, Ben - knave, Cy - knight", {"Ada": "knight", "Ben": "knave", "Cy": "knight"}),
    ("Ada: knight, Ben: knave", None),  # Cy left out
    ("Ada is a knight or a knave, Ben is a knave, Cy is a knight", None),
    ("Ada is not a knight, Ben is a knave, Cy is a knight", None),
    ("Ada is a knight, Ada is a knave, Ben: knave, Cy: knight", None),
    ("Dan is a knight, Ada: knight, Ben: knave, Cy: knight", None),
    ("Ada, Ben, Cy", None),
    ("knight: Ada, Ben", None),
    ("Ada is a knight, Ben is a knave, Cy is a knight, maybe", None),
]


@pytest.mark.parametrize("text, expected", ROLES)
def test_read_roles(text: str, expected: dict | None) -> None:
    assert read_roles(text, NAMES, ["knight", "knave"]) == expected


def test_knights_and_knaves_two_names() -> None:
    """knights_knaves: issue #9."""
    assert read_roles("Ada is a knight and Ben is a knave", ["Ada", "Ben"], ["knight", "knave"]) == {
        "Ada": "knight", "Ben": "knave"}


def test_role_synonyms_and_partial() -> None:
    roles = {"knight": ["knight", "truth-teller"], "knave": ["knave", "liar"]}
    expected = {"Ada": "knight", "Ben": "knave"}
    assert read_roles("Ada is a truth-teller, Ben is a liar", ["Ada", "Ben"], roles) == expected
    assert read_roles("Ada and Ben are liars", ["Ada", "Ben"], roles) == {"Ada": "knave", "Ben": "knave"}
    assert read_roles("Ada is a knight", NAMES, ["knight", "knave"], partial=True) == {"Ada": "knight"}
