"""Sequences and number puzzles: hidden-rule sequences, magic squares, digit puzzles, bits and numerals."""
