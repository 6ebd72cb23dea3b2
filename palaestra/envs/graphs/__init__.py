"""Graphs: shortest paths, colouring and other problems on generated graphs."""
