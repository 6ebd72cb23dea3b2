"""``Problem.to_json`` and ``to_row`` serialise the fields without copying them first: the text is the same
as that of the deep-copied :meth:`Problem.to_dict`, for every env's problems, and serialising leaves the
problem's data as it was."""

from __future__ import annotations

import json

from palaestra.core import Problem
from palaestra.core.registry import make_source, registry


def test_to_json_equals_the_text_of_to_dict_for_every_env() -> None:
    for spec in registry.specs():
        source = make_source(spec.id)
        for level in (0, 2):
            problem = source.sample(level=level, seed=level + 5)
            assert problem.to_json() == json.dumps(problem.to_dict(), sort_keys=True, ensure_ascii=False), spec.id


def test_to_row_and_to_json_keep_options_rules_and_do_not_touch_the_data() -> None:
    data = {"grid": [[1, 2], [3, 4]], "names": {"b": "β", "a": None}}
    plain = Problem("demo/x", 1, 3, "p", "a", data)
    graded = Problem("demo/x", 1, 3, "p", "a", data, options={"partial_credit": True})
    assert "options" not in json.loads(plain.to_json())
    assert json.loads(graded.to_json())["options"] == {"partial_credit": True}
    for problem in (plain, graded):
        row = problem.to_row()
        assert row["data"] == json.dumps(data, sort_keys=True, ensure_ascii=False)
        assert Problem.from_row(row) == problem and Problem.from_json(problem.to_json()) == problem
        row["prompt"] = "changed"
        assert problem.prompt == "p" and problem.data == {"grid": [[1, 2], [3, 4]], "names": {"b": "β", "a": None}}
    assert plain.to_row()["options"] == "{}"
