"""Logic: knights and knaves, propositional entailment."""
