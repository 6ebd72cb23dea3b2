"""Red team, session 26 (second look at biology, algebra, calculus, linalg): a constant that paid at the top levels,
and right answers a careful grader accepts that were refused, with the wrong answers next to them still refused."""

from __future__ import annotations

import palaestra


def _task(env_id: str):
    return palaestra.make(env_id).unwrapped.task


def _reward(problem, reply: str) -> float:
    return palaestra.score(problem, f"<answer>{reply}</answer>").reward


# --- linalg/determinant: "0" at the block-structured levels --------------------------------------------------------
# v2 kept a singular draw one time in 20; the block-triangular levels draw singular matrices more often than not, so
# "0" answered 7.5% of level 3 and 5% of level 4 (the next best constant 3%). v3 keeps one in 100.


def test_determinant_zero_is_rare_at_the_top_levels() -> None:
    task = _task("linalg/determinant")
    for level in (3, 4):
        problems = [task.sample(level, seed) for seed in range(150)]
        assert sum(_reward(p, "0") for p in problems) / len(problems) < 0.04  # v2: 0.075 (level 3), 0.05 (level 4)
    assert _reward(problems[0], problems[0].answer) == 1.0


# --- biology/reverse_complement, open_reading_frames, translation: a label before the sequence -----------------------
# "The reverse complement is X" was read, "Reverse complement: X" was not (nor "ORF: X", "Protein: X").


def test_sequence_after_a_label() -> None:
    for env_id, label in (
        ("biology/reverse_complement", "Reverse complement:"),
        ("biology/translation", "Protein:"),
        ("biology/translation", "Amino acid sequence:"),
    ):
        problem = _task(env_id).sample(2, 5)
        assert _reward(problem, f"{label} {problem.answer}") == 1.0, (env_id, label)
        wrong = problem.answer[:-1] + ("A" if problem.answer[-1] != "A" else "C")
        assert _reward(problem, f"{label} {wrong}") == 0.0
        assert _reward(problem, f"Sequence: {problem.answer}") == 0.0  # only the env's own labels


def test_open_reading_frames_labels_before_each_strand() -> None:
    # v3 asks for one ORF per strand: the labels name the strand ("Given strand ORF:", "Longest ORF on the reverse
    # complement:"); "ORF: X" alone no longer says which strand is meant
    problem = _task("biology/open_reading_frames").sample(2, 5)
    forward, reverse = (part.split(": ")[1] for part in problem.answer.split("; "))
    for first, second in (("Given strand ORF:", "Reverse complement ORF:"),
                          ("Longest ORF on the given strand:", "Longest ORF on the reverse complement:"),
                          ("Forward:", "Reverse:")):
        assert _reward(problem, f"{first} {forward}\n{second} {reverse}") == 1.0, first
        wrong = reverse[:-1] + ("A" if reverse[-1] != "A" else "C")
        assert _reward(problem, f"{first} {forward}\n{second} {wrong}") == 0.0
    assert _reward(problem, f"ORF: {forward}\nORF: {reverse}") == 0.0
    assert _reward(problem, f"Sequence: {forward}\nReverse complement: {reverse}") == 0.0  # only the env's labels


# --- biology/hardy_weinberg: the quantity named, the count with its unit -------------------------------------------


def test_hardy_weinberg_named_quantity_and_unit() -> None:
    task = _task("biology/hardy_weinberg")
    by_kind = {}
    for level in range(5):
        for seed in range(30):
            problem = task.sample(level, seed)
            by_kind.setdefault(problem.data["kind"], problem)
    carriers, expected, dominant = by_kind["carriers"], by_kind["expected"], by_kind["dominant_carriers"]
    assert _reward(carriers, f"2pq = {carriers.answer}") == 1.0  # was refused
    assert _reward(carriers, f"\\boxed{{2pq = {carriers.answer}}}") == 1.0
    assert _reward(dominant, f"2pq/(p^2 + 2pq) = {dominant.answer}") == 1.0
    assert _reward(expected, f"{expected.answer} heterozygotes") == 1.0  # was refused
    assert _reward(expected, f"{expected.answer} individuals") == 1.0
    assert _reward(carriers, "2pq = 1/3") == 0.0 or carriers.answer == "1/3"
    assert _reward(carriers, f"2pq = {carriers.answer} or 2pq = 1/2") == 0.0
    assert _reward(carriers, f"{carriers.answer} heterozygotes") == 0.0  # a fraction, not a count


# --- biology/linkage_mapping: neighbouring pairs listed, map units -------------------------------------------------


