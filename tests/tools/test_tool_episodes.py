"""Search and SQL episodes end to end through the tool-use wrapper: problems store a corpus or
database spec (not the data), the wrapper binds the tools to each problem, and a policy that uses
the tools as an agent would reaches the ground truth. A sketch of the tools/* environments."""

from __future__ import annotations

import json
import re
from typing import Any

import gymnasium as gym
import pytest

pytest.importorskip("bm25s")

from palaestra.core import Problem
from palaestra.core.seeding import problem_rng
from palaestra.core.spaces import FreeText
from palaestra.generators import database as dbgen
from palaestra.generators import knowledge
from palaestra.tools import make_tools
from palaestra.tools.search import OpenTool
from palaestra.tools.sql import connect_readonly, results_match, run_query
from palaestra.wrappers.tool_use import ToolUseEnv

CORPUS = knowledge.CorpusParams(people=40, organisations=8, cities=10, countries=3, facts_per_document=2,
                                redundancy=2, paraphrase=0.5, alias_mentions=0.3, distractors=0.3,
                                wrong_documents=0.2, near_duplicates=0.2)
DATABASE = dbgen.DatabaseParams(tables=5, rows=40)
RELATION_WORDS = {"born_in": "born", "birth_year": "born year", "works_for": "works", "married_to": "married",
                  "founder": "founded", "ceo": "CEO chief executive", "founding_year": "founded year",
                  "headquarters": "headquarters", "country": "located", "population": "population",
                  "capital": "capital"}
ANSWER = re.compile(r"<answer>(.*?)</answer>", re.DOTALL)  # a fixed pattern on the policy's text


