"""Generators made faster without changing a problem (issue #29, item 3): the faster helper gives what the plain
definition gives, on random inputs."""

from __future__ import annotations

import itertools
import random

import numpy as np

from palaestra.envs.deduction import mastermind_deduce
from palaestra.envs.operations import facility_location
from palaestra.generators.mastermind import score


def _plain_total(opening, serving, chosen):
    return sum(opening[i] for i in chosen) + sum(min(serving[i][j] for i in chosen) for j in range(len(serving[0])))


def _plain_greedy(opening, serving):
    warehouses = range(len(opening))
    chosen = [min(warehouses, key=lambda i: (_plain_total(opening, serving, [i]), i))]
    current = _plain_total(opening, serving, chosen)
    while len(chosen) < len(opening):
        best = min((i for i in warehouses if i not in chosen),
                   key=lambda i: (_plain_total(opening, serving, [*chosen, i]), i))
        cost = _plain_total(opening, serving, [*chosen, best])
        if cost >= current:
            break
        chosen.append(best)
        current = cost
    return chosen


def _plain_local_search(opening, serving):
    warehouses = range(len(opening))
    chosen = set(_plain_greedy(opening, serving))
    current = _plain_total(opening, serving, sorted(chosen))
    while True:
        moves = [chosen ^ {i} for i in warehouses] + [(chosen - {i}) | {j} for i in sorted(chosen)
                                                       for j in warehouses if j not in chosen]
        better = next((m for m in moves if m and _plain_total(opening, serving, sorted(m)) < current), None)
        if better is None:
            return sorted(chosen)
        chosen, current = better, _plain_total(opening, serving, sorted(better))


def test_facility_location_heuristics_match_their_plain_definitions():
    rng = random.Random(7)
    for _ in range(300):
        k, n = rng.randint(1, 8), rng.randint(1, 10)
        opening = [rng.randint(0, 40) for _ in range(k)]
        serving = [[rng.randint(0, 30) * rng.randint(1, 4) for _ in range(n)] for _ in range(k)]
        chosen = sorted(rng.sample(range(k), rng.randint(1, k)))
        assert facility_location.total_cost(opening, serving, chosen) == _plain_total(opening, serving, chosen)
        greedy = facility_location.greedy_open(opening, serving)
        assert greedy == _plain_greedy(opening, serving)
        assert facility_location.local_search_open(opening, serving) == _plain_local_search(opening, serving)
        assert facility_location.local_search_open(opening, serving, greedy) == _plain_local_search(opening, serving)


def test_mastermind_scores_of_every_code_match_the_game_score():
    length, digits = 4, 5
    codes, counts = mastermind_deduce._all_codes(length, digits)
    rng = random.Random(3)
    for _ in range(30):
        guess = tuple(rng.randint(1, digits) for _ in range(length))
        exact, partial = mastermind_deduce._scores(codes, counts, guess, digits)
        for row in rng.sample(range(len(codes)), 40):
            code = tuple(int(v) for v in codes[row])
            assert (int(exact[row]), int(partial[row])) == score(guess, code)
    # every code appears once, in the order of itertools.product
    assert [tuple(map(int, row)) for row in codes] == list(itertools.product(range(1, digits + 1), repeat=length))
    assert np.array_equal(counts.sum(axis=1), np.full(len(codes), length))


def test_linalg_multiply_of_whole_numbers_equals_fraction_arithmetic():
    from fractions import Fraction

    from palaestra.envs.linalg.common import multiply

    rng = random.Random(5)
    for _ in range(200):
        m, k, n = rng.randint(1, 5), rng.randint(1, 5), rng.randint(1, 5)
        a = [[rng.randint(-9, 9) for _ in range(k)] for _ in range(m)]
        b = [[Fraction(rng.randint(-9, 9)) for _ in range(n)] for _ in range(k)]
        plain = [[sum((Fraction(x) * Fraction(y) for x, y in zip(row, col)), Fraction(0)) for col in zip(*b)]
                 for row in a]
        product = multiply(a, b)
        assert product == plain and all(type(v) is Fraction for row in product for v in row)
    half = [[Fraction(1, 2), 1]]  # a fraction takes the fraction path
    assert multiply(half, [[2], [3]]) == [[Fraction(4)]]


