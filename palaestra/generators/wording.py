"""English wording shared by prompts.

>>> ordinal(1), ordinal(2), ordinal(3), ordinal(11), ordinal(22), ordinal(113)
('1st', '2nd', '3rd', '11th', '22nd', '113th')
"""

from __future__ import annotations


def ordinal(number: int) -> str:
    """``number`` with its English ordinal suffix (the teens take "th")."""
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"
