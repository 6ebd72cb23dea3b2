"""Web navigation: multi-turn envs where an agent browses a generated offline website through tools."""
