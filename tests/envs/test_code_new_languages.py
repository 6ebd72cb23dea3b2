"""The code envs in the sandbox's newer languages: code/prolog_queries (SWI-Prolog) and code/bash_oneliners (Bash).

Hand-checked instances, wrong-but-plausible programs rejected with a useful message, right programs in another
spelling accepted. Each test that runs a program skips, naming the tool, where the toolchain is missing."""

from __future__ import annotations

import pytest

from palaestra.envs.code.bash_oneliners import TRANSFORMS, BashOneliners
from palaestra.envs.code.prolog_queries import RELATIONS, PrologQueries, family
from palaestra.verifiers.polyglot import read_program


def _need(language: str) -> None:
    from palaestra import sandbox

    chain = sandbox.probe().languages[language]
    if not chain.available:
        pytest.skip(f"{chain.reason} (install it with .ci/setup_toolchains.sh)")


def _problem(env: PrologQueries | BashOneliners, wanted: str, level: int = 2, **params: object) -> object:
    key = "relation" if isinstance(env, PrologQueries) else "transform"
    for seed in range(200):
        problem = env.sample(level=level, seed=seed)
        if problem.data[key] == wanted and all(problem.data["params"][k] == v for k, v in params.items()):
            return problem
    raise AssertionError(f"no {wanted} problem in 200 seeds")


# -- prolog_queries ------------------------------------------------------------------------------

def test_the_python_reference_of_each_relation_on_a_hand_checked_family() -> None:
    # ada -> ben, cleo; ben -> dan; cleo -> eve, finn; dan -> gus
    links = {"ada": {"ben", "cleo"}, "ben": {"dan"}, "cleo": {"eve", "finn"}, "dan": {"gus"}}
    assert RELATIONS["ancestor"].answers(links, None, "gus", 0) == {"dan", "ben", "ada"}
    assert RELATIONS["ancestor"].answers(links, "cleo", None, 0) == {"eve", "finn"}
    assert RELATIONS["sibling"].answers(links, "eve", None, 0) == {"finn"}
    assert RELATIONS["cousin"].answers(links, "dan", None, 0) == {"eve", "finn"}
    assert RELATIONS["descendant_at"].answers(links, "ada", None, 2) == {"dan", "eve", "finn"}
    assert RELATIONS["descendant_at"].answers(links, None, "gus", 3) == {"ada"}
    cycle = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}}
    assert RELATIONS["reachable"].answers(cycle, "a", None, 0) == {"a", "b", "c", "d"}
    assert RELATIONS["within"].answers(cycle, None, "d", 2) == {"c", "b"}


def test_a_family_forest_links_every_later_generation_to_parents_above() -> None:
    import random

    links = family(random.Random(5), 14)
    children = {c for cs in links.values() for c in cs}
    assert children and all(len([p for p, cs in links.items() if c in cs]) in (1, 2) for c in children)


def test_prolog_gold_other_definitions_and_naive_recursion() -> None:
    _need("prolog")
    env = PrologQueries()
    problem = _problem(env, "reachable", level=2)
    assert env.verify(problem, problem.answer).correct
    fact = problem.data["fact"]
    pair = "A, B" if problem.data["order"] == "forward" else "B, A"
    visited = (f"step(A, B) :- {fact}({pair}).\n"
               "reachable(X, Y) :- walk(X, Y, [X]).\n"
               "walk(X, Y, _) :- step(X, Y).\n"
               "walk(X, Y, Seen) :- step(X, Z), \\+ memberchk(Z, Seen), walk(Z, Y, [Z|Seen]).")
    verdict = env.verify(problem, f"Visited-set search:\n```prolog\n{visited}\n```")
    assert verdict.correct, verdict.feedback
    naive = (f"step(A, B) :- {fact}({pair}).\nreachable(X, Y) :- step(X, Y).\n"
             "reachable(X, Y) :- step(X, Z), reachable(Z, Y).")
    verdict = env.verify(problem, f"```prolog\n{naive}\n```")
    assert not verdict.correct and "tests passed" in verdict.feedback, verdict  # loops on the cycle


def test_prolog_one_step_ancestor_is_rejected_naming_a_query() -> None:
    _need("prolog")
    env = PrologQueries()
    problem = _problem(env, "ancestor", level=1)
    fact = problem.data["fact"]
    pair = "X, Y" if problem.data["order"] == "forward" else "Y, X"
    verdict = env.verify(problem, f"```prolog\nancestor(X, Y) :- {fact}({pair}).\n```")
    assert not verdict.correct and "printed" in verdict.feedback and "expected" in verdict.feedback, verdict


