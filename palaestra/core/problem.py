"""The two records every environment speaks: a :class:`Problem` and a :class:`Verdict`.

Example::

    >>> p = Problem(env_id="arithmetic/expression", level=0, seed=7, prompt="1+1?", answer="2")
    >>> Problem.from_json(p.to_json()) == p
    True
    >>> Verdict.right().reward
    1.0
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Problem:
    """One generated problem. ``(env_id, level, seed)`` is its identity.

    ``data`` holds everything the verifier needs and must be JSON-native
    (dicts with string keys, lists, str, int, float, bool, None) so the problem
    survives a round trip through JSON, parquet or another process unchanged.
    """

    env_id: str = ""
    level: int = 0
    seed: int = 0
    prompt: str = ""
    answer: str | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Problem:
        return cls(**{f.name: d[f.name] for f in dataclasses.fields(cls) if f.name in d})

    @classmethod
    def from_json(cls, text: str) -> Problem:
        return cls.from_dict(json.loads(text))


@dataclass(frozen=True)
class Verdict:
    """The verifier's judgement of one answer.

    ``reward`` is in [0, 1]; ``correct`` means fully correct; ``parsed`` means an
    answer could be extracted and read at all (a format reward can build on it);
    ``feedback`` is a short human-readable explanation, also used as the next
    observation in multi-turn environments.
    """

    reward: float
    correct: bool
    parsed: bool = True
    feedback: str = ""

    def __post_init__(self) -> None:
        if not 0.0 <= self.reward <= 1.0:
            raise ValueError(f"reward must be in [0, 1], got {self.reward}")

    @classmethod
    def right(cls, feedback: str = "correct") -> Verdict:
        return cls(1.0, True, True, feedback)

    @classmethod
    def wrong(cls, feedback: str = "incorrect", reward: float = 0.0) -> Verdict:
        return cls(reward, False, True, feedback)

    @classmethod
    def unparsed(cls, feedback: str = "could not read an answer") -> Verdict:
        return cls(0.0, False, False, feedback)

    @classmethod
    def judge(cls, ok: bool, feedback_if_wrong: str = "incorrect") -> Verdict:
        return cls.right() if ok else cls.wrong(feedback_if_wrong)
