"""Isolation layers and the tiers built from them.

A *layer* is one mechanism the host may or may not allow; a *tier* is a named set of layers.
The server probes the layers at start-up; the backend runs with every available layer (or
exactly a requested tier's) and refuses to run below its minimum tier.

Example::

    from palaestra.sandbox.local.tiers import best_tier
    best_tier({"rlimits", "uid", "landlock", "seccomp"})   # 'standard'
"""

from __future__ import annotations

from collections.abc import Iterable

LAYERS = ("rlimits", "uid", "landlock", "seccomp", "namespaces", "netns", "tmpfs", "cgroups")
TIERS: dict[str, frozenset[str]] = {
    "none": frozenset({"rlimits"}),
    "minimal": frozenset({"rlimits", "uid"}),
    "standard": frozenset({"rlimits", "uid", "landlock", "seccomp"}),
    "strict": frozenset(LAYERS),
}
ORDER = ("none", "minimal", "standard", "strict")  # weakest first


def best_tier(layers: Iterable[str]) -> str:
    """The strongest tier whose layers are all in ``layers``."""
    have = set(layers)
    return [t for t in ORDER if TIERS[t] <= have][-1]


def check_tier(name: str) -> str:
    if name not in TIERS:
        raise ValueError(f"unknown sandbox tier {name!r}; expected one of {', '.join(ORDER)}")
    return name


def at_least(tier: str, minimum: str) -> bool:
    return ORDER.index(tier) >= ORDER.index(minimum)
