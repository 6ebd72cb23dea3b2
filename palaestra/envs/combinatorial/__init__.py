"""Combinatorial puzzles: reaching a target by combining given pieces."""
