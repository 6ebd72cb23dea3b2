"""Chemistry: equations, amounts and structure of generated compounds, graded exactly."""
