"""Statistics: descriptive statistics and regression of generated data, exactly."""
