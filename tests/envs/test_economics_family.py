"""Hand-checked instances of the economics family: known equilibria, wrong answers refused, other spellings read."""

from __future__ import annotations

from fractions import Fraction

from palaestra.core import Problem
from palaestra.core.registry import make_source
from palaestra.envs.economics.amortisation import balance_after, level_payment
from palaestra.envs.economics.amortisation import to_cents as amortisation_cents
from palaestra.envs.economics.auction_outcomes import dutch, english
from palaestra.envs.economics.common import pure_equilibria
from palaestra.envs.economics.dominance import eliminate
from palaestra.envs.economics.fair_division import greedy_owners, round_robin_owners, shortfall
from palaestra.envs.economics.market_equilibrium import equilibrium
from palaestra.envs.economics.nash_mixed import an_equilibrium
from palaestra.envs.economics.npv_irr import npv, payback, to_cents
from palaestra.envs.economics.shapley_value import shapley
from palaestra.envs.economics.voting_rules import borda, plurality, runoff, schulze

# Prisoner's dilemma: A/1 cooperate, B/2 defect. Payoffs (row, column).
PD_ROW = [[3, 0], [5, 1]]
PD_COLUMN = [[3, 5], [0, 1]]
# Matching pennies shifted to non-negative payoffs: the row player wants to match, the column player not to.
PENNIES_ROW = [[2, 0], [0, 2]]
PENNIES_COLUMN = [[0, 2], [2, 0]]


def nash_pure_problem(row: list[list[int]], column: list[list[int]]) -> Problem:
    names = [f"{'ABCDEF'[i]}{j + 1}" for i, j in pure_equilibria(row, column)]
    return Problem("economics/nash_pure", 0, 0, "", ", ".join(names) or "none",
                   {"row_payoffs": row, "column_payoffs": column, "equilibria": names}, 1)


def test_prisoners_dilemma_has_the_unique_pure_equilibrium_defect_defect() -> None:
    assert pure_equilibria(PD_ROW, PD_COLUMN) == [(1, 1)]
    task, problem = make_source("economics/nash_pure"), nash_pure_problem(PD_ROW, PD_COLUMN)
    assert task.verify(problem, "B2").correct
    assert task.verify(problem, "\\boxed{b2}").correct
    cooperate = task.verify(problem, "A1")
    assert not cooperate.correct and "row B" in cooperate.feedback
    assert not task.verify(problem, "none").correct
    assert not task.verify(problem, "B2, A1").correct


def test_matching_pennies_has_no_pure_equilibrium() -> None:
    assert pure_equilibria(PENNIES_ROW, PENNIES_COLUMN) == []
    task, problem = make_source("economics/nash_pure"), nash_pure_problem(PENNIES_ROW, PENNIES_COLUMN)
    assert task.verify(problem, "none").correct
    assert not task.verify(problem, "A1").correct


def test_coordination_game_needs_both_equilibria() -> None:
    row = [[2, 0], [0, 1]]
    task, problem = make_source("economics/nash_pure"), nash_pure_problem(row, row)
    assert task.verify(problem, "B2 and A1").correct
    missing = task.verify(problem, "A1")
    assert not missing.correct and "missing" in missing.feedback


def test_nash_pure_none_is_rare() -> None:
    task = make_source("economics/nash_pure")
    nones = sum(task.sample(2, seed).answer == "none" for seed in range(300))
    assert 5 <= nones <= 60


def nash_mixed_problem(row: list[list[int]], column: list[list[int]]) -> Problem:
    names = ["T", "B", *"LCR"[: len(row[0])]]
    return Problem("economics/nash_mixed", 0, 0, "", "", {"row_payoffs": row, "column_payoffs": column,
                                                          "names": names, "mix": []}, 1)


def test_matching_pennies_mixes_half_and_half() -> None:
    assert an_equilibrium(PENNIES_ROW, PENNIES_COLUMN) == ([Fraction(1, 2)] * 2, [Fraction(1, 2)] * 2)
    task, problem = make_source("economics/nash_mixed"), nash_mixed_problem(PENNIES_ROW, PENNIES_COLUMN)
    assert task.verify(problem, "T: 1/2, B: 1/2, L: 1/2, C: 1/2").correct
    assert task.verify(problem, "\\boxed{T = 0.5, B = 0.5, L = \\frac{1}{2}, C = 0.5}").correct
    lopsided = task.verify(problem, "T: 2/3, B: 1/3, L: 1/2, C: 1/2")
    assert not lopsided.correct and "column player" in lopsided.feedback
    assert not task.verify(problem, "T: 1, B: 0, L: 1, C: 0").correct


