"""Test-only envs whose verifier crashes its process or hangs on a trigger answer.

Imported by the vector tests and, through ``make_vec(modules=[...])``, by every worker.
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass

from palaestra.core import Problem, Task, Verdict, register


@dataclass(frozen=True)
class Cfg:
    size: int


class Faulty(Task):
    id = "faulty/echo"
    family = "faulty"
    description = "Repeat a number; 'crash' kills the process, 'hang' never returns."
    Config = Cfg

    def config(self, level: int) -> Cfg:
        return Cfg(10 ** (level + 2))

    def generate(self, rng: random.Random, config: Cfg) -> Problem:
        n = rng.randrange(config.size)
        return Problem(prompt=f"Say {n}.", answer=str(n), data={"n": n})

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if answer == "crash":
            os._exit(3)
        if answer == "hang":
            time.sleep(3600)
        if answer == "raise":
            raise RuntimeError("verifier bug")
        return Verdict.judge(answer == str(problem.data["n"]))


register(Faulty)
