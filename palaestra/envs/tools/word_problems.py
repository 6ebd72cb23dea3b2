"""Multi-step money word problems solved exactly with the calculator tool.

A story follows someone's money through 2 to 6 steps: earning an amount, buying several items at a
unit price, spending a percentage of what is left, a percentage of growth, giving away a fraction.
The amounts have cents and the percentages decimals, so the arithmetic is tedious and error-prone
by hand; the calculator tool evaluates expressions exactly (fractions stay exact). The answer is the
exact final amount: a decimal when it terminates, else a fraction (``377117/1000`` and ``377.117``
are the same answer; a rounded value is wrong). The difficulty is the number of steps.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from palaestra.core import Problem, Verdict, register, retry
from palaestra.core.task import Growth
from palaestra.envs.tools.common import ToolTask, tool_call
from palaestra.verifiers.numeric import format_decimal, format_number, grade_number

PEOPLE = ("Amara", "Bastian", "Chiara", "Dmitri", "Elif", "Farid", "Greta", "Hiro", "Ines", "Joon", "Kalani",
          "Lucia", "Mateo", "Nadia", "Oskar", "Priya", "Quentin", "Rosa", "Sven", "Tariq", "Uma", "Viktor")
ITEMS = ("notebooks", "lamps", "chairs", "tickets", "jackets", "plants", "headphones", "books", "mugs", "tyres")
SPENDING = ("rent", "a holiday", "repairs", "a course", "groceries", "a bicycle", "insurance")
SOURCES = ("freelance work", "selling a painting", "a bonus", "tutoring", "a refund", "a prize")
PERCENTS = ("5", "7.5", "12", "12.5", "15", "18", "22.5", "35", "2.75", "8.25")
FRACTIONS = {3: "a third", 4: "a quarter", 5: "a fifth", 6: "a sixth", 8: "an eighth", 7: "a seventh"}


@register
class WordProblems(ToolTask):
    id = "tools/word_problems"
    family = "tools"
    description = "Solve a multi-step money word problem exactly with a calculator tool."
    tags = ("tools", "multi-turn", "calculator", "arithmetic", "word-problems")
    tool_names = ("calculator",)
    version = 2

    @dataclass(frozen=True)
    class Config:
        steps: int
        start: tuple[int, int]  # starting amount range, in dollars

    presets = (
        Config(2, (200, 2000)),
        Config(3, (500, 5000)),
        Config(4, (1000, 10000)),
        Config(5, (2000, 20000)),
        Config(6, (5000, 50000)),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        name = rng.choice(PEOPLE)
        start = _money(rng, *config.start)

        def draw() -> tuple[list[str], str, Fraction] | None:
            sentences, expression, value = [], _literal(start), start
            for _ in range(config.steps):
                sentence, expression, value = _step(rng, name, expression, value)
                if value <= 0:
                    return None
                sentences.append(sentence)
            return sentences, expression, value

        sentences, expression, value = retry(draw, what="a story keeping the money positive", attempts=100)
        answer = format_decimal(value)
        example = "1234.5"  # a fixed placeholder: independent of the answer
        prompt = (
            f"{name} has ${_literal(start)}. " + " ".join(sentences) + f"\n\nHow many dollars does {name} have at the "
            "end? Each percentage applies to the money at that moment. Use the calculator tool. Give the exact "
            "amount, not rounded: a decimal, or a fraction when the decimal does not end, e.g. "
            f"<answer>{example}</answer>."
            f"\n\n{self.tools_prompt(config.steps + 2)}"
        )
        data = {"expression": expression, "exact": [value.numerator, value.denominator], "steps": config.steps,
                "budget": config.steps + 2}
        return Problem(prompt=prompt, answer=answer, data=data)

    def difficulty(self, problem: Problem) -> float:
        """Arithmetic steps, plus a tenth of the digits of the exact answer."""
        return problem.data["steps"] + sum(len(str(abs(v))) for v in problem.data["exact"]) / 10

    def judge(self, problem: Problem, answer: str) -> Verdict:
        # LaTeX escapes the dollar sign (\boxed{\$12.50}); the number reader knows "$" and the unit words
        verdict = grade_number(answer.replace("\\$", "$", 1), Fraction(*problem.data["exact"]), mixed=True,
                               units=("dollars", "USD"))
        if verdict is None:
            return Verdict.unparsed("not a number")
        return Verdict.judge(verdict, "not the exact amount")

    def plan(self, problem: Problem) -> list[str]:
        return [tool_call("calculator", expression=problem.data["expression"]), problem.answer or ""]

    def spellings(self, problem: Problem) -> list[str]:
        value = Fraction(*problem.data["exact"])
        spelled = [format_number(value), f"({problem.answer})", f"{problem.answer}."]
        if value.denominator != 1 and format_decimal(value) != format_number(value):
            spelled.append(f"\\frac{{{value.numerator}}}{{{value.denominator}}}")
        return spelled

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        value = Fraction(*problem.data["exact"])
        rounded = f"{float(value):.2f}"
        wrong = [format_decimal(value + Fraction(1, 100)), f"{problem.answer} or {format_decimal(value + 1)}"]
        if Fraction(rounded) != value:
            wrong.append(rounded)
        return wrong


def _money(rng: random.Random, low: int, high: int) -> Fraction:
    return Fraction(rng.randint(low * 100, high * 100), 100)


def _literal(value: Fraction) -> str:
    return format_decimal(value)


def _step(rng: random.Random, name: str, expression: str, value: Fraction) -> tuple[str, str, Fraction]:
    """One sentence of the story, the calculator expression after it and the exact amount after it."""
    kind = rng.choice(("earn", "buy", "spend", "grow", "give"))
    if kind == "earn":
        amount = _money(rng, 20, 900)
        return (f"{name} earns ${_literal(amount)} from {rng.choice(SOURCES)}.", f"({expression} + {_literal(amount)})",
                value + amount)
    if kind == "buy":
        count, price = rng.randint(2, 9), _money(rng, 3, 250)
        return (f"{name} buys {count} {rng.choice(ITEMS)} at ${_literal(price)} each.",
                f"({expression} - {count} * {_literal(price)})", value - count * price)
    if kind in ("spend", "grow"):
        percent = rng.choice(PERCENTS)
        rate = Fraction(percent) / 100
        if kind == "spend":
            return (f"{name} spends {percent}% of the money on {rng.choice(SPENDING)}.",
                    f"({expression} * (1 - {percent}/100))", value * (1 - rate))
        return (f"The money is invested and grows by {percent}%.", f"({expression} * (1 + {percent}/100))",
                value * (1 + rate))
    parts = rng.choice(sorted(FRACTIONS))
    return (f"{name} gives {FRACTIONS[parts]} of the money to a friend.",
            f"({expression} * (1 - 1/{parts}))", value * (1 - Fraction(1, parts)))
