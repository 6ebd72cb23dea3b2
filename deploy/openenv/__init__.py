"""palaestra as an OpenEnv environment package (``openenv-palaestra_env``): its client, action and observation.

Installed (``pip install ./deploy/openenv``), OpenEnv's ``AutoEnv`` finds it by name::

    from openenv import AutoEnv
    env = AutoEnv.from_env("palaestra", base_url="http://127.0.0.1:8000")
"""

from .client import PalaestraEnv
from .models import PalaestraAction, PalaestraObservation

__all__ = ["PalaestraAction", "PalaestraEnv", "PalaestraObservation"]
