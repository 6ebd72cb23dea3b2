"""String-algorithm envs: hand-checked instances beyond the contract kit."""

from __future__ import annotations

import dataclasses

from palaestra.core.registry import make_source
from palaestra.envs.strings.border_array import border_array, naive_comparisons
from palaestra.envs.strings.common import burrows_wheeler
from palaestra.envs.strings.longest_palindrome import palindromes_by_centre
from palaestra.envs.strings.lz77 import lz77
from palaestra.envs.strings.run_length import runs_of


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


def _with_data(env_id: str, **data: object) -> tuple[object, object]:
    task = make_source(env_id)
    problem = task.sample(1, 0)
    return task, dataclasses.replace(problem, data={**problem.data, **data})


def test_border_array_hand_checked_and_first_wrong_entry_named() -> None:
    assert border_array("abacaba") == [0, 0, 1, 0, 1, 2, 3]
    assert border_array("aabaaab") == [0, 1, 0, 1, 2, 2, 3]
    assert naive_comparisons("ab") == 1  # one length-1 candidate, one mismatching comparison
    task, problem = _with_data("strings/border_array", text="aabaaab", borders=[0, 1, 0, 1, 2, 2, 3])
    for right in ("0, 1, 0, 1, 2, 2, 3", "[0 1 0 1 2 2 3]", "\\boxed{0,1,0,1,2,2,3}"):
        assert task.verify(problem, right).correct, right
    assert "entry 5" in task.verify(problem, "0, 1, 0, 1, 2, 3, 3").feedback
    assert "7 entries" in task.verify(problem, "0, 1, 0, 1, 2, 2").feedback
    assert not task.verify(problem, "0, 1, 0, 1, 2, 2, 3 or 0").parsed


def test_bwt_forward_and_inverse_hand_checked() -> None:
    assert burrows_wheeler("banana$") == "annb$aa"
    assert burrows_wheeler("abab$") == "bb$aa"
    task, problem = _with_data("strings/bwt", text="banana$", transform="annb$aa")
    for right in ("annb$aa", "`annb$aa`", "ANNB$AA", "\\boxed{annb$aa}"):
        assert task.verify(problem, right).correct, right
    assert "rearrangement" in task.verify(problem, "annb$a").feedback
    assert "character 3 is wrong" in task.verify(problem, "ananb$a").feedback
    inverse, problem = _with_data("strings/inverse_bwt", transform="annb$aa", text="banana")
    for right in ("banana", "banana$", "Answer: banana."):
        assert inverse.verify(problem, right).correct, right
    assert "right letters" in inverse.verify(problem, "ananab").feedback
    assert "exactly once" in inverse.verify(problem, "banan").feedback


def test_run_length_unique_encoding_and_maximal_runs() -> None:
    assert runs_of("aaabcc") == [(3, "a"), (1, "b"), (2, "c")]
    task, problem = _with_data("strings/run_length", text="aaabccccccccccd")
    for right in ("3a1b10c1d", "3a 1b 10c 1d", "3A1B10C1D", "Answer: 3a1b10c1d."):
        assert task.verify(problem, right).correct, right
    assert "maximal" in task.verify(problem, "3a1b9c1c1d").feedback
    assert "does not decode" in task.verify(problem, "3a1b11c1d").feedback
    assert not task.verify(problem, "3ab10cd").parsed and not task.verify(problem, "a3b1c10d1").parsed


def test_lz77_greedy_rule_hand_checked() -> None:
    assert lz77("aaaaa", 4)[0] == [(0, 0, "a"), (1, 3, "a")]  # the copy runs on into the letters it writes
    assert lz77("abab", 4)[0] == [(0, 0, "a"), (0, 0, "b"), (2, 1, "b")]  # it stops before the last letter
    assert lz77("abcabcab", 2)[0] == [(0, 0, "a"), (0, 0, "b"), (0, 0, "c"), (0, 0, "a"), (0, 0, "b"),
                                       (0, 0, "c"), (0, 0, "a"), (0, 0, "b")]  # copies 3 back are out of the window
    assert lz77("abaab", 4)[0] == [(0, 0, "a"), (0, 0, "b"), (2, 1, "a"), (0, 0, "b")]
    task, problem = _with_data("strings/lz77", text="abababc", window=4,
                               triples=[[0, 0, "a"], [0, 0, "b"], [2, 4, "c"]])
    for right in ("(0,0,a) (0,0,b) (2,4,c)", "[(0, 0, 'a'), (0, 0, 'b'), (2, 4, 'c')]", "(0,0,a)\n(0,0,b)\n(2,4,c)"):
        assert task.verify(problem, right).correct, right
    not_greedy = task.verify(problem, "(0,0,a) (0,0,b) (2,2,a) (2,1,c)")
    assert not not_greedy.correct and "longest copy there has length 4" in not_greedy.feedback
    assert "impossible offset" in task.verify(problem, "(0,0,a) (0,0,b) (5,4,c)").feedback
    assert "do not decode" in task.verify(problem, "(0,0,a) (0,0,b) (2,4,d)").feedback
