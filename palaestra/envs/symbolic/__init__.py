"""Symbolic reasoning: induced programs, ciphers, automata, lambda terms, types, rotations and self-reference."""
