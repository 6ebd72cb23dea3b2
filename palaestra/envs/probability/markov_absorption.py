"""Absorbing Markov chains: absorption probabilities, expected steps and expected visits, exactly.

Level 0 is gambler's ruin (win $1 or $2 with probability p, sometimes a push that changes
nothing, lose $1 otherwise; stop at $0 or on reaching $N);
levels 1-4 are random chains over 2 to 5 transient states and 2 or 3 absorbing states
with transition probabilities in small fractions (self-loops allowed, every transient
state able to reach an absorbing one). The questions: the probability of ending in a
given absorbing state (levels 0, 1, 3), the expected number of steps until absorption
(levels 2, 3) and the expected number of visits to a transient state (level 4). Answers
come from the linear first-step equations solved with exact fractions; questions whose
answer is 0 or 1 (an unreachable target, a state never revisited) are redrawn, as a guess
would get them, and so are those whose answer is a transition probability the prompt states
(a start that leads straight to absorption: 16% of level-4 answers could be read off).

The answer is the exact value in any exact spelling (``7/12``, ``\\frac{7}{12}``, ``3.5``);
a rounded decimal is wrong.

Version 4: small random chains favour halves and thirds, so "1/2" answered 0.09 of level 1 (1,000 seeds) and "2"
expected steps 0.06 of level 2. A chain question whose value has a denominator of 3 or less is now redrawn with
chance 1/2, which halves those shares.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.envs.probability.common import exact_corruptions, exact_spellings, verdict_exact
from palaestra.solvers.linalg import solve
from palaestra.verifiers.rationals import format_fraction

Chain = dict[str, list[tuple[str, Fraction]]]  # transient state -> [(next state, probability)]


def _solved(matrix: list[list[Fraction]], right: list[Fraction]) -> list[Fraction]:
    """The first-step equations' solution (non-singular: every transient state reaches an absorbing one)."""
    solution = solve(matrix, right)
    if solution is None:
        raise ValueError("singular first-step equations: a transient state never gets absorbed")
    return solution


def _system(chain: Chain, weight: dict[str, Fraction], constant: Fraction) -> dict[str, Fraction]:
    """x_s = constant + sum_t P(s, t) (x_t if t transient else weight[t]) for every transient s."""
    states = list(chain)
    index = {s: i for i, s in enumerate(states)}
    matrix = [[Fraction(int(i == j)) for j in range(len(states))] for i in range(len(states))]
    right = [constant] * len(states)
    for s, moves in chain.items():
        for t, p in moves:
            if t in index:
                matrix[index[s]][index[t]] -= p
            else:
                right[index[s]] += p * weight.get(t, Fraction(0))
    return dict(zip(states, _solved(matrix, right)))


def absorption(chain: Chain, target: str) -> dict[str, Fraction]:
    return _system(chain, {target: Fraction(1)}, Fraction(0))


def expected_steps(chain: Chain) -> dict[str, Fraction]:
    return _system(chain, {}, Fraction(1))


def expected_visits(chain: Chain, start: str, state: str) -> Fraction:
    """Expected visits to ``state`` (counting time 0) from ``start``: the fundamental matrix entry N[start, state],
    from (I - Q) z = e_state, whose solution z is the column of N = (I - Q)^-1 for ``state``."""
    states = list(chain)
    index = {s: i for i, s in enumerate(states)}
    matrix = [[Fraction(int(i == j)) for j in range(len(states))] for i in range(len(states))]
    for s, moves in chain.items():
        for t, p in moves:
            if t in index:
                matrix[index[s]][index[t]] -= p
    column = _solved(matrix, [Fraction(int(i == index[state])) for i in range(len(states))])
    return column[index[start]]


def _reaches(chain: Chain) -> bool:
    """Every transient state can reach an absorbing state (so the first-step equations are non-singular)."""
    good = {s for s, moves in chain.items() if any(t not in chain for t, _ in moves)}
    for _ in range(len(chain)):
        good |= {s for s, moves in chain.items() if any(t in good for t, _ in moves)}
    return good == set(chain)


def _random_chain(rng: random.Random, transient: int, absorbing: int) -> tuple[Chain, list[str]] | None:
    names = [f"S{i + 1}" for i in range(transient)]
    ends = ["A", "B", "C"][:absorbing]
    chain: Chain = {}
    for s in names:
        denominator = rng.choice([2, 3, 4, 5, 6, 8, 10])
        targets = rng.sample([*names, *ends], rng.randint(2, min(3, transient + absorbing)))
        cuts = sorted(rng.sample(range(1, denominator), len(targets) - 1)) if denominator > len(targets) - 1 else None
        if cuts is None or len(set(cuts)) < len(targets) - 1:
            return None
        chain[s] = [(t, Fraction(b - a, denominator)) for t, a, b in zip(targets, [0, *cuts], [*cuts, denominator])]
    if not _reaches(chain) or not all(any(t == e for moves in chain.values() for t, _ in moves) for e in ends):
        return None
    return chain, ends


def _describe(chain: Chain, ends: list[str]) -> str:
    lines = [f"From {s}: " + ", ".join(f"to {t} with probability {format_fraction(p)}" for t, p in moves) + "."
             for s, moves in chain.items()]
    absorbing = ", ".join(ends)
    return (f"A Markov chain moves between the states {', '.join(chain)} and stops for good when it reaches "
            f"{absorbing} (absorbing states).\n" + "\n".join(lines))

