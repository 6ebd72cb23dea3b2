"""``palaestra serve-reward`` judges only genuine problems: a label must be the problem its ``(env_id, level, seed)``
generates (#23 hostile review, round 3, second pass: a verifier sizes its work by the label's data, and a 2 kB
label claiming a SAT formula of 10**7 variables cost a minute of CPU and 5 GB in the server)."""

from __future__ import annotations

import json

import pytest

from palaestra.integrations import openrlhf
from palaestra.integrations.common import problem_set
from palaestra.integrations.export import rows_for


@pytest.mark.parametrize("answer_format", [None, "boxed"])
def test_exported_labels_pass(answer_format: str | None) -> None:
    problems = list(problem_set(["deduction/sat_solve", "games/kalah", "linalg/eigenvalues"], [0, 2], [1, 2],
                                answer_format=answer_format))
    labels = [row["label"] for row in rows_for("openrlhf", problems)]
    assert [p.to_json() for p in openrlhf.checked_labels(labels, 9)] == [p.to_json() for p in problems]


@pytest.mark.parametrize("edit", [lambda d: d["data"].update(variables=10**7), lambda d: d.update(prompt="other"),
                                  lambda d: d.update(seed=d["seed"] + 1), lambda d: d.update(answer="x")])
def test_an_edited_label_is_refused_before_any_verifier_sees_it(edit) -> None:
    problem = next(problem_set(["deduction/sat_solve"], [0], [1]))
    label = json.loads(problem.to_json())
    edit(label)
    with pytest.raises(ValueError, match="sample 0: the label is not the problem"):
        openrlhf.checked_labels([json.dumps(label)], 9)


def test_another_versions_label_is_left_to_its_error_verdict() -> None:
    problem = next(problem_set(["arithmetic/addition"], [0], [1]))
    label = {**json.loads(problem.to_json()), "version": problem.version + 1}
    (kept,) = openrlhf.checked_labels([json.dumps(label)], 9)
    verdict = openrlhf.judge(["<answer>1</answer>"], ["p"], [kept])[0]
    assert verdict.error and "v" in verdict.error


@pytest.mark.parametrize("field", [{"seed": 10**2000}, {"seed": "1" * 100}, {"seed": [7]}, {"seed": -1},
                                   {"answer_format": [1]}, {"answer_format": "zz"}])
def test_seeds_and_formats_out_of_shape_are_refused_without_generating(field: dict[str, object]) -> None:
    # An 8 MB seed was held twice in the cache per refused label; a list as a seed crashed the request's thread.
    problem = next(problem_set(["arithmetic/addition"], [0], [1]))
    label = {**json.loads(problem.to_json()), **field}
    before = openrlhf._generated.cache_info().currsize
    with pytest.raises(ValueError, match="sample 0: "):
        openrlhf.checked_labels([json.dumps(label)], 9)
    assert openrlhf._generated.cache_info().currsize == before
