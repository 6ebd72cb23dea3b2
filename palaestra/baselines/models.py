"""Local policies by name: ``tiny``, a tiny checkpoint (``PATH.pt``) or a Hugging Face model (``hf:PATH``).

Example::

    >>> from palaestra.baselines.models import load_policy
    >>> load_policy("tiny", device="cpu").name
    'tiny (2x64, 119k params)'
    >>> load_policy("gpt-9")
    Traceback (most recent call last):
    ...
    ValueError: unknown model 'gpt-9': use tiny, PATH.pt (a tiny checkpoint), hf:PATH or a model directory
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import torch

from palaestra.baselines.hf import HFPolicy
from palaestra.baselines.policy import LMPolicy
from palaestra.baselines.tiny import TinyPolicy

MODEL_CHOICES = "tiny, PATH.pt (a tiny checkpoint), hf:PATH or a model directory"
HF_INSTALL_HINT = "Hugging Face models need transformers: pip install 'palaestra[hf]'"


def load_policy(spec: str, device: str | torch.device | None = None, seed: int = 0) -> LMPolicy:
    """A policy from a spec: ``tiny`` (fresh), ``PATH.pt`` (a tiny checkpoint) or ``hf:PATH`` (a local HF model
    or a checkpoint directory written by the trainer)."""
    if spec == "tiny":
        return TinyPolicy(seed=seed, device=device)
    if spec.startswith("hf:") or (not spec.endswith(".pt") and Path(spec).is_dir()):
        path = Path(spec[3:] if spec.startswith("hf:") else spec)
        if importlib.util.find_spec("transformers") is None:
            raise ValueError(HF_INSTALL_HINT)
        if not path.is_dir():
            raise ValueError(f"no model directory at {path} (hf:PATH takes a local directory; nothing is downloaded)")
        return HFPolicy(path, device=device)
    if Path(spec).is_file():
        return TinyPolicy.load(spec, device=device)
    raise ValueError(f"unknown model {spec!r}: use {MODEL_CHOICES}")
