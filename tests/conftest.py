"""Suite-wide settings."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    # xdist declares the mark; without xdist (`-p no:xdist`) it is declared here, so it is not an unknown mark.
    config.addinivalue_line("markers", "xdist_group(name): run the tests of one group in one xdist worker")
    # Under `pytest -n N` the tests marked with one xdist_group (all of an env's contract checks) go to one
    # worker, so the problems they share are generated once; unmarked tests are spread one by one as before.
    if config.pluginmanager.hasplugin("xdist") and getattr(config.option, "dist", "no") == "load":
        config.option.dist = "loadgroup"
