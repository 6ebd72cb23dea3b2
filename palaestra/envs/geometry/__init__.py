"""Geometry: coordinate geometry, triangles, circles and solids, with exact answers."""
