"""Sciences round 3d (colligative properties, codon mutations, consumer choice): hand-checked instances."""

from __future__ import annotations

import re
from fractions import Fraction

from palaestra.core.registry import make_source


def _first(env_id: str, level: int, wanted: object, limit: int = 200) -> object:
    task = make_source(env_id)
    for seed in range(limit):
        problem = task.sample(level, seed)
        if wanted(problem):
            return task, problem
    raise AssertionError(f"no problem of {env_id} level {level} matched")


def test_colligative_freezing_point_with_van_t_hoff_factor() -> None:
    task, problem = _first("chemistry/colligative_properties", 1,
                           lambda p: p.data["kind"] == "freezing" and p.data["dissociating"] == 1
                           and "of water" in p.prompt)
    grams = Fraction(re.search(r"- ([\d.]+) g of", problem.prompt).group(1))
    water = Fraction(re.search(r"in ([\d.]+) g of water", problem.prompt).group(1))
    formula = re.search(r"g of (\S+)\n", problem.prompt).group(1)
    weights = {"NaCl": Fraction("22.990") + Fraction("35.45"), "KCl": Fraction("39.098") + Fraction("35.45"),
               "LiCl": Fraction("6.94") + Fraction("35.45")}
    if formula in weights:  # a 1:1 chloride: i = 2, ΔTf = 1.86 · 2 · m
        expected = -Fraction("1.86") * 2 * (grams / weights[formula]) * 1000 / water
        assert Fraction(*problem.data["exact"]) == expected
    exact = Fraction(*problem.data["exact"])
    assert task.verify(problem, f"{float(exact):.3f} °C").correct
    assert task.verify(problem, f"\\boxed{{{float(exact):.2f} degrees Celsius}}").correct
    verdict = task.verify(problem, "0")
    assert not verdict.correct and "pure solvent" in verdict.feedback
    # ignoring the factor: the change for the solute's formula units, not its particles
    ratio = Fraction(*problem.data["factor_free"]) / Fraction(*problem.data["particles"])
    verdict = task.verify(problem, f"{float(exact * ratio):.4f}")
    assert not verdict.correct and "van 't Hoff" in verdict.feedback
    assert not task.verify(problem, f"{float(exact) + 0.05:.4f}").correct  # past the stated 0.02 °C


def test_colligative_molar_mass_and_osmotic_pressure() -> None:
    task, problem = _first("chemistry/colligative_properties", 3, lambda p: p.data["kind"] == "molar_mass")
    exact = Fraction(*problem.data["exact"])
    assert "unknown non-electrolyte X" in problem.prompt and "g/mol" in problem.prompt
    assert task.verify(problem, f"M = {float(exact * Fraction(1004, 1000)):.5g} g/mol").correct
    assert not task.verify(problem, f"{float(exact * Fraction(1006, 1000)):.5g}").correct
    task, problem = _first("chemistry/colligative_properties", 2, lambda p: p.data["kind"] == "osmotic")
    exact = Fraction(*problem.data["exact"])
    assert task.verify(problem, f"{float(exact):.4g} atm").correct
    assert task.verify(problem, f"{float(exact):.4g} atmospheres").correct
    assert not task.verify(problem, f"{float(exact):.4g} kPa").correct


def test_codon_mutation_classes_by_hand() -> None:
    from palaestra.envs.biology.codon_mutations import _no_early_stop, _substitution_label, read_label

    dna = "ATGTTAGCCTGGCAGTAA"  # M L A W Q stop
    assert _substitution_label(dna, 5, "A") == "nonsense"  # TTA -> TAA
    assert _substitution_label(dna, 6, "G") == "silent"  # TTA -> TTG, both leucine
    assert _substitution_label(dna, 7, "A") == "missense"  # GCC -> ACC, alanine -> threonine
    assert _substitution_label(dna, 12, "A") == "nonsense"  # TGG -> TGA
    assert _no_early_stop(dna) and not _no_early_stop("ATGTAGCCCTAA")
    assert read_label("Frame-shift mutation") == "frameshift" and read_label("synonymous") == "silent"
    assert read_label("missense or silent") is None


def test_codon_mutations_grading() -> None:
    task = make_source("biology/codon_mutations")
    problem = task.sample(2, 3)
    labels = [m["label"] for m in problem.data["mutations"]]
    assert len(set(labels)) > 1
    assert task.verify(problem, problem.answer).correct
    assert task.verify(problem, ", ".join(f"M{i + 1} = {label}" for i, label in enumerate(labels))).correct
    flipped = ["missense" if label == "nonsense" else label for label in labels]
    verdict = task.verify(problem, "\n".join(f"M{i + 1}: {label}" for i, label in enumerate(flipped)))
    if flipped != labels:
        assert not verdict.correct and "is not missense" in verdict.feedback
    assert not task.verify(problem, "\n".join(f"M{i + 1}: missense" for i in range(len(labels)))).correct


