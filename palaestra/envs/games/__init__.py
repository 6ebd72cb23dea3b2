"""Games: multi-turn deduction games played against a hidden secret."""
