"""The local sandbox backend: untrusted Python in a jail built from Linux primitives, no Docker.

See :mod:`palaestra.sandbox` for the tiers and what each layer stops. Modules: ``backend``
(the client, in the caller's process), ``server`` (the pre-forked server), ``jail`` and
``runner`` (what each job's processes do), ``seccomp``, ``landlock``, ``cgroups``,
``syscalls`` (the kernel interfaces), ``probe`` and ``tiers`` (layer detection and tiers).
"""

from .backend import LocalBackend, LocalSession, ProbeReport

__all__ = ["LocalBackend", "LocalSession", "ProbeReport"]