def test_reaction_kinetics_orders_from_the_table() -> None:
    task = make_source("chemistry/reaction_kinetics")
    problem = task.sample(0, 5)
    rows = [line.strip("| ").split(" | ") for line in problem.prompt.splitlines()
            if line.startswith("| ") and line[2].isdigit()]
    names, orders = problem.data["names"], problem.data["orders"]
    table = [([Fraction(c) for c in row[1:-1]], float(row[-1])) for row in rows]
    k = Fraction(problem.data["k"])
    for concentrations, rate in table:  # every row fits the reference rate law within the rounding
        expected = float(k) * float(concentrations[0]) ** orders[0] * float(concentrations[1]) ** orders[1]
        assert abs(rate - expected) <= 5e-4 * expected
    right = ", ".join(f"{n} = {o}" for n, o in zip(names, orders, strict=True))
    assert task.verify(problem, f"{right}, k = {float(k) * 1.009:.5g}").correct
    assert not task.verify(problem, f"{right}, k = {float(k) * 1.02:.5g}").correct
    wrong = ", ".join(f"{n} = {(o + 1) % 3}" for n, o in zip(names, orders, strict=True))
    verdict = task.verify(problem, f"{wrong}, k = {float(k)}")
    assert not verdict.correct and "order in A" in verdict.feedback


def test_reaction_kinetics_units_fit_the_overall_order() -> None:
    from palaestra.envs.chemistry.reaction_kinetics import rate_constant_units

    task = make_source("chemistry/reaction_kinetics")
    problem = task.sample(1, 2)
    overall, k = problem.data["overall"], problem.data["k"]
    orders = ", ".join(f"{n} = {o}" for n, o in zip(problem.data["names"], problem.data["orders"], strict=True))
    assert task.verify(problem, f"{orders}, k = {k} {rate_constant_units(overall)[0]}").correct
    assert task.verify(problem, f"{orders}, k = {k} {rate_constant_units(overall + 1)[0]}").correct is False


def test_linkage_mapping_three_point_cross_by_hand() -> None:
    task = make_source("biology/linkage_mapping")
    problem = task.sample(0, 3)
    order = problem.data["order"]
    rows = [line.split() for line in problem.prompt.splitlines() if line and line.split()[-1].isdigit()
            and set(line.split()[:-1]) <= set(order) | {"+"}]
    counts = {tuple(row[:-1]): int(row[-1]) for row in rows}
    listed = sorted(order)
    size = sum(counts.values())
    parentals = sorted(counts, key=counts.get)[-2:]

    def recombinant(g: str, h: str) -> int:  # offspring whose g and h alleles are not as in a parental class
        i, j = listed.index(g), listed.index(h)
        pairs = {(p[i], p[j]) for p in parentals}
        return sum(c for hap, c in counts.items() if (hap[i], hap[j]) not in pairs)

    by_hand = [Fraction(100 * recombinant(order[i], order[i + 1]), size) for i in range(2)]
    assert by_hand == [Fraction(*d) for d in problem.data["distances"]]
    # the middle gene: the rarest (double-crossover) classes differ from a parental class at it alone
    assert Fraction(100 * recombinant(order[0], order[2]), size) < by_hand[0] + by_hand[1]
    d1, d2 = (float(d) for d in by_hand)
    assert task.verify(problem, f"{order[0]} {d1:.2f} {order[1]} {d2:.2f} {order[2]}").correct
    assert task.verify(problem, f"{order[2]} - {d2:.3f} cM - {order[1]} - {d1:.3f} cM - {order[0]}").correct
    verdict = task.verify(problem, f"{order[1]} {d1:.2f} {order[0]} {d2:.2f} {order[2]}")
    assert not verdict.correct and "order" in verdict.feedback
    verdict = task.verify(problem, f"{order[0]} {d1 + 0.01:.2f} {order[1]} {d2:.2f} {order[2]}")
    assert not verdict.correct and "distance" in verdict.feedback


def test_uniform_price_may_drop_a_small_market() -> None:
    from palaestra.envs.economics.price_discrimination import uniform_candidates

    # P1 = 100 − Q1, P2 = 20 − Q2, c = 0: serving both gives P = 30 (> 20: inconsistent); serving market 1
    # alone gives P = 50, Q = 50, profit 2500; with P = 10 both would be served but profit only 10·(90 + 10).
    best = uniform_candidates([(Fraction(100), Fraction(1)), (Fraction(20), Fraction(1))], Fraction(0))
    assert best[0] == (Fraction(2500), Fraction(50), Fraction(50), 1)
    # two similar markets: serve both at P = (A + B·c) / 2B with Q = 100 − P + 80 − P
    best = uniform_candidates([(Fraction(100), Fraction(1)), (Fraction(80), Fraction(1))], Fraction(10))
    assert best[0][1] == Fraction(50) and best[0][2] == Fraction(80) and best[0][3] == 2


