"""Text worlds and agents: multi-turn tasks with commands, a simulated counterpart or a hidden system to probe."""
