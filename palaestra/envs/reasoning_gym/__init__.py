"""reasoning-gym's datasets as palaestra envs, made on demand: ``make("reasoning_gym/<dataset>")``.

For users moving over from reasoning-gym in one line. Each of its datasets (``chain_sum``, ``sudoku``...;
``reasoning_gym.factory.DATASETS``) becomes a single-turn env with palaestra's interface (Gymnasium
``reset``/``step``, vector envs, trainers, ``palaestra.score``): problem ``seed`` is item 0 of the dataset
built with a seed drawn from ``(env_id, level, seed)`` and reasoning-gym's default config, and an answer is
scored by the dataset's own ``score_answer`` (its reward, which may be partial). **These envs are not
palaestra-verified**: the contract kit has not checked them (no grammar, integrity, uniqueness or difficulty
checks), they are not in the catalogue, and they carry the tags ``external`` and ``not-palaestra-verified``.
One level (reasoning-gym's default config). Needs the optional package: ``pip install
'palaestra[reasoning-gym]'``; a problem records the reasoning-gym version that made it, and is judged only
by that version (another one may generate or score differently).

Example::

    import palaestra
    env = palaestra.make("reasoning_gym/chain_sum")
    prompt, info = env.reset(seed=3)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from palaestra.core import Problem, Task, Verdict, register
from palaestra.core.optional import require

FAMILY = "reasoning_gym"
TAGS = ("external", "not-palaestra-verified", "reasoning-gym")


def provide(env_id: str) -> None:
    """Register ``reasoning_gym/<dataset>`` (the registry calls this for an id of this family it does not know)."""
    name = env_id.partition("/")[2]
    library = require("reasoning_gym", "reasoning-gym", f"the env {env_id!r}")
    from reasoning_gym.factory import DATASETS

    if name not in DATASETS:  # the registry then says the id is unknown
        return
    register(type(f"ReasoningGym_{name}", (ReasoningGymTask,), {
        "id": f"{FAMILY}/{name}", "dataset": name, "library_version": getattr(library, "__version__", "unknown"),
        "description": f"reasoning-gym's {name} dataset, scored by its own score_answer (not palaestra-verified).",
    }))


class ReasoningGymTask(Task):
    """One reasoning-gym dataset (subclassed per dataset by :func:`provide`)."""

    family = FAMILY
    tags = TAGS
    dataset: str = ""
    library_version: str = ""

    @dataclass(frozen=True)
    class Config:
        pass

    presets = (Config(),)
    bounded = "reasoning-gym's default config of the dataset (its own curricula are not mapped to levels)"

    def generate(self, rng: random.Random, config: Config) -> Problem:
        dataset_seed = rng.getrandbits(31)
        entry = self._entry(dataset_seed)
        data = {"dataset": self.dataset, "dataset_seed": dataset_seed, "reasoning_gym": self.library_version}
        return Problem(prompt=str(entry["question"]), answer=str(entry["answer"]), data=data)

    def verify(self, problem: Problem, answer: str) -> Verdict:
        if problem.data.get("reasoning_gym") != self.library_version:
            return Verdict.failed(f"made by reasoning-gym {problem.data.get('reasoning_gym')}, judged here by "
                                  f"{self.library_version}: install the version that made it")
        try:
            entry = self._entry(problem.data["dataset_seed"])
            score = float(self._dataset(problem.data["dataset_seed"]).score_answer(answer, entry))
        except Exception as exc:  # another library's scorer: its failure is not the answer's
            return Verdict.failed(f"reasoning-gym's score_answer raised {type(exc).__name__}: {str(exc)[:200]}")
        score = min(1.0, max(0.0, score))
        return Verdict(score, score == 1.0, True, "correct" if score == 1.0 else f"reasoning-gym score {score:g}")

    def difficulty(self, problem: Problem) -> float:
        return float(len(problem.prompt))

    def _dataset(self, seed: int) -> Any:
        import reasoning_gym

        return reasoning_gym.create_dataset(self.dataset, seed=seed, size=1)

    def _entry(self, seed: int) -> Any:
        return self._dataset(seed)[0]
