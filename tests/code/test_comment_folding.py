"""The verdict cache folds candidates that differ only in comments and blank lines (#29): a group's
comment variants of a passing program run once; a report that did not pass (whose messages may name
lines) goes only to the text it was judged for; and the folding rules never merge two programs that
may behave differently (a comment-looking line inside a string, an encoding declaration)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import palaestra
from palaestra.core import Problem
from palaestra.verifiers.program_text import comment_free
from palaestra.verifiers.verdict_cache import ReportCache

# --- the rules (no sandbox) -------------------------------------------------------------------


@pytest.mark.no_sandbox
@pytest.mark.parametrize(("language", "one", "other"), [
    ("python", "def f(x):\n    return x + 1  # add one\n", "# f adds one\n\ndef f(x):\n\n    return x + 1\n"),
    ("python", "x = [1,\n  # first\n  2]\n", "x = [1,\n  2]\n"),
    ("c", "int f(int x) {\n  // add one\n  return x + 1;\n}\n", "int f(int x) {\n  return x + 1;   \n\n}"),
    ("cpp", "#include <string>\n// helper\nint f();\n", "#include <string>\nint f();\n"),
    ("javascript", "function f(x) {\n  // add one\n  return x + 1;\n}\n", "function f(x) {\n  return x + 1;\n}\n"),
    ("go", "package main\n// main\nfunc main() {}\n", "package main\nfunc main() {}\n"),
    ("lua", "-- add one\nlocal function f(x) return x + 1 end\n", "local function f(x) return x + 1 end\n"),
    ("sql", "-- the top rows\nSELECT a FROM t\n", "SELECT a FROM t"),
])
def test_comment_variants_fold_together(language: str, one: str, other: str) -> None:
    assert comment_free(language, one) is not None
    assert comment_free(language, one) == comment_free(language, other)


@pytest.mark.no_sandbox
@pytest.mark.parametrize(("language", "one", "other"), [
    # a comment-looking line inside a string is part of the string
    ("python", 's = """\n# not a comment\n"""\nprint(s)\n', 's = """\n"""\nprint(s)\n'),
    ("python", "print('# x')\n", "print('')\n"),
    # an encoding declaration changes how the file's bytes are read
    ("python", "# -*- coding: latin-1 -*-\nprint('é')\n", "print('é')\n"),
    ("python", "x = 1\n", "x = 2\n"),
    ("python", "if x:\n    y = 1\nz = 2\n", "if x:\n    y = 1\n    z = 2\n"),
    ("c", 'puts("// x");\n', 'puts("");\n'),
    ("sql", "SELECT 'a\n-- b\n' FROM t", "SELECT 'a\n' FROM t"),
])
def test_programs_that_may_differ_do_not_fold_together(language: str, one: str, other: str) -> None:
    assert comment_free(language, one) is None or comment_free(language, one) != comment_free(language, other)


@pytest.mark.no_sandbox
@pytest.mark.parametrize(("language", "code"), [
    ("c", "int f() {\n  /* a\n// b */ return 1;\n}\n"),  # block comments may hide or span lines
    ("cpp", 'auto s = R"(\n// kept\n)";\n'),  # a raw string spans lines
    ("javascript", "const s = `\n// kept\n`;\n"),  # a template literal spans lines
    ("go", "var s = `\n// kept\n`\n"),  # a raw string spans lines
    ("c", '#define S "a\\\n// b"\n'),  # a line continued by a backslash
    ("lua", "local s = [[\n-- kept\n]]\n"),  # a long string
    ("lua", 'local s = "a\\z\n-- kept"\n'),  # \z carries a string over the line break
    ("sql", "SELECT 1 /* -- */ FROM t"),
    ("sql", "SELECT [a\n-- b] FROM t"),  # a bracketed name may span lines
    ("python", 's = """never closed\n'),  # not tokenizable
    ("verilog", "module m; // x\nendmodule\n"),  # no rules for this language: exact text only
    ("bash", "# x\necho 1\n"),
])
def test_texts_the_rules_cannot_account_for_are_keyed_exactly(language: str, code: str) -> None:
    assert comment_free(language, code) is None


# --- the cache's hand-over rule (no sandbox) ----------------------------------------------------


@pytest.mark.no_sandbox
def test_a_report_goes_to_another_text_of_its_key_only_when_transferable() -> None:
    cache: ReportCache[str] = ReportCache(size=8)
    passing = lambda report: report == "pass"  # noqa: E731

    def judged(text: str, report: str) -> str:
        return cache.judged("key", lambda: report, keep=lambda r: True, text=text, transferable=passing)

    assert judged("a", "fail: line 3") == "fail: line 3"
    assert judged("a", "unused") == "fail: line 3"  # its own text: the same report
    assert judged("b", "fail: line 5") == "fail: line 5"  # another text: judged on its own
    assert judged("b", "unused") == "fail: line 5" and cache.computed == 2
    cache.clear()
    assert judged("a", "pass") == "pass" and judged("b", "unused") == "pass" and cache.computed == 3


# --- through the envs (the real sandbox) -------------------------------------------------------

COMMENTS = {"python": "# ", "c": "// ", "sql": "-- "}


def _variants(problem: Problem, language: str, count: int) -> list[str]:
    """The gold answer's program with ``count`` different comment lines added at its end."""
    gold = problem.answer or ""
    if gold.startswith("```"):
        head, _, tail = gold.rstrip().rpartition("```")
        return [f"{head}\n{COMMENTS[language]}variant {k}\n\n```{tail}" for k in range(count)]
    return [f"{gold.rstrip()}\n\n{COMMENTS[language]}variant {k}\n" for k in range(count)]


@pytest.mark.parametrize(("env_id", "language"), [
    ("code/array_pipeline", "python"), ("code/c_functions", "c"), ("code/sql_window", "sql")])
def test_comment_variants_of_a_passing_program_run_once(jobs: list[str], env_id: str, language: str) -> None:
    env = palaestra.make_source(env_id)
    problem = env.sample(0, 0)
    answers = _variants(problem, language, 6)
    with ThreadPoolExecutor(3) as pool:  # a GRPO group arrives at once
        verdicts = list(pool.map(lambda answer: env.verify(problem, answer), answers))
    assert all(v.correct for v in verdicts), verdicts
    assert len(jobs) == 1


def test_a_report_that_did_not_pass_is_not_handed_to_a_comment_variant(jobs: list[str]) -> None:
    env: Any = palaestra.make_source("code/array_pipeline")
    problem = env.sample(0, 0)
    wrong = "```python\ndef solve(*args, **kwargs):\n    return None\n```"
    variant = "```python\n# another text\ndef solve(*args, **kwargs):\n    return None\n```"
    assert not env.verify(problem, wrong).correct and len(jobs) == 1
    assert not env.verify(problem, variant).correct and len(jobs) == 2
    assert not env.verify(problem, wrong).correct and not env.verify(problem, variant).correct and len(jobs) == 2
