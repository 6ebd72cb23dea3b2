"""Economics and game theory: equilibria, dominance, cooperative games, voting and finance, graded exactly."""
