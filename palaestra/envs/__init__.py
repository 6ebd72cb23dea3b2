"""Environment families; one module per environment, found by the registry's module walk."""