def test_prolog_answers_need_a_fence_and_nothing_after_it() -> None:
    program = "ancestor(X, Y) :- parent(X, Y)."
    assert isinstance(read_program(program, ("prolog",)), str)
    assert isinstance(read_program(f"```prolog\n{program}\n```. I take it back.", ("prolog",)), str)
    assert read_program(f"```swipl\n{program}\n```", ("prolog",)).code == program  # type: ignore[union-attr]


# -- bash_oneliners --------------------------------------------------------------------------------

def test_the_python_reference_of_each_transform_on_hand_checked_inputs() -> None:
    assert TRANSFORMS["word_freq"].output("b a  b\nc a b\n", {"k": 2}) == ["3 b", "2 a"]
    assert TRANSFORMS["group_sum"].output("bo,5\nab,-2\nbo,1\nabc,0\n", {"aggregate": "sum", "join": ","}) == [
        "ab,-2", "abc,0", "bo,6"]
    assert TRANSFORMS["group_sum"].output("bo,5\nbo,1\n", {"aggregate": "min", "join": " "}) == ["bo 1"]
    assert TRANSFORMS["dedupe"].output("x\ny\nx\nz\n", {"mode": "once"}) == ["y", "z"]
    assert TRANSFORMS["dedupe"].output("x\ny\nx\nz\n", {"mode": "first"}) == ["x", "y", "z"]
    assert TRANSFORMS["columns"].output("a:b:c\nd:e:f\n", {"fields": 3, "first": 3, "second": 1, "split": ":",
                                                             "join": ","}) == ["c,a", "f,d"]
    assert TRANSFORMS["dates"].output("on 2024-03-09 ok 7\n", {"style": "mdy"}) == ["on 03/09/2024 ok 7"]
    assert TRANSFORMS["threshold"].output("ana 1 50 3\nbo 9 20 9\n", {"column": 3, "compare": ">=", "limit": 50}) == [
        "ana"]


def test_bash_gold_and_another_pipeline_are_accepted() -> None:
    _need("bash")
    env = BashOneliners()
    problem = _problem(env, "group_sum", level=0, aggregate="sum", join=",")
    assert env.verify(problem, problem.answer).correct
    other = "sort -t, -k1,1 | awk -F, '$1 != k {if (NR > 1) print k \",\" s; k = $1; s = 0} {s += $2} END {print k \",\" s}'"
    verdict = env.verify(problem, f"```sh\n{other}\n```")
    assert verdict.correct, verdict.feedback


def test_bash_printing_the_example_output_fails_the_hidden_inputs() -> None:
    _need("bash")
    env = BashOneliners()
    problem = _problem(env, "dedupe", level=1)
    shown = problem.prompt.split("Example output:\n```\n", 1)[1].split("\n```", 1)[0]
    verdict = env.verify(problem, f"```bash\ncat <<'EOF'\n{shown}\nEOF\n```")
    assert not verdict.correct and "test 1, line" in verdict.feedback, verdict


def test_bash_a_retraction_after_the_script_is_not_an_answer() -> None:
    env = BashOneliners()
    problem = _problem(env, "columns", level=0)
    code = env.sources(problem)["bash"]
    assert not env.verify(problem, f"{code}\nJust kidding, I do not know.").correct
    assert not env.verify(problem, f"```bash\n{code}\n``` (no, that is wrong)").correct


# -- lua_functions ---------------------------------------------------------------------------------

def test_lua_canonical_text_and_literals_of_hand_checked_values() -> None:
    from palaestra.envs.code.lua_functions import encode, lua_literal

    assert encode({"b": [1, 2], "a": {}}) == '{"a":[],"b":[1,2]}'
    assert encode([]) == encode({}) == "[]"
    assert lua_literal({"x": [1, "y"]}) == '{["x"] = {1, "y"}}'


def test_lua_references_of_hand_checked_calls() -> None:
    from palaestra.envs.code.lua_functions import TEMPLATES

    assert TEMPLATES["run_length"].result(["aaabcc"], {"direction": "encode", "style": "count_char"}) == "3a1b2c"
    assert TEMPLATES["run_length"].result(["a3b1c12"], {"direction": "decode", "style": "char_count"}) == \
        "aaab" + "c" * 12
    assert TEMPLATES["merge_intervals"].result([[[4, 5], [1, 3], [7, 8]]], {"gap": 1}) == [[1, 5], [7, 8]]
    assert TEMPLATES["merge_intervals"].result([[[4, 5], [1, 3]]], {"gap": 0}) == [[1, 3], [4, 5]]
    assert TEMPLATES["grid"].result([[[1, 2, 3], [4, 5, 6]]], {"how": "clockwise"}) == [[4, 1], [5, 2], [6, 3]]
    assert TEMPLATES["rpn"].result([["-7", "2", "/", "-7", "2", "%", "+"]], {"rounding": "truncate"}) == -4
    assert TEMPLATES["rpn"].result([["-7", "2", "/", "-7", "2", "%", "+"]], {"rounding": "floor"}) == -3
    assert TEMPLATES["word_counts"].result(["Sun sun, a MOON3"], {"min_length": 2}) == {"sun": 2, "moon": 1}