def test_matrix_inverse_integer_determinant_equals_fraction_elimination():
    from palaestra.envs.linalg.matrix_inverse import _integer_determinant
    from palaestra.solvers.linalg import determinant

    rng = random.Random(11)
    for _ in range(500):
        n = rng.randint(1, 5)
        m = [[rng.choice([0, 0, rng.randint(-7, 7)]) for _ in range(n)] for _ in range(n)]
        assert _integer_determinant(m) == determinant(m)


def test_digit_puzzle_cached_digit_facts_match_the_numbers():
    from palaestra.envs.sequences import digit_puzzle

    for n in (3, 4):
        table = digit_puzzle._table(n)
        numbers = [int(v) for v in table.numbers]
        parity, prime = digit_puzzle._digit_facts(n)
        for row in random.Random(n).sample(range(len(numbers)), 200):
            number = numbers[row]
            places = [number // 10**i % 10 for i in range(n)]
            assert [int(v) for v in table.digits[row]] == places
            assert int(table.digit_sum[row]) == sum(places)
            assert int(table.digit_product[row]) == np.prod(places)
            assert [int(v) for v in parity[row]] == [d % 2 for d in places]
            assert [bool(v) for v in prime[row]] == [d in digit_puzzle.PRIMES for d in places]
            for k in range(3, 14):
                assert int(digit_puzzle._remainders(n, k)[row]) == number % k


def test_linalg_unimodular_is_a_fraction_matrix_of_determinant_one():
    from fractions import Fraction

    from palaestra.envs.linalg.common import unimodular
    from palaestra.solvers.linalg import determinant

    rng = random.Random(2)
    for _ in range(50):
        m = unimodular(rng, rng.randint(2, 5), steps=rng.randint(2, 10))
        assert all(type(v) is Fraction for row in m for v in row)
        assert abs(determinant(m)) == 1


def test_shapley_of_whole_worths_equals_the_fraction_sum():
    import math
    from fractions import Fraction

    from palaestra.envs.economics.shapley_value import shapley

    def plain(worth, players):
        values = [Fraction(0)] * players
        for mask in range(1 << players):
            size = mask.bit_count()
            for i in range(players):
                if not mask >> i & 1:
                    weight = Fraction(math.factorial(size) * math.factorial(players - size - 1),
                                      math.factorial(players))
                    values[i] += weight * (worth[mask | 1 << i] - worth[mask])
        return values

    rng = random.Random(4)
    for _ in range(100):
        players = rng.randint(1, 6)
        worth = [Fraction(0)] + [Fraction(rng.randint(0, 20)) for _ in range((1 << players) - 1)]
        assert shapley(worth, players) == plain(worth, players)
        worth[-1] += Fraction(1, 3)  # a fractional worth takes the fraction path
        assert shapley(worth, players) == plain(worth, players)


def test_dimensional_analysis_independence_screen_agrees_with_the_exact_solve():
    from palaestra.envs.physics.dimensional_analysis import _independent, _solve

    rng = random.Random(9)
    for _ in range(2000):
        bases, count = rng.randint(2, 5), rng.randint(1, 5)
        columns = [tuple(rng.choice([0, 0, 1, -1, 2, -2, 3]) for _ in range(bases)) for _ in range(count)]
        assert _independent(columns) == (_solve(columns, (0,) * bases) is not None)


def test_counterfactual_vectorised_equals_enumerating_each_noise_assignment():
    from fractions import Fraction

    from palaestra.envs.causal.counterfactual import _RULES, Node, counterfactual

    def plain(model, evidence, do, outcome):
        def world(bits, forced):
            values = {}
            for node, b in zip(model, bits):
                values[node.name] = forced[node.name] if node.name in forced else \
                    _RULES[node.rule]([values[p] for p in node.parents], b)
            return values

        matched = hit = Fraction(0)
        for bits in itertools.product((0, 1), repeat=len(model)):
            weight = Fraction(1)
            for node, b in zip(model, bits):
                weight *= node.noise if b else 1 - node.noise
            if all(world(bits, {})[k] == v for k, v in evidence.items()):
                matched += weight
                hit += weight if all(world(bits, do)[k] == v for k, v in outcome.items()) else 0
        return None if matched == 0 else hit / matched

    rng = random.Random(8)
    one = [r for r in _RULES if "{p0}" in r and "{p1}" not in r]
    two = [r for r in _RULES if "{p1}" in r]
    for trial in range(150):
        names = [f"V{i}" for i in range(rng.randint(2, 6))]
        big = trial % 5 == 0  # huge denominators take the Python-integer path
        model = []
        for i, name in enumerate(names):
            parents = tuple(rng.sample(names[:i], min(i, rng.randint(0, 2))))
            rule = "{u}" if not parents else rng.choice(one if len(parents) == 1 else two)
            denominator = rng.choice([10**12 + 39, 10**15 + 37]) if big else rng.choice([2, 3, 4, 5, 10])
            model.append(Node(name, parents, rule, Fraction(rng.randint(1, denominator - 1), denominator)))
        evidence = {name: rng.randint(0, 1) for name in rng.sample(names, rng.randint(1, len(names)))}
        do = {rng.choice(names): rng.randint(0, 1)}
        outcome = {rng.choice(names): rng.randint(0, 1)}
        expected = plain(model, evidence, do, outcome)
        if expected is None:
            try:
                counterfactual(model, evidence, do, outcome)
            except ZeroDivisionError:
                continue
            raise AssertionError("impossible evidence not reported")
        assert counterfactual(model, evidence, do, outcome) == expected


def test_scm_probability_equals_the_fraction_sum_over_the_joint():
    from fractions import Fraction

    from palaestra.envs.causal._scm_common import probability, random_model

    def plain(model, event, do, given):
        rows = [({}, Fraction(1))]
        for var in model:
            grown = []
            for assignment, p in rows:
                if var.name in do:
                    grown.append(({**assignment, var.name: do[var.name]}, p))
                    continue
                for value, q in enumerate(var.table[tuple(assignment[v] for v in var.parents)]):
                    grown.append(({**assignment, var.name: value}, p * q))
            rows = grown
        both = sum((p for a, p in rows if all(a[k] == v for k, v in {**given, **event}.items())), Fraction(0))
        return both / sum((p for a, p in rows if all(a[k] == v for k, v in given.items())), Fraction(0))

    rng = random.Random(6)
    for _ in range(60):
        names = [f"V{i}" for i in range(rng.randint(2, 5))]
        model = random_model(rng, names, max_parents=2, ternary=0.3)
        x, y = rng.sample(names, 2)
        do = {x: rng.randint(0, 1)} if rng.random() < 0.5 else {}
        given = {} if do else {x: rng.randint(0, 1)}
        assert probability(model, {y: 1}, do=do, given=given) == plain(model, {y: 1}, do, given)


def test_kinship_relations_with_shared_links_match_a_plain_sibling_scan():
    from palaestra.envs.deduction.kinship import _family, _links, _relations

    rng = random.Random(12)
    for _ in range(20):
        people = _family(rng, 4, (1, 3))
        parents, spouse, siblings = _links(people)
        for i in range(len(people)):
            plain = {j for j in range(len(people)) if j != i and people[i]["parents"]
                     and set(people[j]["parents"]) == set(people[i]["parents"])}
            assert siblings[i] == plain and spouse[i] == people[i]["spouse"]
        links = _links(people)
        for x in range(len(people)):
            for y in range(len(people)):
                if x != y:
                    assert _relations(people, x, y, links) == _relations(people, x, y)
        assert links == (parents, spouse, siblings)  # the shared links are not modified


def test_schulze_matches_the_textbook_strongest_paths():
    from palaestra.envs.economics.voting_rules import schulze

    def plain(ballots, candidates):
        d = [[0] * candidates for _ in range(candidates)]
        for voters, ranking in ballots:
            for i, better in enumerate(ranking):
                for worse in ranking[i + 1:]:
                    d[better][worse] += voters
        p = [[d[x][y] if d[x][y] > d[y][x] else 0 for y in range(candidates)] for x in range(candidates)]
        for via in range(candidates):
            for x in range(candidates):
                for y in range(candidates):
                    if len({x, y, via}) == 3:
                        p[x][y] = max(p[x][y], min(p[x][via], p[via][y]))
        winners = [x for x in range(candidates) if all(p[x][y] >= p[y][x] for y in range(candidates) if y != x)]
        return winners[0] if len(winners) == 1 else None

    rng = random.Random(13)
    for _ in range(1000):
        k = rng.randint(2, 7)
        ballots = [(rng.randint(1, 12), rng.sample(range(k), k)) for _ in range(rng.randint(1, 9))]
        assert schulze(ballots, k) == plain(ballots, k)


def test_make_target_expression_is_the_first_one_the_eager_search_writes():
    from palaestra.envs.arithmetic.countdown import _LEAF, _TOLERANCE, _combine_float, _make_target_expression

    def eager(numbers, target):
        def search(items):
            if len(items) == 1:
                return items[0][1] if abs(items[0][0] - target) < _TOLERANCE else None
            for i, j in itertools.combinations(range(len(items)), 2):
                rest = [v for k, v in enumerate(items) if k != i and k != j]
                for left, right in ((items[i], items[j]), (items[j], items[i])):
                    for op in "+-*/":
                        if (op in "+*" and left is items[j]) or (op == "/" and right[0] == 0):
                            continue
                        found = search(rest + [_combine_float(left, op, right)])
                        if found is not None:
                            return found
            return None

        return search([(float(n), str(n), _LEAF) for n in numbers])

    rng = random.Random(14)
    for _ in range(40):
        numbers = tuple(sorted(rng.randint(1, 13) for _ in range(4)))
        target = rng.randint(1, 60)
        assert _make_target_expression(numbers, target) == eager(numbers, target)


def test_optimal_routes_cost_matches_brute_force_over_partitions_and_orders():
    from palaestra.envs.operations.vehicle_routing import _distances, optimal_routes, total_distance

    def partitions(items):
        if not items:
            yield []
            return
        first, rest = items[0], items[1:]
        for smaller in partitions(rest):
            for i in range(len(smaller)):
                yield smaller[:i] + [[first, *smaller[i]]] + smaller[i + 1:]
            yield [[first], *smaller]

    rng = random.Random(15)
    for _ in range(30):
        n = rng.randint(1, 6)
        points = [(5, 5)] + [(rng.randint(0, 10), rng.randint(0, 10)) for _ in range(n)]
        demand = [rng.randint(1, 6) for _ in range(n)]
        capacity = max(max(demand), sum(demand) * rng.randint(30, 55) // 100 + 1)
        distance = _distances(points)
        best = min(sum(min(total_distance(distance, [list(order)]) for order in itertools.permutations(group))
                       for group in partition)
                   for partition in partitions(list(range(1, n + 1)))
                   if all(sum(demand[c - 1] for c in group) <= capacity for group in partition))
        routes, cost = optimal_routes(distance, demand, capacity)
        assert cost == best == total_distance(distance, routes)
        assert sorted(c for r in routes for c in r) == list(range(1, n + 1))


def test_first_fit_matches_the_plain_rule_in_every_order():
    from palaestra.envs.operations.exam_timetabling import FIRST_FIT_ORDERS, first_fit

    def plain(capacity, size, conflicts, slots, order):
        clash = {e: set() for e in range(len(size))}
        for a, b in conflicts:
            clash[a].add(b)
            clash[b].add(a)
        keys = {"most conflicts": lambda e: (-len(clash[e]), -size[e], e),
                "largest enrolment": lambda e: (-size[e], -len(clash[e]), e),
                "enrolment times conflicts": lambda e: (-size[e] * len(clash[e]), e)}
        plan = {}
        for step in range(len(size)):
            if order in keys:
                exam = sorted(range(len(size)), key=keys[order])[step]
            else:
                exam = min((e for e in range(len(size)) if e not in plan),
                           key=lambda e: (-len({plan[o][0] for o in clash[e] if o in plan}), -len(clash[e]),
                                          -size[e], e))
            spot = next(((s, q) for s in range(slots) if all(plan.get(o, (-1,))[0] != s for o in clash[exam])
                         for q in sorted(range(len(capacity)), key=lambda q: capacity[q])
                         if capacity[q] >= size[exam] and (s, q) not in plan.values()), None)
            if spot is None:
                return None
            plan[exam] = spot
        return [plan[e] for e in range(len(size))]

    rng = random.Random(16)
    for _ in range(300):
        n, slots, rooms = rng.randint(3, 12), rng.randint(2, 5), rng.randint(1, 3)
        capacity = sorted(rng.sample(range(20, 201, 10), rooms))
        size = [rng.randint(5, 200) for _ in range(n)]
        conflicts = [[a, b] for a in range(n) for b in range(a + 1, n) if rng.random() < 0.4]
        for order in FIRST_FIT_ORDERS:
            assert first_fit(capacity, size, conflicts, slots, order) == plain(capacity, size, conflicts, slots, order)


def test_equivalence_truth_tables_match_evaluating_every_assignment():
    from palaestra.envs.deduction.equivalence import _formula, _table

    def value(f, assignment):
        op = f[0]
        if op == "var":
            return bool(assignment >> f[1] & 1)
        if op == "not":
            return not value(f[1], assignment)
        a, b = value(f[1], assignment), value(f[2], assignment)
        return {"and": a and b, "or": a or b, "imp": (not a) or b, "iff": a == b}[op]

    rng = random.Random(17)
    for _ in range(200):
        n = rng.randint(2, 6)
        f = _formula(rng, n, rng.randint(1, 4))
        assert _table(f, n) == sum(1 << a for a in range(1 << n) if value(f, a))


def test_greedy_cover_matches_the_fraction_ratio_rule():
    from fractions import Fraction

    from palaestra.envs.operations.set_cover import greedy_cover

    def plain(sets, costs, n):
        uncovered, chosen = set(range(1, n + 1)), []
        while uncovered:
            best = min((i for i in range(len(sets)) if uncovered & set(sets[i])),
                       key=lambda i: (Fraction(costs[i], len(uncovered & set(sets[i]))), i))
            chosen.append(best)
            uncovered -= set(sets[best])
        return chosen

    rng = random.Random(18)
    for _ in range(500):
        n, k = rng.randint(1, 12), rng.randint(1, 8)
        sets = [sorted(rng.sample(range(1, n + 1), rng.randint(1, n))) for _ in range(k)]
        sets.append(list(range(1, n + 1)))  # everything is coverable
        costs = [rng.randint(1, 12) for _ in sets]
        assert greedy_cover(sets, costs, n) == plain(sets, costs, n)


def test_exam_timetabling_level_2_seed_100_generates() -> None:
    """Level 2 keeps about one draw in 680; v2 gave up after 5,000 and raised at this seed."""
    from palaestra.core.registry import make_source

    source = make_source("operations/exam_timetabling")
    problem = source.sample(2, 100)
    assert source.verify(problem, problem.answer or "").correct


def test_aggregation_qa_level_4_seed_900073_generates() -> None:
    """v3 drew 20 worlds at most and raised at this seed (a count question few worlds fit)."""
    from palaestra.core.registry import make_source

    source = make_source("tools/aggregation_qa")
    problem = source.sample(4, 900_073)  # v5 draws another kind of question at this seed; it must still generate
    assert problem.answer is not None and source.judge(problem, problem.answer).correct
