"""Deductive logic and inference under rules: syllogisms, finite models, satisfiability, circuits,
liars, orderings, schedules, kinship, minesweeper, code breaking, rule induction, set counting."""
