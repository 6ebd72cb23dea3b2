"""Probability: exact probabilities, expected values, conditional probability and Markov chains."""
