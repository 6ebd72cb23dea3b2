"""The contract: problems, verdicts, tasks, text envs, registry, seeding and answer extraction.

Imports nothing above it (no verifier, solver, env, wrapper or integration).
"""

from palaestra.core.env import MultiTurnEnv, SingleTurnEnv, TextEnv
from palaestra.core.multiturn import Episode, MultiTurnTask, Outcome, Policy, View, regret_reward
from palaestra.core.problem import Problem, Verdict
from palaestra.core.registry import EnvSpec, Registry, RegistryError, make_source, register, registry
from palaestra.core.retry import GenerationError, retry
from palaestra.core.seeding import derive_seed, event_rng, problem_rng
from palaestra.core.task import ProblemSource, Task

__all__ = [
    "EnvSpec", "Episode", "GenerationError", "MultiTurnEnv", "MultiTurnTask", "Outcome", "Policy", "Problem", "ProblemSource",
    "Registry", "RegistryError", "SingleTurnEnv", "Task", "TextEnv", "Verdict", "derive_seed", "event_rng",
    "View", "make_source", "problem_rng", "regret_reward", "register", "registry", "retry",
]
