"""Red team, round 3, session 40 (code3): coding envs whose last red-team look was old.

- code/graph_programs (v5): in a bipartite problem (a yes/no answer, 4-6 tests at levels 0-2, the example showing
  two of them) the tests beyond the example often all took one word, so a program printing the example's answers
  on its tests and the yes-word elsewhere passed 0.115 of level 0 and 0.09 of level 1 (35-49% of the bipartite
  problems; the no-word 0.055 at level 0); the tests beyond the example now hold both words: 0 at every level.
- code/bash_oneliners (v3): a dedupe script for another mode than the stated one (first for last occurrences
  mostly, or ``cat``) passed 29% of the level-0 dedupe problems (0.065 of the level) and 5% at level 1; the
  hidden inputs now tell every other mode and the unchanged input apart: 0.
- code/sed_transforms (v3): a delete_blocks script ignoring the stop marker (deleting from the first start marker
  to the end of the input) passed 41% of the level-0 and 34% of the level-1 delete_blocks problems (0.205 and 0.10
  of those levels): the hidden inputs rarely closed a block; they now do where it matters: 0.
"""

from __future__ import annotations

import re

import pytest

from palaestra.core.registry import make_source
from palaestra.envs.code._polyglot import _example_indices
from palaestra.envs.code.bash_oneliners import DEDUPE, TRANSFORMS
from palaestra.envs.code.sed_transforms import EDITS


def _lookup_then(word: str, inputs: list[str], expected: list[str]) -> str:
    """A Python program answering the example's tests by rote and ``word`` on every other test."""
    shown = {inputs[i]: re.sub(r"^Case #\d+: ", "", expected[i]) for i in _example_indices(inputs, expected, count=2)}
    labelled = expected[0].startswith("Case #")
    return (
        "import sys\n\n"
        "lines = sys.stdin.read().split('\\n')\n"
        f"known = {shown!r}\n"
        "t, pos, out = int(lines[0]), 1, []\n"
        "for i in range(1, t + 1):\n"
        "    n, m = map(int, lines[pos].split())\n"
        "    case = '\\n'.join(lines[pos:pos + m + 1]) + '\\n'\n"
        "    pos += m + 1\n"
        f"    answer = known.get(case, {word!r})\n"
        f"    out.append(f'Case #{{i}}: {{answer}}' if {labelled!r} else answer)\n"
        "print('\\n'.join(out))\n"
    )


def _rote_passes(problem, word: str) -> bool:  # noqa: ANN001 - a Problem
    data = problem.data
    shown = _example_indices(data["inputs"], data["expected"], count=2)
    rest = {re.sub(r"^Case #\d+: ", "", line) for i, line in enumerate(data["expected"]) if i not in shown}
    return rest == {word}


@pytest.mark.parametrize("level", [0, 1, 2])
def test_graph_programs_bipartite_rote_answers_fail(level: int) -> None:
    source = make_source("code/graph_programs")
    problems = [p for p in (source.sample(level, seed) for seed in range(80)) if p.data["template"] == "bipartite"]
    passed = sum(_rote_passes(p, p.data["params"]["yes"]) or _rote_passes(p, p.data["params"]["no"])
                 for p in problems[:12])
    assert len(problems) >= 6 and passed == 0, (len(problems), passed)


def test_graph_programs_bipartite_in_the_sandbox() -> None:
    source = make_source("code/graph_programs")
    problem = next(p for p in (source.sample(0, seed) for seed in range(40)) if p.data["template"] == "bipartite")
    verdict = source.verify(problem, problem.answer or "")
    if verdict.error is not None:
        pytest.skip(f"sandbox unavailable: {verdict.error}")
    assert verdict.correct
    data = problem.data
    for word in (data["params"]["yes"], data["params"]["no"]):
        rote = _lookup_then(word, data["inputs"], data["expected"])
        assert source.verify(problem, f"```python\n{rote}```").reward == 0


@pytest.mark.parametrize("level", [0, 1])
def test_bash_oneliners_dedupe_other_modes_fail(level: int) -> None:
    source = make_source("code/bash_oneliners")
    dedupe = TRANSFORMS["dedupe"]
    problems = [p for p in (source.sample(level, seed) for seed in range(90)) if p.data["transform"] == "dedupe"]
    passed = 0
    for problem in problems:
        data = problem.data
        wrong = [lambda text, mode=mode: dedupe.output(text, {"mode": mode}) for mode in DEDUPE
                 if mode != data["params"]["mode"]]
        for script in (*wrong, str.splitlines):
            passed += all(script(text) == out for text, out in zip(data["inputs"], data["expected"]))
        assert all(dedupe.output(text, data["params"]) == out for text, out in zip(data["inputs"], data["expected"]))
    assert len(problems) >= 12 and passed == 0, (len(problems), passed)


def test_bash_oneliners_dedupe_in_the_sandbox() -> None:
    source = make_source("code/bash_oneliners")
    problem = next(p for p in (source.sample(0, seed) for seed in range(40))
                   if p.data["transform"] == "dedupe" and p.data["params"]["mode"] == "last")
    verdict = source.verify(problem, problem.answer or "")
    if verdict.error is not None:
        pytest.skip(f"sandbox unavailable: {verdict.error}")
    assert verdict.correct
    first = TRANSFORMS["dedupe"].reference({"mode": "first"})
    assert source.verify(problem, f"```bash\n{first}\n```").reward == 0


@pytest.mark.parametrize("level", [0, 1])
def test_sed_transforms_unclosed_blocks_fail(level: int) -> None:
    source = make_source("code/sed_transforms")
    delete_blocks = EDITS["delete_blocks"]
    problems = [p for p in (source.sample(level, seed) for seed in range(40)) if p.data["edit"] == "delete_blocks"]
    passed = 0
    for problem in problems:
        data = problem.data
        unclosed = {**data["params"], "stop": "\n"}  # no line is the stop marker: the first block runs to the end
        passed += all(delete_blocks.output(text, unclosed) == out for text, out in zip(data["inputs"], data["expected"]))
    assert len(problems) >= 8 and passed == 0, (len(problems), passed)


def test_sed_transforms_delete_blocks_in_the_sandbox() -> None:
    source = make_source("code/sed_transforms")
    problem = next(p for p in (source.sample(0, seed) for seed in range(40))
                   if p.data["edit"] == "delete_blocks" and p.data["params"]["inclusive"])
    verdict = source.verify(problem, problem.answer or "")
    if verdict.error is not None:
        pytest.skip(f"sandbox unavailable: {verdict.error}")
    assert verdict.correct
    start = re.escape(problem.data["params"]["start"]).replace("/", "\\/")
    assert source.verify(problem, f"```sed\n/^{start}$/,$d\n```").reward == 0
