"""The local sandbox backend: untrusted code in a jail built from Linux primitives, no Docker.

See :mod:`palaestra.sandbox` for the tiers and what each layer stops. Modules: ``backend``
(the client, in the caller's process), ``server`` (the pre-forked server), ``jail``,
``runner``, ``sql`` and ``stages`` (what each job's processes do: Python, SQL, compile and
exec), ``languages`` (the languages and their toolchains), ``seccomp``, ``landlock``,
``cgroups``, ``syscalls`` (the kernel interfaces), ``probe`` and ``tiers`` (layer detection
and tiers).
"""

from .backend import LocalBackend, LocalSession, ProbeReport

__all__ = ["LocalBackend", "LocalSession", "ProbeReport"]
