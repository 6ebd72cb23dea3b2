"""The Josephus problem: who is left when every k-th person around a circle leaves?

People with distinct random badge numbers sit around a circle in a given order; counting starts at
a given person, every k-th person counted leaves, and counting resumes with the next person. The
survivor is unique: the simulation (or the recurrence ``J(n) = (J(n-1) + k) mod n``) gives it at
generation, and the verifier compares the badge number exactly. Circles grow with the level far
past what one would simulate by hand comfortably, rewarding the recurrence.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.task import Growth
from palaestra.verifiers.normalize import read_answer
from palaestra.verifiers.numeric import read_integer

_BADGE = re.compile(r"^\W*(?:the )?(?:badge(?: number)?|person|#) ?(?:no\.? ?|number ?|#)?", re.IGNORECASE)
# a naming sentence's subject: "The last person left is badge 23", "Survivor: 23"
_SUBJECT = re.compile(r"^\W*(?:the )?(?:(?:last|final|remaining|surviving|only) )?(?:person|one|survivor|winner)"
                      r"(?: (?:left|remaining|standing|left standing|in the circle))? ?(?:is|:|=) ?", re.IGNORECASE)


@register
class Josephus(Task):
    id = "algorithms/josephus"
    version = 2
    family = "algorithms"
    description = "Find the survivor when every k-th person around a circle leaves (Josephus problem)."
    tags = ("algorithms", "simulation", "recurrences")

    @dataclass(frozen=True)
    class Config:
        people: tuple[int, int]
        step: tuple[int, int]

    presets = (
        Config(people=(5, 8), step=(2, 3)),
        Config(people=(9, 14), step=(2, 4)),
        Config(people=(15, 25), step=(3, 6)),
        Config(people=(26, 45), step=(3, 8)),
        Config(people=(46, 80), step=(4, 12)),
    )
    growth = Growth()

    def generate(self, rng: random.Random, config: Config) -> Problem:
        n = rng.randint(*config.people)
        k = rng.randint(*config.step)
        badges = rng.sample(range(1, 10 * n), n)
        start = rng.randrange(n)
        survivor = badges[(start + josephus(n, k)) % n]
        example = rng.choice((17, 23, 41, 58))  # drawn independently of the answer
        prompt = (
            f"{n} people sit around a circle. Going clockwise, their badge numbers are:\n"
            f"{', '.join(map(str, badges))}\n(and after the last one comes the first again).\n\n"
            f"Starting with the person with badge {badges[start]}, count clockwise 1, 2, ..., {k}; the person "
            f"counted {k} leaves the circle, and counting starts again at 1 with the next person still in the "
            "circle. This repeats until one person is left. What is that person's badge number? Give a single "
            f"integer, for example: {example}"
        )
        return Problem(prompt=prompt, answer=str(survivor), data={"badges": badges, "start": start, "step": k})

    def difficulty(self, problem: Problem) -> float:
        """People times step: the counting a simulation does."""
        return float(len(problem.data["badges"]) * problem.data["step"])

    def verify(self, problem: Problem, answer: str) -> Verdict:
        readable = isinstance(answer, str) and len(answer) < 400
        value = read_answer(answer, lambda s: read_integer(_BADGE.sub("", _SUBJECT.sub("", s)))) if readable else None
        if value is None:
            return Verdict.unparsed("expected a single integer")
        badges = problem.data["badges"]
        survivor = badges[(problem.data["start"] + josephus(len(badges), problem.data["step"])) % len(badges)]
        return Verdict.judge(value == survivor, f"{value} is not the survivor")

    def spellings(self, problem: Problem) -> list[str]:
        return [*super().spellings(problem), f"Badge {problem.answer}", f"{problem.answer}.", f"#{problem.answer}",
                f"The survivor is badge {problem.answer}."]

    def corruptions(self, problem: Problem, rng: random.Random) -> list[str]:
        others = [b for b in problem.data["badges"] if str(b) != problem.answer]
        gold = int(problem.answer or 0)
        return [str(rng.choice(others)), f"{gold} or {others[0]}", str(gold + 1)]


def josephus(n: int, k: int) -> int:
    """The survivor's offset from the first person counted (0-based): ``J(1) = 0``, ``J(m) = (J(m-1) + k) mod m``.

    >>> josephus(7, 3)
    3
    """
    position = 0
    for size in range(2, n + 1):
        position = (position + k) % size
    return position
