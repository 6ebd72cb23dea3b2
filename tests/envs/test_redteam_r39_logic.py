"""Red-team second look (round 39) at deduction, causal and probability envs last reviewed in round 3's first sessions.

- probability/bayes v3: the two urns of level 1 (and the urns of levels 3 and 4) could be picked with equal chances,
  one two-urn problem in six; the prior then cancels from Bayes' rule, so the classic base-rate slip (normalising
  the urns' likelihoods, ignoring how likely each urn is to be picked) was exact: it scored 0.23, 0.05 and 0.07 at
  levels 1, 3 and 4 (100 seeds each). Now the picking chances are never all equal: 0 at each level.
- deduction/circuit_eval v4: the shuffled gate list of levels 2-4 was read top to bottom, each line evaluated where
  it stands with the wires used before their own line taken as 0, as 1 or guessed: 0.13/0.05/0.15, 0.16/0.17/0.14
  and 0.19/0.09/0.12 at levels 2/3/4 (100 seeds each; chance 1/16, 1/32, 1/32). Now the order is one that reading
  gets wrong with either constant and no more often than chance when guessed: 0, 0 and 0.02/0.02/0.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from fractions import Fraction

from palaestra.core.registry import make_source
from palaestra.envs.deduction.circuit_eval import _GATES

SEEDS = range(30)

_URN = re.compile(r"urn \d is picked with probability (\d+(?:/\d+)?) and holds (\d+) red and (\d+) blue")


def _base_rate_slip(prompt: str) -> str | None:
    """The posterior with the urns' picking chances left out: each urn's likelihood over their sum."""
    urns = [(int(r), int(b)) for _, r, b in _URN.findall(prompt)]
    asked = re.search(r"probability that urn (\d)", prompt)
    if not urns or asked is None:
        return None
    colour = re.search(r"is (red|blue)\. What", prompt)
    if "without replacement" in prompt:
        likelihood = [Fraction(r * (r - 1), (r + b) * (r + b - 1)) for r, b in urns]
    elif "Two balls" in prompt:
        likelihood = [Fraction(r, r + b) ** 2 for r, b in urns]
    else:
        likelihood = [Fraction(r if colour is None or colour.group(1) == "red" else b, r + b) for r, b in urns]
    value = likelihood[int(asked.group(1)) - 1] / sum(likelihood)
    return f"{value.numerator}/{value.denominator}"


def test_bayes_base_rate_slip_is_never_exact() -> None:
    src = make_source("probability/bayes")
    for level in (1, 3, 4):
        won = 0.0
        for seed in SEEDS:
            problem = src.sample(level, seed)
            slip = _base_rate_slip(problem.prompt)
            won += slip is not None and src.verify(problem, slip).reward
        assert won / len(SEEDS) <= 0.04, (level, won)


def test_bayes_reference_solves() -> None:
    src = make_source("probability/bayes")
    for level in range(5):
        for seed in range(10):
            problem = src.sample(level, seed)
            assert src.verify(problem, problem.answer).reward == 1.0


def _top_to_bottom(prompt: str, inputs: dict[str, int], outputs: list[str], guess: Callable[[], int]) -> str:
    """The lazy reading of deduction/circuit_eval: each listed line evaluated where it stands, a wire used before
    its own line given ``guess()``."""
    values = dict(inputs)
    for name, op, args in re.findall(r"^(\w+) = (\w+)\(([^)]*)\)$", prompt, re.MULTILINE):
        read = [values[a] if a in values else guess() for a in args.split(", ")]
        values[name] = 1 - read[0] if op == "NOT" else _GATES[op](read[0], read[-1])
    return ", ".join(f"{o} = {values[o]}" for o in outputs)


def test_circuit_eval_top_to_bottom_reading_earns_chance() -> None:
    src = make_source("deduction/circuit_eval")
    coin = random.Random(0)
    for level in (2, 3, 4):
        won = {"0": 0.0, "1": 0.0, "coin": 0.0}
        for seed in SEEDS:
            problem = src.sample(level, seed)
            inputs, outputs = problem.data["inputs"], problem.data["outputs"]
            for name, guess in (("0", lambda: 0), ("1", lambda: 1), ("coin", lambda: coin.randrange(2))):
                won[name] += src.verify(problem, _top_to_bottom(problem.prompt, inputs, outputs, guess)).reward
        assert max(won.values()) / len(SEEDS) <= 0.07, (level, won)


def test_circuit_eval_reference_solves() -> None:
    src = make_source("deduction/circuit_eval")
    for level in range(5):
        for seed in range(10):
            problem = src.sample(level, seed)
            assert src.verify(problem, problem.answer).reward == 1.0