def test_linkage_map_as_pairs_and_in_map_units() -> None:
    task = _task("biology/linkage_mapping")
    for level in (0, 4):
        problem = task.sample(level, 5)
        tokens = problem.answer.split()
        genes, distances = tokens[0::2], tokens[1::2]
        pairs = [f"{genes[i]}-{genes[i + 1]}: {distances[i]} cM" for i in range(len(distances))]
        assert _reward(problem, ", ".join(pairs)) == 1.0  # was refused
        assert _reward(problem, "; ".join(reversed(pairs))) == 1.0
        assert _reward(problem, f"Gene order: {'-'.join(genes)}; " + "; ".join(pairs)) == 1.0
        units = " ".join(g if i == 0 else f"{distances[i - 1]} m.u. {g}" for i, g in enumerate(genes))
        assert _reward(problem, units) == 1.0  # was refused
        # wrong: a stated order the pairs do not make, a distance off, a pair missing, a gene twice
        swapped = [genes[1], genes[0], *genes[2:]]
        assert _reward(problem, f"Order: {'-'.join(swapped)}; " + "; ".join(pairs)) == 0.0
        off = [*pairs[:-1], f"{genes[-2]}-{genes[-1]}: {float(distances[-1]) + 0.5:.2f} cM"]
        assert _reward(problem, ", ".join(off)) == 0.0
        assert _reward(problem, ", ".join(pairs[:-1])) == 0.0
        branched = [*pairs[:-1], f"{genes[0]}-{genes[-1]}: {distances[-1]} cM"]
        assert _reward(problem, ", ".join(branched)) == 0.0


# --- calculus/taylor_coefficients: "+ ..." after the Taylor polynomial ---------------------------------------------


def test_taylor_polynomial_with_a_trailing_ellipsis() -> None:
    task = _task("calculus/taylor_coefficients")
    problem = task.sample(4, 11)
    assert "coefficients" in problem.data
    for tail in (" + ...", " + \\cdots", " + …"):
        assert _reward(problem, problem.answer + tail) == 1.0  # was refused
        assert _reward(problem, f"{problem.answer} + x^7{tail}") == 0.0


# --- biology/mendelian_cross: entries after commas, percentages, fraction first, a markdown table ------------------


def test_mendelian_cross_common_layouts() -> None:
    task = _task("biology/mendelian_cross")
    problem = task.sample(0, 1)
    assert problem.answer == "glossy bald: 1/2\nglossy hairy: 1/2"
    for reply in (
        "glossy bald: 1/2, glossy hairy: 1/2",
        "glossy bald: 50%\nglossy hairy: 50%",
        "1/2 glossy bald\n1/2 glossy hairy",
        "glossy bald (1/2)\nglossy hairy (1/2)",
        "| Phenotype | Fraction |\n|---|---|\n| glossy bald | 1/2 |\n| glossy hairy | 1/2 |",
    ):
        assert _reward(problem, reply) == 1.0, reply  # each was refused
    for reply in (
        "glossy bald: 1/2, glossy hairy: 1/4",
        "glossy bald: 1/2, glossy hairy: 1/2, glossy bald: 1/4",
        "glossy bald: 25%\nglossy hairy: 75%",
        "| glossy bald | 1/2 |\n| glossy hairy | 1/2 | 1/4 |",
        "1/2 glossy bald\n1/2 glossy hairy\n1/4 matte bald",
    ):
        assert _reward(problem, reply) == 0.0, reply


# --- linalg/determinant: the named determinant inside \boxed{} -----------------------------------------------------


def test_determinant_named_inside_a_box() -> None:
    problem = _task("linalg/determinant").sample(3, 3)
    value = int(problem.answer)
    assert _reward(problem, f"\\boxed{{\\det(A) = {value}}}") == 1.0  # was refused ("det(A) = v" alone was read)
    assert _reward(problem, f"\\boxed{{|A| = {value}}}.") == 1.0
    assert _reward(problem, f"\\boxed{{\\det(A) = {value + 1}}}") == 0.0
    assert _reward(problem, f"\\boxed{{\\det(A) = {value} or {value + 1}}}") == 0.0


# --- biology/michaelis_menten: values given as approximations (graded within 2%) -----------------------------------


def test_michaelis_menten_approximate_signs() -> None:
    problem = _task("biology/michaelis_menten").sample(0, 1)
    assert problem.answer == "Km = 19.3, Vmax = 411"
    assert _reward(problem, "Km ≈ 19.3 µM; Vmax ≈ 411 µM/min") == 1.0  # was refused
    assert _reward(problem, "K_m \\approx 19.3, V_{\\max} \\approx 411 \\mu M/min") == 1.0
    assert _reward(problem, "Km ≈ 25, Vmax ≈ 411") == 0.0
    assert _reward(problem, "Km ≈ 19.3 or 25, Vmax ≈ 411") == 0.0
