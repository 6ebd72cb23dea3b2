"""Red team, session 40 (a second look at biology and chemistry envs whose last red-team test was old): cheap
assignments that were optimal on small trees, and right answers in a careful grader's naming sentence that were
refused, with the wrong ones beside them still refused.

- biology/fitch_parsimony v3: v2 redrew only the leaves' per-site majority; copying each internal node's first leaf,
  last leaf or a leaf child, or the least or greatest letter of its bottom-up Fitch set (the top-down pass skipped),
  was optimal on 0.36, 0.40, 0.19, 0.43 and 0.24 of level 0 and 0.13-0.15 of level 1 (200 seeds). Now each is
  redrawn in four problems of five like the majority: at most 0.06 (level 0) and 0.04 (level 1).

- biology/hardy_weinberg v3: "The frequency of allele a is 34/67." was refused (the shared number reader stops at
  the allele's one-letter name) on every allele question, 0 -> 1 of them; a hedge or the wrong number still is.
- chemistry/limiting_reagent v3: "The limiting reagent is KI; 23.1 g" was refused on every problem, 0 -> 1 of them;
  naming the excess reactant, or adding it as a second answer, still is.
- chemistry/titration_curve v3: level 0 asks one point, and its pH alone ("pH = 8.79", "The pH is 8.79.", "8.79") was
  refused on every level 0 problem, 0 -> 1; a second value or a wrong one still is.
- chemistry/balance_equation v4: "Coefficients: 2, 1, 2, 1" was refused on every problem, 0 -> 1.
"""

from __future__ import annotations

import palaestra


def _task(env_id: str):
    return palaestra.make(env_id).unwrapped.task


def _reward(problem, reply: str) -> float:
    return palaestra.score(problem, f"<answer>{reply}</answer>").reward


def _leaf_copies(problem, last: bool) -> str:
    """Each internal node given the sequence of its subtree's first (or last) leaf."""
    from palaestra.envs.biology.fitch_parsimony import parse_newick

    copies: dict[str, str] = {}

    def walk(node) -> str:
        if isinstance(node, str):
            return problem.data["sequences"][node]
        ends = [walk(node[0]), walk(node[1])]
        copies[node[2]] = ends[last]
        return ends[last]

    walk(parse_newick(problem.data["tree"]))
    return "\n".join(f"{name}: {sequence}" for name, sequence in copies.items())


def test_fitch_parsimony_shortcut_assignments_rarely_optimal() -> None:
    task = _task("biology/fitch_parsimony")
    policies = {**task.heuristics(), "first leaf (here)": lambda p: _leaf_copies(p, False),
                "last leaf (here)": lambda p: _leaf_copies(p, True)}
    assert len(policies) == 8
    for level in (0, 1):
        problems = [task.sample(level, seed) for seed in range(30)]
        for name, policy in policies.items():
            share = sum(_reward(p, policy(p)) for p in problems) / len(problems)
            assert share <= 0.15, (level, name, share)  # v2 at level 0: first leaf 0.36, last 0.40, bottom-up 0.43
        assert all(_reward(p, p.answer) == 1.0 for p in problems)


def test_hardy_weinberg_allele_naming_sentence() -> None:
    task = _task("biology/hardy_weinberg")
    problems = [p for p in (task.sample(level, seed) for level in (0, 1) for seed in range(12))
                if p.data["kind"] == "allele"]
    assert len(problems) >= 8
    for p in problems:
        assert _reward(p, p.answer) == 1.0
        for subject in ("The frequency of allele a is", "The frequency of a is"):
            assert _reward(p, f"{subject} {p.answer}.") == 1.0  # v2: 0
        assert _reward(p, f"The frequency of allele a is {p.answer} or 1/2.") == 0.0
        assert _reward(p, "The frequency of allele a is 1/2.") == (1.0 if p.answer == "1/2" else 0.0)


def test_limiting_reagent_naming_sentence() -> None:
    task = _task("chemistry/limiting_reagent")
    for level in range(5):
        for seed in range(4):
            p = task.sample(level, seed)
            formula, mass = p.answer.split("; ")
            excess = p.data["reactants"][1 - p.data["limiting"]]
            assert _reward(p, p.answer) == 1.0
            assert _reward(p, f"The limiting reagent is {formula}; {mass}") == 1.0  # v2: 0
            assert _reward(p, f"The limiting reactant is {formula}, {mass}.") == 1.0  # v2: 0
            assert _reward(p, f"The limiting reagent is {excess}; {mass}") == 0.0
            assert _reward(p, f"The limiting reagent is {formula}; {mass} or {excess}") == 0.0


def test_titration_curve_one_point_read_as_its_ph() -> None:
    task = _task("chemistry/titration_curve")
    for seed in range(10):
        p = task.sample(0, seed)
        assert len(p.data["points"]) == 1 and _reward(p, p.answer) == 1.0
        ph = p.answer.split("= ")[1]
        for right in (ph, f"pH = {ph}", f"The pH is {ph}."):
            assert _reward(p, right) == 1.0, right  # v2: 0
        for wrong in (f"{ph} or 7", f"pH = {ph}. Actually 7", f"{float(ph) + 0.05:.3f}"):
            assert _reward(p, wrong) == 0.0, wrong
    two = task.sample(1, 0)
    assert len(two.data["points"]) == 2 and _reward(two, two.answer.split("= ")[1].split(",")[0]) == 0.0


def test_balance_equation_coefficients_label() -> None:
    task = _task("chemistry/balance_equation")
    for level in range(5):
        p = task.sample(level, 1)
        assert _reward(p, f"Coefficients: {p.answer}") == 1.0  # v3: 0
        assert _reward(p, f"Coefficients: {p.answer} or {', '.join('1' for _ in p.answer.split(','))}") == 0.0
