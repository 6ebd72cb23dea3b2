"""Shared solvers for environment authors: solution counting for uniqueness proofs, simulators.

Modules are imported by name (``from palaestra.solvers.sat import count_solutions``); this package
re-exports nothing so that importing one solver never loads another's dependencies.
"""
