"""String-algorithm envs: hand-checked instances beyond the contract kit."""

from __future__ import annotations

import dataclasses

from palaestra.core.registry import make_source
from palaestra.envs.strings.longest_palindrome import palindromes_by_centre


def test_longest_palindrome_accepts_any_longest_and_explains_misses() -> None:
    assert palindromes_by_centre("abacdfgdcaba")[0] == 3
    assert palindromes_by_centre("cbbd")[0] == 2 and palindromes_by_centre("a")[0] == 1
    task = make_source("strings/longest_palindrome")
    problem = task.sample(1, 0)
    problem = dataclasses.replace(problem, data={**problem.data, "text": "abaxcdcab", "longest": 3})
    for right in ("aba", "cdc", "ABA", "<answer>aba</answer>"):
        assert task.check(problem, right if right.startswith("<") else f"<answer>{right}</answer>").correct
    assert "longer one" in task.verify(problem, "a").feedback
    assert "not a substring" in task.verify(problem, "bab").feedback
    assert "not a palindrome" in task.verify(problem, "abax").feedback
    assert not task.verify(problem, "aba or cdc").parsed
