"""Spatial reasoning: shapes transformed, placed and folded on grids."""
