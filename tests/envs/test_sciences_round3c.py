"""Hand-checked instances of the round-3c science envs (physics and operations research): known answers, wrong
answers refused with a useful message, other spellings read."""

from __future__ import annotations

from fractions import Fraction

from palaestra.core import Problem
from palaestra.core.registry import make_source
from palaestra.envs.operations.generalized_assignment import greedy_assignment, optimal_assignment
from palaestra.envs.operations.job_shop import makespan, optimal_schedule
from palaestra.envs.operations.lp_duality import bottleneck_pricing
from palaestra.envs.operations.project_crashing import Network, finish_time, greedy_crash, optimal_crash, plan_cost
from palaestra.envs.operations.queueing import mmc_measures
from palaestra.envs.operations.shift_scheduling import coverage, greedy_starts, optimal_starts
from palaestra.envs.physics.thermodynamic_cycles import _segment


def kinded(env_id: str, kind: str, values: dict[str, str], steps: int = 1) -> Problem:
    return Problem(env_id, 0, 0, "", "", {"kind": kind, "values": values, "steps": steps}, 1)


def test_orbits_ellipse_reads_named_values_in_other_units() -> None:
    # r_p = 7000 km at 10000 m/s, r_a = 21000 km: a = 14000 km, e = 14000/28000 = 1/2, v_a = 10000 * 7/21
    task = make_source("physics/orbits")
    problem = kinded("physics/orbits", "ellipse", {"a": "14000", "e": "1/2", "v_a": "10000/3"})
    assert task.verify(problem, "a = 14000 km, e = 1/2, v_a = 10000/3 m/s").correct
    assert task.verify(problem, "v_a = 10/3 km/s, e = 0.5, a = 14000000 m.").correct
    wrong = task.verify(problem, "a = 14000 km, e = 1/2, v_a = 3333.33 m/s")
    assert not wrong.correct and "apoapsis" in wrong.feedback


def test_orbits_references_follow_the_laws() -> None:
    task = make_source("physics/orbits")
    for seed in range(10):
        problem = task.sample(1, seed)  # Kepler: T2/T1 = (a2/a1)^(3/2), so (T2/T1)^2 = (a2/a1)^3
        text = problem.prompt
        a1 = Fraction(text.split("orbits at ")[1].split(" AU")[0])
        t1 = int(text.split("period of ")[1].split(" days")[0])
        a2 = Fraction(text.split("second orbits at ")[1].split(" AU")[0])
        t2 = Fraction(problem.data["values"]["x"])
        assert (t2 / t1) ** 2 == (a2 / a1) ** 3
        assert task.verify(problem, problem.answer).correct


def test_waves_closed_pipe_skips_even_harmonics() -> None:
    # closed pipe 0.5 m: resonances 170, 510, 850 Hz; the second one is 510, not 340
    task = make_source("physics/waves")
    problem = kinded("physics/waves", "pipe", {"x": "510"})
    assert task.verify(problem, "510 Hz").correct and task.verify(problem, "0.51 kHz").correct
    assert not task.verify(problem, "340 Hz").correct
    pair = kinded("physics/waves", "pipe_pair", {"f1": "170", "L": "1/2"})
    assert task.verify(pair, "L = 50 cm, f1 = 170 Hz").correct
    wrong = task.verify(pair, "f1 = 340 Hz, L = 1/2 m")
    assert not wrong.correct and "fundamental" in wrong.feedback


def test_electrostatics_coulomb_force() -> None:
    # 2 uC and -3 uC at 30 cm: 9e9 * 6e-12 / 0.09 = 0.6 N
    task = make_source("physics/electrostatics")
    problem = kinded("physics/electrostatics", "pair", {"x": "3/5"})
    assert task.verify(problem, "0.6 N").correct and task.verify(problem, "600 mN").correct
    assert not task.verify(problem, "-0.6 N or 0.6 N").correct
    field = kinded("physics/electrostatics", "field", {"Ex": "-5000", "Ey": "0"})
    assert task.verify(field, "Ey = 0, Ex = -5 kN/C").correct
    wrong = task.verify(field, "Ex = 5000 N/C, Ey = 0 N/C")
    assert not wrong.correct and "x component" in wrong.feedback


def test_electrostatics_field_points_away_from_positive_charge() -> None:
    task = make_source("physics/electrostatics")
    for seed in range(20):
        problem = task.sample(3, seed)
        assert task.verify(problem, problem.answer).correct
        assert not task.verify(problem, problem.answer.replace("Ex = ", "Ex = 1")).correct


