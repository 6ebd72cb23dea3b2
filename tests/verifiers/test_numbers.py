"""Numbers: every spelling a careful grader accepts, and the near misses it rejects."""

from __future__ import annotations

from fractions import Fraction

import pytest

from palaestra.verifiers.numeric import (
    Tolerance,
    grade_number,
    is_inexact_decimal,
    max_fraction_digits,
    parse_number,
    read_approx,
    read_exact,
    read_integer,
    read_number,
    read_plain_decimal,
    unit_spellings,
)

F = Fraction
VELOCITY = unit_spellings("m/s")

EXACT_ACCEPTED = [
    ("42", 42),
    ("-7", -7),
    ("+5", 5),
    ("−5", -5),  # unicode minus
    (r"- \frac{3}{4}", F(-3, 4)),
    ("3.25", F(13, 4)),
    (".5", F(1, 2)),
    ("10.0", 10),
    ("481.0", 481),  # guess_number: an integer written with .0
    ("-7/2", F(-7, 2)),
    ("7 / 2", F(7, 2)),
    ("1.5/2", F(3, 4)),
    (r"\frac{3}{4}", F(3, 4)),
    (r"\dfrac{3}{4}", F(3, 4)),
    (r"\tfrac{3}{4}", F(3, 4)),
    (r"\frac12", F(1, 2)),
    (r"-\frac{3}{4}", F(-3, 4)),
    (r"\frac{-3}{4}", F(-3, 4)),
    (r"\frac{1,000}{3}", F(1000, 3)),
    ("½", F(1, 2)),
    ("3½", F(7, 2)),
    ("-2¾", F(-11, 4)),
    ("1,234", 1234),
    ("1,234,567.5", F(2469135, 2)),
    ("1 234", 1234),
    (r"1\,234", 1234),
    ("1{,}234", 1234),
    ("1\u202f234", 1234),  # narrow no-break space
    ("10e0", 10),  # arithmetic: issue #9
    ("1e5", 100_000),
    ("1.5e3", 1500),
    ("1.5E+3", 1500),
    ("2.5e-1", F(1, 4)),
    (r"1.5 \times 10^{3}", 1500),
    (r"1.5 \times 10^3", 1500),
    ("1.5·10^3", 1500),
    ("1.5 x 10^3", 1500),
    ("1.5×10³", 1500),
    ("1.5*10**3", 1500),
    (r"1.5 \cdot 10^{-3}", F(3, 2000)),
    (r"0.\overline{3}", F(1, 3)),
    (r"0.1\overline{6}", F(1, 6)),
    ("(10)", 10),  # arithmetic: issue #9
    ("((10))", 10),
    (r"\left( 10 \right)", 10),
    (r"\boxed{10}", 10),  # arithmetic: issue #9
    (r"$\boxed{10}$", 10),
    ("$10$", 10),
    ("$$10$$", 10),
    (r"\(10\)", 10),
    (r"\[10\]", 10),
    ("**10**", 10),
    ("`10`", 10),
    ("```\n10\n```", 10),
    ('"10"', 10),
    ("x = 10", 10),
    ("x=10", 10),
    ("R_A = 26", 26),
    (r"\theta = 3", 3),
    ("Answer: 10", 10),
    ("The answer is 10.", 10),
    ("The final answer is $10$", 10),
    ("**Answer:** 10", 10),
    ("Therefore, x = 10.", 10),
    ("10.", 10),
    ("10!", None),  # a factorial, not an exclamation
]

EXACT_REJECTED = [
    "",
    "   ",
    "ten",
    "2+2",
    "(8 + 4) * 7 = 85",  # countdown: issue #9 (the expression is not a numeral, and "= 85" is no remark)
    "10, or maybe 12",
    "10 or 12",
    "x = 2 (or 3)",
    "10?",
    "10. Maybe.",
    "10. That is ten.",  # a number word in the remark
    "10. That is 10 apples.",  # digits in the remark
    "10, x",  # a symbol, not a remark
    "10. Wait, no.",
    "10 apples",
    "7 seconds",
    "1/0",
    r"\frac{1}{0}",
    "12,34",
    "1,23",
    "4 2",
    "1 1/2",  # a mixed number only when the caller allows it
    r"3\frac{1}{2}",
    "10^3",  # an expression, not a numeral
    "2^{10}",
    "1e",
    "e5",
    "1e99999",
    "--5",
    "- 5",  # a bullet, not a sign
    "≈ 7",  # approximation markers need approximate=True
    "~7",
    "about 7",
    "approximately 7",
    "x ≈ 7",
    r"x \approx 7",
    "3.14...",
    "3.14…",
    "10...",
    "0x1F",
    "1_000",
    "NaN",
    "inf",
    "∞",
    "5 5 5",
    "(10",
    "10)",
    "{10}",
]


