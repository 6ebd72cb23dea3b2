"""Calculus: derivatives, antiderivatives, definite integrals, limits, series and differential equations."""
