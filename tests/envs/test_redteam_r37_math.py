"""Second-look red-team pass (session 37) over the algebra, calculus, linalg, probability, sequences and symbolic envs.

Fixed, with the measured shares before -> after (40 seeds a level unless said):

- symbolic/type_inference v3: a pair whose first item was a ``fun``/``let``/``if`` was printed ``(fun y -> 4, x)``,
  which the prompt's own rule ("fun x -> ... extends as far right as possible", as in OCaml) reads as
  ``fun y -> (4, x)``: 0.14-0.48 of the problems per level were ambiguous and a solver following the stated rule
  was marked wrong on them -> 0 (the first item is parenthesised).
- symbolic/elementary_ca v4: ignoring "cells beyond the two ends count as 0" (wrapping the row) answered 0.45 of
  level 0 and 0.30 of level 1 -> 0.
- symbolic/game_of_life v2: applying Conway's rule whatever rule the prompt stated answered 0.18 of level 2's
  HighLife problems (0.11 at level 3), and HighLife's rule 0.31 of level 2's Conway problems -> 0.
- probability/constrained_counting v5: a solver skipping one stated constraint (the last, say) answered 0.35 of
  level 3 and 0.27 of level 4 (the constraint was implied by the others; any four of the words' and committees'
  five constraints held such a pair) -> 0: every constraint must change the count, and words and committees have
  two constraints more.
- sequences/modular_puzzle v3: dropping a condition enlarged the combined modulus, but the smallest count fitting
  the other conditions was often the answer all the same: skipping one condition answered 0.20 of level 1, 0.22 of
  level 2, 0.25 of level 3 (60 seeds) -> 0.
"""

from __future__ import annotations

import math
import re

from palaestra.core.registry import make_source
from palaestra.envs.probability import constrained_counting
from palaestra.envs.symbolic import elementary_ca, game_of_life

SEEDS = range(30)


def _tag(text: str) -> str:
    return f"<answer>{text}</answer>"


def _expression(prompt: str) -> str:
    return prompt.split("\n\n")[1]


def _ambiguous_pair(text: str) -> bool:
    """A parenthesis opening with fun/let/if whose body reaches a comma at its own depth: (fun y -> 4, x)."""
    for start in (m.start() for m in re.finditer(r"\((?=fun |let |if )", text)):
        depth = 0
        for ch in text[start + 1:]:
            if ch == "(":
                depth += 1
            elif ch == ")":
                if depth == 0:
                    break
                depth -= 1
            elif ch == "," and depth == 0:
                return True
    return False


def test_type_inference_prints_no_pair_the_stated_rule_reads_otherwise():
    src = make_source("symbolic/type_inference")
    for level in range(5):
        for seed in SEEDS:
            problem = src.sample(level, seed)
            assert not _ambiguous_pair(_expression(problem.prompt)), (level, seed, _expression(problem.prompt))
            assert src.check(problem, _tag(problem.answer)).correct


def test_type_inference_ambiguity_check_catches_the_old_printing():
    assert _ambiguous_pair("fun x -> (x, (fun y -> 4, x))")
    assert not _ambiguous_pair("fun x -> (x, ((fun y -> 4), x))")
    assert not _ambiguous_pair("fun x -> (x, fun z -> (snd, x))")


def test_elementary_ca_edge_rule_matters_at_every_level():
    src = make_source("symbolic/elementary_ca")
    for level in range(5):
        paid = 0
        for seed in SEEDS:
            problem = src.sample(level, seed)
            data = problem.data
            row = data["row"]
            for _ in range(data["steps"]):
                row = elementary_ca.step(row, data["rule"], not data["wrap"])
            paid += src.check(problem, _tag(row)).reward
            assert src.check(problem, _tag(problem.answer)).correct
        assert paid / len(SEEDS) <= 0.05, (level, paid)


def test_game_of_life_stated_rule_matters():
    src = make_source("symbolic/game_of_life")
    for level in (2, 3, 4):
        for seed in SEEDS:
            problem = src.sample(level, seed)
            data = problem.data
            assert src.check(problem, _tag(problem.answer)).correct
            for other in src.level_config(level).rules:
                if other == data["rule"]:
                    continue
                grid = data["grid"]
                for _ in range(data["generations"]):
                    grid = game_of_life.evolve(grid, other, data["wrap"])
                assert not src.check(problem, _tag("\n".join(grid))).correct, (level, seed, data["rule"], other)


def test_constrained_counting_every_stated_constraint_changes_the_count(monkeypatch):
    counted = constrained_counting._count
    last: dict = {}

    def recording(candidates, tests):
        candidates = list(candidates)
        result = counted(candidates, tests)
        last.update(candidates=candidates, tests=tests)
        return result

    monkeypatch.setattr(constrained_counting, "_count", recording)
    src = make_source("probability/constrained_counting")
    for level in range(5):
        for seed in range(20):
            problem = src.sample(level, seed)
            candidates, tests = last["candidates"], last["tests"]
            assert sum(all(t(c) for t in tests) for c in candidates) == problem.data["count"]
            for skipped in range(len(tests)):
                rest = tests[:skipped] + tests[skipped + 1:]
                assert sum(all(t(c) for t in rest) for c in candidates) != problem.data["count"], (level, seed)
            assert src.check(problem, _tag(problem.answer)).correct


def test_modular_puzzle_skipping_a_condition_gives_another_answer():
    src = make_source("sequences/modular_puzzle")
    for level in range(5):
        for seed in SEEDS:
            problem = src.sample(level, seed)
            data = problem.data
            conditions, answer, floor = data["conditions"], data["answer"], data["floor"]
            for skipped in range(len(conditions)):
                rest = [c for i, c in enumerate(conditions) if i != skipped]
                # a·x ≡ r (mod m) holds exactly for x ≡ answer modulo m / gcd(a, m); the others alone are met by the
                # answer minus a multiple of the lcm of those moduli, a smaller count above the floor if one is
                step = math.lcm(*(m // math.gcd(a, m) for a, m, _, _ in rest))
                smallest = floor + 1 + (answer - floor - 1) % step
                assert all((a * smallest - r) % m == 0 for a, m, _, r in rest)
                assert smallest != answer, (level, seed, skipped)
                assert not src.check(problem, _tag(str(smallest))).correct
            assert src.check(problem, _tag(problem.answer)).correct
