"""Programs: reasoning about the behaviour of generated code."""