def test_thermodynamic_segments() -> None:
    # monatomic isobaric 200 kPa from 2 L to 5 L: W = 600 J, dU = 3/2 * 600 = 900 J, Q = 1500 J
    assert _segment(Fraction(3, 2), (200, 2), (200, 5)) == (Fraction(600), Fraction(1500))
    # diatomic isochoric cooling 300 -> 100 kPa at 4 L: W = 0, Q = 5/2 * (-800) = -2000 J
    assert _segment(Fraction(5, 2), (300, 4), (100, 4)) == (Fraction(0), Fraction(-2000))
    task = make_source("physics/thermodynamic_cycles")
    efficiency = kinded("physics/thermodynamic_cycles", "efficiency", {"x": "2/13"})
    assert task.verify(efficiency, "2/13").correct and task.verify(efficiency, r"\frac{2}{13}").correct
    assert not task.verify(efficiency, "0.1538").correct
    triangle = kinded("physics/thermodynamic_cycles", "triangle", {"W": "-300", "Q": "450"})
    assert task.verify(triangle, "Q = 0.45 kJ, W = -300 J").correct
    wrong = task.verify(triangle, "W = 300 J, Q = 450 J")
    assert not wrong.correct and "net work" in wrong.feedback


def shop(routes: list[list[tuple[int, int]]]) -> Problem:
    solved = optimal_schedule(routes)
    assert solved is not None
    return Problem("operations/job_shop", 0, 0, "", "", {"routes": [[list(op) for op in r] for r in routes],
                                                          "makespan": solved[1], "nodes": solved[2]}, 1)


def test_job_shop_crossed_routes() -> None:
    # J1: M1 3, M2 2; J2: M2 3, M1 2. Both machines start at once: M1 J1 then J2, M2 J2 then J1, finishing at 5
    routes = [[(0, 3), (1, 2)], [(1, 3), (0, 2)]]
    assert optimal_schedule(routes) is not None and optimal_schedule(routes)[1] == 5  # type: ignore[index]
    assert makespan(routes, [[1, 0], [0, 1]]) is None  # each machine waits for the job queued behind the other
    task, problem = make_source("operations/job_shop"), shop(routes)
    assert task.verify(problem, "M1: J1, J2\nM2: J2, J1").correct
    assert task.verify(problem, "m2 = J2 -> J1; m1 = J1 -> J2.").correct
    deadlock = task.verify(problem, "M1: J2, J1\nM2: J1, J2")
    assert not deadlock.correct and "deadlock" in deadlock.feedback
    missing = task.verify(problem, "M1: J1\nM2: J2, J1")
    assert not missing.correct and "exactly once" in missing.feedback


def test_job_shop_optimum_matches_brute_force() -> None:
    from itertools import permutations, product
    task = make_source("operations/job_shop")
    for seed in range(3):
        problem = task.sample(2, seed)
        routes = [[(k, t) for k, t in r] for r in problem.data["routes"]]
        machines, jobs = len(routes[0]), len(routes)
        spans = [makespan(routes, list(orders)) for orders in product(permutations(range(jobs)), repeat=machines)]
        assert min(s for s in spans if s is not None) == problem.data["makespan"]


def test_lp_duality_prices_certify_the_optimum() -> None:
    # max 3x1 + 5x2 with x1 <= 4, 2x2 <= 12, 3x1 + 2x2 <= 18: shadow prices (0, 3/2, 1), W = 36
    c, a, b = [3, 5], [[1, 0], [0, 2], [3, 2]], [4, 12, 18]
    problem = Problem("operations/lp_duality", 0, 0, "", "", {"c": c, "a": a, "b": b, "optimum": "36", "pivots": 2,
                                                              "duals": ["0", "3/2", "1"]}, 1)
    task = make_source("operations/lp_duality")
    assert task.verify(problem, "y1 = 0, y2 = 3/2, y3 = 1, W = 36").correct
    assert task.verify(problem, "W = 36; y3 = 1; y2 = 1.5; y1 = 0.").correct
    short = task.verify(problem, "y1 = 0, y2 = 1, y3 = 1, W = 30")
    assert not short.correct and "P2" in short.feedback
    loose = task.verify(problem, "y1 = 3, y2 = 5/2, y3 = 0, W = 42")
    assert not loose.correct and "not the minimum" in loose.feedback
    assert bottleneck_pricing(c, a, b) == ([0, 0, Fraction(5, 2)], 45)  # only R3 is used by both products