_SIMPLE = 3  # values with a denominator up to this (1/2, 1/3, 2/3, whole numbers of steps) ...
_SIMPLE_REDRAWN = 0.5  # ... are redrawn with this chance

_COUNT_UNITS = {"steps": ("steps", "step", "moves", "transitions"), "visits": ("visits", "visit", "times")}


@register
class MarkovAbsorption(Task):
    id = "probability/markov_absorption"
    version = 4
    family = "probability"
    description = "Absorption probabilities, expected steps and visits in absorbing Markov chains, exactly."
    tags = ("math", "probability", "markov-chains")

    @dataclass(frozen=True)
    class Config:
        transient: int  # 0: gambler's ruin
        absorbing: int
        kinds: tuple[str, ...]  # probability | steps | visits

    presets = (
        Config(0, 2, ("probability",)),
        Config(2, 2, ("probability",)),
        Config(3, 2, ("steps",)),
        Config(4, 2, ("probability", "steps")),
        Config(5, 3, ("visits", "probability")),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(config.kinds)
        if config.transient == 0:
            question, value, states = _ruin(rng)
        else:
            # 0 and 1 (an unreachable target, a state never revisited) would be guessable without solving anything
            question, value = retry(lambda: _chain_question(rng, config, kind), what="a question with a non-trivial value")
            states = config.transient
        example = "7/12"  # a fixed placeholder: independent of the answer
        prompt = (f"{question}\n\nGive the exact value as a fraction (an equal terminating decimal is fine too), "
                  f"e.g. {example}.")
        return Problem(prompt=prompt, answer=format_fraction(value), data={
            "kind": kind, "value": format_fraction(value), "states": states,
        })

    def verify(self, problem: Problem, answer: str) -> Verdict:
        units = _COUNT_UNITS.get(problem.data["kind"])  # "17/5 steps" where expected steps are asked
        return verdict_exact(answer, Fraction(problem.data["value"]), units)

    def difficulty(self, problem: Problem) -> float:
        """Twice the unknowns of the first-step equations (1 for gambler's ruin, which has a closed form) plus
        2 for expected steps and 3 for expected visits, plus a tenth of the exact answer's digits."""
        base = 2 * problem.data["states"] + {"probability": 0, "steps": 2, "visits": 3}[problem.data["kind"]]
        return float(base) + sum(c.isdigit() for c in problem.data["value"]) / 10

    def spellings(self, problem: Problem) -> list[str]:
        return [*super().spellings(problem), *exact_spellings(Fraction(problem.data["value"]))]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        return [*super().corruptions(problem, rng), *exact_corruptions(Fraction(problem.data["value"]), rng)]


def _chain_question(rng: random.Random, config: MarkovAbsorption.Config, kind: str) -> tuple[str, Fraction] | None:
    """A random chain and a question about it of the given kind, or None when the chain does not fit or the
    answer is 0 or 1."""
    drawn = _random_chain(rng, config.transient, config.absorbing)
    if drawn is None:
        return None
    chain, ends = drawn
    start = rng.choice(list(chain))
    if kind == "probability":
        target = rng.choice(ends)
        value = absorption(chain, target)[start]
        ask = f"Starting from {start}, what is the probability that the chain ends in {target}?"
    elif kind == "steps":
        value = expected_steps(chain)[start]
        ask = f"Starting from {start}, what is the expected number of steps until the chain is absorbed?"
    else:
        state = rng.choice(list(chain))
        value = expected_visits(chain, start, state)
        ask = (f"Starting from {start}, what is the expected number of times the chain is in state {state} "
               "(counting the start itself if it is that state) before it is absorbed?")
    if value in (0, 1) or value in {chance for moves in chain.values() for _, chance in moves}:
        return None  # a value the prompt states (a start that leads straight to absorption) is read off, not solved
    if value.denominator <= _SIMPLE and rng.random() < _SIMPLE_REDRAWN:
        return None  # small chains favour halves and thirds: 1/2 answered 0.09 of level 1
    return f"{_describe(chain, ends)}\n\n{ask}", value


def _ruin(rng: random.Random) -> tuple[str, Fraction, int]:
    n = rng.randint(3, 20)
    start = rng.randint(1, n - 1)
    denominator = rng.randint(2, 15)
    wins = rng.randint(1, denominator - 1)
    ties = rng.randint(1, denominator - 1 - wins) if rng.random() < 0.5 and denominator - 1 - wins >= 1 else 0
    win, tie = Fraction(wins, denominator), Fraction(ties, denominator)  # a tie (push) leaves the money unchanged
    lose = 1 - win - tie
    prize = rng.choice([1, 1, 2])  # a win pays $1 or $2; the gambler stops on reaching $n or more
    chain: Chain = {f"{k}": [(f"{min(k + prize, n)}", win), (f"{k - 1}", lose), *([(f"{k}", tie)] if tie else [])]
                    for k in range(1, n)}
    broke = rng.random() < 0.5
    value = absorption(chain, "0" if broke else str(n))[str(start)]
    odds = f"winning ${prize} with probability {format_fraction(win)}"
    odds += f", pushing (no money changes hands) with probability {format_fraction(tie)}" if tie else ""
    question = (f"A gambler has ${start} and bets repeatedly: each bet means {odds}, and losing $1 otherwise. They "
                f"stop on reaching ${n} or more, or on going broke. What is the probability of "
                f"{'going broke' if broke else f'reaching ${n} or more'}?")
    return question, value, 1
