"""Algebra: solving equations and systems of equations."""
