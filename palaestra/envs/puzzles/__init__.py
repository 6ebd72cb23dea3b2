"""Grid and number puzzles with solver-proven unique solutions: futoshiki, kakuro, KenKen, nonograms, ..."""
