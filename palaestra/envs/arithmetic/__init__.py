"""Arithmetic: evaluating expressions, number theory."""