def test_price_discrimination_grading() -> None:
    task, problem = _first("economics/price_discrimination", 1, lambda p: p.data["question"] == "discrimination")
    markets = re.findall(r"P_(\d) = (\d+) − (?:([\d/]+)·)?Q_", problem.prompt)
    cost = Fraction(re.search(r"marginal cost of (\d+)", problem.prompt).group(1))
    parts, profit = [], Fraction(0)
    for index, a, b in markets:
        a, b = Fraction(a), Fraction(b or 1)
        price, quantity = (a + cost) / 2, (a - cost) / (2 * b)  # MR = a − 2bQ = c
        profit += (price - cost) * quantity
        parts.append(f"P_{index} = {price}, Q_{index} = {quantity}")
    right = ", ".join(parts) + f", profit = {profit}"
    assert task.verify(problem, right).correct
    assert task.verify(problem, right.replace("P_1", "P_{1}")).correct
    verdict = task.verify(problem, right.replace(f"profit = {profit}", f"profit = {profit + 1}"))
    assert not verdict.correct and "profit" in verdict.feedback


def test_michaelis_menten_from_two_rows_and_types() -> None:
    task = make_source("biology/michaelis_menten")
    problem = task.sample(1, 3)
    rows = [[Fraction(c) for c in line.strip("| ").split(" | ")] for line in problem.prompt.splitlines()
            if line.startswith("| ") and line[2].isdigit()]
    (s1, v1, _), (s2, v2, _) = rows[0], rows[-1]
    # Lineweaver-Burk through the first and last rows: 1/v = (Km/Vmax)(1/s) + 1/Vmax
    slope = (1 / v1 - 1 / v2) / (1 / s1 - 1 / s2)
    vmax = 1 / (1 / v1 - slope / s1)
    km = slope * vmax
    assert abs(km / Fraction(problem.data["km"]) - 1) < Fraction(1, 100)
    assert abs(vmax / Fraction(problem.data["vmax"]) - 1) < Fraction(1, 100)
    inhibitor = problem.data["inhibitors"][0]
    ki = float(Fraction(inhibitor["ki"]))
    right = f"Km = {float(km):.4g}, Vmax = {float(vmax):.4g} µM/min, X = {inhibitor['type']}, Ki_X = {ki:.4g} µM"
    assert task.verify(problem, right).correct
    other = {"competitive": "uncompetitive", "uncompetitive": "noncompetitive", "noncompetitive": "competitive"}
    verdict = task.verify(problem, right.replace(f"X = {inhibitor['type']}", f"X = {other[inhibitor['type']]}"))
    assert not verdict.correct and "inhibitor X" in verdict.feedback
    assert not task.verify(problem, right.replace(f"Ki_X = {ki:.4g}", f"Ki_X = {ki * 1.03:.4g}")).correct


def test_titration_points_by_hand() -> None:
    import math

    task, problem = _first("chemistry/titration_curve", 3,
                           lambda p: not p.data["base"] and {"half", "excess"} <= {q["region"] for q in p.data["points"]})
    ka = float(re.search(r"Ka = ([\d.e-]+)\)", problem.prompt).group(1))
    volume, acid = (float(x) for x in re.search(r"^([\d.]+) mL of ([\d.]+) mol/L", problem.prompt).groups())
    naoh = float(re.search(r"with ([\d.]+) mol/L NaOH", problem.prompt).group(1))
    values = {}
    for point in problem.data["points"]:
        added = float(point["added"])
        if point["region"] == "half":
            values[point["name"]] = -math.log10(ka)  # pH = pKa at half-equivalence
        elif point["region"] == "excess":
            hydroxide = (added * naoh - volume * acid) / (volume + added)
            values[point["name"]] = 14 + math.log10(hydroxide)
    for name, value in values.items():
        exact = float(next(Fraction(p["ph"]) for p in problem.data["points"] if p["name"] == name))
        assert abs(exact - value) < 1e-9
    right = ", ".join(f"{p['name']} = {float(Fraction(p['ph'])):.2f}" for p in problem.data["points"])
    assert task.verify(problem, right).correct
    first = problem.data["points"][0]
    off = right.replace(f"{first['name']} = {float(Fraction(first['ph'])):.2f}",
                        f"{first['name']} = {float(Fraction(first['ph'])) + 0.02:.2f}", 1)
    verdict = task.verify(problem, off)
    assert not verdict.correct and first["name"] in verdict.feedback
