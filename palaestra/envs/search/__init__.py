"""Search and planning: mazes, puzzles whose answers are optimal move sequences."""