@pytest.mark.parametrize("text, value", EXACT_ACCEPTED)
def test_read_exact_accepts(text: str, value: Fraction | None) -> None:
    assert read_exact(text) == (None if value is None else Fraction(value))


@pytest.mark.parametrize("text", EXACT_REJECTED)
def test_read_exact_rejects(text: str) -> None:
    assert read_exact(text) is None


@pytest.mark.parametrize(
    "text, value",
    [("1 1/2", F(3, 2)), ("-2 3/4", F(-11, 4)), (r"3\frac{1}{2}", F(7, 2)), ("3 4/3", None), ("3 0/2", None)],
)
def test_mixed_numbers_only_when_allowed_and_proper(text: str, value: Fraction | None) -> None:
    assert read_exact(text, mixed=True) == value


@pytest.mark.parametrize(
    "text, value",
    [("≈ 7", 7), ("~7", 7), ("~= 7", 7), ("about 7", 7), ("approximately 7.0", 7), ("Approx. 7", 7), ("x ≈ 7", 7),
     (r"v \approx 7", 7), ("3.14...", F(157, 50)), ("roughly 2.5", F(5, 2)), ("7", 7),
     ("3.1416 (approx)", F(3927, 1250)), ("7 (approx.)", 7), ("7, approximately", 7), ("7 approx.", 7)],
)
def test_read_approx_accepts_markers(text: str, value: Fraction) -> None:
    assert read_approx(text) == value


@pytest.mark.parametrize("text", ["≈ 7 or 8", "about 7, maybe 8", "≈≈ 7", "approximately", "7 (approx) or 8",
                                  "7 or 8 (approx.)"])
def test_read_approx_rejects(text: str) -> None:
    assert read_approx(text) is None


UNIT_CASES = [
    ("7 m/s", 7),
    ("7m/s", 7),
    ("7 m s^-1", 7),
    ("7 m·s⁻¹", 7),
    (r"7\,\mathrm{m\,s^{-1}}", 7),
    (r"7 \text{ m/s}", 7),
    ("$7$ m/s", 7),
    ("7 meters per second", 7),
    ("7 Metres per second", 7),  # words match in any case
    ("7", 7),
    ("7 seconds", None),  # kinematics: issue #9 (the wrong unit for a velocity)
    ("7 s", None),
    ("7 m/s^2", None),
    ("7 m", None),
    ("7 km/h", None),
    ("7 M/S", None),
    ("7 m/s or 8 m/s", None),
]


@pytest.mark.parametrize("text, value", UNIT_CASES)
def test_units_only_the_asked_quantitys(text: str, value: int | None) -> None:
    assert read_exact(text, units=VELOCITY) == value


def test_unit_required_and_unit_factors() -> None:
    assert read_exact("7", units=VELOCITY, unit_required=True) is None
    assert read_exact("7 m/s", units=VELOCITY, unit_required=True) == 7
    speeds = {"m/s": 1, "km/h": F(5, 18)}
    assert read_exact("25.2 km/h", units=speeds) == 7
    assert read_exact("7 m/s", units=speeds) == 7
    assert read_exact("7 KM/H", units=speeds) is None  # "/" makes it a symbol, matched as written
    assert read_exact("12 Seconds", units=unit_spellings("s")) == 12  # words match in any case
    assert read_exact("90°", units=unit_spellings("deg")) == 90
    assert read_exact("50%", units=unit_spellings("%")) == 50
    assert read_exact("50%") is None
    assert read_approx("≈ 7 m/s", units=VELOCITY) == 7  # kinematics: issue #9, only where approximation is allowed
    assert read_exact("≈ 7 m/s", units=VELOCITY) is None


@pytest.mark.parametrize(
    "text, expected, tolerance, verdict",
    [
        ("0.5", F(1, 2), None, True),
        ("0.333", F(1, 3), None, False),  # exact means exact
        ("1/3", F(1, 3), None, True),
        ("≈ 0.333", F(1, 3), None, None),  # a marker where exact is asked: unreadable
        ("0.333", F(1, 3), Tolerance(absolute="0.001"), True),
        ("0.33", F(1, 3), Tolerance(absolute="0.001"), False),
        ("≈ 0.333", F(1, 3), Tolerance(absolute="0.001"), True),
        ("26.00", "26.004", Tolerance.decimals(2), True),
        ("26", "26.004", Tolerance.decimals(2), True),
        ("26.02", "26", Tolerance.decimals(2), False),  # beam_statics: issue #9 (R_A = 26.02 for 26)
        ("26.01", "26.004", Tolerance.decimals(2), False),
        ("1001", 1000, Tolerance(relative="0.001"), True),
        ("1002", 1000, Tolerance(relative="0.001"), False),
        ("7 seconds", 7, Tolerance(relative="0.01"), None),
        ("a third", F(1, 3), None, None),
    ],
)
def test_grade_number(text: str, expected, tolerance: Tolerance | None, verdict: bool | None) -> None:
    assert grade_number(text, expected, tolerance=tolerance, units=unit_spellings("m")) == verdict


