"""The answer grammar of :mod:`palaestra.verifiers.normalize`, reader by reader (issue #21, item 6).

An answer block is read only when a lead-in, the answer, a declared unit and closing punctuation or markup
account for all of it. Each reader below gets the same three tables: spellings a careful grader accepts,
retractions and hedges that must not be read, and the remarks the old word-list rule read past (now unparsed).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import chess
import pytest

from palaestra.verifiers.assignments import read_assignment, read_roles
from palaestra.verifiers.blocks import read_block, read_grid
from palaestra.verifiers.chess_moves import read_move
from palaestra.verifiers.choices import read_choice, read_yes_no
from palaestra.verifiers.intervals import read_intervals
from palaestra.verifiers.matrices import read_matrix
from palaestra.verifiers.moves import read_place_moves, read_tokens
from palaestra.verifiers.normalize import strip_wrappers
from palaestra.verifiers.numeric import read_exact, unit_spellings
from palaestra.verifiers.sets import read_list, read_set

RETRACTIONS = [
    ". That is not the answer.",
    ". This is false.",
    "\nJust kidding, I do not know.",
    ". I take it back.",
    ". Or maybe not.",
    " (no, that is wrong)",
]
# Remarks the old trailing-text rule read past as harmless; the grammar cannot tell them from retractions.
FORMER_REMARKS = [
    ". That is the total.",
    "\n\nThat is all of them.",
    " (the total)",
    " — that is the final answer",
    "; this is exact",
    ", as required.",
]

Reader = Callable[[str], object]
READERS: dict[str, tuple[Reader, object, list[str]]] = {
    # name: (reader, the value read, spellings of it a careful grader accepts)
    "number": (read_exact, Fraction(10), [
        "10", "10.", r"\boxed{10}", "$10$", "**10**", "`10`", "Answer: 10", "**Answer:** 10.", "Answer: **10**.",
        "x = 10", "The final answer is 10.", "The total is 10.", "There are 10.", "So, 10.", "(10)",
    ]),
    "number with unit": (lambda s: read_exact(s, units=unit_spellings("m/s")), Fraction(7), [
        "7 m/s", "7 m/s.", "v = 7 metres per second", r"\boxed{7\ \text{m/s}}",
    ]),
    "yes/no": (read_yes_no, True, ["yes", "Yes.", "**YES**", "YES!!!", "Answer: yes", r"\boxed{\text{Yes}}", "true"]),
    "choice": (lambda s: read_choice(s, "ABCD"), "B", ["B", "(B)", "B.", "option B", "Answer: (B)", "**B**"]),
    "set": (lambda s: read_set(s, read_exact), frozenset({Fraction(2), Fraction(3)}), [
        "2, 3", "{2, 3}", "2 and 3", "The solutions are 2 and 3.", r"\{2, 3\}.", "x = 2, 3",
    ]),
    "list": (lambda s: read_list(s, read_exact), [Fraction(1), Fraction(2), Fraction(3)], [
        "1, 2, 3", "[1, 2, 3]", "1, 2, 3.", "Answer: 1, 2, 3",
    ]),
    "assignment": (lambda s: read_assignment(s, ["x", "y"]), {"x": Fraction(-6), "y": Fraction(5)}, [
        "x = -6, y = 5", "(x, y) = (-6, 5)", "x = -6 and y = 5.", "$x = -6$, $y = 5$", "x=-6\ny=5",
    ]),
    "roles": (lambda s: read_roles(s, ["Ada", "Ben"], ["knight", "knave"]), {"Ada": "knight", "Ben": "knave"}, [
        "Ada is a knight and Ben is a knave", "Ada: knight, Ben: knave.", "Ada is a knight. Ben is a knave.",
    ]),
    "tokens": (lambda s: read_tokens(s, "UDLR", max_count=10), list("RRDD"), ["RRDD", "R R D D.", "R, R, D, D"]),
    "place moves": (lambda s: read_place_moves(s, "ABC", max_count=5), [("A", "C"), ("A", "B")], [
        "A->C, A->B", "A to C, then A to B.", "**A->C, A->B**",
    ]),
    "interval": (read_intervals, read_intervals("(-inf, 0)"), ["(-∞, 0)", "(-∞, 0).", "x < 0", r"\boxed{(-\infty, 0)}"]),
    "matrix": (read_matrix, read_matrix("[[1, 2], [3, 4]]"), ["[[1, 2], [3, 4]]", "[[1, 2], [3, 4]]."]),
    "grid": (lambda s: read_grid(s, "#."), [["#", "."], [".", "#"]], ["#.\n.#", "```\n#.\n.#\n```", "Grid:\n#.\n.#"]),
    "block": (read_block, ["8", "10"], ["8\n10", "Output:\n```\n8\n10\n```", "```\n8\n10\n```"]),
    "chess move": (lambda s: read_move(chess.Board(), s), chess.Move.from_uci("g1f3"), ["Nf3", "Nf3.", "**Nf3**"]),
}
GOLD = {  # a plain spelling of each value, to build retractions from
    "number": "10", "number with unit": "7 m/s", "yes/no": "yes", "choice": "B", "set": "2, 3", "list": "1, 2, 3",
    "assignment": "x = -6, y = 5", "roles": "Ada is a knight and Ben is a knave", "tokens": "RRDD",
    "place moves": "A->C, A->B", "interval": "(-∞, 0)", "matrix": "[[1, 2], [3, 4]]", "grid": "#.\n.#",
    "block": "```\n8\n10\n```", "chess move": "Nf3",
}
ACCEPTED = [(name, spelling) for name, (_, _, spellings) in READERS.items() for spelling in spellings]


@pytest.mark.parametrize("name, spelling", ACCEPTED)
def test_spellings_a_careful_grader_accepts(name: str, spelling: str) -> None:
    reader, value, _ = READERS[name]
    assert reader(spelling) == value


@pytest.mark.parametrize("retraction", RETRACTIONS)
@pytest.mark.parametrize("name", READERS)
def test_a_retraction_leaves_the_answer_unparsed(name: str, retraction: str) -> None:
    reader, _, spellings = READERS[name]
    for gold in (GOLD[name], spellings[-1]):
        text = gold.rstrip(".") + retraction
        assert reader(text) is None, text


@pytest.mark.parametrize("remark", FORMER_REMARKS)
@pytest.mark.parametrize("name", READERS)
def test_remarks_the_old_rule_read_past_are_unparsed(name: str, remark: str) -> None:
    """Flipped expectations: ``10. That is the total.`` and ``Yes, it is entailed.`` used to read."""
    reader, _, _ = READERS[name]
    assert reader(GOLD[name] + remark) is None


@pytest.mark.parametrize("text", [
    "10, or maybe 12", "10 or 12", "x = 10 (or 12)", "about 10", "10?", "10 is the answer", "I think 10",
    "10 apples", "10...", "10!", "10. 12.",
])
def test_hedges_and_second_answers_in_a_number(text: str) -> None:
    assert read_exact(text) is None


@pytest.mark.parametrize("text", [
    "Yes, it is entailed.", "Yes (entailed)", "No — the premises do not entail it", "Yes, yes.", "yes or no",
    "Yes, no wait, no", "maybe", "yes\n\nThe premises force it.",
])
def test_yes_no_is_the_option_alone(text: str) -> None:
    assert read_yes_no(text) is None


def test_a_leading_star_is_part_of_the_answer_not_bold_markup() -> None:
    """Issue #21 item 12: ``Answer: *...`` lost its first ``*`` (a lamp or a star) as if it opened bold text."""
    assert strip_wrappers("Answer: *.\n.*") == strip_wrappers("**Answer:** *.\n.*") == "*.\n.*"
    assert strip_wrappers("Answer: **x**") == "x"


@pytest.mark.parametrize("text, value", [
    ("pi/15 ≈ 0.2094", "pi/15"), (r"\frac{\pi}{15} \approx 0.21.", "pi/15"), ("2*sqrt(23) ≈ 9.6...", "2*sqrt(23)"),
    ("pi/15 ≈ 0.5", None), ("pi/15 ≈ 0.2094. Or maybe not.", None), ("pi ≈ 3.14 ≈ 3", None),
])
def test_an_exact_constant_with_its_decimal_value(text: str, value: str | None) -> None:
    """Item 12: a fuller answer, the exact value and an agreeing approximation, is one answer; a disagreeing
    approximation is a second answer."""
    from palaestra.verifiers.formulas import agree, evaluate, read_formula

    got = read_formula(text, [])
    assert (got is None) if value is None else agree(evaluate(got, {}), evaluate(read_formula(value, []), {}))


@pytest.mark.parametrize("text, value", [("φ = 178", 178), (r"\phi = 178", 178), ("φ = 178. I take it back.", None)])
def test_a_greek_name_before_a_number(text: str, value: int | None) -> None:
    assert read_exact(text) == value
