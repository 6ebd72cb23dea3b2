"""Red team r31: code/verilog_combinational's hidden vectors test every input bit on its own (v1: a priority encoder
that skips one end of its loop, or a leading-zero count that ignores bit 0 or 1, passed 0.75-1.00 of the problems
from level 3, as random wide inputs almost never have a single bit set)."""

from __future__ import annotations

from typing import Any

import pytest

from palaestra import sandbox
from palaestra.core.registry import make_source
from palaestra.envs.code import _hdl as hdl

COMB = make_source("code/verilog_combinational")


def _encode(lowest: bool, req: int) -> list[int]:
    if not req:
        return [0, 0]
    return [(req & -req).bit_length() - 1 if lowest else req.bit_length() - 1, 1]


def _slips(p: dict[str, Any], template: str) -> dict[str, Any]:
    """Python models of plausible wrong circuits for the kinds whose slips hide from random vectors."""
    w, kind = p["w"], p.get("kind")
    if template == "encoder" and kind == "lowest":
        return {"loop skips the top bit": lambda x: _encode(True, x["req"] & ((1 << (w - 1)) - 1))}
    if template == "encoder" and kind == "highest":
        return {"loop skips bit 0": lambda x: _encode(False, x["req"] & ~1)}
    if template == "bit_function" and kind == "clz":
        return {"ignores bit 0": lambda x: [w - (x["x"] & ~1).bit_length()],
                "ignores bit 1": lambda x: [w - (x["x"] & ~2).bit_length()]}
    return {}


def test_verilog_r31_one_bit_slips_fail_the_hidden_vectors() -> None:
    checked = 0
    for level in (3, 4, 5):
        for seed in range(60):
            data = COMB.sample(level, seed).data
            for name, slip in _slips(data["params"], data["template"]).items():
                passes = all(hdl.line(slip(v)) == e for v, e in zip(data["tests"], data["expected"]))
                assert not passes, (level, seed, name)
                checked += 1
    assert checked > 40


def test_verilog_r31_an_encoder_skipping_its_top_bit_is_rejected_in_the_sandbox() -> None:
    if not sandbox.probe().languages["verilog"].available:
        pytest.skip("no Verilog toolchain in the sandbox")
    problem = next(p for seed in range(200) if (p := COMB.sample(4, seed)).data["template"] == "encoder"
                   and p.data["params"]["kind"] == "lowest")
    gold = COMB.sources(problem)["verilog"]
    w = problem.data["params"]["w"]
    slip = gold.replace(f"i = {w - 1}; i >= 0;", f"i = {w - 2}; i >= 0;")
    assert slip != gold
    assert COMB.verify(problem, f"```verilog\n{gold}\n```").correct
    assert not COMB.verify(problem, f"```verilog\n{slip}\n```").correct
