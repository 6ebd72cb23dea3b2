"""Regression tests for the speed-ups of slow code/tools/terminal generators (issue #29, item 3): each
faster path computes exactly what the plain one it replaced did."""

from __future__ import annotations

import math
import random

from palaestra.envs.code import mutation_tests, subsequence
from palaestra.envs.code.common import compiled_function


def test_mutation_call_copies_arguments_so_a_mutating_function_cannot_change_them() -> None:
    def pops(xs: list[int], pair: tuple[list[int], int]) -> int:
        pair[0].append(9)
        return xs.pop()

    xs, pair = [1, 2, 3], ([4], 5)
    assert mutation_tests.call(pops, [xs, pair]) == ("value", 3)
    assert xs == [1, 2, 3] and pair == ([4], 5)
    assert mutation_tests.call(lambda xs: xs[10], [[1]]) == ("raised", "IndexError")


def test_mutations_are_the_single_changes_of_the_source_in_order() -> None:
    source = "def f(x):\n    return x + 1 if x < 2 else x\n"
    mutants = mutation_tests.mutations(source)
    # 5 other comparisons, 4 other arithmetic operators, the constants 1 and 2 moved by -1 and +1
    assert len(mutants) == 5 + 4 + 4 and len(set(mutants)) == len(mutants)
    assert mutants[0] == "def f(x):\n    return x + 1 if x <= 2 else x\n"
    assert "def f(x):\n    return x - 1 if x < 2 else x\n" in mutants
    assert mutation_tests.mutations(source) == mutants  # the parsed tree is never changed in place


def test_subsequence_rule_masks_equal_each_rule_tested_alone() -> None:
    rng = random.Random(7)
    for _ in range(30):
        rules = [make(rng) for make in rng.sample(list(subsequence.RULES.values()), 4)]
        xs = [rng.randint(-10, 30) for _ in range(rng.randint(0, 12))]
        tests = [compiled_function(f"def rule(xs, j, i):\n    return {code}\n", "rule") for _, code in rules]
        plain = [[sum(1 << r for r, holds in enumerate(tests) if holds(xs, j, i)) for j in range(i)]
                 for i in range(len(xs))]
        assert subsequence._rule_masks(xs, rules) == plain


def test_random_walk_keeps_terms_within_max_size_and_each_step_is_one_rewrite() -> None:
    from palaestra.envs.proofs._rewriting import one_step, random_walk, size
    from palaestra.envs.proofs.lattice_identities import LATTICE

    rng = random.Random(3)
    for _ in range(20):
        start = ("meet", ("var", "a"), ("join", ("var", "b"), ("var", "a")))
        chain = random_walk(rng, start, LATTICE.axioms, 12, 9, lambda: ("var", rng.choice("ab")))
        assert chain[0] == start and len(set(chain)) == len(chain)
        assert all(size(term) <= 9 for term in chain)
        assert all(one_step(before, after, LATTICE.axioms) for before, after in zip(chain, chain[1:]))


def test_weekday_count_equals_counting_day_by_day() -> None:
    from datetime import date, timedelta

    from palaestra.envs.tools.date_arithmetic import _weekdays

    rng = random.Random(5)
    for _ in range(300):
        start = date(1900, 1, 1) + timedelta(days=rng.randint(0, 80_000))
        end = start + timedelta(days=rng.randint(0, 60))
        holidays = {start + timedelta(days=rng.randint(-3, 65)) for _ in range(rng.randint(0, 6))}
        by_day = sum(1 for i in range((end - start).days + 1)
                     if (start + timedelta(days=i)).weekday() < 5 and start + timedelta(days=i) not in holidays)
        assert _weekdays(start, end, holidays) == by_day


def test_root_finding_value_reads_fraction_coefficients_and_root_solves_the_equation() -> None:
    from decimal import Decimal
    from fractions import Fraction

    from palaestra.envs.tools.root_finding import _decimal_value, _root, _value

    terms = [["power", "3/4", 3], ["exp", "1/2", 0], ["ln", "5/4", 0]]
    assert abs(_value(terms, 2.0) - (0.75 * 8 + 0.5 * math.exp(2) + 1.25 * math.log(3))) < 1e-12
    constant = Fraction(2000, 100)
    root = _root(terms, constant, 1, 4)
    assert 1 < root < 4
    assert abs(_decimal_value(terms, Decimal(root.numerator) / Decimal(root.denominator)) - Decimal(20)) < Decimal(1e-30)


def test_truth_tables_equal_evaluating_row_by_row() -> None:
    import itertools

    from palaestra.envs.proofs._logic import entails, models, random_formula, value

    rng = random.Random(11)
    for _ in range(200):
        names = ["p", "q", "r", "s"][: rng.randint(1, 4)]
        formulas = [random_formula(rng, names, rng.randint(0, 4)) for _ in range(rng.randint(0, 3))]
        by_row = sum(1 << row for row, bits in enumerate(itertools.product((False, True), repeat=len(names)))
                     if all(value(f, dict(zip(names, bits))) for f in formulas))
        assert models(formulas, names) == by_row
    p, q = ("atom", "p"), ("atom", "q")
    assert entails([("imp", p, q), p], q, ["p", "q"]) and not entails([("or", p, q)], p, ["p", "q"])
    assert models([("bot",)], ["p"]) == 0 and models([], ["p", "q"]) == 0b1111


def test_web_constant_tables_are_in_the_order_the_generators_drew_from() -> None:
    from datetime import date

    from palaestra.envs.web import order_history, room_booking

    assert room_booking.NIGHTS == tuple(sorted(room_booking.NIGHTS))
    assert room_booking.NIGHTS[0] == date(2024, 7, 1).isoformat() and len(room_booking.NIGHTS) == room_booking.DAYS
    assert order_history.CATEGORY_NAMES == tuple(sorted(order_history.CATEGORIES))
