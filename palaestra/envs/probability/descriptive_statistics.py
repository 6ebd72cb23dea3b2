"""One descriptive statistic of a generated data set, exactly.

Level 0 asks for the mean, median or range of a few whole numbers; the levels add the
median of an even count, the (unique) mode, frequency tables, the population and sample
variance, the population and sample standard deviation (exact, with a square root), the
mean absolute deviation, a z-score, and the value a new observation must take to reach
a target mean. The prompt defines the statistic it asks for (population or sample,
which deviation), so there is one right value, computed with exact fractions.

The answer is that value in any exact spelling (:func:`palaestra.verifiers.radicals.read_radical`):
``37/4``, ``9.25``, ``sqrt(26)/2``, ``\\frac{\\sqrt{26}}{2}``, ``(1/2)√26``, ``\\sqrt{6.5}``.
A rounded decimal (``2.55``) or the computation typed back (``47 - 12`` for a range, ``(7 + 8)/2`` for a
median, a power, a sum under a root: :func:`palaestra.verifiers.radicals.work_left`) is wrong.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.retry import retry
from palaestra.core.task import Growth
from palaestra.verifiers.expressions import Surd
from palaestra.verifiers.radicals import format_radical, radical_spellings, read_radical, work_left

_WEIGHT = {"mean": 1, "median": 1, "range": 1, "mode": 2, "table_mean": 2, "population_variance": 3,
           "sample_variance": 3, "population_sd": 4, "sample_sd": 4, "mad": 3, "table_variance": 4, "z_score": 5,
           "target_mean": 3}
_DEFINITIONS = {
    "mean": "the mean (the arithmetic average)",
    "median": "the median (the middle value once sorted; the mean of the two middle values for an even count)",
    "range": "the range (largest value minus smallest value)",
    "mode": "the mode (the value that occurs most often)",
    "table_mean": "the mean of all the observations",
    "population_variance": "the population variance (the mean of the squared deviations from the mean)",
    "sample_variance": "the sample variance (the sum of squared deviations from the mean divided by n - 1)",
    "population_sd": "the population standard deviation (the square root of the mean of the squared deviations "
                     "from the mean)",
    "sample_sd": "the sample standard deviation (the square root of the sum of squared deviations from the mean "
                 "divided by n - 1)",
    "mad": "the mean absolute deviation (the mean of the absolute deviations from the mean)",
    "table_variance": "the population variance of all the observations (the mean of the squared deviations "
                      "from the mean)",
}
_EXAMPLE = "37/4 or 3*sqrt(2)/2"


@register
class Descriptive(Task):
    id = "probability/descriptive_statistics"
    family = "probability"
    seed_id = "statistics/descriptive"  # moved from statistics/ in round 3; same problems
    aliases = {"statistics/descriptive": {"version": 1}}
    description = "Mean, median, mode, variance, standard deviation and other statistics of a data set, exactly."
    tags = ("math", "statistics")

    @dataclass(frozen=True)
    class Config:
        kinds: tuple[str, ...]
        size: tuple[int, int]  # observations
        top: int  # values in [0, top]

    presets = (
        Config(kinds=("mean", "median", "range"), size=(5, 7), top=30),
        Config(kinds=("mean", "median", "mode", "table_mean"), size=(6, 10), top=50),
        Config(kinds=("population_variance", "sample_variance", "table_mean", "median"), size=(5, 9), top=30),
        Config(kinds=("population_sd", "sample_sd", "mad", "population_variance", "target_mean"),
                        size=(6, 10), top=40),
        Config(kinds=("population_sd", "sample_sd", "table_variance", "z_score", "target_mean"),
                        size=(8, 12), top=60),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        kind = rng.choice(config.kinds)
        n = rng.randint(*config.size)
        if kind == "median" and config.kinds[0] == "mean" and "mode" in config.kinds:
            n += n % 2  # level 1 medians: an even count, so the two middle values are averaged
        question, value = retry(lambda: _attempt(kind, rng, n, config), what="data with a root of manageable size")
        answer = format_radical(value)
        prompt = f"{question}\n\nGive the exact value (a fraction or a square root where needed), e.g. {_EXAMPLE}."
        return Problem(prompt=prompt, answer=answer, data={"kind": kind, "size": n, "value": answer})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        value = read_radical(answer)
        if value is None:
            return Verdict.unparsed("not an exact number (write a fraction, or a square root like 3*sqrt(2)/2)")
        if work_left(answer):  # "47 - 12" for a range, "(7 + 8)/2" for a median: the definition typed back
            return Verdict.wrong("a value, not a computation: no powers, and no numbers left to combine")
        return Verdict.judge(value == read_radical(problem.data["value"]), "wrong value")

    def difficulty(self, problem: Problem) -> float:
        """Observations plus the statistic's weight (1 for a mean or median up to 5 for a z-score)."""
        return float(problem.data["size"] + 2 * _WEIGHT[problem.data["kind"]])

    def spellings(self, problem: Problem) -> list[str]:
        value = read_radical(problem.data["value"])
        return [*super().spellings(problem), *radical_spellings(value), f"x = {problem.answer}"]  # type: ignore[arg-type]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value = read_radical(problem.data["value"])
        assert value is not None
        wrong = [format_radical(value + Surd.rational(1)), format_radical(value * 2),
                 f"{problem.answer} or {format_radical(value + Surd.rational(Fraction(1, 2)))}"]
        if not value.is_rational() or (value.rational_part() * 1000).denominator != 1:
            wrong.append(f"{float(value):.3f}")
        if not value.is_rational():  # the variance for the standard deviation, or the other way round
            wrong.append(format_radical(value * value))
        return [w for w in wrong if read_radical(w) != value]


