"""The two records every environment speaks: a :class:`Problem` and a :class:`Verdict`.

Example::

    >>> p = Problem(env_id="arithmetic/expression", level=0, seed=7, prompt="1+1?", answer="2")
    >>> Problem.from_json(p.to_json()) == p
    True
    >>> Problem.from_row(p.to_row()) == p
    True
    >>> graded = Problem(env_id="code/knapsack", prompt="...", options={"partial_credit": True})
    >>> Problem.from_json(graded.to_json()).options
    {'partial_credit': True}
    >>> Verdict.right().reward
    1.0
"""

from __future__ import annotations

import copy
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
    ``version`` is the env version that generated it and ``answer_format`` how
    its final answer is extracted from a full response (``tag``, ``boxed``,
    ``last_line``, ``raw``): both travel with the problem, so
    ``palaestra.score`` judges it the same way in any process. ``options`` are the
    grading keyword arguments the env was built with when they differ from its
    defaults (``palaestra.make("code/knapsack", partial_credit=True)`` gives
    ``{"partial_credit": True}``): ``score`` rebuilds the env with them. Empty options
    are left out of :meth:`to_dict` and :meth:`to_json`, so a problem made with the
    defaults serialises (and hashes) exactly as before options existed.
    """

    env_id: str = ""
    level: int = 0
    seed: int = 0
    prompt: str = ""
    answer: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    version: int = 1
    answer_format: str = "tag"
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def versioned_id(self) -> str:
        """``family/name-vN``: the id of the exact generator that made this problem."""
        return f"{self.env_id}-v{self.version}"

    def to_dict(self) -> dict[str, Any]:
        """Every field; ``options`` only when there are any (the serialised form of a default problem never changes)."""
        fields = dataclasses.asdict(self)
        if not self.options:
            del fields["options"]
        return fields

    def to_row(self) -> dict[str, Any]:
        """A flat row of scalar columns (``data`` and ``options`` as JSON strings) that Arrow/parquet can hold.

        Every row has the same columns, so a table of problems has one schema.
        """
        row = dict(self.__dict__)
        row["data"] = json.dumps(self.data, sort_keys=True, ensure_ascii=False)
        row["options"] = json.dumps(self.options, sort_keys=True, ensure_ascii=False)
        return row

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Problem:
        """Inverse of :meth:`to_row` (other columns of the row are ignored; rows written before ``options`` load too)."""
        fields = {f.name: row[f.name] for f in dataclasses.fields(cls) if f.name in row}
        for name in ("data", "options"):
            if isinstance(fields.get(name), str):
                fields[name] = json.loads(fields[name])
        if fields.get("options") is None:
            fields.pop("options", None)
        return cls(**fields)

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text (sorted keys), written straight from the fields.

        Not through :meth:`to_dict`: its deep copy of ``data`` was most of an export row's cost for envs
        with large data (a web site, a file tree), and JSON-native data serialises the same without it.
        """
        fields = dict(self.__dict__)
        if not self.options:
            del fields["options"]
        return json.dumps(fields, sort_keys=True, ensure_ascii=False)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Problem:
        if not isinstance(d, dict):  # e.g. JSON text holding a list: no field of it is a problem's
            raise TypeError(f"a problem is a JSON object, got {type(d).__name__}")
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
    observation in multi-turn environments. ``error`` is set when no verdict
    could be reached (the sandbox is down or refuses, a verifier timed out, a
    tool's infrastructure failed, a worker crashed): such an answer was *not
    judged* — trainers and evaluators leave it out of rewards and pass@k — and
    envs surface it as ``info["error"]``. It is never set for a wrong answer.
    """

    reward: float
    correct: bool
    parsed: bool = True
    feedback: str = ""
    error: str | None = None

    def __post_init__(self) -> None:
        if not 0.0 <= self.reward <= 1.0:
            raise ValueError(f"reward must be in [0, 1], got {self.reward}")

    @classmethod
    def right(cls, feedback: str = "correct") -> Verdict:
        return _RIGHT if feedback == "correct" else cls(1.0, True, True, feedback)

    @classmethod
    def wrong(cls, feedback: str = "incorrect", reward: float = 0.0) -> Verdict:
        # The plain verdicts are shared (verdicts are immutable): building one is most of a cheap game's step.
        return _WRONG if feedback == "incorrect" and reward == 0.0 else cls(reward, False, True, feedback)

    @classmethod
    def ongoing(cls, feedback: str = "game goes on") -> Verdict:
        """A legal multi-turn move that neither wins nor ends the game: read (``parsed``), no reward yet, not
        correct. Not a wrong answer: the episode goes on and later moves may still win."""
        return cls(0.0, False, True, feedback)

    @classmethod
    def unparsed(cls, feedback: str = "could not read an answer") -> Verdict:
        return cls(0.0, False, False, feedback)

    @classmethod
    def failed(cls, error: str) -> Verdict:
        """No verdict could be reached (infrastructure, not the answer): see ``error``."""
        return cls(0.0, False, False, f"not judged: {error}", error)

    @classmethod
    def judge(cls, ok: bool, feedback_if_wrong: str = "incorrect") -> Verdict:
        return cls.right() if ok else cls.wrong(feedback_if_wrong)


_RIGHT = Verdict(1.0, True, True, "correct")
_WRONG = Verdict(0.0, False, True, "incorrect")


_SCALARS = (str, int, float, bool, type(None))  # immutable: a copy may share them


def copy_data(value: Any) -> Any:
    """A deep copy of JSON-native data (a problem's ``data``, an episode's records) that the copy shares nothing
    mutable with.

    Several times faster than :func:`copy.deepcopy` on such data (which the multi-turn service envs copy on every
    tool call); anything that is not a dict, a list or a scalar is left to :func:`copy.deepcopy`.

    >>> records = {"slots": [{"id": "a", "held": None}], "now": 1}
    >>> copied = copy_data(records)
    >>> copied == records, copied["slots"][0] is records["slots"][0]
    (True, False)
    """
    kind = type(value)
    if kind is dict:
        return {key: copy_data(item) for key, item in value.items()}
    if kind is list:
        return [copy_data(item) for item in value]
    if kind in _SCALARS:
        return value
    return copy.deepcopy(value)

