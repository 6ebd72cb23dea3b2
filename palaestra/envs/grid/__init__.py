"""Grid puzzles: Sudoku, N-queens."""