def test_lua_gold_another_program_and_a_plausible_mistake() -> None:
    _need("lua")
    from palaestra.envs.code.lua_functions import LuaFunctions

    env = LuaFunctions()
    problem = None
    for seed in range(300):
        candidate = env.sample(level=3, seed=seed)
        if candidate.data["template"] == "rpn" and candidate.data["params"]["rounding"] == "truncate":
            problem = candidate
            break
    assert problem is not None
    assert env.verify(problem, problem.answer).correct
    name = problem.data["function"]
    body = """    local s = {}
    for _, t in ipairs(tokens) do
        if t:match("^%-?%d+$") then table.insert(s, math.tointeger(tonumber(t)))
        else
            local b, a = table.remove(s), table.remove(s)
            local r
            if t == "+" then r = a + b elseif t == "-" then r = a - b elseif t == "*" then r = a * b
            else
                local q = math.abs(a) // math.abs(b)
                if (a < 0) ~= (b < 0) then q = -q end
                r = t == "/" and q or a - q * b
            end
            table.insert(s, r)
        end
    end
    return s[1]"""
    verdict = env.verify(problem, f"```lua\nfunction {name}(tokens)\n{body}\nend\n```")
    assert verdict.correct, verdict.feedback
    floor = body.replace("local q = math.abs(a) // math.abs(b)\n                if (a < 0) ~= (b < 0) then q = -q end",
                         "local q = a // b")
    verdict = env.verify(problem, f"```lua\nfunction {name}(tokens)\n{floor}\nend\n```")
    assert not verdict.correct and "returned" not in verdict.feedback and "expected" in verdict.feedback, verdict


# -- go_programs -----------------------------------------------------------------------------------

def test_go_templates_python_references_on_hand_checked_tests() -> None:
    from palaestra.envs.code.go_programs import TEMPLATES

    brackets = {"right": "ok", "wrong": "bad", "labelled": False}
    assert TEMPLATES["brackets"].answer("([]{()})", brackets) == "ok 3"
    assert TEMPLATES["brackets"].answer("([)]", brackets) == "bad 3"
    assert TEMPLATES["brackets"].answer("(()", brackets) == "bad 4"
    assert TEMPLATES["spiral"].answer([[1, 2, 3], [4, 5, 6], [7, 8, 9]], {"step": 1, "skip": 0}) == "1 2 3 6 9 8 7 4 5"
    assert TEMPLATES["spiral"].answer([[1, 2, 3], [4, 5, 6]], {"step": 2, "skip": 1}) == "2 6 4"
    keys = {"capacity": 2, "keys": [1, 2, 1, 3, 2, 1]}
    assert TEMPLATES["cache"].answer(keys, {"policy": "lru"}) == "5"  # 1 2 hit(1) 3:evict 2, 2:evict 1, 1:evict 3
    assert TEMPLATES["cache"].answer(keys, {"policy": "fifo"}) == "4"  # 1 2 hit 3:evict 1, 2 hit, 1:evict 2
    primes = {"modulus": 4, "residue": 3, "extreme": "smallest"}
    assert TEMPLATES["primes"].answer([2, 20], primes) == "4 3"  # 3 7 11 19
    assert TEMPLATES["primes"].answer([24, 28], primes) == "0"


def test_go_gold_accepted_and_the_other_eviction_policy_rejected() -> None:
    _need("go")
    from palaestra.envs.code.go_programs import TEMPLATES, GoPrograms

    env = GoPrograms()
    problem = None
    for seed in range(300):
        candidate = env.sample(level=2, seed=seed)
        if candidate.data["template"] == "cache":
            fifo = {**candidate.data["params"], "policy": "fifo" if candidate.data["params"]["policy"] == "lru"
                    else "lru"}
            other = TEMPLATES["cache"].sources(fifo)["go"]
            if env.verify(candidate, f"```go\n{other}\n```").correct:
                continue  # both policies agree on these tests
            problem = candidate
            break
    assert problem is not None
    assert env.verify(problem, f"The program:\n```golang\n{problem.answer.split(chr(10), 1)[1]}").correct
    verdict = env.verify(problem, f"```go\n{other}\n```")
    assert not verdict.correct and "expected" in verdict.feedback, verdict
