"""palaestra's envs as a verifiers plugin: ``--env.taskset.id palaestra_verifiers`` (see
:mod:`palaestra.integrations.verifiers_env`). verifiers resolves a plugin id to a top-level module
exporting its Taskset, Env and Harness in ``__all__``; this module is that name."""

from palaestra.integrations.verifiers_env import PalaestraEnv, PalaestraTaskset, ReplyHarness

__all__ = ["PalaestraEnv", "PalaestraTaskset", "ReplyHarness"]
