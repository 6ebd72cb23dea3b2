"""The action and observation of palaestra's OpenEnv server (defined once, in palaestra itself)."""

from palaestra.integrations.openenv_server import PalaestraAction, PalaestraObservation, PalaestraState

__all__ = ["PalaestraAction", "PalaestraObservation", "PalaestraState"]
