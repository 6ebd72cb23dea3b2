"""The examples in the readers' docstrings are true (they are the authoring guide's examples)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["normalize", "numeric", "choices", "sets", "assignments", "blocks", "moves", "chess_moves"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"palaestra.verifiers.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
