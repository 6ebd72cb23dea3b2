"""Linear algebra: determinants, inverses, null spaces, eigenvalues and linear systems with free variables."""
