"""A Gymnasium ``Text`` space for free-form model text.

Gymnasium's ``Text`` admits only characters of a fixed charset; model prompts
and responses are arbitrary Unicode, so membership here accepts any string
within the length bounds, while sampling draws from printable ASCII (useful for
random-play smoke tests).

Example::

    >>> space = FreeText(max_length=100)
    >>> "héllo ∑ <answer>1</answer>" in space
    True
"""

from __future__ import annotations

import string
from typing import Any

from gymnasium.spaces import Text

MAX_TEXT = 1 << 20  # one million characters; longer responses are truncated by the env


class FreeText(Text):
    def __init__(self, max_length: int = MAX_TEXT, min_length: int = 0, seed: Any = None) -> None:
        super().__init__(max_length, min_length=min_length, charset=string.printable, seed=seed)

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        # Random actions stay short so random play is cheap.
        if mask is None and probability is None:
            mask = (min(self.max_length, 64), None)
        return super().sample(mask=mask, probability=probability)
