"""Chess: rules-exact puzzles checked with python-chess."""
