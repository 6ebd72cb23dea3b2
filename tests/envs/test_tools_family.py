"""The tool-use family (palaestra/envs/tools): the protocol of ToolTask, the replayed Python tool,
and each env's trickiest grading (accepted spellings, rejected near misses, text-to-SQL by execution).
The kit covers the rest (oracle wins, random play, determinism, speed)."""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("bm25s")

import palaestra
from palaestra.core.registry import make_source
from palaestra.envs.tools import _sqldata as sqldata
from palaestra.envs.tools import common
from palaestra.envs.tools.common import parse_tool_calls, tool_call
from palaestra.generators import database as dbgen

ENV_IDS = [
    "tools/multi_hop_qa", "tools/comparison_qa", "tools/aggregation_qa", "tools/unanswerable_qa",
    "tools/fact_check", "tools/sql_qa", "tools/text_to_sql", "tools/sql_statistics", "tools/search_calculate",
    "tools/big_numbers", "tools/simulation", "tools/data_files", "tools/word_problems", "tools/root_finding",
    "tools/date_arithmetic", "tools/count_by_program",
]
# Envs whose oracle computes the answer with its own program in the sandbox.
PYTHON_ORACLES = ["tools/big_numbers", "tools/simulation", "tools/data_files", "tools/date_arithmetic",
                  "tools/count_by_program", "tools/root_finding"]


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_spellings_accepted_and_near_misses_rejected(env_id: str) -> None:
    source = make_source(env_id)
    for level in (0, source.levels() - 1):
        for seed in range(3):
            problem = source.sample(level, seed)
            assert source.judge(problem, problem.answer).correct
            for spelling in source.spellings(problem):
                verdict = source.judge(problem, spelling)
                assert verdict.correct, (env_id, level, seed, spelling, verdict)
            for wrong in source.corruptions(problem, random.Random(seed)):
                verdict = source.judge(problem, wrong)
                assert not verdict.correct and verdict.error is None, (env_id, level, seed, wrong, verdict)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_the_oracle_uses_tools_and_a_replay_scores_its_episode(env_id: str) -> None:
    source = make_source(env_id)
    problem = source.sample(1, 5)
    moves = [source.format_answer(m) for m in source.plan(problem)]
    assert sum(m.startswith("<tool_call>") for m in moves) >= 1
    assert len(json.dumps(problem.data)) < 4_000  # specs, not corpora or databases
    verdict = palaestra.score(problem.to_json(), moves)
    assert verdict.correct and verdict.reward == 1.0
    assert not palaestra.score(problem, [*moves[:-1], "<answer>certainly wrong</answer>"]).correct


def test_the_oracle_plans_once_per_problem_and_plays_the_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    """A plan rebuilds the corpus and runs its searches: the oracle, asked every turn, works it out once per problem
    (also for the same problem rebuilt from JSON), and a new problem gets its own."""
    source = make_source("tools/search_calculate")
    planned: list[str] = []
    real_plan = type(source).plan
    monkeypatch.setattr(type(source), "plan",
                        lambda self, problem: planned.append(problem.to_json()) or real_plan(self, problem))
    env = palaestra.make("tools/search_calculate", level=2)
    try:
        for seed in (90_001, 90_002):
            env.reset(seed=seed)
            expected = real_plan(env.task, env.problem)
            played, done = [], False
            while not done:
                played.append(env.oracle_action())
                _, reward, terminated, truncated, _ = env.step(played[-1])
                done = terminated or truncated
            assert len(played) == len(expected) and played[:-1] == expected[:-1] and reward == 1.0
        assert len(planned) == 2 and planned[0] != planned[1]
        again = common._plan(env.task, common._ByContent(palaestra.Problem.from_json(planned[1])))
        assert len(planned) == 2 and list(again) == expected
    finally:
        env.close()


