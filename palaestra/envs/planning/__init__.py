"""Planning: classical STRIPS domains shown in PDDL, puzzles answered with move sequences."""
