"""Repository-level coding: generated multi-file repositories, tools to read/search/edit/test them, hidden tests."""