def test_protocol_errors_cost_a_call_or_a_turn_and_say_why() -> None:
    env = palaestra.make("tools/multi_hop_qa", level=0)
    prompt, info = env.reset(seed=1)
    budget = info["problem"].data["budget"]
    assert f"at most {budget} tool calls" in prompt and '"name": "search"' in prompt
    obs, reward, terminated, _, _ = env.step("I think I should search first.")
    assert reward == 0 and not terminated and "no <answer></answer> tags" in obs
    obs, *_ = env.step('<tool_call>{"name": "search", "arguments": {"query": 5}}</tool_call>')
    assert "must be of type string" in obs
    obs, *_ = env.step('<tool_call>not json</tool_call><tool_call>{"name": "python", "arguments": {}}</tool_call>')
    assert "not valid JSON" in obs and "unknown tool 'python'" in obs
    assert env.state["calls"] == 3
    # A final answer next to a tool call is not an answer.
    both = tool_call("search", query="x") + f"<answer>{info['problem'].answer}</answer>"
    obs, reward, terminated, *_ = env.step(both)
    assert reward == 0 and not terminated


def test_the_tool_budget_is_enforced_and_the_episode_ends_within_the_turn_budget() -> None:
    env = palaestra.make("tools/sql_qa", level=0)
    _, info = env.reset(seed=2)
    budget = info["problem"].data["budget"]
    calls = "".join(tool_call("sql", query="SELECT 1") for _ in range(budget + 3))
    obs, *_ = env.step(calls)
    assert obs.count("<tool_response>") == budget + 1  # the extra calls beyond one are not even parsed
    assert "tool call limit reached" in obs
    steps, done = 1, False
    while not done:
        _, _, terminated, truncated, _ = env.step(tool_call("sql", query="SELECT 1"))
        steps += 1
        done = terminated or truncated
    assert steps == budget + 2


def test_parse_tool_calls_reads_fences_string_arguments_and_unclosed_calls() -> None:
    text = ('<tool_call>```json\n{"name": "sql", "arguments": "{\\"query\\": \\"SELECT 1\\"}"}\n```</tool_call>'
            '<tool_call>{"name": "calculator", "parameters": {"expression": "1+1"}}')
    first, second = parse_tool_calls(text)
    assert first == ("sql", {"query": "SELECT 1"}, None)
    assert second == ("calculator", {"expression": "1+1"}, None)
    assert parse_tool_calls("<tool_call>[1, 2]</tool_call>")[0].error.startswith("a tool call must be")
    assert len(parse_tool_calls("<tool_call>{}</tool_call>" * 100, limit=3)) == 3


def test_python_state_persists_by_replay_and_a_timeout_drops_it() -> None:
    source = make_source("tools/sql_statistics")
    problem = source.sample(0, 0)
    state = source.initial_state(problem)
    out = source.play(problem, state, tool_call("python", code="x = 6 * 7\nprint('set')"))
    assert "set" in out.observation and out.state["cells"] == ["x = 6 * 7\nprint('set')"]
    again = source.play(problem, out.state, tool_call("python", code="x + 1"))
    assert "43" in again.observation and "set" not in again.observation  # earlier output is not repeated
    assert state == {"turn": 0, "calls": 0, "cells": []}  # play did not mutate its input
    slow = source.play(problem, again.state, tool_call("python", code="while True: pass"))
    assert "state is lost" in slow.observation and slow.state["cells"] == []
    error = source.play(problem, again.state, tool_call("python", code="1/0"))
    assert "ZeroDivisionError" in error.observation and len(error.state["cells"]) == 3


def test_a_sandbox_failure_ends_the_episode_unjudged(monkeypatch: pytest.MonkeyPatch) -> None:
    from palaestra import sandbox

    def down(*args, **kwargs):
        raise sandbox.SandboxUnavailable("no isolation on this host")

    monkeypatch.setattr(sandbox, "run", down)
    source = make_source("tools/sql_statistics")
    problem = source.sample(0, 0)
    out = source.play(problem, source.initial_state(problem), tool_call("python", code="print(1)"))
    assert out.done and out.verdict.error is not None and "SandboxUnavailable" in out.verdict.error
    assert palaestra.score(problem, [tool_call("python", code="print(1)")]).error is not None


def test_text_to_sql_accepts_equivalent_queries_and_rejects_stated_results() -> None:
    source = make_source("tools/text_to_sql")
    checked = 0
    for seed in range(40):
        problem = source.sample(0, seed)
        sql = problem.data["sql"]
        if not (sql.startswith("SELECT COUNT(*) FROM") and " WHERE " in sql):
            continue
        table, condition = sql[len("SELECT COUNT(*) FROM "):].split(" WHERE ", 1)
        rewritten = f"select sum(case when {condition} then 1 else 0 end) as n from {table}"
        assert source.judge(problem, rewritten).correct, rewritten
        db = dbgen.database_from_spec(problem.data["database"])
        count = sqldata.execute(db, sql).rows[0][0]
        stated = f"SELECT {count} FROM {table} LIMIT 1"
        verdict = source.judge(problem, stated)
        assert not verdict.correct and "another instance" in verdict.feedback
        assert "read-only" in source.judge(problem, f"DROP TABLE {table}").feedback
        checked += 1
    assert checked >= 5


