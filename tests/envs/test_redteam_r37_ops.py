"""Red-team round 37 (second look), operations / economics / physics / chemistry: one-clause-blind policies.

A correct solver that ignores one clause of the prompt must not be rewarded:

- operations/generalized_assignment v5: ignoring the capacities (every task to its cheapest agent) was optimal in
  0.28 and 0.30 of levels 0 and 1 -> 0 at every level (the capacities always bind).
- operations/project_crashing v3: ignoring the max crash (each activity may crash down to one day) gave an
  optimal plan within the limits in 0.18, 0.18 and 0.23 of levels 0 to 2 -> 0 (the limits always bind).
- economics/amortisation v3: the unrounded payment answered 0.33 and 0.10 of the total-interest questions of
  levels 1 and 2; interest rounded to the cent every month (ruled out by the prompt) 0.71, 0.38 and 0.14 of the
  balance questions of levels 2 to 4 -> 0 (problems where the rounding rule does not change the cents are redrawn).
- economics/dominance v4: weak dominance (ignoring "strictly"; payoff ties are common) answered 0.62, 0.55, 0.42,
  0.42 and 0.22 of levels 0 to 4 -> 0 (some survivor is always weakly dominated among the survivors); one round of
  elimination 0.27, 0.17 and 0.12 of levels 0 to 2 -> 0 (it never leaves the survivors).
- economics/nash_pure v4: listing only the strict equilibria (a tie read as a gain, ignoring "strictly") answered
  0.38, 0.28, 0.40, 0.33 and 0.23 of levels 0 to 4 -> only the games without an equilibrium (about 0.07).
- physics/kinematics v6: ignoring "first" (the largest positive root of s = ut + at^2/2) answered 0.72 and 0.81 of
  the first-time questions of levels 3 and 4 -> 0.14 and 0.15 (the displacement is reached twice in 85% of them).
- chemistry/stoichiometry v2: ignoring the coefficients (a 1 : 1 mole ratio) answered 0.33, 0.33, 0.20, 0.15 and
  0.03 of levels 0 to 4 -> 0 (the given and wanted coefficients always differ by more than 1%).
- chemistry/empirical_formula v2: dividing the moles by the smallest and rounding (no multiplier) answered 0.78,
  0.65, 0.38, 0.58 and 0.48 of levels 0 to 4 -> 0.25, 0.15, 0.15, 0.20 and 0.08 (three answers in four have no
  element of count one).
- operations/vehicle_routing v3: ignoring the street metric (the routes optimal for straight-line distances)
  answered 0.96, 0.84, 0.84 and 0.80 of levels 0 to 3 -> 0 (such instances are redrawn).
- physics/truss (grammar): a naming sentence ("The force in L1L2 is -5 kN.", "Force in member L1L2: -5 kN") was
  refused; now read, another member's name still wrong.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

import palaestra.envs.economics.amortisation as am
import palaestra.envs.economics.dominance as dom
import palaestra.envs.operations.project_crashing as pc
import palaestra.envs.operations.vehicle_routing as vr
from palaestra.core.registry import make_source
from palaestra.envs.chemistry.common import molar_mass, parse_formula

SEEDS = range(25)


def _share(env: str, policy, levels=range(5)) -> float:
    source = make_source(env)
    right = asked = 0
    for level in levels:
        for seed in SEEDS:
            problem = source.sample(level, seed)
            answer = policy(problem)
            if answer is None:
                continue
            asked += 1
            right += source.verify(problem, answer).reward >= 0.999
    return right / max(asked, 1)


def _reference(env: str, levels=range(5)) -> None:
    source = make_source(env)
    for level in levels:
        for seed in range(10):
            problem = source.sample(level, seed)
            assert source.verify(problem, problem.answer).reward == 1.0, (env, level, seed)


def _capacity_blind(problem):
    cost = problem.data["cost"]
    return ", ".join(f"T{j + 1} = A{min(range(len(cost)), key=lambda i: cost[i][j]) + 1}"
                     for j in range(len(cost[0])))


def test_generalized_assignment_capacity_blind_never_right():
    assert _share("operations/generalized_assignment", _capacity_blind, levels=range(3)) == 0


def test_generalized_assignment_reference_solves():
    _reference("operations/generalized_assignment")


def _limit_blind(problem):
    data = problem.data
    unlimited = pc.Network(data["duration"], [d - 1 for d in data["duration"]], data["cost"], data["preds"])
    days, _, _ = pc.optimal_crash(unlimited, data["deadline"])
    return pc._spelled(pc._names(problem), days)


def test_project_crashing_limit_blind_never_right():
    assert _share("operations/project_crashing", _limit_blind, levels=range(3)) == 0


def test_project_crashing_reference_solves():
    _reference("operations/project_crashing")


def _unrounded_payment(problem):
    data = problem.data
    principal, rate, periods = data["principal"], Fraction(data["rate"]), data["periods"]
    payment = am.level_payment(principal, rate, periods)
    if data["mode"] == "interest":
        return am.cents_text(am.to_cents(payment * periods - principal))
    if data["mode"] == "balance":
        return am.cents_text(am.to_cents(am.balance_after(principal, rate, payment, data["paid"])))
    return None


def _rounded_every_period(problem):
    data = problem.data
    if data["mode"] != "balance":
        return None
    principal, rate, periods = data["principal"], Fraction(data["rate"]), data["periods"]
    balance = Fraction(principal)
    payment = am.to_cents(am.level_payment(principal, rate, periods))
    for _ in range(data["paid"]):
        balance = am.to_cents(balance * (1 + rate)) - payment
    return am.cents_text(am.to_cents(balance))


def test_amortisation_rounding_blind_never_right():
    assert _share("economics/amortisation", _unrounded_payment) == 0
    assert _share("economics/amortisation", _rounded_every_period, levels=range(2, 5)) == 0


def test_amortisation_reference_solves():
    _reference("economics/amortisation")


def _weak_dominance(problem):
    """Iterated elimination of weakly dominated strategies, the first one found each time."""
    a, b = problem.data["row_payoffs"], problem.data["column_payoffs"]
    rows, columns = list(range(len(a))), list(range(len(a[0])))

    def dominated(mine, theirs, pay):
        return next((s for s in mine for t in mine if t != s and all(pay(t, o) >= pay(s, o) for o in theirs)
                     and any(pay(t, o) > pay(s, o) for o in theirs)), None)

    while True:
        row = dominated(rows, columns, lambda r, c: a[r][c])
        if row is not None:
            rows.remove(row)
            continue
        column = dominated(columns, rows, lambda c, r: b[r][c])
        if column is None:
            break
        columns.remove(column)
    return ", ".join([chr(ord("A") + r) for r in rows] + [str(c + 1) for c in columns])


def _one_round(problem):
    a, b = problem.data["row_payoffs"], problem.data["column_payoffs"]
    rows, columns = dom.eliminate(a, b, rounds=1)
    return ", ".join([chr(ord("A") + r) for r in rows] + [str(c + 1) for c in columns])


def test_dominance_weak_dominance_and_one_round_never_right():
    assert _share("economics/dominance", _weak_dominance) == 0
    assert _share("economics/dominance", _one_round, levels=range(3)) == 0


def test_dominance_reference_solves():
    _reference("economics/dominance")


def _strict_equilibria(problem):
    a, b = problem.data["row_payoffs"], problem.data["column_payoffs"]
    cells = [f"{chr(ord('A') + i)}{j + 1}" for i in range(len(a)) for j in range(len(a[0]))
             if all(a[i][j] > a[k][j] for k in range(len(a)) if k != i)
             and all(b[i][j] > b[i][k] for k in range(len(a[0])) if k != j)]
    return ", ".join(cells) or "none"


def test_nash_pure_strict_equilibria_only_right_on_none():
    source = make_source("economics/nash_pure")
    for level in range(5):
        for seed in SEEDS:
            problem = source.sample(level, seed)
            if problem.data["equilibria"]:
                assert source.verify(problem, _strict_equilibria(problem)).reward == 0, (level, seed)


def test_nash_pure_reference_solves():
    _reference("economics/nash_pure")


def test_kinematics_largest_root_rarely_right():
    source = make_source("physics/kinematics")
    asked = right = 0
    for level in (3, 4):
        for seed in range(60):
            problem = source.sample(level, seed)
            found = re.search(r"velocity (\S+) m/s and has a constant acceleration of (\S+) m/s\^2.*first equal to "
                              r"(\S+) m\?", problem.prompt, re.S)
            if found is None:
                continue
            u, a, s = (float(Fraction(x)) for x in found.groups())
            roots = [(-u + sign * math.sqrt(u * u + 2 * a * s)) / a for sign in (1, -1)]
            asked += 1
            right += source.verify(problem, f"{max(roots):.9g}").reward == 1
    assert asked >= 30 and right / asked <= 0.3


def test_kinematics_reference_solves():
    _reference("physics/kinematics")


def _one_to_one(problem):
    data = problem.data
    given, wanted = data["reactants"][data["given"]], data["products"][data["wanted"]]
    moles = Fraction(data["mass"]) / molar_mass(parse_formula(given))
    return f"{float(moles * molar_mass(parse_formula(wanted))):.6g} g"


def test_stoichiometry_coefficient_blind_never_right():
    assert _share("chemistry/stoichiometry", _one_to_one) == 0


def test_stoichiometry_reference_solves():
    _reference("chemistry/stoichiometry")


def _rounded_ratio(problem):
    weights = {m.group(1): Fraction(m.group(2))
               for m in re.finditer(r"([A-Z][a-z]?) (\d+\.\d+)", problem.prompt.split("atomic weights")[1])}
    moles = {s: Fraction(p) / weights[s] for s, p in problem.data["percentages"].items()}
    smallest = min(moles.values())
    return "".join(f"{s}{round(m / smallest)}" for s, m in moles.items())


def test_empirical_formula_rounded_ratio_rarely_right():
    assert _share("chemistry/empirical_formula", _rounded_ratio) <= 0.3


def test_empirical_formula_reference_solves():
    _reference("chemistry/empirical_formula", levels=range(3))


def _straight_lines(problem):
    points, data = problem.data["points"], problem.data
    straight = [[round(1000 * math.dist(a, b)) for b in points] for a in points]
    routes, _ = vr.optimal_routes(straight, data["demand"], data["capacity"])
    return "\n".join(" ".join(f"C{c}" for c in route) for route in routes)


def test_vehicle_routing_straight_lines_never_right():
    assert _share("operations/vehicle_routing", _straight_lines, levels=range(4)) == 0


def test_vehicle_routing_reference_solves():
    _reference("operations/vehicle_routing")


def test_truss_reads_a_naming_sentence():
    source = make_source("physics/truss")
    for seed in range(5):
        problem = source.sample(2, seed)
        member, value = "".join(problem.data["member"]), problem.answer
        other = "L9U9"
        assert source.verify(problem, f"The force in {member} is {value} kN.").reward == 1
        assert source.verify(problem, f"Force in member {member}: {value} kN").reward == 1
        assert source.verify(problem, f"The force in {other} is {value} kN.").reward == 0
        assert source.verify(problem, f"The force in {member} is {value} kN or 3").reward == 0
        assert source.verify(problem, f"The force in {member} is {Fraction(value) + 1} kN.").reward == 0
