"""Formal verification: inputs that reach a target, loop invariants, SMT models, program equivalence.

The environments use the z3 SMT solver (the ``verify`` extra: ``pip install 'palaestra[verify]'``),
imported only when a problem is generated or verified.
"""
