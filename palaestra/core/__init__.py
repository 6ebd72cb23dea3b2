"""The contract: problems, verdicts, tasks, text envs, registry and seeding. Imports no env."""

from palaestra.core.env import SingleTurnEnv, TextEnv
from palaestra.core.multiturn import MultiTurnEnv, Turn
from palaestra.core.problem import Problem, Verdict
from palaestra.core.registry import EnvSpec, Registry, make, make_source, register, registry
from palaestra.core.seeding import derive_seed, problem_rng
from palaestra.core.task import ProblemSource, Task

__all__ = [
    "EnvSpec", "MultiTurnEnv", "Problem", "ProblemSource", "Registry", "SingleTurnEnv", "Task",
    "TextEnv", "Turn", "Verdict", "derive_seed", "make", "make_source", "problem_rng", "register",
    "registry",
]