class SketchEnv(gym.Env[str, str]):
    """What a registered ``tools/multi_hop_qa`` or ``tools/text_to_sql`` task would generate and verify."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.observation_space = FreeText()
        self.action_space = FreeText()
        self.problem: Problem | None = None

    def generate(self, seed: int) -> Problem:
        rng = problem_rng(f"tools/{self.kind}", 2, seed)
        source_seed = rng.getrandbits(32)
        if self.kind == "multi_hop_qa":
            corpus = knowledge.build_corpus(source_seed, CORPUS)
            question = knowledge.multi_hop_question(corpus.world, rng, hops=rng.randint(1, 4))
            prompt = (f"Answer using the search and open tools. Documents marked (unverified) may be wrong.\n"
                      f"Question: {question.text}\nGive the answer as <answer>a name or number</answer>.")
            return Problem(env_id="tools/multi_hop_qa", level=2, seed=seed, prompt=prompt, answer=question.answer,
                           data={"corpus": knowledge.corpus_spec(source_seed, CORPUS), "question": question.to_dict()})
        db = dbgen.build_database(source_seed, DATABASE)
        question = dbgen.sql_question(db, rng, tier=rng.randint(0, 4))
        prompt = (f"Schema:\n{db.schema_sql()}\n\nWrite one SQLite query answering: {question.text}\n"
                  "You may try queries with the sql tool. Give the final query as <answer>SELECT ...</answer>.")
        return Problem(env_id="tools/text_to_sql", level=2, seed=seed, prompt=prompt, answer=question.sql,
                       data={"database": dbgen.database_spec(source_seed, DATABASE), "sql": question.sql,
                             "ordered": question.ordered})

    def verify(self, problem: Problem, text: str) -> bool:
        match = ANSWER.search(text[-20_000:])
        if match is None:
            return False
        if self.kind == "multi_hop_qa":
            return knowledge.answer_matches(match.group(1), knowledge.Question.from_dict(problem.data["question"]))
        db = dbgen.database_from_spec(problem.data["database"])
        conn = connect_readonly(db.path)
        try:
            expected = run_query(conn, problem.data["sql"], max_rows=10_000, timeout=2.0)
            got = run_query(conn, match.group(1), max_rows=10_000, timeout=2.0)
        finally:
            conn.close()
        return got.error is None and not got.truncated and results_match(expected.rows, got.rows,
                                                                           problem.data["ordered"])

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        self.problem = self.generate(int(seed or 0))
        return self.problem.prompt, {"problem": self.problem, "env_id": self.problem.env_id, "seed": seed}

    def step(self, action: str):
        assert self.problem is not None
        reward = float(self.verify(self.problem, action))
        return "", reward, True, False, {"correct": reward == 1.0}


def tool_call(name: str, **arguments: Any) -> str:
    return f'<tool_call>{json.dumps({"name": name, "arguments": arguments})}</tool_call>'


def search_oracle(env: ToolUseEnv, problem: Problem) -> str:
    """Search each hop's subject with the relation's words, open a verified hit, then answer."""
    corpus = knowledge.corpus_from_spec(problem.data["corpus"])
    question = knowledge.Question.from_dict(problem.data["question"])
    for subject, relation, _ in question.facts:
        name = corpus.world.entities[subject].name
        obs, *_ = env.step(tool_call("search", query=f"{name} {RELATION_WORDS[relation]}", k=5))
        ids = re.findall(r"^\d+\. \[(d\d+)\]", obs, re.MULTILINE)
        stating = [d.id for d in corpus.stating(subject, relation)]
        chosen = next((i for i in ids if i in stating), stating[0])
        obs, *_ = env.step(tool_call("open", doc_id=chosen))
        assert "(verified)" in obs
    return f"<answer>{question.answer}</answer>"


@pytest.mark.parametrize("seed", range(6))
def test_multi_hop_episode_with_search_and_open(seed: int) -> None:
    env = ToolUseEnv(SketchEnv("multi_hop_qa"), tools=make_tools(["search"]) + [OpenTool()], max_calls=10)
    prompt, info = env.reset(seed=seed)
    problem = info["problem"]
    assert len(json.dumps(problem.data)) < 2_000  # the spec, not the corpus
    assert Problem.from_json(problem.to_json()) == problem
    answer = search_oracle(env, problem)
    _, reward, terminated, _, info = env.step(answer)
    assert terminated and reward == 1.0
    assert info["tool_output_spans"] and all(info["transcript"][a:b].startswith("<tool_response>")
                                             for a, b in info["tool_output_spans"])
    env.reset(seed=seed)
    _, wrong, *_ = env.step("<answer>Nobody Atall</answer>")
    assert wrong == 0.0


@pytest.mark.parametrize("seed", range(6))
def test_text_to_sql_episode_with_the_sql_tool(seed: int) -> None:
    env = ToolUseEnv(SketchEnv("text_to_sql"), tools=make_tools(["sql"]), max_calls=4)
    _, info = env.reset(seed=seed)
    problem = info["problem"]
    reference = problem.data["sql"]
    obs, *_ = env.step(tool_call("sql", query=reference))
    assert not obs.split("<tool_response>\n", 1)[1].startswith("error")
    obs, *_ = env.step(tool_call("sql", query="DROP TABLE " + dbgen.database_from_spec(problem.data["database"])
                                 .tables[0].name))
    assert "error: not allowed" in obs
    _, reward, terminated, _, _ = env.step(f"<answer>{reference}</answer>")
    assert terminated and reward == 1.0
    env.reset(seed=seed)
    _, wrong, *_ = env.step("<answer>SELECT 1</answer>")
    assert wrong == 0.0


def test_an_equivalent_query_is_accepted_and_a_near_miss_is_not() -> None:
    env = SketchEnv("text_to_sql")
    for seed in range(30):
        problem = env.generate(seed)
        sql = problem.data["sql"]
        if sql.startswith("SELECT COUNT(*) FROM") and " WHERE " in sql and " JOIN " not in sql:
            table, condition = sql[len("SELECT COUNT(*) FROM "):].split(" WHERE ", 1)
            rewritten = f"SELECT SUM(CASE WHEN {condition} THEN 1 ELSE 0 END) FROM {table}"
            assert env.verify(problem, f"<answer>{rewritten}</answer>"), rewritten
            assert not env.verify(problem, f"<answer>SELECT COUNT(*) FROM {table}</answer>")
            return
    pytest.fail("no filtered count question among 30 seeds")