def _attempt(kind: str, rng: random.Random, n: int, config: Descriptive.Config) -> tuple[str, Surd] | None:
    """One data set and its question, or None when a square root's argument is beyond exact surd arithmetic."""
    data = [rng.randint(0, config.top) for _ in range(n)]
    try:
        return _QUESTION[kind](rng, data, config)
    except ValueError:
        return None


def _listing(data: list[int]) -> str:
    return ", ".join(map(str, data))


def _median(data: list[int]) -> Fraction:
    ordered, half = sorted(data), len(data) // 2
    return Fraction(ordered[half]) if len(data) % 2 else Fraction(ordered[half - 1] + ordered[half], 2)


def _mean(data: list[int]) -> Fraction:
    return Fraction(sum(data), len(data))


def _squares(data: list[int]) -> Fraction:
    m = _mean(data)
    return sum(((x - m) ** 2 for x in data), Fraction(0))


def _simple(kind: str):  # type: ignore[no-untyped-def]
    def question(rng: random.Random, data: list[int], config: Descriptive.Config) -> tuple[str, Surd]:
        n = len(data)
        value = {
            "mean": lambda: Surd.rational(_mean(data)),
            "median": lambda: Surd.rational(_median(data)),
            "range": lambda: Surd.rational(max(data) - min(data)),
            "population_variance": lambda: Surd.rational(_squares(data) / n),
            "sample_variance": lambda: Surd.rational(_squares(data) / (n - 1)),
            "population_sd": lambda: Surd.sqrt(_squares(data) / n),
            "sample_sd": lambda: Surd.sqrt(_squares(data) / (n - 1)),
            "mad": lambda: Surd.rational(sum((abs(x - _mean(data)) for x in data), Fraction(0)) / n),
        }[kind]()
        return f"Data set ({n} values): {_listing(data)}.\nFind {_DEFINITIONS[kind]}.", value
    return question


def _mode(rng: random.Random, data: list[int], config: Descriptive.Config) -> tuple[str, Surd]:
    """One value made the unique mode: it overwrites other values until it occurs more often than any."""
    winner = rng.choice(data)
    for i in range(len(data)):
        counts = Counter(data)
        if all(c < counts[winner] for v, c in counts.items() if v != winner):
            break
        if data[i] != winner:
            data[i] = winner
    rng.shuffle(data)
    return f"Data set ({len(data)} values): {_listing(data)}.\nFind {_DEFINITIONS['mode']}.", Surd.rational(winner)


def _table(rng: random.Random, data: list[int]) -> tuple[str, list[int]]:
    values = sorted(set(data))[:6]
    if len(values) < 3:
        values = sorted({*values, max(values) + 1, max(values) + 3})
    frequencies = [rng.randint(1, 9) for _ in values]
    table = "\n".join(f"  value {v}: frequency {f}" for v, f in zip(values, frequencies))
    observations = [v for v, f in zip(values, frequencies) for _ in range(f)]
    return f"A frequency table ({sum(frequencies)} observations in all):\n{table}", observations


def _table_mean(rng: random.Random, data: list[int], config: Descriptive.Config) -> tuple[str, Surd]:
    text, observations = _table(rng, data)
    return f"{text}\nFind {_DEFINITIONS['table_mean']}.", Surd.rational(_mean(observations))


def _table_variance(rng: random.Random, data: list[int], config: Descriptive.Config) -> tuple[str, Surd]:
    text, observations = _table(rng, data)
    return f"{text}\nFind {_DEFINITIONS['table_variance']}.", \
        Surd.rational(_squares(observations) / len(observations))


def _z_score(rng: random.Random, data: list[int], config: Descriptive.Config) -> tuple[str, Surd]:
    if len(set(data)) == 1:
        data[0] += 1
    x = rng.choice(data)
    variance = _squares(data) / len(data)
    value = Surd.sqrt(variance) * ((x - _mean(data)) / variance)  # d / sqrt(v) = d sqrt(v) / v: no division by a root
    return (f"Data set ({len(data)} values): {_listing(data)}.\nFind the z-score of the value {x}: its deviation "
            "from the mean divided by the population standard deviation (the square root of the mean of the "
            "squared deviations from the mean)."), value


def _target_mean(rng: random.Random, data: list[int], config: Descriptive.Config) -> tuple[str, Surd]:
    n = len(data)
    needed = rng.randint(0, 2 * config.top)
    target = Fraction(sum(data) + needed, n + 1)
    shown = str(target.numerator) if target.denominator == 1 else f"{target.numerator}/{target.denominator}"
    return (f"Data set ({n} values): {_listing(data)}.\nOne more value is added to the data set, and the mean of "
            f"all {n + 1} values is then exactly {shown}. What is the added value?"), Surd.rational(needed)


_QUESTION = {
    **{k: _simple(k) for k in ("mean", "median", "range", "population_variance", "sample_variance",
                               "population_sd", "sample_sd", "mad")},
    "mode": _mode, "table_mean": _table_mean, "table_variance": _table_variance, "z_score": _z_score,
    "target_mean": _target_mean,
}