def test_grade_number_can_refuse_markers_even_with_a_tolerance() -> None:
    assert grade_number("≈ 7", 7, tolerance=Tolerance(absolute=1), approximate=False) is None


def test_tolerance_from_floats_means_their_decimal_and_describes_itself() -> None:
    assert Tolerance(absolute=0.01).absolute == F(1, 100)
    assert Tolerance.decimals(1).describe() == "rounded to 1 decimal place"
    assert Tolerance(relative="0.001").describe() == "within 0.1% of the exact value"
    assert Tolerance().describe() == "exactly"
    with pytest.raises(ValueError):
        Tolerance(absolute=-1)


@pytest.mark.parametrize(
    "text, exact_values, inexact",
    [
        ("2.000000001", [2], True),  # solve_equation: issue #9
        ("1.4142135624", [], True),  # a 10-digit decimal for √2
        ("x = 1.41421356", [], True),
        ("-0.7071067812", [], True),
        ("2.0", [2], False),
        ("2", [2], False),
        ("0.125", [F(1, 8)], False),
        ("0.0009765625", [F(1, 1024)], False),
        ("1.5", [F(3, 2), 2], False),
        (r"\sqrt{2}", [], False),
        ("3/2", [], False),
        ("(1 + 2.2360679775)/2", [], False),  # an expression: see max_fraction_digits
    ],
)
def test_is_inexact_decimal(text: str, exact_values: list, inexact: bool) -> None:
    assert is_inexact_decimal(text, exact_values) is inexact


def test_plain_decimal_and_fraction_digits() -> None:
    assert read_plain_decimal("2.50") == (F(5, 2), 2)
    assert read_plain_decimal("1.5e3") == (F(1500), 1)
    assert read_plain_decimal("7") is None
    assert read_plain_decimal("≈ 1.5") is None
    assert max_fraction_digits("(1 + 2.2360679775)/2") == 10
    assert max_fraction_digits(r"\frac{1 + \sqrt{5}}{2}") == 0


@pytest.mark.parametrize("text, value", [("481.0", 481), ("4.81e2", 481), ("1,000", 1000), ("-3", -3), ("2.5", None),
                                         ("1/2", None), ("481.", 481), ("0", 0)])
def test_read_integer(text: str, value: int | None) -> None:
    result = read_integer(text)
    assert result == value and (value is None or type(result) is int)


def test_size_limits() -> None:
    assert read_exact("9" * 1000) == int("9" * 1000)
    assert read_exact("9" * 1001) is None
    assert read_number("9" * 3000, max_digits=3000) == int("9" * 3000)
    assert read_number("9" * 5000, max_digits=10_000) is None  # capped below CPython's int() limit
    assert read_exact("1e999") == 10**999
    assert read_exact("1e1001") is None
    assert parse_number("9" * 200) is None  # parse_number keeps its 80-digit cap
    assert parse_number("1e999") is None
    assert read_exact(None) is None  # type: ignore[arg-type]
    assert read_exact(12) is None  # type: ignore[arg-type]


def test_parse_number_is_read_exact() -> None:
    for text, value in EXACT_ACCEPTED:
        assert parse_number(text) == (None if value is None else Fraction(value)), text


def test_the_greek_mu_and_the_micro_sign_read_as_one_prefix() -> None:
    for table in ({"\u00b5F": Fraction(1, 10**6)}, {"\u03bcF": Fraction(1, 10**6)}):
        for text in ("5 \u00b5F", "5 \u03bcF", "5\u03bcF", "x = 5 \u03bcF."):
            assert read_number(text, units=table) == Fraction(5, 10**6), (text, table)
        assert read_number("5 mF", units=table) is None


def test_latex_degrees_read_as_the_degree_sign() -> None:
    table = {"°C": 1}
    for text in ("-1.75 °C", r"-1.75^\circ C", r"-1.75^{\circ}C", r"$-1.75^\circ\text{C}$", r"-1.75 \degree C"):
        assert read_number(text, units=table) == Fraction(-7, 4), text
    assert read_number(r"-1.75^\circ F", units=table) is None


def test_latex_escaped_dollar_is_the_currency_sign() -> None:
    # "-\$8.40" lost its "$" and kept the backslash, so every money reader refused it
    assert read_exact(r"-\$8.40") == F(-42, 5) and read_exact(r"\$5") == 5 and read_exact(r"$\$12.50$") == F(25, 2)
    assert read_exact(r"\$5 or \$6") is None and read_exact(r"\$5. No, \$6") is None
