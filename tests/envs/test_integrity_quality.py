"""Regression tests for issue 21 (reward integrity), items 9 and 10: references exact, tests strong enough."""

from __future__ import annotations

import shutil
from fractions import Fraction

import pytest

from palaestra.core.registry import make_source
from palaestra.kit.quality import float_derived

needs_iverilog = pytest.mark.skipif(shutil.which("iverilog") is None, reason="needs iverilog")


# --- item 10: physics/collisions computes exactly -------------------------------------------------

def test_collisions_right_angle_reference_is_exact() -> None:
    source = make_source("physics/collisions")
    right_angle = [p for p in (source.sample(4, seed) for seed in range(60)) if p.data["kind"] == "right_angle"]
    assert len(right_angle) >= 10
    for p in right_angle:
        assert float_derived(p.answer or "") is None, p.answer
        assert "/" not in (p.answer or "") or int((p.answer or "").rsplit("/", 1)[1]) <= 4 * 48  # (m1 + m2), 2 * 2
        assert source.verify(p, p.answer or "").correct


def test_float_derived_numbers_are_recognised() -> None:
    assert float_derived(f"{Fraction(0.1).numerator}/{Fraction(0.1).denominator}") is not None
    assert float_derived("1385722962267845*sqrt(421)/9007199254740992") is not None
    assert float_derived("0.30000000000000004") is not None
    assert float_derived("3/1099511627776") is None  # 3/2^40: an exact probability, short numerator
    assert float_derived("2*sqrt(421)/13") is None
    assert float_derived("0.125 and 1/3") is None
    assert float_derived("x = -(1385722962267845/9007199254740992)") is not None


# --- item 9: a reset in the wrong style fails -------------------------------------------------------

def _other_reset_style(verilog: str) -> str:
    if "posedge clk or posedge rst" in verilog:
        return verilog.replace("posedge clk or posedge rst", "posedge clk")
    return verilog.replace("always @(posedge clk)", "always @(posedge clk or posedge rst)")


@needs_iverilog
@pytest.mark.parametrize("env_id", ["code/verilog_fsm", "code/verilog_sequential"])
def test_verilog_rejects_the_other_reset_style(env_id: str) -> None:
    source = make_source(env_id)
    for level in range(source.levels()):
        for seed in range(3):
            p = source.sample(level, seed)
            flipped = _other_reset_style(p.answer or "")
            assert flipped != p.answer
            assert source.verify(p, p.answer or "").correct
            assert not source.verify(p, flipped).correct, (level, seed)


@pytest.mark.parametrize("env_id", ["code/verilog_fsm", "code/verilog_sequential"])
def test_verilog_cycles_always_hold_a_telling_reset(env_id: str) -> None:
    from palaestra.envs.code import _hdl as hdl

    source = make_source(env_id)
    templates = type(source).templates
    for level in range(source.levels()):
        for seed in range(10):
            p = source.sample(level, seed)
            template, params = templates[p.data["template"]], p.data["params"]
            cycles = [dict(c) for c in p.data["cycles"]]
            before = [c["rst"] for c in cycles]
            # already telling: the helper plants nothing more
            assert hdl.plant_distinguishing_reset(None, template, params, cycles)
            assert [c["rst"] for c in cycles] == before


def test_sql_window_rejects_a_missing_tie_break() -> None:
    from palaestra.envs.code.sql_window import schema_of

    source = make_source("code/sql_window")
    tried = 0
    for level in range(source.levels()):
        for seed in range(4):
            p = source.sample(level, seed)
            ident = schema_of(p.data["params"]).id
            answer = p.answer or ""
            untied = answer.replace(f", {ident})", ")").replace(f", {ident} ROWS", " ROWS")
            if untied == answer:
                continue
            tried += 1
            assert source.verify(p, answer).correct
            assert not source.verify(p, untied).correct, (level, seed, untied)
    assert tried >= 8


def test_sql_window_hidden_rows_are_stored_against_the_tie_order() -> None:
    from palaestra.envs.code.sql_window import schema_of, script

    p = make_source("code/sql_window").sample(2, 0)
    s = schema_of(p.data["params"])
    text = script(s, p.data["tables"][1])
    assert "PRIMARY KEY" not in text  # the id is not the rowid, so storage order is insertion order
    inserted = [int(row.split(",")[0]) for row in text.split("VALUES ", 1)[1].strip("();").split("), (")]
    assert inserted == sorted(inserted, reverse=True)


def test_infix_to_postfix_reads_tokens_not_characters() -> None:
    source = make_source("algorithms/infix_to_postfix")
    p = source.sample(2, 3)
    gold = p.answer or ""
    tokens = gold.split()
    assert source.verify(p, gold).correct
    assert source.verify(p, "".join(tokens)).correct  # all run together: unambiguous
    assert source.verify(p, ", ".join(tokens)).correct
    assert not source.verify(p, tokens[0] + tokens[1] + " " + " ".join(tokens[2:])).correct  # a mix
    assert not source.verify(p, " ".join(tokens[:-2]) + " " + tokens[-2] + tokens[-1]).correct


def test_derivative_checked_on_both_signs() -> None:
    source = make_source("calculus/derivative")
    caught = 0
    for level in range(source.levels()):
        for seed in range(20):
            p = source.sample(level, seed)
            hacked = f"{p.answer} + x - abs(x)"  # right for x > 0 only
            if not _real_somewhere_negative(p.data["function"]):
                continue  # defined for x > 0 only: there the hack is the derivative
            caught += 1
            assert not source.verify(p, hacked).correct, p.data["function"]
            assert source.verify(p, p.answer or "").correct
    assert caught >= 30


def _real_somewhere_negative(function: str) -> bool:
    from palaestra.verifiers.formulas import derivative_at, reference_tree

    tree = reference_tree(function, ("x",))
    for x in (Fraction(-3, 7), Fraction(-13, 5), Fraction(-4)):
        found = derivative_at(tree, "x", {"x": x})
        if found is not None and all(getattr(v, "imag", 0) == 0 for v in found):
            return True
    return False
