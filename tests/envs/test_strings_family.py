"""String-algorithm envs: hand-checked instances beyond the contract kit."""

from __future__ import annotations

import dataclasses

from palaestra.core.registry import make_source
from palaestra.envs.strings.anagram_classes import read_classes
from palaestra.envs.strings.border_array import border_array, naive_comparisons
from palaestra.envs.strings.common import apply_script, burrows_wheeler
from palaestra.envs.strings.edit_script import edit_table, shortest_script
from palaestra.envs.strings.huffman_lengths import huffman_lengths
from palaestra.envs.strings.longest_palindrome import palindromes_by_centre
from palaestra.envs.strings.lz77 import lz77
from palaestra.envs.strings.minimal_rotation import least_rotation
from palaestra.envs.strings.period import smallest_period
from palaestra.envs.strings.run_length import runs_of
from palaestra.envs.strings.suffix_array import suffix_array


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


def test_minimal_rotation_hand_checked() -> None:
    assert least_rotation("bcabca")[0] == "abcabc" and least_rotation("cba")[0] == "acb"
    task, problem = _with_data("strings/minimal_rotation", text="babaab", rotation="aabbab")
    for right in ("aabbab", "AABBAB", "`aabbab`", "\\boxed{aabbab}"):
        assert task.verify(problem, right).correct, right
    assert "earlier in alphabetical order" in task.verify(problem, "abaabb").feedback
    assert "not a rotation" in task.verify(problem, "aaabbb").feedback


def test_suffix_array_hand_checked() -> None:
    assert suffix_array("banana") == [5, 3, 1, 0, 4, 2] and suffix_array("aba") == [2, 0, 1]
    task, problem = _with_data("strings/suffix_array", text="banana", order=[5, 3, 1, 0, 4, 2])
    for right in ("5, 3, 1, 0, 4, 2", "[5 3 1 0 4 2]", "Answer: 5,3,1,0,4,2."):
        assert task.verify(problem, right).correct, right
    assert "the suffix at 3 comes before the suffix at 1" in task.verify(problem, "5, 1, 3, 0, 4, 2").feedback
    assert "exactly once" in task.verify(problem, "6, 5, 3, 1, 0, 4, 2").feedback


def test_huffman_lengths_any_optimal_code_accepted() -> None:
    # frequencies 1, 1, 2, 2: both the balanced code (2, 2, 2, 2) and the lopsided (3, 3, 2, 1) cost 12
    assert sum(f * n for f, n in zip([1, 1, 2, 2], huffman_lengths([1, 1, 2, 2]), strict=True)) == 12
    task, problem = _with_data("strings/huffman_lengths", names=["a", "b", "c", "d"], frequencies=[1, 1, 2, 2],
                               lengths=[2, 2, 2, 2], optimum=12)
    for right in ("a: 2, b: 2, c: 2, d: 2", "a = 3, b = 3, c = 2, d = 1", "a: 3\nb: 3\nc: 1\nd: 2"):
        assert task.verify(problem, right).correct, right
    assert "more than the least possible" in task.verify(problem, "a: 1, b: 2, c: 3, d: 3").feedback
    assert "more than 1" in task.verify(problem, "a: 1, b: 2, c: 2, d: 2").feedback
    assert "less than 1" in task.verify(problem, "a: 2, b: 2, c: 2, d: 3").feedback
    assert not task.verify(problem, "a: 2, b: 2, c: 2").parsed


def test_period_hand_checked() -> None:
    assert smallest_period("abcabca")[0] == 3 and smallest_period("aaaa")[0] == 1
    assert smallest_period("abaab")[0] == 3 and smallest_period("abcd")[0] == 4
    task, problem = _with_data("strings/period", text="abaabaab", period=3)
    for right in ("3", "\\boxed{3}", "p = 3", "Answer: 3."):
        assert task.verify(problem, right).correct, right
    assert "smaller one exists" in task.verify(problem, "6").feedback
    assert "positions 0 and 4" in task.verify(problem, "4").feedback


def test_anagram_classes_any_order_and_mistakes_named() -> None:
    words = ["abc", "cab", "abd", "bca", "dd"]
    task, problem = _with_data("strings/anagram_classes", words=words,
                               classes=[["abc", "cab", "bca"], ["abd"], ["dd"]])
    for right in ("{abc, cab, bca}, {abd}, {dd}", "{dd}; {bca cab abc}; {abd}", "[['abd'], ['dd'], ['cab', 'abc', 'bca']]",
                  "abc, cab, bca\nabd\ndd"):
        assert task.verify(problem, right).correct, right
    assert "are in one class but are not anagrams" in task.verify(problem, "{abc, cab, bca, abd}, {dd}").feedback
    assert "different classes" in task.verify(problem, "{abc, cab}, {bca}, {abd}, {dd}").feedback
    assert "in no class" in task.verify(problem, "{abc, cab, bca}, {abd}").feedback
    assert "two classes" in task.verify(problem, "{abc, cab, bca}, {abd, dd}, {dd}").feedback
    assert read_classes("{abc, cab} or {abc}, {cab}") is None


def test_edit_script_shortest_scripts_verified_by_applying() -> None:
    assert edit_table("kitten", "sitting")[-1][-1] == 3
    script = shortest_script("kitten", "sitting")
    assert len(script) == 3 and apply_script("kitten", script)[0] == "sitting"
    task, problem = _with_data("strings/edit_script", source="abc", target="bcd", distance=2)
    for right in ("delete 0\ninsert 2 d", "insert 3 d, delete 0", "1. delete 0\n2. insert 2 d", "delete 0; insert 2 d"):
        assert task.verify(problem, right).correct, right
    longer = task.verify(problem, "replace 0 b\nreplace 1 c\nreplace 2 d")
    assert not longer.correct and "shorter one exists" in longer.feedback
    assert "not B" in task.verify(problem, "delete 0\ninsert 1 d").feedback
    assert "out of range" in task.verify(problem, "delete 0\ninsert 5 d").feedback
    assert not task.verify(problem, "delete 0 a\ninsert 2 d").parsed


def test_apply_edit_script_positions_shift() -> None:
    script = [("insert", 0, "x"), ("delete", 1, ""), ("replace", 2, "y")]
    assert apply_script("abcd", script) == ("xbyd", "")
    task, problem = _with_data("strings/apply_edit_script", text="abcd", script=[list(op) for op in script],
                               result="xbyd")
    for right in ("xbyd", "XBYD", "Answer: xbyd."):
        assert task.verify(problem, right).correct, right
    assert "position 2" in task.verify(problem, "xbcd").feedback  # the replace read at the old position
    assert "4 letters" in task.verify(problem, "xabyd").feedback
