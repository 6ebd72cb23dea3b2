"""Formal proofs: natural deduction, equational reasoning from axioms and resolution, each step checked."""
