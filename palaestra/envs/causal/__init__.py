"""Causal reasoning: questions about generated causal graphs."""
