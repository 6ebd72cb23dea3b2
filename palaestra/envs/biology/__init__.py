"""Biology: sequence translation, alignment, ORFs, genetics and population models, each program-verified."""
