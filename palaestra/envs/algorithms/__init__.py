"""Algorithms: classic algorithmic and optimisation problems; answers checked for validity and optimality."""