def test_queueing_closed_forms() -> None:
    single = mmc_measures(2, 3, 1)  # rho = 2/3: L = 2, Lq = 4/3, W = 1 h, Wq = 2/3 h
    assert (single["L"], single["Lq"], single["W"], single["Wq"]) == (2, Fraction(4, 3), 1, Fraction(2, 3))
    double = mmc_measures(4, 3, 2)  # a = 4/3, P0 = 1/5, Lq = 16/15
    assert double["P0"] == Fraction(1, 5) and double["Lq"] == Fraction(16, 15)
    task = make_source("operations/queueing")
    problem = Problem("operations/queueing", 0, 0, "", "", {"kind": "mm1", "values": {"x": "2/3"}, "unit": "h",
                                                             "steps": 2}, 1)
    assert task.verify(problem, "2/3 h").correct and task.verify(problem, "40 minutes").correct
    assert not task.verify(problem, "0.67 h").correct and not task.verify(problem, "2/3 minutes").correct


def test_shift_scheduling_matches_brute_force_and_checks_coverage() -> None:
    from itertools import product
    # 5-day cycle, 3 days on: demand 2 every day needs ceil(10/3) = 4 workers
    starts, total, _ = optimal_starts([2, 2, 2, 2, 2], 3)
    assert total == 4 and all(h >= 2 for h in coverage(starts, 3))
    for demand in ([3, 0, 3, 0, 3, 1], [4, 1, 1, 4, 2, 0], [5, 2, 0, 3, 3, 1]):
        best = min(sum(x) for x in product(range(6), repeat=6) if all(h >= d for h, d in zip(coverage(x, 4), demand)))
        assert optimal_starts(demand, 4)[1] == best
    task = make_source("operations/shift_scheduling")
    problem = Problem("operations/shift_scheduling", 0, 0, "", "", {"demand": [2, 2, 2, 2, 2], "workers": 4,
                                                                     "tries": 1}, 1)
    assert task.verify(problem, "D1 = 1, D2 = 1, D3 = 1, D4 = 1, D5 = 0").correct
    assert task.verify(problem, "D5: 0\nD4: 1\nD3: 1\nD2: 1\nD1: 1.").correct
    assert task.verify(problem, "D1 = 2, D2 = 0, D3 = 0, D4 = 2, D5 = 0").correct  # another optimum
    short = task.verify(problem, "D1 = 4, D2 = 0, D3 = 0, D4 = 0, D5 = 0")
    assert not short.correct and short.feedback == "D4 has 0 workers on duty but needs 2"
    many = task.verify(problem, "D1 = 1, D2 = 1, D3 = 1, D4 = 1, D5 = 1")
    assert not many.correct and "not the minimum" in many.feedback


def test_shift_scheduling_levels_beat_the_greedy() -> None:
    task = make_source("operations/shift_scheduling")
    for seed in range(5):
        problem = task.sample(3, seed)
        demand = problem.data["demand"]
        assert sum(greedy_starts(demand, len(demand) - 2)) > problem.data["workers"]


def test_generalized_assignment_small_instance() -> None:
    # two agents, three tasks; A1 is cheap but holds only 5 units: T1 (3) + T2 (2) on A1, T3 on A2 costs 2+2+6 = 10
    cost, load, capacity = [[2, 2, 3], [5, 6, 6]], [[3, 2, 4], [1, 1, 1]], [5, 9]
    solved = optimal_assignment(cost, load, capacity)
    assert solved is not None and solved[1] == 10 and solved[0] == [0, 0, 1]
    assert greedy_assignment(cost, load, capacity) is not None
    task = make_source("operations/generalized_assignment")
    problem = Problem("operations/generalized_assignment", 0, 0, "", "", {
        "cost": cost, "load": load, "capacity": capacity, "optimum": 10, "nodes": solved[2]}, 1)
    assert task.verify(problem, "T1 = A1, T2 = A1, T3 = A2").correct
    assert task.verify(problem, "T3: A2; T2: A1; T1: A1.").correct
    over = task.verify(problem, "T1 = A1, T2 = A1, T3 = A1")
    assert not over.correct and "capacity 5" in over.feedback
    dear = task.verify(problem, "T1 = A2, T2 = A1, T3 = A2")
    assert not dear.correct and "not the minimum" in dear.feedback


