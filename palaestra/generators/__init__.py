"""Shared generators for environment authors: random graphs, grids, corpora and databases.

Modules are imported by name (``from palaestra.generators.graphs import random_tree``); this package
re-exports nothing so that importing one generator never loads another's dependencies.
"""