def test_text_to_sql_order_matters_only_when_asked() -> None:
    source = make_source("tools/text_to_sql")
    for seed in range(60):
        problem = source.sample(3, seed)
        sql = problem.data["sql"]
        if problem.data["ordered"] and sql.endswith("DESC LIMIT " + sql.rsplit(" ", 1)[-1]):
            reordered = f"SELECT * FROM ({sql}) ORDER BY 2 ASC"
            assert not source.judge(problem, reordered).correct
            return
    pytest.fail("no ordered top-n question in 60 seeds")


def test_sql_statistics_values_match_the_reference_sql() -> None:
    from palaestra.envs.tools.sql_statistics import _rows

    source = make_source("tools/sql_statistics")
    for level in range(5):
        for seed in range(4):
            problem = source.sample(level, seed)
            db = dbgen.database_from_spec(problem.data["database"])
            via_sql = sorted(sqldata.execute(db, problem.data["sql"]).rows)
            assert via_sql == sorted(_rows(db, problem.data))


def test_the_harness_never_runs_in_this_process() -> None:
    # Model code reaches exec only inside the sandbox: the harness is data here.
    assert "exec(compile(tree" in common.PYTHON_HARNESS
    assert common.ReplayedPython().schema()["function"]["name"] == "python"


@pytest.mark.parametrize("env_id", PYTHON_ORACLES)
def test_an_independent_program_in_the_sandbox_finds_the_reference_answer(env_id: str) -> None:
    # The oracle's program is written differently from the generator (a direct simulation, memoised
    # recursion, csv parsing, bisection...): its printed result cross-checks the reference answer.
    source = make_source(env_id)
    for level in (0, 2, 4):
        for seed in range(2):
            problem = source.sample(level, seed)
            state = source.initial_state(problem)
            for move in source.plan(problem)[:-1]:
                outcome = source.play(problem, state, move)
                state = outcome.state
            printed = outcome.observation.replace("Decimal('", "").replace("'", "")
            if env_id == "tools/root_finding":  # printed with two more decimals than asked
                value = printed.split("<tool_response>\n")[1].split("\n")[0]
                assert source.judge(problem, value).correct, (level, seed, value, problem.answer)
            else:
                assert problem.answer in printed, (level, seed, problem.answer, printed[:300])


def test_root_finding_root_is_exact_and_inside_the_interval() -> None:
    from fractions import Fraction

    from palaestra.envs.tools.root_finding import _value

    source = make_source("tools/root_finding")
    for level in range(5):
        problem = source.sample(level, 3)
        root = Fraction(problem.data["root"])
        low, high = problem.data["interval"]
        assert low < root < high
        constant = float(Fraction(problem.data["constant"]))
        step = 10.0 ** -(problem.data["places"] + 1)
        terms = problem.data["terms"]
        assert _value(terms, float(root) - step) < constant < _value(terms, float(root) + step)


def test_date_answers_accept_other_spellings_but_not_a_wrong_weekday() -> None:
    from palaestra.envs.tools.date_arithmetic import read_date

    source = make_source("tools/date_arithmetic")
    problem = next(p for p in (source.sample(1, s) for s in range(40)) if "-" in p.answer[1:])
    assert source.judge(problem, problem.answer).correct
    assert read_date("Tuesday, March 19, 2047") is not None and read_date("Monday, March 19, 2047") is None
    assert read_date("03/04/2047") is None  # day and month order ambiguous


def test_data_files_are_rebuilt_identically_and_only_in_the_sandbox() -> None:
    source = make_source("tools/data_files")
    problem = source.sample(4, 1)
    files = source.python_files(problem)
    assert set(files) >= {"sales.csv"} and files == source.python_files(problem)
    rows = files["sales.csv"].splitlines()
    assert len(rows) == problem.data["files"]["rows"] + 1 and rows[1] in problem.prompt
    assert len(problem.prompt) < 6_000  # the file is not in the prompt
