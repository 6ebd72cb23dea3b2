"""Red-team regressions, round 40: strperiod.

strings/period v4: "the first position where the string's first k letters recur" answered, at levels 0-4 (40
seeds a level), 0.53/0.45/0.40/0.25/0.35 for k = 8 and 0.70/0.55/0.53/0.40/0.45 for k = 10 (a decoy inside the
word cannot be longer than the word). The period now exceeds half the length plus two and the decoy runs across
the word's end (at least the letters after one period, at most the period less two), so every k answers 0 at
levels 0-7; the decoy's length varies, so the longest self-agreement plus a constant answers at most 0.075.

strings/huffman_lengths v4: Shannon-Fano answered 1.0 and 0.97 of levels 0-1 (5 and 6 symbols: suboptimal on only
0.1-1.4% of draws; a five-symbol code has only three shapes). Levels 0-2 now have 7, 8 and 9 symbols and every
level rules out Shannon-Fano, the most balanced tree and the heaviest symbol alone at length 1 over a balanced
tree of the rest: 0 (the sorted chain 1, 2, ..., n - 1, n - 1, 0.85 of level 0 before, is 0 too).
"""

from __future__ import annotations

import pytest

from palaestra.core.problem import Problem
from palaestra.core.registry import make_source
from palaestra.envs.strings.huffman_lengths import balanced_lengths, shannon_fano_lengths
from palaestra.envs.strings.period import prefix_recurrence

PERIOD = "strings/period"
HUFFMAN = "strings/huffman_lengths"
SEEDS = range(25)


@pytest.mark.parametrize("level", range(5))
def test_period_prefix_recurrence_earns_nothing_for_any_prefix_length(level: int) -> None:
    source = make_source(PERIOD)
    problems = [source.sample(level, seed) for seed in SEEDS]
    length = len(problems[0].data["text"])
    for letters in (*range(3, 13), length // 4, length // 3, length // 2, length // 2 + 3):
        share = sum(
            source.verify(p, str(prefix_recurrence(p.data["text"], letters))).reward for p in problems
        ) / len(problems)
        assert share <= 0.15, (level, letters, share)


def _longest_agreement(text: str) -> tuple[int, int]:
    """The shift (the smallest of the best) at which the string agrees with itself longest, and that length."""
    best = (0, 0)
    for shift in range(1, len(text)):
        agree = 0
        while shift + agree < len(text) and text[agree] == text[shift + agree]:
            agree += 1
        best = max(best, (agree, -shift))
    return -best[1], best[0]


@pytest.mark.parametrize("level", (0, 4))
def test_period_decoy_length_does_not_tell_the_period(level: int) -> None:
    source = make_source(PERIOD)
    problems = [source.sample(level, seed) for seed in range(40)]
    found = [_longest_agreement(p.data["text"]) for p in problems]
    assert not any(source.verify(p, str(shift)).reward for p, (shift, _) in zip(problems, found, strict=True))
    for extra in range(2, 7):  # a decoy of a fixed length short of the period would give the period away
        share = sum(source.verify(p, str(agree + extra)).reward for p, (_, agree) in zip(problems, found, strict=True))
        assert share / len(problems) <= 0.15, (level, extra, share)


@pytest.mark.parametrize("level", range(5))
def test_period_reference_still_solves_and_answers_spread(level: int) -> None:
    source = make_source(PERIOD)
    problems = [source.sample(level, seed) for seed in SEEDS]
    assert all(source.verify(p, p.answer).reward == 1.0 for p in problems)
    assert len({p.answer for p in problems}) >= 10


def _heaviest_alone(frequencies: list[int]) -> list[int]:
    """The heaviest symbol at length 1, the rest as the most balanced tree below it (written here, not imported,
    so the test also fails on versions without the rule)."""
    heaviest = min(range(len(frequencies)), key=lambda i: (-frequencies[i], i))
    rest = [i for i in range(len(frequencies)) if i != heaviest]
    lengths = [1] * len(frequencies)
    for index, length in zip(rest, balanced_lengths([frequencies[i] for i in rest]), strict=True):
        lengths[index] = length + 1
    return lengths


def _chain(frequencies: list[int]) -> list[int]:
    order = sorted(range(len(frequencies)), key=lambda i: (-frequencies[i], i))
    lengths = [0] * len(frequencies)
    for rank, index in enumerate(order):
        lengths[index] = min(rank + 1, len(frequencies) - 1)
    return lengths


def _spelled(problem: Problem, lengths: list[int]) -> str:
    return ", ".join(f"{name}: {n}" for name, n in zip(problem.data["names"], lengths, strict=True))


@pytest.mark.parametrize("level", range(3))
def test_huffman_shapes_without_merging_earn_nothing_at_low_levels(level: int) -> None:
    source = make_source(HUFFMAN)
    problems = [source.sample(level, seed) for seed in SEEDS]
    for rule in (shannon_fano_lengths, balanced_lengths, _heaviest_alone, _chain):
        share = sum(source.verify(p, _spelled(p, rule(p.data["frequencies"]))).reward for p in problems)
        assert share / len(problems) <= 0.1, (level, rule.__name__, share)


@pytest.mark.parametrize("level", range(5))
def test_huffman_reference_still_solves(level: int) -> None:
    source = make_source(HUFFMAN)
    assert all(source.verify(p, p.answer).reward == 1.0 for p in (source.sample(level, seed) for seed in SEEDS))