def test_any_equilibrium_of_a_two_by_three_game_is_accepted() -> None:
    # Column R copies C for the column player, so every split of the column mix between C and R (with L at 0)
    # is an equilibrium when the row player mixes (1/2, 1/2).
    row = [[2, 0, 0], [0, 2, 2]]
    column = [[0, 2, 2], [2, 0, 0]]
    task, problem = make_source("economics/nash_mixed"), nash_mixed_problem(row, column)
    assert task.verify(problem, "T: 1/2, B: 1/2, L: 1/2, C: 1/2, R: 0").correct
    assert task.verify(problem, "T: 1/2, B: 1/2, L: 1/2, C: 1/4, R: 1/4").correct
    assert task.verify(problem, "T: 1/2, B: 1/2, L: 1/2, C: 0, R: 1/2").correct
    assert not task.verify(problem, "T: 1/2, B: 1/2, L: 1/3, C: 1/3, R: 1/3").correct


def test_dominance_textbook_game_takes_three_rounds() -> None:
    # Gibbons's example: R is dominated by C (column player), then B by T, then L by C: (A, 2) survives.
    row = [[1, 1, 0], [0, 0, 2]]
    column = [[0, 2, 1], [3, 1, 0]]
    assert eliminate(row, column) == ([0], [1])
    assert eliminate(row, column, rounds=1) == ([0, 1], [0, 1])
    task = make_source("economics/dominance")
    problem = Problem("economics/dominance", 0, 0, "", "A, 2",
                      {"row_payoffs": row, "column_payoffs": column, "survivors": ["A", "2"]}, 1)
    assert task.verify(problem, "2 and A").correct
    assert task.verify(problem, "\\boxed{A, 2}").correct
    first_round = task.verify(problem, "A, B, 1, 2")
    assert not first_round.correct and "row B is eliminated" in first_round.feedback
    assert not task.verify(problem, "A").correct


def test_prisoners_dilemma_dominance_leaves_defect_defect() -> None:
    assert eliminate(PD_ROW, PD_COLUMN) == ([1], [1])


def test_glove_game_shapley_values() -> None:
    # A holds a left glove, B and C right gloves; a pair is worth 1. Equivalently weights 2, 1, 1 and quota 3.
    worth = [Fraction(int(mask & 1 == 1 and mask & 6 != 0)) for mask in range(8)]
    assert shapley(worth, 3) == [Fraction(2, 3), Fraction(1, 6), Fraction(1, 6)]
    task = make_source("economics/shapley_value")
    problem = Problem("economics/shapley_value", 2, 0, "", "A: 2/3, B: 1/6, C: 1/6",
                      {"names": ["A", "B", "C"], "values": ["2/3", "1/6", "1/6"], "grand": "1",
                       "weights": [2, 1, 1], "voting": True}, 1)
    assert task.verify(problem, "A = \\frac{2}{3}, B = 1/6, C = 1/6").correct
    equal = task.verify(problem, "A: 1/3, B: 1/3, C: 1/3")
    assert not equal.correct and "player A" in equal.feedback
    inefficient = task.verify(problem, "A: 1/2, B: 1/6, C: 1/6")
    assert not inefficient.correct and "sum" in inefficient.feedback


def test_three_rules_three_winners() -> None:
    # 8: Ada > Cleo > Ben, 6: Ben > Cleo > Ada, 5: Cleo > Ben > Ada (19 voters).
    ballots = [(8, [0, 2, 1]), (6, [1, 2, 0]), (5, [2, 1, 0])]
    assert plurality(ballots, 3) == 0  # Ada: 8 first choices
    assert runoff(ballots, 3) == (1, 2)  # Cleo out first, her 5 go to Ben: 11 of 19
    assert borda(ballots, 3) == 2  # Ada 16, Ben 17, Cleo 24
    assert schulze(ballots, 3) == 2  # Cleo beats both head to head (11-8, 13-6)
    task = make_source("economics/voting_rules")
    problem = Problem("economics/voting_rules", 1, 0, "", "Ben",
                      {"names": ["Ada", "Ben", "Cleo"], "rule": "runoff", "groups": 3, "rounds": 2,
                       "plurality": "Ada"}, 1)
    assert task.verify(problem, "The winner is Ben.").correct
    assert task.verify(problem, "\\boxed{Ben}").correct
    shortcut = task.verify(problem, "Ada")
    assert not shortcut.correct and "not plurality" in shortcut.feedback
    assert not task.verify(problem, "Ben or Cleo").correct


