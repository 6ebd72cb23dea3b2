from __future__ import annotations

import time
from fractions import Fraction

import pytest

from palaestra.core.extract import extract, wrap
from palaestra.verifiers.expressions import evaluate_exact, evaluate_float, leaves, parse_expression
from palaestra.verifiers.numeric import parse_number

HOSTILE = ["9**9**9**9", "__import__('os').system('echo hi')", "().__class__", "lambda: 1", "x.y", "[1][0]",
           "(" * 10000 + "1" + ")" * 10000, "1" * 5000, "f'{1}'", "open('/etc/passwd')", "2**99999", "10**-9999"]


@pytest.mark.parametrize(
    "text, fmt, expected",
    [
        ("a <answer>1</answer> b <answer> 2 </answer>", "tag", "2"),
        ("<answer>1", "tag", None),
        ("</answer><answer>", "tag", None),
        (r"x \boxed{\frac{1}{2}} y", "boxed", r"\frac{1}{2}"),
        (r"\boxed{1} then \boxed{{2}}", "boxed", "{2}"),
        (r"\boxed{unclosed", "boxed", None),
        ("work\n\nFinal answer: 7\n", "last_line", "7"),
        ("  hi  ", "raw", "hi"),
    ],
)
def test_extract(text: str, fmt: str, expected: str | None) -> None:
    assert extract(text, fmt) == expected


def test_wrap_inverts_extract() -> None:
    for fmt in ("tag", "boxed", "last_line", "raw"):
        assert extract(wrap("3/4", fmt), fmt) == "3/4"


def test_extract_is_linear_on_huge_input() -> None:
    text = "<answer>" * 200_000 + "\\boxed{" * 200_000
    t0 = time.process_time()
    for fmt in ("tag", "boxed", "last_line"):
        extract(text, fmt)
    assert time.process_time() - t0 < 1.0


@pytest.mark.parametrize("text, value", [("42", 42), ("-7/2", Fraction(-7, 2)), ("1,234", 1234), ("3.25", Fraction(13, 4)),
                                         ("x = 5", 5), ("$12$", 12), (r"-\frac{3}{4}", Fraction(-3, 4)), ("5.", 5),
                                         ("1e5", 100_000)])  # scientific notation is a numeral (issue #9: 10e0)
def test_parse_number_accepts_numerals(text: str, value: Fraction) -> None:
    assert parse_number(text) == value


@pytest.mark.parametrize("text", ["2+2", "1/0", "12,34", "", "five", "9" * 200, "4 2"])
def test_parse_number_rejects_non_numerals(text: str) -> None:
    assert parse_number(text) is None


@pytest.mark.parametrize("text", HOSTILE)
def test_expression_reader_refuses_hostile_text_quickly(text: str) -> None:
    t0 = time.process_time()
    e = parse_expression(text, variables={"x"})
    assert evaluate_exact(e) is None
    assert evaluate_float(e, {"x": 1.0}) is None
    assert time.process_time() - t0 < 0.5


def test_expression_values_and_leaves() -> None:
    e = parse_expression("2(3 + x)^2 - 10/4", variables={"x"})
    assert evaluate_exact(e, {"x": Fraction(1)}) == Fraction(59, 2)
    assert [leaf[1] for leaf in leaves(parse_expression("(75 - 25) * 3"))] == [75, 25, 3]
    assert parse_expression("1 + 2", operators=("*",)) is None
    assert evaluate_exact(parse_expression("1e3")) == 1000


def test_a_program_with_windows_line_endings_reads_as_its_lines() -> None:
    from palaestra.verifiers.polyglot import read_program

    program = read_program("```sed\r\ns/a/b/\r\np\r\n```", ["sed"])
    assert not isinstance(program, str) and program.code == "s/a/b/\np"