def test_project_crashing_two_parallel_paths() -> None:
    # A (3) then B (4) or C (4) in parallel, then D (2): normal 9 days, deadline 8. The greedy crashes B (cost 1)
    # first, which shortens only one branch, then A (cost 2, ties with C): 3 in all. A alone costs 2.
    network = Network(duration=[3, 4, 4, 2], limit=[1, 1, 1, 0], cost=[2, 1, 2, 5], preds=[[], [0], [0], [1, 2]])
    assert finish_time(network, [0, 0, 0, 0]) == 9
    greedy = greedy_crash(network, 8)
    assert greedy == [1, 1, 0, 0] and plan_cost(network, greedy) == 3
    assert optimal_crash(network, 8)[:2] == ([1, 0, 0, 0], 2)
    task = make_source("operations/project_crashing")
    problem = Problem("operations/project_crashing", 0, 0, "", "", {
        "duration": network.duration, "limit": network.limit, "cost": network.cost, "preds": network.preds,
        "deadline": 8, "optimum": 2, "nodes": 1}, 1)
    assert task.verify(problem, "A = 1, B = 0, C = 0, D = 0").correct
    assert task.verify(problem, "D: 0; C: 0; B: 0; A: 1.").correct
    late = task.verify(problem, "A = 0, B = 1, C = 0, D = 0")
    assert not late.correct and "past the deadline" in late.feedback
    over = task.verify(problem, "A = 0, B = 0, C = 0, D = 1")
    assert not over.correct and "0 to 0 days" in over.feedback
    assert not task.verify(problem, "A = 0, B = 1, C = 1, D = 0").correct


def test_project_crashing_optimum_matches_brute_force() -> None:
    from itertools import product
    task = make_source("operations/project_crashing")
    for seed in range(4):
        problem = task.sample(3, seed)
        data = problem.data
        network = Network(data["duration"], data["limit"], data["cost"], data["preds"])
        best = min(plan_cost(network, plan) for plan in product(*(range(m + 1) for m in network.limit))
                   if finish_time(network, plan) <= data["deadline"])
        assert best == data["optimum"]


def test_projectile_cliff_and_target() -> None:
    task = make_source("physics/projectile")
    for seed in range(10):  # the landing time solves h + v_y t - 5 t^2 = 0 exactly
        problem = task.sample(3, seed)
        text = problem.prompt
        height = Fraction(text.split("cliff ")[1].split(" m above")[0])
        vx = int(text.split("component of ")[1].split(" m/s")[0])
        vy = int(text.split("upward component of ")[1].split(" m/s")[0])
        flight = Fraction(problem.data["values"]["x"]) / vx
        assert height + vy * flight - 5 * flight**2 == 0 and flight > 0
        assert Fraction(problem.data["values"]["v_y"]) == vy - 10 * flight
    # ground launch at (15, 20) m/s: R = 2 * 15 * 20 / 10 = 60 m, H = 400 / 20 = 20 m
    ground = kinded("physics/projectile", "ground", {"R": "60", "H": "20"})
    assert task.verify(ground, "H = 20 m, R = 6000 cm").correct
    wrong = task.verify(ground, "R = 60 m, H = 40 m")
    assert not wrong.correct and "H" in wrong.feedback
    target = kinded("physics/projectile", "target", {"x": "-5/2"})
    assert task.verify(target, "-2.5 m/s").correct and task.verify(target, "-9 km/h").correct
    assert not task.verify(target, "2.5 m/s").correct