def npv_problem(mode: str, flows: list[int], rate: str, value: str, answer: str) -> Problem:
    return Problem("economics/npv_irr", 1, 0, "", answer, {"mode": mode, "flows": flows, "rate": rate,
                                                           "value": value}, 1)


def test_npv_at_ten_percent() -> None:
    # -1000 + 1100/1.1 + 1210/1.21 = 1000 exactly; at 10% a 605 inflow in year 2 is worth 500.
    assert npv([-1000, 1100, 1210], Fraction(1, 10)) == 1000
    assert npv([-1000, 0, 605], Fraction(1, 10)) == -500
    value = npv([-1000, 500, 700], Fraction(1, 10))  # -1000 + 454.5454... + 578.5123... = 33.0578...
    assert value == Fraction(4000, 121) and to_cents(value) == Fraction(3306, 100)
    task = make_source("economics/npv_irr")
    problem = npv_problem("npv", [-1000, 500, 700], "1/10", "4000/121", "33.06")
    assert task.verify(problem, "$33.06").correct
    assert task.verify(problem, "4000/121").correct
    assert not task.verify(problem, "33.05").correct
    undiscounted = task.verify(problem, "200")
    assert not undiscounted.correct and "undiscounted" in undiscounted.feedback


def test_payback_and_irr() -> None:
    assert payback([-1000, 400, 400, 400]) == Fraction(5, 2)
    assert payback([-1000, 100, 100]) is None
    task = make_source("economics/npv_irr")
    problem = npv_problem("payback", [-1000, 400, 400, 400], "1/10", "5/2", "5/2")
    assert task.verify(problem, "2 1/2 years").correct and task.verify(problem, "2.5").correct
    assert not task.verify(problem, "3").correct
    irr = npv_problem("irr", [-1000, 1100], "1/10", "1/10", "10%")  # 1100 / 1.1 = 1000
    assert task.verify(irr, "10%").correct and task.verify(irr, "0.1").correct and task.verify(irr, "10").correct
    assert not task.verify(irr, "11%").correct


def test_amortisation_two_yearly_payments() -> None:
    # $1000 at 10% repaid in 2 yearly payments: 1000 · 0.1 · 1.21 / 0.21 = 576.190476... -> $576.19.
    exact = level_payment(1000, Fraction(1, 10), 2)
    assert exact == Fraction(12100, 21) and amortisation_cents(exact) == Fraction(57619, 100)
    # after the first payment: 1100 - 576.19 = 523.81 still owed
    assert balance_after(1000, Fraction(1, 10), Fraction(57619, 100), 1) == Fraction(52381, 100)
    task = make_source("economics/amortisation")
    problem = Problem("economics/amortisation", 0, 0, "", "576.19",
                      {"mode": "payment", "principal": 1000, "rate": "1/10", "periods": 2, "paid": 1,
                       "exact": "12100/21"}, 1)
    assert task.verify(problem, "$576.19").correct and task.verify(problem, "12100/21").correct
    assert not task.verify(problem, "576.20").correct
    naive = task.verify(problem, "$500")
    assert not naive.correct and "ignoring the interest" in naive.feedback


def market_problem(mode: str, names: list[str], values: list[str]) -> Problem:
    # Qd = 100 - 2P, Qs = 10 + P: equilibrium P = 30, Q = 40.
    return Problem("economics/market_equilibrium", 2, 0, "", "", {
        "mode": mode, "names": names, "values": values, "curve": ["100", "2", "10", "1"], "untaxed": ["30", "40"]}, 1)


