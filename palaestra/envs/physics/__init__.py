"""Physics: statics and kinematics with exact numeric answers."""
