"""Red team, round 3 session 40 (languages, physics and temporal envs whose last red-team look was old).

- languages/regex_synthesis v3: every negative often had a letter no positive has, or began, ended or was sized
  unlike every positive, so a pattern read off those surface features (``[ab]*`` over the positives' letters,
  ``a[ab]*``, ``[ab]*b``, ``a([ab]*b)?``, ``[ab]{3,9}``) fitted 0.30 of level 0, 0.28 of level 1, 0.12 of level 2,
  0.20 of level 3 and 0.08 of level 4 (40 seeds a level). Now a negative always lies inside the positives' letters,
  ends and lengths, so each of those patterns matches it: 0 at every level.
"""

from __future__ import annotations

import pytest

from palaestra.core.registry import make_source

LEVELS = range(5)


def _cls(letters: str) -> str:
    return letters if len(letters) == 1 else f"[{letters}]"


def _surface_patterns(positives: list[str]) -> list[str]:
    """Patterns built only from the positives' letters, first and last letters and lengths."""
    letters = _cls("".join(sorted(set("".join(positives)))))
    firsts = _cls("".join(sorted({s[0] for s in positives})))
    lasts = _cls("".join(sorted({s[-1] for s in positives})))
    lo, hi = min(map(len, positives)), max(map(len, positives))
    return [f"{letters}*", f"{letters}+", f"{firsts}{letters}*", f"{letters}*{lasts}", f"{firsts}({letters}*{lasts})?",
            f"{letters}{{{lo},{hi}}}", f".{{{lo},{hi}}}"]


@pytest.mark.parametrize("level", LEVELS)
def test_regex_synthesis_surface_patterns_fit_nothing(level: int) -> None:
    src = make_source("languages/regex_synthesis")
    fitted = 0
    for seed in range(25):
        problem = src.sample(level, 40_000 + seed)
        assert src.verify(problem, problem.answer).reward == 1.0
        fitted += any(src.verify(problem, pattern).reward == 1.0 for pattern in _surface_patterns(problem.data["positives"]))
    assert fitted == 0