def test_market_equilibrium_tax_floor_and_elasticity() -> None:
    a, b, c, d = Fraction(100), Fraction(2), Fraction(10), Fraction(1)
    assert equilibrium(a, b, c, d) == (30, 40)
    assert equilibrium(a, b, c, d, Fraction(3)) == (31, 38)  # sellers keep 28
    task = make_source("economics/market_equilibrium")
    assert task.verify(market_problem("equilibrium", ["P", "Q"], ["30", "40"]), "Q = 40, P = 30").correct
    assert not task.verify(market_problem("equilibrium", ["P", "Q"], ["30", "40"]), "P = 40, Q = 30").correct
    taxed = market_problem("tax", ["Pb", "Ps", "Q"], ["31", "28", "38"])
    assert task.verify(taxed, "Pb = 31, Ps = 28, Q = 38").correct
    untaxed = task.verify(taxed, "Pb = 30, Ps = 30, Q = 40")
    assert not untaxed.correct and "without the tax" in untaxed.feedback
    floor = market_problem("floor", ["Q", "X"], ["30", "15"])  # at P = 35: Qd = 30, Qs = 45
    assert task.verify(floor, "Q: 30, X: 15").correct
    elastic = market_problem("elasticity", ["E"], ["-3/2"])  # -2 · 30 / 40
    assert task.verify(elastic, "-1.5").correct and task.verify(elastic, "E = -3/2").correct
    unsigned = task.verify(elastic, "3/2")
    assert not unsigned.correct and "signed" in unsigned.feedback


def test_fair_division_checks_the_criterion_not_one_answer() -> None:
    values = [[6, 1, 1], [3, 3, 3]]  # Ann, Bob over items A, B, C
    assert shortfall(values, [0, 1, 1], "envy-free") is None
    assert "Bob envies Ann" in (shortfall(values, [0, 0, 1], "envy-free") or "")
    assert shortfall(values, [0, 0, 1], "proportional") is not None  # Bob: 3 < 9/2
    assert greedy_owners(values) == [0, 1, 1]
    assert round_robin_owners(values) == [0, 1, 0]  # Ann takes A, Bob B, Ann C: Bob envies Ann (6 > 3)
    assert shortfall(values, round_robin_owners(values), "envy-free") is not None
    task = make_source("economics/fair_division")
    problem = Problem("economics/fair_division", 0, 0, "", "A: Ann, B: Bob, C: Bob",
                      {"values": [[5, 1, 4, 2], [2, 6, 1, 3]], "criterion": "envy-free", "owners": [0, 1, 0, 1]}, 1)
    assert task.verify(problem, "A: Ann, B: Bob, C: Ann, D: Bob").correct
    assert task.verify(problem, "A = Ann, B = Bob, C = Ann, D = Ann").correct  # another envy-free division
    envy = task.verify(problem, "A: Bob, B: Ann, C: Ann, D: Bob")
    assert not envy.correct and "envies" in envy.feedback


def test_auction_clocks_and_answers() -> None:
    # English clock from $5 by $2 with values 150, 154, 44: Indy (150) drops at 151, Jordan wins at 151.
    assert english([150, 154, 44], 5, 2) == (1, 151, 73)
    assert english([150, 150], 4, 2) is None  # both leave at 152: no winner, so never drawn
    # Dutch clock from $219 by $5, thresholds 4/5 of 191 and 193: 154 reaches only 154.4
    assert dutch([Fraction(4, 5) * 191, Fraction(4, 5) * 193], 219, 5) == (1, 154, 13)
    task = make_source("economics/auction_outcomes")
    problem = Problem("economics/auction_outcomes", 0, 0, "", "winner: Drew, price: 148",
                      {"format": "second-price", "names": ["Drew", "Avery", "Casey"], "values": [163, 148, 135],
                       "winner": "Drew", "price": "148", "steps": 0}, 1)
    assert task.verify(problem, "winner = Drew, price = $148").correct
    assert task.verify(problem, "Price: 148\nWinner: Drew").correct
    first_price = task.verify(problem, "winner: Drew, price: 163")
    assert not first_price.correct and "does not pay" in first_price.feedback
    assert not task.verify(problem, "winner: Avery, price: 148").correct


def test_amortisation_stops_at_thirty_year_loans() -> None:
    # Version 1 grew by 240 payments a level: 130-year loans at level 9, whose exact balances passed Python's
    # 4,300-digit limit for writing a number (generation raised at some seeds).
    task = make_source("economics/amortisation")
    assert not task.unbounded and task.levels() == 5
    assert max(task.sample(4, seed).data["periods"] for seed in range(200)) <= 360
