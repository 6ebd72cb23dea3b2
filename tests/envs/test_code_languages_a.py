"""Code envs in the sandbox's newer languages (issue 26, helper langs_a): Lua patterns and metatables, Go errors,
channels and interfaces, Prolog DCGs and list relations, awk reports and sed scripts.

Per env: the Python reference on a hand-checked instance, the gold program and another right program accepted,
a plausible wrong program rejected with a message naming the failing test. Tests that run a program skip,
naming the tool, where its toolchain is missing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from palaestra.core import Problem
from palaestra.core.registry import make_source


def _need(language: str) -> None:
    from palaestra import sandbox

    chain = sandbox.probe().languages[language]
    if not chain.available:
        pytest.skip(f"{chain.reason} (install it with .ci/setup_toolchains.sh)")


def _problem(env_id: str, level: int, want: dict[str, Any], key: str | None = None) -> tuple[Any, Problem]:
    """The first problem of ``env_id`` at ``level`` whose data[key] (or params) match ``want``."""
    env = make_source(env_id)
    for seed in range(300):
        problem = env.sample(level=level, seed=seed)
        where = problem.data if key is None else problem.data[key]
        if all(where.get(k) == v for k, v in want.items()):
            return env, problem
    raise AssertionError(f"no {env_id} problem with {want} in 300 seeds")


# -- lua_string_patterns -------------------------------------------------------------------------

def test_lua_patterns_python_references_on_hand_checked_strings() -> None:
    from palaestra.envs.code.lua_string_patterns import RULES

    assert RULES["mask"].result("card 4111222233 pin 042", {"min_run": 4, "keep": 2, "char": "#"}) == \
        "card ########33 pin 042"
    fields = {"keys": ["id", "city"], "wanted": ["city", "zip", "id"], "sep": ";", "assign": "=", "join": ",",
              "missing": "-", "last": False}
    assert RULES["fields"].result("id=7;city=rome;id=9", fields) == "rome,-,7"
    assert RULES["fields"].result("id=7;city=rome;id=9", {**fields, "last": True}) == "rome,-,9"
    assert RULES["tags"].result("#Ab x#abc #ab_1! #a #AB", {"sigil": "#", "min_len": 2, "join": ","}) == "ab,abc,ab_1"
    fill = {"style": "dollar", "table": {"user": "ana"}, "unknown_names": ["day"], "unknown": "mark"}
    assert RULES["fill"].result("hi ${user}, ${day} ${User}", fill) == "hi ana, ? ${User}"
    assert RULES["names"].result("Smith, Ana; Berg,Bo", {"form": "initial", "join": " "}) == "A. Smith; Berg,Bo"
    assert RULES["names"].result("Smith, Ana Kaur, Eli", {"form": "join", "join": "_"}) == "Ana_Smith Eli_Kaur"


def test_lua_patterns_gold_another_program_and_a_near_miss() -> None:
    _need("lua")
    env, problem = _problem("code/lua_string_patterns", 1, {"rule": "mask"})
    assert env.verify(problem, problem.answer).correct
    p, name = problem.data["params"], problem.data["function"]
    loop = (f"function {name}(s)\n  local out = {{}}\n  local i = 1\n  while i <= #s do\n"
            "    local a, b = s:find('%d+', i)\n    if not a then out[#out+1] = s:sub(i); break end\n"
            "    out[#out+1] = s:sub(i, a - 1)\n    local run = s:sub(a, b)\n"
            f"    if #run >= {p['min_run']} then run = ('{p['char']}'):rep(#run - {p['keep']}) .. "
            f"run:sub(#run - {p['keep']} + 1) end\n"
            "    out[#out+1] = run\n    i = b + 1\n  end\n  return table.concat(out)\nend")
    verdict = env.verify(problem, f"A find loop instead of gsub:\n```lua\n{loop}\n```")
    assert verdict.correct, verdict.feedback
    every_run = f"function {name}(s)\n  return (s:gsub('%d', '{p['char']}'))\nend"  # ignores the length rule
    verdict = env.verify(problem, f"```lua\n{every_run}\n```")
    assert not verdict.correct and "expected" in verdict.feedback, verdict


# -- go_error_handling ---------------------------------------------------------------------------

def test_go_errors_python_reference_on_hand_checked_lines() -> None:
    from palaestra.envs.code.go_error_handling import line_text, parse

    p = {"limits": {"port": [1, 100]}, "trim": True, "unknown_first": True,
         "names": {"syntax": "ErrSyntax", "unknown": "ErrUnknownKey", "number": "ErrNotNumber", "outside": "ErrRange"}}
    assert parse(" port = +07 ", p) == ("ok", "7")
    assert parse("port=101", p) == ("outside", "port")
    assert parse("port=1=2", p) == ("syntax", "")
    assert parse("mode=x", p) == ("unknown", "mode")
    assert parse("mode=x", {**p, "unknown_first": False}) == ("number", "")
    assert parse("port = 5", {**p, "trim": False}) == ("syntax", "")
    assert line_text(("outside", "port"), p) == "error ErrRange +key"
    assert line_text(("ok", "7"), p) == "ok 7"


def test_go_errors_gold_accepted_and_bare_sentinels_rejected() -> None:
    _need("go")
    env, problem = _problem("code/go_error_handling", 0, {})
    assert env.verify(problem, problem.answer).correct
    bare = env.reference(problem.data, wrap=False)  # errors.Is still works, but the message lacks the key
    verdict = env.verify(problem, f"```go\n{bare}\n```")
    assert not verdict.correct and "+key" in verdict.feedback, verdict


# -- prolog_dcg ----------------------------------------------------------------------------------

def test_dcg_python_recognisers_on_hand_checked_strings() -> None:
    from palaestra.envs.code.prolog_dcg import LANGUAGES

    counted = {"x": "a", "y": "b", "k": 2, "min_n": 1}
    assert LANGUAGES["counted"].accepts("abb", counted) and LANGUAGES["counted"].accepts("aabbbb", counted)
    assert not LANGUAGES["counted"].accepts("", counted) and not LANGUAGES["counted"].accepts("aabbb", counted)
    balanced = {"pairs": [["(", ")"], ["[", "]"]], "empty": False}
    assert LANGUAGES["balanced"].accepts("([])()", balanced)
    assert not LANGUAGES["balanced"].accepts("([)]", balanced) and not LANGUAGES["balanced"].accepts("", balanced)
    assert LANGUAGES["mirror"].accepts("abcba", {"a": "a", "b": "b", "centre": "c"})
    assert not LANGUAGES["mirror"].accepts("abcab", {"a": "a", "b": "b", "centre": "c"})
    listing = {"pair": ["[", "]"], "sep": ",", "empty": True, "zeros": False}
    assert LANGUAGES["listing"].accepts("[]", listing) and LANGUAGES["listing"].accepts("[0,10,7]", listing)
    assert not LANGUAGES["listing"].accepts("[07]", listing) and not LANGUAGES["listing"].accepts("[1,]", listing)
    arith = {"ops": "+*", "pair": ["(", ")"]}
    assert LANGUAGES["arith"].accepts("(1+2)*3", arith)
    assert not LANGUAGES["arith"].accepts("1+", arith) and not LANGUAGES["arith"].accepts("()", arith)


def test_dcg_gold_accepted_and_a_left_recursive_grammar_rejected() -> None:
    _need("prolog")
    env, problem = _problem("code/prolog_dcg", 3, {"language": "arith"})
    assert env.verify(problem, problem.answer).correct
    name, p = problem.data["name"], problem.data["params"]
    ops = ", ".join(f"'{o}'" for o in p["ops"])
    left = (f"{name} --> {name}, [Op], {{ memberchk(Op, [{ops}]) }}, t.\n{name} --> t.\n"
            f"t --> [D], {{ char_type(D, digit(_)) }}.\nt --> ['{p['pair'][0]}'], {name}, ['{p['pair'][1]}'].")
    verdict = env.verify(problem, f"```prolog\n{left}\n```")
    assert not verdict.correct and "limit" in verdict.feedback, verdict


# -- awk_reports ---------------------------------------------------------------------------------

def test_awk_report_python_reference_on_a_hand_checked_input() -> None:
    from palaestra.envs.code.awk_reports import report

    p = {"names": ["team", "qty", "score"], "sep": ",", "group": 1, "value": 3, "aggregates": ["count", "avg"],
         "filter": [2, ">", 0], "header": True, "total": True, "key_width": 6, "value_width": 5}
    text = "team,qty,score\nred,1,10\nblue,0,99\nred,2,5\nblue,3,7\n"
    assert report(text, p) == ["red        2  7.50", "blue       1  7.00", "TOTAL      3  7.33"]


def test_awk_gold_accepted_and_the_example_report_rejected() -> None:
    _need("bash")
    env, problem = _problem("code/awk_reports", 0, {})
    assert env.verify(problem, problem.answer).correct
    assert env.verify(problem, f"```\n{env.reference(problem.data)}\n```").correct  # an unlabelled fence
    first = problem.data["example_output"].splitlines()[0]
    verdict = env.verify(problem, f"```awk\nEND {{ print \"{first}\" }}\n```")
    assert not verdict.correct and "test 1" in verdict.feedback, verdict


def test_corruptions_include_a_mutated_reference() -> None:
    env, problem = _problem("code/prolog_dcg", 1, {})
    corruptions = env.corruptions(problem, random.Random(3))
    assert len(corruptions) >= 2 and all(c != problem.answer for c in corruptions)


# -- sed_transforms ------------------------------------------------------------------------------

def test_sed_python_references_on_hand_checked_inputs() -> None:
    from palaestra.envs.code.sed_transforms import EDITS

    ini = {"sections": ["a", "b"], "keys": ["port"], "section": "b", "key": "port", "value": "v9"}
    assert EDITS["ini_set"].output("port=1\n[a]\nport=2\n[b]\nport2=3\nport=4\n", ini) == [
        "port=1", "[a]", "port=2", "[b]", "port2=3", "port=v9"]
    join = {"char": "\\", "sep": " "}
    assert EDITS["join_lines"].output("a\\\nb\\\nc\nd\\\n", join) == ["a b c", "d\\"]
    blocks = {"start": "BEGIN", "stop": "END", "inclusive": False}
    assert EDITS["delete_blocks"].output("x\nEND\nBEGIN\ny\nBEGIN\nEND\nz\nBEGIN\nw\n", blocks) == [
        "x", "END", "BEGIN", "BEGIN", "END", "z", "BEGIN"]
    assert EDITS["delete_blocks"].output("x\nBEGIN\ny\nEND\nz\n", {**blocks, "inclusive": True}) == ["x", "z"]
    nth = {"word": "ab", "replacement": "X", "n": 2, "onward": False}
    assert EDITS["nth_occurrence"].output("ab abab ab\nab\n", nth) == ["ab Xab ab", "ab"]
    assert EDITS["nth_occurrence"].output("ab abab ab\n", {**nth, "onward": True}) == ["ab XX X"]


def test_sed_gold_another_script_and_a_one_pass_join_rejected() -> None:
    _need("bash")
    env = make_source("code/sed_transforms")

    def chained(problem: Problem) -> bool:  # some input continues a line twice in a row
        char = problem.data["params"]["char"]
        return any(a.endswith(char) and b.endswith(char)
                   for text in problem.data["inputs"] for a, b in zip(text.splitlines(), text.splitlines()[1:-1]))

    problem = next(q for q in (env.sample(level=2, seed=s) for s in range(300))
                   if q.data["edit"] == "join_lines" and chained(q))
    assert env.verify(problem, problem.answer).correct
    p = problem.data["params"]
    char = {"\\": "\\\\", "+": "\\+"}.get(p["char"], p["char"])
    loop = f":x\n$!{{\n/{char}$/{{\nN\ns/{char}\\n/{p['sep']}/\nbx\n}}\n}}"  # the same loop, guards nested the other way
    verdict = env.verify(problem, f"```sed\n{loop}\n```")
    assert verdict.correct, verdict.feedback
    once = f"/{char}$/{{\n$!N\ns/{char}\\n/{p['sep']}/\n}}"  # joins one continuation only, never repeats
    verdict = env.verify(problem, f"```sed\n{once}\n```")
    assert not verdict.correct and "test" in verdict.feedback, verdict


# -- lua_metatables ------------------------------------------------------------------------------

def test_lua_metatables_python_model_and_expression_text() -> None:
    from palaestra.envs.code.lua_metatables import KINDS, lua, show

    values = {"a": [3, -4], "b": [1, 2], "c": [0, 0]}
    vec = {"format": "paren", "length": "manhattan"}
    tree = ["*k", ["+", ["var", "a"], ["var", "b"]], ["int", 2]]
    assert lua(tree, "Vec") == "(a + b) * 2" and show(tree, KINDS["vec"], vec, values) == "(8, -4)"
    assert show(["#", ["neg", ["var", "a"]]], KINDS["vec"], vec, values) == "7"
    assert lua(["k*", ["var", "a"], ["int", -3]], "Vec") == "-3 * a"
    mod = {"format": "word", "modulus": 7}
    assert show(["^", ["new", [-2]], ["int", 3]], KINDS["mod"], mod, {}) == "6 mod 7"  # 5^3 = 125 = 6 (mod 7)
    frac = {"format": "integer"}
    assert show(["+", ["new", [1, 2]], ["new", [3, -2]]], KINDS["frac"], frac, {}) == "-1"
    assert show(["<=", ["new", [2, 4]], ["new", [1, 2]]], KINDS["frac"], frac, {}) == "true"


def test_lua_metatables_gold_accepted_and_a_missing_eq_rejected() -> None:
    _need("lua")
    env, problem = _problem("code/lua_metatables", 1, {"kind": "frac"})
    assert env.verify(problem, problem.answer).correct
    cls = problem.data["class"]
    gold = env.reference(problem.data)
    no_eq = "\n".join(line for line in gold.splitlines() if f"{cls}.__eq" not in line)
    verdict = env.verify(problem, f"```lua\n{no_eq}\n```")
    assert not verdict.correct and "expected" in verdict.feedback, verdict


# -- go_channels ---------------------------------------------------------------------------------

def test_go_channels_python_model_on_a_hand_checked_pipeline() -> None:
    from palaestra.envs.code.go_channels import run_pipeline

    stages = [{"kind": "merge", "name": "Merge", "params": {}},
              {"kind": "dedup", "name": "Dedup", "params": {}},
              {"kind": "window", "name": "Rolling", "params": {"k": 2}},
              {"kind": "filter", "name": "Keep", "params": {"test": "odd", "d": 3, "t": 0}}]
    assert run_pipeline(stages, [[1, 4, 4, 9], [2, 4]]) == [1, 3, 13]  # 1 2 4 9 -> 1 3 6 13 -> odd
    diff = [{"kind": "diff", "name": "Diff", "params": {}},
            {"kind": "map", "name": "Scale", "params": {"square": False, "a": -2, "b": 1}}]
    assert run_pipeline(diff, [[5, 2, 10], []]) == [7, -15]


def test_go_channels_gold_accepted_and_an_unclosed_stage_rejected() -> None:
    _need("go")
    env, problem = _problem("code/go_channels", 0, {})
    assert env.verify(problem, problem.answer).correct
    verdict = env.verify(problem, f"```go\n{env.reference(problem.data, open_stage=1)}\n```")
    assert not verdict.correct and "runtime error" in verdict.feedback, verdict


# -- prolog_list_relations -----------------------------------------------------------------------

def test_list_relations_python_model_on_hand_checked_queries() -> None:
    from palaestra.envs.code.prolog_list_relations import RELATIONS, answer_line, query, term

    insert = RELATIONS["insert_at"]
    assert sorted(map(term, insert.solutions({}, {0: 1, 1: [1, 2]}))) == ["[1,1,2]", "[1,1,2]", "[1,2,1]"]
    assert insert.solutions({}, {0: 2, 2: [2, 5, 2]}) == [[5, 2], [2, 5]]
    assert answer_line(3, insert, {}, [None, [4], [4, 9]], (1, 2)) == "3: {9}"
    assert query(insert, "put_in", [None, [4], [4, 9]], (1, 2)) == ("V0", "put_in(V0, [4], [4,9])")
    assert RELATIONS["runs"].solutions({}, {1: [(2, "a"), (1, "b")]}) == [["a", "a", "b"]]
    assert RELATIONS["runs"].solutions({}, {1: [(1, "a"), (1, "a")]}) == []  # not canonical
    assert term(RELATIONS["runs"].solutions({}, {0: ["a", "a", "b", "a"]})[0]) == "[2-a,1-b,1-a]"
    assert RELATIONS["stutter"].solutions({"copies": 2}, {1: [3, 3, 4]}) == []
    assert RELATIONS["interleave"].solutions({}, {0: [1, 2], 1: [7]}) == [[1, 7, 2]]
    assert term(RELATIONS["interleave"].solutions({}, {2: [1, 7, 2]})[0]) == "[1,2]-[7]"
    assert RELATIONS["prefix_sums"].solutions({}, {1: [3, 4, 8]}) == [[3, 1, 4]]


def test_list_relations_gold_accepted_and_a_forward_only_program_rejected() -> None:
    _need("prolog")
    env, problem = _problem("code/prolog_list_relations", 3, {"relation": "prefix_sums"})
    assert env.verify(problem, problem.answer).correct
    name = problem.data["name"]
    forward = (f"{name}(L, S) :- walk(L, 0, S).\nwalk([], _, []).\n"
               "walk([X|T], Sum, [S|R]) :- S is Sum + X, walk(T, S, R).")  # is/2 cannot run backwards
    verdict = env.verify(problem, f"```prolog\n{forward}\n```")
    assert not verdict.correct and "error" in verdict.feedback, verdict
    clpfd = (":- use_module(library(clpfd)).\n"
             f"{name}(L, S) :- walk(L, 0, S).\nwalk([], _, []).\n"
             "walk([X|T], Sum, [S|R]) :- S #= Sum + X, walk(T, S, R).")  # one program for both modes
    verdict = env.verify(problem, f"With clpfd:\n```prolog\n{clpfd}\n```")
    assert verdict.correct, verdict.feedback


# -- go_structs_interfaces -----------------------------------------------------------------------

def test_go_structs_python_model_on_a_hand_checked_slice() -> None:
    from palaestra.envs.code.go_structs_interfaces import label, run

    lamp = {"type": "Lamp", "word": "lamp", "f1": "Watts", "f2": "Hours", "formula": "ceil", "a": 1, "b": 0, "c": 0,
            "d": 4, "label": 1, "scalable": True, "field": 2}
    book = {"type": "Book", "word": "book", "f1": "Pages", "f2": "Copies", "formula": "linear", "a": 2, "b": 3,
            "c": 1, "d": 2, "label": 2, "scalable": False, "field": 1}
    assert label(lamp, 9, 3) == "lamp[9/3]" and label(book, 9, 3) == "3-books"
    lines = run({"Lamp": lamp, "Book": book}, {"items": [["Lamp", 9, 4], ["Book", 5, 2]], "percent": 50})
    # lamp: ceil(9/4) * 4 = 12, scaled Hours 2 -> 6; book: 2*5 + 3*2 + 1 = 17
    assert lines == ["lamp[9/4] 12", "2-books 17", "total 29", "scaled 6", "fixed", "total 23"]


def test_go_structs_gold_accepted_and_a_value_receiver_scale_rejected() -> None:
    _need("go")
    env, problem = _problem("code/go_structs_interfaces", 0, {})
    assert env.verify(problem, problem.answer).correct
    verdict = env.verify(problem, f"```go\n{env.reference(problem.data, value_scale=True)}\n```")
    assert not verdict.correct and "scaled" in verdict.feedback, verdict


def test_prolog_dcg_generates_at_far_levels() -> None:
    # Version 1 drew a language's parameters once per problem and let strings grow to 200 characters: no balanced
    # set of hidden strings was found at 3 seeds in 40 at level 22 (and 1 in 150 at level 14).
    task = make_source("code/prolog_dcg")
    for level in (14, 22, 40):
        for seed in range(300_000, 300_040):
            assert task.sample(level, seed).data["tests"]
