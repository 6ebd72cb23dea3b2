"""The typed client of palaestra's OpenEnv server, under the name OpenEnv's conventions give it (``PalaestraEnv``)."""

from palaestra.integrations.openenv_server import PalaestraEnvClient as PalaestraEnv

__all__ = ["PalaestraEnv"]