def test_inventory_discount_and_newsvendor_accept_any_optimum() -> None:
    from palaestra.envs.operations.inventory import discount_cost, expected_profit
    task = make_source("operations/inventory")
    # D = 1000, S = 10, H = 2: EOQ = 100 at price 5 costs 5000 + 100 + 100 = 5200; at 200 for price 4:
    # 4000 + 50 + 200 = 4250, the optimum
    data = {"kind": "discount", "D": 1000, "S": 10, "H": 2, "eoq": 100, "breaks": [1, 200], "prices": [5, 4],
            "answer": {"Q": "200", "T": "4250"}, "steps": 5}
    assert discount_cost(data, Fraction(100)) == 5200 and discount_cost(data, Fraction(200)) == 4250
    problem = Problem("operations/inventory", 0, 0, "", "", data, 1)
    assert task.verify(problem, "T = 4250, Q = 200.").correct
    eoq = task.verify(problem, "Q = 100, T = 5200")
    assert not eoq.correct and "least yearly cost" in eoq.feedback
    assert not task.verify(problem, "Q = 200, T = 4200").correct
    # demand 10 or 20, each with probability 1/2; cost 5, price 10: q = 10 and q = 20 both expect 50 (a tie)
    news = {"kind": "newsvendor", "demand": [10, 20], "chance": ["1/2", "1/2"], "price": 10, "cost": 5, "salvage": 0,
            "penalty": 0, "weights": [1, 1], "answer": {"q": "10", "E": "50"}, "steps": 5}
    assert expected_profit(news, 10) == expected_profit(news, 20) == expected_profit(news, 15) == 50
    problem = Problem("operations/inventory", 0, 0, "", "", news, 1)
    assert task.verify(problem, "q = 20, E = 50").correct and task.verify(problem, "q = 15, E = 50").correct
    assert not task.verify(problem, "q = 25, E = 50").correct and not task.verify(problem, "q = 15/2, E = 50").correct


def test_oligopoly_cournot_and_stackelberg() -> None:
    from palaestra.envs.economics.oligopoly import cournot
    # P = 100 - Q, costs 10 and 20: q1 = (100 - 20 + 20)/3 = 100/3, q2 = (100 - 40 + 10)/3 = 70/3, P = 130/3
    assert cournot(100, 1, [10, 20]) == [Fraction(100, 3), Fraction(70, 3)]
    task = make_source("economics/oligopoly")
    problem = kinded("economics/oligopoly", "cournot", {"q1": "100/3", "q2": "70/3", "P": "130/3"})
    assert task.verify(problem, "P = 130/3, q2 = 70/3, q1 = 100/3.").correct
    assert task.verify(problem, r"q1 = 33\frac{1}{3}, q2 = \frac{70}{3}, P = 43 1/3").correct
    wrong = task.verify(problem, "q1 = 70/3, q2 = 100/3, P = 130/3")
    assert not wrong.correct and "q1" in wrong.feedback
    for seed in range(5):  # the Stackelberg leader produces more than it would under Cournot (same costs)
        stack = task.sample(2, seed)
        text = stack.prompt
        a = int(text.split("P = ")[1].split(" - ")[0])
        slope = text.split(" - ")[1].split("Q")[0]
        b = int(slope) if slope else 1
        c1 = int(text.split("marginal cost ")[1].split(")")[0])
        c2 = int(text.split("marginal cost ")[2].split(")")[0])
        assert Fraction(stack.data["values"]["q1"]) > cournot(a, b, [c1, c2])[0]


def test_consumer_choice_bundles_and_slutsky() -> None:
    task = make_source("economics/consumer_choice")
    # U = x y^2, I = 300, prices 2 and 5: a third of income on x (x = 50), two thirds on y (y = 40)
    data = {"kind": "cobb_douglas", "income": 300, "prices": [2, 5], "weights": [1, 2],
            "values": {"x": "50", "y": "40"}}
    problem = Problem("economics/consumer_choice", 0, 0, "", "", data, 1)
    assert task.verify(problem, "y = 40, x = 50.").correct
    cheap = task.verify(problem, "x = 25, y = 20")
    assert not cheap.correct and "more utility" in cheap.feedback
    dear = task.verify(problem, "x = 60, y = 40")
    assert not dear.correct and "more than the income" in dear.feedback
    # U = 2x + 3y at prices 2 and 3: both give one util per unit of money, so every budget bundle is best
    tie = {"kind": "substitutes", "income": 60, "prices": [2, 3], "weights": [2, 3], "values": {"x": "30", "y": "0"}}
    problem = Problem("economics/consumer_choice", 0, 0, "", "", tie, 1)
    assert task.verify(problem, "x = 15, y = 10").correct and task.verify(problem, "x = 0, y = 20").correct
    assert not task.verify(problem, "x = 15, y = 9").correct
    for seed in range(5):  # S + N is the whole change in x, and S moves against the price
        slutsky = task.sample(4, seed)
        d = slutsky.data
        share = Fraction(d["weights"][0], sum(d["weights"]))
        change = share * d["income"] / d["new_price"] - share * d["income"] / d["prices"][0]
        s, n = Fraction(d["values"]["S"]), Fraction(d["values"]["N"])
        assert s + n == change and (s < 0) == (d["new_price"] > d["prices"][0])
