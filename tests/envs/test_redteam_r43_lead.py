"""Red-team round 3, session 43 (the lead's findings): regression tests.

- proofs/lattice_identities, ring_identities, equational: a right chain written after ``Answer:`` on its line, under a
  bold ``**Answer:**`` heading, in ``$...$``/``$$...$$`` or in ``\\boxed{}`` scored 0 (the chain readers took the
  text as it came; only a plain heading line ending in ``:`` was dropped). They now read it through the shared
  wrapper grammar first; a hedge or a retraction after the chain still scores 0.

Each test fails on the code before its fix.
"""

from __future__ import annotations

import pytest

from palaestra.core.registry import make_source

CHAIN_ENVS = ("proofs/lattice_identities", "proofs/ring_identities", "proofs/equational")


@pytest.mark.parametrize("env_id", CHAIN_ENVS)
def test_a_right_chain_in_the_common_wrappers_is_accepted(env_id: str) -> None:
    source = make_source(env_id)
    for level, seed in ((0, 7), (3, 7), (4, 11)):
        problem = source.sample(level, seed)
        chain = problem.answer
        one_line = " ".join(chain.split("\n"))
        for spelling in (f"Answer: {one_line}", f"**Answer:**\n{chain}", f"${one_line}$", f"$$\n{chain}\n$$",
                         f"\\boxed{{{one_line}}}", f"Answer: {one_line}."):
            assert source.verify(problem, spelling).reward == 1.0, (env_id, level, spelling)
        for wrong in (f"Answer: {one_line}\nOr not.", f"{chain}\nI take it back.", f"Answer: {one_line} = x"):
            assert source.verify(problem, wrong).reward == 0.0, (env_id, level, wrong)
